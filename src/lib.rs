//! bterm: an arcade-style emulator of Bandai's Data Carddass *Digimon Battle
//! Terminal*. The core (cards, the effect grammar, the command line) is pure
//! Rust; everything Bevy lives in `arena` behind the `arena` feature.

pub mod ai;
pub mod barcode;
pub mod cards;
pub mod cli;
pub mod effects;
pub mod replay;
pub mod rules;
pub mod save;

#[cfg(feature = "arena")]
pub mod arena;
