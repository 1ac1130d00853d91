//! The battle HUD: points, HP, evolution gauge, the round and the stance
//! timer; after the reveal, both stances and the techniques with their
//! powers; a banner for the big moments and the last lines of the log.
//! It draws the [`Board`] (what has been staged), never the Match itself.

use bevy::prelude::*;
use bevy::text::FontSize;

use super::duel::{Duel, DuelKind};
use super::input::{Button, stance_colour};
use super::staging::Board;
use super::{AppSystems, Screen};
use crate::effects::text::render;
use crate::rules::terminal::{Ask, Side, log};

/// Panel background.
const PANEL: Color = Color::srgba(0.02, 0.05, 0.12, 0.78);
/// HUD text colour.
const INK: Color = Color::srgb(0.85, 0.92, 1.0);
/// Gold for the big moments.
const GOLD: Color = Color::srgb(1.0, 0.85, 0.2);

/// A text made in the HUD's style.
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

/// A HUD field that shows something of one side.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideText {
    /// Front Digimon's name and level.
    Name(Side),
    /// Pilot and Digimon left.
    Team(Side),
    /// Points.
    Points(Side),
    /// HP.
    Hp(Side),
    /// The revealed stance, technique and power.
    Reveal(Side),
    /// What the player should press now.
    Prompt(Side),
}

/// A bar: points or gauge.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bar {
    /// Points out of the maximum.
    Points(Side),
    /// Evolution gauge.
    Gauge(Side),
}

/// The centre texts.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CentreText {
    /// "ROUND 3 / 12".
    Round,
    /// The stance timer.
    Timer,
    /// The big banner.
    Banner,
    /// The log.
    Log,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_for(Screen::Battle))
        .add_systems(OnEnter(Screen::Replay), spawn_for(Screen::Replay))
        .add_systems(
            Update,
            draw.run_if(resource_exists::<Duel>)
                .in_set(AppSystems::Update),
        );
}

fn spawn_for(screen: Screen) -> impl Fn(Commands) {
    move |mut commands: Commands| {
        spawn_hud(&mut commands, screen);
    }
}

/// Spawns the HUD, removed when `screen` ends.
pub fn spawn_hud(commands: &mut Commands, screen: Screen) -> Entity {
    commands
        .spawn(screen_layer("HUD", screen, 16.0, AlignItems::Default))
        .with_children(|root| {
            // Top: P1 panel, round and timer, P2 panel.
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexStart,
                ..default()
            })
            .with_children(|top| {
                side_panel(top, Side::P1);
                top.spawn(centred_column()).with_children(|c| {
                    c.spawn((CentreText::Round, label("ROUND 1", 26.0, INK)));
                    c.spawn((CentreText::Timer, label("", 64.0, GOLD)));
                });
                side_panel(top, Side::P2);
            });
            // Middle: the banner.
            root.spawn(Node {
                justify_content: JustifyContent::Center,
                ..default()
            })
            .with_children(|m| {
                m.spawn((CentreText::Banner, label("", 56.0, GOLD)));
            });
            // Bottom: reveals, prompts, log, button hints.
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(6),
                ..default()
            })
            .with_children(|b| {
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    justify_content: JustifyContent::SpaceBetween,
                    ..default()
                })
                .with_children(|row| {
                    row.spawn((SideText::Reveal(Side::P1), label("", 24.0, INK)));
                    row.spawn((SideText::Reveal(Side::P2), label("", 24.0, INK)));
                });
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    justify_content: JustifyContent::SpaceBetween,
                    ..default()
                })
                .with_children(|row| {
                    row.spawn((SideText::Prompt(Side::P1), label("", 22.0, GOLD)));
                    row.spawn((SideText::Prompt(Side::P2), label("", 22.0, GOLD)));
                });
                b.spawn((
                    Node {
                        padding: UiRect::axes(px(10), px(6)),
                        ..default()
                    },
                    BackgroundColor(PANEL),
                ))
                .with_children(|log| {
                    log.spawn((CentreText::Log, label("", 17.0, INK)));
                });
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    column_gap: px(10),
                    ..default()
                })
                .with_children(|hints| {
                    hints.spawn(label("P1", 18.0, INK));
                    for (b, key) in Button::ALL.iter().zip(["1", "2", "3"]) {
                        hint(hints, *b, key);
                    }
                    hints.spawn(label("    P2", 18.0, INK));
                    for (b, key) in Button::ALL.iter().zip(["J", "K", "L"]) {
                        hint(hints, *b, key);
                    }
                    hints.spawn(label(
                        "    hold a button for an Alpha Strike when it is ready",
                        16.0,
                        INK,
                    ));
                });
            });
        })
        .id()
}

fn hint(parent: &mut ChildSpawnerCommands, b: Button, key: &str) {
    parent
        .spawn((
            Node {
                padding: UiRect::axes(px(8), px(2)),
                border: UiRect::all(px(2)),
                ..default()
            },
            BackgroundColor(b.colour().with_alpha(0.35)),
            BorderColor::all(b.colour()),
        ))
        .with_children(|k| {
            k.spawn(label(
                format!("{key} {}", b.stance().letter()),
                18.0,
                Color::WHITE,
            ));
        });
}

