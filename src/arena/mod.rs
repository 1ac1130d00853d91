//! The 3D arcade game (Bevy). Nothing outside this room imports Bevy.
//!
//! Each file adds one plugin; [`AppPlugin`] puts them together. The screens
//! are a [`Screen`] state: attract → scan → battle → result, and the replay
//! viewer. The rules live in one place, the [`play::duel::Duel`] resource: input,
//! CPU players and replays ask it for actions; the events it returns are
//! staged (figures, physics, HUD, sound) and never change it back.

pub mod play;
pub mod render;
pub mod screens;
pub mod ui;

use screens::{capture, clip, lan};

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{CursorOptions, ExitCondition, WindowMode};

use crate::ai::Strength;
use crate::cards::CardSet;
use crate::replay::Replay;
use crate::rules::terminal::Match;
use crate::session::{GameOptions, LaunchError, Player};

/// The game's font (the same as the printed cards').
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// The window title.
pub const TITLE: &str = "bterm — Digimon Battle Terminal";

/// The card set the game plays with.
#[derive(Resource, Clone)]
pub struct Cards(pub CardSet);

/// The game's screens.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The idle arena: a demo battle between CPU teams and the rankings; A plays, B the collection, C the replays.
    #[default]
    Attract,
    /// Players build their teams.
    Scan,
    /// The battle.
    Battle,
    /// Winner, points and the dispensed card.
    Result,
    /// A saved battle, staged with pause / step / speed.
    Replay,
    /// The collector's binder: each printed set's cards, owned or missing.
    Collection,
    /// The replay gallery: every saved replay, to play, mark or delete.
    Gallery,
    /// A card game on the table: played, or a replay.
    Table,
    /// Which game: the Terminal Battle, a card game, or a LAN table.
    Choose,
    /// A card game's seats, format, players and decks.
    TableSetup,
    /// One seat's card game deck, scanned or typed card by card.
    DeckScreen,
    /// A table to host on the LAN: its game, seats and who plays them.
    LanHost,
    /// The tables heard on the LAN, the join code, play or watch.
    LanJoin,
    /// A LAN table's seats, who is ready and the join code, until the game
    /// starts.
    LanLobby,
}

/// The order of the game's work in a frame, configured once.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Count down timers.
    TickTimers,
    /// Turn keys and gamepads into button presses.
    RecordInput,
    /// Ask the rules for actions and apply them.
    Rules,
    /// Play the rules' events as a show.
    Stage,
    /// Everything that follows the show (HUD, camera, animation).
    Update,
}

/// How long each screen waits for a person, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// The scan screen without any input: demo teams are chosen and the battle starts.
    pub scan_idle: f32,
    /// The result screen, back to attract.
    pub result: f32,
    /// A finished replay (opened from the game), back to attract.
    pub replay_end: f32,
    /// The collection screen without a press, back to attract.
    pub collection: f32,
    /// The replay gallery without a press, back to attract.
    pub gallery: f32,
    /// Seconds the attract screen shows its title, then the rankings.
    pub attract_board: f32,
    /// A local Card Game Alpha table where a person is asked and nobody has
    /// pressed anything for this long is left, back to attract (a kiosk's
    /// abandoned game). A question left alone meanwhile takes the rules'
    /// own default after the rules' own seconds, as everywhere.
    pub table_idle: f32,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            scan_idle: 30.0,
            result: 20.0,
            replay_end: 20.0,
            collection: 45.0,
            gallery: 45.0,
            attract_board: 8.0,
            table_idle: 600.0,
        }
    }
}

