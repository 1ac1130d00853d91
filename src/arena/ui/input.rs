//! The cabinet's three buttons per player (Red, Blue, Green = A, B, C) from
//! keys and gamepads, and the keys that leave the game.
//!
//! P1: keys 1 2 3 (or the numpad's), the first gamepad's face buttons.
//! P2: keys J K L, the second gamepad's face buttons.
//! Ctrl+Shift+Q quits, kiosk or not. Outside a kiosk, Esc goes back to the
//! attract screen, and quits from there.

use bevy::ecs::system::SystemParam;
use bevy::input::gamepad::{Gamepad, GamepadButton};
use bevy::prelude::*;

use crate::arena::{AppSystems, Screen, Settings};
use crate::cards::BattleType;
use crate::rules::terminal::Side;

/// A cabinet button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// Red: stance A, "yes", "ready".
    A,
    /// Blue: stance B, "no", "undo".
    B,
    /// Green: stance C, "change".
    C,
}

impl Button {
    /// All three, in cabinet order.
    pub const ALL: [Button; 3] = [Button::A, Button::B, Button::C];

    /// The battle type the button presses as a stance.
    pub fn stance(self) -> BattleType {
        match self {
            Button::A => BattleType::A,
            Button::B => BattleType::B,
            Button::C => BattleType::C,
        }
    }

    /// The button's colour on the cabinet.
    pub fn colour(self) -> Color {
        crate::arena::ui::theme::stance(self.stance())
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A button was just pressed.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Press {
    /// Whose button.
    pub player: Side,
    /// Which.
    pub button: Button,
}

/// A button was just let go (for "hold for Alpha Strike").
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// Whose button.
    pub player: Side,
    /// Which.
    pub button: Button,
}

/// Which buttons are down now.
#[derive(Resource, Debug, Default, Clone)]
pub struct Held(pub [[bool; 3]; 2]);

impl Held {
    /// Whether `player`'s `button` is down.
    pub fn is_down(&self, player: Side, button: Button) -> bool {
        self.0[player.index()][button.index()]
    }
}

/// While a person types a card number, keys are letters, not buttons.
#[derive(Resource, Debug, Default)]
pub struct Typing(pub bool);

const KEYS: [[KeyCode; 3]; 2] = [
    [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3],
    [KeyCode::KeyJ, KeyCode::KeyK, KeyCode::KeyL],
];
const NUMPAD: [KeyCode; 3] = [KeyCode::Numpad1, KeyCode::Numpad2, KeyCode::Numpad3];
const PAD: [GamepadButton; 3] = [
    GamepadButton::South,
    GamepadButton::East,
    GamepadButton::West,
];

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_message::<Press>()
        .add_message::<Release>()
        .init_resource::<Held>()
        .add_message::<Choose>()
        .add_message::<Back>()
        .init_resource::<Typing>()
        .init_resource::<CHold>()
        .add_systems(
            Update,
            ((read_buttons, c_gestures).chain(), leave_keys).in_set(AppSystems::RecordInput),
        );
    // The press that changed the screen must not also act on the new one.
    for s in [
        Screen::Attract,
        Screen::Scan,
        Screen::Battle,
        Screen::Result,
        Screen::Replay,
        Screen::Choose,
        Screen::TableSetup,
        Screen::DeckScreen,
        Screen::Table,
        Screen::LanHost,
        Screen::LanJoin,
        Screen::LanLobby,
    ] {
        app.add_systems(
            OnEnter(s),
            |mut presses: ResMut<Messages<Press>>,
             mut chooses: ResMut<Messages<Choose>>,
             mut backs: ResMut<Messages<Back>>,
             mut hold: ResMut<CHold>| {
                presses.clear();
                chooses.clear();
                backs.clear();
                // A C that went down on the last screen neither chooses
                // nor goes back on this one.
                hold.0 = [None; 2];
            },
        );
    }
}

fn read_buttons(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    pads: Query<&Gamepad>,
    typing: Res<Typing>,
    mut held: ResMut<Held>,
    mut presses: MessageWriter<Press>,
    mut releases: MessageWriter<Release>,
) {
    let mut now = [[false; 3]; 2];
    if !typing.0
        && let Some(keys) = &keys
    {
        for side in Side::BOTH {
            for b in Button::ALL {
                let mut down = keys.pressed(KEYS[side.index()][b.index()]);
                if side == Side::P1 {
                    down |= keys.pressed(NUMPAD[b.index()]);
                }
                now[side.index()][b.index()] = down;
            }
        }
    }
    for (i, pad) in pads.iter().take(2).enumerate() {
        for b in Button::ALL {
            now[i][b.index()] |= pad.pressed(PAD[b.index()]);
        }
    }
    for side in Side::BOTH {
        for b in Button::ALL {
            let (was, is) = (
                held.0[side.index()][b.index()],
                now[side.index()][b.index()],
            );
            if is && !was {
                presses.write(Press {
                    player: side,
                    button: b,
                });
            } else if was && !is {
                releases.write(Release {
                    player: side,
                    button: b,
                });
            }
        }
    }
    held.0 = now;
}

