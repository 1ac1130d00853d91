//! What the Terminal Battle asks a side now, with its legal answers and the
//! arcade's answer when the time runs out; and the match as a [`Ruleset`].

use super::{Action, Event, Match, Setup, SetupError, Side, log};
use crate::cards::{BattleType, CardSet};
use crate::effects::text::render;
use crate::rules::{
    IllegalAction, Outcome, Prompt, Question, Reply, RulesVersion, Ruleset, RulesetId, Seat,
};

/// How long the question "ready this `[Action:]` ability?" waits (seconds);
/// no answer is no.
pub const ABILITY_SECONDS: f32 = 3.0;

/// The questions of the Terminal Battle, in the order they come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Alpha-block (yes) or let the Alpha Strike through (no, and the default).
    Block,
    /// Digivolve (yes, and the default: it is what the gauge was filled
    /// for) or stay; `jogress`: yes is a Jogress.
    Evolve {
        /// Whether yes means Jogress.
        jogress: bool,
    },
    /// Ready this `[Action:]` ability for the round (yes) or not (no, and
    /// the default). Each is offered once a round, before the stance.
    Ability {
        /// Which ability.
        slot: super::AbilitySlot,
    },
    /// Press A, B or C; with no press the Digimon's printed battle type.
    /// `alpha`: an Alpha Strike may be launched instead.
    Stance {
        /// Whether an Alpha Strike is possible.
        alpha: bool,
    },
}

impl Ask {
    /// The question that has these answers, as [`Match::question`] builds
    /// it (a LAN client is sent the answers and works out what is asked).
    pub fn of(answers: &[Action]) -> Ask {
        if answers.contains(&Action::AlphaBlock(false)) {
            Ask::Block
        } else if answers.contains(&Action::Digivolve(false)) {
            Ask::Evolve {
                jogress: answers.contains(&Action::Jogress),
            }
        } else if let [Action::UseAbility(slot)] = answers {
            Ask::Ability { slot: *slot }
        } else {
            Ask::Stance {
                alpha: answers.iter().any(|a| matches!(a, Action::AlphaAttack(_))),
            }
        }
    }
}

type Keys = Vec<(String, Reply<Action>)>;

fn yes_no(yes: Action, no: Reply<Action>) -> Keys {
    ["y", "yes"]
        .map(|k| (k.to_string(), Reply::Act(yes)))
        .into_iter()
        .chain(["n", "no"].map(|k| (k.to_string(), no)))
        .collect()
}

