//! How the table is drawn on the machine at hand: the full look on a GPU, a cheaper profile
//! on a software renderer (Mesa's lavapipe shades on the CPU), and a window that redraws
//! only when something changes.

use crate::gui::frame::board::Table;
use bevy::prelude::*;

/// How much the renderer may spend per pixel: software renderers (Mesa's lavapipe) shade on
/// the CPU, where multisampling, shadows and a lit table top cost most of the frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quality {
    #[default]
    Full,
    Software,
}

pub(crate) fn plugin(app: &mut App) {
    // The table has no point light, but the renderer makes and clears a cube map array for
    // their shadows all the same (1024 pixels a side, six faces: 24 MB that a software
    // renderer holds in the process): at its smallest.
    app.insert_resource(bevy::light::PointLightShadowMap { size: 1 })
        .add_systems(Update, (adapt_to_renderer, scale_views).chain().run_if(software));
}

/// A part of the full look left out to measure what it holds (`TABLERO_FULL_WITHOUT=shadows,
/// environment,occlusion,smaa`, comma-separated): a developer's measure for `tablero
/// bench-table` (docs/development.md), never a setting.
pub fn left_out(part: &str) -> bool {
    std::env::var("TABLERO_FULL_WITHOUT").is_ok_and(|v| v.split(',').any(|p| p.trim() == part))
}

/// The graphics adapter the renderer will draw with, asked before the app starts (the same
/// request as Bevy's: Vulkan, high performance), so that the app is built for its profile.
pub struct Adapter {
    pub kind: wgpu_types::DeviceType,
    limits: wgpu::Limits,
}

/// Why no Vulkan adapter is there to render with.
#[derive(Debug)]
pub struct NoAdapter(pub String);

/// The adapter the renderer will pick, or why there is none (a GPU's driver, or Mesa's lavapipe).
pub fn probe() -> Result<Adapter, NoAdapter> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let options = wgpu::RequestAdapterOptions { power_preference: wgpu::PowerPreference::HighPerformance, ..default() };
    let adapter = bevy::tasks::block_on(instance.request_adapter(&options))
        .map_err(|_| NoAdapter("no Vulkan adapter found".into()))?;
    Ok(Adapter { kind: adapter.get_info().device_type, limits: adapter.limits() })
}

impl Quality {
    /// The profile asked for by `TABLERO_QUALITY=full` or `software`, if any.
    pub fn from_env() -> Option<Quality> {
        match std::env::var("TABLERO_QUALITY").as_deref() {
            Ok("full") => Some(Quality::Full),
            Ok("software") => Some(Quality::Software),
            _ => None,
        }
    }

    /// The profile asked for, else the one for an adapter of this kind: the software profile
    /// on a CPU (Mesa's lavapipe), the full look on a GPU.
    pub fn choose(asked: Option<Quality>, kind: wgpu_types::DeviceType) -> Quality {
        asked.unwrap_or(if kind == wgpu_types::DeviceType::Cpu { Quality::Software } else { Quality::Full })
    }
}

/// The renderer as the table uses it in `quality` on `adapter`: each frame complete when drawn
/// (no shader still compiling), and the device's memory taken in small blocks (wgpu's default
/// reserves blocks of 128 to 256 MB, which a software renderer holds in the process's own
/// memory). The software profile draws no ambient occlusion, environment light, sky or GPU
/// culling: the device is opened without storage textures, so that Bevy compiles none of their
/// compute pipelines (each one a few MB of a software renderer's compiled code, and time at
/// start).
pub fn render_plugin(quality: Quality, adapter: &Adapter) -> bevy::render::RenderPlugin {
    use bevy::render::settings::{MemoryHints, WgpuSettings};
    let constrained_limits = (quality == Quality::Software)
        .then(|| wgpu::Limits { max_storage_textures_per_shader_stage: 0, ..adapter.limits.clone() });
    let memory_hints = MemoryHints::Manual { suballocated_device_memory_block_size: (4 << 20)..(16 << 20) };
    bevy::render::RenderPlugin {
        render_creation: WgpuSettings { memory_hints, constrained_limits, ..default() }.into(),
        synchronous_pipeline_compilation: true,
        ..default()
    }
}

