//! Alpha Clash (Rising Empire Studios, basic rulebook 2.0), pure Rust:
//! Contenders and their health thresholds, resources by colour, Standby
//! and priority, Traps and Quick Actions by their Counter tags, Weapons,
//! Relics, Clashgrounds, Clash Buffs, the six clash steps, damage, the
//! card abilities and trigger tags, as `docs/clash-rules.md` sets them
//! out (each rule with its id, `CL-…`; the decisions where the rulebook is
//! silent are `CL-D…`; the tests are named after them).
//!
//! The shape is the other rulesets': a [`Setup`] of decks and a seed
//! becomes a [`Match`]; the seat the match waits on answers its question
//! ([`Match::legal_actions`], [`Match::apply`]); every step is an
//! [`Event`] that names no hidden card; [`Match::view`] is what one seat
//! may know. Two to four seats (docs/clash-rules.md, section 14).

pub mod deck;
mod flow;
pub mod layout;
pub mod script;
#[cfg(test)]
mod tests;
mod text;
mod view;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use deck::DeckError;
pub use text::action_words;
pub use view::{SeatView, UnitView, View};

use super::alpha::Rng64;
use super::{IllegalAction, Outcome, Seat};
use crate::cards::{Affiliation, Card, CardNumber, CardSet, ClashKind};
use crate::effects::clash::{Ability, Hue, Keyword};

/// The engine's version: bumped whenever the rules' code changes behaviour.
/// Engine 2 (2026-11-27): an activated ability and the Portal give the
/// opponents priority (CL-RES-8, CL-D4, CL-D1); a Counter may answer an
/// Irrefutable card, which enters play anyway (CL-KW-9, CL-D10). A replay
/// of engine 1 is played by engine 1 ([`ENGINES`]).
pub const ENGINE_VERSION: u32 = 2;

/// The engine versions this build plays: the current one, and the earlier
/// ones whose replays it still plays back as they were.
pub const ENGINES: std::ops::RangeInclusive<u32> = 1..=ENGINE_VERSION;

/// Serde's default for a setup's engine: the current one (a replay of an
/// earlier one says which, [`crate::rules::Ruleset::adopt_engine`]).
fn current_engine() -> u32 {
    ENGINE_VERSION
}
/// Cards in an opening hand (CL-START-3).
pub const HAND: usize = 8;
/// Cards in a Main Deck (CL-DECK-3).
pub const MAIN_DECK: usize = 50;
/// The most cards in a Sideboard (CL-DECK-4).
pub const SIDEBOARD: usize = 10;
/// What opening the Portal costs (CL-ZONE-9).
pub const PORTAL_COST: u8 = 2;
/// The game is a draw after this many turns (no source sets one; bterm's
/// guard against a game without end, CL-D31).
pub const TURN_LIMIT: u32 = 200;

/// Everything a match starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Each seat's cards: its Contender and its Main Deck, in any order
    /// (the Main Deck is shuffled). The Sideboard stays out of a game
    /// (CL-D18).
    pub decks: Vec<Vec<CardNumber>>,
    /// The seed of the shuffles and of who goes first.
    pub seed: u64,
    /// Seats whose deck is exempt from the deck rules, with the reason (a
    /// scripted scenario only; a normal game never sets it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<(Seat, String)>,
    /// A scripted scenario's order: decks as listed, top card first, not
    /// shuffled, and this seat first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacked: Option<Seat>,
    /// The engine the rules are played by ([`ENGINE_VERSION`]; a replay
    /// of an earlier engine this build still plays keeps its own). Not
    /// written: a replay records it in its rules version.
    #[serde(default = "current_engine", skip_serializing)]
    pub engine: u32,
}

/// Why a setup is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 4 seats.
    #[error("Alpha Clash is played by 2 to 4 players here; this setup has {0} decks")]
    Seats(usize),
    /// A deck breaks the deck rules.
    #[error("{seat}'s deck: {error}")]
    Deck {
        /// Whose deck.
        seat: Seat,
        /// What is wrong.
        error: DeckError,
    },
    /// An exemption without a reason, or a deck that cannot start.
    #[error("{0}")]
    Exempt(String),
    /// An engine this build does not play.
    #[error(
        "Alpha Clash engine {0} is not one this build plays (it plays engines 1 to {ENGINE_VERSION})"
    )]
    Engine(u32),
}

/// A card's index in the match's card table.
pub type Cid = u16;

