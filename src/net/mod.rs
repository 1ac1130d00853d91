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
pub mod guard;
pub mod host;
pub mod link;
pub mod protocol;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ai::Cpu;
use crate::rules::make_dispatch;

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

/// A ruleset that can be played over the LAN: any ruleset with a CPU
/// player whose types cross threads. What a seat may see, how many seats a
/// table has and what a seat brings are the ruleset's own facts
/// ([`crate::rules::Ruleset`]); a CPU client chooses from its view with
/// [`Cpu::choose_from_view`].
pub trait Lan:
    Cpu<
        Action: Send + Sync,
        Ask: Send + Sync,
        Event: Serialize + DeserializeOwned + Send + Sync,
        Setup: Send + Sync,
        View: Send + Sync,
    > + Send
    + Sync
{
}

impl<R> Lan for R where
    R: Cpu<
            Action: Send + Sync,
            Ask: Send + Sync,
            Event: Serialize + DeserializeOwned + Send + Sync,
            Setup: Send + Sync,
            View: Send + Sync,
        > + Send
        + Sync
{
}

/// Something to do with a LAN ruleset chosen at run time (a table's game).
pub trait LanVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Lan>(self) -> Self::Output;
}

crate::rules::registered!(make_dispatch!(pub LanVisitor;));
