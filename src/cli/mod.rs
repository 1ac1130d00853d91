//! The command line: `bterm [play]`, `bterm cards check|list|show`,
//! `bterm battle|replay|analyze`, and the scanner's `print|scan|enroll`.

mod scan;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::ai::Level;
use crate::cards::{BattleType, Card, CardNumber, CardSet, Field, LevelQuery, Requirements};
use crate::effects::text::render;
use crate::replay::Replay;
use crate::rules::Side;
use crate::rules::terminal::{Action, Match, Setup, analysis, log};

/// bterm — the Digimon Battle Terminal on a PC.
#[derive(Debug, Parser)]
#[command(name = "bterm", version, about, long_about = None)]
pub struct Cli {
    /// What to do; with none, start the game.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the 3D arcade game (the default).
    Play(PlayArgs),
    /// Check, list and show cards.
    #[command(subcommand)]
    Cards(CardsCommand),
    /// Play a Terminal Battle in the terminal (a human presses a/b/c or 1/2/3).
    Battle(BattleArgs),
    /// Play a saved battle back, print its log and check it ends the same.
    Replay(ReplayArgs),
    /// Measure the Terminal rules over the card set (stance matrix, win rates, rounds).
    Analyze(AnalyzeArgs),
    /// Render printable cards (300 dpi, with their barcodes) to PNG or PDF.
    Print(scan::PrintArgs),
    /// Read card barcodes from image files, folders, a folder of frames or a webcam.
    Scan(scan::ScanArgs),
    /// Bind the barcode in a picture to a card, so later scans of it resolve.
    Enroll(scan::EnrollArgs),
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Controller {
    /// A person at the keyboard.
    Human,
    /// CPU: random legal actions.
    Easy,
    /// CPU: greedy on this round.
    #[default]
    Normal,
    /// CPU: the stance game's Nash equilibrium.
    Hard,
}

impl Controller {
    fn level(self) -> Option<Level> {
        match self {
            Controller::Human => None,
            Controller::Easy => Some(Level::Easy),
            Controller::Normal => Some(Level::Normal),
            Controller::Hard => Some(Level::Hard),
        }
    }
}

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
    /// Who plays P1.
    #[arg(long, value_enum, default_value_t = Controller::Human)]
    pub p1: Controller,
    /// Who plays P2.
    #[arg(long, value_enum, default_value_t = Controller::Normal)]
    pub p2: Controller,
    /// Save the battle as a replay file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file.
    pub file: PathBuf,
    /// Replay in text only, with no window (prints the battle's log).
    #[arg(long)]
    pub headless: bool,
    /// No sound in the viewer.
    #[arg(long)]
    pub mute: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Battles between equal-Cost teams to play.
    #[arg(long, default_value_t = 1000)]
    pub battles: usize,
    /// The CPU level of both players.
    #[arg(long, value_enum, default_value_t = Level::Normal)]
    pub level: Level,
    /// Seed for team generation and battles.
    #[arg(long, default_value_t = 2006)]
    pub seed: u64,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// Options for the game window.
#[derive(Debug, Clone, Default, Args)]
pub struct PlayArgs {
    /// Card scans (image files or folders) for P1's team, read at the scan screen.
    #[arg(value_name = "SCAN")]
    pub scans: Vec<PathBuf>,
    /// Card scans for P2's team (repeat the option for more).
    #[arg(long = "p2-scan", value_name = "SCAN")]
    pub p2_scans: Vec<PathBuf>,
    /// Who plays P2 when the scan screen opens (a button changes it there).
    #[arg(long, value_enum, default_value_t = Controller::Normal)]
    pub p2: Controller,
    /// No sound.
    #[arg(long)]
    pub mute: bool,
    /// Kiosk: fullscreen, no mouse cursor; only Ctrl+Shift+Q leaves the game.
    #[arg(long)]
    pub kiosk: bool,
    /// Scan cards with a webcam (INDEX 0 is the first; needs the `camera` feature).
    #[arg(long, value_name = "INDEX", num_args = 0..=1, default_missing_value = "0")]
    pub camera: Option<u32>,
    /// Use a folder of frames as the camera (played at 10 frames a second).
    #[arg(long, value_name = "DIR")]
    pub video: Option<PathBuf>,
    /// Where played battles are saved as replays (default: the data folder's `replays`).
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    /// The first battle's seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// Save a screenshot of the first rendered frames to this PNG, then quit.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Drive the game through every screen and save a PNG of each into DIR, then quit.
    #[arg(long, value_name = "DIR")]
    pub tour: Option<PathBuf>,
    /// Quit after this many frames (for scripted runs).
    #[arg(long, value_name = "N")]
    pub frames: Option<u32>,
}

/// `bterm cards …`.
#[derive(Debug, Subcommand)]
pub enum CardsCommand {
    /// Check card files (a file, or every *.ron below a folder); report every problem.
    Check {
        /// A card file or a folder of them.
        path: PathBuf,
    },
    /// List cards.
    List {
        /// Only this Field (name or abbreviation: "Dragon's Roar", DR, nsp, …).
        #[arg(long)]
        field: Option<String>,
        /// Only this level: III, IV, Perfect, Ultimate or Hybrid.
        #[arg(long)]
        level: Option<String>,
        /// One JSON object per card, one per line.
        #[arg(long)]
        json: bool,
        /// Card files to use instead of the built-in sample set.
        #[arg(long, value_name = "PATH")]
        cards: Option<PathBuf>,
    },
    /// Show one card, its abilities in words.
    Show {
        /// Card number (forgiving: da-001, Dα-001 and DA001 are the same) or name.
        number: String,
        /// Print the card as JSON.
        #[arg(long)]
        json: bool,
        /// Card files to use instead of the built-in sample set.
        #[arg(long, value_name = "PATH")]
        cards: Option<PathBuf>,
    },
}

/// Runs a parsed command line; the exit code says whether it worked.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => play(PlayArgs::default()),
        Some(Command::Play(args)) => play(args),
        Some(Command::Cards(c)) => cards(c),
        Some(Command::Battle(args)) => battle(args),
        Some(Command::Replay(args)) => replay(args),
        Some(Command::Analyze(args)) => analyze(args),
        Some(Command::Print(args)) => scan::print(args),
        Some(Command::Scan(args)) => scan::scan(args),
        Some(Command::Enroll(args)) => scan::enroll(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "arena")]
