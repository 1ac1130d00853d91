//! The arena's one game host. A [`Hosted`] game is a match at a
//! [`Table`] with who plays each seat, and everything that makes it go on
//! without the presenter's help: a CPU's choice worked out on a thread,
//! each person's question clock with the rules' own seconds and default, a
//! replay's actions played back and checked against the state it ended in,
//! and the game saved once it is over. The Terminal Battle's duel and
//! every card table present a hosted game (figures, cards, banners, the
//! HUD, a person's buttons); neither hosts one itself.
//!
//! A question left alone is settled as at the terminal and on the LAN:
//! after the question's own seconds its default answer is taken (an offer
//! with no default is passed), and a question keeps its time while it is
//! the same question (the same answers and default), as the LAN host
//! keeps it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use crate::cards::CardSet;
use crate::net::Lan;
use crate::replay::Replay;
use crate::rules::{IllegalAction, Reply, Ruleset, Seat};
use crate::session::{Player, QuestionOf, Table, TableError};

/// A game the arena hosts: played here, or a replay played back.
#[derive(Debug)]
pub struct Hosted<R: Lan> {
    table: Table<R>,
    /// A replay played back (`None`: a game played here).
    script: Option<Script<R::Action>>,
    /// Once the game has ended: a replay that ended where it said, a game
    /// over; or why a replay did not play.
    verdict: Option<Result<(), String>>,
    /// The seat a CPU looks at next (the CPUs take turns in seat order,
    /// as the session's driver has them).
    cpu_next: usize,
    /// A CPU's choice being worked out on a thread.
    thinking: Option<Thinking<R::Action>>,
    /// Each seat's question clock.
    clocks: Vec<Option<Clock<R::Action>>>,
    /// Each seat's question as of the table's change count.
    questions: Vec<Kept<R>>,
    /// Where the finished game was saved, or why it could not be.
    saved: Option<Result<PathBuf, String>>,
    /// A match another machine hosts, followed here: nobody here is
    /// asked, no CPU plays, nothing is saved.
    followed: bool,
}

/// A replay played back: the actions still to come, and the state hash
/// it ended in.
#[derive(Debug)]
struct Script<A> {
    actions: VecDeque<(Seat, A)>,
    final_hash: u64,
}

/// A seat's question as of the table's change count.
type Kept<R> = Option<(u64, Option<Arc<QuestionOf<R>>>)>;

/// A CPU thinking: its seat, the table's change count it looks at, and
/// where its choice comes.
#[derive(Debug)]
struct Thinking<A> {
    seat: Seat,
    at: u64,
    choice: Mutex<Receiver<Option<A>>>,
}

/// The question a person's clock runs for, and the seconds it has had.
#[derive(Debug, Clone)]
struct Clock<A> {
    answers: Vec<A>,
    on_timeout: Option<A>,
    seconds: f32,
    had: f32,
}

/// What a person's clock says.
#[derive(Debug, Clone, PartialEq)]
pub enum Clocked<E> {
    /// The seat is not a person's, or it is asked nothing.
    NotAsked,
    /// Seconds left to answer.
    Left(f32),
    /// The time ran out: the question's default was taken, with these
    /// events (none when an offer was passed).
    TimedOut(Vec<E>),
}

impl<R: Lan> Hosted<R> {
    /// A game played here by `players`; the rules check the setup.
    pub fn new(
        setup: R::Setup,
        cards: &CardSet,
        players: Vec<Player>,
    ) -> Result<Hosted<R>, TableError<R::SetupError>> {
        Ok(Hosted::of(Table::new(setup, cards, players)?, None))
    }

    /// A game this machine follows and does not play itself (a LAN seat's
    /// view of the host's match): see [`Hosted::follow`]. Nobody is asked
    /// here, no CPU plays and it is not saved: the host does all that.
    pub fn following(
        setup: R::Setup,
        game: R,
        players: Vec<Player>,
    ) -> Result<Hosted<R>, TableError<R::SetupError>> {
        let mut host = Hosted::of(Table::resume(setup, game, players)?, None);
        host.followed = true;
        Ok(host)
    }

