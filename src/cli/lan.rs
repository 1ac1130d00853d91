//! `bterm host` and `bterm join`: LAN play in the terminal. The host holds
//! the match; each player answers its own seat's questions on its own
//! machine; spectators watch what is public. Every machine keeps the
//! game's replay.

use std::io::Write;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use super::battle::{Keyboard, keyboard_lines, save_is_free};
use super::{CliError, TextGame, TextVisitor, dispatch, escape_lines, load_set};
use crate::ai::Strength;
use crate::cards::{CardNumber, CardSet};
use crate::net::client::{Ended, JoinError, JoinOptions, Seatside, join};
use crate::net::host::{Autosave, Host, HostOptions};
use crate::net::link::HostLink;
use crate::net::protocol::{Asked, Role, SeatLine};
use crate::net::{DEFAULT_PORT, Lan, discover};
use crate::replay::Replay;
use crate::rules::{Reply, RulesetId, Seat};
use crate::session::{People, Player};

/// `bterm host`.
#[derive(Debug, Args)]
pub struct HostArgs {
    /// The game (`bterm host --help` lists them).
    #[arg(required_unless_present = "resume", value_parser = super::game_parser())]
    pub game: Option<RulesetId>,
    /// Your team (terminal: card numbers or names, comma-separated) or deck
    /// (alpha: a shipped deck's name or a deck file): you play P1 here.
    /// Leave it out to host only (every seat from the LAN or --cpu).
    pub cards: Option<String>,
    /// Seats at the table (terminal: 2; alpha: 2 to 4; dcg: 2 to 4, 3 and
    /// 4 in the LAN format).
    #[arg(long, default_value_t = 2)]
    pub seats: usize,
    /// The deck format (dcg at 3 or 4 seats: standard or players).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// The UDP port to listen on (default: 47820; with --resume, the port
    /// the table had).
    #[arg(long)]
    pub port: Option<u16>,
    /// The join code players must give (default: four random digits,
    /// printed when the table opens).
    #[arg(long)]
    pub code: Option<String>,
    /// A CPU seat: SEAT=LEVEL[:TEAM|DECK] (e.g. P2=hard or P3=normal:courage).
    #[arg(long = "cpu", value_name = "SEAT=LEVEL[:TEAM|DECK]")]
    pub cpus: Vec<String>,
    /// The seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The table's name on the LAN (default: "bterm table").
    #[arg(long)]
    pub name: Option<String>,
    /// Give up if the seats are not filled within this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub wait: Option<u64>,
    /// Do not announce the table on the LAN (players join by address).
    #[arg(long)]
    pub no_announce: bool,
    /// Every player's seconds per question, here and on the LAN (default:
    /// none for you; the cabinet's own for the players on the LAN, e.g. 5 s
    /// a stance).
    #[arg(long, value_name = "SECONDS")]
    pub timer: Option<f32>,
    /// Also save the game's replay here (it is always kept in the data
    /// folder's replays).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Start again a table whose host stopped, from its autosave (the
    /// players rejoin their seats within a minute).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "cards", "cpus", "seats", "code", "seed", "format"])]
    pub resume: Option<PathBuf>,
}

/// `bterm join`.
#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The table: ADDRESS[:PORT]. Leave it out to list the tables on this
    /// network (and join the only one).
    pub address: Option<String>,
    /// Your team (terminal) or deck (alpha); not needed to --spectate.
    pub cards: Option<String>,
    /// The table's join code (on the host's screen).
    #[arg(long, default_value = "")]
    pub code: String,
    /// Watch only (no code needed).
    #[arg(long, conflicts_with = "cpu")]
    pub spectate: bool,
    /// Let the CPU play your seat at this strength (easy, normal, hard).
    #[arg(long, value_name = "LEVEL")]
    pub cpu: Option<Strength>,
    /// Your name at the table.
    #[arg(long)]
    pub name: Option<String>,
    /// The game, when the table is given by address (found by asking
    /// the table if left out).
    #[arg(long, value_parser = super::game_parser())]
    pub game: Option<RulesetId>,
    /// How long to listen for tables when no address is given.
    #[arg(long, default_value_t = 2, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(0..=600))]
    pub listen: u64,
    /// Also save the game's replay here (it is always kept in the data
    /// folder's replays).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

