//! Play by keyboard: the arrow keys move a cursor over the board's cells (a1 first), `Enter`
//! clicks the cell under it (the same `CellClicked` a pick sends, so the picker, the refusals
//! and the animations are the same), `Tab` jumps to the next piece that can move (or, with a
//! piece chosen, to the next square it can go to; `Shift+Tab` goes back), the number keys
//! answer the list when a click fits several moves, `Space` ends a CTOR turn and `L` starts a
//! Landing. The cursor is an orange frame around its cell, shown once a key has moved it.

use super::session::{Command, Picking, Session};
use super::table::{CellClicked, Layout, PLAYER_ONLY, cell_pos};
use super::{Screen, TableSystems};
use crate::rules::{AnyGame, Cell};
use bevy::prelude::*;

/// Where the keyboard's cursor is, if a key has placed it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor(pub Option<Cell>);

/// The frame that shows the cursor.
#[derive(Component)]
struct CursorMark;

pub fn plugin(app: &mut App) {
    app.init_resource::<Cursor>()
        .add_systems(OnEnter(Screen::Playing), spawn_mark)
        .add_systems(Update, keys.run_if(resource_exists::<ButtonInput<KeyCode>>).in_set(TableSystems::Input))
        .add_systems(Update, show.in_set(TableSystems::Present));
}

fn spawn_mark(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut cursor: ResMut<Cursor>,
) {
    cursor.0 = None;
    // A frame of four bars around the cell: seen over any highlight, by its shape too.
    let mut bar = |w: f32, d: f32| meshes.add(Cuboid::new(w, 0.06, d));
    let (long, wide) = (bar(1.0, 0.09), bar(0.09, 1.0));
    let material = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.55, 0.0),
        emissive: LinearRgba::rgb(0.9, 0.4, 0.0),
        unlit: true,
        ..default()
    });
    let layer = bevy::camera::visibility::RenderLayers::layer(PLAYER_ONLY);
    commands
        .spawn((Transform::default(), Visibility::Hidden, layer.clone(), CursorMark, DespawnOnExit(Screen::Playing)))
        .with_children(|frame| {
            for (mesh, x, z) in [(&long, 0.0, 0.46), (&long, 0.0, -0.46), (&wide, 0.46, 0.0), (&wide, -0.46, 0.0)] {
                frame.spawn((
                    Mesh3d(mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    Transform::from_xyz(x, 0.0, z),
                    layer.clone(),
                    Pickable::IGNORE,
                ));
            }
        });
}

fn on_board(game: &AnyGame, c: Cell) -> bool {
    let (files, ranks) = game.board_size();
    c.file < files && c.rank < ranks
}

/// The next of `cells` after `now` (before it, `back`), going round.
fn cycle(cells: &[Cell], now: Option<Cell>, back: bool) -> Option<Cell> {
    if cells.is_empty() {
        return None;
    }
    let i = now.and_then(|c| cells.iter().position(|x| *x == c));
    let n = cells.len();
    let j = match (i, back) {
        (None, false) => 0,
        (None, true) => n - 1,
        (Some(i), false) => (i + 1) % n,
        (Some(i), true) => (i + n - 1) % n,
    };
    Some(cells[j])
}

#[allow(clippy::too_many_arguments)]
fn keys(
    input: Res<ButtonInput<KeyCode>>,
    session: Option<Res<Session>>,
    picking: Res<Picking>,
    mut cursor: ResMut<Cursor>,
    mut clicks: MessageWriter<CellClicked>,
    mut cmds: MessageWriter<Command>,
) {
    let Some(session) = session else { return };
    let game = picking.shown(&session.game);
    // The arrows: a1 first, then a cell at a time, staying on the board.
    for (key, df, dr) in [
        (KeyCode::ArrowLeft, -1i32, 0i32),
        (KeyCode::ArrowRight, 1, 0),
        (KeyCode::ArrowUp, 0, 1),
        (KeyCode::ArrowDown, 0, -1),
    ] {
        if input.just_pressed(key) {
            cursor.0 = Some(match cursor.0 {
                None => Cell::new(0, 0),
                Some(c) => {
                    let next = Cell::new((c.file as i32 + df).max(0) as u8, (c.rank as i32 + dr).max(0) as u8);
                    if on_board(&game, next) { next } else { c }
                }
            });
        }
    }
    if input.just_pressed(KeyCode::Tab) {
        let back = input.pressed(KeyCode::ShiftLeft) || input.pressed(KeyCode::ShiftRight);
        let targets = picking.picker.targets(&session.game);
        let cells: Vec<Cell> = if picking.picker.selected.is_some() && !targets.is_empty() {
            targets.into_iter().collect()
        } else {
            picking.picker.selectable(&session.game).into_iter().collect()
        };
        if let Some(c) = cycle(&cells, cursor.0, back) {
            cursor.0 = Some(c);
        }
    }
    if (input.just_pressed(KeyCode::Enter) || input.just_pressed(KeyCode::NumpadEnter))
        && let Some(c) = cursor.0
    {
        clicks.write(CellClicked(c));
    }
    // The list of moves a click fits: 1 to 9.
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    for (i, key) in digits.iter().enumerate() {
        if input.just_pressed(*key)
            && let Some((_, part)) = picking.choices.get(i)
        {
            cmds.write(Command::Choose(part.clone()));
        }
    }
    if matches!(session.game, AnyGame::Ctor(_)) {
        if input.just_pressed(KeyCode::Space) {
            cmds.write(Command::EndTurn);
        }
        if input.just_pressed(KeyCode::KeyL) {
            cmds.write(Command::Landing);
        }
    }
}

/// The cursor's frame follows it.
fn show(
    cursor: Res<Cursor>,
    layout: Res<Layout>,
    mut marks: Query<(&mut Transform, &mut Visibility), With<CursorMark>>,
) {
    if !cursor.is_changed() && !layout.is_changed() {
        return;
    }
    for (mut tf, mut vis) in &mut marks {
        match cursor.0 {
            Some(c) => {
                tf.translation = cell_pos(&layout, c) + Vec3::Y * 0.02;
                *vis = Visibility::Inherited;
            }
            None => *vis = Visibility::Hidden,
        }
    }
}
