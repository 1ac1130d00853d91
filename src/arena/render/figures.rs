//! Digimon figures on the stage: each card's rig ([`crate::arena::render::rig`]) as
//! entities — a root that moves about the stage, a joint per bone animated
//! by Bevy's animation system, and cel-shaded parts with ink outlines — and
//! what the figure does when the staging cues it (attack, hit, block,
//! digivolve, deletion), with hit flashes and the glow of a figure that has
//! just digivolved.

use std::collections::HashMap;
use std::f32::consts::{FRAC_PI_2, PI};
use std::time::Duration;

use bevy::animation::{AnimatedBy, AnimationTargetId, animated_field};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::arena::AppSystems;
use crate::arena::render::framing;
use crate::arena::render::look::{Outline, Toon};
use crate::arena::render::place::{bench_spot, spot};
use crate::arena::render::rig::{self, Finish, Joint, Move, Rig, Shape};
use crate::cards::figure::Tint;
use crate::cards::{CardNumber, CardSet, Digimon, Figures, Stage};
use crate::rules::terminal::Side;

/// The ink outline's width, metres.
const OUTLINE_WIDTH: f32 = 0.018;
/// How long a hit flash lasts, seconds.
const FLASH_SECONDS: f32 = 0.25;
/// How long a new figure glows after digivolving, seconds.
const GLOW_SECONDS: f32 = 0.9;
/// How long moves blend into each other, seconds.
const BLEND_SECONDS: f32 = 0.12;
/// How long a figure takes to turn into light as it digivolves, seconds.
const LEAVE_SECONDS: f32 = 0.35;

/// The way a side's figures face: towards the other side.
pub fn facing(side: Side) -> Quat {
    Quat::from_rotation_y(if side == Side::P1 {
        FRAC_PI_2
    } else {
        -FRAC_PI_2
    })
}

/// A Digimon's rig: its own figure data, or one derived from its card.
pub fn rig_of(d: &Digimon) -> Rig {
    match Figures::embedded().for_digimon(d) {
        Some(spec) => rig::build(spec),
        None => rig::build(&rig::derive(d)),
    }
}

/// A sphere around a Digimon's figure standing for `side`, in every pose
/// it takes: its centre from the figure's feet, and its radius (metres,
/// at the level's scale).
pub fn figure_bounds(d: &Digimon, side: Side) -> (Vec3, f32) {
    bounds_of(&rig_of(d), d, side)
}

fn bounds_of(rig: &Rig, d: &Digimon, side: Side) -> (Vec3, f32) {
    let (centre, radius) = rig.bounds();
    let scale = level_scale(d.level.stage());
    (facing(side) * centre * scale, radius * scale)
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

/// A figure on the stage.
#[derive(Component, Debug, Clone, Copy)]
pub struct Figure {
    /// Whose.
    pub side: Side,
    /// Its card.
    pub card: CardNumber,
    /// Where it stands when still.
    pub home: Vec3,
    /// Its size (the level's scale, times a bench's).
    pub size: f32,
    /// Seconds since it appeared (drives its entrance).
    pub age: f32,
    /// Seconds left of a recoil after a hit.
    pub recoil: f32,
    /// Seconds left of a lunge as it attacks.
    pub lunge: f32,
    /// Seconds left of a hit flash.
    pub flash: f32,
    /// Seconds left of the glow after digivolving.
    pub glow: f32,
    /// A move to play next (the staging cues it).
    pub cue: Option<Move>,
    /// A sphere around it from its feet: centre offset and radius.
    pub bounds: (Vec3, f32),
}

/// One of a figure's meshes (the stage breaks these into debris): its
/// shape (with its own scale), the scale its mesh is drawn at (a shared
/// unit mesh times the shape's size and the part's own scale), and the
/// figure it belongs to.
#[derive(Component, Debug, Clone, Copy)]
pub struct FigurePart {
    /// Its shape.
    pub shape: Shape,
    /// Its own scale.
    pub scale: Vec3,
    /// The scale of its transform, at rest.
    pub local: Vec3,
    /// The figure's root.
    pub owner: Entity,
}

impl FigurePart {
    /// A radius that roughly bounds it, before the figure's scale.
    pub fn radius(&self) -> f32 {
        self.shape.radius() * self.scale.max_element()
    }
}

/// A figure's own materials (flashed and glowed together) and their
/// resting glow.
#[derive(Component, Debug, Clone)]
pub struct FigureLook {
    toons: Vec<(Handle<Toon>, Vec4)>,
    lit: bool,
}

impl FigureLook {
    /// Lights every material of the figure white, `strength` over its own glow.
    fn light(&self, toons: &mut Assets<Toon>, light: Vec4) {
        for (h, rest) in &self.toons {
            if let Some(mut t) = toons.get_mut(h) {
                t.u.emissive = *rest + light;
            }
        }
    }
}

/// What every figure shares: the moves as one animation graph, the
/// outline material, and meshes by shape.
#[derive(Resource)]
pub struct FigureStore {
    graph: Handle<AnimationGraph>,
    nodes: HashMap<Move, AnimationNodeIndex>,
    outline: Handle<Outline>,
    meshes: HashMap<[i32; 2], Handle<Mesh>>,
}

/// What spawning a figure needs.
#[derive(SystemParam)]
pub struct FigureKit<'w> {
    /// Meshes.
    pub meshes: ResMut<'w, Assets<Mesh>>,
    /// The figures' materials.
    pub toons: ResMut<'w, Assets<Toon>>,
    /// What figures share.
    pub store: ResMut<'w, FigureStore>,
}

