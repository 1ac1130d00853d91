//! LAN play in the arena: "Host a table" and "Join a table" from the choice
//! of game, a lobby with the seats, who is ready and the join code, then
//! the same battle (Terminal Battle) or table (Card Game Alpha) screens,
//! each machine showing its own seat's hand.
//!
//! The machine that hosts runs the table's [`Host`] on a thread and joins
//! it over loopback like every other machine, so every screen is driven
//! one way: by a client [`Session`]'s views, events and questions. The
//! session is polled once a frame ([`pump`]); a question for this machine's
//! seat waits in the duel's or the table's [`Remote`], and the answer the
//! buttons give goes back the same way.
//!
//! Three buttons do it all, as in the rest of the lobby: A and B move, C
//! changes the line it is on (on the join code: C starts the code, A / B
//! turn the digit, C goes to the next), C held goes back.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::ai::Strength;
use crate::arena::play::duel::{Duel, DuelStarted};
pub use crate::arena::play::remote::{Remote, replayed};
use crate::arena::play::table::{TableGame, Tabled};
use crate::arena::screens::lobby::{IDLE_SECONDS, LineTexts, LobbyInput, show_lines, spawn_panel};
use crate::arena::screens::scan::ScanReturn;
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::centred_column;
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{CardNumber, CardSet};
use crate::net::client::{Happened, JoinOptions, Session};
use crate::net::discover::{self, Announcement, Found};
use crate::net::host::{Host, HostOptions, REJOIN_WINDOW};
use crate::net::link::HostLink;
use crate::net::protocol::{Role, SeatLine};
use crate::net::{DEFAULT_PORT, Lan};
use crate::replay::Replay;
use crate::rules::{RulesetId, Seat, alpha, clash, dcg, terminal};
use crate::session::{Player, Watch};

/// How long the lobby waits with nothing changing (no press, no seat
/// taken) before it closes and goes back to attract.
const LOBBY_IDLE: f32 = 180.0;

/// How long a failed LAN game's message stays before attract.
const FAILED_SHOWN: f32 = 15.0;

/// How often the join screen listens for tables again, seconds.
const BROWSE_EVERY: f32 = 4.0;

/// The most things a session reports in one frame (the rest wait).
const POLLS_PER_FRAME: usize = 64;

/// The host's lines the lobby keeps.
const NOTES: usize = 4;

/// A client session of the table's game: a `Session<R>` of its ruleset
/// (the pump of that ruleset takes it; the others leave it).
type Link = Box<dyn std::any::Any + Send>;

/// A ruleset as the arena stages it at a LAN table: its presenter's game
/// on screen (which follows the host's views and sends this seat's
/// answers), and how this machine's player scans what it brings. Every
/// registered ruleset needs one (the pumps are made from the registry).
pub trait Staged: Lan {
    /// The presenter's game: the Terminal Battle's duel, the Alpha's table.
    type Game: Follows<Self> + Resource + Component<Mutability = bevy::ecs::component::Mutable>;
    /// The screen the game is on.
    const SCREEN: Screen;
    /// Whether the game's start is told with [`DuelStarted`].
    const ANNOUNCED: bool;
    /// Opens the scanner for what this machine's player brings.
    fn open_scanner(commands: &mut Commands, next: &mut NextState<Screen>);
    /// What came back from the scanner, as the cards brought, or why not.
    fn scanned(
        roster: Option<&crate::arena::screens::scan::Roster>,
        deck: &Result<Vec<CardNumber>, String>,
    ) -> Result<Vec<CardNumber>, String>;
}

/// Something to do with a staged ruleset chosen at run time.
trait StagedVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Staged>(self) -> Self::Output;
}

/// The rulesets the arena stages at a LAN table, each with its presenter
/// (a card game's is the table's, [`crate::arena::play::table::Tabled`]). Adding one
/// here needs its [`Staged`] impl.
macro_rules! staged {
    ($then:ident ! ($($pre:tt)*)) => {
        $then! {
            $($pre)*
            Terminal => crate::rules::terminal::Match,
            Alpha => crate::rules::alpha::Match,
            Dcg => crate::rules::dcg::Match,
            Clash => crate::rules::clash::Match,
        }
    };
}

/// Makes the staged rulesets' dispatch (`None`: a ruleset the arena does
/// not stage) and their list.
macro_rules! make_staged {
    ($($id:ident => $ty:ty),+ $(,)?) => {
        /// Calls the visitor with the type of the ruleset `id` names, when
        /// the arena stages it.
        #[allow(unreachable_patterns, reason = "the arena may stage every ruleset")]
        fn dispatch<V: StagedVisitor>(id: RulesetId, visitor: V) -> Option<V::Output> {
            match id {
                $(RulesetId::$id => Some(visitor.visit::<$ty>()),)+
                _ => None,
            }
        }

        /// The rulesets the arena stages, in the registry's order.
        pub const STAGED: &[RulesetId] = &[$(RulesetId::$id),+];
    };
}

staged!(make_staged!());

/// Why the arena cannot sit at a table of `game` (it does not stage it).
pub fn not_staged(game: RulesetId) -> String {
    format!(
        "the arena does not stage the {} yet: play it at a terminal (bterm {} …, bterm join)",
        game.name(),
        game.key()
    )
}

/// The next game the arena stages after `game` (a screen's "change the game").
pub fn next_staged(game: RulesetId) -> RulesetId {
    let at = STAGED.iter().position(|&g| g == game).unwrap_or(0);
    STAGED[(at + 1) % STAGED.len()]
}

