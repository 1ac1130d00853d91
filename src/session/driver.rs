//! The driver: runs a match to its end with any mix of people and CPUs.
//! CPU seats move at once; people are asked the rules' question through a
//! [`People`] front end, and no answer in time is the question's default.
//! The text battle, `bterm analyze`, the benches and the tests all use it;
//! the arena runs the same steps frame by frame through the same [`Table`].

use super::{Player, Table};
use crate::ai::Cpu;
use crate::cards::CardSet;
use crate::rules::{Question, Reply, Ruleset, Seat};

/// The people at a table, as a front end sees them.
pub trait People<R: Ruleset> {
    /// Why the front end cannot go on (the keyboard closed, say).
    type Error;

    /// Asks `seat` the question; `Ok(None)` when its time ran out.
    fn ask(
        &mut self,
        table: &Table<R>,
        seat: Seat,
        question: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error>;

    /// Shows what happened, in order.
    fn show(&mut self, events: &[R::Event]);

    /// The seconds the next question gives a person here, when a table
    /// times every player alike (a LAN host's own player gets the clock its
    /// remote players get); `None`: the front end's own setting. A front
    /// end with no clock ignores it.
    fn set_clock(&mut self, seconds: Option<f32>) {
        let _ = seconds;
    }
}

/// A table of CPUs watched: every event is handed to the closure (a
/// person's question, should there be one, times out at once, so the
/// defaults play). `Watch(|_| {})` is nobody watching.
pub struct Watch<F>(pub F);

impl<R: Ruleset, F: FnMut(&R::Event)> People<R> for Watch<F> {
    type Error = std::convert::Infallible;
    fn ask(
        &mut self,
        _: &Table<R>,
        _: Seat,
        _: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error> {
        Ok(None)
    }
    fn show(&mut self, events: &[R::Event]) {
        events.iter().for_each(&mut self.0);
    }
}

/// Plays the match to its end (or until nobody can move), showing the
/// opening events first. Seats act in order, each once per pass: a CPU
/// chooses from the legal actions; a person (here or, for a LAN host's
/// front end, at another machine) answers the question.
pub fn drive<R: Cpu, P: People<R>>(
    table: &mut Table<R>,
    cards: &CardSet,
    people: &mut P,
) -> Result<(), P::Error> {
    people.show(table.game().opening_events());
    while !table.is_over() {
        let mut moved = false;
        for seat in table.seats() {
            let result = match table.player(seat) {
                Some(Player::Cpu(_)) => match table.cpu_choice(seat) {
                    Some(action) => table.apply(seat, action),
                    None => continue,
                },
                Some(Player::Person | Player::Remote) => {
                    let Some(question) = table.question(seat, cards) else {
                        continue;
                    };
                    match people.ask(table, seat, &question)? {
                        Some(reply) => table.answer(seat, reply, cards),
                        None => table.time_up(seat, cards),
                    }
                }
                None => continue,
            };
            // A refused answer changes nothing; the seat is asked again.
            if let Ok(events) = result {
                people.show(&events);
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    Ok(())
}

/// Plays a match of CPUs only to its end; the actions taken are in the
/// table. The same passes as [`drive`], without a front end to show events
/// to (the benches' and `bterm analyze`'s hot loop); a person's seat, should
/// there be one, is not asked, and the match stops when nobody can move.
pub fn drive_cpus<R: Cpu>(table: &mut Table<R>, _cards: &CardSet) {
    while !table.is_over() {
        let mut moved = false;
        for seat in table.seats() {
            if let Some(action) = table.cpu_choice(seat) {
                moved |= table.apply(seat, action).is_ok();
            }
        }
        if !moved {
            break;
        }
    }
}

/// Like [`drive_cpus`], handing every event (the opening ones first) to
/// `on_event`.
pub fn watch_cpus<R: Cpu>(table: &mut Table<R>, cards: &CardSet, on_event: impl FnMut(&R::Event)) {
    match drive(table, cards, &mut Watch(on_event)) {
        Ok(()) => {}
        Err(never) => match never {},
    }
}