/// Builds `app` for its profile (after its plugins are added, before it finishes). Lights are
/// sorted into clusters, and each mesh's data prepared, on the CPU in both profiles: the table
/// has one light that is not clustered and a few hundred meshes, all in view, so that compute
/// shaders for them would only cost the pipelines Bevy compiles (on a software renderer, a few
/// MB of compiled code each) and their dispatches. Preparing meshes on the GPU in the full
/// profile cost, on lavapipe, 6 to 21 MB and about a tenth of each frame (`tablero bench-table
/// --compare` of the runs with and without it), and changed nothing in the picture.
pub fn build_for(app: &mut App, quality: Quality) {
    use bevy::render::batching::gpu_preprocessing::{GpuPreprocessingMode, GpuPreprocessingSupport};
    app.insert_resource(quality);
    if quality == Quality::Software {
        app.add_plugins(MaterialPlugin::<TableTop>::default());
        let shader = bevy::shader::Shader::from_wgsl(include_str!("table_top.wgsl"), file!());
        let _ = app.world_mut().resource_mut::<Assets<bevy::shader::Shader>>().insert(TABLE_TOP_SHADER.id(), shader);
    }
    let most = GpuPreprocessingMode::None;
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        // Each mesh in a buffer of its own: Bevy's slabs, which pack many meshes in one buffer,
        // each keep a table of 128 thousand entries (some 3 MB) for a set of thirty meshes.
        let mut meshes = bevy::render::mesh::allocator::MeshAllocatorSettings::default();
        meshes.slab_allocator_settings.large_threshold = 0;
        render.insert_resource(meshes);
        // Bevy reads the support when its plugins finish (to choose how meshes are prepared)
        // and makes it again from the device when the renderer starts (to choose how they are
        // drawn): both times at most `most`.
        render.insert_resource(GpuPreprocessingSupport { max_supported_mode: most });
        render.add_systems(
            bevy::render::RenderStartup,
            (move |mut support: ResMut<GpuPreprocessingSupport>| {
                let lower = support.min(most);
                if support.max_supported_mode != lower {
                    support.max_supported_mode = lower;
                }
            })
            .after(bevy::render::init_gpu_resource::<GpuPreprocessingSupport>),
        );
    }
    use bevy::light::cluster::GlobalClusterSettings;
    app.add_systems(
        Startup,
        (|mut settings: ResMut<GlobalClusterSettings>| settings.gpu_clustering = None)
            .run_if(resource_exists::<GlobalClusterSettings>),
    );
}

/// The table top's shader in the software profile (`table_top.wgsl`).
const TABLE_TOP_SHADER: Handle<bevy::shader::Shader> =
    bevy::asset::uuid_handle!("5b0f6c1e-2d7a-4c8e-9a51-7e3b2f6d9c40");

/// The table top in the software profile: its wood, unlit. Bevy's unlit StandardMaterial looks
/// the same, but on a software renderer its shader runs the lighting code for every pixel all
/// the same (both sides of a branch are run), and the table top is most of the picture.
#[derive(Asset, TypePath, bevy::render::render_resource::AsBindGroup, Clone, Debug)]
pub struct TableTop {
    #[texture(0)]
    #[sampler(1)]
    pub wood: Handle<Image>,
}

impl Material for TableTop {
    fn fragment_shader() -> bevy::shader::ShaderRef {
        TABLE_TOP_SHADER.into()
    }
}

/// How many segments a round piece (a disc, a stone) is made of: 32 in the full look; 16 in the
/// software profile, where a piece is some twenty pixels across (its outline then within a
/// quarter of a pixel of the circle) and the software renderer pays for every triangle.
pub fn round_segments(quality: Option<&Quality>) -> u32 {
    if quality == Some(&Quality::Software) { 16 } else { 32 }
}

