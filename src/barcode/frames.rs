//! Live frames: a webcam, or any source of frames such as a folder of images
//! (so the pipeline is tested without a camera). Frames are decoded on a
//! worker thread; a card is reported once, when it has been read in a few
//! frames in a row, and again only after it has left the view.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, channel, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;

use image::GrayImage;

use super::decode::{FRAME_CAP, decode_within};
use super::{Effort, NoCard, Resolved, Scanner, decode};

/// A source of frames.
pub trait FrameSource: Send {
    /// The next frame; `None` when the source has ended.
    fn next_frame(&mut self) -> Option<Result<GrayImage, String>>;
    /// Live sources run at their own pace: frames that arrive while the
    /// decoder is busy are dropped. Recorded sources wait for the decoder.
    fn is_live(&self) -> bool;
    /// The most time a frame may take to decode before it is given up for
    /// the next one: a live source's [`FRAME_CAP`]; a recorded one is read
    /// whole (the same folder reads the same on every machine).
    fn decode_cap(&self) -> Option<Duration> {
        self.is_live().then_some(FRAME_CAP)
    }
}

/// A recorded "video": the image files of a folder, in name order.
#[derive(Debug)]
pub struct FolderFrames {
    files: Vec<PathBuf>,
    next: usize,
}

impl FolderFrames {
    /// The frames in `dir` (image files, sorted by name).
    pub fn open(dir: &Path) -> Result<FolderFrames, String> {
        if !dir.is_dir() {
            return Err(format!("{}: not a folder of frames", dir.display()));
        }
        let (files, errors) = super::files::collect(&[dir.to_path_buf()]);
        if let Some(e) = errors.first() {
            return Err(e.to_string());
        }
        if files.is_empty() {
            return Err(format!("{}: no image files in this folder", dir.display()));
        }
        Ok(FolderFrames { files, next: 0 })
    }
}

impl FrameSource for FolderFrames {
    fn next_frame(&mut self) -> Option<Result<GrayImage, String>> {
        let path = self.files.get(self.next)?;
        self.next += 1;
        Some(
            super::files::load_gray(path, super::files::MAX_PIXELS)
                .map_err(|e| format!("{}: {e}", path.display())),
        )
    }

    fn is_live(&self) -> bool {
        false
    }
}

/// What the frame pipeline reports.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameEvent {
    /// A card came into view and stayed there.
    Card {
        /// The decoded frame's index (counting decoded frames only).
        frame: usize,
        /// The card.
        card: Box<Resolved>,
    },
    /// A barcode stayed in view that gives no card.
    Refused {
        /// The frame.
        frame: usize,
        /// Why.
        why: NoCard,
    },
    /// What was reported has left the view.
    Gone {
        /// The frame.
        frame: usize,
    },
    /// A frame could not be read.
    FrameError {
        /// The frame.
        frame: usize,
        /// What went wrong.
        message: String,
    },
    /// The source ended.
    Ended {
        /// Frames decoded in all.
        decoded: usize,
        /// Frames dropped because the decoder was busy.
        dropped: usize,
        /// Live frames given up because they took longer than
        /// [`FRAME_CAP`] to decode.
        over_cap: usize,
    },
}

/// Reports a reading once it is stable: the same answer in `needed` decoded
/// frames in a row; forgets it after `forget_after` frames without it.
#[derive(Debug, Clone)]
pub struct Stabilizer {
    needed: usize,
    forget_after: usize,
    candidate: Option<(String, usize)>,
    reported: Option<String>,
    missing: usize,
}

impl Default for Stabilizer {
    fn default() -> Self {
        Stabilizer::new(3, 8)
    }
}

impl Stabilizer {
    /// A stabilizer needing `needed` frames in a row.
    pub fn new(needed: usize, forget_after: usize) -> Stabilizer {
        Stabilizer {
            needed: needed.max(1),
            forget_after: forget_after.max(1),
            candidate: None,
            reported: None,
            missing: 0,
        }
    }

    /// Feeds one frame's reading (`None`: nothing in view). Returns
    /// `Some(true)` when `key` has just become stable and should be
    /// reported, `Some(false)` when the reported reading has just gone.
    pub fn push(&mut self, key: Option<&str>) -> Option<bool> {
        match key {
            None => {
                self.candidate = None;
                if self.reported.is_some() {
                    self.missing += 1;
                    if self.missing >= self.forget_after {
                        self.reported = None;
                        self.missing = 0;
                        return Some(false);
                    }
                }
                None
            }
            Some(k) => {
                if self.reported.as_deref() == Some(k) {
                    self.missing = 0;
                    return None;
                }
                let count = match &self.candidate {
                    Some((c, n)) if c == k => n + 1,
                    _ => 1,
                };
                self.candidate = Some((k.to_string(), count));
                if count >= self.needed {
                    self.reported = Some(k.to_string());
                    self.candidate = None;
                    self.missing = 0;
                    return Some(true);
                }
                None
            }
        }
    }
}