impl FigureStore {
    fn new(
        clips: &mut Assets<AnimationClip>,
        graphs: &mut Assets<AnimationGraph>,
        outlines: &mut Assets<Outline>,
    ) -> FigureStore {
        let handles: Vec<Handle<AnimationClip>> =
            Move::ALL.iter().map(|&m| clips.add(clip(m))).collect();
        let (graph, nodes) = AnimationGraph::from_clips(handles);
        FigureStore {
            graph: graphs.add(graph),
            nodes: Move::ALL.into_iter().zip(nodes).collect(),
            outline: outlines.add(Outline::new(OUTLINE_WIDTH)),
            meshes: HashMap::new(),
        }
    }

    /// The mesh for a shape, and the scale that fits it (unit meshes are
    /// shared by every ball, box, cone and cylinder).
    fn mesh(&mut self, meshes: &mut Assets<Mesh>, shape: Shape) -> (Handle<Mesh>, Vec3) {
        // Capsules and rings are kept by their proportions (a capsule of
        // radius r is a unit-radius one scaled by r), so the cache stays
        // small however many different figures a kiosk shows.
        let q = |x: f32| (x * 20.0).round().clamp(0.0, 2000.0) as i32;
        let (key, scale) = match shape {
            Shape::Ball(r) => ([0, 0], Vec3::splat(r)),
            Shape::Block(s) => ([1, 0], s),
            Shape::Cone(r, h) => ([2, 0], Vec3::new(r, h, r)),
            Shape::Cylinder(r, h) => ([3, 0], Vec3::new(r, h, r)),
            Shape::Capsule(r, l) => ([4, q(l.max(0.01) / r.max(0.001))], Vec3::splat(r)),
            Shape::Torus(t, r) => ([5, q(t / r.max(0.001))], Vec3::splat(r)),
        };
        let handle = self
            .meshes
            .entry(key)
            .or_insert_with(|| {
                let ratio = key[1] as f32 / 20.0;
                meshes.add(match shape {
                    Shape::Ball(_) => Sphere::new(1.0).mesh().uv(24, 16),
                    Shape::Block(_) => Cuboid::new(1.0, 1.0, 1.0).mesh().build(),
                    Shape::Cone(..) => Cone::new(1.0, 1.0).mesh().resolution(20).build(),
                    Shape::Cylinder(..) => Cylinder::new(1.0, 1.0).mesh().resolution(20).build(),
                    Shape::Capsule(..) => Capsule3d::new(1.0, ratio.max(0.01))
                        .mesh()
                        .latitudes(12)
                        .longitudes(20)
                        .build(),
                    Shape::Torus(..) => Torus::new((1.0 - ratio).max(0.001), 1.0 + ratio)
                        .mesh()
                        .minor_resolution(10)
                        .major_resolution(32)
                        .build(),
                })
            })
            .clone();
        (handle, scale)
    }
}