/// Bevy's physically based rendering as the table uses it: no deferred lighting (the table is
/// drawn forward, and its pipeline would be compiled for nothing).
pub fn pbr_plugin() -> bevy::pbr::PbrPlugin {
    bevy::pbr::PbrPlugin { add_default_deferred_lighting_plugin: false, ..default() }
}

/// The software profile draws the table at this share of the output's width and height, and
/// shows it scaled up under the panels (which stay sharp): a seventh of the pixels to shade.
/// On lavapipe the frame's time goes almost all to the pixels (shading, tonemapping and the
/// panels cost little; see `tablero bench-table`).
pub const SOFTWARE_SCALE: f32 = 0.38;

/// A 3D camera that draws the table into a smaller image, shown scaled up over its output.
#[derive(Component, Clone, Debug)]
pub struct ScaledView {
    pub image: Handle<Image>,
    pub scale: f32,
    /// Where the picture goes: the window, or an image off-screen.
    pub(crate) output: bevy::camera::RenderTarget,
    size: UVec2,
    /// The 2D camera that shows the picture, and the panels over it.
    pub ui_camera: Entity,
}

/// The full-size picture of a scaled view (of this 3D camera), under every panel.
#[derive(Component)]
pub struct Backdrop(pub Entity);

/// The physical size of a camera's output.
fn output_size(
    output: &bevy::camera::RenderTarget,
    windows: &Query<&Window>,
    primary: &Query<Entity, With<bevy::window::PrimaryWindow>>,
    images: &Assets<Image>,
) -> Option<UVec2> {
    use bevy::camera::RenderTarget;
    use bevy::window::WindowRef;
    match output {
        RenderTarget::Window(WindowRef::Primary) => primary.single().ok().and_then(|w| windows.get(w).ok()),
        RenderTarget::Window(WindowRef::Entity(e)) => windows.get(*e).ok(),
        RenderTarget::Image(image) => return images.get(&image.handle).map(|i| i.size()),
        _ => None,
    }
    .map(|w| w.physical_size())
    .filter(|s| s.x > 0 && s.y > 0)
}

/// An image the table can be drawn into.
fn view_image(size: UVec2) -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
    let mut image = Image::new_uninit(
        Extent3d { width: size.x.max(1), height: size.y.max(1), depth_or_array_layers: 1 },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.texture_descriptor.usage |= TextureUsages::RENDER_ATTACHMENT | TextureUsages::TEXTURE_BINDING;
    image
}

/// In the software profile, each 3D camera draws into an image of [`SOFTWARE_SCALE`] of its
/// output's size (remade when the window is resized); a 2D camera shows it scaled up, with
/// the panels drawn sharp on top.
#[allow(clippy::too_many_arguments)]
/// The software profile is in use (the adapter is known and is a CPU).
fn software(quality: Option<Res<Quality>>) -> bool {
    quality.is_some_and(|q| *q == Quality::Software)
}

