//! The Digimon Card Game (Bandai, 2020 onward), pure Rust: the memory
//! gauge, security, Digi-Eggs and the breeding area, digivolution, attacks,
//! blocks and security checks, and effects by their timings, as
//! `docs/dcg-rules.md` sets them out (each rule with its id; the tests are
//! named after them).
//!
//! The shape is the other rulesets': a [`Setup`] of decks and a seed
//! becomes a [`Match`]; the seat the match waits on answers its question
//! ([`Match::legal_actions`], [`Match::apply`]); every step is an [`Event`]
//! that holds no hidden card; [`Match::view`] is what one seat may know.
//! Two seats play the standard game; three and four play the LAN format of
//! the seed (docs/dcg-rules.md section 18): memory banks, Target
//! Opponents, 6 security cards, Mega Damage, and the Players Format's
//! Offline Area and Corruption.

pub mod deck;
mod flow;
pub use flow::WhyNot;
#[cfg(test)]
mod lan_tests;
pub mod layout;
pub mod script;
#[cfg(test)]
mod speed_tests;
#[cfg(test)]
mod tests;
mod text;
mod view;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use deck::DeckError;
pub use text::{Ask, action_words};
pub use view::{PermView, SeatView, View};

use super::alpha::Rng64;
use super::{IllegalAction, Outcome, Seat};
use crate::cards::{Card, CardNumber, CardSet, DcgKind, DigivolveCost};
use crate::effects::dcg::{Ability, Color, Deed, Keyword};

/// The engine's version: bumped whenever the rules' code changes behaviour.
/// Engine 2 (2026-11-28): a pending effect of a Digimon or Tamer that has
/// left play before it activates does not activate (DCG-EFF-25). A replay
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
/// Cards in an opening hand.
pub const HAND: usize = 5;
/// Security cards each player starts with.
pub const SECURITY: usize = 5;
/// The most memory on either side of the gauge.
pub const MEMORY_MOST: i8 = 10;
/// Where passing puts the gauge, on the opponent's side.
pub const PASS_MEMORY: i8 = 3;
/// Security cards each player starts with at 3 and 4 seats (DCG-LAN-3).
pub const SECURITY_LAN: usize = 6;
/// Mega Damage that defeats a player (DCG-LAN-20).
pub const MEGA_DAMAGE_DEFEATS: u8 = 10;
/// The most a memory bank holds (DCG-LAN-4).
pub const BANK_MOST: u8 = 10;
/// The game is a draw after this many turns (no source sets one; bterm's
/// guard against a game without end, docs/dcg-rules.md).
pub const TURN_LIMIT: u32 = 300;

/// Everything a match starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Each seat's deck: its main deck and Digi-Eggs together, in any order
    /// (they are shuffled).
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
    /// The deck format (3 and 4 seats only): in the Players Format each
    /// seat's list starts with its Player Tamer and Player Digimon, which
    /// count among its cards (DCG-LAN-29, L17).
    #[serde(default, skip_serializing_if = "Format::is_standard")]
    pub format: Format,
    /// The engine the rules are played by ([`ENGINE_VERSION`]; a replay
    /// of an earlier engine this build still plays keeps its own). Not
    /// written: a replay records it in its rules version.
    #[serde(default = "current_engine", skip_serializing)]
    pub engine: u32,
}

/// The deck format of a LAN-format game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Standard decks (DCG-DECK-1..4).
    #[default]
    Standard,
    /// The Players Format (DCG-LAN-29..34): 60 cards and 6 Digi-Eggs, one
    /// of a number, a Player Tamer and a Player Digimon in the Offline Area.
    Players,
}

impl Format {
    /// Whether this is the standard format.
    pub fn is_standard(&self) -> bool {
        *self == Format::Standard
    }

    /// The format a word names (`standard`, `players`).
    pub fn from_word(word: &str) -> Option<Format> {
        match word.trim().to_ascii_lowercase().as_str() {
            "standard" => Some(Format::Standard),
            "players" | "player" => Some(Format::Players),
            _ => None,
        }
    }
}

