//! The Card Game Alpha: the tabletop rules of the cards bterm scans, for 2
//! to 4 players, pure Rust. The rulebook (`card-game-alpha.txt`) is the
//! authority; `docs/alpha-rules.md` lists its sentences and settles what it
//! leaves open (D1–D39, E-a–E-f), and this module follows that page.
//!
//! The shape is the Terminal Battle's: a [`Setup`] of decks and a seed
//! becomes a [`Match`]; seats answer the question the match asks now
//! ([`Match::legal_actions`]); every step is an [`Event`] that holds no
//! hidden card. [`Match::view`] is what one seat may know, and all a CPU
//! player or a presenter is given.

pub mod deck;
mod effects;
mod event;
mod flow;
mod layout;
mod moment;
mod refusal;
mod rng;
pub mod script;
mod table;
mod text;
mod view;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use deck::{DeckError, DeckFile};
pub use effects::Clash;
pub use event::{Event, Struck};
pub use layout::{BoxLaid, Laid, Layout, OptionLaid, SeatLaid};
pub use rng::Rng64;
pub use text::Ask;
pub use view::{DigimonZone, OptionZone, View, Zones};

use super::{IllegalAction, Outcome, Seat};
use crate::cards::{Attribute, BattleType, Card, CardNumber, CardSet, Digimon};
use crate::effects::Change;

/// The engine's version: bumped whenever the rules' code changes behaviour.
pub const ENGINE_VERSION: u32 = 1;
/// Points each player starts with, and the most a player may have.
pub const START_POINTS: u32 = 100;
/// Points an unblocked attack or alpha-attack takes.
pub const DAMAGE: u32 = 10;
/// A hand is filled to this many cards.
pub const HAND: usize = 6;
/// The Cost a player may play in one turn before the Burst.
pub const COST_LIMIT: u32 = 10;
/// Digimon cards (and Option cards) a player may play per turn.
pub const PLAY_LIMIT: u8 = 3;
/// The game ends after this turn if nobody has won (E-f).
pub const TURN_LIMIT: u32 = 200;

/// Everything a Card Game Alpha match starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Each seat's deck (2 to 4), card numbers top first.
    pub decks: Vec<Vec<CardNumber>>,
    /// The seed of the match's random numbers.
    pub seed: u64,
    /// Who is first to attack on turn 1; `None` flips the seeded coin (E-d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<Seat>,
    /// Whether the decks are shuffled at setup (a scripted game keeps its order).
    #[serde(default = "yes")]
    pub shuffle: bool,
    /// Starting points per seat, for a scenario (empty: 100 each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<u32>,
    /// Cards not in the card set that travel with the decks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Card>,
    /// Seats whose decks the deck rules do not hold (Level III, name
    /// limits, 32 cards: an exempt deck has at most 64), each with the
    /// written reason: a rules scenario's short Net Ocean for the Lifespan
    /// or a deck that runs out. Scripts set it; no game a person starts
    /// (`bterm alpha`, the arena, a LAN table's seats) can. A setup read
    /// from a file (a replay, an autosave) keeps what it holds, checked the
    /// same way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<(Seat, String)>,
}

fn yes() -> bool {
    true
}

impl Setup {
    /// Shuffled decks, a seed, the coin for the first seat.
    pub fn new(decks: Vec<Vec<CardNumber>>, seed: u64) -> Setup {
        Setup {
            decks,
            seed,
            first: None,
            shuffle: true,
            points: Vec::new(),
            extra: Vec::new(),
            exempt: Vec::new(),
        }
    }
}

/// The most cards an exempt deck may have (twice a Net Ocean: the cards of
/// a match are numbered in 16 bits).
pub const EXEMPT_MOST: usize = 2 * deck::DECK_SIZE;

/// Why a setup is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 4 decks.
    #[error("the Card Game Alpha is played by 2 to 4 players; {0} decks were given")]
    Seats(usize),
    /// A deck breaks the deck rules.
    #[error("{seat}'s deck is refused: {error}")]
    Deck {
        /// Whose.
        seat: Seat,
        /// Why.
        error: DeckError,
    },
    /// The first seat is not at the table.
    #[error("the first seat {0} is not at the table")]
    First(Seat),
    /// Bad starting points.
    #[error("starting points must be 1 to 100 for each of the {0} seats")]
    Points(usize),
    /// The extra cards are refused.
    #[error("the extra cards are refused: {0}")]
    ExtraCards(String),
    /// A deck exempt from the deck rules without a reason, of a seat not at
    /// the table, or of more than [`EXEMPT_MOST`] cards.
    #[error(
        "{0}'s deck is marked exempt from the deck rules {1}: give each exempt deck a seat at the table and a written reason"
    )]
    Exempt(Seat, &'static str),
}

