//! Reading a card: the one under the mouse, the one Tab came to, or the
//! one the chosen answer names, shown large at the side; a card clicked
//! chooses the answer that names it.

use super::*;

/// The card under the mouse, shown large at the side to be read.
#[derive(Component, Debug, Clone, Copy)]
pub struct ReadCard;

/// The card being read's size on screen, pixels (its face's texture size).
pub(super) const READ_SIZE: (f32, f32) = (FACE_W as f32, FACE_H as f32);

/// The card a ray from the eye meets first, of those on the table (each
/// a flat card, `CARD` in its own x and z).
pub fn card_under<'a>(
    ray: Ray3d,
    cards: impl Iterator<Item = (&'a TableCard, &'a GlobalTransform)>,
) -> Option<CardNumber> {
    let dir = *ray.direction;
    cards
        .filter_map(|(card, tf)| {
            let (scale, rot, centre) = tf.to_scale_rotation_translation();
            let normal = rot * Vec3::Y;
            let across = dir.dot(normal);
            if across.abs() < 1e-4 {
                return None;
            }
            let t = (centre - ray.origin).dot(normal) / across;
            if t <= 0.0 {
                return None;
            }
            let local =
                rot.inverse() * (ray.origin + dir * t - centre) / scale.max(Vec3::splat(1e-4));
            (local.x.abs() <= CARD.x / 2.0 && local.z.abs() <= CARD.y / 2.0)
                .then_some((t, card.number))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// The card a person reads without the mouse: the one the chosen answer
/// names (so the three buttons alone show every card a person plays or
/// aims at), or any face-up card on the table, Tab after Tab.
#[derive(Resource, Debug, Default)]
pub(super) struct Reading {
    /// The face-up card the chosen answer names.
    pub(super) answer: Option<CardNumber>,
    /// The card Tab came to, and how long ago.
    pub(super) looked: Option<(CardNumber, f32)>,
    /// Where Tab is in the table's face-up cards.
    pub(super) at: usize,
}

/// How long a card Tab came to stays up, seconds.
pub(super) const LOOK_SECONDS: f32 = 8.0;

/// The face-up card the answer chosen names (the longest name it holds:
/// `Metal Greymon` before `Greymon`).
pub(super) fn answer_card<R: Tabled>(
    game: Res<TableGame<R>>,
    cards: Res<Cards>,
    table: Query<&TableCard>,
    mut reading: ResMut<Reading>,
) {
    let choice = choice(&game, &cards.0);
    let label = choice
        .answers
        .iter()
        .find(|(i, _)| *i == choice.chosen)
        .map(|(_, l)| l.to_lowercase());
    let named = label.and_then(|label| {
        named_card(
            &label,
            table
                .iter()
                .filter(|t| t.face_up && !t.stand_in)
                .filter_map(|t| Some((t.number, cards.0.get(&t.number)?.name()))),
        )
    });
    if reading.answer != named {
        reading.answer = named;
    }
}

/// Of `cards` (number, name), the one whose name `label` (lower case)
/// holds, the longest such name first.
pub(super) fn named_card<'a>(
    label: &str,
    cards: impl Iterator<Item = (CardNumber, &'a str)>,
) -> Option<CardNumber> {
    cards
        .filter(|(_, name)| !name.is_empty() && label.contains(&name.to_lowercase()))
        .max_by_key(|(_, name)| name.len())
        .map(|(n, _)| n)
}

/// Tab: the next face-up card on the table (seat by seat, left to right),
/// shown large until Tab again or for [`LOOK_SECONDS`].
pub(super) fn look_at_cards(
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    table: Query<(&TableCard, &GlobalTransform)>,
    mut reading: ResMut<Reading>,
) {
    let tab = keys.is_some_and(|k| k.just_pressed(KeyCode::Tab));
    if !tab {
        if let Some((_, age)) = reading.looked.as_mut() {
            *age += time.delta_secs();
            if *age > LOOK_SECONDS {
                reading.looked = None;
            }
        }
        return;
    }
    let mut up: Vec<(usize, f32, f32, CardNumber)> = table
        .iter()
        .filter(|(c, _)| c.face_up && !c.stand_in)
        .map(|(c, at)| {
            let p = at.translation();
            (c.seat, p.x, p.z, c.number)
        })
        .collect();
    up.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    if up.is_empty() {
        reading.looked = None;
        return;
    }
    let at = if reading.looked.is_some() {
        (reading.at + 1) % up.len()
    } else {
        0
    };
    reading.at = at;
    reading.looked = Some((up[at].3, 0.0));
}

/// The face-up card under the mouse (or else the one Tab came to, or the
/// one the chosen answer names), shown large at the side to be read (a
/// card on the far side of the table is small).
pub(super) fn read_cards(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<crate::arena::render::stage::ArenaCamera>>,
    table: Query<(&TableCard, &GlobalTransform)>,
    (faces, materials): (Option<Res<Faces>>, Res<Assets<CardFace>>),
    mut shown: Query<(&mut ImageNode, &mut Node), With<ReadCard>>,
    reading: Res<Reading>,
) {
    let hovered = windows
        .iter()
        .find_map(Window::cursor_position)
        .and_then(|cursor| {
            camera
                .iter()
                .find_map(|(cam, at)| cam.viewport_to_world(at, cursor).ok())
        })
        .and_then(|ray| card_under(ray, table.iter().filter(|(c, _)| c.face_up)));
    let face = hovered
        .or(reading.looked.map(|(n, _)| n))
        .or(reading.answer)
        .and_then(|n| faces.as_ref()?.faces.get(&n).cloned())
        .and_then(|h| materials.get(&h).map(|f| f.image.clone()));
    for (mut image, mut node) in &mut shown {
        let display = match &face {
            Some(face) => {
                if image.image != *face {
                    image.image = face.clone();
                }
                Display::Flex
            }
            None => Display::None,
        };
        if node.display != display {
            node.display = display;
        }
    }
}

/// A card clicked while a person is asked: the answer chosen moves to the
/// next one that names it (C, or the answer clicked, takes it).
pub(super) fn click_cards<R: Tabled>(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<crate::arena::render::stage::ArenaCamera>>,
    table: Query<(&TableCard, &GlobalTransform)>,
    cards: Res<Cards>,
    game: Option<ResMut<TableGame<R>>>,
) {
    let (Some(mouse), Some(mut res)) = (mouse, game) else {
        return;
    };
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cursor) = windows.iter().find_map(Window::cursor_position) else {
        return;
    };
    let Some(ray) = camera
        .iter()
        .find_map(|(cam, at)| cam.viewport_to_world(at, cursor).ok())
    else {
        return;
    };
    let Some(number) = card_under(ray, table.iter()) else {
        return;
    };
    let game = res.bypass_change_detection();
    let seat = match &game.remote {
        Some(r) => r.seat.filter(|_| r.asked.is_some()),
        None => game.waiting(),
    };
    let Some(seat) = seat else { return };
    let name = cards
        .0
        .get(&number)
        .map_or_else(|| number.to_string(), |c| c.name().to_string())
        .to_lowercase();
    let labels = answer_labels(game, seat, &cards.0);
    let Some(live) = game.live.as_mut() else {
        return;
    };
    let person = live.pilots.get(seat.index()).is_some_and(|p| p.is_person());
    if !person || live.curtain.is_some() || live.leaving.is_some() {
        return;
    }
    let naming: Vec<usize> = labels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.to_lowercase().contains(&name))
        .map(|(i, _)| i)
        .collect();
    if let Some(&next) = naming.iter().find(|&&i| i > live.chosen).or(naming.first()) {
        live.chosen = next;
        live.idle = 0.0;
    }
}
