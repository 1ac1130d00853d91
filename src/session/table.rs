//! A match at a table: the rules' state, who plays each seat, every action
//! taken, and the offers each seat has passed. Answers, timeouts, CPU moves
//! and replayed actions all change the match here and nowhere else.

use std::sync::Arc;

use super::Player;
use crate::ai::Cpu;
use crate::cards::CardSet;
use crate::rules::{IllegalAction, Question, Reply, Ruleset, Seat};

/// Why a table cannot be set.
#[derive(Debug, thiserror::Error)]
pub enum TableError<E: std::error::Error + 'static> {
    /// The rules refuse the setup.
    #[error(transparent)]
    Setup(#[from] E),
    /// A player for each seat is needed.
    #[error("this game has {seats} seats but {players} players were given")]
    Seats {
        /// Seats the game has.
        seats: usize,
        /// Players given.
        players: usize,
    },
}

/// A match with its players. Cheap to clone at the start of a match (the
/// setup and the players are shared), so a bench or a search can copy one.
#[derive(Debug, Clone)]
pub struct Table<R: Ruleset> {
    setup: Arc<R::Setup>,
    game: R,
    players: Arc<[Player]>,
    actions: Vec<(Seat, R::Action)>,
    /// Per seat: the offers declined since the seat's last action (empty,
    /// with no seat in it, until someone passes).
    passed: Vec<Vec<R::Action>>,
    /// Counts every change (an action, a pass), so a front end can keep a
    /// question until it may differ.
    changes: u64,
}

/// What a question looks like for ruleset `R`.
pub type QuestionOf<R> = Question<<R as Ruleset>::Ask, <R as Ruleset>::Action>;

impl<R: Ruleset> Table<R> {
    /// Starts a match; the rules check the setup.
    pub fn new(
        setup: R::Setup,
        cards: &CardSet,
        players: Vec<Player>,
    ) -> Result<Table<R>, TableError<R::SetupError>> {
        let game = R::from_setup(&setup, cards)?;
        Table::resume(setup, game, players)
    }

    /// A table for a match already under way (a copy of one, say): the
    /// actions before this point are not known to it, so its replay starts
    /// here only if `game` is fresh from `setup`.
    pub fn resume(
        setup: R::Setup,
        game: R,
        players: Vec<Player>,
    ) -> Result<Table<R>, TableError<R::SetupError>> {
        if players.len() != game.seats() {
            return Err(TableError::Seats {
                seats: game.seats(),
                players: players.len(),
            });
        }
        Ok(Table {
            setup: Arc::new(setup),
            game,
            players: players.into(),
            actions: Vec::new(),
            passed: Vec::new(),
            changes: 0,
        })
    }

    /// Follows a match this table does not play itself (a LAN client's
    /// view, sent by the table's host): the state becomes `game`; no
    /// action is recorded. The change count moves, so questions are asked
    /// again.
    pub fn follow(&mut self, game: R) {
        self.game = game;
        self.changes += 1;
    }

    /// What the match started from.
    pub fn setup(&self) -> &R::Setup {
        &self.setup
    }

    /// The rules' state (read only: it changes through the table).
    pub fn game(&self) -> &R {
        &self.game
    }

    /// Who plays each seat.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Who plays `seat`.
    pub fn player(&self, seat: Seat) -> Option<Player> {
        self.players.get(seat.index()).copied()
    }

    /// Every seat, in order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<R> {
        Seat::all(self.players.len())
    }

    /// Every action taken, in order (what a replay records).
    pub fn actions(&self) -> &[(Seat, R::Action)] {
        &self.actions
    }

    /// A number that changes whenever the match or a seat's passed offers
    /// change: the questions stay the same until it does.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The question `seat` must answer now, if any.
    pub fn question(&self, seat: Seat, cards: &CardSet) -> Option<QuestionOf<R>> {
        self.players.get(seat.index())?;
        let passed = self.passed.get(seat.index()).map_or(&[][..], Vec::as_slice);
        self.game.question(seat, passed, cards)
    }

    /// Applies an action (a CPU's or a replayed one, say); an illegal one
    /// changes nothing.
    pub fn apply(&mut self, seat: Seat, action: R::Action) -> Result<Vec<R::Event>, IllegalAction> {
        self.record(seat, action, false)
    }

    /// Applies an action. The offers `seat` passed are forgotten once it
    /// answers anything but another offer (a stance, say), so the next turn
    /// offers them again; the other seats' passed offers stay while they
    /// are still on offer.
    fn record(
        &mut self,
        seat: Seat,
        action: R::Action,
        keep_passed: bool,
    ) -> Result<Vec<R::Event>, IllegalAction> {
        let events = self.game.apply(seat, action)?;
        self.actions.push((seat, action));
        self.changes += 1;
        if self.passed.iter().all(Vec::is_empty) {
            return Ok(events); // Nothing passed (always, between CPUs).
        }
        for s in Seat::all(self.passed.len()) {
            if s == seat && !keep_passed {
                self.passed[s.index()].clear();
            } else {
                let legal = self.game.legal_actions(s);
                self.passed[s.index()].retain(|a| legal.contains(a));
            }
        }
        Ok(events)
    }

    /// Answers `seat`'s question. Passing is allowed only where the
    /// question may be declined.
    pub fn answer(
        &mut self,
        seat: Seat,
        reply: Reply<R::Action>,
        cards: &CardSet,
    ) -> Result<Vec<R::Event>, IllegalAction> {
        match reply {
            Reply::Act(action) => {
                // Passed offers stay passed only while the seat answers
                // other offers; any other action moves its turn on.
                let offer = self
                    .question(seat, cards)
                    .is_some_and(|q| q.on_timeout.is_none() && q.answers.contains(&action));
                self.record(seat, action, offer)
            }
            Reply::Pass => {
                let q = self.question(seat, cards).ok_or_else(|| IllegalAction {
                    seat,
                    reason: "there is no question to pass".to_string(),
                })?;
                if q.on_timeout.is_some() {
                    return Err(IllegalAction {
                        seat,
                        reason: "this question must be answered".to_string(),
                    });
                }
                if self.passed.len() < self.players.len() {
                    self.passed.resize(self.players.len(), Vec::new());
                }
                self.passed[seat.index()].extend(q.answers);
                self.changes += 1;
                Ok(Vec::new())
            }
        }
    }

    /// `seat`'s time ran out: the question's default answer, or a pass.
    pub fn time_up(&mut self, seat: Seat, cards: &CardSet) -> Result<Vec<R::Event>, IllegalAction> {
        let q = self.question(seat, cards).ok_or_else(|| IllegalAction {
            seat,
            reason: "there is no question to time out".to_string(),
        })?;
        match q.on_timeout {
            Some(action) => self.apply(seat, action),
            None => self.answer(seat, Reply::Pass, cards),
        }
    }
}

impl<R: Cpu> Table<R> {
    /// The CPU's move for `seat`, if a CPU plays it and has one to make.
    pub fn cpu_choice(&self, seat: Seat) -> Option<R::Action> {
        match self.player(seat)? {
            Player::Cpu(strength) => self.game.choose(seat, strength),
            Player::Person | Player::Remote => None,
        }
    }
}
