//! The letters and numbers along the board's edges (CTOR's squares are numbered on the
//! field instead), each label kept over its point as the camera moves, off-screen too.

use crate::gui::frame::board::{BOARD_TOP, CoordLabel, Layout, cell_pos, label};
use crate::gui::frame::steps::{Screen, TableSystems};
use crate::gui::sets::room::Room;
use crate::rules::Cell;
use bevy::prelude::*;

/// Only the coordinates along the board's edges, and every label kept over its point (for
/// off-screen pictures too).
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (refresh_coords, place_coords).chain().in_set(TableSystems::Present).after(crate::gui::look::camera::Steering),
    );
}

#[derive(Component)]
struct Coordinate;

fn refresh_coords(
    mut commands: Commands,
    layout: Res<Layout>,
    room: Res<Room>,
    labels: Query<Entity, With<Coordinate>>,
    mut last: Local<Option<(u8, u8, Room)>>,
) {
    let now = Some((layout.files, layout.ranks, *room));
    if *last == now {
        return;
    }
    *last = now;
    for e in &labels {
        commands.entity(e).despawn();
    }
    if !room.coordinates() {
        return;
    }
    for (pos, text) in coordinate_points(&layout) {
        commands.spawn((
            label(text, 16.0, Color::srgb(1.0, 0.95, 0.85), pos),
            Coordinate,
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// Letters along the near and far edges, numbers along the left and right edges.
pub fn coordinate_points(layout: &Layout) -> Vec<(Vec3, String)> {
    let mut out = Vec::new();
    let edge = |c: Cell| cell_pos(layout, c).with_y(BOARD_TOP);
    for f in 0..layout.files {
        let letter = ((b'a' + f) as char).to_string();
        out.push((edge(Cell::new(f, 0)) + Vec3::Z * 0.72, letter.clone()));
        out.push((edge(Cell::new(f, layout.ranks - 1)) - Vec3::Z * 0.72, letter));
    }
    for r in 0..layout.ranks {
        out.push((edge(Cell::new(0, r)) - Vec3::X * 0.72, (r + 1).to_string()));
        out.push((edge(Cell::new(layout.files - 1, r)) + Vec3::X * 0.72, (r + 1).to_string()));
    }
    out
}

/// Keeps each label over its point on the board (a scaled view's image pixels are turned
/// back into the panels' logical pixels).
pub fn place_coords(
    cams: Query<
        (&Camera, &GlobalTransform, Option<&crate::gui::look::render::ScaledView>),
        With<crate::gui::look::camera::PlayerCamera>,
    >,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut labels: Query<(&CoordLabel, &mut Node, &mut Visibility)>,
) {
    let Ok((cam, cam_tf, view)) = cams.single() else { return };
    let window_scale = windows.single().map(|w| w.scale_factor()).unwrap_or(1.0);
    let to_ui = view.map(|v| 1.0 / (v.scale * window_scale)).unwrap_or(1.0);
    for (label, mut node, mut vis) in &mut labels {
        match cam.world_to_viewport(cam_tf, label.0) {
            Ok(p) => {
                let p = p * to_ui;
                let (left, top) = (px(p.x - 5.0), px(p.y - 10.0));
                if node.left != left || node.top != top {
                    node.left = left;
                    node.top = top;
                }
                if *vis != Visibility::Inherited {
                    *vis = Visibility::Inherited;
                }
            }
            Err(_) => {
                if *vis != Visibility::Hidden {
                    *vis = Visibility::Hidden;
                }
            }
        }
    }
}