/// What the rules need of a card, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Info {
    pub number: CardNumber,
    pub name: String,
    pub owner: Seat,
    pub kind: ClashKind,
    pub colors: Vec<Hue>,
    pub cost: u8,
    pub specific: Vec<Hue>,
    pub attack: i16,
    pub defense: i16,
    pub health: i16,
    pub attach: Vec<Hue>,
    pub attach_to: Option<Affiliation>,
    pub needs_contender: Option<Hue>,
    pub affiliation: Option<Affiliation>,
    pub keywords: Vec<Keyword>,
    pub effects: Vec<Ability>,
    /// Whether any of its abilities is lasting (`Always`): only such cards
    /// are looked at for a figure or a keyword.
    pub always: bool,
}

impl Info {
    fn of(card: &Card, owner: Seat) -> Option<Info> {
        let c = card.as_clash()?;
        Some(Info {
            number: c.number,
            name: c.name.clone(),
            owner,
            kind: c.kind,
            colors: c.colors.clone(),
            cost: c.cost,
            specific: c.specific.clone(),
            attack: c.attack.map_or(0, i16::from),
            defense: c.defense.map_or(0, i16::from),
            health: c.health.map_or(0, i16::from),
            attach: c.attach.clone(),
            attach_to: c.attach_to,
            needs_contender: c.needs_contender,
            affiliation: c.affiliation,
            keywords: c.keywords.clone(),
            effects: c.effects.clone(),
            always: c
                .effects
                .iter()
                .any(|a| a.when == crate::effects::clash::When::Always),
        })
    }

    /// Whether it has a keyword by itself.
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.iter().any(|&h| h.same_kind(k))
    }

    /// A keyword's X, if it has it.
    pub fn x_of(&self, k: Keyword) -> Option<u8> {
        self.keywords
            .iter()
            .find(|h| h.same_kind(k))
            .map(|h| match h {
                Keyword::AweFactor(x) | Keyword::Barrage(x) | Keyword::Enrage(x) => *x,
                _ => 0,
            })
    }
}

/// A Contender or a Clash card in play.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// The card.
    pub card: Cid,
    /// Engaged (horizontal) rather than ready.
    pub engaged: bool,
    /// The turn it entered play.
    pub entered: u32,
    /// Non-clash damage this turn (removed at end of turn).
    pub damage: i16,
    /// Clash damage in the Clash now (reset after it).
    pub clash_damage: i16,
    /// Attack change until end of turn.
    pub attack_bonus: i16,
    /// Defence change until end of turn.
    pub defense_bonus: i16,
    /// Keywords gained until end of turn.
    pub granted: Vec<Keyword>,
    /// Clash damage still to be prevented this turn.
    pub prevent: u8,
    /// Defeated, waiting for its Trigger - Defeat effects before it goes to
    /// Oblivion (CL-CLASH-7).
    pub defeated: bool,
    /// Dealt clash damage by a Necrotic card in this Clash.
    pub necrotic: bool,
}

impl Unit {
    fn new(card: Cid, turn: u32) -> Unit {
        Unit {
            card,
            engaged: false,
            entered: turn,
            damage: 0,
            clash_damage: 0,
            attack_bonus: 0,
            defense_bonus: 0,
            granted: Vec::new(),
            prevent: 0,
            defeated: false,
            necrotic: false,
        }
    }
}

/// A card in the Accessory Zone: a set Trap, a Weapon, a Relic.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Accessory {
    /// The card.
    pub card: Cid,
    /// Engaged.
    pub engaged: bool,
    /// A Trap set face down (its turn: it can't be activated that turn).
    pub set_on: Option<u32>,
    /// A Weapon attached to this Clash card.
    pub on: Option<Cid>,
}

/// One seat's zones.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Side {
    /// The Contender.
    pub contender: Unit,
    /// Its health.
    pub health: i16,
    /// The Main Deck, top last.
    pub deck: Vec<Cid>,
    pub hand: Vec<Cid>,
    pub oblivion: Vec<Cid>,
    /// The Resource Zone: each card and whether it is engaged.
    pub resources: Vec<(Cid, bool)>,
    /// The Clash Zone.
    pub clash: Vec<Unit>,
    /// The Accessory Zone.
    pub accessories: Vec<Accessory>,
    /// The Clashground Zone.
    pub clashground: Option<Cid>,
    /// The Portal is open (CL-D1).
    pub portal: bool,
    /// Out of the game.
    pub lost: bool,
    /// Has settled its opening hand (CL-START-4).
    pub settled: bool,
    /// Cards put aside to shuffle back in the mulligan.
    pub returning: Vec<Cid>,
    /// Whether a resource was put in this turn.
    pub resourced: bool,
}

