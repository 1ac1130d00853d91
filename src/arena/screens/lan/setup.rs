//! The host, join and lobby screens: their buttons, their lines, and the
//! scanner's trip for what a player brings.

use super::*;

/// Back at attract: the next person starts afresh (what the last one
/// brought and the code they typed are not theirs).
pub(super) fn forget_player(mut form: ResMut<LanForm>) {
    form.brings = Brings::House(0);
    form.code = [0; 4];
    form.watch = false;
}

/// Back at attract or the choice of game: the LAN table (and a table
/// hosted here) is left.
pub(super) fn leave_table(mut commands: Commands) {
    commands.remove_resource::<LanTable>();
    // A scanner left by Esc no longer scans for a LAN form.
    commands.remove_resource::<ScanReturn>();
}

/// Opens the scanner for this machine's team (the scan screen) or deck
/// (the deck screen, P1's), to come back to `back`.
pub(super) fn scan_for(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    game: RulesetId,
    back: Screen,
) {
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
pub(super) fn take_scan(
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
pub(super) struct FromScanner<'w> {
    pub(super) back: Option<Res<'w, ScanReturn>>,
    pub(super) roster: Option<Res<'w, crate::arena::screens::scan::Roster>>,
}

impl FromScanner<'_> {
    /// Whether the screen is entered back from the scanner (the form keeps
    /// its line) and, if so, takes what was scanned for `game`.
    pub(super) fn take(
        &self,
        commands: &mut Commands,
        form: &mut LanForm,
        game: Option<RulesetId>,
    ) -> bool {
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

pub(super) fn enter_host(mut commands: Commands, mut form: ResMut<LanForm>, scanner: FromScanner) {
    let game = Some(form.game);
    if !scanner.take(&mut commands, &mut form, game) {
        form.line = 0;
        form.problem = None;
    }
    form.idle = 0.0;
    spawn_panel(&mut commands, Screen::LanHost, "HOST A TABLE ON THE LAN");
}

pub(super) fn enter_join(
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

pub(super) fn enter_lobby(mut commands: Commands, lan: Option<ResMut<LanTable>>) {
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

pub(super) fn host_screen(
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

pub(super) fn draw_host(form: Res<LanForm>, cards: Res<Cards>, mut q: LineTexts) {
    let lines: Vec<String> = form
        .host_lines()
        .into_iter()
        .map(|l| form.host_text(l, &cards.0))
        .collect();
    show_lines(&lines, form.line, form.problem.as_deref(), &mut q);
}

pub(super) fn join_screen(
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

pub(super) fn draw_join(form: Res<LanForm>, cards: Res<Cards>, mut q: LineTexts) {
    let lines: Vec<String> = form
        .join_lines()
        .into_iter()
        .map(|l| form.join_text(l, &cards.0))
        .collect();
    show_lines(&lines, form.line, form.problem.as_deref(), &mut q);
}

/// The lobby: the only thing to choose is to leave (C held, or C on its
/// line); the game starts by itself once every seat is ready.
pub(super) fn lobby_screen(
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
pub(super) fn lobby_lines(lan: &LanTable) -> Vec<String> {
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

pub(super) fn draw_lobby(lan: Option<Res<LanTable>>, mut q: LineTexts) {
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
pub(super) fn take_notes(time: Res<Time>, mut lan: ResMut<LanTable>) {
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
