//! The Terminal Battle's presenter: the [`Duel`] resource holds the hosted
//! match ([`Hosted`]: the table, the CPUs on a thread, the question clocks
//! with the rules' own seconds, a replay played back and checked, saving).
//! People answer with the buttons; the events each action returns go, in
//! order, into the [`Show`], which plays them one at a time as [`Staged`]
//! messages for the stage to animate. New questions wait until the show has
//! caught up, so a player always sees the last clash before the next stance.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::arena::play::hosted::{Clocked, Hosted};

use bevy::prelude::*;

use crate::arena::play::remote::Remote;
use crate::arena::ui::input::{Button, Press, Release};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::{AppSystems, Settings};
use crate::cards::CardSet;
use crate::rules::terminal::{Action, Ask, Event, Match, Setup, SetupError, Side};
use crate::rules::{Reply, Seat};
use crate::session::{Player, QuestionOf, TableError};

/// The speeds a replay steps through (the viewer's B, a table's replay).
pub const SPEEDS: [f32; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];

/// Holding a stance button this long launches an Alpha Strike (seconds).
pub const ALPHA_HOLD: f32 = 0.6;

/// What a duel is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelKind {
    /// CPU against CPU behind the attract screen.
    Demo,
    /// A battle people play.
    Play,
    /// A saved battle played back.
    Replay,
    /// A battle at a LAN table: the host plays it; this machine follows
    /// its views and answers its own seat's questions.
    Lan,
}

/// The question a person is answering on the buttons, and how long is left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Asking {
    /// The rules' question.
    pub ask: Ask,
    /// Seconds left before the question's default answer.
    pub left: f32,
    /// A stance button held for an Alpha Strike, and for how long.
    pub hold: Option<(Button, f32)>,
}