fn say(line: &str) {
    let mut out = std::io::stdout();
    // One line: a line break in a name from the LAN is shown, not obeyed.
    let _ = writeln!(out, "{}", super::escape_line(line));
    let _ = out.flush();
}

/// A seat's cards, read for the game.
fn read_cards(game: RulesetId, arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
    struct Read<'a>(&'a str, &'a CardSet);
    impl TextVisitor for Read<'_> {
        type Output = Result<Vec<CardNumber>, CliError>;
        fn visit<R: TextGame>(self) -> Self::Output {
            R::read_cards(self.0, self.1)
        }
    }
    dispatch(game, Read(arg, set))
}

/// `P2=hard:courage` → seat, strength, cards.
fn parse_cpu(
    game: RulesetId,
    text: &str,
    set: &CardSet,
) -> Result<(Seat, Strength, Option<Vec<CardNumber>>), CliError> {
    let bad = || {
        CliError::usage(format!(
            "--cpu {}: write SEAT=LEVEL[:TEAM|DECK], e.g. P2=hard or P3=normal:courage",
            super::escape(text)
        ))
    };
    let (seat, rest) = text.split_once('=').ok_or_else(bad)?;
    let seat: Seat = seat.parse().map_err(|_| bad())?;
    let (level, cards) = match rest.split_once(':') {
        Some((l, c)) => (l, Some(c)),
        None => (rest, None),
    };
    let strength: Strength = level.parse().map_err(|_| bad())?;
    let cards = cards.map(|c| read_cards(game, c, set)).transpose()?;
    Ok((seat, strength, cards))
}

pub(super) fn host(args: HostArgs) -> Result<(), CliError> {
    if let Some(t) = args.timer
        && !(t > 0.0 && t <= 86_400.0)
    {
        return Err(CliError::usage(format!(
            "--timer {t}: give a number of seconds above 0 and at most 86400"
        )));
    }
    save_is_free(args.save.as_deref())?;
    let set = load_set(None)?;
    let keys = Keyboard {
        lines: keyboard_lines(),
        timer: args.timer,
        cards: &set,
        out: std::io::stdout(),
    };
    let game = match (&args.resume, args.game) {
        (Some(path), _) => {
            let save = Autosave::load(path)
                .map_err(|e| CliError::failed(format!("error: {}", escape_lines(&e))))?;
            save.game
        }
        (None, Some(g)) => g,
        (None, None) => {
            return Err(CliError::usage(format!(
                "error: name the game: {}",
                RulesetId::keys()
            )));
        }
    };
    struct HostIt<'a>(HostArgs, &'a CardSet, Keyboard<'a>);
    impl TextVisitor for HostIt<'_> {
        type Output = Result<(), CliError>;
        fn visit<R: TextGame>(self) -> Self::Output {
            let HostIt(args, set, keys) = self;
            host_game::<R, _>(args, set, R::front(keys))
        }
    }
    dispatch(game, HostIt(args, &set, keys))
}

