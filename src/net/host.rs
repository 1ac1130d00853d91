//! The host: fills a table's seats from the LAN, then runs the match with
//! the session's driver. A remote seat is asked through [`Front`], which
//! sends the question to that seat's client and waits for its answer until
//! the question's own time runs out (then the default plays, as at a
//! kiosk). Every client is sent the events and its own seat's view; a
//! spectator the public view. A malformed, oversized, out-of-turn or
//! illegal message is refused and logged, and changes nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

use super::Lan;
use super::link::{HostLink, Inbound};
use super::protocol::{
    Asked, Hello, MAX_NAME, PROTOCOL_VERSION, Role, SeatLine, TableInfo, ToClient, ToHost,
    WireError, decode_to_host, encode,
};
use crate::ai::Strength;
use crate::cards::{CardNumber, CardSet};
use crate::replay::Replay;
use crate::rules::{Question, Reply, RulesetId, Seat};
use crate::session::{People, Player, Table};

/// How long a host waits at the end for its clients to have the last
/// message (renet resends every 300 ms: this is many resends at a bad
/// link's loss).
pub const LINGER: Duration = Duration::from_secs(8);

/// How long a dropped player may take to come back to its seat; after
/// that the CPU plays it.
pub const REJOIN_WINDOW: Duration = Duration::from_secs(60);

/// How long a connected client may take to say who it is (bterm's own
/// client says it as soon as it is connected).
const HELLO_WAIT: Duration = Duration::from_secs(3);

/// The most spectators a table takes, and the most connections that have
/// not said who they are: the link takes 32 clients in all, so 16 are
/// always left for the players and their rejoins.
const MAX_SPECTATORS: usize = 8;
/// See [`MAX_SPECTATORS`].
const MAX_GREETING: usize = 8;

/// The strength of the CPU that takes over a seat whose player did not
/// come back.
const STAND_IN: Strength = Strength::Normal;

/// Where a host keeps its game so far (the data folder's `lan-table.ron`),
/// for `bterm host --resume`.
pub fn autosave_path() -> Option<PathBuf> {
    crate::save::data_dir().map(|d| d.join("lan-table.ron"))
}

/// A table to host.
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// The table's name (the lobby and the LAN listing show it).
    pub table: String,
    /// The join code a player must give to take a seat.
    pub code: String,
    /// Who plays each seat: `Remote` seats are filled from the LAN.
    pub players: Vec<Player>,
    /// Each seat's cards; a remote seat's come with its player.
    pub cards: Vec<Option<Vec<CardNumber>>>,
    /// The game's seed.
    pub seed: u64,
    /// Where to keep the game so far, so a host that dies can start again
    /// where it was ([`Host::resume`]).
    pub autosave: Option<PathBuf>,
    /// Stop as if the host died once the table has changed this many
    /// times (for tests of [`Host::resume`]).
    pub halt_after: Option<u64>,
    /// How long a dropped player's seat waits for it ([`REJOIN_WINDOW`]).
    pub rejoin_window: Duration,
    /// Seconds a remote player has for every question (`None`: the
    /// question's own, the cabinet's).
    pub seconds: Option<f32>,
    /// The table's format (`--format`), for the rulesets that have them.
    pub format: Option<String>,
    /// Set by the host's front end to close the table: the seats' wait
    /// ends and the clients are told the table closed (the arena's host
    /// leaving its lobby or its game).
    pub stop: Option<Arc<AtomicBool>>,
}

impl HostOptions {
    /// A table of `players` with each seat's `cards` (a remote seat's come
    /// with its player): no autosave, the usual rejoin window, each
    /// question's own seconds.
    pub fn new(
        table: &str,
        code: &str,
        players: Vec<Player>,
        cards: Vec<Option<Vec<CardNumber>>>,
        seed: u64,
    ) -> HostOptions {
        HostOptions {
            table: table.to_string(),
            code: code.to_string(),
            players,
            cards,
            seed,
            autosave: None,
            halt_after: None,
            rejoin_window: REJOIN_WINDOW,
            seconds: None,
            format: None,
            stop: None,
        }
    }

    /// The setup of this table's game from the seats' cards.
    fn setup<R: crate::rules::Ruleset>(
        &self,
        seats: Vec<Vec<CardNumber>>,
    ) -> Result<R::Setup, String> {
        let mut setup = R::setup_for(seats, self.seed);
        if let Some(f) = &self.format {
            R::set_format(&mut setup, f)?;
        }
        Ok(setup)
    }
}

/// What a host keeps on disk while its game runs (`bterm host --resume`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Autosave {
    /// The protocol version of the host that wrote it.
    pub version: u32,
    /// The game.
    pub game: RulesetId,
    /// The table's name.
    pub table: String,
    /// Its join code.
    pub code: String,
    /// Its seed.
    pub seed: u64,
    /// Who plays each seat, in words (`human`, `easy`, `remote`…).
    pub players: Vec<String>,
    /// Each remote seat's player: name, rejoin token, cards.
    pub remotes: Vec<Option<SavedSeat>>,
    /// The UDP port the table listened on (`bterm host --resume` opens
    /// the same one; an autosave from before it was kept has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// The game so far, as a replay file holds it (RON).
    pub replay: String,
}

