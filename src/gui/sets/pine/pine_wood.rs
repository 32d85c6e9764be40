//! The pine's wood: one solid texture, a function of a point in the log a piece was cut from
//! ([`wood`]), baked at start into each piece's own textures (no image files, no downloaded
//! art), finer for the full profile than for the software one ([`Detail`]).
//!
//! A log is a pith with growth rings round it: each ring light, soft early wood darkening into
//! dense late wood, which ends sharply where the next year's early wood begins; the rings wobble
//! a little, widen and narrow year by year, and bend round the rare knot (a branch growing out
//! from the pith). Close up there are rays (thin radial lines) and a speckle of pores. Nearer the
//! pith the heartwood is warmer. A piece is a box cut from somewhere in such a log ([`Cut`]): its
//! length along the log, so that its top shows long grain (straight stripes, or the arches of a
//! flat-sawn board whose face cuts across the rings), two opposite sides long grain and the
//! two ends end grain (the rings' arcs). Each of the set's 20 tiles, its pawns and its box's
//! boards is cut from another place, so no two are alike. Light tiles are plain pine; dark
//! ones heat-darkened pine, whose late wood darkens most. Oiled: late wood is smoother (less
//! rough) than early wood and stands a little proud of it, which the normal map carries.

use crate::gui::frame::board::square_image;
use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use rand::{Rng, SeedableRng};

/// How finely the wood is baked: the full profile's textures are four times the software one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Detail {
    Full,
    Software,
}

/// Texels a side of a piece's textures: the colour, the relief's normal map and the roughness
/// (which changes slowly, and is baked coarser).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub colour: u32,
    pub normal: u32,
    pub rough: u32,
}

impl Detail {
    /// A tile's textures (512 texels of colour in the full profile were sharper close up, and
    /// cost some 40 MB more at the peak).
    pub fn tile(self) -> Sizes {
        match self {
            Detail::Full => Sizes { colour: 256, normal: 256, rough: 64 },
            Detail::Software => Sizes { colour: 128, normal: 64, rough: 32 },
        }
    }

    /// A board of the box, and a pawn.
    pub fn board(self) -> Sizes {
        match self {
            Detail::Full => Sizes { colour: 256, normal: 128, rough: 64 },
            Detail::Software => Sizes { colour: 128, normal: 64, rough: 32 },
        }
    }
}

/// The two woods of the set, as linear colours: pine, and heat-darkened pine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stain {
    pub early: Vec3,
    pub late: Vec3,
    /// The heartwood's colour, as a multiplier.
    pub heart: Vec3,
    pub knot: Vec3,
}

fn linear(r: f32, g: f32, b: f32) -> Vec3 {
    let c = Color::srgb(r, g, b).to_linear();
    Vec3::new(c.red, c.green, c.blue)
}

impl Stain {
    /// Plain pine, oiled: pale straw early wood, honey late wood.
    pub fn pine() -> Stain {
        Stain {
            early: linear(0.94, 0.84, 0.65),
            late: linear(0.8, 0.57, 0.34),
            heart: Vec3::new(1.0, 0.93, 0.84),
            knot: linear(0.55, 0.34, 0.16),
        }
    }

    /// Heat-darkened pine: the same rings, the late wood darkest.
    pub fn dark() -> Stain {
        Stain {
            early: linear(0.56, 0.36, 0.22),
            late: linear(0.31, 0.17, 0.09),
            heart: Vec3::new(0.96, 0.92, 0.88),
            knot: linear(0.22, 0.12, 0.06),
        }
    }

    /// The pale wood of the dark tiles' inlay (a light, close-grained wood, like holly).
    pub fn inlay() -> Stain {
        Stain {
            early: linear(0.93, 0.86, 0.7),
            late: linear(0.86, 0.77, 0.6),
            heart: Vec3::ONE,
            knot: linear(0.9, 0.84, 0.7),
        }
    }
}

/// A knot: a branch leaving the pith at `along`, growing out at `angle` round the log.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knot {
    pub along: f32,
    pub angle: f32,
    pub radius: f32,
}