/// Why a duel cannot start.
#[derive(Debug, thiserror::Error)]
pub enum DuelError {
    /// The cards that travel with the teams are not valid cards.
    #[error("the team's extra cards are not valid: {0}")]
    ExtraCards(#[from] crate::cards::LoadErrors),
    /// The rules refuse the teams.
    #[error(transparent)]
    Table(#[from] TableError<SetupError>),
}

/// The Terminal Battle's question.
type Question = QuestionOf<Match>;

/// A battle in the arena.
#[derive(Resource)]
pub struct Duel {
    /// What it is for.
    pub kind: DuelKind,
    /// The card set, with the setup's extra cards.
    pub cards: CardSet,
    /// The match, who plays each seat, every action taken; its CPUs, its
    /// clocks, a replay's actions to come.
    pub host: Hosted<Match>,
    /// The questions people are answering.
    pub asking: [Option<Asking>; 2],
    /// At a LAN table: each seat's question as of the host's question
    /// number.
    questions: [Option<(u64, Option<Arc<Question>>)>; 2],
    /// Seconds since the show finished the last event of a finished battle.
    pub over_for: f32,
    /// At a LAN table: this machine's seat, its question and answer.
    pub remote: Option<Remote<Match>>,
}

impl Duel {
    /// Starts a duel; the setup is checked by the rules.
    pub fn new(
        kind: DuelKind,
        setup: Setup,
        cards: &CardSet,
        players: [Player; 2],
    ) -> Result<Duel, DuelError> {
        let cards = with_extra(cards, &setup)?;
        let host = Hosted::new(setup, &cards, players.to_vec())?;
        Ok(Duel::of(kind, cards, host, None))
    }

    /// A saved battle played back, action by action.
    pub fn replay(
        replay: &crate::replay::Replay<Match>,
        cards: &CardSet,
    ) -> Result<Duel, DuelError> {
        let cards = with_extra(cards, &replay.setup)?;
        let host = Hosted::replay(replay, &cards)?;
        Ok(Duel::of(DuelKind::Replay, cards, host, None))
    }

    fn of(
        kind: DuelKind,
        cards: CardSet,
        host: Hosted<Match>,
        remote: Option<Remote<Match>>,
    ) -> Duel {
        Duel {
            kind,
            cards,
            host,
            asking: [None, None],
            questions: [None, None],
            over_for: 0.0,
            remote,
        }
    }

    /// A battle at a LAN table, from the host's first view (`seat`: this
    /// machine's; `None` watches). The table follows the host's views; its
    /// setup is the real one only once the game's replay comes at the end,
    /// since the seed is the host's secret until then.
    pub fn lan(view: Match, cards: &CardSet, seat: Option<Seat>) -> Result<Duel, DuelError> {
        let players = Side::BOTH.map(|s| {
            if Some(s.seat()) == seat {
                Player::Person
            } else {
                Player::Remote
            }
        });
        let setup = Setup {
            tunables: view.tunables().clone(),
            ..Setup::new(Vec::new(), Vec::new(), 0)
        };
        let host = Hosted::following(setup, view, players.to_vec())?;
        Ok(Duel::of(
            DuelKind::Lan,
            cards.clone(),
            host,
            Some(Remote::new(seat)),
        ))
    }

    /// A LAN battle's end: its replay (checked by the session) becomes the
    /// table, so the result, the saved replay and the records are the
    /// whole game's.
    pub fn lan_ended(&mut self, replay: &crate::replay::Replay<Match>) {
        match crate::arena::play::remote::replayed(
            replay,
            &self.cards,
            self.host.table().players().to_vec(),
        ) {
            Ok(table) => self.host = Hosted::played(table),
            Err(e) => warn!("the LAN game's replay does not play here: {e}"),
        }
        if let Some(r) = self.remote.as_mut() {
            r.ended = true;
            r.asked = None;
        }
    }

    /// The rules' state.
    pub fn m(&self) -> &Match {
        self.host.game()
    }

    /// What the duel started from.
    pub fn setup(&self) -> &Setup {
        self.host.table().setup()
    }

    /// Who plays `side`.
    pub fn player(&self, side: Side) -> Player {
        self.host.table().players()[side.index()]
    }

    /// Answers `side`'s question and queues the events; `false` when the
    /// rules refused it.
    fn settle(&mut self, show: &mut Show, side: Side, reply: Reply<Action>) -> bool {
        // At a LAN table the answer goes to the host.
        if let Some(remote) = self.remote.as_mut() {
            remote.reply(reply);
            self.asking[side.index()] = None;
            return true;
        }
        match self.host.answer(side.seat(), reply, &self.cards) {
            Ok(events) => {
                self.asking[side.index()] = None;
                show.queue.extend(events);
                true
            }
            Err(e) => {
                warn!("refused: {e}");
                false
            }
        }
    }

    /// Whether the battle is over and the show has staged all of it (and,
    /// at a LAN table, the game's replay is in).
    pub fn finished(&self, show: &Show) -> bool {
        let over = match self.kind {
            DuelKind::Replay => self.host.verdict().is_some(),
            _ => self.host.table().is_over(),
        };
        over && show.idle() && self.remote.as_ref().is_none_or(|r| r.ended)
    }
}

/// The card set with the cards that travel with a setup's teams.
fn with_extra(cards: &CardSet, setup: &Setup) -> Result<CardSet, DuelError> {
    Ok(if setup.extra.is_empty() {
        cards.clone()
    } else {
        cards.with_cards(&setup.extra)?
    })
}

/// A duel was started: the stage sets up its figures and HUD.
#[derive(Message, Debug, Clone, Copy)]
pub struct DuelStarted;

/// The rules' events waiting to be staged, and the one playing now.
#[derive(Resource, Debug)]
pub struct Show {
    /// Events still to stage.
    pub queue: VecDeque<Event>,
    /// Seconds left of the event being staged.
    pub busy: f32,
    /// Playback speed (1 = as designed).
    pub speed: f32,
    /// A replay waits before its next action (its queued events still play).
    pub paused: bool,
    /// A paused replay takes one more action.
    pub step: bool,
}

impl Default for Show {
    fn default() -> Self {
        Show {
            queue: VecDeque::new(),
            busy: 0.0,
            speed: 1.0,
            paused: false,
            step: false,
        }
    }
}

impl Show {
    /// Whether every queued event has been staged.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.busy <= 0.0
    }
}

/// An event's turn on stage.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct Staged(pub Event);

/// How long an event holds the stage, in seconds at speed 1.
pub fn hold(e: &Event) -> f32 {
    match e {
        Event::RoundStarted { .. } => 1.0,
        Event::StancesRevealed { .. } => 0.9,
        Event::TechniqueChosen { .. } => 0.9,
        Event::Clash { .. } => 1.3,
        Event::Deleted { .. } => 1.6,
        Event::Digivolved { .. } | Event::Jogressed { .. } => 1.6,
        Event::SteppedIn { .. } => 1.0,
        Event::AlphaAttack { .. } | Event::AlphaBlock { .. } => 1.0,
        Event::PowerModified { .. }
        | Event::HpModified { .. }
        | Event::AbilityTriggered { .. }
        | Event::DeletionPrevented { .. } => 0.7,
        Event::PointsChanged { .. } => 0.4,
        Event::BattleEnded { .. } => 2.0,
        Event::EvolutionOffered { .. }
        | Event::StanceLocked { .. }
        | Event::AbilityReadied { .. }
        | Event::GaugeChanged { .. }
        | Event::RoundEnded { .. } => 0.15,
    }
}

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_message::<DuelStarted>()
        .add_message::<Staged>()
        .init_resource::<Show>()
        .add_systems(
            Update,
            (
                start_show,
                (lan_events, ask_people, cpu_and_script, finish)
                    .chain()
                    .run_if(resource_exists::<Duel>),
            )
                .chain()
                .in_set(AppSystems::Rules),
        )
        .add_systems(Update, run_show.in_set(AppSystems::Stage));
}

