//! The light over the table in the full profile (a GPU): a warm key light whose shadows are
//! filtered soft, an environment light (image-based lighting) filtered on the GPU from a room
//! the project paints at start (a pale ceiling, walls, a dark warm floor and a daylight window that
//! shines in the satin of the wood), ambient occlusion where pieces meet and stand on the
//! board, and SMAA for the edges (ambient occlusion needs multisampling off). The software
//! profile keeps its flat, shadowless light: lavapipe shades on the CPU.

use crate::gui::look::render::{Quality, left_out};
use bevy::anti_alias::smaa::{Smaa, SmaaPreset};
use bevy::asset::RenderAssetUsages;
use bevy::light::{GeneratedEnvironmentMapLight, ShadowFilteringMethod};
use bevy::pbr::ScreenSpaceAmbientOcclusion;
use bevy::prelude::*;
use bevy::render::render_resource::{
    Extent3d, TextureDimension, TextureFormat, TextureViewDescriptor, TextureViewDimension,
};

/// The key light's colour: warm, like a lamp over a table (about 4500 K); the room's light is cooler.
pub const WARM: Color = Color::srgb(1.0, 0.94, 0.86);

/// Where the key light shines from (towards the table's centre): high to the right, a
/// little towards the first player.
pub const KEY: Vec3 = Vec3::new(7.0, 9.0, 4.0);

/// The environment's brightness (cd/m²) and the ambient light left beside it.
pub const ENVIRONMENT: f32 = 320.0;
pub const AMBIENT_WITH_ENVIRONMENT: f32 = 30.0;

/// The room's cubemap faces are this many pixels a side (a power of two, as the GPU's
/// filtering needs).
const FACE: u32 = 64;

/// The room the table stands in, as a cubemap the environment light is filtered from.
#[derive(Resource, Clone)]
pub struct RoomLight(pub Handle<Image>);

/// A 3D camera that has been given the full profile's light.
#[derive(Component)]
pub struct Lit;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(super::studio::plugin);
    app.add_systems(Startup, |mut commands: Commands, mut images: ResMut<Assets<Image>>| {
        commands.insert_resource(RoomLight(images.add(room())));
    })
    .add_systems(Update, light_cameras.run_if(full.and_then(resource_exists::<RoomLight>)));
}

fn full(quality: Option<Res<Quality>>) -> bool {
    quality.is_some_and(|q| *q == Quality::Full)
}

/// The room's radiance seen in direction `d` (linear, above 1 for the window).
pub fn radiance(d: Vec3) -> [f32; 3] {
    let d = d.normalize();
    let up = d.y;
    // Ceiling, walls and floor, blended across the horizon.
    let ceiling = Vec3::new(0.9, 0.92, 0.95) * 0.9;
    let wall = Vec3::new(0.66, 0.64, 0.62) * 0.55;
    let floor = Vec3::new(0.22, 0.15, 0.1) * 0.35;
    let mut c =
        if up >= 0.0 { wall.lerp(ceiling, (up * 1.6).min(1.0)) } else { wall.lerp(floor, (-up * 2.5).min(1.0)) };
    // A tall window to the left and behind the first player, cool daylight.
    let window = Vec3::new(-0.55, 0.3, -0.78).normalize();
    let across = d - window * d.dot(window);
    let (w, h) = (across.x.abs() / 0.32, across.y.abs() / 0.42);
    if d.dot(window) > 0.0 && w < 1.0 && h < 1.0 {
        let soft = ((1.0 - w).min(1.0 - h) * 6.0).min(1.0);
        c = c.lerp(Vec3::new(3.6, 3.8, 4.2), soft);
    }
    [c.x, c.y, c.z]
}

/// The room as a cubemap, each face's pixel looking out of the centre (faces +X, -X, +Y,
/// -Y, +Z, -Z, as the GPU reads them), half floats.
pub fn room() -> Image {
    let mut data = Vec::with_capacity((6 * FACE * FACE * 8) as usize);
    for face in 0..6 {
        for j in 0..FACE {
            for i in 0..FACE {
                let u = (i as f32 + 0.5) / FACE as f32 * 2.0 - 1.0;
                let v = (j as f32 + 0.5) / FACE as f32 * 2.0 - 1.0;
                let d = match face {
                    0 => Vec3::new(1.0, -v, -u),
                    1 => Vec3::new(-1.0, -v, u),
                    2 => Vec3::new(u, 1.0, v),
                    3 => Vec3::new(u, -1.0, -v),
                    4 => Vec3::new(u, -v, 1.0),
                    _ => Vec3::new(-u, -v, -1.0),
                };
                let [r, g, b] = radiance(d);
                for x in [r, g, b, 1.0] {
                    data.extend_from_slice(&half(x).to_le_bytes());
                }
            }
        }
    }
    Image {
        texture_view_descriptor: Some(TextureViewDescriptor {
            dimension: Some(TextureViewDimension::Cube),
            ..default()
        }),
        ..Image::new(
            Extent3d { width: FACE, height: FACE, depth_or_array_layers: 6 },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba16Float,
            RenderAssetUsages::RENDER_WORLD,
        )
    }
}

/// A non-negative f32 as an IEEE half float (the room's values: 0 to a few).
fn half(x: f32) -> u16 {
    let x = x.clamp(0.0, 65504.0);
    if x < 6.1e-5 {
        return 0;
    }
    let bits = x.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = (bits >> 13) & 0x3ff;
    ((exp as u32) << 10 | mantissa) as u16
}

/// Every 3D camera of the full profile gets the light: soft shadows, the room's environment,
/// ambient occlusion and SMAA (in place of multisampling, which ambient occlusion cannot take).
fn light_cameras(
    mut commands: Commands,
    cams: Query<Entity, (With<Camera3d>, Without<Lit>)>,
    room: Res<RoomLight>,
    mut lights: Query<(&mut DirectionalLight, &mut Transform)>,
    mut ambient: ResMut<GlobalAmbientLight>,
) {
    for cam in &cams {
        let mut cam = commands.entity(cam);
        cam.insert((Lit, Msaa::Off, ShadowFilteringMethod::Gaussian));
        if !left_out("smaa") {
            cam.insert(Smaa { preset: SmaaPreset::High });
        }
        if !left_out("occlusion") {
            cam.insert(ScreenSpaceAmbientOcclusion::default());
        }
        if !left_out("environment") {
            cam.insert(GeneratedEnvironmentMapLight {
                environment_map: room.0.clone(),
                intensity: ENVIRONMENT,
                ..default()
            });
        }
    }
    if left_out("shadows") {
        for (mut light, _) in &mut lights {
            if light.shadow_maps_enabled {
                light.shadow_maps_enabled = false;
                commands.insert_resource(bevy::light::DirectionalLightShadowMap { size: 1 });
            }
        }
    }
    // Lower than the software profile's light, so that towers throw shadows that show.
    for (mut light, mut at) in &mut lights {
        if light.color != WARM {
            light.color = WARM;
        }
        if at.translation != KEY {
            *at = Transform::from_translation(KEY).looking_at(Vec3::ZERO, Vec3::Y);
        }
    }
    if ambient.brightness != AMBIENT_WITH_ENVIRONMENT {
        ambient.brightness = AMBIENT_WITH_ENVIRONMENT;
    }
}
