//! The table: a card game staged on the arena's platform, card by card.
//! Each seat's zones lie at its edge of the table; each card is a 3D card
//! with its printed face, and it moves when the rules move it. The rules
//! decide everything; the table only shows the result, after the fact,
//! with the events as they come in the log and banners.
//!
//! One table serves every card game ([`Tabled`]): the cards gliding to
//! their places, the replay viewer's keys, a person's turn with the three
//! buttons or the mouse, CPUs thinking on a thread, the hot-seat curtain,
//! the rules' timeouts, saving the game. Each ruleset brings its own
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
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use bevy::prelude::*;

use crate::arena::play::duel::SPEEDS;
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
    /// The match as far as it has been staged (`None`: it cannot start).
    pub m: Option<R>,
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
    pub live: Option<Live<R>>,
    /// What the ruleset's presenter keeps of the events (the battle under
    /// way).
    pub marks: R::Marks,
    /// At a LAN table: this machine's seat, its question and answer (the
    /// host plays the game; the table follows its views).
    pub remote: Option<Remote<R>>,
}

/// A game played at the table: who plays each seat, and where the person
/// whose turn it is stands in their choice.
#[derive(Debug)]
pub struct Live<R: Tabled> {
    /// Who plays each seat.
    pub pilots: Vec<Player>,
    /// The answer the person asked is on.
    pub chosen: usize,
    /// Seconds the person asked has had.
    pub asked_for: f32,
    /// Seconds with a person asked and nobody pressing anything.
    pub idle: f32,
    /// Hot seat: the table waits for this seat's person to take it (C).
    pub curtain: Option<Seat>,
    /// The person who last had the table.
    pub last_person: Option<Seat>,
    /// A CPU's choice being worked out on a thread.
    thinking: Option<Mutex<Receiver<R::Action>>>,
    /// Where the game was saved, once it is over.
    pub saved: Option<Result<PathBuf, String>>,
    /// C held at a person's question: "leave the table?", on stay (0) or
    /// leave (1).
    pub leaving: Option<usize>,
}

impl<R: Tabled> Live<R> {
    /// A game of `pilots`, nobody asked yet.
    pub fn new(pilots: Vec<Player>) -> Live<R> {
        Live {
            pilots,
            chosen: 0,
            asked_for: 0.0,
            idle: 0.0,
            curtain: None,
            last_person: None,
            thinking: None,
            saved: None,
            leaving: None,
        }
    }

    fn persons(&self) -> usize {
        self.pilots.iter().filter(|p| p.is_person()).count()
    }
}

/// Whose hands the table shows face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hands {
    /// Every hand (a replay, or CPUs only).
    All,
    /// One seat's hand, or none.
    Only(Option<usize>),
}

/// A game between `players` with their `decks` (card numbers, checked by
/// the match's setup), to play at the table.
pub fn live_game<R: Tabled>(
    players: &[Player],
    setup: R::Setup,
    cards: &CardSet,
) -> Result<TableGame<R>, String> {
    let replay = Replay {
        rules: R::version(&setup),
        setup,
        actions: Vec::new(),
        final_hash: 0,
    };
    let mut game = TableGame::new(replay, "this game".to_string(), cards);
    if let Some(Err(e)) = &game.verdict {
        return Err(e.clone());
    }
    game.live = Some(Live::new(players.to_vec()));
    Ok(game)
}

impl<R: Tabled> TableGame<R> {
    /// A game ready to stage from its first action.
    pub fn new(replay: Replay<R>, name: String, cards: &CardSet) -> TableGame<R> {
        let mut game = TableGame::blank(replay, name);
        game.restart(cards);
        game
    }

    /// A game at a LAN table whose seats `setup` holds (not the host's
    /// secret seed: the replay is the whole game's only when it comes at
    /// the end); the person at this machine plays `mine` (`None`: watches).
    pub fn at_lan(setup: R::Setup, mine: Option<Seat>, name: String) -> TableGame<R> {
        let seats = R::seat_cards(&setup).len();
        let replay = Replay {
            rules: R::version(&setup),
            setup,
            actions: Vec::new(),
            final_hash: 0,
        };
        let mut game = TableGame::blank(replay, name);
        game.live = Some(Live::new(
            Seat::all(seats)
                .map(|s| {
                    if Some(s) == mine {
                        Player::Person
                    } else {
                        Player::Remote
                    }
                })
                .collect(),
        ));
        game.remote = Some(Remote::new(mine));
        game
    }

    /// A LAN game's end: its replay (checked by the session) is the one
    /// kept.
    pub fn lan_ended(&mut self, replay: Replay<R>) {
        self.replay = replay;
        self.verdict = Some(Ok(()));
        if let Some(r) = self.remote.as_mut() {
            r.ended = true;
            r.asked = None;
        }
    }