/// One pump system per registered ruleset; only the one whose session
/// the table holds acts.
macro_rules! add_pumps {
    ($($(#[$doc:meta])* $id:ident => $ty:ty),+ $(,)?) => {
        fn add_pumps(app: &mut App) {
            $(
                app.add_systems(
                    Update,
                    pump::<$ty>
                        .after(take_notes)
                        .run_if(resource_exists::<LanTable>)
                        .in_set(AppSystems::RecordInput),
                );
            )+
        }
    };
}

staged!(add_pumps!());

/// The table's host, when this machine hosts: its thread, its lines, its
/// announcement on the LAN.
struct Hosting {
    stop: Arc<AtomicBool>,
    lines: Receiver<String>,
    /// Kept so the announcement lasts as long as the table.
    _announced: Option<Announcement>,
}

/// A LAN table this machine sits at (or watches), hosted here or not.
#[derive(Resource)]
pub struct LanTable {
    /// The game.
    pub game: RulesetId,
    /// The table's name.
    pub table: String,
    /// Where the other machines join (the host's), or the table joined.
    pub addr: SocketAddr,
    /// The join code, when this machine hosts.
    pub code: Option<String>,
    /// This machine's seat, once the host has it (`None`: watching, or not yet).
    pub seat: Option<Seat>,
    /// Whether the host has taken this machine in.
    pub welcomed: bool,
    /// The seats as the host last told them.
    pub seats: Vec<SeatLine>,
    /// The game has started on this machine's screens.
    pub started: bool,
    /// The game has ended here (its replay is in).
    pub ended: bool,
    /// Why the table cannot go on, and for how long that has been shown.
    pub problem: Option<(String, f32)>,
    /// The connection dropped and is being mended.
    pub mending: Option<String>,
    /// The host's latest lines (a player sat down, a message refused).
    pub notes: VecDeque<String>,
    /// Seconds with nothing changing in the lobby.
    pub idle: f32,
    /// The session (taken out while it is polled).
    link: Mutex<Option<Link>>,
    hosting: Option<Mutex<Hosting>>,
}

impl Drop for LanTable {
    fn drop(&mut self) {
        // A table hosted here closes with its host's screens.
        if let Some(h) = &self.hosting
            && let Ok(h) = h.lock()
        {
            h.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl LanTable {
    /// Whether this machine hosts the table.
    pub fn hosts(&self) -> bool {
        self.hosting.is_some()
    }

    fn note(&mut self, line: String) {
        self.notes.push_back(line);
        while self.notes.len() > NOTES {
            self.notes.pop_front();
        }
    }
}

/// A table given by address, and the game it said it plays (or why not).
type GameSaid = (SocketAddr, Result<RulesetId, String>);

/// What a listen for tables heard, or why it could not listen.
type Heard = Result<Vec<Found>, String>;

/// What the host and join screens are set to.
#[derive(Resource, Debug)]
pub struct LanForm {
    /// The line chosen.
    pub line: usize,
    /// The game a hosted table plays.
    pub game: RulesetId,
    /// Seats at a hosted table.
    pub seats: usize,
    /// A hosted table's format, by index into its game's formats.
    pub format: usize,
    /// Who plays seats P2 to P4 of a hosted table (the host plays P1).
    pub others: [Player; 3],
    /// The team or deck this machine's player brings.
    pub brings: Brings,
    /// Join as a spectator.
    pub watch: bool,
    /// The join code being entered.
    pub code: [u8; 4],
    /// The digit of the code being turned, while one is.
    pub digit: Option<usize>,
    /// The tables heard on the LAN, and the one chosen.
    pub found: Vec<Found>,
    /// Which of `found` is chosen.
    pub at: usize,
    /// Seconds until the LAN is listened to again.
    pub browse_in: f32,
    /// Whether the LAN has been listened to yet.
    pub browsed: bool,
    /// Seconds without a press.
    pub idle: f32,
    /// Why the last try did not work.
    pub problem: Option<String>,
    listening: Option<Mutex<Receiver<Heard>>>,
    /// Tables given by address (`bterm play --table`), their game asked.
    given: Vec<Found>,
    /// The asking's channel: the answers come as they come.
    asking: Option<Mutex<(Sender<GameSaid>, Receiver<GameSaid>)>>,
    /// Given tables that did not answer, and why (C on the table's line
    /// asks again).
    unreachable: Vec<(SocketAddr, String)>,
}

impl Default for LanForm {
    fn default() -> Self {
        LanForm {
            line: 0,
            game: RulesetId::ALL[0],
            seats: 2,
            format: 0,
            others: [Player::Remote; 3],
            brings: Brings::House(0),
            watch: false,
            code: [0; 4],
            digit: None,
            found: Vec::new(),
            at: 0,
            browse_in: 0.0,
            browsed: false,
            idle: 0.0,
            problem: None,
            listening: None,
            given: Vec::new(),
            asking: None,
            unreachable: Vec::new(),
        }
    }
}

/// A line of the host screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostLine {
    /// Which game.
    Game,
    /// How many seats (the card games).
    Seats,
    /// The format (a game with more than one, at more than 2 seats).
    Format,
    /// Who plays a seat other than the host's.
    Other(usize),
    /// The team or deck the host's player brings.
    Brings,
    /// Open the table.
    Open,
}

/// What C on a line does beyond changing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// Nothing more: the line changed.
    Stay,
    /// Open the table (or join it).
    Open,
    /// Open the scanner for a team or deck of this game.
    Scan(RulesetId),
}

/// A line of the join screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinLine {
    /// Which table.
    Table,
    /// Play or watch.
    Watch,
    /// The join code.
    Code,
    /// The team or deck brought.
    Brings,
    /// Join the table.
    Join,
}

/// Who may play a seat beside the host: a player on the LAN, or a CPU.
const OTHERS: [Player; 4] = [
    Player::Remote,
    Player::Cpu(Strength::Easy),
    Player::Cpu(Strength::Normal),
    Player::Cpu(Strength::Hard),
];

fn game_name(game: RulesetId) -> &'static str {
    game.name()
}

/// What this machine's player brings to a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Brings {
    /// A demo team or a shipped deck, by number.
    House(u64),
    /// One to scan: C on the line opens the scanner.
    Scan,
    /// Cards scanned here, for this game.
    Scanned(RulesetId, Vec<CardNumber>),
}

/// A demo team or a shipped deck, by number.
pub fn house(game: RulesetId, pick: u64, cards: &CardSet) -> Vec<CardNumber> {
    game.house_cards(Seat::P1, pick, cards)
}

/// The house decks (or demo teams) a player may bring to a table of
/// `game`: those of `format` (a table hosted here), or of every format (a
/// table joined: its format is the host's), each once, as (format, pick).
fn house_choices(
    game: RulesetId,
    format: Option<&str>,
    cards: &CardSet,
) -> Vec<(&'static str, u64)> {
    let facts = game.facts();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for word in facts
        .formats
        .iter()
        .filter(|w| format.is_none_or(|f| f == **w))
    {
        for pick in 0..facts.house_picks {
            let label = game.house_deck_label(word, pick, cards);
            if !seen.contains(&label) {
                seen.push(label);
                out.push((*word, pick));
            }
        }
    }
    out
}

/// The cards a player at this machine brings to a table of `game` (of
/// `format`, when hosted here), or what to do first.
pub fn brought(
    game: RulesetId,
    format: Option<&str>,
    brings: &Brings,
    cards: &CardSet,
) -> Result<Vec<CardNumber>, String> {
    match brings {
        Brings::House(k) => {
            let choices = house_choices(game, format, cards);
            let (word, pick) = choices
                .get(*k as usize)
                .or(choices.first())
                .copied()
                .unwrap_or(("standard", 0));
            Ok(game.house_deck(word, pick, cards))
        }
        Brings::Scanned(g, numbers) if *g == game => Ok(numbers.clone()),
        Brings::Scanned(..) | Brings::Scan => Err(format!(
            "scan your {} first: C on its line opens the scanner",
            what(game)
        )),
    }
}

/// What a player brings to a table of `game`, in a word.
fn what(game: RulesetId) -> &'static str {
    game.facts().brings
}

/// The cards brought, in words.
fn brought_text(game: RulesetId, format: Option<&str>, brings: &Brings, cards: &CardSet) -> String {
    match brings {
        Brings::House(k) => {
            let choices = house_choices(game, format, cards);
            let (word, pick) = choices
                .get(*k as usize)
                .or(choices.first())
                .copied()
                .unwrap_or(("standard", 0));
            game.house_deck_label(word, pick, cards)
        }
        Brings::Scanned(g, brought) if *g == game => game.brought_label(brought, cards),
        _ => format!("a {} you scan (C opens the scanner)", what(game)),
    }
}

/// The next thing to bring: the demo teams or shipped decks in turn, then
/// one to scan, then (from a scanned one) the first again. `None`: open
/// the scanner.
fn next_brings(
    game: RulesetId,
    format: Option<&str>,
    brings: &Brings,
    cards: &CardSet,
) -> Option<Brings> {
    let picks = house_choices(game, format, cards).len() as u64;
    match brings {
        Brings::House(k) if k + 1 < picks => Some(Brings::House(k + 1)),
        Brings::House(_) => Some(Brings::Scan),
        Brings::Scan => None,
        // Scanned for the other game: this one's is still to scan.
        Brings::Scanned(g, _) if *g != game => None,
        Brings::Scanned(..) => Some(Brings::House(0)),
    }
}

