//! Scripted runs: save a screenshot and quit after a number of frames, so
//! the game can be looked at under a virtual display.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use crate::cli::PlayArgs;

/// Frames to wait before a screenshot, so the first frames (shader
/// compilation on a software renderer) are past.
const SCREENSHOT_AFTER_FRAMES: u32 = 60;
/// Frames to let the screenshot reach the disk before quitting.
const SAVE_FRAMES: u32 = 20;

/// What a scripted run does.
#[derive(Resource, Debug, Clone, Default)]
pub struct Script {
    screenshot: Option<PathBuf>,
    quit_after: Option<u32>,
}

impl From<&PlayArgs> for Script {
    fn from(args: &PlayArgs) -> Self {
        let quit_after = args.frames.or(args
            .screenshot
            .as_ref()
            .map(|_| SCREENSHOT_AFTER_FRAMES + SAVE_FRAMES));
        Script {
            screenshot: args.screenshot.clone(),
            quit_after,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Script>()
        .add_systems(Update, run_script);
}

fn run_script(
    mut commands: Commands,
    script: Res<Script>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame == SCREENSHOT_AFTER_FRAMES
        && let Some(path) = &script.screenshot
    {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
    if script.quit_after.is_some_and(|n| *frame >= n) {
        exit.write(AppExit::Success);
    }
}
