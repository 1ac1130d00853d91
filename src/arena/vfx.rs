//! Effects: what a technique looks like (fire, ice, lightning, dark, holy
//! or physical, from its name, the Digimon's Field and attribute), its
//! trail in flight and its burst on impact, shock rings, the data a
//! deleted Digimon breaks up into, the light of a digivolution, and damage
//! numbers that rise from the figure that took the blow. Particles are
//! small meshes shared by every particle of a kind (the renderer draws
//! them as instances), moved here without physics.

use bevy::prelude::*;

use super::AppSystems;
use super::look::{Glow, ball};
use super::stage::ArenaCamera;
use super::staging::DuelProp;
use super::theme::{self, centred_at, palette, size};
use crate::cards::{Attribute, Digimon, Field};
use crate::fingerprint::fnv1a;
use crate::rules::terminal::Side;

/// What a technique is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element {
    /// Flames, breath of fire, heat.
    Fire,
    /// Ice, snow, cold water.
    Ice,
    /// Thunder and electricity.
    Lightning,
    /// Darkness, poison, death.
    Dark,
    /// Holy light.
    Holy,
    /// Claws, fists, horns, blades, tackles.
    Physical,
}

impl Element {
    /// Every element.
    pub const ALL: [Element; 6] = [
        Element::Fire,
        Element::Ice,
        Element::Lightning,
        Element::Dark,
        Element::Holy,
        Element::Physical,
    ];

    /// The element of a technique called `name` used by `d`: the words in
    /// its name first, then the Digimon's Field and attribute.
    pub fn of(name: &str, d: Option<&Digimon>) -> Element {
        // Whole words, or their beginnings ("electr" for "Electro"), so a
        // "Slice" is no "ice".
        let n = name.to_lowercase();
        let words: Vec<&str> = n.split(|c: char| !c.is_alphanumeric()).collect();
        let any = |ws: &[&str]| ws.iter().any(|w| words.iter().any(|x| x.starts_with(w)));
        if any(&[
            "fire",
            "flame",
            "pyro",
            "burn",
            "blaze",
            "heat",
            "pepper",
            "salamander",
            "exhaust",
            "atomic",
            "nova",
            "magma",
            "inferno",
            "meteor",
            "gaia",
        ]) {
            Element::Fire
        } else if any(&[
            "ice", "frost", "blizzard", "arctic", "freez", "snow", "winter", "cold", "aqua",
            "water", "torpedo", "bubble", "tidal", "wave",
        ]) {
            Element::Ice
        } else if any(&[
            "thunder",
            "electr",
            "shock",
            "spark",
            "volt",
            "lightning",
            "plasma",
            "laser",
            "beam",
            "blaster",
            "cannon",
            "buster",
        ]) {
            Element::Lightning
        } else if any(&[
            "dark",
            "night",
            "shadow",
            "death",
            "nightmare",
            "poison",
            "evil",
            "bloody",
            "curse",
            "grisly",
            "demon",
            "chaos",
            "venom",
            "stinky",
            "virus",
        ]) {
            Element::Dark
        } else if any(&[
            "holy",
            "heaven",
            "angel",
            "saint",
            "light",
            "royal",
            "elysion",
            "excalibur",
            "gate",
            "star",
            "divine",
            "gospel",
            "spirit",
            "talisman",
            "lotus",
        ]) {
            Element::Holy
        } else if any(&[
            "claw", "punch", "kick", "slash", "tail", "horn", "hammer", "tackle", "crash", "roll",
            "strike", "axe", "blade", "sword", "fist", "break", "whip", "knuckle", "slam", "bite",
            "rush", "dash", "spike", "net", "thread", "ivy", "shield", "slic",
        ]) {
            Element::Physical
        } else {
            match d {
                Some(d) => match (d.field, d.attribute) {
                    (Field::DragonsRoar, _) => Element::Fire,
                    (Field::DeepSavers, _) => Element::Ice,
                    (Field::MetalEmpire, _) | (Field::WindGuardians, _) => Element::Lightning,
                    (Field::NightmareSoldiers, _) | (_, Attribute::Virus) => Element::Dark,
                    (Field::VirusBusters, _) | (_, Attribute::Vaccine) => Element::Holy,
                    _ => Element::Physical,
                },
                None => Element::Physical,
            }
        }
    }