impl LanForm {
    /// A hosted table's format, as the rules name it: standard at 2 seats.
    pub fn format_word(&self) -> &'static str {
        let formats = self.game.facts().formats;
        let at = if self.seats > 2 { self.format } else { 0 };
        formats
            .get(at)
            .or(formats.first())
            .copied()
            .unwrap_or("standard")
    }

    /// The host screen's lines.
    pub fn host_lines(&self) -> Vec<HostLine> {
        let mut v = vec![HostLine::Game];
        let range = self.game.facts().seats;
        if range.start() != range.end() {
            v.push(HostLine::Seats);
        }
        let seats = self.seats.clamp(*range.start(), *range.end());
        if self.game.facts().formats.len() > 1 && seats > 2 {
            v.push(HostLine::Format);
        }
        v.extend((1..seats).map(HostLine::Other));
        v.extend([HostLine::Brings, HostLine::Open]);
        v
    }

    fn host_text(&self, line: HostLine, cards: &CardSet) -> String {
        match line {
            HostLine::Game => format!("Game: {}", game_name(self.game)),
            HostLine::Seats => format!("Seats: {}", self.seats),
            HostLine::Format => format!("Format: {}", self.format_word()),
            HostLine::Other(i) => format!(
                "P{} plays: {}",
                i + 1,
                match self.others[i - 1] {
                    Player::Remote => "a player on the LAN".to_string(),
                    p => p.label(),
                }
            ),
            HostLine::Brings => format!(
                "You play P1 with {}",
                brought_text(self.game, Some(self.format_word()), &self.brings, cards)
            ),
            HostLine::Open => "OPEN THE TABLE".to_string(),
        }
    }

    /// C on a host line: the next value, and what follows.
    pub fn change_host(&mut self, line: HostLine, cards: &CardSet) -> Then {
        match line {
            HostLine::Game => {
                self.game = next_staged(self.game);
                self.format = 0;
                self.brings = Brings::House(0);
            }
            HostLine::Format => {
                self.format = (self.format + 1) % self.game.facts().formats.len().max(1);
                self.brings = Brings::House(0);
            }
            HostLine::Seats => {
                let range = self.game.facts().seats;
                self.seats = if self.seats >= *range.end() {
                    *range.start()
                } else {
                    (self.seats + 1).max(*range.start())
                };
            }
            HostLine::Other(i) => {
                let p = &mut self.others[i - 1];
                let at = OTHERS.iter().position(|o| o == p).unwrap_or(0);
                *p = OTHERS[(at + 1) % OTHERS.len()];
            }
            HostLine::Brings => {
                match next_brings(self.game, Some(self.format_word()), &self.brings, cards) {
                    Some(b) => self.brings = b,
                    None => return Then::Scan(self.game),
                }
            }
            HostLine::Open => return Then::Open,
        }
        Then::Stay
    }

    /// The join screen's lines.
    pub fn join_lines(&self) -> Vec<JoinLine> {
        if self.watch {
            vec![JoinLine::Table, JoinLine::Watch, JoinLine::Join]
        } else {
            vec![
                JoinLine::Table,
                JoinLine::Watch,
                JoinLine::Code,
                JoinLine::Brings,
                JoinLine::Join,
            ]
        }
    }

    /// The table chosen on the join screen.
    pub fn chosen_table(&self) -> Option<&Found> {
        self.found.get(self.at)
    }

    /// The game of the table chosen.
    fn join_game(&self) -> Option<RulesetId> {
        RulesetId::from_key(&self.chosen_table()?.game)
    }

    fn join_text(&self, line: JoinLine, cards: &CardSet) -> String {
        match line {
            JoinLine::Table => match self.chosen_table() {
                Some(t) => format!(
                    "Table: {} · {}{} ({} of {})",
                    shown(&t.name, 40),
                    match (self.join_game(), self.unreachable_chosen()) {
                        (Some(g), _) => game_name(g),
                        (None, Some(_)) => "not answering (C asks again)",
                        (None, None) if t.game == "?" => "asking it which game…",
                        (None, None) => "a game this bterm does not know",
                    },
                    if t.seats == "?" {
                        String::new()
                    } else {
                        format!(" · {} seats", shown(&t.seats, 2))
                    },
                    self.at + 1,
                    self.found.len()
                ),
                None if self.browsed => "Table: none heard on this network yet (listening…)".into(),
                None => "Table: listening for tables on this network…".into(),
            },
            JoinLine::Watch => format!(
                "Join as: {}",
                if self.watch {
                    "a spectator (no code needed)"
                } else {
                    "a player"
                }
            ),
            JoinLine::Code => {
                let digits: Vec<String> = self
                    .code
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        if self.digit == Some(i) {
                            format!("[{d}]")
                        } else {
                            d.to_string()
                        }
                    })
                    .collect();
                let hint = if self.digit.is_some() {
                    "   A / B turn the digit · C next"
                } else {
                    "   (on the host's screen; C enters it)"
                };
                format!("Join code: {}{hint}", digits.join(" "))
            }
            JoinLine::Brings => match self.join_game() {
                Some(g) => format!("You bring {}", brought_text(g, None, &self.brings, cards)),
                None => "You bring: (choose a table first)".to_string(),
            },
            JoinLine::Join => "JOIN THE TABLE".to_string(),
        }
    }

    /// The join code as text.
    pub fn code_text(&self) -> String {
        self.code.iter().map(ToString::to_string).collect()
    }

    /// Starts listening for tables, unless it is already.
    fn listen(&mut self) {
        if self.listening.is_some() {
            return;
        }
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(discover::browse(Duration::from_millis(1500)));
        });
        self.listening = Some(Mutex::new(rx));
    }

    /// Lists the tables given by address and asks those whose game is not
    /// known (yet, or since they did not answer) which game they play.
    fn give(&mut self, tables: &[SocketAddr]) {
        for &addr in tables {
            if !self.given.iter().any(|g| g.addr == addr) {
                self.given.push(Found {
                    name: addr.to_string(),
                    addr,
                    game: "?".to_string(),
                    seats: "?".to_string(),
                    version: crate::net::protocol::PROTOCOL_VERSION.to_string(),
                });
                self.ask(addr);
            } else if self.unreachable.iter().any(|(a, _)| *a == addr) {
                self.ask(addr);
            }
        }
        self.merge_given();
    }

    /// Asks the table at `addr` its game, on a thread.
    fn ask(&mut self, addr: SocketAddr) {
        self.unreachable.retain(|(a, _)| *a != addr);
        let asking = self.asking.get_or_insert_with(|| Mutex::new(channel()));
        let Ok(pair) = asking.get_mut() else { return };
        let tx = pair.0.clone();
        std::thread::spawn(move || {
            let game = crate::net::client::ask_game(addr)
                .map(|t| t.ruleset)
                .map_err(|e| e.to_string());
            let _ = tx.send((addr, game));
        });
    }

    /// Why the table chosen did not say its game, if it did not.
    fn unreachable_chosen(&self) -> Option<&str> {
        let addr = self.chosen_table()?.addr;
        self.unreachable
            .iter()
            .find(|(a, _)| *a == addr)
            .map(|(_, why)| why.as_str())
    }

    /// Takes in the games the given tables said they play.
    fn answered(&mut self) {
        let got: Vec<_> = self
            .asking
            .as_ref()
            .and_then(|a| a.lock().ok().map(|a| a.1.try_iter().collect()))
            .unwrap_or_default();
        for (addr, game) in got {
            match game {
                Ok(g) => {
                    for t in self.given.iter_mut().chain(self.found.iter_mut()) {
                        if t.addr == addr {
                            t.game = format!("{g:?}");
                        }
                    }
                }
                Err(e) => self.unreachable.push((addr, shown(&e, 160))),
            }
        }
    }

    /// The tables given by address, listed after those heard.
    fn merge_given(&mut self) {
        for g in &self.given {
            match self.found.iter_mut().find(|f| f.addr == g.addr) {
                // Heard too: what it said of its game is kept.
                Some(f) if f.game == "?" => f.game.clone_from(&g.game),
                Some(_) => {}
                None => self.found.push(g.clone()),
            }
        }
    }

    /// Takes in the tables heard, when the listening is done.
    fn heard(&mut self) {
        let got = self
            .listening
            .as_ref()
            .and_then(|rx| rx.lock().ok().and_then(|rx| rx.try_recv().ok()));
        let Some(got) = got else { return };
        self.listening = None;
        self.browsed = true;
        self.browse_in = BROWSE_EVERY;
        match got {
            Ok(found) => {
                let chosen = self.chosen_table().map(|t| t.addr);
                self.found = found;
                self.merge_given();
                self.at = chosen
                    .and_then(|a| self.found.iter().position(|t| t.addr == a))
                    .unwrap_or(0);
            }
            Err(e) => self.problem = Some(format!("cannot listen for tables: {e}")),
        }
    }
}