/// A remote seat's player, as an autosave keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedSeat {
    /// The player's name.
    pub name: String,
    /// The token it rejoins with.
    pub token: u64,
    /// Its team or deck.
    pub cards: Vec<CardNumber>,
}

impl Autosave {
    /// Reads an autosave file (a regular file of bounded size).
    pub fn load(path: &Path) -> Result<Autosave, String> {
        let shown = path.display().to_string();
        let text = crate::save::read_text(path, 16 << 20).map_err(|e| format!("{shown}: {e}"))?;
        crate::cards::read_ron(&text)
            .map_err(|e| format!("{shown}: not a bterm table autosave: {e}"))
    }
}

/// Why hosting stopped.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The table cannot be set as asked.
    #[error("{0}")]
    Setup(String),
    /// The host's own front end gave up (its keyboard closed, say).
    #[error("{0}")]
    Front(String),
}

/// A seat's remote player.
#[derive(Debug, Clone)]
struct Remote {
    name: String,
    client: Option<u64>,
    token: u64,
    cards: Vec<CardNumber>,
    /// When the connection dropped, while it is away.
    dropped: Option<Instant>,
    /// The CPU took over after the rejoin window.
    replaced: bool,
}

/// A question sent ahead to a seat that will be asked soon (both stances
/// at once, say), and an answer that came for it.
#[derive(Debug, Clone)]
struct Sent<A> {
    asked: u64,
    at: Instant,
    /// The question's answers and default: a question that changed is
    /// asked anew (a new number, its own time, no early answer).
    answers: Vec<A>,
    on_timeout: Option<A>,
    early: Option<Reply<A>>,
}

impl<A: PartialEq + Clone> Sent<A> {
    fn new(asked: u64, answers: &[A], on_timeout: Option<A>) -> Sent<A> {
        Sent {
            asked,
            at: Instant::now(),
            answers: answers.to_vec(),
            on_timeout,
            early: None,
        }
    }

    fn is(&self, answers: &[A], on_timeout: &Option<A>) -> bool {
        self.answers == answers && &self.on_timeout == on_timeout
    }
}

/// The host of a LAN table.
pub struct Host<R: Lan> {
    link: HostLink,
    options: HostOptions,
    /// Per seat: the remote player, once one sat down.
    remotes: Vec<Option<Remote>>,
    /// Connected clients: their seat (`None`: a spectator), or still to
    /// say hello (with when they connected).
    clients: HashMap<u64, Client>,
    /// Events not yet sent.
    pending: Vec<R::Event>,
    /// Per seat: the question sent to it and not yet answered.
    sent: Vec<Option<Sent<R::Action>>>,
    asked: u64,
    /// The table's changes when it was last autosaved.
    saved_at: Option<u64>,
    /// Wrong join codes given so far, and until when new players wait.
    guesses: Guesses,
    log: Box<dyn FnMut(&str) + Send>,
}

/// Wrong join codes at a table: after [`FREE_GUESSES`], every player who
/// gives a code waits, twice as long after each further wrong one (up to
/// [`LONGEST_WAIT`]), so the 10,000 four-digit codes take days to try, not
/// seconds; a player with the right code is only made to wait.
#[derive(Debug, Default)]
struct Guesses {
    wrong: u32,
    until: Option<Instant>,
}

/// Wrong join codes a table takes before players must wait.
pub const FREE_GUESSES: u32 = 5;
/// The longest wait after a wrong code.
pub const LONGEST_WAIT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Client {
    Greeting(Instant),
    Seated(Seat),
    Watching,
}

impl<R: Lan> Host<R> {
    /// A host on `link`; `log` takes one line per thing worth telling
    /// (a player sat down, a message refused).
    pub fn new(link: HostLink, options: HostOptions, log: Box<dyn FnMut(&str) + Send>) -> Host<R> {
        let n = options.players.len();
        Host {
            link,
            options,
            remotes: vec![None; n],
            clients: HashMap::new(),
            pending: Vec::new(),
            sent: vec![None; n],
            asked: 0,
            saved_at: None,
            guesses: Guesses::default(),
            log,
        }
    }