/// What waits in Standby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum What {
    /// A card being played (it enters play, or resolves and goes to
    /// Oblivion if it is an Action).
    Play,
    /// An activated Trap's effect.
    Trap,
    /// An ability of a card (its index among the card's effects).
    Ability(u8),
    /// A Barrage's damage (CL-KW-2).
    Barrage,
    /// Awe Factor (CL-KW-1).
    Awe,
    /// Opening the Portal (CL-D1).
    Portal,
}

/// A card or effect in Standby.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    /// Who controls it.
    pub seat: Seat,
    /// The card it comes from.
    pub source: Cid,
    /// What it is.
    pub what: What,
    /// Its chosen targets, in order (a Barrage's: one per point).
    pub targets: Vec<Cid>,
    /// The Standby entry it answers (its place), for a Counter.
    pub answers: Option<u8>,
    /// Prevented from resolving by a Counter (CL-D10).
    pub negated: bool,
}

/// Priority offered on an entry in Standby: the opponents still to ask,
/// the next first (CL-D4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Window {
    /// The entry's place in Standby.
    pub entry: u8,
    /// Who is still to be asked, next first.
    pub ask: Vec<Seat>,
}

/// Targets being chosen for a card or effect about to go into Standby.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Choosing {
    pub entry: Entry,
    /// The target kinds still to choose, next first.
    pub need: Vec<crate::effects::clash::Target>,
    /// A Barrage's points still to deal, and how many targets it may have.
    pub barrage: Option<(u8, u8)>,
    /// Open a priority window on it once it is in Standby.
    pub window: bool,
}

/// The six steps of a Clash (CL-TURN-C1..C6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClashStep {
    /// C1: the attack is declared.
    Attack,
    /// C2: the defending player's Counter - Attack responses.
    Counter,
    /// C3: obstructors.
    Obstruct,
    /// C4: the attacking player's Clash Buff.
    AttackerBuff,
    /// C5: the defending player's Clash Buff.
    DefenderBuff,
    /// C6: damage.
    Damage,
}

impl ClashStep {
    /// The step as the rulebook names it.
    pub fn words(self) -> &'static str {
        match self {
            ClashStep::Attack => "C1 Attack Step",
            ClashStep::Counter => "C2 Counter Step",
            ClashStep::Obstruct => "C3 Obstruct Step",
            ClashStep::AttackerBuff => "C4 Attacker's Clash Buff Step",
            ClashStep::DefenderBuff => "C5 Defender's Clash Buff Step",
            ClashStep::Damage => "C6 Damage Step",
        }
    }
}

/// The Clash in progress.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fight {
    /// The attacking player.
    pub seat: Seat,
    /// The attacking Contender or Clash card.
    pub attacker: Cid,
    /// The original target.
    pub target: Cid,
    /// The defending player.
    pub defender: Seat,
    /// Obstructors, in the order declared.
    pub obstructors: Vec<Cid>,
    /// The step now.
    pub step: ClashStep,
    /// C6's damage has been dealt; the Clash ends once Standby is empty.
    pub dealt: bool,
}

/// Where the turn is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The opening hands (CL-START-4).
    Mulligan,
    /// The Start of Turn Phase: its triggered effects resolve.
    Start,
    /// E3: the Resource Step.
    Resource,
    /// The Primary Phase (and the Clash Phase within it).
    Primary,
    /// The End of Turn Phase: its triggered effects resolve.
    End,
    /// The game is over.
    Over,
}

/// The kinds of question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ask {
    /// The opening hand: return cards, or keep (CL-START-4).
    Mulligan,
    /// E3: a resource, or none.
    Resource,
    /// The Primary Phase.
    Primary,
    /// Priority: respond to the card or effect in Standby, or pass.
    Respond,
    /// C2: Counter - Attack responses, or pass.
    Counter,
    /// C3: obstruct, or pass.
    Obstruct,
    /// C4 / C5: a Clash Buff, or pass.
    Buff,
    /// A target for the card or effect being declared.
    Target,
    /// A Barrage's points, one at a time, or pass.
    Barrage,
}

impl Ask {
    /// The question in a few words ("to respond").
    pub fn what(self) -> &'static str {
        match self {
            Ask::Mulligan => "to keep or return cards of the opening hand",
            Ask::Resource => "for the Resource Step",
            Ask::Primary => "for the Primary Phase",
            Ask::Respond => "to respond or pass",
            Ask::Counter => "for the Counter Step",
            Ask::Obstruct => "for the Obstruct Step",
            Ask::Buff => "for a Clash Buff",
            Ask::Target => "for a target",
            Ask::Barrage => "for Barrage damage",
        }
    }
}

