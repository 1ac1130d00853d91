//! Pure game rules, one module per ruleset, all in one shape (the
//! [`Ruleset`] trait): `Setup` (plain serde data) → `from_setup` →
//! `Result`; a small `Copy` `Action`; `legal_actions(seat)`, `apply` →
//! `Result<Vec<Event>, IllegalAction>` (an illegal action changes nothing),
//! `outcome`, and the [`Question`] a seat must answer now. The rules know
//! nothing of who plays a seat, of CPU players or of screens.

pub mod alpha;
pub mod clash;
pub mod dcg;
pub mod script;
pub mod terminal;

use std::fmt;
use std::ops::RangeInclusive;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cards::{CardNumber, CardSet};
pub use crate::fingerprint::fnv1a;

/// A seat at the table, 0-based, named P1, P2, … for people. A ruleset
/// says how many seats it has; the Terminal Battle has two.
///
/// Its `Debug` stays `Seat(0)`: the CPUs seed their choices from a view's
/// `Debug` words, so changing it changes every CPU game. A script's
/// failed expectation writes seats as a script does through
/// [`script::seats_as_written`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "SeatName", into = "SeatName")]
pub struct Seat(u8);

impl Seat {
    /// The most seats any ruleset may have.
    pub const MAX: usize = 8;
    /// The first seat.
    pub const P1: Seat = Seat(0);
    /// The second seat.
    pub const P2: Seat = Seat(1);

    /// The seat with this 0-based index, if there can be one.
    pub fn new(index: usize) -> Option<Seat> {
        (index < Seat::MAX).then_some(Seat(index as u8))
    }