/// Where a piece was cut from its log, in world units (one is 5 cm). The piece's own x axis
/// runs along the log, leaning from its axis by `lean` (towards y and z), so that a face
/// cuts across the rings; the pith lies at `pith` in the piece's cross-section (y, z).
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub pith: Vec2,
    pub lean: Vec2,
    pub along: f32,
    /// A year's ring, and the late wood's share of it.
    pub spacing: f32,
    pub late: f32,
    /// The heartwood's radius.
    pub heart: f32,
    pub knots: Vec<Knot>,
    /// A small shift of hue and brightness: no two boards are the same colour.
    pub tint: Vec3,
    pub seed: u32,
}

/// Where a piece lies in its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sawn {
    /// Anywhere: flat-sawn (the pith above or below the face), rift or quarter-sawn.
    Any,
    /// Close round the pith, the grain along the axis (a turned pawn).
    Turned,
}

impl Cut {
    /// A seeded cut: the same seed, the same piece of wood.
    pub fn random(seed: u64, sawn: Sawn) -> Cut {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let pith = match sawn {
            Sawn::Turned => {
                Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * rng.random_range(0.0..0.08)
            }
            Sawn::Any => {
                // Most boards are flat-sawn: the pith above or below the face.
                let angle = if rng.random_bool(0.6) {
                    std::f32::consts::FRAC_PI_2 * if rng.random_bool(0.5) { 1.0 } else { -1.0 }
                        + rng.random_range(-0.35..0.35)
                } else {
                    rng.random_range(0.0..std::f32::consts::TAU)
                };
                Vec2::from_angle(angle) * rng.random_range(0.7..3.5)
            }
        };
        let lean = Vec2::new(rng.random_range(-0.07..0.07), rng.random_range(-0.03..0.03));
        let knots = if rng.random_bool(match sawn {
            Sawn::Any => 0.2,
            Sawn::Turned => 0.0,
        }) {
            // A branch that passes through the piece: from the pith towards its middle.
            let towards = (-pith).to_angle() + rng.random_range(-0.25..0.25);
            vec![Knot { along: rng.random_range(-0.35..0.35), angle: towards, radius: rng.random_range(0.05..0.1) }]
        } else {
            Vec::new()
        };
        // Boards from one tree and another: paler, warmer or more golden.
        let bright = rng.random_range(0.86..1.06);
        Cut {
            pith,
            lean,
            along: rng.random_range(0.0..200.0),
            spacing: rng.random_range(0.035..0.07),
            late: rng.random_range(0.14..0.3),
            heart: rng.random_range(0.8..2.4),
            knots,
            tint: Vec3::new(bright * rng.random_range(0.98..1.04), bright, bright * rng.random_range(0.9..1.04)),
            seed: rng.random(),
        }
    }
}

/// The wood at one point: its colour (linear), roughness and relief (late wood proud).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub colour: Vec3,
    pub roughness: f32,
    pub height: f32,
}