/// A seat's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Mulligan: put this card of the opening hand aside, to shuffle back.
    Return(Cid),
    /// Keep the hand (after any returns: shuffle them back, draw to 8).
    Keep,
    /// E3: put this card of the hand into the Resource Zone.
    Resource(Cid),
    /// E3: put no resource in.
    NoResource,
    /// Play this card from the hand (into Standby).
    Play(Cid),
    /// Set this Trap face down (free; not playing).
    Set(Cid),
    /// Activate this set Trap (pay its cost).
    Activate(Cid),
    /// Use an ability of a card in play (its index among the effects).
    Use(Cid, u8),
    /// Pay a Weapon's attach cost to attach it to this Clash card.
    Attach(Cid, Cid),
    /// Pay a Weapon's attach cost to return it to the Accessory Zone.
    Unattach(Cid),
    /// Open the Portal (pay 2).
    Portal,
    /// C1: this Contender or Clash card attacks this target.
    Attack(Cid, Cid),
    /// C3: this ready Clash card obstructs.
    Obstruct(Cid),
    /// Choose this card as the target asked for.
    Target(Cid),
    /// Pass: no response, no more obstructors, no Clash Buff, no more
    /// targets.
    Pass,
    /// End the turn.
    EndTurn,
    /// Concede: out of the game at once. Never among the legal answers.
    Concede,
    /// Engage this ready resource of yours first when you next pay a cost
    /// (CL-RES-6, CL-D30): the player's choice of which resources pay.
    /// Never among the listed answers (there would be one per resource at
    /// every question); without it, bterm chooses.
    PayWith(Cid),
}

/// A card as an event names it: its place in the match and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Named {
    /// Its id in the match.
    pub id: Cid,
    /// Its number.
    pub number: CardNumber,
}

/// What happened, in order: names no hidden card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Each Contender revealed.
    Revealed(Seat, Named),
    /// Who goes first.
    First(Seat),
    /// A seat settled its opening hand.
    Mulligan {
        /// The seat.
        seat: Seat,
        /// How many cards it shuffled back and redrew.
        returned: u8,
    },
    /// A turn began.
    TurnBegan {
        /// Whose.
        seat: Seat,
        /// Its number.
        turn: u32,
    },
    /// Ready Step: the seat's cards are ready.
    Readied(Seat),
    /// A seat drew cards (the cards are hidden).
    Drew {
        /// Who.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// A card went into the Resource Zone, face down: its colours show.
    Resourced {
        /// Whose.
        seat: Seat,
        /// The card's colours.
        colors: Vec<Hue>,
    },
    /// Resources engaged to pay.
    Paid {
        /// Who.
        seat: Seat,
        /// How many.
        amount: u8,
    },
    /// A card was played into Standby.
    Played {
        /// Whose.
        seat: Seat,
        /// The card.
        card: Named,
    },
    /// A Trap was set face down.
    Set {
        /// Whose.
        seat: Seat,
    },
    /// A set Trap was activated (revealed) into Standby.
    Activated {
        /// Whose.
        seat: Seat,
        /// The Trap.
        card: Named,
    },
    /// An ability went into Standby.
    Triggered {
        /// Whose.
        seat: Seat,
        /// The card.
        card: Named,
        /// The ability's words.
        words: String,
    },
    /// A seat has priority.
    Priority(Seat),
    /// A seat passed.
    Passed(Seat),
    /// A card or effect in Standby resolved.
    Resolved(Named),
    /// A card or effect in Standby did not resolve.
    Negated(Named),
    /// A card entered play.
    Entered {
        /// Whose.
        seat: Seat,
        /// The card.
        card: Named,
    },
    /// A Clashground went to Oblivion, replaced.
    Replaced(Named),
    /// A Weapon was attached.
    Attached {
        /// The Weapon.
        weapon: Named,
        /// The Clash card.
        to: Named,
    },
    /// A Weapon went back to the Accessory Zone.
    Unattached(Named),
    /// The Portal opened.
    PortalOpened(Seat),
    /// A Clash step began.
    Step(ClashStep),
    /// An attack was declared.
    Attack {
        /// The attacking player.
        seat: Seat,
        /// The attacker.
        attacker: Named,
        /// The target.
        target: Named,
        /// The defending player (the target's).
        defender: Seat,
    },
    /// A Clash card obstructs.
    Obstructed(Named),
    /// Clash damage.
    ClashDamage {
        /// To this card.
        to: Named,
        /// How much.
        amount: i16,
    },
    /// Non-clash damage.
    Damage {
        /// To this card.
        to: Named,
        /// How much.
        amount: i16,
    },
    /// Damage prevented.
    Prevented {
        /// To this card.
        to: Named,
        /// How much.
        amount: i16,
    },
    /// A Contender's health changed.
    Health {
        /// Whose.
        seat: Seat,
        /// Health now.
        health: i16,
    },
    /// Attack/defence changed until end of turn.
    Stats {
        /// The card.
        card: Named,
        /// Attack change.
        attack: i16,
        /// Defence change.
        defense: i16,
    },
    /// A keyword gained until end of turn.
    Granted {
        /// The card.
        card: Named,
        /// The keyword.
        keyword: Keyword,
    },
    /// A card was engaged or readied by an effect.
    Engaged {
        /// The card.
        card: Named,
        /// Engaged (or readied).
        engaged: bool,
    },
    /// A Clash card was defeated.
    Defeated(Named),
    /// A card went to Oblivion.
    ToOblivion(Named),
    /// A card returned to its owner's hand.
    ToHand(Named),
    /// A card was discarded from a hand.
    Discarded {
        /// Whose.
        seat: Seat,
        /// The card.
        card: Named,
    },
    /// The Clash ended; defences reset.
    ClashOver,
    /// A turn ended.
    TurnEnded(Seat),
    /// A seat could not draw.
    DeckedOut(Seat),
    /// A seat lost.
    Lost {
        /// Who.
        seat: Seat,
        /// Why, in words.
        why: String,
    },
    /// The game ended.
    Over(Outcome),
}

