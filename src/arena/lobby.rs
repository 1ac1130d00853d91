//! Before a game: which game (the Terminal Battle or the Card Game Alpha),
//! and for the Card Game Alpha the seats, who plays each (a person or the
//! CPU at a strength) and each seat's deck (a shipped deck).
//!
//! The three buttons do it all: A and B move, C chooses (or changes the
//! line it is on); the keyboard's arrows and Enter too. Nothing pressed for
//! a while, or Esc, goes back to attract.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::hud::{centred_column, screen_layer};
use super::input::Press;
use super::sound::{Sfx, Sound};
use super::table::{TableGame, live_game};
use super::theme::{label, palette, size, space};
use super::{AppSystems, Cards, Screen, Settings};
use crate::ai::Strength;
use crate::rules::alpha::deck;
use crate::session::Player;

/// The games there are, as the choice screen lists them.
pub const GAMES: [&str; 2] = ["TERMINAL BATTLE", "CARD GAME ALPHA"];

/// The lobby's state.
#[derive(Resource, Debug, Clone)]
pub struct Lobby {
    /// The line chosen.
    pub line: usize,
    /// Seats at the Alpha table, 2 to 4.
    pub seats: usize,
    /// Who plays each seat.
    pub players: [Player; 4],
    /// Each seat's deck: an index into the shipped decks.
    pub decks: [usize; 4],
    /// Seconds without a press.
    pub idle: f32,
    /// Why the game could not start, if it could not.
    pub problem: Option<String>,
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
            decks: [0, 1, 2, 3],
            idle: 0.0,
            problem: None,
        }
    }
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
            Line::Deck(i) => format!("P{} deck: {}", i + 1, deck::EMBEDDED[self.decks[i]].0),
            Line::Start => "START THE GAME".to_string(),
        }
    }

    /// C on a line: the next value, or (on START) `true` to start.
    pub fn change(&mut self, line: Line) -> bool {
        match line {
            Line::Seats => self.seats = if self.seats >= 4 { 2 } else { self.seats + 1 },
            Line::Player(i) => {
                let at = Player::ALL
                    .iter()
                    .position(|p| *p == self.players[i])
                    .unwrap_or(0);
                self.players[i] = Player::ALL[(at + 1) % Player::ALL.len()];
            }
            Line::Deck(i) => self.decks[i] = (self.decks[i] + 1) % deck::EMBEDDED.len(),
            Line::Start => return true,
        }
        false
    }
}

#[derive(Component)]
struct LobbyText;

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
const IDLE_SECONDS: f32 = 30.0;

fn spawn_panel(commands: &mut Commands, screen: Screen, title: &str) {
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
                p.spawn((LobbyText, label("", size::NAME, palette::INK)));
            });
            c.spawn(label(
                "A / B move · C chooses · Esc goes back",
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
    lobby.line = 0;
    lobby.idle = 0.0;
    lobby.problem = None;
    spawn_panel(&mut commands, Screen::AlphaSetup, "CARD GAME ALPHA");
}

/// What a lobby screen reads each frame: the presses and keys, the clock
/// for its idle timeout, and the button sound.
#[derive(SystemParam)]
struct LobbyInput<'w, 's> {
    time: Res<'w, Time>,
    presses: MessageReader<'w, 's, Press>,
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    sfx: MessageWriter<'w, Sfx>,
}

impl LobbyInput<'_, '_> {
    /// This frame's up, down and choose; a press clicks and restarts the
    /// idle clock.
    fn read(&mut self, lobby: &mut Lobby) -> (bool, bool, bool) {
        let (up, down, choose) = super::input::moves(&mut self.presses, self.keys.as_deref());
        lobby.idle += self.time.delta_secs();
        if up || down || choose {
            lobby.idle = 0.0;
            self.sfx.write(Sfx(Sound::Button));
        }
        (up, down, choose)
    }
}

fn choose_game(
    mut input: LobbyInput,
    mut lobby: ResMut<Lobby>,
    mut next: ResMut<NextState<Screen>>,
) {
    let (up, down, choose) = input.read(&mut lobby);
    if up || down {
        lobby.line = (lobby.line + 1) % GAMES.len();
    }
    if choose {
        next.set(if lobby.line == 0 {
            Screen::Scan
        } else {
            Screen::AlphaSetup
        });
    } else if lobby.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_choose(lobby: Res<Lobby>, mut q: Query<&mut Text, With<LobbyText>>) {
    let text = GAMES
        .iter()
        .enumerate()
        .map(|(i, g)| format!("{} {g}", if i == lobby.line { "▶" } else { "  " }))
        .collect::<Vec<_>>()
        .join("\n");
    for mut t in &mut q {
        if t.0 != text {
            t.0.clone_from(&text);
        }
    }
}

fn set_up(
    mut commands: Commands,
    mut input: LobbyInput,
    mut lobby: ResMut<Lobby>,
    (cards, settings): (Res<Cards>, Res<Settings>),
    mut next: ResMut<NextState<Screen>>,
) {
    let (up, down, choose) = input.read(&mut lobby);
    let lines = lobby.lines();
    let n = lines.len();
    if up {
        lobby.line = (lobby.line + n - 1) % n;
    }
    if down {
        lobby.line = (lobby.line + 1) % n;
    }
    lobby.line = lobby.line.min(n - 1);
    if choose {
        let line = lines[lobby.line];
        if lobby.change(line) {
            let seats = lobby.seats;
            let seed = settings.seed.unwrap_or_else(crate::session::clock_seed);
            match live_game(
                &lobby.players[..seats],
                &lobby.decks[..seats],
                seed,
                &cards.0,
            ) {
                Ok(game) => {
                    commands.insert_resource::<TableGame>(game);
                    next.set(Screen::Table);
                }
                Err(e) => lobby.problem = Some(e),
            }
        }
    }
    if lobby.idle > IDLE_SECONDS {
        next.set(Screen::Attract);
    }
}

fn draw_setup(lobby: Res<Lobby>, mut q: Query<&mut Text, With<LobbyText>>) {
    let mut text = lobby
        .lines()
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "{} {}",
                if i == lobby.line { "▶" } else { "  " },
                lobby.text(l)
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(p) = &lobby.problem {
        text.push_str(&format!("\n\n{p}"));
    }
    for mut t in &mut q {
        if t.0 != text {
            t.0.clone_from(&text);
        }
    }
}