    /// A game with nothing staged yet.
    pub fn blank(replay: Replay<R>, name: String) -> TableGame<R> {
        TableGame {
            name,
            replay,
            m: None,
            layout: None,
            next: 0,
            log: VecDeque::new(),
            phase: String::new(),
            banner: None,
            queued: VecDeque::new(),
            paused: false,
            speed: 1,
            wait: 1.0,
            verdict: None,
            ended_for: 0.0,
            pending: Vec::new(),
            live: None,
            marks: R::Marks::default(),
            remote: None,
        }
    }

    /// Back to the start.
    pub fn restart(&mut self, cards: &CardSet) {
        self.next = 0;
        self.marks = R::Marks::default();
        self.log.clear();
        self.pending.clear();
        self.banner = None;
        self.queued.clear();
        self.verdict = None;
        self.ended_for = 0.0;
        self.wait = 1.0;
        match R::from_setup(&self.replay.setup, cards) {
            Ok(m) => {
                let opening = m.opening_events().to_vec();
                self.layout = Some(m.lay_out());
                self.m = Some(m);
                for e in &opening {
                    self.note(e, cards);
                }
            }
            Err(e) => {
                self.m = None;
                self.verdict = Some(Err(format!(
                    "this replay cannot be played with these cards: {e}"
                )));
            }
        }
    }

    /// A live game: `seat` takes `action`; returns how long to dwell on it.
    pub fn act(&mut self, seat: Seat, action: R::Action, cards: &CardSet) -> f32 {
        self.replay.actions.push((seat, action));
        let dwell = self.step(cards);
        if let Some(m) = &self.m
            && m.outcome().is_some()
        {
            self.replay.final_hash = m.state_hash();
            self.verdict = Some(Ok(()));
        }
        dwell
    }

    /// The seat asked now: the match's, or (a LAN table that holds no
    /// match) the layout's.
    pub fn waiting(&self) -> Option<Seat> {
        match &self.m {
            Some(m) => m.waiting_for(),
            None => self.layout.as_ref().and_then(R::layout_waiting),
        }
    }

    /// Whose hands are shown face up.
    pub fn hands(&self) -> Hands {
        let Some(live) = &self.live else {
            return Hands::All;
        };
        if live.persons() == 0 {
            return Hands::All;
        }
        if live.curtain.is_some() {
            return Hands::Only(None);
        }
        let person = |s: Seat| live.pilots.get(s.index()).is_some_and(|p| p.is_person());
        let asked = self.waiting().filter(|s| person(*s));
        let only = live
            .pilots
            .iter()
            .position(|p| p.is_person())
            .filter(|_| live.persons() == 1);
        Hands::Only(asked.or(live.last_person).map(Seat::index).or(only))
    }

    /// Plays on without staging up to action `n` (the tour's result shot).
    pub fn skip_to(&mut self, n: usize, cards: &CardSet) {
        while self.next < n && !self.ended() {
            self.step(cards);
        }
        self.pending.clear();
        self.marks = R::Marks::default();
        // What was skipped is not called out.
        self.banner = None;
        self.queued.clear();
    }

    /// Whether every action has been played.
    pub fn ended(&self) -> bool {
        self.verdict.is_some()
    }

    /// Plays the next action; returns how long to dwell on it, seconds.
    pub fn step(&mut self, cards: &CardSet) -> f32 {
        R::step_begins(&mut self.marks);
        let Some(m) = self.m.as_mut() else { return 0.0 };
        let Some(&(seat, action)) = self.replay.actions.get(self.next) else {
            let hash = m.state_hash();
            self.verdict = Some(if hash == self.replay.final_hash {
                Ok(())
            } else {
                Err(format!(
                    "the game ended in another state than the replay recorded ({hash:016x}, not {:016x})",
                    self.replay.final_hash
                ))
            });
            return 0.0;
        };
        self.next += 1;
        match m.apply(seat, action) {
            Ok(events) => {
                self.layout = Some(m.lay_out());
                self.take(&events, cards)
            }
            Err(e) => {
                self.verdict = Some(Err(format!(
                    "action {} of the replay is not legal here: {e}",
                    self.next
                )));
                0.0
            }
        }
    }

    /// Takes in an action's events; returns how long to dwell on them
    /// (long enough for the banners they raised).
    pub fn take(&mut self, events: &[R::Event], cards: &CardSet) -> f32 {
        let big = events.iter().filter(|e| R::dwells(e)).count();
        for e in events {
            self.note(e, cards);
        }
        (0.35 + 0.45 * big.min(3) as f32).max(BANNER_QUEUED * self.queued.len() as f32)
    }

    /// The banner up and those waiting, in the order they show.
    pub fn banners(&self) -> impl Iterator<Item = &str> {
        self.banner
            .iter()
            .chain(self.queued.iter())
            .map(|(b, _)| b.as_str())
    }

    /// Counts a banner down; the next waiting one goes up when it is done
    /// (sooner while others wait).
    fn tick_banner(&mut self, dt: f32) {
        if let Some((_, left)) = &mut self.banner {
            if !self.queued.is_empty() {
                *left = left.min(BANNER_QUEUED);
            }
            *left -= dt;
            if *left <= 0.0 {
                self.banner = self.queued.pop_front();
            }
        }
    }