fn scale_views(
    mut commands: Commands,
    mut cams: Query<
        (Entity, &mut bevy::camera::RenderTarget, Option<&mut ScaledView>, Has<IsDefaultUiCamera>),
        With<Camera3d>,
    >,
    mut ui_roots: Query<&mut UiTargetCamera>,
    windows: Query<&Window>,
    primary: Query<Entity, With<bevy::window::PrimaryWindow>>,
    mut images: ResMut<Assets<Image>>,
    mut backdrops: Query<(&Backdrop, &mut ImageNode)>,
) {
    for (cam, mut target, view, default_ui) in &mut cams {
        let output = match &view {
            Some(v) => v.output.clone(),
            None => target.clone(),
        };
        let Some(size) = output_size(&output, &windows, &primary, &images) else { continue };
        if view.as_ref().is_some_and(|v| v.size == size) {
            continue;
        }
        let low = (size.as_vec2() * SOFTWARE_SCALE).round().as_uvec2().max(UVec2::ONE);
        let image = images.add(view_image(low));
        *target = bevy::camera::RenderTarget::from(image.clone());
        match view {
            Some(mut v) => {
                v.image = image.clone();
                v.size = size;
                for (_, mut node) in backdrops.iter_mut().filter(|(b, _)| b.0 == cam) {
                    node.image = image.clone();
                }
            }
            None => {
                // The panels' camera sees no mesh (its own layer), so the mouse picks only
                // panels and buttons through it, and the table through the table's pointer.
                // Nothing to clear: the picture covers the whole output.
                let ui_camera = commands
                    .spawn((
                        Camera2d,
                        Camera { order: 1, clear_color: ClearColorConfig::None, ..default() },
                        output.clone(),
                        Msaa::Off,
                        bevy::camera::visibility::RenderLayers::layer(31),
                    ))
                    .id();
                if default_ui {
                    commands.entity(cam).remove::<IsDefaultUiCamera>();
                    commands.entity(ui_camera).insert(IsDefaultUiCamera);
                }
                // Panels meant for this camera go to the one that shows its picture.
                for mut root in &mut ui_roots {
                    if root.entity() == cam {
                        *root = UiTargetCamera(ui_camera);
                    }
                }
                commands.entity(cam).insert(ScaledView {
                    image: image.clone(),
                    scale: SOFTWARE_SCALE,
                    output: output.clone(),
                    size,
                    ui_camera,
                });
                commands.spawn((
                    UiTargetCamera(ui_camera),
                    Node {
                        position_type: PositionType::Absolute,
                        width: percent(100),
                        height: percent(100),
                        ..default()
                    },
                    ImageNode::new(image),
                    GlobalZIndex(i32::MIN + 1),
                    Pickable::IGNORE,
                    Backdrop(cam),
                ));
            }
        }
    }
}

/// Where the pointer is in a scaled view's image: the window's cursor (logical pixels),
/// scaled to the image's pixels.
pub fn in_view(cursor: Vec2, window_scale: f32, view_scale: f32) -> Vec2 {
    cursor * window_scale * view_scale
}

/// The pointer that picks in a scaled view: it follows the mouse over the window, and its
/// buttons are the mouse's, unless the mouse is over a panel or a button (which take the
/// click themselves).
const TABLE_POINTER: bevy::picking::pointer::PointerId =
    bevy::picking::pointer::PointerId::Custom(bevy::asset::uuid::Uuid::from_u128(0x7ab1e_0000_0000_0001));

/// Picking through a scaled view (the windowed app's software profile).
pub(crate) fn scaled_picking(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn(TABLE_POINTER);
    })
    .add_systems(First, drive_table_pointer.in_set(bevy::picking::PickingSystems::Input));
}

fn drive_table_pointer(
    views: Query<&ScaledView, With<crate::gui::look::camera::PlayerCamera>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    hover: Option<Res<bevy::picking::hover::HoverMap>>,
    mut buttons: MessageReader<bevy::input::mouse::MouseButtonInput>,
    mut last: Local<Option<Vec2>>,
    mut inputs: MessageWriter<bevy::picking::pointer::PointerInput>,
    panels: Query<(), With<Node>>,
) {
    use bevy::input::ButtonState;
    use bevy::picking::pointer::{Location, PointerAction, PointerInput};
    let (Ok(view), Ok(window)) = (views.single(), windows.single()) else {
        buttons.clear();
        return;
    };
    let Some(target) = bevy::camera::RenderTarget::from(view.image.clone()).normalize(None) else { return };
    let Some(cursor) = window.cursor_position() else {
        buttons.clear();
        return;
    };
    let position = in_view(cursor, window.scale_factor(), view.scale);
    let location = Location { target, position };
    if *last != Some(position) {
        let delta = last.map(|p| position - p).unwrap_or_default();
        inputs.write(PointerInput::new(TABLE_POINTER, location.clone(), PointerAction::Move { delta }));
        *last = Some(position);
    }
    // The mouse's own hits: panels and buttons (the window itself counts as no panel).
    let over_panel = hover.as_ref().is_some_and(|h| {
        h.get(&bevy::picking::pointer::PointerId::Mouse).is_some_and(|hits| hits.keys().any(|e| panels.contains(*e)))
    });
    for input in buttons.read() {
        let button = match input.button {
            MouseButton::Left => PointerButton::Primary,
            MouseButton::Right => PointerButton::Secondary,
            MouseButton::Middle => PointerButton::Middle,
            _ => continue,
        };
        let action = match input.state {
            ButtonState::Pressed if over_panel => continue,
            ButtonState::Pressed => PointerAction::Press(button),
            ButtonState::Released => PointerAction::Release(button),
        };
        inputs.write(PointerInput::new(TABLE_POINTER, location.clone(), action));
    }
}

