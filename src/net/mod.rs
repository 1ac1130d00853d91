//! LAN play: a host holds the only match and is its authority; clients on
//! other machines send answers and receive their seat's view and the
//! events, never another seat's hidden cards. The transport is renet's
//! reliable ordered channel over UDP with the netcode handshake
//! ([`link`]); the messages are versioned serde types ([`protocol`]); the
//! host's front end asks a remote seat the same questions, with the same
//! timeout defaults, as a person or a CPU ([`host`]); a client answers from
//! a keyboard or a CPU ([`client`]); tables announce themselves on the LAN
//! with mDNS ([`discover`]).

pub mod client;
pub mod discover;
pub mod host;
pub mod link;
pub mod protocol;

use std::fmt::Debug;
use std::ops::RangeInclusive;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ai::{Cpu, Strength};
use crate::cards::{CardNumber, CardSet};
use crate::rules::{Seat, alpha, terminal};

/// A random number from the operating system's randomness (through the
/// standard library's hash keys): for seeds, join codes and rejoin tokens,
/// which a player must not be able to guess from the time.
pub fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// The port a table listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 47_820;

/// A ruleset that can be played over the LAN: what a seat's client is sent
/// to draw, and how the host builds a setup from what the seats brought.
pub trait Lan:
    Cpu<Action: Send + Sync, Event: Serialize + DeserializeOwned + Send + Sync, Setup: Send + Sync>
    + Send
    + Sync
{
    /// What a seat (or a spectator) may know of the match.
    type View: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// How many seats a table of this ruleset may have.
    const SEATS: RangeInclusive<usize>;

    /// What a seat brings, in words ("team", "deck").
    const BRINGS: &'static str;

    /// The setup of a game from each seat's cards, in seat order.
    fn lan_setup(cards: Vec<Vec<CardNumber>>, seed: u64) -> Self::Setup;

    /// What `seat` (`None`: a spectator) may know now.
    fn lan_view(&self, seat: Option<Seat>) -> Self::View;

    /// Whether a view a host sent holds together (a client refuses one
    /// that does not, rather than index into it).
    fn check_view(view: &Self::View) -> Result<(), String>;

    /// The table as text lines, for a client at a terminal.
    fn view_lines(view: &Self::View, cards: &CardSet) -> Vec<String>;

    /// A CPU client's choice for `seat`, from its view only.
    fn view_choice(view: &Self::View, seat: Seat, strength: Strength) -> Option<Self::Action>;

    /// The cards a seat plays when its player brings none (a CPU seat, or
    /// the arena's player): a shipped deck, or a demo team, picked by
    /// `pick` and the seat.
    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber>;
}

impl Lan for alpha::Match {
    type View = alpha::View;
    const SEATS: RangeInclusive<usize> = 2..=4;
    const BRINGS: &'static str = "deck";

    fn lan_setup(cards: Vec<Vec<CardNumber>>, seed: u64) -> alpha::Setup {
        alpha::Setup::new(cards, seed)
    }

    fn lan_view(&self, seat: Option<Seat>) -> alpha::View {
        match seat {
            Some(s) => self.view(s),
            None => self.spectator_view(),
        }
    }

    fn check_view(view: &alpha::View) -> Result<(), String> {
        view.well_formed()
    }

    fn view_lines(view: &alpha::View, _: &CardSet) -> Vec<String> {
        view.table_lines()
    }

    fn view_choice(view: &alpha::View, seat: Seat, strength: Strength) -> Option<alpha::Action> {
        if view.is_spectator() || view.seat() != seat || view.state().waiting_for() != Some(seat) {
            return None;
        }
        Some(crate::ai::alpha::choose(view, strength))
    }

    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
        let decks = alpha::deck::EMBEDDED;
        let at = (seat.index() as u64).wrapping_add(pick) % decks.len() as u64;
        decks
            .get(usize::try_from(at).unwrap_or(0))
            .and_then(|(name, _)| alpha::deck::embedded(name, cards))
            .and_then(Result::ok)
            .unwrap_or_default()
    }
}

impl Lan for terminal::Match {
    type View = terminal::Match;
    const SEATS: RangeInclusive<usize> = 2..=2;
    const BRINGS: &'static str = "team";

    fn lan_setup(cards: Vec<Vec<CardNumber>>, seed: u64) -> terminal::Setup {
        let mut it = cards.into_iter();
        let p1 = it.next().unwrap_or_default();
        let p2 = it.next().unwrap_or_default();
        terminal::Setup::new(p1, p2, seed)
    }

    fn lan_view(&self, seat: Option<Seat>) -> terminal::Match {
        let side = seat.and_then(|s| terminal::Side::BOTH.get(s.index()).copied());
        self.masked(side)
    }

    fn check_view(view: &terminal::Match) -> Result<(), String> {
        view.well_formed()
    }

    fn view_lines(view: &terminal::Match, _: &CardSet) -> Vec<String> {
        terminal::Side::BOTH
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

    fn view_choice(
        view: &terminal::Match,
        seat: Seat,
        strength: Strength,
    ) -> Option<terminal::Action> {
        view.choose(seat, strength)
    }

    fn house_cards(seat: Seat, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
            pick ^ seat.index() as u64,
        );
        let [a, b] = terminal::pick::demo_teams(cards, &mut rng);
        if seat.index() == 0 { a } else { b }
    }
}
