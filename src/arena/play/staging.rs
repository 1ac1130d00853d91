//! Staging: every rules event, as the show plays it, becomes something to
//! see and hear. The [`Board`] records what the audience has been shown so
//! far (the HUD draws it); here figures lunge, recoil, transform and break,
//! techniques fly, the camera cuts and sounds play. Nothing here touches the
//! Match.

use bevy::prelude::*;

use crate::arena::AppSystems;
pub use crate::arena::play::board::{Board, SideBoard};
use crate::arena::play::duel::{Duel, DuelStarted, Show, Staged};
use crate::arena::render::figures::{self, BenchFigure, Figure, FigureKit, FigurePart};
use crate::arena::render::look::Toon;
use crate::arena::render::place::spot;
use crate::arena::render::rig::Move;
use crate::arena::render::stage::{CameraShot, Shake};
use crate::arena::render::vfx::{self, Element, VfxStore};
use crate::arena::ui::sound::{Sfx, Sound};
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
    /// What it is made of.
    pub element: Element,
    /// Its basic attack power.
    pub power: u32,
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

pub use crate::arena::render::stage::DuelProp;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<Board>().add_systems(
        Update,
        (
            set_stage.run_if(resource_exists::<Duel>),
            stage_events.run_if(resource_exists::<Duel>),
            (fly, break_dying, fade_debris, banner_time),
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

fn set_stage(
    mut started: MessageReader<DuelStarted>,
    mut commands: Commands,
    duel: Res<Duel>,
    mut board: ResMut<Board>,
    props: Props,
    mut kit: FigureKit,
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
            figures::spawn_front(&mut commands, &mut kit, &duel.cards, card, side);
        }
        spawn_benches(&mut commands, &mut kit, &duel, side);
    }
    if *shot != CameraShot::Orbit {
        *shot = CameraShot::Wide;
    }
}

/// The lines waiting behind the front, as small figures at the side.
fn spawn_benches(commands: &mut Commands, kit: &mut FigureKit, duel: &Duel, side: Side) {
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
            figures::spawn_bench(commands, kit, d, side, i, BENCH_SIZE);
        }
    }
}

/// A deleted figure slumping before it breaks up (seconds left).
#[derive(Component, Debug, Clone, Copy)]
pub struct Dying(pub f32);

type FrontFigures<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut Figure,
        &'static Transform,
        Option<&'static Dying>,
    ),
    Without<BenchFigure>,
