//! Before a game: which game (the Terminal Battle, a card game on the
//! table, or a LAN table), and for a card game (the Card Game Alpha, the
//! Digimon Card Game) the seats, the format, who plays each (a person or
//! the CPU at a strength) and each seat's deck (a shipped deck, or one
//! scanned on the deck screen).
//!
//! The three buttons do it all: A and B move, C chooses (or changes the
//! line it is on), C held goes back; the keyboard's arrows, Enter and
//! Backspace too, and the mouse (a line clicked is chosen). Nothing pressed
//! for a while, or Esc, goes back to attract.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::ai::Strength;
use crate::arena::play::table::{self, TABLED};
use crate::arena::ui::input::{Move, Moves};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{label, palette, size, space};
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{CardNumber, CardSet};
use crate::rules::RulesetId;
use crate::session::Player;

/// What the choice screen lists: the Terminal Battle, each card game the
/// table stages, hosting and joining a LAN table.
pub fn games() -> Vec<String> {
    let mut v = vec!["TERMINAL BATTLE".to_string()];
    v.extend(TABLED.iter().map(|g| g.name().to_uppercase()));
    v.extend([
        "HOST A TABLE ON THE LAN".to_string(),
        "JOIN A TABLE ON THE LAN".to_string(),
    ]);
    v
}

/// The lobby's state.
#[derive(Resource, Debug, Clone)]
pub struct Lobby {
    /// The line chosen.
    pub line: usize,
    /// The card game.
    pub game: RulesetId,
    /// Its format, by index into its formats.
    pub format: usize,
    /// Seats at the table, 2 to 4.
    pub seats: usize,
    /// Who plays each seat.
    pub players: [Player; 4],
    /// Each seat's deck.
    pub decks: [DeckChoice; 4],
    /// Each seat's scanned cards so far (kept when the deck screen is left
    /// before the deck is full).
    pub scanned: [Vec<CardNumber>; 4],
    /// Seconds without a press.
    pub idle: f32,
    /// Why the game could not start, if it could not.
    pub problem: Option<String>,
    /// The line to come back to from the deck screen.
    pub return_line: Option<usize>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby {
            line: 0,
            game: TABLED[0],
            format: 0,
            seats: 2,
            players: [
                Player::Person,
                Player::Cpu(Strength::Normal),
                Player::Cpu(Strength::Normal),
                Player::Cpu(Strength::Normal),
            ],
            decks: [0, 1, 2, 3].map(DeckChoice::Shipped),
            scanned: Default::default(),
            idle: 0.0,
            problem: None,
            return_line: None,
        }
    }
}

/// A seat's deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckChoice {
    /// A shipped deck: the game's house choice (of its format).
    Shipped(usize),
    /// Scan one: C on this line opens the deck screen.
    Scan,
    /// A deck scanned on the deck screen, checked.
    Scanned(Vec<CardNumber>),
}

/// What C on a setup line does beyond changing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// Nothing more: the line changed.
    Stay,
    /// Start the game.
    Start,
    /// Open the deck screen for a seat.
    ScanDeck(usize),
}

/// One line of a card game's setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// How many seats.
    Seats,
    /// The format (a game that has more than one).
    Format,
    /// Who plays a seat.
    Player(usize),
    /// A seat's deck.
    Deck(usize),
    /// Start the game.
    Start,
}

impl Lobby {
    /// The setup's lines, in order.
    pub fn lines(&self) -> Vec<Line> {
        let mut v = vec![Line::Seats];
        if self.game.facts().formats.len() > 1 {
            v.push(Line::Format);
        }
        for i in 0..self.seats {
            v.extend([Line::Player(i), Line::Deck(i)]);
        }
        v.push(Line::Start);
        v
    }

    /// A line in words.
    pub fn text(&self, line: Line, cards: &CardSet) -> String {
        match line {
            Line::Seats => format!("Seats: {}", self.seats),
            Line::Format => format!("Format: {}", self.format_word()),
            Line::Player(i) => format!("P{} plays: {}", i + 1, self.players[i].label()),
            Line::Deck(i) => format!("P{} deck: {}", i + 1, self.deck_text(i, cards)),
            Line::Start => "START THE GAME".to_string(),
        }
    }