    /// The move a figure makes to use it.
    pub fn stance(self) -> super::rig::Move {
        use super::rig::Move;
        match self {
            Element::Physical => Move::Strike,
            Element::Fire | Element::Ice | Element::Lightning => Move::Blast,
            Element::Dark | Element::Holy => Move::Cast,
        }
    }

    /// Its core and glow colours (linear, the glow well above 1 for bloom).
    pub fn colours(self) -> (LinearRgba, LinearRgba) {
        match self {
            Element::Fire => (
                LinearRgba::rgb(1.0, 0.45, 0.08),
                LinearRgba::rgb(9.0, 3.2, 0.6),
            ),
            Element::Ice => (
                LinearRgba::rgb(0.6, 0.9, 1.0),
                LinearRgba::rgb(2.5, 5.5, 8.0),
            ),
            Element::Lightning => (
                LinearRgba::rgb(1.0, 0.95, 0.4),
                LinearRgba::rgb(8.0, 8.0, 3.0),
            ),
            Element::Dark => (
                LinearRgba::rgb(0.35, 0.05, 0.45),
                LinearRgba::rgb(3.5, 0.4, 5.0),
            ),
            Element::Holy => (
                LinearRgba::rgb(1.0, 0.9, 0.55),
                LinearRgba::rgb(8.0, 6.5, 2.5),
            ),
            Element::Physical => (
                LinearRgba::rgb(0.95, 0.95, 1.0),
                LinearRgba::rgb(5.0, 5.0, 6.0),
            ),
        }
    }
}

/// The shapes particles take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mote {
    Ball,
    Cube,
    Shard,
    Ring,
}

/// A particle: moved, grown or shrunk, and cleared by [`move_particles`].
#[derive(Component, Debug, Clone, Copy)]
pub struct Particle {
    /// Velocity, m/s.
    pub vel: Vec3,
    /// Acceleration, m/s² (gravity is negative y).
    pub accel: Vec3,
    /// Drag: the share of its speed it loses each second.
    pub drag: f32,
    /// Seconds it lives.
    pub life: f32,
    /// Seconds it has lived.
    pub age: f32,
    /// Its size at birth and at death.
    pub sizes: (f32, f32),
    /// Its spin, radians per second about each axis.
    pub spin: Vec3,
    /// Its shape's stretch.
    pub stretch: Vec3,
}

/// A technique's trail: particles dropped behind it as it flies.
#[derive(Component, Debug, Clone, Copy)]
pub struct Trail {
    /// What it is made of.
    pub element: Element,
    /// Seconds until the next particle.
    pub next: f32,
    /// A counter that spreads the particles (no randomness on stage).
    pub n: u32,
    /// Where it was last frame.
    pub last: Option<Vec3>,
}

/// A number rising from a figure that took a blow.
#[derive(Component, Debug, Clone, Copy)]
pub struct DamageNumber {
    /// Where in the world it starts.
    pub at: Vec3,
    /// Seconds it has shown.
    pub age: f32,
}

/// How long a damage number shows, seconds.
const NUMBER_SECONDS: f32 = 1.4;
/// The text shadow's opacity (Bevy's default), faded with the number.
const SHADOW_ALPHA: f32 = 0.75;

/// Meshes and materials every effect shares.
#[derive(Resource)]
pub struct VfxStore {
    ball: Handle<Mesh>,
    cube: Handle<Mesh>,
    shard: Handle<Mesh>,
    ring: Handle<Mesh>,
    /// Per element: the glowing (additive) material and the solid one.
    glow: Vec<(Element, Handle<Glow>, Handle<Glow>)>,
    /// Deletion's data motes.
    data: Handle<Glow>,
    /// Smoke and dust.
    dust: Handle<Glow>,
    /// The evolution light.
    evolve: Handle<Glow>,
    /// A white flash.
    flash: Handle<Glow>,
}

impl VfxStore {
    fn mats(&self, e: Element) -> (Handle<Glow>, Handle<Glow>) {
        self.glow
            .iter()
            .find(|(x, _, _)| *x == e)
            .map(|(_, g, s)| (g.clone(), s.clone()))
            .unwrap_or_else(|| (self.data.clone(), self.data.clone()))
    }

    fn mesh(&self, m: Mote) -> Handle<Mesh> {
        match m {
            Mote::Ball => self.ball.clone(),
            Mote::Cube => self.cube.clone(),
            Mote::Shard => self.shard.clone(),
            Mote::Ring => self.ring.clone(),
        }
    }
}