/// Why a setup is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 4 seats.
    #[error(
        "the Digimon Card Game is played by 2 to 4 players here (3 and 4 in the LAN format); this setup has {0} decks"
    )]
    Seats(usize),
    /// The Players Format with 2 seats.
    #[error(
        "the Players Format belongs to the 3 and 4 player LAN format (DCG-LAN-29); a game of 2 plays standard decks"
    )]
    PlayersFormatAtTwo,
    /// A deck breaks the deck rules.
    #[error("{seat}'s deck: {error}")]
    Deck {
        /// Whose deck.
        seat: Seat,
        /// What is wrong.
        error: DeckError,
    },
    /// An exemption without a reason, or a deck too short to start.
    #[error("{0}")]
    Exempt(String),
    /// An engine this build does not play.
    #[error(
        "Digimon Card Game engine {0} is not one this build plays (it plays engines 1 to {ENGINE_VERSION})"
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
    pub kind: DcgKind,
    pub colors: Vec<Color>,
    pub level: u8,
    pub cost: u8,
    pub digivolve: Vec<DigivolveCost>,
    pub dp: u32,
    pub effects: Vec<Ability>,
    pub inherited: Vec<Ability>,
    /// Keywords it has by itself (`<Blocker>` alone).
    pub keywords: Vec<Keyword>,
    /// Whether its own effects hold a continuous DP change (so a DP figure
    /// needs to look at it).
    pub continuous_dp: bool,
    /// The same of its inherited effects.
    pub inherited_dp: bool,
    /// Whether its effects (own or inherited) hold a continuous DP loss.
    pub continuous_minus: bool,
    /// Whether its effects (own or inherited) hold a continuous
    /// prohibition ("can't attack", "can't block").
    pub continuous_forbid: bool,
    /// What follows is worked out from the fields above once, when the
    /// match starts, so that the rules need not work it out again and
    /// again: `colors` as bits (`1 << colour`).
    pub color_mask: u8,
    /// A Digimon or a Digi-Egg.
    pub digimon: bool,
    /// Rule processing trashes it from a battle area (DCG-RP-3): a level 2
    /// or lower Digimon, or an Option without <Delay>.
    pub stray: bool,
    /// Whether any of its own effects gives a keyword.
    pub own_keywords: bool,
    /// The same of its inherited effects.
    pub inherited_keywords: bool,
    /// The timings (`1 << timing`) of its own effects without a trigger.
    pub own_timings: u32,
    /// The same of its inherited effects.
    pub inherited_timings: u32,
    /// Whether any of its own effects has a trigger ("When …").
    pub own_triggers: bool,
    /// The same of its inherited effects.
    pub inherited_triggers: bool,
    /// Its own effects in words, as `effects::dcg::render` writes them.
    pub texts: Vec<String>,
    /// The same of its inherited effects.
    pub inherited_texts: Vec<String>,
}