    /// The 0-based index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The first `n` seats, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n.min(Seat::MAX)).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// Why a typed seat is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown seat \"{0}\": seats are P1 to P8 (or 1 to 8)")]
pub struct ParseSeatError(String);

impl std::str::FromStr for Seat {
    type Err = ParseSeatError;
    fn from_str(s: &str) -> Result<Seat, ParseSeatError> {
        let t = s.trim();
        let digits = t.strip_prefix(['P', 'p']).unwrap_or(t);
        digits
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(Seat::new)
            .ok_or_else(|| ParseSeatError(s.to_string()))
    }
}

/// How a seat is written in files: `P1`, `P2`, … (the two-seat Terminal
/// Battle's replays wrote the same words before seats were numbered, so
/// they still read).
#[derive(Clone, Copy, Serialize, Deserialize)]
enum SeatName {
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    P7,
    P8,
}

impl From<Seat> for SeatName {
    fn from(s: Seat) -> SeatName {
        [
            SeatName::P1,
            SeatName::P2,
            SeatName::P3,
            SeatName::P4,
            SeatName::P5,
            SeatName::P6,
            SeatName::P7,
            SeatName::P8,
        ][s.index().min(Seat::MAX - 1)]
    }
}

impl TryFrom<SeatName> for Seat {
    type Error = ParseSeatError;
    fn try_from(n: SeatName) -> Result<Seat, ParseSeatError> {
        Ok(Seat(n as u8))
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One seat won.
    Win(Seat),
    /// Nobody won.
    Draw,
}

/// An action that the rules refuse; the game is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{seat} cannot do that now: {reason}")]
pub struct IllegalAction {
    /// Who tried.
    pub seat: Seat,
    /// Why not.
    pub reason: String,
}

/// Every ruleset bterm plays, registered once: the variant files name it
/// by, and its type. `registered!(then!(…))` calls the macro `then` with
/// its own tokens and then the list, so each layer makes its own dispatch from it with the trait its
/// work needs ([`dispatch`] here for [`Ruleset`]; the CPU players', the
/// LAN's and each front end's presenters' further up). Adding a ruleset
/// is one line here; the compiler then names every trait it still lacks.
macro_rules! registered {
    ($then:ident ! ($($pre:tt)*)) => {
        $then! {
            $($pre)*
            /// The arcade Terminal Battle.
            Terminal => $crate::rules::terminal::Match,
            /// The tabletop Card Game Alpha.
            Alpha => $crate::rules::alpha::Match,
            /// The Digimon Card Game (2020 onward).
            Dcg => $crate::rules::dcg::Match,
            /// Alpha Clash (Rising Empire Studios, basic rulebook 2.0).
            Clash => $crate::rules::clash::Match,
        }
    };
}
pub(crate) use registered;

/// Makes a `dispatch` function for a visitor trait, as visible as the
/// trait: `registered!(make_dispatch!(pub Trait;))`.
macro_rules! make_dispatch {
    ($vis:vis $visitor:path; $($(#[$doc:meta])* $id:ident => $ty:ty),+ $(,)?) => {
        /// Calls the visitor with the type of the ruleset `id` names.
        $vis fn dispatch<V: $visitor>(id: $crate::rules::RulesetId, visitor: V) -> V::Output {
            match id {
                $($crate::rules::RulesetId::$id => visitor.visit::<$ty>()),+
            }
        }
    };
}
pub(crate) use make_dispatch;

macro_rules! make_ids {
    ($($(#[$doc:meta])* $id:ident => $ty:ty),+ $(,)?) => {
        /// The rulesets bterm plays, as a replay file names them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum RulesetId {
            $($(#[$doc])* $id),+
        }

        impl RulesetId {
            /// Every ruleset, in the order they were registered.
            pub const ALL: &'static [RulesetId] = &[$(RulesetId::$id),+];
        }

        /// Calls the visitor with the type of the ruleset `id` names.
        pub fn dispatch<V: RulesetVisitor>(id: RulesetId, visitor: V) -> V::Output {
            match id {
                $(RulesetId::$id => visitor.visit::<$ty>()),+
            }
        }
    };
}

registered!(make_ids!());

/// A ruleset's facts, read through its id (for code that holds an id, not
/// a type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// Its id.
    pub id: RulesetId,
    /// Its name as people read it.
    pub name: &'static str,
    /// The word that names it on a command line.
    pub key: &'static str,
    /// The byte that names it in a battle card's code.
    pub code: u8,
    /// How many seats a table may have.
    pub seats: RangeInclusive<usize>,
    /// What a seat brings, in words.
    pub brings: &'static str,
    /// How many house choices there are.
    pub house_picks: u64,
    /// The formats a table may choose, the standard one first.
    pub formats: &'static [&'static str],
}

struct FactsOf;

impl RulesetVisitor for FactsOf {
    type Output = Facts;
    fn visit<R: Ruleset>(self) -> Facts {
        Facts {
            id: R::ID,
            name: R::NAME,
            key: R::KEY,
            code: R::CODE,
            seats: R::SEATS,
            brings: R::BRINGS,
            house_picks: R::HOUSE_PICKS,
            formats: R::FORMATS,
        }
    }
}

impl RulesetId {
    /// The ruleset's facts.
    pub fn facts(self) -> Facts {
        dispatch(self, FactsOf)
    }

    /// Its name as people read it ("Card Game Alpha").
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The word that names it on a command line ("alpha").
    pub fn key(self) -> &'static str {
        self.facts().key
    }

    /// The ruleset a typed word names: its key, its name or the word files
    /// use, in any case.
    pub fn from_key(word: &str) -> Option<RulesetId> {
        let w = word.trim();
        RulesetId::ALL.iter().copied().find(|id| {
            let f = id.facts();
            f.key.eq_ignore_ascii_case(w)
                || f.name.eq_ignore_ascii_case(w)
                || format!("{id:?}").eq_ignore_ascii_case(w)
        })
    }

    /// The ruleset a battle card's code byte names.
    pub fn from_code(byte: u8) -> Option<RulesetId> {
        RulesetId::ALL
            .iter()
            .copied()
            .find(|id| id.facts().code == byte)
    }

    /// The cards a seat plays when its player brings none
    /// ([`Ruleset::house_cards`]).
    pub fn house_cards(self, seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
        struct House<'a>(Seat, u64, &'a CardSet);
        impl RulesetVisitor for House<'_> {
            type Output = Vec<CardNumber>;
            fn visit<R: Ruleset>(self) -> Vec<CardNumber> {
                R::house_cards(self.0, self.1, self.2)
            }
        }
        dispatch(self, House(seat, pick, cards))
    }

    /// Its deck rules, when its seats bring decks ([`Ruleset::DECK`]).
    pub fn deck_rules(self) -> Option<DeckRules> {
        struct Deck;
        impl RulesetVisitor for Deck {
            type Output = Option<DeckRules>;
            fn visit<R: Ruleset>(self) -> Option<DeckRules> {
                R::DECK
            }
        }
        dispatch(self, Deck)
    }

    /// The house deck `pick` of a format, the same whatever the seat (a
    /// setup screen's "P3 deck: …").
    pub fn house_deck(self, format: &str, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
        self.house_cards_in(format, Seat::P1, pick, cards)
    }

    /// The cards a house seat plays at a table of `format`
    /// ([`Ruleset::format_house_cards`], else [`Ruleset::house_cards`]).
    pub fn house_cards_in(
        self,
        format: &str,
        seat: Seat,
        pick: u64,
        cards: &CardSet,
    ) -> Vec<CardNumber> {
        struct House<'a>(&'a str, Seat, u64, &'a CardSet);
        impl RulesetVisitor for House<'_> {
            type Output = Vec<CardNumber>;
            fn visit<R: Ruleset>(self) -> Vec<CardNumber> {
                R::format_house_cards(self.0, self.1, self.2, self.3)
                    .unwrap_or_else(|| R::house_cards(self.1, self.2, self.3))
            }
        }
        dispatch(self, House(format, seat, pick, cards))
    }

