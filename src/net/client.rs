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

/// How long a dropped player's client tries to get its seat back.
pub const KEEP_TRYING: Duration = Duration::from_secs(180);

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
    /// Drop the connection once, after this many messages, and rejoin as
    /// after a real drop (for tests).
    pub drop_once_after: Option<usize>,
}

/// A client's front end: what it shows, and who answers its questions.
pub trait Seatside<R: Lan> {
    /// Why it cannot go on.
    type Error: std::fmt::Display;

    /// The table has the client (`seat`: `None` for a spectator).
    fn welcome(&mut self, table: &str, seat: Option<Seat>);
    /// The seats, as they fill or change.
    fn lobby(&mut self, seats: &[SeatLine]);
    /// What happened, and the view after it (`step`: the table's count of
    /// changes after these events).
    fn update(&mut self, step: u64, events: &[R::Event], view: &R::View);
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
    /// The host closed the table before the game's end.
    #[error("the table closed before the game's end: {0}")]
    Closed(String),
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

/// Joins a table and plays (or watches) to the end. A player whose
/// connection drops rejoins its seat (with the token the host gave it) for
/// as long as the host keeps it (a minute, [`super::host::REJOIN_WINDOW`]),
/// and for [`KEEP_TRYING`] in all, long enough for a host that died to be
/// started again with `bterm host --resume` (which keeps the seats a
/// minute from then).
pub fn join<R: Lan, S: Seatside<R>>(
    options: &JoinOptions,
    cards: &CardSet,
    front: &mut S,
) -> Result<Ended<R>, JoinError> {
    let mut hello = Hello {
        version: PROTOCOL_VERSION,
        ruleset: R::ID,
        name: options.name.clone(),
        role: options.role,
        code: options.code.clone(),
        cards: options.cards.clone(),
        rejoin: None,
    };
    let mut state = Joined::<R> {
        seat: None,
        token: None,
        view: None,
        received: Vec::new(),
        messages: 0,
        dropped: false,
        welcomes: 0,
    };
    let mut lost: Option<(Instant, String)> = None;
    loop {
        let welcomes = state.welcomes;
        let result = connect(options.addr).and_then(|link| {
            link.send(encode(&ToHost::<R>::Hello(hello.clone())));
            state.session(&link, options, cards, front)
        });
        match result {
            Ok(ended) => return Ok(ended),
            // A seated player goes back to its seat while the host keeps it.
            Err(e @ (JoinError::Lost(_) | JoinError::NoAnswer(..) | JoinError::Socket(_)))
                if state.token.is_some() =>
            {
                let why = e.to_string();
                if state.welcomes > welcomes {
                    // It was back in its seat: a new drop, a new minute.
                    lost = None;
                }
                let (since, first) = lost.get_or_insert_with(|| (Instant::now(), why.clone()));
                if since.elapsed() >= KEEP_TRYING {
                    return Err(JoinError::Lost(format!(
                        "{first}; the table did not take this player back within {} s",
                        KEEP_TRYING.as_secs()
                    )));
                }
                front.note(&format!(
                    "the connection dropped ({why}); rejoining your seat…"
                ));
                hello.rejoin = state.token;
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Connects to a table and waits for the handshake.
fn connect(addr: SocketAddr) -> Result<ClientLink, JoinError> {
    let link = ClientLink::connect(addr).map_err(|e| JoinError::Socket(e.to_string()))?;
    let start = Instant::now();
    loop {
        let left = CONNECT_WAIT.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(JoinError::NoAnswer(addr, CONNECT_WAIT.as_secs()));
        }
        match link.recv(left) {
            Some(FromHost::Connected) => return Ok(link),
            Some(FromHost::Closed(why)) => return Err(JoinError::Lost(why)),
            Some(FromHost::Message(_)) | None => {}
        }
    }
}

/// What a client knows across connections.
struct Joined<R: Lan> {
    seat: Option<Seat>,
    token: Option<u64>,
    view: Option<R::View>,
    received: Vec<Vec<u8>>,
    messages: usize,
    dropped: bool,
    /// Welcomes received, on any connection.
    welcomes: usize,
}

impl<R: Lan> Joined<R> {
    /// Reads the host's messages on one connection until the game ends or
    /// the connection does.
    fn session<S: Seatside<R>>(
        &mut self,
        link: &ClientLink,
        options: &JoinOptions,
        cards: &CardSet,
        front: &mut S,
    ) -> Result<Ended<R>, JoinError> {
        loop {
            let bytes = match link.recv(Duration::from_secs(1)) {
                None | Some(FromHost::Connected) => continue,
                Some(FromHost::Closed(why)) => return Err(JoinError::Lost(why)),
                Some(FromHost::Message(b)) => b,
            };
            let message: ToClient<R> =
                decode(&bytes).map_err(|e| JoinError::Unreadable(e.to_string()))?;
            if options.record {
                self.received.push(bytes);
            }
            self.messages += 1;
            if options.drop_once_after == Some(self.messages) && !self.dropped {
                self.dropped = true;
                return Err(JoinError::Lost("dropped on purpose (a test)".to_string()));
            }
            match message {
                ToClient::Welcome {
                    version,
                    table,
                    seat,
                    rejoin,
                } => {
                    if version != PROTOCOL_VERSION {
                        return Err(JoinError::Refused(format!(
                            "the table speaks protocol {version}, this bterm {PROTOCOL_VERSION}"
                        )));
                    }
                    self.seat = seat;
                    self.token = seat.map(|_| rejoin);
                    self.welcomes += 1;
                    front.welcome(&table, seat);
                }
                ToClient::Refused { game, .. } if game != R::ID => {
                    return Err(JoinError::OtherGame(game));
                }
                ToClient::Refused { why, .. } => return Err(JoinError::Refused(why)),
                ToClient::Lobby(lines) => front.lobby(&lines),
                ToClient::Update { step, events, view } => {
                    front.update(step, &events, &view);
                    self.view = Some(view);
                }
                ToClient::Ask(asked) => {
                    let Some(s) = self.seat else { continue };
                    let reply = front
                        .ask(s, self.view.as_ref(), &asked)
                        .map_err(|e| JoinError::Front(e.to_string()))?;
                    if let Some(reply) = reply {
                        link.send(encode(&ToHost::<R>::Answer {
                            asked: asked.asked,
                            reply,
                        }));
                    }
                }
                ToClient::Refusal(why) => front.note(&why),
                ToClient::Closed(why) => return Err(JoinError::Closed(why)),
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
                        seat: self.seat,
                        outcome,
                        replay,
                        received: std::mem::take(&mut self.received),
                    });
                }
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
    fn update(&mut self, _: u64, events: &[R::Event], _: &R::View) {
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