fn hash(x: i32, y: i32, z: i32, seed: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ (z as u32).wrapping_mul(0xcb1a_b31f)
        ^ seed.wrapping_mul(0x1656_67b1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    (h & 0x00ff_ffff) as f32 / 16_777_216.0
}

/// Smooth value noise in 0..1.
fn noise(p: Vec3, seed: u32) -> f32 {
    let i = p.floor();
    let f = p - i;
    let s = f * f * (Vec3::splat(3.0) - 2.0 * f);
    let (x, y, z) = (i.x as i32, i.y as i32, i.z as i32);
    let corner = |dx: i32, dy: i32, dz: i32| hash(x + dx, y + dy, z + dz, seed);
    let x00 = corner(0, 0, 0) + (corner(1, 0, 0) - corner(0, 0, 0)) * s.x;
    let x10 = corner(0, 1, 0) + (corner(1, 1, 0) - corner(0, 1, 0)) * s.x;
    let x01 = corner(0, 0, 1) + (corner(1, 0, 1) - corner(0, 0, 1)) * s.x;
    let x11 = corner(0, 1, 1) + (corner(1, 1, 1) - corner(0, 1, 1)) * s.x;
    let y0 = x00 + (x10 - x00) * s.y;
    let y1 = x01 + (x11 - x01) * s.y;
    y0 + (y1 - y0) * s.z
}

/// 0 at `a`, 1 at `b`, smoothly between (either way round).
pub fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The wood of `cut`, stained `stain`, at `p` in the piece's own coordinates (world units,
/// the piece's x along the log).
pub fn wood(cut: &Cut, stain: &Stain, p: Vec3) -> Sample {
    let seed = cut.seed;
    // Into the log: lean the axis, then measure from the pith.
    let q = Vec3::new(p.x + cut.along, p.y + p.x * cut.lean.x - cut.pith.x, p.z + p.x * cut.lean.y - cut.pith.y);
    let (a, c) = (q.x, Vec2::new(q.y, q.z));
    let r = c.length();
    // The rings wobble round the log and along it, and each year is its own width.
    let wobble = noise(Vec3::new(c.x * 1.3, c.y * 1.3, a * 0.35), seed) - 0.5;
    let sway = noise(Vec3::new(c.x * 4.0, c.y * 4.0, a * 1.1), seed ^ 0x77) - 0.5;
    let mut year = (r + wobble * cut.spacing * 4.0 + sway * cut.spacing * 1.2) / cut.spacing;
    // Good years and lean ones: the rings' widths vary.
    year += 3.0 * (noise(Vec3::new(year * 0.3, 3.7, 1.3), seed ^ 0x55) - 0.5);
    // Knots: the rings bend round a branch, which shows as a dark, resinous oval.
    let mut knot = 0.0f32;
    let mut knot_rings = 0.0f32;
    for k in &cut.knots {
        let dir = Vec2::from_angle(k.angle);
        let axis = Vec3::new(0.35, dir.x, dir.y).normalize();
        let rel = Vec3::new(a - k.along - cut.along, c.x, c.y);
        let t = rel.dot(axis).max(0.0);
        let d = (rel - axis * t).length();
        // A branch widens as it grows out from the pith.
        let kr = k.radius * (0.45 + 0.55 * (t / 2.0).min(1.0));
        year += 2.2 * (-(d / (kr * 2.4)).powi(2)).exp();
        knot = knot.max(smoothstep(kr, kr * 0.8, d));
        knot_rings = (d / (cut.spacing * 0.35)).fract();
    }
    let ring = year.rem_euclid(1.0);
    // Early wood darkens slowly into the late wood, which ends sharply at the next ring.
    let start = 1.0 - cut.late;
    let late = smoothstep(start - 0.07, start + 0.04, ring);
    let mut colour = stain.early.lerp(stain.late, late) * (1.06 - 0.14 * ring * (1.0 - late));
    // Heartwood near the pith, warmer.
    colour *= Vec3::ONE.lerp(stain.heart, smoothstep(cut.heart + 0.35, cut.heart - 0.35, r));
    // Rays: thin radial lines a few millimetres long, glossy and a shade lighter.
    let around = c.y.atan2(c.x) * r.max(0.05) / 0.022;
    let ray_i = around.floor();
    let ray_seg = (a / 0.09 + hash(ray_i as i32, 7, 1, seed) * 9.0).floor();
    let ray_on = hash(ray_i as i32, ray_seg as i32, 3, seed) < 0.35;
    let ray = if ray_on { (-((around - ray_i - 0.5) / 0.12).powi(2)).exp() } else { 0.0 };
    colour *= 1.0 + 0.06 * ray;
    // Fibres: fine streaks along the grain, a shade lighter or darker.
    let fibre = noise(Vec3::new(a * 2.5, c.x * 45.0, c.y * 45.0), seed ^ 0x3c) - 0.5;
    colour *= 1.0 + 0.16 * fibre;
    // Pores and resin canals: a fine speckle, stronger in the late wood.
    let pore = noise(Vec3::new(a * 40.0, c.x * 140.0, c.y * 140.0), seed ^ 0xa5) - 0.5;
    colour *= 1.0 + pore * (0.05 + 0.07 * late);
    // The knot's own rings, dark and resinous.
    let knot_colour = stain.knot * (0.85 + 0.25 * knot_rings);
    colour = colour.lerp(knot_colour, knot) * cut.tint;
    Sample {
        colour,
        roughness: (0.62 - 0.2 * late - 0.08 * ray - 0.25 * knot).clamp(0.25, 0.9),
        height: late * 0.8 + pore * 0.2 + knot * 0.3,
    }
}

/// A board's faces: its top and bottom (the piece's y), its long sides (z) and its ends (x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Top,
    Bottom,
    PlusZ,
    MinusZ,
    PlusX,
    MinusX,
}

