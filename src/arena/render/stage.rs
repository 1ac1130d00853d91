//! The stage: the platform (its floor shader draws the grid, light pools
//! and the figures' shadows), the light rig, bloom, and the camera: a slow
//! orbit when idle, cuts to the action in a battle.

use std::f32::consts::TAU;

use bevy::camera::Hdr;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::post_process::bloom::Bloom;
use bevy::prelude::*;
use bevy::render::renderer::RenderAdapterInfo;

use crate::arena::render::figures::{BenchFigure, Figure};
use crate::arena::render::framing::{self, Subject};
use crate::arena::render::look::{Floor, Glow};
use crate::arena::render::place::{PLATFORM_HEIGHT, PLATFORM_RADIUS, SPOT_X, spot};
use crate::arena::{AppSystems, Screen, Settings};
use crate::rules::terminal::Side;

/// Seconds for one full camera orbit in the idle arena.
const ORBIT_SECONDS: f32 = 40.0;
/// Camera distance from the stage centre and height, in metres.
const ORBIT_RADIUS: f32 = 13.0;
const ORBIT_HEIGHT: f32 = 6.0;
/// Pylons of the light rig behind the stage.
const PYLONS: usize = 8;
/// How fast the camera eases to a new shot (1/s): about 0.3 s to get there.
const CAMERA_EASE: f32 = 6.0;

/// The platform (physics gives it a collider).
#[derive(Component)]
pub struct Platform;

/// The arena camera.
#[derive(Component)]
pub struct ArenaCamera;

/// What the camera looks at.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub enum CameraShot {
    /// The slow orbit of the idle arena.
    Orbit,
    /// Both Digimon from the front, slightly above.
    Wide,
    /// Close on one side's Digimon, from behind its opponent's shoulder.
    Focus(Side),
    /// Low and close on the centre, where techniques meet.
    Centre,
    /// Square on the collection screen's binder page.
    Binder,
    /// Above the Card Game Alpha table with this many seats (`.0`), from
    /// one seat's edge (`.1`: P1's, or the LAN seat this machine plays).
    Table(usize, usize),
}

/// Everything a duel or a table put on stage for a moment (effects,
/// techniques): cleared when the next one starts or the screen is left.
#[derive(Component, Debug, Clone, Copy)]
pub struct DuelProp;

/// A short camera shake (seconds left).
#[derive(Resource, Debug, Default)]
pub struct Shake(pub f32);

pub(in crate::arena) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.01, 0.015, 0.04)))
        .insert_resource(CameraShot::Orbit)
        .init_resource::<Shake>()
        .add_systems(Startup, spawn_stage)
        .add_systems(OnEnter(Screen::Attract), |mut shot: ResMut<CameraShot>| {
            *shot = CameraShot::Orbit;
        })
        .add_systems(
            Update,
            (move_camera, floor_shadows, set_bloom).in_set(AppSystems::Update),
        );
}