/// A match of Alpha Clash.
#[derive(Debug, Clone)]
pub struct Match {
    pub(crate) cards: Arc<Vec<Info>>,
    pub(crate) sides: Vec<Side>,
    pub(crate) turn: u32,
    pub(crate) active: Seat,
    pub(crate) first: Seat,
    pub(crate) phase: Phase,
    pub(crate) fight: Option<Fight>,
    pub(crate) standby: Vec<Entry>,
    pub(crate) windows: Vec<Window>,
    pub(crate) choosing: Option<Choosing>,
    /// Triggered abilities waiting to go into Standby.
    pub(crate) pending: Vec<Entry>,
    /// Cards a Clash Buff targeted this turn (CL-BUFF-4).
    pub(crate) buffed: Vec<Cid>,
    /// A Clash Buff was played in this Clash step (CL-BUFF-2).
    pub(crate) buff_step_used: bool,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) rng: Rng64,
    pub(crate) opening: Vec<Event>,
    /// The events of the apply in progress.
    pub(crate) log: Vec<Event>,
    /// The resources the asked player chose to pay with first
    /// ([`Action::PayWith`]), until the next action.
    pub(crate) prefer: Vec<Cid>,
    /// The engine it is played by ([`ENGINE_VERSION`], or an earlier
    /// replay's); not part of the state's hash.
    pub(crate) engine: u32,
}

