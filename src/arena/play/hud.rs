//! The battle HUD: points, HP, evolution gauge, the round and the stance
//! timer; after the reveal, both stances and the techniques with their
//! powers; a banner for the big moments and the last lines of the log.
//! It draws the [`Board`] (what has been staged), never the Match itself.

use bevy::prelude::*;
use bevy::text::FontSize;

use crate::arena::play::duel::{Duel, DuelKind};
use crate::arena::play::staging::Board;
use crate::arena::ui::input::Button;
use crate::arena::ui::theme::stance;
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Screen};
use crate::effects::text::render;
use crate::rules::terminal::{Ask, Side, log};

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

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_for(Screen::Battle))
        .add_systems(OnEnter(Screen::Replay), spawn_for(Screen::Replay))
        .add_systems(
            Update,
            draw.run_if(resource_exists::<Duel>)
                .in_set(AppSystems::Update),
        );
}

fn spawn_for(screen: Screen) -> impl Fn(Commands, Option<Res<Duel>>) {
    move |mut commands: Commands, duel: Option<Res<Duel>>| {
        let lan = duel.is_some_and(|d| d.kind == DuelKind::Lan);
        spawn_hud(&mut commands, screen, lan);
    }
}

/// Spawns the HUD, removed when `screen` ends (`lan`: a LAN battle, where
/// this machine's one player answers on either set of keys).
pub fn spawn_hud(commands: &mut Commands, screen: Screen, lan: bool) -> Entity {
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
                    c.spawn((
                        CentreText::Round,
                        label("ROUND 1", size::HEADER, palette::INK),
                    ));
                    c.spawn((CentreText::Timer, label("", size::TIMER, palette::GOLD)));
                });
                side_panel(top, Side::P2);
            });
            // Middle: the banner.
            root.spawn(Node {
                justify_content: JustifyContent::Center,
                ..default()
            })
            .with_children(|m| {
                m.spawn((CentreText::Banner, label("", size::BANNER, palette::GOLD)));
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
                    row.spawn((
                        SideText::Reveal(Side::P1),
                        label("", size::REVEAL, palette::INK),
                    ));
                    row.spawn((
                        SideText::Reveal(Side::P2),
                        label("", size::REVEAL, palette::INK),
                    ));
                });
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    justify_content: JustifyContent::SpaceBetween,
                    ..default()
                })
                .with_children(|row| {
                    row.spawn((
                        SideText::Prompt(Side::P1),
                        label("", size::PROMPT, palette::GOLD),
                    ));
                    row.spawn((
                        SideText::Prompt(Side::P2),
                        label("", size::PROMPT, palette::GOLD),
                    ));
                });
                b.spawn((
                    Node {
                        padding: UiRect::axes(px(10), px(6)),
                        ..default()
                    },
                    BackgroundColor(palette::PANEL),
                ))
                .with_children(|log| {
                    log.spawn((CentreText::Log, label("", size::LOG, palette::INK)));
                });
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    column_gap: px(10),
                    ..default()
                })
                .with_children(|hints| {
                    if lan {
                        hints.spawn(label("YOU", size::BODY, palette::INK));
                        for (b, key) in Button::ALL.iter().zip(["1 / J", "2 / K", "3 / L"]) {
                            hint(hints, *b, key);
                        }
                    } else {
                        hints.spawn(label("P1", size::BODY, palette::INK));
                        for (b, key) in Button::ALL.iter().zip(["1", "2", "3"]) {
                            hint(hints, *b, key);
                        }
                        hints.spawn(label("    P2", size::BODY, palette::INK));
                        for (b, key) in Button::ALL.iter().zip(["J", "K", "L"]) {
                            hint(hints, *b, key);
                        }
                    }
                    hints.spawn(label(
                        "    hold a button for an Alpha Strike when it is ready",
                        size::SMALL,
                        palette::INK,
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
                size::BODY,
                palette::WHITE,
            ));
        });
}

/// The width inside a side panel, UI pixels (400 less its padding).
const PANEL_TEXT_WIDTH: f32 = 380.0;

/// The smallest a Digimon's name and level are written.
const NAME_SMALLEST: f32 = 16.0;

/// The font size that keeps `text` (a name and its level) on one line of a
/// side panel: the usual size, smaller for a long one (the font's glyphs
/// are at most about 0.6 of its size wide).
pub fn name_size(text: &str) -> f32 {
    let chars = text.chars().count().max(1) as f32;
    (PANEL_TEXT_WIDTH / (0.6 * chars)).clamp(NAME_SMALLEST, size::NAME)
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
            BackgroundColor(palette::PANEL),
        ))
        .with_children(|p| {
            p.spawn((
                SideText::Team(side),
                label(side.to_string(), size::SMALL, palette::INK),
            ));
            p.spawn((SideText::Name(side), label("", size::NAME, palette::WHITE)));
            bar(p, Bar::Points(side), palette::GOLD);
            p.spawn(Node {
                flex_direction: FlexDirection::Row,
                column_gap: px(16),
                ..default()
            })
            .with_children(|row| {
                row.spawn((
                    SideText::Points(side),
                    label("", size::VALUE, palette::GOLD),
                ));
                row.spawn((SideText::Hp(side), label("", size::VALUE, palette::INK)));
            });
            bar(p, Bar::Gauge(side), palette::GAUGE);
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
            BackgroundColor(palette::TRACK),
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
            Ask::Evolve { jogress: false } => match duel.m().bench_evolving(side) {
                // A bench line asked (engine 4): which one, on a line of its own.
                Some((from, to)) => format!(
                    "DIGIVOLVE?  A yes · B no\n{} on the bench → {}",
                    log::name(&duel.cards, from),
                    log::name(&duel.cards, to)
                ),
                None => "DIGIVOLVE?  A yes · B no".into(),
            },
            Ask::Block => "ALPHA BLOCK?  A yes · B no".into(),
        },
    }
}

