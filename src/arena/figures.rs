//! Digimon figures built from their cards, with no art files: the body plan
//! from the Digimon's type, colours from its Field and attribute, the size
//! from its level, and proportions jittered by its card number, so every
//! card looks different and the same card always looks the same.

use std::f32::consts::{FRAC_PI_2, PI};

use bevy::prelude::*;

use super::AppSystems;
use super::framing;
use super::stage::{bench_spot, spot};
use crate::cards::{Attribute, CardNumber, CardSet, Digimon, Stage};
use crate::fingerprint::fnv1a;
use crate::rules::terminal::Side;

/// A body plan, from the Digimon's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Two legs, two arms (Dragon Man, Knight, Wizard, Demon…).
    Biped,
    /// Four legs (Beast, Reptile, Dinosaur, Mammal…).
    Quadruped,
    /// A winged body (Bird, Giant Bird, Holy Bird).
    Flyer,
    /// A long swimming or crawling body (Sea Animal, Larva, Aquatic).
    Serpent,
    /// Segments and six legs.
    Insect,
    /// Blocks and cylinders (Machine, Cyborg).
    Machine,
    /// A round body with spikes (Unknown, Vegetation).
    Blob,
}

impl Plan {
    /// The plan for a Digimon type ("Dragon Man", "Sea Animal", …).
    pub fn of(kind: &str) -> Plan {
        let k = kind.to_lowercase();
        let has = |w: &str| k.split(|c: char| !c.is_alphanumeric()).any(|x| x == w);
        if has("machine") || has("cyborg") || has("android") {
            Plan::Machine
        } else if has("insect") || has("larva") {
            Plan::Insect
        } else if has("sea") || has("aquatic") && !has("beast") || has("fish") {
            Plan::Serpent
        } else if has("bird") && !has("man") {
            Plan::Flyer
        } else if has("man")
            || has("knight")
            || has("wizard")
            || has("angel")
            || has("archangel")
            || has("demon")
            || has("imp")
            || has("undead")
            || has("hybrid")
            || has("god")
        {
            Plan::Biped
        } else if has("beast")
            || has("reptile")
            || has("dinosaur")
            || has("mammal")
            || has("dragon")
            || has("amphibian")
            || has("animal")
        {
            Plan::Quadruped
        } else {
            Plan::Blob
        }
    }
}

/// A primitive shape, in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A sphere of this radius.
    Ball(f32),
    /// A box of this size.
    Block(Vec3),
    /// A capsule: radius, length of its straight part (along y).
    Capsule(f32, f32),
    /// A cone: base radius, height (along y).
    Cone(f32, f32),
}

impl Shape {
    /// A radius that roughly bounds it (for debris colliders).
    pub fn radius(self) -> f32 {
        match self {
            Shape::Ball(r) => r,
            Shape::Block(s) => s.max_element() / 2.0,
            Shape::Capsule(r, l) => r + l / 4.0,
            Shape::Cone(r, h) => r.max(h / 3.0),
        }
    }

    /// A radius that surely bounds it, from its centre.
    pub fn bound(self) -> f32 {
        match self {
            Shape::Ball(r) => r,
            Shape::Block(s) => s.length() / 2.0,
            Shape::Capsule(r, l) => r + l / 2.0,
            Shape::Cone(r, h) => (r * r + h * h / 4.0).sqrt(),
        }
    }
}

/// The way a side's figures face: towards the other side.
pub fn facing(side: Side) -> Quat {
    Quat::from_rotation_y(if side == Side::P1 {
        FRAC_PI_2
    } else {
        -FRAC_PI_2
    })
}

/// A sphere around a Digimon's figure standing for `side`: its centre
/// from the figure's feet, and its radius (metres, at the level's scale).
pub fn figure_bounds(d: &Digimon, side: Side) -> (Vec3, f32) {
    let parts = blueprint(d);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for p in &parts {
        let r = p.shape.bound();
        lo = lo.min(p.at - Vec3::splat(r));
        hi = hi.max(p.at + Vec3::splat(r));
    }
    if parts.is_empty() {
        return (Vec3::Y * 0.5, 0.5);
    }
    let centre = (lo + hi) / 2.0;
    let radius = parts
        .iter()
        .map(|p| (p.at - centre).length() + p.shape.bound())
        .fold(0.0, f32::max);
    let scale = level_scale(d.level.stage());
    (facing(side) * centre * scale, radius * scale)
}