fn side_panel(parent: &mut ChildSpawnerCommands, side: Side) {
    let align = if side == Side::P1 {
        AlignItems::FlexStart
    } else {
        AlignItems::FlexEnd
    };
    parent
        .spawn((
            Node {
                width: px(400),
                max_height: px(150),
                overflow: Overflow::clip(),
                flex_direction: FlexDirection::Column,
                align_items: align,
                align_self: AlignSelf::FlexStart,
                padding: UiRect::all(px(10)),
                row_gap: px(4),
                ..default()
            },
            BackgroundColor(PANEL),
        ))
        .with_children(|p| {
            p.spawn((SideText::Team(side), label(side.to_string(), 16.0, INK)));
            p.spawn((SideText::Name(side), label("", 28.0, Color::WHITE)));
            bar(p, Bar::Points(side), GOLD);
            p.spawn(Node {
                flex_direction: FlexDirection::Row,
                column_gap: px(16),
                ..default()
            })
            .with_children(|row| {
                row.spawn((SideText::Points(side), label("", 20.0, GOLD)));
                row.spawn((SideText::Hp(side), label("", 20.0, INK)));
            });
            bar(p, Bar::Gauge(side), Color::srgb(0.3, 0.9, 1.0));
        });
}

fn bar(parent: &mut ChildSpawnerCommands, which: Bar, colour: Color) {
    parent
        .spawn((
            Node {
                width: px(380),
                height: px(10),
                ..default()
            },
            BackgroundColor(Color::srgba(1.0, 1.0, 1.0, 0.12)),
        ))
        .with_children(|b| {
            b.spawn((
                which,
                Node {
                    width: percent(0),
                    height: percent(100),
                    ..default()
                },
                BackgroundColor(colour),
            ));
        });
}

/// The prompt and timer for a person's question.
fn prompt(duel: &Duel, side: Side) -> String {
    if !duel.player(side).is_person() {
        return String::new();
    }
    match duel.asking[side.index()] {
        None => String::new(),
        Some(a) => match a.ask {
            Ask::Ability { slot } => match duel.m().ability(side, slot) {
                Some((card, ability)) => format!(
                    "USE {}?  A yes · B no\n{}",
                    log::name(&duel.cards, card),
                    render(ability)
                ),
                None => String::new(),
            },
            Ask::Stance { alpha: false } => "Choose your stance: A B C".into(),
            Ask::Stance { alpha: true } => "Stance A B C — hold one for ALPHA STRIKE".into(),
            Ask::Evolve { jogress: true } => "JOGRESS?  A yes · B no".into(),
            Ask::Evolve { jogress: false } => "DIGIVOLVE?  A yes · B no".into(),
            Ask::Block => "ALPHA BLOCK?  A yes · B no".into(),
        },
    }
}

fn draw(
    board: Res<Board>,
    duel: Res<Duel>,
    mut texts: Query<(&SideText, &mut Text, &mut TextColor), Without<CentreText>>,
    mut centre: Query<(&CentreText, &mut Text), Without<SideText>>,
    mut bars: Query<(&Bar, &mut Node)>,
) {
    let max_points = duel.m().tunables().max_points.max(1) as f32;
    for (which, mut text, mut colour) in &mut texts {
        let value = match *which {
            SideText::Name(s) => {
                let b = &board.sides[s.index()];
                format!("{}  {}", b.name, b.level)
            }
            SideText::Team(s) => {
                let b = &board.sides[s.index()];
                let who = match duel.kind {
                    DuelKind::Demo => "CPU".to_string(),
                    DuelKind::Replay => "REPLAY".to_string(),
                    DuelKind::Play => duel.player(s).label(),
                };
                let ready = if b.locked && b.stance.is_none() {
                    "  ● READY"
                } else {
                    ""
                };
                format!("{s} · {who} · Digimon {}/{}{ready}", b.left, b.team)
            }
            SideText::Points(s) => format!("POINTS {}", board.sides[s.index()].points),
            SideText::Hp(s) => format!("HP {}", board.sides[s.index()].hp),
            SideText::Reveal(s) => {
                let b = &board.sides[s.index()];
                let mut line = String::new();
                if let Some(t) = b.stance {
                    line = format!("{s} STANCE {}", t.letter());
                    colour.0 = stance_colour(t);
                }
                if let Some((name, base)) = &b.technique {
                    line.push_str(&format!(" · {name} {base}"));
                    if let Some(p) = b.power.filter(|p| p != base) {
                        line.push_str(&format!(" → {p}"));
                    }
                }
                line
            }
            SideText::Prompt(s) => prompt(&duel, s),
        };
        if text.0 != value {
            text.0 = value;
        }
    }
    let timer = duel
        .asking
        .iter()
        .flatten()
        .map(|a| a.left)
        .fold(None, |m: Option<f32>, l| Some(m.map_or(l, |m| m.max(l))));
    for (which, mut text) in &mut centre {
        let value = match which {
            CentreText::Round => format!("ROUND {} / {}", board.round.max(1), board.max_rounds),
            CentreText::Timer => {
                timer.map_or(String::new(), |t| format!("{}", t.max(0.0).ceil() as u32))
            }
            CentreText::Banner => board
                .banner
                .as_ref()
                .map_or(String::new(), |(b, _)| b.clone()),
            CentreText::Log => board.log.iter().cloned().collect::<Vec<_>>().join("\n"),
        };
        if text.0 != value {
            text.0 = value;
        }
    }
    for (which, mut node) in &mut bars {
        let fraction = match *which {
            Bar::Points(s) => board.sides[s.index()].points.max(0) as f32 / max_points,
            Bar::Gauge(s) => board.sides[s.index()].gauge as f32 / 100.0,
        };
        node.width = percent((fraction * 100.0).clamp(0.0, 100.0));
    }
}
