//! Where the scan screen's cards come from: image files read on a thread,
//! and a live camera (or a folder of frames played as one) with a preview.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use image::GrayImage;

use crate::arena::Settings;
use crate::barcode::frames::{self, FrameEvent, FrameSource, Pipeline, Stabilizer};
use crate::barcode::{Effort, Resolved, Scanner, decode, files};
use crate::cards::CardSet;
use crate::rules::terminal::Side;

/// Preview size in the corner, pixels.
pub(super) const PREVIEW: (u32, u32) = (320, 180);
/// A folder of frames plays at this many frames per second.
const VIDEO_FPS: u64 = 10;

/// One read: whose team, from where, and the card or why not.
/// A read: whose team, from where (a file or "camera"), the card or why
/// not, and the fingerprint of the file's bytes (files only).
pub(super) type Read = (Side, String, Result<Resolved, Failed>, Option<u64>);

/// Why a read gave no card: a battle card (its QR code's text, a replay
/// to play), or anything else, in words.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Failed {
    Battle(String),
    Why(String),
}

impl From<crate::barcode::NoCard> for Failed {
    fn from(e: crate::barcode::NoCard) -> Failed {
        match e {
            crate::barcode::NoCard::BattleCard(text) => Failed::Battle(text),
            e => Failed::Why(e.to_string()),
        }
    }
}

/// Card reads arriving from threads: files and the live source.
#[derive(Resource)]
pub(super) struct Reads {
    pub(super) files: Mutex<Receiver<Read>>,
    pub(super) file_tx: std::sync::mpsc::Sender<Read>,
    pub(super) live: Option<Mutex<Pipeline>>,
    pub(super) preview: Arc<Mutex<Option<GrayImage>>>,
    pub(super) preview_image: Option<Handle<Image>>,
    pub(super) scanner: Scanner,
}

/// A frame source that keeps a copy of each frame for the preview, and
/// plays a recorded folder at video speed.
struct Tee {
    inner: Box<dyn FrameSource>,
    latest: Arc<Mutex<Option<GrayImage>>>,
}

impl FrameSource for Tee {
    fn next_frame(&mut self) -> Option<Result<GrayImage, String>> {
        let frame = self.inner.next_frame()?;
        if let Ok(img) = &frame
            && let Ok(mut slot) = self.latest.lock()
        {
            *slot = Some(img.clone());
        }
        if !self.inner.is_live() {
            std::thread::sleep(Duration::from_millis(1000 / VIDEO_FPS));
        }
        Some(frame)
    }

    fn is_live(&self) -> bool {
        true
    }

    /// A recorded video is read whole, as `bterm scan --frames` reads it;
    /// only the webcam's frames have the time cap.
    fn decode_cap(&self) -> Option<Duration> {
        self.inner.decode_cap()
    }
}

impl Reads {
    /// Opens the screen's card sources: the scanner (with the enrolled
    /// barcodes), the live camera or folder of frames if asked for, and the
    /// files given on the command line (if `files`). The second value says
    /// why the live source could not open (and whether that is an error: a
    /// camera asked for by index; a machine without one is not).
    pub(super) fn open(
        settings: &Settings,
        cards: &CardSet,
        images: &mut Assets<Image>,
        files: bool,
    ) -> (Reads, Option<(String, bool)>) {
        let mut store = crate::collection::default_path(None)
            .and_then(|p| crate::collection::Store::open(&p))
            .map_err(|e| warn!("the collection is not open: {e}"))
            .ok();
        let (enrolments, warnings) = crate::collection::enrol::for_scanning(store.as_mut());
        for w in warnings {
            warn!("{w}");
        }
        let scanner = Scanner::new(cards.clone(), enrolments);
        let (file_tx, files_rx) = channel();
        let preview = Arc::new(Mutex::new(None));
        let mut live_error = None;
        let source: Option<Box<dyn FrameSource>> = if let Some(dir) = &settings.video {
            match frames::FolderFrames::open(dir) {
                Ok(f) => Some(Box::new(f)),
                Err(e) => {
                    live_error = Some((e, true));
                    None
                }
            }
        } else if let Some(index) = settings.camera {
            open_camera(index)
                .map_err(|e| live_error = Some((e, true)))
                .ok()
        } else if settings.find_camera {
            // The first webcam, if there is one; if not, said once as the
            // screen opens, with what still works.
            open_camera(0)
                .map_err(|e| {
                    info!("no webcam: {e}");
                    live_error = Some((NO_WEBCAM.to_string(), false));
                })
                .ok()
        } else {
            None
        };
        let live = source.map(|inner| {
            frames::start(
                Box::new(Tee {
                    inner,
                    latest: Arc::clone(&preview),
                }),
                scanner.clone(),
                Stabilizer::new(3, 8),
            )
        });
        let preview_image = live.as_ref().map(|_| {
            images.add(Image::new_fill(
                Extent3d {
                    width: PREVIEW.0,
                    height: PREVIEW.1,
                    depth_or_array_layers: 1,
                },
                TextureDimension::D2,
                &[10, 20, 30, 255],
                TextureFormat::Rgba8UnormSrgb,
                RenderAssetUsages::default(),
            ))
        });
        for (side, paths) in Side::BOTH.iter().zip(&settings.scans) {
            if files {
                read_files(&scanner, &file_tx, *side, paths.clone());
            }
        }
        let reads = Reads {
            files: Mutex::new(files_rx),
            file_tx,
            live: live.map(Mutex::new),
            preview,
            preview_image,
            scanner,
        };
        (reads, live_error)
    }
}

