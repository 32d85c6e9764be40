//! The 3D table (Bevy 0.19). `CorePlugin` holds the game, the sets and the animation and
//! runs headless in tests; `run` adds the window, picking, input, camera, HUD and menu;
//! `offscreen` renders a position to a PNG and times frames.
//!
//! A frame goes one way through the steps of [`TableSystems`] (`frame::steps`), declared once
//! below: input → pick → rules (in PreUpdate), Bevy's state transition, then clear and build →
//! plan → animate → verify → present (in Update). The rooms: `frame` (the chain and the words
//! every room shares), `sets` (one folder per set), `screens`, `stream`, `look`; `theme` holds
//! the shared widgets, `pacing` how often the window draws.

pub mod error;
pub mod frame;
pub mod look;
pub mod offscreen;
pub mod pacing;
pub mod screens;
pub mod sets;
pub mod stream;
pub mod theme;

pub use error::GuiError;

pub use frame::session::open;
pub use frame::steps::{Mode, Screen, TableSystems};
pub use offscreen::{Offscreen, bench_table, cascade_position, screenshot};

use crate::rules::AnyGame;
use crate::table::{PlayerKind, Table};
use bevy::prelude::*;
use frame::session::Session;
use frame::{animate, clock, computer, input, session};
use look::{camera, light, photo, render, sound};
use screens::{guide, hud, keyboard, menu, prefs, tips};
use stream::{broadcast, eval, feed};

/// The game, the sets and the animation: everything but the window, input devices and UI.
/// Needs the state, asset and transform plugins (part of `DefaultPlugins`).
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
        use TableSystems::*;
        app.init_state::<Screen>().add_sub_state::<Mode>();
        // The table decides in PreUpdate, after the devices and the picking have spoken: then
        // Bevy's state transition puts the table in the mode the rules step left it in, and the
        // scene follows in Update, in that mode.
        app.configure_sets(
            PreUpdate,
            (Input, Pick, Rules)
                .chain()
                .after(bevy::input::InputSystems)
                .after(bevy::picking::PickingSystems::Last)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
        );
        app.configure_sets(
            Update,
            (Clear, Build, Plan, Animate, Verify, Present)
                .chain()
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
        );
        app.add_plugins((
            session::plugin,
            computer::plugin,
            frame::board::plugin,
            frame::keymap::plugin,
            animate::plugin,
            sound::plugin,
            sets::plugin,
            clock::plugin,
            render::plugin,
            pacing::core,
            light::plugin,
            feed::plugin,
            eval::plugin,
            frame::remote::plugin,
        ));
        // Every label in Noto Sans, notation in DejaVu Sans Mono, bundled (assets/fonts).
        theme::install_fonts(app);
    }
}

pub use theme::FONT;

/// How the window opens besides its game: the broadcast window of a size beside it, the
/// live feed served on an address.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras {
    pub broadcast: Option<UVec2>,
    pub feed: Option<std::net::SocketAddr>,
}

/// Opens the window: the menu, or straight onto a game (`tablero play`, `tablero replay`);
/// with the extras, the broadcast window and the live feed.
pub fn run(start: Option<Table>, extras: Extras) -> Result<(), GuiError> {
    let live = match extras.feed {
        Some(addr) => {
            let live = feed::LiveFeed::on(addr);
            if let Some(e) = &live.error {
                return Err(GuiError::Serve(e.clone()));
            }
            Some(live)
        }
        None => None,
    };
    window_app(extras.broadcast, move |app| {
        if let Some(table) = start {
            open(table)(app.world_mut());
        }
        if let Some(live) = live {
            app.insert_resource(live);
        }
    })
}

/// Opens the window as a spectator of the live feed at `url` (`tablero watch`): the game is
/// the feed's, nobody here moves, the camera is free. Waits up to 10 s for the feed's state.
pub fn watch(url: &str, extras: Extras) -> Result<(), GuiError> {
    let (table, spectating) = feed::spectator(url, std::time::Duration::from_secs(10))?;
    window_app(extras.broadcast, move |app| {
        open(table)(app.world_mut());
        app.insert_resource(spectating);
        app.add_systems(Startup, feed::wake_on_feed);
    })
}

