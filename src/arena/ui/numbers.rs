//! Numbers rising from a figure that took a blow: UI text placed over the
//! 3D stage where the figure stands, fading as it rises.

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;

use crate::arena::AppSystems;
use crate::arena::render::stage::{ArenaCamera, DuelProp};
use crate::arena::ui::theme::{self, centred_at, palette, size};
use crate::rules::terminal::Side;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(Update, rise_numbers.in_set(AppSystems::Update))
        .add_systems(
            PostUpdate,
            keep_clear
                .in_set(NumbersPlaced)
                .after(bevy::ui::UiSystems::PostLayout)
                .after(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
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

/// Shows `text` (a blow: "-300", "320 vs HP 400") rising from a figure
/// centred at `at`.
pub fn damage_number(commands: &mut Commands, at: Vec3, text: impl Into<String>, side: Side) {
    let text = text.into();
    // A few digits are big; a longer line is smaller, to sit over a figure.
    let font = if text.chars().count() <= 5 {
        size::HEADLINE
    } else {
        size::HEADING
    };
    let colour = if side == Side::P1 {
        palette::GOLD
    } else {
        palette::BAD
    };
    commands.spawn((
        DuelProp,
        DamageNumber { at, age: 0.0 },
        theme::label(text, font, colour),
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

/// The other texts on screen: where they are laid out, whether they show.
type Texts<'w, 's> = Query<
    'w,
    's,
    (
        &'static Text,
        &'static ComputedNode,
        &'static UiGlobalTransform,
        &'static InheritedVisibility,
    ),
    Without<DamageNumber>,
>;

/// Where a number of `size` wanted at `want` (its top-left, UI pixels)
/// goes so that it covers none of `taken` and stays inside `screen`: where
/// it is if that is clear, else the nearest clear place above or below
/// (a banner, a panel, a name keeps its words), else where it is.
pub fn clear_spot(want: Vec2, size: Vec2, taken: &[Rect], screen: Rect) -> Vec2 {
    let step = (size.y / 2.0).max(4.0);
    let clear = |at: Vec2| {
        let r = Rect::from_corners(at, at + size);
        let inside = r.min.y >= screen.min.y && r.max.y <= screen.max.y;
        inside && taken.iter().all(|t| t.intersect(r).is_empty())
    };
    for k in 0..40 {
        for dir in [-1.0, 1.0] {
            let at = want + Vec2::Y * (dir * step * k as f32);
            if clear(at) {
                return at;
            }
        }
    }
    want
}

/// The screen in the UI's pixels.
fn screen_rect(camera: Option<&Camera>, scale: f32) -> Rect {
    camera
        .and_then(Camera::logical_viewport_size)
        .map_or(Rect::new(0.0, 0.0, 1280.0, 720.0), |v| {
            Rect::from_corners(Vec2::ZERO, v / scale.max(0.01))
        })
}

/// Damage numbers rise over their figure and fade.
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
        // Shown once laid out (its size is known after a frame's layout).
        if computed.is_none_or(|c| c.size().x <= 0.0) {
            continue;
        }
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

/// Where the damage numbers are moved off other texts, after this frame's
/// layout (a banner raised in the same frame as a number is seen).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NumbersPlaced;

/// Each number moves off every other text on screen, as this frame laid
/// them out: its drawn place is moved (the layout puts it over its figure
/// again next frame, and it is moved again).
fn keep_clear(
    ui_scale: Option<Res<UiScale>>,
    camera: Query<&Camera, With<ArenaCamera>>,
    mut numbers: Query<(&ComputedNode, &mut UiGlobalTransform), With<DamageNumber>>,
    texts: Texts,
) {
    if numbers.is_empty() {
        return;
    }
    let taken: Vec<Rect> = texts
        .iter()
        .filter(|(t, _, _, shown)| shown.get() && !t.0.trim().is_empty())
        .map(|(_, node, at, _)| {
            let r = Rect::from_center_size(at.translation, node.size());
            let s = node.inverse_scale_factor();
            Rect::from_corners(r.min * s, r.max * s)
        })
        .collect();
    let screen = screen_rect(camera.iter().next(), ui_scale.map_or(1.0, |s| s.0));
    for (node, mut at) in &mut numbers {
        let s = node.inverse_scale_factor();
        if node.size().x <= 0.0 || s <= 0.0 {
            continue;
        }
        let r = Rect::from_center_size(at.translation, node.size());
        let (min, size) = (r.min * s, node.size() * s);
        let moved = clear_spot(min, size, &taken, screen) - min;
        if moved != Vec2::ZERO {
            let mut affine = at.affine();
            affine.translation += moved / s;
            *at = UiGlobalTransform::from(affine);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: Rect = Rect {
        min: Vec2::ZERO,
        max: Vec2::new(1280.0, 720.0),
    };

    #[test]
    fn a_number_with_nothing_under_it_stays_where_it_is() {
        let at = Vec2::new(300.0, 260.0);
        assert_eq!(clear_spot(at, Vec2::new(160.0, 60.0), &[], SCREEN), at);
    }

    #[test]
    fn a_number_over_a_banner_moves_off_it_to_the_nearest_clear_place() {
        // The battle shot: "-320" rising into "P2 WINS THE CLASH".
        let banner = Rect::new(350.0, 320.0, 930.0, 380.0);
        let size = Vec2::new(170.0, 60.0);
        let at = clear_spot(Vec2::new(380.0, 290.0), size, &[banner], SCREEN);
        let r = Rect::from_corners(at, at + size);
        assert!(r.intersect(banner).is_empty(), "{r:?}");
        assert_eq!(at.x, 380.0, "it moves up or down, not sideways");
        assert!(r.max.y <= banner.min.y, "above, the nearer side: {r:?}");
        // Squeezed against the top of the screen: below the banner.
        let top = Rect::new(0.0, 0.0, 1280.0, 330.0);
        let at = clear_spot(Vec2::new(380.0, 300.0), size, &[top, banner], SCREEN);
        assert!(at.y >= banner.max.y, "{at}");
    }
}