    /// The house deck `pick` of a format in a few words.
    pub fn house_deck_label(self, format: &str, pick: u64, cards: &CardSet) -> String {
        struct Label<'a>(&'a str, u64, &'a CardSet);
        impl RulesetVisitor for Label<'_> {
            type Output = String;
            fn visit<R: Ruleset>(self) -> String {
                R::format_house_label(self.0, self.1, self.2)
                    .unwrap_or_else(|| R::house_label(self.1, self.2))
            }
        }
        dispatch(self, Label(format, pick, cards))
    }

    /// The house choice `pick` in a few words ([`Ruleset::house_label`]).
    pub fn house_label(self, pick: u64, cards: &CardSet) -> String {
        struct Label<'a>(u64, &'a CardSet);
        impl RulesetVisitor for Label<'_> {
            type Output = String;
            fn visit<R: Ruleset>(self) -> String {
                R::house_label(self.0, self.1)
            }
        }
        dispatch(self, Label(pick, cards))
    }

    /// Cards a player brought in a few words ([`Ruleset::brought_label`]).
    pub fn brought_label(self, brought: &[CardNumber], cards: &CardSet) -> String {
        struct Label<'a>(&'a [CardNumber], &'a CardSet);
        impl RulesetVisitor for Label<'_> {
            type Output = String;
            fn visit<R: Ruleset>(self) -> String {
                R::brought_label(self.0, self.1)
            }
        }
        dispatch(self, Label(brought, cards))
    }

    /// The next ruleset in the registry's order, the first after the last
    /// (a screen's "change the game").
    pub fn next(self) -> RulesetId {
        let at = RulesetId::ALL
            .iter()
            .position(|&id| id == self)
            .unwrap_or(0);
        RulesetId::ALL[(at + 1) % RulesetId::ALL.len()]
    }

    /// Every ruleset's key, for a message ("terminal, alpha").
    pub fn keys() -> String {
        RulesetId::ALL
            .iter()
            .map(|id| id.key())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a typed word names no ruleset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game \"{word}\": the games are {known}")]
pub struct ParseRulesetError {
    /// What was typed.
    pub word: String,
    /// The games there are.
    pub known: String,
}

impl std::str::FromStr for RulesetId {
    type Err = ParseRulesetError;
    fn from_str(s: &str) -> Result<RulesetId, ParseRulesetError> {
        RulesetId::from_key(s).ok_or_else(|| ParseRulesetError {
            word: s.to_string(),
            known: RulesetId::keys(),
        })
    }
}

/// Which rules, in which version, a game was played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesVersion {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// The engine's code version.
    pub engine: u32,
    /// The version of the ruleset's numbers (its tunables).
    pub tunables: u32,
}

impl fmt::Display for RulesVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} rules, engine {} with tunables {}",
            self.ruleset, self.engine, self.tunables
        )
    }
}

/// What a seat is asked now: the ruleset's kind of question, its legal
/// answers, and what happens when nobody answers in time. Every front end
/// (the text battle, the arena, a LAN host) asks this same question and
/// applies this same default.
#[derive(Debug, Clone, PartialEq)]
pub struct Question<Ask, Action> {
    /// Which question, in the ruleset's own words (a stance, an evolution…).
    pub ask: Ask,
    /// The legal answers.
    pub answers: Vec<Action>,
    /// How long a person has to answer, in seconds.
    pub seconds: f32,
    /// The answer when the time runs out; `None` when no answer passes the
    /// question (an offer that may be declined).
    pub on_timeout: Option<Action>,
    /// The question and its answers for a person at a terminal.
    pub prompt: Prompt<Action>,
}

