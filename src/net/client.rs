//! A client: joins a table, shows what the host sends, and answers its
//! seat's questions from a front end (a keyboard, or a CPU that reads the
//! seat's view only). At the end it has the game's replay, checked by
//! playing it back, so every machine keeps the same game.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::Lan;
use super::link::{ClientLink, FromHost};
use super::protocol::{
    Asked, Hello, PROTOCOL_VERSION, Role, SeatLine, TableInfo, ToClient, ToHost, WhichAnswer,
    decode, encode,
};
use crate::ai::Strength;
use crate::cards::{CardNumber, CardSet};
use crate::replay::Replay;
use crate::rules::{Outcome, Reply, RulesetId, Seat};

/// How long a client waits for a table to answer.
pub const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How long a dropped player's client tries to get its seat back.
pub const KEEP_TRYING: Duration = Duration::from_secs(180);

/// How often a player rejoining a dropped table is told it still tries.
const REJOIN_NOTE_EVERY: Duration = Duration::from_secs(15);

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

impl JoinOptions {
    /// Joining the table at `addr` as `name`, in `role`, with the join
    /// code and the cards brought.
    pub fn new(
        addr: SocketAddr,
        name: &str,
        role: Role,
        code: &str,
        cards: Vec<CardNumber>,
    ) -> JoinOptions {
        JoinOptions {
            addr,
            name: name.to_string(),
            role,
            code: code.to_string(),
            cards,
            record: false,
            drop_once_after: None,
        }
    }
}

/// A client's front end: what it shows, and who answers its questions.
pub trait Seatside<R: Lan> {
    /// Why it cannot go on.
    type Error: std::fmt::Display;

    /// The table has the client (`seat`: `None` for a spectator).
    fn welcome(&mut self, _table: &str, _seat: Option<Seat>) {}
    /// The seats, as they fill or change.
    fn lobby(&mut self, _seats: &[SeatLine]) {}
    /// What happened, and the view after it (`step`: the table's count of
    /// changes after these events).
    fn update(&mut self, _step: u64, _events: &[R::Event], _view: &R::View) {}
    /// A question for the client's seat; `Ok(None)` when no answer came.
    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error>;
    /// A note to show: an answer the table refused, a dropped connection
    /// being mended.
    fn note(&mut self, _text: &str) {}
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
#[derive(Debug, Clone, thiserror::Error)]
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
    #[error("the table plays the {0}")]
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

/// What a [`Session`] tells its front end, one thing at a time.
#[derive(Debug, Clone)]
pub enum Happened<R: Lan> {
    /// The table has the client (`seat`: `None` for a spectator).
    Welcome {
        /// The table's name.
        table: String,
        /// The client's seat.
        seat: Option<Seat>,
    },
    /// The seats, as they fill or change.
    Lobby(Vec<SeatLine>),
    /// What happened; the view after it is [`Session::view`].
    Update {
        /// The table's count of changes after these events.
        step: u64,
        /// The events.
        events: Vec<R::Event>,
    },
    /// A question for the client's seat: answer with [`Session::answer`].
    Ask(Asked<R>),
    /// The host refused the last answer (the question comes again).
    Refusal(String),
    /// The connection dropped; the session is rejoining its seat.
    Rejoining(String),
    /// The game is over; its replay was played back here.
    Ended(Box<Ended<R>>),
    /// The session cannot go on.
    Failed(JoinError),
}

/// A client's connection to a table, driven a step at a time (a frame of
/// the arena, or [`join`]'s loop): it connects, says hello, reads what the
/// host sends and rejoins its seat after a drop by itself. A player whose
/// connection drops rejoins (with the token the host gave it) for as long
/// as the host keeps the seat (a minute, [`super::host::REJOIN_WINDOW`]),
/// and tries for [`KEEP_TRYING`] in all, long enough for a host that died
/// to be started again with `bterm host --resume` (which keeps the seats a
/// minute from then).
pub struct Session<R: Lan> {
    options: JoinOptions,
    hello: Hello,
    link: Option<ClientLink>,
    /// When the connection under way was started, until its handshake.
    connecting: Option<Instant>,
    /// When to connect again after a drop.
    retry_at: Option<Instant>,
    /// The first drop not yet mended, and why.
    lost: Option<(Instant, String)>,
    seat: Option<Seat>,
    token: Option<u64>,
    view: Option<R::View>,
    received: Vec<Vec<u8>>,
    messages: usize,
    dropped: bool,
    over: bool,
    /// Welcomed once: a connection refused before that (a table whose
    /// slots are full for a moment) is tried again for [`FIRST_TRYING`].
    welcomed: bool,
}

/// How long a client never welcomed yet tries again when the table's link
/// turns it away (its slots full for a moment).
pub const FIRST_TRYING: Duration = Duration::from_secs(30);

impl<R: Lan> Session<R> {
    /// Starts connecting to the table.
    pub fn start(options: &JoinOptions) -> Session<R> {
        Session {
            hello: Hello {
                version: PROTOCOL_VERSION,
                ruleset: R::ID,
                name: options.name.clone(),
                role: options.role,
                code: options.code.clone(),
                cards: options.cards.clone(),
                rejoin: None,
            },
            options: options.clone(),
            link: None,
            connecting: None,
            retry_at: Some(Instant::now()),
            lost: None,
            seat: None,
            token: None,
            view: None,
            received: Vec::new(),
            messages: 0,
            dropped: false,
            over: false,
            welcomed: false,
        }
    }

