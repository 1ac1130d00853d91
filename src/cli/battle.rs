//! The text battle (`bterm battle`), replays (`bterm replay`) and the
//! design measures (`bterm analyze`). The battle is the session's driver
//! with a keyboard for the people: every question, default and timeout is
//! the session's, so the arena and the terminal play the same game.

use std::io::{BufRead, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use clap::Args;

use super::{CliError, escape_lines, load_set};
use crate::ai::Strength;
use crate::cards::{BattleType, Card, CardNumber, CardSet};
use crate::replay::{self, Replay};
use crate::rules::terminal::{Match, Setup};
use crate::rules::{Question, Reply, Ruleset, RulesetId, RulesetVisitor, Seat, dispatch};
use crate::session::{People, Player, Table, Window, drive};

/// `bterm battle`.
#[derive(Debug, Args)]
pub struct BattleArgs {
    /// Player 1's team: card numbers or names, comma-separated ("Dα-001,Dα-002,Oα-003"); "" for a default partner.
    pub team_a: String,
    /// Player 2's team.
    pub team_b: String,
    /// The seed (the same seed and inputs play the same battle).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Who plays P1: human, easy, normal or hard (the last three are the CPU).
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    pub p1: Player,
    /// Who plays P2: human, easy, normal or hard.
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p2: Player,
    /// Give people this many seconds for each question, as the cabinet's
    /// timer does; no answer in time is the question's default (the
    /// printed battle type, digivolve, don't block, no). Off by default.
    #[arg(long, value_name = "SECONDS")]
    pub timer: Option<f32>,
    /// Save the battle as a replay file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// Keep the battle out of the rankings.
    #[arg(long)]
    pub no_record: bool,
    /// The collection's database, where the rankings are kept.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

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

/// `bterm analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Battles between equal-Cost teams to play (at most 1,000,000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub battles: u32,
    /// The CPU strength of both players: easy, normal or hard.
    #[arg(long, default_value = "normal", value_name = "STRENGTH")]
    pub level: Strength,
    /// Seed for team generation and battles.
    #[arg(long, default_value_t = 2006)]
    pub seed: u64,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// A typed team with a card the set does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("error: team \"{team}\": {error}")]
pub struct TeamError {
    /// The team as typed.
    pub team: String,
    /// Why a card of it was not found.
    pub error: crate::cards::ResolveError,
}

/// Parses a team typed as card numbers or names, comma-separated.
pub fn parse_team(text: &str, cards: &CardSet) -> Result<Vec<CardNumber>, TeamError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            cards
                .resolve(t)
                .map(Card::number)
                .map_err(|error| TeamError {
                    team: text.to_string(),
                    error,
                })
        })
        .collect()
}

/// The longest `--timer` (a day, in seconds).
const MAX_TIMER: f32 = 86_400.0;

pub(super) fn battle(args: BattleArgs) -> Result<(), CliError> {
    if let Some(t) = args.timer
        && !(t > 0.0 && t <= MAX_TIMER)
    {
        return Err(CliError::usage(format!(
            "--timer {t}: give a number of seconds above 0 and at most {MAX_TIMER}"
        )));
    }
    save_is_free(args.save.as_deref())?;
    let set = load_set(args.cards.as_deref())?;
    let teams = [
        parse_team(&args.team_a, &set).map_err(|e| CliError::usage(e.to_string()))?,
        parse_team(&args.team_b, &set).map_err(|e| CliError::usage(e.to_string()))?,
    ];
    let setup = Setup::new(teams[0].clone(), teams[1].clone(), args.seed);
    let mut table: Table<Match> = Table::new(setup, &set, vec![args.p1, args.p2])
        .map_err(|e| CliError::usage(format!("error: {e}")))?;
    let mut keyboard = Keyboard {
        lines: keyboard_lines(),
        timer: args.timer,
        cards: &set,
        out: std::io::stdout(),
    };
    let played = drive(&mut table, &set, &mut keyboard);
    if played.is_ok() && table.is_over() && !args.no_record {
        super::collection::record_battle(
            args.db.as_deref(),
            &crate::collection::rankings::BattleRecord::terminal(&table, "cli"),
        );
    }
    finish(
        &table,
        played,
        args.save.as_deref(),
        &mut keyboard.out,
        "battle",
        "teams",
    )
}

