//! How the table is drawn on the machine at hand: the full look on a GPU, a cheaper profile
//! on a software renderer (Mesa's lavapipe shades on the CPU), and a window that redraws
//! only when something changes.

use super::session::{ComputerThinking, Session};
use super::table::Table;
use super::{Mode, TableSystems};
use bevy::prelude::*;
use std::time::Duration;

/// How much the renderer may spend per pixel: software renderers (Mesa's lavapipe) shade on
/// the CPU, where multisampling, shadows and a lit table top cost most of the frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quality {
    #[default]
    Full,
    Software,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Activity>()
        .add_systems(Update, adapt_to_renderer)
        .add_systems(Update, activity.in_set(TableSystems::Present));
}

/// Chooses the quality from the graphics adapter once it is known (`TABLERO_QUALITY=full` or
/// `software` overrides), and applies it to cameras, lights and the table.
fn adapt_to_renderer(
    mut commands: Commands,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    quality: Option<Res<Quality>>,
    mut cams: Query<&mut Msaa>,
    mut lights: Query<&mut DirectionalLight>,
    table: Query<&MeshMaterial3d<StandardMaterial>, With<Table>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    use wgpu_types::DeviceType;
    let q = match quality {
        Some(q) => *q,
        None => {
            let Some(adapter) = adapter else { return };
            let q = match std::env::var("TABLERO_QUALITY").as_deref() {
                Ok("full") => Quality::Full,
                Ok("software") => Quality::Software,
                _ if adapter.device_type == DeviceType::Cpu => Quality::Software,
                _ => Quality::Full,
            };
            commands.insert_resource(q);
            q
        }
    };
    if q != Quality::Software {
        return;
    }
    for mut msaa in &mut cams {
        if *msaa != Msaa::Off {
            *msaa = Msaa::Off;
        }
    }
    for mut light in &mut lights {
        if light.shadow_maps_enabled {
            light.shadow_maps_enabled = false;
        }
    }
    for m in &table {
        if let Some(mat) = materials.get(&m.0)
            && !mat.unlit
            && let Some(mut mat) = materials.get_mut(&m.0)
        {
            mat.unlit = true;
        }
    }
}

/// What the table needs from the clock: nothing (it rests until input), a few frames a second
/// (the computer thinks, the random mover waits, a replay or the sand-glass runs), or every
/// frame (pieces are moving).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activity {
    #[default]
    Resting,
    Waiting,
    Moving,
}

/// Seconds the table keeps drawing after the scene was built (new meshes and materials reach
/// the renderer over a few frames).
const SETTLE: f32 = 1.0;

/// Decides the table's activity each frame from what is going on.
#[allow(clippy::too_many_arguments)]
fn activity(
    session: Option<Res<Session>>,
    mode: Res<State<Mode>>,
    tweens: Query<(), With<super::animate::Tween>>,
    thinking: Res<ComputerThinking>,
    time: Res<Time<Real>>,
    mut rebuilt: MessageReader<super::table::Rebuild>,
    mut since_rebuild: Local<Option<f32>>,
    mut now: ResMut<Activity>,
) {
    if rebuilt.read().count() > 0 {
        *since_rebuild = Some(0.0);
    }
    let building = match &mut *since_rebuild {
        Some(t) if *t < SETTLE => {
            *t += time.delta_secs();
            true
        }
        _ => false,
    };
    let waiting = session.is_some_and(|s| match *mode.get() {
        Mode::Live => {
            s.computer_to_move()
                || matches!(&s.game, crate::rules::AnyGame::Ctor(g) if g.options().timer.is_some())
                    && crate::rules::Game::outcome(&s.game).is_none()
        }
        Mode::Replay => s.replay.is_some_and(|r| r.autoplay),
        Mode::Secrets => false,
    });
    let want = if !tweens.is_empty() || building {
        Activity::Moving
    } else if thinking.0 || waiting {
        Activity::Waiting
    } else {
        Activity::Resting
    };
    if *now != want {
        *now = want;
    }
}

/// The window redraws only on input, while something moves or the scene was just built (every
/// frame), while the table waits on a clock (ten frames a second), or when the window
/// changes; at rest it wakes once a minute at most.
pub(super) fn pacing(app: &mut App) {
    use bevy::winit::{UpdateMode, WinitSettings};
    let rest = UpdateMode::reactive_low_power(Duration::from_secs(60));
    app.insert_resource(WinitSettings { focused_mode: rest, unfocused_mode: rest }).add_systems(
        Last,
        move |activity: Res<Activity>, screen: Res<State<super::Screen>>, mut winit: ResMut<WinitSettings>| {
            let playing = *screen.get() == super::Screen::Playing;
            let mode = match (*activity, playing) {
                (Activity::Moving, true) => UpdateMode::Continuous,
                (Activity::Waiting, true) => UpdateMode::reactive_low_power(Duration::from_millis(100)),
                _ => rest,
            };
            if winit.focused_mode != mode {
                winit.focused_mode = mode;
                winit.unfocused_mode = mode;
            }
        },
    );
}
