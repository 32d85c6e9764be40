//! The table's sounds, synthesised by the project (no recordings, no downloaded samples):
//! wood knocking on wood for the pine tiles, a harder click for stones, friction noise for a
//! slide, two quick clicks for a disc turned over, a soft tick for the sand-glass's last
//! seconds. Each sound has several seeded variants a little apart in pitch, decay and
//! noise, so repeats do not grate. Built without Bevy: the table plays them when it is built
//! with the `audio` feature, and `tablero sounds <dir>` writes them as WAV files.

use rand::{Rng, SeedableRng};

/// Samples a second (mono).
pub const RATE: u32 = 44_100;

/// Variants made of each sound.
pub const VARIANTS: usize = 5;

/// What the table makes heard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A pine tile laid on the board (or on the table out of the box).
    TileLaid,
    /// A tile set down on another: higher and drier.
    TileStacked,
    /// A tile or tower slid along the board.
    TileSlid,
    /// The box's lid sliding open.
    LidSlid,
    /// An Ordo or Crossings stone set down.
    StoneSet,
    /// A stone slid to its square.
    StoneSlid,
    /// A CTOR disc put on the field.
    DiscSet,
    /// A CTOR disc turned over.
    DiscFlipped,
    /// One of the sand-glass's last seconds.
    SandTick,
}

impl Sound {
    pub const ALL: [Sound; 9] = [
        Sound::TileLaid,
        Sound::TileStacked,
        Sound::TileSlid,
        Sound::LidSlid,
        Sound::StoneSet,
        Sound::StoneSlid,
        Sound::DiscSet,
        Sound::DiscFlipped,
        Sound::SandTick,
    ];

    /// The sound's file name (`tablero sounds`).
    pub fn name(self) -> &'static str {
        match self {
            Sound::TileLaid => "tile-laid",
            Sound::TileStacked => "tile-stacked",
            Sound::TileSlid => "tile-slid",
            Sound::LidSlid => "lid-slid",
            Sound::StoneSet => "stone-set",
            Sound::StoneSlid => "stone-slid",
            Sound::DiscSet => "disc-set",
            Sound::DiscFlipped => "disc-flipped",
            Sound::SandTick => "sand-tick",
        }
    }

    /// How loud it is next to the others (a slide is quieter than a knock).
    fn level(self) -> f32 {
        match self {
            Sound::TileSlid | Sound::StoneSlid | Sound::LidSlid => 0.35,
            Sound::SandTick => 0.3,
            Sound::DiscSet | Sound::DiscFlipped => 0.55,
            _ => 0.8,
        }
    }
}

/// A struck piece of wood or stone: its lowest mode's frequency, the ratios of the others,
/// how fast the lowest decays, and how much of the contact's noise is heard.
struct Knock {
    f0: f32,
    ratios: &'static [f32],
    decay: f32,
    noise: f32,
}

/// Pine: inharmonic modes of a thin plate, decaying fast (soft wood damps itself).
const PINE: &[f32] = &[1.0, 2.31, 3.87, 5.42];
/// Stone and hard plastic: fewer, higher, longer ringing modes.
const STONE: &[f32] = &[1.0, 1.59, 2.72];

/// The samples of one variant of a sound, from -1 to 1.
pub fn synth(sound: Sound, variant: usize) -> Vec<f32> {
    let seed = 0x5eed_0000 ^ ((sound as u64) << 8) ^ variant as u64;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // Each variant a little apart: pitch within ±6%, decay within ±15%.
    let pitch = 1.0 + rng.random_range(-0.06..0.06f32);
    let damp = 1.0 + rng.random_range(-0.15..0.15f32);
    let mut out = match sound {
        Sound::TileLaid => {
            knock(&mut rng, &Knock { f0: 240.0 * pitch, ratios: PINE, decay: 0.045 * damp, noise: 0.5 }, 0.18)
        }
        Sound::TileStacked => {
            knock(&mut rng, &Knock { f0: 520.0 * pitch, ratios: PINE, decay: 0.03 * damp, noise: 0.45 }, 0.14)
        }
        Sound::TileSlid => {
            let mut s = slide(&mut rng, 0.26 * damp, 900.0 * pitch, 0.6);
            mix(
                &mut s,
                &knock(&mut rng, &Knock { f0: 300.0 * pitch, ratios: PINE, decay: 0.03, noise: 0.4 }, 0.1),
                0.22,
                0.5,
            );
            s
        }
        Sound::LidSlid => slide(&mut rng, 0.7 * damp, 700.0 * pitch, 0.75),
        Sound::StoneSet => {
            knock(&mut rng, &Knock { f0: 1900.0 * pitch, ratios: STONE, decay: 0.016 * damp, noise: 0.3 }, 0.1)
        }
        Sound::StoneSlid => {
            let mut s = slide(&mut rng, 0.2 * damp, 2400.0 * pitch, 0.35);
            let click = knock(&mut rng, &Knock { f0: 1700.0 * pitch, ratios: STONE, decay: 0.012, noise: 0.3 }, 0.08);
            mix(&mut s, &click, 0.17, 0.6);
            s
        }
        Sound::DiscSet => {
            knock(&mut rng, &Knock { f0: 1100.0 * pitch, ratios: STONE, decay: 0.014 * damp, noise: 0.5 }, 0.09)
        }
        Sound::DiscFlipped => {
            // Lifted by its edge (a light tick), then landing on its other face.
            let lift = knock(&mut rng, &Knock { f0: 1500.0 * pitch, ratios: STONE, decay: 0.008, noise: 0.6 }, 0.05);
            let land =
                knock(&mut rng, &Knock { f0: 1150.0 * pitch, ratios: STONE, decay: 0.014 * damp, noise: 0.5 }, 0.09);
            let gap = rng.random_range(0.075..0.1f32);
            let mut s = vec![0.0; seconds(gap + 0.1)];
            mix(&mut s, &lift, 0.0, 0.35);
            mix(&mut s, &land, gap, 1.0);
            s
        }
        Sound::SandTick => {
            knock(&mut rng, &Knock { f0: 2600.0 * pitch, ratios: &[1.0, 2.0], decay: 0.01 * damp, noise: 0.2 }, 0.06)
        }
    };
    normalise(&mut out, sound.level() * (1.0 + rng.random_range(-0.1..0.1f32)));
    out
}

