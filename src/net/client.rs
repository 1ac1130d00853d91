//! A client: joins a table, shows what the host sends, and answers its
//! seat's questions from a front end (a keyboard, or a CPU that reads the
//! seat's view only). At the end it has the game's replay, checked by
//! playing it back, so every machine keeps the same game.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::Lan;
use super::link::{ClientLink, FromHost};
use super::protocol::{
    Asked, Hello, PROTOCOL_VERSION, Role, SeatLine, ToClient, ToHost, decode, encode,
};
use crate::ai::Strength;
use crate::cards::{CardNumber, CardSet};
use crate::replay::Replay;
use crate::rules::{Outcome, Reply, RulesetId, Seat};

/// How long a client waits for a table to answer.
pub const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// Who joins, and as what.
#[derive(Debug, Clone)]
pub struct JoinOptions {
    /// The table's address.
    pub addr: SocketAddr,
    /// The player's name.
    pub name: String,
    /// Player or spectator.
    pub role: Role,
    /// The table's join code.
    pub code: String,
    /// The team or deck brought.
    pub cards: Vec<CardNumber>,
    /// Keep every message's bytes as received (for tests).
    pub record: bool,
}

/// A client's front end: what it shows, and who answers its questions.
pub trait Seatside<R: Lan> {
    /// Why it cannot go on.
    type Error: std::fmt::Display;

    /// The table has the client (`seat`: `None` for a spectator).
    fn welcome(&mut self, table: &str, seat: Option<Seat>);
    /// The seats, as they fill or change.
    fn lobby(&mut self, seats: &[SeatLine]);
    /// What happened, and the view after it.
    fn update(&mut self, events: &[R::Event], view: &R::View);
    /// A question for the client's seat; `Ok(None)` when no answer came.
    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error>;
    /// A note from the host (a refused answer).
    fn note(&mut self, text: &str);
}

/// How a client's game ended.
#[derive(Debug, Clone)]
pub struct Ended<R: Lan> {
    /// The seat it played (`None`: it watched).
    pub seat: Option<Seat>,
    /// How the game ended.
    pub outcome: Outcome,
    /// The game's replay, played back and checked here.
    pub replay: Replay<R>,
    /// Every message as received, when asked to record.
    pub received: Vec<Vec<u8>>,
}

/// Why a client stopped.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// No table answered.
    #[error(
        "no table answered at {0} within {1} s: check the address and port, and that the host is running (bterm join with no address lists the tables on this network)"
    )]
    NoAnswer(SocketAddr, u64),
    /// The host refused the client.
    #[error("the table refused to seat you: {0}")]
    Refused(String),
    /// The table plays another game.
    #[error("the table plays {0:?}")]
    OtherGame(RulesetId),
    /// The connection ended before the game did.
    #[error("the connection to the table ended: {0}")]
    Lost(String),
    /// The host sent something this client cannot read.
    #[error(
        "the table sent a message this bterm cannot read ({0}): use the same bterm version as the host"
    )]
    Unreadable(String),
    /// The replay the host sent does not play back here.
    #[error("the game's replay does not play back on this machine: {0}")]
    Replay(String),
    /// The front end gave up.
    #[error("{0}")]
    Front(String),
    /// The socket could not be opened.
    #[error("cannot open a network socket: {0}")]
    Socket(String),
}

/// Joins a table and plays (or watches) to the end.
pub fn join<R: Lan, S: Seatside<R>>(
    options: &JoinOptions,
    cards: &CardSet,
    front: &mut S,
) -> Result<Ended<R>, JoinError> {
    let link = ClientLink::connect(options.addr).map_err(|e| JoinError::Socket(e.to_string()))?;
    let start = Instant::now();
    // The handshake.
    loop {
        let left = CONNECT_WAIT.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(JoinError::NoAnswer(options.addr, CONNECT_WAIT.as_secs()));
        }
        match link.recv(left) {
            Some(FromHost::Connected) => break,
            Some(FromHost::Closed(why)) => return Err(JoinError::Lost(why)),
            Some(FromHost::Message(_)) | None => {}
        }
    }
    let hello = Hello {
        version: PROTOCOL_VERSION,
        ruleset: R::ID,
        name: options.name.clone(),
        role: options.role,
        code: options.code.clone(),
        cards: options.cards.clone(),
        rejoin: None,
    };
    link.send(encode(&ToHost::<R>::Hello(hello)));
    let mut seat: Option<Seat> = None;
    let mut view: Option<R::View> = None;
    let mut received = Vec::new();
    loop {
        let bytes = match link.recv(Duration::from_secs(1)) {
            None | Some(FromHost::Connected) => continue,
            Some(FromHost::Closed(why)) => return Err(JoinError::Lost(why)),
            Some(FromHost::Message(b)) => b,
        };
        let message: ToClient<R> =
            decode(&bytes).map_err(|e| JoinError::Unreadable(e.to_string()))?;
        if options.record {
            received.push(bytes);
        }
        match message {
            ToClient::Welcome {
                version,
                table,
                seat: s,
                ..
            } => {
                if version != PROTOCOL_VERSION {
                    return Err(JoinError::Refused(format!(
                        "the table speaks protocol {version}, this bterm {PROTOCOL_VERSION}"
                    )));
                }
                seat = s;
                front.welcome(&table, s);
            }
            ToClient::Refused { game, .. } if game != R::ID => {
                return Err(JoinError::OtherGame(game));
            }
            ToClient::Refused { why, .. } => return Err(JoinError::Refused(why)),
            ToClient::Lobby(lines) => front.lobby(&lines),
            ToClient::Update { events, view: v } => {
                front.update(&events, &v);
                view = Some(v);
            }
            ToClient::Ask(asked) => {
                let Some(s) = seat else { continue };
                let reply = front
                    .ask(s, view.as_ref(), &asked)
                    .map_err(|e| JoinError::Front(e.to_string()))?;
                if let Some(reply) = reply {
                    link.send(encode(&ToHost::<R>::Answer {
                        asked: asked.asked,
                        reply,
                    }));
                }
            }
            ToClient::Refusal(why) => front.note(&why),
            ToClient::Over { outcome, replay } => {
                let replay = Replay::<R>::parse(&replay, "the host's replay")
                    .map_err(|e| JoinError::Replay(e.to_string()))?;
                replay
                    .play(cards, |_| {})
                    .map_err(|e| JoinError::Replay(e.to_string()))?;
                link.send(encode(&ToHost::<R>::Bye));
                // Let the goodbye go.
                std::thread::sleep(Duration::from_millis(50));
                return Ok(Ended {
                    seat,
                    outcome,
                    replay,
                    received,
                });
            }
        }
    }
}

/// A CPU client: answers from its seat's view only, at a strength.
pub struct CpuSeat<F> {
    /// Its strength.
    pub strength: Strength,
    /// Told every update (a log, or nothing).
    pub watch: F,
}

impl<R: Lan, F: FnMut(&[R::Event])> Seatside<R> for CpuSeat<F> {
    type Error = std::convert::Infallible;

    fn welcome(&mut self, _: &str, _: Option<Seat>) {}
    fn lobby(&mut self, _: &[SeatLine]) {}
    fn update(&mut self, events: &[R::Event], _: &R::View) {
        (self.watch)(events);
    }
    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error> {
        let choice = view
            .and_then(|v| R::view_choice(v, seat, self.strength))
            .filter(|a| asked.answers.contains(a))
            .or(asked.on_timeout)
            .or_else(|| asked.answers.first().copied());
        Ok(choice.map(Reply::Act))
    }
    fn note(&mut self, _: &str) {}
}