/// Opens the window at a seat of a game hosted elsewhere (`tablero join <invitation>`): the
/// seat's side is played here, the other side's moves come from the host. Waits up to 10 s
/// for the host.
pub fn join(invitation: &str, extras: Extras) -> Result<(), GuiError> {
    let (table, seat) = frame::remote::seat_table(invitation, std::time::Duration::from_secs(10))?;
    window_app(extras.broadcast, move |app| {
        open(table)(app.world_mut());
        app.insert_resource(seat);
    })
}

/// Hosts a game with a person at this table (`tablero host` with a window): the seats are
/// served as with `--headless`, each remote seat's invitation printed, shown on the message line
/// and copied to the clipboard; the computer's seats play at the host; the person plays at
/// their own seat as a remote player does, through the host in this process (not its port).
pub fn host(options: crate::net::host::HostOptions, extras: Extras) -> Result<(), GuiError> {
    let hosted = frame::remote::host_here(options)?;
    for line in &hosted.lines {
        println!("{line}");
    }
    window_app(extras.broadcast, move |app| {
        open(hosted.table)(app.world_mut());
        app.insert_resource(hosted.seat);
        app.insert_resource(hosted.hosting);
    })
}

/// The headless table at a seat of a hosted game (for tests).
pub fn headless_join_app(invitation: &str) -> Result<App, GuiError> {
    let (table, seat) = frame::remote::seat_table(invitation, std::time::Duration::from_secs(10))?;
    let mut app = headless_base();
    app.add_plugins(CorePlugin);
    app.insert_resource(seat);
    open(table)(app.world_mut());
    app.update();
    app.update();
    Ok(app)
}

/// The headless table as a spectator of the feed at `url` (`tablero watch` without window).
pub fn headless_watch_app(url: &str) -> Result<App, GuiError> {
    let (table, spectating) = feed::spectator(url, std::time::Duration::from_secs(10))?;
    let mut app = headless_base();
    app.add_plugins(CorePlugin);
    app.insert_resource(spectating);
    open(table)(app.world_mut());
    app.update();
    app.update();
    Ok(app)
}

/// The window's app, with the broadcast window beside it if asked (`broadcast`: its size).
fn window_app(broadcast: Option<UVec2>, setup: impl FnOnce(&mut App)) -> Result<(), GuiError> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err(GuiError::NoDisplay);
    }
    quietly(move || {
        // The settings first: the window opens at the size and place it was left.
        let dir = crate::settings::config_dir();
        let (settings, trouble) = crate::settings::Settings::load(&dir);
        if let Some(t) = &trouble {
            eprintln!("tablero: {t}");
        }
        crate::memory::lean_allocator();
        // The profile, chosen before the renderer starts: TABLERO_QUALITY, then the settings,
        // else the adapter's kind.
        let adapter = render::probe().map_err(|why| GuiError::NoVulkan(why.0))?;
        let asked = render::Quality::from_env().or(match settings.quality {
            crate::settings::Quality::Full => Some(render::Quality::Full),
            crate::settings::Quality::Software => Some(render::Quality::Software),
            crate::settings::Quality::Auto => None,
        });
        let quality = render::Quality::choose(asked, adapter.kind);
        let mut app = App::new();
        app.add_plugins((
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(prefs::window(&settings)),
                    // Closing the player's window ends the app, broadcast or not.
                    exit_condition: bevy::window::ExitCondition::OnPrimaryClosed,
                    ..default()
                })
                // The window draws only when something changes: each frame it draws must be
                // complete, not wait for shaders still compiling, and drawn in its own update
                // (pipelined rendering would draw it only at the next, which may come much
                // later at a resting table).
                .set(render::render_plugin(quality, &adapter))
                .set(render::pbr_plugin())
                // The software profile leaves out ambient occlusion and the sky on purpose:
                // Bevy's warning that their plugins are not loaded says nothing to a player.
                .set(bevy::log::LogPlugin {
                    filter: format!("{}bevy_pbr::ssao=error,bevy_pbr::atmosphere=error", bevy::log::DEFAULT_FILTER),
                    ..default()
                })
                .disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>(),
            MeshPickingPlugin,
            CorePlugin,
            input::plugin,
            camera::plugin,
            hud::plugin,
            pacing::plugin,
            render::scaled_picking,
            people,
        ))
        .insert_resource(settings)
        .insert_resource(prefs::ConfigDir(Some(dir)))
        .insert_resource(prefs::SettingsTrouble(trouble))
        .insert_resource(ClearColor(theme::colour::CLEAR))
        .insert_resource(session::SaveFolder(Some(crate::record::data_dir())))
        // Only the player's camera picks (the broadcast window is for watching).
        .insert_resource(bevy::picking::mesh_picking::MeshPickingSettings { require_markers: true, ..default() });
        render::build_for(&mut app, quality);
        if let Some(size) = broadcast {
            app.insert_resource(broadcast::Broadcast { size, at_start: true });
        }
        setup(&mut app);
        app.run();
        // What the table copied is handed to the desktop's clipboard manager, where there is one.
        frame::clipboard::close();
        Ok(())
    })
    .map_err(|Panicked(why)| GuiError::Window(why))?
}