    /// Takes in one event: the log, the phase, a banner.
    fn note(&mut self, e: &R::Event, cards: &CardSet) {
        let seats = R::seat_cards(&self.replay.setup).len();
        let said = R::noted(&mut self.marks, e, seats, cards);
        if let Some(phase) = said.phase {
            self.phase = phase;
        }
        if let Some(b) = said.banner {
            // The last word stays up.
            let seconds = if said.last_word { 30.0 } else { 1.6 };
            if self.banner.is_some() {
                self.queued.push_back((b, seconds));
                while self.queued.len() > MOST_QUEUED {
                    self.queued.pop_front();
                }
            } else {
                self.banner = Some((b, seconds));
            }
        }
        self.pending.push(e.clone());
        self.log.push_back(R::describe(e, cards));
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }
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

/// The table's text: the seats, the phase, the log, the banner.
#[derive(Component)]
enum TableText {
    Seats,
    Phase,
    Log,
    Banner,
    Controls,
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

        /// Whether `text` parses as a replay of `id`, when the table stages
        /// it (`None`: it does not).
        pub fn check_replay(id: RulesetId, text: &str, name: &str) -> Option<Result<(), ReplayError>> {
            match id {
                $(RulesetId::$id => Some(Replay::<$ty>::parse(text, name).map(|_| ())),)+
                #[allow(unreachable_patterns, reason = "the table may stage every ruleset")]
                _ => None,
            }
        }

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
fn nearest(have: &[Vec3], want: &[Vec3]) -> Vec<(usize, usize)> {
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

/// A card's face as a texture, at the table's size.
fn face_image(card: &Card) -> Option<Image> {
    card_face(card, FACE_W, FACE_H)
}

/// The back every card shares: deep blue with a bright frame and a
/// diamond in the middle.
fn back_image() -> Image {
    let (w, h) = (64u32, 90u32);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let edge = x < 4 || y < 4 || x >= w - 4 || y >= h - 4;
            let (dx, dy) = (
                (x as f32 - w as f32 / 2.0).abs() / (w as f32 / 2.0),
                (y as f32 - h as f32 / 2.0).abs() / (h as f32 / 2.0),
            );
            let diamond = dx + dy < 0.55 && dx + dy > 0.42;
            let c = if edge {
                [230, 236, 245]
            } else if diamond {
                [90, 200, 255]
            } else {
                [18, 40, 92]
            };
            rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    texture(w, h, rgba)
}

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

/// A card's face as the table lights it: a little below white, so it does
/// not bloom.
fn lit(image: Handle<Image>) -> CardFace {
    CardFace {
        tint: Vec4::new(0.6, 0.6, 0.64, 1.0),
        image,
    }
}

/// Every card of every deck gets its face once.
fn spawn_faces<R: Tabled>(
    commands: &mut Commands,
    game: &TableGame<R>,
    cards: &CardSet,
    (meshes, images, materials): (&mut Assets<Mesh>, &mut Assets<Image>, &mut Assets<CardFace>),
) {
    let back = materials.add(lit(images.add(back_image())));
    let mut faces = HashMap::new();
    let extra = R::extra_cards(&game.replay.setup);
    for n in R::seat_cards(&game.replay.setup).iter().flatten() {
        if faces.contains_key(n) {
            continue;
        }
        let card = cards
            .get(n)
            .or_else(|| extra.iter().find(|c| c.number() == *n));
        if let Some(img) = card.and_then(face_image) {
            faces.insert(*n, materials.add(lit(images.add(img))));
        }
    }
    commands.insert_resource(Faces {
        quad: meshes.add(Rectangle::from_size(CARD)),
        back,
        faces,
    });
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

/// The card under the mouse, shown large at the side to be read.
#[derive(Component, Debug, Clone, Copy)]
pub struct ReadCard;

/// The card being read's size on screen, pixels (its face's texture size).
const READ_SIZE: (f32, f32) = (FACE_W as f32, FACE_H as f32);

fn spawn_text(commands: &mut Commands) {
    // At the right, a face-up card under the mouse, large.
    commands.spawn((
        ReadCard,
        DespawnOnExit(Screen::Table),
        ImageNode::default(),
        Node {
            position_type: PositionType::Absolute,
            right: px(space::PAD),
            top: percent(16),
            width: px(READ_SIZE.0),
            height: px(READ_SIZE.1),
            display: Display::None,
            ..default()
        },
    ));
    let panel = |c: &mut ChildSpawnerCommands, part: TableText, text_size: f32, colour: Color| {
        c.spawn((
            Node {
                padding: UiRect::axes(px(space::PAD_L), px(space::TIGHT)),
                ..default()
            },
            BackgroundColor(palette::PANEL),
        ))
        .with_children(|p| {
            p.spawn((part, label("", text_size, colour)));
        });
    };
    let layer = |commands: &mut Commands, node: Node| {
        commands.spawn((DespawnOnExit(Screen::Table), node)).id()
    };
    // Top: the phase and the viewer's line.
    let top = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            top: px(space::PAD),
            width: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            row_gap: px(space::LINE),
            ..default()
        },
    );
    commands.entity(top).with_children(|c| {
        panel(c, TableText::Phase, size::NAME, palette::GOLD);
        panel(c, TableText::Controls, size::SMALL, palette::REPLAY);
    });
    // The middle: the banner.
    let middle = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            top: percent(42),
            width: percent(100),
            justify_content: JustifyContent::Center,
            ..default()
        },
    );
    commands.entity(middle).with_children(|c| {
        c.spawn((TableText::Banner, label("", size::BANNER, palette::GOLD)));
    });
    // Bottom left: the seats; the middle: a person's choice; bottom
    // right: the log. Each keeps to its share of the width.
    let bottom = layer(
        commands,
        Node {
            position_type: PositionType::Absolute,
            bottom: px(space::PAD),
            left: px(space::PAD),
            right: px(space::PAD),
            justify_content: JustifyContent::SpaceBetween,
            align_items: AlignItems::FlexEnd,
            column_gap: px(space::ITEM),
            ..default()
        },
    );
    let column = |c: &mut ChildSpawnerCommands,
                  part: TableText,
                  share: f32,
                  text_size: f32,
                  colour: Color| {
        c.spawn(Node {
            max_width: percent(share),
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_children(|n| panel(n, part, text_size, colour));
    };
    commands.entity(bottom).with_children(|c| {
        column(c, TableText::Seats, 30.0, size::SMALL, palette::INK);
        // A person's choice: the prompt, each answer a line of its own (the
        // mouse clicks one), the keys.
        c.spawn(Node {
            max_width: percent(40),
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_children(|n| {
            n.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::axes(px(space::PAD_L), px(space::TIGHT)),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|p| {
                p.spawn((
                    ChoicePrompt,
                    Interaction::default(),
                    label("", size::BODY, palette::GOLD),
                ));
                for slot in 0..ANSWERS_SHOWN {
                    p.spawn((
                        ChoiceLine { slot, answer: None },
                        Interaction::default(),
                        label("", size::BODY, palette::GOLD),
                    ));
                }
                p.spawn((ChoiceHint, label("", size::SMALL, palette::DIM)));
            });
        });
        column(c, TableText::Log, 30.0, size::SMALL, palette::SOFT);
    });
}

fn controls<R: Tabled>(
    mut presses: MessageReader<Press>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    cards: Res<Cards>,
    game: Option<ResMut<TableGame<R>>>,
) {
    let Some(mut game) = game else { return };
    if game.live.is_some() {
        return;
    }
    let key = |k: KeyCode| keys.as_ref().is_some_and(|keys| keys.just_pressed(k));
    let mut pause = key(KeyCode::Space);
    let mut step = key(KeyCode::ArrowRight);
    let mut faster = key(KeyCode::ArrowUp);
    let slower = key(KeyCode::ArrowDown);
    for p in presses.read() {
        match p.button {
            Button::A => pause = true,
            Button::B => step = true,
            Button::C => faster = true,
        }
    }
    if pause && game.ended() {
        game.restart(&cards.0);
        game.paused = false;
        return;
    }
    if pause {
        game.paused = !game.paused;
    }
    if step && !game.ended() {
        game.paused = true;
        game.step(&cards.0);
    }
    if faster {
        game.speed = (game.speed + 1) % SPEEDS.len();
    }
    if slower {
        game.speed = game.speed.saturating_sub(1);
    }
}

fn play<R: Tabled>(
    time: Res<Time>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    game: Option<ResMut<TableGame<R>>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut game) = game else { return };
    let dt = time.delta_secs();
    game.tick_banner(dt);
    if game.ended() {
        game.ended_for += dt;
        if let Some(live) = game.live.as_ref()
            && live.saved.is_none()
        {
            let saved = save_game(&game.replay, settings.replay_dir.clone());
            if let Some(live) = game.live.as_mut() {
                live.saved = Some(saved);
            }
        }
        // Opened from the game: back to attract after a while (a kiosk
        // never sticks).
        let limit = if game.live.is_some() {
            settings.timeouts.result
        } else {
            settings.timeouts.replay_end
        };
        if settings.table.is_none() && game.ended_for > limit {
            next.set(Screen::Attract);
        }
        return;
    }
    if game.live.is_some() {
        game.wait -= dt;
        if game.wait <= 0.0 {
            cpu_turn(&mut game, &cards.0);
        }
        return;
    }
    if game.paused {
        return;
    }
    game.wait -= dt * SPEEDS[game.speed];
    if game.wait <= 0.0 {
        let dwell = game.step(&cards.0);
        game.wait = dwell;
    }
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

fn draw<R: Tabled>(
    game: Option<Res<TableGame<R>>>,
    mut texts: Query<(&TableText, &mut Text, &mut TextColor, Option<&ChildOf>)>,
    mut panels: Query<&mut Visibility, Without<TableText>>,
) {
    let Some(game) = game else { return };
    let m = game.m.as_ref();
    for (part, mut text, mut colour, parent) in &mut texts {
        let s = match part {
            TableText::Phase => {
                if game.phase.is_empty() {
                    R::NAME.to_uppercase()
                } else {
                    format!("{} · {}", R::NAME.to_uppercase(), game.phase.to_uppercase())
                }
            }
            TableText::Seats => game
                .layout
                .as_ref()
                .map_or_else(String::new, |layout| R::seats_line(m, layout)),
            TableText::Log => game.log.iter().cloned().collect::<Vec<_>>().join("\n"),
            TableText::Banner => game
                .banner
                .as_ref()
                .map_or_else(String::new, |b| b.0.clone()),
            TableText::Controls if game.live.is_some() => {
                let who = game.live.as_ref().map_or_else(String::new, |l| {
                    l.pilots
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            // At a LAN table, who sits there (or YOU).
                            let name = match (&game.remote, Seat::new(i)) {
                                (Some(r), Some(seat)) => r.who(seat),
                                _ => p.label(),
                            };
                            format!("P{} {name}", i + 1)
                        })
                        .collect::<Vec<_>>()
                        .join(" · ")
                });
                let state = match (game.ended(), &game.remote) {
                    (true, _) => "the game is over · back to the start soon".to_string(),
                    (false, Some(_)) => "LAN table".to_string(),
                    (false, None) => format!("action {}", game.next),
                };
                format!("{who} · {state}")
            }
            TableText::Controls => {
                let state = match &game.verdict {
                    Some(Ok(())) => "ENDED · verified · A plays it again".to_string(),
                    Some(Err(e)) => {
                        colour.0 = palette::BAD;
                        format!("NOT VERIFIED: {e}")
                    }
                    None if game.paused => "❚❚ PAUSED".to_string(),
                    None => "▶ PLAYING".to_string(),
                };
                format!(
                    "REPLAY · {} · action {}/{} · {}× (↑↓/C) · {state} · Space/A pause · →/B step · Esc leaves",
                    game.name,
                    game.next,
                    game.replay.actions.len(),
                    SPEEDS[game.speed]
                )
            }
        };
        // A panel with nothing to say is not drawn at all.
        if let Some(mut v) = parent.and_then(|p| panels.get_mut(p.parent()).ok()) {
            let want = if s.is_empty() {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            };
            v.set_if_neq(want);
        }
        if text.0 != s {
            text.0 = s;
        }
    }
}

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
    from: Vec3,
    to: Vec3,
    /// Seconds flown.
    t: f32,
    element: Element,
    power: u32,
    /// The figure it strikes.
    hits: Option<Entity>,
}