/// Refuses a `--save` file that already exists, before a game starts.
pub(super) fn save_is_free(path: Option<&Path>) -> Result<(), CliError> {
    match path {
        Some(p) if std::fs::symlink_metadata(p).is_ok() => Err(CliError::usage(format!(
            "error: {} already exists; choose another file for --save",
            escape_lines(&p.display().to_string())
        ))),
        _ => Ok(()),
    }
}

/// After a driven game: one that stopped before its end is a bug to
/// report (`what` is played with `inputs`); the replay is saved when asked,
/// only if the file still does not exist (not even one made during the game).
pub(super) fn finish<R: Ruleset>(
    table: &Table<R>,
    played: Result<(), CliError>,
    save: Option<&Path>,
    out: &mut impl std::io::Write,
    what: &str,
    inputs: &str,
) -> Result<(), CliError> {
    let played = played.and_then(|()| {
        if table.is_over() {
            Ok(())
        } else {
            Err(CliError::failed(format!(
                "error: the {what} stopped before its end: nobody could move (a bug; please report it with the seed and {inputs})"
            )))
        }
    });
    if let Some(path) = save {
        Replay::of(table)
            .save_new(path)
            .map_err(|e| CliError::failed(format!("error: cannot save the replay: {e}")))?;
        let _ = writeln!(
            out,
            "replay saved to {}",
            escape_lines(&path.display().to_string())
        );
    }
    played
}

/// The longest line read from the keyboard; the rest of a longer one is
/// skipped (a key is a few characters, and stdin may be a file of zeros).
const MAX_LINE: u64 = 1024;

/// Lines typed at the keyboard, read on their own thread so that a question
/// can time out. One line waits at a time, and each is at most
/// [`MAX_LINE`] bytes, so memory stays bounded whatever stdin holds.
pub(super) fn keyboard_lines() -> Receiver<std::io::Result<String>> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let mut line = Vec::new();
            let read = (&mut input).take(MAX_LINE).read_until(b'\n', &mut line);
            let line = match read {
                Ok(0) => break,
                Ok(_) => {
                    if !line.ends_with(b"\n") {
                        // Skip the rest of an over-long line, a chunk at a time.
                        let mut rest = Vec::new();
                        loop {
                            rest.clear();
                            match (&mut input).take(MAX_LINE).read_until(b'\n', &mut rest) {
                                Ok(0) => break,
                                Ok(_) if rest.ends_with(b"\n") => break,
                                Ok(_) => {}
                                Err(_) => break,
                            }
                        }
                    }
                    Ok(String::from_utf8_lossy(&line).into_owned())
                }
                Err(e) => Err(e),
            };
            let stop = line.is_err();
            if tx.send(line).is_err() || stop {
                break;
            }
        }
    });
    rx
}

/// The people of a text battle: questions printed, answers typed.
pub(super) struct Keyboard<'a> {
    pub(super) lines: Receiver<std::io::Result<String>>,
    pub(super) timer: Option<f32>,
    pub(super) cards: &'a CardSet,
    pub(super) out: std::io::Stdout,
}

/// The Terminal Battle at the terminal: a team of card numbers or names,
/// the host's player on the keys.
impl super::TextGame for Match {
    type Front<'a> = Keyboard<'a>;
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
        parse_team(arg, set).map_err(|e| CliError::usage(e.to_string()))
    }
    fn front(keys: Keyboard<'_>) -> Keyboard<'_> {
        keys
    }
}

impl<R: Ruleset> People<R> for Keyboard<'_> {
    type Error = CliError;

    fn ask(
        &mut self,
        _: &Table<R>,
        seat: Seat,
        question: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, CliError> {
        // (The question's own `seconds` are the cabinet's; see `timer`.)
        self.ask_prompt(seat, &question.prompt)
    }

    fn show(&mut self, events: &[R::Event]) {
        for e in events {
            let _ = writeln!(self.out, "{}", escape_lines(&R::describe(e, self.cards)));
        }
    }
}