/// A card in a match: an index into the match's table of card instances.
/// The same deck lists give the same ids on every machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u16);

impl CardId {
    /// A card whose identity the viewing seat may not know.
    pub const HIDDEN: CardId = CardId(u16::MAX);

    /// Whether the card is hidden from the viewer.
    pub fn is_hidden(self) -> bool {
        self == CardId::HIDDEN
    }
}

/// A seat's move. Cards are named by [`CardId`]; [`Match::action_text`]
/// gives the words for a person or a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Ends the current step (discards, plays, Command cards, a choice).
    Done,
    /// Discards a card from hand (the discard step, or an effect's discard).
    Discard(CardId),
    /// Discards a Digimon or Option card in play (the discard step).
    Scrap(CardId),
    /// Plays a Level III Digimon (a new Digimon) or an Option card, face down.
    Play(CardId),
    /// Places a Level IV+ card face down on a Digimon (by its top card).
    Evolve(CardId, CardId),
    /// Places a Jogress card on a Digimon, discarding the partner from hand.
    Jogress(CardId, CardId, CardId),
    /// Switches the Target Opponent (3–4 seats).
    Target(Seat),
    /// Which of the seat's equally fast Digimon acts next.
    Lead(CardId),
    /// Attacks the Target Opponent (`None`) or one of its Digimon.
    Attack(Option<CardId>),
    /// Starts an alpha-attack on the Target Opponent.
    AlphaAttack,
    /// Adds a supporter to an alpha-attack or alpha-block.
    Support(CardId),
    /// Blocks (or, against an alpha-attack, alpha-blocks) with a Digimon.
    Block(CardId),
    /// Does not block.
    NoBlock,
    /// The Digimon does nothing.
    Pass,
    /// Uses a Command card from hand in this battle.
    Command(CardId),
    /// Chooses a Digimon for an effect.
    Pick(CardId),
    /// Uses (true) or declines (false) an optional or [Action:] ability.
    Resolve(bool),
}

impl Action {
    /// The action as one number (for the running digest of the path).
    fn code(self) -> u64 {
        let id = |c: CardId| u64::from(c.0);
        let (tag, a, b, c) = match self {
            Action::Done => (0, 0, 0, 0),
            Action::Discard(x) => (1, id(x), 0, 0),
            Action::Scrap(x) => (2, id(x), 0, 0),
            Action::Play(x) => (3, id(x), 0, 0),
            Action::Evolve(x, y) => (4, id(x), id(y), 0),
            Action::Jogress(x, y, z) => (5, id(x), id(y), id(z)),
            Action::Target(s) => (6, s.index() as u64, 0, 0),
            Action::Lead(x) => (7, id(x), 0, 0),
            Action::Attack(None) => (8, 0, 0, 0),
            Action::Attack(Some(x)) => (9, id(x), 0, 0),
            Action::AlphaAttack => (10, 0, 0, 0),
            Action::Support(x) => (11, id(x), 0, 0),
            Action::Block(x) => (12, id(x), 0, 0),
            Action::NoBlock => (13, 0, 0, 0),
            Action::Pass => (14, 0, 0, 0),
            Action::Command(x) => (15, id(x), 0, 0),
            Action::Pick(x) => (16, id(x), 0, 0),
            Action::Resolve(y) => (17, u64::from(y), 0, 0),
        };
        tag | (a << 8) | (b << 24) | (c << 40)
    }
}

/// What the match waits for, and from whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Wait {
    /// The discard step of the Preparation Phase.
    Discards(Seat),
    /// Playing cards face down.
    Plays(Seat),
    /// Which of several equally fast Digimon acts first.
    Lead(Seat, u32),
    /// A Digimon's action.
    Act(Seat, CardId),
    /// Supporters for an alpha-attack.
    Supporters(Seat),
    /// Whether (and with whom) to block an attack on the player.
    Block(Seat),
    /// Whether (and with whom) to alpha-block.
    AlphaBlock(Seat),
    /// Supporters for an alpha-block (as many as the attack has).
    BlockSupporters(Seat),
    /// Command cards in a battle.
    Commands(Seat),
    /// Digimon for an effect (`min` to `max` more).
    Pick {
        seat: Seat,
        candidates: Vec<CardId>,
        chosen: Vec<CardId>,
        min: u8,
        max: u8,
    },
    /// Cards to discard for an effect (`left` more, from the seat's hand).
    DiscardFor { seat: Seat, left: u8 },
    /// Whether to use an optional or [Action:] ability.
    Confirm(Seat),
}