impl Info {
    fn of(card: &Card) -> Option<Info> {
        let c = card.as_dcg()?;
        let effects: Vec<Ability> = c.abilities().cloned().collect();
        let dp_change = |a: &Ability| {
            a.is_continuous()
                && a.effects
                    .iter()
                    .any(|e| matches!(e, crate::effects::dcg::Effect::Dp(..)))
        };
        let minus = |a: &Ability| {
            a.is_continuous()
                && a.effects
                    .iter()
                    .any(|e| matches!(e, crate::effects::dcg::Effect::Dp(_, n) if *n < 0))
        };
        let forbid = |a: &Ability| {
            a.is_continuous()
                && a.effects
                    .iter()
                    .any(|e| matches!(e, crate::effects::dcg::Effect::Forbid(..)))
        };
        let inherited: Vec<Ability> = c.inherited_abilities().cloned().collect();
        let gives_keyword = |list: &[Ability]| {
            list.iter().any(|a| {
                a.effects
                    .iter()
                    .any(|e| matches!(e, crate::effects::dcg::Effect::Keyword(_)))
            })
        };
        let timings = |list: &[Ability]| {
            list.iter()
                .filter(|a| a.trigger.is_none())
                .fold(0u32, |m, a| m | 1 << (a.timing as u32))
        };
        let triggered = |list: &[Ability]| list.iter().any(|a| a.trigger.is_some());
        let texts = |list: &[Ability]| {
            list.iter()
                .map(crate::effects::dcg::render)
                .collect::<Vec<_>>()
        };
        let level = c.level.unwrap_or(0);
        let digimon = matches!(c.kind, DcgKind::Digimon | DcgKind::DigiEgg);
        Some(Info {
            continuous_minus: effects.iter().any(minus) || c.inherited_abilities().any(minus),
            continuous_forbid: effects.iter().any(forbid) || c.inherited_abilities().any(forbid),
            continuous_dp: effects.iter().any(dp_change),
            inherited_dp: c.inherited_abilities().any(dp_change),
            number: c.number,
            name: c.name.clone(),
            kind: c.kind,
            colors: c.colors.clone(),
            level,
            cost: c.cost.unwrap_or(0),
            digivolve: c.digivolve.clone(),
            dp: c.dp.unwrap_or(0),
            keywords: effects.iter().filter_map(Ability::keyword).collect(),
            color_mask: c.colors.iter().fold(0u8, |m, &k| m | color_bit(k)),
            digimon,
            stray: (digimon && level <= 2)
                || (c.kind == DcgKind::Option
                    && !effects
                        .iter()
                        .any(|a| a.timing == crate::effects::dcg::Timing::MainDelay)),
            own_keywords: gives_keyword(&effects),
            inherited_keywords: gives_keyword(&inherited),
            own_timings: timings(&effects),
            inherited_timings: timings(&inherited),
            own_triggers: triggered(&effects),
            inherited_triggers: triggered(&inherited),
            texts: texts(&effects),
            inherited_texts: texts(&inherited),
            inherited,
            effects,
        })
    }
}

/// A colour's bit in [`Info::color_mask`].
pub(crate) fn color_bit(c: Color) -> u8 {
    1 << (c as u8)
}

/// A card in play: a Digimon with its digivolution cards under it, a
/// Tamer, or an Option placed by <Delay>.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Perm {
    /// Its id for the whole match.
    pub id: u16,
    /// Its cards, bottom first: the top card is the last.
    pub cards: Vec<Cid>,
    /// Whether it is suspended.
    pub suspended: bool,
    /// The turn it came into play (a Digimon cannot attack that turn).
    pub since: u32,
}

impl Perm {
    /// Its top card.
    pub fn top(&self) -> Cid {
        *self.cards.last().unwrap_or(&0)
    }
}

/// One seat's zones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Zones {
    /// The deck, top last.
    pub deck: Vec<Cid>,
    /// The Digi-Egg deck, top last.
    pub eggs: Vec<Cid>,
    pub hand: Vec<Cid>,
    /// The security stack, top last.
    pub security: Vec<Cid>,
    pub trash: Vec<Cid>,
    pub breeding: Option<Perm>,
    /// The battle area: Digimon, Tamers and delayed Options.
    pub field: Vec<Perm>,
    /// Whether the seat has settled its opening hand.
    pub settled: bool,
    /// The LAN format: the memory banks (DCG-LAN-4), empty at 2 seats.
    pub banks: Vec<u8>,
    /// The Target Opponent set (DCG-LAN-11; at 2 seats the other seat).
    pub target: u8,
    /// Mega Damage taken (DCG-LAN-19).
    pub mega: u8,
    /// Defeated and out of the game (DCG-LAN-23).
    pub defeated: bool,
    /// The Players Format: the Offline Area (DCG-LAN-31).
    pub offline: Vec<Cid>,
    /// The Player Tamer and the Player Digimon.
    pub players: Vec<Cid>,
    /// Corruption (DCG-LAN-33).
    pub corruption: u8,
    /// How many of each Player card were in the trash or a deck when last
    /// looked at (a rise is a card on its way there, L19).
    pub watched: Vec<u8>,
    /// The Digi-Egg deck's top card is face up (DCG-LAN-34).
    pub open_egg: bool,
}