impl Match {
    /// Starts a match: checks the decks, reveals the Contenders, shuffles,
    /// decides who goes first and deals 8 cards each (CL-START-1..3).
    pub fn from_setup(setup: &Setup, set: &CardSet) -> Result<Match, SetupError> {
        let n = setup.decks.len();
        if !(2..=4).contains(&n) {
            return Err(SetupError::Seats(n));
        }
        if !ENGINES.contains(&setup.engine) {
            return Err(SetupError::Engine(setup.engine));
        }
        for (s, why) in &setup.exempt {
            if why.trim().is_empty() {
                return Err(SetupError::Exempt(format!(
                    "{s}'s exemption from the deck rules needs a reason"
                )));
            }
        }
        let mut infos = Vec::new();
        let mut sides = Vec::new();
        let mut rng = Rng64::new(setup.seed);
        for (i, list) in setup.decks.iter().enumerate() {
            let seat = Seat::new(i).unwrap_or(Seat::P1);
            let exempt = setup.exempt.iter().any(|(s, _)| *s == seat);
            let split =
                deck::split(list, set, exempt).map_err(|error| SetupError::Deck { seat, error })?;
            let base = infos.len();
            let contender_card = set
                .get(&split.contender)
                .and_then(|c| Info::of(c, seat))
                .ok_or_else(|| SetupError::Exempt(format!("{seat}'s Contender is unknown")))?;
            let health = contender_card.health;
            infos.push(contender_card);
            let mut deck = Vec::with_capacity(split.main.len());
            for n in &split.main {
                let info = set.get(n).and_then(|c| Info::of(c, seat)).ok_or_else(|| {
                    SetupError::Exempt(format!("{seat}'s card {n} is not an Alpha Clash card"))
                })?;
                deck.push(infos.len() as Cid);
                infos.push(info);
            }
            if deck.len() < HAND {
                return Err(SetupError::Exempt(format!(
                    "{seat}'s deck has {} cards: at least {HAND} are needed for the opening hand",
                    deck.len()
                )));
            }
            if setup.stacked.is_some() {
                // Listed top first; the top is the last.
                deck.reverse();
            } else {
                rng.shuffle(&mut deck);
            }
            sides.push(Side {
                contender: Unit::new(base as Cid, 0),
                health,
                deck,
                hand: Vec::new(),
                oblivion: Vec::new(),
                resources: Vec::new(),
                clash: Vec::new(),
                accessories: Vec::new(),
                clashground: None,
                portal: false,
                lost: false,
                settled: false,
                returning: Vec::new(),
                resourced: false,
            });
        }
        let first = match setup.stacked {
            Some(s) if s.index() < n => s,
            _ => Seat::new(rng.below(n)).unwrap_or(Seat::P1),
        };
        let mut m = Match {
            cards: Arc::new(infos),
            sides,
            turn: 0,
            active: first,
            first,
            phase: Phase::Mulligan,
            fight: None,
            standby: Vec::new(),
            windows: Vec::new(),
            choosing: None,
            pending: Vec::new(),
            buffed: Vec::new(),
            buff_step_used: false,
            outcome: None,
            rng,
            opening: Vec::new(),
            log: Vec::new(),
            prefer: Vec::new(),
            engine: setup.engine,
        };
        for s in Seat::all(n) {
            let c = m.sides[s.index()].contender.card;
            m.log.push(Event::Revealed(s, m.named(c)));
        }
        m.log.push(Event::First(first));
        for s in Seat::all(n) {
            for _ in 0..HAND {
                let z = &mut m.sides[s.index()];
                if let Some(c) = z.deck.pop() {
                    z.hand.push(c);
                }
            }
            m.log.push(Event::Drew {
                seat: s,
                count: HAND as u8,
            });
        }
        m.opening = std::mem::take(&mut m.log);
        Ok(m)
    }

