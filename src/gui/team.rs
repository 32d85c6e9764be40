//! CTOR's team play at one table, as the table shows it (the rounds and seats themselves
//! are `crate::table`'s): the rings on the squares the member choosing has picked, seen at the
//! table only, and the revealed Puts placed one after another once the table rests.

use super::session::{Session, TableIntent};
use super::table::{BOARD_TOP, BoardItem, Layout, cell_pos};
use super::{Mode, TableSystems};
use crate::rules::AnyGame;
use crate::rules::ctor::Square;
use crate::table::{Intent, RoundPhase};
use bevy::prelude::*;

/// The rings on the squares the member choosing has picked: at the table only.
#[derive(Component)]
pub struct ChoiceMark(pub Square);

#[derive(Resource)]
struct Look {
    ring: Handle<Mesh>,
    colour: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(
            PreUpdate,
            place_puts
                .run_if(in_state(Mode::Live).and_then(placing).and_then(not(super::session::animating)))
                .in_set(TableSystems::Pick),
        )
        .add_systems(
            Update,
            choice_marks
                .run_if(resource_exists_and_changed::<Session>.or_else(resource_changed::<Layout>))
                .in_set(TableSystems::Present),
        );
}

/// A team's revealed Puts wait to be placed.
fn placing(session: Option<Res<Session>>) -> bool {
    session.is_some_and(|s| s.round.phase == RoundPhase::Placing)
}

/// Once the table rests, the next revealed Put is placed (or the round goes on, or ends).
fn place_puts(mut intents: MessageWriter<TableIntent>) {
    intents.write(TableIntent(Intent::PlaceNextPut));
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    commands.insert_resource(Look {
        ring: meshes.add(Torus::new(0.3, 0.42)),
        colour: materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.7, 0.95),
            emissive: LinearRgba::rgb(0.1, 0.35, 0.6),
            ..default()
        }),
    });
}

/// Rings on the squares the member choosing has picked, on the player's layer only (never
/// on the broadcast or in the live feed).
fn choice_marks(
    mut commands: Commands,
    session: Res<Session>,
    layout: Res<Layout>,
    look: Res<Look>,
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
            bevy::camera::visibility::RenderLayers::layer(super::table::PLAYER_ONLY),
        ));
    }
}
