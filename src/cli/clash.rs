//! Alpha Clash at the terminal: `bterm clash DECK DECK` (people and CPUs;
//! hidden cards stay hidden, a curtain between two people), and the text
//! presenter `bterm host clash` uses for the host's own player.

use std::path::{Path, PathBuf};

use clap::Args;

use super::battle::{Keyboard, Seated, finish, keyboard_lines, save_is_free};
use super::{CliError, escape_lines, load_set};
use crate::cards::{CardNumber, CardSet};
use crate::rules::Ruleset;
use crate::rules::clash::deck::DeckFile;
use crate::rules::clash::{Match, Setup, deck};
use crate::session::{Player, Table, drive};

/// The largest deck file read.
const MAX_FILE: u64 = 4 << 20;

/// `bterm clash`.
#[derive(Debug, Args)]
pub struct ClashArgs {
    /// Two to four decks: shipped decks (ashfall, skyward, wildfire,
    /// twilight) or deck files (a Contender, 50 cards, a Sideboard).
    #[arg(num_args = 2..=4, required = true)]
    pub decks: Vec<String>,
    /// Who plays P1: human, easy, normal or hard.
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    pub p1: Player,
    /// Who plays P2.
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p2: Player,
    /// Who plays P3 (three or four decks).
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p3: Player,
    /// Who plays P4 (four decks).
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p4: Player,
    /// The seed (the same seed and choices play the same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save the game as a replay file (never over an existing file).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// A deck named on the command line: a shipped deck or a deck file,
/// checked whole (its Sideboard too).
pub(super) fn load_deck(arg: &str, cards: &CardSet) -> Result<Vec<CardNumber>, CliError> {
    if let Some(r) = deck::embedded(arg, cards) {
        let d = r.map_err(|e| CliError::failed(format!("error: shipped deck {arg}: {e}")))?;
        deck::check(&d, &[], cards)
            .map_err(|e| CliError::failed(format!("error: shipped deck {arg}: {e}")))?;
        return Ok(d);
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
    let text = crate::save::read_text(path, MAX_FILE)
        .map_err(|e| CliError::failed(format!("error: cannot read {shown}: {e}")))?;
    let file: DeckFile = crate::cards::read_ron(&text).map_err(|e| {
        CliError::failed(format!(
            "error: {shown}:{}:{}: not an Alpha Clash deck file: {} (see assets/decks/clash/ashfall-rush.ron for the format)",
            e.span.start.line, e.span.start.col, e.code
        ))
    })?;
    let numbers = file
        .numbers(cards)
        .map_err(|e| CliError::failed(format!("error: {shown}: {}", escape_lines(&e))))?;
    let side = file
        .sideboard_numbers(cards)
        .map_err(|e| CliError::failed(format!("error: {shown}: {}", escape_lines(&e))))?;
    deck::check(&numbers, &side, cards)
        .map_err(|e| CliError::failed(format!("error: {shown}: {e}")))?;
    Ok(numbers)
}

pub(super) fn clash(args: ClashArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    save_is_free(args.save.as_deref())?;
    let mut decks = Vec::new();
    for d in &args.decks {
        decks.push(load_deck(d, &set)?);
    }
    let players: Vec<Player> = [args.p1, args.p2, args.p3, args.p4]
        .into_iter()
        .take(decks.len())
        .collect();
    let people = players.iter().filter(|p| p.is_person()).count();
    let setup: Setup = <Match as Ruleset>::setup_for(decks, args.seed);
    let mut table: Table<Match> =
        Table::new(setup, &set, players).map_err(|e| CliError::usage(format!("error: {e}")))?;
    let mut front = Seated::new(
        Keyboard {
            lines: keyboard_lines(),
            timer: None,
            cards: &set,
            out: std::io::stdout(),
        },
        people > 1,
    );
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

/// Alpha Clash at the terminal: a shipped deck's name or a deck file.
impl super::TextGame for Match {
    type Front<'a> = Seated<'a>;
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
        load_deck(arg, set)
    }
    fn front(keys: Keyboard<'_>) -> Seated<'_> {
        Seated::new(keys, false)
    }
}

/// Whether a deck named on the command line is this game's: a shipped
/// deck's name, or a file that reads as an Alpha Clash deck list.
pub(super) fn is_clash_deck(arg: &str) -> bool {
    if deck::EMBEDDED
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(arg))
    {
        return true;
    }
    crate::save::read_text(Path::new(arg), MAX_FILE)
        .ok()
        .and_then(|t| crate::cards::read_ron::<DeckFile>(&t).ok())
        .is_some()
}
