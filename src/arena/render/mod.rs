//! The lowest layer of the arena: what is drawn. Materials and shaders
//! (look), where things stand (place), the figures' bodies (rig, figures),
//! the stage and its camera (stage, framing), effects (element, sparks,
//! vfx). It imports nothing of the layers above (ui, play, screens).

pub mod element;
pub mod figures;
pub mod framing;
pub mod look;
pub mod place;
pub mod rig;
pub mod sparks;
pub mod stage;
pub mod vfx;

use bevy::prelude::*;

/// The layer's plugins, one a file.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((look::plugin, stage::plugin, figures::plugin, vfx::plugin));
}
