//! Effects: what a technique looks like (fire, ice, lightning, dark, holy
//! or physical, from its name, the Digimon's Field and attribute), its
//! trail in flight and its burst on impact, shock rings, the data a
//! deleted Digimon breaks up into, the light of a digivolution, and damage
//! numbers that rise from the figure that took the blow. Particles are GPU
//! effects ([`crate::arena::render::sparks`]); the shapes of light (rings, flashes,
//! slashes, the evolution column) are meshes shared by every flare of a
//! kind, moved here without physics.

use bevy::prelude::*;

use crate::arena::AppSystems;
pub use crate::arena::render::element::Element;
use crate::arena::render::look::{Glow, ball};
use crate::arena::render::sparks::{self, EffectAsset, Spark, Sparks};
use crate::arena::render::stage::DuelProp;

/// The shapes flares take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Shape {
    Ball,
    Ring,
}

/// A shape of light (a ring, a flash, a slash, a column) that swells or
/// shrinks, drifts and fades out: moved and cleared by [`move_flares`].
/// The particles are GPU effects ([`crate::arena::render::sparks`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct Flare {
    /// Velocity, m/s.
    pub vel: Vec3,
    /// Seconds it lives.
    pub life: f32,
    /// Seconds it has lived.
    pub age: f32,
    /// Its size at birth and at death.
    pub sizes: (f32, f32),
    /// Its shape's stretch.
    pub stretch: Vec3,
}

/// A technique's trail of rings (holy light, a physical blow's rush).
#[derive(Component, Debug, Clone, Copy)]
pub struct Trail {
    /// What it is made of.
    pub element: Element,
    /// Seconds until the next ring.
    pub next: f32,
    /// Where it was last frame.
    pub last: Option<Vec3>,
}

/// Meshes, materials and particle effects every effect shares.
#[derive(Resource)]
pub struct VfxStore {
    ball: Handle<Mesh>,
    shard: Handle<Mesh>,
    ring: Handle<Mesh>,
    /// Per element: the glowing (additive) material and the solid one.
    glow: Vec<(Element, Handle<Glow>, Handle<Glow>)>,
    /// The evolution light.
    evolve: Handle<Glow>,
    /// A white flash.
    flash: Handle<Glow>,
    /// The particle effects.
    sparks: Sparks,
}

impl VfxStore {
    fn mats(&self, e: Element) -> (Handle<Glow>, Handle<Glow>) {
        self.glow
            .iter()
            .find(|(x, _, _)| *x == e)
            .map(|(_, g, s)| (g.clone(), s.clone()))
            .unwrap_or_else(|| (self.flash.clone(), self.flash.clone()))
    }

    fn mesh(&self, m: Shape) -> Handle<Mesh> {
        match m {
            Shape::Ball => self.ball.clone(),
            Shape::Ring => self.ring.clone(),
        }
    }
}

fn setup_store(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Glow>>,
    mut effects: ResMut<Assets<EffectAsset>>,
) {
    let glow = Element::ALL
        .iter()
        .map(|&e| {
            let (core, glow) = e.colours();
            (
                e,
                materials.add(Glow::additive(glow * 0.45).soft(1.0)),
                materials.add(Glow::solid(core + glow * 0.15)),
            )
        })
        .collect();
    commands.insert_resource(VfxStore {
        ball: meshes.add(ball(1.0)),
        shard: meshes.add(Cone::new(0.5, 1.0).mesh().resolution(5).build()),
        ring: meshes.add(
            Torus::new(0.92, 1.0)
                .mesh()
                .minor_resolution(6)
                .major_resolution(40)
                .build(),
        ),
        glow,
        evolve: materials.add(Glow::additive(LinearRgba::rgb(2.5, 2.3, 1.4)).soft(1.2)),
        flash: materials.add(Glow::additive(LinearRgba::rgb(3.0, 2.9, 2.6)).soft(2.5)),
        sparks: Sparks::build(&mut effects),
    });
}

/// The effects: their shared meshes, materials and particle effects, and
/// the systems that move them (also used alone by `examples/effects.rs`).
pub fn plugin(app: &mut App) {
    app.add_plugins(sparks::plugin)
        .add_systems(PreStartup, setup_store)
        .add_systems(
            Update,
            (drop_trails, move_flares).in_set(AppSystems::Update),
        );
}

/// Spawns one flare.
fn flare(
    commands: &mut Commands,
    store: &VfxStore,
    m: Shape,
    material: Handle<Glow>,
    at: Vec3,
    f: Flare,
    rot: Quat,
) {
    commands.spawn((
        DuelProp,
        f,
        Mesh3d(store.mesh(m)),
        MeshMaterial3d(material),
        Transform::from_translation(at)
            .with_rotation(rot)
            .with_scale(f.stretch * f.sizes.0),
    ));
}

/// A flare that stays where it is born.
fn still(life: f32, sizes: (f32, f32)) -> Flare {
    Flare {
        vel: Vec3::ZERO,
        life,
        age: 0.0,
        sizes,
        stretch: Vec3::ONE,
    }
}

/// How much bigger than usual a blow of `power` looks.
fn bigness(power: u32) -> f32 {
    0.7 + (power as f32 / 1000.0).min(1.2) * 0.5
}

