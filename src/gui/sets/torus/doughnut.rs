//! CTOR's doughnut: the field shown on a true torus (`D`, or the *Doughnut* button). Each
//! square is a patch of the torus's surface that can be clicked like the flat square it
//! stands for; each disc of the flat field has an image lying on the surface, which follows
//! it through every drop, slide and flip (the flat field goes on playing the game, hidden).
//! After each move the doughnut turns, as a whole, so that the square of the last move faces
//! the camera. Switching back shows the flat field exactly as it stood.
//!
//! The field's files run round the torus's hole (the major circle), its ranks round the tube
//! (the minor circle); the tube's circumference is N squares, so a square is at least one
//! unit wide everywhere.

use super::{Disc, Duplicate, FieldSquare, TorusSet, disc_halves};
use crate::gui::frame::animate::Tween;
use crate::gui::frame::board::pickable;
use crate::gui::frame::board::{BOARD_TOP, BoardItem, Layout, with_mark};
use crate::rules::Cell;
use bevy::prelude::*;
use std::f32::consts::TAU;

pub use crate::gui::sets::room::DoughnutView;

/// The doughnut: the parent of its patches and of the discs' images, turned as a whole.
#[derive(Component, Clone, Copy, Debug)]
pub struct Doughnut {
    /// The field's size it was made for.
    pub n: u8,
}

/// A patch of the doughnut's surface: one square of the field (it also carries the
/// [`FieldSquare`] the flat square has, so a click on it is a click on that square).
#[derive(Component, Clone, Copy, Debug)]
pub struct Patch;

/// The image on the doughnut of a flat-field item (a disc, a secret square's ring, a
/// member's choice).
#[derive(Component, Clone, Copy, Debug)]
pub struct Image(pub Entity);

/// Meshes of the patches, one per rank (the patches of a rank differ only by their turn
/// round the hole), for the field size they were made for.
#[derive(Resource, Default)]
struct PatchMeshes {
    n: u8,
    ranks: Vec<Handle<Mesh>>,
}

/// How long the doughnut takes to turn a move's square to the front.
const TURN: f32 = 0.6;

/// The tube's radius and the hole's (centre of the tube to the axis) for an N × N field.
pub fn radii(n: u8) -> (f32, f32) {
    let a = n as f32 / TAU;
    (2.2 * a, a)
}

/// Where the doughnut's centre stands above the table: high enough that it never meets the
/// table however it turns.
pub fn centre(n: u8) -> Vec3 {
    let (r, a) = radii(n);
    Vec3::Y * (r + a + BOARD_TOP)
}

/// The angles round the hole (u) and round the tube (v) of a point of the flat field (its
/// x and z, in squares from the field's centre): file by file round the hole, rank by rank
/// round the tube.
fn angles(n: u8, x: f32, z: f32) -> (f32, f32) {
    let half = (n as f32 - 1.0) / 2.0;
    let file = x + half;
    let rank = half - z;
    (file / n as f32 * TAU, -(rank / n as f32) * TAU)
}

/// The surface frame at (u, v): the point, and the rotation taking the flat field's axes
/// (x along the files, y up, z down the ranks) to the surface's (round the hole, outwards,
/// and the third).
fn frame(n: u8, u: f32, v: f32) -> (Vec3, Quat) {
    let (r, a) = radii(n);
    let (su, cu, sv, cv) = (u.sin(), u.cos(), v.sin(), v.cos());
    let point = Vec3::new((r + a * cv) * cu, a * sv, (r + a * cv) * su);
    let normal = Vec3::new(cv * cu, sv, cv * su);
    let along = Vec3::new(-su, 0.0, cu);
    let third = along.cross(normal);
    (point, Quat::from_mat3(&Mat3::from_cols(along, normal, third)).normalize())
}

/// Where a flat-field transform goes on the doughnut (in the doughnut's own frame): the
/// point of the surface under it, lifted along the surface's normal as far as it stands above
/// the board, turned with the surface.
pub fn on_doughnut(n: u8, flat: &Transform) -> Transform {
    let p = flat.translation;
    let (u, v) = angles(n, p.x, p.z);
    let (point, turn) = frame(n, u, v);
    let lift = p.y - BOARD_TOP;
    Transform { translation: point + turn * (Vec3::Y * lift), rotation: turn * flat.rotation, scale: flat.scale }
}