pub const FACES: [Face; 6] = [Face::Top, Face::Bottom, Face::PlusZ, Face::MinusZ, Face::PlusX, Face::MinusX];

impl Face {
    /// Where the face lies in a board's texture (u, v, width, height): top and bottom in the
    /// upper half, the four narrow sides in strips below.
    pub fn region(self) -> (f32, f32, f32, f32) {
        match self {
            Face::Top => (0.0, 0.0, 0.5, 0.5),
            Face::Bottom => (0.5, 0.0, 0.5, 0.5),
            Face::PlusZ => (0.0, 0.5, 0.5, 0.25),
            Face::MinusZ => (0.0, 0.75, 0.5, 0.25),
            Face::PlusX => (0.5, 0.5, 0.5, 0.25),
            Face::MinusX => (0.5, 0.75, 0.5, 0.25),
        }
    }

    /// The face's point at (s, t) across it (0 to 1 each), on a board of half-size `half`.
    pub fn point(self, s: f32, t: f32, half: Vec3) -> Vec3 {
        let (x, y, z) = ((s * 2.0 - 1.0) * half.x, (1.0 - t * 2.0) * half.y, (t * 2.0 - 1.0) * half.z);
        match self {
            Face::Top => Vec3::new(x, half.y, z),
            Face::Bottom => Vec3::new(x, -half.y, z),
            Face::PlusZ => Vec3::new(x, y, half.z),
            Face::MinusZ => Vec3::new(x, y, -half.z),
            Face::PlusX => Vec3::new(half.x, y, (s * 2.0 - 1.0) * half.z),
            Face::MinusX => Vec3::new(-half.x, y, (s * 2.0 - 1.0) * half.z),
        }
    }

    /// Where a point of the face (or near it) goes in the texture.
    pub fn uv(self, p: Vec3, half: Vec3) -> [f32; 2] {
        let (s, t) = match self {
            Face::Top | Face::Bottom => ((p.x / half.x + 1.0) / 2.0, (p.z / half.z + 1.0) / 2.0),
            Face::PlusZ | Face::MinusZ => ((p.x / half.x + 1.0) / 2.0, (1.0 - p.y / half.y) / 2.0),
            Face::PlusX | Face::MinusX => ((p.z / half.z + 1.0) / 2.0, (1.0 - p.y / half.y) / 2.0),
        };
        let (u0, v0, w, h) = self.region();
        [u0 + s.clamp(0.0, 1.0) * w, v0 + t.clamp(0.0, 1.0) * h]
    }

    fn normal(self) -> Vec3 {
        match self {
            Face::Top => Vec3::Y,
            Face::Bottom => -Vec3::Y,
            Face::PlusZ => Vec3::Z,
            Face::MinusZ => -Vec3::Z,
            Face::PlusX => Vec3::X,
            Face::MinusX => -Vec3::X,
        }
    }
}

/// A piece's baked textures: colour (sRGB), the relief's normal map, and its roughness (the
/// green channel, as the renderer reads it).
pub struct Baked {
    pub colour: Image,
    pub normal: Image,
    pub roughness: Image,
}