/// Text from another machine, as a screen shows it: no control
/// characters, at most `most` characters.
fn shown(text: &str, most: usize) -> String {
    let clean = text
        .chars()
        .filter(|c| !crate::net::protocol::is_unsafe_char(*c));
    let mut s: String = clean.clone().take(most).collect();
    if clean.count() > most {
        s.push('…');
    }
    s
}

/// This machine's name, for its table and its player (the host name).
fn machine_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(16)
        .collect();
    if name.is_empty() {
        "bterm".to_string()
    } else {
        name
    }
}

/// The address other machines on the LAN reach this one at (the
/// interface a route to a private address goes out of; no packet is sent).
fn lan_address() -> IpAddr {
    UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            s.connect((Ipv4Addr::new(10, 254, 254, 254), 1))?;
            s.local_addr()
        })
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| a.ip())
}

/// Opens a table hosted here: its host on a thread, announced on the LAN,
/// and this machine's session joined to it over loopback.
pub fn open_table(
    form: &LanForm,
    cards: &CardSet,
    announce: bool,
    autosave: Option<std::path::PathBuf>,
) -> Result<LanTable, String> {
    // What this machine's player brings, before anything is opened.
    let format = form.format_word();
    let mine = brought(form.game, Some(format), &form.brings, cards)?;
    let range = form.game.facts().seats;
    let seats = form.seats.clamp(*range.start(), *range.end());
    let seed = crate::net::random_u64();
    let code = format!("{:04}", crate::net::random_u64() % 10_000);
    let mut players = vec![Player::Remote];
    players.extend(form.others.iter().take(seats - 1).copied());
    let house = |i: usize| -> Option<Vec<CardNumber>> {
        let seat = Seat::new(i)?;
        match players[i] {
            Player::Remote => None,
            _ => Some(form.game.house_cards_in(format, seat, seed, cards)),
        }
    };
    let host_cards: Vec<Option<Vec<CardNumber>>> = (0..seats).map(house).collect();
    // The usual port, or any free one when another table has it.
    let link = HostLink::bind(SocketAddr::new(
        IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        DEFAULT_PORT,
    ))
    .or_else(|_| HostLink::bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)))
    .map_err(|e| format!("cannot open the table's network port: {e}"))?;
    let port = link.addr().port();
    let name = format!("{} table", machine_name());
    let stop = Arc::new(AtomicBool::new(false));
    let options = HostOptions {
        autosave,
        stop: Some(Arc::clone(&stop)),
        format: (form.format != 0 && format != "standard").then(|| format.to_string()),
        ..HostOptions::new(&name, &code, players, host_cards, seed)
    };
    let (tx, lines) = channel();
    let set = cards.clone();
    let game = form.game;
    std::thread::Builder::new()
        .name("lan host".into())
        .spawn(move || {
            struct RunHost(
                HostLink,
                HostOptions,
                CardSet,
                std::sync::mpsc::Sender<String>,
            );
            impl crate::net::LanVisitor for RunHost {
                type Output = ();
                fn visit<R: Lan>(self) {
                    run_host::<R>(self.0, self.1, &self.2, self.3);
                }
            }
            crate::net::dispatch(game, RunHost(link, options, set, tx));
        })
        .map_err(|e| format!("cannot start the table's host: {e}"))?;
    let mut notes = VecDeque::new();
    let announced = if announce {
        match discover::announce(&name, game, seats, port) {
            Ok(a) => Some(a),
            Err(e) => {
                notes.push_back(format!(
                    "not announced on the LAN ({e}): players join by address"
                ));
                None
            }
        }
    } else {
        None
    };
    let join = JoinOptions::new(
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port),
        &machine_name(),
        Role::Player,
        &code,
        mine,
    );
    let mut table = LanTable::joining(game, &join, SocketAddr::new(lan_address(), port))?;
    table.table = name;
    table.code = Some(code);
    table.notes = notes;
    table.hosting = Some(Mutex::new(Hosting {
        stop,
        lines,
        _announced: announced,
    }));
    Ok(table)
}

/// The host's thread: fills the seats, plays the game, says how it ended.
fn run_host<R: Lan>(
    link: HostLink,
    options: HostOptions,
    cards: &CardSet,
    lines: std::sync::mpsc::Sender<String>,
) {
    let log = lines.clone();
    let mut host: Host<R> = Host::new(
        link,
        options,
        Box::new(move |l| {
            let _ = log.send(l.to_string());
        }),
    );
    let played = host.fill(cards, None).and_then(|table| match table {
        Some(mut table) => host.play(&mut table, cards, &mut Watch(|_: &R::Event| {})),
        None => Ok(()),
    });
    if let Err(e) = played {
        let _ = lines.send(format!("the table stopped: {e}"));
    }
}

impl LanTable {
    /// A table being joined with `options` (`addr`: where it is, as shown).
    pub fn joining(
        game: RulesetId,
        options: &JoinOptions,
        addr: SocketAddr,
    ) -> Result<LanTable, String> {
        struct Start<'a>(&'a JoinOptions);
        impl StagedVisitor for Start<'_> {
            type Output = Link;
            fn visit<R: Staged>(self) -> Link {
                Box::new(Session::<R>::start(self.0))
            }
        }
        let link = dispatch(game, Start(options)).ok_or_else(|| not_staged(game))?;
        Ok(LanTable {
            game,
            table: addr.to_string(),
            addr,
            code: None,
            seat: None,
            welcomed: false,
            seats: Vec::new(),
            started: false,
            ended: false,
            problem: None,
            mending: None,
            notes: VecDeque::new(),
            idle: 0.0,
            link: Mutex::new(Some(link)),
            hosting: None,
        })
    }
}

/// The status line over a LAN battle or table (reconnecting, failed, watching).
#[derive(Component)]
struct LanStatus;

pub(in crate::arena) fn plugin(app: &mut App) {
    add_pumps(app);
    app.init_resource::<LanForm>()
        .add_systems(OnEnter(Screen::LanHost), enter_host)
        .add_systems(OnEnter(Screen::LanJoin), enter_join)
        .add_systems(OnEnter(Screen::LanLobby), enter_lobby)
        .add_systems(OnEnter(Screen::Attract), (leave_table, forget_player))
        .add_systems(OnEnter(Screen::Choose), leave_table)
        .add_systems(
            Update,
            (host_screen, draw_host)
                .chain()
                .run_if(in_state(Screen::LanHost))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            (join_screen, draw_join)
                .chain()
                .run_if(in_state(Screen::LanJoin))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            (lobby_screen, draw_lobby)
                .chain()
                .run_if(in_state(Screen::LanLobby))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            take_notes
                .run_if(resource_exists::<LanTable>)
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (status_line, leave_failed)
                .run_if(resource_exists::<LanTable>)
                .in_set(AppSystems::Update),
        );
}

/// Back at attract: the next person starts afresh (what the last one
/// brought and the code they typed are not theirs).
fn forget_player(mut form: ResMut<LanForm>) {
    form.brings = Brings::House(0);
    form.code = [0; 4];
    form.watch = false;
}

