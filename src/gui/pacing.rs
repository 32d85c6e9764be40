//! How often the window draws, decided from every room at once: every frame while pieces
//! move, a scene settles, a photo is taken or the broadcast's director moves its camera; a few
//! frames a second while the table waits on a clock or the computer's pace; at rest, and while
//! the computer searches, only on input (the search wakes the window when it ends).

use crate::gui::frame::computer::ComputerThinking;
use crate::gui::frame::session::Session;
use crate::gui::frame::steps::{Mode, TableSystems};
use bevy::prelude::*;
use std::time::Duration;

/// The table's activity, decided each frame (in the headless table too).
pub(super) fn core(app: &mut App) {
    app.init_resource::<Activity>()
        .add_systems(Update, activity.in_set(TableSystems::Present).after(crate::gui::stream::eval::Weighs));
}

/// What the table needs from the clock: nothing (it rests until input, or until the computer's
/// search ends and wakes it), a few frames a second (the computer's pace, the random mover
/// waits, a replay or the sand-glass runs), or every frame (pieces are moving).
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
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn activity(
    session: Res<Session>,
    mode: Res<State<Mode>>,
    tweens: Query<(), Or<(With<crate::gui::frame::animate::Tween>, With<crate::gui::frame::animate::Flash>)>>,
    photos: Query<(), Or<(With<crate::gui::look::photo::PhotoCamera>, With<crate::gui::look::photo::PhotoHint>)>>,
    thinking: Res<ComputerThinking>,
    weighing: Option<Res<crate::gui::stream::eval::Weighing>>,
    pace: Res<crate::gui::frame::computer::ComputerPace>,
    directing: Option<Res<crate::gui::stream::broadcast::Directing>>,
    time: Res<Time<Real>>,
    mut rebuilt: MessageReader<crate::gui::frame::board::Rebuild>,
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
    // The computer's turn ticks (its pace, the random mover's wait) but not while it searches:
    // the search wakes the window when it ends, and meanwhile has the cores the frames would take.
    let waiting = match *mode.get() {
        Mode::Live => {
            session.computer_to_move() && !pace.paused && !thinking.0
                || crate::gui::frame::clock::sand_running(&session)
        }
        Mode::Replay => session.replay.is_some_and(|r| r.autoplay),
        Mode::Secrets => false,
    };
    let directing = directing.is_some_and(|d| d.0);
    let want = if !tweens.is_empty() || !photos.is_empty() || building || directing {
        Activity::Moving
    } else if waiting || weighing.is_some_and(|w| w.0) {
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
pub(super) fn plugin(app: &mut App) {
    use bevy::winit::{UpdateMode, WinitSettings};
    let rest = UpdateMode::reactive_low_power(Duration::from_secs(60));
    // The window starts out continuous: it draws until its first frames are on the screen.
    let busy = WinitSettings { focused_mode: UpdateMode::Continuous, unfocused_mode: UpdateMode::Continuous };
    app.insert_resource(busy).add_systems(
        Last,
        move |activity: Res<Activity>,
              screen: Res<State<crate::gui::frame::steps::Screen>>,
              time: Res<Time<Real>>,
              seats: Option<Res<crate::gui::screens::choice::MenuSeats>>,
              mut since_screen: Local<f32>,
              mut winit: ResMut<WinitSettings>| {
            // A new screen (the menu at start, the table, the menu again) is drawn for a moment
            // before the window rests.
            if screen.is_changed() {
                *since_screen = 0.0;
            } else {
                *since_screen += time.delta_secs();
            }
            let playing = *screen.get() == crate::gui::frame::steps::Screen::Playing;
            // A name being typed in the menu shows each letter as it comes.
            let typing = seats.is_some_and(|s| s.editing.is_some());
            let mode = match (*activity, playing) {
                _ if *since_screen < SETTLE => UpdateMode::Continuous,
                _ if typing => UpdateMode::reactive_low_power(Duration::from_millis(100)),
                (Activity::Moving, true) => UpdateMode::Continuous,
                (Activity::Waiting, true) => UpdateMode::reactive_low_power(Duration::from_millis(100)),
                _ => rest,
            };
            // While it draws every frame, the searches below it work in slices and rest
            // between them (background::pause_point), so that the frame has the cores.
            crate::background::set_drawing(mode == UpdateMode::Continuous);
            if winit.focused_mode != mode {
                // Coming to rest, the memory the frames just drawn freed goes back to the
                // system (a few milliseconds, while nothing is drawn).
                if mode == rest {
                    crate::memory::give_back();
                }
                winit.focused_mode = mode;
                winit.unfocused_mode = mode;
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::background::drawing;
    use crate::gui::frame::steps::Screen;

    /// The window's pace tells the searches below it whether it draws every frame: while a
    /// new screen settles and while pieces move, not at rest or while it waits on a clock.
    #[test]
    fn the_window_tells_the_searches_when_it_draws_every_frame() {
        let _one_at_a_time = crate::background::DRAWING_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
            .insert_state(Screen::Playing)
            .insert_resource(Activity::Resting);
        plugin(&mut app);
        app.update();
        assert!(drawing(), "the new screen is drawn every frame for a moment");
        std::thread::sleep(Duration::from_secs_f32(SETTLE + 0.1));
        app.update();
        app.update();
        assert!(!drawing(), "at rest");
        let mut seen = Vec::new();
        for activity in [Activity::Moving, Activity::Waiting, Activity::Moving, Activity::Resting] {
            app.insert_resource(activity);
            app.update();
            seen.push(drawing());
        }
        assert_eq!(seen, [true, false, true, false]);
    }
}