/// A seat's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Keep the opening hand.
    Keep,
    /// Return the opening hand and draw 5 new cards (once).
    Mulligan,
    /// Hatch the top Digi-Egg into the breeding area.
    Hatch,
    /// Move the breeding area's Digimon to the battle area.
    MoveOut,
    /// Do nothing in the breeding phase.
    StayBreeding,
    /// Play the Digimon or Tamer at this hand position.
    Play {
        /// Hand position.
        card: u8,
    },
    /// Digivolve a Digimon with the card at this hand position.
    Digivolve {
        /// Hand position.
        card: u8,
        /// The Digimon (its id).
        onto: u16,
    },
    /// Use the Option at this hand position.
    UseOption {
        /// Hand position.
        card: u8,
    },
    /// Attack with a Digimon: the opponent (`target: None`) or one of
    /// their suspended Digimon.
    Attack {
        /// The attacker's id.
        attacker: u16,
        /// The target's id, or none for the player.
        target: Option<u16>,
    },
    /// Trash a <Delay> Option in the battle area for its effect.
    TrashDelay {
        /// The Option's id.
        id: u16,
    },
    /// End the turn: memory to 3 on the opponent's side.
    Pass,
    /// Block the attack with this <Blocker>.
    Block {
        /// The blocker's id.
        blocker: u16,
    },
    /// Do not block.
    NoBlock,
    /// Save the Digimon about to be deleted by suspending it (<Evade>).
    Evade,
    /// Save it by trashing its top card (<Armor Purge>).
    ArmorPurge,
    /// Save it by deleting this <Decoy> instead.
    Decoy {
        /// The Decoy's id.
        id: u16,
    },
    /// Choose this Digimon for the effect being resolved.
    Choose {
        /// Its id.
        id: u16,
    },
    /// Choose no more (an "up to" effect, at least one chosen).
    Done,
    /// Yes: use the optional effect, or the keyword offered.
    Yes,
    /// No.
    No,
    /// Concede: the opponent wins at once. A seat may concede at any time,
    /// so it is never among the legal answers (a CPU never picks it).
    Concede,
    /// Resolve this waiting effect next (its position in the list asked).
    Order {
        /// Position among the seat's waiting effects.
        index: u8,
    },
    /// Make this player the Target Opponent (DCG-LAN-12, -13).
    Target {
        /// The new Target Opponent.
        seat: Seat,
    },
    /// Keep the Target Opponent (the before- and after-turn switch).
    KeepTarget,
    /// Put the card at this place of the Offline Area into the hand
    /// (DCG-LAN-32).
    TakeOffline {
        /// Place in the Offline Area.
        card: u8,
    },
}

