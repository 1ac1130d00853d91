//! Staging: every rules event, as the show plays it, becomes something to
//! see and hear. The [`Board`] records what the audience has been shown so
//! far (the HUD draws it); here figures lunge, recoil, transform and break,
//! techniques fly, the camera cuts and sounds play. Nothing here touches the
//! Match.

use bevy::prelude::*;

use super::AppSystems;
pub use super::board::{Board, SideBoard};
use super::duel::{Duel, DuelStarted, Staged};
use super::figures::{self, BenchFigure, Figure, FigurePart};
use super::sound::{Sfx, Sound};
use super::stage::{CameraShot, Shake, spot};
use crate::cards::{CardNumber, CardSet};
use crate::rules::Outcome;
use crate::rules::terminal::{Event, Side};

/// How long a technique flies, seconds.
const FLIGHT: f32 = 0.55;
/// Debris lies on the stage this long before it is cleared, seconds.
const DEBRIS_SECONDS: f32 = 3.5;
/// Waiting lines stand at this fraction of their size, out of the way.
const BENCH_SIZE: f32 = 0.45;

/// A technique in flight (physics moves it; staging lands it).
#[derive(Component, Debug, Clone, Copy)]
pub struct Projectile {
    /// Who it flies at.
    pub target: Side,
    /// Its launch velocity, m/s.
    pub velocity: Vec3,
    /// Its radius, m (from the technique's power).
    pub radius: f32,
    /// Seconds until it lands.
    pub left: f32,
}

/// A piece of a broken figure or a spark (physics throws it).
#[derive(Component, Debug, Clone, Copy)]
pub struct Debris {
    /// The kick it gets, N·s.
    pub impulse: Vec3,
    /// The spin it gets.
    pub spin: Vec3,
    /// Its radius, m.
    pub radius: f32,
    /// Seconds until it is cleared.
    pub left: f32,
}

/// A flash of light that swells and fades.
#[derive(Component, Debug, Clone, Copy)]
pub struct Flash {
    /// Seconds left.
    pub left: f32,
    /// Its full size, m.
    pub size: f32,
}

/// Everything a duel put on stage (cleared when the next one starts).
#[derive(Component, Debug, Clone, Copy)]
pub struct DuelProp;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Board>().add_systems(
        Update,
        (
            set_stage.run_if(resource_exists::<Duel>),
            stage_events.run_if(resource_exists::<Duel>),
            (fly, fade_debris, fade_flash, banner_time),
        )
            .chain()
            .in_set(AppSystems::Update),
    );
}

/// What a duel puts on stage.
pub type PropFilter = Or<(With<DuelProp>, With<Figure>, With<Projectile>, With<Debris>)>;

/// Clears everything a duel put on stage.
pub fn clear_props(commands: &mut Commands, props: &Query<Entity, PropFilter>) {
    for e in props {
        commands.entity(e).despawn();
    }
}

type Props<'w, 's> = Query<'w, 's, Entity, PropFilter>;

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn set_stage(
    mut started: MessageReader<DuelStarted>,
    mut commands: Commands,
    duel: Res<Duel>,
    mut board: ResMut<Board>,
    props: Props,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shot: ResMut<CameraShot>,
) {
    if started.read().last().is_none() {
        return;
    }
    clear_props(&mut commands, &props);
    *board = Board::new(&duel);
    for side in Side::BOTH {
        let s = &board.sides[side.index()];
        if let Some(card) = s.front {
            figures::spawn_front(
                &mut commands,
                &mut meshes,
                &mut materials,
                &duel.cards,
                card,
                side,
            );
        }
        spawn_benches(&mut commands, &mut meshes, &mut materials, &duel, side);
    }
    if *shot != CameraShot::Orbit {
        *shot = CameraShot::Wide;
    }
}

