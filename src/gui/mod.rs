//! The 3D table (Bevy 0.19). `CorePlugin` holds the game, the scene and the animation and
//! runs headless in tests; `run` adds the window, picking, camera, HUD and menu; `screenshot`
//! renders a position off-screen to a PNG.

pub mod animate;
pub mod camera;
pub mod hud;
pub mod menu;
pub mod scene;
pub mod session;

use crate::rules::{AnyGame, Game};
use bevy::prelude::*;
use session::{PlayerKind, Session};

/// The screens of the app.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Playing,
}

/// The game, the scene and the animation: everything but the window, input devices and UI.
/// Needs the state, asset and transform plugins (part of `DefaultPlugins`).
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<Screen>();
        app.add_plugins((session::plugin, scene::plugin, animate::plugin));
    }
}

/// Opens the window: the menu, or straight onto `start` (both sides played by people).
pub fn run(start: Option<AnyGame>) -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err("no display found (DISPLAY is not set): run tablero in a desktop session, or use the headless commands (tablero help)".into());
    }
    quietly(move || {
        let mut app = App::new();
        app.add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "tablero".into(),
                    resolution: bevy::window::WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            }),
            MeshPickingPlugin,
            CorePlugin,
            camera::plugin,
            hud::plugin,
            menu::plugin,
        ))
        .insert_resource(ClearColor(Color::srgb(0.16, 0.14, 0.13)));
        if let Some(game) = start {
            app.insert_resource(Session::new(game, [PlayerKind::Person, PlayerKind::Person], 1));
            app.insert_state(Screen::Playing);
        }
        app.run();
    })
    .map_err(|why| format!("the window could not be opened or had to close ({why})"))
}

/// Runs `f`, turning a panic into its one-line message instead of a backtrace (the display
/// or graphics driver missing is the usual cause).
fn quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    use std::sync::{Arc, Mutex};
    let message = Arc::new(Mutex::new(String::new()));
    let seen = message.clone();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *seen.lock().unwrap_or_else(|e| e.into_inner()) = text.lines().next().unwrap_or("").to_string();
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.map_err(|_| message.lock().unwrap_or_else(|e| e.into_inner()).clone())
}

/// Renders a position off-screen (no window, no display needed) and writes a PNG.
pub fn screenshot(game: AnyGame, out: &std::path::Path, width: u32, height: u32) -> Result<(), String> {
    use bevy::asset::RenderAssetUsages;
    use bevy::camera::RenderTarget;
    use bevy::render::RenderPlugin;
    use bevy::render::render_resource::{Extent3d, PollType, TextureDimension, TextureFormat, TextureUsages};
    use bevy::render::renderer::RenderDevice;
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    use bevy::window::ExitCondition;
    use bevy::winit::WinitPlugin;

    let _ = std::fs::remove_file(out);
    // Bevy panics when no Vulkan device exists; say so in one line instead.
    let built = quietly(|| {
        let mut app = App::new();
        app.add_plugins((
            DefaultPlugins
                .set(WindowPlugin { primary_window: None, exit_condition: ExitCondition::DontExit, ..default() })
                .set(RenderPlugin { synchronous_pipeline_compilation: true, ..default() })
                .disable::<WinitPlugin>()
                .disable::<bevy::log::LogPlugin>(),
            CorePlugin,
            hud::coordinates_plugin,
        ))
        .insert_resource(ClearColor(Color::srgb(0.16, 0.14, 0.13)))
        .insert_resource(Session::new(game.clone(), [PlayerKind::Person, PlayerKind::Person], 1))
        .insert_state(Screen::Playing);
        app.finish();
        app.cleanup();
        app
    });
    let mut app = built.map_err(|why| {
        format!("no Vulkan device to render with ({why}; on Debian: apt-get install mesa-vulkan-drivers libvulkan1)")
    })?;
    let mut image = Image::new_uninit(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.texture_descriptor.usage |= TextureUsages::RENDER_ATTACHMENT | TextureUsages::COPY_SRC;
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    let (files, ranks) = game.board_size();
    let layout = scene::Layout { files, ranks, variant: game.variant() };
    let orbit = camera::Orbit::preset(camera::View::First, &layout);
    let cam = app
        .world_mut()
        .spawn((
            Camera3d::default(),
            Camera { clear_color: ClearColorConfig::Custom(Color::srgb(0.16, 0.14, 0.13)), ..default() },
            RenderTarget::from(handle.clone()),
            orbit,
            orbit.transform(),
            IsDefaultUiCamera,
        ))
        .id();
    let wait = |app: &mut App| {
        app.update();
        let _ = app
            .world()
            .resource::<RenderDevice>()
            .wgpu_device()
            .poll(PollType::Wait { submission_index: None, timeout: None });
    };
    let _ = cam;
    for _ in 0..6 {
        wait(&mut app);
    }
    app.world_mut().spawn(Screenshot::image(handle)).observe(save_to_disk(out.to_path_buf()));
    for _ in 0..30 {
        wait(&mut app);
        if std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false) {
            // Let the writer finish the file.
            wait(&mut app);
            return Ok(());
        }
    }
    Err(format!("the screenshot was not written to {}", out.display()))
}