/// What happened, in order: names no hidden card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Who goes first.
    First(Seat),
    /// A seat kept its hand, or took the mulligan.
    Settled {
        /// The seat.
        seat: Seat,
        /// Whether it redrew.
        mulligan: bool,
    },
    /// Security stacks were set.
    SecuritySet,
    /// A turn began.
    TurnBegan {
        /// Whose.
        seat: Seat,
        /// Its number.
        turn: u32,
        /// The turn player's memory.
        memory: i8,
    },
    /// A seat drew cards (how many; the cards are hidden).
    Drew {
        /// Who.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// A seat had to draw with an empty deck.
    DeckedOut(Seat),
    /// A Digi-Egg hatched.
    Hatched {
        /// Whose.
        seat: Seat,
        /// The egg.
        card: CardNumber,
    },
    /// A Digimon moved out of the breeding area.
    MovedOut {
        /// Whose.
        seat: Seat,
        /// Its top card.
        card: CardNumber,
    },
    /// A card was played (or placed by <Delay>).
    Played {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// What it cost.
        cost: u8,
    },
    /// A Digimon digivolved.
    Digivolved {
        /// Whose.
        seat: Seat,
        /// What it was.
        from: CardNumber,
        /// What it is now.
        to: CardNumber,
        /// What it cost.
        cost: u8,
    },
    /// An Option was used.
    UsedOption {
        /// Whose.
        seat: Seat,
        /// The Option.
        card: CardNumber,
        /// What it cost.
        cost: u8,
    },
    /// The memory gauge moved: the turn player's memory now.
    Memory {
        /// The turn player.
        seat: Seat,
        /// Their memory (negative: on the opponent's side).
        memory: i8,
        /// 3 and 4 seats: memory is the turn player's own (no shared gauge).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        banked: bool,
    },
    /// An effect resolves.
    Effect {
        /// Whose.
        seat: Seat,
        /// The card it is on.
        card: CardNumber,
        /// The effect as printed.
        text: String,
    },
    /// Its player declined an optional effect.
    Declined {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
    },
    /// A Digimon attacked.
    Attacked {
        /// Whose.
        seat: Seat,
        /// The attacker.
        attacker: CardNumber,
        /// The Digimon attacked, or none for the player.
        target: Option<CardNumber>,
        /// The player attacked, at 3 and 4 seats.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Seat>,
    },
    /// A <Raid> moved the attack.
    Redirected {
        /// The new target.
        target: CardNumber,
    },
    /// A <Blocker> blocked.
    Blocked {
        /// Whose.
        seat: Seat,
        /// The blocker.
        blocker: CardNumber,
    },
    /// Two Digimon battled.
    Battle {
        /// The attacker and its DP.
        attacker: (CardNumber, u32),
        /// The other and its DP.
        defender: (CardNumber, u32),
    },
    /// A security card was revealed.
    Revealed {
        /// Whose security.
        seat: Seat,
        /// The card.
        card: CardNumber,
    },
    /// A Digimon was deleted.
    Deleted {
        /// Whose.
        seat: Seat,
        /// Its top card.
        card: CardNumber,
    },
    /// A deletion was prevented.
    Saved {
        /// Whose.
        seat: Seat,
        /// The Digimon.
        card: CardNumber,
        /// By what keyword.
        by: Keyword,
    },
    /// A Digimon or Tamer was suspended or unsuspended by an effect or a cost.
    Suspended {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// Suspended (else unsuspended).
        suspended: bool,
    },
    /// A Digimon left play to its owner's hand or deck.
    Bounced {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// To the hand (else to the bottom of the deck).
        hand: bool,
    },
    /// Cards were trashed from the top of a Digimon.
    DeDigivolved {
        /// Whose.
        seat: Seat,
        /// What it is now.
        card: CardNumber,
        /// How many cards.
        count: u8,
    },
    /// A Digimon's DP changed for the turn.
    DpChanged {
        /// Whose.
        seat: Seat,
        /// The Digimon.
        card: CardNumber,
        /// By how much.
        by: i32,
    },
    /// A Digimon gained a keyword for the turn.
    Gained {
        /// Whose.
        seat: Seat,
        /// The Digimon.
        card: CardNumber,
        /// The keyword.
        keyword: Keyword,
    },
    /// Security cards were added (recovery) or trashed.
    SecurityChanged {
        /// Whose.
        seat: Seat,
        /// How many (negative: trashed).
        by: i8,
    },
    /// A card went to its owner's hand from security.
    ToHand {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
    },
    /// The turn player passed.
    Passed(Seat),
    /// The security stacks were set with this many cards each (3 and 4
    /// seats).
    SecurityOf(u8),
    /// A player set a Target Opponent.
    Targeted {
        /// Who.
        seat: Seat,
        /// Whom.
        target: Seat,
    },
    /// A player's memory banks now.
    Banks {
        /// Whose.
        seat: Seat,
        /// Their values.
        banks: Vec<u8>,
    },
    /// A player took Mega Damage.
    MegaDamage {
        /// Who.
        seat: Seat,
        /// Their Mega Damage now.
        total: u8,
    },
    /// A player was defeated and left the game (the others play on).
    Defeated {
        /// Who.
        seat: Seat,
        /// Why, in words.
        why: String,
    },
    /// A card went from the Offline Area to the hand (or the breeding
    /// area, or on top of the Digi-Egg deck).
    TookOffline {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// What it cost.
        cost: u8,
    },
    /// A Player card went back to the Offline Area for 1 Corruption.
    Corrupted {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// Their Corruption now.
        total: u8,
    },
    /// A turn ended.
    TurnEnded(Seat),
    /// The game is over.
    Over {
        /// How it ended.
        outcome: Outcome,
        /// Why, in words.
        why: String,
    },
    /// An effect forbade a Digimon a deed for the turn (DCG-EFF-4).
    Forbidden {
        /// Whose.
        seat: Seat,
        /// The Digimon.
        card: CardNumber,
        /// What it may not do.
        deed: Deed,
    },
}

