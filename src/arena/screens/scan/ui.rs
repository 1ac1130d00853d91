//! The scan screen's words: each team's cards, messages and status, the
//! typed number, the countdown, and the camera's preview.

use bevy::prelude::*;

use super::Roster;
use super::reads::{PREVIEW, Reads};
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{Screen, Settings};
use crate::rules::terminal::Side;
use crate::session::Player;

#[derive(Component)]
pub(super) enum ScanText {
    Header(Side),
    List(Side),
    Message(Side),
    Status(Side),
    Entry,
    Countdown,
}

#[derive(Component)]
pub(super) struct Preview;

pub(super) fn spawn_ui(commands: &mut Commands, preview: Option<Handle<Image>>, lan: bool) {
    let ink = palette::INK;
    commands
        .spawn(screen_layer(
            "Scan screen",
            Screen::Scan,
            20.0,
            AlignItems::Default,
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|t| {
                let title = if lan {
                    "SCAN YOUR TEAM FOR THE LAN TABLE"
                } else {
                    "SCAN YOUR CARDS"
                };
                t.spawn(label(title, size::HEADING, palette::GOLD));
                t.spawn((ScanText::Countdown, label("", size::VALUE, ink)));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexStart,
                flex_grow: 1.0,
                margin: UiRect::vertical(px(12)),
                ..default()
            })
            .with_children(|row| {
                for side in Side::BOTH {
                    row.spawn((
                        Node {
                            width: px(420),
                            flex_direction: FlexDirection::Column,
                            padding: UiRect::all(px(12)),
                            row_gap: px(6),
                            ..default()
                        },
                        BackgroundColor(palette::PANEL),
                    ))
                    .with_children(|p| {
                        p.spawn((
                            ScanText::Header(side),
                            label("", size::HEADER, palette::WHITE),
                        ));
                        p.spawn((ScanText::List(side), label("", size::BODY, ink)));
                        p.spawn((ScanText::Message(side), label("", size::BODY, ink)));
                        p.spawn((ScanText::Status(side), label("", size::BODY, palette::GOLD)));
                    });
                }
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexEnd,
                ..default()
            })
            .with_children(|b| {
                b.spawn((
                    Node {
                        padding: UiRect::all(px(10)),
                        max_width: px(880),
                        ..default()
                    },
                    BackgroundColor(palette::PANEL),
                ))
                .with_children(|e| {
                    e.spawn((ScanText::Entry, label("", size::BODY, ink)));
                });
                if let Some(img) = preview {
                    b.spawn((
                        Preview,
                        ImageNode::new(img),
                        Node {
                            width: px(PREVIEW.0 as f32),
                            height: px(PREVIEW.1 as f32),
                            border: UiRect::all(px(2)),
                            ..default()
                        },
                        BorderColor::all(palette::FRAME),
                    ));
                }
            });
        });
}

/// The last thing said to a player, red if it was a refusal, green if not.
pub(super) fn said(message: Option<&(String, bool)>, colour: &mut TextColor) -> String {
    match message {
        Some((m, refused)) => {
            colour.0 = if *refused {
                palette::BAD
            } else {
                palette::GOOD
            };
            m.clone()
        }
        None => String::new(),
    }
}

pub(super) fn draw(
    roster: Res<Roster>,
    settings: Res<Settings>,
    reads: Option<Res<Reads>>,
    mut q: Query<(&ScanText, &mut Text, &mut TextColor)>,
) {
    let live = reads.as_ref().is_some_and(|r| r.live.is_some());
    for (which, mut text, mut colour) in &mut q {
        let value = match *which {
            ScanText::Header(s) => {
                let who = if s == Side::P1 {
                    Player::Person.label()
                } else if roster.lan {
                    "ON THE LAN".to_string()
                } else {
                    roster.p2.label()
                };
                let arrow = if roster.active == s { "▶ " } else { "" };
                format!("{arrow}{s} · {who}")
            }
            ScanText::List(s) => {
                let team = &roster.teams[s.index()];
                if s == Side::P2 && roster.lan {
                    "The other player brings a team on their own machine".to_string()
                } else if team.cards.is_empty() && roster.lan {
                    "No cards yet: scan the team you bring to the table".to_string()
                } else if s == Side::P2 && roster.p2 != Player::Person && team.cards.is_empty() {
                    "The CPU brings its own team".to_string()
                } else if team.cards.is_empty() {
                    "No cards yet (a partner is chosen for you)".to_string()
                } else {
                    let cost: u32 = team
                        .cards
                        .iter()
                        .filter_map(|(c, _)| {
                            c.as_digimon()
                                .map(|d| u32::from(d.cost))
                                .or_else(|| c.as_option().map(|o| u32::from(o.cost)))
                        })
                        .sum();
                    let mut lines: Vec<String> = team
                        .cards
                        .iter()
                        .map(|(c, _)| match c.as_digimon() {
                            Some(d) => {
                                format!("{} {}  {} · Cost {}", d.number, d.name, d.level, d.cost)
                            }
                            None => format!("{} {}  Option", c.number(), c.name()),
                        })
                        .collect();
                    lines.push(format!("Total Cost {cost}"));
                    lines.join("\n")
                }
            }
            ScanText::Message(s) => said(roster.teams[s.index()].message.as_ref(), &mut colour),
            ScanText::Status(s) => {
                if roster.lan && s == Side::P2 {
                    String::new()
                } else if roster.lan && !roster.teams[s.index()].ready {
                    "A ready (back to the table) · B take back".to_string()
                } else if s == Side::P2 && roster.p2 != Player::Person {
                    "READY · C changes the CPU or lets a second player in".to_string()
                } else if roster.teams[s.index()].ready {
                    "READY · B to change".to_string()
                } else {
                    "A ready · B take back · C who plays P2".to_string()
                }
            }
            ScanText::Entry => match &roster.entry {
                Some(e) => format!(
                    "Card number for {}: {e}_   (Enter adds · {}Esc cancels)",
                    roster.active,
                    if roster.lan {
                        ""
                    } else {
                        "Tab switches player · "
                    }
                ),
                None => {
                    let mut hint =
                        String::from("Enter: type a card number · drop card images on the window");
                    if live {
                        hint.push_str(" · show a card to the camera");
                    }
                    hint
                }
            },
            ScanText::Countdown => {
                let left = (settings.timeouts.scan_idle - roster.idle).max(0.0).ceil();
                if roster.lan {
                    format!("Back to the table in {left} s without input")
                } else {
                    format!("Demo teams in {left} s without input")
                }
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}
