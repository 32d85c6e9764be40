//! Input: a pick on a piece or a square becomes a click on its cell, the pointer's hover is
//! marked, and keys become the same commands and views as the buttons.

use super::camera::View;
use super::session::Command;
use super::table::{CellClicked, ShowLabels};
use crate::rules::Cell;
use bevy::prelude::*;

/// Something on the board that a click reaches: the cell it stands on, if any.
pub trait OnCell: Component {
    fn cell(&self) -> Option<Cell>;
}

/// Something under the pointer.
#[derive(Component)]
pub struct Hovered;

/// The observers a pickable board item carries: a click on it is a click on its cell, and
/// the pointer's hover is marked on it.
pub fn pickable<T: OnCell>(entity: &mut EntityCommands) {
    entity.insert(Pickable::default()).observe(on_click::<T>).observe(on_over).observe(on_out);
}

fn on_click<T: OnCell>(click: On<Pointer<Click>>, items: Query<&T>, mut out: MessageWriter<CellClicked>) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Some(c) = items.get(click.entity).ok().and_then(|item| item.cell()) {
        out.write(CellClicked(c));
    }
}

fn on_over(over: On<Pointer<Over>>, mut commands: Commands) {
    commands.entity(over.entity).insert(Hovered);
}

fn on_out(out: On<Pointer<Out>>, mut commands: Commands) {
    if let Ok(mut e) = commands.get_entity(out.entity) {
        e.remove::<Hovered>();
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, keys.in_set(super::TableSystems::Input));
}

/// Keys: camera views (T, 1, 2, R), undo (Ctrl+Z or U), redo (Ctrl+Y), cancel (Escape),
/// heights or square numbers (H or N), pause the computer (P), the evaluation bar (E), a new
/// game (Ctrl+N), the animation speed (F), a hint (I), the computer's pace (C), export (X),
/// copy the position (Ctrl+C), paste (Ctrl+V), CTOR's own secret squares (M). Each button
/// shows its key.
#[allow(clippy::too_many_arguments)]
fn keys(
    input: Res<ButtonInput<KeyCode>>,
    mut views: MessageWriter<View>,
    mut cmds: MessageWriter<Command>,
    mut labels: ResMut<ShowLabels>,
    mut eval: ResMut<super::eval::Evaluation>,
    picking: Option<Res<super::session::Picking>>,
    mut speed: ResMut<super::animate::Speed>,
    mut secret: MessageWriter<super::session::SecretCommand>,
    mut doughnut: ResMut<super::sets::DoughnutView>,
) {
    // While the list of moves is open, the number keys answer it (see `keyboard`).
    let listing = picking.is_some_and(|p| !p.choices.is_empty());
    if input.just_pressed(KeyCode::KeyE) {
        eval.shown = !eval.shown;
    }
    for (key, view) in [
        (KeyCode::KeyT, View::Top),
        (KeyCode::Digit1, View::First),
        (KeyCode::Digit2, View::Second),
        (KeyCode::KeyR, View::Reset),
    ] {
        if input.just_pressed(key) && !(listing && matches!(key, KeyCode::Digit1 | KeyCode::Digit2)) {
            views.write(view);
        }
    }
    let ctrl = input.pressed(KeyCode::ControlLeft) || input.pressed(KeyCode::ControlRight);
    if input.just_pressed(KeyCode::KeyZ) && ctrl || input.just_pressed(KeyCode::KeyU) {
        cmds.write(Command::Undo);
    }
    if input.just_pressed(KeyCode::KeyY) && ctrl {
        cmds.write(Command::Redo);
    }
    for (key, with_ctrl, command) in [
        (KeyCode::KeyN, true, Command::NewGame),
        (KeyCode::KeyC, true, Command::CopyPosition),
        (KeyCode::KeyV, true, Command::Paste),
        (KeyCode::KeyI, false, Command::Hint),
        (KeyCode::KeyC, false, Command::ComputerPace),
        (KeyCode::KeyX, false, Command::Export),
    ] {
        if input.just_pressed(key) && ctrl == with_ctrl {
            cmds.write(command);
        }
    }
    if input.just_pressed(KeyCode::KeyF) {
        *speed = speed.next();
    }
    if input.just_pressed(KeyCode::KeyD) && !ctrl {
        doughnut.0 = !doughnut.0;
    }
    if input.just_pressed(KeyCode::KeyM) && !ctrl {
        secret.write(super::session::SecretCommand::ShowMine);
    }
    if input.just_pressed(KeyCode::Escape) {
        cmds.write(Command::Cancel);
    }
    // P alone is photo mode (photo.rs).
    if input.just_pressed(KeyCode::KeyP) && ctrl {
        cmds.write(Command::PauseComputer);
    }
    if input.just_pressed(KeyCode::KeyH) || input.just_pressed(KeyCode::KeyN) && !ctrl {
        labels.0 = !labels.0;
    }
}
