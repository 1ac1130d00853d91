//! The Terminal Battle: the arcade rules (design page `terminal-battle.md`),
//! pure Rust. A `Setup` of two scanned teams and a seed becomes a `Match`;
//! both players' actions drive it round by round, and every step is
//! reported as an [`Event`] for a presenter to stage.

pub mod analysis;
mod clash;
pub mod log;
mod scan;
mod tunables;

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use scan::SetupError;
pub use tunables::{TERMINAL_RON, Tunables};

use super::{IllegalAction, Outcome, Rules, Side};
use crate::cards::{BattleType, CardNumber, CardSet, Digimon, OptionCard};
use crate::effects::{Ability, Change, Mark, Timing};

/// The engine's version: bumped whenever the rules' code changes behaviour.
/// A replay records it with the tunables' version.
pub const ENGINE_VERSION: u32 = 1;

/// Everything a Terminal Battle starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// A player's move. Stances are pressed secretly; the round resolves when
/// both are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Press A, B or C: this round's battle type.
    Stance(BattleType),
    /// The stance timer ran out: the Digimon's printed battle type.
    TimeUp,
    /// Answer the evolution question: digivolve (true) or stay.
    Digivolve(bool),
    /// Jogress: the front line and its partner line become the Jogress card.
    Jogress,
    /// Alpha Strike with this stance (once per battle).
    AlphaAttack(BattleType),
    /// Answer an Alpha Strike: alpha-block (true) or let it through.
    AlphaBlock(bool),
    /// Use an `[Action:]` ability this round.
    UseAbility(AbilitySlot),
}

impl Action {
    /// A number that tells actions apart (for the action digest).
    fn code(self) -> u32 {
        let b = |t: BattleType| t.index() as u32;
        match self {
            Action::Stance(t) => 1 + b(t),
            Action::TimeUp => 4,
            Action::Digivolve(yes) => 5 + u32::from(yes),
            Action::Jogress => 7,
            Action::AlphaAttack(t) => 8 + b(t),
            Action::AlphaBlock(yes) => 11 + u32::from(yes),
            Action::UseAbility(slot) => {
                let source = match slot.source {
                    Source::Front => 0,
                    Source::Option(i) => 1 + u32::from(i),
                };
                0x100 + (source << 8) + u32::from(slot.index)
            }
        }
    }
}

/// Where an ability is: on the front Digimon or on an Option card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbilitySlot {
    /// The card.
    pub source: Source,
    /// Its index in the card's Battle Terminal abilities.
    pub index: u8,
}

/// A card of a player's that can carry abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Source {
    /// The Digimon at the front.
    Front,
    /// The player's n-th Option card.
    Option(u8),
}

/// What made an attack power or HP change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// The stance that beats the other's.
    ReadBonus,
    /// A card's ability.
    Ability {
        /// Whose card.
        side: Side,
        /// The card.
        card: CardNumber,
        /// Index in its Battle Terminal abilities.
        index: u8,
    },
}

/// Why a player lost points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PointsReason {
    /// Burst: the team's Cost was above the cap.
    Burst,
    /// Lost the clash.
    LostClash,
    /// Its Digimon was deleted.
    Deletion,
    /// An unblocked Alpha Strike.
    AlphaStrike,
    /// A card's ability.
    Ability,
}

