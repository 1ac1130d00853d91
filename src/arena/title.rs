//! The title over the arena: the game's name and the card set it loaded.

use bevy::prelude::*;
use bevy::text::FontSize;

use super::Cards;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_title);
}

fn spawn_title(mut commands: Commands, cards: Res<Cards>) {
    commands
        .spawn((
            Name::new("Title"),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                justify_content: JustifyContent::SpaceBetween,
                padding: UiRect::all(px(32)),
                ..default()
            },
        ))
        .with_children(|root| {
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                ..default()
            })
            .with_children(|top| {
                top.spawn((
                    Text::new("bterm"),
                    TextFont {
                        font_size: FontSize::Px(96.0),
                        ..default()
                    },
                    TextColor(Color::srgb(1.0, 0.85, 0.2)),
                    TextShadow::default(),
                ));
                top.spawn((
                    Text::new("DIGIMON BATTLE TERMINAL"),
                    TextFont {
                        font_size: FontSize::Px(32.0),
                        ..default()
                    },
                    TextColor(Color::srgb(0.6, 0.9, 1.0)),
                    TextShadow::default(),
                ));
            });
            root.spawn((
                Text::new(format!("Card set: {} cards ready", cards.0.len())),
                TextFont {
                    font_size: FontSize::Px(22.0),
                    ..default()
                },
                TextColor(Color::srgb(0.8, 0.85, 0.9)),
            ));
        });
}
