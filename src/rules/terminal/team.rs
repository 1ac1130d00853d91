//! A team: its cards become evolution lines and Option slots, with
//! every team rule checked (limits, ◎, copies, lines, Burst).

use std::collections::HashMap;
use std::sync::Arc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::Side;
use super::Tunables;
use super::side_state::{Line, LineState};
use crate::cards::{
    Card, CardNumber, CardSet, Digimon, OptionCard, Requirements, ResolveError, Stage, base_name,
};
use crate::effects::{Ability, Effect, Happening, Timing, Trigger};

/// Why a team cannot play, naming the card and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A card number no card has.
    #[error("{side}: {error}")]
    UnknownCard {
        /// Whose team.
        side: Side,
        /// The resolver's answer.
        error: ResolveError,
    },
    /// A Level IV+ card that fits no line.
    #[error("{side}: {name} needs {needs} first")]
    NeedsFirst {
        /// Whose team.
        side: Side,
        /// The card.
        name: String,
        /// What it evolves from.
        needs: String,
    },
    /// A card whose predecessor's line already goes on to another card.
    #[error("{side}: {name} cannot follow {needs}: that line already goes on to {taken_by}")]
    LineTaken {
        /// Whose team.
        side: Side,
        /// The card.
        name: String,
        /// What it evolves from.
        needs: String,
        /// The card already stacked there.
        taken_by: String,
    },
    /// A Jogress card without both component lines.
    #[error("{side}: {name} is a Jogress of {x} ⇔ {y}: scan a {x} line and a {y} line first")]
    JogressNeedsBoth {
        /// Whose team.
        side: Side,
        /// The Jogress card.
        name: String,
        /// One component.
        x: String,
        /// The other.
        y: String,
    },
    /// Too many Digimon cards.
    #[error("{side}: {count} Digimon scanned, {max} allowed")]
    TooManyDigimon {
        /// Whose team.
        side: Side,
        /// Scanned.
        count: usize,
        /// Allowed.
        max: usize,
    },
    /// Too many Option cards.
    #[error("{side}: {count} Option cards scanned, {max} allowed")]
    TooManyOptions {
        /// Whose team.
        side: Side,
        /// Scanned.
        count: usize,
        /// Allowed.
        max: usize,
    },
    /// Too many evolution lines.
    #[error("{side}: {name} would open evolution line {count}, {max} allowed")]
    TooManyLines {
        /// Whose team.
        side: Side,
        /// The card that would open it.
        name: String,
        /// Lines it would make.
        count: usize,
        /// Allowed.
        max: usize,
    },
    /// The ◎ one-card limit.
    #[error("{side}: ◎ one-card limit: two {name}")]
    OneCardLimit {
        /// Whose team.
        side: Side,
        /// The (base) name.
        name: String,
    },
    /// More copies of a name than allowed.
    #[error("{side}: {count} cards named {name}, at most {max} allowed")]
    TooManyCopies {
        /// Whose team.
        side: Side,
        /// The (base) name.
        name: String,
        /// Scanned.
        count: usize,
        /// Allowed.
        max: usize,
    },
    /// A Command card (tabletop only).
    #[error("{side}: {name} is a Command card; Command cards are not used in the Battle Terminal")]
    CommandCard {
        /// Whose team.
        side: Side,
        /// The card.
        name: String,
    },
    /// A card of another game (the Digimon Card Game, Alpha Clash).
    #[error(
        "{side}: {name} is a {game} card; a Battle Terminal team is built from Battle Terminal and Card Game Alpha Digimon"
    )]
    OtherGame {
        /// Which game the card belongs to.
        game: &'static str,
        /// Whose team.
        side: Side,
        /// The card.
        name: String,
    },
    /// A Battle Terminal ability that uses tabletop-only words.
    #[error(
        "{side}: {name}'s Battle Terminal ability uses {what}, which the Battle Terminal does not have; move it to the card's `alpha` abilities"
    )]
    Unsupported {
        /// Whose team.
        side: Side,
        /// The card.
        name: String,
        /// The word.
        what: &'static str,
    },
    /// No Level III Digimon to give a player who scanned none.
    #[error(
        "{side} scanned no Digimon, and the card set has no Level III Digimon to pick a partner from"
    )]
    NoDefaultPartner {
        /// Whose team.
        side: Side,
    },
    /// Custom or wild cards that are not valid cards, or clash with the set.
    #[error("the scanned custom or wild cards have problems: {0}")]
    ExtraCards(String),
    /// Burst would take every starting point.
    #[error(
        "{side}: the team's Cost is {cost}, and Burst above {cap} would take every starting point; leave out cards until the Cost is at most {most}"
    )]
    BurstTakesAll {
        /// Whose team.
        side: Side,
        /// The team's Cost.
        cost: u32,
        /// The Cost cap.
        cap: u32,
        /// The highest Cost that leaves a point.
        most: u32,
    },
    /// A tunable out of its range (from a replay or a rules file).
    #[error("the rules' numbers are not playable: {0}")]
    Tunables(String),
    /// A bug: the engine broke its own invariant.
    #[error("internal error while setting up the match")]
    Internal,
    /// A setup for an engine this build does not play.
    #[error("engine {0} is not one this bterm plays (it plays {engines:?})", engines = super::ENGINES)]
    Engine(u32),
}

