//! The table: a card game staged on the arena's platform, card by card.
//! Each seat's zones lie at its edge of the table; each card is a 3D card
//! with its printed face, and it moves when the rules move it. The rules
//! decide everything; the table only shows the result, after the fact,
//! with the events as they come in the log and banners.
//!
//! One table serves every card game ([`Tabled`]): the cards gliding to
//! their places, the replay viewer's keys, a person's turn with the three
//! buttons or the mouse, the hot-seat curtain. It presents a hosted game
//! (`play::hosted`: CPUs thinking on a thread, the rules' timeouts, a
//! replay checked, saving the game), as the Terminal Battle's duel
//! does; it hosts none itself. Each ruleset brings its own
//! presenter: where its cards lie and what its events say over the table
//! (`alpha.rs`, the Card Game Alpha; `dcg.rs`, the Digimon Card Game), and
//! its figures.
//!
//! A saved game (`bterm replay FILE`, or PLAY in the replay gallery) plays
//! with the replay viewer's keys: Space (or A) pause, Right (or B) one
//! step, Up / Down (or C) speed; A again when it has ended plays it from
//! the start; Esc leaves. Every hand is shown open, as a broadcast would.

mod alpha;
mod clash;
mod dcg;

pub use alpha::cpu_game;
pub use clash::cpu_game as clash_cpu_game;
pub use dcg::{Coin, GaugeCell, MemoryToken, Revealed, cpu_game as dcg_cpu_game};

use std::collections::{HashMap, VecDeque};
use std::f32::consts::{FRAC_PI_2, PI};

use bevy::prelude::*;

use crate::arena::play::duel::SPEEDS;
use crate::arena::play::hosted::{Clocked, Hosted};
use crate::arena::play::remote::Remote;
use crate::arena::render::figures::{self, Figure, FigureKit};
use crate::arena::render::look::{CardFace, Glow, card_face, texture};
use crate::arena::render::place::seat_frame;
use crate::arena::render::rig::Move;
use crate::arena::render::stage::CameraShot;
use crate::arena::render::stage::DuelProp;
use crate::arena::render::vfx::{self, Element, VfxStore};
use crate::arena::ui::input::{Button, Move as Moved, Moves, Press};
use crate::arena::ui::theme::{label, palette, size, space};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{Card, CardNumber, CardSet, Digimon};
use crate::net::Lan;
use crate::replay::{Replay, ReplayError};
use crate::rules::terminal::Side;
use crate::rules::{Reply, RulesetId, Seat};
use crate::session::Player;

use faces::*;
pub use game::*;
pub use layout::*;
pub use marks::*;
pub use person::*;
pub use reading::*;
pub use standing::*;
use text::*;

/// A card's size on the table, metres (a real card's proportions).
pub const CARD: Vec2 = Vec2::new(0.63, 0.88);
/// Seconds a banner stays up while others wait.
const BANNER_QUEUED: f32 = 0.8;
/// The most banners that wait.
const MOST_QUEUED: usize = 6;
/// How many event lines the log keeps.
const LOG_LINES: usize = 7;
/// The longest a LAN table dwells on the host's news before this
/// machine's question shows, seconds.
const LAN_DWELL: f32 = 2.5;
/// A person's own hand, held up: how high (m), how much nearer the
/// centre, how much larger, and its tilt to the eye (radians).
const HELD_UP: f32 = 0.5;
const HELD_IN: f32 = 0.95;
const HELD_SIZE: f32 = 1.2;
const HELD_TILT: f32 = 0.35;
/// The texture size of a card's face, pixels.
const FACE_W: u32 = 256;
const FACE_H: u32 = 357;

/// A ruleset as the table stages it: where its cards lie, what its events
/// say over the table, how a person's answers read. Everything else (the
/// cards moving, the viewer's keys, a person's turn, CPUs, the curtain,
/// saving) is the table's, the same for every ruleset.
pub trait Tabled: Lan {
    /// Where every card of a match lies, seat by seat.
    type Layout: Send + Sync + 'static;
    /// What the presenter keeps of the events (the battle under way).
    type Marks: Default + std::fmt::Debug + Send + Sync + 'static;

