//! What the torus's field shows of CTOR besides the discs: red rings on the secret squares a
//! viewer may see, blue rings on the squares a team member is choosing (both at the table
//! only, never on the broadcast), and the sand-glass beside the field.

use crate::gui::frame::board::{BOARD_TOP, BoardItem, Layout, PLAYER_ONLY, cell_pos};
use crate::gui::frame::clock::{CtorTable, timed};
use crate::gui::frame::session::Session;
use crate::gui::frame::steps::TableSystems;
use crate::gui::sets::room::{Room, on_table};
use crate::rules::ctor::Square;
use crate::rules::{AnyGame, Cell, Game, Side};
use bevy::prelude::*;

/// A secret square shown on the field.
#[derive(Component, Clone, Copy, Debug)]
pub struct SecretMark(pub Cell);

/// The sand-glass beside the field: the sand in its upper and lower bulb.
#[derive(Component)]
pub struct Sand(pub bool);

/// Meshes and materials of the secret marks and the sand-glass, made once.
#[derive(Resource)]
struct Look {
    mark: Handle<Mesh>,
    red: Handle<StandardMaterial>,
    cone: Handle<Mesh>,
    cap: Handle<Mesh>,
    sand: Handle<StandardMaterial>,
    frame: Handle<StandardMaterial>,
}

/// The rings on the squares the member choosing has picked: at the table only.
#[derive(Component)]
pub struct ChoiceMark(pub Square);

#[derive(Resource)]
struct ChoiceLook {
    ring: Handle<Mesh>,
    colour: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, (setup, choice_setup))
        .add_systems(
            Update,
            (secret_marks, sand_glass.run_if(timed)).run_if(on_table(Room::Torus)).in_set(TableSystems::Present),
        )
        .add_systems(
            Update,
            choice_marks
                .run_if(resource_exists_and_changed::<Session>.or_else(resource_changed::<Layout>))
                .in_set(TableSystems::Present),
        );
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    commands.insert_resource(Look {
        mark: meshes.add(Torus::new(0.36, 0.46)),
        red: materials.add(StandardMaterial {
            base_color: Color::srgb(0.9, 0.1, 0.1),
            emissive: LinearRgba::rgb(0.8, 0.05, 0.05),
            ..default()
        }),
        cone: meshes.add(Cone { radius: 0.35, height: 0.5 }),
        cap: meshes.add(Cylinder::new(0.45, 0.06)),
        sand: materials.add(StandardMaterial { base_color: Color::srgb(0.9, 0.75, 0.45), ..default() }),
        frame: materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.2, 0.1),
            perceptual_roughness: 0.5,
            ..default()
        }),
    });
}

fn choice_setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(ChoiceLook {
        ring: meshes.add(Torus::new(0.3, 0.42)),
        colour: materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.7, 0.95),
            emissive: LinearRgba::rgb(0.1, 0.35, 0.6),
            ..default()
        }),
    });
}

/// Red rings on the secret squares a viewer may see.
fn secret_marks(
    mut commands: Commands,
    session: Res<Session>,
    mut table: ResMut<CtorTable>,
    layout: Res<Layout>,
    look: Res<Look>,
    marks: Query<(Entity, &SecretMark, Option<&bevy::camera::visibility::RenderLayers>)>,
    mut turn_of: Local<Option<(Side, u32)>>,
) {
    let AnyGame::Ctor(g) = &session.game else { return };
    // A new turn hides the own squares again.
    let now = Some((g.side_to_move(), g.turn()));
    if *turn_of != now {
        *turn_of = now;
        if table.show_own {
            table.show_own = false;
        }
    }
    // What a viewer at the table may see; the broadcast's layers leave out the unrevealed.
    let mut want = session.visible_secrets(table.show_own);
    let mut have: Vec<(Cell, bool)> = marks.iter().map(|(_, m, layers)| (m.0, layers.is_none())).collect();
    want.sort();
    have.sort();
    if have == want {
        return;
    }
    for (e, _, _) in &marks {
        commands.entity(e).despawn();
    }
    for (c, revealed) in want {
        let mut mark = commands.spawn((
            Mesh3d(look.mark.clone()),
            MeshMaterial3d(look.red.clone()),
            Transform::from_translation(cell_pos(&layout, c).with_y(BOARD_TOP + 0.01))
                .with_scale(Vec3::new(1.0, 0.3, 1.0)),
            SecretMark(c),
            Pickable::IGNORE,
            BoardItem,
        ));
        if !revealed {
            // Seen at the table only, never on the broadcast.
            mark.insert(bevy::camera::visibility::RenderLayers::layer(PLAYER_ONLY));
        }
    }
}

/// The glass beside the field, its sand falling as the turn's time runs.
fn sand_glass(
    mut commands: Commands,
    session: Res<Session>,
    table: Res<CtorTable>,
    layout: Res<Layout>,
    look: Res<Look>,
    mut sand: Query<(&Sand, &mut Transform)>,
) {
    let AnyGame::Ctor(g) = &session.game else { return };
    let Some(limit) = g.options().timer else { return };
    if sand.is_empty() {
        // Two bulbs of sand around a waist, beside the field on the right.
        let at = Vec3::new(layout.files as f32 / 2.0 + 2.6, 0.0, -1.5);
        for (y, upper) in [(0.8, true), (0.3, false)] {
            let rot = if upper { Quat::from_rotation_x(std::f32::consts::PI) } else { Quat::IDENTITY };
            commands.spawn((
                Mesh3d(look.cone.clone()),
                MeshMaterial3d(look.sand.clone()),
                Transform::from_translation(at.with_y(y)).with_rotation(rot),
                Sand(upper),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
        for y in [0.03, 1.07] {
            commands.spawn((
                Mesh3d(look.cap.clone()),
                MeshMaterial3d(look.frame.clone()),
                Transform::from_translation(at.with_y(y)),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
    }
    let left = (1.0 - table.clock / limit as f32).clamp(0.0, 1.0);
    for (s, mut tf) in &mut sand {
        let k = if s.0 { left } else { 1.0 - left };
        let want = Vec3::splat(k.max(0.02));
        if tf.scale != want {
            tf.scale = want;
        }
    }
}
/// Rings on the squares the member choosing has picked, on the player's layer only (never
/// on the broadcast or in the live feed).
fn choice_marks(
    mut commands: Commands,
    session: Res<Session>,
    layout: Res<Layout>,
    look: Res<ChoiceLook>,
    marks: Query<(Entity, &ChoiceMark)>,
) {
    let want: Vec<Square> = session.round.choosing().map(|(_, s)| s.to_vec()).unwrap_or_default();
    let mut have: Vec<Square> = marks.iter().map(|(_, m)| m.0).collect();
    have.sort();
    let mut sorted = want.clone();
    sorted.sort();
    if have == sorted {
        return;
    }
    for (e, _) in &marks {
        commands.entity(e).despawn();
    }
    let AnyGame::Ctor(g) = &session.game else { return };
    for sq in want {
        commands.spawn((
            Mesh3d(look.ring.clone()),
            MeshMaterial3d(look.colour.clone()),
            Transform::from_translation(cell_pos(&layout, g.cell(sq)).with_y(BOARD_TOP + 0.02))
                .with_scale(Vec3::new(1.0, 0.3, 1.0)),
            ChoiceMark(sq),
            Pickable::IGNORE,
            BoardItem,
            bevy::camera::visibility::RenderLayers::layer(PLAYER_ONLY),
        ));
    }
}
