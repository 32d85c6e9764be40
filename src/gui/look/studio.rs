//! The room the table stands in, seen behind it: plastered walls, a tall window on the far
//! wall, an oak floor under the table and a pale ceiling. The room's light is painted into
//! its surfaces (they are drawn unlit, in both profiles), brightest round the window, softly
//! darker into the corners, so that no photo view shows a void above the table. The room is
//! the one the full profile's environment light is filtered from (`light.rs`): its window is
//! where the environment's is.

use crate::gui::frame::board::{TABLE_TOP, square_image};
use bevy::asset::RenderAssetUsages;
use bevy::light::{NotShadowCaster, NotShadowReceiver};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use rand::{Rng, SeedableRng};

/// A surface of the room (drawn unlit; the software profile draws it with the table top's
/// own cheap material).
#[derive(Component, Clone, Copy, Debug)]
pub struct Studio;

/// The room's size in world units (5 cm): the floor 75 cm under the table's top, the walls 3.5 m
/// and 2.75 m from its middle, the ceiling 2.75 m above the floor.
const FLOOR: f32 = -15.0;
const HALF_X: f32 = 70.0;
const HALF_Z: f32 = 55.0;
const CEILING: f32 = 40.0;

/// Texels a side of a wall's painted light.
const WALL_SIZE: u32 = 256;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn);
}

/// A quad from its four corners (counter-clockwise seen from inside the room), UV across.
fn quad(corners: [Vec3; 4]) -> Mesh {
    let normal = (corners[1] - corners[0]).cross(corners[2] - corners[0]).normalize();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, corners.map(|c| c.to_array()).to_vec())
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![normal.to_array(); 4])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
        .with_inserted_indices(Indices::U32(vec![0, 1, 2, 0, 2, 3]))
}

