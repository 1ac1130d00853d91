//! Staging: every rules event, as the show plays it, becomes something to
//! see and hear. The [`Board`] is what the audience has been shown so far
//! (the HUD draws it); figures lunge, recoil, transform and break; techniques
//! fly; the camera cuts. Nothing here touches the Match.

use std::collections::VecDeque;

use bevy::prelude::*;

use super::AppSystems;
use super::duel::{Duel, DuelStarted, Staged};
use super::figures::{self, BenchFigure, Figure, FigurePart};
use super::sound::{Sfx, Sound};
use super::stage::{Shake, Shot, spot};
use crate::cards::{BattleType, CardNumber, CardSet};
use crate::rules::terminal::{Event, log};
use crate::rules::{Outcome, Side};

/// How long a technique flies, seconds.
const FLIGHT: f32 = 0.55;
/// Debris lies on the stage this long before it is cleared, seconds.
const DEBRIS_SECONDS: f32 = 3.5;
/// Waiting lines stand at this fraction of their size, out of the way.
const BENCH_SIZE: f32 = 0.45;
/// Captions kept in the HUD's log.
const LOG_LINES: usize = 4;

/// One side as the audience has seen it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideBoard {
    /// The front Digimon.
    pub front: Option<CardNumber>,
    /// Its name.
    pub name: String,
    /// Its level, as printed.
    pub level: String,
    /// Points.
    pub points: i32,
    /// The front Digimon's HP in this battle.
    pub hp: u32,
    /// The front line's evolution gauge, percent.
    pub gauge: u32,
    /// Which line is at the front.
    pub front_line: usize,
    /// Every line's evolution gauge, percent.
    pub gauges: Vec<u32>,
    /// Digimon still in play.
    pub left: usize,
    /// Digimon in the team.
    pub team: usize,
    /// Pressed this round.
    pub locked: bool,
    /// The revealed stance.
    pub stance: Option<BattleType>,
    /// The technique in use: name, basic power.
    pub technique: Option<(String, u32)>,
    /// The attack power after every change.
    pub power: Option<u32>,
}

/// What the show has staged so far: the HUD's source.
#[derive(Resource, Debug, Clone, Default)]
pub struct Board {
    /// Both sides.
    pub sides: [SideBoard; 2],
    /// The round (1-based; 0 before the first).
    pub round: u32,
    /// The last round there can be.
    pub max_rounds: u32,
    /// The clash's winner this round, once shown (`Some(None)`: equal powers).
    pub clash: Option<Option<Side>>,
    /// The result, once shown.
    pub outcome: Option<Outcome>,
    /// The latest captions, newest last.
    pub log: VecDeque<String>,
    /// A big centre caption and how long it stays (seconds).
    pub banner: Option<(String, f32)>,
}

impl Board {
    /// The board at a duel's start.
    pub fn new(duel: &Duel) -> Board {
        let mut b = Board {
            max_rounds: duel.m.tunables().max_rounds,
            ..Board::default()
        };
        for side in Side::BOTH {
            let v = duel.m.view(side);
            let lines = duel.m.lines(side);
            let s = &mut b.sides[side.index()];
            s.points = duel.m.tunables().start_points;
            s.front_line = duel.m.front_line(side);
            s.gauge = 0;
            s.team = lines.len();
            s.gauges = lines.iter().map(|l| l.gauge).collect();
            s.left = v.digimon_left;
            set_front(s, &duel.cards, lines[s.front_line].stages[0]);
        }
        b
    }

    fn say(&mut self, line: String) {
        self.log.push_back(line);
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }
}