/// A question in plain words, with the keys that answer it.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt<Action> {
    /// Lines to show before the question (the choices explained).
    pub lines: Vec<String>,
    /// The question itself.
    pub text: String,
    /// Each accepted key (lowercase, no spaces) and what it answers.
    pub keys: Vec<(String, Reply<Action>)>,
}

/// An answer to a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply<Action> {
    /// Take this action.
    Act(Action),
    /// Decline an offer (only where the question may be passed).
    Pass,
}

impl<Ask, Action: Copy + PartialEq> Question<Ask, Action> {
    /// The one answer there is, when it is also what the question takes
    /// once its time runs out: nothing is left to decide (a priority with
    /// nothing to respond with), so a terminal takes it without stopping.
    pub fn only_answer(&self) -> Option<Action> {
        only_answer(&self.answers, self.on_timeout)
    }
}

/// The one answer of `answers` when it is also the default `on_timeout`
/// ([`Question::only_answer`]; a LAN question asks the same).
pub fn only_answer<Action: Copy + PartialEq>(
    answers: &[Action],
    on_timeout: Option<Action>,
) -> Option<Action> {
    match (answers, on_timeout) {
        ([a], Some(d)) if *a == d => Some(d),
        _ => None,
    }
}

impl<Action: Copy> Prompt<Action> {
    /// The words the prompt lists for its first answer (`"  1. pass"` reads
    /// `"pass"`), if it lists them so.
    pub fn first_words(&self) -> Option<&str> {
        self.lines
            .iter()
            .find_map(|l| l.trim_start().strip_prefix("1. "))
            .map(str::trim)
    }

    /// The reply a typed line stands for, if any (case and spaces ignored).
    pub fn reply(&self, typed: &str) -> Option<Reply<Action>> {
        let key = Self::key(typed);
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
    }

    /// Words as a key: lowercase, no spaces (as [`Prompt::reply`] reads a
    /// typed line).
    pub fn key(words: &str) -> String {
        words
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    }

    /// Adds `words` as a key for `reply`, unless an earlier answer has it.
    pub fn add_key(keys: &mut Vec<(String, Reply<Action>)>, words: &str, reply: Reply<Action>) {
        let key = Self::key(words);
        if !keys.iter().any(|(k, _)| *k == key) {
            keys.push((key, reply));
        }
    }
}

/// A card game's deck rules as a deck is built card by card (a deck
/// screen): each card is checked as it comes, the whole deck at the end,
/// each refusal in the rules' own words.
#[derive(Debug, Clone, Copy)]
pub struct DeckRules {
    /// The deck in a few words ("32 cards").
    pub size: &'static str,
    /// Whether a card may join the deck so far.
    pub may_add: fn(&[CardNumber], &crate::cards::Card, &CardSet) -> Result<(), String>,
    /// Whether a deck is full (no card may join it any more).
    pub full: fn(&[CardNumber], &CardSet) -> bool,
    /// How many more cards a deck needs at least.
    pub left: fn(&[CardNumber], &CardSet) -> usize,
    /// Whether a deck passes every deck rule.
    pub check: fn(&[CardNumber], &CardSet) -> Result<(), String>,
    /// How far a deck is, in a few words ("14 of 32 cards").
    pub count: fn(&[CardNumber], &CardSet) -> String,
}