    /// A replay played back from its first action; nobody is asked.
    pub fn replay(
        replay: &Replay<R>,
        cards: &CardSet,
    ) -> Result<Hosted<R>, TableError<R::SetupError>> {
        let game = R::from_setup(&replay.setup, cards)?;
        let players = vec![Player::Remote; game.seats()];
        let table = Table::resume(replay.setup.clone(), game, players)?;
        let script = Script {
            actions: replay.actions.iter().copied().collect(),
            final_hash: replay.final_hash,
        };
        Ok(Hosted::of(table, Some(script)))
    }

    /// A game another table played to its end (a LAN game's replay,
    /// played back here): over, and saved as a game played here is.
    pub fn played(table: Table<R>) -> Hosted<R> {
        let mut host = Hosted::of(table, None);
        host.verdict = Some(Ok(()));
        host
    }

    fn of(table: Table<R>, script: Option<Script<R::Action>>) -> Hosted<R> {
        let seats = table.players().len();
        Hosted {
            table,
            script,
            verdict: None,
            cpu_next: 0,
            thinking: None,
            clocks: vec![None; seats],
            questions: vec![None; seats],
            saved: None,
            followed: false,
        }
    }

    /// The match, its players and every action taken.
    pub fn table(&self) -> &Table<R> {
        &self.table
    }

    /// The rules' state.
    pub fn game(&self) -> &R {
        self.table.game()
    }

    /// Whether this is a replay played back.
    pub fn is_replay(&self) -> bool {
        self.script.is_some()
    }

    /// Follows the host's match (a LAN seat): the state becomes `game`.
    pub fn follow(&mut self, game: R) {
        self.table.follow(game);
    }

    /// The question `seat` must answer now, if any (worked out again only
    /// when the table changed).
    pub fn question(&mut self, seat: Seat, cards: &CardSet) -> Option<Arc<QuestionOf<R>>> {
        let at = self.table.changes();
        let slot = self.questions.get_mut(seat.index())?;
        match slot {
            Some((k, q)) if *k == at => q.clone(),
            _ => {
                let q = self.table.question(seat, cards).map(Arc::new);
                *slot = Some((at, q.clone()));
                q
            }
        }
    }

    /// `seat`'s question as [`Hosted::question`] keeps it while the table
    /// has not changed (the HUD asks every frame), else worked out now.
    pub fn asked(&self, seat: Seat, cards: &CardSet) -> Option<Arc<QuestionOf<R>>> {
        match self.questions.get(seat.index()) {
            Some(Some((k, q))) if *k == self.table.changes() => q.clone(),
            _ => self.table.question(seat, cards).map(Arc::new),
        }
    }

    /// Runs a person's clock for `dt` seconds: the seconds left of `seat`'s
    /// question, or (once they are gone) its default taken. A question
    /// keeps its time while it stays the same question.
    pub fn clock(&mut self, seat: Seat, dt: f32, cards: &CardSet) -> Clocked<R::Event> {
        let person = self.table.player(seat).is_some_and(Player::is_person);
        let q = if person && !self.followed && !self.is_replay() && !self.table.is_over() {
            self.question(seat, cards)
        } else {
            None
        };
        let Some(q) = q else {
            if let Some(c) = self.clocks.get_mut(seat.index()) {
                *c = None;
            }
            return Clocked::NotAsked;
        };
        let Some(clock) = self.clocks.get_mut(seat.index()) else {
            return Clocked::NotAsked;
        };
        let same = clock
            .as_ref()
            .is_some_and(|c| c.answers == q.answers && c.on_timeout == q.on_timeout);
        if !same {
            *clock = Some(Clock {
                answers: q.answers.clone(),
                on_timeout: q.on_timeout,
                seconds: q.seconds,
                had: 0.0,
            });
        }
        let Some(c) = clock.as_mut() else {
            return Clocked::NotAsked;
        };
        c.had += dt;
        if c.had < q.seconds {
            return Clocked::Left(q.seconds - c.had);
        }
        *clock = None;
        match self.table.time_up(seat, cards) {
            Ok(events) => {
                self.ended_here();
                Clocked::TimedOut(events)
            }
            // The question was there a moment ago: nothing to settle.
            Err(_) => Clocked::NotAsked,
        }
    }

    /// Seconds left of `seat`'s question, as its clock last ran.
    pub fn seconds_left(&self, seat: Seat) -> Option<f32> {
        let c = self.clocks.get(seat.index())?.as_ref()?;
        Some((c.seconds - c.had).max(0.0))
    }

