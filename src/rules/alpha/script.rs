//! Scripted games: a rules scenario anyone can write without Rust. A
//! script names decks in a fixed order (top first, no shuffle), the first
//! seat, optional starting points, and the actions in the words of
//! [`Match::action_text`]; [`Script::run`] plays them and keeps every
//! event. The format is documented in `docs/alpha-rules.md` and
//! `docs/scripts.md`; `bterm script` plays it through [`Scripted`].

use serde::{Deserialize, Serialize};

use super::{Event, Match, Setup};
use crate::cards::{Card, CardNumber, CardSet};
pub use crate::rules::script::StepError;
use crate::rules::script::{
    Report, SETUP_ACCEPTED, Scripted, in_order, refused_because, report_events,
};
use crate::rules::{Ruleset, RulesetId, Seat};

/// A scripted game, as written in a `.ron` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// The ruleset, `Alpha` (`bterm script` needs it; `bterm alpha
    /// --script` does not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<RulesetId>,
    /// Each seat's deck, top card first: card names or numbers, each
    /// optionally counted (`"3x Agumon"`).
    pub decks: Vec<Vec<String>>,
    /// Who is first to attack on turn 1.
    #[serde(default = "p1")]
    pub first: Seat,
    /// Starting points per seat (empty: 100 each).
    #[serde(default)]
    pub points: Vec<u32>,
    /// The seed for shuffles during play (a Lifespan, a redraw).
    #[serde(default)]
    pub seed: u64,
    /// The actions, in order: who, and what in words.
    pub steps: Vec<(Seat, String)>,
    /// What must hold when the steps are done (a scenario's assertions).
    #[serde(default)]
    pub expect: Vec<Expect>,
    /// Seats whose decks the deck rules do not hold, each with the reason
    /// (`[(P2, "a Net Ocean of 8 cards, to reach the Lifespan")]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<(Seat, String)>,
    /// Cards of the scenario's own, in the card-file format, added to the
    /// card set (checked as card files are): a rule a printed card does
    /// not reach can still be played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<Card>,
}

/// A zone of a seat, as an expectation names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Zone {
    /// The hand, in order.
    Hand,
    /// The Net Ocean, top first.
    NetOcean,
    /// The Dark Area, oldest first.
    DarkArea,
    /// Removed from the game.
    Removed,
    /// The Digimon Box's top cards, in line-up order.
    Box,
    /// The Option Slot.
    Options,
}

/// One thing a script expects at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expect {
    /// A seat has these points.
    Points(Seat, u32),
    /// A seat has left the game (it lost).
    Out(Seat),
    /// The game is over and this seat won.
    Winner(Seat),
    /// The game is over, a draw.
    Draw,
    /// The game is not over.
    Ongoing,
    /// The turn number.
    Turn(u32),
    /// This step (1-based) was refused, and the script stopped there.
    Refused(usize),
    /// A refused step's reason contains this.
    RefusedBecause(String),
    /// A zone holds exactly these cards, in this order.
    Cards(Seat, Zone, Vec<String>),
    /// A zone holds this many cards.
    Count(Seat, Zone, usize),
    /// A zone holds this card (at least once).
    Has(Seat, Zone, String),
    /// A zone does not hold this card.
    Lacks(Seat, Zone, String),
    /// A Digimon of this seat (by name) is tapped (true) or untapped.
    Tapped(Seat, String, bool),
    /// Some event's text contains this.
    Event(String),
    /// No event's text contains this.
    NoEvent(String),
    /// Each text is in some event's words, each after the one before.
    EventsInOrder(Vec<String>),
    /// The rules refuse the setup (a deck) with words containing this; no
    /// game begins.
    SetupRefused(String),
    /// This seat is asked next.
    Waiting(Seat),
}

fn p1() -> Seat {
    Seat::P1
}

/// A script played: every event, the match as it ended, and the refused
/// step if one stopped it.
#[derive(Debug, Clone)]
pub struct Played {
    /// Events, the opening ones first, each with the 1-based step it came
    /// from (0 for the opening).
    pub events: Vec<(usize, Event)>,
    /// The match where the script stopped.
    pub game: Match,
    /// The step the rules refused, if any.
    pub refused: Option<StepError>,
}

