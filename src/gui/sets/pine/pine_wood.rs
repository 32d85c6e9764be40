//! The pine's look, made by the project at start (no image files, no downloaded art): each
//! tile's wood is one of several seeded variants of its colour, with the grain running along
//! the tile, growth rings that bend round small knots, end grain (arcs round the log's pith)
//! on the two cut ends, and a normal map from the same rings so that the grain catches the
//! light under a satin finish. The pawns' wood runs along their axis.

use crate::gui::frame::board::{relief, square_image};
use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use rand::{Rng, SeedableRng};

/// Wood variants of each colour: neighbouring tiles rarely look alike.
pub const VARIANTS: usize = 6;
/// Texture size (square): small enough for the software profile.
const SIZE: u32 = 128;
/// The share of the texture's width holding the long grain (the faces); the rest holds the
/// end grain (the cut ends).
const LONG: f32 = 0.75;

/// How a kind of pine looks: its colour, growth rings across a face, and their depth.
#[derive(Clone, Copy, Debug)]
pub struct Pine {
    pub base: [f32; 3],
    pub rings: f32,
    pub contrast: f32,
}

/// A tile's textures: the colour (sRGB) and the normal map (linear), long grain in the left
/// three quarters, end grain in the right quarter.
pub fn tile_textures(pine: Pine, seed: u64) -> (Image, Image) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // Up to two small knots somewhere on the face, and where the log's pith lies for the ends.
    let knots: Vec<(f32, f32, f32)> = (0..rng.random_range(0..=2))
        .map(|_| (rng.random_range(0.1..0.9), rng.random_range(0.15..0.85), rng.random_range(0.035..0.07)))
        .collect();
    let pith = (rng.random_range(-0.6..1.6f32), rng.random_range(-1.8..-0.9f32));
    let warp = rng.random_range(0.8..2.2f32);
    let phase0 = rng.random_range(0.0..6.28f32);
    let height = |x: f32, y: f32| -> (f32, f32) {
        if x < LONG {
            // Long grain: rings as bands along the tile, bent round the knots.
            let u = x / LONG;
            let mut phase = y * pine.rings + (u * 5.0 + phase0).sin() * warp + (u * 19.0).sin() * 0.2;
            let mut dark: f32 = 0.0;
            for &(kx, ky, kr) in &knots {
                let d2 = ((u - kx) * 0.6).powi(2) + (y - ky).powi(2);
                phase += 4.0 * (-d2 / (kr * kr * 9.0)).exp() * (y - ky).signum();
                dark = dark.max((-d2 / (kr * kr)).exp());
            }
            ((phase.sin() * 0.5 + 0.5).powf(1.6), dark)
        } else {
            // End grain: arcs round the pith, below the image.
            let u = (x - LONG) / (1.0 - LONG);
            let d = ((u - pith.0).powi(2) + (y - pith.1).powi(2)).sqrt();
            (((d * pine.rings * 0.9).sin() * 0.5 + 0.5).powf(1.4), 0.0)
        }
    };
    let mut colour = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    let step = 1.0 / SIZE as f32;
    for j in 0..SIZE {
        for i in 0..SIZE {
            let (x, y) = (i as f32 * step, j as f32 * step);
            let (ring, knot) = height(x, y);
            let fleck = 0.04 * rng.random::<f32>();
            let shade = (0.97 - pine.contrast * ring - 0.45 * knot + fleck).clamp(0.0, 1.2);
            for c in pine.base {
                colour.push(((c * shade).clamp(0.0, 1.0) * 255.0) as u8);
            }
            colour.push(255);
        }
    }
    // The late wood (dark rings) stands a little proud: the normal from the rings' slope.
    let normal = relief(SIZE, 0.9, |x, y| height(x, y).0);
    (square_image(SIZE, colour, TextureFormat::Rgba8UnormSrgb), normal)
}

/// A pawn's wood: the grain along its axis (the lathe's v), a little wavy round it.
pub fn pawn_texture(base: [f32; 3], seed: u64) -> Image {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for j in 0..SIZE {
        for i in 0..SIZE {
            let (u, v) = (i as f32 / SIZE as f32, j as f32 / SIZE as f32);
            let ring = ((u * 40.0 + (v * 7.0).sin() * 0.8).sin() * 0.5 + 0.5).powf(1.5);
            let shade = 0.97 - 0.12 * ring + 0.03 * rng.random::<f32>();
            for c in base {
                data.push(((c * shade).clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    square_image(SIZE, data, TextureFormat::Rgba8UnormSrgb)
}

/// A tile's mesh, `size` square and `thick` high, with the grain running along x: its faces
/// (top, bottom and the long sides) take the long grain, its two ends (±x) the end grain.
pub fn tile_mesh(size: f32, thick: f32) -> Mesh {
    let (h, t) = (size / 2.0, thick / 2.0);
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    // A face: its four corners (counter-clockwise seen from outside), normal, and UV rectangle.
    let mut face = |corners: [Vec3; 4], n: Vec3, (u0, v0, u1, v1): (f32, f32, f32, f32)| {
        let k = positions.len() as u32;
        for (c, uv) in corners.iter().zip([[u0, v1], [u1, v1], [u1, v0], [u0, v0]]) {
            positions.push(c.to_array());
            normals.push(n.to_array());
            uvs.push(uv);
        }
        indices.extend([k, k + 1, k + 2, k, k + 2, k + 3]);
    };
    let strip = thick / size;
    let p = Vec3::new;
    face([p(-h, t, h), p(h, t, h), p(h, t, -h), p(-h, t, -h)], Vec3::Y, (0.0, 0.0, LONG, 1.0));
    face([p(-h, -t, -h), p(h, -t, -h), p(h, -t, h), p(-h, -t, h)], -Vec3::Y, (0.0, 0.0, LONG, 1.0));
    face([p(-h, -t, h), p(h, -t, h), p(h, t, h), p(-h, t, h)], Vec3::Z, (0.0, 0.0, LONG, strip));
    face([p(h, -t, -h), p(-h, -t, -h), p(-h, t, -h), p(h, t, -h)], -Vec3::Z, (0.0, 1.0 - strip, LONG, 1.0));
    face([p(h, -t, h), p(h, -t, -h), p(h, t, -h), p(h, t, h)], Vec3::X, (LONG, 0.0, 1.0, strip * 4.0));
    face([p(-h, -t, -h), p(-h, -t, h), p(-h, t, h), p(-h, t, -h)], -Vec3::X, (LONG, 0.5, 1.0, 0.5 + strip * 4.0));
    let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices));
    if let Err(e) = mesh.generate_tangents() {
        warn!("the tile's tangents could not be made: {e}");
    }
    mesh
}

/// Which wood variant a tile has: from where it stood when the set was laid out, so that it
/// keeps its look while it moves.
pub fn variant_of(file: u8, rank: u8, level: u8) -> usize {
    let h = (file as usize * 7 + rank as usize * 13 + level as usize * 5) ^ 0x5;
    h % VARIANTS
}
