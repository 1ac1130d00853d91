//! `bterm cards check|list|show`: card files checked, cards listed and
//! described in words.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Subcommand;

use super::{CliError, load_set};
use crate::cards::{Card, Field, LevelQuery, Requirements};
use crate::effects::text::render;

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

pub(super) fn cards(command: CardsCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let w = |r: std::io::Result<()>| r.map_err(super::output_error);
    match command {
        CardsCommand::Check { path } => {
            let set = load_set(Some(&path))?;
            let count = |k| set.cards().iter().filter(|c| c.kind() == k).count();
            Ok(w(writeln!(
                out,
                "{}: {} cards, all valid ({} Digimon, {} Option, {} Command)",
                super::escape_lines(&path.display().to_string()),
                set.len(),
                count(crate::cards::CardKind::Digimon),
                count(crate::cards::CardKind::Option),
                count(crate::cards::CardKind::Command),
            ))?)
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
                    w(writeln!(out, "{}", super::escape_lines(&list_line(card))))?;
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
            // A card of no set (a wild Digimon, a custom card) is found
            // in the collection that holds it.
            let held;
            let card = match set.resolve(&number) {
                Ok(card) => card,
                Err(e) => {
                    held = super::collection::held_card(&number, &set)
                        .ok_or_else(|| format!("error: {e}"))?;
                    &held
                }
            };
            if json {
                let text = serde_json::to_string_pretty(card).map_err(|e| format!("error: {e}"))?;
                Ok(w(writeln!(out, "{text}"))?)
            } else {
                Ok(w(write!(out, "{}", super::escape_lines(&describe(card))))?)
            }
        }
    }
}

/// The widths of `bterm cards list`'s first columns: number, name, kind
/// (a level, "Option", a card type), Field or colours; the last column
/// (cost and stats) follows.
const LIST_COLUMNS: [usize; 4] = [9, 31, 22, 19];

/// One line of `bterm cards list`: its columns padded to [`LIST_COLUMNS`],
/// so every kind of card lines up with the others.
pub fn list_line(card: &Card) -> String {
    let number = card.number().to_string();
    let colours = |c: &[String]| c.join("/");
    let [kind, group, rest]: [String; 3] = match card {
        Card::Digimon(d) => [
            d.level.to_string(),
            d.field.name().to_string(),
            format!(
                "{:<8} cost {} HP {:>4} {}",
                d.attribute.name(),
                d.cost,
                d.hp,
                d.battle_type
            ),
        ],
        Card::Option(o) => [
            "Option".to_string(),
            String::new(),
            format!("cost {}", o.cost),
        ],
        Card::Command(_) => ["Command".to_string(), String::new(), String::new()],
        Card::Dcg(c) => [
            match c.level {
                Some(l) => format!("{} Lv.{l}", c.kind),
                None => c.kind.to_string(),
            },
            colours(&c.colors.iter().map(ToString::to_string).collect::<Vec<_>>()),
            [
                c.cost.map(|n| format!("cost {n}")),
                c.dp.map(|d| format!("DP {d}")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" "),
        ],
        Card::Clash(c) => [
            c.kind.words().to_string(),
            colours(&c.colors.iter().map(ToString::to_string).collect::<Vec<_>>()),
            match (c.attack, c.defense, c.health) {
                (Some(a), Some(d), Some(h)) => format!("{a}/{d} health {h}"),
                (Some(a), Some(d), None) => format!("cost {} {a}/{d}", c.cost_words()),
                _ => format!("cost {}", c.cost_words()),
            },
        ],
    };
    let mut line = String::new();
    for (text, width) in [number, card.name().to_string(), kind, group]
        .iter()
        .zip(LIST_COLUMNS)
    {
        line.push_str(text);
        let pad = width.saturating_sub(text.chars().count()).max(1);
        line.extend(std::iter::repeat_n(' ', pad));
    }
    line.push_str(&rest);
    line.trim_end().to_string()
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
        Card::Dcg(c) => describe_dcg(&mut s, c),
        Card::Clash(c) => describe_clash(&mut s, c),
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

/// The lines `bterm cards show` prints for an Alpha Clash card.
fn describe_clash(s: &mut String, c: &crate::cards::ClashCard) {
    use std::fmt::Write as _;
    let colors: Vec<String> = c.colors.iter().map(ToString::to_string).collect();
    let mut head = vec![c.kind.words().to_string(), colors.join("/")];
    head.extend(c.affiliation.map(|a| a.words().to_string()));
    head.extend(c.planet.clone());
    head.extend(c.rarity.as_ref().map(|r| format!("({r})")));
    let _ = writeln!(s, "  {}", head.join(" · "));
    let mut figures = Vec::new();
    if c.kind != crate::cards::ClashKind::Contender {
        figures.push(format!("resource cost {}", c.cost_words()));
    }
    if let (Some(a), Some(d)) = (c.attack, c.defense) {
        figures.push(format!("ATK {a} / DEF {d}"));
    }
    if let Some(h) = c.health {
        figures.push(format!("health {h}"));
    }
    if !c.attach.is_empty() {
        let at: Vec<&str> = c.attach.iter().map(|h| h.name()).collect();
        figures.push(format!("attach cost {}", at.join(", ")));
    }
    if !figures.is_empty() {
        let _ = writeln!(s, "  {}", figures.join(" · "));
    }
    for line in c.text_lines() {
        let _ = writeln!(s, "  {line}");
    }
}

/// The lines `bterm cards show` prints for a Digimon Card Game card.
fn describe_dcg(s: &mut String, c: &crate::cards::DcgCard) {
    use std::fmt::Write as _;
    let colors: Vec<String> = c.colors.iter().map(ToString::to_string).collect();
    let mut head = vec![c.kind.to_string(), colors.join("/")];
    head.extend(c.level.map(|l| format!("Lv.{l}")));
    head.extend(c.form.clone());
    head.extend(c.attribute.clone());
    if !c.types.is_empty() {
        head.push(c.types.join("/"));
    }
    let _ = writeln!(s, "  {}", head.join(" · "));
    let mut figures = Vec::new();
    if let Some(cost) = c.cost {
        figures.push(match c.kind {
            crate::cards::DcgKind::Option => format!("use cost {cost}"),
            _ => format!("play cost {cost}"),
        });
    }
    if let Some(dp) = c.dp {
        figures.push(format!("{dp} DP"));
    }
    if !figures.is_empty() {
        let _ = writeln!(s, "  {}", figures.join(" · "));
    }
    for d in &c.digivolve {
        let _ = writeln!(s, "  Digivolve: {} from {} Lv.{}", d.cost, d.color, d.level);
    }
    for a in c.abilities() {
        let _ = writeln!(s, "  {}", crate::effects::dcg::render(a));
    }
    if !c.inherited.is_empty() {
        let _ = writeln!(s, "  Inherited effects:");
        for a in c.inherited_abilities() {
            let _ = writeln!(s, "    {}", crate::effects::dcg::render(a));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_card_lines_up_in_the_list() {
        let set = crate::cards::CardSet::embedded();
        let starts: Vec<usize> = LIST_COLUMNS
            .iter()
            .scan(0, |at, w| {
                *at += w;
                Some(*at)
            })
            .collect();
        for card in set.cards() {
            let line: Vec<char> = list_line(card).chars().collect();
            for &s in &starts {
                if s <= line.len() {
                    assert_eq!(
                        line[s - 1],
                        ' ',
                        "a column runs into the next at {s}: {}",
                        line.iter().collect::<String>()
                    );
                }
            }
            assert_ne!(line.last(), Some(&' '));
        }
    }
}
