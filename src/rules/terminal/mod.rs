//! The Terminal Battle: the arcade rules (design page `terminal-battle.md`),
//! pure Rust. A `Setup` of two scanned teams and a seed becomes a `Match`;
//! both players' actions drive it round by round, and every step is
//! reported as an [`Event`] for a presenter to stage.

mod action;
mod clash;
mod event;
pub mod log;
pub mod pick;
mod question;
mod round;
pub mod script;
mod side;
mod side_state;
mod team;
mod tunables;
mod view;

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use action::{AbilitySlot, Action, Carrier};
pub use event::{Cause, Event, PointsReason};
pub use question::{ABILITY_SECONDS, Ask};
pub use side::Side;
pub use team::SetupError;
pub use tunables::{TERMINAL_RON, Tunables};
pub use view::{LineView, SideView};

use super::{IllegalAction, Outcome};
use crate::cards::{BattleType, CardNumber, CardSet, Digimon};
use crate::effects::{Mark, Timing};
use round::EvolutionOffer;
use side_state::{Line, SideState};

/// The engine's version: bumped whenever the rules' code changes behaviour.
/// A replay records it with the tunables' version, and a replay of an
/// earlier engine this build still plays ([`ENGINES`]) is played by its
/// rules. 2: within a timing, attribute changes resolve before the other
/// effects (a condition reads the attribute as the round has it). 3: the
/// read bonus (round step 4) multiplies the technique's power before
/// abilities and Options (step 5) change it. 4: a bench line whose gauge
/// is full may digivolve too (round step 1 names "a line"); a side's Speed
/// changes resolve before its other abilities; a line that steps in (step
/// 6) gains the front's gauge (step 7).
pub const ENGINE_VERSION: u32 = 4;

/// The engine versions this build plays: the current one, and the earlier
/// ones whose replays still play back by their own rules.
pub const ENGINES: std::ops::RangeInclusive<u32> = 1..=ENGINE_VERSION;

/// Serde's default for a setup's engine: the current one (a replay of an
/// earlier one says which, [`crate::rules::Ruleset::adopt_engine`]).
pub(super) fn current_engine() -> u32 {
    ENGINE_VERSION
}

/// The first engine is left out of a setup's text, so its games' states
/// (and hashes) read as they always did.
pub(super) fn is_first_engine(e: &u32) -> bool {
    *e == 1
}

/// Everything a Terminal Battle starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The rules' numbers.
    #[serde(default)]
    pub tunables: Tunables,
    /// Both teams, as card numbers in scan order.
    pub teams: [Vec<CardNumber>; 2],
    /// The seed of the match's random numbers.
    pub seed: u64,
    /// Cards that are not in the card set but travel with the teams: custom
    /// cards read from QR codes and wild Digimon from product barcodes.
    /// Carried here so a replay of their battle plays on any machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<crate::cards::Card>,
}

impl Setup {
    /// A setup with the shipped tunables.
    pub fn new(p1: Vec<CardNumber>, p2: Vec<CardNumber>, seed: u64) -> Setup {
        Setup {
            tunables: Tunables::default(),
            teams: [p1, p2],
            seed,
            extra: Vec::new(),
        }
    }
}

/// A stance as pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct StancePress {
    stance: BattleType,
    timed_out: bool,
    alpha: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Players with a full line answer the evolution question, a line at a
    /// time (the front first, then the bench, [`Match::offered`]).
    Evolution { waiting: [bool; 2] },
    /// Both players press a stance.
    Stance { pressed: [Option<StancePress>; 2] },
    /// The defender answers an Alpha Strike.
    Block {
        attacker: Side,
        pressed: [StancePress; 2],
    },
    /// The battle is over.
    Over,
}