    /// A person at `seat` answers; a refused answer changes nothing.
    pub fn answer(
        &mut self,
        seat: Seat,
        reply: Reply<R::Action>,
        cards: &CardSet,
    ) -> Result<Vec<R::Event>, IllegalAction> {
        let events = self.table.answer(seat, reply, cards)?;
        if let Some(c) = self.clocks.get_mut(seat.index()) {
            *c = None;
        }
        self.ended_here();
        Ok(events)
    }

    /// The CPUs' turn: a CPU seat asked something gets its choice worked
    /// out on a thread (the hard CPU searches for up to 0.4 s); the choice
    /// is taken once it is ready. Returns the seat and the events of a
    /// choice taken now. The CPUs take turns in seat order, as at the
    /// terminal, so a game between CPUs plays the same here as there.
    pub fn cpu(&mut self) -> Option<(Seat, Vec<R::Event>)> {
        if self.followed || self.is_replay() || self.table.is_over() {
            self.thinking = None;
            return None;
        }
        if let Some(t) = &self.thinking {
            let got = t.choice.lock().ok().and_then(|rx| rx.try_recv().ok());
            let (seat, at) = (t.seat, t.at);
            if self.table.changes() != at {
                // The table moved on while it thought: think again.
                self.thinking = None;
                return None;
            }
            let choice = got?;
            self.thinking = None;
            self.cpu_next = seat.index() + 1;
            let events = self.table.apply(seat, choice?).ok()?;
            self.ended_here();
            return Some((seat, events));
        }
        let seats: Vec<Seat> = self.table.seats().collect();
        for k in 0..seats.len() {
            let seat = seats[(self.cpu_next + k) % seats.len()];
            let Some(Player::Cpu(strength)) = self.table.player(seat) else {
                continue;
            };
            if self.table.game().legal_actions(seat).is_empty() {
                continue;
            }
            let game = self.table.game().clone();
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(crate::ai::Cpu::choose(&game, seat, strength));
            });
            self.cpu_next = seat.index();
            self.thinking = Some(Thinking {
                seat,
                at: self.table.changes(),
                choice: Mutex::new(rx),
            });
            return None;
        }
        None
    }

    /// The CPU seat thinking now.
    pub fn thinking(&self) -> Option<Seat> {
        self.thinking.as_ref().map(|t| t.seat)
    }

    /// A replay's next action, played: its seat and events; `None` once
    /// none is left (the verdict says whether the game ended where the
    /// replay said) or an action the rules refuse stopped it.
    pub fn play_next(&mut self) -> Option<(Seat, Vec<R::Event>)> {
        let script = self.script.as_mut()?;
        if self.verdict.is_some() {
            return None;
        }
        let Some((seat, action)) = script.actions.pop_front() else {
            let (end, hash) = (self.table.game().state_hash(), script.final_hash);
            self.verdict = Some(if end == hash {
                Ok(())
            } else {
                Err(format!(
                    "the game ended in another state than the replay recorded ({end:016x}, not {hash:016x})"
                ))
            });
            return None;
        };
        match self.table.apply(seat, action) {
            Ok(events) => Some((seat, events)),
            Err(e) => {
                self.verdict = Some(Err(format!(
                    "action {} of the replay is not legal here: {e}",
                    self.table.actions().len() + 1
                )));
                script.actions.clear();
                None
            }
        }
    }

    /// A replay's actions still to come.
    pub fn remaining(&self) -> usize {
        self.script.as_ref().map_or(0, |s| s.actions.len())
    }

    /// Once the game has ended: `Ok` for a game over (a replay: that it
    /// ended in the state it recorded), else why a replay did not play.
    pub fn verdict(&self) -> Option<&Result<(), String>> {
        self.verdict.as_ref()
    }

    /// A game played here that just ended has its verdict.
    fn ended_here(&mut self) {
        if self.verdict.is_none() && !self.followed && self.script.is_none() && self.table.is_over()
        {
            self.verdict = Some(Ok(()));
        }
    }

    /// The game so far as a replay.
    pub fn record(&self) -> Replay<R> {
        Replay::of(&self.table)
    }

    /// Saves a game played here once it is over, in `dir` (else the data
    /// folder's replays), once; a replay played back is not saved again.
    /// Returns where it went, or why it could not.
    pub fn save(&mut self, dir: Option<PathBuf>) -> Option<&Result<PathBuf, String>> {
        if self.saved.is_none() && !self.followed && !self.is_replay() && self.table.is_over() {
            self.saved = Some(save_in(&self.record(), dir));
        }
        self.saved.as_ref()
    }

    /// Where the game was saved, or why it could not be.
    pub fn saved(&self) -> Option<&Result<PathBuf, String>> {
        self.saved.as_ref()
    }
}