fn setup_store(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Glow>>,
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
        cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
        shard: meshes.add(Cone::new(0.5, 1.0).mesh().resolution(5).build()),
        ring: meshes.add(
            Torus::new(0.92, 1.0)
                .mesh()
                .minor_resolution(6)
                .major_resolution(40)
                .build(),
        ),
        glow,
        data: materials.add(Glow::additive(LinearRgba::rgb(0.4, 2.6, 1.6))),
        dust: materials.add(Glow::blended(LinearRgba::new(0.3, 0.3, 0.34, 0.4)).soft(1.0)),
        evolve: materials.add(Glow::additive(LinearRgba::rgb(2.5, 2.3, 1.4)).soft(1.2)),
        flash: materials.add(Glow::additive(LinearRgba::rgb(3.0, 2.9, 2.6)).soft(2.5)),
    });
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, setup_store).add_systems(
        Update,
        (drop_trails, move_particles, rise_numbers).in_set(AppSystems::Update),
    );
}

/// Spawns one particle.
fn mote(
    commands: &mut Commands,
    store: &VfxStore,
    m: Mote,
    material: Handle<Glow>,
    at: Vec3,
    p: Particle,
    rot: Quat,
) {
    commands.spawn((
        DuelProp,
        p,
        Mesh3d(store.mesh(m)),
        MeshMaterial3d(material),
        Transform::from_translation(at)
            .with_rotation(rot)
            .with_scale(p.stretch * p.sizes.0),
    ));
}

/// A spread of directions, the same every time for the same `seed`.
fn spread(seed: u64, i: u32) -> Vec3 {
    let h = fnv1a(&[seed.to_le_bytes(), u64::from(i).to_le_bytes()].concat());
    let a = (h & 0xFFFF) as f32 / 65535.0 * std::f32::consts::TAU;
    let y = ((h >> 16) & 0xFFFF) as f32 / 65535.0 * 2.0 - 1.0;
    let r = (1.0 - y * y).max(0.0).sqrt();
    Vec3::new(r * a.cos(), y, r * a.sin())
}

fn particle(vel: Vec3, life: f32, sizes: (f32, f32)) -> Particle {
    Particle {
        vel,
        accel: Vec3::ZERO,
        drag: 0.0,
        life,
        age: 0.0,
        sizes,
        spin: Vec3::ZERO,
        stretch: Vec3::ONE,
    }
}

/// A technique's trail (on the projectile) and its glowing core (a child,
/// so physics, which moves the projectile, never rescales it).
pub fn technique_look(
    store: &VfxStore,
    element: Element,
    radius: f32,
) -> (impl Bundle, impl Bundle) {
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
    (
        (
            Trail {
                element,
                next: 0.0,
                n: 0,
                last: None,
            },
            Visibility::default(),
        ),
        (
            Mesh3d(mesh),
            MeshMaterial3d(solid),
            Transform::from_rotation(rot).with_scale(scale * radius),
        ),
    )
}

/// Drops trail particles behind techniques in flight.
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
        trail.next -= dt;
        while trail.next <= 0.0 {
            trail.next += 0.025;
            trail.n += 1;
            let d = spread(7, trail.n);
            let (glow, solid) = store.mats(trail.element);
            match trail.element {
                Element::Fire => mote(
                    &mut commands,
                    &store,
                    Mote::Ball,
                    glow,
                    at + d * 0.08,
                    Particle {
                        accel: Vec3::Y * 1.5,
                        ..particle(d * 0.4, 0.4, (0.2, 0.05))
                    },
                    Quat::IDENTITY,
                ),
                Element::Ice => mote(
                    &mut commands,
                    &store,
                    Mote::Cube,
                    solid,
                    at + d * 0.12,
                    Particle {
                        accel: Vec3::Y * -2.0,
                        spin: d * 6.0,
                        ..particle(d * 0.3, 0.5, (0.06, 0.0))
                    },
                    Quat::from_rotation_arc(Vec3::Y, d),
                ),
                Element::Lightning => mote(
                    &mut commands,
                    &store,
                    Mote::Cube,
                    glow,
                    at + d * 0.15,
                    Particle {
                        stretch: Vec3::new(0.15, 1.0, 0.15),
                        ..particle(Vec3::ZERO, 0.12, (0.35, 0.3))
                    },
                    Quat::from_rotation_arc(Vec3::Y, (heading + d).normalize_or(Vec3::Y)),
                ),
                Element::Dark => mote(
                    &mut commands,
                    &store,
                    Mote::Ball,
                    glow,
                    at + d * 0.1,
                    Particle {
                        drag: 1.5,
                        ..particle(d.cross(heading) * 0.8, 0.5, (0.12, 0.3))
                    },
                    Quat::IDENTITY,
                ),
                Element::Holy => {
                    if trail.n % 4 == 0 {
                        mote(
                            &mut commands,
                            &store,
                            Mote::Ring,
                            glow,
                            at,
                            particle(Vec3::ZERO, 0.35, (0.15, 0.5)),
                            Quat::from_rotation_arc(Vec3::Y, heading),
                        );
                    } else {
                        mote(
                            &mut commands,
                            &store,
                            Mote::Ball,
                            glow,
                            at + d * 0.15,
                            particle(d * 0.2, 0.3, (0.05, 0.0)),
                            Quat::IDENTITY,
                        );
                    }
                }
                Element::Physical => {
                    if trail.n % 2 == 0 {
                        mote(
                            &mut commands,
                            &store,
                            Mote::Ring,
                            glow,
                            at,
                            particle(Vec3::ZERO, 0.18, (0.25, 0.4)),
                            Quat::from_rotation_arc(Vec3::Y, heading),
                        );
                    }
                }
            }
        }
    }
}