/// Back at attract or the choice of game: the LAN table (and a table
/// hosted here) is left.
fn leave_table(mut commands: Commands) {
    commands.remove_resource::<LanTable>();
    // A scanner left by Esc no longer scans for a LAN form.
    commands.remove_resource::<ScanReturn>();
}

/// Opens the scanner for this machine's team (the scan screen) or deck
/// (the deck screen, P1's), to come back to `back`.
fn scan_for(commands: &mut Commands, next: &mut NextState<Screen>, game: RulesetId, back: Screen) {
    commands.insert_resource(ScanReturn {
        back,
        game,
        deck: Err("the deck screen was left before the deck was done".to_string()),
    });
    struct Open<'a, 'w, 's>(&'a mut Commands<'w, 's>, &'a mut NextState<Screen>);
    impl StagedVisitor for Open<'_, '_, '_> {
        type Output = ();
        fn visit<R: Staged>(self) {
            R::open_scanner(self.0, self.1);
        }
    }
    if dispatch(game, Open(commands, next)).is_none() {
        commands.remove_resource::<ScanReturn>();
    }
}

/// Back from the scanner: what was scanned is brought (a team of cards of
/// the set; a finished deck), or the form says why not.
fn take_scan(
    form: &mut LanForm,
    game: RulesetId,
    roster: Option<&crate::arena::screens::scan::Roster>,
    deck: &Result<Vec<CardNumber>, String>,
) {
    struct Take<'a>(
        Option<&'a crate::arena::screens::scan::Roster>,
        &'a Result<Vec<CardNumber>, String>,
    );
    impl StagedVisitor for Take<'_> {
        type Output = Result<Vec<CardNumber>, String>;
        fn visit<R: Staged>(self) -> Self::Output {
            R::scanned(self.0, self.1)
        }
    }
    match dispatch(game, Take(roster, deck)).unwrap_or_else(|| Err(not_staged(game))) {
        Ok(cards) => form.brings = Brings::Scanned(game, cards),
        Err(why) => form.problem = Some(why),
    }
}

/// What a LAN form takes back from the scanner.
#[derive(bevy::ecs::system::SystemParam)]
struct FromScanner<'w> {
    back: Option<Res<'w, ScanReturn>>,
    roster: Option<Res<'w, crate::arena::screens::scan::Roster>>,
}

impl FromScanner<'_> {
    /// Whether the screen is entered back from the scanner (the form keeps
    /// its line) and, if so, takes what was scanned for `game`.
    fn take(&self, commands: &mut Commands, form: &mut LanForm, game: Option<RulesetId>) -> bool {
        let Some(back) = &self.back else {
            return false;
        };
        commands.remove_resource::<ScanReturn>();
        form.problem = None;
        if let Some(g) = game {
            take_scan(form, g, self.roster.as_deref(), &back.deck);
        }
        true
    }
}

fn enter_host(mut commands: Commands, mut form: ResMut<LanForm>, scanner: FromScanner) {
    let game = Some(form.game);
    if !scanner.take(&mut commands, &mut form, game) {
        form.line = 0;
        form.problem = None;
    }
    form.idle = 0.0;
    spawn_panel(&mut commands, Screen::LanHost, "HOST A TABLE ON THE LAN");
}

fn enter_join(
    mut commands: Commands,
    mut form: ResMut<LanForm>,
    scanner: FromScanner,
    settings: Res<Settings>,
) {
    form.give(&settings.lan_tables);
    let game = form.join_game();
    if !scanner.take(&mut commands, &mut form, game) {
        form.line = 0;
        form.problem = None;
    }
    form.idle = 0.0;
    form.digit = None;
    form.browse_in = 0.0;
    spawn_panel(&mut commands, Screen::LanJoin, "JOIN A TABLE ON THE LAN");
}

fn enter_lobby(mut commands: Commands, lan: Option<ResMut<LanTable>>) {
    // The code the other players need, as big as the heading.
    let title = match lan.as_ref().and_then(|l| l.code.clone()) {
        Some(code) => format!("LAN TABLE · JOIN CODE {code}"),
        None => "LAN TABLE".to_string(),
    };
    if let Some(mut lan) = lan {
        lan.idle = 0.0;
    }
    spawn_panel(&mut commands, Screen::LanLobby, &title);
}

fn host_screen(
    mut commands: Commands,
    mut input: LobbyInput,
    mut form: ResMut<LanForm>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
) {
    let lines = form.host_lines();
    let n = lines.len();
    let form = &mut *form;
    let m = input.read(&mut form.line, &mut form.idle, n);
    if m.up {
        form.line = (form.line + n - 1) % n;
    }
    if m.down {
        form.line = (form.line + 1) % n;
    }
    form.line = form.line.min(n - 1);
    if m.choose {
        form.problem = None;
        let then = form.change_host(lines[form.line], &cards.0);
        if let Then::Scan(g) = then {
            scan_for(&mut commands, &mut next, g, Screen::LanHost);
        }
        if then == Then::Open {
            // The autosave (for `bterm host --resume`) goes beside the
            // replays when the game was given a folder for them.
            let autosave = match &settings.replay_dir {
                Some(d) => Some(d.join("lan-table.ron")),
                None => crate::net::host::autosave_path(),
            };
            match open_table(form, &cards.0, settings.lan_discovery, autosave) {
                Ok(table) => {
                    commands.insert_resource(table);
                    next.set(Screen::LanLobby);
                }
                Err(e) => form.problem = Some(e),
            }
        }
    } else if m.back {
        next.set(Screen::Choose);
    }
    if form.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_host(form: Res<LanForm>, cards: Res<Cards>, mut q: LineTexts) {
    let lines: Vec<String> = form
        .host_lines()
        .into_iter()
        .map(|l| form.host_text(l, &cards.0))
        .collect();
    show_lines(&lines, form.line, form.problem.as_deref(), &mut q);
}

fn join_screen(
    mut commands: Commands,
    mut input: LobbyInput,
    mut form: ResMut<LanForm>,
    (cards, time, settings): (Res<Cards>, Res<Time>, Res<Settings>),
    mut next: ResMut<NextState<Screen>>,
) {
    let lines = form.join_lines();
    let n = lines.len();
    let form = &mut *form;
    form.heard();
    form.answered();
    form.browse_in -= time.delta_secs();
    if form.browse_in <= 0.0 && settings.lan_discovery {
        form.browse_in = BROWSE_EVERY;
        form.listen();
    }
    let m = input.read(&mut form.line, &mut form.idle, n);
    form.line = form.line.min(n - 1);
    if form.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
        return;
    }
    // Turning a digit of the code.
    if let Some(d) = form.digit {
        if m.up {
            form.code[d] = (form.code[d] + 1) % 10;
        }
        if m.down {
            form.code[d] = (form.code[d] + 9) % 10;
        }
        if m.choose {
            form.digit = (d + 1 < form.code.len()).then_some(d + 1);
        }
        if m.back {
            form.digit = None;
        }
        return;
    }
    if m.up {
        form.line = (form.line + n - 1) % n;
    }
    if m.down {
        form.line = (form.line + 1) % n;
    }
    if m.choose {
        form.problem = None;
        match lines[form.line] {
            // A table given by address that did not answer is asked again.
            JoinLine::Table if form.unreachable_chosen().is_some() => {
                if let Some(addr) = form.chosen_table().map(|t| t.addr) {
                    form.ask(addr);
                }
            }
            JoinLine::Table if !form.found.is_empty() => {
                let before = form.join_game();
                form.at = (form.at + 1) % form.found.len();
                if form.join_game() != before {
                    form.brings = Brings::House(0);
                }
            }
            JoinLine::Table if settings.lan_discovery => form.listen(),
            JoinLine::Table => {}
            JoinLine::Watch => form.watch = !form.watch,
            JoinLine::Code => form.digit = Some(0),
            JoinLine::Brings => {
                if let Some(g) = form.join_game() {
                    match next_brings(g, None, &form.brings, &cards.0) {
                        Some(b) => form.brings = b,
                        None => scan_for(&mut commands, &mut next, g, Screen::LanJoin),
                    }
                }
            }
            JoinLine::Join => match join(form, &cards.0) {
                Ok(table) => {
                    commands.insert_resource(table);
                    next.set(Screen::LanLobby);
                }
                Err(e) => form.problem = Some(e),
            },
        }
    } else if m.back {
        next.set(Screen::Choose);
    }
}