/// Everything a presenter needs to stage the battle, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A round begins.
    RoundStarted {
        /// 1-based.
        round: u32,
    },
    /// A player may answer the evolution question.
    EvolutionOffered {
        /// Who.
        side: Side,
        /// The front Digimon now.
        from: CardNumber,
        /// What it would become.
        to: CardNumber,
        /// Whether it is a Jogress.
        jogress: bool,
    },
    /// A Digimon digivolved.
    Digivolved {
        /// Whose.
        side: Side,
        /// Before.
        from: CardNumber,
        /// After.
        to: CardNumber,
    },
    /// Two lines became one Jogress Digimon.
    Jogressed {
        /// Whose.
        side: Side,
        /// The two Digimon that joined.
        from: [CardNumber; 2],
        /// The Jogress Digimon.
        to: CardNumber,
    },
    /// A player pressed (the stance stays secret until both have).
    StanceLocked {
        /// Who.
        side: Side,
    },
    /// An `[Action:]` ability was readied for this round.
    AbilityReadied {
        /// Whose.
        side: Side,
        /// Where.
        slot: AbilitySlot,
        /// The card it is on.
        card: CardNumber,
    },
    /// A player launched an Alpha Strike.
    AlphaAttack {
        /// Who.
        side: Side,
        /// The attacking group, attacker first.
        group: Vec<CardNumber>,
    },
    /// The answer to an Alpha Strike.
    AlphaBlock {
        /// The defender.
        side: Side,
        /// The blocking group, blocker first; empty when not blocked.
        group: Vec<CardNumber>,
    },
    /// Both stances are shown.
    StancesRevealed {
        /// P1's and P2's stance.
        stances: [BattleType; 2],
        /// Whose timer ran out.
        timed_out: [bool; 2],
    },
    /// A Digimon uses a technique (again if its opponent's battle type changed).
    TechniqueChosen {
        /// Whose.
        side: Side,
        /// The Digimon (or, in an Alpha Strike, the group member whose technique is used).
        card: CardNumber,
        /// Which technique: A, B or C.
        slot: BattleType,
        /// Its basic attack power.
        base: u32,
    },
    /// An ability triggered or applied.
    AbilityTriggered {
        /// Whose.
        side: Side,
        /// The card.
        card: CardNumber,
        /// Index in its Battle Terminal abilities (render it with `effects::text::render`).
        index: u8,
    },
    /// Attack power changed.
    PowerModified {
        /// Whose Digimon.
        side: Side,
        /// What did it.
        cause: Cause,
        /// How.
        change: Change,
        /// The power after it.
        power: u32,
    },
    /// HP changed for this battle.
    HpModified {
        /// Whose Digimon.
        side: Side,
        /// What did it.
        cause: Cause,
        /// How.
        change: Change,
        /// HP after it.
        hp: u32,
    },
    /// The clash: the final powers and who won (`None`: equal powers, both win).
    Clash {
        /// P1's and P2's final attack power.
        powers: [u32; 2],
        /// P1's and P2's HP in this battle.
        hp: [u32; 2],
        /// The winner, if the powers differ.
        winner: Option<Side>,
    },
    /// Points lost or gained.
    PointsChanged {
        /// Whose.
        side: Side,
        /// Change (negative: lost).
        delta: i32,
        /// Points after it.
        points: i32,
        /// Why.
        reason: PointsReason,
    },
    /// A deletion was prevented.
    DeletionPrevented {
        /// Whose Digimon.
        side: Side,
        /// The Digimon.
        card: CardNumber,
    },
    /// A Digimon was deleted (sent out of play).
    Deleted {
        /// Whose.
        side: Side,
        /// The Digimon.
        card: CardNumber,
    },
    /// The next line steps in.
    SteppedIn {
        /// Whose.
        side: Side,
        /// The Digimon now at the front.
        card: CardNumber,
    },
    /// An evolution gauge changed.
    GaugeChanged {
        /// Whose.
        side: Side,
        /// Which line (0-based).
        line: u8,
        /// The gauge now, percent.
        gauge: u32,
    },
    /// A round ends.
    RoundEnded {
        /// 1-based.
        round: u32,
        /// P1's and P2's points.
        points: [i32; 2],
    },
    /// The battle is over.
    BattleEnded {
        /// The result.
        outcome: Outcome,
    },
}

/// One evolution line: its scanned stages, lowest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Line {
    stages: Vec<Arc<Digimon>>,
    /// The stage in play.
    at: usize,
    gauge: u32,
    state: LineState,
    /// Techniques reduced to 0 on the card in play (A, B, C).
    zeroed: [bool; 3],
    /// The stage that is a Jogress card, and the partner line it needs.
    jogress: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum LineState {
    InPlay,
    Deleted,
    /// Joined another line by Jogress.
    Merged,
}

impl Line {
    fn card(&self) -> &Digimon {
        &self.stages[self.at]
    }

    fn in_play(&self) -> bool {
        self.state == LineState::InPlay
    }
}

/// How often a player's ability has resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Used {
    card: CardNumber,
    index: u8,
    game: u8,
    turn: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Player {
    lines: Vec<Line>,
    front: usize,
    points: i32,
    options: Vec<Arc<OptionCard>>,
    alpha_used: bool,
    used: Vec<Used>,
    /// `[Action:]` abilities readied this round.
    readied: Vec<AbilitySlot>,
    /// Speed changes that last this round.
    speed_bonus: i32,
}

/// A card that carries abilities, held by a cheap shared handle.
enum Holder {
    Digimon(Arc<Digimon>),
    Option(Arc<OptionCard>),
    None,
}

impl Holder {
    fn abilities(&self) -> (CardNumber, &[Ability]) {
        match self {
            Holder::Digimon(d) => (d.number, &d.terminal),
            Holder::Option(o) => (o.number, &o.terminal),
            Holder::None => (CardNumber::new(crate::cards::Prefix::Dm, 0), &[]),
        }
    }
}