fn set_front(s: &mut SideBoard, cards: &CardSet, card: CardNumber) {
    s.front = Some(card);
    if let Some(d) = cards.get(&card).and_then(|c| c.as_digimon()) {
        s.name = d.name.clone();
        s.level = d.level.to_string();
        s.hp = d.hp;
    }
}

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
    mut shot: ResMut<Shot>,
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
    if *shot != Shot::Orbit {
        *shot = Shot::Wide;
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
    let front = duel.m.front_line(side);
    for (i, line) in duel.m.lines(side).iter().enumerate() {
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
    mut shot: ResMut<Shot>,
    mut shake: ResMut<Shake>,
    mut sfx: MessageWriter<Sfx>,
) {
    let cards = &duel.cards;
    for Staged(e) in staged.read() {
        board.say(log::describe(e, cards));
        match e {
            Event::RoundStarted { round } => {
                board.round = *round;
                board.clash = None;
                for s in &mut board.sides {
                    s.locked = false;
                    s.stance = None;
                    s.technique = None;
                    s.power = None;
                }
                board.banner = Some((format!("ROUND {round}"), 1.0));
                *shot = Shot::Wide;
                sfx.write(Sfx(Sound::Round));
            }
            Event::EvolutionOffered { .. } | Event::AbilityReadied { .. } => {}
            Event::Digivolved { side, to, .. } | Event::Jogressed { side, to, .. } => {
                let s = &mut board.sides[side.index()];
                set_front(s, cards, *to);
                s.gauge = 0;
                replace_front(&mut commands, &figures_q, *side);
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
                flash(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    spot(*side) + Vec3::Y,
                    2.5,
                    Color::srgb(1.0, 0.95, 0.6),
                );
                if let Event::Jogressed { .. } = e {
                    board.banner = Some(("JOGRESS!".into(), 1.4));
                    // The partner line joined: its bench figure leaves the stage.
                    for (b, f) in &benches {
                        if f.side == *side {
                            commands.entity(b).despawn();
                        }
                    }
                } else {
                    board.banner = Some(("DIGIVOLVE!".into(), 1.4));
                }
                *shot = Shot::Focus(*side);
                sfx.write(Sfx(Sound::Evolve));
            }
            Event::StanceLocked { side } => {
                board.sides[side.index()].locked = true;
                sfx.write(Sfx(Sound::Button));
            }
            Event::AlphaAttack { side, .. } => {
                board.banner = Some((format!("{side} ALPHA STRIKE!"), 1.0));
                *shot = Shot::Focus(*side);
                sfx.write(Sfx(Sound::Reveal));
            }
            Event::AlphaBlock { side, group } => {
                if !group.is_empty() {
                    board.banner = Some((format!("{side} ALPHA BLOCK!"), 1.0));
                    *shot = Shot::Focus(*side);
                }
            }
            Event::StancesRevealed { stances, .. } => {
                for side in Side::BOTH {
                    board.sides[side.index()].stance = Some(stances[side.index()]);
                }
                *shot = Shot::Wide;
                sfx.write(Sfx(Sound::Reveal));
            }
            Event::TechniqueChosen {
                side,
                card,
                slot,
                base,
            } => {
                let name = log::technique_name(cards, *card, *slot)
                    .unwrap_or_else(|| format!("Technique {}", slot.letter()));
                let s = &mut board.sides[side.index()];
                s.technique = Some((name, *base));
                s.power = Some(*base);
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
                *shot = Shot::Focus(*side);
                sfx.write(Sfx(Sound::Launch));
            }
            Event::PowerModified { side, power, .. } => {
                board.sides[side.index()].power = Some(*power);
            }
            Event::HpModified { side, hp, .. } => {
                board.sides[side.index()].hp = *hp;
            }
            Event::AbilityTriggered { .. } | Event::DeletionPrevented { .. } => {}
            Event::Clash { powers, hp, winner } => {
                for side in Side::BOTH {
                    let s = &mut board.sides[side.index()];
                    s.power = Some(powers[side.index()]);
                    s.hp = hp[side.index()];
                }
                board.clash = Some(*winner);
                if let Some(w) = winner {
                    for (_, mut f, _, _) in &mut figures_q {
                        if f.side == w.other() {
                            f.recoil = 0.6;
                        }
                    }
                }
                flash(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    Vec3::new(0.0, 1.1, 0.0),
                    1.8,
                    Color::WHITE,
                );
                sparks(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    Vec3::new(0.0, 1.1, 0.0),
                    10,
                );
                board.banner = Some((
                    match winner {
                        Some(w) => format!("{w} WINS THE CLASH"),
                        None => "EVEN!".to_string(),
                    },
                    1.0,
                ));
                *shot = Shot::Centre;
                shake.0 = 0.4;
                sfx.write(Sfx(Sound::Clash));
            }
            Event::PointsChanged { side, points, .. } => {
                board.sides[side.index()].points = *points;
            }
            Event::Deleted { side, .. } => {
                let s = &mut board.sides[side.index()];
                s.left = s.left.saturating_sub(1);
                for (root, f, _, children) in &figures_q {
                    if f.side != *side {
                        continue;
                    }
                    break_apart(&mut commands, root, children, &parts, *side);
                }
                board.banner = Some((format!("{} DELETED", s.name.to_uppercase()), 1.4));
                *shot = Shot::Focus(*side);
                shake.0 = 0.6;
                sfx.write(Sfx(Sound::Delete));
            }
            Event::SteppedIn { side, card } => {
                let s = &mut board.sides[side.index()];
                set_front(s, cards, *card);
                if let Some(line) = duel
                    .m
                    .lines(*side)
                    .iter()
                    .position(|l| l.stages.contains(card))
                {
                    s.front_line = line;
                }
                s.gauge = s.gauges.get(s.front_line).copied().unwrap_or(0);
                replace_front(&mut commands, &figures_q, *side);
                for (b, f) in &benches {
                    if f.side == *side && f.card == *card {
                        commands.entity(b).despawn();
                    }
                }
                if let Some(f) = figures::spawn_front(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    cards,
                    *card,
                    *side,
                ) {
                    commands.entity(f).insert(DuelProp);
                }
                *shot = Shot::Focus(*side);
            }
            Event::GaugeChanged { side, line, gauge } => {
                let s = &mut board.sides[side.index()];
                let line = usize::from(*line);
                if let Some(g) = s.gauges.get_mut(line) {
                    *g = *gauge;
                }
                if line == s.front_line {
                    s.gauge = *gauge;
                }
            }
            Event::RoundEnded { points, .. } => {
                for side in Side::BOTH {
                    board.sides[side.index()].points = points[side.index()];
                }
            }
            Event::BattleEnded { outcome } => {
                board.outcome = Some(*outcome);
                board.banner = Some((
                    match outcome {
                        Outcome::Win(w) => format!("{w} WINS!"),
                        Outcome::Draw => "DRAW".to_string(),
                    },
                    3.0,
                ));
                *shot = match outcome {
                    Outcome::Win(w) => Shot::Focus(*w),
                    Outcome::Draw => Shot::Wide,
                };
                sfx.write(Sfx(Sound::Fanfare));
            }
        }
    }
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