impl Match {
    /// The question `side` must answer now, if any; `passed` are the
    /// ability offers it has declined since its last action.
    pub fn question(
        &self,
        side: Side,
        passed: &[Action],
        cards: &CardSet,
    ) -> Option<Question<Ask, Action>> {
        let legal = self.legal_actions(side);
        if legal.is_empty() {
            return None;
        }
        let seconds = self.tunables().stance_seconds as f32;
        let question = |ask, on_timeout, seconds, prompt| Question {
            ask,
            answers: legal.clone(),
            seconds,
            on_timeout,
            prompt,
        };
        if legal.contains(&Action::AlphaBlock(false)) {
            let prompt = Prompt {
                lines: Vec::new(),
                text: format!("{side}: alpha-block? [y/n] "),
                keys: yes_no(
                    Action::AlphaBlock(true),
                    Reply::Act(Action::AlphaBlock(false)),
                ),
            };
            return Some(question(
                Ask::Block,
                Some(Action::AlphaBlock(false)),
                seconds,
                prompt,
            ));
        }
        if legal.contains(&Action::Digivolve(false)) {
            let jogress = legal.contains(&Action::Jogress);
            // The offer can lapse while the seat waits (an ability lowered
            // its gauge): then staying is the only answer, and the default.
            let yes = [Action::Jogress, Action::Digivolve(true)]
                .into_iter()
                .find(|a| legal.contains(a));
            let no = Action::Digivolve(false);
            let p = &self.players[side.index()];
            let at = self.offered_line(side);
            let line = p.lines.get(at).unwrap_or_else(|| p.front());
            let name = &line.card().name;
            let on = if at == p.front { "" } else { " on the bench" };
            let prompt = Prompt {
                lines: Vec::new(),
                text: match yes {
                    Some(_) => format!("{side}: digivolve {name}{on}? [y/n] "),
                    None => format!("{side}: {name}{on} can no longer digivolve [n] "),
                },
                keys: match yes {
                    Some(y) => yes_no(y, Reply::Act(no)),
                    None => ["n", "no"].map(|k| (k.to_string(), Reply::Act(no))).into(),
                },
            };
            return Some(question(
                Ask::Evolve { jogress },
                Some(yes.unwrap_or(no)),
                seconds,
                prompt,
            ));
        }
        let offer = legal
            .iter()
            .find(|a| matches!(a, Action::UseAbility(_)) && !passed.contains(a));
        if let Some(&Action::UseAbility(slot)) = offer {
            let (card, ability) = self.ability(side, slot)?;
            let name = log::name(cards, card);
            let prompt = Prompt {
                lines: vec![format!("  {name} — {}", render(ability))],
                text: format!("{side}: ready {name}'s ability this round? [y/n] "),
                keys: yes_no(Action::UseAbility(slot), Reply::Pass),
            };
            return Some(Question {
                ask: Ask::Ability { slot },
                answers: vec![Action::UseAbility(slot)],
                seconds: ABILITY_SECONDS,
                on_timeout: None,
                prompt,
            });
        }
        // The stance's answers: abilities are offered on their own, above.
        let legal: Vec<Action> = legal
            .into_iter()
            .filter(|a| !matches!(a, Action::UseAbility(_)))
            .collect();
        let alpha = legal.iter().any(|a| matches!(a, Action::AlphaAttack(_)));
        let mut keys = Keys::new();
        for (i, b) in BattleType::ALL.into_iter().enumerate() {
            let letter = b.letter().to_ascii_lowercase();
            for k in [letter.to_string(), (i + 1).to_string()] {
                keys.push((k.clone(), Reply::Act(Action::Stance(b))));
                if alpha {
                    keys.push((format!("x{k}"), Reply::Act(Action::AlphaAttack(b))));
                }
            }
        }
        let v = self.view(side);
        let hint = if alpha {
            ", or x then a/b/c for an Alpha Strike"
        } else {
            ""
        };
        // What a stance does, with both Digimon's techniques.
        let them = self.view(side.other()).front;
        let techs = |d: &crate::cards::Digimon| {
            BattleType::ALL
                .into_iter()
                .map(|b| {
                    let t = d.technique(b);
                    format!("{} {} {}", b.letter(), t.name, t.power)
                })
                .collect::<Vec<_>>()
                .join(" · ")
        };
        let lines = vec![
            format!(
                "  Your stance is your battle type this round: {} attacks you with its technique of that letter ({}).",
                them.name,
                techs(them)
            ),
            format!(
                "  Their stance picks yours: {} ({}).",
                v.front.name,
                techs(v.front)
            ),
            format!(
                "  A beats B, B beats C, C beats A: the stance that wins the read gets +{}% power.",
                self.tunables.read_bonus_percent
            ),
        ];
        let prompt = Prompt {
            lines,
            text: format!(
                "{side}: {} ({} points) — press a, b or c (1, 2, 3){hint}: ",
                v.front.name, v.points
            ),
            keys,
        };
        Some(Question {
            ask: Ask::Stance { alpha },
            answers: legal,
            seconds,
            on_timeout: Some(Action::TimeUp),
            prompt,
        })
    }
}

fn side(seat: Seat) -> Result<Side, IllegalAction> {
    Side::of(seat).ok_or_else(|| IllegalAction {
        seat,
        reason: "the Terminal Battle has two seats, P1 and P2".to_string(),
    })
}

impl Match {
    /// Why an Alpha Strike key (`xa`, `xb`, `xc`) is refused at the stance,
    /// when it is: spent, or no group of the front Digimon's battle type
    /// and Field in play.
    fn alpha_refusal(&self, seat: Seat, typed: &str) -> Option<String> {
        let key: String = typed
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        if !matches!(key.as_str(), "xa" | "xb" | "xc") {
            return None;
        }
        let s = Side::of(seat)?;
        if !matches!(self.phase, super::Phase::Stance { .. }) {
            return None;
        }
        let p = &self.players[s.index()];
        if p.alpha_used {
            return Some("the Alpha Strike is once per battle, and this one is spent".into());
        }
        let front = p.front().card();
        let have = self.alpha_group_len(s);
        (have < self.tunables.alpha_group).then(|| {
            format!(
                "an Alpha Strike needs {} or more Digimon in play of the front Digimon's battle type and Field ({}: type {}, {}), and there {}",
                self.tunables.alpha_group,
                front.name,
                front.battle_type.letter(),
                front.field.name(),
                if have == 1 { "is 1".to_string() } else { format!("are {have}") }
            )
        })
    }
}

