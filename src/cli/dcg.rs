//! The Digimon Card Game at the terminal: `bterm dcg DECK DECK` (people
//! and CPUs; hidden cards stay hidden, a curtain between two people), and
//! the text presenter `bterm host dcg` uses for the host's own player.

use std::path::{Path, PathBuf};

use clap::Args;

use super::battle::{Keyboard, Seated, finish, keyboard_lines, save_is_free};
use super::{CliError, escape_lines, load_set};
use crate::cards::{CardNumber, CardSet};
use crate::rules::Ruleset;
use crate::rules::dcg::deck::DeckFile;
use crate::rules::dcg::{Format, Match, Setup, deck};
use crate::session::{Player, Table, drive};

/// The largest deck file read.
const MAX_FILE: u64 = 4 << 20;

/// `bterm dcg`.
#[derive(Debug, Args)]
pub struct DcgArgs {
    /// Two to four decks: shipped starter decks (red, blue, yellow,
    /// purple) or deck files (50 cards and up to 5 Digi-Eggs, listed
    /// together). Three or four decks play the LAN format (memory banks,
    /// Target Opponents, Mega Damage: docs/dcg-rules.md section 18).
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
    /// The deck format of a 3 or 4 player game: standard, or players (60
    /// cards, 6 Digi-Eggs, one of a number, a Player Tamer and a Player
    /// Digimon named in the deck file).
    #[arg(long, default_value = "standard", value_parser = format_parser())]
    pub format: Format,
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

/// `--format`'s words.
pub(super) fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("standard").help("standard decks (50 cards, up to 5 Digi-Eggs)"),
        PossibleValue::new("players").help("the Players Format (3 or 4 players)"),
    ])
    .map(|word| Format::from_word(&word).unwrap_or_default())
}

/// A deck named on the command line: a shipped starter deck or a file.
pub(super) fn load_deck(arg: &str, cards: &CardSet) -> Result<Vec<CardNumber>, CliError> {
    if let Some(r) = deck::embedded(arg, cards) {
        let d = r.map_err(|e| CliError::failed(format!("error: shipped deck {arg}: {e}")))?;
        if deck::PLAYERS_EMBEDDED
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(arg))
        {
            deck::check_players(&d, cards, false)
        } else {
            deck::check(&d, cards)
        }
        .map_err(|e| CliError::failed(format!("error: shipped deck {arg}: {e}")))?;
        return Ok(d);
    }
    let path = Path::new(arg);
    if std::fs::symlink_metadata(path).is_err() {
        let names: Vec<&str> = deck::EMBEDDED
            .iter()
            .chain(deck::PLAYERS_EMBEDDED)
            .map(|(n, _)| *n)
            .collect();
        return Err(CliError::failed(format!(
            "error: no deck \"{}\": give a deck file or one of the shipped starter decks ({})",
            super::escape(arg),
            names.join(", ")
        )));
    }
    let shown = escape_lines(&path.display().to_string());
    let text = crate::save::read_text(path, MAX_FILE)
        .map_err(|e| CliError::failed(format!("error: cannot read {shown}: {e}")))?;
    let file: DeckFile = crate::cards::read_ron(&text).map_err(|e| {
        CliError::failed(format!(
            "error: {shown}:{}:{}: not a deck file: {} (see assets/decks/dcg/st1-red.ron for the format)",
            e.span.start.line, e.span.start.col, e.code
        ))
    })?;
    let numbers = file
        .numbers(cards)
        .map_err(|e| CliError::failed(format!("error: {shown}: {}", escape_lines(&e))))?;
    if file.is_players_format() {
        deck::check_players(&numbers, cards, false)
    } else {
        deck::check(&numbers, cards)
    }
    .map_err(|e| CliError::failed(format!("error: {shown}: {e}")))?;
    Ok(numbers)
}