/// Which of the figure's colours a part takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tint {
    /// The Field's colour.
    Body,
    /// The attribute's colour.
    Accent,
    /// Glowing eyes.
    Eye,
}

/// One part of a figure, placed in the figure's frame (facing +z, feet at y = 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// Its shape.
    pub shape: Shape,
    /// Its centre.
    pub at: Vec3,
    /// Its rotation.
    pub rot: Quat,
    /// Its colour.
    pub tint: Tint,
}

fn part(shape: Shape, at: Vec3, tint: Tint) -> Part {
    Part {
        shape,
        at,
        rot: Quat::IDENTITY,
        tint,
    }
}

fn turned(mut p: Part, rot: Quat) -> Part {
    p.rot = rot;
    p
}

/// Deterministic jitter from the card number: values in `lo..hi`.
struct Jitter(u64);

impl Jitter {
    fn next(&mut self, lo: f32, hi: f32) -> f32 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (hi - lo) * ((z >> 40) as f32 / (1u64 << 24) as f32)
    }

    fn chance(&mut self, p: f32) -> bool {
        self.next(0.0, 1.0) < p
    }
}

/// The figure's scale for a level: Level III small, Ultimate large.
pub fn level_scale(stage: Stage) -> f32 {
    match stage {
        Stage::III => 0.75,
        Stage::IV => 1.0,
        Stage::Perfect => 1.25,
        Stage::Ultimate => 1.5,
    }
}

/// The parts of a Digimon's figure.
pub fn blueprint(d: &Digimon) -> Vec<Part> {
    let mut j = Jitter(fnv1a(d.number.to_string().as_bytes()));
    let kind = d.kind.to_lowercase();
    let look = Look {
        plan: Plan::of(&d.kind),
        winged: ["angel", "bird", "fallen", "lord", "holy"]
            .iter()
            .any(|w| kind.contains(w)),
        horned: ["dragon", "demon", "dinosaur", "beast", "imp"]
            .iter()
            .any(|w| kind.contains(w)),
        kind,
    };
    let mut parts = Vec::new();
    let build = match look.plan {
        Plan::Biped | Plan::Machine => biped,
        Plan::Quadruped => quadruped,
        Plan::Flyer => flyer,
        Plan::Serpent => serpent,
        Plan::Insect => insect,
        Plan::Blob => blob,
    };
    build(&mut parts, &mut j, &look);
    parts
}

/// What a card's type says about its figure.
struct Look {
    plan: Plan,
    winged: bool,
    horned: bool,
    /// The type, in lower case.
    kind: String,
}

/// A pair of eyes on a head of radius `r`.
fn eyes(parts: &mut Vec<Part>, head: Vec3, r: f32) {
    for s in [-1.0, 1.0] {
        parts.push(part(
            Shape::Ball(r * 0.22),
            head + Vec3::new(s * r * 0.42, r * 0.15, r * 0.82),
            Tint::Eye,
        ));
    }
}