/// Joins the table chosen on the join screen.
fn join(form: &LanForm, cards: &CardSet) -> Result<LanTable, String> {
    let Some(found) = form.chosen_table() else {
        return Err(
            "no table heard on this network yet: the host opens one with \"Host a table\" (or `bterm host`)"
                .to_string(),
        );
    };
    if found.version != crate::net::protocol::PROTOCOL_VERSION.to_string() {
        return Err(format!(
            "that table speaks LAN protocol {}; this bterm speaks {}: use the same bterm version as the host",
            found.version,
            crate::net::protocol::PROTOCOL_VERSION
        ));
    }
    let Some(game) = form.join_game() else {
        if let Some(why) = form.unreachable_chosen() {
            return Err(format!(
                "that table did not say which game it plays ({why}): C on its line asks again"
            ));
        }
        if found.game == "?" {
            return Err("still asking that table which game it plays: a moment".to_string());
        }
        return Err(format!(
            "that table plays {:?}, a game this bterm does not know",
            shown(&found.game, 20)
        ));
    };
    let options = if form.watch {
        JoinOptions::new(found.addr, &machine_name(), Role::Spectator, "", Vec::new())
    } else {
        let mine = brought(game, None, &form.brings, cards)?;
        JoinOptions::new(
            found.addr,
            &machine_name(),
            Role::Player,
            &form.code_text(),
            mine,
        )
    };
    let mut table = LanTable::joining(game, &options, found.addr)?;
    table.table = shown(&found.name, 40);
    Ok(table)
}

fn draw_join(form: Res<LanForm>, cards: Res<Cards>, mut q: LineTexts) {
    let lines: Vec<String> = form
        .join_lines()
        .into_iter()
        .map(|l| form.join_text(l, &cards.0))
        .collect();
    show_lines(&lines, form.line, form.problem.as_deref(), &mut q);
}

/// The lobby: the only thing to choose is to leave (C held, or C on its
/// line); the game starts by itself once every seat is ready.
fn lobby_screen(
    mut input: LobbyInput,
    lan: Option<ResMut<LanTable>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut lan) = lan else {
        next.set(Screen::Choose);
        return;
    };
    let lan = &mut *lan;
    let lines = lobby_lines(lan).len();
    let mut line = lines - 1;
    let m = input.read(&mut line, &mut lan.idle, lines);
    if m.back || (m.choose && line == lines - 1) {
        next.set(Screen::Choose);
    }
    if lan.idle > LOBBY_IDLE && !lan.started {
        next.set(Screen::Attract);
    }
}

/// The lobby's lines: the table, the code, the seats, what it waits for,
/// and LEAVE last.
fn lobby_lines(lan: &LanTable) -> Vec<String> {
    let mut v = vec![format!(
        "{} · {} · {}",
        lan.table,
        game_name(lan.game),
        lan.addr
    )];
    for s in &lan.seats {
        let you = if lan.seat == Some(s.seat) {
            " (you)"
        } else {
            ""
        };
        let state = if s.reconnecting {
            "reconnecting…"
        } else if s.ready {
            "ready"
        } else {
            "waiting for a player"
        };
        v.push(format!("{} · {}{you} · {state}", s.seat, s.who));
    }
    if let Some(n) = lan.notes.back() {
        v.push(format!("· {n}"));
    }
    v.push(if !lan.welcomed {
        format!("Connecting to {}…", lan.addr)
    } else if lan.seat.is_none() {
        "You watch: the game shows here when it starts".to_string()
    } else {
        "Waiting for every seat: the game starts when all are ready".to_string()
    });
    v.push("LEAVE THE TABLE".to_string());
    v
}

fn draw_lobby(lan: Option<Res<LanTable>>, mut q: LineTexts) {
    let Some(lan) = lan else { return };
    let mut lines = lobby_lines(&lan);
    let chosen = lines.len() - 1;
    let problem = lan
        .problem
        .as_ref()
        .map(|(p, _)| p.clone())
        .or_else(|| lan.mending.clone());
    lines.truncate(crate::arena::screens::lobby::MAX_LINES);
    show_lines(&lines, chosen, problem.as_deref(), &mut q);
}

/// Reads the session: the lobby's seats, the game's views, events and
/// questions (into the duel or the table), the end; and sends the answer
/// the buttons gave.
/// The host's lines, and how long a problem has been shown (before the
/// game's pump).
fn take_notes(time: Res<Time>, mut lan: ResMut<LanTable>) {
    let lan = &mut *lan;
    let mut lines = Vec::new();
    if let Some(h) = &lan.hosting
        && let Ok(h) = h.lock()
    {
        lines.extend(h.lines.try_iter());
    }
    for l in lines {
        lan.note(l);
    }
    if let Some((_, shown)) = &mut lan.problem {
        *shown += time.delta_secs();
    }
}

/// The table's session, one frame, when it is of ruleset `R`: what the
/// host said goes to the game on screen (started when the host's first
/// view comes), and this seat's answer goes out.
fn pump<R: Staged>(
    mut commands: Commands,
    cards: Res<Cards>,
    mut lan: ResMut<LanTable>,
    mut game: Option<ResMut<R::Game>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut started: MessageWriter<DuelStarted>,
) {
    let lan = &mut *lan;
    let Some(mut link) = lan.link.get_mut().ok().and_then(Option::take) else {
        return;
    };
    if let Some(session) = link.downcast_mut::<Session<R>>() {
        let in_game = matches!(
            screen.get(),
            Screen::Battle | Screen::Table | Screen::Result
        );
        // Only this table's game (one left from an earlier table is not
        // followed).
        let on_screen = game
            .as_deref_mut()
            .filter(|g| lan.started && g.has_remote());
        if let Some(g) = pump_game(session, &cards.0, lan, on_screen) {
            commands.insert_resource(g);
            if R::ANNOUNCED {
                started.write(DuelStarted);
            }
            next.set(R::SCREEN);
        }
        // A table that failed before its game: the lobby says why.
        if lan.problem.is_some() && !in_game && *screen.get() != Screen::LanLobby {
            next.set(Screen::LanLobby);
        }
    }
    if let Ok(slot) = lan.link.get_mut() {
        *slot = Some(link);
    }
}

/// What the session said that both games take in alike; the others are
/// given back.
fn common<R: Lan>(lan: &mut LanTable, h: Happened<R>) -> Option<Happened<R>> {
    match h {
        Happened::Welcome { table, seat } => {
            lan.table = shown(&table, 40);
            lan.seat = seat;
            lan.welcomed = true;
            lan.mending = None;
            lan.idle = 0.0;
            None
        }
        Happened::Lobby(mut seats) => {
            // At most the seats a game has, their names as a screen shows them.
            seats.truncate(4);
            for s in &mut seats {
                s.who = shown(&s.who, 32);
            }
            lan.seats.clone_from(&seats);
            lan.idle = 0.0;
            Some(Happened::Lobby(seats))
        }
        Happened::Refusal(why) => {
            lan.note(format!(
                "the table refused that answer: {}",
                shown(&why, 120)
            ));
            None
        }
        Happened::Rejoining(why) => {
            lan.mending = Some(format!(
                "the connection dropped ({}): getting the seat back…",
                shown(&why, 80)
            ));
            None
        }
        Happened::Failed(e) if !lan.ended => {
            lan.problem = Some((shown(&e.to_string(), 200), 0.0));
            None
        }
        Happened::Failed(_) => None,
        other => Some(other),
    }
}