fn host_game<R: Lan + TextGame, F: People<R, Error = CliError>>(
    args: HostArgs,
    set: &CardSet,
    mut front: F,
) -> Result<(), CliError> {
    if let Some(path) = &args.resume {
        return resume::<R, F>(&args, path, set, front);
    }
    let n = args.seats;
    if !R::SEATS.contains(&n) {
        return Err(CliError::usage(format!(
            "--seats {n}: a table of this game has {} to {} seats",
            R::SEATS.start(),
            R::SEATS.end()
        )));
    }
    if let Some(word) = &args.format {
        // The format is checked before anyone joins.
        let mut probe = R::setup_for(vec![Vec::new(); n], 0);
        R::set_format(&mut probe, word).map_err(|e| {
            CliError::usage(format!(
                "--format {}: {}",
                super::escape(word),
                escape_lines(&e)
            ))
        })?;
    }
    // Not from the clock: a player who could guess the seed would know
    // every hidden card.
    let seed = args.seed.unwrap_or_else(crate::net::random_u64);
    let mut players = vec![Player::Remote; n];
    let mut cards: Vec<Option<Vec<CardNumber>>> = vec![None; n];
    if let Some(c) = &args.cards {
        players[0] = Player::Person;
        cards[0] = Some(R::read_cards(c, set)?);
    }
    for text in &args.cpus {
        let (seat, strength, brought) = parse_cpu(R::ID, text, set)?;
        if seat.index() >= n {
            return Err(CliError::usage(format!(
                "--cpu {}: the table has {n} seats",
                super::escape(text)
            )));
        }
        if players[seat.index()] == Player::Person {
            return Err(CliError::usage(format!(
                "--cpu {}: {seat} is yours (you brought cards); give the CPU another seat",
                super::escape(text)
            )));
        }
        players[seat.index()] = Player::Cpu(strength);
        let house = || {
            args.format
                .as_deref()
                .and_then(|f| R::format_house_cards(f, seat, seed, set))
                .unwrap_or_else(|| R::house_cards(seat, seed, set))
        };
        cards[seat.index()] = Some(brought.unwrap_or_else(house));
    }
    let code = args
        .code
        .clone()
        .unwrap_or_else(|| format!("{:04}", crate::net::random_u64() % 10_000));
    let table_name = args
        .name
        .clone()
        .unwrap_or_else(|| "bterm table".to_string());
    let link = open_link(args.port.unwrap_or(DEFAULT_PORT))?;
    let port = link.addr().port();
    let _announcement = announce::<R>(&args, &table_name, n, port);
    say(&format!(
        "Table \"{table_name}\" open on UDP port {port} · {} · {n} seats · JOIN CODE {code}",
        R::NAME
    ));
    let addresses = crate::net::discover::lan_addresses();
    if addresses.is_empty() {
        say("  No network address found but this machine's own: only this machine can join.");
    }
    for ip in addresses {
        say(&format!(
            "  Join from another machine: bterm join {ip}:{port} --code {code}"
        ));
    }
    for s in Seat::all(n) {
        say(&format!(
            "  {s}: {}",
            match players[s.index()] {
                Player::Remote => "open (bterm join)".to_string(),
                p => p.label(),
            }
        ));
    }
    let mut host: Host<R> = Host::new(
        link,
        HostOptions {
            autosave: crate::net::host::autosave_path(),
            seconds: args.timer,
            format: args.format.clone(),
            ..HostOptions::new(&table_name, &code, players.clone(), cards, seed)
        },
        Box::new(|l| say(&format!("[table] {l}"))),
    );
    let deadline = args.wait.map(|s| Instant::now() + Duration::from_secs(s));
    let mut table = host
        .fill(set, deadline)
        .map_err(|e| CliError::failed(format!("error: {e}")))?
        .ok_or_else(|| {
            CliError::failed(format!(
                "error: the seats were not filled within {} s; nobody played",
                args.wait.unwrap_or(0)
            ))
        })?;
    say("Every seat is taken: the game begins.");
    if let Some(p) = crate::net::host::autosave_path() {
        say(&format!(
            "(kept as it goes in {}: if this host stops, bterm host --resume that file)",
            p.display()
        ));
    }
    play_table(&mut host, &mut table, set, &mut front, args.save.as_deref())
}

fn open_link(port: u16) -> Result<HostLink, CliError> {
    HostLink::bind(SocketAddr::from(([0, 0, 0, 0], port))).map_err(|e| {
        CliError::failed(format!(
            "error: cannot open UDP port {port}: {e} (is another table running? try --port)"
        ))
    })
}

fn announce<R: Lan>(
    args: &HostArgs,
    table: &str,
    seats: usize,
    port: u16,
) -> Option<discover::Announcement> {
    if args.no_announce {
        return None;
    }
    match discover::announce(table, R::ID, seats, port) {
        Ok(a) => Some(a),
        Err(e) => {
            say(&format!(
                "(the table is not announced on the LAN: {e}; players join by address)"
            ));
            None
        }
    }
}