/// A new duel's opening events (Burst, round 1) go first on stage.
fn start_show(
    mut started: MessageReader<DuelStarted>,
    duel: Option<Res<Duel>>,
    settings: Res<Settings>,
    mut show: ResMut<Show>,
) {
    if started.read().last().is_none() {
        return;
    }
    let Some(duel) = duel else { return };
    *show = Show {
        speed: settings.show_speed,
        ..Show::default()
    };
    // A LAN battle's opening comes with the host's first events.
    if duel.kind != DuelKind::Lan {
        show.queue.extend(duel.m().opening_events().iter().cloned());
    }
}

/// A LAN battle: the host's events go on stage as they come; while a
/// question waits for this machine, the show hurries (the host's clock
/// runs, and the buttons answer at once).
fn lan_events(mut duel: ResMut<Duel>, mut show: ResMut<Show>, settings: Res<Settings>) {
    let Some(r) = duel.remote.as_mut() else {
        return;
    };
    if !r.events.is_empty() {
        show.queue.extend(r.events.drain(..));
    }
    let hurry = if r.asked.is_some() { 4.0 } else { 1.0 };
    let speed = settings.show_speed * hurry;
    if show.speed != speed {
        show.speed = speed;
    }
}

/// People answer with buttons, within the question's time; no answer is
/// the question's default (the session's, the same as the text battle's).
fn ask_people(
    time: Res<Time>,
    mut duel: ResMut<Duel>,
    mut show: ResMut<Show>,
    mut presses: MessageReader<Press>,
    mut releases: MessageReader<Release>,
    mut sfx: MessageWriter<Sfx>,
) {
    let presses: Vec<Press> = presses.read().copied().collect();
    let releases: Vec<Release> = releases.read().copied().collect();
    // At a LAN table the host's clock runs: its question is answered at
    // once, while the show hurries through the last clash.
    let lan_asked = duel.remote.as_ref().is_some_and(|r| r.asked.is_some());
    if (!show.idle() && !lan_asked) || duel.kind == DuelKind::Replay {
        duel.asking = [None, None];
        return;
    }
    let dt = time.delta_secs();
    let duel = &mut *duel;
    for side in Side::BOTH {
        if !duel.player(side).is_person() {
            continue;
        }
        let (i, seat) = (side.index(), side.seat());
        let question = match &duel.remote {
            // Asked again only when the host asked another question, not
            // every frame.
            Some(r) => {
                let key = r.asked.as_ref().map(|(a, _)| a.asked);
                match (key, &duel.questions[i]) {
                    (None, _) => None,
                    (Some(k), Some((at, q))) if *at == k => q.clone(),
                    (Some(k), _) => {
                        let q = r.asked.as_ref().map(|(a, _)| {
                            Arc::new(Question {
                                ask: Ask::of(&a.answers),
                                answers: a.answers.clone(),
                                seconds: r.seconds_left(),
                                on_timeout: a.on_timeout,
                                prompt: a.prompt(),
                            })
                        });
                        duel.questions[i] = Some((k, q.clone()));
                        q
                    }
                }
            }
            None => duel.host.question(seat, &duel.cards),
        };
        let Some(question) = question else {
            duel.asking[i] = None;
            continue;
        };
        let mut asking = match duel.asking[i] {
            Some(a) if a.ask == question.ask => a,
            _ => Asking {
                ask: question.ask,
                left: question.seconds,
                hold: None,
            },
        };
        let mut reply = None;
        // At a LAN table this machine has one player: either set of keys.
        let lan = duel.kind == DuelKind::Lan;
        for p in presses.iter().filter(|p| p.player == side || lan) {
            sfx.write(Sfx(Sound::Button));
            reply = button_reply(&question, p.button, &mut asking);
            if reply.is_some() {
                break;
            }
        }
        if reply.is_none()
            && let Some((b, held)) = asking.hold
        {
            let held = held + dt;
            if releases
                .iter()
                .any(|r| (r.player == side || lan) && r.button == b)
                && held < ALPHA_HOLD
            {
                reply = question.prompt.reply(&stance_key(b));
            } else if held >= ALPHA_HOLD {
                reply = question.prompt.reply(&format!("x{}", stance_key(b)));
            } else {
                asking.hold = Some((b, held));
            }
        }
        if let Some(r) = reply
            && duel.settle(&mut show, side, r)
        {
            continue;
        }
        // Not answered: the clock runs (the host's, at a LAN table, which
        // settles a question left alone there).
        let before = asking.left;
        match &mut duel.remote {
            Some(r) => {
                asking.left = r.seconds_left();
                if asking.left <= 0.0 {
                    r.asked = None;
                    duel.asking[i] = None;
                    continue;
                }
            }
            None => match duel.host.clock(seat, dt, &duel.cards) {
                Clocked::Left(left) => asking.left = left,
                Clocked::TimedOut(events) => {
                    show.queue.extend(events);
                    duel.asking[i] = None;
                    continue;
                }
                Clocked::NotAsked => {
                    duel.asking[i] = None;
                    continue;
                }
            },
        }
        if before.ceil() != asking.left.ceil() && asking.left > 0.0 && asking.left <= 3.0 {
            sfx.write(Sfx(Sound::Tick));
        }
        duel.asking[i] = Some(asking);
    }
}