fn spawn_stage(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    mut floors: ResMut<Assets<Floor>>,
) {
    // The platform: one mesh, its grid, light pools and the figures'
    // shadows drawn by its own shader (no lights to add up per pixel).
    commands.spawn((
        Name::new("Platform"),
        Platform,
        Mesh3d(
            meshes.add(
                Cylinder::new(PLATFORM_RADIUS, PLATFORM_HEIGHT)
                    .mesh()
                    .resolution(64),
            ),
        ),
        MeshMaterial3d(floors.add(Floor::new(SPOT_X))),
        Transform::from_xyz(0.0, -PLATFORM_HEIGHT / 2.0, 0.0),
    ));
    let glow = Glow::solid;
    commands.spawn((
        Name::new("Platform rim"),
        Mesh3d(meshes.add(Torus::new(PLATFORM_RADIUS - 0.06, PLATFORM_RADIUS + 0.06))),
        MeshMaterial3d(glows.add(glow(LinearRgba::rgb(0.4, 2.4, 4.0)))),
        Transform::from_xyz(0.0, 0.0, 0.0),
    ));
    // The light rig: a ring of pylons around the stage with glowing heads,
    // and a beam from above onto each fighter's spot in its side's colour.
    let pylon = meshes.add(Cuboid::new(0.25, 3.2, 0.25));
    let head = meshes.add(crate::arena::render::look::ball(0.22));
    let dark = glows.add(glow(LinearRgba::rgb(0.02, 0.03, 0.06)));
    let lamp = [
        glows.add(glow(LinearRgba::rgb(0.6, 1.6, 5.0))),
        glows.add(glow(LinearRgba::rgb(5.0, 1.2, 0.6))),
    ];
    for i in 0..PYLONS {
        // Along the back of the stage only: never between the battle
        // shots' cameras and the figures.
        let a = (100.0 + 160.0 * i as f32 / (PYLONS - 1) as f32).to_radians();
        let at = Vec3::new(a.sin(), 0.0, a.cos()) * (PLATFORM_RADIUS + 2.2);
        // P1's half of the ring is blue, P2's red.
        let side = usize::from(at.x > 0.0);
        commands.spawn((
            Mesh3d(pylon.clone()),
            MeshMaterial3d(dark.clone()),
            Transform::from_translation(at + Vec3::Y * 1.1),
        ));
        commands.spawn((
            Mesh3d(head.clone()),
            MeshMaterial3d(lamp[side].clone()),
            Transform::from_translation(at + Vec3::Y * 2.8),
        ));
    }
    let beam = meshes.add(Cone::new(1.3, 9.0).mesh().resolution(24).build());
    for (side, colour) in [
        (Side::P1, LinearRgba::rgb(0.012, 0.03, 0.09)),
        (Side::P2, LinearRgba::rgb(0.09, 0.022, 0.012)),
    ] {
        commands.spawn((
            Name::new("Beam"),
            Mesh3d(beam.clone()),
            MeshMaterial3d(glows.add(Glow::additive(colour).soft(3.0))),
            Transform::from_translation(spot(side) + Vec3::Y * 4.5),
        ));
    }
    // Lights for what is not cel-shaded (cards on the collection screen,
    // the result screen's podium): a warm key and a cool fill, no shadows.
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            color: Color::srgb(1.0, 0.95, 0.85),
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        PointLight {
            intensity: 1_500_000.0,
            range: 40.0,
            color: Color::srgb(0.5, 0.6, 1.0),
            ..default()
        },
        Transform::from_xyz(-6.0, 5.0, -5.0),
    ));
    commands.spawn((
        ArenaCamera,
        Camera3d::default(),
        // A kiosk PC may have no GPU (software Vulkan): multisampling would
        // multiply the cost of every pixel for little gain at 720p.
        Msaa::Off,
        // HDR, so techniques, eyes and the rig's lamps glow past white and
        // are tonemapped back; bloom is added by `set_bloom`.
        Hdr,
        Tonemapping::TonyMcMapface,
        Transform::from_xyz(0.0, ORBIT_HEIGHT, ORBIT_RADIUS).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// The arena camera's bloom.
pub fn bloom() -> Bloom {
    Bloom {
        intensity: 0.2,
        max_mip_dimension: 256,
        ..Bloom::NATURAL
    }
}

/// Puts bloom on the camera or takes it off, once, when the renderer and
/// the camera are known.
fn set_bloom(
    mut commands: Commands,
    settings: Res<Settings>,
    adapter: Option<Res<RenderAdapterInfo>>,
    camera: Query<(Entity, Has<Bloom>), With<ArenaCamera>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let Some(adapter) = adapter else {
        return;
    };
    // wgpu's `DeviceType::Cpu` (Bevy does not re-export the type).
    let software = format!("{:?}", adapter.device_type) == "Cpu";
    // Bloom as the settings say, else on unless the renderer is software
    // (lavapipe, llvmpipe, SwiftShader: there Bevy's bloom passes add
    // about 30 ms to a 53 ms frame at 720p; the glows stay, only their
    // halo goes).
    let want = settings.bloom.unwrap_or(!software);
    for (e, has) in &camera {
        if want && !has {
            commands.entity(e).insert(bloom());
        } else if !want && has {
            commands.entity(e).remove::<Bloom>();
        }
        *done = true;
    }
}

/// The figures' soft shadows on the floor follow them.
fn floor_shadows(
    mut floors: ResMut<Assets<Floor>>,
    platform: Query<&MeshMaterial3d<Floor>, With<Platform>>,
    figures: Query<(&Figure, &GlobalTransform)>,
) {
    let Some(handle) = platform.iter().next() else {
        return;
    };
    let mut shadows = [Vec4::ZERO; 4];
    // Front figures first, then the benches nearest the centre.
    let mut all: Vec<(f32, Vec4)> = figures
        .iter()
        .map(|(f, g)| {
            let p = g.translation();
            let r = f.bounds.1 * 0.55;
            // Higher off the floor, a fainter shadow.
            let dark = (0.75 - p.y * 0.15).clamp(0.2, 0.75);
            (p.length(), Vec4::new(p.x, p.z, r.max(0.3), dark))
        })
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (n, (_, s)) in all.into_iter().take(4).enumerate() {
        shadows[n] = s;
    }
    if let Some(floor) = floors.get(&handle.0)
        && floor.u.shadows == shadows
    {
        return;
    }
    if let Some(mut floor) = floors.get_mut(&handle.0) {
        floor.u.shadows = shadows;
    }
}

/// The eye and the point looked at for a shot at time `t`, holding the
/// figures on the stage (`subjects`) in the stage's share of the screen.
pub fn framing(shot: CameraShot, t: f32, subjects: &[Subject]) -> (Vec3, Vec3) {
    // `room`: how much farther than the tightest fit (the wide shot
    // leaves air around the figures).
    let fitted = |towards_eye: Vec3, nearest: f32, room: f32| {
        let f = framing::fit(towards_eye, subjects, nearest);
        (f.look + (f.eye - f.look) * room, f.look)
    };
    match shot {
        CameraShot::Orbit => {
            let angle = t / ORBIT_SECONDS * TAU;
            (
                Vec3::new(
                    ORBIT_RADIUS * angle.sin(),
                    ORBIT_HEIGHT,
                    ORBIT_RADIUS * angle.cos(),
                ),
                Vec3::new(0.0, 0.5, 0.0),
            )
        }
        // Both Digimon from the front, slightly above.
        CameraShot::Wide => fitted(Vec3::new(0.0, 0.28, 1.0), 6.0, 1.08),
        // Over the other Digimon's shoulder, both in the frame.
        CameraShot::Focus(side) => fitted(framing::over_shoulder(side), 4.0, 1.0),
        // Low and closer, where the techniques meet.
        CameraShot::Centre => fitted(Vec3::new(0.0, 0.15, 1.0), 4.5, 1.0),
        // The binder page stands at the centre, 2.4 m up, facing the camera.
        CameraShot::Binder => (Vec3::new(0.0, 2.4, 9.0), Vec3::new(0.0, 2.4, 0.0)),
        // High over the seat's edge, the whole table in view.
        CameraShot::Table(seats, seat) => {
            let (eye, at) = if seats > 2 {
                (Vec3::new(0.0, 12.0, 6.6), Vec3::new(0.0, 0.0, 0.7))
            } else {
                (Vec3::new(0.0, 10.8, 6.1), Vec3::new(0.0, 0.0, 0.75))
            };
            let turn = crate::arena::render::place::seat_frame(seat, seats).1;
            (turn * eye, turn * at)
        }
    }
}

/// The spheres the battle shots must hold: each front figure as far as
/// it lunges and recoils.
pub fn subjects<'a>(figures: impl Iterator<Item = &'a Figure>) -> Vec<Subject> {
    figures
        .flat_map(|f| framing::figure_subjects(f.home + f.bounds.0, f.bounds.1, f.side))
        .collect()
}

/// The last battle shot fitted: the shot, the figures it held, and the
/// eye and point looked at.
type Fitted = (CameraShot, Vec<Subject>, (Vec3, Vec3));

fn move_camera(
    time: Res<Time>,
    shot: Res<CameraShot>,
    mut shake: ResMut<Shake>,
    mut camera: Single<&mut Transform, With<ArenaCamera>>,
    figures: Query<&Figure, Without<BenchFigure>>,
    mut looking_at: Local<Option<Vec3>>,
    mut fitted: Local<Option<Fitted>>,
) {
    let subjects = subjects(figures.iter());
    // A battle shot is fitted again only when the shot or the figures
    // change (the orbit moves every frame and costs nothing to place).
    let (eye, look) = match &*fitted {
        Some((s, subs, frame))
            if *s == *shot && *subs == subjects && *shot != CameraShot::Orbit =>
        {
            *frame
        }
        _ => {
            let frame = framing(*shot, time.elapsed_secs(), &subjects);
            *fitted = Some((*shot, subjects, frame));
            frame
        }
    };
    let ease = 1.0 - (-CAMERA_EASE * time.delta_secs()).exp();
    let mut current = camera.translation;
    current = if *shot == CameraShot::Orbit {
        // The orbit moves every frame; follow it closely so it stays smooth.
        current.lerp(eye, ease.max(0.05))
    } else {
        current.lerp(eye, ease)
    };
    let mut jolt = Vec3::ZERO;
    if shake.0 > 0.0 {
        shake.0 -= time.delta_secs();
        let t = time.elapsed_secs() * 60.0;
        jolt = Vec3::new(t.sin(), (t * 1.3).cos(), 0.0) * 0.08 * shake.0.clamp(0.0, 0.5) * 2.0;
    }
    let l = looking_at.get_or_insert(look);
    *l = l.lerp(look, ease);
    **camera = Transform::from_translation(current + jolt).looking_at(*l, Vec3::Y);
}