/// How long a technique takes to cross, seconds.
const SHOT_SECONDS: f32 = 0.55;
/// A figure's size on a two-seat table.
const FIGURE_SIZE: f32 = 0.8;

/// A seat's side colour for the effects that have one (damage numbers).
fn side_of(seat: usize) -> Side {
    if seat.is_multiple_of(2) {
        Side::P1
    } else {
        Side::P2
    }
}

/// The table's figures, to find and to move.
type Figs<'w, 's> = Query<
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
type Stands = HashMap<u32, (usize, CardNumber, Transform, bool)>;

/// The figures follow their cards: one whose card left (or that is `gone`,
/// already leaving) goes, the others stand on their cards (turned aside
/// when the card lies sideways), and a card without a figure gets one, of
/// the Digimon `digimon_of` gives it.
fn place_figures(
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
fn launch(
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
fn fly(
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

/// Saves a finished game as a replay in `dir` (else the data folder's
/// replays).
fn save_game<R: Tabled>(replay: &Replay<R>, dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir
        .or_else(|| crate::save::data_dir().map(|d| d.join("replays")))
        .ok_or("no data folder to save the game in (set BTERM_DATA_DIR)")?;
    replay
        .save_in(&dir)
        .map_err(|e| format!("cannot save the game: {e}"))
}

/// A CPU seat's turn: its choice is worked out on a thread (the hard CPU
/// searches for up to 0.4 s) and taken when it is ready.
fn cpu_turn<R: Tabled>(game: &mut TableGame<R>, cards: &CardSet) {
    let Some(m) = &game.m else { return };
    let Some(seat) = m.waiting_for() else { return };
    let Some(live) = game.live.as_mut() else {
        return;
    };
    let Some(Player::Cpu(strength)) = live.pilots.get(seat.index()).copied() else {
        return;
    };
    match &live.thinking {
        None => {
            // The CPU sees what its seat may see, no more.
            let view = m.seat_view(Some(seat));
            let fallback = m.legal_actions(seat).first().copied();
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                if let Some(a) = R::choose_from_view(&view, seat, strength).or(fallback) {
                    let _ = tx.send(a);
                }
            });
            live.thinking = Some(Mutex::new(rx));
        }
        Some(rx) => {
            let got = rx.lock().ok().and_then(|rx| rx.try_recv().ok());
            if let Some(action) = got {
                live.thinking = None;
                game.wait = game.act(seat, action, cards);
            }
        }
    }
}

/// How long the "leave the table?" question waits before it closes and
/// the game goes on.
const LEAVING_SECONDS: f32 = 60.0;

/// A person's turn: the hot-seat curtain first (with two or more persons,
/// when the table passes to another), then A / B move through the legal
/// answers and C takes one. A question left alone takes the rules' own
/// default after the rules' own seconds (`Match::question`: Done, no
/// block, pass), as at the terminal and on the LAN; a table nobody has
/// pressed anything at for `Timeouts::table_idle` is left (a kiosk's
/// abandoned game goes back to attract).
fn person_turn<R: Tabled>(
    time: Res<Time>,
    mut moves: Moves,
    (clicks, mut pointer): (AnswerClicks, crate::arena::ui::input::Pointer),
    (cards, settings): (Res<Cards>, Res<Settings>),
    game: Option<ResMut<TableGame<R>>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut res) = game else { return };
    // Moving through the answers is no change to the table.
    let mut changed = false;
    let game = res.bypass_change_detection();
    let Moved {
        up,
        down,
        mut choose,
        back,
    } = moves.read();
    // The mouse: an answer hovered is the one chosen, clicked it is taken;
    // the prompt clicked is C (it takes the table at the curtain).
    let mut pointed = None;
    let mut prompt_clicked = false;
    let moved = pointer.moved();
    for (i, line) in &clicks {
        let answer = line.and_then(|l| l.answer);
        match i {
            Interaction::Pressed => {
                pointed = answer.or(pointed);
                choose |= answer.is_some();
                prompt_clicked |= line.is_none();
            }
            Interaction::Hovered if moved => pointed = answer.or(pointed),
            Interaction::Hovered | Interaction::None => {}
        }
    }
    if game.ended() || game.wait > 0.0 {
        return;
    }
    // At a LAN table: the host's question for this machine's seat (the
    // host's clock settles a question left alone). Here: the rules' time
    // and default.
    let (seat, legal, timeout) = match (&game.remote, &game.m) {
        (Some(r), _) => match (r.seat, &r.asked) {
            (Some(seat), Some((a, _))) => (seat, a.answers.clone(), None),
            _ => return,
        },
        (None, Some(m)) => {
            let Some(seat) = m.waiting_for() else { return };
            let timeout = m
                .question(seat, &[], &cards.0)
                .map(|q| (q.seconds, q.on_timeout));
            (seat, m.legal_actions(seat), timeout)
        }
        (None, None) => return,
    };
    let Some(live) = game.live.as_mut() else {
        return;
    };
    if !live.pilots.get(seat.index()).is_some_and(|p| p.is_person()) || legal.is_empty() {
        return;
    }
    if up || down || choose || back || pointed.is_some() || prompt_clicked {
        live.idle = 0.0;
    } else {
        live.idle += time.delta_secs();
    }
    if game.remote.is_none() && live.idle > settings.timeouts.table_idle {
        next.set(Screen::Attract);
        return;
    }
    // C held: leave the table? A / B between stay and leave, C settles it.
    if let Some(at) = live.leaving.as_mut() {
        if up || down {
            *at = 1 - *at;
        }
        if let Some(p) = pointed {
            *at = p.min(1);
        }
        live.asked_for += time.delta_secs();
        if choose && *at == 1 {
            next.set(Screen::Attract);
        } else if choose || back || live.asked_for > LEAVING_SECONDS {
            live.leaving = None;
            live.asked_for = 0.0;
        }
        res.set_changed();
        return;
    }
    if back && live.curtain.is_none() {
        live.leaving = Some(0);
        live.asked_for = 0.0;
        res.set_changed();
        return;
    }
    if live.persons() > 1 && live.last_person != Some(seat) && live.curtain.is_none() {
        // The hands go face down until the next person takes the table.
        live.curtain = Some(seat);
        changed = true;
    }
    if live.curtain == Some(seat) {
        if choose || prompt_clicked {
            live.curtain = None;
            live.last_person = Some(seat);
            live.asked_for = 0.0;
            live.chosen = 0;
            // Shown: the hand changes hands.
            changed = true;
        }
        if changed {
            res.set_changed();
        }
        return;
    }
    live.last_person = Some(seat);
    if let Some(p) = pointed {
        live.chosen = p;
    }
    live.chosen = live.chosen.min(legal.len() - 1);
    if up {
        live.chosen = (live.chosen + legal.len() - 1) % legal.len();
        live.asked_for = 0.0;
    }
    if down {
        live.chosen = (live.chosen + 1) % legal.len();
        live.asked_for = 0.0;
    }
    live.asked_for += time.delta_secs();
    let action = match timeout {
        _ if choose => Some(legal[live.chosen]),
        Some((seconds, default)) if live.asked_for > seconds => {
            // No default (an offer nobody took): asked again.
            live.asked_for = 0.0;
            default
        }
        _ => None,
    };
    if let Some(action) = action {
        live.chosen = 0;
        live.asked_for = 0.0;
        match game.remote.as_mut() {
            Some(r) => r.reply(Reply::Act(action)),
            None => game.wait = game.act(seat, action, &cards.0),
        }
        changed = true;
    }
    if changed {
        res.set_changed();
    }
}

