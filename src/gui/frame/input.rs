//! Input: keys become the same commands and views as the buttons (a pick on a piece or a
//! square becomes a click on its cell through the observers of `board::pickable`).

use crate::gui::frame::board::ShowLabels;
use crate::gui::frame::keymap::{Action, Pressed};
use crate::gui::frame::session::Command;
use crate::gui::look::camera::View;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, keys.in_set(crate::gui::frame::steps::TableSystems::Input));
}

/// The table's keys (see `keymap`): camera views, undo and redo, cancel, heights or square
/// numbers, the computer's pause, pace and hint, the evaluation bar, a new game, the animation
/// speed, export, copy and paste, CTOR's doughnut and own secret squares. The buttons that show
/// these keys send the same actions.
#[allow(clippy::too_many_arguments)]
fn keys(
    mut pressed: MessageReader<Pressed>,
    mut views: MessageWriter<View>,
    mut cmds: MessageWriter<Command>,
    mut labels: ResMut<ShowLabels>,
    mut eval: ResMut<crate::gui::stream::eval::Evaluation>,
    mut speed: ResMut<crate::gui::frame::animate::Speed>,
    mut secret: MessageWriter<crate::gui::frame::session::SecretCommand>,
    mut doughnut: ResMut<crate::gui::sets::room::DoughnutView>,
    mut next_view: Local<usize>,
) {
    for Pressed(action) in pressed.read() {
        match action {
            Action::Evaluation => eval.shown = !eval.shown,
            Action::ViewTop => {
                views.write(View::Top);
            }
            Action::ViewFirst => {
                views.write(View::First);
            }
            Action::ViewSecond => {
                views.write(View::Second);
            }
            Action::ViewReset => {
                views.write(View::Reset);
            }
            Action::ViewNext => {
                *next_view = (*next_view + 1) % 3;
                views.write([View::First, View::Second, View::Top][*next_view]);
            }
            Action::Speed => *speed = speed.next(),
            Action::Doughnut => doughnut.0 = !doughnut.0,
            Action::MySecrets => {
                secret.write(crate::gui::frame::session::SecretCommand::ShowMine);
            }
            Action::Labels => labels.0 = !labels.0,
            _ => {
                let command = match action {
                    Action::Undo => Command::Undo,
                    Action::Redo => Command::Redo,
                    Action::NewGame => Command::NewGame,
                    Action::CopyPosition => Command::CopyPosition,
                    Action::Paste => Command::Paste,
                    Action::Hint => Command::Hint,
                    Action::ComputerPace => Command::ComputerPace,
                    Action::Export => Command::Export,
                    Action::Cancel => Command::Cancel,
                    Action::PauseComputer => Command::PauseComputer,
                    Action::Agree => Command::Agree,
                    Action::Host => Command::Host,
                    Action::CopyWatch => Command::CopyWatch,
                    _ => continue,
                };
                cmds.write(command);
            }
        }
    }
}