    /// The format chosen, as the rules name it.
    pub fn format_word(&self) -> &'static str {
        let formats = self.game.facts().formats;
        formats
            .get(self.format)
            .or(formats.first())
            .copied()
            .unwrap_or("standard")
    }

    /// A game of `game` from the start: its first format, the shipped
    /// decks, the seats it may have.
    pub fn set_game(&mut self, game: RulesetId) {
        if self.game != game {
            self.game = game;
            self.format = 0;
            self.decks = [0, 1, 2, 3].map(DeckChoice::Shipped);
            self.scanned = Default::default();
        }
        let seats = game.facts().seats;
        self.seats = self.seats.clamp(*seats.start(), *seats.end());
    }

    fn deck_text(&self, i: usize, cards: &CardSet) -> String {
        match &self.decks[i] {
            DeckChoice::Shipped(k) => {
                self.game
                    .house_deck_label(self.format_word(), *k as u64, cards)
            }
            DeckChoice::Scan if self.scanned[i].is_empty() => {
                "scan a deck (C opens the scanner)".to_string()
            }
            DeckChoice::Scan => format!(
                "scan a deck ({} so far; C goes on)",
                self.game
                    .deck_rules()
                    .map_or_else(String::new, |r| (r.count)(&self.scanned[i], cards))
            ),
            DeckChoice::Scanned(d) => format!("scanned ({} cards)", d.len()),
        }
    }

    /// A seat's deck as card numbers, or why it has none.
    pub fn deck(&self, i: usize, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
        match &self.decks[i] {
            DeckChoice::Shipped(k) => {
                let d = self.game.house_deck(self.format_word(), *k as u64, cards);
                if d.is_empty() {
                    Err(format!(
                        "{} is not there: choose another deck",
                        self.game
                            .house_deck_label(self.format_word(), *k as u64, cards)
                    ))
                } else {
                    Ok(d)
                }
            }
            DeckChoice::Scan => Err(format!(
                "P{}'s deck is not scanned yet: C on its line opens the scanner",
                i + 1
            )),
            DeckChoice::Scanned(d) => Ok(d.clone()),
        }
    }

    /// C on a line: the next value, and what follows.
    pub fn change(&mut self, line: Line) -> Then {
        match line {
            Line::Seats => {
                let seats = self.game.facts().seats;
                self.seats = if self.seats >= *seats.end() {
                    *seats.start()
                } else {
                    self.seats + 1
                };
            }
            Line::Format => {
                self.format = (self.format + 1) % self.game.facts().formats.len().max(1);
                // A format's decks differ: each seat starts from its first.
                self.decks = [0, 1, 2, 3].map(DeckChoice::Shipped);
            }
            Line::Player(i) => {
                let at = Player::ALL
                    .iter()
                    .position(|p| *p == self.players[i])
                    .unwrap_or(0);
                self.players[i] = Player::ALL[(at + 1) % Player::ALL.len()];
            }
            Line::Deck(i) => {
                self.decks[i] = match self.decks[i] {
                    DeckChoice::Shipped(k) if (k as u64) + 1 < self.game.facts().house_picks => {
                        DeckChoice::Shipped(k + 1)
                    }
                    // The deck screen builds a deck of the standard format.
                    DeckChoice::Shipped(_)
                        if self.format == 0 && self.game.deck_rules().is_some() =>
                    {
                        DeckChoice::Scan
                    }
                    DeckChoice::Shipped(_) => DeckChoice::Shipped(0),
                    DeckChoice::Scan => return Then::ScanDeck(i),
                    DeckChoice::Scanned(_) => DeckChoice::Shipped(0),
                }
            }
            Line::Start => return Then::Start,
        }
        Then::Stay
    }
}

/// The most lines a lobby screen shows (seats, 2 per seat, start).
pub(in crate::arena) const MAX_LINES: usize = 10;

/// One line of a lobby screen; the mouse chooses it too.
#[derive(Component)]
pub(in crate::arena) struct LobbyLine(usize);