/// A technique in flight, `entity` at `at`: its glowing core (a child, so
/// physics, which moves the technique, never rescales it), its ring trail
/// (on the technique) and its particle trail (an effect that follows it and
/// lingers after it lands).
pub fn technique_look(
    commands: &mut Commands,
    store: &VfxStore,
    (entity, at): (Entity, Vec3),
    element: Element,
    radius: f32,
) {
    let (_, solid) = store.mats(element);
    let (mesh, scale, rot) = match element {
        Element::Ice => (
            store.shard.clone(),
            Vec3::new(1.0, 2.4, 1.0),
            Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2),
        ),
        Element::Physical => (
            store.ring.clone(),
            Vec3::new(1.4, 0.6, 1.4),
            Quat::from_rotation_x(0.6),
        ),
        _ => (store.ball.clone(), Vec3::ONE, Quat::IDENTITY),
    };
    commands
        .entity(entity)
        .insert((
            Trail {
                element,
                next: 0.0,
                last: None,
            },
            Visibility::default(),
        ))
        .with_child((
            Mesh3d(mesh),
            MeshMaterial3d(solid),
            Transform::from_rotation(rot).with_scale(scale * radius),
        ));
    store.sparks.trail(
        commands,
        element,
        entity,
        at,
        (radius / 0.2).clamp(0.7, 1.6),
    );
}

/// Drops rings behind holy and physical techniques in flight.
fn drop_trails(
    time: Res<Time>,
    mut commands: Commands,
    store: Option<Res<VfxStore>>,
    mut q: Query<(&mut Trail, &Transform)>,
) {
    let Some(store) = store else { return };
    let dt = time.delta_secs();
    for (mut trail, tf) in &mut q {
        let at = tf.translation;
        let heading = trail
            .last
            .map_or(Vec3::X, |l| (at - l).normalize_or(Vec3::X));
        trail.last = Some(at);
        let (every, look) = match trail.element {
            Element::Holy => (0.1, still(0.35, (0.15, 0.5))),
            Element::Physical => (0.05, still(0.18, (0.25, 0.4))),
            _ => continue,
        };
        trail.next -= dt;
        while trail.next <= 0.0 {
            trail.next += every;
            let (glow, _) = store.mats(trail.element);
            flare(
                &mut commands,
                &store,
                Shape::Ring,
                glow,
                at,
                look,
                Quat::from_rotation_arc(Vec3::Y, heading),
            );
        }
    }
}

/// A technique lands: a burst in its element at `at`.
pub fn impact(commands: &mut Commands, store: &VfxStore, element: Element, at: Vec3, power: u32) {
    let (glow, solid) = store.mats(element);
    let big = bigness(power);
    let seed = power ^ ((element as u32) << 16);
    let centre = if element == Element::Physical {
        at - Vec3::Y * 0.4
    } else {
        at
    };
    store
        .sparks
        .burst(commands, Spark::Impact(element), centre, big, seed);
    // A ring of light across the blow.
    flare(
        commands,
        store,
        Shape::Ring,
        glow,
        at,
        still(0.3, (0.2, 1.4 * big)),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    );
    if element == Element::Physical {
        // The slash: a thin bright arc across the target.
        flare(
            commands,
            store,
            Shape::Ring,
            solid,
            at,
            Flare {
                stretch: Vec3::new(1.0, 0.2, 0.35),
                ..still(0.22, (0.9 * big, 1.2 * big))
            },
            Quat::from_rotation_z(0.9) * Quat::from_rotation_x(1.2),
        );
    }
}

/// A flash of light that swells and fades at `at`.
pub fn flash(commands: &mut Commands, store: &VfxStore, at: Vec3, size: f32) {
    flare(
        commands,
        store,
        Shape::Ball,
        store.flash.clone(),
        at,
        still(0.3, (0.1, size)),
        Quat::IDENTITY,
    );
}

/// A shock ring that runs across the floor from `at`.
pub fn shock_ring(commands: &mut Commands, store: &VfxStore, at: Vec3, size: f32) {
    let (glow, _) = store.mats(Element::Physical);
    flare(
        commands,
        store,
        Shape::Ring,
        glow,
        Vec3::new(at.x, 0.05, at.z),
        still(0.5, (0.3, size)),
        Quat::IDENTITY,
    );
}

/// A deleted figure breaks up into data: glowing motes that rise and
/// scatter from the sphere it stood in.
pub fn data_burst(commands: &mut Commands, store: &VfxStore, centre: Vec3, radius: f32) {
    store
        .sparks
        .burst(commands, Spark::Data, centre, radius.max(0.3), 99);
    shock_ring(commands, store, centre, 2.0);
}

/// The light of a digivolution: a column, rising rings and motes at `at`.
pub fn evolution_light(commands: &mut Commands, store: &VfxStore, at: Vec3) {
    flare(
        commands,
        store,
        Shape::Ball,
        store.evolve.clone(),
        at + Vec3::Y * 1.5,
        Flare {
            stretch: Vec3::new(0.5, 4.0, 0.5),
            ..still(0.9, (0.6, 0.05))
        },
        Quat::IDENTITY,
    );
    for i in 0..4 {
        flare(
            commands,
            store,
            Shape::Ring,
            store.evolve.clone(),
            at + Vec3::Y * (0.1 + 0.3 * i as f32),
            Flare {
                vel: Vec3::Y * (1.2 + 0.4 * i as f32),
                ..still(0.9, (0.5, 1.3))
            },
            Quat::IDENTITY,
        );
    }
    store
        .sparks
        .burst(commands, Spark::Evolve, at + Vec3::Y * 0.1, 1.0, 5);
}

/// Moves, grows and clears flares.
fn move_flares(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Flare, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (e, mut f, mut tf) in &mut q {
        f.age += dt;
        if f.age >= f.life {
            commands.entity(e).despawn();
            continue;
        }
        tf.translation += f.vel * dt;
        let t = f.age / f.life;
        let size = f.sizes.0 + (f.sizes.1 - f.sizes.0) * t;
        tf.scale = f.stretch * size.max(0.0);
    }
}