impl Wait {
    fn seat(&self) -> Seat {
        match *self {
            Wait::Discards(s)
            | Wait::Plays(s)
            | Wait::Lead(s, _)
            | Wait::Act(s, _)
            | Wait::Supporters(s)
            | Wait::Block(s)
            | Wait::AlphaBlock(s)
            | Wait::BlockSupporters(s)
            | Wait::Commands(s)
            | Wait::Confirm(s) => s,
            Wait::Pick { seat, .. } | Wait::DiscardFor { seat, .. } => seat,
        }
    }
}

/// Modifiers on a Digimon (for a battle or a turn).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Mods {
    power: Vec<Change>,
    hp: Vec<Change>,
    speed: Vec<Change>,
    /// Techniques set to 0 (A, B, C).
    zero: [bool; 3],
    attribute: Option<Attribute>,
    battle_type: Option<BattleType>,
    negated: bool,
    /// Deletions this Digimon is saved from.
    shield: u8,
}

/// A card placed face down on a Digimon for evolution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Placed {
    card: CardId,
    /// The Jogress partner discarded from hand.
    partner: Option<CardId>,
}

/// A Digimon in a Digimon Box (or a Level III played face down).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Mon {
    card: CardId,
    /// Played this Preparation Phase, not yet revealed.
    down: bool,
    /// Played this turn (a Burst with a short Net Ocean takes it back).
    fresh: bool,
    stack: Vec<Placed>,
    tapped: bool,
    acted: bool,
    /// Modifiers for this turn (they stay through evolution, D33).
    mods: Mods,
}

/// An Option card in the Option Slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Opt {
    card: CardId,
    down: bool,
    fresh: bool,
    tapped: bool,
}

/// One player's side of the table.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SeatState {
    points: u32,
    alive: bool,
    target: Seat,
    ocean: Vec<CardId>,
    hand: Vec<CardId>,
    dark: Vec<CardId>,
    /// Removed from the game (deleted, or a leaver's cards).
    gone: Vec<CardId>,
    digimon: Vec<Mon>,
    options: Vec<Opt>,
    played_digimon: u8,
    played_options: u8,
    played_cost: u32,
    lifespan: bool,
    /// A deletion emptied the Box (D12).
    wiped: bool,
}

impl Clone for SeatState {
    /// A copy whose card lists have room to grow (a search copies a match
    /// for every simulation, and each would grow them again card by card).
    fn clone(&self) -> SeatState {
        let roomy = |v: &Vec<CardId>| {
            let mut c = Vec::with_capacity(v.len().max(ROOM));
            c.extend_from_slice(v);
            c
        };
        SeatState {
            points: self.points,
            alive: self.alive,
            target: self.target,
            ocean: roomy(&self.ocean),
            hand: roomy(&self.hand),
            dark: roomy(&self.dark),
            gone: roomy(&self.gone),
            digimon: self.digimon.clone(),
            options: self.options.clone(),
            played_digimon: self.played_digimon,
            played_options: self.played_options,
            played_cost: self.played_cost,
            lifespan: self.lifespan,
            wiped: self.wiped,
        }
    }
}

/// Room a copied card list is given (a deck's worth).
const ROOM: usize = 32;

/// One side of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Side {
    seat: Seat,
    main: Option<CardId>,
    support: Vec<CardId>,
    commands: Vec<CardId>,
    power: u32,
    won: bool,
    lost: bool,
    deleted: bool,
}

/// The attack under way: side 0 attacks, side 1 defends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Battle {
    sides: [Side; 2],
    alpha: bool,
    /// The defender chose to block (the blocker taps if it loses).
    blocked: bool,
    /// Supporters an alpha-block needs.
    need: u8,
    /// Modifiers that last for this battle, per Digimon.
    mods: Vec<(CardId, Mods)>,
}

