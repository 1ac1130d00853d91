//! The table's session polled once a frame: the host's views, events and
//! questions followed by the duel or the card table on screen.

use super::*;

/// The table's session, one frame, when it is of ruleset `R`: what the
/// host said goes to the game on screen (started when the host's first
/// view comes), and this seat's answer goes out.
pub(super) fn pump<R: Staged>(
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
pub(super) fn common<R: Lan>(lan: &mut LanTable, h: Happened<R>) -> Option<Happened<R>> {
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
    fn ended(&mut self, replay: Replay<R>, cards: &CardSet);
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
        self.host.follow(view.clone());
        if let Some(r) = self.remote.as_mut() {
            r.events.extend(events);
        }
    }

    fn ended(&mut self, replay: Replay<terminal::Match>, _: &CardSet) {
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

    fn ended(&mut self, replay: Replay<R>, cards: &CardSet) {
        self.lan_ended(replay, cards);
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

    /// A Terminal Battle plays back in the replay viewer, on the stage.
    fn open_replay(
        file: &std::path::Path,
        text: &str,
        name: &str,
        settings: &mut Settings,
    ) -> Result<(), crate::replay::ReplayError> {
        let replay = Replay::<terminal::Match>::parse(text, name)?;
        settings.replay = Some((file.to_path_buf(), replay));
        Ok(())
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

            /// A card game plays back on the table (which parses it again
            /// when it lays the game out).
            fn open_replay(
                file: &std::path::Path,
                text: &str,
                name: &str,
                settings: &mut Settings,
            ) -> Result<(), crate::replay::ReplayError> {
                Replay::<$ty>::parse(text, name)?;
                settings.table = Some((file.to_path_buf(), text.to_string()));
                Ok(())
            }
        }
    )+};
}

card_games_staged!(alpha::Match, dcg::Match, clash::Match);

/// A session, one frame: the answer given goes out; what the host said
/// goes into `game` (the one on screen). Returns a game to start, when
/// the host's first view came.
pub(super) fn pump_game<R: Lan, G: Follows<R>>(
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
                    g.ended(end.replay, cards);
                }
            }
            _ => {}
        }
    }
    fresh
}

/// A line over the battle and the table: the LAN table, who is
/// reconnecting, a dropped connection being mended, a failure.
pub(super) fn status_line(
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
pub(super) fn leave_failed(
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
