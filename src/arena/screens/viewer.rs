//! The replay viewer: a saved battle staged in the arena, action by action,
//! with pause, step and speed. It opens from `bterm replay FILE` or from the
//! result screen, and checks at the end that the battle reached the replay's
//! recorded final state.
//!
//! Keys: Space (or button A) pause, Right (or B) one step, Up / Down (or C)
//! speed; A again when it has ended plays it from the start; Esc leaves.

use bevy::prelude::*;

use crate::arena::play::duel::{Duel, DuelStarted, SPEEDS, Show};
use crate::arena::screens::result::PendingReplay;
use crate::arena::ui::input::{Button, Press};
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::replay::Replay;
use crate::rules::terminal::Match;

/// The replay being viewed.
#[derive(Resource, Debug, Clone)]
pub struct Viewing {
    /// The replay.
    pub replay: Replay<Match>,
    /// Where it came from.
    pub name: String,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Seconds since it ended.
    pub ended_for: f32,
    /// Why it could not be staged, if it could not.
    pub error: Option<String>,
}

#[derive(Component)]
struct ViewerText;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Replay), enter)
        .add_systems(
            OnExit(Screen::Replay),
            (crate::arena::play::staging::end_duel, leave),
        )
        .add_systems(
            Update,
            (controls, draw)
                .chain()
                .run_if(in_state(Screen::Replay))
                .in_set(AppSystems::Update),
        );
}

/// Starts (or restarts) a replay as a duel.
fn stage_replay(
    commands: &mut Commands,
    viewing: &mut Viewing,
    cards: &Cards,
    started: &mut MessageWriter<DuelStarted>,
) {
    match Duel::replay(&viewing.replay, &cards.0) {
        Ok(duel) => {
            commands.insert_resource(duel);
            started.write(DuelStarted);
            viewing.error = None;
        }
        Err(e) => {
            viewing.error = Some(format!(
                "this replay cannot be played with these cards: {e}"
            ));
        }
    }
    viewing.ended_for = 0.0;
}

fn enter(
    mut commands: Commands,
    settings: Res<Settings>,
    pending: Option<Res<PendingReplay>>,
    cards: Res<Cards>,
    mut started: MessageWriter<DuelStarted>,
) {
    let (replay, name) = match (&settings.replay, pending) {
        // The file's name, not where it is on this machine: a clip is
        // made to be shared.
        (Some((path, r)), _) => (r.clone(), shown_name(path)),
        (None, Some(p)) => (p.0.clone(), p.1.clone()),
        (None, None) => return,
    };
    commands.remove_resource::<PendingReplay>();
    let mut viewing = Viewing {
        replay,
        name,
        speed: 1,
        ended_for: 0.0,
        error: None,
    };
    stage_replay(&mut commands, &mut viewing, &cards, &mut started);
    commands
        .spawn((
            DespawnOnExit(Screen::Replay),
            Node {
                position_type: PositionType::Absolute,
                top: px(170),
                width: percent(100),
                justify_content: JustifyContent::Center,
                ..default()
            },
        ))
        .with_children(|c| {
            c.spawn((
                Node {
                    padding: UiRect::axes(px(12), px(6)),
                    ..default()
                },
                BackgroundColor(palette::PANEL_REPLAY),
            ))
            .with_children(|p| {
                p.spawn((ViewerText, label("", size::BODY, palette::REPLAY)));
            });
        });
    commands.insert_resource(viewing);
}

fn leave(mut commands: Commands) {
    commands.remove_resource::<Viewing>();
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn controls(
    mut commands: Commands,
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut presses: MessageReader<Press>,
    viewing: Option<ResMut<Viewing>>,
    duel: Option<Res<Duel>>,
    mut show: ResMut<Show>,
    settings: Res<Settings>,
    cards: Res<Cards>,
    mut started: MessageWriter<DuelStarted>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut viewing) = viewing else {
        next.set(Screen::Attract);
        return;
    };
    let ended = duel
        .as_ref()
        .is_none_or(|d| d.host.verdict().is_some() && show.idle());
    let key = |k: KeyCode| keys.as_ref().is_some_and(|keys| keys.just_pressed(k));
    let mut pause = key(KeyCode::Space);
    let mut step = key(KeyCode::ArrowRight);
    let mut faster = key(KeyCode::ArrowUp);
    let slower = key(KeyCode::ArrowDown);
    let mut again = false;
    for p in presses.read() {
        match p.button {
            Button::A if ended => again = true,
            Button::A => pause = true,
            Button::B => step = true,
            Button::C => faster = true,
        }
    }
    if again || ended && key(KeyCode::Space) {
        stage_replay(&mut commands, &mut viewing, &cards, &mut started);
        return;
    }
    if pause {
        show.paused = !show.paused;
    }
    if step {
        show.paused = true;
        show.step = true;
    }
    if faster {
        viewing.speed = (viewing.speed + 1) % SPEEDS.len();
    }
    if slower {
        viewing.speed = viewing.speed.saturating_sub(1);
    }
    show.speed = SPEEDS[viewing.speed];
    if ended {
        viewing.ended_for += time.delta_secs();
        // Opened from the game: back to attract after a while (a kiosk never sticks).
        if settings.replay.is_none() && viewing.ended_for > settings.timeouts.replay_end {
            next.set(Screen::Attract);
        }
    }
}

fn draw(
    viewing: Option<Res<Viewing>>,
    duel: Option<Res<Duel>>,
    show: Res<Show>,
    mut q: Query<&mut Text, With<ViewerText>>,
) {
    let Some(viewing) = viewing else { return };
    let total = viewing.replay.actions.len();
    let value = if let Some(e) = &viewing.error {
        format!("REPLAY · {} · {e}", viewing.name)
    } else if let Some(duel) = duel {
        let done = total - duel.host.remaining();
        let verdict = duel.host.verdict().filter(|_| show.idle());
        let state = if let Some(verdict) = verdict {
            // The host checked it: the state it ended in, or the action
            // the rules refused.
            let check = match verdict {
                Ok(()) => "final state matches the replay ✓".to_string(),
                Err(e) => format!("{e} ✗"),
            };
            let outcome = match duel.m().outcome() {
                Some(crate::rules::Outcome::Win(seat)) => format!("{seat} won"),
                Some(crate::rules::Outcome::Draw) => "a draw".to_string(),
                None => "unfinished".to_string(),
            };
            format!("ENDED ({outcome}) · {check} · A again · Esc leave")
        } else if show.paused {
            "❚❚ PAUSED · Space/A play · →/B step".to_string()
        } else {
            "▶ PLAYING · Space/A pause · →/B step".to_string()
        };
        format!(
            "REPLAY · {} · action {done}/{total} · {}× (↑↓/C) · {state}",
            viewing.name, SPEEDS[viewing.speed]
        )
    } else {
        format!("REPLAY · {}", viewing.name)
    };
    for mut t in &mut q {
        if t.0 != value {
            t.0.clone_from(&value);
        }
    }
}

/// A replay file as the viewer's bar names it: its file name, never the
/// folders it sits in.
pub fn shown_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replay_bar_names_the_file_not_where_it_is() {
        let p = std::path::Path::new("/home/fan/private/replays/battle-1795750232-5.ron");
        assert_eq!(shown_name(p), "battle-1795750232-5.ron");
    }
}