/// Applies the software profile to cameras, lights and the table (the profile is chosen before
/// the app starts: [`Quality::choose`]; this runs only in the software profile).
fn adapt_to_renderer(
    mut commands: Commands,
    mut cams: Query<&mut Msaa>,
    without_depth_pass: Query<Entity, (With<Camera3d>, Without<bevy::core_pipeline::prepass::DepthPrepass>)>,
    without_smoothing: Query<Entity, (With<Camera3d>, Without<bevy::anti_alias::fxaa::Fxaa>)>,
    mut lights: Query<&mut DirectionalLight>,
    table: Query<(Entity, &MeshMaterial3d<StandardMaterial>), Or<(With<Table>, With<super::studio::Studio>)>>,
    materials: Res<Assets<StandardMaterial>>,
    mut table_tops: ResMut<Assets<TableTop>>,
) {
    for mut msaa in &mut cams {
        if *msaa != Msaa::Off {
            *msaa = Msaa::Off;
        }
    }
    // A depth pass first: then each pixel is shaded once, by what is in front, however the
    // pieces, the board and the table are ordered (they are drawn by material, not by depth).
    for cam in &without_depth_pass {
        commands.entity(cam).insert(bevy::core_pipeline::prepass::DepthPrepass);
    }
    // Edges smoothed in the small picture before it is scaled up (FXAA: one pass over a
    // seventh of the window's pixels), so that the box's and the tiles' edges do not
    // stair-step once enlarged.
    for cam in &without_smoothing {
        commands.entity(cam).insert(bevy::anti_alias::fxaa::Fxaa::default());
    }
    for mut light in &mut lights {
        if light.shadow_maps_enabled {
            light.shadow_maps_enabled = false;
            // No shadow is drawn: the renderer's shadow texture (which it makes anyway) at
            // its smallest rather than 2048 pixels a side.
            commands.insert_resource(bevy::light::DirectionalLightShadowMap { size: 1 });
        }
    }
    // The table top unlit, and the room's painted walls: each its picture alone, in a
    // material whose shader does nothing else.
    for (entity, m) in &table {
        if let Some(wood) = materials.get(&m.0).and_then(|mat| mat.base_color_texture.clone()) {
            let top = table_tops.add(TableTop { wood });
            commands.entity(entity).remove::<MeshMaterial3d<StandardMaterial>>().insert(MeshMaterial3d(top));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Quality;
    use wgpu_types::DeviceType;

    #[test]
    fn the_profile_follows_the_adapter_unless_one_is_asked_for() {
        assert_eq!(Quality::choose(None, DeviceType::Cpu), Quality::Software);
        assert_eq!(Quality::choose(None, DeviceType::DiscreteGpu), Quality::Full);
        assert_eq!(Quality::choose(None, DeviceType::IntegratedGpu), Quality::Full);
        assert_eq!(Quality::choose(Some(Quality::Full), DeviceType::Cpu), Quality::Full);
        assert_eq!(Quality::choose(Some(Quality::Software), DeviceType::DiscreteGpu), Quality::Software);
    }
}