impl Keyboard<'_> {
    /// Asks a prompt until a key it knows is typed; `Ok(None)` when the
    /// timer ran out.
    pub(super) fn ask_prompt<A: Copy>(
        &mut self,
        seat: Seat,
        prompt: &crate::rules::Prompt<A>,
    ) -> Result<Option<Reply<A>>, CliError> {
        for line in &prompt.lines {
            let _ = writeln!(self.out, "{}", escape_lines(line));
        }
        // Every question gets the --timer's seconds: a person at a terminal
        // types slower than one at the buttons.
        let timer = self.timer;
        let deadline = timer.and_then(|t| {
            std::time::Instant::now().checked_add(Duration::try_from_secs_f32(t).ok()?)
        });
        loop {
            match timer {
                Some(t) => write!(self.out, "{}({t} s) ", escape_lines(&prompt.text)),
                None => write!(self.out, "{}", escape_lines(&prompt.text)),
            }
            .and_then(|()| self.out.flush())
            .map_err(|e| CliError::failed(format!("error: cannot write the output: {e}")))?;
            let line = match deadline {
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(std::time::Instant::now())),
            };
            let line = match line {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => {
                    return Err(CliError::failed(format!(
                        "error: cannot read the keyboard: {e}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = writeln!(self.out, "\n  time is up");
                    return Ok(None);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(CliError::failed(format!(
                        "error: the input closed while waiting for {seat}'s choice; use --{} easy|normal|hard for a CPU player",
                        seat.to_string().to_lowercase()
                    )));
                }
            };
            match prompt.reply(&line) {
                Some(reply) => return Ok(Some(reply)),
                None => {
                    let _ = writeln!(
                        self.out,
                        "  \"{}\" is not a choice now",
                        super::escape(line.trim())
                    );
                }
            }
        }
    }

    /// Waits for Enter (the curtain between two people at one terminal).
    pub(super) fn wait_enter(&mut self) -> Result<(), CliError> {
        match self.lines.recv() {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(CliError::failed(format!(
                "error: cannot read the keyboard: {e}"
            ))),
            Err(_) => Err(CliError::failed(
                "error: the input closed at the curtain between two players",
            )),
        }
    }
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

pub(super) fn analyze(args: AnalyzeArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    let r = crate::analysis::analyze(
        &set,
        args.battles as usize,
        [args.level, args.level],
        args.seed,
    );
    let mut out = std::io::stdout().lock();
    let w = |out: &mut std::io::StdoutLock<'_>, s: String| {
        writeln!(out, "{s}").map_err(|e| CliError::failed(format!("error: {e}")))
    };
    w(&mut out, "Stance payoff matrix (P1's points swing; rows P1's stance, columns P2's), averaged over every pair of Digimon:".into())?;
    w(&mut out, "        P2 A     P2 B     P2 C".into())?;
    for (i, row) in r.stance_matrix.iter().enumerate() {
        w(
            &mut out,
            format!(
                "P1 {}  {:>7.2}  {:>7.2}  {:>7.2}",
                BattleType::ALL[i],
                row[0],
                row[1],
                row[2]
            ),
        )?;
    }
    let dominant = if r.dominant_rows.is_empty() {
        "none".to_string()
    } else {
        format!("{:?}", r.dominant_rows)
    };
    w(&mut out, format!("Dominant row: {dominant}"))?;
    w(
        &mut out,
        format!(
            "Single matchups with a dominant stance: {:.1}%",
            100.0 * r.matchups_with_dominant_stance
        ),
    )?;
    let n = r.battles.max(1) as f64;
    w(
        &mut out,
        format!(
            "Equal-Cost battles ({:?} vs {:?}): {} — P1 wins {:.1}%, P2 wins {:.1}%, draws {:.1}%",
            args.level,
            args.level,
            r.battles,
            100.0 * r.results[0] as f64 / n,
            100.0 * r.results[1] as f64 / n,
            100.0 * r.results[2] as f64 / n
        ),
    )?;
    w(
        &mut out,
        format!(
            "Rounds per battle: mean {:.2}, median {}, range {}–{}",
            r.rounds.0, r.rounds.1, r.rounds.2, r.rounds.3
        ),
    )?;
    for (a, b) in [
        (Strength::Hard, Strength::Normal),
        (Strength::Hard, Strength::Easy),
        (Strength::Normal, Strength::Easy),
    ] {
        let [wa, wb, d] = crate::analysis::level_duel(&set, args.battles as usize, a, b, args.seed);
        let total = (wa + wb + d).max(1) as f64;
        let pct = |x: usize| 100.0 * x as f64 / total;
        w(
            &mut out,
            format!(
                "{a:?} vs {b:?} ({} battles, seats swapped): {a:?} wins {:.1}%, {b:?} wins {:.1}%, draws {:.1}%",
                wa + wb + d,
                pct(wa),
                pct(wb),
                pct(d)
            ),
        )?;
    }
    Ok(())
}
