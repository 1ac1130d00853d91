//! The small figures standing on the Digimon in play, and the shots they
//! fire at each other in a battle.

use super::*;

/// A Digimon's figure, standing on its Box card.
#[derive(Component, Debug, Clone, Copy)]
pub struct TableFigure {
    /// Its card's instance.
    pub id: u32,
    /// Its seat, by index.
    pub seat: usize,
    /// The card it stands for (its figure may be another card's of the
    /// same Digimon).
    pub card: CardNumber,
}

/// A technique crossing the table.
#[derive(Component, Debug, Clone, Copy)]
pub struct Shot {
    pub(super) from: Vec3,
    pub(super) to: Vec3,
    /// Seconds flown.
    pub(super) t: f32,
    pub(super) element: Element,
    pub(super) power: u32,
    /// The figure it strikes.
    pub(super) hits: Option<Entity>,
}

/// How long a technique takes to cross, seconds.
pub(super) const SHOT_SECONDS: f32 = 0.55;
/// A figure's size on a two-seat table.
pub(super) const FIGURE_SIZE: f32 = 0.8;

/// A seat's side colour for the effects that have one (damage numbers).
pub(super) fn side_of(seat: usize) -> Side {
    if seat.is_multiple_of(2) {
        Side::P1
    } else {
        Side::P2
    }
}

/// The table's figures, to find and to move.
pub(super) type Figs<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static TableFigure,
        &'static mut Figure,
        &'static mut Transform,
    ),
>;

/// Where each figure should stand, by its card's id: its seat, its card,
/// the card's place on the table and whether it lies sideways.
pub(super) type Stands = HashMap<u32, (usize, CardNumber, Transform, bool)>;

/// The figures follow their cards: one whose card left (or that is `gone`,
/// already leaving) goes, the others stand on their cards (turned aside
/// when the card lies sideways), and a card without a figure gets one, of
/// the Digimon `digimon_of` gives it.
pub(super) fn place_figures(
    commands: &mut Commands,
    kit: &mut FigureKit,
    figs: &mut Figs,
    (mut stand, gone): (Stands, &[Entity]),
    seats: usize,
    digimon_of: impl Fn(&CardNumber) -> Option<Digimon>,
) {
    let facing = |seat: usize, sideways: bool| {
        let (_, turn, _) = seat_frame(seat, seats);
        let aside = if sideways { FRAC_PI_2 } else { 0.0 };
        turn * Quat::from_rotation_y(PI + aside)
    };
    for (e, t, mut f, mut tf) in figs.iter_mut() {
        if gone.contains(&e) {
            continue;
        }
        match stand.remove(&t.id) {
            Some((seat, number, goal, sideways)) if number == t.card && seat == t.seat => {
                f.home = goal.translation + Vec3::Y * 0.02;
                tf.rotation = facing(seat, sideways);
            }
            _ => figures::leave(commands, e, &f),
        }
    }
    for (id, (seat, number, goal, sideways)) in stand {
        let Some(d) = digimon_of(&number) else {
            continue;
        };
        let (_, _, scale) = seat_frame(seat, seats);
        let home = goal.translation + Vec3::Y * 0.02;
        let e = figures::spawn_figure(commands, kit, &d, side_of(seat), home, FIGURE_SIZE * scale);
        commands.entity(e).insert((
            TableFigure {
                id,
                seat,
                card: number,
            },
            DespawnOnExit(Screen::Table),
            Transform::from_translation(home).with_rotation(facing(seat, sideways)),
        ));
    }
}

/// Sends a technique of `element` from `p` to `q`, at the figure `hits`.
pub(super) fn launch(
    commands: &mut Commands,
    store: Option<&VfxStore>,
    (p, q): (Vec3, Vec3),
    (element, power): (Element, u32),
    hits: Option<Entity>,
) {
    let shot = commands
        .spawn((
            Shot {
                from: p,
                to: q,
                t: 0.0,
                element,
                power,
                hits,
            },
            Transform::from_translation(p),
        ))
        .id();
    if let Some(store) = store {
        vfx::technique_look(commands, store, (shot, p), element, 0.1);
    }
}

/// Techniques cross the table in an arc and burst on the figure they strike.
pub(super) fn fly(
    time: Res<Time>,
    mut commands: Commands,
    vfx_store: Option<Res<VfxStore>>,
    mut shots: Query<(Entity, &mut Shot, &mut Transform)>,
    mut figs: Query<&mut Figure>,
) {
    for (e, mut s, mut tf) in &mut shots {
        s.t += time.delta_secs();
        let k = (s.t / SHOT_SECONDS).min(1.0);
        tf.translation = s.from.lerp(s.to, k) + Vec3::Y * (k * PI).sin() * 0.6;
        if k >= 1.0 {
            if let Some(store) = &vfx_store {
                vfx::impact(&mut commands, store, s.element, s.to, s.power);
            }
            if let Some(mut f) = s.hits.and_then(|h| figs.get_mut(h).ok()) {
                f.cue = Some(Move::Hit);
                f.flash = 0.3;
            }
            commands.entity(e).despawn();
        }
    }
}