/// The patch mesh of a rank: the surface over the square's angles (a little short of them,
/// so that the squares show apart), centred on u = 0, in the doughnut's frame.
fn patch_mesh(n: u8, rank: u8) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let (steps_u, steps_v) = (6u32, 3u32);
    let half = (n as f32 - 1.0) / 2.0;
    let z = half - rank as f32;
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    for j in 0..=steps_v {
        for i in 0..=steps_u {
            let dx = (i as f32 / steps_u as f32 - 0.5) * 0.94;
            let dz = (j as f32 / steps_v as f32 - 0.5) * 0.94;
            let (u, v) = angles(n, dx - half, z + dz);
            let (point, turn) = frame(n, u, v);
            positions.push(point.to_array());
            normals.push((turn * Vec3::Y).to_array());
            uvs.push([i as f32 / steps_u as f32, j as f32 / steps_v as f32]);
        }
    }
    let row = steps_u + 1;
    let mut indices = Vec::new();
    for j in 0..steps_v {
        for i in 0..steps_u {
            let k = j * row + i;
            // Wound so that the face looks outwards.
            indices.extend_from_slice(&[k, k + row, k + 1, k + 1, k + row, k + row + 1]);
        }
    }
    let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default());
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_attribute(Mesh::ATTRIBUTE_NORMAL, normals);
    // Over the square, as the flat field's squares have them (the software profile draws their
    // outline from a texture).
    mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, uvs);
    mesh.insert_indices(Indices::U32(indices));
    mesh
}

pub(super) fn plugin(app: &mut App) {
    use crate::gui::frame::steps::TableSystems;
    let shown = |view: Res<DoughnutView>| view.0;
    app.init_resource::<PatchMeshes>().add_systems(
        Update,
        (
            make_doughnut,
            hide_flat.run_if(shown.or_else(resource_changed::<DoughnutView>)),
            (images, turn_to_last_move).run_if(any_with_component::<Doughnut>),
        )
            .chain()
            .run_if(crate::gui::sets::room::on_table(crate::gui::sets::room::Room::Torus))
            .in_set(TableSystems::Present)
            .before(super::paint),
    );
}

/// The doughnut and its patches, while it is shown; gone when it is not.
#[allow(clippy::too_many_arguments)]
fn make_doughnut(
    mut commands: Commands,
    view: Res<DoughnutView>,
    layout: Res<Layout>,
    set: Res<TorusSet>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut patches: ResMut<PatchMeshes>,
    doughnuts: Query<(Entity, &Doughnut)>,
    mut cameras: Query<
        (&mut crate::gui::look::camera::Orbit, &mut Transform),
        With<crate::gui::look::camera::PlayerCamera>,
    >,
) {
    let n = layout.files;
    let have = doughnuts.iter().next();
    if !view.0 {
        if let Some((e, _)) = have {
            commands.entity(e).despawn();
            commands.insert_resource(crate::gui::sets::room::Showpiece(None));
        }
        if view.is_changed() {
            for (mut orbit, mut tf) in &mut cameras {
                orbit.focus.y = 0.0;
                *tf = orbit.transform();
            }
        }
        return;
    }
    if have.is_some_and(|(_, d)| d.n == n) {
        return;
    }
    if let Some((e, _)) = have {
        commands.entity(e).despawn();
    }
    if patches.n != n || patches.ranks.is_empty() {
        *patches = PatchMeshes { n, ranks: (0..n).map(|r| meshes.add(patch_mesh(n, r))).collect() };
    }
    // The camera looks at the doughnut's centre.
    for (mut orbit, mut tf) in &mut cameras {
        orbit.focus.y = centre(n).y;
        *tf = orbit.transform();
    }
    let (r, a) = radii(n);
    commands.insert_resource(crate::gui::sets::room::Showpiece(Some((centre(n), r + a))));
    let root =
        commands.spawn((Transform::from_translation(centre(n)), Visibility::default(), Doughnut { n }, BoardItem)).id();
    for rank in 0..n {
        for file in 0..n {
            let c = Cell::new(file, rank);
            let edge = file == 0 || rank == 0 || file == n - 1 || rank == n - 1;
            let mat = if edge { set.edge.clone() } else { set.field.clone() };
            let turn = Quat::from_rotation_y(-(file as f32 / n as f32) * TAU);
            let mesh = patches.ranks[rank as usize].clone();
            let mut patch = commands.spawn((
                Mesh3d(mesh.clone()),
                MeshMaterial3d(mat),
                Transform::from_rotation(turn),
                Patch,
                FieldSquare { of: c, border: false },
                ChildOf(root),
            ));
            pickable::<FieldSquare>(&mut patch);
            with_mark(&mut patch, mesh);
        }
    }
}

/// The flat field is hidden while the doughnut shows (it goes on playing the game); shown
/// again when the doughnut goes.
#[allow(clippy::type_complexity)]
fn hide_flat(
    view: Res<DoughnutView>,
    mut flat: Query<
        (&mut Visibility, Option<&FieldSquare>),
        (
            Or<(
                With<FieldSquare>,
                With<Disc>,
                With<Duplicate>,
                With<crate::gui::sets::torus::marks::SecretMark>,
                With<crate::gui::sets::torus::marks::ChoiceMark>,
            )>,
            Without<Patch>,
        ),
    >,
) {
    let want = if view.0 { Visibility::Hidden } else { Visibility::Inherited };
    for (mut vis, _) in &mut flat {
        if *vis != want {
            *vis = want;
        }
    }
}