/// Saves `replay` in `dir` (else the data folder's replays).
fn save_in<R: Ruleset>(replay: &Replay<R>, dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = dir
        .or_else(|| crate::save::data_dir().map(|d| d.join("replays")))
        .ok_or("no data folder to save the game in (set BTERM_DATA_DIR)")?;
    replay
        .save_in(&dir)
        .map_err(|e| format!("cannot save the game: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Strength;
    use crate::rules::{alpha, terminal};

    fn terminal_setup(seed: u64, cards: &CardSet) -> terminal::Setup {
        let n = |s: &str| cards.resolve(s).expect("a shipped card").number();
        terminal::Setup::new(
            vec![n("Dα-001"), n("Dα-002")],
            vec![n("Dα-012"), n("Dα-013"), n("Dα-021")],
            seed,
        )
    }

    /// Runs the host's CPUs until the game ends, waiting for each thread.
    fn run_cpus<R: Lan>(host: &mut Hosted<R>) {
        for _ in 0..1_000_000 {
            if host.table().is_over() {
                return;
            }
            let acted = host.cpu().is_some();
            assert!(
                acted || host.thinking().is_some() || host.table().is_over(),
                "the CPUs stopped before the end"
            );
            if !acted {
                std::thread::sleep(std::time::Duration::from_micros(20));
            }
        }
        panic!("the game did not end");
    }

    #[test]
    fn cpus_on_threads_play_the_game_the_terminal_plays() {
        let cards = CardSet::embedded();
        for seed in [3u64, 8] {
            let players = vec![Player::Cpu(Strength::Normal), Player::Cpu(Strength::Hard)];
            let setup = terminal_setup(seed, &cards);
            let mut alone: Table<terminal::Match> =
                Table::new(setup.clone(), &cards, players.clone()).unwrap();
            crate::session::drive_cpus(&mut alone, &cards);
            let mut host = Hosted::<terminal::Match>::new(setup, &cards, players).unwrap();
            run_cpus(&mut host);
            assert_eq!(host.table().actions(), alone.actions(), "seed {seed}");
            assert_eq!(host.verdict(), Some(&Ok(())));
        }
        // A card game of three CPUs, too.
        let replay = crate::arena::play::table::cpu_game(3, 5, &cards).unwrap();
        let players = vec![Player::Cpu(Strength::Easy); 3];
        let mut alone: Table<alpha::Match> =
            Table::new(replay.setup.clone(), &cards, players.clone()).unwrap();
        crate::session::drive_cpus(&mut alone, &cards);
        let mut host = Hosted::<alpha::Match>::new(replay.setup, &cards, players).unwrap();
        run_cpus(&mut host);
        assert_eq!(host.table().actions(), alone.actions());
    }

    #[test]
    fn a_question_left_alone_takes_the_rules_default_after_the_rules_seconds() {
        let cards = CardSet::embedded();
        let replay = crate::arena::play::table::cpu_game(2, 1, &cards).unwrap();
        let players = vec![Player::Person, Player::Person];
        let mut host = Hosted::<alpha::Match>::new(replay.setup, &cards, players).unwrap();
        let seat = host.game().waiting_for().unwrap();
        let q = host.question(seat, &cards).unwrap();
        let default = q.on_timeout.expect("a card game's question has a default");
        // The other seat is asked nothing: no clock runs for it.
        let other = Seat::all(2).find(|s| *s != seat).unwrap();
        assert_eq!(host.clock(other, 1.0, &cards), Clocked::NotAsked);
        // The time runs down while the question stays.
        let half = q.seconds / 2.0;
        assert_eq!(
            host.clock(seat, half, &cards),
            Clocked::Left(q.seconds - half)
        );
        assert_eq!(host.seconds_left(seat), Some(q.seconds - half));
        assert!(host.table().actions().is_empty());
        match host.clock(seat, half, &cards) {
            Clocked::TimedOut(events) => assert!(!events.is_empty()),
            other => panic!("not timed out: {other:?}"),
        }
        assert_eq!(host.table().actions(), [(seat, default)]);
        // An answer starts the next question's clock afresh.
        let seat = host.game().waiting_for().unwrap();
        let q = host.question(seat, &cards).unwrap();
        assert!(matches!(host.clock(seat, 1.0, &cards), Clocked::Left(_)));
        host.answer(seat, Reply::Act(q.answers[0]), &cards).unwrap();
        if let Some(next) = host.game().waiting_for() {
            let q = host.question(next, &cards).unwrap();
            assert_eq!(
                host.clock(next, 0.5, &cards),
                Clocked::Left(q.seconds - 0.5)
            );
        }
    }

    #[test]
    fn a_cpu_seat_and_a_replay_have_no_clock() {
        let cards = CardSet::embedded();
        let replay = crate::arena::play::table::cpu_game(2, 2, &cards).unwrap();
        let cpus = vec![Player::Cpu(Strength::Easy); 2];
        let mut host = Hosted::<alpha::Match>::new(replay.setup.clone(), &cards, cpus).unwrap();
        let seat = host.game().waiting_for().unwrap();
        assert_eq!(host.clock(seat, 1e6, &cards), Clocked::NotAsked);
        let mut back = Hosted::replay(&replay, &cards).unwrap();
        assert_eq!(back.clock(seat, 1e6, &cards), Clocked::NotAsked);
        assert!(back.cpu().is_none() && back.thinking().is_none());
        assert!(back.table().actions().is_empty());
    }

    #[test]
    fn a_replay_is_checked_against_the_state_it_ended_in() {
        let cards = CardSet::embedded();
        let replay = crate::arena::play::table::cpu_game(2, 4, &cards).unwrap();
        let mut host = Hosted::replay(&replay, &cards).unwrap();
        let mut played = 0;
        while host.play_next().is_some() {
            played += 1;
            assert_eq!(host.remaining(), replay.actions.len() - played);
        }
        assert_eq!(played, replay.actions.len());
        assert_eq!(host.verdict(), Some(&Ok(())));
        // A replay played back is never saved again.
        let dir = tempfile::tempdir().unwrap();
        assert!(host.save(Some(dir.path().to_path_buf())).is_none());

        // Another final state: the verdict says both.
        let mut wrong = replay.clone();
        wrong.final_hash ^= 1;
        let mut host = Hosted::replay(&wrong, &cards).unwrap();
        while host.play_next().is_some() {}
        let Some(Err(e)) = host.verdict() else {
            panic!("not refused")
        };
        assert!(e.contains("another state"), "{e}");

        // An action the rules refuse stops it there, and says which.
        let mut bad = replay.clone();
        bad.actions.swap(3, 4);
        bad.actions.truncate(6);
        let mut host = Hosted::replay(&bad, &cards).unwrap();
        while host.play_next().is_some() {}
        let Some(Err(e)) = host.verdict() else {
            panic!("not refused")
        };
        assert!(
            e.starts_with("action 4 of the replay is not legal here"),
            "{e}"
        );
        assert_eq!(host.remaining(), 0);
    }

    #[test]
    fn a_game_is_saved_once_when_over_and_a_followed_one_never() {
        let cards = CardSet::embedded();
        let dir = tempfile::tempdir().unwrap();
        let at = Some(dir.path().to_path_buf());
        let players = vec![Player::Cpu(Strength::Easy); 2];
        let setup = terminal_setup(5, &cards);
        let mut host =
            Hosted::<terminal::Match>::new(setup.clone(), &cards, players.clone()).unwrap();
        assert!(host.save(at.clone()).is_none(), "not before it is over");
        run_cpus(&mut host);
        let first = host.save(at.clone()).cloned().unwrap().unwrap();
        let again = host.save(at.clone()).cloned().unwrap().unwrap();
        assert_eq!(first, again);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let kept = Replay::<terminal::Match>::load(&first).unwrap();
        assert_eq!(kept.actions, host.table().actions());
        assert_eq!(kept.final_hash, host.game().state_hash());

        // A LAN seat's copy of an ended game is the host's to save.
        let over = host.game().clone();
        let mut follows = Hosted::following(setup, over, players).unwrap();
        assert!(follows.save(at).is_none());
        assert!(follows.cpu().is_none() && follows.thinking().is_none());
    }
}