/// A Digimon Card Game match in progress.
#[derive(Debug, Clone)]
pub struct Match {
    setup: Setup,
    cards: Arc<[Info]>,
    seats: Vec<Zones>,
    first: Seat,
    turn: u32,
    turn_player: Seat,
    /// The turn player's memory (negative: on the opponent's side).
    memory: i8,
    phase: flow::Phase,
    /// A Player card on its way to the trash or a deck: its owner is asked
    /// about Corruption (DCG-LAN-33).
    offer: Option<(Seat, Cid)>,
    procs: Vec<flow::Proc>,
    pending: Vec<flow::Trig>,
    /// The newest group of waiting effects (DCG-EFF-16).
    group: u32,
    /// For-the-turn changes: (Digimon id, DP change in thousands).
    turn_dp: Vec<(u16, i32)>,
    /// For-the-turn keywords.
    turn_keywords: Vec<(u16, Keyword)>,
    /// For-the-turn prohibitions ("can't attack").
    turn_forbid: Vec<(u16, Deed)>,
    /// Whether any card of the match has a continuous prohibition (else
    /// none need be looked for).
    forbids: bool,
    /// Once-per-turn effects used this turn: (source id or card, card, slot).
    used: Vec<(u32, Cid, u8)>,
    next_id: u16,
    rng: Rng64,
    outcome: Option<Outcome>,
    opening: Vec<Event>,
    /// Events of the action being applied.
    log: Vec<Event>,
    /// Keeps no events (`apply` returns none): for a search's simulations,
    /// which only need where the game goes. Not part of the game's state.
    quiet: bool,
    /// The engine it is played by ([`ENGINE_VERSION`], or an earlier one
    /// for a replay).
    pub(crate) engine: u32,
}

impl Match {
    /// Checks the setup against the card set and the deck rules and starts
    /// the game (opening hands drawn; each seat then keeps or mulligans).
    pub fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Match, SetupError> {
        flow::start(setup, cards)
    }

    /// Keeps no events from now on (`apply` returns an empty list; the
    /// game goes exactly as it would): for a search's simulations and
    /// benchmarks, which only need where the game goes.
    pub fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    /// The setup the match began from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Whose turn it is.
    pub fn turn_player(&self) -> Seat {
        self.turn_player
    }

