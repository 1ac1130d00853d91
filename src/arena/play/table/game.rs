//! A game on the table: the hosted game it presents (a match played here
//! or a replay; `Hosted` holds the seats, the CPUs, the clocks, the check
//! and saving), the viewer's keys, and the show of events.

use super::*;

/// A game played at the table: who plays each seat, and where the person
/// whose turn it is stands in their choice.
#[derive(Debug)]
pub struct Live {
    /// Who plays each seat.
    pub pilots: Vec<Player>,
    /// The answer the person asked is on.
    pub chosen: usize,
    /// Seconds with a person asked and nobody pressing anything.
    pub idle: f32,
    /// Hot seat: the table waits for this seat's person to take it (C).
    pub curtain: Option<Seat>,
    /// The person who last had the table.
    pub last_person: Option<Seat>,
    /// C held at a person's question: "leave the table?", on stay (0) or
    /// leave (1).
    pub leaving: Option<usize>,
    /// Seconds the "leave the table?" question has been up.
    pub leaving_for: f32,
}

impl Live {
    /// A game of `pilots`, nobody asked yet.
    pub fn new(pilots: Vec<Player>) -> Live {
        Live {
            pilots,
            chosen: 0,
            idle: 0.0,
            curtain: None,
            last_person: None,
            leaving: None,
            leaving_for: 0.0,
        }
    }

    pub(super) fn persons(&self) -> usize {
        self.pilots.iter().filter(|p| p.is_person()).count()
    }
}

/// A game between `players` with their `decks` (card numbers, checked by
/// the match's setup), to play at the table.
pub fn live_game<R: Tabled>(
    players: &[Player],
    setup: R::Setup,
    cards: &CardSet,
) -> Result<TableGame<R>, String> {
    let host = Hosted::new(setup.clone(), cards, players.to_vec()).map_err(|e| e.to_string())?;
    let replay = Replay {
        rules: R::version(&setup),
        setup,
        actions: Vec::new(),
        final_hash: 0,
    };
    let mut game = TableGame::blank(replay, "this game".to_string());
    game.start(host, cards);
    game.live = Some(Live::new(players.to_vec()));
    Ok(game)
}

impl<R: Tabled> TableGame<R> {
    /// A game ready to stage from its first action.
    pub fn new(replay: Replay<R>, name: String, cards: &CardSet) -> TableGame<R> {
        let mut game = TableGame::blank(replay, name);
        game.restart(cards);
        game
    }

    /// A game at a LAN table whose seats `setup` holds (not the host's
    /// secret seed: the replay is the whole game's only when it comes at
    /// the end); the person at this machine plays `mine` (`None`: watches).
    pub fn at_lan(setup: R::Setup, mine: Option<Seat>, name: String) -> TableGame<R> {
        let seats = R::seat_cards(&setup).len();
        let replay = Replay {
            rules: R::version(&setup),
            setup,
            actions: Vec::new(),
            final_hash: 0,
        };
        let mut game = TableGame::blank(replay, name);
        game.live = Some(Live::new(
            Seat::all(seats)
                .map(|s| {
                    if Some(s) == mine {
                        Player::Person
                    } else {
                        Player::Remote
                    }
                })
                .collect(),
        ));
        game.remote = Some(Remote::new(mine));
        game
    }

    /// A LAN game's end: its replay (checked by the session) is the one
    /// kept, played here into the game this table holds (so it is saved
    /// as every game is).
    pub fn lan_ended(&mut self, replay: Replay<R>, cards: &CardSet) {
        let pilots = self.live.as_ref().map(|l| l.pilots.clone());
        let pilots =
            pilots.unwrap_or_else(|| vec![Player::Remote; R::seat_cards(&replay.setup).len()]);
        match crate::arena::play::remote::replayed(&replay, cards, pilots) {
            Ok(table) => self.host = Some(Hosted::played(table)),
            Err(e) => warn!("the LAN game's replay does not play here: {e}"),
        }
        self.replay = replay;
        self.verdict = Some(Ok(()));
        if let Some(r) = self.remote.as_mut() {
            r.ended = true;
            r.asked = None;
        }
    }

    /// A game with nothing staged yet.
    pub fn blank(replay: Replay<R>, name: String) -> TableGame<R> {
        TableGame {
            name,
            replay,
            host: None,
            layout: None,
            next: 0,
            log: VecDeque::new(),
            phase: String::new(),
            banner: None,
            queued: VecDeque::new(),
            paused: false,
            speed: 1,
            wait: 1.0,
            verdict: None,
            ended_for: 0.0,
            pending: Vec::new(),
            live: None,
            marks: R::Marks::default(),
            remote: None,
        }
    }