/// Runs `f`, turning a panic into its one-line message instead of a backtrace (the display
/// or graphics driver missing is the usual cause).
fn quietly<R>(f: impl FnOnce() -> R) -> Result<R, Panicked> {
    use std::cell::RefCell;
    thread_local! {
        /// The first line of the last panic on this thread while it runs quietly.
        static QUIET: RefCell<Option<String>> = const { RefCell::new(None) };
    }
    // One hook for the whole process, installed once: it keeps quiet only about panics of a
    // thread inside `quietly` and hands every other panic (another thread's, another test's)
    // to the hook that was there before, so no one else's message is lost.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = QUIET.with(|q| {
                let mut q = q.borrow_mut();
                let Some(seen) = q.as_mut() else { return false };
                let text = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                *seen = text.lines().next().unwrap_or("").to_string();
                true
            });
            if !quiet {
                before(info);
            }
        }));
    });
    let outer = QUIET.with(|q| q.replace(Some(String::new())));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let message = QUIET.with(|q| q.replace(outer)).unwrap_or_default();
    result.map_err(|_| Panicked(message))
}

/// A panic caught by [`quietly`]: its message's first line.
pub(crate) struct Panicked(pub String);

/// The table without window, renderer or UI, driven by `update()`: for tests and for timing
/// the game's own systems. Time advances 50 ms a frame.
pub fn headless_app(game: AnyGame, players: [PlayerKind; 2]) -> App {
    headless_app_with(Table::new(game, players, 7))
}

/// The plugins and assets a headless app needs, with time stepped 50 ms a frame.
fn headless_base() -> App {
    use bevy::time::TimeUpdateStrategy;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, AssetPlugin::default(), TransformPlugin));
    app.init_asset::<Mesh>().init_asset::<StandardMaterial>().init_asset::<Image>();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_millis(50)));
    app
}

/// The headless table on a table made elsewhere (a replay, a resumed game).
pub fn headless_app_with(table: Table) -> App {
    let mut app = headless_base();
    app.add_plugins(CorePlugin);
    open(table)(app.world_mut());
    app.update();
    app.update();
    app
}

/// What people use around the table, in the window and in the headless menu app alike: the
/// menu, the broadcast, the settings, the rules panel, the tips, the keyboard, photo mode.
fn people(app: &mut App) {
    app.insert_resource(sets::room::Unpacking(true));
    app.add_plugins((
        menu::plugin,
        broadcast::plugin,
        prefs::plugin,
        guide::plugin,
        tips::plugin,
        keyboard::plugin,
        photo::plugin,
        sound::playback,
    ));
}

/// The whole app without window, renderer or UI drawing, starting at the menu, saving its
/// games under `folder` as the app saves them in the data folder: for tests that start games
/// the way a player does (the menu's buttons are clicked through their observers).
pub fn headless_menu_app(folder: std::path::PathBuf) -> App {
    let mut app = headless_base();
    app.insert_resource(session::SaveFolder(Some(folder)));
    app.add_plugins((CorePlugin, people));
    app.update();
    app.update();
    app
}
