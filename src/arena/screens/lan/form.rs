//! The host and join forms: what this machine hosts or joins, who plays
//! the other seats, what each player brings, and the lines the forms show.

use super::*;

/// A table given by address, and the game it said it plays (or why not).
pub(super) type GameSaid = (SocketAddr, Result<RulesetId, String>);

/// What a listen for tables heard, or why it could not listen.
pub(super) type Heard = Result<Vec<Found>, String>;

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
    pub(super) listening: Option<Mutex<Receiver<Heard>>>,
    /// Tables given by address (`bterm play --table`), their game asked.
    pub(super) given: Vec<Found>,
    /// The asking's channel: the answers come as they come.
    pub(super) asking: Option<Mutex<(Sender<GameSaid>, Receiver<GameSaid>)>>,
    /// Given tables that did not answer, and why (C on the table's line
    /// asks again).
    pub(super) unreachable: Vec<(SocketAddr, String)>,
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
pub(super) const OTHERS: [Player; 4] = [
    Player::Remote,
    Player::Cpu(Strength::Easy),
    Player::Cpu(Strength::Normal),
    Player::Cpu(Strength::Hard),
];

pub(super) fn game_name(game: RulesetId) -> &'static str {
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
pub(super) fn house_choices(
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
pub(super) fn what(game: RulesetId) -> &'static str {
    game.facts().brings
}

/// The cards brought, in words.
pub(super) fn brought_text(
    game: RulesetId,
    format: Option<&str>,
    brings: &Brings,
    cards: &CardSet,
) -> String {
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
pub(super) fn next_brings(
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

    pub(super) fn host_text(&self, line: HostLine, cards: &CardSet) -> String {
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
    pub(super) fn join_game(&self) -> Option<RulesetId> {
        RulesetId::from_key(&self.chosen_table()?.game)
    }

    pub(super) fn join_text(&self, line: JoinLine, cards: &CardSet) -> String {
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
    pub(super) fn listen(&mut self) {
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
    pub(super) fn give(&mut self, tables: &[SocketAddr]) {
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
    pub(super) fn ask(&mut self, addr: SocketAddr) {
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
    pub(super) fn unreachable_chosen(&self) -> Option<&str> {
        let addr = self.chosen_table()?.addr;
        self.unreachable
            .iter()
            .find(|(a, _)| *a == addr)
            .map(|(_, why)| why.as_str())
    }

    /// Takes in the games the given tables said they play.
    pub(super) fn answered(&mut self) {
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
    pub(super) fn merge_given(&mut self) {
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
    pub(super) fn heard(&mut self) {
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
pub(super) fn shown(text: &str, most: usize) -> String {
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
pub(super) fn machine_name() -> String {
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
pub(super) fn lan_address() -> IpAddr {
    UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            s.connect((Ipv4Addr::new(10, 254, 254, 254), 1))?;
            s.local_addr()
        })
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| a.ip())
}
