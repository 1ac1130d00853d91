//! A replay rendered off-screen to an animated GIF (`bterm replay FILE
//! --clip OUT.gif`): the replay viewer's shots and HUD, at a fixed frame
//! rate and size, with no window. Each frame advances the game clock by
//! exactly one frame's time, so a clip is the same on a fast machine and a
//! slow one; frames are encoded as they arrive, so memory stays bounded
//! however long the battle.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::time::TimeUpdateStrategy;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbaImage};

use crate::arena::play::board::Board;
use crate::arena::play::duel::SPEEDS;
use crate::arena::render::stage::ArenaCamera;
use crate::arena::screens::viewer::Viewing;
use crate::arena::{AppPlugin, Cards, Screen, Settings};
use crate::cards::CardSet;
use crate::replay::Replay;
use crate::rules::terminal::{Event, Match};
use crate::session::{ClipOptions, ClipReport};

/// Frames rendered before the first one kept (pipelines compile, the
/// viewer opens).
const WARM_UP: usize = 30;
/// Seconds of the end kept after the last action is staged.
const TAIL: f32 = 2.0;
/// The longest clip, in seconds of game time (a 12-round battle at 1× is
/// well under it).
const MAX_SECONDS: u32 = 20 * 60;
/// GIF colour quantisation speed (1 best … 30 fastest).
const GIF_SPEED: i32 = 30;

/// Bevy's renderer with no window, no event loop and no sound, for
/// rendering to an image (clips, the frame benchmark).
pub fn offscreen_app() -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                ..default()
            })
            .set(bevy::log::LogPlugin {
                level: bevy::log::Level::ERROR,
                ..default()
            })
            .disable::<WinitPlugin>()
            // A clip and the frame bench are silent: the audio output is
            // never opened (no sound library noise on a machine without).
            .disable::<bevy::audio::AudioPlugin>(),
    );
    app
}

/// The rounds of a replay (for the progress bar and `--to`).
pub fn rounds(replay: &Replay<Match>, cards: &CardSet) -> u32 {
    let mut last = 0;
    let _ = replay.play(cards, |e| {
        if let Event::RoundStarted { round } = e {
            last = *round;
        }
    });
    last
}

