//! The synthesised sounds: every variant sounds (loud enough, never clipping, silent at its
//! ends), repeats exactly, the variants of a sound are alike but not the same, and the
//! kinds differ as their materials do; the WAV files read back.

use tablero::sound::{RATE, Sound, VARIANTS, synth, wav};

fn peak(s: &[f32]) -> f32 {
    s.iter().fold(0.0, |m, v| m.max(v.abs()))
}

fn rms(s: &[f32]) -> f32 {
    (s.iter().map(|v| v * v).sum::<f32>() / s.len().max(1) as f32).sqrt()
}

/// How bright a sound is: its sign changes a second over the parts where it is loud (a
/// proxy for the spectral centroid that needs no transform).
fn brightness(s: &[f32]) -> f32 {
    let chunk = (RATE / 500) as usize;
    let top = s.chunks(chunk).map(rms).fold(0.0, f32::max);
    let (mut crossings, mut samples) = (0usize, 0usize);
    for c in s.chunks(chunk).filter(|c| rms(c) > 0.1 * top) {
        crossings += c.windows(2).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count();
        samples += c.len();
    }
    crossings as f32 / samples as f32 * RATE as f32 / 2.0
}

#[test]
fn every_variant_sounds_without_clipping_and_ends_in_silence() {
    for sound in Sound::ALL {
        for v in 0..VARIANTS {
            let s = synth(sound, v);
            let secs = s.len() as f32 / RATE as f32;
            assert!((0.04..=1.0).contains(&secs), "{sound:?} {v}: {secs} s long");
            assert!(s.iter().all(|x| x.is_finite()), "{sound:?} {v}: not a number");
            let p = peak(&s);
            assert!((0.2..=0.9).contains(&p), "{sound:?} {v}: peak {p}");
            // No click at either end: the first and last millisecond are near silence.
            // No click at either end: it fades in and out from silence.
            assert!(peak(&s[..4]) < 0.05 * p, "{sound:?} {v} starts with a click");
            assert!(peak(&s[s.len() - 4..]) < 0.05 * p, "{sound:?} {v} ends with a click");
            // It decays: the last tenth is much quieter than the loudest tenth.
            let tenth = s.len() / 10;
            let loudest = s.chunks(tenth).map(rms).fold(0.0, f32::max);
            assert!(rms(&s[s.len() - tenth..]) < 0.35 * loudest, "{sound:?} {v} does not die away");
        }
    }
}

#[test]
fn a_sound_repeats_exactly_and_its_variants_differ_a_little() {
    for sound in Sound::ALL {
        assert_eq!(synth(sound, 2), synth(sound, 2), "{sound:?} is not repeatable");
        let first = synth(sound, 0);
        let b0 = brightness(&first);
        for v in 1..VARIANTS {
            let other = synth(sound, v);
            assert_ne!(first, other, "{sound:?}: variant {v} is the first again");
            let b = brightness(&other);
            assert!((b / b0 - 1.0).abs() < 0.3, "{sound:?}: variant {v} is {b:.0} Hz bright, the first {b0:.0}");
            let (l0, l) = (first.len() as f32, other.len() as f32);
            assert!((l / l0 - 1.0).abs() < 0.35, "{sound:?}: variant {v} lasts {l} samples, the first {l0}");
        }
    }
}

#[test]
fn the_kinds_sound_as_their_materials() {
    let mean = |sound: Sound, f: &dyn Fn(&[f32]) -> f32| {
        (0..VARIANTS).map(|v| f(&synth(sound, v))).sum::<f32>() / VARIANTS as f32
    };
    let bright = |s: Sound| mean(s, &brightness);
    let long = |s: Sound| mean(s, &|x: &[f32]| x.len() as f32 / RATE as f32);
    // A stone's click is brighter than wood's knock; tile on tile brighter than tile on board.
    assert!(
        bright(Sound::StoneSet) > 1.5 * bright(Sound::TileLaid),
        "stone {} wood {}",
        bright(Sound::StoneSet),
        bright(Sound::TileLaid)
    );
    assert!(bright(Sound::TileStacked) > bright(Sound::TileLaid));
    // A slide lasts longer than a knock; the lid's long slide longest.
    assert!(long(Sound::TileSlid) > 1.5 * long(Sound::TileLaid));
    assert!(long(Sound::LidSlid) > long(Sound::TileSlid));
    // A flip is two clicks: two separate bursts of energy.
    for v in 0..VARIANTS {
        let s = synth(Sound::DiscFlipped, v);
        let ms = (RATE / 1000) as usize * 5;
        let env: Vec<f32> = s.chunks(ms).map(rms).collect();
        let top = env.iter().cloned().fold(0.0, f32::max);
        let onsets =
            env.windows(2).filter(|w| w[0] < 0.2 * top && w[1] >= 0.2 * top).count() + usize::from(env[0] >= 0.2 * top);
        assert_eq!(onsets, 2, "flip variant {v}: {onsets} clicks ({env:?})");
    }
}

#[test]
fn the_wav_files_read_back() {
    let s = synth(Sound::TileLaid, 0);
    let bytes = wav(&s);
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..16], b"WAVEfmt ");
    assert_eq!(u16::from_le_bytes([bytes[20], bytes[21]]), 1, "PCM");
    assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), 1, "mono");
    assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), RATE);
    assert_eq!(u16::from_le_bytes([bytes[34], bytes[35]]), 16);
    assert_eq!(&bytes[36..40], b"data");
    let n = u32::from_le_bytes(bytes[40..44].try_into().unwrap()) as usize;
    assert_eq!(n, 2 * s.len());
    assert_eq!(bytes.len(), 44 + n);
    for (i, x) in s.iter().enumerate().step_by(97) {
        let back = i16::from_le_bytes([bytes[44 + 2 * i], bytes[45 + 2 * i]]) as f32 / i16::MAX as f32;
        assert!((back - x).abs() < 1e-4, "sample {i}: {back} for {x}");
    }
}

#[test]
fn tablero_sounds_writes_every_variant() {
    let dir = std::env::temp_dir().join(format!("tablero-sounds-{}", std::process::id()));
    let mut out = Vec::new();
    tablero::cli::run(&["sounds".into(), dir.display().to_string()], &mut out).unwrap();
    let line = String::from_utf8(out).unwrap();
    assert!(line.starts_with(&format!("{} sounds written", Sound::ALL.len() * VARIANTS)), "{line}");
    let bytes = std::fs::read(dir.join("disc-flipped-3.wav")).unwrap();
    assert_eq!(bytes, wav(&synth(Sound::DiscFlipped, 2)));
    std::fs::remove_dir_all(&dir).unwrap();
    let err = tablero::cli::run(&["sounds".into()], &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("required arguments were not provided: <DIR>"), "{err}");
}