/// The lines waiting behind the front, as small figures at the side.
fn spawn_benches(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    duel: &Duel,
    side: Side,
) {
    let front = duel.m().front_line(side);
    for (i, line) in duel.m().lines(side).iter().enumerate() {
        if i == front || !line.in_play {
            continue;
        }
        if let Some(d) = duel
            .cards
            .get(&line.stages[line.at])
            .and_then(|c| c.as_digimon())
        {
            figures::spawn_bench(commands, meshes, materials, d, side, i, BENCH_SIZE);
        }
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn stage_events(
    mut staged: MessageReader<Staged>,
    mut commands: Commands,
    duel: Res<Duel>,
    mut board: ResMut<Board>,
    mut figures_q: Query<(Entity, &mut Figure, &Transform, &Children), Without<BenchFigure>>,
    benches: Query<(Entity, &Figure), With<BenchFigure>>,
    parts: Query<(
        &FigurePart,
        &GlobalTransform,
        &Mesh3d,
        &MeshMaterial3d<StandardMaterial>,
    )>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shot: ResMut<CameraShot>,
    mut shake: ResMut<Shake>,
    mut sfx: MessageWriter<Sfx>,
) {
    let cards = &duel.cards;
    for Staged(e) in staged.read() {
        board.record(e, cards, duel.m());
        if let Some(s) = sound_of(e) {
            sfx.write(Sfx(s));
        }
        if let Some(s) = camera_for(e) {
            *shot = s;
        }
        match e {
            Event::Digivolved { side, to, .. }
            | Event::Jogressed { side, to, .. }
            | Event::SteppedIn { side, card: to } => {
                replace_front(&mut commands, &figures_q, *side);
                let joined = matches!(e, Event::Jogressed { .. });
                let stepped = matches!(e, Event::SteppedIn { .. });
                // The partner line of a Jogress, or the line stepping in,
                // leaves the bench.
                for (b, f) in &benches {
                    if f.side == *side && (joined || stepped && f.card == *to) {
                        commands.entity(b).despawn();
                    }
                }
                if let Some(f) = figures::spawn_front(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    cards,
                    *to,
                    *side,
                ) {
                    commands.entity(f).insert(DuelProp);
                }
                if !stepped {
                    flash(
                        &mut commands,
                        &mut meshes,
                        &mut materials,
                        spot(*side) + Vec3::Y,
                        2.5,
                        Color::srgb(1.0, 0.95, 0.6),
                    );
                }
            }
            Event::TechniqueChosen { side, base, .. } => {
                for (_, mut f, _, _) in &mut figures_q {
                    if f.side == *side {
                        f.lunge = 0.5;
                    }
                }
                launch(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    *side,
                    *base,
                    cards,
                    board.sides[side.index()].front,
                );
            }
            Event::Clash { winner, .. } => {
                if let Some(w) = winner {
                    for (_, mut f, _, _) in &mut figures_q {
                        if f.side == w.other() {
                            f.recoil = 0.6;
                        }
                    }
                }
                let centre = Vec3::new(0.0, 1.1, 0.0);
                flash(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    centre,
                    1.8,
                    Color::WHITE,
                );
                sparks(&mut commands, &mut meshes, &mut materials, centre, 10);
                shake.0 = 0.4;
            }
            Event::Deleted { side, .. } => {
                for (root, f, _, children) in &figures_q {
                    if f.side == *side {
                        break_apart(&mut commands, root, children, &parts, *side);
                    }
                }
                shake.0 = 0.6;
            }
            _ => {}
        }
    }
}

/// The sound an event makes, if any.
fn sound_of(e: &Event) -> Option<Sound> {
    Some(match e {
        Event::RoundStarted { .. } => Sound::Round,
        Event::Digivolved { .. } | Event::Jogressed { .. } => Sound::Evolve,
        Event::StanceLocked { .. } => Sound::Button,
        Event::AlphaAttack { .. } | Event::StancesRevealed { .. } => Sound::Reveal,
        Event::TechniqueChosen { .. } => Sound::Launch,
        Event::Clash { .. } => Sound::Clash,
        Event::Deleted { .. } => Sound::Delete,
        Event::BattleEnded { .. } => Sound::Fanfare,
        _ => return None,
    })
}

/// Where the camera cuts for an event, if it cuts.
pub fn camera_for(e: &Event) -> Option<CameraShot> {
    Some(match e {
        Event::RoundStarted { .. } | Event::StancesRevealed { .. } => CameraShot::Wide,
        Event::Digivolved { side, .. }
        | Event::Jogressed { side, .. }
        | Event::AlphaAttack { side, .. }
        | Event::TechniqueChosen { side, .. }
        | Event::Deleted { side, .. }
        | Event::SteppedIn { side, .. } => CameraShot::Focus(*side),
        Event::AlphaBlock { side, group } if !group.is_empty() => CameraShot::Focus(*side),
        Event::Clash { .. } => CameraShot::Centre,
        Event::BattleEnded { outcome } => match outcome {
            Outcome::Win(w) => Side::of(*w).map_or(CameraShot::Wide, CameraShot::Focus),
            Outcome::Draw => CameraShot::Wide,
        },
        _ => return None,
    })
}

/// The old front figure of `side` leaves (it is replaced by a new one).
fn replace_front(
    commands: &mut Commands,
    figures_q: &Query<(Entity, &mut Figure, &Transform, &Children), Without<BenchFigure>>,
    side: Side,
) {
    for (e, f, _, _) in figures_q {
        if f.side == side {
            commands.entity(e).despawn();
        }
    }
}

/// A deleted figure: each part becomes a piece of debris thrown by physics.
fn break_apart(
    commands: &mut Commands,
    root: Entity,
    children: &Children,
    parts: &Query<(
        &FigurePart,
        &GlobalTransform,
        &Mesh3d,
        &MeshMaterial3d<StandardMaterial>,
    )>,
    side: Side,
) {
    let away = if side == Side::P1 { -1.0 } else { 1.0 };
    for (i, child) in children.iter().enumerate() {
        let Ok((part, global, mesh, material)) = parts.get(child) else {
            continue;
        };
        let tf = global.compute_transform();
        // Spread deterministically by part index: each piece flies its own way.
        let a = i as f32 * 2.399;
        let impulse = Vec3::new(
            away * (0.6 + 0.4 * a.cos().abs()),
            1.2 + 0.5 * a.sin().abs(),
            a.sin() * 0.8,
        ) * tf.scale.x;
        commands.spawn((
            DuelProp,
            Debris {
                impulse: impulse * 0.2,
                spin: Vec3::new(a.cos(), a.sin(), 0.5) * 0.02,
                radius: part.0.radius() * tf.scale.x,
                left: DEBRIS_SECONDS,
            },
            mesh.clone(),
            material.clone(),
            tf,
        ));
    }
    commands.entity(root).despawn();
}

fn launch(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    side: Side,
    power: u32,
    cards: &CardSet,
    front: Option<CardNumber>,
) {
    let colour = front
        .and_then(|c| cards.get(&c))
        .and_then(|c| c.as_digimon())
        .map_or(Color::WHITE, figures::field_colour);
    let from =
        spot(side) + Vec3::new(0.0, 1.2, 0.0) + (spot(side.other()) - spot(side)).normalize() * 0.6;
    let to = spot(side.other()) + Vec3::Y;
    // A flat arc: the horizontal speed covers the gap in FLIGHT seconds; the
    // vertical part cancels the (scaled) gravity on the way.
    let velocity = (to - from) / FLIGHT + Vec3::Y * 0.5 * 9.81 * 0.35 * FLIGHT;
    let radius = 0.12 + (power as f32 / 1000.0).min(1.5) * 0.18;
    commands.spawn((
        DuelProp,
        Projectile {
            target: side.other(),
            velocity,
            radius,
            left: FLIGHT,
        },
        Mesh3d(meshes.add(Sphere::new(radius))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: colour,
            emissive: LinearRgba::from(colour) * 6.0,
            ..default()
        })),
        Transform::from_translation(from),
        PointLight {
            color: colour,
            intensity: 200_000.0,
            range: 6.0,
            ..default()
        },
    ));
}