    /// Every action `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        flow::legal_actions(self, seat)
    }

    /// Applies an action; an illegal one changes nothing, and the refusal
    /// says why, naming the rule.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        flow::apply(self, seat, action).map_err(|mut e| {
            if e.reason.is_empty() {
                e.reason = text::why_not(self, seat, action);
            }
            e
        })
    }

    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        self.sides.len()
    }

    pub(crate) fn info(&self, c: Cid) -> &Info {
        &self.cards[usize::from(c)]
    }

    pub(crate) fn side(&self, s: Seat) -> &Side {
        &self.sides[s.index()]
    }

    pub(crate) fn side_mut(&mut self, s: Seat) -> &mut Side {
        &mut self.sides[s.index()]
    }

    /// A card as events name it.
    pub(crate) fn named(&self, c: Cid) -> Named {
        Named {
            id: c,
            number: self.info(c).number,
        }
    }

    /// The card's number.
    pub fn number(&self, c: Cid) -> CardNumber {
        self.info(c).number
    }

    /// The card's name.
    pub fn name(&self, c: Cid) -> &str {
        &self.info(c).name
    }

    /// The card's kind.
    pub fn kind(&self, c: Cid) -> ClashKind {
        self.info(c).kind
    }

    /// The seat whose turn it is.
    pub fn active(&self) -> Seat {
        self.active
    }

    /// The turn's number (1: the first player's first turn).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Where the turn is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The Clash in progress.
    pub fn fight(&self) -> Option<&Fight> {
        self.fight.as_ref()
    }

    /// What waits in Standby, the next to resolve last.
    pub fn standby(&self) -> &[Entry] {
        &self.standby
    }

    /// A seat's Contender's health.
    pub fn health(&self, s: Seat) -> i16 {
        self.side(s).health
    }

    /// A seat's Contender's printed (and highest) health.
    pub fn max_health(&self, s: Seat) -> i16 {
        self.info(self.side(s).contender.card).health
    }

    /// A seat's Contender card.
    pub fn contender(&self, s: Seat) -> Cid {
        self.side(s).contender.card
    }

    /// A seat's hand.
    pub fn hand(&self, s: Seat) -> &[Cid] {
        &self.side(s).hand
    }

    /// A seat's deck, top last.
    pub fn deck(&self, s: Seat) -> &[Cid] {
        &self.side(s).deck
    }

    /// A seat's Oblivion.
    pub fn oblivion(&self, s: Seat) -> &[Cid] {
        &self.side(s).oblivion
    }

    /// A seat's Clash Zone.
    pub fn clash_zone(&self, s: Seat) -> &[Unit] {
        &self.side(s).clash
    }

    /// A seat's Accessory Zone.
    pub fn accessories(&self, s: Seat) -> &[Accessory] {
        &self.side(s).accessories
    }

    /// A seat's Resource Zone: each card and whether it is engaged.
    pub fn resources(&self, s: Seat) -> &[(Cid, bool)] {
        &self.side(s).resources
    }

    /// A seat's Clashground.
    pub fn clashground(&self, s: Seat) -> Option<Cid> {
        self.side(s).clashground
    }

    /// Whether a seat's Portal is open.
    pub fn portal_open(&self, s: Seat) -> bool {
        self.side(s).portal
    }

    /// Whether a seat is out of the game.
    pub fn lost(&self, s: Seat) -> bool {
        self.side(s).lost
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The seat asked now and the kind of question.
    pub fn waiting(&self) -> Option<(Seat, Ask)> {
        flow::waiting(self)
    }

    /// Seats in turn order from the one after `s`, still in the game.
    pub(crate) fn others(&self, s: Seat) -> Vec<Seat> {
        let n = self.sides.len();
        (1..n)
            .filter_map(|k| Seat::new((s.index() + k) % n))
            .filter(|o| !self.side(*o).lost)
            .collect()
    }

    /// Who controls a card in play (its owner: bterm moves no control).
    pub fn owner(&self, c: Cid) -> Seat {
        self.info(c).owner
    }

    /// A seed from what `seat` may see only.
    pub fn view_seed(&self, seat: Seat) -> u64 {
        super::fnv1a(format!("{:?}", self.view(Some(seat))).as_bytes())
    }

    /// A fingerprint of the whole state, the same on every machine.
    pub fn state_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        for z in &self.sides {
            z.hash(&mut h);
        }
        self.turn.hash(&mut h);
        self.active.hash(&mut h);
        self.phase.hash(&mut h);
        self.fight.hash(&mut h);
        self.standby.hash(&mut h);
        self.windows.hash(&mut h);
        self.choosing.hash(&mut h);
        self.pending.hash(&mut h);
        self.buffed.hash(&mut h);
        self.outcome.hash(&mut h);
        // Only when there is a choice waiting (so every state without one
        // hashes as it did before choices existed).
        if !self.prefer.is_empty() {
            self.prefer.hash(&mut h);
        }
        h.finish()
    }

    /// A world `seat` cannot tell from this one: every card it does not
    /// see re-dealt among the places it cannot see (a Resource keeps a
    /// card of its colours, a set Trap a Trap), for a CPU's search.
    pub fn sample_for(&self, seat: Seat, rng: &mut Rng64) -> Match {
        let mut w = self.clone();
        for s in Seat::all(w.sides.len()) {
            let mut unseen: Vec<Cid> = Vec::new();
            {
                let z = &w.sides[s.index()];
                if s != seat {
                    unseen.extend(z.hand.iter().copied());
                    unseen.extend(z.returning.iter().copied());
                    unseen.extend(
                        z.accessories
                            .iter()
                            .filter(|a| a.set_on.is_some())
                            .map(|a| a.card),
                    );
                }
                unseen.extend(z.deck.iter().copied());
                unseen.extend(z.resources.iter().map(|r| r.0));
            }
            unseen.sort_unstable();
            rng.shuffle(&mut unseen);
            let cards = Arc::clone(&w.cards);
            let take = |pool: &mut Vec<Cid>, fits: &dyn Fn(Cid) -> bool, old: Cid| -> Cid {
                match pool.iter().position(|&c| fits(c)) {
                    Some(i) => pool.swap_remove(i),
                    None => old,
                }
            };
            let z = &mut w.sides[s.index()];
            // The constrained places first: resources keep their colours,
            // set Traps stay Traps.
            for r in z.resources.iter_mut() {
                let colors = cards[usize::from(r.0)].colors.clone();
                r.0 = take(
                    &mut unseen,
                    &|c| cards[usize::from(c)].colors == colors,
                    r.0,
                );
            }
            if s != seat {
                for a in z.accessories.iter_mut().filter(|a| a.set_on.is_some()) {
                    a.card = take(
                        &mut unseen,
                        &|c| cards[usize::from(c)].kind == ClashKind::Trap,
                        a.card,
                    );
                }
                for c in z.hand.iter_mut().chain(z.returning.iter_mut()) {
                    *c = take(&mut unseen, &|_| true, *c);
                }
            }
            for c in z.deck.iter_mut() {
                *c = take(&mut unseen, &|_| true, *c);
            }
        }
        w.rng = Rng64::new(rng.next_u64());
        w.log.clear();
        w
    }
}