    /// The match's cards, laid out.
    fn lay_out(&self) -> Self::Layout;
    /// Every card of a layout in its seat's frame.
    fn placed(layout: &Self::Layout) -> Vec<Placed>;
    /// The seat asked now, if any.
    fn waiting_for(&self) -> Option<Seat>;
    /// The seat asked, as a layout tells it (a LAN table that holds only
    /// what the host shows).
    fn layout_waiting(layout: &Self::Layout) -> Option<Seat> {
        let _ = layout;
        None
    }
    /// A question's text as the table's panel shows it (without what only
    /// a terminal's typing needs).
    fn prompt_text(text: &str) -> &str {
        text
    }
    /// An answer of `seat`'s as a line to choose.
    fn answer_text(&self, seat: Seat, action: Self::Action, cards: &CardSet) -> String;
    /// What an event says over the table; `marks` keeps the battle under way.
    fn noted(marks: &mut Self::Marks, e: &Self::Event, seats: usize, cards: &CardSet) -> Noted;
    /// Whether an event is worth a longer look.
    fn dwells(e: &Self::Event) -> bool;
    /// An action is about to be staged (a battle that ended with the last
    /// one lets go of its marks).
    fn step_begins(marks: &mut Self::Marks) {
        let _ = marks;
    }
    /// The battle under way, by its parts: a ring goes under each.
    fn clash(marks: &Self::Marks) -> Vec<(Seat, Role)>;
    /// Every seat in a line: its counts, whose choice it is (`m`: the
    /// match, when the table holds it).
    fn seats_line(m: Option<&Self>, layout: &Self::Layout) -> String;
    /// Cards a setup brings beyond the card set (made for one game).
    fn extra_cards(setup: &Self::Setup) -> &[Card] {
        let _ = setup;
        &[]
    }
    /// The presenter's own systems (figures, marks), in [`TableStage`].
    fn add_systems(app: &mut App);
    /// A LAN table's game, from the host's first view (`name`: the table).
    fn lan_game(view: &Self::View, name: String) -> TableGame<Self>;
    /// A LAN table's news: the host's view after `events`.
    fn lan_news(
        game: &mut TableGame<Self>,
        view: &Self::View,
        events: &[Self::Event],
        cards: &CardSet,
    );
}

/// A card where a layout lays it, in its seat's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// The instance, where the rules keep one (`None`: a copy like any
    /// other of its seat's, moved by the nearest of them).
    pub id: Option<u32>,
    /// The figure standing on it: its Digimon's id in play.
    pub figure: Option<u32>,
    /// The card.
    pub number: CardNumber,
    /// Whose side of the table, by index.
    pub seat: usize,
    /// Where: x across, y up, z towards the player.
    pub at: Vec3,
    /// Turned sideways (tapped, suspended).
    pub sideways: bool,
    /// Face up for everyone.
    pub open: bool,
    /// In a hand: face up only where that hand is shown.
    pub hand: bool,
    /// A card this machine may not see (never face up).
    pub stand_in: bool,
    /// Its size (1: a card).
    pub size: f32,
}

impl Placed {
    /// A card at `at`, face down, the usual size.
    pub fn at(id: Option<u32>, number: CardNumber, seat: usize, at: Vec3) -> Placed {
        Placed {
            id,
            figure: None,
            number,
            seat,
            at,
            sideways: false,
            open: false,
            hand: false,
            stand_in: false,
            size: 1.0,
        }
    }
}

/// What an event says over the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Noted {
    /// The phase now, if it changed.
    pub phase: Option<String>,
    /// A banner to raise.
    pub banner: Option<String>,
    /// The banner is the game's last word (it stays up).
    pub last_word: bool,
}

