//! The third layer: a game on stage. The one game host (hosted), the
//! Terminal Battle's duel, its board, staging and HUD, the physics of its techniques, the card tables
//! and their presenters (table), a LAN seat (remote). It may import
//! `render` and `ui`, never `screens`.

pub mod board;
pub mod duel;
pub mod hosted;
pub mod hud;
pub(crate) mod physics;
pub mod remote;
pub mod staging;
pub mod table;

use bevy::prelude::*;

/// The layer's plugins, one a file.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((duel::plugin, staging::plugin, hud::plugin, table::plugin));
}