pub(super) struct Team {
    pub lines: Vec<Line>,
    pub options: Vec<Arc<OptionCard>>,
    pub burst: i32,
}

/// Which words of the effect grammar the Terminal cannot play.
pub(super) fn unsupported(a: &Ability) -> Option<&'static str> {
    if matches!(a.timing, Timing::Attacking | Timing::Blocking) {
        return Some("a tabletop timing (When Attacking / When Blocking)");
    }
    if matches!(a.trigger, Some(Trigger::When(h) | Trigger::WhenWould(h)) if matches!(h, Happening::ThisBlocked | Happening::OpponentUsesOption))
    {
        return Some("a tabletop trigger (blocked / Option used)");
    }
    a.effects.iter().find_map(|e| match e {
        Effect::Draw(..) | Effect::Discard(..) => Some("drawing or discarding cards"),
        Effect::Tap(_) | Effect::Untap(_) => Some("tapping"),
        Effect::WinGame => Some("winning the game (a tabletop winning condition)"),
        _ => None,
    })
}

pub(super) fn new_line(card: Arc<Digimon>) -> Line {
    Line {
        stages: vec![card],
        at: 0,
        gauge: 0,
        state: LineState::InPlay,
        zeroed: [false; 3],
        jogress: None,
    }
}

pub(super) fn build_team(
    side: Side,
    numbers: &[CardNumber],
    cards: &CardSet,
    t: &Tunables,
    rng: &mut ChaCha8Rng,
) -> Result<Team, SetupError> {
    let mut resolved: Vec<&Card> = Vec::with_capacity(numbers.len());
    for n in numbers {
        let card = cards.get(n).ok_or_else(|| SetupError::UnknownCard {
            side,
            error: cards
                .resolve(&n.to_string())
                .err()
                .unwrap_or(ResolveError::Unknown {
                    number: *n,
                    nearest: None,
                }),
        })?;
        resolved.push(card);
    }
    let mut digimon: Vec<&Digimon> = Vec::new();
    let mut options: Vec<Arc<OptionCard>> = Vec::new();
    for card in &resolved {
        match card {
            Card::Digimon(d) => digimon.push(d),
            Card::Option(o) => options.push(Arc::new(o.clone())),
            Card::Command(c) => {
                return Err(SetupError::CommandCard {
                    side,
                    name: c.name.clone(),
                });
            }
            Card::Dcg(_) | Card::Clash(_) => {
                return Err(SetupError::OtherGame {
                    game: if card.as_dcg().is_some() {
                        "Digimon Card Game"
                    } else {
                        "Alpha Clash"
                    },
                    side,
                    name: card.name().to_string(),
                });
            }
        }
        for a in card.terminal_abilities() {
            if let Some(what) = unsupported(a) {
                return Err(SetupError::Unsupported {
                    side,
                    name: card.name().to_string(),
                    what,
                });
            }
        }
    }
    if digimon.len() > t.max_digimon {
        return Err(SetupError::TooManyDigimon {
            side,
            count: digimon.len(),
            max: t.max_digimon,
        });
    }
    if options.len() > t.max_options {
        return Err(SetupError::TooManyOptions {
            side,
            count: options.len(),
            max: t.max_options,
        });
    }
    let mut copies: HashMap<&str, usize> = HashMap::new();
    for card in &resolved {
        *copies.entry(card.base_name()).or_default() += 1;
    }
    for card in &resolved {
        let count = copies[card.base_name()];
        if card.one_card_limit() && count > 1 {
            return Err(SetupError::OneCardLimit {
                side,
                name: card.base_name().to_string(),
            });
        }
        if count > t.max_copies {
            return Err(SetupError::TooManyCopies {
                side,
                name: card.base_name().to_string(),
                count,
                max: t.max_copies,
            });
        }
    }
    let cost: u32 = resolved
        .iter()
        .filter_map(|c| c.cost())
        .map(u32::from)
        .sum();
    let burst = i32::try_from(cost.saturating_sub(t.cost_cap))
        .unwrap_or(i32::MAX / 8)
        .saturating_mul(t.burst_points_per_cost);
    // A player at 0 points has lost: a team whose Burst takes every point
    // would lose before its first round, so it is refused at the scan.
    if burst >= t.start_points {
        let per = t.burst_points_per_cost.max(1) as u32;
        return Err(SetupError::BurstTakesAll {
            side,
            cost,
            cap: t.cost_cap,
            most: t.cost_cap + (t.start_points.max(1) as u32 - 1) / per,
        });
    }

    if digimon.is_empty() {
        // A player who scans nothing plays a default partner, picked by the match's dice.
        let partners: Vec<&Digimon> = cards
            .cards()
            .iter()
            .filter_map(Card::as_digimon)
            .filter(|d| {
                d.level.stage() == Stage::III && d.terminal.iter().all(|a| unsupported(a).is_none())
            })
            .collect();
        if partners.is_empty() {
            return Err(SetupError::NoDefaultPartner { side });
        }
        digimon.push(partners[rng.random_range(0..partners.len())]);
    }

    let mut lines: Vec<Line> = Vec::new();
    for d in digimon {
        let card = Arc::new(d.clone());
        match &d.requirements {
            Requirements::Jogress(x, y) => {
                let top_named = |name: &str| {
                    lines.iter().position(|l| {
                        l.jogress.is_none()
                            && base_name(&l.stages[l.stages.len() - 1].name) == base_name(name)
                    })
                };
                let (Some(lx), Some(ly)) = (top_named(x), top_named(y)) else {
                    return Err(SetupError::JogressNeedsBoth {
                        side,
                        name: d.name.clone(),
                        x: x.clone(),
                        y: y.clone(),
                    });
                };
                let stage = lines[lx].stages.len();
                lines[lx].stages.push(card);
                lines[lx].jogress = Some((stage, ly));
            }
            Requirements::AnyOf(names) => {
                let fits = lines.iter().position(|l| {
                    l.jogress.is_none() && d.evolves_from(&l.stages[l.stages.len() - 1].name)
                });
                if let Some(i) = fits {
                    lines[i].stages.push(card);
                    continue;
                }
                // Its predecessor is scanned but its line went on to another card.
                for l in &lines {
                    if let Some(pos) = l.stages.iter().position(|s| d.evolves_from(&s.name)) {
                        let taken_by = l
                            .stages
                            .get(pos + 1)
                            .map_or_else(String::new, |s| s.name.clone());
                        return Err(SetupError::LineTaken {
                            side,
                            name: d.name.clone(),
                            needs: l.stages[pos].name.clone(),
                            taken_by,
                        });
                    }
                }
                return Err(SetupError::NeedsFirst {
                    side,
                    name: d.name.clone(),
                    needs: names.join(" or "),
                });
            }
            Requirements::None => {
                if d.level.stage() != Stage::III {
                    return Err(SetupError::NeedsFirst {
                        side,
                        name: d.name.clone(),
                        needs: "a Digimon to evolve from".into(),
                    });
                }
                if lines.len() >= t.max_lines {
                    return Err(SetupError::TooManyLines {
                        side,
                        name: d.name.clone(),
                        count: lines.len() + 1,
                        max: t.max_lines,
                    });
                }
                lines.push(new_line(card));
            }
        }
    }
    Ok(Team {
        lines,
        options,
        burst,
    })
}