/// Renders `replay` to `clip.out`, calling `progress(round, last, frames)`
/// as it goes.
pub fn render(
    replay: Replay<Match>,
    name: &Path,
    cards: CardSet,
    clip: &ClipOptions,
    progress: &mut dyn FnMut(u32, u32, usize),
) -> Result<ClipReport, String> {
    if clip.width < 64 || clip.height < 64 || clip.width > 3840 || clip.height > 2160 {
        return Err("the clip's size must be from 64×64 to 3840×2160".into());
    }
    if !(1..=60).contains(&clip.fps) {
        return Err("the clip's frame rate must be 1 to 60".into());
    }
    if !clip.force && clip.out.exists() {
        return Err(format!(
            "{} already exists; choose another name or add --force",
            clip.out.display()
        ));
    }
    let speed = SPEEDS
        .iter()
        .position(|&s| (s - clip.speed).abs() < 1e-3)
        .ok_or_else(|| format!("the clip's speed must be one of the viewer's: {SPEEDS:?}"))?;
    let last = rounds(&replay, &cards);
    let from = clip.from.unwrap_or(1).max(1);
    let to = clip.to.unwrap_or(last).min(last.max(1));
    if from > to {
        return Err(format!(
            "--from {from} is after --to {to} (the battle has {last} rounds)"
        ));
    }
    let mut app = offscreen_app();
    app.insert_resource(Cards(cards))
        .insert_resource(Settings {
            mute: true,
            replay: Some((name.to_path_buf(), replay)),
            // The same look on every machine (a clip is not real time).
            bloom: Some(true),
            ..Settings::default()
        })
        // The clock stands still while the renderer warms up.
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO))
        // The layout is drawn for 720 lines.
        .insert_resource(UiScale(crate::arena::ui::theme::ui_scale(
            clip.height as f32,
        )))
        .add_plugins(AppPlugin { windowed: false });
    crate::arena::add_physics(&mut app);
    crate::arena::use_dejavu(&mut app);
    app.finish();
    app.cleanup();
    app.update();
    let image =
        Image::new_target_texture(clip.width, clip.height, TextureFormat::Rgba8UnormSrgb, None);
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    let camera = app
        .world_mut()
        .query_filtered::<Entity, With<ArenaCamera>>()
        .single(app.world())
        .map_err(|e| format!("the stage has no camera: {e}"))?;
    app.world_mut().entity_mut(camera).insert((
        RenderTarget::Image(handle.clone().into()),
        IsDefaultUiCamera,
    ));
    let (tx, rx) = channel::<(usize, Image)>();
    let mut frames = 0usize;
    let written = crate::save::write_atomic_with(&clip.out, |w| {
        let mut gif = GifEncoder::new_with_speed(w, GIF_SPEED);
        gif.set_repeat(Repeat::Infinite)
            .map_err(std::io::Error::other)?;
        let mut encoder = Ordered {
            rx: &rx,
            pending: BTreeMap::new(),
            next: 0,
            delay: Delay::from_numer_denom_ms(1000, clip.fps),
            size: (clip.width, clip.height),
        };
        let mut spawned = 0usize;
        let limit = (MAX_SECONDS * clip.fps) as usize + WARM_UP;
        let mut tail = 0.0f32;
        for i in 0..limit {
            app.update();
            if i < WARM_UP {
                if i + 1 == WARM_UP {
                    app.insert_resource(TimeUpdateStrategy::ManualDuration(
                        Duration::from_secs_f64(1.0 / f64::from(clip.fps)),
                    ));
                }
                continue;
            }
            let world = app.world();
            let round = world.resource::<Board>().round;
            let screen = *world.resource::<State<Screen>>().get();
            if screen != Screen::Replay {
                break;
            }
            let ended = world
                .get_resource::<Viewing>()
                .is_some_and(|v| v.ended_for > 0.0);
            // Rounds before --from go by at the fastest speed, unseen.
            let skipping = round < from;
            if let Some(mut v) = app.world_mut().get_resource_mut::<Viewing>() {
                v.speed = if skipping { SPEEDS.len() - 1 } else { speed };
            }
            if round > to || (ended && tail > TAIL) {
                break;
            }
            if ended {
                tail += 1.0 / clip.fps as f32;
            }
            if skipping {
                continue;
            }
            let tx = tx.clone();
            let index = spawned;
            app.world_mut()
                .spawn(Screenshot::image(handle.clone()))
                .observe(move |shot: On<ScreenshotCaptured>| {
                    let _ = tx.send((index, shot.image.clone()));
                });
            spawned += 1;
            encoder.drain(&mut gif, false)?;
            progress(round.max(from), to, encoder.next);
        }
        // The last captures arrive a few frames later.
        for _ in 0..8 {
            if encoder.next >= spawned {
                break;
            }
            app.update();
            encoder.drain(&mut gif, false)?;
        }
        encoder.drain(&mut gif, true)?;
        frames = encoder.next;
        progress(to, to, frames);
        if frames == 0 {
            return Err(std::io::Error::other("no frame was rendered"));
        }
        Ok(())
    });
    written.map_err(|e| format!("{}: {e}", clip.out.display()))?;
    Ok(ClipReport {
        frames,
        width: clip.width,
        height: clip.height,
    })
}

/// Captured frames, which may arrive out of order, encoded in order.
struct Ordered<'a> {
    rx: &'a Receiver<(usize, Image)>,
    pending: BTreeMap<usize, Image>,
    next: usize,
    delay: Delay,
    size: (u32, u32),
}

impl Ordered<'_> {
    /// Encodes every frame that is next in order; `all` also takes the
    /// frames still waiting behind a missing one.
    fn drain<W: std::io::Write>(
        &mut self,
        gif: &mut GifEncoder<W>,
        all: bool,
    ) -> std::io::Result<()> {
        while let Ok((i, img)) = self.rx.try_recv() {
            self.pending.insert(i, img);
        }
        loop {
            let key = match self.pending.first_key_value() {
                Some((&k, _)) if k == self.next || all => k,
                _ => return Ok(()),
            };
            let Some(img) = self.pending.remove(&key) else {
                return Ok(());
            };
            let rgba = img
                .try_into_dynamic()
                .map_err(std::io::Error::other)?
                .to_rgba8();
            let rgba = if rgba.dimensions() == self.size {
                rgba
            } else {
                image::imageops::resize(
                    &rgba,
                    self.size.0,
                    self.size.1,
                    image::imageops::FilterType::Triangle,
                )
            };
            gif.encode_frame(Frame::from_parts(RgbaImage::from(rgba), 0, 0, self.delay))
                .map_err(std::io::Error::other)?;
            self.next += 1;
        }
    }
}