/// What the game was started with.
#[derive(Resource, Debug, Clone)]
pub struct Settings {
    /// No sound at all.
    pub mute: bool,
    /// Fullscreen, no cursor, only the exit combo leaves.
    pub kiosk: bool,
    /// Who plays P2 when the scan screen opens.
    pub p2: Player,
    /// Card scans (files or folders) read into each team at the scan screen.
    pub scans: [Vec<PathBuf>; 2],
    /// A folder of frames used as a live camera.
    pub video: Option<PathBuf>,
    /// A webcam, by index.
    pub camera: Option<u32>,
    /// Without `camera`: look for the first webcam on the scan screens, and
    /// say plainly when there is none (the game started from the command
    /// line does; tests and tours do not).
    pub find_camera: bool,
    /// Where played battles are saved (`None`: the data directory's `replays`).
    pub replay_dir: Option<PathBuf>,
    /// Screen timeouts.
    pub timeouts: Timeouts,
    /// How fast the show plays (1 = as designed).
    pub show_speed: f32,
    /// The first battle's seed (later battles count up); `None`: from the clock.
    pub seed: Option<u64>,
    /// `bterm replay FILE`: the game opens on this replay and quits after it.
    pub replay: Option<(PathBuf, Replay<Match>)>,
    /// `bterm replay FILE` on a card game's replay (its text, checked):
    /// the game opens on its table and quits after it.
    pub table: Option<(PathBuf, String)>,
    /// The collection's database; `None` keeps nothing (tests).
    pub collection: Option<PathBuf>,
    /// Bloom: `None` decides by the renderer (see `stage`).
    pub bloom: Option<bool>,
    /// Announce a table hosted here, and listen for tables, on the LAN
    /// (mDNS); tests leave it out and give the join screen its tables.
    pub lan_discovery: bool,
    /// LAN tables the join screen lists by address (`bterm play --table`).
    pub lan_tables: Vec<std::net::SocketAddr>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mute: false,
            kiosk: false,
            p2: Player::Cpu(Strength::Normal),
            scans: [Vec::new(), Vec::new()],
            video: None,
            camera: None,
            find_camera: false,
            replay_dir: None,
            timeouts: Timeouts::default(),
            show_speed: 1.0,
            seed: None,
            replay: None,
            table: None,
            collection: None,
            bloom: None,
            lan_discovery: true,
            lan_tables: Vec::new(),
        }
    }
}

impl Settings {
    /// Whether the game opens on a replay (`bterm replay FILE`) and quits
    /// after it.
    pub fn opens_on_replay(&self) -> bool {
        self.replay.is_some() || self.table.is_some()
    }

    /// Settings from the options the game was started with.
    pub fn from_options(args: &GameOptions) -> Settings {
        Settings {
            mute: args.mute,
            kiosk: args.kiosk,
            p2: args.p2,
            scans: [args.scans.clone(), args.p2_scans.clone()],
            video: args.video.clone(),
            camera: args.camera,
            find_camera: args.camera.is_none()
                && args.video.is_none()
                && !args.no_camera
                && args.tour.is_none()
                && args.screenshot.is_none(),
            replay_dir: args.replay_dir.clone(),
            timeouts: Timeouts::default(),
            show_speed: if args.tour.is_some() { 3.0 } else { 1.0 },
            seed: args.seed,
            replay: None,
            table: None,
            collection: args
                .db
                .clone()
                .or_else(|| crate::collection::default_path(None).ok()),
            // A still is not real time: it shows the whole look.
            bloom: args
                .bloom
                .or((args.tour.is_some() || args.screenshot.is_some()).then_some(true)),
            // A tour hosts a table on loopback only.
            lan_discovery: args.tour.is_none(),
            lan_tables: args.lan_tables.clone(),
        }
    }
}

/// The whole game, minus the engine's default plugins, so tests can run it
/// with `MinimalPlugins`. `windowed: false` leaves out what needs a window,
/// a GPU or an audio device (physics, sound output, screenshots).
pub struct AppPlugin {
    /// Whether the game has a window (and so physics, sound and capture).
    pub windowed: bool,
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<Screen>();
        app.configure_sets(
            Update,
            (
                AppSystems::TickTimers,
                AppSystems::RecordInput,
                AppSystems::Rules,
                AppSystems::Stage,
                AppSystems::Update,
            )
                .chain(),
        );
        app.init_resource::<Settings>();
        // The layers, lowest first.
        app.add_plugins((render::plugin, ui::plugin, play::plugin, screens::plugin));
        if self.windowed {
            app.add_plugins((
                play::physics::plugin,
                ui::sound::output_plugin_if_heard,
                screens::capture::plugin,
                ui::theme::plugin,
                screens::gallery::thumbnail_plugin,
            ));
        }
    }
}

/// Adds the physics that stages techniques and debris (part of the windowed
/// game; benches add it to a headless app).
pub fn add_physics(app: &mut App) {
    app.add_plugins(play::physics::plugin);
}

