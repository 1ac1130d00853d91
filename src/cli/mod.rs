//! The command line: `bterm [play]`, `bterm cards check|list|show`,
//! `bterm battle|replay|analyze`, the scanner's `print|scan|enroll`, and
//! the collector's `collection …` and `rankings`.
//! It never imports the arena: the binary hands [`run`] a [`Window`] when
//! it was built with one.

mod alpha;
mod analyze;
mod battle;
mod cards;
mod clash;
mod collection;
mod dcg;
mod deck;
mod lan;
mod replay;
mod scan;
mod script;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

pub use alpha::AlphaArgs;
pub use analyze::AnalyzeArgs;
pub use battle::{BattleArgs, TeamError, parse_team};
pub use cards::{CardsCommand, describe, list_line};
pub use collection::{CollectionCommand, DbArgs, RankingsArgs};
pub use deck::DeckCommand;
pub use replay::ReplayArgs;

use crate::cards::{CardNumber, CardSet};
use crate::net::Lan;
use crate::rules::{RulesetId, make_dispatch, registered};
use crate::session::{GameOptions, People, Player, Window};

/// A ruleset at the terminal: its presenter for the text commands (in the
/// ruleset's own file here: `battle.rs`, `alpha.rs`).
trait TextGame: Lan {
    /// How a host's own player answers at the terminal.
    type Front<'a>: People<Self, Error = CliError>;
    /// What a seat brings, read from a command-line word (a team of card
    /// numbers or names, a shipped deck's name or a deck file…).
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError>;
    /// The host's own player, answering on these keys.
    fn front(keys: battle::Keyboard<'_>) -> Self::Front<'_>;
}

/// Something the text commands do with a ruleset chosen at run time.
trait TextVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: TextGame>(self) -> Self::Output;
}

registered!(make_dispatch!(TextVisitor;));

/// Reads a game's word on the command line (its key, as the registry has
/// it) and lists the games in `--help`.
fn game_parser() -> impl clap::builder::TypedValueParser<Value = RulesetId> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        RulesetId::ALL
            .iter()
            .map(|id| PossibleValue::new(id.key()).help(id.name())),
    )
    .try_map(|word| word.parse::<RulesetId>())
}

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
    /// Play the Card Game Alpha (the tabletop rules) in the terminal, 2 to 4 seats, or a scripted game.
    Alpha(AlphaArgs),
    /// Play the Digimon Card Game (2020 rules) in the terminal: two starter decks or deck files, people or CPUs.
    Dcg(dcg::DcgArgs),
    /// Play Alpha Clash (basic rulebook 2.0) in the terminal: two to four shipped decks or deck files, people or CPUs.
    Clash(clash::ClashArgs),
    /// Play a scripted game of any game (the file names it), print its events and final state, check its expectations.
    Script(script::ScriptArgs),
    /// Host a LAN table: others join from their own machines (terminal: 2 seats; alpha: 2 to 4), spectators watch.
    Host(lan::HostArgs),
    /// Join a LAN table (or, with no address, list the tables on this network).
    Join(lan::JoinArgs),
    /// Check and show Card Game Alpha decks.
    #[command(subcommand)]
    Deck(DeckCommand),
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
    /// Your card collection: counts, sets, what is missing, doubles, history, CSV, backups.
    #[command(subcommand)]
    Collection(CollectionCommand),
    /// Wins and losses per card, the challenger streak and the best teams.
    Rankings(RankingsArgs),
}

/// Why a command failed: the message the user reads, and whether the
/// command line was at fault (exit 2) or the work itself (exit 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// What went wrong, where, and what to do.
    pub message: String,
    /// The exit code.
    pub code: u8,
    /// Whatever read the output closed it (`bterm cards list | head`):
    /// the command stops, and bterm exits quietly and successfully.
    pub output_closed: bool,
}

impl CliError {
    /// The work failed (a file, a rule, a device): exit 1.
    pub fn failed(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 1,
            output_closed: false,
        }
    }

    /// The command line asked for something that cannot be: exit 1 as
    /// well (clap's own usage errors exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::failed(message)
    }
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::failed(message)
    }
}