/// The biped body plan's parts.
fn biped(parts: &mut Vec<Part>, j: &mut Jitter, look: &Look) {
    let machine = look.plan == Plan::Machine;
    let leg = j.next(0.45, 0.65);
    let torso = j.next(0.45, 0.65);
    let width = j.next(0.22, 0.34);
    let head_r = j.next(0.2, 0.3);
    let hip = leg + 0.05;
    for s in [-1.0, 1.0] {
        let leg_shape = if machine {
            Shape::Block(Vec3::new(0.16, leg, 0.18))
        } else {
            Shape::Capsule(0.08, leg - 0.16)
        };
        parts.push(part(
            leg_shape,
            Vec3::new(s * width * 0.55, leg / 2.0, 0.0),
            Tint::Accent,
        ));
        let arm = torso * j.next(0.8, 1.1);
        let arm_shape = if machine {
            Shape::Block(Vec3::new(0.14, arm, 0.14))
        } else {
            Shape::Capsule(0.07, arm - 0.14)
        };
        parts.push(turned(
            part(
                arm_shape,
                Vec3::new(s * (width + 0.12), hip + torso * 0.55, 0.05),
                Tint::Body,
            ),
            Quat::from_rotation_z(s * 0.25) * Quat::from_rotation_x(-0.3),
        ));
    }
    let body = if machine {
        Shape::Block(Vec3::new(width * 2.2, torso, width * 1.5))
    } else {
        Shape::Capsule(width, torso - width)
    };
    parts.push(part(
        body,
        Vec3::new(0.0, hip + torso / 2.0, 0.0),
        Tint::Body,
    ));
    let head = Vec3::new(0.0, hip + torso + head_r * 0.9, 0.02);
    parts.push(part(
        if machine {
            Shape::Block(Vec3::splat(head_r * 1.7))
        } else {
            Shape::Ball(head_r)
        },
        head,
        Tint::Body,
    ));
    eyes(parts, head, head_r);
    if look.kind.contains("dragon") || look.kind.contains("demon") || j.chance(0.4) {
        parts.push(turned(
            part(
                Shape::Cone(0.12, j.next(0.4, 0.7)),
                Vec3::new(0.0, hip * 0.8, -0.3),
                Tint::Body,
            ),
            Quat::from_rotation_x(-2.2),
        ));
    }
    if look.winged {
        wings(parts, j, Vec3::new(0.0, hip + torso * 0.7, -0.2));
    }
    if look.horned {
        horns(parts, j, head, head_r);
    }
}

/// The quadruped body plan's parts.
fn quadruped(parts: &mut Vec<Part>, j: &mut Jitter, look: &Look) {
    let leg = j.next(0.35, 0.5);
    let length = j.next(0.7, 1.0);
    let girth = j.next(0.22, 0.32);
    let body_y = leg + girth * 0.6;
    parts.push(turned(
        part(
            Shape::Capsule(girth, length - girth),
            Vec3::new(0.0, body_y, 0.0),
            Tint::Body,
        ),
        Quat::from_rotation_x(FRAC_PI_2),
    ));
    for (sx, sz) in [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
        parts.push(part(
            Shape::Capsule(0.08, leg - 0.1),
            Vec3::new(sx * girth * 0.7, leg / 2.0, sz * length * 0.35),
            Tint::Accent,
        ));
    }
    let head_r = j.next(0.2, 0.28);
    let head = Vec3::new(0.0, body_y + girth * 0.9, length * 0.55 + head_r * 0.4);
    parts.push(part(Shape::Ball(head_r), head, Tint::Body));
    parts.push(turned(
        part(
            Shape::Cone(head_r * 0.7, head_r * 1.2),
            head + Vec3::new(0.0, -head_r * 0.3, head_r * 0.9),
            Tint::Body,
        ),
        Quat::from_rotation_x(FRAC_PI_2),
    ));
    eyes(parts, head, head_r);
    parts.push(turned(
        part(
            Shape::Cone(girth * 0.5, j.next(0.5, 0.9)),
            Vec3::new(0.0, body_y, -length * 0.75),
            Tint::Accent,
        ),
        Quat::from_rotation_x(-FRAC_PI_2 - 0.3),
    ));
    if look.horned {
        horns(parts, j, head, head_r);
    }
    if look.winged || look.kind.contains("dragon") && j.chance(0.5) {
        wings(parts, j, Vec3::new(0.0, body_y + girth, 0.0));
    }
}

/// The flyer body plan's parts.
fn flyer(parts: &mut Vec<Part>, j: &mut Jitter, _: &Look) {
    let body_r = j.next(0.28, 0.38);
    let body = Vec3::new(0.0, 0.75, 0.0);
    parts.push(part(Shape::Ball(body_r), body, Tint::Body));
    let head_r = body_r * j.next(0.55, 0.75);
    let head = body + Vec3::new(0.0, body_r * 0.9, body_r * 0.6);
    parts.push(part(Shape::Ball(head_r), head, Tint::Body));
    parts.push(turned(
        part(
            Shape::Cone(head_r * 0.45, head_r * 1.4),
            head + Vec3::new(0.0, -head_r * 0.1, head_r * 1.2),
            Tint::Accent,
        ),
        Quat::from_rotation_x(FRAC_PI_2),
    ));
    eyes(parts, head, head_r);
    wings(parts, j, body + Vec3::Y * 0.1);
    for s in [-1.0, 1.0] {
        parts.push(part(
            Shape::Capsule(0.04, 0.35),
            Vec3::new(s * 0.12, 0.25, 0.0),
            Tint::Accent,
        ));
    }
    parts.push(turned(
        part(
            Shape::Block(Vec3::new(0.4, 0.04, 0.5)),
            body + Vec3::new(0.0, 0.0, -body_r - 0.2),
            Tint::Accent,
        ),
        Quat::from_rotation_x(0.4),
    ));
}