impl Reads {
    /// The reads that arrived since the last call: files', and the live
    /// source's (which go to `side`).
    pub(super) fn drain(&self, side: Side) -> Vec<Read> {
        let mut got: Vec<Read> = self
            .files
            .lock()
            .map(|rx| rx.try_iter().collect())
            .unwrap_or_default();
        let live: Vec<FrameEvent> = self
            .live
            .as_ref()
            .and_then(|l| l.lock().ok().map(|p| p.events.try_iter().collect()))
            .unwrap_or_default();
        for e in live {
            let from = "camera".to_string();
            match e {
                FrameEvent::Card { card, .. } => got.push((side, from, Ok(*card), None)),
                FrameEvent::Refused { why, .. } => {
                    got.push((side, from, Err(Failed::from(why)), None));
                }
                FrameEvent::FrameError { message, .. } => {
                    got.push((side, from, Err(Failed::Why(message)), None));
                }
                FrameEvent::Gone { .. } | FrameEvent::Ended { .. } => {}
            }
        }
        got
    }
}

/// What the scan screens say when they find no webcam.
const NO_WEBCAM: &str = "No webcam found: scan card pictures or type card numbers";

#[cfg(feature = "camera")]
fn open_camera(index: u32) -> Result<Box<dyn FrameSource>, String> {
    crate::barcode::webcam::Webcam::open(index).map(|w| Box::new(w) as Box<dyn FrameSource>)
}

#[cfg(not(feature = "camera"))]
fn open_camera(_: u32) -> Result<Box<dyn FrameSource>, String> {
    Err("this bterm was built without webcam support (cargo feature `camera`)".to_string())
}

/// Reads image files (and folders) on a thread; each result arrives as a read.
pub(super) fn read_files(scanner: &Scanner, tx: &Sender<Read>, side: Side, paths: Vec<PathBuf>) {
    if paths.is_empty() {
        return;
    }
    let scanner = scanner.clone();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let (found, errors) = files::collect(&paths);
        for e in errors {
            let _ = tx.send((side, e.to_string(), Err(Failed::Why(e.to_string())), None));
        }
        for path in found {
            let name = path.display().to_string();
            let loaded = files::load_gray_and_content(&path, files::MAX_PIXELS);
            let content = loaded.as_ref().ok().map(|(_, c)| *c);
            let read = loaded
                .map_err(|e| Failed::Why(e.to_string()))
                .and_then(|(img, _)| {
                    scanner
                        .resolve(&decode(&img, Effort::File).symbols)
                        .map_err(Failed::from)
                });
            if tx.send((side, name, read, content)).is_err() {
                return;
            }
        }
    });
}

pub(super) fn show_preview(reads: Option<Res<Reads>>, mut images: ResMut<Assets<Image>>) {
    let Some(reads) = reads else { return };
    let Some(handle) = &reads.preview_image else {
        return;
    };
    let Some(frame) = reads.preview.lock().ok().and_then(|mut f| f.take()) else {
        return;
    };
    let Some(mut image) = images.get_mut(handle) else {
        return;
    };
    let (w, h) = PREVIEW;
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let sx = (x * frame.width() / w).min(frame.width().saturating_sub(1));
            let sy = (y * frame.height() / h).min(frame.height().saturating_sub(1));
            let v = frame.get_pixel(sx, sy).0[0];
            rgba.extend_from_slice(&[v, v, v, 255]);
        }
    }
    image.data = Some(rgba);
}