fn leave_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    settings: Res<Settings>,
    typing: Res<Typing>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(keys) = keys else { return };
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl && shift && keys.just_pressed(KeyCode::KeyQ) {
        exit.write(AppExit::Success);
        return;
    }
    if settings.kiosk || typing.0 || !keys.just_pressed(KeyCode::Escape) {
        return;
    }
    match screen.get() {
        Screen::Attract => {
            exit.write(AppExit::Success);
        }
        Screen::Replay | Screen::Table if settings.opens_on_replay() => {
            exit.write(AppExit::Success);
        }
        _ => next.set(Screen::Attract),
    }
}

/// How long C is held to go back, seconds.
pub const HOLD_BACK: f32 = 0.7;

/// C tapped (let go before [`HOLD_BACK`]): choose.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choose(pub Side);

/// C held for [`HOLD_BACK`]: go back.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Back(pub Side);

/// How long each player's C has been down, if it went down on this screen
/// and has not gone back yet.
#[derive(Resource, Debug, Default, Clone)]
struct CHold([Option<f32>; 2]);

/// Turns C into a tap (choose) or a hold (back). A press is counted from the
/// frame it arrives; a press and its release in one frame is a tap.
fn c_gestures(
    time: Res<Time>,
    mut presses: MessageReader<Press>,
    mut releases: MessageReader<Release>,
    mut hold: ResMut<CHold>,
    mut choose: MessageWriter<Choose>,
    mut back: MessageWriter<Back>,
) {
    let dt = time.delta_secs();
    for h in hold.0.iter_mut().flatten() {
        *h += dt;
    }
    for p in presses.read().filter(|p| p.button == Button::C) {
        hold.0[p.player.index()] = Some(0.0);
    }
    for r in releases.read().filter(|r| r.button == Button::C) {
        // Let go after the hold time (a slow frame): still a hold.
        match hold.0[r.player.index()].take() {
            Some(h) if h >= HOLD_BACK => {
                back.write(Back(r.player));
            }
            Some(_) => {
                choose.write(Choose(r.player));
            }
            None => {}
        }
    }
    for side in Side::BOTH {
        if hold.0[side.index()].is_some_and(|h| h >= HOLD_BACK) {
            hold.0[side.index()] = None;
            back.write(Back(side));
        }
    }
}

/// What a menu reads each frame: A and B presses, C's taps and holds, and
/// the keys (↑ ↓ move, Enter chooses, Backspace goes back).
#[derive(SystemParam)]
pub struct Moves<'w, 's> {
    presses: MessageReader<'w, 's, Press>,
    chooses: MessageReader<'w, 's, Choose>,
    backs: MessageReader<'w, 's, Back>,
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    typing: Res<'w, Typing>,
}

/// The mouse pointer: whether it moved this frame. A hover counts only
/// then, not when lines move under a pointer that stays still.
#[derive(SystemParam)]
pub struct Pointer<'w, 's> {
    windows: Query<'w, 's, &'static Window>,
    last: Local<'s, Option<Vec2>>,
}

impl Pointer<'_, '_> {
    /// Whether the pointer is over a window and moved since last asked.
    pub fn moved(&mut self) -> bool {
        let now = self.windows.iter().find_map(Window::cursor_position);
        let moved = now.is_some() && now != *self.last;
        *self.last = now;
        moved
    }
}

/// One frame's moves in a menu.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Move {
    /// A or ↑.
    pub up: bool,
    /// B or ↓.
    pub down: bool,
    /// C tapped, or Enter.
    pub choose: bool,
    /// C held, or Backspace.
    pub back: bool,
}

impl Move {
    /// Whether anything was pressed.
    pub fn any(self) -> bool {
        self.up || self.down || self.choose || self.back
    }
}

impl Moves<'_, '_> {
    /// This frame's moves.
    pub fn read(&mut self) -> Move {
        let typing = self.typing.0;
        let key =
            |k: KeyCode| !typing && self.keys.as_ref().is_some_and(|keys| keys.just_pressed(k));
        let mut m = Move {
            up: key(KeyCode::ArrowUp),
            down: key(KeyCode::ArrowDown),
            choose: key(KeyCode::Enter) || key(KeyCode::NumpadEnter),
            back: key(KeyCode::Backspace),
        };
        for p in self.presses.read() {
            match p.button {
                Button::A => m.up = true,
                Button::B => m.down = true,
                Button::C => {}
            }
        }
        m.choose |= self.chooses.read().count() > 0;
        m.back |= self.backs.read().count() > 0;
        m
    }
}