/// The serpent body plan's parts.
fn serpent(parts: &mut Vec<Part>, j: &mut Jitter, _: &Look) {
    let n = 5 + (j.next(0.0, 3.0) as usize);
    let r0 = j.next(0.24, 0.32);
    let wave = j.next(0.15, 0.3);
    for i in 0..n {
        let t = i as f32 / n as f32;
        let r = r0 * (1.0 - 0.6 * t);
        let z = 0.4 - i as f32 * r0 * 1.3;
        let x = wave * (i as f32 * 1.3).sin();
        parts.push(part(
            Shape::Ball(r),
            Vec3::new(x, r + 0.15 + 0.35 * (1.0 - t), z),
            if i % 2 == 0 { Tint::Body } else { Tint::Accent },
        ));
    }
    let head_r = r0 * 1.15;
    let head = Vec3::new(0.0, 0.55 + head_r, 0.75);
    parts.push(part(Shape::Ball(head_r), head, Tint::Body));
    eyes(parts, head, head_r);
    for s in [-1.0, 1.0] {
        parts.push(turned(
            part(
                Shape::Cone(0.1, 0.45),
                head + Vec3::new(s * head_r, 0.0, -0.1),
                Tint::Accent,
            ),
            Quat::from_rotation_z(-s * 1.2),
        ));
    }
}

/// The insect body plan's parts.
fn insect(parts: &mut Vec<Part>, j: &mut Jitter, _: &Look) {
    let r = j.next(0.18, 0.26);
    for (i, scale) in [1.3, 1.0, 0.8].iter().enumerate() {
        parts.push(part(
            Shape::Ball(r * scale),
            Vec3::new(0.0, 0.45 + 0.05 * i as f32, -0.35 + 0.35 * i as f32),
            Tint::Body,
        ));
    }
    let head = Vec3::new(0.0, 0.55, 0.35);
    eyes(parts, head, r * 0.8);
    for i in 0..3 {
        for s in [-1.0, 1.0] {
            parts.push(turned(
                part(
                    Shape::Capsule(0.035, 0.45),
                    Vec3::new(s * 0.3, 0.22, -0.25 + 0.25 * i as f32),
                    Tint::Accent,
                ),
                Quat::from_rotation_z(s * 0.9),
            ));
        }
    }
    for s in [-1.0, 1.0] {
        parts.push(turned(
            part(
                Shape::Capsule(0.02, j.next(0.3, 0.5)),
                head + Vec3::new(s * 0.1, 0.25, 0.05),
                Tint::Accent,
            ),
            Quat::from_rotation_z(s * 0.4) * Quat::from_rotation_x(0.5),
        ));
    }
    if j.chance(0.5) {
        wings(parts, j, Vec3::new(0.0, 0.65, -0.2));
    }
}

/// The blob body plan's parts.
fn blob(parts: &mut Vec<Part>, j: &mut Jitter, _: &Look) {
    let r = j.next(0.38, 0.5);
    let body = Vec3::new(0.0, r + 0.05, 0.0);
    parts.push(part(Shape::Ball(r), body, Tint::Body));
    eyes(parts, body + Vec3::Y * r * 0.2, r);
    let spikes = 4 + j.next(0.0, 5.0) as usize;
    for i in 0..spikes {
        let a = i as f32 / spikes as f32 * 2.0 * PI;
        let dir = Vec3::new(a.cos() * 0.8, 0.6, a.sin() * 0.8).normalize();
        parts.push(Part {
            shape: Shape::Cone(0.09, j.next(0.25, 0.45)),
            at: body + dir * r,
            rot: Quat::from_rotation_arc(Vec3::Y, dir),
            tint: Tint::Accent,
        });
    }
}

