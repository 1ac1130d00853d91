//! The look of every screen, in one place: the palette, the type sizes and
//! the spacing (cabinet style: bold condensed type, high contrast on dark
//! panels), the text and panel builders every screen uses, and the UI
//! scale that keeps the layout, drawn for 720 lines, as big on a 1080p
//! screen (readable from 2 m). The Card Game Alpha table and the
//! collection screen take the same theme.

use bevy::prelude::*;
use bevy::text::FontSize;
use bevy::window::PrimaryWindow;

use crate::cards::BattleType;

/// The screen height the sizes below are drawn for.
pub const DESIGN_HEIGHT: f32 = 720.0;

/// Colours.
pub mod palette {
    use bevy::prelude::Color;

    /// Panels behind text.
    pub const PANEL: Color = Color::srgba(0.02, 0.05, 0.12, 0.8);
    /// The replay viewer's panel.
    pub const PANEL_REPLAY: Color = Color::srgba(0.1, 0.02, 0.12, 0.8);
    /// Body text.
    pub const INK: Color = Color::srgb(0.85, 0.92, 1.0);
    /// Secondary text: tickers, file names, countdowns.
    pub const DIM: Color = Color::srgb(0.7, 0.8, 0.9);
    /// Hints on the attract screen.
    pub const SOFT: Color = Color::srgb(0.8, 0.85, 0.9);
    /// Names and keys.
    pub const WHITE: Color = Color::WHITE;
    /// Titles, points, banners, prompts: the big moments.
    pub const GOLD: Color = Color::srgb(1.0, 0.85, 0.2);
    /// The attract screen's subtitle.
    pub const SKY: Color = Color::srgb(0.6, 0.9, 1.0);
    /// The evolution gauge.
    pub const GAUGE: Color = Color::srgb(0.3, 0.9, 1.0);
    /// The camera preview's frame.
    pub const FRAME: Color = Color::srgb(0.2, 0.8, 1.0);
    /// Good news: a card joined, a card dispensed.
    pub const GOOD: Color = Color::srgb(0.5, 1.0, 0.6);
    /// Bad news: a card refused.
    pub const BAD: Color = Color::srgb(1.0, 0.4, 0.35);
    /// The replay viewer's text.
    pub const REPLAY: Color = Color::srgb(1.0, 0.8, 1.0);
    /// The empty part of a bar.
    pub const TRACK: Color = Color::srgba(1.0, 1.0, 1.0, 0.12);
    /// A choice not taken.
    pub const FAINT: Color = Color::srgba(1.0, 1.0, 1.0, 0.15);
    /// A card not in the collection, in the binder: a dark silhouette.
    pub const SILHOUETTE: Color = Color::srgb(0.025, 0.03, 0.05);
    /// An owned Option card in the binder.
    pub const OPTION_CARD: Color = Color::srgb(0.78, 0.66, 0.35);
    /// An owned Command card in the binder.
    pub const COMMAND_CARD: Color = Color::srgb(0.62, 0.24, 0.47);
    /// The three stances (and buttons) A, B and C.
    pub const STANCE: [Color; 3] = [
        Color::srgb(1.0, 0.25, 0.2),
        Color::srgb(0.25, 0.55, 1.0),
        Color::srgb(0.2, 0.9, 0.35),
    ];
}

/// Type sizes, pixels at 720 lines.
pub mod size {
    /// The game's name on the attract screen.
    pub const TITLE: f32 = 96.0;
    /// The winner on the result screen.
    pub const HEADLINE: f32 = 72.0;
    /// The attract screen's subtitle.
    pub const SUBTITLE: f32 = 32.0;
    /// The result's score line.
    pub const SCORE: f32 = 30.0;
    /// The answer countdown.
    pub const TIMER: f32 = 64.0;
    /// The battle's centre banner.
    pub const BANNER: f32 = 56.0;
    /// A screen's heading ("SCAN YOUR CARDS", "PRESS ANY BUTTON").
    pub const HEADING: f32 = 44.0;
    /// A Digimon's name on its panel.
    pub const NAME: f32 = 28.0;
    /// Panel headers, the round.
    pub const HEADER: f32 = 26.0;
    /// The revealed stance and technique.
    pub const REVEAL: f32 = 24.0;
    /// What a player should press now.
    pub const PROMPT: f32 = 22.0;
    /// Points, HP, the result's score.
    pub const VALUE: f32 = 20.0;
    /// Body text.
    pub const BODY: f32 = 18.0;
    /// The battle log.
    pub const LOG: f32 = 17.0;
    /// Small print: who plays, file names, countdowns.
    pub const SMALL: f32 = 16.0;
    /// Card numbers on the collection's binder page.
    pub const TINY: f32 = 12.0;
}

/// Spacing, pixels at 720 lines.
pub mod space {
    /// Between lines of a panel.
    pub const LINE: f32 = 6.0;
    /// Between tight lines (the side panel).
    pub const TIGHT: f32 = 4.0;
    /// Between items of a row.
    pub const ITEM: f32 = 10.0;
    /// Between the values of a row.
    pub const WIDE: f32 = 16.0;
    /// Inside a panel.
    pub const PAD: f32 = 10.0;
    /// Inside a big panel.
    pub const PAD_L: f32 = 12.0;
}

/// A stance's colour.
pub fn stance(t: BattleType) -> Color {
    palette::STANCE[t as usize]
}

/// A text in the theme's type.
pub fn label(text: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (
        Text::new(text),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(colour),
        TextShadow::default(),
    )
}

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(Update, follow_window);
}

/// Scales the whole UI with the window's height, so the layout drawn for
/// 720 lines fills a 1080p screen the same way.
fn follow_window(
    windows: Query<&Window, (With<PrimaryWindow>, Changed<Window>)>,
    mut scale: ResMut<UiScale>,
) {
    if let Some(w) = windows.iter().next() {
        let s = ui_scale(w.resolution.height());
        if (scale.0 - s).abs() > 1e-3 {
            scale.0 = s;
        }
    }
}

/// Where a UI node goes to sit centred on a point of the world, as its
/// left and top in the UI's units (`ui_scale`: the [`UiScale`]; the node's
/// laid-out size, once known, centres it); `None` when the point is not on
/// screen.
pub fn centred_at(
    (camera, eye): (&Camera, &GlobalTransform),
    world: Vec3,
    ui_scale: f32,
    node: Option<&ComputedNode>,
) -> Option<(Val, Val)> {
    let p = camera.world_to_viewport(eye, world).ok()?;
    // The node's size is in physical pixels; its inverse scale factor
    // (window and UI scale together) turns it into the UI's units.
    let half = node.map_or(Vec2::ZERO, |n| n.size() * n.inverse_scale_factor() / 2.0);
    let s = ui_scale.max(0.01);
    Some((Val::Px(p.x / s - half.x), Val::Px(p.y / s - half.y)))
}

/// The UI scale for a window this many logical pixels high.
pub fn ui_scale(height: f32) -> f32 {
    (height / DESIGN_HEIGHT).clamp(0.5, 4.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_grows_with_the_screen() {
        assert_eq!(ui_scale(720.0), 1.0);
        assert_eq!(ui_scale(1080.0), 1.5);
        // Body text on a 1080p screen: 27 px, about 7 mm on a 24" screen.
        assert!(size::BODY * ui_scale(1080.0) >= 27.0);
        assert_eq!(ui_scale(0.0), 0.5);
    }

    #[test]
    fn the_stances_keep_their_colours() {
        assert_eq!(stance(BattleType::A), palette::STANCE[0]);
        assert_ne!(stance(BattleType::B), stance(BattleType::C));
    }
}