/// Where an ability is and whom it works for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Ctx {
    /// The ability's controller.
    seat: Seat,
    /// The card that has the ability.
    card: CardId,
    /// Which of its abilities.
    index: u8,
    /// "This Digimon": the card's Digimon, or the battling Digimon an
    /// Option or Command is used for.
    this: Option<CardId>,
    /// Modifiers last for the battle (true) or the turn.
    battle: bool,
}

/// What is left to do, in order (the last is next).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Step {
    TurnStart,
    Prep(Seat),
    PrepDraw(Seat),
    PrepAbilities(Seat),
    Evolution,
    NextActor,
    /// Offers a block on an attack on the player, or deals the damage.
    BlockOrDamage,
    BattleStart,
    Commands(u8),
    Outcome,
    Delete(u8),
    Tapping,
    AfterBattle,
    EndAction(CardId),
    EndOfTurn,
    TurnEnd,
    BattlePhase,
    /// Resolves an ability's effects from `next`; `stage` 0: not yet
    /// offered, 1: accepted, 2: conditions checked and under way.
    Fire {
        ctx: Ctx,
        next: u8,
        stage: u8,
    },
}

/// A Card Game Alpha match in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The card definitions the decks use.
    defs: table::Defs,
    /// Each card instance: its definition and its owner.
    ids: Arc<[(u16, Seat)]>,
    seats: Vec<SeatState>,
    turn: u32,
    /// This turn's order, first to attack first (living seats).
    order: Vec<Seat>,
    steps: Vec<Step>,
    wait: Option<Wait>,
    battle: Option<Battle>,
    /// Ability uses: card, ability, this turn, this game.
    uses: Vec<(CardId, u8, u8, u8)>,
    rng: Rng64,
    outcome: Option<Outcome>,
    opening: Vec<Event>,
    actions: u32,
    history: u64,
    /// A Digimon whose alpha-attack was called off before it was declared:
    /// it is not offered again in this action (so no player, and no CPU,
    /// can call one off for ever). Left out of the state while empty, so a
    /// game that never calls one off hashes as it did before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    called_off: Option<CardId>,
    /// Events of the step under way.
    #[serde(skip)]
    log: Vec<Event>,
    /// What is not the game's state: neither serialised nor compared.
    #[serde(skip)]
    scratch: Scratch,
}

/// What a match keeps beside its state: the waiting seat's legal actions
/// (worked out once after each step; a match read back from a file works
/// them out again when asked), and whether events are kept. Neither is
/// serialised nor compared, so a match read back equals the one written.
#[derive(Debug, Clone, Default)]
struct Scratch {
    legal: Option<Vec<Action>>,
    quiet: bool,
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Scratch) -> bool {
        true
    }
}

impl Eq for Scratch {}