/// Bakes by sampling `at` (each point of the texture, or none where it is unused), four
/// samples a colour texel; the roughness and the relief averaged down to their own sizes, and
/// the normal map from the relief, texel to texel within each texture region (`region` names
/// the region a point of the texture belongs to).
fn bake(sizes: Sizes, at: impl Fn(f32, f32) -> Option<Sample>, region: impl Fn(f32, f32) -> u32) -> Baked {
    let n = sizes.colour as usize;
    let mut colour = Vec::with_capacity(n * n * 4);
    let mut rough = vec![0.0f32; n * n];
    let mut height = vec![0.0f32; n * n];
    let step = 1.0 / n as f32;
    for j in 0..n {
        for i in 0..n {
            let mut sum = (Vec3::ZERO, 0.0, 0.0, 0);
            for (di, dj) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                if let Some(s) = at((i as f32 + di) * step, (j as f32 + dj) * step) {
                    sum = (sum.0 + s.colour, sum.1 + s.roughness, sum.2 + s.height, sum.3 + 1);
                }
            }
            let k = sum.3.max(1) as f32;
            let c = Color::linear_rgb(sum.0.x / k, sum.0.y / k, sum.0.z / k).to_srgba();
            for v in [c.red, c.green, c.blue] {
                colour.push((v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8);
            }
            colour.push(255);
            rough[j * n + i] = sum.1 / k;
            height[j * n + i] = sum.2 / k;
        }
    }
    // A value averaged down to `m` texels a side.
    let down = |values: &[f32], m: usize| -> Vec<f32> {
        let f = (n / m).max(1);
        let mut out = vec![0.0f32; m * m];
        for j in 0..m {
            for i in 0..m {
                let mut s = 0.0;
                for y in 0..f {
                    for x in 0..f {
                        s += values[(j * f + y).min(n - 1) * n + (i * f + x).min(n - 1)];
                    }
                }
                out[j * m + i] = s / (f * f) as f32;
            }
        }
        out
    };
    let m = sizes.rough as usize;
    let rough: Vec<u8> =
        down(&rough, m).into_iter().flat_map(|r| [0, (r.clamp(0.0, 1.0) * 255.0 + 0.5) as u8, 0, 255]).collect();
    let m = sizes.normal as usize;
    let height = down(&height, m);
    let mut normal = Vec::with_capacity(m * m * 4);
    let texel = |x: usize| (x as f32 + 0.5) / m as f32;
    for j in 0..m {
        for i in 0..m {
            let here = region(texel(i), texel(j));
            let h = |x: usize, y: usize| {
                if region(texel(x), texel(y)) == here { height[y * m + x] } else { height[j * m + i] }
            };
            let dx = h((i + 1).min(m - 1), j) - h(i.saturating_sub(1), j);
            let dy = h(i, (j + 1).min(m - 1)) - h(i, j.saturating_sub(1));
            // Oiled wood is smooth: the late wood stands only a little proud.
            let v = Vec3::new(-dx * 0.25, -dy * 0.25, 1.0).normalize();
            for c in [v.x, v.y, v.z] {
                normal.push(((c * 0.5 + 0.5) * 255.0 + 0.5) as u8);
            }
            normal.push(255);
        }
    }
    Baked {
        colour: square_image(sizes.colour, colour, TextureFormat::Rgba8UnormSrgb),
        normal: square_image(sizes.normal, normal, TextureFormat::Rgba8Unorm),
        roughness: square_image(sizes.rough, rough, TextureFormat::Rgba8Unorm),
    }
}

/// Which face's region a texel (in 0..1) belongs to.
fn face_at(u: f32, v: f32) -> Face {
    *FACES
        .iter()
        .find(|f| {
            let (u0, v0, w, h) = f.region();
            u >= u0 && u < u0 + w && v >= v0 && v < v0 + h
        })
        .unwrap_or(&Face::Top)
}

