//! The attract screen: the arena idles under a slow camera orbit while two
//! CPU teams battle in the background (the title and the rankings board
//! take turns); A, C or Enter starts a game, B opens the collection.

use bevy::prelude::*;
use bevy::text::FontSize;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::ai::Strength;
use crate::arena::play::duel::{Duel, DuelKind, DuelStarted, Show};
use crate::arena::play::staging::Board;
use crate::arena::screens::collection::AttractTitle;
use crate::arena::ui::input::Button;
use crate::arena::ui::input::Press;
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::{Blink, centred_column, screen_layer};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::rules::terminal::{Setup, pick};
use crate::session::{Player, clock_seed};

/// Seconds a finished demo stays on stage before the next one.
const DEMO_REST: f32 = 3.0;

/// How many demos have been played (each gets its own teams).
#[derive(Resource, Debug, Default)]
pub struct DemoCount(pub u64);

/// The demo battle's ticker line.
#[derive(Component)]
struct Ticker;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<DemoCount>()
        .add_systems(OnEnter(Screen::Attract), (spawn_title, start_demo))
        .add_systems(
            OnExit(Screen::Attract),
            crate::arena::play::staging::end_duel,
        )
        .add_systems(
            Update,
            (next_demo, press_to_start, ticker)
                .run_if(in_state(Screen::Attract))
                .in_set(AppSystems::Update),
        );
}

/// Starts a CPU-vs-CPU demo with random teams.
fn start_demo(
    mut commands: Commands,
    cards: Res<Cards>,
    settings: Res<Settings>,
    mut count: ResMut<DemoCount>,
    mut started: MessageWriter<DuelStarted>,
) {
    if settings.opens_on_replay() {
        return;
    }
    count.0 += 1;
    let seed = settings
        .seed
        .unwrap_or_else(clock_seed)
        .wrapping_add(count.0 * 7919);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let [p1, p2] = pick::demo_teams(&cards.0, &mut rng);
    let setup = Setup::new(p1, p2, seed);
    let pilots = [Player::Cpu(Strength::Normal); 2];
    match Duel::new(DuelKind::Demo, setup, &cards.0, pilots) {
        Ok(duel) => {
            commands.insert_resource(duel);
            started.write(DuelStarted);
        }
        // Both teams were accepted alone; should the pair be refused the
        // arena idles without a demo until the next press.
        Err(e) => warn!("demo team refused: {e}"),
    }
}

fn next_demo(
    commands: Commands,
    duel: Option<Res<Duel>>,
    show: Res<Show>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    count: ResMut<DemoCount>,
    started: MessageWriter<DuelStarted>,
) {
    if duel.is_some_and(|d| d.finished(&show) && d.over_for > DEMO_REST) {
        start_demo(commands, cards, settings, count, started);
    }
}

fn press_to_start(
    mut presses: MessageReader<Press>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    if settings.opens_on_replay() {
        next.set(if settings.table.is_some() {
            Screen::Table
        } else {
            Screen::Replay
        });
        return;
    }
    let key = keys.is_some_and(|k| k.any_just_pressed([KeyCode::Enter, KeyCode::Space]));
    // A (or Enter) starts a game, B opens the collection, C the replays.
    let mut to = key.then_some(Screen::Choose);
    for p in presses.read() {
        to = Some(match p.button {
            Button::A => Screen::Choose,
            Button::B => Screen::Collection,
            Button::C => Screen::Gallery,
        });
    }
    if let Some(screen) = to {
        sfx.write(Sfx(Sound::Button));
        next.set(screen);
    }
}

fn spawn_title(mut commands: Commands, cards: Res<Cards>, settings: Res<Settings>) {
    if settings.opens_on_replay() {
        return;
    }
    commands
        .spawn(screen_layer(
            "Attract",
            Screen::Attract,
            32.0,
            AlignItems::Center,
        ))
        .with_children(|root| {
            root.spawn((centred_column(), AttractTitle)).with_children(|top| {
                top.spawn(label("bterm", size::TITLE, palette::GOLD));
                top.spawn(label(
                    "DIGIMON BATTLE TERMINAL",
                    size::SUBTITLE,
                    palette::SKY,
                ));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: px(10),
                ..default()
            })
            .with_children(|bottom| {
                bottom.spawn((
                    Blink,
                    Text::new("PRESS A TO PLAY"),
                    TextFont {
                        font_size: FontSize::Px(size::HEADING),
                        ..default()
                    },
                    TextColor(palette::WHITE),
                    TextShadow::default(),
                ));
                bottom.spawn((Ticker, label("", size::BODY, palette::DIM)));
                bottom.spawn(label(
                    format!(
                        "DEMO BATTLE · {} cards ready · B your collection · C replays · P1 keys 1 2 3 · P2 keys J K L",
                        cards.0.len()
                    ),
                    size::BODY,
                    palette::SOFT,
                ));
            });
        });
}

fn ticker(board: Res<Board>, mut q: Query<&mut Text, With<Ticker>>) {
    let line = board.log.back().cloned().unwrap_or_default();
    for mut t in &mut q {
        if t.0 != line {
            t.0.clone_from(&line);
        }
    }
}