    /// Back to the start.
    pub fn restart(&mut self, cards: &CardSet) {
        self.next = 0;
        self.marks = R::Marks::default();
        self.log.clear();
        self.pending.clear();
        self.banner = None;
        self.queued.clear();
        self.verdict = None;
        self.ended_for = 0.0;
        self.wait = 1.0;
        match Hosted::replay(&self.replay, cards) {
            Ok(host) => self.start(host, cards),
            Err(e) => {
                self.host = None;
                self.verdict = Some(Err(format!(
                    "this replay cannot be played with these cards: {e}"
                )));
            }
        }
    }

    /// Presents `host`'s game from its start.
    fn start(&mut self, host: Hosted<R>, cards: &CardSet) {
        let opening = host.game().opening_events().to_vec();
        self.layout = Some(host.game().lay_out());
        self.host = Some(host);
        for e in &opening {
            self.note(e, cards);
        }
    }

    /// The match as far as it has been staged (`None`: a LAN table that
    /// holds only the host's views, or a replay that cannot start).
    pub fn m(&self) -> Option<&R> {
        self.host.as_ref().map(Hosted::game)
    }

    /// A live game: the person at `seat` answers; returns how long to dwell
    /// on it.
    pub fn answer(&mut self, seat: Seat, reply: Reply<R::Action>, cards: &CardSet) -> f32 {
        let Some(host) = self.host.as_mut() else {
            return 0.0;
        };
        match host.answer(seat, reply, cards) {
            Ok(events) => self.staged(&events, cards),
            Err(e) => {
                warn!("refused: {e}");
                0.0
            }
        }
    }

    /// A hosted action's events go on the table; returns how long to
    /// dwell on them.
    pub(super) fn staged(&mut self, events: &[R::Event], cards: &CardSet) -> f32 {
        let Some(host) = &self.host else { return 0.0 };
        self.next = host.table().actions().len();
        self.layout = Some(host.game().lay_out());
        if let Some(v) = host.verdict() {
            self.verdict = Some(v.clone());
        }
        self.take(events, cards)
    }

    /// The seat asked now: the match's, or (a LAN table that holds no
    /// match) the layout's.
    pub fn waiting(&self) -> Option<Seat> {
        match self.m() {
            Some(m) => m.waiting_for(),
            None => self.layout.as_ref().and_then(R::layout_waiting),
        }
    }

    /// Whose hands are shown face up.
    pub fn hands(&self) -> Hands {
        let Some(live) = &self.live else {
            return Hands::All;
        };
        if live.persons() == 0 {
            return Hands::All;
        }
        if live.curtain.is_some() {
            return Hands::Only(None);
        }
        let person = |s: Seat| live.pilots.get(s.index()).is_some_and(|p| p.is_person());
        let asked = self.waiting().filter(|s| person(*s));
        let only = live
            .pilots
            .iter()
            .position(|p| p.is_person())
            .filter(|_| live.persons() == 1);
        Hands::Only(asked.or(live.last_person).map(Seat::index).or(only))
    }

    /// Plays on without staging up to action `n` (the tour's result shot).
    pub fn skip_to(&mut self, n: usize, cards: &CardSet) {
        while self.next < n && !self.ended() {
            self.step(cards);
        }
        self.pending.clear();
        self.marks = R::Marks::default();
        // What was skipped is not called out.
        self.banner = None;
        self.queued.clear();
    }

    /// Whether every action has been played.
    pub fn ended(&self) -> bool {
        self.verdict.is_some()
    }

    /// Plays a replay's next action; returns how long to dwell on it,
    /// seconds. The host checks the game against the replay.
    pub fn step(&mut self, cards: &CardSet) -> f32 {
        R::step_begins(&mut self.marks);
        let Some(host) = self.host.as_mut() else {
            return 0.0;
        };
        match host.play_next() {
            Some((_, events)) => self.staged(&events, cards),
            None => {
                self.verdict = host.verdict().cloned();
                0.0
            }
        }
    }

    /// Takes in an action's events; returns how long to dwell on them
    /// (long enough for the banners they raised).
    pub fn take(&mut self, events: &[R::Event], cards: &CardSet) -> f32 {
        let big = events.iter().filter(|e| R::dwells(e)).count();
        for e in events {
            self.note(e, cards);
        }
        (0.35 + 0.45 * big.min(3) as f32).max(BANNER_QUEUED * self.queued.len() as f32)
    }