    /// The turn number (1 is the first player's first turn).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// `seat`'s memory (negative: on the opponent's side).
    pub fn memory_of(&self, seat: Seat) -> i8 {
        if seat == self.turn_player {
            self.memory
        } else {
            -self.memory
        }
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The seat the match waits on, and for what.
    pub fn waiting(&self) -> Option<(Seat, Ask)> {
        self.asked()
    }

    /// The Digimon and Tamers a seat has in the battle area.
    pub fn field(&self, seat: Seat) -> &[Perm] {
        &self.seats[seat.index()].field
    }

    /// The number on a card of the match.
    pub fn number(&self, c: Cid) -> CardNumber {
        self.cards[usize::from(c)].number
    }

    /// Security cards left.
    pub fn security_count(&self, seat: Seat) -> usize {
        self.seats[seat.index()].security.len()
    }

    /// Cards left in the deck.
    pub fn deck_count(&self, seat: Seat) -> usize {
        self.seats[seat.index()].deck.len()
    }

    /// Cards in hand.
    pub fn hand(&self, seat: Seat) -> &[Cid] {
        &self.seats[seat.index()].hand
    }

    /// A Digimon's DP now.
    pub fn dp_of(&self, id: u16) -> u32 {
        self.find(id).map_or(0, |(s, p)| self.dp(s, p))
    }

    /// A world `seat` cannot tell from this one: what it does not see is
    /// dealt again (the other seats' hands, decks, security stacks and
    /// Digi-Egg decks, its own deck, security and Digi-Egg deck, each
    /// seat's unseen cards shuffled together and dealt back in the same
    /// numbers), and the match's generator reseeded. What the seat sees is
    /// kept as it is. For a CPU's search, never for play.
    pub fn sample_for(&self, seat: Seat, rng: &mut Rng64) -> Match {
        let mut w = self.clone();
        for s in Seat::all(w.seats.len()) {
            let z = &mut w.seats[s.index()];
            let mut unseen: Vec<Cid> = Vec::new();
            if s != seat {
                unseen.extend(z.hand.iter().copied());
            }
            unseen.extend(z.deck.iter().copied());
            unseen.extend(z.security.iter().copied());
            // In a canonical order first: the world depends only on what
            // the seat may know, never on how the hidden cards lie.
            unseen.sort_unstable();
            rng.shuffle(&mut unseen);
            let mut it = unseen.into_iter();
            if s != seat {
                for c in z.hand.iter_mut() {
                    *c = it.next().unwrap_or(*c);
                }
            }
            for c in z.deck.iter_mut().chain(z.security.iter_mut()) {
                *c = it.next().unwrap_or(*c);
            }
            // A face-up top Digi-Egg is seen (DCG-LAN-34).
            let open = if z.open_egg { z.eggs.pop() } else { None };
            z.eggs.sort_unstable();
            rng.shuffle(&mut z.eggs);
            z.eggs.extend(open);
        }
        w.rng = Rng64::new(rng.next_u64());
        w.log.clear();
        w
    }

    /// The same match but for `seat`'s hidden cards: its first hand card
    /// swapped with its deck's top card, the deck turned over (for tests
    /// that a view hides them).
    #[cfg(test)]
    pub(crate) fn with_hidden_cards_moved(&self, seat: Seat) -> Match {
        let mut b = self.clone();
        let z = &mut b.seats[seat.index()];
        if let (Some(h), Some(d)) = (z.hand.first().copied(), z.deck.last().copied()) {
            z.hand[0] = d;
            if let Some(top) = z.deck.last_mut() {
                *top = h;
            }
        }
        z.deck.reverse();
        b
    }

    /// A seed from what `seat` may see (its view), so that two matches the
    /// seat cannot tell apart give its CPU the same choice.
    pub fn view_seed(&self, seat: Seat) -> u64 {
        super::fnv1a(format!("{:?}", self.view(Some(seat))).as_bytes())
    }

    /// The attack in progress: the attacker's seat and id.
    pub fn attacking(&self) -> Option<(Seat, u16)> {
        self.procs.iter().rev().find_map(|p| match p {
            flow::Proc::Attack(a) => Some((a.seat, a.attacker)),
            _ => None,
        })
    }

    /// A fingerprint of the whole state, the same on every machine.
    pub fn state_hash(&self) -> u64 {
        let mut b = Vec::with_capacity(1024);
        for z in &self.seats {
            for part in [&z.deck, &z.eggs, &z.hand, &z.security, &z.trash] {
                b.extend(part.iter().flat_map(|c| c.to_le_bytes()));
                b.push(0xFF);
            }
            for p in z.breeding.iter().chain(&z.field) {
                b.extend(p.id.to_le_bytes());
                b.extend(p.cards.iter().flat_map(|c| c.to_le_bytes()));
                b.push(u8::from(p.suspended));
                b.extend(p.since.to_le_bytes());
            }
            b.push(0xFE);
        }
        if self.lan() {
            // The LAN format's own state (at 2 seats none of it exists, and
            // the hash is what it always was).
            for z in &self.seats {
                b.extend(z.banks.iter().copied());
                b.extend([z.target, z.mega, z.corruption, u8::from(z.defeated)]);
                b.push(u8::from(z.open_egg));
                b.extend(z.offline.iter().flat_map(|c| c.to_le_bytes()));
                b.push(0xFD);
            }
            b.push(u8::from(self.offer.is_some()));
        }
        b.extend(self.turn.to_le_bytes());
        b.push(self.turn_player.index() as u8);
        b.push(self.memory as u8);
        // What a game's end is: the zones, the gauge, whose turn, the
        // result and the generator. Work in progress counts by its size
        // only, so a replay's final hash does not move when the engine's
        // bookkeeping is reshaped.
        b.push(self.procs.len() as u8);
        b.push(self.pending.len() as u8);
        b.push(match self.outcome {
            None => 0,
            Some(Outcome::Draw) => 1,
            Some(Outcome::Win(s)) => 2 + s.index() as u8,
        });
        b.extend(self.rng.clone().next_u64().to_le_bytes());
        super::fnv1a(&b)
    }
}

impl super::Ruleset for Match {
    const ID: super::RulesetId = super::RulesetId::Dcg;
    const NAME: &'static str = "Digimon Card Game";
    const KEY: &'static str = "dcg";
    const CODE: u8 = 2;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    const BRINGS: &'static str = "deck";
    const HOUSE_PICKS: u64 = deck::EMBEDDED.len() as u64;
    const FORMATS: &'static [&'static str] = &["standard", "players"];
    const DECK: Option<super::DeckRules> = Some(deck::RULES);
    type View = View;
    type Setup = Setup;
    type SetupError = SetupError;
    type Action = Action;
    type Event = Event;
    type Ask = Ask;