/// Where a host keeps its game as it goes: the data folder's
/// `lan-table.ron` (the host's own file, replaced game by game).
fn resume<R: Lan, F: People<R, Error = CliError>>(
    args: &HostArgs,
    path: &Path,
    set: &CardSet,
    mut front: F,
) -> Result<(), CliError> {
    let save = Autosave::load(path)
        .map_err(|e| CliError::failed(format!("error: {}", escape_lines(&e))))?;
    // The port the table had, so its players' machines find it again.
    let link = open_link(args.port.or(save.port).unwrap_or(DEFAULT_PORT))?;
    let port = link.addr().port();
    let n = save.players.len();
    let _announcement = announce::<R>(args, &save.table, n, port);
    // Kept as it goes on in the host's own file (a file the user named is
    // only read).
    let (mut host, mut table) = Host::<R>::resume(
        link,
        &save,
        crate::net::host::autosave_path(),
        set,
        Box::new(|l| say(&format!("[table] {l}"))),
    )
    .map_err(|e| CliError::failed(format!("error: {e}")))?;
    host.set_seconds(args.timer);
    say(&format!(
        "Table \"{}\" open again on UDP port {port} · {} · {n} seats · JOIN CODE {} · {} actions played",
        save.table,
        R::NAME,
        save.code,
        table.actions().len()
    ));
    say("The players rejoin their seats (bterm join does it by itself within a minute).");
    play_table(&mut host, &mut table, set, &mut front, args.save.as_deref())
}

/// Plays a hosted table to its end and keeps its replay.
fn play_table<R: Lan, F: People<R, Error = CliError>>(
    host: &mut Host<R>,
    table: &mut crate::session::Table<R>,
    set: &CardSet,
    front: &mut F,
    save: Option<&Path>,
) -> Result<(), CliError> {
    let played = host.play(table, set, front);
    keep_replay(&Replay::of(table), save)?;
    played.map_err(|e| CliError::failed(format!("error: {e}")))?;
    if let Some(o) = table.game().outcome() {
        say(&format!("Game over: {}", outcome_words(o)));
    }
    Ok(())
}

fn outcome_words(o: crate::rules::Outcome) -> String {
    match o {
        crate::rules::Outcome::Win(s) => format!("{s} wins"),
        crate::rules::Outcome::Draw => "a draw".to_string(),
    }
}

/// Keeps a LAN game's replay in the data folder (and at `--save`).
fn keep_replay<R: Lan>(replay: &Replay<R>, save: Option<&Path>) -> Result<(), CliError> {
    if let Some(dir) = crate::save::data_dir().map(|d| d.join("replays")) {
        match replay.save_in(&dir) {
            Ok(path) => say(&format!("replay kept in {}", path.display())),
            Err(e) => say(&format!("(the replay could not be kept: {e})")),
        }
    }
    if let Some(path) = save {
        replay
            .save_new(path)
            .map_err(|e| CliError::failed(format!("error: cannot save the replay: {e}")))?;
        say(&format!("replay saved to {}", path.display()));
    }
    Ok(())
}

/// What the host allows for an answer to travel back, seconds.
const ANSWER_MARGIN: f32 = 0.5;

/// The seconds a person at a client is given for a question the host
/// has `left` seconds of: whole seconds, never past the host's clock
/// less [`ANSWER_MARGIN`], at least one.
fn client_seconds(left: f32) -> f32 {
    (left - ANSWER_MARGIN).floor().max(1.0)
}

/// A person (or the CPU) at a client, in the terminal.
struct TextSeat<'a> {
    keys: Keyboard<'a>,
    cpu: Option<Strength>,
}

