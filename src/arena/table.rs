//! The Card Game Alpha table: a game staged on the arena's platform, card
//! by card. Each seat's zones lie at its edge of the table (the Digimon Box
//! and, before it, the Option Slot; the Net Ocean at the left, the Dark
//! Area and the removed cards at the right, the hand nearest the player);
//! each card is a 3D card with its printed face, and it moves when the
//! rules move it: dealt, drawn, played face down, flipped at the Evolution
//! Phase, tapped sideways, stacked for evolution, sent to the Dark Area.
//! The rules decide everything ([`alpha::Match`] and its
//! [`alpha::Match::layout`]); the table only shows the result, after the
//! fact, with the events as they come in the log and banners.
//!
//! This file stages a saved game (`bterm replay FILE` on a Card Game Alpha
//! replay, or PLAY in the replay gallery), with the replay viewer's keys:
//! Space (or A) pause, Right (or B) one step, Up / Down (or C) speed; A
//! again when it has ended plays it from the start; Esc leaves. Every hand
//! is shown open, as a broadcast would.

use std::collections::{HashMap, VecDeque};
use std::f32::consts::{FRAC_PI_2, PI, TAU};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use bevy::prelude::*;

use super::figures::{self, Figure, FigureKit};
use super::input::{Button, Move as Moved, Moves, Press};
use super::lan::Remote;
use super::look::{CardFace, Glow, rgb_texture, texture};
use super::rig::Move;
use super::stage::CameraShot;
use super::stage::DuelProp;
use super::theme::{label, palette, size, space};
use super::vfx::{self, Element, VfxStore};
use super::viewer::SPEEDS;
use super::{AppSystems, Cards, Screen, Settings};
use crate::cards::{Card, CardNumber, CardSet, Digimon};
use crate::replay::Replay;
use crate::rules::alpha::{Action, CardId, Event, Laid, Layout, Match, Setup, Struck, View, deck};
use crate::rules::terminal::Side;
use crate::rules::{Outcome, Reply, Ruleset, Seat};
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
/// The texture size of a card's face, pixels.
const FACE_W: u32 = 256;
const FACE_H: u32 = 357;