/// A Terminal Battle in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    tunables: Tunables,
    seed: u64,
    players: [SideState; 2],
    round: u32,
    phase: Phase,
    /// Who resolved first last time (Speed ties between equal points keep it).
    first: Side,
    outcome: Option<Outcome>,
    /// What happened before the first action (Burst, round 1 starting).
    opening: Vec<Event>,
    /// Actions applied so far.
    actions: u32,
    /// A running digest of every action applied, so the state hash covers
    /// the path as well as where it ended.
    history: u64,
    /// The bench line each side is asked to digivolve, while it is one
    /// (engine 4; `None`: the front's, or no question). Left out of the
    /// state while neither is, so earlier engines' states hash as before.
    #[serde(default, skip_serializing_if = "no_bench_offer")]
    offered: [Option<u8>; 2],
}

fn no_bench_offer(o: &[Option<u8>; 2]) -> bool {
    o.iter().all(Option::is_none)
}

impl Match {
    /// Checks a setup against the card set and starts the battle.
    pub fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Match, SetupError> {
        setup.tunables.check().map_err(SetupError::Tunables)?;
        if !ENGINES.contains(&setup.tunables.engine) {
            return Err(SetupError::Engine(setup.tunables.engine));
        }
        let cards = cards
            .extended(&setup.extra)
            .map_err(SetupError::ExtraCards)?;
        let cards = cards.as_ref();
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let t = &setup.tunables;
        let mut opening = Vec::new();
        let mut players = Vec::with_capacity(2);
        for side in Side::BOTH {
            let team = team::build_team(side, &setup.teams[side.index()], cards, t, &mut rng)?;
            let mut player = SideState {
                lines: team.lines,
                front: 0,
                points: t.start_points,
                options: team.options,
                alpha_used: false,
                used: Vec::new(),
                readied: Vec::new(),
                speed_bonus: 0,
            };
            if team.burst > 0 {
                // Burst never takes the last point: a team it would take
                // them all from is refused (`SetupError::BurstTakesAll`).
                player.points -= team.burst;
                opening.push(Event::PointsChanged {
                    side,
                    delta: -team.burst,
                    points: player.points,
                    reason: PointsReason::Burst,
                });
            }
            players.push(player);
        }
        let [p1, p2]: [SideState; 2] = players.try_into().map_err(|_| SetupError::Internal)?;
        let first = if rand::RngExt::random_bool(&mut rng, 0.5) {
            Side::P1
        } else {
            Side::P2
        };
        let mut m = Match {
            tunables: setup.tunables.clone(),
            seed: setup.seed,
            players: [p1, p2],
            round: 0,
            phase: Phase::Over,
            first,
            outcome: None,
            opening: Vec::new(),
            actions: 0,
            history: 0,
            offered: [None; 2],
        };
        m.start_round(&mut opening);
        m.opening = opening;
        Ok(m)
    }

    /// Two lone Digimon face each other (any level, as if they had
    /// digivolved): for measuring the stance game card against card.
    pub fn duel(p1: &Digimon, p2: &Digimon, tunables: &Tunables, seed: u64) -> Match {
        let player = |d: &Digimon| SideState {
            lines: vec![team::new_line(Arc::new(d.clone()))],
            front: 0,
            points: tunables.start_points,
            options: Vec::new(),
            alpha_used: false,
            used: Vec::new(),
            readied: Vec::new(),
            speed_bonus: 0,
        };
        let mut m = Match {
            tunables: tunables.clone(),
            seed,
            players: [player(p1), player(p2)],
            round: 0,
            phase: Phase::Over,
            first: Side::P1,
            outcome: None,
            opening: Vec::new(),
            actions: 0,
            history: 0,
            offered: [None; 2],
        };
        let mut events = Vec::new();
        m.start_round(&mut events);
        m.opening = events;
        m
    }

    /// What happened before the first action: Burst, the first round starting.
    pub fn opening_events(&self) -> &[Event] {
        &self.opening
    }

    /// The tunables this match plays by.
    pub fn tunables(&self) -> &Tunables {
        &self.tunables
    }