/// A person's question as the HUD shows it: the prompt (or the curtain, a
/// CPU thinking, where the game was saved), the answers in view with their
/// index, the one chosen, and the keys.
#[derive(Debug, Clone, Default, PartialEq)]
struct Choice {
    prompt: String,
    answers: Vec<(usize, String)>,
    chosen: usize,
    hint: String,
}

/// How many answers are in view at once.
const ANSWERS_SHOWN: usize = 7;

/// The person's question and answers (or the curtain), for the HUD.
fn choice<R: Tabled>(game: &TableGame<R>, cards: &CardSet) -> Choice {
    let said = |prompt: String| Choice {
        prompt,
        ..Choice::default()
    };
    let Some(live) = &game.live else {
        return Choice::default();
    };
    let m = game.m.as_ref();
    if game.ended() {
        return said(match &live.saved {
            Some(Ok(p)) => format!("Game saved: {}", p.display()),
            Some(Err(e)) => format!("Game not saved: {e}"),
            None => String::new(),
        });
    }
    // At a LAN table: this machine's question, when the host asked it.
    let asked = game
        .remote
        .as_ref()
        .and_then(|r| r.asked.as_ref().map(|(a, _)| (r.seat, a, r.seconds_left())));
    let seat = match (&game.remote, asked) {
        (Some(_), Some((Some(seat), _, _))) => seat,
        _ => {
            let Some(seat) = game.waiting() else {
                return Choice::default();
            };
            seat
        }
    };
    match (live.pilots.get(seat.index()), &game.remote) {
        (Some(Player::Person), Some(_)) if asked.is_none() => {
            return said(format!("{seat} (you): the table is on its way…"));
        }
        (Some(Player::Person), _) => {}
        (Some(Player::Cpu(_)), _) => return said(format!("{seat} (CPU) is thinking…")),
        (Some(Player::Remote), Some(r)) => {
            return said(format!(
                "{seat} ({}) is thinking…",
                r.who(seat).to_lowercase()
            ));
        }
        (Some(Player::Remote), None) => {
            return said(format!("{seat} plays from another machine…"));
        }
        (None, _) => return Choice::default(),
    }
    if live.curtain == Some(seat) {
        return said(format!(
            "PASS THE TABLE TO {seat}\n{seat}: press C (or click here) when the others look away"
        ));
    }
    if let Some(at) = live.leaving {
        return Choice {
            prompt: if game.remote.is_some() {
                "LEAVE THE LAN TABLE? The CPU takes your seat (a table you host closes)."
                    .to_string()
            } else {
                "LEAVE THE TABLE? The game is not saved.".to_string()
            },
            answers: vec![
                (0, "Keep playing".to_string()),
                (1, "Leave the table".to_string()),
            ],
            chosen: at,
            hint: "A / B move · C chooses".to_string(),
        };
    }
    // The answers in words: the match's, or (a LAN table that holds no
    // match) the host's own lines for them.
    let labels = answer_labels(game, seat, cards);
    let (text, legal, left) = match (asked, m) {
        (Some((_, a, left)), _) => (a.text.clone(), a.answers.clone(), left),
        (None, Some(m)) => {
            let Some(q) = m.question(seat, &[], cards) else {
                return Choice::default();
            };
            (
                q.prompt.text,
                m.legal_actions(seat),
                q.seconds - live.asked_for,
            )
        }
        (None, None) => return Choice::default(),
    };
    let first = live
        .chosen
        .saturating_sub(ANSWERS_SHOWN / 2)
        .min(legal.len().saturating_sub(ANSWERS_SHOWN));
    let left = left.max(0.0).ceil();
    Choice {
        prompt: R::prompt_text(&text)
            .trim_end_matches([' ', '>', ':'])
            .to_string(),
        answers: labels
            .into_iter()
            .enumerate()
            .skip(first)
            .take(ANSWERS_SHOWN)
            .collect(),
        chosen: live.chosen,
        hint: format!(
            "A/B move · C chooses · hold C: leave · Tab: read · {}/{} · {left:.0} s",
            live.chosen + 1,
            legal.len()
        ),
    }
}

