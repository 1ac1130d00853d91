//! The top layer: the screens a person moves through (attract, the
//! collection, scanning, the lobby, LAN, the result, the replay viewer,
//! the gallery, a clip, the tour's captures). Each is a state of
//! [`crate::arena::Screen`]; it may import every layer below.

pub mod attract;
pub mod capture;
pub mod clip;
pub mod collection;
pub mod gallery;
pub mod lan;
pub mod lobby;
pub mod result;
pub mod scan;
pub mod viewer;

use bevy::prelude::*;

/// The layer's plugins, one a file.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        attract::plugin,
        collection::plugin,
        gallery::plugin,
        scan::plugin,
        result::plugin,
        viewer::plugin,
        lobby::plugin,
        lan::plugin,
    ));
}