/// The game on the table.
#[derive(Resource, Debug)]
pub struct TableGame<R: Tabled> {
    /// Where it came from.
    pub name: String,
    /// The saved game.
    pub replay: Replay<R>,
    /// The game presented: the match as far as it has been staged, its
    /// seats, CPUs, clocks and saving (`None`: a LAN table that holds only
    /// the host's views, or a replay that cannot start).
    pub host: Option<Hosted<R>>,
    /// Its cards laid out, worked out once each time it changes.
    pub layout: Option<R::Layout>,
    /// The next action to play.
    pub next: usize,
    /// The latest events, newest last.
    pub log: VecDeque<String>,
    /// The phase, as the events tell it.
    pub phase: String,
    /// A banner over the table, and its seconds left.
    pub banner: Option<(String, f32)>,
    /// Banners waiting their turn (one action's Burst is not covered by
    /// its Battle Phase), oldest first.
    queued: VecDeque<(String, f32)>,
    /// Paused by the viewer.
    pub paused: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Seconds until the next action.
    pub wait: f32,
    /// The verdict once the last action is played: verified, or why not.
    pub verdict: Option<Result<(), String>>,
    /// Seconds since it ended.
    pub ended_for: f32,
    /// Events not yet staged by the figures.
    pub pending: Vec<R::Event>,
    /// A game being played here (not a replay).
    pub live: Option<Live>,
    /// What the ruleset's presenter keeps of the events (the battle under
    /// way).
    pub marks: R::Marks,
    /// At a LAN table: this machine's seat, its question and answer (the
    /// host plays the game; the table follows its views).
    pub remote: Option<Remote<R>>,
}

/// Whose hands the table shows face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hands {
    /// Every hand (a replay, or CPUs only).
    All,
    /// One seat's hand, or none.
    Only(Option<usize>),
}

/// A card on the table.
#[derive(Component, Debug, Clone, Copy)]
pub struct TableCard {
    /// The instance: the ruleset's id for it, or (`loose`) the table's own.
    pub id: u32,
    /// A copy the rules keep no id for: moved to the nearest place of its
    /// seat's copies.
    pub loose: bool,
    /// Whose side, by index.
    pub seat: usize,
    /// A card this machine may not see: it has no face.
    pub stand_in: bool,
    /// The card.
    pub number: CardNumber,
    /// Where it is going.
    pub goal: Transform,
    /// Face up.
    pub face_up: bool,
}

/// Card faces and the shared meshes and materials.
#[derive(Resource)]
struct Faces {
    quad: Handle<Mesh>,
    back: Handle<CardFace>,
    faces: HashMap<CardNumber, Handle<CardFace>>,
}

/// The rulesets the table stages, each with its presenter ([`Tabled`]).
/// Adding one here is the whole of bringing a card game to the table.
macro_rules! tabled {
    ($($id:ident => $ty:ty),+ $(,)?) => {
        /// The rulesets the table stages.
        pub const TABLED: &[RulesetId] = &[$(RulesetId::$id),+];

        /// Opens a saved game of `id` on the table (the replay gallery's
        /// PLAY); `None` when the table does not stage it.
        pub fn open_replay(
            id: RulesetId,
            path: &std::path::Path,
            name: String,
            commands: &mut Commands,
        ) -> Option<Result<(), ReplayError>> {
            match id {
                $(RulesetId::$id => Some(Replay::<$ty>::load(path).map(|r| {
                    commands.insert_resource(PendingTable(r, name));
                })),)+
                #[allow(unreachable_patterns, reason = "the table may stage every ruleset")]
                _ => None,
            }
        }

        /// Starts a game of `id` at the table between `players` with
        /// their decks, from `seed`, in `format` (the table's game from
        /// then on); `None` when the table does not stage it.
        pub fn live(
            id: RulesetId,
            players: &[Player],
            (decks, seed, format): (Vec<Vec<CardNumber>>, u64, &str),
            cards: &CardSet,
            commands: &mut Commands,
        ) -> Option<Result<(), String>> {
            match id {
                $(RulesetId::$id => Some((|| {
                    let mut setup = <$ty as crate::rules::Ruleset>::setup_for(decks, seed);
                    <$ty as crate::rules::Ruleset>::set_format(&mut setup, format)?;
                    commands.insert_resource(live_game::<$ty>(players, setup, cards)?);
                    Ok(())
                })()),)+
                #[allow(unreachable_patterns, reason = "the table may stage every ruleset")]
                _ => None,
            }
        }

        pub(in crate::arena) fn plugin(app: &mut App) {
            app.init_resource::<Reading>();
            $(add::<$ty>(app);)+
        }
    };
}

