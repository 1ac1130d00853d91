//! Scripted Terminal Battles: two teams in scan order, a seed, and each
//! step as a person presses it at `bterm battle` (the keys of the seat's
//! question: `a`/`b`/`c` or `1`/`2`/`3` for a stance, `xa` for an Alpha
//! Strike, `y`/`n` for an offer). The format is in `docs/scripts.md`.

use serde::{Deserialize, Serialize};

use super::{Match, Setup, Side};
use crate::cards::{CardNumber, CardSet};
use crate::rules::script::{
    Report, SETUP_ACCEPTED, Scripted, failures, in_order, keys, play_steps, refused_because,
    report_events,
};
use crate::rules::{Outcome, Ruleset, RulesetId, Seat};

/// A scripted Terminal Battle, as written in a `.ron` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// `Terminal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<RulesetId>,
    /// P1's and P2's teams in scan order: card names or numbers.
    pub teams: Vec<Vec<String>>,
    /// The seed of the battle's random numbers.
    #[serde(default)]
    pub seed: u64,
    /// The steps, in order: who, and the keys pressed.
    pub steps: Vec<(Seat, String)>,
    /// What must hold when the steps are done.
    #[serde(default)]
    pub expect: Vec<Expect>,
}

/// One thing a Terminal Battle script expects at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expect {
    /// A side has these points.
    Points(Seat, i32),
    /// The battle is over and this seat won.
    Winner(Seat),
    /// The battle is over, a draw.
    Draw,
    /// The battle goes on.
    Ongoing,
    /// The round (1-based).
    Round(u32),
    /// This step (1-based) was refused, and the script stopped there.
    Refused(usize),
    /// A refused step's reason contains this.
    RefusedBecause(String),
    /// Some event's text contains this.
    Event(String),
    /// No event's text contains this.
    NoEvent(String),
    /// Each text is in some event's words, each after the one before.
    EventsInOrder(Vec<String>),
    /// The rules refuse the setup (a deck or team) with words containing
    /// this; no game begins.
    SetupRefused(String),
    /// This seat is asked something now.
    Asked(Seat),
    /// A side's Digimon at the front, by name.
    Front(Seat, String),
}

impl Script {
    /// The setup the script starts from.
    pub fn setup(&self, cards: &CardSet) -> Result<Setup, String> {
        if self.teams.len() != 2 {
            return Err(format!(
                "a Terminal Battle has two teams, P1's and P2's; the script gives {}",
                self.teams.len()
            ));
        }
        let mut teams: [Vec<CardNumber>; 2] = Default::default();
        for (side, names) in self.teams.iter().enumerate() {
            for name in names {
                let card = cards
                    .resolve(name)
                    .map_err(|e| format!("P{}'s team, \"{name}\": {e}", side + 1))?;
                teams[side].push(card.number());
            }
        }
        let [p1, p2] = teams;
        Ok(Setup::new(p1, p2, self.seed))
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
        let setup = script.setup(cards)?;
        let mut game = Match::from_setup(&setup, cards).map_err(|e| e.to_string())?;
        let (events, refused) =
            play_steps(&mut game, &script.steps, cards, |m, seat, text, passed| {
                keys(m, seat, text, passed, cards)
            });
        let texts: Vec<String> = events
            .iter()
            .map(|(_, e)| <Match as Ruleset>::describe(e, cards))
            .collect();
        let points = |s: Seat| Side::of(s).map(|side| game.view(side).points);
        let asked = |s: Seat| Ruleset::question(&game, s, &[], cards).is_some();
        let checked = script.expect.iter().map(|e| {
            let ok = match e {
                Expect::Points(s, p) => points(*s) == Some(*p),
                Expect::Winner(s) => game.outcome() == Some(Outcome::Win(*s)),
                Expect::Draw => game.outcome() == Some(Outcome::Draw),
                Expect::Ongoing => game.outcome().is_none(),
                Expect::Round(r) => game.round() == *r,
                Expect::Refused(i) => refused.as_ref().map(|r| r.index) == Some(*i),
                Expect::Event(t) => texts.iter().any(|x| x.contains(t.as_str())),
                Expect::NoEvent(t) => !texts.iter().any(|x| x.contains(t.as_str())),
                Expect::RefusedBecause(t) => refused_because(refused.as_ref(), t).is_ok(),
                Expect::EventsInOrder(v) => in_order(&texts, v).is_ok(),
                Expect::SetupRefused(_) => false,
                Expect::Asked(s) => asked(*s),
                Expect::Front(s, name) => {
                    Side::of(*s).is_some_and(|side| game.view(side).front.name == *name)
                }
            };
            let found = match e {
                Expect::Points(s, _) => {
                    points(*s).map_or_else(|| format!("no seat {s}"), |p| format!("{p} points"))
                }
                Expect::Round(_) => format!("round {}", game.round()),
                Expect::Refused(_) => refused
                    .as_ref()
                    .map_or_else(|| "no step refused".to_string(), ToString::to_string),
                Expect::Asked(s) => format!("{s} asked: {}", asked(*s)),
                Expect::Front(s, _) => Side::of(*s).map_or_else(String::new, |side| {
                    format!("{} at the front", game.view(side).front.name)
                }),
                Expect::Event(t) => crate::rules::script::event_words(&texts, t, true),
                Expect::NoEvent(t) => crate::rules::script::event_words(&texts, t, false),
                Expect::RefusedBecause(t) => refused_because(refused.as_ref(), t)
                    .err()
                    .unwrap_or_default(),
                Expect::EventsInOrder(v) => in_order(&texts, v).err().unwrap_or_default(),
                Expect::SetupRefused(_) => SETUP_ACCEPTED.to_string(),
                _ => crate::rules::script::outcome_words(game.outcome()),
            };
            (e.clone(), if ok { Ok(()) } else { Err(found) })
        });
        let refusal_expected = script
            .expect
            .iter()
            .any(|e| matches!(e, Expect::Refused(_) | Expect::RefusedBecause(_)));
        let failures = failures(checked, refused.as_ref(), refusal_expected);
        let sides: Vec<serde_json::Value> = Side::BOTH
            .iter()
            .map(|&side| {
                let v = game.view(side);
                serde_json::json!({
                    "seat": side.seat(),
                    "points": v.points,
                    "front": v.front.name,
                    "gauge": v.gauge,
                    "digimon_left": v.digimon_left,
                    "alpha_used": v.alpha_used,
                })
            })
            .collect();
        let waiting: Vec<Seat> = Seat::all(2).filter(|&s| asked(s)).collect();
        let mut state_lines = vec![format!("--- final state (round {}) ---", game.round())];
        state_lines.extend(Match::view_lines(&game, cards));
        Ok(Report {
            ruleset: Match::ID,
            events: report_events::<Match>(&events, cards),
            state_lines,
            state: serde_json::Map::from_iter([
                ("round".to_string(), serde_json::json!(game.round())),
                ("sides".to_string(), serde_json::json!(sides)),
                ("asked".to_string(), serde_json::json!(waiting)),
            ]),
            outcome: game.outcome(),
            waiting,
            refused,
            expectations: script.expect.len(),
            failures,
        })
    }
}
