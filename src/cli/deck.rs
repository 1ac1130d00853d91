//! `bterm deck`: check, show and import decks of any tabletop game (the
//! Card Game Alpha's, the Digimon Card Game's and Alpha Clash's; a deck
//! says which by its cards).

use std::io::Write as _;
use std::path::PathBuf;

use clap::Subcommand;

use super::{CliError, escape_lines, load_set};
use crate::cards::CardNumber;
use crate::rules::alpha::deck;

/// `bterm deck`.
#[derive(Debug, Subcommand)]
pub enum DeckCommand {
    /// Check a deck file against the deck rules (32 cards, a Level III, 3 of a name).
    Check {
        /// The deck file (`assets/decks/*.ron` shows the format) or a shipped deck's name.
        deck: String,
        /// Card files to use instead of the built-in sample set.
        #[arg(long, value_name = "PATH")]
        cards: Option<PathBuf>,
        /// Also check that your collection holds every card of it.
        #[arg(long)]
        owned: bool,
        /// The collection's database (with --owned).
        #[arg(long, value_name = "FILE", requires = "owned")]
        db: Option<PathBuf>,
    },
    /// Read a Digimon Card Game deck list in the plain-text form deck
    /// builders export ("4 Agumon ST1-03", "4 ST1-03", "4x Agumon", "Agumon
    /// x4", one card a line) and write it as a bterm deck file.
    Import {
        /// The deck list (a text file).
        file: PathBuf,
        /// Where to write the deck file (default: print it).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Write over --out if it exists.
        #[arg(long)]
        force: bool,
        /// The deck's name (default: the list's file name).
        #[arg(long)]
        name: Option<String>,
        /// Card files to use instead of the built-in sample set.
        #[arg(long, value_name = "PATH")]
        cards: Option<PathBuf>,
    },
    /// Show a deck's cards and make-up; with no deck, list the shipped decks.
    Show {
        /// The deck file or a shipped deck's name.
        deck: Option<String>,
        /// Card files to use instead of the built-in sample set.
        #[arg(long, value_name = "PATH")]
        cards: Option<PathBuf>,
    },
}

pub(super) fn deck_command(c: DeckCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match c {
        DeckCommand::Check {
            deck,
            cards,
            owned,
            db,
        } => {
            let set = load_set(cards.as_deref())?;
            let (name, numbers) = if super::clash::is_clash_deck(&deck) {
                let numbers = super::clash::load_deck(&deck, &set)?;
                let contender = numbers
                    .first()
                    .and_then(|n| set.get(n))
                    .map_or(String::new(), |c| c.name().to_string());
                let _ = writeln!(
                    out,
                    "{}: a legal Alpha Clash deck list: Contender {}, {} Main Deck cards",
                    super::escape(&deck),
                    super::escape(&contender),
                    numbers.len().saturating_sub(1)
                );
                (String::new(), numbers)
            } else if super::dcg::is_dcg_deck(&deck) {
                let numbers = super::dcg::load_deck(&deck, &set)?;
                let eggs = numbers
                    .iter()
                    .filter(|n| {
                        set.get(n)
                            .and_then(|c| c.as_dcg())
                            .is_some_and(|c| c.kind == crate::cards::DcgKind::DigiEgg)
                    })
                    .count();
                let players = crate::rules::dcg::deck::check(&numbers, &set).is_err();
                let name_of = |i: usize| {
                    numbers
                        .get(i)
                        .and_then(|n| set.get(n))
                        .map_or(String::new(), |c| c.name().to_string())
                };
                let _ = writeln!(
                    out,
                    "{}: a legal Digimon Card Game deck, {} cards and {eggs} Digi-Eggs{}",
                    super::escape(&deck),
                    numbers.len() - eggs,
                    if players {
                        format!(
                            " (the Players Format, 3 and 4 players: Player Tamer {}, Player Digimon {})",
                            name_of(0),
                            name_of(1)
                        )
                    } else {
                        String::new()
                    }
                );
                (String::new(), numbers)
            } else {
                let (name, numbers) = super::alpha::load_deck(&deck, &set)?;
                let _ = writeln!(
                    out,
                    "{}: a legal deck, \"{}\", {} cards",
                    super::escape(&deck),
                    super::escape(&name),
                    numbers.len()
                );
                (name, numbers)
            };
            let _ = name;
            if owned {
                let said =
                    super::collection::check_owned(&numbers, &set, db.as_deref()).map_err(|e| {
                        CliError::failed(format!("error: {}: {}", super::escape(&deck), e.message))
                    })?;
                let _ = writeln!(out, "{}: {said}", super::escape(&deck));
            }
        }
        DeckCommand::Import {
            file,
            out: to,
            force,
            name,
            cards,
        } => {
            let set = load_set(cards.as_deref())?;
            let said = super::dcg::import(&file, to.as_deref(), force, name, &set)?;
            let _ = write!(out, "{said}");
        }
        DeckCommand::Show { deck, cards } => {
            let set = load_set(cards.as_deref())?;
            let decks: Vec<String> = match deck {
                Some(d) => vec![d],
                None => deck::EMBEDDED.iter().map(|(n, _)| n.to_string()).collect(),
            };
            for d in decks {
                let (name, numbers) = super::alpha::load_deck(&d, &set)?;
                let _ = writeln!(out, "{} — \"{}\"", super::escape(&d), super::escape(&name));
                let mut seen: Vec<(CardNumber, usize)> = Vec::new();
                for n in &numbers {
                    match seen.iter_mut().find(|(x, _)| x == n) {
                        Some((_, k)) => *k += 1,
                        None => seen.push((*n, 1)),
                    }
                }
                for (n, k) in seen {
                    if let Some(card) = set.get(&n) {
                        let _ = writeln!(out, "  {k} × {}", escape_lines(&super::list_line(card)));
                    }
                }
                let _ = writeln!(
                    out,
                    "  {}\n",
                    deck::Summary::of(&numbers, &set)
                        .to_string()
                        .replace('\n', "\n  ")
                );
            }
        }
    }
    Ok(())
}
