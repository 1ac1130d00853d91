//! A LAN table this machine sits at: the host it runs (on a thread), the
//! client session it plays through, and joining one.

use super::*;

/// The table's host, when this machine hosts: its thread, its lines, its
/// announcement on the LAN.
pub(super) struct Hosting {
    pub(super) stop: Arc<AtomicBool>,
    pub(super) lines: Receiver<String>,
    /// Kept so the announcement lasts as long as the table.
    pub(super) _announced: Option<Announcement>,
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
    pub(super) link: Mutex<Option<Link>>,
    pub(super) hosting: Option<Mutex<Hosting>>,
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

    pub(super) fn note(&mut self, line: String) {
        self.notes.push_back(line);
        while self.notes.len() > NOTES {
            self.notes.pop_front();
        }
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
pub(super) fn run_host<R: Lan>(
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

/// Joins the table chosen on the join screen.
pub(super) fn join(form: &LanForm, cards: &CardSet) -> Result<LanTable, String> {
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