/// A screen's game that follows a LAN table: the Terminal Battle's duel,
/// or the Card Game Alpha's table.
pub trait Follows<R: Lan>: Sized {
    /// The game, from the host's first view.
    fn starting(view: &R::View, lan: &LanTable, cards: &CardSet) -> Result<Self, String>;
    /// This machine's seat: its question and its answer.
    fn remote(&mut self) -> Option<&mut Remote<R>>;
    /// The host's news: the view after `events`.
    fn news(&mut self, view: &R::View, events: Vec<R::Event>, cards: &CardSet);
    /// The game's end: its replay, checked by the session.
    fn ended(&mut self, replay: Replay<R>);
    /// Whether it follows a LAN table (it has a remote seat).
    fn has_remote(&self) -> bool;
}

impl Follows<terminal::Match> for Duel {
    fn starting(view: &terminal::Match, lan: &LanTable, cards: &CardSet) -> Result<Duel, String> {
        Duel::lan(view.clone(), cards, lan.seat).map_err(|e| e.to_string())
    }

    fn remote(&mut self) -> Option<&mut Remote<terminal::Match>> {
        self.remote.as_mut()
    }

    fn has_remote(&self) -> bool {
        self.remote.is_some()
    }

    fn news(&mut self, view: &terminal::Match, events: Vec<terminal::Event>, _: &CardSet) {
        self.table.follow(view.clone());
        if let Some(r) = self.remote.as_mut() {
            r.events.extend(events);
        }
    }

    fn ended(&mut self, replay: Replay<terminal::Match>) {
        self.lan_ended(&replay);
    }
}

/// A card game at a LAN table: its table follows the host's views, the
/// same for every card game (each presenter lays a view out, `Tabled`).
impl<R: Tabled> Follows<R> for TableGame<R> {
    fn starting(view: &R::View, lan: &LanTable, _: &CardSet) -> Result<TableGame<R>, String> {
        Ok(R::lan_game(view, lan.table.clone()))
    }

    fn remote(&mut self) -> Option<&mut Remote<R>> {
        self.remote.as_mut()
    }

    fn has_remote(&self) -> bool {
        self.remote.is_some()
    }

    fn news(&mut self, view: &R::View, events: Vec<R::Event>, cards: &CardSet) {
        R::lan_news(self, view, &events, cards);
    }

    fn ended(&mut self, replay: Replay<R>) {
        self.lan_ended(replay);
    }
}

/// The Terminal Battle at a LAN table: the duel, its team scanned at the
/// scan screen.
impl Staged for terminal::Match {
    type Game = Duel;
    const SCREEN: Screen = Screen::Battle;
    const ANNOUNCED: bool = true;

    fn open_scanner(_: &mut Commands, next: &mut NextState<Screen>) {
        next.set(Screen::Scan);
    }

    fn scanned(
        roster: Option<&crate::arena::screens::scan::Roster>,
        _: &Result<Vec<CardNumber>, String>,
    ) -> Result<Vec<CardNumber>, String> {
        let team = roster.map_or(&[][..], |r| r.teams[0].cards.as_slice());
        if team.is_empty() {
            return Err("no card was scanned: scan your team, then A (ready)".into());
        }
        if let Some((c, _)) = team.iter().find(|(_, in_set)| !*in_set) {
            return Err(format!(
                "{} is not a card of the set (a custom or wild card): it cannot go to a LAN table",
                c.name()
            ));
        }
        Ok(team.iter().map(|(c, _)| c.number()).collect())
    }
}

/// The card games at a LAN table: the table, the deck built at the deck
/// screen (P1's).
macro_rules! card_games_staged {
    ($($ty:ty),+ $(,)?) => {$(
        impl Staged for $ty {
            type Game = TableGame<$ty>;
            const SCREEN: Screen = Screen::Table;
            const ANNOUNCED: bool = false;

            fn open_scanner(commands: &mut Commands, next: &mut NextState<Screen>) {
                commands.insert_resource(crate::arena::screens::lobby::DeckSeat(0));
                next.set(Screen::DeckScreen);
            }

            fn scanned(
                _: Option<&crate::arena::screens::scan::Roster>,
                deck: &Result<Vec<CardNumber>, String>,
            ) -> Result<Vec<CardNumber>, String> {
                deck.clone().map_err(|e| format!("no deck brought: {e}"))
            }
        }
    )+};
}

card_games_staged!(alpha::Match, dcg::Match, clash::Match);

/// A session, one frame: the answer given goes out; what the host said
/// goes into `game` (the one on screen). Returns a game to start, when
/// the host's first view came.
fn pump_game<R: Lan, G: Follows<R>>(
    session: &mut Session<R>,
    cards: &CardSet,
    lan: &mut LanTable,
    mut game: Option<&mut G>,
) -> Option<G> {
    if let Some(g) = game.as_deref_mut()
        && let Some((asked, reply)) = g.remote().and_then(|r| r.answer.take())
    {
        session.answer(asked, reply);
    }
    let mut fresh: Option<G> = None;
    for _ in 0..POLLS_PER_FRAME {
        let Some(h) = session.poll(cards, Duration::ZERO) else {
            break;
        };
        let Some(h) = common(lan, h) else { continue };
        let target = match game.as_deref_mut() {
            Some(g) => Some(g),
            None => fresh.as_mut(),
        };
        match h {
            Happened::Lobby(seats) => {
                if let Some(r) = target.and_then(G::remote) {
                    r.seats = seats;
                }
            }
            Happened::Update { events, .. } => {
                let Some(view) = session.view() else { continue };
                match target {
                    Some(g) => g.news(view, events, cards),
                    None => match G::starting(view, lan, cards) {
                        Ok(mut g) => {
                            if let Some(r) = g.remote() {
                                r.seats.clone_from(&lan.seats);
                            }
                            g.news(view, events, cards);
                            lan.started = true;
                            fresh = Some(g);
                        }
                        Err(e) => lan.problem = Some((e, 0.0)),
                    },
                }
            }
            Happened::Ask(asked) => {
                if let Some(r) = target.and_then(G::remote) {
                    r.asked = Some((asked, Instant::now()));
                }
            }
            Happened::Ended(end) => {
                lan.ended = true;
                if let Some(g) = target {
                    g.ended(end.replay);
                }
            }
            _ => {}
        }
    }
    fresh
}