pub(super) fn dcg(args: DcgArgs) -> Result<(), CliError> {
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
    let mut setup: Setup = <Match as Ruleset>::setup_for(decks, args.seed);
    setup.format = args.format;
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

/// The Digimon Card Game at the terminal: a shipped starter deck's name
/// or a deck file.
impl super::TextGame for Match {
    type Front<'a> = Seated<'a>;
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
        load_deck(arg, set)
    }
    fn front(keys: Keyboard<'_>) -> Seated<'_> {
        Seated::new(keys, false)
    }
}

/// `bterm deck import`: a deck list to a deck file (printed, or written to
/// `out`, never over a file without `force`). Every line that names no
/// card is reported, and nothing is written.
pub(super) fn import(
    file: &Path,
    out: Option<&Path>,
    force: bool,
    name: Option<String>,
    cards: &CardSet,
) -> Result<String, CliError> {
    let shown = escape_lines(&file.display().to_string());
    let text = crate::save::read_text(file, MAX_FILE)
        .map_err(|e| CliError::failed(format!("error: cannot read {shown}: {e}")))?;
    let list = deck::import(&text, cards).map_err(|bad| {
        let lines: Vec<String> = bad.iter().map(|e| escape_lines(&e.to_string())).collect();
        CliError::failed(format!(
            "error: {shown}: {} line{} name no card; nothing was written:\n  {}",
            bad.len(),
            if bad.len() == 1 { "" } else { "s" },
            lines.join("\n  ")
        ))
    })?;
    let numbers: Vec<CardNumber> = list
        .iter()
        .flat_map(|(k, n)| std::iter::repeat_n(*n, usize::from(*k)))
        .collect();
    let legal = match deck::check(&numbers, cards) {
        Ok(()) => "a legal deck".to_string(),
        Err(e) => format!("not a legal deck yet: {e}"),
    };
    let deck_name = name.unwrap_or_else(|| {
        file.file_stem()
            .map_or("imported".to_string(), |s| s.to_string_lossy().into_owned())
    });
    let mut ron = format!(
        "// Imported by bterm deck import from {}.\n(\n    name: {:?},\n    cards: [\n",
        file.file_name()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned()),
        deck_name
    );
    for (k, n) in &list {
        let card = cards.get(n).map_or(String::new(), |c| c.name().to_string());
        ron.push_str(&format!("        ({k}, \"{n}\"), // {card}\n"));
    }
    ron.push_str("    ],\n)\n");
    let summary = format!(
        "{} cards ({} distinct): {legal}\n",
        numbers.len(),
        list.len()
    );
    match out {
        None => Ok(format!("{ron}// {summary}")),
        Some(path) => {
            let target = escape_lines(&path.display().to_string());
            crate::save::replaceable(path)
                .map_err(|e| CliError::failed(format!("error: {}", escape_lines(&e))))?;
            let wrote = if force {
                crate::save::write_atomic(path, ron.as_bytes())
            } else {
                crate::save::write_new(path, ron.as_bytes())
            };
            wrote.map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    CliError::failed(format!(
                        "error: {target} already exists; give --force to write over it"
                    ))
                } else {
                    CliError::failed(format!("error: cannot write {target}: {e}"))
                }
            })?;
            Ok(format!("wrote {target}: {summary}"))
        }
    }
}

/// Whether a deck named on the command line is this game's: a shipped
/// starter deck's name, or a file that lists this game's card numbers.
pub(super) fn is_dcg_deck(arg: &str) -> bool {
    if deck::EMBEDDED
        .iter()
        .chain(deck::PLAYERS_EMBEDDED)
        .any(|(n, _)| n.eq_ignore_ascii_case(arg))
    {
        return true;
    }
    crate::save::read_text(Path::new(arg), MAX_FILE)
        .ok()
        .and_then(|t| crate::cards::read_ron::<DeckFile>(&t).ok())
        .is_some_and(|f| {
            f.cards
                .iter()
                .any(|(_, c)| c.parse::<CardNumber>().is_ok_and(|n| n.is_dcg()))
        })
}