impl Player {
    fn holder(&self, source: Source) -> Holder {
        match source {
            Source::Front => Holder::Digimon(Arc::clone(&self.front().stages[self.front().at])),
            Source::Option(i) => self
                .options
                .get(usize::from(i))
                .map_or(Holder::None, |o| Holder::Option(Arc::clone(o))),
        }
    }

    fn front(&self) -> &Line {
        &self.lines[self.front]
    }

    fn front_mut(&mut self) -> &mut Line {
        &mut self.lines[self.front]
    }

    fn has_digimon(&self) -> bool {
        self.lines.iter().any(Line::in_play)
    }

    fn uses(&self, card: CardNumber, index: u8) -> (u8, u8) {
        self.used
            .iter()
            .find(|u| u.card == card && u.index == index)
            .map_or((0, 0), |u| (u.game, u.turn))
    }

    fn record_use(&mut self, card: CardNumber, index: u8) {
        match self
            .used
            .iter_mut()
            .find(|u| u.card == card && u.index == index)
        {
            Some(u) => {
                u.game = u.game.saturating_add(1);
                u.turn = u.turn.saturating_add(1);
            }
            None => self.used.push(Used {
                card,
                index,
                game: 1,
                turn: 1,
            }),
        }
    }

    /// The card behind a slot and its Battle Terminal abilities.
    fn slot(&self, source: Source) -> Option<(CardNumber, &[Ability])> {
        match source {
            Source::Front => {
                let d = self.front().card();
                Some((d.number, &d.terminal))
            }
            Source::Option(i) => self
                .options
                .get(usize::from(i))
                .map(|o| (o.number, &o.terminal[..])),
        }
    }

    fn within_limit(&self, card: CardNumber, index: u8, a: &Ability) -> bool {
        let (game, turn) = self.uses(card, index);
        match a.limit {
            None => true,
            Some(crate::effects::Limit::PerTurn(n)) => turn < n,
            Some(crate::effects::Limit::PerGame(n)) => game < n,
        }
    }
}

/// A stance as pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Press {
    stance: BattleType,
    timed_out: bool,
    alpha: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Players with a full front gauge answer the evolution question.
    Evolution { waiting: [bool; 2] },
    /// Both players press a stance.
    Stance { pressed: [Option<Press>; 2] },
    /// The defender answers an Alpha Strike.
    Block { attacker: Side, pressed: [Press; 2] },
    /// The battle is over.
    Over,
}

/// A Terminal Battle in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    tunables: Tunables,
    seed: u64,
    players: [Player; 2],
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
}

/// What a CPU player or a HUD may read about one side.
#[derive(Debug, Clone, Copy)]
pub struct SideView<'a> {
    /// Points.
    pub points: i32,
    /// The Digimon at the front.
    pub front: &'a Digimon,
    /// The front line's evolution gauge.
    pub gauge: u32,
    /// Digimon still in play, front included.
    pub digimon_left: usize,
    /// Whether the Alpha Strike is spent.
    pub alpha_used: bool,
}

/// One evolution line as a HUD or test sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// The scanned stages, lowest first.
    pub stages: Vec<CardNumber>,
    /// The stage in play.
    pub at: usize,
    /// Evolution gauge, percent.
    pub gauge: u32,
    /// Still in play (not deleted, not joined by Jogress).
    pub in_play: bool,
    /// The stage that is a Jogress card and the partner line it needs.
    pub jogress: Option<(usize, usize)>,
}

impl Match {
    /// A player's evolution lines.
    pub fn lines(&self, side: Side) -> Vec<LineView> {
        self.players[side.index()]
            .lines
            .iter()
            .map(|l| LineView {
                stages: l.stages.iter().map(|d| d.number).collect(),
                at: l.at,
                gauge: l.gauge,
                in_play: l.in_play(),
                jogress: l.jogress,
            })
            .collect()
    }

    /// Which line is at the front.
    pub fn front_line(&self, side: Side) -> usize {
        self.players[side.index()].front
    }