tabled!(
    Alpha => crate::rules::alpha::Match,
    Dcg => crate::rules::dcg::Match,
    Clash => crate::rules::clash::Match,
);

/// The table's systems for ruleset `R`: they act while its game is on the
/// table (one game is, at a time).
fn add<R: Tabled>(app: &mut App) {
    let on = resource_exists::<TableGame<R>>;
    app.add_systems(OnEnter(Screen::Table), enter::<R>)
        .add_systems(OnExit(Screen::Table), leave::<R>)
        .add_systems(
            Update,
            (
                controls::<R>,
                click_cards::<R>,
                person_turn::<R>,
                answer_card::<R>,
                play::<R>,
                lay_out::<R>,
            )
                .chain()
                .run_if(in_state(Screen::Table).and_eager(on))
                .in_set(AppSystems::Update)
                .before(TableStage),
        )
        .add_systems(
            Update,
            (
                mark_clash::<R>,
                move_cards::<R>,
                fly,
                draw::<R>,
                draw_choice::<R>,
                look_at_cards,
                read_cards,
            )
                .chain()
                .run_if(in_state(Screen::Table).and_eager(on))
                .in_set(AppSystems::Update)
                .after(TableStage),
        );
    R::add_systems(app);
}

/// Where a ruleset's own systems (its figures, its marks) run: after the
/// cards are laid out, before they move and the text is drawn.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableStage;

fn enter<R: Tabled>(
    mut commands: Commands,
    (settings, pending, cards): (Res<Settings>, Option<Res<PendingTable<R>>>, Res<Cards>),
    live: Option<ResMut<TableGame<R>>>,
    mut shot: ResMut<CameraShot>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<CardFace>>,
) {
    // `bterm replay FILE`: the file was read and checked before the
    // window opened; it is this ruleset's when it parses as one.
    let from_file = settings.table.as_ref().and_then(|(path, text)| {
        let name = path.display().to_string();
        let r = Replay::<R>::parse(text, &name).ok()?;
        Some((r, name))
    });
    let game = match (from_file, pending, live) {
        (Some((r, name)), _, _) => TableGame::new(r, name, &cards.0),
        (None, Some(p), _) => TableGame::new(p.0.clone(), p.1.clone(), &cards.0),
        // A game started from the lobby is already here.
        (None, None, Some(mut live)) => {
            live.set_changed();
            spawn_faces(
                &mut commands,
                &live,
                &cards.0,
                (&mut meshes, &mut images, &mut materials),
            );
            // At a LAN table, from this machine's seat.
            let seat = live
                .remote
                .as_ref()
                .and_then(|r| r.seat)
                .map_or(0, Seat::index);
            *shot = CameraShot::Table(R::seat_cards(&live.replay.setup).len(), seat);
            spawn_text(&mut commands);
            return;
        }
        (None, None, None) => return,
    };
    commands.remove_resource::<PendingTable<R>>();
    *shot = CameraShot::Table(R::seat_cards(&game.replay.setup).len(), 0);
    spawn_faces(
        &mut commands,
        &game,
        &cards.0,
        (&mut meshes, &mut images, &mut materials),
    );
    commands.insert_resource(game);
    spawn_text(&mut commands);
}