>;

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn stage_events(
    mut staged: MessageReader<Staged>,
    mut commands: Commands,
    duel: Res<Duel>,
    mut board: ResMut<Board>,
    mut figures_q: FrontFigures,
    benches: Query<(Entity, &Figure), With<BenchFigure>>,
    parts: Parts,
    mut kit: FigureKit,
    vfx_store: Option<Res<VfxStore>>,
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
            Event::Digivolved {
                side,
                from,
                to,
                bench: Some(line),
            } => {
                // A bench line digivolves where it waits (engine 4): its
                // small figure turns into the new one.
                if let Some((b, _)) = benches
                    .iter()
                    .find(|(_, f)| f.side == *side && f.card == *from)
                {
                    commands.entity(b).despawn();
                }
                if let Some(d) = cards.get(to).and_then(|c| c.as_digimon()) {
                    let f = figures::spawn_bench(
                        &mut commands,
                        &mut kit,
                        d,
                        *side,
                        usize::from(*line),
                        BENCH_SIZE,
                    );
                    commands.entity(f).entry::<Figure>().and_modify(|mut fig| {
                        fig.glow = 0.9;
                        fig.age = 1.0;
                        fig.cue = Some(Move::Digivolve);
                    });
                }
            }
            Event::Digivolved { side, to, .. }
            | Event::Jogressed { side, to, .. }
            | Event::SteppedIn { side, card: to } => {
                let joined = matches!(e, Event::Jogressed { .. });
                let stepped = matches!(e, Event::SteppedIn { .. });
                replace_front(
                    &mut commands,
                    &figures_q,
                    (&parts, vfx_store.as_deref()),
                    *side,
                    !stepped,
                );
                // The partner line of a Jogress, or the line stepping in,
                // leaves the bench.
                for (b, f) in &benches {
                    if f.side == *side && (joined || stepped && f.card == *to) {
                        commands.entity(b).despawn();
                    }
                }
                if let Some(f) = figures::spawn_front(&mut commands, &mut kit, cards, *to, *side) {
                    commands.entity(f).insert(DuelProp);
                    if !stepped {
                        // The old figure turns into the new one: it starts
                        // small and white-hot, spins and grows into itself.
                        commands.entity(f).entry::<Figure>().and_modify(|mut fig| {
                            fig.glow = 0.9;
                            fig.age = 1.0;
                            fig.cue = Some(Move::Digivolve);
                        });
                    }
                }
                if !stepped && let Some(store) = &vfx_store {
                    vfx::evolution_light(&mut commands, store, spot(*side));
                }
            }
            Event::TechniqueChosen {
                side, base, slot, ..
            } => {
                let front = board.sides[side.index()].front;
                let d = front
                    .and_then(|c| cards.get(&c))
                    .and_then(|c| c.as_digimon());
                let name = d.map_or("", |d| d.technique(*slot).name.as_str());
                let element = Element::of(name, d);
                for (_, mut f, _, _) in &mut figures_q {
                    if f.side == *side {
                        f.lunge = 0.5;
                        f.cue = Some(element.stance());
                    }
                }
                launch(&mut commands, vfx_store.as_deref(), *side, *base, element);
            }
            Event::Clash { winner, powers, .. } => {
                // The loser is thrown back and shows the blow it took; the
                // winner braces. Equal powers: nobody loses, both brace.
                for (_, mut f, tf, _) in &mut figures_q {
                    if *winner == Some(f.side.other()) {
                        f.recoil = 0.6;
                        f.flash = 0.25;
                        f.cue = Some(Move::Hit);
                        // HP is not lost between rounds: the blow is shown
                        // against the HP it had to reach to delete.
                        let by = powers[f.side.other().index()];
                        let hp = board.sides[f.side.index()].hp;
                        crate::arena::ui::numbers::damage_number(
                            &mut commands,
                            tf.translation + f.bounds.0,
                            blow_text(by, hp),
                            f.side,
                        );
                    } else {
                        f.cue = Some(Move::Block);
                    }
                }
                let centre = Vec3::new(0.0, 1.1, 0.0);
                let big = powers.iter().copied().max().unwrap_or(0);
                if let Some(store) = &vfx_store {
                    vfx::flash(&mut commands, store, centre, 1.0);
                    vfx::shock_ring(&mut commands, store, centre, 2.0 + big as f32 / 600.0);
                }
                // A big blow shakes the camera harder.
                shake.0 = 0.25 + (big as f32 / 1200.0).min(1.0) * 0.45;
            }
            Event::Deleted { side, .. } => {
                for (root, mut f, _, dying) in &mut figures_q {
                    if f.side == *side && dying.is_none() {
                        f.cue = Some(Move::Delete);
                        f.flash = 0.6;
                        commands.entity(root).insert(Dying(DYING_SECONDS));
                    }
                }
                shake.0 = 0.6;
            }
            Event::BattleEnded {
                outcome: Outcome::Win(w),
            } => {
                for (_, mut f, _, _) in &mut figures_q {
                    if Side::of(*w) == Some(f.side) {
                        f.cue = Some(Move::Cheer);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A clash's blow as it rises over the loser: its power against the HP it
/// had to reach (HP is not carried between rounds, so it is not HP lost).
pub fn blow_text(power: u32, hp: u32) -> String {
    if hp == 0 {
        power.to_string()
    } else {
        format!("{power} vs HP {hp}")
    }
}

/// How long a deleted figure slumps before it breaks up, seconds.
const DYING_SECONDS: f32 = 0.45;

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

/// The old front figure of `side` leaves (it is replaced by a new one):
/// one still slumping from its deletion breaks up now; one that digivolves
/// (`morph`) turns into light as the new one grows out of it.
fn replace_front(
    commands: &mut Commands,
    figures_q: &FrontFigures,
    (parts, store): (&Parts, Option<&VfxStore>),
    side: Side,
    morph: bool,
) {
    for (e, f, tf, dying) in figures_q {
        if f.side == side {
            if dying.is_some() {
                break_apart(commands, (e, f, tf.translation), parts, store);
            } else if morph {
                figures::leave(commands, e, f);
                commands.entity(e).insert(DuelProp);
            } else {
                commands.entity(e).despawn();
            }
        }
    }
}

/// Every figure's parts.
type Parts<'w, 's> = Query<
    'w,
    's,
    (
        &'static FigurePart,
        &'static GlobalTransform,
        &'static Mesh3d,
        &'static MeshMaterial3d<Toon>,
    ),
>;

/// A deleted figure breaks up: into data (glowing motes that rise from it)
/// and into its parts, each a piece of debris thrown by physics.
fn break_apart(
    commands: &mut Commands,
    (root, figure, at): (Entity, &Figure, Vec3),
    parts: &Parts,
    store: Option<&VfxStore>,
) {
    if let Some(store) = store {
        vfx::data_burst(commands, store, at + figure.bounds.0, figure.bounds.1);
    }
    let side = figure.side;
    let away = if side == Side::P1 { -1.0 } else { 1.0 };
    for (i, (part, global, mesh, material)) in
        parts.iter().filter(|p| p.0.owner == root).enumerate()
    {
        let tf = global.compute_transform();
        // Spread deterministically by part index: each piece flies its own way.
        let a = i as f32 * 2.399;
        // The figure's scale: the world scale over the part's own.
        let size = tf.scale.max_element() / part.local.max_element().max(1e-4);
        let impulse = Vec3::new(
            away * (0.6 + 0.4 * a.cos().abs()),
            1.2 + 0.5 * a.sin().abs(),
            a.sin() * 0.8,
        ) * size.min(1.5);
        commands.spawn((
            DuelProp,
            Debris {
                impulse: impulse * 0.2,
                spin: Vec3::new(a.cos(), a.sin(), 0.5) * 0.02,
                radius: (part.radius() * size).max(0.02),
                left: DEBRIS_SECONDS,
            },
            mesh.clone(),
            material.clone(),
            tf,
        ));
    }
    commands.entity(root).despawn();
}

/// Deleted figures break up when they have slumped.
fn break_dying(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &Figure, &Transform, &mut Dying)>,
    parts: Parts,
    vfx_store: Option<Res<VfxStore>>,
) {
    for (e, f, tf, mut d) in &mut q {
        d.0 -= time.delta_secs();
        if d.0 <= 0.0 {
            break_apart(
                &mut commands,
                (e, f, tf.translation),
                &parts,
                vfx_store.as_deref(),
            );
        }
    }
}

fn launch(
    commands: &mut Commands,
    store: Option<&VfxStore>,
    side: Side,
    power: u32,
    element: Element,
) {
    let from =
        spot(side) + Vec3::new(0.0, 1.2, 0.0) + (spot(side.other()) - spot(side)).normalize() * 0.6;
    let to = spot(side.other()) + Vec3::Y;
    // A flat arc: the horizontal speed covers the gap in FLIGHT seconds; the
    // vertical part cancels the (scaled) gravity on the way.
    let velocity = (to - from) / FLIGHT + Vec3::Y * 0.5 * 9.81 * 0.35 * FLIGHT;
    let radius = 0.12 + (power as f32 / 1000.0).min(1.5) * 0.18;
    let id = commands
        .spawn((
            DuelProp,
            Projectile {
                target: side.other(),
                velocity,
                radius,
                left: FLIGHT,
                element,
                power,
            },
            Transform::from_translation(from),
        ))
        .id();
    if let Some(store) = store {
        vfx::technique_look(commands, store, (id, from), element, radius);
    }
}

/// A technique lands when its flight time is up (physics carried it there).
fn fly(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Projectile, &Transform)>,
    vfx_store: Option<Res<VfxStore>>,
) {
    for (e, mut p, tf) in &mut q {
        p.left -= time.delta_secs();
        if p.left <= 0.0 {
            if let Some(store) = &vfx_store {
                vfx::impact(&mut commands, store, p.element, tf.translation, p.power);
            }
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

fn banner_time(time: Res<Time>, mut board: ResMut<Board>) {
    if let Some((_, left)) = &mut board.banner {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            board.banner = None;
        }
    }
}

/// Leaving a screen with a duel on stage: the duel and its props go.
pub fn end_duel(
    mut commands: Commands,
    props: Query<Entity, PropFilter>,
    mut show: ResMut<Show>,
    mut board: ResMut<Board>,
) {
    commands.remove_resource::<Duel>();
    clear_props(&mut commands, &props);
    *show = Show::default();
    *board = Board::default();
}