fn play(args: PlayArgs) -> Result<(), String> {
    let set = load_set(args.cards.as_deref())?;
    crate::arena::run(args, set)
}

#[cfg(not(feature = "arena"))]
fn play(_: PlayArgs) -> Result<(), String> {
    Err(
        "error: this bterm was built without the 3D arena (cargo feature `arena`).\n\
         Rebuild with default features (`cargo run`), or use the text commands: `bterm cards list`."
            .to_string(),
    )
}

fn load_set(path: Option<&Path>) -> Result<CardSet, String> {
    match path {
        None => Ok(CardSet::embedded()),
        Some(p) => CardSet::load(p).map_err(|e| {
            format!(
                "{e}\nerror: the card files in {} have problems; fix them and try again",
                p.display()
            )
        }),
    }
}

fn cards(command: CardsCommand) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let w = |r: std::io::Result<()>| r.map_err(|e| format!("error: cannot write the output: {e}"));
    match command {
        CardsCommand::Check { path } => {
            let set = load_set(Some(&path))?;
            let count = |k| set.cards().iter().filter(|c| c.kind() == k).count();
            w(writeln!(
                out,
                "{}: {} cards, all valid ({} Digimon, {} Option, {} Command)",
                path.display(),
                set.len(),
                count(crate::cards::CardKind::Digimon),
                count(crate::cards::CardKind::Option),
                count(crate::cards::CardKind::Command),
            ))
        }
        CardsCommand::List {
            field,
            level,
            json,
            cards,
        } => {
            let field = field
                .map(|f| {
                    Field::parse_forgiving(&f).ok_or_else(|| {
                        let all: Vec<String> = Field::ALL
                            .iter()
                            .map(|f| format!("{} ({})", f.name(), f.abbreviation()))
                            .collect();
                        format!(
                            "error: unknown Field \"{f}\"; the Fields are {}",
                            all.join(", ")
                        )
                    })
                })
                .transpose()?;
            let level = level
                .map(|l| l.parse::<LevelQuery>().map_err(|e| format!("error: {e}")))
                .transpose()?;
            let set = load_set(cards.as_deref())?;
            let shown = set.cards().iter().filter(|c| match c.as_digimon() {
                Some(d) => {
                    field.is_none_or(|f| d.field == f) && level.is_none_or(|l| l.matches(d.level))
                }
                None => field.is_none() && level.is_none(),
            });
            for card in shown {
                if json {
                    let line = serde_json::to_string(card).map_err(|e| format!("error: {e}"))?;
                    w(writeln!(out, "{line}"))?;
                } else {
                    w(writeln!(out, "{}", list_line(card)))?;
                }
            }
            Ok(())
        }
        CardsCommand::Show {
            number,
            json,
            cards,
        } => {
            let set = load_set(cards.as_deref())?;
            let card = set.resolve(&number).map_err(|e| format!("error: {e}"))?;
            if json {
                let text = serde_json::to_string_pretty(card).map_err(|e| format!("error: {e}"))?;
                w(writeln!(out, "{text}"))
            } else {
                w(write!(out, "{}", describe(card)))
            }
        }
    }
}