impl Script {
    /// The card set the script plays with: `cards` and the script's own.
    pub fn card_set<'a>(
        &self,
        cards: &'a CardSet,
    ) -> Result<std::borrow::Cow<'a, CardSet>, String> {
        cards
            .extended(&self.cards)
            .map_err(|e| format!("the script's own cards are refused: {e}"))
    }

    /// The setup the script starts from.
    pub fn setup(&self, cards: &CardSet) -> Result<Setup, String> {
        let cards = self.card_set(cards)?;
        let cards = cards.as_ref();
        let mut decks = Vec::new();
        for (i, deck) in self.decks.iter().enumerate() {
            let mut numbers: Vec<CardNumber> = Vec::new();
            for entry in deck {
                let (count, name) = split_count(entry);
                let card = cards
                    .resolve(name)
                    .map_err(|e| format!("deck {} entry \"{entry}\": {e}", i + 1))?;
                numbers.extend(std::iter::repeat_n(card.number(), count));
            }
            decks.push(numbers);
        }
        Ok(Setup {
            decks,
            seed: self.seed,
            first: Some(self.first),
            shuffle: false,
            points: self.points.clone(),
            extra: self.cards.clone(),
            exempt: self.exempt.clone(),
        })
    }

    /// Plays the script; a refused step stops it. (Describe its events
    /// with [`Script::card_set`].)
    pub fn run(&self, cards: &CardSet) -> Result<Played, String> {
        let setup = self.setup(cards)?;
        let mut game = Match::from_setup(&setup, cards).map_err(|e| e.to_string())?;
        let mut events: Vec<(usize, Event)> = game
            .opening_events()
            .iter()
            .map(|e| (0, e.clone()))
            .collect();
        for (i, (seat, text)) in self.steps.iter().enumerate() {
            let step = game
                .parse_action(*seat, text)
                .and_then(|a| game.apply(*seat, a).map_err(|e| e.reason));
            match step {
                Ok(evs) => events.extend(evs.into_iter().map(|e| (i + 1, e))),
                Err(reason) => {
                    return Ok(Played {
                        events,
                        game,
                        refused: Some(StepError {
                            index: i + 1,
                            seat: *seat,
                            text: text.clone(),
                            reason,
                        }),
                    });
                }
            }
        }
        Ok(Played {
            events,
            game,
            refused: None,
        })
    }
}

impl Played {
    /// The script's expectations that do not hold, each in words.
    pub fn check(&self, expect: &[Expect], cards: &CardSet) -> Vec<String> {
        let zones = self.game.zones();
        let texts: Vec<String> = self
            .events
            .iter()
            .map(|(_, e)| super::event::describe(e, cards))
            .collect();
        let zone = |s: Seat, z: Zone| -> Vec<String> {
            let Some(x) = zones.get(s.index()) else {
                return Vec::new();
            };
            match z {
                Zone::Hand => x.hand.clone(),
                Zone::NetOcean => x.net_ocean.clone(),
                Zone::DarkArea => x.dark_area.clone(),
                Zone::Removed => x.removed.clone(),
                Zone::Box => x.digimon.iter().map(|d| d.card.clone()).collect(),
                Zone::Options => x.options.iter().map(|o| o.card.clone()).collect(),
            }
        };
        let mut bad = Vec::new();
        for e in expect {
            let ok = match e {
                Expect::Points(s, p) => self.game.points(*s) == *p,
                Expect::Out(s) => !self.game.alive(*s),
                Expect::Winner(s) => self.game.outcome() == Some(crate::rules::Outcome::Win(*s)),
                Expect::Draw => self.game.outcome() == Some(crate::rules::Outcome::Draw),
                Expect::Ongoing => self.game.outcome().is_none(),
                Expect::Turn(t) => self.game.turn() == *t,
                Expect::Refused(i) => self.refused.as_ref().map(|r| r.index) == Some(*i),
                Expect::Cards(s, z, v) => zone(*s, *z) == *v,
                Expect::Count(s, z, n) => zone(*s, *z).len() == *n,
                Expect::Has(s, z, c) => zone(*s, *z).contains(c),
                Expect::Lacks(s, z, c) => !zone(*s, *z).contains(c),
                Expect::Tapped(s, name, t) => zones
                    .get(s.index())
                    .is_some_and(|x| x.digimon.iter().any(|d| d.card == *name && d.tapped == *t)),
                Expect::Event(t) => texts.iter().any(|x| x.contains(t.as_str())),
                Expect::NoEvent(t) => !texts.iter().any(|x| x.contains(t.as_str())),
                Expect::Waiting(s) => self.game.waiting_for() == Some(*s),
                Expect::RefusedBecause(t) => refused_because(self.refused.as_ref(), t).is_ok(),
                Expect::EventsInOrder(v) => in_order(&texts, v).is_ok(),
                Expect::SetupRefused(_) => false,
            };
            if !ok {
                let found = match e {
                    Expect::Points(s, _) => format!("{} points", self.game.points(*s)),
                    Expect::Cards(s, z, _)
                    | Expect::Count(s, z, _)
                    | Expect::Has(s, z, _)
                    | Expect::Lacks(s, z, _) => {
                        format!("{:?}", zone(*s, *z))
                    }
                    Expect::Refused(_) => self
                        .refused
                        .as_ref()
                        .map_or_else(|| "no step refused".to_string(), ToString::to_string),
                    Expect::Turn(_) => format!("turn {}", self.game.turn()),
                    Expect::Waiting(_) => format!("waiting for {:?}", self.game.waiting_for()),
                    Expect::Event(t) => crate::rules::script::event_words(&texts, t, true),
                    Expect::NoEvent(t) => crate::rules::script::event_words(&texts, t, false),
                    Expect::RefusedBecause(t) => refused_because(self.refused.as_ref(), t)
                        .err()
                        .unwrap_or_default(),
                    Expect::EventsInOrder(v) => in_order(&texts, v).err().unwrap_or_default(),
                    Expect::SetupRefused(_) => SETUP_ACCEPTED.to_string(),
                    Expect::Tapped(s, name, _) => zones.get(s.index()).map_or_else(
                        || format!("no seat {s}"),
                        |x| {
                            let found: Vec<String> = x
                                .digimon
                                .iter()
                                .filter(|d| d.card == *name)
                                .map(|d| if d.tapped { "tapped" } else { "untapped" }.to_string())
                                .collect();
                            if found.is_empty() {
                                format!("no {name} of {s}'s in play")
                            } else {
                                format!("{name} {}", found.join(", "))
                            }
                        },
                    ),
                    _ => crate::rules::script::outcome_words(self.game.outcome()),
                };
                bad.push(crate::rules::script::seats_as_written(format!(
                    "expected {e:?}; found {found}"
                )));
            }
        }
        if let Some(r) = &self.refused
            && !expect
                .iter()
                .any(|e| matches!(e, Expect::Refused(_) | Expect::RefusedBecause(_)))
        {
            bad.push(format!("unexpected refusal: {r}"));
        }
        bad
    }
}

