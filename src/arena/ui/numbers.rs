//! Numbers rising from a figure that took a blow: UI text placed over the
//! 3D stage where the figure stands, fading as it rises.

use bevy::prelude::*;

use crate::arena::AppSystems;
use crate::arena::render::stage::{ArenaCamera, DuelProp};
use crate::arena::ui::theme::{self, centred_at, palette, size};
use crate::rules::terminal::Side;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(Update, rise_numbers.in_set(AppSystems::Update));
}

/// A number rising from a figure that took a blow.
#[derive(Component, Debug, Clone, Copy)]
pub struct DamageNumber {
    /// Where in the world it starts.
    pub at: Vec3,
    /// Seconds it has shown.
    pub age: f32,
}

/// How long a damage number shows, seconds.
const NUMBER_SECONDS: f32 = 1.4;
/// The text shadow's opacity (Bevy's default), faded with the number.
const SHADOW_ALPHA: f32 = 0.75;

/// Shows `amount` rising from a figure centred at `at`.
pub fn damage_number(commands: &mut Commands, at: Vec3, amount: u32, side: Side) {
    let colour = if side == Side::P1 {
        palette::GOLD
    } else {
        palette::BAD
    };
    commands.spawn((
        DuelProp,
        DamageNumber { at, age: 0.0 },
        theme::label(format!("-{amount}"), size::HEADLINE, colour),
        Node {
            position_type: PositionType::Absolute,
            ..default()
        },
        Visibility::Hidden,
        GlobalZIndex(5),
    ));
}

/// A damage number's parts.
type Numbers = (
    Entity,
    &'static mut DamageNumber,
    &'static mut Node,
    &'static mut TextColor,
    Option<&'static mut TextShadow>,
    Option<&'static ComputedNode>,
    &'static mut Visibility,
);

/// Damage numbers rise and fade.
fn rise_numbers(
    time: Res<Time>,
    mut commands: Commands,
    ui_scale: Option<Res<UiScale>>,
    camera: Query<(&Camera, &GlobalTransform), With<ArenaCamera>>,
    mut q: Query<Numbers>,
) {
    let scale = ui_scale.map_or(1.0, |s| s.0);
    let cam = camera.iter().next();
    for (e, mut n, mut node, mut colour, mut shadow, computed, mut vis) in &mut q {
        n.age += time.delta_secs();
        if n.age >= NUMBER_SECONDS {
            commands.entity(e).despawn();
            continue;
        }
        let world = n.at + Vec3::Y * (0.6 + n.age * 0.8);
        let Some((left, top)) = cam.and_then(|c| centred_at(c, world, scale, computed)) else {
            *vis = Visibility::Hidden;
            continue;
        };
        *vis = Visibility::Inherited;
        node.left = left;
        node.top = top;
        let fade = 1.0 - ((n.age - NUMBER_SECONDS * 0.6) / (NUMBER_SECONDS * 0.4)).clamp(0.0, 1.0);
        colour.0 = colour.0.with_alpha(fade);
        if let Some(shadow) = shadow.as_mut() {
            shadow.color = shadow.color.with_alpha(SHADOW_ALPHA * fade);
        }
    }
}
