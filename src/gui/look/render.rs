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
    app.add_systems(Update, (adapt_to_renderer, scale_views.run_if(software)).chain());
}

/// The renderer as the table uses it: each frame complete when drawn (no shader still
/// compiling), and the device's memory taken in small blocks (wgpu's default reserves blocks of
/// 128 to 256 MB, which a software renderer holds in the process's own memory).
pub fn render_plugin() -> bevy::render::RenderPlugin {
    use bevy::render::settings::{MemoryHints, WgpuSettings};
    bevy::render::RenderPlugin {
        render_creation: WgpuSettings { memory_hints: MemoryHints::MemoryUsage, ..default() }.into(),
        synchronous_pipeline_compilation: true,
        ..default()
    }
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
    output: bevy::camera::RenderTarget,
    size: UVec2,
    /// The 2D camera that shows the picture, and the panels over it.
    pub ui_camera: Entity,
}

/// The full-size picture of a scaled view (of this 3D camera), under every panel.
#[derive(Component)]
pub struct Backdrop(Entity);

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
                let ui_camera = commands
                    .spawn((
                        Camera2d,
                        Camera { order: 1, ..default() },
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
            // No shadow is drawn: the renderer's shadow texture (which it makes anyway) at
            // its smallest rather than 2048 pixels a side.
            commands.insert_resource(bevy::light::DirectionalLightShadowMap { size: 1 });
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
