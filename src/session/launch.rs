//! What a command line hands a game window, so that the text commands and
//! the arena never import each other: the binary gives the command line a
//! [`Window`] when it was built with one.

use std::path::{Path, PathBuf};

use super::Player;
use crate::cards::CardSet;

/// How the game window should start.
#[derive(Debug, Clone)]
pub struct GameOptions {
    /// The card set to play with.
    pub cards: CardSet,
    /// Card scans (image files or folders) for P1's team.
    pub scans: Vec<PathBuf>,
    /// Card scans for P2's team.
    pub p2_scans: Vec<PathBuf>,
    /// Who plays P2 when the scan screen opens.
    pub p2: Player,
    /// No sound.
    pub mute: bool,
    /// Fullscreen, no cursor; only Ctrl+Shift+Q quits.
    pub kiosk: bool,
    /// A webcam to scan with (its index).
    pub camera: Option<u32>,
    /// Do not look for a webcam by itself on the scan screens.
    pub no_camera: bool,
    /// A folder of frames played as a camera.
    pub video: Option<PathBuf>,
    /// Where played battles are saved (default: the data folder's `replays`).
    pub replay_dir: Option<PathBuf>,
    /// The first battle's seed (default: from the clock).
    pub seed: Option<u64>,
    /// Save a screenshot of the first frames to this PNG, then quit.
    pub screenshot: Option<PathBuf>,
    /// Drive the game through every screen, saving a PNG of each here.
    pub tour: Option<PathBuf>,
    /// Quit after this many frames.
    pub frames: Option<u32>,
    /// The collection's database (default: the data folder's).
    pub db: Option<PathBuf>,
    /// Bloom on the arena's lights: `None` decides by the renderer (off on
    /// a software renderer, where it costs more than the rest of the
    /// frame; on for screenshots and tours).
    pub bloom: Option<bool>,
    /// LAN tables the join screen lists by address (besides those heard).
    pub lan_tables: Vec<std::net::SocketAddr>,
}

/// Why the game window could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// No screen to open a window on.
    #[error(
        "error: no display to open the game window on (DISPLAY and WAYLAND_DISPLAY are unset).\n\
         Run bterm from a desktop session, or without a screen under a virtual one: \
         xvfb-run -s \"-screen 0 1280x720x24\" bterm"
    )]
    NoDisplay,
    /// A webcam was asked for in a build without one.
    #[error(
        "error: this bterm was built without webcam support (cargo feature `camera`).\n\
         Rebuild with `cargo build --features camera`, or scan card files: `bterm play FILE...`, \
         or use a folder of frames as a camera: `bterm play --video DIR`"
    )]
    NoWebcamSupport,
    /// The window cannot stage this replay.
    #[error(
        "error: {file}: {why}\nthe arena stages Terminal Battle replays; use --headless for the text log"
    )]
    CannotStage {
        /// The replay file.
        file: String,
        /// Why not.
        why: String,
    },
    /// The game stopped with an error.
    #[error("error: the game stopped with an error (code {0})")]
    Stopped(u32),
    /// A clip could not be rendered or written.
    #[error("error: cannot make the clip: {0}")]
    Clip(String),
}

/// A replay rendered off-screen to an animated picture (`bterm replay FILE
/// --clip OUT.gif`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClipOptions {
    /// The picture to write (a GIF).
    pub out: std::path::PathBuf,
    /// The first round shown (1-based; `None`: the start).
    pub from: Option<u32>,
    /// The last round shown (`None`: the end).
    pub to: Option<u32>,
    /// Size in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames per second (of the clip).
    pub fps: u32,
    /// Playback speed, one of the replay viewer's (0.5, 1, 2, 4, 8).
    pub speed: f32,
    /// Overwrite `out` if it exists.
    pub force: bool,
}

/// What a clip came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClipReport {
    /// Frames written.
    pub frames: usize,
    /// Their size.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A game window the command line can open.
pub trait Window {
    /// Runs the game until the player quits.
    fn play(&self, options: GameOptions) -> Result<(), LaunchError>;
    /// Stages a replay file already checked to play to its recorded end.
    fn replay(&self, file: &Path, cards: CardSet, mute: bool) -> Result<(), LaunchError>;
    /// The rulesets whose replays this window renders to clips.
    fn clips(&self) -> &'static [crate::rules::RulesetId];
    /// Renders a replay file (checked to play to its recorded end)
    /// off-screen to a clip, the viewer's shots at a fixed frame rate,
    /// calling `progress` with the round shown and the last round.
    fn clip(
        &self,
        file: &Path,
        cards: CardSet,
        clip: &ClipOptions,
        progress: &mut dyn FnMut(u32, u32, usize),
    ) -> Result<ClipReport, LaunchError>;
}