/// What is wrong, under the lines.
#[derive(Component)]
pub(in crate::arena) struct LobbyProblem;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<Lobby>()
        .add_systems(OnEnter(Screen::Choose), enter_choose)
        .add_systems(OnEnter(Screen::TableSetup), enter_setup)
        .add_systems(
            Update,
            (choose_game, draw_choose)
                .chain()
                .run_if(in_state(Screen::Choose))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            (set_up, draw_setup)
                .chain()
                .run_if(in_state(Screen::TableSetup))
                .in_set(AppSystems::Update),
        );
}

/// How long the lobby waits for a press before going back to attract.
pub(in crate::arena) const IDLE_SECONDS: f32 = 30.0;

pub(in crate::arena) fn spawn_panel(commands: &mut Commands, screen: Screen, title: &str) {
    commands
        .spawn(screen_layer("Lobby", screen, 40.0, AlignItems::Center))
        .with_children(|c| {
            c.spawn(centred_column()).with_children(|top| {
                top.spawn(label(title, size::HEADING, palette::GOLD));
            });
            c.spawn((
                Node {
                    padding: UiRect::all(px(space::PAD_L)),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|p| {
                p.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(space::LINE),
                    ..default()
                })
                .with_children(|col| {
                    for i in 0..MAX_LINES {
                        col.spawn((
                            LobbyLine(i),
                            Interaction::default(),
                            label("", size::NAME, palette::INK),
                        ));
                    }
                    col.spawn((LobbyProblem, label("", size::PROMPT, palette::BAD)));
                });
            });
            c.spawn(label(
                "A / B move · C chooses · hold C goes back (or click a line)",
                size::PROMPT,
                palette::DIM,
            ));
        });
}

fn enter_choose(mut commands: Commands, mut lobby: ResMut<Lobby>) {
    lobby.line = 0;
    lobby.idle = 0.0;
    spawn_panel(&mut commands, Screen::Choose, "WHICH GAME?");
}

fn enter_setup(mut commands: Commands, mut lobby: ResMut<Lobby>) {
    // Back from the deck screen, the line stays on that seat's deck.
    match lobby.return_line.take() {
        Some(line) => lobby.line = line,
        None => {
            lobby.line = 0;
            lobby.problem = None;
        }
    }
    lobby.idle = 0.0;
    let title = lobby.game.name().to_uppercase();
    spawn_panel(&mut commands, Screen::TableSetup, &title);
}

/// What a lobby screen reads each frame: the buttons, keys and mouse, the
/// clock for its idle timeout, and the button sound.
#[derive(SystemParam)]
pub(in crate::arena) struct LobbyInput<'w, 's> {
    time: Res<'w, Time>,
    moves: Moves<'w, 's>,
    pointer: crate::arena::ui::input::Pointer<'w, 's>,
    clicks: Query<'w, 's, (&'static Interaction, &'static LobbyLine), Changed<Interaction>>,
    sfx: MessageWriter<'w, Sfx>,
}

impl LobbyInput<'_, '_> {
    /// This frame's moves; a line clicked is chosen. A press clicks and
    /// restarts the idle clock.
    pub(in crate::arena) fn read(
        &mut self,
        line: &mut usize,
        idle: &mut f32,
        lines: usize,
    ) -> Move {
        let mut m = self.moves.read();
        let moved = self.pointer.moved();
        for (i, l) in &self.clicks {
            if l.0 < lines {
                match i {
                    Interaction::Pressed => {
                        *line = l.0;
                        m.choose = true;
                    }
                    Interaction::Hovered if moved => *line = l.0,
                    Interaction::Hovered => {}
                    Interaction::None => {}
                }
            }
        }
        *idle += self.time.delta_secs();
        if m.any() {
            *idle = 0.0;
            self.sfx.write(Sfx(Sound::Button));
        }
        m
    }
}

/// Shows a lobby screen's lines, the chosen one marked, and the problem.
pub(in crate::arena) fn show_lines(
    lines: &[String],
    chosen: usize,
    problem: Option<&str>,
    q: &mut LineTexts,
) {
    for (mut t, mut node, mut colour, line) in q.iter_mut() {
        let (text, display, ink) = match line {
            Some(LobbyLine(i)) => match lines.get(*i) {
                Some(l) => (
                    format!("{} {l}", if *i == chosen { "▶" } else { "  " }),
                    Display::Flex,
                    if *i == chosen {
                        palette::GOLD
                    } else {
                        palette::INK
                    },
                ),
                None => (String::new(), Display::None, palette::INK),
            },
            None => match problem {
                Some(p) => (p.to_string(), Display::Flex, palette::BAD),
                None => (String::new(), Display::None, palette::BAD),
            },
        };
        if t.0 != text {
            t.0 = text;
        }
        if node.display != display {
            node.display = display;
        }
        if colour.0 != ink {
            colour.0 = ink;
        }
    }
}