/// FNV-1a as a `Hasher`, with lengths written as 8 bytes on every machine.
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.write(&(n as u64).to_le_bytes());
    }
    fn write_u16(&mut self, n: u16) {
        self.write(&n.to_le_bytes());
    }
    fn write_u32(&mut self, n: u32) {
        self.write(&n.to_le_bytes());
    }
    fn write_u64(&mut self, n: u64) {
        self.write(&n.to_le_bytes());
    }
    fn write_i16(&mut self, n: i16) {
        self.write(&n.to_le_bytes());
    }
}

impl super::Ruleset for Match {
    const ID: super::RulesetId = super::RulesetId::Clash;
    const NAME: &'static str = "Alpha Clash";
    const KEY: &'static str = "clash";
    const CODE: u8 = 3;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    const BRINGS: &'static str = "deck";
    const HOUSE_PICKS: u64 = deck::EMBEDDED.len() as u64;
    const DECK: Option<super::DeckRules> = Some(deck::RULES);
    type View = View;
    type Setup = Setup;
    type SetupError = SetupError;
    type Action = Action;
    type Event = Event;
    type Ask = Ask;

    fn version(setup: &Setup) -> super::RulesVersion {
        super::RulesVersion {
            ruleset: super::RulesetId::Clash,
            engine: setup.engine,
            tunables: 1,
        }
    }
    fn adopt_engine(setup: &mut Setup, engine: u32) {
        if ENGINES.contains(&engine) {
            setup.engine = engine;
        }
    }
    fn seed(setup: &Setup) -> u64 {
        setup.seed
    }
    fn seat_cards(setup: &Setup) -> Vec<Vec<CardNumber>> {
        setup.decks.clone()
    }
    fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Match, SetupError> {
        Match::from_setup(setup, cards)
    }
    fn seats(&self) -> usize {
        self.sides.len()
    }
    fn opening_events(&self) -> &[Event] {
        &self.opening
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        flow::legal_actions(self, seat)
    }
    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        Match::apply(self, seat, action)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn state_hash(&self) -> u64 {
        Match::state_hash(self)
    }
    fn question(
        &self,
        seat: Seat,
        _passed: &[Action],
        cards: &CardSet,
    ) -> Option<super::Question<Ask, Action>> {
        text::question(self, seat, cards)
    }
    fn describe(event: &Event, cards: &CardSet) -> String {
        text::describe(event, cards)
    }
    fn refusal(&self, seat: Seat, typed: &str, cards: &CardSet) -> Option<String> {
        // Words that name a move the rules refuse: the rule that stops it
        // (the list of legal moves is what `help` shows).
        crate::rules::script::refusal_of(script::read_step(self, seat, typed, cards))
    }
    fn refusals(&self, seat: Seat, _cards: &CardSet) -> Vec<(String, String)> {
        script::refusals(self, seat)
    }
    fn own_card(card: &crate::cards::Card) -> bool {
        card.as_clash().is_some()
    }
    fn setup_for(cards: Vec<Vec<CardNumber>>, seed: u64) -> Setup {
        Setup {
            decks: cards,
            seed,
            exempt: Vec::new(),
            stacked: None,
            engine: ENGINE_VERSION,
        }
    }
    fn seat_view(&self, seat: Option<Seat>) -> View {
        self.view(seat)
    }
    fn check_view(view: &View) -> Result<(), String> {
        view.well_formed()
    }
    fn view_lines(view: &View, cards: &CardSet) -> Vec<String> {
        view.lines(cards)
    }
    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
        super::shipped_deck(deck::EMBEDDED, |n| deck::embedded(n, cards), seat, pick)
    }
    fn house_label(pick: u64, _: &CardSet) -> String {
        format!(
            "the {} deck",
            super::shipped_deck_name(deck::EMBEDDED, pick)
        )
    }
    fn brought_label(brought: &[CardNumber], _: &CardSet) -> String {
        format!("your deck ({} cards)", brought.len())
    }
}