/// What a button press answers, through the question's own keys (the same
/// the text battle reads): A is "y", B and C are "n" for the yes-no
/// questions; a stance button is its stance, or starts a hold when an Alpha
/// Strike is possible (`None` until the hold is decided).
fn button_reply(question: &Question, button: Button, asking: &mut Asking) -> Option<Reply<Action>> {
    let key = match question.ask {
        Ask::Stance { alpha: true } => {
            asking.hold = Some((button, 0.0));
            return None;
        }
        Ask::Stance { alpha: false } => stance_key(button),
        _ if button == Button::A => "y".to_string(),
        _ => "n".to_string(),
    };
    question.prompt.reply(&key)
}

/// The key a stance button stands for: `a`, `b` or `c`.
fn stance_key(button: Button) -> String {
    button.stance().letter().to_ascii_lowercase().to_string()
}

/// CPU players answer (each worked out on a thread, the CPUs in turn); a
/// replay takes its next action (unless paused).
fn cpu_and_script(mut duel: ResMut<Duel>, mut show: ResMut<Show>) {
    // At a LAN table the host plays the CPUs.
    if !show.idle() || duel.kind == DuelKind::Lan {
        return;
    }
    let duel = &mut *duel;
    if duel.kind == DuelKind::Replay {
        if show.paused && !show.step {
            return;
        }
        show.step = false;
        let before = duel.host.verdict().is_some();
        if let Some((_, events)) = duel.host.play_next() {
            show.queue.extend(events);
        } else if !before && let Some(Err(e)) = duel.host.verdict() {
            // A replay that does not apply stops here; the viewer says so.
            warn!("replay refused: {e}");
        }
        return;
    }
    if let Some((_, events)) = duel.host.cpu() {
        show.queue.extend(events);
    }
}

/// A played battle is saved once it is over.
fn finish(time: Res<Time>, mut duel: ResMut<Duel>, show: Res<Show>, settings: Res<Settings>) {
    if !duel.finished(&show) {
        return;
    }
    duel.over_for += time.delta_secs();
    if matches!(duel.kind, DuelKind::Play | DuelKind::Lan)
        && duel.host.saved().is_none()
        && let Some(Err(e)) = duel.host.save(settings.replay_dir.clone())
    {
        warn!("{e}");
    }
}

/// Plays the queue: each event holds the stage for its time.
fn run_show(time: Res<Time>, mut show: ResMut<Show>, mut staged: MessageWriter<Staged>) {
    show.busy -= time.delta_secs() * show.speed;
    while show.busy <= 0.0 {
        let Some(e) = show.queue.pop_front() else {
            show.busy = show.busy.max(0.0);
            break;
        };
        show.busy += hold(&e);
        staged.write(Staged(e));
    }
}
