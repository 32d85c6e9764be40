//! Films of finished games: a record replayed off-screen at a pace, through the broadcast's
//! director camera and overlays, with the clock stepped a frame at a time (so the same record
//! gives the same film), written as a GIF (pure Rust), an MP4 (through an installed
//! `ffmpeg`), and optionally a folder of PNG frames.

use crate::gui::error::GuiError;
use crate::gui::frame::session::{Replay, Session};
use crate::gui::offscreen::Offscreen;
use crate::record::Record;
use crate::table::Table;
use bevy::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How a film is made.
#[derive(Clone, Debug)]
pub struct FilmOptions {
    pub width: u32,
    pub height: u32,
    pub fps: u32,
    /// Seconds a move.
    pub pace: f32,
    /// Also write each frame as a PNG into this folder.
    pub frames_dir: Option<PathBuf>,
}

impl Default for FilmOptions {
    fn default() -> FilmOptions {
        FilmOptions { width: 1280, height: 720, fps: 10, pace: 1.0, frames_dir: None }
    }
}

/// Seconds the final position is held at the end of a film.
const END_HOLD: f32 = 2.0;

/// Where the frames go.
enum Sink {
    Gif(gif::Encoder<std::io::BufWriter<std::fs::File>>),
    Mp4(std::process::Child),
}

/// A temporary file beside the output, removed unless the film is finished (an error or
/// Ctrl-C leaves nothing under the output's name).
struct Part(PathBuf, bool);