/// A board of half-size `half` (its grain along x) baked from its cut: each face's texels
/// sample the wood on that face, a little past its edges too (so that mipmaps and the
/// chamfers find wood there). `mark` may change a sample (an inlay, a groove, a notch).
pub fn bake_board(
    half: Vec3,
    cut: &Cut,
    stain: &Stain,
    sizes: Sizes,
    mark: impl Fn(Face, Vec3, Sample) -> Sample,
) -> Baked {
    bake(
        sizes,
        |u, v| {
            let face = face_at(u, v);
            let (u0, v0, w, h) = face.region();
            let p = face.point((u - u0) / w, (v - v0) / h, half);
            Some(mark(face, p, wood(cut, stain, p)))
        },
        |u, v| face_at(u, v) as u32,
    )
}

/// A turned piece's wood (UV round it and up its profile, as [`super::lathe`] makes them):
/// the grain along its axis, the rings' ends on its top.
pub fn bake_turned(profile: &[(f32, f32)], cut: &Cut, stain: &Stain, sizes: Sizes) -> Baked {
    let n = profile.len();
    let height = profile.last().map_or(1.0, |p| p.1);
    bake(
        sizes,
        |u, v| {
            let at = (v * (n - 1) as f32).clamp(0.0, (n - 1) as f32 - 1e-4);
            let k = at as usize;
            let f = at - k as f32;
            let (r, y) = (
                profile[k].0 + (profile[k + 1].0 - profile[k].0) * f,
                profile[k].1 + (profile[k + 1].1 - profile[k].1) * f,
            );
            let (sin, cos) = (u * std::f32::consts::TAU).sin_cos();
            // The log's axis is the pawn's.
            Some(wood(cut, stain, Vec3::new(y - height / 2.0, r * cos, r * sin)))
        },
        |_, _| 0,
    )
}

/// A board's mesh, `half` its half-size (grain along x), with its edges and corners chamfered
/// by `chamfer` and shaded round (each chamfer's vertices take the normals of the faces it
/// joins), in [`Face::region`]'s texture layout: a chamfer between a face and its top or
/// bottom takes the top's or bottom's wood, one between an end and a side the side's.
pub fn board_mesh(half: Vec3, chamfer: f32) -> Mesh {
    let c = chamfer.min(half.min_element() * 0.45);
    let mut b = Builder { half, ..Default::default() };
    // A point of a face: on the face, inset by the chamfer along the other two axes.
    let inset = |face: Face, sx: f32, sy: f32| -> Vec3 {
        let n = face.normal();
        let (a, b) = match face {
            Face::Top | Face::Bottom => (Vec3::X, Vec3::Z),
            Face::PlusZ | Face::MinusZ => (Vec3::X, Vec3::Y),
            Face::PlusX | Face::MinusX => (Vec3::Z, Vec3::Y),
        };
        n * half + a * sx * (a.dot(half) - c) + b * sy * (b.dot(half) - c)
    };
    let signs = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    // The six faces.
    for face in FACES {
        let k: Vec<u32> = signs.iter().map(|&(sx, sy)| b.vertex(inset(face, sx, sy), face.normal(), face)).collect();
        let n = face.normal();
        b.tri(k[0], k[1], k[2], n);
        b.tri(k[0], k[2], k[3], n);
    }
    // The twelve edges, each between face a (whose wood it takes: the top or bottom, else a
    // long side) and face b, running along the axis both are square to.
    let tops = [Face::Top, Face::Bottom];
    let sides = [Face::PlusZ, Face::MinusZ, Face::PlusX, Face::MinusX];
    let edges = tops.iter().flat_map(|a| sides.iter().map(move |b| (*a, *b)));
    let edges =
        edges.chain([Face::PlusZ, Face::MinusZ].into_iter().flat_map(|a| [(a, Face::PlusX), (a, Face::MinusX)]));
    for (fa, fb) in edges {
        let uv_face = fa;
        let (na, nb) = (fa.normal(), fb.normal());
        let along = na.cross(nb).abs();
        let corner = (na + nb) * half;
        let ends = [-1.0f32, 1.0].map(|s| corner + along * s * (along.dot(half) - c));
        // On face a: pulled back from face b by the chamfer; and the other way round.
        let k: Vec<u32> =
            ends.iter().flat_map(|&e| [b.vertex(e - nb * c, na, uv_face), b.vertex(e - na * c, nb, uv_face)]).collect();
        let out = (na + nb).normalize();
        b.tri(k[0], k[1], k[3], out);
        b.tri(k[0], k[3], k[2], out);
    }
    // The eight corners.
    for sx in [-1.0f32, 1.0] {
        for sy in [-1.0f32, 1.0] {
            for sz in [-1.0f32, 1.0] {
                let corner = Vec3::new(sx, sy, sz) * half;
                let uv_face = if sy > 0.0 { Face::Top } else { Face::Bottom };
                let p = b.vertex(corner - Vec3::new(sx, 0.0, sz) * c, Vec3::Y * sy, uv_face);
                let q = b.vertex(corner - Vec3::new(0.0, sy, sz) * c, Vec3::X * sx, uv_face);
                let r = b.vertex(corner - Vec3::new(sx, sy, 0.0) * c, Vec3::Z * sz, uv_face);
                b.tri(p, q, r, Vec3::new(sx, sy, sz));
            }
        }
    }
    let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, b.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, b.normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, b.uvs)
        .with_inserted_indices(Indices::U32(b.indices));
    if let Err(e) = mesh.generate_tangents() {
        warn!("the board's tangents could not be made: {e}");
    }
    mesh
}