/// Every disc of the flat field (and every secret square's ring, every member's choice) has
/// its image on the doughnut, placed each frame where the flat one stands: drops, slides and
/// flips happen there too. A disc taken off the field has none.
#[allow(clippy::type_complexity)]
fn images(
    mut commands: Commands,
    set: Res<TorusSet>,
    doughnuts: Query<(Entity, &Doughnut)>,
    discs: Query<(Entity, &Disc, &Transform), Without<Image>>,
    marks: Query<
        (
            Entity,
            &Transform,
            &Mesh3d,
            &MeshMaterial3d<StandardMaterial>,
            Option<&bevy::camera::visibility::RenderLayers>,
        ),
        (
            Or<(With<crate::gui::sets::torus::marks::SecretMark>, With<crate::gui::sets::torus::marks::ChoiceMark>)>,
            Without<Image>,
        ),
    >,
    mut images: Query<(Entity, &Image, &mut Transform), (Without<Disc>, Without<Doughnut>)>,
) {
    let Some((root, doughnut)) = doughnuts.iter().next() else { return };
    let n = doughnut.n;
    let mut wanted: std::collections::HashMap<Entity, Transform> = std::collections::HashMap::new();
    for (e, disc, tf) in &discs {
        if disc.cell.is_some() || tf.translation.x.abs() < n as f32 / 2.0 + 0.5 {
            wanted.insert(e, on_doughnut(n, tf));
        }
    }
    for (e, tf, ..) in &marks {
        wanted.insert(e, on_doughnut(n, tf));
    }
    for (e, image, mut tf) in &mut images {
        match wanted.remove(&image.0) {
            Some(want) => {
                if *tf != want {
                    *tf = want;
                }
            }
            None => commands.entity(e).despawn(),
        }
    }
    for (of, at) in wanted {
        if discs.contains(of) {
            commands.spawn((at, Visibility::default(), Image(of), ChildOf(root), disc_halves(&set)));
        } else if let Ok((_, _, mesh, mat, layers)) = marks.get(of) {
            let mut image = commands.spawn((at, mesh.clone(), mat.clone(), Image(of), Pickable::IGNORE, ChildOf(root)));
            if let Some(l) = layers {
                image.insert(l.clone());
            }
        }
    }
}

/// The doughnut's turn that shows the square at (u, v) to a camera in direction `towards`:
/// its axis tilted half-way towards the camera, top up for a square on the upper half of the
/// tube and bottom up for one on the lower half; then turned round that axis so that the
/// square lies on the near side (outer half of the tube) or on the far side, seen through
/// the hole (inner half).
pub fn facing(u: f32, v: f32, towards: Vec3) -> Quat {
    let up = if v.sin() >= -1e-4 { Vec3::Y } else { -Vec3::Y };
    let axis = (up + towards).normalize_or(Vec3::Y);
    let tilt = Quat::from_rotation_arc(Vec3::Y, axis);
    let radial = tilt * Vec3::new(u.cos(), 0.0, u.sin());
    let along_axis = |w: Vec3| (w - axis * w.dot(axis)).normalize_or(radial);
    let want = along_axis(if v.cos() >= 0.0 { towards } else { -towards });
    let have = along_axis(radial);
    let angle = have.cross(want).dot(axis).atan2(have.dot(want));
    (Quat::from_axis_angle(axis, angle) * tilt).normalize()
}

/// After each move (and when the doughnut appears) it turns, as a whole, so that the last
/// move's square faces the camera; under reduced motion at once.
fn turn_to_last_move(
    mut commands: Commands,
    session: Res<crate::gui::frame::session::Session>,
    speed: Res<crate::gui::frame::animate::Speed>,
    doughnuts: Query<(Entity, &Doughnut, &Transform, Has<Tween>)>,
    cameras: Query<&Transform, (With<crate::gui::look::camera::PlayerCamera>, Without<Doughnut>)>,
    mut turned_for: Local<Option<(Entity, Vec<Cell>)>>,
) {
    let Some((root, doughnut, tf, turning)) = doughnuts.iter().next() else { return };
    // The last move's squares (a Put's too, which the table's last-move marks leave out).
    let cells = session.history.last().map(|(before, mv)| crate::ai::hint_cells(before, mv)).unwrap_or_default();
    if turned_for.as_ref().is_some_and(|(e, c)| *e == root && *c == cells) || turning {
        return;
    }
    *turned_for = Some((root, cells.clone()));
    let n = doughnut.n;
    let half = (n as f32 - 1.0) / 2.0;
    let c = cells.last().copied().unwrap_or(Cell::new(n / 2, n / 2));
    let (u, v) = angles(n, c.file as f32 - half, half - c.rank as f32);
    let camera = cameras.iter().next().map_or(Vec3::new(0.0, 10.0, 10.0), |t| t.translation);
    let target = facing(u, v, (camera - tf.translation).normalize_or(Vec3::Z));
    let duration = TURN * speed.factor();
    if duration <= 0.0 {
        commands.entity(root).insert(Transform { rotation: target, ..*tf });
    } else {
        let at = tf.translation;
        commands.entity(root).insert(Tween::slide(at, at, 0.0, duration, 0.0).turning(tf.rotation, target));
    }
}