/// A move as an animation clip: rotation keyframes on the joints, the
/// mover's offset, and every joint the move leaves alone held at rest (so
/// a move cut short never leaves a limb where the last one put it).
fn clip(m: Move) -> AnimationClip {
    let mut clip = AnimationClip::default();
    let (tracks, offsets) = m.keys();
    for j in Joint::ALL {
        let keys = tracks
            .iter()
            .find(|(tj, _)| *tj == j)
            .map(|(_, k)| k.clone())
            .unwrap_or_else(|| vec![(0.0, Quat::IDENTITY), (m.seconds(), Quat::IDENTITY)]);
        if let Ok(curve) = UnevenSampleAutoCurve::new(keys) {
            clip.add_curve_to_target(
                target(j),
                AnimatableCurve::new(animated_field!(Transform::rotation), curve),
            );
        }
    }
    if let Ok(curve) = UnevenSampleAutoCurve::new(offsets) {
        clip.add_curve_to_target(
            target(Joint::Mover),
            AnimatableCurve::new(animated_field!(Transform::translation), curve),
        );
    }
    clip
}

/// A joint's animation target (the same for every figure: the moves are
/// shared).
fn target(j: Joint) -> AnimationTargetId {
    AnimationTargetId::from_name(&Name::new(j.name()))
}

fn setup_store(
    mut commands: Commands,
    mut clips: ResMut<Assets<AnimationClip>>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
    mut outlines: ResMut<Assets<Outline>>,
) {
    commands.insert_resource(FigureStore::new(&mut clips, &mut graphs, &mut outlines));
}

fn toon_for(colour: Color, finish: Finish) -> Toon {
    match finish {
        Finish::Skin => Toon::new(colour),
        Finish::Metal => Toon::metal(colour),
        Finish::Glow => Toon::glowing(colour, 2.5),
    }
}

/// Spawns `d`'s figure for `side`, standing at `home` and facing the other
/// side, `size` times its level's scale.
pub fn spawn_figure(
    commands: &mut Commands,
    kit: &mut FigureKit,
    d: &Digimon,
    side: Side,
    home: Vec3,
    size: f32,
) -> Entity {
    let rig = rig_of(d);
    let scale = level_scale(d.level.stage()) * size;
    // One material per colour and finish.
    let mut toons: Vec<((Tint, Finish), Handle<Toon>, Vec4)> = Vec::new();
    let mut material = |tint: Tint, finish: Finish| {
        if let Some((_, h, _)) = toons.iter().find(|(k, _, _)| *k == (tint, finish)) {
            return h.clone();
        }
        let [r, g, b] = rig.palette.get(tint).0;
        let t = toon_for(Color::srgb_u8(r, g, b), finish);
        let rest = t.u.emissive;
        let h = kit.toons.add(t);
        toons.push(((tint, finish), h.clone(), rest));
        h
    };
    let mut player = AnimationPlayer::default();
    let mut transitions = AnimationTransitions::new();
    if let Some(&idle) = kit.store.nodes.get(&Move::Idle) {
        // Each figure breathes in its own rhythm.
        let seed = crate::fingerprint::fnv1a(d.number.to_string().as_bytes());
        let phase = ((seed % 1000) as f32 / 1000.0 + side.index() as f32 * 0.37)
            * Move::Idle.seconds()
            % Move::Idle.seconds();
        transitions
            .play(&mut player, idle, Duration::ZERO)
            .repeat()
            .seek_to(phase);
    }
    let root = commands
        .spawn((
            Name::new(format!("{} ({side})", d.name)),
            Figure {
                side,
                card: d.number,
                home,
                size: scale,
                age: 0.0,
                recoil: 0.0,
                lunge: 0.0,
                flash: 0.0,
                glow: 0.0,
                cue: None,
                bounds: {
                    let (c, r) = bounds_of(&rig, d, side);
                    (c * size, r * size)
                },
            },
            Transform::from_translation(home)
                .with_rotation(facing(side))
                .with_scale(Vec3::splat(scale)),
            Visibility::default(),
            player,
            transitions,
            AnimationGraphHandle(kit.store.graph.clone()),
        ))
        .id();
    let mut joints: HashMap<Joint, Entity> = HashMap::new();
    for bone in &rig.bones {
        let parent = bone
            .parent
            .and_then(|p| joints.get(&p).copied())
            .unwrap_or(root);
        let e = commands
            .spawn((
                Name::new(bone.joint.name()),
                target(bone.joint),
                AnimatedBy(root),
                Transform::from_translation(bone.at),
                Visibility::default(),
                ChildOf(parent),
            ))
            .id();
        joints.insert(bone.joint, e);
    }
    for p in &rig.parts {
        let Some(&joint) = joints.get(&p.joint) else {
            continue;
        };
        let (mesh, fit) = kit.store.mesh(&mut kit.meshes, p.shape);
        let tf = Transform::from_translation(p.at)
            .with_rotation(p.rot)
            .with_scale(p.scale * fit);
        let part = commands
            .spawn((
                FigurePart {
                    shape: p.shape,
                    scale: p.scale,
                    local: p.scale * fit,
                    owner: root,
                },
                Mesh3d(mesh.clone()),
                MeshMaterial3d(material(p.tint, p.finish)),
                tf,
                ChildOf(joint),
            ))
            .id();
        // Glowing parts and tiny ones go without ink.
        if p.finish != Finish::Glow && p.bound() * scale > 0.05 {
            commands.spawn((
                Mesh3d(mesh),
                MeshMaterial3d(kit.store.outline.clone()),
                Transform::IDENTITY,
                ChildOf(part),
            ));
        }
    }
    commands.entity(root).insert(FigureLook {
        toons: toons.into_iter().map(|(_, h, rest)| (h, rest)).collect(),
        lit: false,
    });
    root
}