impl Drop for Part {
    fn drop(&mut self) {
        if !self.1 {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Films a record into `out`; `progress` hears (frames done, frames in all) as it goes.
/// Returns the number of frames. A record that does not replay fails before any frame.
pub fn film(
    record: &Record,
    out: &Path,
    options: &FilmOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, GuiError> {
    let kind = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if !matches!(kind.as_deref(), Some("gif" | "mp4")) {
        return Err(GuiError::FilmKind(out.to_path_buf()));
    }
    if options.fps == 0 || options.fps > 60 || !(0.1..=60.0).contains(&options.pace) {
        return Err(GuiError::FilmPace);
    }
    let mut session = Table::replay(record.clone())?;
    session.replay = Some(Replay { autoplay: true, pace: options.pace });
    let moves = session.redo.len();
    let total = ((moves as f32 * (options.pace + 0.5) + END_HOLD + 1.0) * options.fps as f32).ceil() as usize;
    if kind.as_deref() == Some("mp4") {
        let found = std::process::Command::new("ffmpeg")
            .arg("-version")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return Err(GuiError::NoFfmpeg);
        }
    }
    if let Some(dir) = &options.frames_dir {
        std::fs::create_dir_all(dir).map_err(|source| GuiError::Write { path: dir.clone(), source })?;
    }
    let (w, h) = (options.width, options.height);
    let mut view = Offscreen::build(session, w, h, None, Some(options.fps))?;
    let frames: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let sink = frames.clone();
    let image = view.image();
    view.app.world_mut().spawn(bevy::render::gpu_readback::Readback::texture(image)).observe(
        move |read: On<bevy::render::gpu_readback::ReadbackComplete>| {
            sink.lock().unwrap_or_else(|e| e.into_inner()).push(read.data.clone());
        },
    );
    let part = Part(out.with_extension(format!("{}.part", kind.as_deref().unwrap_or("film"))), false);
    let file = std::fs::File::create(&part.0).map_err(|source| GuiError::Write { path: part.0.clone(), source })?;
    let mut sink = match kind.as_deref() {
        Some("gif") => {
            let mut encoder =
                gif::Encoder::new(std::io::BufWriter::new(file), w as u16, h as u16, &[]).map_err(gif_error)?;
            encoder.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
            Sink::Gif(encoder)
        }
        _ => {
            drop(file);
            let child = std::process::Command::new("ffmpeg")
                .args(["-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s"])
                .arg(format!("{w}x{h}"))
                .args(["-r", &options.fps.to_string(), "-i", "-", "-pix_fmt", "yuv420p", "-f", "mp4"])
                .arg(&part.0)
                .stdin(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| GuiError::Encode { what: "MP4 (ffmpeg did not start)", why: e.to_string() })?;
            Sink::Mp4(child)
        }
    };
    let mut written = 0;
    let mut settled_for = 0.0;
    // The frame whose picture ends the film: once there, the pictures still being read back
    // are awaited (the scene no longer changes).
    let mut last: Option<usize> = None;
    let frame_secs = 1.0 / options.fps as f32;
    // Frames until the replay has played every move and the end has been held, and the
    // frames read back after it.
    for step in 0..total + 12 {
        if crate::cli::STOP.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(GuiError::Interrupted);
        }
        if last.is_none() {
            view.frame();
        } else {
            view.app.update();
        }
        let done = {
            let world = view.app.world_mut();
            let session = world.resource::<Session>();
            let idle = session.redo.is_empty()
                && world.query::<&crate::gui::frame::animate::Tween>().iter(world).next().is_none();
            if idle {
                settled_for += frame_secs
            } else {
                settled_for = 0.0
            }
            settled_for >= END_HOLD
        };
        let ready: Vec<Vec<u8>> = std::mem::take(&mut *frames.lock().unwrap_or_else(|e| e.into_inner()));
        for data in ready {
            let mut rgba = unpad(&data, w, h);
            if let Some(dir) = &options.frames_dir {
                write_png(&dir.join(format!("frame-{:05}.png", written + 1)), w, h, &rgba)?;
            }
            match &mut sink {
                Sink::Gif(encoder) => {
                    let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut rgba, 10);
                    frame.delay = (100 / options.fps) as u16;
                    encoder.write_frame(&frame).map_err(gif_error)?;
                }
                Sink::Mp4(child) => {
                    let stdin = child.stdin.as_mut().ok_or_else(|| ffmpeg_error("it has no input"))?;
                    stdin.write_all(&rgba).map_err(|e| ffmpeg_error(format!("it stopped: {e}")))?;
                }
            }
            written += 1;
            progress(written, total.max(written));
        }
        if done && last.is_none() {
            last = Some(step + 1);
        }
        if last.is_some_and(|n| written >= n) || step >= total + 8 {
            break;
        }
    }
    match sink {
        Sink::Gif(encoder) => {
            let mut file = encoder.into_inner().map_err(gif_error)?;
            file.flush().map_err(gif_error)?;
        }
        Sink::Mp4(mut child) => {
            drop(child.stdin.take());
            let status = child.wait().map_err(|e| ffmpeg_error(e.to_string()))?;
            if !status.success() {
                return Err(ffmpeg_error(format!("it failed ({status})")));
            }
        }
    }
    std::fs::rename(&part.0, out).map_err(|source| GuiError::Write { path: out.to_path_buf(), source })?;
    let mut part = part;
    part.1 = true;
    Ok(written)
}

/// Texture rows come back padded to 256 bytes: the picture's own rows.
fn unpad(data: &[u8], w: u32, h: u32) -> Vec<u8> {
    let row = w as usize * 4;
    let padded = row.div_ceil(256) * 256;
    if data.len() == row * h as usize {
        return data.to_vec();
    }
    (0..h as usize).flat_map(|y| data[y * padded..y * padded + row].iter().copied()).collect()
}

/// A GIF encoder's failure.
fn gif_error(e: impl std::fmt::Display) -> GuiError {
    GuiError::Encode { what: "GIF", why: e.to_string() }
}

/// ffmpeg's failure.
fn ffmpeg_error(why: impl Into<String>) -> GuiError {
    GuiError::Encode { what: "MP4 (ffmpeg)", why: why.into() }
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) -> Result<(), GuiError> {
    let file = std::fs::File::create(path).map_err(|source| GuiError::Write { path: path.to_path_buf(), source })?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let png = |e: png::EncodingError| GuiError::Encode { what: "PNG", why: e.to_string() };
    let mut writer = encoder.write_header().map_err(png)?;
    writer.write_image_data(rgba).map_err(png)
}
