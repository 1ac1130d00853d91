//! The one place the rules change: the [`Duel`] resource holds the Match.
//! People (buttons and timers), CPU players and replays ask it for actions;
//! the events each action returns go, in order, into the [`Show`], which
//! plays them one at a time as [`Staged`] messages for the stage to animate.
//! New questions wait until the show has caught up, so a player always sees
//! the last clash before the next stance.

use std::collections::VecDeque;
use std::path::PathBuf;

use bevy::prelude::*;

use super::input::{Button, Press, Release};
use super::sound::{Sfx, Sound};
use super::{AppSystems, Pilot, Settings};
use crate::cards::CardSet;
use crate::rules::Side;
use crate::rules::terminal::{AbilitySlot, Action, Event, Match, Setup};

/// Holding a stance button this long launches an Alpha Strike (seconds).
pub const ALPHA_HOLD: f32 = 0.6;

/// How long the question "use this `[Action:]` ability?" waits (seconds);
/// no answer is no.
pub const ABILITY_SECONDS: f32 = 3.0;

/// What a duel is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelKind {
    /// CPU against CPU behind the attract screen.
    Demo,
    /// A battle people play.
    Play,
    /// A saved battle played back.
    Replay,
}

/// What a person is being asked, and how long is left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ask {
    /// The question.
    pub kind: AskKind,
    /// Seconds left before the default answer.
    pub left: f32,
    /// A stance button held for an Alpha Strike, and for how long.
    pub hold: Option<(Button, f32)>,
}

/// The questions the buttons answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskKind {
    /// Press A, B or C (`alpha`: holding one launches an Alpha Strike).
    Stance {
        /// Whether an Alpha Strike is possible.
        alpha: bool,
    },
    /// Digivolve (A) or stay (B); `jogress`: A is a Jogress.
    Evolve {
        /// Whether A means Jogress.
        jogress: bool,
    },
    /// Alpha-block (A) or let it through (B).
    Block,
    /// Ready this `[Action:]` ability for the round (A) or not (B, C).
    Ability {
        /// Which ability.
        slot: AbilitySlot,
    },
}

/// A battle in the arena.
#[derive(Resource)]
pub struct Duel {
    /// What it is for.
    pub kind: DuelKind,
    /// What it started from.
    pub setup: Setup,
    /// The card set, with the setup's extra cards.
    pub cards: CardSet,
    /// The rules' state.
    pub m: Match,
    /// Who plays each seat.
    pub pilots: [Pilot; 2],
    /// Every action applied, in order (a replay of the battle).
    pub actions: Vec<(Side, Action)>,
    /// A replay's actions still to come.
    pub script: VecDeque<(Side, Action)>,
    /// The questions people are answering.
    pub asks: [Option<Ask>; 2],
    /// The `[Action:]` abilities each side was already asked about, and in
    /// which round (each is offered once a round).
    pub offered: [(u32, Vec<AbilitySlot>); 2],
    /// Where the battle was saved, or why it could not be.
    pub saved: Option<Result<PathBuf, String>>,
    /// Seconds since the show finished the last event of a finished battle.
    pub over_for: f32,
}

impl Duel {
    /// Starts a duel; the setup is checked by the rules.
    pub fn new(
        kind: DuelKind,
        setup: Setup,
        cards: &CardSet,
        pilots: [Pilot; 2],
    ) -> Result<Duel, String> {
        let cards = if setup.extra.is_empty() {
            cards.clone()
        } else {
            cards
                .with_cards(&setup.extra)
                .map_err(|e| format!("the team's extra cards are not valid: {e}"))?
        };
        let m = Match::from_setup(&setup, &cards).map_err(|e| e.to_string())?;
        Ok(Duel {
            kind,
            setup,
            cards,
            m,
            pilots,
            actions: Vec::new(),
            script: VecDeque::new(),
            asks: [None, None],
            offered: [(0, Vec::new()), (0, Vec::new())],
            saved: None,
            over_for: 0.0,
        })
    }