    /// The client's seat, once welcomed (`None`: watching, or not yet).
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The latest view.
    pub fn view(&self) -> Option<&R::View> {
        self.view.as_ref()
    }

    /// Answers the question numbered `asked`.
    pub fn answer(&self, asked: u64, reply: Reply<R::Action>) {
        if let Some(link) = &self.link {
            link.send(encode(&ToHost::<R>::Answer { asked, reply }));
        }
    }

    /// The next thing that happened, waiting at most `wait` for it (zero:
    /// a frame's look); `None` when nothing did.
    pub fn poll(&mut self, cards: &CardSet, wait: Duration) -> Option<Happened<R>> {
        if self.over {
            return None;
        }
        if self.retry_at.is_some_and(|t| Instant::now() >= t) {
            self.retry_at = None;
            match ClientLink::connect(self.options.addr) {
                Ok(link) => {
                    self.link = Some(link);
                    self.connecting = Some(Instant::now());
                }
                Err(e) => return self.dropped_link(JoinError::Socket(e.to_string())),
            }
        }
        let Some(link) = &self.link else {
            // Waiting to connect again.
            std::thread::sleep(wait.min(Duration::from_millis(50)));
            return None;
        };
        if let Some(since) = self.connecting
            && since.elapsed() >= CONNECT_WAIT
        {
            let addr = self.options.addr;
            return self.dropped_link(JoinError::NoAnswer(addr, CONNECT_WAIT.as_secs()));
        }
        let bytes = match link.recv(wait)? {
            FromHost::Connected => {
                self.connecting = None;
                link.send(encode(&ToHost::<R>::Hello(self.hello.clone())));
                return None;
            }
            FromHost::Closed(why) => return self.dropped_link(JoinError::Lost(why)),
            FromHost::Message(b) => b,
        };
        let message: ToClient<R> = match decode(&bytes) {
            Ok(m) => m,
            Err(e) => return self.fail(JoinError::Unreadable(e.to_string())),
        };
        if self.options.record {
            self.received.push(bytes);
        }
        self.messages += 1;
        if self.options.drop_once_after == Some(self.messages) && !self.dropped {
            self.dropped = true;
            return self.dropped_link(JoinError::Lost("dropped on purpose (a test)".to_string()));
        }
        match message {
            ToClient::Welcome {
                version,
                table,
                seat,
                rejoin,
            } => {
                if version != PROTOCOL_VERSION {
                    return self.fail(JoinError::Refused(format!(
                        "the table speaks protocol {version}, this bterm {PROTOCOL_VERSION}"
                    )));
                }
                self.seat = seat;
                self.welcomed = true;
                self.token = seat.map(|_| rejoin);
                self.hello.rejoin = self.token;
                // Back in its seat: a later drop gets its own time.
                self.lost = None;
                Some(Happened::Welcome { table, seat })
            }
            ToClient::Refused { game, .. } if game != R::ID => {
                self.fail(JoinError::OtherGame(game))
            }
            ToClient::Refused { why, .. } => self.fail(JoinError::Refused(why)),
            ToClient::Lobby(lines) => Some(Happened::Lobby(lines)),
            // Only the answer to a question this client did not ask.
            ToClient::Table(_) => None,
            ToClient::Update { step, events, view } => {
                if let Err(e) = R::check_view(&view) {
                    return self.fail(JoinError::Unreadable(format!(
                        "a view that does not hold together: {e}"
                    )));
                }
                self.view = Some(view);
                Some(Happened::Update { step, events })
            }
            ToClient::Ask(asked) => self.seat.map(|_| Happened::Ask(asked)),
            ToClient::Refusal(why) => Some(Happened::Refusal(why)),
            ToClient::Closed(why) => self.fail(JoinError::Closed(why)),
            ToClient::Over { outcome, replay } => {
                let played = Replay::<R>::parse(&replay, "the host's replay")
                    .map_err(|e| e.to_string())
                    .and_then(|r| {
                        r.play(cards, |_| {})
                            .map(|end| (r, end))
                            .map_err(|e| e.to_string())
                    });
                let (replay, end) = match played {
                    Ok(p) => p,
                    Err(e) => return self.fail(JoinError::Replay(e)),
                };
                // The replay must be the game this client saw: it ends
                // where the last view was, with the outcome announced.
                let seen = self.view.as_ref();
                if end.outcome() != Some(outcome)
                    || seen.is_some_and(|v| *v != end.seat_view(self.seat))
                {
                    return self.fail(JoinError::Replay(
                        "the host's replay is not the game played at this table".to_string(),
                    ));
                }
                if let Some(link) = &self.link {
                    link.send(encode(&ToHost::<R>::Bye));
                }
                // Let the goodbye go.
                std::thread::sleep(Duration::from_millis(50));
                self.over = true;
                self.link = None;
                Some(Happened::Ended(Box::new(Ended {
                    seat: self.seat,
                    outcome,
                    replay,
                    received: std::mem::take(&mut self.received),
                })))
            }
        }
    }