fn seconds(s: f32) -> usize {
    (s * RATE as f32) as usize
}

/// A struck body: its modes as damped sines (higher ones decaying faster) after a short
/// burst of filtered contact noise, `length` seconds in all.
fn knock(rng: &mut impl Rng, k: &Knock, length: f32) -> Vec<f32> {
    let n = seconds(length);
    let mut out = vec![0.0f32; n];
    for (m, &ratio) in k.ratios.iter().enumerate() {
        let f = k.f0 * ratio * (1.0 + rng.random_range(-0.02..0.02f32));
        let tau = k.decay / (1.0 + m as f32 * 0.8);
        let amp = 1.0 / (1.0 + m as f32 * 0.7);
        let phase = rng.random_range(0.0..std::f32::consts::TAU);
        for (i, s) in out.iter_mut().enumerate() {
            let t = i as f32 / RATE as f32;
            *s += amp * (-t / tau).exp() * (std::f32::consts::TAU * f * t + phase).sin();
        }
    }
    // The contact: a few milliseconds of noise, band-limited round the body's pitch.
    let burst = seconds(0.004);
    let mut low = 0.0f32;
    let a = (k.f0 * 4.0 / RATE as f32).min(0.9);
    for (i, s) in out.iter_mut().enumerate().take(burst * 3) {
        low += a * (rng.random_range(-1.0..1.0f32) - low);
        *s += k.noise * 3.0 * low * (-(i as f32) / burst as f32).exp();
    }
    fade_ends(&mut out);
    out
}

/// Friction: noise through a band round `centre`, swelling and fading over `length`
/// seconds, with the grain's flutter; `rough` from smooth (0) to coarse (1).
fn slide(rng: &mut impl Rng, length: f32, centre: f32, rough: f32) -> Vec<f32> {
    let n = seconds(length);
    let mut out = vec![0.0f32; n];
    let (mut low, mut lower) = (0.0f32, 0.0f32);
    let hi = (centre * 2.0 / RATE as f32).min(0.95);
    let lo = (centre * 0.5 / RATE as f32).min(0.9);
    let flutter = rng.random_range(18.0..30.0f32);
    for (i, s) in out.iter_mut().enumerate() {
        let t = i as f32 / n as f32;
        low += hi * (rng.random_range(-1.0..1.0f32) - low);
        lower += lo * (low - lower);
        let band = low - lower;
        let swell = (std::f32::consts::PI * t).sin().powf(0.7);
        let grain = 1.0 - rough * 0.5 * (0.5 + 0.5 * (std::f32::consts::TAU * flutter * t * length).sin());
        *s = band * swell * grain;
    }
    fade_ends(&mut out);
    out
}

/// Adds `other` into `into` from `at` seconds, scaled by `gain` (lengthening `into` to fit).
fn mix(into: &mut Vec<f32>, other: &[f32], at: f32, gain: f32) {
    let start = seconds(at);
    if into.len() < start + other.len() {
        into.resize(start + other.len(), 0.0);
    }
    for (i, s) in other.iter().enumerate() {
        into[start + i] += gain * s;
    }
}

/// Two milliseconds of fade in and out: no click at either end.
fn fade_ends(s: &mut [f32]) {
    let n = seconds(0.002).min(s.len() / 2);
    let len = s.len();
    for i in 0..n {
        let k = i as f32 / n as f32;
        s[i] *= k;
        s[len - 1 - i] *= k;
    }
}

/// Scales the samples so that the loudest is `peak`.
fn normalise(s: &mut [f32], peak: f32) {
    let max = s.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if max > 0.0 {
        for v in s.iter_mut() {
            *v *= peak / max;
        }
    }
}

/// The samples as a WAV file: 16-bit PCM, mono, [`RATE`] samples a second.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * i16::MAX as f32).round() as i16).to_le_bytes());
    }
    out
}

/// Writes every variant of every sound into `dir` as `<name>-<variant>.wav`; says what it wrote.
pub fn write_all(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>, SoundError> {
    std::fs::create_dir_all(dir).map_err(|source| SoundError { path: dir.to_path_buf(), source })?;
    let mut written = Vec::new();
    for sound in Sound::ALL {
        for v in 0..VARIANTS {
            let path = dir.join(format!("{}-{}.wav", sound.name(), v + 1));
            std::fs::write(&path, wav(&synth(sound, v))).map_err(|source| SoundError { path: path.clone(), source })?;
            written.push(path);
        }
    }
    Ok(written)
}

/// A sound file or its folder that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub struct SoundError {
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}