/// A technique lands: a burst in its element at `at`.
pub fn impact(commands: &mut Commands, store: &VfxStore, element: Element, at: Vec3, power: u32) {
    let (glow, solid) = store.mats(element);
    let big = 0.7 + (power as f32 / 1000.0).min(1.2) * 0.5;
    let seed = u64::from(power) ^ element as u64;
    for i in 0..16 {
        let d = spread(seed, i);
        match element {
            Element::Fire => mote(
                commands,
                store,
                Mote::Ball,
                glow.clone(),
                at,
                Particle {
                    drag: 2.5,
                    accel: Vec3::Y * 2.0,
                    ..particle(d * 4.0 * big, 0.55, (0.3 * big, 0.05))
                },
                Quat::IDENTITY,
            ),
            Element::Ice => mote(
                commands,
                store,
                Mote::Shard,
                solid.clone(),
                at,
                Particle {
                    accel: Vec3::Y * -9.0,
                    spin: d * 8.0,
                    stretch: Vec3::new(0.5, 1.6, 0.5),
                    ..particle(d * 4.5 * big + Vec3::Y * 2.0, 0.7, (0.12 * big, 0.05))
                },
                Quat::from_rotation_arc(Vec3::Y, d),
            ),
            Element::Lightning => mote(
                commands,
                store,
                Mote::Cube,
                glow.clone(),
                at + d * 0.3,
                Particle {
                    stretch: Vec3::new(0.12, 1.0, 0.12),
                    ..particle(d * 2.0, 0.25, (0.6 * big, 0.1))
                },
                Quat::from_rotation_arc(Vec3::Y, d),
            ),
            Element::Dark => mote(
                commands,
                store,
                Mote::Ball,
                glow.clone(),
                at,
                Particle {
                    drag: 3.0,
                    ..particle(d * 3.0 * big, 0.7, (0.15, 0.45 * big))
                },
                Quat::IDENTITY,
            ),
            Element::Holy => mote(
                commands,
                store,
                Mote::Ball,
                glow.clone(),
                at,
                Particle {
                    drag: 2.0,
                    accel: Vec3::Y * 1.0,
                    ..particle(d * 3.5 * big, 0.6, (0.1, 0.02))
                },
                Quat::IDENTITY,
            ),
            Element::Physical => mote(
                commands,
                store,
                Mote::Ball,
                store.dust.clone(),
                at - Vec3::Y * 0.4,
                Particle {
                    drag: 3.0,
                    ..particle(
                        Vec3::new(d.x, d.y.abs() * 0.4, d.z) * 3.0,
                        0.6,
                        (0.12, 0.35),
                    )
                },
                Quat::IDENTITY,
            ),
        }
    }
    // A ring of light across the blow.
    mote(
        commands,
        store,
        Mote::Ring,
        glow.clone(),
        at,
        particle(Vec3::ZERO, 0.3, (0.2, 1.4 * big)),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    );
    if element == Element::Physical {
        // The slash: a thin bright arc across the target.
        mote(
            commands,
            store,
            Mote::Ring,
            solid,
            at,
            Particle {
                stretch: Vec3::new(1.0, 0.2, 0.35),
                ..particle(Vec3::ZERO, 0.22, (0.9 * big, 1.2 * big))
            },
            Quat::from_rotation_z(0.9) * Quat::from_rotation_x(1.2),
        );
    }
}