fn flash(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    at: Vec3,
    size: f32,
    colour: Color,
) {
    commands.spawn((
        DuelProp,
        Flash { left: 0.5, size },
        Mesh3d(meshes.add(Sphere::new(0.5))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: colour.with_alpha(0.7),
            emissive: LinearRgba::from(colour) * 8.0,
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        })),
        Transform::from_translation(at).with_scale(Vec3::splat(0.1)),
    ));
}

fn sparks(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    at: Vec3,
    n: usize,
) {
    let mesh = meshes.add(Cuboid::new(0.08, 0.08, 0.08));
    let material = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.8, 0.3),
        emissive: LinearRgba::rgb(6.0, 4.0, 1.0),
        ..default()
    });
    for i in 0..n {
        let a = i as f32 / n as f32 * std::f32::consts::TAU;
        commands.spawn((
            DuelProp,
            Debris {
                impulse: Vec3::new(a.cos(), 0.8, a.sin()) * 0.004,
                spin: Vec3::splat(0.0001),
                radius: 0.04,
                left: 1.2,
            },
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(at),
        ));
    }
}

/// A technique lands when its flight time is up (physics carried it there).
fn fly(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Projectile, &Transform)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (e, mut p, tf) in &mut q {
        p.left -= time.delta_secs();
        if p.left <= 0.0 {
            sparks(
                &mut commands,
                &mut meshes,
                &mut materials,
                tf.translation,
                6,
            );
            commands.entity(e).despawn();
        }
    }
}

fn fade_debris(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Debris, &mut Transform)>,
) {
    for (e, mut d, mut tf) in &mut q {
        d.left -= time.delta_secs();
        if d.left <= 0.0 {
            commands.entity(e).despawn();
        } else if d.left < 0.5 {
            tf.scale = Vec3::splat(d.left / 0.5);
        }
    }
}

fn fade_flash(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Flash, &mut Transform)>,
) {
    for (e, mut f, mut tf) in &mut q {
        f.left -= time.delta_secs();
        if f.left <= 0.0 {
            commands.entity(e).despawn();
        } else {
            let t = 1.0 - f.left / 0.5;
            tf.scale = Vec3::splat(f.size * t.sqrt());
        }
    }
}

fn banner_time(time: Res<Time>, mut board: ResMut<Board>) {
    if let Some((_, left)) = &mut board.banner {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            board.banner = None;
        }
    }
}
