//! What the table makes heard: the sets say what each animation sounds like
//! ([`crate::gui::frame::animate::Tween::sounding`]), the animation says when (a slide or a flip as it
//! starts, anything else as it lands), and the sand-glass ticks through its last seconds.
//! With the `audio` feature the sounds of [`crate::sound`] are played, each time another of
//! its variants a little faster or slower, at the settings' volume unless muted; without it
//! the table is silent and the settings panel says how to build it with sound.

use crate::settings::Settings;
use crate::sound::Sound;
use bevy::prelude::*;

/// A sound the table makes now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sounded(pub Sound);

/// Whether a sound belongs to the start of its animation (a slide scrapes as it goes, a
/// disc's flip begins with its lift) or to its end (a piece set down).
pub fn as_it_starts(sound: Sound) -> bool {
    matches!(sound, Sound::TileSlid | Sound::StoneSlid | Sound::LidSlid | Sound::DiscFlipped)
}

/// The sand-glass ticks through this many last seconds of a turn.
pub const SAND_TICKS: f32 = 5.0;

/// The ticks due as the sand-glass's clock goes from `before` to `now` seconds of `limit`:
/// one at each whole second of the last [`SAND_TICKS`].
pub fn sand_ticks(before: f32, now: f32, limit: f32) -> usize {
    let left = |t: f32| limit - t;
    (1..=SAND_TICKS as u32)
        .filter(|&s| {
            let s = s as f32;
            left(before) > s && left(now) <= s
        })
        .count()
}

/// The loudness a sound is played at (0 to 1), from the settings: nothing when muted.
pub fn loudness(settings: &Settings) -> f32 {
    if settings.muted { 0.0 } else { settings.volume as f32 / 100.0 }
}

/// Whether this build plays sound (the `audio` feature).
pub const BUILT_WITH_SOUND: bool = cfg!(feature = "audio");

/// The sounds' message, wherever pieces animate (the window, headless apps, pictures).
pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Sounded>();
}

/// Playing them, where people listen: in a build with the `audio` feature and an app with
/// Bevy's audio (the window); elsewhere nothing.
#[cfg_attr(not(feature = "audio"), allow(unused_variables))]
pub fn playback(app: &mut App) {
    #[cfg(feature = "audio")]
    if app.world().contains_resource::<Assets<bevy::audio::AudioSource>>() {
        play::plugin(app);
    }
}

#[cfg(feature = "audio")]
mod play {
    use super::{Sounded, loudness};
    use crate::settings::Settings;
    use crate::sound::{Sound, VARIANTS, synth, wav};
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
    use bevy::prelude::*;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// Every variant of every sound, made once at start.
    #[derive(Resource)]
    pub struct Bank(pub HashMap<Sound, Vec<Handle<AudioSource>>>);

    /// Which variant each sound played last, and the seeded choice of the next.
    #[derive(Resource)]
    struct Choice {
        last: HashMap<Sound, usize>,
        rng: rand::rngs::StdRng,
    }

    pub fn plugin(app: &mut App) {
        let mut sources = app.world_mut().resource_mut::<Assets<AudioSource>>();
        let bank = Sound::ALL
            .iter()
            .map(|&s| {
                let variants =
                    (0..VARIANTS).map(|v| sources.add(AudioSource { bytes: wav(&synth(s, v)).into() })).collect();
                (s, variants)
            })
            .collect();
        app.insert_resource(Bank(bank))
            .insert_resource(Choice { last: HashMap::new(), rng: rand::rngs::StdRng::seed_from_u64(7) })
            .add_systems(Update, play.run_if(on_message::<Sounded>));
    }

    /// Each sound heard plays once, another variant than last time, a little faster or
    /// slower, at the settings' loudness; a sound of the same kind within the same frame is
    /// heard once (a tower's tiles land together).
    fn play(
        mut commands: Commands,
        mut heard: MessageReader<Sounded>,
        bank: Res<Bank>,
        settings: Res<Settings>,
        mut choice: ResMut<Choice>,
    ) {
        let level = loudness(&settings);
        let mut now: Vec<Sound> = heard.read().map(|s| s.0).collect();
        now.sort_by_key(|s| *s as u8);
        now.dedup();
        if level <= 0.0 {
            return;
        }
        for sound in now {
            let Some(variants) = bank.0.get(&sound) else { continue };
            let last = choice.last.get(&sound).copied();
            let step = choice.rng.random_range(1..VARIANTS);
            let v = last.map(|l| (l + step) % VARIANTS).unwrap_or(0);
            choice.last.insert(sound, v);
            let speed = 1.0 + choice.rng.random_range(-0.04..0.04f32);
            commands.spawn((
                AudioPlayer(variants[v].clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(level)).with_speed(speed),
            ));
        }
    }
}

#[cfg(feature = "audio")]
pub use play::Bank;