    fn fail(&mut self, e: JoinError) -> Option<Happened<R>> {
        self.over = true;
        self.link = None;
        Some(Happened::Failed(e))
    }

    /// The connection is gone: a seated player tries again (for
    /// [`KEEP_TRYING`] from the first drop); anyone else stops.
    fn dropped_link(&mut self, e: JoinError) -> Option<Happened<R>> {
        self.link = None;
        self.connecting = None;
        if self.token.is_none() && self.welcomed {
            return self.fail(e);
        }
        let why = e.to_string();
        let (since, first) = self
            .lost
            .get_or_insert_with(|| (Instant::now(), why.clone()))
            .clone();
        let trying = if self.welcomed {
            KEEP_TRYING
        } else {
            FIRST_TRYING
        };
        if since.elapsed() >= trying {
            return self.fail(JoinError::Lost(format!(
                "{first}; the table did not take this player within {} s",
                trying.as_secs()
            )));
        }
        self.retry_at = Some(Instant::now() + Duration::from_millis(500));
        Some(Happened::Rejoining(why))
    }
}

/// Asks the table at `addr` which game it plays, with how many seats and
/// which protocol ([`ToHost::Which`]): nobody joins, and the host closes
/// the connection after its answer. A host that speaks another protocol
/// is reported as such.
pub fn ask_game(addr: SocketAddr) -> Result<TableInfo, JoinError> {
    let link = ClientLink::connect(addr).map_err(|e| JoinError::Socket(e.to_string()))?;
    let end = Instant::now() + CONNECT_WAIT + Duration::from_secs(1);
    while Instant::now() < end {
        let Some(from) = link.recv(Duration::from_millis(50)) else {
            continue;
        };
        let bytes = match from {
            FromHost::Connected => {
                link.send(encode(&ToHost::<crate::rules::terminal::Match>::Which));
                continue;
            }
            FromHost::Closed(why) => return Err(JoinError::Lost(why)),
            FromHost::Message(b) => b,
        };
        return match decode::<WhichAnswer>(&bytes) {
            Ok(WhichAnswer::Table(info)) if info.version == PROTOCOL_VERSION => Ok(info),
            Ok(
                WhichAnswer::Table(TableInfo { version, .. })
                | WhichAnswer::Refused { version, .. },
            ) if version != PROTOCOL_VERSION => Err(JoinError::Refused(format!(
                "the table speaks bterm LAN protocol {version}, this bterm {PROTOCOL_VERSION}: use the same bterm version on both machines"
            ))),
            Ok(WhichAnswer::Refused { why, .. }) => Err(JoinError::Refused(why)),
            Ok(WhichAnswer::Table(info)) => Ok(info),
            Err(e) => Err(JoinError::Unreadable(e.to_string())),
        };
    }
    Err(JoinError::NoAnswer(addr, CONNECT_WAIT.as_secs()))
}

/// Joins a table and plays (or watches) to the end, through a front end
/// that may wait (a keyboard, a CPU); a [`Session`] underneath.
pub fn join<R: Lan, S: Seatside<R>>(
    options: &JoinOptions,
    cards: &CardSet,
    front: &mut S,
) -> Result<Ended<R>, JoinError> {
    let mut session = Session::<R>::start(options);
    // Since when the seat is being rejoined, and when the player was last
    // told: once at the drop, then every so often, never a line a retry.
    let mut rejoining: Option<(Instant, Instant)> = None;
    loop {
        let Some(happened) = session.poll(cards, Duration::from_millis(200)) else {
            continue;
        };
        if !matches!(happened, Happened::Rejoining(_)) {
            rejoining = None;
        }
        match happened {
            Happened::Welcome { table, seat } => front.welcome(&table, seat),
            Happened::Lobby(lines) => front.lobby(&lines),
            Happened::Update { step, events } => {
                if let Some(view) = session.view() {
                    front.update(step, &events, view);
                }
            }
            Happened::Ask(asked) => {
                let Some(seat) = session.seat() else { continue };
                let reply = front
                    .ask(seat, session.view(), &asked)
                    .map_err(|e| JoinError::Front(e.to_string()))?;
                if let Some(reply) = reply {
                    session.answer(asked.asked, reply);
                }
            }
            Happened::Refusal(why) => front.note(&format!("the table refused that: {why}")),
            Happened::Rejoining(why) => match rejoining {
                None => {
                    front.note(&format!(
                        "the connection dropped ({why}); rejoining your seat (trying for {} s)…",
                        KEEP_TRYING.as_secs()
                    ));
                    rejoining = Some((Instant::now(), Instant::now()));
                }
                Some((since, told)) if told.elapsed() >= REJOIN_NOTE_EVERY => {
                    front.note(&format!(
                        "still rejoining your seat: {} s of {}…",
                        since.elapsed().as_secs(),
                        KEEP_TRYING.as_secs()
                    ));
                    rejoining = Some((since, Instant::now()));
                }
                Some(_) => {}
            },
            Happened::Ended(ended) => return Ok(*ended),
            Happened::Failed(e) => return Err(e),
        }
    }
}

/// A CPU client: answers from its seat's view only, at a strength.
pub struct CpuSeat(pub Strength);

impl CpuSeat {
    /// Its answer to `asked`: its choice from the view, else the default,
    /// else the first answer.
    pub fn choose<R: Lan>(
        &self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Option<R::Action> {
        view.and_then(|v| R::choose_from_view(v, seat, self.0))
            .filter(|a| asked.answers.contains(a))
            .or(asked.on_timeout)
            .or_else(|| asked.answers.first().copied())
    }
}

impl<R: Lan> Seatside<R> for CpuSeat {
    type Error = std::convert::Infallible;

    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error> {
        Ok(self.choose(seat, view, asked).map(Reply::Act))
    }
}