/// A game opened from the replay gallery, to stage on entering the table.
#[derive(Resource, Debug, Clone)]
pub struct PendingTable<R: Tabled>(pub Replay<R>, pub String);

/// Everything the table puts on stage (a ruleset's own marks go with the
/// screen).
type TableProps = Or<(
    With<TableCard>,
    With<TableFigure>,
    With<Shot>,
    With<DuelProp>,
)>;

fn leave<R: Tabled>(
    mut commands: Commands,
    game: Option<Res<TableGame<R>>>,
    cards: Query<Entity, TableProps>,
) {
    if game.is_none() {
        return;
    }
    for e in &cards {
        commands.entity(e).despawn();
    }
    commands.remove_resource::<TableGame<R>>();
    commands.remove_resource::<Faces>();
}

/// Cards follow the match: new ones are dealt from their seat's Net Ocean
/// pile, each is given its goal, and a card no longer on the table goes.
fn lay_out<R: Tabled>(
    mut commands: Commands,
    game: Option<Res<TableGame<R>>>,
    faces: Option<ResMut<Faces>>,
    mut q: Query<(Entity, &mut TableCard)>,
    mut fresh: Local<u32>,
    (cards, mut images, mut materials): (
        Res<Cards>,
        ResMut<Assets<Image>>,
        ResMut<Assets<CardFace>>,
    ),
) {
    let (Some(game), Some(mut faces)) = (game, faces) else {
        return;
    };
    if !game.is_changed() {
        return;
    }
    let Some(layout) = &game.layout else { return };
    let placed = R::placed(layout);
    let goals = goals(
        &placed,
        R::seat_cards(&game.replay.setup).len(),
        game.hands(),
    );
    let by_id: HashMap<u32, usize> = goals
        .iter()
        .enumerate()
        .filter_map(|(i, (p, ..))| Some((p.id?, i)))
        .collect();
    let mut taken = vec![false; goals.len()];
    // Copies without an id, by seat and card: where each is going now.
    let mut loose: HashMap<(usize, CardNumber, bool), Vec<(Entity, Vec3)>> = HashMap::new();
    for (e, mut card) in &mut q {
        if card.loose {
            loose
                .entry((card.seat, card.number, card.stand_in))
                .or_default()
                .push((e, card.goal.translation));
            continue;
        }
        match by_id.get(&card.id).map(|&i| (i, &goals[i])) {
            Some((i, (p, goal, up)))
                if p.number == card.number && p.stand_in == card.stand_in && !taken[i] =>
            {
                taken[i] = true;
                card.goal = *goal;
                card.face_up = *up;
            }
            // Gone, or another game's card of the same id: dealt anew.
            _ => commands.entity(e).despawn(),
        }
    }
    let mut places: HashMap<(usize, CardNumber, bool), Vec<usize>> = HashMap::new();
    for (i, (p, ..)) in goals.iter().enumerate() {
        if p.id.is_none() {
            places
                .entry((p.seat, p.number, p.stand_in))
                .or_default()
                .push(i);
        }
    }
    for (key, want) in places {
        let have = loose.remove(&key).unwrap_or_default();
        let to: Vec<Vec3> = want.iter().map(|&i| goals[i].1.translation).collect();
        let from: Vec<Vec3> = have.iter().map(|(_, at)| *at).collect();
        let pairs = nearest(&from, &to);
        for (h, w) in &pairs {
            let i = want[*w];
            if let Ok((_, mut card)) = q.get_mut(have[*h].0) {
                taken[i] = true;
                card.goal = goals[i].1;
                card.face_up = goals[i].2;
            }
        }
        for (k, (e, _)) in have.iter().enumerate() {
            if !pairs.iter().any(|(h, _)| *h == k) {
                commands.entity(*e).despawn();
            }
        }
    }
    for (e, _) in loose.into_values().flatten() {
        commands.entity(e).despawn();
    }
    for (i, (p, goal, up)) in goals.into_iter().enumerate() {
        if taken[i] {
            continue;
        }
        let (id, loose) = match p.id {
            Some(id) => (id, false),
            None => {
                *fresh = fresh.wrapping_add(1);
                (*fresh, true)
            }
        };
        let number = p.number;
        // A card no deck list named (a LAN table's, seen for the first
        // time) gets its face now.
        if !p.stand_in && !faces.faces.contains_key(&number) {
            let extra = R::extra_cards(&game.replay.setup);
            let card = cards
                .0
                .get(&number)
                .or_else(|| extra.iter().find(|c| c.number() == number));
            if let Some(img) = card.and_then(face_image) {
                let face = materials.add(lit(images.add(img)));
                faces.faces.insert(number, face);
            }
        }
        let face = faces
            .faces
            .get(&number)
            .filter(|_| !p.stand_in)
            .cloned()
            .unwrap_or_else(|| faces.back.clone());
        // Dealt: from above the table's centre, face down.
        let start = Transform::from_translation(goal.translation * 0.2 + Vec3::Y * 2.0)
            .with_rotation(goal.rotation)
            .with_scale(goal.scale);
        commands
            .spawn((
                TableCard {
                    id,
                    loose,
                    seat: p.seat,
                    stand_in: p.stand_in,
                    number,
                    goal,
                    face_up: up,
                },
                start,
                Visibility::default(),
                DespawnOnExit(Screen::Table),
            ))
            .with_children(|c| {
                c.spawn((
                    Mesh3d(faces.quad.clone()),
                    MeshMaterial3d(face),
                    Transform::from_xyz(0.0, 0.002, 0.0)
                        .with_rotation(Quat::from_rotation_x(-FRAC_PI_2)),
                ));
                c.spawn((
                    Mesh3d(faces.quad.clone()),
                    MeshMaterial3d(faces.back.clone()),
                    Transform::from_xyz(0.0, -0.002, 0.0)
                        .with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
                ));
            });
    }
}

