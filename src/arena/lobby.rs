//! Before a game: which game (the Terminal Battle or the Card Game Alpha),
//! and for the Card Game Alpha the seats, who plays each (a person or the
//! CPU at a strength) and each seat's deck (a shipped deck, or one scanned
//! on the deck screen).
//!
//! The three buttons do it all: A and B move, C chooses (or changes the
//! line it is on), C held goes back; the keyboard's arrows, Enter and
//! Backspace too, and the mouse (a line clicked is chosen). Nothing pressed
//! for a while, or Esc, goes back to attract.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::hud::{centred_column, screen_layer};
use super::input::{Move, Moves};
use super::sound::{Sfx, Sound};
use super::table::{TableGame, live_game};
use super::theme::{label, palette, size, space};
use super::{AppSystems, Cards, Screen, Settings};
use crate::ai::Strength;
use crate::cards::{CardNumber, CardSet};
use crate::rules::alpha::deck;
use crate::session::Player;

/// The games there are, as the choice screen lists them.
pub const GAMES: [&str; 4] = [
    "TERMINAL BATTLE",
    "CARD GAME ALPHA",
    "HOST A TABLE ON THE LAN",
    "JOIN A TABLE ON THE LAN",
];

/// The lobby's state.
#[derive(Resource, Debug, Clone)]
pub struct Lobby {
    /// The line chosen.
    pub line: usize,
    /// Seats at the Alpha table, 2 to 4.
    pub seats: usize,
    /// Who plays each seat.
    pub players: [Player; 4],
    /// Each seat's deck.
    pub decks: [DeckChoice; 4],
    /// Each seat's scanned cards so far (kept when the deck screen is left
    /// before 32).
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
    /// A shipped deck: an index into [`deck::EMBEDDED`].
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

/// One line of the Alpha setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// How many seats.
    Seats,
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
        for i in 0..self.seats {
            v.extend([Line::Player(i), Line::Deck(i)]);
        }
        v.push(Line::Start);
        v
    }

    /// A line in words.
    pub fn text(&self, line: Line) -> String {
        match line {
            Line::Seats => format!("Seats: {}", self.seats),
            Line::Player(i) => format!("P{} plays: {}", i + 1, self.players[i].label()),
            Line::Deck(i) => format!("P{} deck: {}", i + 1, self.deck_text(i)),
            Line::Start => "START THE GAME".to_string(),
        }
    }

    fn deck_text(&self, i: usize) -> String {
        match &self.decks[i] {
            DeckChoice::Shipped(k) => deck::EMBEDDED.get(*k).map_or("?", |d| d.0).to_string(),
            DeckChoice::Scan if self.scanned[i].is_empty() => {
                "scan a deck (C opens the scanner)".to_string()
            }
            DeckChoice::Scan => format!(
                "scan a deck ({} of {} so far; C goes on)",
                self.scanned[i].len(),
                deck::DECK_SIZE
            ),
            DeckChoice::Scanned(d) => format!("scanned ({} cards)", d.len()),
        }
    }

    /// A seat's deck as card numbers, or why it has none.
    pub fn deck(&self, i: usize, cards: &CardSet) -> Result<Vec<CardNumber>, String> {
        match &self.decks[i] {
            DeckChoice::Shipped(k) => {
                let (stem, _) = deck::EMBEDDED.get(*k).ok_or("no such deck")?;
                match deck::embedded(stem, cards) {
                    Some(Ok(d)) => Ok(d),
                    Some(Err(e)) => Err(format!("the {stem} deck: {e}")),
                    None => Err(format!("no deck called {stem}")),
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
            Line::Seats => self.seats = if self.seats >= 4 { 2 } else { self.seats + 1 },
            Line::Player(i) => {
                let at = Player::ALL
                    .iter()
                    .position(|p| *p == self.players[i])
                    .unwrap_or(0);
                self.players[i] = Player::ALL[(at + 1) % Player::ALL.len()];
            }
            Line::Deck(i) => {
                self.decks[i] = match self.decks[i] {
                    DeckChoice::Shipped(k) if k + 1 < deck::EMBEDDED.len() => {
                        DeckChoice::Shipped(k + 1)
                    }
                    DeckChoice::Shipped(_) => DeckChoice::Scan,
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
pub(super) const MAX_LINES: usize = 10;

/// One line of a lobby screen; the mouse chooses it too.
#[derive(Component)]
pub(super) struct LobbyLine(usize);

/// What is wrong, under the lines.
#[derive(Component)]
pub(super) struct LobbyProblem;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lobby>()
        .add_systems(OnEnter(Screen::Choose), enter_choose)
        .add_systems(OnEnter(Screen::AlphaSetup), enter_setup)
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
                .run_if(in_state(Screen::AlphaSetup))
                .in_set(AppSystems::Update),
        );
}

/// How long the lobby waits for a press before going back to attract.
pub(super) const IDLE_SECONDS: f32 = 30.0;

pub(super) fn spawn_panel(commands: &mut Commands, screen: Screen, title: &str) {
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
    spawn_panel(&mut commands, Screen::AlphaSetup, "CARD GAME ALPHA");
}

/// What a lobby screen reads each frame: the buttons, keys and mouse, the
/// clock for its idle timeout, and the button sound.
#[derive(SystemParam)]
pub(super) struct LobbyInput<'w, 's> {
    time: Res<'w, Time>,
    moves: Moves<'w, 's>,
    pointer: super::input::Pointer<'w, 's>,
    clicks: Query<'w, 's, (&'static Interaction, &'static LobbyLine), Changed<Interaction>>,
    sfx: MessageWriter<'w, Sfx>,
}

impl LobbyInput<'_, '_> {
    /// This frame's moves; a line clicked is chosen. A press clicks and
    /// restarts the idle clock.
    pub(super) fn read(&mut self, line: &mut usize, idle: &mut f32, lines: usize) -> Move {
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
pub(super) fn show_lines(
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

pub(super) type LineTexts<'w, 's> = Query<
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
    let m = input.read(&mut lobby.line, &mut lobby.idle, GAMES.len());
    if m.up {
        lobby.line = (lobby.line + GAMES.len() - 1) % GAMES.len();
    }
    if m.down {
        lobby.line = (lobby.line + 1) % GAMES.len();
    }
    if m.choose {
        next.set(match lobby.line {
            0 => Screen::Scan,
            1 => Screen::AlphaSetup,
            2 => Screen::LanHost,
            _ => Screen::LanJoin,
        });
    } else if m.back || lobby.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_choose(lobby: Res<Lobby>, mut q: LineTexts) {
    let lines: Vec<String> = GAMES.iter().map(ToString::to_string).collect();
    show_lines(&lines, lobby.line, None, &mut q);
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
                next.set(Screen::AlphaDeck);
            }
            Then::Start => {
                let seats = lobby.seats;
                let seed = settings.seed.unwrap_or_else(crate::session::clock_seed);
                let game = (0..seats)
                    .map(|i| lobby.deck(i, &cards.0))
                    .collect::<Result<Vec<_>, String>>()
                    .and_then(|decks| live_game(&lobby.players[..seats], decks, seed, &cards.0));
                match game {
                    Ok(game) => {
                        commands.insert_resource::<TableGame>(game);
                        next.set(Screen::Table);
                    }
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

fn draw_setup(lobby: Res<Lobby>, mut q: LineTexts) {
    let lines: Vec<String> = lobby.lines().into_iter().map(|l| lobby.text(l)).collect();
    show_lines(&lines, lobby.line, lobby.problem.as_deref(), &mut q);
}

/// The seat whose deck the deck screen scans.
#[derive(Resource, Debug, Clone, Copy)]
pub struct DeckSeat(pub usize);