/// The shape every ruleset has, so the session layer, CPU players, replays
/// and front ends work with any of them.
pub trait Ruleset: Clone + Sized + 'static {
    /// Which ruleset this is, as files name it.
    const ID: RulesetId;
    /// Its name as people read it ("Card Game Alpha").
    const NAME: &'static str;
    /// The one word that names it on a command line ("alpha"). Files, the
    /// LAN and scripts name it by its `RulesetId` variant (`Alpha`).
    const KEY: &'static str;
    /// The byte that names it in a battle card's code (never reused).
    const CODE: u8;
    /// How many seats a table of this ruleset may have.
    const SEATS: RangeInclusive<usize>;
    /// What a seat brings, in words ("team", "deck").
    const BRINGS: &'static str;
    /// How many house choices a player may pick from ([`Ruleset::house_cards`]).
    const HOUSE_PICKS: u64;
    /// The formats a table may choose (`--format WORD`), the standard one
    /// first.
    const FORMATS: &'static [&'static str] = &["standard"];
    /// Its deck rules as a deck is built card by card, when its seats
    /// bring decks.
    const DECK: Option<DeckRules> = None;
    /// What a seat (or a spectator) may know of the match: what a client
    /// on the LAN is sent and draws.
    type View: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// Plain data a game starts from.
    type Setup: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// Why a setup is refused.
    type SetupError: std::error::Error + Send + Sync + 'static;
    /// A seat's move.
    type Action: Copy + Eq + fmt::Debug + Serialize + DeserializeOwned;
    /// What happened, in order, for a presenter.
    type Event: Clone + fmt::Debug;
    /// The kinds of question the ruleset asks.
    type Ask: Clone + Copy + PartialEq + fmt::Debug;

    /// The rules version a setup is played by (recorded in replays).
    fn version(setup: &Self::Setup) -> RulesVersion;
    /// A replay recorded by engine version `engine`: its setup is played by
    /// that engine when this build still plays it (a ruleset with one
    /// engine ignores it, and the replay's version check says why not).
    fn adopt_engine(setup: &mut Self::Setup, engine: u32) {
        let _ = (setup, engine);
    }
    /// The seed a setup starts from.
    fn seed(setup: &Self::Setup) -> u64;
    /// The cards each seat brought (a team, a deck), in seat order.
    fn seat_cards(setup: &Self::Setup) -> Vec<Vec<crate::cards::CardNumber>>;
    /// Checks a setup against the card set and starts the game.
    fn from_setup(setup: &Self::Setup, cards: &CardSet) -> Result<Self, Self::SetupError>;
    /// How many seats play.
    fn seats(&self) -> usize;
    /// What happened before the first action.
    fn opening_events(&self) -> &[Self::Event];
    /// Every action `seat` may take now.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Applies an action; an illegal one changes nothing.
    fn apply(
        &mut self,
        seat: Seat,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, IllegalAction>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A fingerprint of the whole state, the same on every machine.
    fn state_hash(&self) -> u64;
    /// The question `seat` must answer now, if any. `passed` are the offers
    /// the seat has declined since its last action; they are not asked again.
    fn question(
        &self,
        seat: Seat,
        passed: &[Self::Action],
        cards: &CardSet,
    ) -> Option<Question<Self::Ask, Self::Action>>;
    /// An event in plain words, for a log or a terminal.
    fn describe(event: &Self::Event, cards: &CardSet) -> String;
    /// Why a line a person typed at `seat` is refused, in the rules' words,
    /// where the ruleset can tell more than "not a choice now" (`play
    /// Greymon`: which rule stops it); `None` where it cannot.
    fn refusal(&self, seat: Seat, typed: &str, cards: &CardSet) -> Option<String> {
        let _ = (seat, typed, cards);
        None
    }
    /// Whether a card is one of this game's own (a card set holds every
    /// game's cards, and names repeat across them: `show Greymon` at a
    /// Digimon Card Game prompt means its Greymon, not the Card Game
    /// Alpha's).
    fn own_card(card: &crate::cards::Card) -> bool {
        let _ = card;
        true
    }
    /// The refusals a keyboard at `seat` can give without the match (a LAN
    /// client holds only its view): lines a person may type that name a
    /// move of theirs (`play Greymon`), each with what [`Ruleset::refusal`]
    /// says of it now. Only what `seat` may know: the host sends them with
    /// its question to that seat alone.
    fn refusals(&self, seat: Seat, cards: &CardSet) -> Vec<(String, String)> {
        let _ = (seat, cards);
        Vec::new()
    }
    /// The result and why in a line, once the game is over, where the
    /// game's last event does not already say why ("P2 WINS: P1's Agumon
    /// was deleted"); `None` where it does.
    fn verdict(&self, cards: &CardSet) -> Option<String> {
        let _ = cards;
        None
    }

    /// The setup of a game from each seat's cards, in seat order, and a seed.
    fn setup_for(cards: Vec<Vec<CardNumber>>, seed: u64) -> Self::Setup;
    /// The setup with the table's format (`--format WORD`); a ruleset
    /// without formats refuses every word but its own standard one.
    fn set_format(setup: &mut Self::Setup, word: &str) -> Result<(), String> {
        let _ = setup;
        if word.trim().eq_ignore_ascii_case("standard") {
            Ok(())
        } else {
            Err(format!("the {} has no format \"{word}\"", Self::NAME))
        }
    }
    /// What `seat` (`None`: a spectator) may know now.
    fn seat_view(&self, seat: Option<Seat>) -> Self::View;
    /// Whether a view (from the network) holds together: a client refuses
    /// one that does not, rather than index into it.
    fn check_view(view: &Self::View) -> Result<(), String>;
    /// A view as text lines, for a player at a terminal.
    fn view_lines(view: &Self::View, cards: &CardSet) -> Vec<String>;
    /// The house choice `pick` of a format in a few words, where its decks
    /// differ from the usual ones; `None` for [`Ruleset::house_label`].
    fn format_house_label(word: &str, pick: u64, cards: &CardSet) -> Option<String> {
        let _ = (word, pick, cards);
        None
    }
    /// The house cards of a format (`--format WORD`) where its decks differ
    /// from the usual ones; `None` for the usual [`Ruleset::house_cards`].
    fn format_house_cards(
        word: &str,
        seat: Seat,
        pick: u64,
        cards: &CardSet,
    ) -> Option<Vec<CardNumber>> {
        let _ = (word, seat, pick, cards);
        None
    }
    /// The cards a seat plays when its player brings none (a CPU seat, a
    /// kiosk's demo): a shipped deck or a demo team, picked by `pick` and
    /// the seat.
    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber>;
    /// The house choice `pick` in a few words ("team 2: Agumon, …", "the
    /// courage deck").
    fn house_label(pick: u64, cards: &CardSet) -> String;
    /// Cards a player brought (scanned, typed) in a few words.
    fn brought_label(brought: &[CardNumber], cards: &CardSet) -> String;

    /// The game in a few words: its name, and its seats where it may have
    /// more than one number of them ("Card Game Alpha, 3 seats").
    fn title(&self) -> String {
        if Self::SEATS.start() == Self::SEATS.end() {
            Self::NAME.to_string()
        } else {
            format!("{}, {} seats", Self::NAME, self.seats())
        }
    }
}

