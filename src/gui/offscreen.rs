//! The table rendered off-screen into an image (no window, no display needed; a Vulkan
//! device is): screenshots of any position, and `tablero bench-table`'s frame times.

use super::error::GuiError;
use super::frame::board as table;
use super::look::camera;
use super::{CorePlugin, quietly};
use crate::gui::frame::session::{By, MoveChosen, PlayerKind, Session};
use crate::rules::{AnyGame, Game};
use crate::table::Table;
use bevy::prelude::*;

/// The table rendered off-screen into an image: no window, no display needed.
pub struct Offscreen {
    pub app: App,
    image: Handle<Image>,
}

impl Offscreen {
    pub fn new(game: AnyGame, players: [PlayerKind; 2], width: u32, height: u32) -> Result<Offscreen, GuiError> {
        Offscreen::with_quality(game, players, width, height, None)
    }

    /// The same, drawn in the given profile instead of the one the adapter calls for.
    pub fn with_quality(
        game: AnyGame,
        players: [PlayerKind; 2],
        width: u32,
        height: u32,
        quality: Option<crate::gui::look::render::Quality>,
    ) -> Result<Offscreen, GuiError> {
        Offscreen::build(Table::new(game, players, 1), width, height, quality, None)
    }

    /// A session drawn off-screen; with `film` (frames a second), as the broadcast shows it
    /// (the director's camera and the overlays), its clock stepped a frame at a time.
    pub fn build(
        session: Table,
        width: u32,
        height: u32,
        quality: Option<crate::gui::look::render::Quality>,
        film: Option<u32>,
    ) -> Result<Offscreen, GuiError> {
        Offscreen::assemble(Some(session), width, height, quality, film)
    }

    /// The whole interface drawn off-screen, as the window has it (the menu first, then the
    /// table with its panels, the rules, the settings), without the window's devices: for the
    /// layout's tests and pictures. Its settings stay in memory; its games are not saved.
    pub fn interface(
        width: u32,
        height: u32,
        quality: Option<crate::gui::look::render::Quality>,
    ) -> Result<Offscreen, GuiError> {
        Offscreen::assemble(None, width, height, quality, None)
    }

    /// The size the pictures are drawn at, from now on (the camera draws into a new image).
    pub fn resize(&mut self, width: u32, height: u32) {
        let image = self.app.world_mut().resource_mut::<Assets<Image>>().add(target_image(width, height));
        let world = self.app.world_mut();
        let mut cams = world.query_filtered::<&mut bevy::camera::RenderTarget, With<camera::PlayerCamera>>();
        for mut target in cams.iter_mut(world) {
            *target = bevy::camera::RenderTarget::from(image.clone());
        }
        let mut views = world.query::<&mut crate::gui::look::render::ScaledView>();
        for mut view in views.iter_mut(world) {
            view.output = bevy::camera::RenderTarget::from(image.clone());
        }
        let mut others = world.query_filtered::<&mut bevy::camera::RenderTarget, With<Camera2d>>();
        for mut target in others.iter_mut(world) {
            *target = bevy::camera::RenderTarget::from(image.clone());
        }
        self.image = image;
    }

