//! Marks over the table: what an attack aims at, and the ring round a
//! battle's cards.

use super::*;

/// With three or four seats, the arrow at a seat's edge that points at its
/// Target Opponent.
#[derive(Component, Debug, Clone, Copy)]
pub struct TargetMarker {
    /// The seat, by index.
    pub seat: usize,
}

/// Keeps one arrow per seat in `want` (seat, its target), at 3–4 seats,
/// pointing from its edge at its target's.
pub(super) fn aim(
    mut commands: Commands,
    n: usize,
    want: &[(usize, usize)],
    (mut meshes, mut glows): (ResMut<Assets<Mesh>>, ResMut<Assets<Glow>>),
    mut markers: Query<(Entity, &TargetMarker, &mut Transform)>,
) {
    let want: Vec<(usize, Transform)> = if n > 2 {
        want.iter()
            .map(|&(i, target)| {
                let (from, _, _) = seat_frame(i, n);
                let (to, _, _) = seat_frame(target, n);
                let dir = (to - from).normalize_or(Vec3::Z);
                // Beside the seat's front row, lying on the table, tip first.
                let at = from * 0.62 + Vec3::Y * 0.05;
                let tf = Transform::from_translation(at)
                    .with_rotation(Quat::from_rotation_arc(Vec3::Y, dir))
                    .with_scale(Vec3::new(0.22, 0.45, 0.22));
                (i, tf)
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut have = Vec::new();
    for (e, marker, mut tf) in &mut markers {
        match want.iter().find(|(i, _)| *i == marker.seat) {
            Some((_, goal)) => {
                *tf = *goal;
                have.push(marker.seat);
            }
            None => commands.entity(e).despawn(),
        }
    }
    for (i, tf) in want.into_iter().filter(|(i, _)| !have.contains(i)) {
        commands.spawn((
            TargetMarker { seat: i },
            Mesh3d(meshes.add(Cone::new(0.5, 1.0))),
            MeshMaterial3d(glows.add(Glow::solid(LinearRgba::rgb(2.4, 1.9, 0.5)))),
            tf,
            DespawnOnExit(Screen::Table),
        ));
    }
}

/// A part in the battle under way, marked by a ring on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The attacking Digimon.
    Attacker(CardNumber),
    /// An alpha-attack's supporter.
    Supporter(CardNumber),
    /// The Digimon attacked.
    Target(CardNumber),
    /// The player attacked.
    Player,
    /// The blocking Digimon.
    Blocker(CardNumber),
    /// An alpha-block's supporter.
    BlockSupporter(CardNumber),
}

impl Role {
    /// The Digimon it marks, if a Digimon.
    pub fn card(self) -> Option<CardNumber> {
        match self {
            Role::Attacker(c)
            | Role::Supporter(c)
            | Role::Target(c)
            | Role::Blocker(c)
            | Role::BlockSupporter(c) => Some(c),
            Role::Player => None,
        }
    }

    /// The ring's colour (bright, for the glow) and size.
    pub(super) fn look(self) -> (LinearRgba, f32) {
        match self {
            Role::Attacker(_) => (LinearRgba::rgb(3.0, 0.6, 0.3), 0.42),
            Role::Supporter(_) => (LinearRgba::rgb(2.2, 1.0, 0.3), 0.32),
            Role::Target(_) | Role::Player => (LinearRgba::rgb(2.6, 2.6, 2.6), 0.42),
            Role::Blocker(_) => (LinearRgba::rgb(0.4, 1.4, 3.0), 0.42),
            Role::BlockSupporter(_) => (LinearRgba::rgb(0.5, 1.6, 2.2), 0.32),
        }
    }
}

/// A ring on the table under a Digimon with a part in the battle under way
/// (or at the edge of the player attacked): red the attacker, orange its
/// supporters, white what it attacks, blue the blocker and its supporters.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClashRing {
    /// The seat, by index.
    pub seat: usize,
    /// The part.
    pub role: Role,
}

/// Keeps a ring under each part of the battle under way, pulsing, and
/// hidden while its Digimon has no figure.
#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
pub(super) fn mark_clash<R: Tabled>(
    mut commands: Commands,
    time: Res<Time>,
    game: Option<Res<TableGame<R>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    figs: Query<(&TableFigure, &Figure)>,
    mut rings: Query<(Entity, &ClashRing, &mut Transform, &mut Visibility)>,
    mut ring_mesh: Local<Option<Handle<Mesh>>>,
) {
    let Some(game) = game else { return };
    let n = R::seat_cards(&game.replay.setup).len();
    let want: Vec<ClashRing> = R::clash(&game.marks)
        .iter()
        .map(|(seat, role)| ClashRing {
            seat: seat.index(),
            role: *role,
        })
        .collect();
    let pulse = 1.0 + 0.06 * (time.elapsed_secs() * 6.0).sin();
    let mut have = Vec::new();
    for (e, ring, mut tf, mut vis) in &mut rings {
        if !want.contains(ring) {
            commands.entity(e).despawn();
            continue;
        }
        have.push(*ring);
        let (_, size) = ring.role.look();
        let at = match ring.role.card() {
            Some(card) => figs
                .iter()
                .find(|(t, _)| t.seat == ring.seat && t.card == card)
                .map(|(_, f)| (f.home + Vec3::Y * 0.015, size.max(f.bounds.1 * 0.9))),
            None => {
                let (origin, _, scale) = seat_frame(ring.seat, n);
                Some((origin * 0.93 + Vec3::Y * 0.02, 0.7 * scale))
            }
        };
        let shown = match at {
            Some((p, r)) => {
                tf.translation = p;
                tf.scale = Vec3::new(r * pulse, 1.0, r * pulse);
                tf.rotate_y(time.delta_secs() * 0.8);
                Visibility::Inherited
            }
            None => Visibility::Hidden,
        };
        if *vis != shown {
            *vis = shown;
        }
    }
    let mesh = ring_mesh
        .get_or_insert_with(|| meshes.add(Torus::new(0.9, 1.0)))
        .clone();
    for ring in want.into_iter().filter(|r| !have.contains(r)) {
        let (colour, _) = ring.role.look();
        commands.spawn((
            ring,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(glows.add(Glow::solid(colour))),
            // Placed (and shown) on the next frame, once its figure is found.
            Transform::from_scale(Vec3::ZERO),
            Visibility::Hidden,
            DespawnOnExit(Screen::Table),
        ));
    }
}
