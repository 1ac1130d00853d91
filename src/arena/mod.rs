//! The 3D arcade game (Bevy). Nothing outside this room imports Bevy.
//!
//! Each file adds one plugin; [`AppPlugin`] puts them together.

mod capture;
mod stage;
mod title;

use bevy::prelude::*;

use crate::cards::CardSet;
use crate::cli::PlayArgs;

/// The window title.
pub const TITLE: &str = "bterm — Digimon Battle Terminal";

/// The card set the game plays with.
#[derive(Resource)]
pub struct Cards(pub CardSet);

/// The whole game, minus the engine's default plugins (so tests can use
/// `MinimalPlugins` with it).
pub struct AppPlugin;

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((stage::plugin, title::plugin, capture::plugin));
    }
}

/// Opens the game window and runs until the player quits.
pub fn run(args: PlayArgs) -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err("error: no display to open the game window on (DISPLAY and WAYLAND_DISPLAY are unset).\n\
                    Run bterm from a desktop session, or without a screen under a virtual one: \
                    xvfb-run -s \"-screen 0 1280x720x24\" bterm"
            .to_string());
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: TITLE.to_string(),
            resolution: (1280, 720).into(),
            ..default()
        }),
        ..default()
    }))
    .insert_resource(Cards(CardSet::embedded()))
    .insert_resource(capture::Script::from(&args))
    .add_plugins(AppPlugin);
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!(
            "error: the game stopped with an error (code {code})"
        )),
    }
}