/// A shipped deck for a house seat: the decks in turn by seat and `pick`
/// (for a ruleset whose seats bring decks; `read` reads one by name).
pub(crate) fn shipped_deck<E>(
    decks: &[(&str, &str)],
    read: impl Fn(&str) -> Option<Result<Vec<CardNumber>, E>>,
    seat: Seat,
    pick: u64,
) -> Vec<CardNumber> {
    let n = decks.len().max(1) as u64;
    let at = (seat.index() as u64).wrapping_add(pick) % n;
    decks
        .get(usize::try_from(at).unwrap_or(0))
        .and_then(|(name, _)| read(name))
        .and_then(Result::ok)
        .unwrap_or_default()
}

/// The name of the shipped deck `pick` picks.
pub(crate) fn shipped_deck_name<'a>(decks: &[(&'a str, &str)], pick: u64) -> &'a str {
    let n = decks.len().max(1) as u64;
    decks
        .get(usize::try_from(pick % n).unwrap_or(0))
        .map_or("?", |d| d.0)
}

/// Something to do with a ruleset chosen at run time (from a replay file,
/// say): [`dispatch`] calls `visit` with the ruleset's type.
pub trait RulesetVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Ruleset>(self) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_written_as_the_two_sides_were() {
        let json = serde_json::to_string(&[Seat::P1, Seat::P2, Seat::new(3).unwrap()]).unwrap();
        assert_eq!(json, r#"["P1","P2","P4"]"#);
        let back: Vec<Seat> = crate::cards::read_ron("[P1, P2, P4]").unwrap();
        assert_eq!(back, vec![Seat::P1, Seat::P2, Seat(3)]);
        assert!(crate::cards::read_ron::<Seat>("P9").is_err());
    }