/// The arena as the command line's game window.
#[derive(Debug, Clone, Copy, Default)]
pub struct Arena;

impl crate::session::Window for Arena {
    fn clips(&self) -> &'static [crate::rules::RulesetId] {
        // The replay viewer stages the Terminal Battle.
        &[<Match as crate::rules::Ruleset>::ID]
    }

    fn play(&self, options: GameOptions) -> Result<(), LaunchError> {
        let settings = Settings::from_options(&options);
        let script = capture::Script::from(&options);
        start(settings, options.cards, script)
    }

    fn replay(
        &self,
        file: &std::path::Path,
        cards: CardSet,
        mute: bool,
    ) -> Result<(), LaunchError> {
        let cannot = |e: crate::replay::ReplayError| LaunchError::CannotStage {
            file: file.display().to_string(),
            why: e.to_string(),
        };
        let text = crate::replay::read(file).map_err(cannot)?;
        let name = file.display().to_string();
        let mut settings = Settings {
            mute,
            ..Settings::default()
        };
        let id = crate::replay::ruleset_of(&text, &name).map_err(cannot)?;
        match lan::open_replay(id, file, &text, &name, &mut settings) {
            Some(opened) => opened.map_err(cannot)?,
            None => {
                return Err(LaunchError::CannotStage {
                    file: name,
                    why: format!(
                        "{}; bterm replay print shows its events",
                        lan::not_staged(id)
                    ),
                });
            }
        }
        start(settings, cards, capture::Script::default())
    }

    fn clip(
        &self,
        file: &std::path::Path,
        cards: CardSet,
        options: &crate::session::ClipOptions,
        progress: &mut dyn FnMut(u32, u32, usize),
    ) -> Result<crate::session::ClipReport, LaunchError> {
        let replay = Replay::<Match>::load(file).map_err(|e| LaunchError::CannotStage {
            file: file.display().to_string(),
            why: e.to_string(),
        })?;
        clip::render(replay, file, cards, options, progress).map_err(LaunchError::Clip)
    }
}

/// The `DejaVu` font for every text: the engine's default font has no "·", "—" or
/// arrows.
pub fn use_dejavu(app: &mut App) {
    let font = bevy::text::Font::from_bytes(FONT.to_vec());
    if let Err(e) = app
        .world_mut()
        .resource_mut::<Assets<bevy::text::Font>>()
        .insert(AssetId::default(), font)
    {
        warn!("keeping the default font: {e}");
    }
}

fn start(settings: Settings, cards: CardSet, script: capture::Script) -> Result<(), LaunchError> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err(LaunchError::NoDisplay);
    }
    #[cfg(not(feature = "camera"))]
    if settings.camera.is_some() {
        return Err(LaunchError::NoWebcamSupport);
    }
    let kiosk = settings.kiosk;
    let sound = ui::sound::sound_device();
    if !sound && !settings.mute {
        eprintln!("(no sound device found: the game plays silent)");
    }
    let mut plugins = DefaultPlugins.build();
    if !sound {
        plugins = plugins.disable::<bevy::audio::AudioPlugin>();
    }
    let mut app = App::new();
    app.add_plugins(
        plugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: TITLE.to_string(),
                    resolution: (1280, 720).into(),
                    mode: if kiosk {
                        WindowMode::BorderlessFullscreen(MonitorSelection::Current)
                    } else {
                        WindowMode::Windowed
                    },
                    ..default()
                }),
                primary_cursor_options: Some(CursorOptions {
                    visible: !kiosk,
                    ..default()
                }),
                // A kiosk closes only by its key combo (see `input`).
                close_when_requested: !kiosk,
                exit_condition: ExitCondition::OnPrimaryClosed,
            })
            .set(bevy::log::LogPlugin {
                level: bevy::log::Level::WARN,
                // winit's warnings are about a virtual display's settings
                // (no XSETTINGS, a 0 mm screen), not about the game.
                filter: "wgpu=error,naga=error,bevy_render=error,bevy_audio=error,winit=error"
                    .to_string(),
                ..default()
            }),
    )
    .insert_resource(Cards(cards))
    .insert_resource(settings)
    .insert_resource(script)
    .add_plugins(AppPlugin { windowed: true });
    use_dejavu(&mut app);
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(LaunchError::Stopped(code.get().into())),
    }
}