    /// Applies an action and queues its events; an illegal one changes nothing.
    pub fn act(&mut self, show: &mut Show, side: Side, action: Action) -> bool {
        match self.m.apply(side, action) {
            Ok(events) => {
                self.actions.push((side, action));
                self.asks[side.index()] = None;
                show.queue.extend(events);
                true
            }
            Err(e) => {
                warn!("refused {action:?}: {e}");
                false
            }
        }
    }

    /// The next `[Action:]` ability to offer `side` this round, if any.
    fn ability_to_offer(&self, side: Side, legal: &[Action]) -> Option<AbilitySlot> {
        let (round, asked) = &self.offered[side.index()];
        legal.iter().find_map(|a| match a {
            Action::UseAbility(slot) if *round != self.m.round() || !asked.contains(slot) => {
                Some(*slot)
            }
            _ => None,
        })
    }

    /// Notes that `side` was asked about `slot` this round.
    fn mark_offered(&mut self, side: Side, slot: AbilitySlot) {
        let round = self.m.round();
        let (r, asked) = &mut self.offered[side.index()];
        if *r != round {
            *r = round;
            asked.clear();
        }
        asked.push(slot);
    }

    /// Whether the battle is over and the show has staged all of it.
    pub fn finished(&self, show: &Show) -> bool {
        self.m.outcome().is_some() && show.idle()
    }
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

pub(super) fn plugin(app: &mut App) {
    app.add_message::<DuelStarted>()
        .add_message::<Staged>()
        .init_resource::<Show>()
        .add_systems(
            Update,
            (
                start_show,
                (ask_people, cpu_and_script, finish)
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
    show.queue.extend(duel.m.opening_events().iter().cloned());
}

/// People answer with buttons, within the timer; no answer is the default.
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
    if !show.idle() || duel.kind == DuelKind::Replay {
        duel.asks = [None, None];
        return;
    }
    let seconds = duel.m.tunables().stance_seconds as f32;
    let dt = time.delta_secs();
    for side in Side::BOTH {
        if duel.pilots[side.index()] != Pilot::Human {
            continue;
        }
        let legal = duel.m.legal_actions(side);
        let kind = if legal.contains(&Action::AlphaBlock(false)) {
            Some(AskKind::Block)
        } else if legal.contains(&Action::Digivolve(false)) {
            Some(AskKind::Evolve {
                jogress: legal.contains(&Action::Jogress),
            })
        } else if let Some(slot) = duel.ability_to_offer(side, &legal) {
            Some(AskKind::Ability { slot })
        } else if legal.iter().any(|a| matches!(a, Action::Stance(_))) {
            Some(AskKind::Stance {
                alpha: legal.iter().any(|a| matches!(a, Action::AlphaAttack(_))),
            })
        } else {
            None
        };
        let Some(kind) = kind else {
            duel.asks[side.index()] = None;
            continue;
        };
        let mut ask = match duel.asks[side.index()] {
            Some(a) if a.kind == kind => a,
            _ => Ask {
                kind,
                left: match kind {
                    AskKind::Ability { .. } => ABILITY_SECONDS,
                    _ => seconds,
                },
                hold: None,
            },
        };
        let before = ask.left;
        ask.left -= dt;
        if before.ceil() != ask.left.ceil() && ask.left > 0.0 && ask.left <= 3.0 {
            sfx.write(Sfx(Sound::Tick));
        }
        let mine = |b: &&Press| b.player == side;
        let mut answer = None;
        let mut declined = false;
        for p in presses.iter().filter(mine) {
            sfx.write(Sfx(Sound::Button));
            answer = match (kind, p.button) {
                (AskKind::Stance { alpha: true }, b) => {
                    ask.hold = Some((b, 0.0));
                    None
                }
                (AskKind::Stance { alpha: false }, b) => Some(Action::Stance(b.stance())),
                (AskKind::Evolve { jogress: true }, Button::A) => Some(Action::Jogress),
                (AskKind::Evolve { .. }, Button::A) => Some(Action::Digivolve(true)),
                (AskKind::Evolve { .. }, _) => Some(Action::Digivolve(false)),
                (AskKind::Block, Button::A) => Some(Action::AlphaBlock(true)),
                (AskKind::Block, _) => Some(Action::AlphaBlock(false)),
                (AskKind::Ability { slot }, Button::A) => Some(Action::UseAbility(slot)),
                (AskKind::Ability { .. }, _) => {
                    declined = true;
                    None
                }
            };
            if answer.is_some() || declined {
                break;
            }
        }
        if answer.is_none()
            && let Some((b, held)) = ask.hold
        {
            let held = held + dt;
            if releases.iter().any(|r| r.player == side && r.button == b) && held < ALPHA_HOLD {
                answer = Some(Action::Stance(b.stance()));
            } else if held >= ALPHA_HOLD {
                answer = Some(Action::AlphaAttack(b.stance()));
            } else {
                ask.hold = Some((b, held));
            }
        }
        if answer.is_none() && !declined && ask.left <= 0.0 {
            answer = match kind {
                AskKind::Stance { .. } => Some(Action::TimeUp),
                // A player who does not answer digivolves: it is what the gauge was filled for.
                AskKind::Evolve { jogress: true } => Some(Action::Jogress),
                AskKind::Evolve { jogress: false } => Some(Action::Digivolve(true)),
                AskKind::Block => Some(Action::AlphaBlock(false)),
                // No answer to an ability is no.
                AskKind::Ability { .. } => {
                    declined = true;
                    None
                }
            };
        }
        // Each ability is offered once a round, whatever the answer.
        if let AskKind::Ability { slot } = kind
            && (declined || answer.is_some())
        {
            duel.mark_offered(side, slot);
        }
        if declined {
            duel.asks[side.index()] = None;
            continue;
        }
        match answer {
            Some(a) if legal.contains(&a) => {
                let duel = &mut *duel;
                duel.act(&mut show, side, a);
            }
            _ => duel.asks[side.index()] = Some(ask),
        }
    }
}

/// CPU players answer at once; a replay takes its next action (unless paused).
fn cpu_and_script(mut duel: ResMut<Duel>, mut show: ResMut<Show>) {
    if !show.idle() || duel.m.outcome().is_some() {
        return;
    }
    let duel = &mut *duel;
    if duel.kind == DuelKind::Replay {
        if show.paused && !show.step {
            return;
        }
        show.step = false;
        if let Some((side, action)) = duel.script.pop_front()
            && !duel.act(&mut show, side, action)
        {
            // A replay that does not apply stops here; the viewer says so.
            duel.script.clear();
        }
        return;
    }
    for side in Side::BOTH {
        if let Pilot::Cpu(level) = duel.pilots[side.index()]
            && let Some(a) = crate::ai::choose(&duel.m, side, level)
        {
            duel.act(&mut show, side, a);
        }
    }
}

/// A played battle is saved once it is over.
fn finish(time: Res<Time>, mut duel: ResMut<Duel>, show: Res<Show>, settings: Res<Settings>) {
    if !duel.finished(&show) {
        return;
    }
    duel.over_for += time.delta_secs();
    if duel.kind == DuelKind::Play && duel.saved.is_none() {
        let saved = save_replay(&duel, settings.replay_dir.clone());
        if let Err(e) = &saved {
            warn!("{e}");
        }
        duel.saved = Some(saved);
    }
}

/// Saves a finished battle as a replay in `dir` (default: the data
/// directory's `replays`).
pub fn save_replay(duel: &Duel, dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir
        .or_else(|| crate::barcode::enroll::data_dir().map(|d| d.join("replays")))
        .ok_or("no data directory to save the replay in (set BTERM_DATA_DIR)")?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut path = dir.join(format!("battle-{stamp}-{:x}.ron", duel.setup.seed));
    let mut n = 1;
    while path.exists() {
        path = dir.join(format!("battle-{stamp}-{:x}-{n}.ron", duel.setup.seed));
        n += 1;
    }
    crate::replay::Replay::new(duel.setup.clone(), duel.actions.clone(), &duel.m)
        .save(&path)
        .map_err(|e| format!("cannot save the replay: {e}"))?;
    Ok(path)
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