    /// The banner up and those waiting, in the order they show.
    pub fn banners(&self) -> impl Iterator<Item = &str> {
        self.banner
            .iter()
            .chain(self.queued.iter())
            .map(|(b, _)| b.as_str())
    }

    /// Counts a banner down; the next waiting one goes up when it is done
    /// (sooner while others wait).
    pub(super) fn tick_banner(&mut self, dt: f32) {
        if let Some((_, left)) = &mut self.banner {
            if !self.queued.is_empty() {
                *left = left.min(BANNER_QUEUED);
            }
            *left -= dt;
            if *left <= 0.0 {
                self.banner = self.queued.pop_front();
            }
        }
    }

    /// Takes in one event: the log, the phase, a banner.
    pub(super) fn note(&mut self, e: &R::Event, cards: &CardSet) {
        let seats = R::seat_cards(&self.replay.setup).len();
        let said = R::noted(&mut self.marks, e, seats, cards);
        if let Some(phase) = said.phase {
            self.phase = phase;
        }
        if let Some(b) = said.banner {
            // The last word stays up.
            let seconds = if said.last_word { 30.0 } else { 1.6 };
            if self.banner.is_some() {
                self.queued.push_back((b, seconds));
                while self.queued.len() > MOST_QUEUED {
                    self.queued.pop_front();
                }
            } else {
                self.banner = Some((b, seconds));
            }
        }
        self.pending.push(e.clone());
        self.log.push_back(R::describe(e, cards));
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }
}

/// The CPUs' turn: the host works a CPU seat's choice out on a thread
/// (the hard CPU searches for up to 0.4 s) and takes it when it is ready.
pub(super) fn cpu_turn<R: Tabled>(game: &mut TableGame<R>, cards: &CardSet) {
    if game.live.is_none() {
        return;
    }
    let Some(host) = game.host.as_mut() else {
        return;
    };
    if let Some((_, events)) = host.cpu() {
        game.wait = game.staged(&events, cards);
    }
}

pub(super) fn controls<R: Tabled>(
    mut presses: MessageReader<Press>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    cards: Res<Cards>,
    game: Option<ResMut<TableGame<R>>>,
) {
    let Some(mut game) = game else { return };
    if game.live.is_some() {
        return;
    }
    let key = |k: KeyCode| keys.as_ref().is_some_and(|keys| keys.just_pressed(k));
    let mut pause = key(KeyCode::Space);
    let mut step = key(KeyCode::ArrowRight);
    let mut faster = key(KeyCode::ArrowUp);
    let slower = key(KeyCode::ArrowDown);
    for p in presses.read() {
        match p.button {
            Button::A => pause = true,
            Button::B => step = true,
            Button::C => faster = true,
        }
    }
    if pause && game.ended() {
        game.restart(&cards.0);
        game.paused = false;
        return;
    }
    if pause {
        game.paused = !game.paused;
    }
    if step && !game.ended() {
        game.paused = true;
        game.step(&cards.0);
    }
    if faster {
        game.speed = (game.speed + 1) % SPEEDS.len();
    }
    if slower {
        game.speed = game.speed.saturating_sub(1);
    }
}

pub(super) fn play<R: Tabled>(
    time: Res<Time>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    game: Option<ResMut<TableGame<R>>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut game) = game else { return };
    let dt = time.delta_secs();
    game.tick_banner(dt);
    if game.ended() {
        game.ended_for += dt;
        if game.live.is_some()
            && let Some(host) = game.host.as_mut()
            && host.saved().is_none()
            && let Some(Err(e)) = host.save(settings.replay_dir.clone())
        {
            warn!("{e}");
        }
        // Opened from the game: back to attract after a while (a kiosk
        // never sticks).
        let limit = if game.live.is_some() {
            settings.timeouts.result
        } else {
            settings.timeouts.replay_end
        };
        if settings.table.is_none() && game.ended_for > limit {
            next.set(Screen::Attract);
        }
        return;
    }
    if game.live.is_some() {
        game.wait -= dt;
        if game.wait <= 0.0 {
            cpu_turn(&mut game, &cards.0);
        }
        return;
    }
    if game.paused {
        return;
    }
    game.wait -= dt * SPEEDS[game.speed];
    if game.wait <= 0.0 {
        let dwell = game.step(&cards.0);
        game.wait = dwell;
    }
}