impl Match {
    /// Checks a setup against the card set and starts the match: decks
    /// checked, shuffled, hands drawn (with the Level III redraw), turn 1's
    /// Preparation Phase begun.
    pub fn from_setup(setup: &Setup, cards: &CardSet) -> Result<Match, SetupError> {
        let n = setup.decks.len();
        if !(2..=4).contains(&n) {
            return Err(SetupError::Seats(n));
        }
        let cards = cards
            .extended(&setup.extra)
            .map_err(SetupError::ExtraCards)?;
        let cards = cards.as_ref();
        for (seat, why) in &setup.exempt {
            if seat.index() >= n {
                return Err(SetupError::Exempt(
                    *seat,
                    "but the seat is not at the table",
                ));
            }
            if why.trim().is_empty() {
                return Err(SetupError::Exempt(*seat, "with no reason"));
            }
            if setup.decks[seat.index()].len() > EXEMPT_MOST {
                return Err(SetupError::Exempt(*seat, "with more than 64 cards"));
            }
        }
        for (i, deck) in setup.decks.iter().enumerate() {
            let seat = Seat::new(i).unwrap_or(Seat::P1);
            let checked = if setup.exempt.iter().any(|(s, _)| *s == seat) {
                // Every card is still a card of the set.
                match deck.iter().position(|c| cards.get(c).is_none()) {
                    Some(at) => Err(DeckError::UnknownCard {
                        line: at + 1,
                        message: format!("no card numbered {} in the card set", deck[at]),
                    }),
                    None => Ok(()),
                }
            } else {
                deck::check(deck, cards)
            };
            checked.map_err(|error| SetupError::Deck { seat, error })?;
        }
        if !setup.points.is_empty()
            && (setup.points.len() != n || setup.points.iter().any(|&p| p == 0 || p > 100))
        {
            return Err(SetupError::Points(n));
        }
        let mut defs: Vec<Card> = Vec::new();
        let mut ids = Vec::new();
        let mut seats = Vec::with_capacity(n);
        for (i, deck) in setup.decks.iter().enumerate() {
            let seat = Seat::new(i).unwrap_or(Seat::P1);
            let mut ocean = Vec::with_capacity(deck.len());
            for number in deck {
                let def = match defs.iter().position(|c| c.number() == *number) {
                    Some(d) => d,
                    None => {
                        // Checked above: every number is in the set.
                        let Some(card) = cards.get(number) else {
                            continue;
                        };
                        defs.push(card.clone());
                        defs.len() - 1
                    }
                };
                ocean.push(CardId(ids.len() as u16));
                ids.push((def as u16, seat));
            }
            seats.push(SeatState {
                points: setup.points.get(i).copied().unwrap_or(START_POINTS),
                alive: true,
                target: Seat::new((i + 1) % n).unwrap_or(Seat::P1),
                ocean,
                hand: Vec::new(),
                dark: Vec::new(),
                gone: Vec::new(),
                digimon: Vec::new(),
                options: Vec::new(),
                played_digimon: 0,
                played_options: 0,
                played_cost: 0,
                lifespan: false,
                wiped: false,
            });
        }
        let mut rng = Rng64::new(setup.seed);
        let first = match setup.first {
            Some(s) if s.index() < n => s,
            Some(s) => return Err(SetupError::First(s)),
            None => Seat::new(rng.below(n)).unwrap_or(Seat::P1),
        };
        let mut m = Match {
            defs: table::Defs::new(defs),
            ids: ids.into(),
            seats,
            turn: 0,
            order: (0..n)
                .filter_map(|k| Seat::new((first.index() + k) % n))
                .collect(),
            steps: Vec::new(),
            wait: None,
            battle: None,
            uses: Vec::new(),
            rng,
            outcome: None,
            opening: Vec::new(),
            actions: 0,
            history: 0,
            called_off: None,
            log: Vec::new(),
            scratch: Scratch::default(),
        };
        // D10: fewest points first (a script may start a seat lower); the
        // coin (or `first`) breaks the tie of the usual 100 each.
        let lead = m
            .order
            .iter()
            .copied()
            .min_by_key(|&s| m.points(s))
            .unwrap_or(first);
        m.emit(Event::FirstToAttack(lead));
        m.setup_hands(setup.shuffle);
        m.steps.push(Step::TurnStart);
        m.advance();
        m.relist();
        m.opening = std::mem::take(&mut m.log);
        Ok(m)
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.seats.len()
    }

