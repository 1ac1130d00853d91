//! `bterm replay`: a saved game (a file, or a picture of a battle card)
//! checked to play to its recorded end, printed, staged in the arena, made
//! a clip, listed, shared as a battle card.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{CliError, escape_lines, load_set};
use crate::cards::{CardNumber, CardSet};
use crate::replay::{self, Replay};
use crate::rules::{Ruleset, RulesetId, RulesetVisitor, Seat, dispatch};
use crate::session::Window;

/// `bterm replay`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ReplayArgs {
    /// Make a battle card of a replay.
    #[command(subcommand)]
    pub command: Option<ReplayCommand>,
    /// The replay file, or a picture of a battle card (`bterm replay share`).
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// Replay in text only, with no window (prints the battle's log).
    #[arg(long)]
    pub headless: bool,
    /// No sound in the viewer.
    #[arg(long)]
    pub mute: bool,
    /// Render the battle off-screen to an animated GIF instead of opening
    /// the viewer: the viewer's shots at a fixed frame rate and size.
    #[arg(long, value_name = "OUT.gif")]
    pub clip: Option<PathBuf>,
    /// With --clip: the first round shown.
    #[arg(long, value_name = "ROUND", requires = "clip")]
    pub from: Option<u32>,
    /// With --clip: the last round shown.
    #[arg(long, value_name = "ROUND", requires = "clip")]
    pub to: Option<u32>,
    /// With --clip: the size, width x height (854x480).
    #[arg(long, value_name = "WxH", default_value = "854x480", value_parser = parse_size, requires = "clip")]
    pub size: (u32, u32),
    /// With --clip: frames per second.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60), requires = "clip")]
    pub fps: u32,
    /// With --clip: playback speed, one of the viewer's: 0.5, 1, 2, 4, 8.
    #[arg(long, default_value_t = 2.0, requires = "clip")]
    pub speed: f32,
    /// With --clip: overwrite the clip if it exists.
    #[arg(long, requires = "clip")]
    pub force: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm replay share`.
#[derive(Debug, clap::Subcommand)]
pub enum ReplayCommand {
    /// Print a battle as a card-sized sheet (PNG or PDF) whose QR code holds
    /// the whole replay: `bterm replay PICTURE` or the arena's scan screen
    /// plays it back.
    Share(ShareArgs),
    /// List the saved replays (the data folder's `replays/`): ruleset,
    /// players' cards, winner, date, length, and whether each plays back
    /// the same (with the reason when it does not).
    List(ListArgs),
}

/// `bterm replay list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// The folder of replays (default: the data folder's `replays/`).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// One JSON array instead of text.
    #[arg(long)]
    pub json: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm replay share FILE --out battle.png`.
#[derive(Debug, Args)]
pub struct ShareArgs {
    /// The replay file.
    pub file: PathBuf,
    /// The battle card to write: a .png, or a .pdf of one card-sized page.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Overwrite the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

pub(super) fn replay(args: ReplayArgs, window: Option<&dyn Window>) -> Result<(), CliError> {
    match args.command {
        Some(ReplayCommand::Share(share)) => return share_replay(&share),
        Some(ReplayCommand::List(list)) => return list_replays(&list),
        None => {}
    }
    let Some(file) = args.file else {
        return Err(CliError::usage(
            "error: name a replay file or a picture of a battle card",
        ));
    };
    let set = load_set(args.cards.as_deref())?;
    let name = escape_lines(&file.display().to_string());
    let fail = |e: replay::ReplayError| CliError::failed(format!("error: {e}"));
    let (text, ruleset) = if crate::barcode::files::is_image_name(&file) {
        let decoded = read_battle_card(&file)?;
        (decoded.text, decoded.ruleset)
    } else {
        let text = replay::read(&file).map_err(fail)?;
        let ruleset = replay::ruleset_of(&text, &name).map_err(fail)?;
        (text, ruleset)
    };
    if let Some(out) = &args.clip {
        let Some(w) = window else {
            return Err(CliError::failed(
                "error: this bterm was built without the arena (cargo feature `arena`), which renders clips",
            ));
        };
        if !w.clips().contains(&ruleset) {
            let made: Vec<&str> = w.clips().iter().map(|id| id.name()).collect();
            return Err(CliError::failed(format!(
                "error: clips are made of {} games (the arena stages those); a {ruleset} game has its text log: --headless",
                made.join(", ")
            )));
        }
        dispatch(
            ruleset,
            CheckReplay {
                text: &text,
                file: &file,
                cards: &set,
                print: false,
            },
        )?;
        let path = if crate::barcode::files::is_image_name(&file) {
            save_card_replay(&text)?
        } else {
            file.clone()
        };
        let options = crate::session::ClipOptions {
            out: out.clone(),
            from: args.from,
            to: args.to,
            width: args.size.0,
            height: args.size.1,
            fps: args.fps,
            speed: args.speed,
            force: args.force,
        };
        return make_clip(&path, set, &options, window);
    }
    // The arena stages both: the Terminal Battle in the replay viewer, a
    // Card Game Alpha game on its table; `--headless` prints the log.
    let headless = args.headless || window.is_none();
    dispatch(
        ruleset,
        CheckReplay {
            text: &text,
            file: &file,
            cards: &set,
            print: headless,
        },
    )?;
    match window {
        Some(w) if !headless => {
            // A battle card's replay is kept with the others, and the
            // viewer plays it from there.
            let path = if crate::barcode::files::is_image_name(&file) {
                let path = save_card_replay(&text)?;
                eprintln!(
                    "the battle card's replay is saved as {}",
                    escape_lines(&path.display().to_string())
                );
                path
            } else {
                file
            };
            w.replay(&path, set, args.mute)
                .map_err(|e| CliError::failed(e.to_string()))
        }
        _ => Ok(()),
    }
}

/// `WIDTHxHEIGHT`, 64×64 to 3840×2160.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or("write the size as WIDTHxHEIGHT, e.g. 854x480")?;
    let (w, h): (u32, u32) = (
        w.trim()
            .parse()
            .map_err(|_| format!("{w:?} is not a width"))?,
        h.trim()
            .parse()
            .map_err(|_| format!("{h:?} is not a height"))?,
    );
    if !(64..=3840).contains(&w) || !(64..=2160).contains(&h) {
        return Err("the size must be from 64x64 to 3840x2160".into());
    }
    Ok((w, h))
}

/// Renders a checked Terminal Battle replay to a clip, with a progress bar.
fn make_clip(
    file: &Path,
    set: CardSet,
    options: &crate::session::ClipOptions,
    window: Option<&dyn Window>,
) -> Result<(), CliError> {
    let Some(w) = window else {
        return Err(CliError::failed(
            "error: this bterm was built without the arena (cargo feature `arena`), which renders clips",
        ));
    };
    let out = &options.out;
    let start = std::time::Instant::now();
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut last_shown = (0u32, 0usize);
    let mut progress = |round: u32, last: u32, frames: usize| {
        if !interactive || (round, frames / 12) == (last_shown.0, last_shown.1 / 12) {
            return;
        }
        last_shown = (round, frames);
        let width = 30usize;
        let done = if last == 0 {
            width
        } else {
            (round as usize * width / last as usize).min(width)
        };
        eprint!(
            "\rrendering [{}{}] round {round}/{last} · {frames} frames",
            "#".repeat(done),
            " ".repeat(width - done)
        );
    };
    let report = w
        .clip(file, set, options, &mut progress)
        .map_err(|e| CliError::failed(escape_lines(&e.to_string())))?;
    if interactive {
        eprintln!();
    }
    println!(
        "wrote {}: {} frames at {}×{}, {} fps ({:.1} s), rendered in {:.1} s",
        escape_lines(&out.display().to_string()),
        report.frames,
        report.width,
        report.height,
        options.fps,
        report.frames as f64 / f64::from(options.fps),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Reads the battle card in a picture: its QR code's replay.
fn read_battle_card(file: &Path) -> Result<replay::code::Decoded, CliError> {
    use crate::barcode::{self, Content, code};
    let name = escape_lines(&file.display().to_string());
    let img = barcode::files::load_gray(file, barcode::files::MAX_PIXELS)
        .map_err(|e| CliError::failed(format!("error: {name}: {e}")))?;
    let found = barcode::decode(&img, barcode::Effort::File);
    let Some(symbol) = found
        .symbols
        .iter()
        .find(|s| code::classify(s) == Content::Battle)
    else {
        let why = if found.symbols.is_empty() {
            "no barcode found; photograph the battle card's QR code flat, filling most of the picture".to_string()
        } else {
            format!(
                "it holds no battle card's QR code (found: {})",
                found
                    .symbols
                    .iter()
                    .map(|s| format!("{} \"{}\"", s.format.name(), escape_lines(&s.text)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(CliError::failed(format!("error: {name}: {why}")));
    };
    replay::code::decode(&symbol.text).map_err(|e| CliError::failed(format!("error: {name}: {e}")))
}

/// Saves a battle card's replay in the data folder's `replays`.
fn save_card_replay(text: &str) -> Result<PathBuf, CliError> {
    let dir = crate::save::data_dir()
        .map(|d| d.join("replays"))
        .ok_or_else(|| {
            CliError::failed("error: no data folder to keep the battle card's replay in; set BTERM_DATA_DIR, or use --headless")
        })?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let hash = crate::fingerprint::fnv1a(text.as_bytes());
    replay::save_text_in(&dir, &format!("card-{stamp}-{hash:016x}"), text)
        .map_err(|e| CliError::failed(format!("error: {}", escape_lines(&e.to_string()))))
}

/// `bterm replay list`.
fn list_replays(args: &ListArgs) -> Result<(), CliError> {
    use crate::replay::gallery;
    let set = load_set(args.cards.as_deref())?;
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => crate::save::data_dir()
            .map(|d| d.join("replays"))
            .ok_or_else(|| {
                CliError::failed("error: no data folder (set BTERM_DATA_DIR, or give --dir DIR)")
            })?,
    };
    let shown_dir = escape_lines(&dir.display().to_string());
    if !dir.is_dir() {
        if args.dir.is_some() {
            return Err(CliError::failed(format!(
                "error: {shown_dir} is not a folder"
            )));
        }
        if args.json {
            println!("[]");
        } else {
            println!("no replays yet: battles are saved to {shown_dir} as they are played");
        }
        return Ok(());
    }
    let (entries, errors) = gallery::list(&dir, &set);
    for (path, e) in &errors {
        eprintln!(
            "warning: {}: cannot read this folder: {e}",
            escape_lines(&path.display().to_string())
        );
    }
    let names = |seat: &[CardNumber]| gallery::seat_words(&set, seat, 3);
    let winner = |e: &gallery::Entry| match e.outcome {
        Some(crate::rules::Outcome::Win(s)) => format!("{s} won"),
        Some(crate::rules::Outcome::Draw) => "draw".to_string(),
        None if e.verified() => "unfinished".to_string(),
        None => "—".to_string(),
    };
    let date = |e: &gallery::Entry| {
        e.modified.map_or_else(
            || "unknown date".to_string(),
            crate::collection::time::format,
        )
    };
    if args.json {
        let rows: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "file": e.path.display().to_string(),
                    "ruleset": e.ruleset.map(|r| format!("{r:?}")),
                    "seats": e.seats.iter().map(|s| serde_json::json!({
                        "cards": s.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        "names": names(s),
                    })).collect::<Vec<_>>(),
                    "result": winner(e),
                    "actions": e.actions,
                    "date": e.modified.map(crate::collection::time::format),
                    "verified": e.verified(),
                    "problem": e.problem,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_else(|_| "[]".into())
        );
        return Ok(());
    }
    if entries.is_empty() {
        println!("no replays in {shown_dir}");
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    for e in &entries {
        let file = escape_lines(
            &e.path
                .strip_prefix(&dir)
                .unwrap_or(&e.path)
                .display()
                .to_string(),
        );
        let ruleset = e.ruleset.map_or("?", RulesetId::name);
        let _ = writeln!(out, "{file}  {}  {ruleset}", date(e));
        if !e.seats.is_empty() {
            let seats: Vec<String> = e
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| format!("P{} {}", i + 1, escape_lines(&names(s))))
                .collect();
            let _ = writeln!(out, "  {}", seats.join("  vs  "));
        }
        match &e.problem {
            None => {
                let _ = writeln!(out, "  {} in {} actions · verified", winner(e), e.actions);
            }
            Some(p) => {
                let _ = writeln!(out, "  does not play back: {}", escape_lines(p));
            }
        }
    }
    let bad = entries.iter().filter(|e| !e.verified()).count();
    let _ = writeln!(
        out,
        "{} replays in {shown_dir}{}",
        entries.len(),
        if bad > 0 {
            format!(", {bad} of them do not play back (kept as they are)")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// `bterm replay share`: checks the replay, then prints its battle card.
fn share_replay(args: &ShareArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    let name = args.file.display().to_string();
    let fail = |e: replay::ReplayError| CliError::failed(format!("error: {e}"));
    let text = replay::read(&args.file).map_err(fail)?;
    let ruleset = replay::ruleset_of(&text, &name).map_err(fail)?;
    dispatch(
        ruleset,
        ShareReplay {
            text: &text,
            file: &args.file,
            cards: &set,
            out: &args.out,
            force: args.force,
        },
    )
}

/// Plays a replay to check it, and prints its battle card.
struct ShareReplay<'a> {
    text: &'a str,
    file: &'a Path,
    cards: &'a CardSet,
    out: &'a Path,
    force: bool,
}

impl RulesetVisitor for ShareReplay<'_> {
    type Output = Result<(), CliError>;

    fn visit<R: Ruleset>(self) -> Result<(), CliError> {
        use crate::barcode::print::{BattleCardText, print_battle_card};
        let name = escape_lines(&self.file.display().to_string());
        let replay = Replay::<R>::parse(self.text, &name)
            .map_err(|e| CliError::failed(format!("error: {e}")))?;
        let m = replay.play(self.cards, |_| {}).map_err(|e| {
            CliError::failed(format!(
                "error: {name}: {e}; only a replay that plays back the same is printed"
            ))
        })?;
        let qr = replay::code::encode(&replay)
            .map_err(|e| CliError::failed(format!("error: {name}: {e}")))?;
        let seat_cards = R::seat_cards(&replay.setup);
        let seat_count = seat_cards.len();
        let seats = seat_cards
            .iter()
            .enumerate()
            .map(|(i, cards)| {
                let seat = Seat::new(i).map_or_else(|| format!("P{}", i + 1), |s| s.to_string());
                let shown = crate::replay::gallery::seat_words(
                    self.cards,
                    cards,
                    if seat_count > 2 { 3 } else { 5 },
                );
                (seat, shown)
            })
            .collect();
        let result = match m.outcome() {
            Some(crate::rules::Outcome::Win(s)) => format!("{s} won"),
            Some(crate::rules::Outcome::Draw) => "a draw".to_string(),
            None => "not finished".to_string(),
        };
        let words = BattleCardText {
            title: m.title(),
            seats,
            result,
            footer: format!(
                "{} actions · seed {} · state {:016x}",
                replay.actions.len(),
                R::seed(&replay.setup),
                replay.final_hash
            ),
        };
        let out = escape_lines(&self.out.display().to_string());
        print_battle_card(&words, &qr, self.out, self.force)
            .map_err(|e| CliError::failed(format!("error: {}", escape_lines(&e.to_string()))))?;
        let back = if self
            .out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
        {
            "print it; a photo of it plays back with `bterm replay PHOTO`".to_string()
        } else {
            format!("play it back with `bterm replay {out}`, or from a photo of it")
        };
        println!(
            "wrote {out}: a battle card of {} actions ({} characters of QR code); {back}",
            replay.actions.len(),
            qr.len()
        );
        Ok(())
    }
}

/// Plays a replay's text by its own ruleset and checks its final hash,
/// printing its log when asked.
struct CheckReplay<'a> {
    text: &'a str,
    file: &'a Path,
    cards: &'a CardSet,
    print: bool,
}

impl RulesetVisitor for CheckReplay<'_> {
    type Output = Result<(), CliError>;

    fn visit<R: Ruleset>(self) -> Result<(), CliError> {
        let name = self.file.display().to_string();
        let fail = |e: replay::ReplayError| CliError::failed(format!("error: {name}: {e}"));
        let replay = Replay::<R>::parse(self.text, &name)
            .map_err(|e| CliError::failed(format!("error: {e}")))?;
        let mut out = std::io::stdout().lock();
        let print = self.print;
        let m = replay
            .play(self.cards, |e| {
                if print {
                    let _ = writeln!(out, "{}", escape_lines(&R::describe(e, self.cards)));
                }
            })
            .map_err(fail)?;
        if print {
            if let Some(verdict) = m.verdict(self.cards) {
                let _ = writeln!(out, "{}", escape_lines(&verdict));
            }
            let _ = writeln!(
                out,
                "replay checked: {} actions, final state hash {:016x} matches",
                replay.actions.len(),
                m.state_hash()
            );
        }
        Ok(())
    }
}