/// A side's waiting Digimon (or a team as it is scanned).
#[derive(Component, Debug, Clone, Copy)]
pub struct BenchFigure;

/// Spawns a benched card's figure in slot `i`, at `size` times its own scale.
pub fn spawn_bench(
    commands: &mut Commands,
    kit: &mut FigureKit,
    d: &Digimon,
    side: Side,
    i: usize,
    size: f32,
) -> Entity {
    let e = spawn_figure(commands, kit, d, side, bench_spot(side, i), size);
    commands.entity(e).insert(BenchFigure);
    e
}

/// Spawns `card`'s figure at `side`'s spot, if it is a Digimon of the set.
pub fn spawn_front(
    commands: &mut Commands,
    kit: &mut FigureKit,
    cards: &CardSet,
    card: CardNumber,
    side: Side,
) -> Option<Entity> {
    let d = cards.get(&card)?.as_digimon()?;
    Some(spawn_figure(commands, kit, d, side, spot(side), 1.0))
}

/// The figures' shared store and their animation (public for the figure
/// sheet, `examples/figures.rs`).
pub fn plugin(app: &mut App) {
    app.add_systems(PreStartup, setup_store).add_systems(
        Update,
        (animate, play_cues, light_up, fade_out).in_set(AppSystems::Update),
    );
}

/// A figure turning into its next level: it shrinks into white light and
/// goes, while the new one grows out of the light (no longer a [`Figure`]:
/// nothing stages it, no shot frames it).
#[derive(Component, Debug, Clone, Copy)]
pub struct Leaving {
    /// Seconds left.
    pub left: f32,
    /// Its size when it began to go.
    pub size: f32,
}

/// Starts `e`, the figure `f`, turning into light.
pub fn leave(commands: &mut Commands, e: Entity, f: &Figure) {
    commands.entity(e).remove::<Figure>().insert(Leaving {
        left: LEAVE_SECONDS,
        size: f.size,
    });
}

/// Leaving figures shrink and whiten, then go.
fn fade_out(
    time: Res<Time>,
    mut commands: Commands,
    mut toons: ResMut<Assets<Toon>>,
    mut q: Query<(Entity, &mut Leaving, &mut Transform, &FigureLook)>,
) {
    for (e, mut l, mut tf, look) in &mut q {
        l.left -= time.delta_secs();
        if l.left <= 0.0 {
            commands.entity(e).despawn();
            continue;
        }
        let t = 1.0 - l.left / LEAVE_SECONDS;
        tf.scale = Vec3::splat(l.size * (1.0 - 0.45 * t));
        look.light(&mut toons, WHITE_LIGHT * (3.0 * t.sqrt()));
    }
}

