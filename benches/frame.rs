//! Frame time of the battle scene against an empty Bevy 3D scene, both
//! rendered off-screen at 1280×720 on this machine's GPU (or its software
//! Vulkan driver). Run with `make bench-frame`; docs/guide/benchmarks.md reports the ratio.
//!
//! The battle scene is the real game: stage, floor and light rig, a
//! CPU-vs-CPU battle with its rigged figures, techniques and their
//! particles, debris under physics and the HUD; bloom as the game decides
//! it on this renderer, and once more with bloom forced on. Then a Card
//! Game Alpha game and a Digimon Card Game game between four CPUs on the
//! table.

use std::time::Duration;

use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bterm::arena::render::stage::ArenaCamera;
use bterm::arena::{AppPlugin, Cards, Screen, Settings};
use bterm::cards::CardSet;
use criterion::{Criterion, criterion_group, criterion_main};

/// Frames rendered before timing starts (pipelines compile, the demo starts).
const WARM_UP_FRAMES: usize = 120;

fn base_app() -> App {
    bterm::arena::screens::clip::offscreen_app()
}

fn target(app: &mut App) -> RenderTarget {
    let image = Image::new_target_texture(1280, 720, TextureFormat::Rgba8UnormSrgb, None);
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    RenderTarget::Image(handle.into())
}

/// Points the stage's camera at an off-screen target.
fn aim_at_target(app: &mut App) {
    let t = target(app);
    let camera = app
        .world_mut()
        .query_filtered::<Entity, With<ArenaCamera>>()
        .single(app.world())
        .expect("the stage has a camera");
    app.world_mut().entity_mut(camera).insert(t);
}

fn ready(app: &mut App) {
    app.finish();
    app.cleanup();
}

fn finish(mut app: App) -> App {
    for _ in 0..WARM_UP_FRAMES {
        app.update();
    }
    app
}

/// A camera and nothing else.
fn empty_scene() -> App {
    let mut app = base_app();
    ready(&mut app);
    let t = target(&mut app);
    app.world_mut()
        .spawn((Camera3d::default(), t, Transform::from_xyz(0.0, 4.0, 10.0)));
    finish(app)
}

/// The attract screen's demo battle with the battle HUD on top; `bloom`
/// as the game decides it (`None`: off on a software renderer) or forced.
fn battle_scene(bloom: Option<bool>) -> App {
    let mut app = base_app();
    app.insert_resource(Cards(CardSet::embedded()))
        .insert_resource(Settings {
            seed: Some(3),
            mute: true,
            show_speed: 2.0,
            bloom,
            ..Settings::default()
        })
        .add_plugins(AppPlugin { windowed: false });
    bterm::arena::add_physics(&mut app);
    ready(&mut app);
    app.update();
    aim_at_target(&mut app);
    let mut commands = app.world_mut().commands();
    bterm::arena::play::hud::spawn_hud(&mut commands, Screen::Attract, false);
    app.world_mut().flush();
    finish(app)
}

/// A Card Game Alpha game between four CPUs staged on its table (cards
/// with their faces, figures on the Box cards, techniques, the HUD), as
/// `bterm replay` shows it.
fn alpha_table_4_seats() -> App {
    let cards = CardSet::embedded();
    let replay = bterm::arena::play::table::cpu_game(4, 5, &cards).expect("a CPU game");
    table_app(
        cards,
        bterm::arena::play::table::PendingTable(replay, "bench".into()),
    )
}

/// A Digimon Card Game game between four CPUs on the table (each seat's
/// playmat, figures on the Digimon, the memory gauge, banks and arrows,
/// the HUD), as `bterm replay` shows it.
fn dcg_table_4_seats() -> App {
    let cards = CardSet::embedded();
    let replay = bterm::arena::play::table::dcg_cpu_game(4, 5, &cards).expect("a CPU game");
    table_app(
        cards,
        bterm::arena::play::table::PendingTable(replay, "bench".into()),
    )
}

/// The game opened on a replay, on the table.
fn table_app(cards: CardSet, pending: impl Resource) -> App {
    let mut app = base_app();
    app.insert_resource(Cards(cards))
        .insert_resource(Settings {
            seed: Some(3),
            mute: true,
            ..Settings::default()
        })
        .insert_resource(pending)
        .add_plugins(AppPlugin { windowed: false });
    ready(&mut app);
    app.update();
    aim_at_target(&mut app);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    // At 1× the game lasts well past the measurement.
    finish(app)
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame_1280x720");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(20));
    let mut empty = empty_scene();
    group.bench_function("empty_3d_scene", |b| b.iter(|| empty.update()));
    drop(empty);
    let mut battle = battle_scene(None);
    group.bench_function("battle_scene", |b| b.iter(|| battle.update()));
    drop(battle);
    let mut bloom = battle_scene(Some(true));
    group.bench_function("battle_scene_with_bloom", |b| b.iter(|| bloom.update()));
    drop(bloom);
    let mut table = alpha_table_4_seats();
    group.bench_function("alpha_table_4_seats", |b| b.iter(|| table.update()));
    drop(table);
    let mut dcg = dcg_table_4_seats();
    group.bench_function("dcg_table_4_seats", |b| b.iter(|| dcg.update()));
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
