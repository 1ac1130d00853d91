//! The webcam as a frame source (nokhwa; cargo feature `camera`). The camera
//! lives on its own thread (nokhwa's camera is not `Send`); frames come over
//! a channel that holds only the newest one, so a slow decoder never works
//! on stale pictures.

use std::sync::mpsc::{Receiver, TrySendError, sync_channel};

use image::GrayImage;
use nokhwa::Camera;
use nokhwa::pixel_format::LumaFormat;
use nokhwa::utils::{CameraIndex, RequestedFormat, RequestedFormatType, Resolution};

use super::frames::FrameSource;

/// A webcam, streaming.
pub struct Webcam {
    frames: Receiver<Result<GrayImage, String>>,
}

impl Webcam {
    /// Opens camera `index` (0 is the first), asking for 1280×720 or near it.
    pub fn open(index: u32) -> Result<Webcam, String> {
        let (ready_tx, ready_rx) = sync_channel::<Result<(), String>>(1);
        let (tx, frames) = sync_channel::<Result<GrayImage, String>>(2);
        std::thread::spawn(move || {
            let requested = RequestedFormat::new::<LumaFormat>(
                RequestedFormatType::HighestResolution(Resolution::new(1280, 720)),
            );
            let opened = Camera::new(CameraIndex::Index(index), requested).and_then(|mut cam| {
                cam.open_stream()?;
                Ok(cam)
            });
            let mut cam = match opened {
                Ok(cam) => {
                    let _ = ready_tx.send(Ok(()));
                    cam
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(format!(
                        "cannot open camera {index}: {e}; is a webcam plugged in and not in use by another program?"
                    )));
                    return;
                }
            };
            loop {
                let frame = cam
                    .frame()
                    .and_then(|buf| buf.decode_image::<LumaFormat>())
                    .map(|img| {
                        let (w, h) = img.dimensions();
                        GrayImage::from_raw(w, h, img.into_raw()).unwrap_or_default()
                    })
                    .map_err(|e| format!("camera {index}: {e}"));
                match tx.try_send(frame) {
                    Ok(()) | Err(TrySendError::Full(_)) => {}
                    Err(TrySendError::Disconnected(_)) => break,
                }
            }
            let _ = cam.stop_stream();
        });
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Webcam { frames }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(format!("camera {index}: the camera thread stopped")),
        }
    }
}

impl FrameSource for Webcam {
    fn next_frame(&mut self) -> Option<Result<GrayImage, String>> {
        self.frames.recv().ok()
    }

    fn is_live(&self) -> bool {
        true
    }
}
