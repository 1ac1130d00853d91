//! The result screen: the winner, the points, and a card "dispensed" as the
//! cabinet did (shown in 3D, printable). Back to attract after a timeout.
//!
//! Buttons: A play again, B watch the replay, C print the dispensed card.

use bevy::prelude::*;

use crate::arena::play::duel::{Duel, DuelKind, Show};
use crate::arena::render::stage::CameraShot;
use crate::arena::ui::input::{Button, Press};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Screen, Settings};
use crate::cards::Card;
use crate::replay::Replay;
use crate::rules::Outcome;
use crate::rules::terminal::{Match, Side, pick};

/// The dispensed card's height above the stage (its centre), metres: below
/// the result's title in the wide shot.
const CARD_Y: f32 = 1.55;
/// The card's size on stage, metres (a Data Carddass card is 59 × 86 mm).
const CARD_SIZE: Vec2 = Vec2::new(1.6, 2.33);

/// The result screen's state: the dispensed card and what happened to it.
#[derive(Resource, Debug, Clone)]
pub struct Dispensed {
    /// The card (none when the set has nothing to give).
    pub card: Option<Card>,
    /// Seconds since the screen opened or a button was last pressed.
    pub age: f32,
    /// What the last button did.
    pub message: String,
}

/// A replay the viewer should play next (from the result screen, or a
/// battle card scanned), and what to call it.
#[derive(Resource, Debug, Clone)]
pub struct PendingReplay(pub Replay<Match>, pub String);

#[derive(Component)]
struct CardOnStage;

#[derive(Component)]
enum ResultText {
    Countdown,
    Message,
}

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Result), enter)
        .add_systems(
            OnExit(Screen::Result),
            crate::arena::play::staging::end_duel,
        )
        .add_systems(
            Update,
            (
                go_to_result,
                (buttons, spin_card, draw).run_if(in_state(Screen::Result)),
            )
                .in_set(AppSystems::Update),
        );
}

/// After a played battle's last event has been staged for a moment.
fn go_to_result(
    duel: Option<Res<Duel>>,
    show: Res<Show>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
) {
    if *screen.get() == Screen::Battle
        && duel.is_some_and(|d| d.finished(&show) && d.over_for > 1.5)
    {
        next.set(Screen::Result);
    }
}