/// Entrance, lunge and recoil (all offsets from home, so the animation can
/// never drift a figure away), and the growth of a figure that has just
/// digivolved.
fn animate(time: Res<Time>, mut q: Query<(&mut Figure, &mut Transform)>) {
    let dt = time.delta_secs();
    for (mut f, mut tf) in &mut q {
        f.age += dt;
        f.recoil = (f.recoil - dt).max(0.0);
        f.lunge = (f.lunge - dt).max(0.0);
        f.flash = (f.flash - dt).max(0.0);
        f.glow = (f.glow - dt).max(0.0);
        let toward = if f.side == Side::P1 { 1.0 } else { -1.0 };
        // Entrance: drop in from above over the first half second (a
        // digivolved figure grows in place instead).
        let (drop, grow) = if f.glow > 0.0 || f.age > 0.5 {
            let g = 1.0 - (f.glow / GLOW_SECONDS).clamp(0.0, 1.0);
            (0.0, 0.6 + 0.4 * (g * PI / 2.0).sin().min(1.0))
        } else {
            ((1.0 - (f.age / 0.5).min(1.0)).powi(2) * 4.0, 1.0)
        };
        let lunge = (f.lunge * PI / 0.5).sin().max(0.0) * framing::LUNGE * toward;
        let recoil = -(f.recoil * PI / 0.6).sin().max(0.0) * framing::RECOIL * toward;
        tf.translation = f.home + Vec3::new(lunge + recoil, drop, 0.0);
        tf.scale = Vec3::splat(f.size * grow);
    }
}

/// Plays the move the staging cued, and idles again when a move ends.
fn play_cues(
    store: Option<Res<FigureStore>>,
    mut q: Query<(&mut Figure, &mut AnimationPlayer, &mut AnimationTransitions)>,
) {
    let Some(store) = store else {
        return;
    };
    let Some(&idle) = store.nodes.get(&Move::Idle) else {
        return;
    };
    for (mut f, mut player, mut transitions) in &mut q {
        if let Some(m) = f.cue.take() {
            if let Some(&node) = store.nodes.get(&m) {
                transitions.play(&mut player, node, Duration::from_secs_f32(BLEND_SECONDS));
            }
            continue;
        }
        let main = transitions.get_main_animation();
        if main != Some(idle)
            && main.is_none_or(|n| player.animation(n).is_none_or(|a| a.is_finished()))
        {
            transitions
                .play(&mut player, idle, Duration::from_secs_f32(0.2))
                .repeat();
        }
    }
}

/// The light a figure gives off: a hit flashes it warm, the figure's own
/// colours and shading still showing through (at most [`HIT_LIGHT`]); a new
/// form glows white after digivolving, then settles to its own glow.
pub fn lit_by(flash: f32, glow: f32) -> Vec4 {
    let flash = (flash / FLASH_SECONDS).clamp(0.0, 1.0);
    let glow = (glow / GLOW_SECONDS).clamp(0.0, 1.0);
    HIT_LIGHT * flash + WHITE_LIGHT * (2.5 * glow * glow)
}

/// White light (a new form's glow, a figure turning into light).
const WHITE_LIGHT: Vec4 = Vec4::new(1.0, 0.95, 0.85, 0.0);

/// A hit flash at its height: warm, and under half of white so the figure
/// stays itself.
pub const HIT_LIGHT: Vec4 = Vec4::new(0.45, 0.16, 0.08, 0.0);

/// Hit flashes and the glow after digivolving, on the figure's materials.
fn light_up(mut toons: ResMut<Assets<Toon>>, mut q: Query<(&Figure, &mut FigureLook)>) {
    for (f, mut look) in &mut q {
        let light = lit_by(f.flash, f.glow);
        let on = light.max_element() > 0.0;
        if !on && !look.lit {
            continue;
        }
        look.lit = on;
        look.light(&mut toons, light);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_flash_tints_the_figure_and_never_washes_it_white() {
        let peak = lit_by(FLASH_SECONDS, 0.0);
        assert!(peak.max_element() > 0.1, "{peak}");
        assert!(peak.max_element() <= 0.5, "washed out: {peak}");
        assert!(peak.x > peak.y && peak.y > peak.z, "warm: {peak}");
        assert_eq!(lit_by(0.0, 0.0), Vec4::ZERO);
        // A new form still glows white.
        let glow = lit_by(0.0, GLOW_SECONDS).truncate();
        assert!(glow.min_element() > 2.0, "{glow}");
    }

    #[test]
    fn higher_levels_stand_taller() {
        let s = [Stage::III, Stage::IV, Stage::Perfect, Stage::Ultimate].map(level_scale);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn every_move_is_a_clip_on_every_joint() {
        for m in Move::ALL {
            let c = clip(m);
            for j in Joint::ALL {
                assert!(
                    c.curves_for_target(target(j)).is_some(),
                    "{m:?} leaves {j:?} out"
                );
            }
            assert!((c.duration() - m.seconds()).abs() < 1e-3, "{m:?}");
        }
    }
}