/// One line of `bterm cards list`.
pub fn list_line(card: &Card) -> String {
    let number = card.number().to_string();
    match card {
        Card::Digimon(d) => format!(
            "{number:<9} {:<27} {:<18} {:<19} {:<8} cost {} HP {:>4} {}",
            d.name,
            d.level.to_string(),
            d.field.name(),
            d.attribute.name(),
            d.cost,
            d.hp,
            d.battle_type
        ),
        Card::Option(o) => format!(
            "{number:<9} {:<27} Option             cost {}",
            o.name, o.cost
        ),
        Card::Command(c) => format!("{number:<9} {:<27} Command", c.name),
    }
}

/// The full text of `bterm cards show`.
pub fn describe(card: &Card) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let n = card.number();
    let _ = write!(s, "{n} {}", card.name());
    if card.one_card_limit() {
        s.push_str("  ◎ one-card limit");
    }
    let _ = writeln!(s, "\n  {} ({}-)", n.prefix.meaning(), n.prefix.as_str());
    match card {
        Card::Digimon(d) => {
            let _ = writeln!(
                s,
                "  {} · {} · {} · {} ({})",
                d.level,
                d.attribute,
                d.kind,
                d.field.name(),
                d.field.abbreviation()
            );
            let _ = writeln!(
                s,
                "  Cost {} · Speed {} · HP {} · battle type {}",
                d.cost, d.speed, d.hp, d.battle_type
            );
            if let Some(group) = &d.group {
                let _ = writeln!(s, "  Group: {group}");
            }
            match &d.requirements {
                Requirements::None => {}
                Requirements::Jogress(x, y) => {
                    let _ = writeln!(s, "  Jogress: {x} ⇔ {y}");
                }
                r => {
                    let _ = writeln!(s, "  Evolves from: {r}");
                }
            }
            let _ = writeln!(s, "  Techniques (used against that battle type):");
            for t in crate::cards::BattleType::ALL {
                let tech = d.techniques.get(t);
                let _ = writeln!(s, "    {t}  {:<24} {:>5}", tech.name, tech.power);
            }
        }
        Card::Option(o) => {
            let _ = writeln!(s, "  Option card · Cost {}", o.cost);
        }
        Card::Command(_) => {
            let _ = writeln!(s, "  Command card · no Cost");
        }
    }
    for (title, abilities) in [
        ("Battle Terminal abilities", card.terminal_abilities()),
        ("Card Game Alpha abilities", card.alpha_abilities()),
    ] {
        if !abilities.is_empty() {
            let _ = writeln!(s, "  {title}:");
            for a in abilities {
                let _ = writeln!(s, "    {}", render(a));
            }
        }
    }
    s
}

/// Parses a team typed as card numbers or names, comma-separated.
pub fn parse_team(text: &str, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            cards
                .resolve(t)
                .map(Card::number)
                .map_err(|e| format!("error: team \"{text}\": {e}"))
        })
        .collect()
}