    /// Checks a setup against the card set and starts the battle.
    pub fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Match, SetupError> {
        let extended;
        let cards = if setup.extra.is_empty() {
            cards
        } else {
            extended = cards
                .with_cards(&setup.extra)
                .map_err(|e| SetupError::ExtraCards(e.to_string().replace('\n', "; ")))?;
            &extended
        };
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let t = &setup.tunables;
        let mut opening = Vec::new();
        let mut players = Vec::with_capacity(2);
        for side in Side::BOTH {
            let team = scan::build_team(side, &setup.teams[side.index()], cards, t, &mut rng)?;
            let mut player = Player {
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
                player.points = (player.points - team.burst).max(1);
                opening.push(Event::PointsChanged {
                    side,
                    delta: -team.burst,
                    points: player.points,
                    reason: PointsReason::Burst,
                });
            }
            players.push(player);
        }
        let [p1, p2]: [Player; 2] = players.try_into().map_err(|_| SetupError::Internal)?;
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
        };
        m.start_round(&mut opening);
        m.opening = opening;
        Ok(m)
    }

    /// Two lone Digimon face each other (any level, as if they had
    /// digivolved): for measuring the stance game card against card.
    pub fn duel(p1: &Digimon, p2: &Digimon, tunables: &Tunables, seed: u64) -> Match {
        let player = |d: &Digimon| Player {
            lines: vec![scan::new_line(Arc::new(d.clone()))],
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

    /// A side as a CPU player or HUD sees it.
    pub fn view(&self, side: Side) -> SideView<'_> {
        let p = &self.players[side.index()];
        SideView {
            points: p.points,
            front: p.front().card(),
            gauge: p.front().gauge,
            digimon_left: p.lines.iter().filter(|l| l.in_play()).count(),
            alpha_used: p.alpha_used,
        }
    }

    /// The card and ability an [`AbilitySlot`] of `side`'s names, if any.
    pub fn ability(&self, side: Side, slot: AbilitySlot) -> Option<(CardNumber, &Ability)> {
        let (card, list) = self.players[side.index()].slot(slot.source)?;
        Some((card, list.get(usize::from(slot.index))?))
    }

    /// Whether the match waits for `side`'s stance (rather than another question).
    pub fn awaits_stance(&self, side: Side) -> bool {
        matches!(&self.phase, Phase::Stance { pressed } if pressed[side.index()].is_none())
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
        let mut pressed = [Press {
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
                    Some(Offer::Normal) => v.push(Action::Digivolve(true)),
                    Some(Offer::Jogress) => v.push(Action::Jogress),
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
                        Source::Front
                    } else {
                        Source::Option((k - 1) as u8)
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
            return Err(IllegalAction { side, reason });
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
                    Action::Stance(b) => Press {
                        stance: b,
                        timed_out: false,
                        alpha: false,
                    },
                    Action::AlphaAttack(b) => Press {
                        stance: b,
                        timed_out: false,
                        alpha: true,
                    },
                    _ => Press {
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

    fn start_round(&mut self, events: &mut Vec<Event>) {
        self.round += 1;
        for p in &mut self.players {
            p.readied.clear();
            p.speed_bonus = 0;
            for u in &mut p.used {
                u.turn = 0;
            }
        }
        events.push(Event::RoundStarted { round: self.round });
        clash::preparation(self, events);
        if self.finish_if_decided(events) {
            return;
        }
        let mut waiting = [false; 2];
        for side in Side::BOTH {
            if let Some(offer) = self.evolution_offer(side) {
                waiting[side.index()] = true;
                let p = &self.players[side.index()];
                let line = p.front();
                events.push(Event::EvolutionOffered {
                    side,
                    from: line.card().number,
                    to: line.stages[line.at + 1].number,
                    jogress: offer == Offer::Jogress,
                });
            }
        }
        self.phase = if waiting.iter().any(|&w| w) {
            Phase::Evolution { waiting }
        } else {
            Phase::Stance { pressed: [None; 2] }
        };
    }

    fn evolution_answered(&mut self, side: Side, _events: &mut [Event]) {
        if let Phase::Evolution { waiting } = &mut self.phase {
            waiting[side.index()] = false;
            if !waiting.iter().any(|&w| w) {
                self.phase = Phase::Stance { pressed: [None; 2] };
            }
        }
    }

    fn evolution_offer(&self, side: Side) -> Option<Offer> {
        let p = &self.players[side.index()];
        let line = p.front();
        if line.gauge < self.tunables.gauge_full || line.at + 1 >= line.stages.len() {
            return None;
        }
        match line.jogress {
            Some((stage, partner)) if stage == line.at + 1 => {
                let partner = &p.lines[partner];
                (partner.in_play() && partner.gauge >= self.tunables.gauge_full)
                    .then_some(Offer::Jogress)
            }
            _ => Some(Offer::Normal),
        }
    }

    fn digivolve(&mut self, side: Side, events: &mut Vec<Event>) {
        let line = self.players[side.index()].front_mut();
        let from = line.card().number;
        line.at += 1;
        line.gauge = 0;
        line.zeroed = [false; 3];
        let to = line.card().number;
        events.push(Event::Digivolved { side, from, to });
        clash::digivolved(self, side, events);
    }

    fn jogress(&mut self, side: Side, events: &mut Vec<Event>) {
        let p = &mut self.players[side.index()];
        let Some((_, partner)) = p.front().jogress else {
            return;
        };
        let partner_card = p.lines[partner].card().number;
        p.lines[partner].state = LineState::Merged;
        let line = p.front_mut();
        let from = [line.card().number, partner_card];
        line.at += 1;
        line.gauge = 0;
        line.zeroed = [false; 3];
        let to = line.card().number;
        events.push(Event::Jogressed { side, from, to });
        clash::digivolved(self, side, events);
    }

    /// The front Digimon and the other Digimon in play of its battle type and Field.
    fn alpha_group(&self, side: Side) -> Vec<usize> {
        let p = &self.players[side.index()];
        let front = p.front().card();
        let mut group = vec![p.front];
        group.extend(p.lines.iter().enumerate().filter_map(|(i, l)| {
            let c = l.card();
            (i != p.front
                && l.in_play()
                && c.battle_type == front.battle_type
                && c.field == front.field)
                .then_some(i)
        }));
        group
    }

    /// How many Digimon an Alpha Strike by `side` would bring, without building the group.
    fn alpha_group_len(&self, side: Side) -> usize {
        let p = &self.players[side.index()];
        let front = p.front().card();
        p.lines
            .iter()
            .filter(|l| {
                l.in_play()
                    && l.card().battle_type == front.battle_type
                    && l.card().field == front.field
            })
            .count()
            .max(1)
    }

    fn can_alpha_block(&self, side: Side) -> bool {
        self.alpha_group_len(side) >= self.alpha_group_len(side.other())
    }

    fn both_pressed(&mut self, pressed: [Press; 2], events: &mut Vec<Event>) {
        let attackers: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| pressed[s.index()].alpha)
            .collect();
        for &a in &attackers {
            self.players[a.index()].alpha_used = true;
            let group = self
                .alpha_group(a)
                .iter()
                .map(|&i| self.players[a.index()].lines[i].card().number)
                .collect();
            events.push(Event::AlphaAttack { side: a, group });
        }
        match attackers.as_slice() {
            [attacker] => {
                let defender = attacker.other();
                if self.can_alpha_block(defender) {
                    self.phase = Phase::Block {
                        attacker: *attacker,
                        pressed,
                    };
                } else {
                    self.resolve_round(pressed, Some((*attacker, false)), events);
                }
            }
            // Both struck at once: each side fights with its group.
            [_, _] => self.resolve_round(pressed, Some((Side::P1, true)), events),
            _ => self.resolve_round(pressed, None, events),
        }
    }

    /// Resolves the clash (`alpha`: the attacker and whether it was blocked),
    /// then ends the round and starts the next one.
    fn resolve_round(
        &mut self,
        pressed: [Press; 2],
        alpha: Option<(Side, bool)>,
        events: &mut Vec<Event>,
    ) {
        clash::resolve(self, pressed, alpha, events);
        events.push(Event::RoundEnded {
            round: self.round,
            points: [self.players[0].points, self.players[1].points],
        });
        if self.finish_if_decided(events) {
            return;
        }
        if self.round >= self.tunables.max_rounds {
            let [a, b] = [self.players[0].points, self.players[1].points];
            let outcome = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Win(Side::P1),
                std::cmp::Ordering::Less => Outcome::Win(Side::P2),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            self.end(outcome, events);
            return;
        }
        self.start_round(events);
    }

    /// Ends the battle when a player is out of points or Digimon.
    fn finish_if_decided(&mut self, events: &mut Vec<Event>) -> bool {
        let lost = |p: &Player| p.points <= 0 || !p.has_digimon();
        let outcome = match (lost(&self.players[0]), lost(&self.players[1])) {
            (false, false) => return false,
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Win(Side::P2),
            (false, true) => Outcome::Win(Side::P1),
        };
        self.end(outcome, events);
        true
    }

    fn end(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        events.push(Event::BattleEnded { outcome });
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offer {
    Normal,
    Jogress,
}

impl Rules for Match {
    type Setup = Setup;
    type SetupError = SetupError;
    type Cards = CardSet;
    type Action = Action;
    type Event = Event;

    fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Self, SetupError> {
        Match::from_setup(setup, cards)
    }
    fn legal_actions(&self, side: Side) -> Vec<Action> {
        Match::legal_actions(self, side)
    }
    fn apply(&mut self, side: Side, action: Action) -> Result<Vec<Event>, IllegalAction> {
        Match::apply(self, side, action)
    }
    fn outcome(&self) -> Option<Outcome> {
        Match::outcome(self)
    }
}