    fn assemble(
        session: Option<Table>,
        width: u32,
        height: u32,
        quality: Option<crate::gui::look::render::Quality>,
        film: Option<u32>,
    ) -> Result<Offscreen, GuiError> {
        use bevy::camera::RenderTarget;
        use bevy::window::ExitCondition;
        use bevy::winit::WinitPlugin;

        // Bevy panics when no Vulkan device exists; say so in one line instead, and tell it
        // apart from any other failure.
        use crate::gui::look::render::{Quality, pbr_plugin, probe, render_plugin};
        let adapter = probe().map_err(|why| GuiError::NoVulkan(why.0))?;
        let quality = Quality::choose(quality.or_else(Quality::from_env), adapter.kind);
        let interface = session.is_none();
        let layout =
            table::Layout::of(&session.as_ref().map_or(crate::rules::Variant::Ordo.initial(), |s| s.game.clone()));
        crate::memory::lean_allocator();
        let built = quietly(|| {
            let mut app = App::new();
            app.add_plugins((
                DefaultPlugins
                    .set(WindowPlugin { primary_window: None, exit_condition: ExitCondition::DontExit, ..default() })
                    .set(render_plugin(quality, &adapter))
                    .set(pbr_plugin())
                    .disable::<WinitPlugin>()
                    .disable::<bevy::log::LogPlugin>()
                    // Each frame drawn in its own update, as the window draws them (and the
                    // render world stays in the app, where tests read it).
                    .disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>(),
                CorePlugin,
            ))
            .insert_resource(ClearColor(crate::gui::theme::colour::CLEAR));
            crate::gui::look::render::build_for(&mut app, quality);
            if !interface {
                app.add_plugins(super::look::coords::plugin);
            } else {
                app.add_plugins((super::frame::input::plugin, super::screens::hud::plugin, super::people))
                    // The views the keys ask for (the window's camera plugin turns to them).
                    .add_message::<camera::View>()
                    .insert_resource(crate::settings::Settings::default())
                    .insert_resource(super::screens::prefs::ConfigDir(None))
                    .insert_resource(super::frame::session::SaveFolder(None));
            }
            if let Some(fps) = film {
                app.add_plugins(crate::gui::stream::broadcast::plugin).insert_resource(
                    bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(
                        1.0 / fps.max(1) as f64,
                    )),
                );
            }
            if let Some(session) = session {
                super::open(session)(app.world_mut());
            }
            app.finish();
            app.cleanup();
            app
        });
        let mut app = built.map_err(|super::Panicked(why)| GuiError::Renderer(why))?;
        let image = app.world_mut().resource_mut::<Assets<Image>>().add(target_image(width, height));
        let orbit = camera::Orbit::preset(camera::View::First, &layout);
        let cam = app
            .world_mut()
            .spawn((
                Camera3d::default(),
                Camera { clear_color: ClearColorConfig::Custom(crate::gui::theme::colour::CLEAR), ..default() },
                RenderTarget::from(image.clone()),
                Msaa::Sample4,
                orbit,
                orbit.transform(),
                IsDefaultUiCamera,
            ))
            .id();
        if film.is_some() {
            // What the broadcast shows: no secret square before it is revealed, the overlays.
            let aspect = width as f32 / height as f32;
            app.world_mut().entity_mut(cam).insert(crate::gui::stream::broadcast::broadcast_camera(None, aspect));
            let mut commands = app.world_mut().commands();
            crate::gui::stream::broadcast::spawn_overlays(&mut commands, cam, UVec2::new(width, height));
            app.world_mut().flush();
        } else {
            app.world_mut().entity_mut(cam).insert((camera::PlayerCamera, table::player_layers()));
        }
        Ok(Offscreen { app, image })
    }

    /// The profile it draws in (the one asked for, or the adapter's).
    pub fn quality(&self) -> crate::gui::look::render::Quality {
        *self.app.world().resource::<crate::gui::look::render::Quality>()
    }

    /// The image the picture is drawn into.
    pub fn image(&self) -> Handle<Image> {
        self.image.clone()
    }

    /// Milliseconds each of `n` frames takes, after 10 frames to warm up.
    pub fn time_frames(&mut self, n: usize) -> Vec<f64> {
        for _ in 0..10 {
            self.frame();
        }
        (0..n)
            .map(|_| {
                let t = std::time::Instant::now();
                self.frame();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect()
    }

    /// One frame, waiting until the device has finished drawing it.
    pub fn frame(&mut self) {
        use bevy::render::render_resource::PollType;
        use bevy::render::renderer::RenderDevice;
        self.app.update();
        let _ = self
            .app
            .world()
            .resource::<RenderDevice>()
            .wgpu_device()
            .poll(PollType::Wait { submission_index: None, timeout: None });
    }

    /// Draws a few frames, then writes the picture to a PNG.
    pub fn save(&mut self, out: &std::path::Path) -> Result<(), GuiError> {
        use bevy::render::view::screenshot::{Screenshot, save_to_disk};
        let _ = std::fs::remove_file(out);
        for _ in 0..6 {
            self.frame();
        }
        self.app.world_mut().spawn(Screenshot::image(self.image.clone())).observe(save_to_disk(out.to_path_buf()));
        // The picture is read back and encoded on other threads: wait for it (a busy machine
        // can take seconds), drawing on meanwhile.
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(60) {
            self.frame();
            if std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false) {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        Err(GuiError::NotWritten(out.to_path_buf()))
    }
}

/// An image a camera can draw into and that can be read back.
pub(crate) fn target_image(width: u32, height: u32) -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
    let mut image = Image::new_uninit(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.texture_descriptor.usage |= TextureUsages::RENDER_ATTACHMENT | TextureUsages::COPY_SRC;
    image
}

pub use super::error::NO_VULKAN;

/// Renders a position off-screen (no window, no display needed) and writes a PNG.
pub fn screenshot(
    game: AnyGame,
    out: &std::path::Path,
    width: u32,
    height: u32,
    palette: crate::settings::Palette,
    doughnut: bool,
) -> Result<(), GuiError> {
    let mut view = Offscreen::new(game, [PlayerKind::Person, PlayerKind::Person], width, height)?;
    view.app.insert_resource(palette);
    view.app.insert_resource(crate::gui::sets::room::DoughnutView(doughnut));
    view.save(out)
}

/// A CTOR 10 × 10 position (black to move) where one Put sets off a cascade of at least
/// `flips` replacements, found by a seeded search; with the Put.
pub fn cascade_position(flips: usize) -> (AnyGame, String) {
    use crate::rules::Effect;
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7ab1e);
    loop {
        let board: Vec<String> = (0..10)
            .map(|_| {
                (0..10)
                    .map(|_| match rng.random_range(0..100) {
                        0..=9 => '.',
                        10..=54 => 'B',
                        _ => 'W',
                    })
                    .collect()
            })
            .collect();
        let Ok(game) = format!("ctor10 {} b 5 P2M2L1 1v1 0", board.join("/")).parse::<AnyGame>() else { continue };
        for mv in game.legal_moves().into_iter().filter(|m| m.to_string().starts_with('P')) {
            let mut g = game.clone();
            let n =
                g.play(&mv).map(|fx| fx.iter().filter(|e| matches!(e, Effect::Flipped { .. })).count()).unwrap_or(0);
            if n >= flips {
                return (game, mv.to_string());
            }
        }
    }
}

/// `tablero bench-table`: frame times at 1280 × 720 (the full Ordo board while two random
/// players play, the full 10 × 10 CTOR field with its 44 duplicates, Volterra's tallest towers,
/// and a CTOR cascade of 20 flips as it animates), the game's own systems per frame without
/// rendering, and the memory in use.
pub fn bench_table(
    frames: usize,
    json: bool,
    only: &[crate::cli::args::BenchScene],
    out: &mut dyn std::io::Write,
) -> Result<(), GuiError> {
    use crate::cli::args::BenchScene;
    use std::time::Instant;
    let wanted = |scene: BenchScene| only.is_empty() || only.contains(&scene);
    let mut measures: Vec<Measure> = Vec::new();
    // Each measure: its line (with the memory resident after it) unless the output is JSON.
    let mut report = |m: Measure, line: String| -> Result<(), GuiError> {
        let m = Measure { resident_mb: crate::memory::resident_mb(), ..m };
        if !json {
            writeln!(out, "{line}; resident {:.0} MB", m.resident_mb)?;
        }
        measures.push(m);
        Ok(())
    };
    let stats = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        (mean, v[(v.len() * 95 / 100).min(v.len() - 1)], v.last().copied().unwrap_or(0.0))
    };
    let random = [PlayerKind::Random, PlayerKind::Random];
    let people = [PlayerKind::Person, PlayerKind::Person];
    let ordo = crate::rules::Variant::Ordo.initial();
    // The computer (master) thinking about Ordo X's first move off the main thread: frames go
    // on, without and with rendering.
    let ordo_x = crate::rules::Variant::OrdoX.initial();
    let computer_first = [PlayerKind::Ai(crate::ai::LEVELS.len() - 1), PlayerKind::Person];
    let thinking = |frame: &mut dyn FnMut() -> bool| {
        let started = Instant::now();
        let mut ms = Vec::new();
        while started.elapsed().as_secs() < 120 {
            let t = Instant::now();
            let played = frame();
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            if played {
                break;
            }
        }
        (ms.len(), started.elapsed().as_secs_f64(), stats(ms))
    };
    if wanted(BenchScene::Ecs) {
        let mut headless = super::headless_app(ordo.clone(), random);
        let mut ecs = Vec::with_capacity(frames);
        for _ in 0..frames {
            let t = Instant::now();
            headless.update();
            ecs.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let moves = headless.world().resource::<Session>().history.len();
        // Each scene is dropped once measured, and what it freed given back to the system, so
        // that the memory after each says what the next one holds.
        drop(headless);
        let (mean, p95, _) = stats(ecs);
        report(
            measure("ECS update without rendering (Ordo, random players)", None, frames, (mean, p95, None)),
            format!(
                "ECS update without rendering (Ordo, random players): {mean:.3} ms mean, {p95:.3} ms p95 over {frames} frames ({moves} moves played)"
            ),
        )?;
        let mut app = super::headless_app(ordo_x.clone(), computer_first);
        let (n, secs, (mean, p95, max)) = thinking(&mut || {
            app.update();
            !app.world().resource::<Session>().history.is_empty()
        });
        report(
            measure(
                "ECS update while the computer (master) thinks about Ordo X's first move",
                None,
                n,
                (mean, p95, Some(max)),
            ),
            format!(
                "ECS update while the computer (master) thinks about Ordo X's first move: {n} frames in {secs:.1} s until it played, {mean:.3} ms mean, {p95:.3} ms p95, {max:.3} ms slowest"
            ),
        )?;
        drop(app);
        crate::memory::give_back();
    }
    if wanted(BenchScene::Thinking) {
        // The same table at rest first (nobody to move but people), then with the computer
        // (master) to move: the frame while it thinks, against the same run's frame at rest.
        let mut rest = Offscreen::new(ordo_x.clone(), people, 1280, 720)?;
        let quality = rest.quality();
        let (rest_mean, rest_p95, rest_max) = stats(rest.time_frames(frames));
        drop(rest);
        crate::memory::give_back();
        report(
            measure("frame at 1280x720 at rest, Ordo X", Some(quality), frames, (rest_mean, rest_p95, Some(rest_max))),
            format!(
                "frame at 1280x720 at rest, Ordo X ({quality:?} profile): {rest_mean:.1} ms mean, {rest_p95:.1} ms p95, {rest_max:.1} ms slowest over {frames} frames"
            ),
        )?;
        let mut view = Offscreen::new(ordo_x.clone(), computer_first, 1280, 720)?;
        // Its first frames build the scene, as the rest's did: drawn before the computer may
        // think (paused), so that the frames measured are the thinking's own.
        let pace = |view: &mut Offscreen, paused: bool| {
            view.app.world_mut().resource_mut::<crate::gui::frame::computer::ComputerPace>().paused = paused
        };
        pace(&mut view, true);
        for _ in 0..10 {
            view.frame();
        }
        pace(&mut view, false);
        // Every frame drawn, as the window draws while the camera turns: the search rests
        // between its slices of work, as it does there.
        crate::background::set_drawing(true);
        let (n, secs, (mean, p95, max)) = thinking(&mut || {
            view.frame();
            !view.app.world().resource::<Session>().history.is_empty()
        });
        crate::background::set_drawing(false);
        report(
            measure(
                "frame at 1280x720 while the computer (master) thinks about Ordo X's first move",
                Some(quality),
                n,
                (mean, p95, Some(max)),
            ),
            format!(
                "frame at 1280x720 while the computer (master) thinks about Ordo X's first move ({quality:?} profile, {} search threads): {n} frames in {secs:.1} s, {mean:.1} ms mean, {p95:.1} ms p95, {max:.1} ms slowest; {:.2} times the frame at rest (p95)",
                crate::ai::table_threads(),
                p95 / rest_p95.max(1e-9)
            ),
        )?;
        drop(view);
        crate::memory::give_back();
    }
    let full_ctor: AnyGame =
        format!("ctor10 {} w 60 P2M2L1 1v1 0", ["BWBWBWBWBW", "WBWBWBWBWB"].repeat(5).join("/")).parse()?;
    let towers: AnyGame = "volterra DLDLDLDLDLl,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,LDLDLDLDLDd l".parse()?;
    let full = full_ctor.clone();
    let scenes = [
        ("full Ordo board, random players", ordo, random, false),
        ("full 10x10 CTOR field (100 discs, 44 duplicates)", full_ctor.clone(), people, false),
        ("full 10x10 CTOR field on the doughnut (100 discs)", full_ctor, people, true),
        ("Volterra's tallest towers (two of 10 tiles)", towers, people, false),
    ];
    use crate::gui::look::render::Quality;
    let adapter = |view: &Offscreen| {
        view.app
            .world()
            .get_resource::<bevy::render::renderer::RenderAdapterInfo>()
            .map(|a| a.name.clone())
            .unwrap_or_default()
    };
    // Each scene in both profiles: the full look (a GPU's) and the software one.
    for (label, game, players, doughnut) in scenes.into_iter().filter(|_| wanted(BenchScene::Boards)) {
        for quality in [Quality::Full, Quality::Software] {
            let mut view = Offscreen::with_quality(game.clone(), players, 1280, 720, Some(quality))?;
            view.app.insert_resource(crate::gui::sets::room::DoughnutView(doughnut));
            let (mean, p95, _) = stats(view.time_frames(frames));
            report(
                measure(&format!("frame at 1280x720, {label}"), Some(quality), frames, (mean, p95, None)),
                format!(
                    "frame at 1280x720, {label}, on {} ({quality:?} profile): {mean:.1} ms mean ({:.1} fps), {p95:.1} ms p95 over {frames} frames",
                    adapter(&view),
                    1e3 / mean
                ),
            )?;
            drop(view);
            crate::memory::give_back();
        }
    }
    // The table and the broadcast together (1280x720 and 1920x1080), the full CTOR field, in
    // the software profile, the director orbiting.
    if wanted(BenchScene::Broadcast) {
        let mut view = Offscreen::build(Table::new(full, people, 1), 1280, 720, Some(Quality::Software), Some(60))?;
        let second = view.app.world_mut().resource_mut::<Assets<Image>>().add(target_image(1920, 1080));
        let layout = *view.app.world().resource::<table::Layout>();
        let orbit = camera::Orbit::preset(camera::View::First, &layout);
        let cam = view
            .app
            .world_mut()
            .spawn((
                Camera3d::default(),
                Camera { order: 3, ..default() },
                bevy::camera::RenderTarget::from(second),
                orbit,
                orbit.transform(),
                crate::gui::stream::broadcast::broadcast_camera(None, 16.0 / 9.0),
            ))
            .id();
        let mut commands = view.app.world_mut().commands();
        crate::gui::stream::broadcast::spawn_overlays(&mut commands, cam, UVec2::new(1920, 1080));
        view.app.world_mut().flush();
        let (mean, p95, _) = stats(view.time_frames(frames));
        report(
            measure(
                "frame of the table (1280x720) and the broadcast (1920x1080) together, full 10x10 CTOR field",
                Some(Quality::Software),
                frames,
                (mean, p95, None),
            ),
            format!(
                "frame of the table (1280x720) and the broadcast (1920x1080) together, full 10x10 CTOR field, on {} (Software profile): {mean:.1} ms mean ({:.1} fps), {p95:.1} ms p95 over {frames} frames",
                adapter(&view),
                1e3 / mean
            ),
        )?;
        drop(view);
        crate::memory::give_back();
    }
    // A cascade of at least 20 flips, frame by frame while it animates, in both profiles.
    let (game, put) = cascade_position(20);
    for quality in [Quality::Full, Quality::Software].into_iter().filter(|_| wanted(BenchScene::Cascade)) {
        let mut view = Offscreen::with_quality(game.clone(), people, 1280, 720, Some(quality))?;
        for _ in 0..10 {
            view.frame();
        }
        let mv = game.parse_move(&put)?;
        let flips = game.clone().play(&mv)?;
        let flips = flips.iter().filter(|e| matches!(e, crate::rules::Effect::Flipped { .. })).count();
        view.app.world_mut().write_message(MoveChosen { mv, by: By::Person });
        let mut frame_ms = Vec::new();
        let started = Instant::now();
        for _ in 0..2000 {
            let t = Instant::now();
            view.frame();
            frame_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let world = view.app.world_mut();
            let moving =
                world.query_filtered::<(), With<crate::gui::frame::animate::Tween>>().iter(world).next().is_some();
            if !moving && frame_ms.len() > 2 {
                break;
            }
        }
        let n = frame_ms.len();
        let (mean, p95, max) = stats(frame_ms);
        report(
            measure(&format!("a CTOR cascade of {flips} flips"), Some(quality), n, (mean, p95, Some(max))),
            format!(
                "a CTOR cascade of {flips} flips ({put}), {quality:?} profile: {n} frames in {:.1} s, {mean:.1} ms mean, {p95:.1} ms p95, {max:.1} ms slowest",
                started.elapsed().as_secs_f64()
            ),
        )?;
        drop(view);
        crate::memory::give_back();
    }
    let (resident, peak) = (crate::memory::resident_mb(), crate::memory::peak_mb());
    if json {
        let run = crate::bench::TableRun { frames, measures, resident_mb: resident, peak_mb: peak };
        writeln!(out, "{}", serde_json::to_string_pretty(&run).expect("figures serialise"))?;
    } else {
        writeln!(out, "memory: {resident:.0} MB resident at the end, {peak:.0} MB at the peak")?;
    }
    Ok(())
}

/// A figure of the run (see [`crate::bench::TableMeasure`]).
type Measure = crate::bench::TableMeasure;

/// A figure before the memory resident after it is known.
fn measure(
    what: &str,
    profile: Option<crate::gui::look::render::Quality>,
    frames: usize,
    (mean, p95, max): (f64, f64, Option<f64>),
) -> Measure {
    Measure {
        what: what.to_string(),
        profile: profile.map(|q| format!("{q:?}").to_lowercase()),
        frames,
        mean_ms: mean,
        p95_ms: p95,
        max_ms: max,
        resident_mb: 0.0,
    }
}