/// A surface's painted light: `paint` gives the linear colour at (u, v) across it (v down).
fn painted(seed: u64, paint: impl Fn(f32, f32) -> Vec3) -> Image {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let n = WALL_SIZE;
    let mut data = Vec::with_capacity((n * n * 4) as usize);
    for j in 0..n {
        for i in 0..n {
            let (u, v) = ((i as f32 + 0.5) / n as f32, (j as f32 + 0.5) / n as f32);
            // A plaster's grain, faint.
            let c = paint(u, v) * (1.0 + rng.random_range(-0.015..0.015));
            let s = Color::linear_rgb(c.x, c.y, c.z).to_srgba();
            data.extend([s.red, s.green, s.blue].map(|x| (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8));
            data.push(255);
        }
    }
    square_image(n, data, TextureFormat::Rgba8UnormSrgb)
}

/// Soft darkening towards a surface's edges (where walls meet).
fn corners(u: f32, v: f32) -> f32 {
    let edge = |t: f32| (t.min(1.0 - t) * 6.0).min(1.0);
    0.8 + 0.2 * edge(u) * edge(v)
}

/// The plaster's colour, a warm white.
const PLASTER: Vec3 = Vec3::new(0.66, 0.58, 0.48);

fn wall(u: f32, v: f32, window: Option<(f32, f32, f32, f32)>) -> Vec3 {
    // Lighter high up (the room's light falls from above), a skirting board at the foot.
    let mut c = PLASTER * (0.78 + 0.22 * (1.0 - v)) * corners(u, v);
    if v > 0.93 {
        // The skirting board.
        c = Vec3::new(0.42, 0.33, 0.24);
    }
    if let Some((u0, v0, u1, v1)) = window {
        // Round the window the wall is lit by it.
        let (cu, cv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
        let d = ((u - cu) / (u1 - u0)).powi(2) + ((v - cv) / (v1 - v0)).powi(2);
        c *= 1.0 + 0.35 * (-d * 1.5).exp();
        if (u0..u1).contains(&u) && (v0..v1).contains(&v) {
            // Its frame and glazing bars, and daylight through it.
            let (fu, fv) = ((u - u0) / (u1 - u0), (v - v0) / (v1 - v0));
            let bar = (fu - 0.5).abs() < 0.02 || (fv - 0.45).abs() < 0.015;
            let frame = !(0.04..=0.96).contains(&fu) || !(0.03..=0.97).contains(&fv);
            c = if bar || frame { Vec3::new(0.78, 0.76, 0.72) } else { Vec3::new(0.86, 0.92, 1.0) * (1.0 - 0.15 * fv) };
        }
    }
    c
}

fn floor(u: f32, v: f32) -> Vec3 {
    // Oak boards across the room, each a shade of its own, quiet.
    let board = (v * 40.0).floor();
    let shade = 0.9 + 0.1 * ((board * 12.9898).sin() * 43758.547).fract();
    let seam = if (v * 40.0).fract() < 0.04 { 0.75 } else { 1.0 };
    let grain = 1.0 + 0.04 * ((u * 60.0 + (v * 40.0).floor() * 3.1).sin());
    Vec3::new(0.3, 0.2, 0.12) * shade * seam * grain * corners(u, v).powf(0.5)
}

fn spawn(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let (x, z, f, c) = (HALF_X, HALF_Z, FLOOR, CEILING);
    let p = Vec3::new;
    // The window on the far wall, to the left: where the environment light's is.
    let window = Some((0.12, 0.18, 0.34, 0.72));
    let mut surface = |image: Image| {
        materials.add(StandardMaterial { base_color_texture: Some(images.add(image)), unlit: true, ..default() })
    };
    // The three plain walls share one painting.
    let plain = surface(painted(2, |u, v| wall(u, v, None)));
    let surfaces = [
        ([p(-x, f, -z), p(x, f, -z), p(x, c, -z), p(-x, c, -z)], surface(painted(1, |u, v| wall(u, v, window)))),
        ([p(x, f, z), p(-x, f, z), p(-x, c, z), p(x, c, z)], plain.clone()),
        ([p(-x, f, z), p(-x, f, -z), p(-x, c, -z), p(-x, c, z)], plain.clone()),
        ([p(x, f, -z), p(x, f, z), p(x, c, z), p(x, c, -z)], plain),
        ([p(-x, f, z), p(x, f, z), p(x, f, -z), p(-x, f, -z)], surface(painted(5, floor))),
        (
            [p(-x, c, -z), p(x, c, -z), p(x, c, z), p(-x, c, z)],
            surface(painted(6, |u, v| Vec3::splat(0.62) * corners(u, v))),
        ),
    ];
    for (corners, material) in surfaces {
        commands.spawn((
            Mesh3d(meshes.add(quad(corners))),
            MeshMaterial3d(material),
            Studio,
            NotShadowCaster,
            NotShadowReceiver,
            Pickable::IGNORE,
            bevy::camera::visibility::RenderLayers::layer(TABLE_TOP),
        ));
    }
}

/// The photographer's sweep a piece is shown alone on (`tablero photo --inspect`): a pale
/// floor that takes the piece's shadow, under a dome that fades from warm grey at the horizon
/// to lighter above, the same round every piece.
pub fn stage(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    images: &mut Assets<Image>,
    at: Vec3,
) {
    let paper = Vec3::new(0.5, 0.47, 0.43);
    commands.spawn((
        Mesh3d(
            meshes.add(
                Circle::new(30.0)
                    .mesh()
                    .resolution(48)
                    .build()
                    .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            ),
        ),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::linear_rgb(paper.x, paper.y, paper.z),
            perceptual_roughness: 0.85,
            ..default()
        })),
        Transform::from_translation(at),
        NotShadowCaster,
        Pickable::IGNORE,
        bevy::camera::visibility::RenderLayers::layer(TABLE_TOP),
    ));
    // The dome: its texture's rows run from its top (v = 0) to its foot.
    let sky = painted(7, |_, v| {
        Vec3::new(0.6, 0.57, 0.53).lerp(Vec3::new(0.74, 0.72, 0.68), (1.0 - v * 2.0).clamp(0.0, 1.0))
    });
    commands.spawn((
        Mesh3d(meshes.add(Sphere::new(28.0).mesh().uv(48, 24))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color_texture: Some(images.add(sky)),
            unlit: true,
            cull_mode: None,
            ..default()
        })),
        Transform::from_translation(at),
        NotShadowCaster,
        NotShadowReceiver,
        Pickable::IGNORE,
        bevy::camera::visibility::RenderLayers::layer(TABLE_TOP),
    ));
}