/// A flash of light that swells and fades at `at`.
pub fn flash(commands: &mut Commands, store: &VfxStore, at: Vec3, size: f32) {
    mote(
        commands,
        store,
        Mote::Ball,
        store.flash.clone(),
        at,
        particle(Vec3::ZERO, 0.3, (0.1, size)),
        Quat::IDENTITY,
    );
}

/// A shock ring that runs across the floor from `at`.
pub fn shock_ring(commands: &mut Commands, store: &VfxStore, at: Vec3, size: f32) {
    let (glow, _) = store.mats(Element::Physical);
    mote(
        commands,
        store,
        Mote::Ring,
        glow,
        Vec3::new(at.x, 0.05, at.z),
        particle(Vec3::ZERO, 0.5, (0.3, size)),
        Quat::IDENTITY,
    );
}

/// A deleted figure breaks up into data: glowing motes that rise and
/// scatter from the sphere it stood in.
pub fn data_burst(commands: &mut Commands, store: &VfxStore, centre: Vec3, radius: f32) {
    for i in 0..40 {
        let d = spread(99, i);
        mote(
            commands,
            store,
            Mote::Cube,
            store.data.clone(),
            centre + d * radius * 0.7,
            Particle {
                drag: 0.8,
                accel: Vec3::Y * 2.2,
                spin: d * 4.0,
                ..particle(d * 0.8, 1.1 + (i % 5) as f32 * 0.1, (0.07, 0.0))
            },
            Quat::from_rotation_arc(Vec3::Y, d),
        );
    }
    shock_ring(commands, store, centre, 2.0);
}

/// The light of a digivolution: a column and rising rings at `at`.
pub fn evolution_light(commands: &mut Commands, store: &VfxStore, at: Vec3) {
    mote(
        commands,
        store,
        Mote::Ball,
        store.evolve.clone(),
        at + Vec3::Y * 1.5,
        Particle {
            stretch: Vec3::new(0.5, 4.0, 0.5),
            ..particle(Vec3::ZERO, 0.9, (0.6, 0.05))
        },
        Quat::IDENTITY,
    );
    for i in 0..4 {
        mote(
            commands,
            store,
            Mote::Ring,
            store.evolve.clone(),
            at + Vec3::Y * (0.1 + 0.3 * i as f32),
            particle(Vec3::Y * (1.2 + 0.4 * i as f32), 0.9, (0.5, 1.3)),
            Quat::IDENTITY,
        );
    }
    for i in 0..20 {
        let d = spread(5, i);
        mote(
            commands,
            store,
            Mote::Cube,
            store.evolve.clone(),
            at + Vec3::new(d.x, 0.1, d.z) * 1.2,
            Particle {
                spin: d * 3.0,
                ..particle(Vec3::Y * (1.5 + d.y.abs() * 2.0), 0.9, (0.08, 0.0))
            },
            Quat::IDENTITY,
        );
    }
}

/// Moves, grows and clears particles.
fn move_particles(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Particle, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (e, mut p, mut tf) in &mut q {
        p.age += dt;
        if p.age >= p.life {
            commands.entity(e).despawn();
            continue;
        }
        let accel = p.accel;
        let drag = p.drag;
        p.vel += accel * dt;
        p.vel *= (1.0 - drag * dt).max(0.0);
        tf.translation += p.vel * dt;
        if p.spin != Vec3::ZERO {
            let s = p.spin * dt;
            tf.rotation = Quat::from_euler(EulerRot::XYZ, s.x, s.y, s.z) * tf.rotation;
        }
        let t = p.age / p.life;
        let size = p.sizes.0 + (p.sizes.1 - p.sizes.0) * t;
        tf.scale = p.stretch * size.max(0.0);
    }
}

/// Shows `amount` rising from a figure centred at `at`.
pub fn damage_number(commands: &mut Commands, at: Vec3, amount: u32, side: Side) {
    let colour = if side == Side::P1 {
        palette::GOLD
    } else {
        palette::BAD
    };
    commands.spawn((
        DuelProp,
        DamageNumber { at, age: 0.0 },
        theme::label(format!("-{amount}"), size::HEADLINE, colour),
        Node {
            position_type: PositionType::Absolute,
            ..default()
        },
        Visibility::Hidden,
        GlobalZIndex(5),
    ));
}