    /// What happened before the first action.
    pub fn opening_events(&self) -> &[Event] {
        &self.opening
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The turn (1-based; 0 before turn 1).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// A seat's points.
    pub fn points(&self, seat: Seat) -> u32 {
        self.seat(seat).map_or(0, |s| s.points)
    }

    /// Whether a seat is still in the game.
    pub fn alive(&self, seat: Seat) -> bool {
        self.seat(seat).is_some_and(|s| s.alive)
    }

    /// A seat's Target Opponent.
    pub fn target(&self, seat: Seat) -> Seat {
        self.seat(seat).map_or(seat, |s| s.target)
    }

    /// This turn's order, first to attack first.
    pub fn order(&self) -> &[Seat] {
        &self.order
    }

    /// Whose question is open, if any.
    pub fn waiting_for(&self) -> Option<Seat> {
        self.wait.as_ref().map(Wait::seat)
    }

    /// The card an id stands for (`None` for a hidden or unknown id).
    pub fn card(&self, id: CardId) -> Option<&Card> {
        let &(def, _) = self.ids.get(usize::from(id.0))?;
        self.defs.card(def)
    }

    /// What the rules read of a card, worked out once per definition.
    fn info(&self, id: CardId) -> Option<&table::Info> {
        let &(def, _) = self.ids.get(usize::from(id.0))?;
        self.defs.info(def)
    }

    /// Each seat's cards by number, in id order: the deck lists (in a
    /// view, only the cards it may name: its seat's own, and those shown).
    pub fn deck_lists(&self) -> Vec<Vec<CardNumber>> {
        let mut lists = vec![Vec::new(); self.seats.len()];
        for &(def, seat) in self.ids.iter() {
            if let (Some(card), Some(list)) = (self.defs.card(def), lists.get_mut(seat.index())) {
                list.push(card.number());
            }
        }
        lists
    }

    /// A view's forgetting (issue 41): the cards `seat` (`None`: a
    /// spectator) may not see and did not bring lose their definitions, and
    /// the definitions only they used leave the view, so the view names no
    /// card of another deck before it is shown.
    pub(super) fn forget_unseen(&mut self, visible: &[bool], seat: Option<Seat>) {
        let mut kept: Vec<u16> = Vec::new();
        let ids: Vec<(u16, Seat)> = self
            .ids
            .iter()
            .enumerate()
            .map(|(i, &(def, owner))| {
                if visible.get(i).copied().unwrap_or(false) || seat == Some(owner) {
                    let at = kept.iter().position(|&k| k == def).unwrap_or_else(|| {
                        kept.push(def);
                        kept.len() - 1
                    });
                    (at as u16, owner)
                } else {
                    (view::UNSEEN_DEF, owner)
                }
            })
            .collect();
        let cards = kept
            .iter()
            .filter_map(|&d| self.defs.card(d).cloned())
            .collect();
        self.defs = table::Defs::new(cards);
        self.ids = ids.into();
    }

    /// The card's number, if the id is known.
    pub fn number(&self, id: CardId) -> Option<CardNumber> {
        self.card(id).map(Card::number)
    }

    /// Whether two ids are copies of one card (the same definition).
    fn same_card(&self, a: CardId, b: CardId) -> bool {
        let def = |id: CardId| self.ids.get(usize::from(id.0)).map(|&(d, _)| d);
        matches!((def(a), def(b)), (Some(x), Some(y)) if x == y)
    }

    /// Who owns a card.
    pub fn owner(&self, id: CardId) -> Option<Seat> {
        self.ids.get(usize::from(id.0)).map(|&(_, s)| s)
    }

    /// A fingerprint of the whole state, the same on every machine.
    pub fn state_hash(&self) -> u64 {
        match serde_json::to_vec(self) {
            Ok(bytes) => crate::rules::fnv1a(&bytes),
            Err(e) => crate::rules::fnv1a(format!("{e:?}{self:?}").as_bytes()),
        }
    }

    /// Applies an action; an illegal one changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction {
                seat,
                reason: "the game is over".to_string(),
            });
        }
        let legal = match &self.scratch.legal {
            Some(list) if self.waiting_for() == Some(seat) => list.contains(&action),
            _ => self.list_actions(seat).contains(&action),
        };
        if !legal {
            return Err(IllegalAction {
                seat,
                reason: self.why_not(seat, action),
            });
        }
        self.log = if self.scratch.quiet {
            Vec::new()
        } else {
            Vec::with_capacity(8)
        };
        self.act(seat, action);
        self.advance();
        self.relist();
        self.actions += 1;
        let word = action.code() ^ ((seat.index() as u64) << 60);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.history.to_le_bytes());
        bytes[8..].copy_from_slice(&word.to_le_bytes());
        self.history = crate::rules::fnv1a(&bytes);
        Ok(std::mem::take(&mut self.log))
    }

    /// Every action `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        // Only the waiting seat has anything to do.
        if self.waiting_for() == Some(seat) {
            self.legal().into_owned()
        } else {
            Vec::new()
        }
    }

    /// The waiting seat's legal actions, without a copy when they are
    /// already worked out (as they are after every step); empty when
    /// nobody is asked.
    pub fn legal(&self) -> std::borrow::Cow<'_, [Action]> {
        match (&self.scratch.legal, self.waiting_for()) {
            (Some(list), Some(_)) => std::borrow::Cow::Borrowed(list),
            (_, Some(seat)) => std::borrow::Cow::Owned(self.list_actions(seat)),
            (_, None) => std::borrow::Cow::Borrowed(&[]),
        }
    }

    /// Works out the waiting seat's legal actions again (after the state
    /// changed).
    fn relist(&mut self) {
        let mut list = self.scratch.legal.take().unwrap_or_default();
        list.clear();
        if let Some(w) = &self.wait {
            self.list_actions_into(w.seat(), &mut list);
            self.scratch.legal = Some(list);
        }
    }

    /// Keeps no events from now on (`apply` returns none): for a search's
    /// simulations, which only need where the game goes.
    pub fn set_quiet(&mut self, quiet: bool) {
        self.scratch.quiet = quiet;
    }

    /// Forgets the listed actions (after hidden cards were masked or
    /// dealt).
    fn unlist(&mut self) {
        self.scratch.legal = None;
    }

    fn seat(&self, seat: Seat) -> Option<&SeatState> {
        self.seats.get(seat.index())
    }

    fn st(&mut self, seat: Seat) -> &mut SeatState {
        &mut self.seats[seat.index()]
    }

    fn emit(&mut self, e: Event) {
        if !self.scratch.quiet {
            self.log.push(e);
        }
    }

    /// Emits an event that takes work to build (a list of cards), building
    /// it only when events are kept.
    fn emit_with(&mut self, event: impl FnOnce(&Match) -> Event) {
        if !self.scratch.quiet {
            let e = event(self);
            self.log.push(e);
        }
    }

    fn def(&self, id: CardId) -> Option<&Digimon> {
        self.card(id).and_then(Card::as_digimon)
    }

    fn cost(&self, id: CardId) -> u32 {
        self.info(id).map_or(0, |i| i.cost)
    }

    fn living(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive)
            .filter_map(|(i, _)| Seat::new(i))
    }

    /// Finds a face-up or face-down Digimon by its top card.
    fn mon(&self, id: CardId) -> Option<(Seat, usize)> {
        self.seats.iter().enumerate().find_map(|(i, s)| {
            s.digimon
                .iter()
                .position(|m| m.card == id)
                .and_then(|k| Some((Seat::new(i)?, k)))
        })
    }

    fn mon_ref(&self, id: CardId) -> Option<&Mon> {
        let (s, k) = self.mon(id)?;
        self.seats[s.index()].digimon.get(k)
    }

    fn mon_mut(&mut self, id: CardId) -> Option<&mut Mon> {
        let (s, k) = self.mon(id)?;
        self.seats[s.index()].digimon.get_mut(k)
    }

    /// A face-up Digimon (in a Box, revealed).
    fn is_up(&self, id: CardId) -> bool {
        self.mon_ref(id).is_some_and(|m| !m.down)
    }
}

