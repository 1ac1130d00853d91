//! Widgets every screen uses: the full-screen layer a screen's UI hangs
//! from, a centred column, the arcade's blinking "press start".

use bevy::prelude::*;

use crate::arena::ui::theme::palette;
use crate::arena::{AppSystems, Screen};

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(Update, blink.in_set(AppSystems::Update));
}

/// The full-screen layer a screen's UI hangs from, removed when `screen` ends.
pub fn screen_layer(
    name: &'static str,
    screen: Screen,
    padding: f32,
    align: AlignItems,
) -> impl Bundle {
    (
        Name::new(name),
        DespawnOnExit(screen),
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: align,
            justify_content: JustifyContent::SpaceBetween,
            padding: UiRect::all(px(padding)),
            ..default()
        },
    )
}

/// A column of centred lines.
pub fn centred_column() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        ..default()
    }
}

/// Blinks (the arcade "press start"), on whichever screen shows it.
#[derive(Component)]
pub struct Blink;

fn blink(time: Res<Time>, mut blink: Query<&mut TextColor, With<Blink>>) {
    let on = (time.elapsed_secs() * 1.6).fract() < 0.65;
    for mut c in &mut blink {
        c.0 = if on { palette::WHITE } else { palette::FAINT };
    }
}
