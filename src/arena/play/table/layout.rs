//! Where every card goes: its place on the table, face up or down, a
//! person's own hand held up, and which card moves where.

use super::*;

/// Where every card goes: its transform on the table and whether it lies
/// face up (`hands`: whose hands are shown).
pub fn goals(placed: &[Placed], seats: usize, hands: Hands) -> Vec<(Placed, Transform, bool)> {
    placed
        .iter()
        .map(|c| {
            let (origin, turn, scale) = seat_frame(c.seat, seats);
            let shown = match hands {
                Hands::All => true,
                Hands::Only(seat) => seat == Some(c.seat),
            };
            // A hand's stand-ins (cards this machine may not see, at a LAN
            // table) stay face down whoever's hands are shown.
            let face_up = c.open || (c.hand && shown && !c.stand_in);
            // The person's own hand is held up: off the table, nearer the
            // centre (clear of the question under it), larger and turned
            // to the eye to be read.
            let held = c.hand && face_up && matches!(hands, Hands::Only(Some(s)) if s == c.seat);
            let (local, size) = if held {
                (c.at + Vec3::new(0.0, HELD_UP, -HELD_IN), c.size * HELD_SIZE)
            } else {
                (c.at, c.size)
            };
            let mut rot = turn;
            if held {
                rot *= Quat::from_rotation_x(HELD_TILT);
            }
            if c.sideways {
                rot *= Quat::from_rotation_y(FRAC_PI_2);
            }
            if !face_up {
                rot *= Quat::from_rotation_z(PI);
            }
            let at = origin + turn * (local * Vec3::new(scale, 1.0, scale)) + Vec3::Y * 0.01;
            (
                *c,
                Transform::from_translation(at)
                    .with_rotation(rot)
                    .with_scale(Vec3::splat(scale * size)),
                face_up,
            )
        })
        .collect()
}

/// Where every card of a ruleset's layout goes (`seats` at the table).
pub fn layout_goals<R: Tabled>(
    layout: &R::Layout,
    seats: usize,
    hands: Hands,
) -> Vec<(Placed, Transform, bool)> {
    goals(&R::placed(layout), seats, hands)
}

/// The goals of the cards the rules keep an id for, by id.
pub fn goals_by_id(
    placed: &[Placed],
    seats: usize,
    hands: Hands,
) -> HashMap<u32, (Transform, bool)> {
    goals(placed, seats, hands)
        .into_iter()
        .filter_map(|(p, t, up)| Some((p.id?, (t, up))))
        .collect()
}

/// Pairs each card of `have` (where it is going now) with one of `want`
/// (places for a copy of the same card), nearest first; the pairs, by
/// index into each.
pub(super) fn nearest(have: &[Vec3], want: &[Vec3]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(f32, usize, usize)> = have
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            want.iter()
                .enumerate()
                .map(move |(j, b)| (a.distance(*b), i, j))
        })
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut used_have, mut used_want) = (vec![false; have.len()], vec![false; want.len()]);
    let mut out = Vec::new();
    for (_, i, j) in pairs {
        if !used_have[i] && !used_want[j] {
            used_have[i] = true;
            used_want[j] = true;
            out.push((i, j));
        }
    }
    out
}