/// Who is `seat`'s opponent for `id`-less questions: in a battle, the
/// other side; otherwise its Target Opponent.
impl Match {
    fn opponent(&self, seat: Seat) -> Seat {
        if let Some(b) = &self.battle {
            if b.sides[0].seat == seat {
                return b.sides[1].seat;
            }
            if b.sides[1].seat == seat {
                return b.sides[0].seat;
            }
        }
        self.target(seat)
    }
}

impl super::Ruleset for Match {
    const ID: super::RulesetId = super::RulesetId::Alpha;
    const NAME: &'static str = "Card Game Alpha";
    const KEY: &'static str = "alpha";
    const CODE: u8 = 1;
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    const BRINGS: &'static str = "deck";
    /// The shipped decks.
    const HOUSE_PICKS: u64 = deck::EMBEDDED.len() as u64;
    const DECK: Option<super::DeckRules> = Some(deck::RULES);
    type View = View;
    type Setup = Setup;
    type SetupError = SetupError;
    type Action = Action;
    type Event = Event;
    type Ask = text::Ask;

    fn version(_: &Setup) -> super::RulesVersion {
        super::RulesVersion {
            ruleset: super::RulesetId::Alpha,
            engine: ENGINE_VERSION,
            tunables: 1,
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
        _cards: &CardSet,
    ) -> Option<super::Question<text::Ask, Action>> {
        self.question(seat)
    }
    fn refusal(&self, seat: Seat, typed: &str, _cards: &CardSet) -> Option<String> {
        Match::refusal(self, seat, typed)
    }
    fn refusals(&self, seat: Seat, _cards: &CardSet) -> Vec<(String, String)> {
        Match::refusals(self, seat)
    }
    fn describe(event: &Event, cards: &CardSet) -> String {
        event::describe(event, cards)
    }

    fn setup_for(cards: Vec<Vec<CardNumber>>, seed: u64) -> Setup {
        Setup::new(cards, seed)
    }

    fn seat_view(&self, seat: Option<Seat>) -> View {
        match seat {
            Some(s) => self.view(s),
            None => self.spectator_view(),
        }
    }

    fn check_view(view: &View) -> Result<(), String> {
        view.well_formed()
    }

    fn view_lines(view: &View, _: &CardSet) -> Vec<String> {
        view.table_lines()
    }

    /// A shipped deck, picked by `pick` and the seat.
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
        format!("your scanned deck ({} cards)", brought.len())
    }
}