impl Scripted for Match {
    type Script = Script;

    fn expects_refused_setup(script: &Script) -> Option<(&str, usize)> {
        script.expect.iter().find_map(|e| match e {
            Expect::SetupRefused(t) => Some((t.as_str(), script.expect.len())),
            _ => None,
        })
    }

    fn play_script(script: &Script, cards: &CardSet) -> Result<Report, String> {
        let played = script.run(cards)?;
        let own = script.card_set(cards)?;
        let own = own.as_ref();
        let failures = if script.expect.is_empty() {
            played
                .refused
                .iter()
                .map(|r| format!("unexpected refusal: {r}"))
                .collect()
        } else {
            played.check(&script.expect, own)
        };
        let game = &played.game;
        Ok(Report {
            ruleset: Match::ID,
            events: report_events::<Match>(&played.events, own),
            state_lines: state_lines(game),
            state: serde_json::Map::from_iter([
                ("turn".to_string(), serde_json::json!(game.turn())),
                (
                    "waiting_for".to_string(),
                    serde_json::json!(game.waiting_for()),
                ),
                ("seats".to_string(), serde_json::json!(game.zones())),
            ]),
            outcome: game.outcome(),
            waiting: game.waiting_for().into_iter().collect(),
            refused: played.refused.clone(),
            expectations: script.expect.len(),
            failures,
        })
    }
}

/// The table where a script stopped, in lines: each seat's points, hand,
/// Net Ocean, Dark Area, removed cards, Digimon and Option cards.
pub fn state_lines(game: &Match) -> Vec<String> {
    let mut out = vec![format!("--- final state (turn {}) ---", game.turn())];
    for z in game.zones() {
        out.push(format!(
            "{}: {} points{} · target {}",
            z.seat,
            z.points,
            if z.alive { "" } else { " · OUT" },
            z.target
        ));
        out.push(format!("  hand: {}", z.hand.join(", ")));
        out.push(format!(
            "  Net Ocean ({}): {}",
            z.net_ocean.len(),
            z.net_ocean.join(", ")
        ));
        out.push(format!("  Dark Area: {}", z.dark_area.join(", ")));
        out.push(format!("  removed: {}", z.removed.join(", ")));
        for d in &z.digimon {
            out.push(format!(
                "  Digimon: {}{}{}{}",
                d.card,
                if d.face_down { " (face down)" } else { "" },
                if d.tapped { " (tapped)" } else { "" },
                if d.stack.is_empty() {
                    String::new()
                } else {
                    format!(" ← {}", d.stack.join(" ← "))
                }
            ));
        }
        for o in &z.options {
            out.push(format!(
                "  Option: {}{}{}",
                o.card,
                if o.face_down { " (face down)" } else { "" },
                if o.tapped { " (tapped)" } else { "" }
            ));
        }
    }
    out
}

/// `"3x Agumon"` → (3, "Agumon"); a plain name counts once.
fn split_count(entry: &str) -> (usize, &str) {
    let t = entry.trim();
    if let Some((n, rest)) = t.split_once(['x', '×'])
        && let Ok(n) = n.trim().parse::<usize>()
        && n <= 32
    {
        return (n, rest.trim());
    }
    (1, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_before_names() {
        assert_eq!(split_count("3x Agumon"), (3, "Agumon"));
        assert_eq!(split_count(" 2 × Ex-Veemon"), (2, "Ex-Veemon"));
        assert_eq!(split_count("Ex-Veemon"), (1, "Ex-Veemon"));
        assert_eq!(split_count("Dα-001"), (1, "Dα-001"));
    }
}