/// A mesh being made: its vertices and triangles.
#[derive(Default)]
struct Builder {
    half: Vec3,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    indices: Vec<u32>,
}

impl Builder {
    fn vertex(&mut self, p: Vec3, n: Vec3, uv_face: Face) -> u32 {
        self.positions.push(p.to_array());
        self.normals.push(n.to_array());
        self.uvs.push(uv_face.uv(p, self.half));
        self.positions.len() as u32 - 1
    }

    /// A triangle, wound counter-clockwise seen from outside (`out`).
    fn tri(&mut self, a: u32, b: u32, c: u32, out: Vec3) {
        let at = |k: u32| Vec3::from(self.positions[k as usize]);
        if (at(b) - at(a)).cross(at(c) - at(a)).dot(out) >= 0.0 {
            self.indices.extend([a, b, c]);
        } else {
            self.indices.extend([a, c, b]);
        }
    }
}

/// A tile's mesh, `size` square and `thick` high, the grain along x, its edges chamfered 1 mm.
pub fn tile_mesh(size: f32, thick: f32) -> Mesh {
    board_mesh(Vec3::new(size / 2.0, thick / 2.0, size / 2.0), CHAMFER)
}

/// A 1 mm chamfer on every edge of the set's wood (a world unit is 5 cm).
pub const CHAMFER: f32 = 0.02;

/// The cut of the `k`-th tile of a colour (0 to 9): every tile of the set its own wood.
pub fn tile_cut(side: usize, k: usize) -> Cut {
    let cut = Cut::random(0x7_11e0 + (side * 64 + k) as u64, Sawn::Any);
    // A set's tiles come from boards of several trees and cuts: the rings' spacing spread over
    // its range, and every third tile quarter-sawn (the pith to one side), the rest flat-sawn
    // (the pith under or over the face), at different distances.
    let spread = ((k * 7 + side * 3) % PER_SIDE) as f32 / (PER_SIDE - 1) as f32;
    let spacing = 0.035 + 0.04 * spread;
    let distance = cut.pith.length();
    let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
    let square =
        if k % 3 == 2 { (1.0 - sign) * std::f32::consts::FRAC_PI_2 } else { sign * std::f32::consts::FRAC_PI_2 };
    let angle = square + cut.pith.to_angle() * 0.1;
    Cut { spacing, pith: Vec2::from_angle(angle) * distance, ..cut }
}

/// Tiles of each colour in the set.
pub const PER_SIDE: usize = 10;