    /// The link's address.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.link.addr()
    }

    /// Waits until every remote seat has a player (or `deadline` passes:
    /// `None`), then starts the match.
    pub fn fill(
        &mut self,
        cards: &CardSet,
        deadline: Option<Instant>,
    ) -> Result<Option<Table<R>>, HostError> {
        let n = self.options.players.len();
        if !R::SEATS.contains(&n) || self.options.cards.len() != n {
            return Err(HostError::Setup(format!(
                "a table of this game has {} to {} seats; {n} were asked for",
                R::SEATS.start(),
                R::SEATS.end()
            )));
        }
        loop {
            // A seat whose player left the lobby is open again: the game
            // waits for its player to come back, or for another.
            let open = (0..n).any(|i| {
                self.options.players[i] == Player::Remote
                    && self.remotes[i].as_ref().is_none_or(|r| r.client.is_none())
            });
            if !open {
                break;
            }
            if self.stopped() {
                self.broadcast(&ToClient::<R>::Closed(
                    "the host closed the table before the game".to_string(),
                ));
                std::thread::sleep(Duration::from_millis(200));
                return Err(HostError::Front("the host closed the table".to_string()));
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(None);
            }
            if let Some(m) = self.link.recv(Duration::from_millis(50)) {
                self.inbound(m, None, cards);
            }
            self.expire_greetings();
        }
        let seats: Vec<Vec<CardNumber>> = (0..n)
            .map(|i| match &self.remotes[i] {
                Some(r) => r.cards.clone(),
                None => self.options.cards[i].clone().unwrap_or_default(),
            })
            .collect();
        let setup = self
            .options
            .setup::<R>(seats)
            .map_err(|e| HostError::Setup(format!("the table cannot start: {e}")))?;
        let table = Table::new(setup, cards, self.options.players.clone())
            .map_err(|e| HostError::Setup(format!("the table cannot start: {e}")))?;
        self.lobby();
        Ok(Some(table))
    }

    /// A host for a game an autosave kept: the table as it was (every
    /// action applied again, the state hash checked), the remote seats
    /// waiting for their players to rejoin.
    pub fn resume(
        link: HostLink,
        save: &Autosave,
        autosave: Option<PathBuf>,
        cards: &CardSet,
        log: Box<dyn FnMut(&str) + Send>,
    ) -> Result<(Host<R>, Table<R>), HostError> {
        if save.version != PROTOCOL_VERSION {
            return Err(HostError::Setup(format!(
                "the autosave was written by a bterm speaking LAN protocol {}; this one speaks {PROTOCOL_VERSION}",
                save.version
            )));
        }
        if save.game != R::ID {
            return Err(HostError::Setup(format!(
                "the autosave is of a {:?} table, not {:?}",
                save.game,
                R::ID
            )));
        }
        let players: Vec<Player> = save
            .players
            .iter()
            .map(|p| p.parse::<Player>())
            .collect::<Result<_, _>>()
            .map_err(|e| HostError::Setup(format!("the autosave's seats: {e}")))?;
        let replay = Replay::<R>::parse(&save.replay, "the autosave's game")
            .map_err(|e| HostError::Setup(e.to_string()))?;
        let mut table: Table<R> = Table::new(replay.setup.clone(), cards, players.clone())
            .map_err(|e| HostError::Setup(format!("the autosave's game cannot start: {e}")))?;
        for (i, &(seat, action)) in replay.actions.iter().enumerate() {
            table.apply(seat, action).map_err(|e| {
                HostError::Setup(format!("the autosave's action {} is refused: {e}", i + 1))
            })?;
        }
        if table.game().state_hash() != replay.final_hash {
            return Err(HostError::Setup(
                "the autosave's game does not play back to where it was (other card data or rules)"
                    .to_string(),
            ));
        }
        let n = players.len();
        let mut cards_of: Vec<Option<Vec<CardNumber>>> =
            R::seat_cards(table.setup()).into_iter().map(Some).collect();
        cards_of.resize(n, None);
        let options = HostOptions {
            autosave,
            ..HostOptions::new(&save.table, &save.code, players, cards_of, save.seed)
        };
        let mut host = Host::new(link, options, log);
        for (i, saved) in save.remotes.iter().enumerate().take(n) {
            host.remotes[i] = saved.as_ref().map(|s| Remote {
                name: s.name.clone(),
                client: None,
                token: s.token,
                cards: s.cards.clone(),
                dropped: Some(Instant::now()),
                replaced: false,
            });
        }
        Ok((host, table))
    }

    /// Whether the host's front end has closed the table.
    fn stopped(&self) -> bool {
        self.options
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Gives every remote player `seconds` per question (`None`: each
    /// question's own), as [`HostOptions::seconds`] does.
    pub fn set_seconds(&mut self, seconds: Option<f32>) {
        self.options.seconds = seconds;
    }

    /// Seconds a remote seat has for question `q`.
    fn seconds(&self, q: &Question<R::Ask, R::Action>) -> f32 {
        self.options.seconds.unwrap_or(q.seconds)
    }

    /// Keeps the game so far in the autosave file, if there is one.
    fn autosave(&mut self, table: &Table<R>) {
        let Some(path) = self.options.autosave.clone() else {
            return;
        };
        if self.saved_at == Some(table.changes()) {
            return;
        }
        self.saved_at = Some(table.changes());
        let save = Autosave {
            version: PROTOCOL_VERSION,
            port: Some(self.link.addr().port()),
            game: R::ID,
            table: self.options.table.clone(),
            code: self.options.code.clone(),
            seed: self.options.seed,
            players: self
                .options
                .players
                .iter()
                .map(ToString::to_string)
                .collect(),
            remotes: self
                .remotes
                .iter()
                .map(|r| {
                    r.as_ref().map(|r| SavedSeat {
                        name: r.name.clone(),
                        token: r.token,
                        cards: r.cards.clone(),
                    })
                })
                .collect(),
            replay: crate::cards::write_ron(&Replay::of(table)).unwrap_or_default(),
        };
        let written = crate::cards::write_ron(&save)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                }
                crate::save::write_atomic_private(&path, text.as_bytes()).map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            let line = format!("the autosave {} cannot be written: {e}", path.display());
            self.say(&line);
            self.options.autosave = None;
        }
    }

    /// Plays the match to its end: remote seats through the LAN, the
    /// others through `local` (the host's keyboard) and the CPU. Every
    /// client is sent the replay at the end.
    pub fn play<P: People<R>>(
        &mut self,
        table: &mut Table<R>,
        cards: &CardSet,
        local: &mut P,
    ) -> Result<(), HostError>
    where
        P::Error: std::fmt::Display,
    {
        // (The driver shows the opening events first.)
        self.pending.clear();
        let mut front = Front {
            host: self,
            local,
            cards,
        };
        let played = crate::session::drive(table, cards, &mut front);
        let Front { host, .. } = front;
        if let Err(Stop::Halted) = played {
            // A test's stand-in for a crash: no goodbye, nothing more sent.
            return Err(HostError::Front(
                "the host stopped (halt_after)".to_string(),
            ));
        }
        host.flush(table);
        match table.game().outcome() {
            Some(outcome) => {
                let replay = crate::cards::write_ron(&Replay::of(table)).unwrap_or_default();
                host.broadcast(&ToClient::<R>::Over { outcome, replay });
                // Over: nothing to resume.
                if let Some(path) = &host.options.autosave {
                    let _ = std::fs::remove_file(path);
                }
            }
            // A table its host closed is not to be resumed.
            None if matches!(played, Err(Stop::Left)) => {
                host.broadcast(&ToClient::<R>::Closed(
                    "the host left the table".to_string(),
                ));
                if let Some(path) = &host.options.autosave {
                    let _ = std::fs::remove_file(path);
                }
            }
            None => host.broadcast(&ToClient::<R>::Closed(match &played {
                Err(Stop::Local(e)) => format!("the host stopped the game: {e}"),
                _ => "the game stopped before its end".to_string(),
            })),
        }
        // The last message must arrive: the link stays until every client
        // at the table has said goodbye (or left), for at most LINGER,
        // many times the link's resend time.
        host.linger();
        played.map_err(|e| match e {
            Stop::Local(e) => HostError::Front(e.to_string()),
            Stop::Halted => HostError::Front("the host stopped (halt_after)".to_string()),
            Stop::Left => HostError::Front("the host left the table".to_string()),
        })
    }

    fn say(&mut self, line: &str) {
        (self.log)(line);
    }

    /// Waits for every seated or watching client's goodbye (or its
    /// leaving), for at most [`LINGER`].
    fn linger(&mut self) {
        let deadline = Instant::now() + LINGER;
        let waiting = |h: &Self| {
            h.clients
                .values()
                .any(|c| matches!(c, Client::Seated(_) | Client::Watching))
        };
        while waiting(self) && Instant::now() < deadline {
            match self.link.recv(Duration::from_millis(50)) {
                Some(Inbound::Left(id, _)) => {
                    self.clients.remove(&id);
                }
                Some(Inbound::Message(id, bytes)) => {
                    if matches!(decode_to_host::<R>(&bytes), Ok(ToHost::Bye)) {
                        self.clients.remove(&id);
                        self.link.drop_client(id);
                    }
                }
                _ => {}
            }
        }
        // Let the last goodbyes' acknowledgements go.
        std::thread::sleep(Duration::from_millis(100));
    }

    fn send(&self, client: u64, message: &ToClient<R>) {
        self.link.send(client, encode(message));
    }

    fn broadcast(&self, message: &ToClient<R>) {
        let bytes = encode(message);
        for (&id, c) in &self.clients {
            if !matches!(c, Client::Greeting(_)) {
                self.link.send(id, bytes.clone());
            }
        }
    }

    fn refuse(&mut self, client: u64, why: &str) {
        self.send(
            client,
            &ToClient::Refused {
                version: PROTOCOL_VERSION,
                game: R::ID,
                why: why.to_string(),
            },
        );
        self.link.drop_client(client);
        self.clients.remove(&client);
        let line = format!("refused a client: {why}");
        self.say(&line);
    }

    /// Tells a client that asked, before joining, what the table plays,
    /// and closes its connection.
    fn which(&mut self, client: u64) {
        let lines = self.seat_lines();
        self.send(
            client,
            &ToClient::Table(TableInfo {
                version: PROTOCOL_VERSION,
                ruleset: R::ID,
                seats: lines.len(),
                open: lines.iter().filter(|l| !l.ready).count(),
                name: self.options.table.clone(),
            }),
        );
        self.link.drop_client(client);
        self.clients.remove(&client);
        self.say(&format!("told client {client:x} what the table plays"));
    }

    /// The seats, as the lobby shows them.
    fn seat_lines(&self) -> Vec<SeatLine> {
        Seat::all(self.options.players.len())
            .map(|s| {
                let i = s.index();
                let (who, ready, reconnecting) = match (self.options.players[i], &self.remotes[i]) {
                    (Player::Remote, Some(r)) if r.replaced => {
                        (format!("{} (CPU stands in)", r.name), true, false)
                    }
                    (Player::Remote, Some(r)) => (r.name.clone(), true, r.dropped.is_some()),
                    (Player::Remote, None) => ("open".to_string(), false, false),
                    (p, _) => (format!("host · {}", p.label()), true, false),
                };
                SeatLine {
                    seat: s,
                    who,
                    ready,
                    reconnecting,
                }
            })
            .collect()
    }

    fn lobby(&self) {
        self.broadcast(&ToClient::Lobby(self.seat_lines()));
    }

    /// Drops clients that connected but never said who they are.
    fn expire_greetings(&mut self) {
        let late: Vec<u64> = self
            .clients
            .iter()
            .filter(|(_, c)| matches!(c, Client::Greeting(t) if t.elapsed() > HELLO_WAIT))
            .map(|(&id, _)| id)
            .collect();
        for id in late {
            self.refuse(id, &format!("no hello within {} s", HELLO_WAIT.as_secs()));
        }
    }

    /// Sends every client the events so far and its view after them.
    fn flush(&mut self, table: &Table<R>) {
        let events = std::mem::take(&mut self.pending);
        let mut spectators = None;
        for (&id, c) in &self.clients {
            let seat = match *c {
                Client::Greeting(_) => continue,
                Client::Seated(s) => Some(s),
                Client::Watching => None,
            };
            let message = ToClient::<R>::Update {
                step: table.changes(),
                events: events.clone(),
                view: table.game().seat_view(seat),
            };
            let bytes = match seat {
                Some(_) => encode(&message),
                None => spectators.get_or_insert_with(|| encode(&message)).clone(),
            };
            self.link.send(id, bytes);
        }
    }

    /// Handles one thing from the link. `table` is the match once it runs
    /// (a rejoining player is sent its view and its question again).
    /// Returns an answer that came for `waiting` (seat, question number).
    fn inbound(
        &mut self,
        m: Inbound,
        table: Option<&Table<R>>,
        cards: &CardSet,
    ) -> Option<(Seat, u64, Reply<R::Action>)> {
        match m {
            Inbound::Joined(id) => {
                let greeting = self
                    .clients
                    .values()
                    .filter(|c| matches!(c, Client::Greeting(_)))
                    .count();
                if greeting >= MAX_GREETING {
                    // Silent connections never fill the seats' slots.
                    self.link.drop_client(id);
                    return None;
                }
                self.clients.insert(id, Client::Greeting(Instant::now()));
                None
            }
            Inbound::Left(id, why) => {
                self.gone(id, &why);
                None
            }
            Inbound::Message(id, bytes) => {
                let &client = self.clients.get(&id)?;
                match decode_to_host::<R>(&bytes) {
                    Err(e @ WireError::Version(_)) => {
                        self.refuse(id, &e.to_string());
                        None
                    }
                    Err(e) => {
                        let line = format!("a message from client {id:x} is refused: {e}");
                        self.say(&line);
                        if let Client::Greeting(_) = client {
                            self.refuse(id, "the first message must be a hello");
                        }
                        None
                    }
                    Ok(ToHost::Hello(h)) => {
                        if let Client::Greeting(_) = client {
                            self.hello(id, h, table, cards);
                        } else {
                            self.say(&format!("a second hello from client {id:x} is ignored"));
                        }
                        None
                    }
                    Ok(ToHost::Answer { asked, reply }) => match client {
                        Client::Seated(seat) => Some((seat, asked, reply)),
                        _ => {
                            self.say(&format!(
                                "an answer from client {id:x}, who has no seat, is refused"
                            ));
                            None
                        }
                    },
                    Ok(ToHost::Which) => {
                        if let Client::Greeting(_) = client {
                            self.which(id);
                        } else {
                            self.say(&format!(
                                "client {id:x}, at the table, asked its game again"
                            ));
                        }
                        None
                    }
                    Ok(ToHost::Bye) => {
                        self.link.drop_client(id);
                        self.gone(id, "it left");
                        None
                    }
                }
            }
        }
    }

    fn gone(&mut self, id: u64, why: &str) {
        let Some(c) = self.clients.remove(&id) else {
            return;
        };
        let window = self.options.rejoin_window;
        if let Client::Seated(seat) = c
            && let Some(Some(r)) = self.remotes.get_mut(seat.index())
            && r.client == Some(id)
        {
            r.client = None;
            r.dropped = Some(Instant::now());
            let line = format!(
                "{seat} ({}) dropped ({}); it may rejoin within {} s",
                r.name,
                why,
                window.as_secs()
            );
            self.say(&line);
            self.lobby();
        }
    }

    fn hello(&mut self, id: u64, h: Hello, table: Option<&Table<R>>, cards: &CardSet) {
        if h.ruleset != R::ID {
            return self.refuse(
                id,
                &format!(
                    "this table plays {:?}; the client asked for {:?}",
                    R::ID,
                    h.ruleset
                ),
            );
        }
        let name: String = h
            .name
            .chars()
            .filter(|c| !super::protocol::is_unsafe_char(*c))
            .take(MAX_NAME)
            .collect();
        let name = if name.trim().is_empty() {
            "player".to_string()
        } else {
            name
        };
        if h.role == Role::Spectator {
            let watching = self
                .clients
                .values()
                .filter(|c| **c == Client::Watching)
                .count();
            if watching >= MAX_SPECTATORS {
                return self.refuse(
                    id,
                    &format!("the table has {MAX_SPECTATORS} spectators already"),
                );
            }
            self.clients.insert(id, Client::Watching);
            self.send(
                id,
                &ToClient::Welcome {
                    version: PROTOCOL_VERSION,
                    table: self.options.table.clone(),
                    seat: None,
                    rejoin: 0,
                },
            );
            self.say(&format!("{name} watches"));
            self.send(id, &ToClient::Lobby(self.seat_lines()));
            if let Some(t) = table {
                self.catch_up(id, t, None);
            }
            return;
        }
        // A player coming back to its seat (with its token) never waits.
        if let Some(until) = self.guesses.until
            && h.rejoin.is_none()
            && Instant::now() < until
        {
            let wait = until.saturating_duration_since(Instant::now()).as_secs() + 1;
            return self.refuse(
                id,
                &format!(
                    "too many wrong join codes were given at this table: try again in {wait} s"
                ),
            );
        }
        if h.code != self.options.code {
            let g = &mut self.guesses;
            g.wrong = g.wrong.saturating_add(1);
            if g.wrong >= FREE_GUESSES {
                let wait =
                    Duration::from_secs(1 << (g.wrong - FREE_GUESSES).min(6)).min(LONGEST_WAIT);
                g.until = Some(Instant::now() + wait);
                let wrong = g.wrong;
                self.say(&format!(
                    "someone may be guessing the join code: {wrong} wrong codes so far; players who give a code now wait {} s",
                    wait.as_secs()
                ));
            }
            return self.refuse(
                id,
                "wrong join code: ask the host for the code on its screen (or join with --spectate to watch)",
            );
        }
        // Back to a seat after a drop.
        if let Some(token) = h.rejoin {
            let back = self
                .remotes
                .iter()
                .position(|r| r.as_ref().is_some_and(|r| r.token == token && !r.replaced));
            let Some(i) = back else {
                return self.refuse(
                    id,
                    "no seat waits for this player (the rejoin window has passed, or the seat is taken)",
                );
            };
            let seat = Seat::new(i).unwrap_or(Seat::P1);
            // The token is the seat's: an old connection the host still
            // holds (it has not timed out yet) is let go.
            let old = self.remotes[i].as_mut().and_then(|r| {
                r.dropped = None;
                r.client.replace(id)
            });
            if let Some(old) = old.filter(|&o| o != id) {
                self.clients.remove(&old);
                self.link.drop_client(old);
            }
            self.clients.insert(id, Client::Seated(seat));
            self.welcome(id, seat, token);
            self.say(&format!("{seat} ({name}) is back"));
            self.lobby();
            if let Some(t) = table {
                self.catch_up(id, t, Some(seat));
                // Its question again, under the same number.
                if let Some(sent) = &self.sent[i]
                    && let Some(q) = t.question(seat, cards)
                {
                    self.send(
                        id,
                        &ToClient::Ask(
                            Asked::of(sent.asked, &q, self.seconds(&q), sent.at)
                                .refusing(t.game().refusals(seat, cards)),
                        ),
                    );
                }
            }
            return;
        }
        if table.is_some() {
            return self.refuse(id, "the game has started: join with --spectate to watch");
        }
        let remote = |i: usize| self.options.players[i] == Player::Remote;
        let n = self.options.players.len();
        // A free seat, else one whose player left before the start.
        let free = (0..n)
            .find(|&i| remote(i) && self.remotes[i].is_none())
            .or_else(|| {
                (0..n).find(|&i| {
                    remote(i) && self.remotes[i].as_ref().is_some_and(|r| r.client.is_none())
                })
            });
        let Some(i) = free else {
            return self.refuse(id, "every seat is taken: join with --spectate to watch");
        };
        if let Some(gone) = self.remotes[i].as_ref().map(|r| r.name.clone()) {
            self.say(&format!("{gone} left the lobby; its seat goes to {name}"));
        }
        if let Err(why) = self.check_cards(i, &h.cards, cards) {
            return self.refuse(id, &why);
        }
        let seat = Seat::new(i).unwrap_or(Seat::P1);
        let token = super::random_u64();
        self.remotes[i] = Some(Remote {
            name: name.clone(),
            client: Some(id),
            token,
            cards: h.cards,
            dropped: None,
            replaced: false,
        });
        self.clients.insert(id, Client::Seated(seat));
        self.welcome(id, seat, token);
        self.say(&format!("{name} takes {seat}"));
        self.lobby();
    }

    /// Sends a client that comes in mid-game the table as it is now.
    fn catch_up(&self, id: u64, table: &Table<R>, seat: Option<Seat>) {
        self.send(
            id,
            &ToClient::Update {
                step: table.changes(),
                events: Vec::new(),
                view: table.game().seat_view(seat),
            },
        );
    }

    fn welcome(&self, id: u64, seat: Seat, token: u64) {
        self.send(
            id,
            &ToClient::Welcome {
                version: PROTOCOL_VERSION,
                table: self.options.table.clone(),
                seat: Some(seat),
                rejoin: token,
            },
        );
    }

    /// Whether `cards` may play seat `i`: the rules check a setup where
    /// every open seat brings the same cards.
    fn check_cards(&self, i: usize, brought: &[CardNumber], cards: &CardSet) -> Result<(), String> {
        if brought.is_empty() {
            return Err(format!("bring a {} to take a seat", R::BRINGS));
        }
        let seats: Vec<Vec<CardNumber>> = (0..self.options.players.len())
            .map(|k| match (&self.options.cards[k], &self.remotes[k]) {
                _ if k == i => brought.to_vec(),
                (_, Some(r)) => r.cards.clone(),
                (Some(c), None) => c.clone(),
                (None, None) => brought.to_vec(),
            })
            .collect();
        let setup = self.options.setup::<R>(seats)?;
        R::from_setup(&setup, cards)
            .map(|_| ())
            .map_err(|e| format!("the {} is refused: {e}", R::BRINGS))
    }

    /// Asks a remote seat and waits for its answer, its time, or (after
    /// the rejoin window) the CPU standing in.
    fn ask_remote(
        &mut self,
        table: &Table<R>,
        seat: Seat,
        q: &Question<R::Ask, R::Action>,
        cards: &CardSet,
    ) -> Option<Reply<R::Action>> {
        self.flush(table);
        let i = seat.index();
        let legal = |r: &Reply<R::Action>| match r {
            Reply::Act(a) => q.answers.contains(a),
            Reply::Pass => q.on_timeout.is_none(),
        };
        // Asked already (ahead, or before a refusal) the same question: its
        // answer may be here, and its time runs from then.
        let mut refused_early = false;
        let (sent, fresh) = match self.sent[i].take() {
            Some(mut s) if s.is(&q.answers, &q.on_timeout) => {
                match s.early.take() {
                    Some(r) if legal(&r) => return Some(r),
                    // An answer sent early that is no choice is refused
                    // like any other, and the question asked again.
                    Some(_) => refused_early = true,
                    None => {}
                }
                (s, false)
            }
            _ => {
                self.asked += 1;
                (Sent::new(self.asked, &q.answers, q.on_timeout), true)
            }
        };
        let asked = sent.asked;
        let since = sent.at;
        let deadline =
            since + Duration::try_from_secs_f32(self.seconds(q)).unwrap_or(Duration::ZERO);
        self.sent[i] = Some(sent);
        if refused_early {
            self.refused(seat, "that is not one of the choices now");
        }
        // A question sent ahead is not sent again (its answer may be on
        // its way); a rejoining client is sent it when it is back.
        if (fresh || refused_early)
            && let Some(id) = self.remotes[i].as_ref().and_then(|r| r.client)
        {
            self.send(
                id,
                &ToClient::Ask(
                    Asked::of(asked, q, self.seconds(q), since)
                        .refusing(table.game().refusals(seat, cards)),
                ),
            );
        }
        self.ask_ahead(table, seat, cards);
        loop {
            // The table closes: the default stands, and the driver stops
            // at its next question.
            if self.stopped() {
                self.sent[i] = None;
                return None;
            }
            if let Some(r) = self.stand_in(table, seat) {
                self.sent[i] = None;
                return Some(r);
            }
            let now = Instant::now();
            if now >= deadline {
                self.sent[i] = None;
                return None;
            }
            self.expire_greetings();
            let Some(m) = self
                .link
                .recv((deadline - now).min(Duration::from_millis(50)))
            else {
                continue;
            };
            let Some((from, number, reply)) = self.inbound(m, Some(table), cards) else {
                continue;
            };
            let k = from.index();
            match &mut self.sent[k] {
                Some(s) if s.asked == number && from == seat => {
                    if legal(&reply) {
                        self.sent[i] = None;
                        return Some(reply);
                    }
                    self.refused(from, "that is not one of the choices now");
                    // The question stands: asked again, under its number.
                    if let Some(id) = self.remotes[i].as_ref().and_then(|r| r.client) {
                        self.send(
                            id,
                            &ToClient::Ask(
                                Asked::of(asked, q, self.seconds(q), since)
                                    .refusing(table.game().refusals(seat, cards)),
                            ),
                        );
                    }
                }
                Some(s) if s.asked == number => {
                    // An answer to a question sent ahead: kept until the
                    // driver asks that seat.
                    s.early = Some(reply);
                }
                _ => self.refused(from, "that question is no longer asked"),
            }
        }
    }

    fn refused(&mut self, seat: Seat, why: &str) {
        if let Some(id) = self.remotes[seat.index()].as_ref().and_then(|r| r.client) {
            self.send(id, &ToClient::Refusal(why.to_string()));
        }
        self.say(&format!("an answer from {seat} is refused: {why}"));
    }

    /// Sends their questions to the other remote seats that have one now
    /// (both stances are asked at once), so they can answer while this
    /// seat thinks.
    fn ask_ahead(&mut self, table: &Table<R>, seat: Seat, cards: &CardSet) {
        for s in table.seats() {
            let k = s.index();
            if s == seat || table.player(s) != Some(Player::Remote) {
                continue;
            }
            let Some(q) = table.question(s, cards) else {
                // A question sent ahead that is no longer asked is dropped.
                self.sent[k] = None;
                continue;
            };
            if self.sent[k]
                .as_ref()
                .is_some_and(|x| x.is(&q.answers, &q.on_timeout))
            {
                continue;
            }
            self.asked += 1;
            self.sent[k] = Some(Sent::new(self.asked, &q.answers, q.on_timeout));
            if let Some(id) = self.remotes[k].as_ref().and_then(|r| r.client) {
                self.send(
                    id,
                    &ToClient::Ask(
                        Asked::of(self.asked, &q, self.seconds(&q), Instant::now())
                            .refusing(table.game().refusals(s, cards)),
                    ),
                );
            }
        }
    }

    /// The CPU's answer for a seat whose player has not come back within
    /// the rejoin window.
    fn stand_in(&mut self, table: &Table<R>, seat: Seat) -> Option<Reply<R::Action>> {
        let r = self.remotes.get_mut(seat.index())?.as_mut()?;
        let window = self.options.rejoin_window;
        let away = r.dropped.is_some_and(|t| t.elapsed() >= window);
        if away && !r.replaced {
            r.replaced = true;
            let line = format!(
                "{seat} ({}) did not come back within {} s: the CPU ({}) plays its seat",
                r.name,
                window.as_secs(),
                STAND_IN.name()
            );
            self.say(&line);
            self.lobby();
        }
        let r = self.remotes.get(seat.index())?.as_ref()?;
        if !r.replaced {
            return None;
        }
        table.game().choose(seat, STAND_IN).map(Reply::Act)
    }
}