/// Cards glide to their goals (a short hop when they flip).
fn move_cards<R: Tabled>(
    time: Res<Time>,
    game: Option<Res<TableGame<R>>>,
    mut q: Query<(&TableCard, &mut Transform)>,
) {
    let speed = game.map_or(1.0, |g| SPEEDS[g.speed]);
    let k = 1.0 - (-9.0 * speed * time.delta_secs()).exp();
    for (card, mut tf) in &mut q {
        let goal = card.goal;
        let far = tf.rotation.angle_between(goal.rotation);
        tf.translation = tf.translation.lerp(goal.translation, k);
        if far > 0.05 {
            // Lift while turning, so a flip clears the table.
            tf.translation.y = tf
                .translation
                .y
                .max(goal.translation.y + 0.25 * far.min(1.0));
        }
        tf.rotation = tf.rotation.slerp(goal.rotation, k);
        tf.scale = tf.scale.lerp(goal.scale, k);
    }
}

// The parts, declared after the macros above (a macro is seen by what
// follows it).
mod faces;
mod game;
mod layout;
mod marks;
mod person;
mod reading;
mod standing;
mod text;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_names_its_card_by_the_longest_name_it_holds() {
        let n = |s: &str| s.parse::<CardNumber>().unwrap();
        let table = [
            (n("Dα-002"), "Greymon"),
            (n("Dα-004"), "Metal Greymon"),
            (n("Dα-012"), "Gabumon"),
        ];
        let named = |label: &str| named_card(label, table.iter().copied());
        assert_eq!(named("attack with metal greymon"), Some(n("Dα-004")));
        assert_eq!(named("play greymon (cost 2)"), Some(n("Dα-002")));
        assert_eq!(named("done"), None);
        assert_eq!(named_card("play greymon", std::iter::empty()), None);
    }
}