fn wings(parts: &mut Vec<Part>, j: &mut Jitter, at: Vec3) {
    let span = j.next(0.6, 0.95);
    for s in [-1.0, 1.0] {
        parts.push(turned(
            part(
                Shape::Block(Vec3::new(span, 0.04, 0.35)),
                at + Vec3::new(s * span * 0.5, 0.15, -0.15),
                Tint::Accent,
            ),
            Quat::from_rotation_z(s * 0.45),
        ));
    }
}

fn horns(parts: &mut Vec<Part>, j: &mut Jitter, head: Vec3, r: f32) {
    let n = if j.chance(0.5) { 1 } else { 2 };
    for i in 0..n {
        let s = if n == 1 { 0.0 } else { i as f32 * 2.0 - 1.0 };
        parts.push(turned(
            part(
                Shape::Cone(r * 0.2, r * j.next(0.8, 1.3)),
                head + Vec3::new(s * r * 0.5, r * 0.85, 0.0),
                Tint::Accent,
            ),
            Quat::from_rotation_z(-s * 0.35),
        ));
    }
}

/// The Field's colour as the cards print it.
pub fn field_colour(d: &Digimon) -> Color {
    let [r, g, b] = crate::barcode::print::field_colour(d.field);
    Color::srgb_u8(r, g, b)
}

fn accent_colour(a: Attribute) -> Color {
    match a {
        Attribute::Vaccine => Color::srgb(0.92, 0.9, 0.8),
        Attribute::Data => Color::srgb(0.35, 0.85, 0.95),
        Attribute::Virus => Color::srgb(0.45, 0.2, 0.5),
        Attribute::Unknown | Attribute::Variable => Color::srgb(0.55, 0.55, 0.6),
    }
}

/// A figure on the stage.
#[derive(Component, Debug, Clone, Copy)]
pub struct Figure {
    /// Whose.
    pub side: Side,
    /// Its card.
    pub card: CardNumber,
    /// Where it stands when still.
    pub home: Vec3,
    /// Seconds since it appeared (drives its entrance).
    pub age: f32,
    /// Seconds left of a recoil after a hit.
    pub recoil: f32,
    /// Seconds left of a lunge as it attacks.
    pub lunge: f32,
    /// A sphere around it from its feet: centre offset and radius.
    pub bounds: (Vec3, f32),
}

/// One of a figure's meshes (the stage breaks these into debris).
#[derive(Component, Debug, Clone, Copy)]
pub struct FigurePart(pub Shape);

/// Spawns `d`'s figure for `side`, standing at `home` and facing the other side.
pub fn spawn_figure(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    d: &Digimon,
    side: Side,
    home: Vec3,
) -> Entity {
    let body = materials.add(StandardMaterial {
        base_color: field_colour(d),
        metallic: 0.2,
        perceptual_roughness: 0.5,
        ..default()
    });
    let accent = materials.add(StandardMaterial {
        base_color: accent_colour(d.attribute),
        perceptual_roughness: 0.6,
        ..default()
    });
    let eye = materials.add(StandardMaterial {
        base_color: Color::WHITE,
        emissive: LinearRgba::rgb(4.0, 3.5, 1.0),
        ..default()
    });
    let scale = level_scale(d.level.stage());
    commands
        .spawn((
            Name::new(format!("{} ({side})", d.name)),
            Figure {
                side,
                card: d.number,
                home,
                age: 0.0,
                recoil: 0.0,
                lunge: 0.0,
                bounds: figure_bounds(d, side),
            },
            Transform::from_translation(home)
                .with_rotation(facing(side))
                .with_scale(Vec3::splat(scale)),
            Visibility::default(),
        ))
        .with_children(|root| {
            for p in blueprint(d) {
                let mesh = match p.shape {
                    Shape::Ball(r) => meshes.add(Sphere::new(r).mesh().uv(16, 10)),
                    Shape::Block(s) => meshes.add(Cuboid::from_size(s)),
                    Shape::Capsule(r, l) => meshes.add(Capsule3d::new(r, l.max(0.01))),
                    Shape::Cone(r, h) => meshes.add(Cone::new(r, h)),
                };
                let material = match p.tint {
                    Tint::Body => body.clone(),
                    Tint::Accent => accent.clone(),
                    Tint::Eye => eye.clone(),
                };
                root.spawn((
                    FigurePart(p.shape),
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    Transform::from_translation(p.at).with_rotation(p.rot),
                ));
            }
        })
        .id()
}

