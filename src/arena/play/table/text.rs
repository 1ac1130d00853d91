//! The table's text: the phase, the seats, the log and the banner.

use super::*;

/// The table's text: the seats, the phase, the log, the banner.
#[derive(Component)]
pub(super) enum TableText {
    Seats,
    Phase,
    Log,
    Banner,
    Controls,
}

pub(super) fn spawn_text(commands: &mut Commands) {
    // At the right, a face-up card under the mouse, large.
    commands.spawn((
        ReadCard,
        DespawnOnExit(Screen::Table),
        ImageNode::default(),
        Node {
            position_type: PositionType::Absolute,
            right: px(space::PAD),
            top: percent(16),
            width: px(READ_SIZE.0),
            height: px(READ_SIZE.1),
            display: Display::None,
            ..default()
        },
    ));
    let panel = |c: &mut ChildSpawnerCommands, part: TableText, text_size: f32, colour: Color| {
        c.spawn((
            Node {
                padding: UiRect::axes(px(space::PAD_L), px(space::TIGHT)),
                ..default()
            },
            BackgroundColor(palette::PANEL),
        ))
        .with_children(|p| {
            p.spawn((part, label("", text_size, colour)));
        });
    };
    let layer = |commands: &mut Commands, node: Node| {
        commands.spawn((DespawnOnExit(Screen::Table), node)).id()
    };
    // Top: the phase and the viewer's line.
    let top = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            top: px(space::PAD),
            width: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            row_gap: px(space::LINE),
            ..default()
        },
    );
    commands.entity(top).with_children(|c| {
        panel(c, TableText::Phase, size::NAME, palette::GOLD);
        panel(c, TableText::Controls, size::SMALL, palette::REPLAY);
    });
    // The middle: the banner.
    let middle = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            top: percent(42),
            width: percent(100),
            justify_content: JustifyContent::Center,
            ..default()
        },
    );
    commands.entity(middle).with_children(|c| {
        c.spawn((TableText::Banner, label("", size::BANNER, palette::GOLD)));
    });
    // Bottom left: the seats; the middle: a person's choice; bottom
    // right: the log. Each keeps to its share of the width.
    let bottom = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            bottom: px(space::PAD),
            left: px(space::PAD),
            right: px(space::PAD),
            justify_content: JustifyContent::SpaceBetween,
            align_items: AlignItems::FlexEnd,
            column_gap: px(space::ITEM),
            ..default()
        },
    );
    let column = |c: &mut ChildSpawnerCommands,
                  part: TableText,
                  share: f32,
                  text_size: f32,
                  colour: Color| {
        c.spawn(Node {
            max_width: percent(share),
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_children(|n| panel(n, part, text_size, colour));
    };
    commands.entity(bottom).with_children(|c| {
        // The seats take a little more than the log: a Digimon Card Game
        // seat's line (hand, deck, security, trash) fits one line at 1280 px.
        column(c, TableText::Seats, 33.0, size::SMALL, palette::INK);
        // A person's choice: the prompt, each answer a line of its own (the
        // mouse clicks one), the keys.
        c.spawn(Node {
            max_width: percent(40),
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_children(|n| {
            n.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::axes(px(space::PAD_L), px(space::TIGHT)),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|p| {
                p.spawn((
                    ChoicePrompt,
                    Interaction::default(),
                    label("", size::BODY, palette::GOLD),
                ));
                for slot in 0..ANSWERS_SHOWN {
                    p.spawn((
                        ChoiceLine { slot, answer: None },
                        Interaction::default(),
                        label("", size::BODY, palette::GOLD),
                    ));
                }
                p.spawn((ChoiceHint, label("", size::SMALL, palette::DIM)));
            });
        });
        column(c, TableText::Log, 27.0, size::SMALL, palette::SOFT);
    });
}

pub(super) fn draw<R: Tabled>(
    game: Option<Res<TableGame<R>>>,
    mut texts: Query<(&TableText, &mut Text, &mut TextColor, Option<&ChildOf>)>,
    mut panels: Query<&mut Visibility, Without<TableText>>,
) {
    let Some(game) = game else { return };
    let m = game.m();
    for (part, mut text, mut colour, parent) in &mut texts {
        let s = match part {
            TableText::Phase => {
                if game.phase.is_empty() {
                    R::NAME.to_uppercase()
                } else {
                    format!("{} · {}", R::NAME.to_uppercase(), game.phase.to_uppercase())
                }
            }
            TableText::Seats => game
                .layout
                .as_ref()
                .map_or_else(String::new, |layout| R::seats_line(m, layout)),
            TableText::Log => game.log.iter().cloned().collect::<Vec<_>>().join("\n"),
            TableText::Banner => game
                .banner
                .as_ref()
                .map_or_else(String::new, |b| b.0.clone()),
            TableText::Controls if game.live.is_some() => {
                let who = game.live.as_ref().map_or_else(String::new, |l| {
                    l.pilots
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            // At a LAN table, who sits there (or YOU).
                            let name = match (&game.remote, Seat::new(i)) {
                                (Some(r), Some(seat)) => r.who(seat),
                                _ => p.label(),
                            };
                            format!("P{} {name}", i + 1)
                        })
                        .collect::<Vec<_>>()
                        .join(" · ")
                });
                let state = match (game.ended(), &game.remote) {
                    (true, _) => "the game is over · back to the start soon".to_string(),
                    (false, Some(_)) => "LAN table".to_string(),
                    (false, None) => format!("action {}", game.next),
                };
                format!("{who} · {state}")
            }
            TableText::Controls => {
                let state = match &game.verdict {
                    Some(Ok(())) => "ENDED · verified · A plays it again".to_string(),
                    Some(Err(e)) => {
                        colour.0 = palette::BAD;
                        format!("NOT VERIFIED: {e}")
                    }
                    None if game.paused => "❚❚ PAUSED".to_string(),
                    None => "▶ PLAYING".to_string(),
                };
                format!(
                    "REPLAY · {} · action {}/{} · {}× (↑↓/C) · {state} · Space/A pause · →/B step · Esc leaves",
                    game.name,
                    game.next,
                    game.replay.actions.len(),
                    SPEEDS[game.speed]
                )
            }
        };
        // A panel with nothing to say is not drawn at all.
        if let Some(mut v) = parent.and_then(|p| panels.get_mut(p.parent()).ok()) {
            let want = if s.is_empty() {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            };
            v.set_if_neq(want);
        }
        if text.0 != s {
            text.0 = s;
        }
    }
}