/// A damage number's parts.
type Numbers = (
    Entity,
    &'static mut DamageNumber,
    &'static mut Node,
    &'static mut TextColor,
    Option<&'static mut TextShadow>,
    Option<&'static ComputedNode>,
    &'static mut Visibility,
);

/// Damage numbers rise and fade.
fn rise_numbers(
    time: Res<Time>,
    mut commands: Commands,
    ui_scale: Option<Res<UiScale>>,
    camera: Query<(&Camera, &GlobalTransform), With<ArenaCamera>>,
    mut q: Query<Numbers>,
) {
    let scale = ui_scale.map_or(1.0, |s| s.0);
    let cam = camera.iter().next();
    for (e, mut n, mut node, mut colour, mut shadow, computed, mut vis) in &mut q {
        n.age += time.delta_secs();
        if n.age >= NUMBER_SECONDS {
            commands.entity(e).despawn();
            continue;
        }
        let world = n.at + Vec3::Y * (0.6 + n.age * 0.8);
        let Some((left, top)) = cam.and_then(|c| centred_at(c, world, scale, computed)) else {
            *vis = Visibility::Hidden;
            continue;
        };
        *vis = Visibility::Inherited;
        node.left = left;
        node.top = top;
        let fade = 1.0 - ((n.age - NUMBER_SECONDS * 0.6) / (NUMBER_SECONDS * 0.4)).clamp(0.0, 1.0);
        colour.0 = colour.0.with_alpha(fade);
        if let Some(shadow) = shadow.as_mut() {
            shadow.color = shadow.color.with_alpha(SHADOW_ALPHA * fade);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;

    #[test]
    fn techniques_look_like_what_they_are() {
        assert_eq!(Element::of("Pepper Breath", None), Element::Fire);
        assert_eq!(Element::of("Mega Flame", None), Element::Fire);
        assert_eq!(Element::of("Arctic Blizzard", None), Element::Ice);
        assert_eq!(Element::of("Electro Shocker", None), Element::Lightning);
        assert_eq!(Element::of("Heaven's Gate", None), Element::Holy);
        assert_eq!(Element::of("Darkness Gear", None), Element::Dark);
        assert_eq!(Element::of("Sharp Claw", None), Element::Physical);
        assert_eq!(Element::of("Vulcan's Hammer", None), Element::Physical);
        // Words, not letters inside them.
        assert_eq!(Element::of("Wing Slice", None), Element::Physical);
        assert_eq!(Element::of("Twin Slicer", None), Element::Physical);
        assert_eq!(Element::of("Crimson Lightning", None), Element::Lightning);
    }

    #[test]
    fn a_name_that_says_nothing_takes_the_field() {
        let cards = CardSet::embedded();
        let d = |n: &str| cards.resolve(n).unwrap().as_digimon().unwrap().clone();
        assert_eq!(Element::of("Mjolnir", Some(&d("Vikemon"))), Element::Ice);
        assert_eq!(Element::of("Zzz", Some(&d("Agumon"))), Element::Fire);
        assert_eq!(Element::of("Zzz", Some(&d("Devimon"))), Element::Dark);
    }

    #[test]
    fn every_element_of_the_shipped_techniques_is_used() {
        let cards = CardSet::embedded();
        let mut seen = std::collections::HashSet::new();
        for d in cards.cards().iter().filter_map(|c| c.as_digimon()) {
            for t in [&d.techniques.a, &d.techniques.b, &d.techniques.c] {
                seen.insert(Element::of(&t.name, Some(d)));
            }
        }
        assert_eq!(seen.len(), Element::ALL.len(), "{seen:?}");
    }

    #[test]
    fn bursts_spread_every_way() {
        let dirs: Vec<Vec3> = (0..64).map(|i| spread(3, i)).collect();
        for (axis, name) in [(Vec3::X, "x"), (Vec3::Y, "y"), (Vec3::Z, "z")] {
            assert!(dirs.iter().any(|d| d.dot(axis) > 0.5), "none along +{name}");
            assert!(
                dirs.iter().any(|d| d.dot(axis) < -0.5),
                "none along -{name}"
            );
        }
        let mean = dirs.iter().sum::<Vec3>() / dirs.len() as f32;
        assert!(mean.length() < 0.3, "lopsided: {mean}");
    }
}