/// Counters that roll: the points and HP shown move to the staged value
/// over about half a second, as on a cabinet, instead of jumping.
#[derive(Debug, Default)]
pub struct Rolling {
    /// Points and HP shown, per side; `None` before the first frame.
    shown: Option<[[f32; 2]; 2]>,
}

impl Rolling {
    /// Moves the shown values towards `target` over `dt` seconds and
    /// returns them, rounded.
    pub fn step(&mut self, target: [[f32; 2]; 2], dt: f32) -> [[i64; 2]; 2] {
        let shown = self.shown.get_or_insert(target);
        let k = 1.0 - (-ROLL_RATE * dt).exp();
        for (row, goal) in shown.iter_mut().zip(target) {
            for (v, g) in row.iter_mut().zip(goal) {
                *v += (g - *v) * k;
                if (g - *v).abs() < 0.5 {
                    *v = g;
                }
            }
        }
        shown.map(|row| row.map(|v| v.round() as i64))
    }
}

/// How fast a counter rolls (1/s): nine tenths of the way in ~0.3 s.
const ROLL_RATE: f32 = 8.0;

fn draw(
    time: Res<Time>,
    board: Res<Board>,
    duel: Res<Duel>,
    mut texts: Query<(&SideText, &mut Text, &mut TextColor, &mut TextFont), Without<CentreText>>,
    mut centre: Query<(&CentreText, &mut Text), Without<SideText>>,
    mut bars: Query<(&Bar, &mut Node)>,
    mut rolling: Local<Rolling>,
) {
    let max_points = duel.m().tunables().max_points.max(1) as f32;
    let target = [0, 1].map(|i| {
        let b = &board.sides[i];
        [b.points.max(0) as f32, b.hp as f32]
    });
    let shown = rolling.step(target, time.delta_secs());
    for (which, mut text, mut colour, mut font) in &mut texts {
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
                    DuelKind::Lan => duel
                        .remote
                        .as_ref()
                        .map_or_else(|| duel.player(s).label(), |r| r.who(s.seat())),
                };
                let ready = if b.locked && b.stance.is_none() {
                    "  ● READY"
                } else {
                    ""
                };
                format!("{s} · {who} · Digimon {}/{}{ready}", b.left, b.team)
            }
            SideText::Points(s) => format!("POINTS {}", shown[s.index()][0]),
            SideText::Hp(s) => format!("HP {}", shown[s.index()][1]),
            SideText::Reveal(s) => {
                let b = &board.sides[s.index()];
                let mut line = String::new();
                if let Some(t) = b.stance {
                    line = format!("{s} STANCE {}", t.letter());
                    colour.0 = stance(t);
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
            if matches!(which, SideText::Name(_)) {
                // A long name and level is made smaller to keep one line.
                font.font_size = FontSize::Px(name_size(&value));
            }
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
            Bar::Points(s) => shown[s.index()][0] as f32 / max_points,
            Bar::Gauge(s) => board.sides[s.index()].gauge as f32 / 100.0,
        };
        node.width = percent((fraction * 100.0).clamp(0.0, 100.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_is_made_smaller_to_keep_one_line() {
        assert_eq!(name_size("Agumon  Level III"), size::NAME);
        let long = "Flamemon  Hybrid (as Level III)";
        let s = name_size(long);
        assert!((NAME_SMALLEST..size::NAME).contains(&s), "{s}");
        // At that size its widest glyphs fit the panel.
        assert!(0.6 * s * long.chars().count() as f32 <= PANEL_TEXT_WIDTH + 0.01);
        assert_eq!(name_size(&"x".repeat(200)), NAME_SMALLEST);
    }

    #[test]
    fn counters_roll_to_the_new_value_and_stop_there() {
        let mut r = Rolling::default();
        assert_eq!(
            r.step([[100.0, 400.0], [100.0, 420.0]], 0.1),
            [[100, 400], [100, 420]]
        );
        // P2 loses 30 points: the counter passes through values between.
        let first = r.step([[100.0, 400.0], [70.0, 420.0]], 1.0 / 30.0);
        assert!(first[1][0] < 100 && first[1][0] > 70, "{first:?}");
        let mut last = first;
        for _ in 0..30 {
            last = r.step([[100.0, 400.0], [70.0, 420.0]], 1.0 / 30.0);
        }
        assert_eq!(last, [[100, 400], [70, 420]]);
    }
}
