//! Cards: the model, card files (`assets/cards/*.ron`), validation with
//! `file:line:column` errors, and look-up by number or name.

pub mod clash;
pub mod dcg;
pub mod figure;
mod load;
mod model;
mod number;
mod set;

pub use clash::{Affiliation, ClashKind};
pub use dcg::{DcgKind, DigivolveCost};
pub use figure::{FigureSpec, Figures};
pub use load::{
    Limits, LoadError, LoadErrorKind, LoadErrors, read_ron, write_ron, write_ron_compact,
};
pub use model::{
    Attribute, BattleType, Card, CardKind, ClashCard, CommandCard, DcgCard, Digimon, Field, Level,
    LevelQuery, OptionCard, ParseLevelError, Requirements, Stage, Technique, Techniques,
    X_ANTIBODY, base_name,
};
pub use number::{CardNumber, ParseCardNumberError, Prefix};
pub use set::{CardSet, EMBEDDED_CARDS, MAX_CARD_FILE_BYTES, ResolveError};