impl<R: Lan> Seatside<R> for TextSeat<'_> {
    type Error = CliError;

    fn welcome(&mut self, table: &str, seat: Option<Seat>) {
        match seat {
            Some(s) => say(&format!("Joined \"{table}\": you play {s}.")),
            None => say(&format!("Watching \"{table}\".")),
        }
    }

    fn lobby(&mut self, seats: &[SeatLine]) {
        let line: Vec<String> = seats
            .iter()
            .map(|s| {
                format!(
                    "{}: {}{}",
                    s.seat,
                    s.who,
                    if s.reconnecting {
                        " (reconnecting)"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        say(&format!("Seats — {}", line.join(" · ")));
    }

    fn update(&mut self, _: u64, events: &[R::Event], _: &R::View) {
        for e in events {
            say(&R::describe(e, self.keys.cards));
        }
    }

    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, CliError> {
        if let Some(strength) = self.cpu {
            let cpu = crate::net::client::CpuSeat(strength);
            return Ok(cpu.choose(seat, view, asked).map(Reply::Act));
        }
        // Nothing to decide (a priority with nothing to answer it with):
        // answered at once, as at one terminal.
        let prompt = asked.prompt();
        let only = crate::rules::only_answer(&asked.answers, asked.on_timeout);
        if let Some(reply) = self.keys.take_only(seat, only, &prompt) {
            return Ok(Some(reply));
        }
        if let Some(v) = view {
            say("");
            for line in R::view_lines(v, self.keys.cards) {
                say(&line);
            }
        }
        // The host's clock runs: the whole seconds it has left, less the
        // way back, so an answer typed before this prompt's time is up
        // reaches the host before its own (rounding up gave a person up
        // to a second the host did not, and an answer typed in time was
        // recorded as time up).
        self.keys.timer = Some(client_seconds(asked.seconds));
        // The rules are the host's: a refusal is the one it sent with the
        // question, where it sent one.
        self.keys
            .ask_prompt(seat, &prompt, R::own_card, &|typed| asked.refusal(typed))
    }

    fn note(&mut self, text: &str) {
        say(&format!("({text})"));
    }
}

pub(super) fn join_command(mut args: JoinArgs) -> Result<(), CliError> {
    save_is_free(args.save.as_deref())?;
    let set = load_set(None)?;
    // One word that reads as a deck or a team (and not as an address) is
    // the cards: the table is found on the network.
    if args.cards.is_none()
        && let Some(a) = &args.address
        && a.parse::<IpAddr>().is_err()
        && a.parse::<SocketAddr>().is_err()
        && RulesetId::ALL
            .iter()
            .any(|&g| read_cards(g, a, &set).is_ok())
    {
        args.cards = args.address.take();
    }
    let (addr, mut game) = match &args.address {
        Some(a) => (resolve(a)?, args.game),
        None => {
            say(&format!(
                "Listening {} s for tables on this network…",
                args.listen
            ));
            let found = discover::browse(Duration::from_secs(args.listen)).map_err(|e| {
                CliError::failed(format!(
                    "error: cannot listen for tables ({e}): give the table's address"
                ))
            })?;
            match found.as_slice() {
                [] => {
                    return Err(CliError::failed(
                        "error: no table found on this network: give the host's address (bterm join ADDRESS[:PORT])",
                    ));
                }
                [one] => {
                    say(&format!(
                        "Found \"{}\" at {} ({} · {} seats)",
                        one.name, one.addr, one.game, one.seats
                    ));
                    let game = RulesetId::from_key(&one.game).or(args.game);
                    (one.addr, game)
                }
                many => {
                    say("Tables on this network:");
                    for f in many {
                        say(&format!(
                            "  {} — {} · {} · {} seats (protocol {})",
                            f.addr, f.name, f.game, f.seats, f.version
                        ));
                    }
                    return Err(CliError::failed(
                        "error: more than one table: join one by its address (bterm join ADDRESS[:PORT])",
                    ));
                }
            }
        }
    };
    // A game not known yet is guessed from the cards brought (a deck or a
    // team), and else asked of the table: a client of the wrong game is
    // refused with the table's game, and tries again with it.
    if game.is_none()
        && let Some(c) = &args.cards
    {
        let reads: Vec<(RulesetId, Result<Vec<CardNumber>, CliError>)> = RulesetId::ALL
            .iter()
            .map(|&g| (g, read_cards(g, c, &set)))
            .collect();
        let fits: Vec<RulesetId> = reads
            .iter()
            .filter(|(_, r)| r.is_ok())
            .map(|(g, _)| *g)
            .collect();
        match fits.as_slice() {
            [one] => game = Some(*one),
            [] => {
                let why: Vec<String> = reads
                    .iter()
                    .filter_map(|(g, r)| {
                        let e = r.as_ref().err()?;
                        Some(format!(
                            "  as a {} ({}): {}",
                            g.facts().brings,
                            g.name(),
                            e.message.trim_start_matches("error: ")
                        ))
                    })
                    .collect();
                return Err(CliError::usage(format!(
                    "error: \"{}\" is not what any game brings.\n{}",
                    super::escape(c),
                    why.join("\n")
                )));
            }
            _ => {}
        }
    }
    // Else the table is asked which game it plays.
    let from_cards = args.game.is_none() && game.is_some();
    if game.is_none() {
        game = Some(
            crate::net::client::ask_game(addr)
                .map_err(|e| CliError::failed(format!("error: {e}")))?
                .ruleset,
        );
    }
    for _ in 0..2 {
        let Some(g) = game else { break };
        struct JoinIt<'a>(&'a JoinArgs, SocketAddr, &'a CardSet);
        impl TextVisitor for JoinIt<'_> {
            type Output = Result<(), Retry>;
            fn visit<R: TextGame>(self) -> Self::Output {
                join_game::<R>(self.0, self.1, self.2)
            }
        }
        match dispatch(g, JoinIt(&args, addr, &set)) {
            Err(Retry::Game(other)) if from_cards => {
                return Err(CliError::failed(format!(
                    "error: the table plays the {other}; what you bring is a {} of the {g}: bring a {} of the {other}",
                    g.facts().brings,
                    other.facts().brings
                )));
            }
            Err(Retry::Game(other)) if args.game.is_none() && other != g => game = Some(other),
            Err(Retry::Game(other)) => {
                return Err(CliError::failed(format!(
                    "error: the table plays the {other}, not the {g}: leave out --game"
                )));
            }
            Err(Retry::Fail(e)) => return Err(e),
            Ok(()) => return Ok(()),
        }
    }
    Err(CliError::failed("error: the table would not say its game"))
}

enum Retry {
    Game(RulesetId),
    Fail(CliError),
}

/// `HOST`, `HOST:PORT`, an IP address with or without a port.
pub(super) fn resolve(text: &str) -> Result<SocketAddr, CliError> {
    if let Ok(a) = text.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Ok(ip) = text.trim_matches(['[', ']']).parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    // A name may give IPv6 and IPv4 addresses; a table listens on IPv4.
    [text.to_string(), format!("{text}:{DEFAULT_PORT}")]
        .iter()
        .find_map(|t| {
            let all: Vec<SocketAddr> = t.to_socket_addrs().ok()?.collect();
            all.iter().find(|a| a.is_ipv4()).or(all.first()).copied()
        })
        .ok_or_else(|| {
            CliError::usage(format!(
                "error: \"{}\" is not an address: write HOST or HOST:PORT (e.g. 192.168.1.20:{DEFAULT_PORT})",
                super::escape(text)
            ))
        })
}

/// What a client that asked for the hard CPU is told when this game's hard
/// CPU needs the whole table, which a client does not hold.
fn hard_note<R: crate::ai::Cpu>(cpu: Option<Strength>) -> Option<String> {
    (cpu == Some(Strength::Hard) && !R::HARD_FROM_VIEW).then(|| {
        format!(
            "Note ({}): the hard CPU searches from the whole table, which a seat that joins does not hold; here it plays your seat as the normal CPU does. For the hard CPU, have the host seat it (bterm host … --cpu P2=hard).",
            R::NAME
        )
    })
}

fn join_game<R: TextGame>(args: &JoinArgs, addr: SocketAddr, set: &CardSet) -> Result<(), Retry> {
    let role = if args.spectate {
        Role::Spectator
    } else {
        Role::Player
    };
    let cards = match (&args.cards, role) {
        (Some(c), Role::Player) => R::read_cards(c, set).map_err(Retry::Fail)?,
        (None, Role::Player) => {
            return Err(Retry::Fail(CliError::usage(format!(
                "error: bring a {} to play (or --spectate to watch)",
                R::BRINGS
            ))));
        }
        (_, Role::Spectator) => Vec::new(),
    };
    let options = JoinOptions::new(
        addr,
        args.name.as_deref().unwrap_or("player"),
        role,
        &args.code,
        cards,
    );
    let mut front = TextSeat {
        keys: Keyboard {
            lines: keyboard_lines(),
            timer: None,
            cards: set,
            out: std::io::stdout(),
        },
        cpu: args.cpu,
    };
    if let Some(note) = hard_note::<R>(args.cpu) {
        say(&note);
    }
    say(&format!("Joining {addr}…"));
    let ended: Ended<R> = match join::<R, _>(&options, set, &mut front) {
        Ok(e) => e,
        Err(JoinError::OtherGame(g)) => return Err(Retry::Game(g)),
        Err(e) => return Err(Retry::Fail(CliError::failed(format!("error: {e}")))),
    };
    say(&format!("Game over: {}", outcome_words(ended.outcome)));
    keep_replay(&ended.replay, args.save.as_deref()).map_err(Retry::Fail)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_asking_for_the_hard_cpu_is_told_where_it_plays_normal() {
        use crate::rules::{alpha, clash, dcg, terminal};
        for note in [
            hard_note::<dcg::Match>(Some(Strength::Hard)),
            hard_note::<clash::Match>(Some(Strength::Hard)),
        ] {
            let note = note.expect("told");
            assert!(
                note.contains("as the normal CPU does") && note.contains("--cpu P2=hard"),
                "{note}"
            );
        }
        assert!(hard_note::<dcg::Match>(Some(Strength::Normal)).is_none());
        assert!(hard_note::<dcg::Match>(None).is_none());
        assert!(hard_note::<alpha::Match>(Some(Strength::Hard)).is_none());
        assert!(hard_note::<terminal::Match>(Some(Strength::Hard)).is_none());
    }

    #[test]
    fn a_client_closes_its_prompt_before_the_host_s_clock_runs_out() {
        // 5 s left at the host: 4 here, an answer's way back to spare.
        assert_eq!(client_seconds(5.0), 4.0);
        assert_eq!(client_seconds(4.6), 4.0);
        assert_eq!(client_seconds(4.4), 3.0);
        for tenth in 15..=3000 {
            let left = tenth as f32 / 10.0;
            assert!(client_seconds(left) + ANSWER_MARGIN <= left, "{left}");
        }
        assert_eq!(client_seconds(0.2), 1.0, "never no time at all");
    }

    #[test]
    fn an_address_without_a_port_gets_the_table_port() {
        assert_eq!(
            resolve("127.0.0.1").unwrap(),
            SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT))
        );
        assert_eq!(
            resolve("127.0.0.1:9000").unwrap(),
            SocketAddr::from(([127, 0, 0, 1], 9000))
        );
        assert!(resolve("not an address at all").is_err());
    }

    #[test]
    fn a_cpu_seat_is_read_from_its_words() {
        let set = CardSet::embedded();
        let (seat, strength, cards) = parse_cpu(RulesetId::Alpha, "P3=hard:courage", &set).unwrap();
        assert_eq!((seat.index(), strength), (2, Strength::Hard));
        assert_eq!(cards.map(|c| c.len()), Some(32));
        let (seat, strength, cards) = parse_cpu(RulesetId::Terminal, "p2=easy", &set).unwrap();
        assert_eq!((seat, strength, cards), (Seat::P2, Strength::Easy, None));
        for bad in ["P2", "P2=wizard", "P9=easy", "=easy"] {
            assert!(parse_cpu(RulesetId::Terminal, bad, &set).is_err(), "{bad}");
        }
    }
}
