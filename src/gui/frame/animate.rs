//! The one animation every set uses: a piece eases from where it is to where it goes, rising
//! on the way and turning over if it flips. It knows no set: the sets plan the tweens from the
//! rules' effects. When everything has come to rest it says so, and the set on the table
//! checks its scene against the rules.

use crate::gui::frame::board::Settled;
use crate::gui::frame::steps::TableSystems;
use crate::gui::look::sound::Sounded;
use crate::sound::Sound;
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
    /// What it sounds like: a slide or a flip as it starts, anything else as it lands.
    pub sound: Option<Sound>,
}

impl Tween {
    /// A slide from `from` to `to`.
    pub fn slide(from: Vec3, to: Vec3, delay: f32, duration: f32, lift: f32) -> Tween {
        Tween { from, to, delay, duration: duration.max(1e-3), elapsed: 0.0, lift, turn: None, sound: None }
    }

    /// The same way, heard as `sound` (`None`: silent).
    pub fn sounding(self, sound: impl Into<Option<Sound>>) -> Tween {
        Tween { sound: sound.into(), ..self }
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

/// A brief highlight where a piece changed at once (the animation is instant, as under
/// reduced motion): a glowing ring around it that fades without moving.
#[derive(Component, Clone, Debug)]
pub struct Flash {
    pub elapsed: f32,
}

/// Seconds a flash takes to fade.
pub const FLASH: f32 = 0.9;

/// The ring's mesh, made once.
#[derive(Resource)]
struct FlashMesh(Handle<Mesh>);

/// How often the settled scene did not match the rules and had to be rebuilt (0 when all is well).
#[derive(Resource, Default, Debug)]
pub struct Resyncs(pub u32);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Speed>()
        .init_resource::<Resyncs>()
        .add_systems(Startup, |mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>| {
            let ring = Extrusion::new(Annulus::new(0.43, 0.58), 0.05).mesh().resolution(32);
            commands.insert_resource(FlashMesh(meshes.add(ring)));
        })
        .add_systems(Update, (tick, come_to_rest).chain().in_set(TableSystems::Animate))
        .add_systems(Update, fade.run_if(any_with_component::<Flash>).in_set(TableSystems::Present));
}

/// A flash around `at` (and one where the piece left, `from`, when it moved).
fn flash(commands: &mut Commands, mesh: &FlashMesh, materials: &mut Assets<StandardMaterial>, at: Vec3, from: Vec3) {
    let from = from.with_y(at.y);
    let places: &[Vec3] = if from.distance(at) > 0.5 { &[at, from] } else { &[at] };
    for &p in places {
        let material = materials.add(StandardMaterial {
            base_color: Color::srgba(1.0, 0.72, 0.0, 1.0),
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        });
        commands.spawn((
            Mesh3d(mesh.0.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(p).with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
            Flash { elapsed: 0.0 },
            crate::gui::frame::board::BoardItem,
        ));
    }
}

/// Flashes hold a moment, fade out and go.
fn fade(
    mut commands: Commands,
    time: Res<Time>,
    mut flashes: Query<(Entity, &mut Flash, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (e, mut f, mat) in &mut flashes {
        // A long first frame (the window was resting) does not skip the flash.
        f.elapsed += time.delta_secs().min(0.1);
        if f.elapsed >= FLASH {
            commands.entity(e).despawn();
        } else if let Some(mut m) = materials.get_mut(&mat.0) {
            let hold = 0.4;
            m.base_color.set_alpha(((1.0 - f.elapsed / FLASH) / (1.0 - hold)).min(1.0));
        }
    }
}

fn tick(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<Speed>,
    ring: Option<Res<FlashMesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut q: Query<(Entity, &mut Transform, &mut Tween)>,
    mut heard: MessageWriter<Sounded>,
) {
    for (e, mut tf, mut tween) in &mut q {
        // An instant change is shown by a flash where it happened.
        if *speed == Speed::Instant
            && tween.elapsed == 0.0
            && let Some(ring) = &ring
            && (tween.from.distance(tween.to) > 1e-3 || tween.turn.is_some())
        {
            flash(&mut commands, ring, &mut materials, tween.to, tween.from);
        }
        let before = tween.elapsed;
        tween.elapsed += time.delta_secs();
        if let Some(sound) = tween.sound {
            let starts = (before < tween.delay || before == 0.0) && tween.elapsed >= tween.delay;
            let due = if crate::gui::look::sound::as_it_starts(sound) { starts } else { tween.done() };
            if due {
                heard.write(Sounded(sound));
            }
        }
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