/// A running pipeline: events arrive on `events`; `join` waits for the end.
pub struct Pipeline {
    /// The events, in order.
    pub events: Receiver<FrameEvent>,
    threads: Vec<JoinHandle<()>>,
}

impl Pipeline {
    /// Waits for both threads to finish.
    pub fn join(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Starts reading frames from `source` and decoding them on a worker thread.
pub fn start(
    mut source: Box<dyn FrameSource>,
    scanner: Scanner,
    mut stable: Stabilizer,
) -> Pipeline {
    let (frame_tx, frame_rx) = sync_channel::<Result<GrayImage, String>>(1);
    let (event_tx, events) = channel::<FrameEvent>();
    let (dropped_tx, dropped_rx) = channel::<usize>();
    let cap = source.decode_cap();
    let capture = std::thread::spawn(move || {
        let live = source.is_live();
        let mut dropped = 0usize;
        while let Some(frame) = source.next_frame() {
            if !send(&frame_tx, frame, live, &mut dropped) {
                break;
            }
        }
        let _ = dropped_tx.send(dropped);
    });
    let worker = std::thread::spawn(move || {
        let mut decoded = 0usize;
        let mut over_cap = 0usize;
        for frame in frame_rx {
            let index = decoded;
            decoded += 1;
            let img = match frame {
                Ok(img) => img,
                Err(message) => {
                    if event_tx
                        .send(FrameEvent::FrameError {
                            frame: index,
                            message,
                        })
                        .is_err()
                    {
                        return;
                    }
                    continue;
                }
            };
            let found = match cap {
                Some(cap) => decode_within(&img, Effort::Frame, cap),
                None => decode(&img, Effort::Frame),
            };
            if found.cut_short {
                // Given up: neither a reading nor "nothing in view".
                over_cap += 1;
                continue;
            }
            let symbols = found.symbols;
            let reading = if symbols.is_empty() {
                None
            } else {
                Some(scanner.resolve(&symbols))
            };
            let key = reading.as_ref().map(|r| match r {
                Ok(r) => format!("card {} {}", r.card.number(), r.card.name()),
                Err(e) => format!("refused {e}"),
            });
            let event = match (stable.push(key.as_deref()), reading) {
                (Some(true), Some(Ok(card))) => Some(FrameEvent::Card {
                    frame: index,
                    card: Box::new(card),
                }),
                (Some(true), Some(Err(why))) => Some(FrameEvent::Refused { frame: index, why }),
                (Some(false), _) => Some(FrameEvent::Gone { frame: index }),
                _ => None,
            };
            if let Some(e) = event
                && event_tx.send(e).is_err()
            {
                return;
            }
        }
        let dropped = dropped_rx.recv().unwrap_or(0);
        let _ = event_tx.send(FrameEvent::Ended {
            decoded,
            dropped,
            over_cap,
        });
    });
    Pipeline {
        events,
        threads: vec![capture, worker],
    }
}

fn send(
    tx: &SyncSender<Result<GrayImage, String>>,
    frame: Result<GrayImage, String>,
    live: bool,
    dropped: &mut usize,
) -> bool {
    if live {
        match tx.try_send(frame) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                *dropped += 1;
                true
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    } else {
        tx.send(frame).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_is_reported_once_when_stable_and_again_after_it_left() {
        let mut s = Stabilizer::new(3, 2);
        assert_eq!(s.push(Some("a")), None);
        assert_eq!(s.push(Some("a")), None);
        assert_eq!(s.push(Some("a")), Some(true));
        assert_eq!(s.push(Some("a")), None, "reported once");
        assert_eq!(s.push(None), None);
        assert_eq!(s.push(Some("a")), None, "a flicker does not re-report");
        assert_eq!(s.push(None), None);
        assert_eq!(s.push(None), Some(false), "gone after 2 empty frames");
        assert_eq!(s.push(Some("a")), None);
        assert_eq!(s.push(Some("a")), None);
        assert_eq!(s.push(Some("a")), Some(true), "back in view");
    }

    #[test]
    fn an_unsteady_reading_is_not_reported() {
        let mut s = Stabilizer::new(3, 2);
        for k in ["a", "b", "a", "b", "a", "b"] {
            assert_eq!(s.push(Some(k)), None);
        }
    }
}