/// The answers `seat` is asked for now, in words: the match's, or (a LAN
/// table that holds no match) the host's own lines for them.
fn answer_labels<R: Tabled>(game: &TableGame<R>, seat: Seat, cards: &CardSet) -> Vec<String> {
    let asked = game
        .remote
        .as_ref()
        .and_then(|r| r.asked.as_ref().map(|(a, _)| a));
    match (asked, &game.m) {
        (Some(a), Some(m)) => a
            .answers
            .iter()
            .map(|x| m.answer_text(seat, *x, cards))
            .collect(),
        (Some(a), None) => host_labels(&a.lines, a.answers.len()),
        (None, Some(m)) => m
            .legal_actions(seat)
            .iter()
            .map(|x| m.answer_text(seat, *x, cards))
            .collect(),
        (None, None) => Vec::new(),
    }
}

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
struct Reading {
    /// The face-up card the chosen answer names.
    answer: Option<CardNumber>,
    /// The card Tab came to, and how long ago.
    looked: Option<(CardNumber, f32)>,
    /// Where Tab is in the table's face-up cards.
    at: usize,
}

/// How long a card Tab came to stays up, seconds.
const LOOK_SECONDS: f32 = 8.0;

/// The face-up card the answer chosen names (the longest name it holds:
/// `Metal Greymon` before `Greymon`).
fn answer_card<R: Tabled>(
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
fn named_card<'a>(
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
fn look_at_cards(
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
fn read_cards(
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
fn click_cards<R: Tabled>(
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

/// A LAN question's answers in words from the lines the host sent with it
/// (its last lines, one per answer, "  3. play Agumon"), or numbered when
/// the lines do not hold them.
fn host_labels(lines: &[String], n: usize) -> Vec<String> {
    let tail = lines.len().checked_sub(n).map(|at| &lines[at..]);
    (0..n)
        .map(|i| {
            let line = tail.and_then(|t| t.get(i)).map(|l| l.trim());
            let prefix = format!("{}.", i + 1);
            match line.and_then(|l| l.strip_prefix(&prefix)) {
                Some(words) => words.trim().to_string(),
                None => format!("answer {}", i + 1),
            }
        })
        .collect()
}

/// The answers and the prompt the mouse clicked or hovered this frame.
type AnswerClicks<'w, 's> = Query<
    'w,
    's,
    (&'static Interaction, Option<&'static ChoiceLine>),
    (
        Changed<Interaction>,
        Or<(With<ChoiceLine>, With<ChoicePrompt>)>,
    ),
>;

/// One answer of a person's choice in the HUD; the mouse chooses it too.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct ChoiceLine {
    /// Its place in the list.
    slot: usize,
    /// The answer it shows now (an index into the legal actions, or into
    /// "keep playing / leave").
    pub answer: Option<usize>,
}

/// The question over a person's answers (clicked at the curtain: C).
#[derive(Component)]
struct ChoicePrompt;

/// The keys under a person's answers.
#[derive(Component)]
struct ChoiceHint;

/// The question and the keys round a person's answers, and the panel.
type PromptTexts<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Text,
        &'static mut Node,
        Has<ChoiceHint>,
        &'static ChildOf,
    ),
    (
        Or<(With<ChoicePrompt>, With<ChoiceHint>)>,
        Without<ChoiceLine>,
    ),
>;

/// Shows a person's question, the answers in view and the keys (the
/// panel only when there is a question or word to show).
fn draw_choice<R: Tabled>(
    game: Option<Res<TableGame<R>>>,
    cards: Res<Cards>,
    mut lines: Query<(&mut ChoiceLine, &mut Text, &mut TextColor, &mut Node)>,
    mut texts: PromptTexts,
    mut panels: Query<&mut Visibility>,
) {
    let Some(game) = game else { return };
    let c = choice(&game, &cards.0);
    let show = |text: &mut Text, node: &mut Node, want: &str| {
        if text.0 != want {
            want.clone_into(&mut text.0);
        }
        let display = if want.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        if node.display != display {
            node.display = display;
        }
    };
    for (mut line, mut text, mut colour, mut node) in &mut lines {
        let shown = c.answers.get(line.slot);
        line.answer = shown.map(|(i, _)| *i);
        let (t, ink) = match shown {
            Some((i, a)) if *i == c.chosen => (format!("▶ {a}"), palette::WHITE),
            Some((_, a)) => (format!("   {a}"), palette::GOLD),
            None => (String::new(), palette::GOLD),
        };
        show(&mut text, &mut node, &t);
        if colour.0 != ink {
            colour.0 = ink;
        }
    }
    for (mut text, mut node, is_hint, parent) in &mut texts {
        if is_hint {
            show(&mut text, &mut node, &c.hint);
        } else {
            show(&mut text, &mut node, &c.prompt);
            // A panel with nothing to say is not drawn at all.
            if let Ok(mut v) = panels.get_mut(parent.parent()) {
                v.set_if_neq(if c.prompt.is_empty() {
                    Visibility::Hidden
                } else {
                    Visibility::Inherited
                });
            }
        }
    }
}

/// With three or four seats, the arrow at a seat's edge that points at its
/// Target Opponent.
#[derive(Component, Debug, Clone, Copy)]
pub struct TargetMarker {
    /// The seat, by index.
    pub seat: usize,
}

/// Keeps one arrow per seat in `want` (seat, its target), at 3–4 seats,
/// pointing from its edge at its target's.
fn aim(
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
    fn look(self) -> (LinearRgba, f32) {
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
fn mark_clash<R: Tabled>(
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