fn enter(
    mut commands: Commands,
    duel: Res<Duel>,
    mut shot: ResMut<CameraShot>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut sfx: MessageWriter<Sfx>,
) {
    let outcome = duel.m().outcome();
    let lan = duel.kind == DuelKind::Lan;
    *shot = CameraShot::Wide;
    sfx.write(Sfx(Sound::Fanfare));
    let card = pick::prize(duel.setup(), &duel.cards);
    if let Some(card) = &card {
        match crate::barcode::print::render_card(card, false) {
            Ok(rgb) => {
                let image = images.add(crate::arena::render::look::rgb_texture(&rgb));
                commands.spawn((
                    Name::new("Dispensed card"),
                    CardOnStage,
                    DespawnOnExit(Screen::Result),
                    Mesh3d(meshes.add(Rectangle::from_size(CARD_SIZE))),
                    MeshMaterial3d(materials.add(StandardMaterial {
                        base_color_texture: Some(image),
                        unlit: true,
                        double_sided: true,
                        cull_mode: None,
                        ..default()
                    })),
                    Transform::from_xyz(0.0, CARD_Y, 1.5),
                ));
            }
            Err(e) => warn!("cannot render the dispensed card: {e}"),
        }
    }
    let points = [Side::P1, Side::P2].map(|s| duel.m().view(s).points);
    let title = match outcome {
        Some(Outcome::Win(w)) => format!("{w} WINS!"),
        Some(Outcome::Draw) => "DRAW".to_string(),
        None => "BATTLE OVER".to_string(),
    };
    let why = crate::rules::terminal::log::why(duel.m(), &duel.cards);
    let saved = match duel.host.saved() {
        Some(Ok(p)) => format!("Replay saved: {}", p.display()),
        Some(Err(e)) => format!("Replay not saved: {e}"),
        None => String::new(),
    };
    let card_line = card.as_ref().map_or(String::new(), |c| {
        format!(
            "Card dispensed: {} {} — print it with C, or `bterm print {}`",
            c.number(),
            c.name(),
            c.number()
        )
    });
    commands
        .spawn(screen_layer(
            "Result",
            Screen::Result,
            24.0,
            AlignItems::Center,
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|t| {
                t.spawn(label(title, size::HEADLINE, palette::GOLD));
                if let Some(why) = &why {
                    t.spawn(label(why.clone(), size::VALUE, palette::WHITE));
                }
                t.spawn(label(
                    format!("P1 {} points  ·  P2 {} points", points[0], points[1]),
                    size::SCORE,
                    palette::WHITE,
                ));
            });
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    padding: UiRect::all(px(10)),
                    row_gap: px(6),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|b| {
                b.spawn(label(card_line, size::VALUE, palette::WHITE));
                b.spawn(label(saved, size::SMALL, palette::DIM));
                b.spawn((ResultText::Message, label("", size::BODY, palette::GOOD)));
                b.spawn(label(
                    if lan {
                        "A another game · B watch the replay · C print the card"
                    } else {
                        "A play again · B watch the replay · C print the card"
                    },
                    size::PROMPT,
                    palette::GOLD,
                ));
                b.spawn((ResultText::Countdown, label("", size::SMALL, palette::DIM)));
            });
        });
    commands.insert_resource(Dispensed {
        card,
        age: 0.0,
        message: String::new(),
    });
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn buttons(
    mut commands: Commands,
    time: Res<Time>,
    mut presses: MessageReader<Press>,
    duel: Option<Res<Duel>>,
    mut dispensed: ResMut<Dispensed>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    dispensed.age += time.delta_secs();
    for p in presses.read() {
        dispensed.age = 0.0;
        sfx.write(Sfx(Sound::Button));
        match p.button {
            // After a LAN game: the choice of game (host or join again).
            Button::A if duel.as_ref().is_some_and(|d| d.kind == DuelKind::Lan) => {
                next.set(Screen::Choose);
            }
            Button::A => next.set(Screen::Scan),
            Button::B => {
                if let Some(duel) = &duel {
                    commands.insert_resource(PendingReplay(
                        duel.host.record(),
                        "the battle just played".to_string(),
                    ));
                    next.set(Screen::Replay);
                }
            }
            Button::C => {
                if let Some(card) = &dispensed.card {
                    dispensed.message = print_card(card);
                }
            }
        }
    }
    if dispensed.age > settings.timeouts.result {
        next.set(Screen::Attract);
    }
}

/// Prints the card to the data directory's `prints` folder, as a PNG.
fn print_card(card: &Card) -> String {
    let Some(dir) = crate::save::data_dir().map(|d| d.join("prints")) else {
        return "No data directory to print into (set BTERM_DATA_DIR)".to_string();
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return format!("Cannot create {}: {e}", dir.display());
    }
    let safe: String = card
        .number()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}.png"));
    if path.exists() {
        return format!("Already printed: {}", path.display());
    }
    match crate::barcode::print::print(&[(card.clone(), false)], &path, false) {
        Ok(files) => format!(
            "Printed to {}",
            files
                .first()
                .map_or(path.display().to_string(), |p| p.display().to_string())
        ),
        Err(e) => format!("Cannot print: {e}"),
    }
}

fn spin_card(time: Res<Time>, mut q: Query<&mut Transform, With<CardOnStage>>) {
    for mut tf in &mut q {
        let t = time.elapsed_secs();
        tf.rotation = Quat::from_rotation_y((t * 0.6).sin() * 0.5);
        tf.translation.y = CARD_Y + 0.08 * (t * 1.5).sin();
    }
}

fn draw(
    dispensed: Res<Dispensed>,
    settings: Res<Settings>,
    mut q: Query<(&ResultText, &mut Text)>,
) {
    let (age, message) = (dispensed.age, &dispensed.message);
    for (which, mut text) in &mut q {
        let value = match which {
            ResultText::Countdown => format!(
                "Back to the start in {} s",
                (settings.timeouts.result - age).max(0.0).ceil()
            ),
            ResultText::Message => message.clone(),
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}
