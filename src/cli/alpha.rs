//! The Card Game Alpha at the terminal: `bterm alpha` (a game for 2–4
//! seats, people and CPUs, or a scripted game) and `bterm deck check|show`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::battle::{Keyboard, finish, keyboard_lines, save_is_free};
use super::{CliError, escape_lines, load_set};
use crate::cards::{CardNumber, CardSet};
use crate::rules::alpha::{DeckFile, Match, Setup, deck};
use crate::rules::{Question, Reply, Ruleset, Seat};
use crate::session::{People, Player, Table, drive};

/// The largest deck or script file read.
const MAX_FILE: u64 = 4 << 20;

/// `bterm alpha`.
#[derive(Debug, Args)]
pub struct AlphaArgs {
    /// 2 to 4 decks: shipped deck names (courage, friendship, nightmare,
    /// jogress, sky-and-sea) or deck files.
    #[arg(num_args = 0..=4)]
    pub decks: Vec<String>,
    /// Who plays P1: human, easy, normal or hard.
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    pub p1: Player,
    /// Who plays P2.
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p2: Player,
    /// Who plays P3 (with 3 or 4 decks).
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p3: Player,
    /// Who plays P4 (with 4 decks).
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p4: Player,
    /// The seed (the same seed and choices play the same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save the game as a replay file (never over an existing file).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Play a scripted game (decks in order and actions in words) and print
    /// its events and final state.
    #[arg(long, value_name = "FILE.ron", conflicts_with_all = ["decks", "save"])]
    pub script: Option<PathBuf>,
    /// With --script: print JSON instead of text.
    #[arg(long, requires = "script")]
    pub json: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// Reads a small RON file (a deck) and keeps its text (for the lines of
/// its entries); a parse error names the line and column and says where
/// the format is shown (`hint`).
fn read_ron_file_text<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &str,
    hint: &str,
) -> Result<(T, String), CliError> {
    let shown = escape_lines(&path.display().to_string());
    let text = crate::save::read_text(path, MAX_FILE)
        .map_err(|e| CliError::failed(format!("error: cannot read {shown}: {e}")))?;
    let value = crate::cards::read_ron(&text).map_err(|e| {
        CliError::failed(format!(
            "error: {shown}:{}:{}: not {what}: {} ({hint})",
            e.span.start.line, e.span.start.col, e.code
        ))
    })?;
    Ok((value, text))
}

/// A deck named on the command line: a shipped deck or a file.
pub(super) fn load_deck(arg: &str, cards: &CardSet) -> Result<(String, Vec<CardNumber>), CliError> {
    if let Some(r) = deck::embedded(arg, cards) {
        return r
            .map(|d| (arg.to_string(), d))
            .map_err(|e| CliError::failed(format!("error: shipped deck {arg}: {e}")));
    }
    let path = Path::new(arg);
    if std::fs::symlink_metadata(path).is_err() {
        let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
        return Err(CliError::failed(format!(
            "error: no deck \"{}\": give a deck file or one of the shipped decks ({})",
            super::escape(arg),
            names.join(", ")
        )));
    }
    let shown = escape_lines(&path.display().to_string());
    let (file, text): (DeckFile, String) = read_ron_file_text(
        path,
        "a deck file",
        "see assets/decks/courage.ron for the format",
    )?;
    // Every problem, each with the line it is on.
    let problems = file.problems(&text, cards);
    if !problems.is_empty() {
        let lines: Vec<String> = problems
            .iter()
            .map(|e| format!("error: {shown}: {}", escape_lines(&e.to_string())))
            .collect();
        return Err(CliError::failed(lines.join("\n")));
    }
    let numbers = file
        .numbers(cards)
        .map_err(|e| CliError::failed(format!("error: {shown}: {e}")))?;
    Ok((file.name, numbers))
}

pub(super) fn alpha(args: AlphaArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    if let Some(script) = &args.script {
        return super::script::run_file(script, args.json, &set, Some(Match::ID));
    }
    if !(2..=4).contains(&args.decks.len()) {
        return Err(CliError::usage(format!(
            "error: the Card Game Alpha needs 2 to 4 decks; {} given (try: bterm alpha courage friendship)",
            args.decks.len()
        )));
    }
    save_is_free(args.save.as_deref())?;
    let mut decks = Vec::new();
    for d in &args.decks {
        decks.push(load_deck(d, &set)?.1);
    }
    let players: Vec<Player> = [args.p1, args.p2, args.p3, args.p4]
        .into_iter()
        .take(decks.len())
        .collect();
    let people = players.iter().filter(|p| p.is_person()).count();
    let mut table: Table<Match> = Table::new(Setup::new(decks, args.seed), &set, players)
        .map_err(|e| CliError::usage(format!("error: {e}")))?;
    let mut front = Terminal {
        keys: Keyboard {
            lines: keyboard_lines(),
            timer: None,
            cards: &set,
            out: std::io::stdout(),
        },
        curtain: people > 1,
        last: None,
    };
    let played = drive(&mut table, &set, &mut front);
    finish(
        &table,
        &set,
        played,
        super::battle::Kept::with(args.save.as_deref()),
        &mut front.keys.out,
        "game",
        "decks",
    )
}

/// People at one terminal: each sees its own view before it answers; with
/// two or more people, a curtain ("pass to P2, press Enter") comes between
/// their turns so neither sees the other's hand.
pub(super) struct Terminal<'a> {
    pub(super) keys: Keyboard<'a>,
    pub(super) curtain: bool,
    pub(super) last: Option<Seat>,
}

/// The Card Game Alpha at the terminal: a shipped deck's name or a deck
/// file; the host's player sees the table before each answer.
impl super::TextGame for Match {
    type Front<'a> = Terminal<'a>;
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
        load_deck(arg, set).map(|(_, d)| d)
    }
    fn front(keys: Keyboard<'_>) -> Terminal<'_> {
        Terminal {
            keys,
            curtain: false,
            last: None,
        }
    }
}

impl People<Match> for Terminal<'_> {
    type Error = CliError;

    fn ask(
        &mut self,
        table: &Table<Match>,
        seat: Seat,
        question: &Question<<Match as Ruleset>::Ask, <Match as Ruleset>::Action>,
    ) -> Result<Option<Reply<<Match as Ruleset>::Action>>, CliError> {
        if self.curtain && self.last != Some(seat) {
            self.keys.curtain(seat)?;
        }
        self.last = Some(seat);
        let view = table.game().view(seat);
        let _ = writeln!(self.keys.out);
        for line in view.table_lines() {
            let _ = writeln!(self.keys.out, "{}", escape_lines(&line));
        }
        self.keys
            .ask_prompt(seat, &question.prompt, Match::own_card, &|typed| {
                table.game().refusal(seat, typed)
            })
    }

    fn show(&mut self, events: &[<Match as Ruleset>::Event]) {
        for e in events {
            let _ = writeln!(
                self.keys.out,
                "{}",
                escape_lines(&Match::describe(e, self.keys.cards))
            );
        }
    }

    fn set_clock(&mut self, seconds: Option<f32>) {
        People::<Match>::set_clock(&mut self.keys, seconds);
    }
}
