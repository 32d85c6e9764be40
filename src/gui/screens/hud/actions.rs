//! The table's menu (`K` or *Menu*): every action with its key, in groups.

use super::*;

/// The table's menu: every action with its key, in groups; a press closes it.
pub(super) fn spawn_actions(commands: &mut Commands, game: &AnyGame, spectator: bool) {
    let names = [Side::First, Side::Second].map(|s| crate::table::capital(game.variant().side_name(s)));
    let ctor = matches!(game, AnyGame::Ctor(_));
    let mut groups: Vec<(&str, Vec<(String, Key, usize)>)> = Vec::new();
    let play = |w: &str, k: Key| (w.to_string(), k, 0);
    if !spectator {
        let mut game_actions = vec![
            play("New game", Key::NewGame),
            play("Undo", Key::Undo),
            play("Redo", Key::Redo),
            play("Paste a position or record", Key::Paste),
        ];
        if ctor {
            game_actions.push(play("Start a Landing", Key::Landing));
            game_actions.push(play("My team's secret squares", Key::MySecrets));
        }
        game_actions.push(play("Host this game on the network", Key::Host));
        groups.push(("Game", game_actions));
        groups.push((
            "Computer",
            vec![
                play("Hint", Key::Hint),
                play("Pause or resume the computer", Key::PauseComputer),
                play("The computer's pace", Key::ComputerPace),
                play("Evaluation bar", Key::Evaluation),
            ],
        ));
    } else {
        groups.push(("Computer", vec![play("Evaluation bar", Key::Evaluation)]));
    }
    let mut view = vec![
        play("View from above", Key::ViewTop),
        (format!("{} view", names[0]), Key::ViewFirst, 0),
        (format!("{} view", names[1]), Key::ViewSecond, 0),
        play("Reset the view", Key::ViewReset),
    ];
    match game {
        AnyGame::Volterra(_) => view.push(play("Tower heights", Key::Labels)),
        AnyGame::Ctor(_) => {
            view.push(("Square numbers".into(), Key::Labels, 1));
            view.push(play("The field on the doughnut", Key::Doughnut));
        }
        _ => {}
    }
    view.push(play("Animation speed", Key::Speed));
    view.push(play("Photo mode", Key::Photo));
    view.push(play("Full screen", Key::FullScreen));
    groups.push(("View", view));
    groups.push((
        "Share and stream",
        vec![
            play("Copy the position", Key::CopyPosition),
            play("Copy the address for spectators", Key::CopyWatch),
            play("Export the record and moves", Key::Export),
            play("Open the broadcast window", Key::Broadcast),
            play("Rules", Key::Rules),
            play("Settings", Key::Settings),
            play("Sound off or on", Key::Mute),
        ],
    ));
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                display: Display::None,
                ..default()
            },
            BackgroundColor(Color::BLACK.with_alpha(0.35)),
            GlobalZIndex(18),
            ActionsMenu,
            DespawnOnExit(Screen::Playing),
        ))
        .observe(|mut click: On<Pointer<Click>>, mut open: ResMut<ActionsOpen>| {
            // A click beside the menu closes it.
            click.propagate(false);
            open.0 = false;
        })
        .with_children(|shade| {
            shade
                .spawn((
                    theme::panel_node(|n| {
                        n.padding = UiRect::all(px(16));
                        n.max_width = percent(94);
                    }),
                    BackgroundColor(colour::PAGE),
                ))
                .observe(|mut click: On<Pointer<Click>>| click.propagate(false))
                .with_children(|p| {
                    p.spawn(bold("Menu", size::TITLE, colour::TEXT));
                    p.spawn((text("", size::SMALL, colour::MUTED), HudText::Speed));
                    p.spawn((
                        Node {
                            flex_direction: FlexDirection::Row,
                            column_gap: px(18),
                            margin: UiRect::top(px(6)),
                            ..default()
                        },
                        Pickable::IGNORE,
                    ))
                    .with_children(|cols| {
                        for (name, actions) in groups {
                            cols.spawn((Node { flex_direction: FlexDirection::Column, ..default() }, Pickable::IGNORE))
                                .with_children(|col| {
                                    col.spawn((
                                        bold(name, size::BODY, colour::MUTED),
                                        Node { margin: UiRect::vertical(px(4)), ..default() },
                                    ));
                                    for (words, key, i) in actions {
                                        action_row(col, &words, key, i);
                                    }
                                });
                        }
                    });
                    p.spawn((
                        text(
                            "K or Escape closes this; Tab and the arrows walk it, Enter presses.",
                            size::SMALL,
                            colour::MUTED,
                        ),
                        Node { margin: UiRect::top(px(8)), ..default() },
                    ));
                });
        });
}

/// A row of the table's menu: the action's words, its key at the right.
fn action_row(p: &mut ChildSpawnerCommands, words: &str, key: Key, i: usize) {
    p.spawn((
        Button,
        Node {
            justify_content: JustifyContent::SpaceBetween,
            column_gap: px(14),
            padding: UiRect::axes(px(10), px(4)),
            margin: UiRect::vertical(px(1)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(colour::CONTROL),
        children![text(words, size::BODY, colour::TEXT), mono(keymap::shown(key, i), size::SMALL, colour::MUTED)],
    ))
    .observe(on_press(Action::Key(key)));
}

/// `K` opens and closes the table's menu; Escape closes it.
pub(super) fn actions_key(mut pressed: MessageReader<Pressed>, mut open: ResMut<ActionsOpen>) {
    for Pressed(action) in pressed.read() {
        match action {
            Key::Actions => open.0 = !open.0,
            Key::Cancel if open.0 => open.0 = false,
            _ => {}
        }
    }
}

pub(super) fn show_actions(open: Res<ActionsOpen>, mut menus: Query<&mut Node, With<ActionsMenu>>) {
    for mut node in &mut menus {
        node.display = if open.0 { Display::Flex } else { Display::None };
    }
}
