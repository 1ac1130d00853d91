//! bterm: an arcade-style emulator of Bandai's Data Carddass *Digimon Battle
//! Terminal*. The core (cards, the effect grammar, the rules, CPU players,
//! the session layer, replays, the scanner and the command line) is pure
//! Rust; everything Bevy lives in `arena` behind the `arena` feature. The
//! rooms and which may use which are in `docs/architecture.md`.

pub mod ai;
pub mod analysis;
pub mod barcode;
pub mod cards;
pub mod cli;
pub mod collection;
pub mod effects;
pub mod fingerprint;
pub mod glossary;
pub mod net;
pub mod replay;
pub mod rules;
pub mod save;
pub mod session;

#[cfg(feature = "arena")]
pub mod arena;
