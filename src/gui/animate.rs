//! The one animation every set uses: a piece eases from where it is to where it goes, rising
//! on the way and turning over if it flips. It knows no set: the sets plan the tweens from the
//! rules' effects. When everything has come to rest it says so, and the set on the table
//! checks its scene against the rules.

use super::TableSystems;
use super::table::Settled;
use bevy::prelude::*;

/// Seconds for a slide at normal speed.
pub const SLIDE: f32 = 0.35;
/// Seconds for a capture or a removal to reach the tray.
pub const LIFT: f32 = 0.45;

/// Animation speed, a setting (kept with the others, see [`crate::settings`]).
pub use crate::settings::Animation as Speed;

/// A piece on its way: eased from `from` to `to` after `delay`, rising `lift` at mid-way, and
/// turning from one rotation to another on the way if `turn` is set (a disc flipping over).
#[derive(Component, Clone, Debug)]
pub struct Tween {
    pub from: Vec3,
    pub to: Vec3,
    pub delay: f32,
    pub duration: f32,
    pub elapsed: f32,
    pub lift: f32,
    pub turn: Option<(Quat, Quat)>,
}

impl Tween {
    /// A slide from `from` to `to`.
    pub fn slide(from: Vec3, to: Vec3, delay: f32, duration: f32, lift: f32) -> Tween {
        Tween { from, to, delay, duration: duration.max(1e-3), elapsed: 0.0, lift, turn: None }
    }

    /// A piece put on the table: it drops from `height` above `to`.
    pub fn falling(to: Vec3, height: f32, delay: f32, duration: f32) -> Tween {
        Tween::slide(to + Vec3::Y * height, to, delay, duration, 0.0)
    }

    /// The same way, turning over from `from` to `to` as it goes.
    pub fn turning(self, from: Quat, to: Quat) -> Tween {
        Tween { turn: Some((from, to)), ..self }
    }

    fn progress(&self) -> f32 {
        let p = ((self.elapsed - self.delay) / self.duration).clamp(0.0, 1.0);
        p * p * (3.0 - 2.0 * p)
    }

    fn done(&self) -> bool {
        self.elapsed >= self.delay + self.duration
    }
}

/// How often the settled scene did not match the rules and had to be rebuilt (0 when all is well).
#[derive(Resource, Default, Debug)]
pub struct Resyncs(pub u32);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Speed>()
        .init_resource::<Resyncs>()
        .add_systems(Update, (tick, come_to_rest).chain().in_set(TableSystems::Animate));
}

fn tick(mut commands: Commands, time: Res<Time>, mut q: Query<(Entity, &mut Transform, &mut Tween)>) {
    for (e, mut tf, mut tween) in &mut q {
        tween.elapsed += time.delta_secs();
        if tween.elapsed >= tween.delay {
            let k = tween.progress();
            let raw = ((tween.elapsed - tween.delay) / tween.duration).clamp(0.0, 1.0);
            tf.translation = tween.from.lerp(tween.to, k) + Vec3::Y * tween.lift * (std::f32::consts::PI * raw).sin();
            if let Some((from, to)) = tween.turn {
                tf.rotation = from.slerp(to, k);
            }
        }
        if tween.done() {
            tf.translation = tween.to;
            if let Some((_, to)) = tween.turn {
                tf.rotation = to;
            }
            commands.entity(e).remove::<Tween>();
        }
    }
}

/// When the last piece stops moving, the table has settled: the set on it checks its scene.
fn come_to_rest(moving: Query<(), With<Tween>>, mut was_moving: Local<bool>, mut settled: MessageWriter<Settled>) {
    let now = !moving.is_empty();
    if !now && std::mem::replace(&mut *was_moving, now) {
        settled.write(Settled);
    }
    *was_moving = now;
}