/// A line over the battle and the table: the LAN table, who is
/// reconnecting, a dropped connection being mended, a failure.
fn status_line(
    mut commands: Commands,
    lan: Res<LanTable>,
    screen: Res<State<Screen>>,
    mut q: Query<(Entity, &mut Text, &mut TextColor), With<LanStatus>>,
) {
    // Only over a game (the line goes with its screen).
    if !matches!(screen.get(), Screen::Battle | Screen::Table) {
        return;
    }
    let away = lan.seats.iter().find(|s| s.reconnecting).map(|s| {
        format!(
            "{} ({}) is reconnecting: its turns time out, and after {} s the CPU plays it",
            s.seat,
            s.who,
            REJOIN_WINDOW.as_secs()
        )
    });
    let (text, colour) = if let Some((p, shown)) = &lan.problem {
        (
            format!(
                "{p} · back to the start in {:.0} s (hold C: now)",
                (FAILED_SHOWN - shown).max(0.0).ceil()
            ),
            palette::BAD,
        )
    } else if let Some(m) = &lan.mending {
        (format!("{m} (hold C to leave)"), palette::BAD)
    } else if let Some(a) = away {
        (a, palette::GOLD)
    } else if lan.welcomed && lan.seat.is_none() && !lan.ended {
        ("WATCHING · hold C to leave".to_string(), palette::DIM)
    } else {
        (String::new(), palette::DIM)
    };
    match (q.single_mut(), !text.is_empty()) {
        (Ok((_, mut t, mut c)), true) => {
            if t.0 != text {
                t.0 = text;
            }
            c.0 = colour;
        }
        (Ok((e, _, _)), false) => commands.entity(e).despawn(),
        (Err(_), true) => {
            let screen = *screen.get();
            commands
                .spawn((
                    Name::new("LAN status"),
                    DespawnOnExit(screen),
                    Node {
                        position_type: PositionType::Absolute,
                        // Under the battle's panels and the table's title.
                        top: px(172.0),
                        width: percent(100),
                        justify_content: JustifyContent::Center,
                        ..default()
                    },
                ))
                .with_children(|c| {
                    c.spawn(centred_column()).with_children(|col| {
                        col.spawn((LanStatus, label(&text, size::PROMPT, colour)));
                    });
                });
        }
        (Err(_), false) => {}
    }
}

/// A LAN game that cannot go on goes back to attract after a while, or
/// at once when C is held; so does a game being mended, or watched, when C
/// is held (a player's C held at a battle is an Alpha Strike's, so only
/// then).
fn leave_failed(
    lan: Res<LanTable>,
    screen: Res<State<Screen>>,
    mut backs: MessageReader<crate::arena::ui::input::Back>,
    mut next: ResMut<NextState<Screen>>,
) {
    let held = backs.read().count() > 0;
    let in_game = matches!(screen.get(), Screen::Battle | Screen::Table);
    let stuck =
        lan.problem.is_some() || lan.mending.is_some() || (lan.welcomed && lan.seat.is_none());
    if (in_game && held && stuck)
        || lan.problem.as_ref().is_some_and(|(_, shown)| {
            *shown > FAILED_SHOWN && (in_game || *screen.get() == Screen::LanLobby)
        })
    {
        next.set(Screen::Attract);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_another_machine_is_shown_without_controls_and_cut() {
        assert_eq!(shown("Tai\u{1b}[31m", 10), "Tai[31m");
        assert_eq!(shown("abcdef", 3), "abc…");
        assert_eq!(shown("abc", 3), "abc");
    }

    #[test]
    fn the_host_screen_offers_seats_only_for_the_card_game_alpha() {
        let mut form = LanForm::default();
        assert_eq!(
            form.host_lines(),
            [
                HostLine::Game,
                HostLine::Other(1),
                HostLine::Brings,
                HostLine::Open
            ]
        );
        assert_eq!(
            form.change_host(HostLine::Game, &CardSet::embedded()),
            Then::Stay
        );
        assert_eq!(form.game, RulesetId::Alpha);
        form.change_host(HostLine::Seats, &CardSet::embedded());
        form.change_host(HostLine::Seats, &CardSet::embedded());
        assert_eq!(form.seats, 4);
        assert_eq!(form.host_lines().len(), 7, "game, seats, P2–P4, deck, open");
        form.change_host(HostLine::Seats, &CardSet::embedded());
        assert_eq!(form.seats, 2, "4 wraps round to 2");
        // P2: a player on the LAN, then the CPU's strengths, round again.
        for want in OTHERS.iter().skip(1).chain(OTHERS.iter().take(1)) {
            form.change_host(HostLine::Other(1), &CardSet::embedded());
            assert_eq!(form.others[0], *want);
        }
        assert_eq!(
            form.change_host(HostLine::Open, &CardSet::embedded()),
            Then::Open
        );
        // The deck brought: each shipped one, then one to scan, which C
        // opens the scanner for.
        for _ in 1..alpha::deck::EMBEDDED.len() {
            assert_eq!(
                form.change_host(HostLine::Brings, &CardSet::embedded()),
                Then::Stay
            );
        }
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Stay
        );
        assert_eq!(form.brings, Brings::Scan);
        assert!(brought(form.game, None, &form.brings, &CardSet::embedded()).is_err());
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Scan(RulesetId::Alpha)
        );
    }

    #[test]
    fn the_host_screen_offers_the_digimon_card_games_format_at_three_seats_with_its_decks() {
        let cards = CardSet::embedded();
        let mut form = LanForm {
            game: RulesetId::Dcg,
            ..LanForm::default()
        };
        assert!(
            !form.host_lines().contains(&HostLine::Format),
            "2 seats: standard"
        );
        form.change_host(HostLine::Seats, &cards);
        assert_eq!(form.seats, 3);
        assert!(form.host_lines().contains(&HostLine::Format));
        assert_eq!(form.format_word(), "standard");
        form.change_host(HostLine::Format, &cards);
        assert_eq!(form.format_word(), "players");
        // The host's deck: the Players Format's, each once, then a scan.
        let text = |f: &LanForm| f.host_text(HostLine::Brings, &cards);
        assert!(text(&form).contains("Players Format"), "{}", text(&form));
        let first = brought(form.game, Some("players"), &form.brings, &cards).unwrap();
        assert_eq!(
            first,
            crate::rules::dcg::deck::embedded("players-red-blue", &cards)
                .unwrap()
                .unwrap()
        );
        assert_eq!(form.change_host(HostLine::Brings, &cards), Then::Stay);
        assert!(text(&form).contains("players-green"), "{}", text(&form));
        assert_eq!(form.change_host(HostLine::Brings, &cards), Then::Stay);
        assert_eq!(form.brings, Brings::Scan);
        // A joiner may bring any format's decks (the host's decides).
        let all = house_choices(RulesetId::Dcg, None, &cards);
        assert_eq!(all.len(), crate::rules::dcg::deck::EMBEDDED.len() + 2);
        // Back to 2 seats: the standard format again.
        form.change_host(HostLine::Seats, &cards);
        form.change_host(HostLine::Seats, &cards);
        assert_eq!(form.seats, 2);
        assert_eq!(form.format_word(), "standard");
    }

    #[test]
    fn a_table_given_by_address_that_did_not_answer_says_so_and_may_be_asked_again() {
        let cards = CardSet::embedded();
        let mut form = LanForm::default();
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        form.given.push(Found {
            name: addr.to_string(),
            addr,
            game: "?".into(),
            seats: "?".into(),
            version: crate::net::protocol::PROTOCOL_VERSION.to_string(),
        });
        form.merge_given();
        assert!(
            form.join_text(JoinLine::Table, &cards)
                .contains("asking it which game")
        );
        assert!(
            join(&form, &cards)
                .err()
                .unwrap_or_default()
                .contains("still asking")
        );
        form.unreachable.push((addr, "no table answered".into()));
        assert!(
            form.join_text(JoinLine::Table, &cards)
                .contains("not answering (C asks again)")
        );
        let why = join(&form, &cards).err().unwrap_or_default();
        assert!(
            why.contains("no table answered") && why.contains("asks again"),
            "{why}"
        );
        // Scanned for the other game: C opens the scanner for this one.
        form.game = RulesetId::Alpha;
        form.brings = Brings::Scanned(RulesetId::Terminal, Vec::new());
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Scan(RulesetId::Alpha)
        );
    }

    #[test]
    fn a_spectator_needs_no_code_and_brings_nothing() {
        let mut form = LanForm::default();
        assert!(form.join_lines().contains(&JoinLine::Code));
        form.watch = true;
        assert_eq!(
            form.join_lines(),
            [JoinLine::Table, JoinLine::Watch, JoinLine::Join]
        );
    }
}