fn battle(args: BattleArgs) -> Result<(), String> {
    let set = load_set(args.cards.as_deref())?;
    let teams = [
        parse_team(&args.team_a, &set)?,
        parse_team(&args.team_b, &set)?,
    ];
    let setup = Setup::new(teams[0].clone(), teams[1].clone(), args.seed);
    let mut m = Match::from_setup(&setup, &set).map_err(|e| format!("error: {e}"))?;
    let controllers = [args.p1, args.p2];
    let mut input = std::io::stdin().lock();
    let mut failure: Option<String> = None;
    let mut out = std::io::stdout();
    let actions = analysis::play_out(
        &mut m,
        |m, side| {
            if failure.is_some() {
                return None;
            }
            match controllers[side.index()].level() {
                Some(level) => crate::ai::choose(m, side, level),
                None => match ask_human(m, side, &set, &mut input) {
                    Ok(a) => a,
                    Err(e) => {
                        failure = Some(e);
                        None
                    }
                },
            }
        },
        |e| {
            let _ = writeln!(out, "{}", log::describe(e, &set));
        },
    );
    if let Some(path) = &args.save {
        Replay::new(setup, actions, &m)
            .save(path)
            .map_err(|e| format!("error: cannot save the replay: {e}"))?;
        let _ = writeln!(out, "replay saved to {}", path.display());
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Asks a person at the keyboard for `side`'s action, if it has one to take.
fn ask_human(
    m: &Match,
    side: Side,
    set: &CardSet,
    input: &mut impl std::io::BufRead,
) -> Result<Option<Action>, String> {
    let legal = m.legal_actions(side);
    if legal.is_empty() {
        return Ok(None);
    }
    let v = m.view(side);
    let abilities = usable_abilities(m, side, set);
    let prompt = if legal.contains(&Action::Digivolve(false)) {
        format!("{side}: digivolve {}? [y/n] ", v.front.name)
    } else if legal.contains(&Action::AlphaBlock(false)) {
        format!("{side}: alpha-block? [y/n] ")
    } else {
        let alpha = if legal.iter().any(|a| matches!(a, Action::AlphaAttack(_))) {
            ", or x then a/b/c for an Alpha Strike"
        } else {
            ""
        };
        for (k, (_, text)) in abilities.iter().enumerate() {
            println!("  u{}: {text}", k + 1);
        }
        let ready = match abilities.len() {
            0 => String::new(),
            1 => ", or u to ready the ability above".into(),
            n => format!(", or u1..u{n} to ready an ability above"),
        };
        format!(
            "{side}: {} ({} points) — press a, b or c (1, 2, 3){alpha}{ready}: ",
            v.front.name, v.points
        )
    };
    loop {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        let read = input
            .read_line(&mut line)
            .map_err(|e| format!("error: cannot read the keyboard: {e}"))?;
        if read == 0 {
            return Err(format!(
                "error: the input closed while waiting for {side}'s choice; use --{} easy|normal|hard for a CPU player",
                side.to_string().to_lowercase()
            ));
        }
        let key = line.trim().to_lowercase();
        let stance = |k: &str| match k {
            "a" | "1" => Some(BattleType::A),
            "b" | "2" => Some(BattleType::B),
            "c" | "3" => Some(BattleType::C),
            _ => None,
        };
        let choice = match key.as_str() {
            "y" | "yes" => [
                Action::Jogress,
                Action::Digivolve(true),
                Action::AlphaBlock(true),
            ]
            .into_iter()
            .find(|a| legal.contains(a)),
            "n" | "no" => [Action::Digivolve(false), Action::AlphaBlock(false)]
                .into_iter()
                .find(|a| legal.contains(a)),
            k if k.starts_with('x') => stance(k[1..].trim()).map(Action::AlphaAttack),
            k if k.starts_with('u') => {
                let n = match k[1..].trim() {
                    "" => Some(1),
                    n => n.parse::<usize>().ok(),
                };
                n.and_then(|n| abilities.get(n.checked_sub(1)?))
                    .map(|(a, _)| *a)
            }
            k => stance(k).map(Action::Stance),
        };
        match choice {
            Some(a) if legal.contains(&a) => return Ok(Some(a)),
            _ => println!("  \"{}\" is not a choice now", line.trim()),
        }
    }
}

/// The `[Action:]` abilities `side` may ready now, each with its card's name
/// and its text.
fn usable_abilities(m: &Match, side: Side, set: &CardSet) -> Vec<(Action, String)> {
    m.legal_actions(side)
        .into_iter()
        .filter_map(|a| {
            let Action::UseAbility(slot) = a else {
                return None;
            };
            let (card, ability) = m.ability(side, slot)?;
            Some((a, format!("{} — {}", log::name(set, card), render(ability))))
        })
        .collect()
}

fn replay(args: ReplayArgs) -> Result<(), String> {
    let set = load_set(args.cards.as_deref())?;
    let replay = Replay::load(&args.file).map_err(|e| format!("error: {e}"))?;
    if !args.headless {
        return view_replay(args, replay, set);
    }
    let mut out = std::io::stdout().lock();
    let m = replay
        .play(&set, |e| {
            let _ = writeln!(out, "{}", log::describe(e, &set));
        })
        .map_err(|e| format!("error: {}: {e}", args.file.display()))?;
    let _ = writeln!(
        out,
        "replay checked: {} actions, final state hash {:016x} matches",
        replay.actions.len(),
        m.state_hash()
    );
    Ok(())
}

/// Checks a replay plays to its recorded end, then stages it in the arena.
#[cfg(feature = "arena")]
fn view_replay(args: ReplayArgs, replay: Replay, set: CardSet) -> Result<(), String> {
    replay
        .play(&set, |_| {})
        .map_err(|e| format!("error: {}: {e}", args.file.display()))?;
    crate::arena::run_replay(args.file, replay, set, args.mute)
}

#[cfg(not(feature = "arena"))]
fn view_replay(args: ReplayArgs, _: Replay, _: CardSet) -> Result<(), String> {
    replay(ReplayArgs {
        headless: true,
        ..args
    })
}

fn analyze(args: AnalyzeArgs) -> Result<(), String> {
    let set = load_set(args.cards.as_deref())?;
    let r = analysis::analyze(&set, args.battles, [args.level, args.level], args.seed);
    let mut out = std::io::stdout().lock();
    let w = |out: &mut std::io::StdoutLock<'_>, s: String| {
        writeln!(out, "{s}").map_err(|e| format!("error: {e}"))
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
        (Level::Hard, Level::Normal),
        (Level::Hard, Level::Easy),
        (Level::Normal, Level::Easy),
    ] {
        let [wa, wb, d] = analysis::level_duel(&set, args.battles, a, b, args.seed);
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
