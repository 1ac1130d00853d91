//! The second layer: the UI's parts every screen shares. The theme
//! (palette, sizes, fonts), the three buttons and the keys (input), sound,
//! widgets, damage numbers over the stage. It may import `render`, never
//! `play` or `screens`.

pub mod input;
pub mod numbers;
pub mod sound;
pub mod theme;
pub mod widgets;

use bevy::prelude::*;

/// The layer's plugins, one a file.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        input::plugin,
        sound::plugin,
        widgets::plugin,
        numbers::plugin,
    ));
}
