//! bterm's barcode reader: a picture in, the barcodes on it out (rxing behind
//! a pipeline for webcam photos and a check against codes read from
//! nothing). A crate of its own so that the dev profile `make run` uses can
//! build it, and the generic rxing and image code it instantiates, with full
//! optimisation (Cargo.toml, `[profile.dev.package.bterm-decode]`): a live
//! camera decodes every frame, and unoptimised decoding is 4 to 5 times
//! slower. bterm re-exports it as `bterm::barcode::{decode, confirm,
//! imageops}`.

pub mod confirm;
pub mod decode;
pub mod imageops;
pub mod symbol;
