//! A contact sheet of every figure the card set ships, rendered off-screen
//! to PNG pages (12 a page), to look at each beside the Digimon it is named
//! after:
//!
//! ```text
//! xvfb-run -a cargo run --example figures -- OUT_DIR [FILTER]
//! ```
//!
//! Writes `OUT_DIR/figures-1.png`, `figures-2.png`, …; FILTER keeps the
//! cards whose number or name holds it (`Gabumon`, `Dα-01`). Each figure
//! stands in its idle pose, turned three-quarters to the camera, scaled to
//! its cell (the level's size difference is left out), its name under it.

use std::time::Duration;

use bevy::camera::{Hdr, RenderTarget};
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bterm::arena::render::figures::{self, FigureKit, level_scale, rig_of, spawn_figure};
use bterm::cards::{CardSet, Digimon, Figures};
use bterm::rules::terminal::Side;

/// Cells a page: columns × rows.
const COLUMNS: usize = 4;
const ROWS: usize = 3;
/// A cell's size, metres.
const CELL: f32 = 3.0;
/// The page, pixels.
const SIZE: (u32, u32) = (1600, 1050);

#[derive(Resource, Clone)]
struct Page(Vec<Digimon>);

/// What stands on the page shown.
#[derive(Component)]
struct OnPage;

fn cell_centre(i: usize) -> Vec3 {
    let (c, r) = ((i % COLUMNS) as f32, (i / COLUMNS) as f32);
    Vec3::new(
        (c - (COLUMNS as f32 - 1.0) / 2.0) * CELL,
        ((ROWS as f32 - 1.0) / 2.0 - r) * CELL,
        0.0,
    )
}

fn stand(
    mut commands: Commands,
    mut kit: FigureKit,
    page: Res<Page>,
    old: Query<Entity, (With<OnPage>, Without<ChildOf>)>,
) {
    if !page.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    for (i, d) in page.0.iter().enumerate() {
        let (centre, radius) = rig_of(d).bounds();
        let level = level_scale(d.level.stage());
        // Every figure fills its cell: the level's scale is undone.
        let size = (CELL * 0.5 / radius.max(0.1)) / level;
        let feet = cell_centre(i) - Vec3::Y * centre.y * level * size;
        let e = spawn_figure(&mut commands, &mut kit, d, Side::P1, feet, size);
        // Three-quarters towards the camera.
        commands.entity(e).insert((
            OnPage,
            Transform::from_translation(feet)
                .with_rotation(Quat::from_rotation_y(0.6))
                .with_scale(Vec3::splat(level * size)),
        ));
        commands.spawn((
            OnPage,
            Text::new(format!("{} {}", d.number, d.name)),
            TextFont::from_font_size(22.0),
            TextColor(Color::WHITE),
            Node {
                position_type: PositionType::Absolute,
                left: px((i % COLUMNS) as f32 * SIZE.0 as f32 / COLUMNS as f32 + 12.0),
                top: px(((i / COLUMNS) + 1) as f32 * SIZE.1 as f32 / ROWS as f32 - 34.0),
                ..default()
            },
        ));
    }
}

fn app() -> (App, Handle<Image>) {
    let mut app = bterm::arena::screens::clip::offscreen_app();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )))
    .insert_resource(ClearColor(Color::srgb(0.16, 0.18, 0.24)))
    .insert_resource(Page(Vec::new()))
    .add_plugins((bterm::arena::render::look::plugin, figures::plugin))
    .add_systems(Update, stand);
    bterm::arena::use_dejavu(&mut app);
    app.finish();
    app.cleanup();
    let image = Image::new_target_texture(SIZE.0, SIZE.1, TextureFormat::Rgba8UnormSrgb, None);
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    app.world_mut().spawn((
        Camera3d::default(),
        RenderTarget::Image(handle.clone().into()),
        IsDefaultUiCamera,
        Hdr,
        Tonemapping::TonyMcMapface,
        Transform::from_xyz(0.0, 0.6, 11.2).looking_at(Vec3::new(0.0, 0.0, 0.0), Vec3::Y),
    ));
    app.world_mut().spawn((
        DirectionalLight {
            illuminance: 9000.0,
            ..default()
        },
        Transform::from_xyz(3.0, 6.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    (app, handle)
}

fn render(
    app: &mut App,
    target: &Handle<Image>,
    page: Vec<Digimon>,
    out: &str,
) -> Result<(), String> {
    app.insert_resource(Page(page));
    for _ in 0..20 {
        app.update();
    }
    app.world_mut()
        .spawn(Screenshot::image(target.clone()))
        .observe(save_to_disk(std::path::PathBuf::from(out)));
    for _ in 0..5 {
        app.update();
    }
    if std::path::Path::new(out).is_file() {
        println!("wrote {out}");
        Ok(())
    } else {
        Err(format!("{out} was not written"))
    }
}

fn main() -> Result<(), String> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "figures".to_string());
    let filter = std::env::args().nth(2).map(|f| f.to_lowercase());
    std::fs::create_dir_all(&dir).map_err(|e| format!("{dir}: {e}"))?;
    let cards = CardSet::embedded();
    let shipped = Figures::embedded();
    let digimon: Vec<Digimon> = cards
        .cards()
        .iter()
        .filter_map(|c| c.as_digimon())
        .filter(|d| shipped.for_digimon(d).is_some())
        .filter(|d| {
            filter.as_ref().is_none_or(|f| {
                d.number.to_string().to_lowercase().contains(f) || d.name.to_lowercase().contains(f)
            })
        })
        .cloned()
        .collect();
    if digimon.is_empty() {
        return Err("no shipped figure matches".into());
    }
    let (mut app, target) = app();
    for (i, page) in digimon.chunks(COLUMNS * ROWS).enumerate() {
        render(
            &mut app,
            &target,
            page.to_vec(),
            &format!("{dir}/figures-{}.png", i + 1),
        )?;
    }
    Ok(())
}