/// The game on the table.
#[derive(Resource, Debug)]
pub struct TableGame {
    /// Where it came from.
    pub name: String,
    /// The saved game.
    pub replay: Replay<Match>,
    /// The match as far as it has been staged (`None`: it cannot start).
    pub m: Option<Match>,
    /// Its cards laid out, worked out once each time it changes.
    pub layout: Option<Layout>,
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
    pub pending: Vec<Event>,
    /// A game being played here (not a replay).
    pub live: Option<Live>,
    /// The battle under way, as the events tell it: who attacks (and
    /// supports), at what, and who blocks (and supports).
    pub clash: Vec<(Seat, Role)>,
    /// The battle is over; its rings go with the next action.
    clash_over: bool,
    /// At a LAN table: this machine's seat, its question and answer (the
    /// host plays the game; the table follows its views).
    pub remote: Option<Remote<Match>>,
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

/// A game played at the table: who plays each seat, and where the person
/// whose turn it is stands in their choice.
#[derive(Debug)]
pub struct Live {
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
    thinking: Option<Mutex<Receiver<Action>>>,
    /// Where the game was saved, once it is over.
    pub saved: Option<Result<PathBuf, String>>,
    /// C held at a person's question: "leave the table?", on stay (0) or
    /// leave (1).
    pub leaving: Option<usize>,
}

impl Live {
    /// A game of `pilots`, nobody asked yet.
    fn new(pilots: Vec<Player>) -> Live {
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
pub fn live_game(
    players: &[Player],
    decks: Vec<Vec<CardNumber>>,
    seed: u64,
    cards: &CardSet,
) -> Result<TableGame, String> {
    let setup = Setup::new(decks, seed);
    let replay = Replay {
        rules: Match::version(&setup),
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

impl TableGame {
    /// A game ready to stage from its first action.
    pub fn new(replay: Replay<Match>, name: String, cards: &CardSet) -> TableGame {
        let mut game = TableGame::blank(replay, name);
        game.restart(cards);
        game
    }

    /// A game at a LAN table, from the host's first view; the person at
    /// this machine plays its seat (a spectator's view has none). The
    /// replay is the whole game's only when it comes at the end: until
    /// then its setup holds the seats, not the host's secret seed.
    pub fn lan(view: &View, name: String) -> TableGame {
        let seats = view.state().seats();
        // The deck lists are public: every card gets its face.
        let setup = Setup::new(view.state().deck_lists(), 0);
        let replay = Replay {
            rules: Match::version(&setup),
            setup,
            actions: Vec::new(),
            final_hash: 0,
        };
        let mine = (!view.is_spectator()).then(|| view.seat());
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

    /// A LAN table's news: the host's view after `events`, which go to the
    /// log, the banners and the figures.
    pub fn follow(&mut self, view: &View, events: &[Event], cards: &CardSet) {
        self.m = Some(view.state().clone());
        self.layout = Some(view.layout());
        let dwell = self.take(events, cards);
        // The host's clock runs for the next question: the table dwells
        // on what came, but not for long.
        self.wait = (self.wait.max(0.0) + dwell).min(LAN_DWELL);
    }

    /// A LAN game's end: its replay (checked by the session) is the one
    /// kept.
    pub fn lan_ended(&mut self, replay: Replay<Match>) {
        self.replay = replay;
        self.verdict = Some(Ok(()));
        if let Some(r) = self.remote.as_mut() {
            r.ended = true;
            r.asked = None;
        }
    }

    fn blank(replay: Replay<Match>, name: String) -> TableGame {
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
            clash: Vec::new(),
            clash_over: false,
            remote: None,
        }
    }

    /// Back to the start.
    pub fn restart(&mut self, cards: &CardSet) {
        self.next = 0;
        self.clash.clear();
        self.clash_over = false;
        self.log.clear();
        self.pending.clear();
        self.banner = None;
        self.queued.clear();
        self.verdict = None;
        self.ended_for = 0.0;
        self.wait = 1.0;
        match Match::from_setup(&self.replay.setup, cards) {
            Ok(m) => {
                let opening = m.opening_events().to_vec();
                self.layout = Some(m.layout());
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
    pub fn act(&mut self, seat: Seat, action: Action, cards: &CardSet) -> f32 {
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
        let asked = self
            .m
            .as_ref()
            .and_then(Match::waiting_for)
            .filter(|s| person(*s));
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
        self.clash.clear();
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
        // A battle that ended with the last action keeps its rings while
        // it is staged, until this one.
        if self.clash_over {
            self.clash.clear();
            self.clash_over = false;
        }
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
                self.layout = Some(m.layout());
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
    fn take(&mut self, events: &[Event], cards: &CardSet) -> f32 {
        let big = events.iter().filter(|e| dwells(e)).count();
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

    /// Keeps the battle under way up to date with an event.
    fn mark(&mut self, e: &Event) {
        match e {
            Event::Attack { seat, card, target } => {
                self.clash_over = false;
                self.clash = vec![(*seat, Role::Attacker(*card))];
                self.clash.push(match target {
                    Struck::Player(s) => (*s, Role::Player),
                    Struck::Digimon(s, d) => (*s, Role::Target(*d)),
                });
            }
            Event::AlphaAttack {
                seat,
                card,
                support,
                target,
            } => {
                self.clash_over = false;
                self.clash = vec![(*seat, Role::Attacker(*card)), (*target, Role::Player)];
                self.clash
                    .extend(support.iter().map(|c| (*seat, Role::Supporter(*c))));
            }
            Event::Block { seat, card } => {
                // The blocker takes the attack in the attacked one's place.
                self.clash
                    .retain(|(_, r)| !matches!(r, Role::Target(_) | Role::Player));
                self.clash.push((*seat, Role::Blocker(*card)));
            }
            Event::AlphaBlock {
                seat,
                card,
                support,
            } => {
                self.clash
                    .retain(|(_, r)| !matches!(r, Role::Target(_) | Role::Player));
                self.clash.push((*seat, Role::Blocker(*card)));
                self.clash
                    .extend(support.iter().map(|c| (*seat, Role::BlockSupporter(*c))));
            }
            Event::BattleResult { .. }
            | Event::Damage { .. }
            | Event::TurnEnds(_)
            | Event::Over(_) => self.clash_over = true,
            _ => {}
        }
    }

    /// Takes in one event: the log, the phase, a banner.
    fn note(&mut self, e: &Event, cards: &CardSet) {
        let name = |n: &CardNumber| {
            cards
                .get(n)
                .map_or_else(|| n.to_string(), |c| c.name().to_string())
        };
        match e {
            Event::TurnStarts { turn, .. } => self.phase = format!("Turn {turn}"),
            Event::Preparation(s) => self.phase = format!("Preparation Phase · {s}"),
            Event::EvolutionPhase => self.phase = "Evolution Phase".into(),
            Event::BattlePhase => self.phase = "Battle Phase".into(),
            _ => {}
        }
        self.mark(e);
        let banner = match e {
            Event::FirstToAttack(s) => Some(format!("{s} ATTACKS FIRST")),
            Event::EvolutionPhase => Some("EVOLUTION PHASE".into()),
            Event::BattlePhase => Some("BATTLE PHASE".into()),
            Event::Evolved { to, .. } => Some(format!("DIGIVOLVE! {}", name(to))),
            Event::Attack { card, target, .. } => Some(match target {
                Struck::Player(s) => format!("{} ATTACKS {s}!", name(card).to_uppercase()),
                Struck::Digimon(_, d) => format!(
                    "{} ATTACKS {}!",
                    name(card).to_uppercase(),
                    name(d).to_uppercase()
                ),
            }),
            Event::Block { card, .. } => Some(format!("BLOCKED BY {}!", name(card).to_uppercase())),
            Event::AlphaBlock { card, support, .. } => Some(format!(
                "ALPHA-BLOCK! {} +{}",
                name(card).to_uppercase(),
                support.len()
            )),
            Event::BattleResult { winners } if winners.len() == 1 => {
                Some(format!("{} WINS THE BATTLE", winners[0]))
            }
            Event::AlphaAttack {
                card,
                support,
                target,
                ..
            } => Some(format!(
                "ALPHA-ATTACK! {} +{}{}",
                name(card).to_uppercase(),
                support.len(),
                if self.replay.setup.decks.len() > 2 {
                    format!(" → {target}")
                } else {
                    String::new()
                }
            )),
            Event::Burst { seat, .. } => Some(format!("{seat}: BURST!")),
            Event::Lifespan { seat, .. } => Some(format!("{seat}: LIFESPAN")),
            Event::Deleted { card, .. } => Some(format!("{} DELETED", name(card))),
            Event::Left { seat, .. } => Some(format!("{seat} IS OUT")),
            Event::Over(Outcome::Win(s)) => Some(format!("{s} WINS!")),
            Event::Over(Outcome::Draw) => Some("DRAW".into()),
            _ => None,
        };
        if let Some(b) = banner {
            // The last word stays up.
            let seconds = if matches!(e, Event::Over(_)) {
                30.0
            } else {
                1.6
            };
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
        self.log.push_back(Match::describe(e, cards));
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }
}

/// A whole game between Normal CPUs on the shipped decks (`seats` of
/// them, dealt in turn from `seed`), as a replay: the tour's table.
pub fn cpu_game(seats: usize, seed: u64, cards: &CardSet) -> Option<Replay<Match>> {
    let names = deck::EMBEDDED;
    let decks = (0..seats)
        .map(|i| {
            let (stem, _) = names[(seed as usize + i) % names.len()];
            deck::embedded(stem, cards)?.ok()
        })
        .collect::<Option<Vec<_>>>()?;
    let setup = Setup::new(decks, seed);
    let mut m = Match::from_setup(&setup, cards).ok()?;
    let mut actions = Vec::new();
    while m.outcome().is_none() && actions.len() < 20_000 {
        let seat = m.waiting_for()?;
        let action = crate::ai::alpha::choose(&m.view(seat), crate::ai::Strength::Normal);
        m.apply(seat, action).ok()?;
        actions.push((seat, action));
    }
    Some(Replay {
        rules: Match::version(&setup),
        setup,
        actions,
        final_hash: m.state_hash(),
    })
}

/// Events worth a longer look.
fn dwells(e: &Event) -> bool {
    matches!(
        e,
        Event::Attack { .. }
            | Event::AlphaAttack { .. }
            | Event::BattleResult { .. }
            | Event::Deleted { .. }
            | Event::Evolved { .. }
            | Event::EvolutionFailed { .. }
            | Event::Revealed { .. }
            | Event::Burst { .. }
            | Event::Damage { .. }
            | Event::Over(_)
    )
}

/// A card on the table.
#[derive(Component, Debug, Clone, Copy)]
pub struct TableCard {
    /// The instance.
    pub id: CardId,
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

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Table), enter)
        .add_systems(OnExit(Screen::Table), leave)
        .add_systems(
            Update,
            (
                controls,
                person_turn,
                play,
                lay_out,
                stage_figures,
                mark_clash,
                point_targets,
                move_cards,
                fly,
                draw,
                draw_choice,
            )
                .chain()
                .run_if(in_state(Screen::Table))
                .in_set(AppSystems::Update),
        );
}

/// Where a seat sits: its edge's centre, turned to face the table's
/// centre, and how much its zones shrink to fit (three or four seats).
pub fn seat_frame(seat: usize, seats: usize) -> (Vec3, Quat, f32) {
    let n = seats.max(1);
    let angle = TAU * seat as f32 / n as f32;
    let (dist, scale) = if n <= 2 { (2.9, 1.0) } else { (3.7, 0.62) };
    let out = Vec3::new(angle.sin(), 0.0, angle.cos());
    (out * dist, Quat::from_rotation_y(angle), scale)
}

/// A card's place in its seat's frame: position (x across, z towards the
/// player), and whether it lies tapped.
fn slots(layout: &Layout) -> Vec<(Laid, Vec3, bool, bool)> {
    let mut out = Vec::new();
    let row = |k: usize, gap: f32| move |i: usize| (i as f32 - (k as f32 - 1.0) / 2.0) * gap;
    for s in &layout.seats {
        let mut put = |c: Laid, at: Vec3, tapped: bool, hand: bool| out.push((c, at, tapped, hand));
        let k = s.digimon.len();
        for (i, d) in s.digimon.iter().enumerate() {
            let x = row(k, CARD.y + 0.08)(i);
            put(d.card, Vec3::new(x, 0.0, -1.25), d.tapped, false);
            for (j, c) in d.stack.iter().enumerate() {
                let j = j as f32 + 1.0;
                put(*c, Vec3::new(x, 0.012 * j, -1.25 + 0.2 * j), false, false);
            }
        }
        let k = s.options.len();
        for (i, o) in s.options.iter().enumerate() {
            let x = row(k, CARD.y + 0.06)(i);
            put(o.card, Vec3::new(x, 0.0, -0.1), o.tapped, false);
        }
        let k = s.commands.len();
        for (i, c) in s.commands.iter().enumerate() {
            let x = row(k, CARD.x + 0.06)(i);
            put(*c, Vec3::new(x, 0.3, -2.3), false, false);
        }
        let pile = |v: &[Laid], x: f32, z: f32, top_first: bool, out: &mut Vec<_>| {
            let n = v.len();
            for (j, c) in v.iter().enumerate() {
                let h = if top_first { n - 1 - j } else { j };
                out.push((*c, Vec3::new(x, 0.006 * h as f32, z), false, false));
            }
        };
        pile(&s.net_ocean, -2.7, -0.1, true, &mut out);
        pile(&s.dark_area, 2.7, -0.1, false, &mut out);
        pile(&s.removed, 2.7, -1.25, false, &mut out);
        let k = s.hand.len();
        let gap = (4.2 / k.max(1) as f32).min(CARD.x + 0.05);
        for (i, c) in s.hand.iter().enumerate() {
            let x = row(k, gap)(i);
            out.push((*c, Vec3::new(x, 0.004 * i as f32, 1.05), false, true));
        }
    }
    out
}

/// Where every card goes: its transform on the table and whether it lies
/// face up (`open_hands`: every hand shown).
pub fn goals(layout: &Layout, hands: Hands) -> HashMap<CardId, (Transform, bool)> {
    let n = layout.seats.len();
    let mut owner_of = HashMap::new();
    for (i, s) in layout.seats.iter().enumerate() {
        for c in s
            .hand
            .iter()
            .chain(&s.net_ocean)
            .chain(&s.dark_area)
            .chain(&s.removed)
            .chain(&s.commands)
        {
            owner_of.insert(c.id, i);
        }
        for d in &s.digimon {
            owner_of.insert(d.card.id, i);
            for c in &d.stack {
                owner_of.insert(c.id, i);
            }
        }
        for o in &s.options {
            owner_of.insert(o.card.id, i);
        }
    }
    let acting = layout.acting.map(|(_, id)| id);
    slots(layout)
        .into_iter()
        .map(|(c, mut local, tapped, hand)| {
            // The Digimon whose turn it is rises off the table.
            if acting == Some(c.id) {
                local.y += 0.35;
            }
            let owner = owner_of.get(&c.id).copied().unwrap_or(0);
            let (origin, turn, scale) = seat_frame(owner, n);
            let shown = match hands {
                Hands::All => true,
                Hands::Only(seat) => seat == Some(owner),
            };
            // A hand's stand-ins (cards this machine may not see, at a LAN
            // table) stay face down whoever's hands are shown.
            let face_up = c.open || (hand && shown && !c.id.is_stand_in());
            let mut rot = turn;
            if tapped {
                rot *= Quat::from_rotation_y(FRAC_PI_2);
            }
            if !face_up {
                rot *= Quat::from_rotation_z(PI);
            }
            let at = origin + turn * (local * Vec3::new(scale, 1.0, scale)) + Vec3::Y * 0.01;
            (
                c.id,
                (
                    Transform::from_translation(at)
                        .with_rotation(rot)
                        .with_scale(Vec3::splat(scale)),
                    face_up,
                ),
            )
        })
        .collect()
}

/// A card's face as a texture.
fn face_image(card: &Card) -> Option<Image> {
    let rgb = crate::barcode::print::render_face(card).ok()?;
    let small =
        image::imageops::resize(&rgb, FACE_W, FACE_H, image::imageops::FilterType::Triangle);
    Some(rgb_texture(&small))
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

fn enter(
    mut commands: Commands,
    (settings, pending, cards): (Res<Settings>, Option<Res<PendingTable>>, Res<Cards>),
    live: Option<ResMut<TableGame>>,
    mut shot: ResMut<CameraShot>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<CardFace>>,
) {
    let game = match (&settings.table, pending, live) {
        (Some((path, r)), _, _) => TableGame::new(r.clone(), path.display().to_string(), &cards.0),
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
            *shot = CameraShot::Table(live.replay.setup.decks.len(), seat);
            spawn_text(&mut commands);
            return;
        }
        (None, None, None) => return,
    };
    commands.remove_resource::<PendingTable>();
    *shot = CameraShot::Table(game.replay.setup.decks.len(), 0);
    spawn_faces(
        &mut commands,
        &game,
        &cards.0,
        (&mut meshes, &mut images, &mut materials),
    );
    commands.insert_resource(game);
    spawn_text(&mut commands);
}

/// Every card of every deck gets its face once.
fn spawn_faces(
    commands: &mut Commands,
    game: &TableGame,
    cards: &CardSet,
    (meshes, images, materials): (&mut Assets<Mesh>, &mut Assets<Image>, &mut Assets<CardFace>),
) {
    // A little below white, so a card's face does not bloom.
    let lit = |image: Handle<Image>| CardFace {
        tint: Vec4::new(0.6, 0.6, 0.64, 1.0),
        image,
    };
    let back = materials.add(lit(images.add(back_image())));
    let mut faces = HashMap::new();
    for n in game.replay.setup.decks.iter().flatten() {
        if faces.contains_key(n) {
            continue;
        }
        let card = cards
            .get(n)
            .or_else(|| game.replay.setup.extra.iter().find(|c| c.number() == *n));
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
pub struct PendingTable(pub Replay<Match>, pub String);

/// Everything the table puts on stage.
type TableProps = Or<(
    With<TableCard>,
    With<TargetMarker>,
    With<TableFigure>,
    With<Shot>,
    With<DuelProp>,
)>;

fn leave(mut commands: Commands, cards: Query<Entity, TableProps>) {
    for e in &cards {
        commands.entity(e).despawn();
    }
    commands.remove_resource::<TableGame>();
    commands.remove_resource::<Faces>();
}

fn spawn_text(commands: &mut Commands) {
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

fn controls(
    mut presses: MessageReader<Press>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    cards: Res<Cards>,
    game: Option<ResMut<TableGame>>,
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

fn play(
    time: Res<Time>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    game: Option<ResMut<TableGame>>,
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
fn lay_out(
    mut commands: Commands,
    game: Option<Res<TableGame>>,
    faces: Option<Res<Faces>>,
    mut q: Query<(Entity, &mut TableCard)>,
) {
    let (Some(game), Some(faces)) = (game, faces) else {
        return;
    };
    if !game.is_changed() {
        return;
    }
    let Some(layout) = &game.layout else { return };
    let mut goals = goals(layout, game.hands());
    let numbers: HashMap<CardId, CardNumber> = layout.cards().map(|c| (c.id, c.number)).collect();
    for (e, mut card) in &mut q {
        match goals.remove(&card.id) {
            Some((goal, up)) if numbers.get(&card.id) == Some(&card.number) => {
                card.goal = goal;
                card.face_up = up;
            }
            Some(other) => {
                // Another game's card of the same id: dealt anew.
                goals.insert(card.id, other);
                commands.entity(e).despawn();
            }
            None => commands.entity(e).despawn(),
        }
    }
    for (id, (goal, up)) in goals {
        let Some(&number) = numbers.get(&id) else {
            continue;
        };
        let face = faces
            .faces
            .get(&number)
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
fn move_cards(
    time: Res<Time>,
    game: Option<Res<TableGame>>,
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

fn draw(
    game: Option<Res<TableGame>>,
    mut texts: Query<(&TableText, &mut Text, &mut TextColor, Option<&ChildOf>)>,
    mut panels: Query<&mut Visibility, Without<TableText>>,
) {
    let Some(game) = game else { return };
    let m = game.m.as_ref();
    for (part, mut text, mut colour, parent) in &mut texts {
        let s = match part {
            TableText::Phase => {
                let turn = m.map_or(0, Match::turn);
                if game.phase.is_empty() {
                    format!("CARD GAME ALPHA · TURN {turn}")
                } else {
                    format!("CARD GAME ALPHA · {}", game.phase.to_uppercase())
                }
            }
            TableText::Seats => match (m, &game.layout) {
                (Some(m), Some(layout)) => seats_line(m, layout),
                _ => String::new(),
            },
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

/// Every seat's points and zones, whose choice it is, and (three or four
/// seats) each Target Opponent.
fn seats_line(m: &Match, layout: &Layout) -> String {
    let waiting = m.waiting_for();
    layout
        .seats
        .iter()
        .map(|s| {
            let mut line = format!(
                "{}{} {} pts · hand {} · Net Ocean {} · Dark {}",
                if waiting == Some(s.seat) { "▶ " } else { "" },
                s.seat,
                s.points,
                s.hand.len(),
                s.net_ocean.len(),
                s.dark_area.len()
            );
            if !s.alive {
                line.push_str(" · OUT");
            } else {
                // This turn's attack order: first to attack first.
                if let Some(at) = m.order().iter().position(|o| *o == s.seat) {
                    let place = ["1st", "2nd", "3rd", "4th"]
                        .get(at)
                        .copied()
                        .unwrap_or("last");
                    line.push_str(&format!(" · attacks {place}"));
                }
                if layout.seats.len() > 2 {
                    line.push_str(&format!(" · targets {}", s.target));
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A Digimon's figure, standing on its Box card.
#[derive(Component, Debug, Clone, Copy)]
pub struct TableFigure {
    /// Its card's instance.
    pub id: CardId,
    /// Its seat, by index.
    pub seat: usize,
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

fn digimon<'a>(game: &'a TableGame, cards: &'a CardSet, n: &CardNumber) -> Option<&'a Digimon> {
    cards
        .get(n)
        .or_else(|| game.replay.setup.extra.iter().find(|c| c.number() == *n))
        .and_then(Card::as_digimon)
}

/// A seat's side colour for the effects that have one (damage numbers).
fn side_of(seat: usize) -> Side {
    if seat.is_multiple_of(2) {
        Side::P1
    } else {
        Side::P2
    }
}

/// The figures follow the Box: each face-up Digimon stands on its card,
/// facing the table's centre (turned aside when tapped); the events stage
/// the battles (techniques in flight, hits, the winner's cheer), deletions
/// (breaking into data), evolutions (the old figure turns into light, the
/// new one grows in a column of light) and the damage a player takes.
#[expect(
    clippy::too_many_lines,
    reason = "one match over the events a figure shows, each arm short"
)]
fn stage_figures(
    mut commands: Commands,
    game: Option<ResMut<TableGame>>,
    cards: Res<Cards>,
    mut kit: FigureKit,
    vfx_store: Option<Res<VfxStore>>,
    mut figs: Query<(Entity, &TableFigure, &mut Figure, &mut Transform)>,
) {
    let Some(mut game) = game else { return };
    if !game.is_changed() {
        return;
    }
    let events = std::mem::take(&mut game.bypass_change_detection().pending);
    let Some(layout) = game.layout.as_ref() else {
        return;
    };
    let n = layout.seats.len();
    let goals = goals(layout, Hands::All);
    // Where each standing Digimon is: its id, seat, card and transform.
    let mut stand: HashMap<CardId, (usize, CardNumber, Transform, bool)> = HashMap::new();
    for (i, s) in layout.seats.iter().enumerate() {
        for d in s.digimon.iter().filter(|d| d.card.open) {
            if let Some((goal, _)) = goals.get(&d.card.id) {
                stand.insert(d.card.id, (i, d.card.number, *goal, d.tapped));
            }
        }
    }
    let at_of = |e: Entity, figs: &Query<(Entity, &TableFigure, &mut Figure, &mut Transform)>| {
        figs.get(e).ok().map(|(_, _, f, _)| f.home + f.bounds.0)
    };
    let find = |seat: Seat,
                card: &CardNumber,
                figs: &Query<(Entity, &TableFigure, &mut Figure, &mut Transform)>| {
        figs.iter()
            .find(|(_, t, f, _)| t.seat == seat.index() && f.card == *card)
            .map(|(e, ..)| e)
    };
    let mut fought: Vec<(Entity, Element, u32)> = Vec::new();
    let mut gone: Vec<Entity> = Vec::new();
    for e in &events {
        match e {
            Event::Power {
                seat,
                card,
                technique,
                power,
                ..
            } => {
                if let Some(f) = find(*seat, card, &figs) {
                    let name = digimon(&game, &cards.0, card).map(|d| {
                        let t = match technique {
                            'A' => &d.techniques.a,
                            'B' => &d.techniques.b,
                            _ => &d.techniques.c,
                        };
                        (t.name.clone(), d)
                    });
                    let element = name
                        .as_ref()
                        .map_or(Element::Physical, |(t, d)| Element::of(t, Some(d)));
                    fought.push((f, element, *power));
                }
            }
            Event::BattleResult { winners } => {
                // Each side's technique flies at the other; the winners cheer.
                if let [(a, ea, pa), (b, eb, pb)] = fought[..] {
                    for (from, to, element, power) in [(a, b, ea, pa), (b, a, eb, pb)] {
                        let (Some(p), Some(q)) = (at_of(from, &figs), at_of(to, &figs)) else {
                            continue;
                        };
                        if let Ok((_, _, mut f, _)) = figs.get_mut(from) {
                            f.cue = Some(element.stance());
                        }
                        launch(
                            &mut commands,
                            vfx_store.as_deref(),
                            (p, q),
                            (element, power),
                            Some(to),
                        );
                    }
                }
                for (f, ..) in &fought {
                    if let Ok((_, t, mut fig, _)) = figs.get_mut(*f)
                        && Seat::new(t.seat).is_some_and(|s| winners.contains(&s))
                        && winners.len() == 1
                    {
                        fig.cue = Some(Move::Cheer);
                    }
                }
                fought.clear();
            }
            Event::Deleted { seat, card } => {
                if let Some(f) = find(*seat, card, &figs)
                    && let Ok((_, _, fig, _)) = figs.get(f)
                {
                    if let Some(store) = &vfx_store {
                        vfx::data_burst(
                            &mut commands,
                            store,
                            fig.home + fig.bounds.0,
                            fig.bounds.1,
                        );
                    }
                    figures::leave(&mut commands, f, fig);
                    gone.push(f);
                }
            }
            Event::Evolved { seat, from, .. } => {
                if let Some(f) = find(*seat, from, &figs)
                    && let Ok((_, _, fig, _)) = figs.get(f)
                {
                    if let Some(store) = &vfx_store {
                        vfx::evolution_light(&mut commands, store, fig.home);
                    }
                    figures::leave(&mut commands, f, fig);
                    gone.push(f);
                }
            }
            Event::Damage { seat, amount, .. } => {
                // Over the player's Box row.
                let (origin, turn, scale) = seat_frame(seat.index(), n);
                let at = origin + turn * Vec3::new(0.0, 0.9, -1.25 * scale);
                vfx::damage_number(&mut commands, at, *amount, side_of(seat.index()));
            }
            // An attack on a player: the technique flies at their edge.
            Event::Attack {
                seat,
                card,
                target: Struck::Player(target),
            }
            | Event::AlphaAttack {
                seat, card, target, ..
            } => {
                let Some(f) = find(*seat, card, &figs) else {
                    continue;
                };
                let element = digimon(&game, &cards.0, card).map_or(Element::Physical, |d| {
                    Element::of(&d.techniques.a.name, Some(d))
                });
                let (origin, _, _) = seat_frame(target.index(), n);
                if let (Some(p), Ok((_, _, mut fig, _))) = (at_of(f, &figs), figs.get_mut(f)) {
                    fig.cue = Some(element.stance());
                    launch(
                        &mut commands,
                        vfx_store.as_deref(),
                        (p, origin + Vec3::Y * 0.4),
                        (element, 300),
                        None,
                    );
                }
            }
            _ => {}
        }
    }
    // Figures whose card left the Box go; the others stand on their cards.
    for (e, t, mut f, mut tf) in &mut figs {
        if gone.contains(&e) {
            continue;
        }
        match stand.remove(&t.id) {
            Some((seat, number, goal, tapped)) if number == f.card && seat == t.seat => {
                f.home = goal.translation + Vec3::Y * 0.02;
                let (_, turn, _) = seat_frame(seat, n);
                let aside = if tapped { FRAC_PI_2 } else { 0.0 };
                tf.rotation = turn * Quat::from_rotation_y(PI + aside);
            }
            _ => figures::leave(&mut commands, e, &f),
        }
    }
    for (id, (seat, number, goal, tapped)) in stand {
        let Some(d) = digimon(&game, &cards.0, &number) else {
            continue;
        };
        let (_, turn, scale) = seat_frame(seat, n);
        let home = goal.translation + Vec3::Y * 0.02;
        let e = figures::spawn_figure(
            &mut commands,
            &mut kit,
            d,
            side_of(seat),
            home,
            FIGURE_SIZE * scale,
        );
        let aside = if tapped { FRAC_PI_2 } else { 0.0 };
        commands.entity(e).insert((
            TableFigure { id, seat },
            DespawnOnExit(Screen::Table),
            Transform::from_translation(home)
                .with_rotation(turn * Quat::from_rotation_y(PI + aside)),
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
fn save_game(replay: &Replay<Match>, dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir
        .or_else(|| crate::save::data_dir().map(|d| d.join("replays")))
        .ok_or("no data folder to save the game in (set BTERM_DATA_DIR)")?;
    replay
        .save_in(&dir)
        .map_err(|e| format!("cannot save the game: {e}"))
}

/// A CPU seat's turn: its choice is worked out on a thread (the hard CPU
/// searches for up to 0.4 s) and taken when it is ready.
fn cpu_turn(game: &mut TableGame, cards: &CardSet) {
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
            let view = m.view(seat);
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(crate::ai::alpha::choose(&view, strength));
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
fn person_turn(
    time: Res<Time>,
    mut moves: Moves,
    (clicks, mut pointer): (AnswerClicks, super::input::Pointer),
    (cards, settings): (Res<Cards>, Res<Settings>),
    game: Option<ResMut<TableGame>>,
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
    let Some(m) = &game.m else { return };
    // At a LAN table: the host's question for this machine's seat.
    let (seat, legal) = match &game.remote {
        Some(r) => match (r.seat, &r.asked) {
            (Some(seat), Some((a, _))) => (seat, a.answers.clone()),
            _ => return,
        },
        None => {
            let Some(seat) = m.waiting_for() else { return };
            (seat, m.legal_actions(seat))
        }
    };
    // The rules' time and default for a question asked here (at a LAN
    // table the host's clock settles a question left alone).
    let timeout = match &game.remote {
        None => m.question(seat).map(|q| (q.seconds, q.on_timeout)),
        Some(_) => None,
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
fn choice(game: &TableGame) -> Choice {
    let said = |prompt: String| Choice {
        prompt,
        ..Choice::default()
    };
    let (Some(live), Some(m)) = (&game.live, &game.m) else {
        return Choice::default();
    };
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
            let Some(seat) = m.waiting_for() else {
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
    let (text, legal, left) = match asked {
        Some((_, a, left)) => (a.text.clone(), a.answers.clone(), left),
        None => {
            let Some(q) = m.question(seat) else {
                return Choice::default();
            };
            (
                q.prompt.text,
                m.legal_actions(seat),
                q.seconds - live.asked_for,
            )
        }
    };
    let first = live
        .chosen
        .saturating_sub(ANSWERS_SHOWN / 2)
        .min(legal.len().saturating_sub(ANSWERS_SHOWN));
    let left = left.max(0.0).ceil();
    Choice {
        prompt: text.trim_end_matches([' ', '>']).to_string(),
        answers: legal
            .iter()
            .enumerate()
            .skip(first)
            .take(ANSWERS_SHOWN)
            .map(|(i, a)| (i, m.action_text(*a)))
            .collect(),
        chosen: live.chosen,
        hint: format!(
            "A / B move · C chooses · hold C to leave · {} of {} · {left:.0} s",
            live.chosen + 1,
            legal.len()
        ),
    }
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
fn draw_choice(
    game: Option<Res<TableGame>>,
    mut lines: Query<(&mut ChoiceLine, &mut Text, &mut TextColor, &mut Node)>,
    mut texts: PromptTexts,
    mut panels: Query<&mut Visibility>,
) {
    let Some(game) = game else { return };
    let c = choice(&game);
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
fn mark_clash(
    mut commands: Commands,
    time: Res<Time>,
    game: Option<Res<TableGame>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    figs: Query<(&TableFigure, &Figure)>,
    mut rings: Query<(Entity, &ClashRing, &mut Transform, &mut Visibility)>,
    mut ring_mesh: Local<Option<Handle<Mesh>>>,
) {
    let Some(game) = game else { return };
    let n = game.replay.setup.decks.len();
    let want: Vec<ClashRing> = game
        .clash
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
                .find(|(t, f)| t.seat == ring.seat && f.card == card)
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

/// With three or four seats, the arrow at a seat's edge that points at its
/// Target Opponent.
#[derive(Component, Debug, Clone, Copy)]
pub struct TargetMarker {
    /// The seat, by index.
    pub seat: usize,
}

/// Keeps one arrow per living seat (3–4 seats) pointing from its edge at
/// its Target Opponent's.
fn point_targets(
    mut commands: Commands,
    game: Option<Res<TableGame>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    mut markers: Query<(Entity, &TargetMarker, &mut Transform)>,
) {
    let Some(game) = game else { return };
    if !game.is_changed() {
        return;
    }
    let Some(layout) = &game.layout else { return };
    let n = layout.seats.len();
    let want: Vec<(usize, Transform)> = if n > 2 {
        layout
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive)
            .map(|(i, s)| {
                let (from, _, _) = seat_frame(i, n);
                let (to, _, _) = seat_frame(s.target.index(), n);
                let dir = (to - from).normalize_or(Vec3::Z);
                // Beside the seat's Box row, lying on the table, tip first.
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