/// Outside text made safe for a terminal: control characters (which could
/// move the cursor, retitle the window or clear the screen) are shown as
/// escapes, and very long text is cut.
pub fn escape(text: &str) -> String {
    const MAX: usize = 200;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// Text made of lines (a card described, a message), escaped as [`escape`]
/// does but not cut, its line breaks kept.
pub fn escape_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push('\n'),
            c => push_escaped(&mut out, c),
        }
    }
    out
}

/// One line of outside text, escaped as [`escape`] does (a line break
/// included: text from another machine cannot forge a line) but not cut.
pub fn escape_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    if crate::net::protocol::is_unsafe_char(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// Options for the game window.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Card scans (image files or folders) for P1's team, read at the scan screen.
    #[arg(value_name = "SCAN")]
    pub scans: Vec<PathBuf>,
    /// Card scans for P2's team (repeat the option for more).
    #[arg(long = "p2-scan", value_name = "SCAN")]
    pub p2_scans: Vec<PathBuf>,
    /// Who plays P2 when the scan screen opens: human, easy, normal or hard
    /// (a button changes it there).
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p2: Player,
    /// No sound.
    #[arg(long)]
    pub mute: bool,
    /// Kiosk: fullscreen, no mouse cursor; only Ctrl+Shift+Q leaves the game.
    #[arg(long)]
    pub kiosk: bool,
    /// Scan cards with a webcam (INDEX 0 is the first; needs the `camera` feature).
    #[arg(long, value_name = "INDEX", num_args = 0..=1, default_missing_value = "0")]
    pub camera: Option<u32>,
    /// Do not look for a webcam on the scan screens (without --camera, the
    /// first one is used when there is one).
    #[arg(long, conflicts_with = "camera")]
    pub no_camera: bool,
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
    /// The collection's database (default: `collection.sqlite` in the data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Bloom (the glow around lights): on or off. By default it is on,
    /// except on a software renderer (no GPU), where it costs about a third
    /// of the frame rate; screenshots and tours have it unless this says off.
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    pub bloom: Option<bool>,
    /// A LAN table to list on the join screen by its address, for a
    /// network where tables are not heard (repeat for more).
    #[arg(long = "table", value_name = "ADDRESS[:PORT]")]
    pub tables: Vec<String>,
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(format!("\"{s}\": say on or off")),
    }
}

impl PlayArgs {
    /// The game window's options, with the card set to play.
    pub fn options(self, cards: CardSet) -> GameOptions {
        GameOptions {
            cards,
            scans: self.scans,
            p2_scans: self.p2_scans,
            p2: self.p2,
            mute: self.mute,
            kiosk: self.kiosk,
            camera: self.camera,
            no_camera: self.no_camera,
            video: self.video,
            replay_dir: self.replay_dir,
            seed: self.seed,
            screenshot: self.screenshot,
            tour: self.tour,
            frames: self.frames,
            db: self.db,
            bloom: self.bloom,
            lan_tables: Vec::new(),
        }
    }
}

/// The error of a failed write to the output: closed by its reader
/// ([`CliError::output_closed`]: nothing is wrong), or what went wrong.
pub(crate) fn output_error(e: std::io::Error) -> CliError {
    let closed = e.kind() == std::io::ErrorKind::BrokenPipe;
    CliError {
        output_closed: closed,
        ..CliError::failed(if closed {
            "error: the output was closed".to_string()
        } else {
            format!("error: cannot write the output: {e}")
        })
    }
}

