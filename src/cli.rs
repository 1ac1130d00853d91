//! The command line: `bterm [play]`, `bterm cards check|list|show`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::cards::{Card, CardSet, Field, LevelQuery, Requirements};
use crate::effects::text::render;

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
}

/// Options for the game window.
#[derive(Debug, Clone, Default, Args)]
pub struct PlayArgs {
    /// Save a screenshot of the first rendered frames to this PNG, then quit.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
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
    crate::arena::run(args)
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
