//! This machine's seat at a LAN game, as the duel or a table sees it (the
//! question from the host, the answer on its way, who sits where), and the
//! replay a LAN game ended with, played back here to check it.

use std::time::Instant;

use crate::cards::CardSet;
use crate::net::Lan;
use crate::net::protocol::{Asked, SeatLine};
use crate::replay::Replay;
use crate::rules::{Reply, Seat};
use crate::session::Player;

/// This machine's seat at a LAN table, as the duel or the table sees it:
/// its question, its answer on the way, who sits where.
#[derive(Debug)]
pub struct Remote<R: Lan> {
    /// This machine's seat (`None`: it watches).
    pub seat: Option<Seat>,
    /// The question the host asked this seat, and when it came.
    pub asked: Option<(Asked<R>, Instant)>,
    /// The answer to send: the question's number and the reply.
    pub answer: Option<(u64, Reply<R::Action>)>,
    /// Who sits at each seat, as the host tells it.
    pub seats: Vec<SeatLine>,
    /// Events come from the host, not yet staged.
    pub events: Vec<R::Event>,
    /// The game is over and its replay is in.
    pub ended: bool,
}

impl<R: Lan> Remote<R> {
    /// This machine at `seat` (`None`: watching).
    pub fn new(seat: Option<Seat>) -> Remote<R> {
        Remote {
            seat,
            asked: None,
            answer: None,
            seats: Vec::new(),
            events: Vec::new(),
            ended: false,
        }
    }

    /// Seconds left of the question asked (the host's clock: it counts
    /// from when the host asked).
    pub fn seconds_left(&self) -> f32 {
        self.asked.as_ref().map_or(0.0, |(a, at)| {
            (a.seconds - at.elapsed().as_secs_f32()).max(0.0)
        })
    }

    /// Answers the question asked.
    pub fn reply(&mut self, reply: Reply<R::Action>) {
        if let Some((a, _)) = self.asked.take() {
            self.answer = Some((a.asked, reply));
        }
    }

    /// Who plays `seat`, in a few words ("YOU", a name, "reconnecting").
    pub fn who(&self, seat: Seat) -> String {
        if self.seat == Some(seat) {
            return "YOU".to_string();
        }
        match self.seats.iter().find(|l| l.seat == seat) {
            Some(l) if l.reconnecting => format!("{} · RECONNECTING", l.who.to_uppercase()),
            Some(l) => l.who.to_uppercase(),
            None => "LAN".to_string(),
        }
    }
}

/// The replay a LAN game ended with, played back here into a table of
/// `players` (the rules check every action; the session checked the hash).
pub fn replayed<R: Lan>(
    replay: &Replay<R>,
    cards: &CardSet,
    players: Vec<Player>,
) -> Result<crate::session::Table<R>, String> {
    let mut table = crate::session::Table::new(replay.setup.clone(), cards, players)
        .map_err(|e| e.to_string())?;
    for &(seat, action) in &replay.actions {
        table.apply(seat, action).map_err(|e| e.to_string())?;
    }
    Ok(table)
}