    /// The seed it started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current round (1-based).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// A random stream for `side`'s CPU player this round, derived from the
    /// seed without touching the match's own (so replays, which store only
    /// actions, reach the same state).
    pub fn cpu_rng(&self, side: Side) -> ChaCha8Rng {
        let mix = self.seed
            ^ (u64::from(self.actions) << 16)
            ^ (side.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ChaCha8Rng::seed_from_u64(crate::rules::fnv1a(&mix.to_le_bytes()))
    }

    /// What would happen if both players pressed these stances now (with
    /// nothing else changed): for CPU players weighing their options. `None`
    /// when the match is not waiting for stances.
    pub fn try_stances(&self, side: Side, mine: BattleType, theirs: BattleType) -> Option<Match> {
        if !matches!(self.phase, Phase::Stance { .. }) {
            return None;
        }
        let mut m = self.clone();
        let mut pressed = [StancePress {
            stance: mine,
            timed_out: false,
            alpha: false,
        }; 2];
        pressed[side.other().index()].stance = theirs;
        let mut scratch = Vec::new();
        m.resolve_round(pressed, None, &mut scratch);
        Some(m)
    }

    /// A fingerprint of the whole state: equal states have equal hashes on
    /// every machine.
    pub fn state_hash(&self) -> u64 {
        match serde_json::to_vec(self) {
            Ok(bytes) => crate::rules::fnv1a(&bytes),
            // Not reachable with the types in a Match (tested); never hash nothing.
            Err(e) => crate::rules::fnv1a(format!("{e:?}{self:?}").as_bytes()),
        }
    }

    /// Every action `side` may take now.
    pub fn legal_actions(&self, side: Side) -> Vec<Action> {
        let s = side.index();
        let me = &self.players[s];
        match &self.phase {
            Phase::Over => Vec::new(),
            Phase::Evolution { waiting } => {
                if !waiting[s] {
                    return Vec::new();
                }
                let mut v = vec![Action::Digivolve(false)];
                match self.evolution_offer(side) {
                    Some(EvolutionOffer::Normal) => v.push(Action::Digivolve(true)),
                    Some(EvolutionOffer::Jogress) => v.push(Action::Jogress),
                    None => {}
                }
                v
            }
            Phase::Stance { pressed } => {
                if pressed[s].is_some() {
                    return Vec::new();
                }
                let mut v: Vec<Action> =
                    BattleType::ALL.iter().map(|&b| Action::Stance(b)).collect();
                v.push(Action::TimeUp);
                if !me.alpha_used && self.alpha_group_len(side) >= self.tunables.alpha_group {
                    v.extend(BattleType::ALL.iter().map(|&b| Action::AlphaAttack(b)));
                }
                for k in 0..=me.options.len() {
                    let source = if k == 0 {
                        Carrier::Front
                    } else {
                        Carrier::Option((k - 1) as u8)
                    };
                    let Some((card, list)) = me.slot(source) else {
                        continue;
                    };
                    for (index, a) in list.iter().enumerate() {
                        let slot = AbilitySlot {
                            source,
                            index: index as u8,
                        };
                        if a.mark == Mark::Action
                            && matches!(a.timing, Timing::Battle | Timing::Always)
                            && me.within_limit(card, slot.index, a)
                            && !me.readied.contains(&slot)
                        {
                            v.push(Action::UseAbility(slot));
                        }
                    }
                }
                v
            }
            Phase::Block { attacker, .. } => {
                if *attacker == side {
                    return Vec::new();
                }
                let mut v = vec![Action::AlphaBlock(false)];
                if self.can_alpha_block(side) {
                    v.push(Action::AlphaBlock(true));
                }
                v
            }
        }
    }

    /// Applies an action; an illegal one changes nothing.
    pub fn apply(&mut self, side: Side, action: Action) -> Result<Vec<Event>, IllegalAction> {
        if !self.legal_actions(side).contains(&action) {
            let reason = match &self.phase {
                Phase::Over => "the battle is over".to_string(),
                _ if self.legal_actions(side).is_empty() => {
                    "it is not this player's turn to act".to_string()
                }
                _ => format!("{action:?} is not one of the choices now"),
            };
            return Err(IllegalAction {
                seat: side.seat(),
                reason,
            });
        }
        let mut events = Vec::new();
        let s = side.index();
        self.actions += 1;
        let mut step = [0u8; 13];
        step[..8].copy_from_slice(&self.history.to_le_bytes());
        step[8] = side.index() as u8;
        step[9..].copy_from_slice(&action.code().to_le_bytes());
        self.history = crate::rules::fnv1a(&step);
        match action {
            Action::Digivolve(yes) => {
                if yes {
                    self.digivolve(side, &mut events);
                }
                self.evolution_answered(side, &mut events);
            }
            Action::Jogress => {
                self.jogress(side, &mut events);
                self.evolution_answered(side, &mut events);
            }
            Action::UseAbility(slot) => {
                self.players[s].readied.push(slot);
                if let Some((card, _)) = self.players[s].slot(slot.source) {
                    events.push(Event::AbilityReadied { side, slot, card });
                }
            }
            Action::Stance(_) | Action::TimeUp | Action::AlphaAttack(_) => {
                let press = match action {
                    Action::Stance(b) => StancePress {
                        stance: b,
                        timed_out: false,
                        alpha: false,
                    },
                    Action::AlphaAttack(b) => StancePress {
                        stance: b,
                        timed_out: false,
                        alpha: true,
                    },
                    _ => StancePress {
                        stance: self.players[s].front().card().battle_type,
                        timed_out: true,
                        alpha: false,
                    },
                };
                if let Phase::Stance { pressed } = &mut self.phase {
                    pressed[s] = Some(press);
                }
                events.push(Event::StanceLocked { side });
                if let Phase::Stance {
                    pressed: [Some(a), Some(b)],
                } = self.phase
                {
                    self.both_pressed([a, b], &mut events);
                }
            }
            Action::AlphaBlock(block) => {
                if let Phase::Block { attacker, pressed } = self.phase {
                    self.resolve_round(pressed, Some((attacker, block)), &mut events);
                }
            }
        }
        Ok(events)
    }

    /// The result, once the battle is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why the battle ended, once it is over (read from the state: a side
    /// with no Digimon left, a side out of points, or the last round).
    pub fn ending(&self) -> Option<Ending> {
        let outcome = self.outcome?;
        let out = |s: Side| {
            let p = &self.players[s.index()];
            (!p.has_digimon(), p.points <= 0)
        };
        let fell = |s: Side| {
            let p = &self.players[s.index()];
            let (no_digimon, no_points) = out(s);
            if no_digimon {
                Some(Ending::Deleted {
                    side: s,
                    card: p.front().card().number,
                    last_of: u8::try_from(p.lines.len()).unwrap_or(u8::MAX),
                })
            } else if no_points {
                Some(Ending::PointsOut { side: s })
            } else {
                None
            }
        };
        let on_points = Ending::OnPoints {
            points: [self.players[0].points, self.players[1].points],
            rounds: self.round,
        };
        Some(match outcome {
            Outcome::Win(w) => Side::of(w)
                .and_then(|w| fell(w.other()))
                .unwrap_or(on_points),
            Outcome::Draw => match (fell(Side::P1), fell(Side::P2)) {
                (Some(_), Some(_)) => Ending::BothOut,
                _ => on_points,
            },
        })
    }
}

/// Why a Terminal Battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `side`'s last Digimon, `card`, was deleted (`last_of`: how many
    /// lines its team had).
    Deleted {
        /// The side that lost it.
        side: Side,
        /// The Digimon deleted last.
        card: CardNumber,
        /// How many lines the team had.
        last_of: u8,
    },
    /// `side`'s points ran out.
    PointsOut {
        /// The side out of points.
        side: Side,
    },
    /// Both sides were out in the same clash.
    BothOut,
    /// The last round was played and the points decide.
    OnPoints {
        /// P1's and P2's points.
        points: [i32; 2],
        /// The rounds played.
        rounds: u32,
    },
}