    fn version(setup: &Setup) -> super::RulesVersion {
        super::RulesVersion {
            ruleset: super::RulesetId::Dcg,
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
        self.seats.len()
    }
    fn opening_events(&self) -> &[Event] {
        &self.opening
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        Match::legal_actions(self, seat)
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
        card.as_dcg().is_some()
    }
    fn setup_for(cards: Vec<Vec<CardNumber>>, seed: u64) -> Setup {
        Setup {
            decks: cards,
            seed,
            exempt: Vec::new(),
            stacked: None,
            format: Format::Standard,
            engine: ENGINE_VERSION,
        }
    }
    fn set_format(setup: &mut Setup, word: &str) -> Result<(), String> {
        setup.format = Format::from_word(word).ok_or_else(|| {
            format!("the Digimon Card Game's formats are standard and players, not \"{word}\"")
        })?;
        if setup.format == Format::Players && setup.decks.len() == 2 {
            return Err(SetupError::PlayersFormatAtTwo.to_string());
        }
        Ok(())
    }
    fn format_house_label(word: &str, pick: u64, _: &CardSet) -> Option<String> {
        (Format::from_word(word)? == Format::Players).then(|| {
            format!(
                "the {} Players Format deck",
                super::shipped_deck_name(deck::PLAYERS_EMBEDDED, pick)
            )
        })
    }
    fn format_house_cards(
        word: &str,
        seat: Seat,
        pick: u64,
        cards: &CardSet,
    ) -> Option<Vec<CardNumber>> {
        (Format::from_word(word)? == Format::Players).then(|| {
            super::shipped_deck(
                deck::PLAYERS_EMBEDDED,
                |n| deck::embedded(n, cards),
                seat,
                pick,
            )
        })
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
            "the {} starter deck",
            super::shipped_deck_name(deck::EMBEDDED, pick)
        )
    }
    fn brought_label(brought: &[CardNumber], _: &CardSet) -> String {
        format!("your deck ({} cards)", brought.len())
    }
}