/// The host's front end for the driver: remote seats through the LAN, the
/// host's own people through `local`.
struct Front<'a, R: Lan, P> {
    host: &'a mut Host<R>,
    local: &'a mut P,
    cards: &'a CardSet,
}

/// Why the host's front end stopped the driver.
enum Stop<E> {
    /// The host's own front end gave up.
    Local(E),
    /// `halt_after` was reached.
    Halted,
    /// The host's front end closed the table ([`HostOptions::stop`]).
    Left,
}

impl<R: Lan, P: People<R>> People<R> for Front<'_, R, P> {
    type Error = Stop<P::Error>;

    fn ask(
        &mut self,
        table: &Table<R>,
        seat: Seat,
        question: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, Stop<P::Error>> {
        if self
            .host
            .options
            .halt_after
            .is_some_and(|n| table.changes() >= n)
        {
            return Err(Stop::Halted);
        }
        if self.host.stopped() {
            return Err(Stop::Left);
        }
        self.host.autosave(table);
        if table.player(seat) == Some(Player::Remote) {
            return Ok(self.host.ask_remote(table, seat, question, self.cards));
        }
        self.host.flush(table);
        // The remote seats asked at the same time (a stance) answer while
        // the host's player thinks.
        self.host.ask_ahead(table, seat, self.cards);
        // One clock for every player at the table: the host's own player
        // has the seconds a remote player would.
        self.local.set_clock(Some(self.host.seconds(question)));
        self.local.ask(table, seat, question).map_err(Stop::Local)
    }

    fn show(&mut self, events: &[R::Event]) {
        self.host.pending.extend_from_slice(events);
        self.local.show(events);
    }
}