pub(in crate::arena) type LineTexts<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Text,
        &'static mut Node,
        &'static mut TextColor,
        Option<&'static LobbyLine>,
    ),
    Or<(With<LobbyLine>, With<LobbyProblem>)>,
>;

fn choose_game(
    mut input: LobbyInput,
    mut lobby: ResMut<Lobby>,
    mut next: ResMut<NextState<Screen>>,
) {
    let lobby = &mut *lobby;
    let n = games().len();
    let m = input.read(&mut lobby.line, &mut lobby.idle, n);
    if m.up {
        lobby.line = (lobby.line + n - 1) % n;
    }
    if m.down {
        lobby.line = (lobby.line + 1) % n;
    }
    if m.choose {
        // The Terminal Battle, each card game, then the LAN's two.
        let line = lobby.line;
        next.set(match line.checked_sub(1).map(|i| TABLED.get(i)) {
            None => Screen::Scan,
            Some(Some(&game)) => {
                lobby.set_game(game);
                Screen::TableSetup
            }
            Some(None) if line == TABLED.len() + 1 => Screen::LanHost,
            Some(None) => Screen::LanJoin,
        });
    } else if m.back || lobby.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_choose(lobby: Res<Lobby>, mut q: LineTexts) {
    show_lines(&games(), lobby.line, None, &mut q);
}

fn set_up(
    mut commands: Commands,
    mut input: LobbyInput,
    mut lobby: ResMut<Lobby>,
    (cards, settings): (Res<Cards>, Res<Settings>),
    mut next: ResMut<NextState<Screen>>,
) {
    let lines = lobby.lines();
    let n = lines.len();
    let lobby = &mut *lobby;
    let m = input.read(&mut lobby.line, &mut lobby.idle, n);
    if m.up {
        lobby.line = (lobby.line + n - 1) % n;
    }
    if m.down {
        lobby.line = (lobby.line + 1) % n;
    }
    lobby.line = lobby.line.min(n - 1);
    if m.choose {
        lobby.problem = None;
        let line = lines[lobby.line];
        match lobby.change(line) {
            Then::Stay => {}
            Then::ScanDeck(seat) => {
                lobby.return_line = Some(lobby.line);
                commands.insert_resource(DeckSeat(seat));
                next.set(Screen::DeckScreen);
            }
            Then::Start => {
                let seats = lobby.seats;
                let seed = settings.seed.unwrap_or_else(crate::session::clock_seed);
                let started = (0..seats)
                    .map(|i| lobby.deck(i, &cards.0))
                    .collect::<Result<Vec<_>, String>>()
                    .and_then(|decks| {
                        let players = &lobby.players[..seats];
                        let format = lobby.format_word();
                        table::live(
                            lobby.game,
                            players,
                            (decks, seed, format),
                            &cards.0,
                            &mut commands,
                        )
                        .unwrap_or_else(|| {
                            Err(format!("the table does not stage the {}", lobby.game))
                        })
                    });
                match started {
                    Ok(()) => next.set(Screen::Table),
                    Err(e) => lobby.problem = Some(e),
                }
            }
        }
    } else if m.back {
        next.set(Screen::Choose);
    }
    if lobby.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_setup(lobby: Res<Lobby>, cards: Res<Cards>, mut q: LineTexts) {
    let lines: Vec<String> = lobby
        .lines()
        .into_iter()
        .map(|l| lobby.text(l, &cards.0))
        .collect();
    show_lines(&lines, lobby.line, lobby.problem.as_deref(), &mut q);
}

/// The seat whose deck the deck screen scans.
#[derive(Resource, Debug, Clone, Copy)]
pub struct DeckSeat(pub usize);