impl Ruleset for Match {
    const ID: RulesetId = RulesetId::Terminal;
    const NAME: &'static str = "Terminal Battle";
    const KEY: &'static str = "terminal";
    const CODE: u8 = 0;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const BRINGS: &'static str = "team";
    /// Demo teams are drawn by number: a few to choose from.
    const HOUSE_PICKS: u64 = 8;
    type View = Match;
    type Setup = Setup;
    type SetupError = SetupError;
    type Action = Action;
    type Event = Event;
    type Ask = Ask;

    fn version(setup: &Setup) -> RulesVersion {
        RulesVersion {
            ruleset: RulesetId::Terminal,
            engine: setup.tunables.engine,
            tunables: setup.tunables.version,
        }
    }
    fn adopt_engine(setup: &mut Setup, engine: u32) {
        if super::ENGINES.contains(&engine) {
            setup.tunables.engine = engine;
        }
    }
    fn seed(setup: &Setup) -> u64 {
        setup.seed
    }
    fn seat_cards(setup: &Setup) -> Vec<Vec<crate::cards::CardNumber>> {
        setup.teams.to_vec()
    }
    fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Self, SetupError> {
        Match::from_setup(setup, cards)
    }
    fn seats(&self) -> usize {
        2
    }
    fn opening_events(&self) -> &[Event] {
        Match::opening_events(self)
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        Side::of(seat).map_or_else(Vec::new, |s| Match::legal_actions(self, s))
    }
    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        Match::apply(self, side(seat)?, action)
    }
    fn outcome(&self) -> Option<Outcome> {
        Match::outcome(self)
    }
    fn state_hash(&self) -> u64 {
        Match::state_hash(self)
    }
    fn question(
        &self,
        seat: Seat,
        passed: &[Action],
        cards: &CardSet,
    ) -> Option<Question<Ask, Action>> {
        Match::question(self, Side::of(seat)?, passed, cards)
    }
    fn describe(event: &Event, cards: &CardSet) -> String {
        log::describe(event, cards)
    }
    fn refusal(&self, seat: Seat, typed: &str, _cards: &CardSet) -> Option<String> {
        self.alpha_refusal(seat, typed)
    }
    fn refusals(&self, seat: Seat, _cards: &CardSet) -> Vec<(String, String)> {
        ["xa", "xb", "xc"]
            .into_iter()
            .filter_map(|k| Some((k.to_string(), self.alpha_refusal(seat, k)?)))
            .collect()
    }
    fn verdict(&self, cards: &CardSet) -> Option<String> {
        log::verdict(self, cards)
    }

    fn setup_for(cards: Vec<Vec<crate::cards::CardNumber>>, seed: u64) -> Setup {
        let mut it = cards.into_iter();
        let p1 = it.next().unwrap_or_default();
        let p2 = it.next().unwrap_or_default();
        Setup::new(p1, p2, seed)
    }

    /// The match with what `seat` may not know hidden (a spectator sees
    /// what both may).
    fn seat_view(&self, seat: Option<Seat>) -> Match {
        self.masked(seat.and_then(Side::of))
    }

    fn check_view(view: &Match) -> Result<(), String> {
        view.well_formed()
    }

    fn view_lines(view: &Match, _: &CardSet) -> Vec<String> {
        Side::BOTH
            .iter()
            .map(|&side| {
                let v = view.view(side);
                format!(
                    "{}: {} points · {} at the front (gauge {}%) · {} Digimon in play · Alpha Strike {}",
                    side.seat(),
                    v.points,
                    v.front.name,
                    v.gauge,
                    v.digimon_left,
                    if v.alpha_used { "spent" } else { "ready" }
                )
            })
            .collect()
    }

    /// Demo teams, picked by `pick` (and the seat).
    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<crate::cards::CardNumber> {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
            pick ^ seat.index() as u64,
        );
        let [a, b] = super::pick::demo_teams(cards, &mut rng);
        if seat.index() == 0 { a } else { b }
    }

    fn house_label(pick: u64, cards: &CardSet) -> String {
        let team = Self::house_cards(Seat::P1, pick, cards);
        format!("team {}: {}", pick + 1, team_names(&team, cards))
    }

    fn brought_label(brought: &[crate::cards::CardNumber], cards: &CardSet) -> String {
        format!("your scanned team: {}", team_names(brought, cards))
    }
}

/// A team's Digimon, by name.
fn team_names(team: &[crate::cards::CardNumber], cards: &CardSet) -> String {
    let names: Vec<&str> = team
        .iter()
        .filter_map(|n| cards.get(n))
        .map(|c| c.name())
        .collect();
    names.join(", ")
}
