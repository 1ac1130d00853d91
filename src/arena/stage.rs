//! The stage: the platform, its holographic floor grid, lights and the
//! camera's slow orbit.

use std::f32::consts::TAU;

use bevy::prelude::*;

/// Seconds for one full camera orbit in the idle arena.
const ORBIT_SECONDS: f32 = 40.0;
/// Camera distance from the stage centre and height, in metres.
const ORBIT_RADIUS: f32 = 13.0;
const ORBIT_HEIGHT: f32 = 6.0;
/// Platform radius, metres.
const PLATFORM_RADIUS: f32 = 6.0;
/// Grid lines each way across the platform.
const GRID_LINES: i32 = 13;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.01, 0.015, 0.04)))
        .add_systems(Startup, spawn_stage)
        .add_systems(Update, orbit_camera);
}

/// The orbiting arena camera.
#[derive(Component)]
pub struct ArenaCamera;

fn spawn_stage(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Name::new("Platform"),
        Mesh3d(meshes.add(Cylinder::new(PLATFORM_RADIUS, 0.5))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.08, 0.1, 0.18),
            metallic: 0.6,
            perceptual_roughness: 0.35,
            ..default()
        })),
        Transform::from_xyz(0.0, -0.25, 0.0),
    ));
    commands.spawn((
        Name::new("Platform rim"),
        Mesh3d(meshes.add(Torus::new(PLATFORM_RADIUS - 0.08, PLATFORM_RADIUS + 0.08))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.2, 0.8, 1.0),
            emissive: LinearRgba::rgb(0.3, 2.0, 3.0),
            ..default()
        })),
        Transform::from_xyz(0.0, 0.01, 0.0),
    ));
    // The holographic grid: thin glowing bars, clipped to the platform's circle.
    let grid = materials.add(StandardMaterial {
        base_color: Color::srgba(0.1, 0.6, 1.0, 0.6),
        emissive: LinearRgba::rgb(0.1, 0.8, 1.6),
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    });
    let step = 2.0 * PLATFORM_RADIUS / (GRID_LINES - 1) as f32;
    for i in 0..GRID_LINES {
        let offset = -PLATFORM_RADIUS + step * i as f32;
        let half = (PLATFORM_RADIUS * PLATFORM_RADIUS - offset * offset)
            .max(0.0)
            .sqrt();
        if half < 0.1 {
            continue;
        }
        let bar = meshes.add(Cuboid::new(0.03, 0.01, 2.0 * half));
        commands.spawn((
            Mesh3d(bar.clone()),
            MeshMaterial3d(grid.clone()),
            Transform::from_xyz(offset, 0.01, 0.0),
        ));
        commands.spawn((
            Mesh3d(bar),
            MeshMaterial3d(grid.clone()),
            Transform::from_xyz(0.0, 0.01, offset).with_rotation(Quat::from_rotation_y(TAU / 4.0)),
        ));
    }
    commands.spawn((
        PointLight {
            intensity: 4_000_000.0,
            range: 40.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(4.0, 10.0, 4.0),
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
        Transform::from_xyz(0.0, ORBIT_HEIGHT, ORBIT_RADIUS).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn orbit_camera(time: Res<Time>, mut camera: Single<&mut Transform, With<ArenaCamera>>) {
    let angle = time.elapsed_secs() / ORBIT_SECONDS * TAU;
    let eye = Vec3::new(
        ORBIT_RADIUS * angle.sin(),
        ORBIT_HEIGHT,
        ORBIT_RADIUS * angle.cos(),
    );
    **camera = Transform::from_translation(eye).looking_at(Vec3::new(0.0, 0.5, 0.0), Vec3::Y);
}
