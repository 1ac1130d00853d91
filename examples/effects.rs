//! A contact sheet of the arena's effects, rendered off-screen to a PNG, to
//! look at them close up while tuning them:
//!
//! ```text
//! xvfb-run -a cargo run --example effects -- effects.png [SECONDS]
//! ```
//!
//! SECONDS (default 0.18) is how long after the bursts the picture is taken.
//!
//! Top row: each element's technique in flight (fire, ice, lightning, dark,
//! holy, physical, left to right) with its trail; middle row: each one's
//! burst where it lands, a moment after; bottom row: a deletion's data, a
//! digivolution's light, a flash and a shock ring. Bloom and tonemapping
//! as in the arena.

use std::time::Duration;

use bevy::camera::{Hdr, RenderTarget};
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bterm::arena::render::stage::bloom;
use bterm::arena::render::vfx::{self, Element, VfxStore};

/// Seconds a frame.
const STEP: f32 = 1.0 / 30.0;
/// When the bursts go off, seconds.
const BURST_AT: f32 = 0.5;
/// Columns are this far apart, metres.
const GAP: f32 = 1.6;

/// A technique moving right.
#[derive(Component)]
struct Flying;

fn column(i: usize) -> f32 {
    (i as f32 - 2.5) * GAP
}

fn launch(mut commands: Commands, store: Res<VfxStore>) {
    for (i, &e) in Element::ALL.iter().enumerate() {
        let at = Vec3::new(column(i) - 0.9, 2.6, 0.0);
        let id = commands
            .spawn((Flying, Transform::from_translation(at)))
            .id();
        vfx::technique_look(&mut commands, &store, (id, at), e, 0.18);
    }
}

fn fly(time: Res<Time>, mut q: Query<&mut Transform, With<Flying>>) {
    for mut tf in &mut q {
        tf.translation.x += 1.6 * time.delta_secs();
    }
}

fn burst(time: Res<Time>, mut commands: Commands, store: Res<VfxStore>, mut done: Local<bool>) {
    if *done || time.elapsed_secs() < BURST_AT {
        return;
    }
    *done = true;
    for (i, &e) in Element::ALL.iter().enumerate() {
        vfx::impact(
            &mut commands,
            &store,
            e,
            Vec3::new(column(i), 1.0, 0.0),
            500,
        );
    }
    vfx::data_burst(
        &mut commands,
        &store,
        Vec3::new(column(0) + 0.6, -1.0, 0.0),
        0.6,
    );
    vfx::evolution_light(&mut commands, &store, Vec3::new(column(2), -1.6, 0.0));
    vfx::flash(
        &mut commands,
        &store,
        Vec3::new(column(4) - 0.4, -0.8, 0.0),
        1.0,
    );
    vfx::shock_ring(&mut commands, &store, Vec3::new(column(5), -1.6, 0.0), 1.6);
}

fn main() -> Result<(), String> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "effects.png".to_string());
    let after: f32 = match std::env::args().nth(2) {
        None => 0.18,
        Some(s) => s
            .parse()
            .ok()
            .filter(|s| (0.0..=3.0).contains(s))
            .ok_or("SECONDS must be a number from 0 to 3")?,
    };
    let mut app = bterm::arena::screens::clip::offscreen_app();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        STEP,
    )))
    .insert_resource(ClearColor(Color::srgb(0.02, 0.03, 0.06)))
    .add_plugins((bterm::arena::render::look::plugin, vfx::plugin))
    .add_systems(Startup, launch)
    .add_systems(Update, (fly, burst));
    app.finish();
    app.cleanup();
    let image = Image::new_target_texture(1280, 720, TextureFormat::Rgba8UnormSrgb, None);
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    app.world_mut().spawn((
        Camera3d::default(),
        RenderTarget::Image(handle.clone().into()),
        Hdr,
        Tonemapping::TonyMcMapface,
        bloom(),
        Transform::from_xyz(0.0, 0.4, 9.5).looking_at(Vec3::new(0.0, 0.4, 0.0), Vec3::Y),
    ));
    let frames = ((BURST_AT + after) / STEP).round() as usize;
    for _ in 0..frames {
        app.update();
    }
    app.world_mut()
        .spawn(Screenshot::image(handle))
        .observe(save_to_disk(out.clone()));
    for _ in 0..5 {
        app.update();
    }
    if std::path::Path::new(&out).is_file() {
        println!("wrote {out}");
        Ok(())
    } else {
        Err(format!("{out} was not written"))
    }
}