    /// Each format a ruleset lists is one its setups take; a deck screen's
    /// house decks of each format are there.
    #[test]
    fn every_format_listed_is_taken_and_has_its_decks() {
        let cards = CardSet::embedded();
        struct Formats<'a>(&'a CardSet);
        impl RulesetVisitor for Formats<'_> {
            type Output = ();
            fn visit<R: Ruleset>(self) {
                for word in R::FORMATS {
                    let decks = (0..*R::SEATS.end())
                        .map(|i| R::house_cards(Seat::new(i).unwrap(), 0, self.0))
                        .collect();
                    let mut setup = R::setup_for(decks, 1);
                    R::set_format(&mut setup, word).unwrap();
                }
                assert!(R::set_format(&mut R::setup_for(Vec::new(), 1), "no such format").is_err());
            }
        }
        for id in RulesetId::ALL {
            dispatch(*id, Formats(&cards));
            for word in id.facts().formats {
                for pick in 0..id.facts().house_picks {
                    assert!(
                        !id.house_deck(word, pick, &cards).is_empty(),
                        "{id} {word} {pick}"
                    );
                    assert!(!id.house_deck_label(word, pick, &cards).is_empty());
                }
            }
        }
    }

    #[test]
    fn every_ruleset_has_its_own_key_name_and_code() {
        let mut keys = std::collections::HashSet::new();
        let mut codes = std::collections::HashSet::new();
        for &id in RulesetId::ALL {
            let f = id.facts();
            assert_eq!(f.id, id);
            assert!(keys.insert(f.key), "{id:?}: key {} used twice", f.key);
            assert!(codes.insert(f.code), "{id:?}: code {} used twice", f.code);
            assert_eq!(RulesetId::from_key(f.key), Some(id));
            assert_eq!(RulesetId::from_key(&f.key.to_uppercase()), Some(id));
            assert_eq!(RulesetId::from_key(f.name), Some(id));
            assert_eq!(RulesetId::from_code(f.code), Some(id));
            assert!(*f.seats.start() >= 2 && *f.seats.end() <= Seat::MAX);
        }
        // The bytes battle cards were written with before the registry.
        assert_eq!(RulesetId::from_code(0), Some(RulesetId::Terminal));
        assert_eq!(RulesetId::from_code(1), Some(RulesetId::Alpha));
        assert_eq!("Alpha".parse::<RulesetId>(), Ok(RulesetId::Alpha));
        let err = "chess".parse::<RulesetId>().unwrap_err().to_string();
        assert!(err.contains("terminal") && err.contains("alpha"), "{err}");
    }

    #[test]
    fn seats_parse_as_people_type_them() {
        assert_eq!("p2".parse::<Seat>(), Ok(Seat::P2));
        assert_eq!(" 3 ".parse::<Seat>(), Ok(Seat(2)));
        // A failed expectation's words write it as a script does.
        assert_eq!(
            script::seats_as_written(format!("{:?}", Some(Seat::P2))),
            "Some(P2)"
        );
        // Words a script wrote that only look like it are left alone.
        for odd in ["Seat(", "Seat(99999999999999999999)", "Seat(x)", "Seat(7"] {
            assert_eq!(script::seats_as_written(odd.to_string()), odd);
        }
        assert!("P0".parse::<Seat>().is_err());
        assert!("P9".parse::<Seat>().is_err());
        assert_eq!(Seat(3).to_string(), "P4");
    }

    #[test]
    fn a_prompt_reads_keys_whatever_the_case_and_spaces() {
        let p = Prompt {
            lines: Vec::new(),
            text: String::new(),
            keys: vec![("xa".to_string(), Reply::Act(1)), ("n".into(), Reply::Pass)],
        };
        assert_eq!(p.reply(" X a\n"), Some(Reply::Act(1)));
        assert_eq!(p.reply("N"), Some(Reply::Pass));
        assert_eq!(p.reply("q"), None);
    }

    #[test]
    fn only_a_lone_answer_that_is_also_the_default_is_taken_unasked() {
        let prompt = Prompt {
            lines: vec!["P1 played it.".into(), "   1. pass".into()],
            text: "Respond, or pass?".into(),
            keys: vec![],
        };
        let q = |answers: Vec<u8>, on_timeout| Question {
            ask: (),
            answers,
            seconds: 1.0,
            on_timeout,
            prompt: prompt.clone(),
        };
        assert_eq!(q(vec![7], Some(7)).only_answer(), Some(7));
        // Two answers, a lone answer with another default, or none: asked.
        assert_eq!(q(vec![7, 8], Some(7)).only_answer(), None);
        assert_eq!(q(vec![7], Some(8)).only_answer(), None);
        assert_eq!(q(vec![7], None).only_answer(), None);
        assert_eq!(prompt.first_words(), Some("pass"));
    }
}