/// A side's waiting Digimon (or a team as it is scanned).
#[derive(Component, Debug, Clone, Copy)]
pub struct BenchFigure;

/// Spawns a benched card's figure in slot `i`, at `size` times its own scale.
pub fn spawn_bench(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    d: &Digimon,
    side: Side,
    i: usize,
    size: f32,
) -> Entity {
    let e = spawn_figure(commands, meshes, materials, d, side, bench_spot(side, i));
    commands.entity(e).insert(BenchFigure);
    commands
        .entity(e)
        .entry::<Transform>()
        .and_modify(move |mut t| t.scale *= size);
    e
}

/// Spawns `card`'s figure at `side`'s spot, if it is a Digimon of the set.
pub fn spawn_front(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    cards: &CardSet,
    card: CardNumber,
    side: Side,
) -> Option<Entity> {
    let d = cards.get(&card)?.as_digimon()?;
    Some(spawn_figure(
        commands,
        meshes,
        materials,
        d,
        side,
        spot(side),
    ))
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, animate.in_set(AppSystems::Update));
}

/// Idle bob, entrance, lunge and recoil: all offsets from home, so the
/// animation can never drift a figure away.
fn animate(time: Res<Time>, mut q: Query<(&mut Figure, &mut Transform)>) {
    let dt = time.delta_secs();
    let t = time.elapsed_secs();
    for (mut f, mut tf) in &mut q {
        f.age += dt;
        f.recoil = (f.recoil - dt).max(0.0);
        f.lunge = (f.lunge - dt).max(0.0);
        let toward = if f.side == Side::P1 { 1.0 } else { -1.0 };
        let phase = f.card.to_string().len() as f32 + if f.side == Side::P1 { 0.0 } else { 1.7 };
        let bob = 0.05 * (t * 2.2 + phase).sin();
        // Entrance: drop in from above over the first half second.
        let drop = (1.0 - (f.age / 0.5).min(1.0)).powi(2) * 4.0;
        let lunge = (f.lunge * PI / 0.5).sin().max(0.0) * framing::LUNGE * toward;
        let recoil = -(f.recoil * PI / 0.6).sin().max(0.0) * framing::RECOIL * toward;
        tf.translation = f.home + Vec3::new(lunge + recoil, bob + drop, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, CardSet};

    fn digimon() -> Vec<Digimon> {
        CardSet::embedded()
            .cards()
            .iter()
            .filter_map(Card::as_digimon)
            .cloned()
            .collect()
    }

    #[test]
    fn plans_follow_the_type() {
        assert_eq!(Plan::of("Dragon Man"), Plan::Biped);
        assert_eq!(Plan::of("Reptile"), Plan::Quadruped);
        assert_eq!(Plan::of("Giant Bird"), Plan::Flyer);
        assert_eq!(Plan::of("Bird Man"), Plan::Biped);
        assert_eq!(Plan::of("Sea Animal"), Plan::Serpent);
        assert_eq!(Plan::of("Cyborg"), Plan::Machine);
        assert_eq!(Plan::of("Insect"), Plan::Insect);
        assert_eq!(Plan::of("Vegetation"), Plan::Blob);
    }

    #[test]
    fn every_card_gets_its_own_figure() {
        let all = digimon();
        let prints: Vec<Vec<Part>> = all.iter().map(blueprint).collect();
        for (d, p) in all.iter().zip(&prints) {
            assert!(p.len() >= 5, "{} has only {} parts", d.name, p.len());
            assert!(
                p.iter().any(|x| x.tint == Tint::Eye),
                "{} has no eyes",
                d.name
            );
            assert!(
                p.iter().all(|x| x.at.is_finite() && x.at.length() < 3.0),
                "{} has a part off the figure",
                d.name
            );
        }
        for i in 0..all.len() {
            for k in i + 1..all.len() {
                assert_ne!(
                    prints[i], prints[k],
                    "{} and {} look alike",
                    all[i].name, all[k].name
                );
            }
        }
        assert_eq!(blueprint(&all[0]), blueprint(&all[0]), "not deterministic");
    }

    #[test]
    fn higher_levels_stand_taller() {
        let s = [Stage::III, Stage::IV, Stage::Perfect, Stage::Ultimate].map(level_scale);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }
}