/// Runs a parsed command line; the exit code says whether it worked.
/// `window` is the game window, when this build has one.
pub fn run(cli: Cli, window: Option<&dyn Window>) -> ExitCode {
    let result = match cli.command {
        None => play(None, window),
        Some(Command::Play(args)) => play(Some(args), window),
        Some(Command::Cards(c)) => cards::cards(c),
        Some(Command::Battle(args)) => battle::battle(args),
        Some(Command::Alpha(args)) => alpha::alpha(args),
        Some(Command::Dcg(args)) => dcg::dcg(args),
        Some(Command::Clash(args)) => clash::clash(args),
        Some(Command::Script(args)) => script::script(args),
        Some(Command::Host(args)) => lan::host(args),
        Some(Command::Join(args)) => lan::join_command(args),
        Some(Command::Deck(c)) => deck::deck_command(c),
        Some(Command::Replay(args)) => replay::replay(args, window),
        Some(Command::Analyze(args)) => analyze::analyze(args),
        Some(Command::Print(args)) => scan::print(args),
        Some(Command::Scan(args)) => scan::scan(args),
        Some(Command::Enroll(args)) => scan::enroll(args),
        Some(Command::Collection(c)) => collection::collection(c),
        Some(Command::Rankings(args)) => collection::rankings(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader stopped reading (`| head`): nothing is wrong.
        Err(e) if e.output_closed => ExitCode::SUCCESS,
        Err(e) => {
            // Messages carry paths, card names and codes from outside.
            eprintln!("{}", escape_lines(&e.message));
            ExitCode::from(e.code)
        }
    }
}

fn play(args: Option<PlayArgs>, window: Option<&dyn Window>) -> Result<(), CliError> {
    let Some(window) = window else {
        return Err(CliError::failed(
            "error: this bterm was built without the 3D arena (cargo feature `arena`).\n\
             Rebuild with default features (`cargo run`), or use the text commands: `bterm cards list`.",
        ));
    };
    let args = match args {
        Some(a) => a,
        None => {
            use clap::FromArgMatches as _;
            let matches = PlayArgs::augment_args(clap::Command::new("play"))
                .try_get_matches_from(["play"])
                .map_err(|e| CliError::failed(e.to_string()))?;
            PlayArgs::from_arg_matches(&matches).map_err(|e| CliError::failed(e.to_string()))?
        }
    };
    // A tour plays, scans and saves like a person: into a data folder of
    // its own beside its pictures, never the user's.
    if let Some(dir) = &args.tour {
        crate::save::keep_data_in(dir.join("data"));
    }
    let set = load_set(args.cards.as_deref())?;
    let tables = args
        .tables
        .iter()
        .map(|t| lan::resolve(t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut options = args.options(set);
    options.lan_tables = tables;
    window
        .play(options)
        .map_err(|e| CliError::failed(e.to_string()))
}

/// The card set: the built-in sample set, or the card files at `path`.
pub(crate) fn load_set(path: Option<&Path>) -> Result<CardSet, CliError> {
    match path {
        None => Ok(CardSet::embedded()),
        Some(p) => CardSet::load(p).map_err(|e| {
            CliError::failed(format!(
                "{e}\nerror: the card files in {} have problems; fix them and try again",
                escape_lines(&p.display().to_string())
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_closed_by_its_reader_is_told_apart_from_a_failed_write() {
        let closed = output_error(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(closed.output_closed);
        let full = output_error(std::io::Error::from(std::io::ErrorKind::StorageFull));
        assert!(!full.output_closed && full.code == 1);
        assert!(
            full.message.starts_with("error: cannot write the output"),
            "{}",
            full.message
        );
        assert!(!CliError::failed("error: the output was closed").output_closed);
    }

    #[test]
    fn a_name_from_the_lan_cannot_forge_a_line_or_turn_text_around() {
        let forged = "Kiosk\nGame over: P2 wins\u{202E}sniw 1P";
        let shown = escape_line(forged);
        assert!(
            !shown.contains('\n') && !shown.contains('\u{202E}'),
            "{shown}"
        );
        assert!(
            shown.contains("\\n") && shown.contains("\\u{202e}"),
            "{shown}"
        );
        for c in [
            '\u{2066}', '\u{200F}', '\u{FEFF}', '\u{200B}', '\u{2028}', '\u{2029}',
        ] {
            assert!(crate::net::protocol::is_unsafe_char(c), "{c:?}");
            assert!(!escape(&format!("a{c}b")).contains(c));
        }
        assert!(!crate::net::protocol::is_unsafe_char('α'));
    }

    #[test]
    fn escape_shows_control_characters_and_cuts_long_text() {
        assert_eq!(escape("Agumon"), "Agumon");
        assert_eq!(escape("a\x1b]0;pwned\x07b"), "a\\u{1b}]0;pwned\\u{7}b");
        assert_eq!(escape("x\ny"), "x\\ny");
        let long = "é".repeat(500);
        assert_eq!(escape(&long).chars().count(), 201);
        assert_eq!(escape_lines("a\x1b[2J\nb\n"), "a\\u{1b}[2J\nb\n");
    }
}
