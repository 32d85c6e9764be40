//! On-screen information at the table, calm by default: whose turn (the side's colour and the
//! player's name), the last move, the game's figures in words (Volterra's towers drawn small),
//! the computer thinking, the move list (clickable in a replay), and at most six controls
//! (Undo, Hint, View, the game's own End turn, Rules, Menu). Everything else is in the table's
//! menu (`K` or *Menu*): every action with its key, the keymap's. Besides: the chooser for
//! ambiguous clicks, the result banner, the replay's timeline, CTOR's hand-over screens.

use crate::gui::frame::animate::Speed;
use crate::gui::frame::clock::CtorTable;
use crate::gui::frame::keymap::{self, Action as Key, Pressed};
use crate::gui::frame::session::SecretCommand;
use crate::gui::frame::session::{Command, Notice, Picking, Session};
use crate::gui::frame::steps::{Mode, Screen, TableSystems};
use crate::gui::theme::{self, bold, colour, mono, size, text};
use crate::rules::{AnyGame, Game, Side};
use crate::table::SecretPhase;
use crate::table::words::{banner_line, ctor_turn_line, figures};
use actions::{actions_key, show_actions, spawn_actions};
use bevy::prelude::*;
use screens::{refresh_chooser, seat_buttons, secret_screens, spawn_chooser_and_banner, spawn_secret_screens};

mod actions;
mod screens;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum HudText {
    /// "Light to move", or the result.
    Turn,
    /// The player on turn.
    Player,
    LastMove,
    Thinking,
    /// CTOR's turn: what is left of it, the sand-glass.
    TurnLeft,
    /// A side's figures in words.
    Figures(Side),
    Message,
    /// The table's menu's line: the animation's speed, the computer's pace, the live feed.
    Speed,
    Banner,
    /// CTOR team play: the members, their Puts left, the seat acting.
    Seats,
}

/// The swatch of the side on turn.
#[derive(Component)]
struct TurnSwatch;

/// Volterra's towers drawn small, a row a side.
#[derive(Component)]
struct Skyline(Side);

/// CTOR team play: the buttons for members leaving and players joining, rebuilt when the
/// seats change.
#[derive(Component)]
struct SeatButtons;

#[derive(Component)]
struct Chooser;

/// CTOR's *End turn* button, marked when ending the turn is all that is left.
#[derive(Component)]
pub struct EndTurnButton;

/// The move list's rows, rebuilt when the moves change.
#[derive(Component)]
struct MoveRows;

/// The table's menu: every action with its key.
#[derive(Component)]
pub struct ActionsMenu;

/// Whether the table's menu is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionsOpen(pub bool);

/// What a button sends: the action of its key (the keymap's), or a command or a step of the
/// hand-over screens that no key has.
#[derive(Clone, Debug)]
enum Action {
    Key(Key),
    Cmd(Command),
    Secret(SecretCommand),
}

/// The opaque screen between teams while secret squares are chosen, and the Done panel.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum SecretScreen {
    HandOver,
    Choosing,
    /// Team play: a member chooses their blind Puts.
    PutsChoosing,
}

pub fn plugin(app: &mut App) {
    app.add_plugins(crate::gui::look::coords::plugin)
        .init_resource::<ActionsOpen>()
        .add_systems(
            OnEnter(Screen::Playing),
            (spawn_hud, crate::gui::stream::eval::spawn_table_bar).run_if(resource_exists::<Session>),
        )
        .add_systems(OnEnter(Mode::Replay), spawn_timeline)
        .add_systems(PreUpdate, actions_key.in_set(TableSystems::Input))
        .add_systems(
            Update,
            (
                refresh_texts,
                refresh_chooser,
                secret_screens,
                seat_buttons.run_if(resource_exists_and_changed::<Session>),
                end_turn_left
                    .run_if(resource_exists_and_changed::<Session>.or_else(any_match_filter::<Added<EndTurnButton>>)),
                move_rows,
                skyline.run_if(resource_exists_and_changed::<Session>.or_else(any_match_filter::<Added<Skyline>>)),
                show_actions.run_if(resource_changed::<ActionsOpen>),
            )
                .in_set(TableSystems::Present),
        );
}

/// A button's words with its key, as the keymap has it ("Undo (U)").
fn labelled(words: &str, key: Key, i: usize) -> String {
    format!("{words} ({})", keymap::shown(key, i))
}

/// A button that does what its key does, and shows the key (the `i`th of the action's).
fn key_button(parent: &mut ChildSpawnerCommands, words: &str, key: Key, i: usize) -> Entity {
    spawn_button(parent, &labelled(words, key, i), Action::Key(key))
}

fn spawn_button(parent: &mut ChildSpawnerCommands, label: &str, action: Action) -> Entity {
    spawn_button_sized(parent, label, action, size::BODY)
}

fn spawn_button_sized(parent: &mut ChildSpawnerCommands, label: &str, action: Action, words: f32) -> Entity {
    let id = theme::styled_button(parent, label, words, (6.0, 3.0), colour::CONTROL).id();
    parent.commands().entity(id).observe(on_press(action));
    id
}

/// What a press of a button with `action` sends; the table's menu closes after it.
#[allow(clippy::type_complexity)]
fn on_press(
    action: Action,
) -> impl FnMut(
    On<Pointer<Click>>,
    MessageWriter<Command>,
    MessageWriter<Pressed>,
    MessageWriter<SecretCommand>,
    ResMut<ActionsOpen>,
) {
    move |_: On<Pointer<Click>>,
          mut cmds: MessageWriter<Command>,
          mut keys: MessageWriter<Pressed>,
          mut secret: MessageWriter<SecretCommand>,
          mut open: ResMut<ActionsOpen>| {
        match &action {
            Action::Key(Key::Actions) => {
                open.0 = !open.0;
                return;
            }
            Action::Key(key) => {
                keys.write(Pressed(*key));
            }
            Action::Secret(c) => {
                secret.write(*c);
            }
            Action::Cmd(c) => {
                cmds.write(c.clone());
            }
        }
        if open.0 {
            open.0 = false;
        }
    }
}

/// When ending the turn is all a person can still do in CTOR, *End turn* is marked (its
/// colour and its words; see [`Session::only_end_left`]).
#[allow(clippy::type_complexity)]
fn end_turn_left(
    session: Res<Session>,
    mut buttons: Query<(&mut BackgroundColor, &Children), With<EndTurnButton>>,
    mut texts: Query<&mut Text>,
) {
    let only = session.only_end_left();
    let (fill, words) =
        if only { (colour::PRIMARY, "End turn now (Space)") } else { (colour::CONTROL, "End turn (Space)") };
    for (mut bg, children) in &mut buttons {
        if bg.0 != fill {
            bg.0 = fill;
        }
        for child in children {
            if let Ok(mut t) = texts.get_mut(*child)
                && t.0 != words
            {
                t.0 = words.to_string();
            }
        }
    }
}

/// A panel's look, and its lifetime: the table's screen.
fn panel() -> impl Bundle + Clone {
    (BackgroundColor(colour::SURFACE), Pickable::IGNORE, DespawnOnExit(Screen::Playing))
}

fn absolute(f: impl FnOnce(&mut Node)) -> Node {
    theme::panel_node(|node| {
        node.position_type = PositionType::Absolute;
        f(node);
    })
}

/// The panels of the table: the state of the game, the moves, the controls, the table's
/// menu, the chooser, the result banner and CTOR's secret-square screens.
fn spawn_hud(mut commands: Commands, session: Res<Session>, mut open: ResMut<ActionsOpen>) {
    open.0 = false;
    spawn_state_panel(&mut commands);
    spawn_moves_panel(&mut commands);
    spawn_controls(&mut commands, &session.game, session.spectator);
    spawn_actions(&mut commands, &session.game, session.spectator);
    spawn_chooser_and_banner(&mut commands);
    spawn_secret_screens(&mut commands);
}

/// Top left: whose turn, the last move, the computer thinking, the figures, the message line.
fn spawn_state_panel(commands: &mut Commands) {
    commands
        .spawn((
            absolute(|n| {
                n.top = px(12);
                n.left = px(12);
                n.width = px(330);
            }),
            panel(),
        ))
        .with_children(|p| {
            p.spawn((Node { align_items: AlignItems::Center, ..default() }, Pickable::IGNORE)).with_children(|row| {
                row.spawn((theme::swatch(16.0), TurnSwatch));
                row.spawn((bold("", size::TITLE, colour::TEXT), HudText::Turn));
            });
            p.spawn((text("", size::BODY, colour::MUTED), HudText::Player));
            p.spawn((text("", size::BODY, colour::TEXT), HudText::LastMove)).with_child((
                TextSpan::new(""),
                TextFont { font: theme::MONO.into(), font_size: FontSize::Px(size::BODY), ..default() },
                TextColor(colour::TEXT),
            ));
            p.spawn((text("", size::BODY, colour::NOTICE), HudText::Thinking));
            p.spawn((text("", size::BODY, colour::TEXT), HudText::TurnLeft));
            for side in [Side::First, Side::Second] {
                p.spawn((Node { align_items: AlignItems::FlexEnd, column_gap: px(10), ..default() }, Pickable::IGNORE))
                    .with_children(|row| {
                        row.spawn((text("", size::BODY, colour::TEXT), HudText::Figures(side)));
                        row.spawn((
                            Node { align_items: AlignItems::FlexEnd, column_gap: px(2), ..default() },
                            Pickable::IGNORE,
                            Skyline(side),
                        ));
                    });
            }
            // Words wrap as words; a link longer than the panel (a seat's invitation) wraps too.
            p.spawn((
                text("", size::BODY, colour::NOTICE),
                TextLayout::linebreak(LineBreak::WordOrCharacter),
                HudText::Message,
            ));
            p.spawn((text("", size::SMALL, colour::INFO), HudText::Seats));
            p.spawn((Node { flex_wrap: FlexWrap::Wrap, ..default() }, SeatButtons, Pickable::IGNORE));
        });
}

/// Right: the moves, numbered, the current one marked.
fn spawn_moves_panel(commands: &mut Commands) {
    commands
        .spawn((
            absolute(|n| {
                n.top = px(12);
                n.right = px(12);
                n.width = px(196);
                n.max_height = percent(72);
                n.overflow = Overflow::clip();
            }),
            panel(),
        ))
        .with_children(|p| {
            p.spawn(bold("Moves", size::LABEL, colour::MUTED));
            p.spawn((Node { flex_direction: FlexDirection::Column, ..default() }, MoveRows, Pickable::IGNORE));
        });
}

/// A row of buttons on a panel, centred across the bottom of the window `bottom` pixels up,
/// gone with `gone` (a `DespawnOnExit`).
fn bottom_bar(
    commands: &mut Commands,
    bottom: f32,
    gone: impl Bundle,
    buttons: impl FnOnce(&mut ChildSpawnerCommands),
) {
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                bottom: px(bottom),
                width: percent(100),
                justify_content: JustifyContent::Center,
                ..default()
            },
            Pickable::IGNORE,
            gone,
        ))
        .with_children(|bar| {
            bar.spawn((
                theme::panel_node(|n| {
                    n.flex_direction = FlexDirection::Row;
                    n.padding = UiRect::all(px(5));
                    n.column_gap = px(2);
                }),
                BackgroundColor(colour::SURFACE),
                Pickable::IGNORE,
            ))
            .with_children(buttons);
        });
}

/// Bottom centre: the few controls a player needs while playing; a spectator's only look.
fn spawn_controls(commands: &mut Commands, game: &AnyGame, spectator: bool) {
    bottom_bar(commands, 12.0, DespawnOnExit(Screen::Playing), |p| {
        if !spectator {
            key_button(p, "Undo", Key::Undo, 0);
            key_button(p, "Hint", Key::Hint, 0);
        }
        key_button(p, "View", Key::ViewNext, 0);
        if matches!(game, AnyGame::Ctor(_)) && !spectator {
            let end = spawn_button(p, &labelled("End turn", Key::Space, 0), Action::Cmd(Command::EndTurn));
            p.commands().entity(end).insert(EndTurnButton);
        }
        key_button(p, "Rules", Key::Rules, 0);
        key_button(p, "Menu", Key::Actions, 0);
    });
}

/// The replay's timeline, while a record is watched.
fn spawn_timeline(mut commands: Commands) {
    bottom_bar(&mut commands, 64.0, DespawnOnExit(Mode::Replay), |p| {
        spawn_button(p, "|<", Action::Cmd(Command::Jump(0)));
        spawn_button(p, "<", Action::Cmd(Command::Undo));
        spawn_button(p, ">", Action::Cmd(Command::StepForward));
        spawn_button(p, ">|", Action::Cmd(Command::Jump(usize::MAX)));
        spawn_button(p, "Play / pause", Action::Cmd(Command::TogglePlay));
        spawn_button(p, "Pace", Action::Cmd(Command::Pace));
        spawn_button(p, "Play on from here", Action::Cmd(Command::PlayOn));
        spawn_button(p, "Review", Action::Cmd(Command::Review));
    });
}

/// The message line: the secret-square prompt, the replay's help, or the notice and a failing save.
fn message_line(session: &Session, notice: &Notice) -> String {
    match Mode::from(session.mode()) {
        Mode::Secrets => session.secrets.prompt(session.game.variant()).unwrap_or_default(),
        Mode::Live if session.round_prompt().is_some() => {
            let prompt = session.round_prompt().unwrap_or_default();
            if notice.0.is_empty() { prompt } else { format!("{prompt}\n{}", notice.0) }
        }
        Mode::Replay if notice.0.is_empty() => {
            let total = session.history.len() + session.redo.len();
            format!("Replay: move {} of {}. Step with the timeline or click a move.", session.history.len(), total)
        }
        _ => session.status(&notice.0),
    }
}

/// Whose turn in words: "Light to move", the result, or the replay.
fn turn_words(session: &Session) -> (String, String) {
    let game = &session.game;
    let v = game.variant();
    let name = |side: Side| {
        let name = session.record.players.get(side.index()).map(|p| p.name.clone()).unwrap_or_default();
        crate::table::capital(&name)
    };
    match game.outcome() {
        Some(o) => match o.winner {
            Some(w) => (format!("{} wins", crate::table::capital(v.side_name(w))), name(w)),
            None => ("A draw".into(), String::new()),
        },
        None => {
            let side = game.side_to_move();
            let player = match session.team_status_line() {
                Some(team) => team.split_once(": ").map(|(_, r)| r.to_string()).unwrap_or(team),
                None => name(side),
            };
            (format!("{} to move", crate::table::capital(v.side_name(side))), player)
        }
    }
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn refresh_texts(
    session: Res<Session>,
    picking: Res<Picking>,
    notice: Res<Notice>,
    mode: Res<State<Mode>>,
    speed: Res<Speed>,
    pace: Res<crate::gui::frame::computer::ComputerPace>,
    thinking: Option<Res<crate::gui::frame::computer::ComputerThinking>>,
    table: Res<CtorTable>,
    live: Res<crate::gui::stream::feed::LiveFeed>,
    settings: Option<Res<crate::settings::Settings>>,
    mut texts: Query<(&HudText, &mut Text, Option<&Children>)>,
    mut spans: Query<&mut TextSpan>,
    mut banner: Query<&mut Visibility, (With<Node>, Without<Chooser>, Without<HudText>)>,
    mut swatch: Query<&mut BackgroundColor, With<TurnSwatch>>,
    parents: Query<(&HudText, &ChildOf)>,
) {
    let reduced = settings.as_ref().is_some_and(|s| s.reduced_motion);
    let changed = session.is_changed() || picking.is_changed() || notice.is_changed() || mode.is_changed();
    if !changed
        && !speed.is_changed()
        && !table.is_changed()
        && !pace.is_changed()
        && !live.is_changed()
        && !thinking.as_ref().is_some_and(|t| t.is_changed())
        && !settings.as_ref().is_some_and(|s| s.is_changed())
    {
        return;
    }
    // The table's own mode (the state follows it a frame later).
    let mode = Mode::from(session.mode());
    let shown = picking.shown(&session.game);
    let banner_text = banner_line(&session.game);
    let (turn, player) = turn_words(&session);
    let figures = figures(&shown, &session.start);
    let last = session.history.last().map(|(_, m)| m.to_string());
    let computer = thinking.as_ref().is_some_and(|t| t.0) && session.game.outcome().is_none();
    for (kind, mut t, children) in &mut texts {
        let s = match kind {
            HudText::Turn if mode == Mode::Replay => format!("{}: replay", session.game.variant().title()),
            HudText::Turn => turn.clone(),
            HudText::Player => player.clone(),
            HudText::LastMove => {
                let (words, notation) = match &last {
                    Some(m) => ("Last move: ".to_string(), m.clone()),
                    None => ("No move yet".to_string(), String::new()),
                };
                for child in children.into_iter().flatten() {
                    if let Ok(mut span) = spans.get_mut(*child)
                        && span.0 != notation
                    {
                        span.0 = notation.clone();
                    }
                }
                words
            }
            HudText::Thinking if computer => {
                // Its level where it is the computer's turn; a hint's search is master's.
                let who = match session.to_move() {
                    Some(kind) if kind != crate::table::PlayerKind::Person => kind.label(),
                    _ => "computer".into(),
                };
                format!("The {who} is thinking\u{2026}")
            }
            HudText::Thinking => String::new(),
            HudText::TurnLeft => ctor_turn_line(&session, table.clock).unwrap_or_default(),
            HudText::Figures(side) => figures[side.index()].clone(),
            HudText::Message => message_line(&session, &notice),
            HudText::Seats => session.seats_line().unwrap_or_default(),
            HudText::Speed => {
                let reduced = if reduced { " (reduced motion)" } else { "" };
                let feed = live.url().map(|url| format!("; live feed: {url}/overlay")).unwrap_or_default();
                format!("Animation: {}{reduced}; {}{feed}", speed.label(), pace.label())
            }
            HudText::Banner => banner_text.clone().unwrap_or_default(),
        };
        if t.0 != s {
            t.0 = s;
        }
    }
    let side_colour = match session.game.outcome() {
        Some(o) => o.winner.map(|w| theme::side_colour(session.game.variant(), w)).unwrap_or(Color::NONE),
        None => theme::side_colour(session.game.variant(), session.game.side_to_move()),
    };
    for mut bg in &mut swatch {
        if bg.0 != side_colour {
            bg.0 = side_colour;
        }
    }
    for (kind, child_of) in &parents {
        if *kind == HudText::Banner
            && let Ok(mut vis) = banner.get_mut(child_of.parent())
        {
            let want = if banner_text.is_some() { Visibility::Inherited } else { Visibility::Hidden };
            if *vis != want {
                *vis = want;
            }
        }
    }
}

/// Volterra's towers drawn small: a bar a tower, as tall as the tower, in the side's colour.
fn skyline(
    mut commands: Commands,
    session: Res<Session>,
    rows: Query<(Entity, &Skyline)>,
    new_rows: Query<(), Added<Skyline>>,
    mut shown: Local<Vec<Vec<u8>>>,
) {
    let AnyGame::Volterra(g) = &session.game else { return };
    let heights: Vec<Vec<u8>> = [Side::First, Side::Second].iter().map(|s| g.heights(*s)).collect();
    // Drawn again when the towers change, or on a panel spawned anew (a table entered again).
    if *shown == heights && new_rows.is_empty() {
        return;
    }
    *shown = heights.clone();
    for (row, side) in &rows {
        commands.entity(row).despawn_children();
        let colour = theme::side_colour(session.game.variant(), side.0);
        commands.entity(row).with_children(|p| {
            for h in heights[side.0.index()].iter().take(24) {
                p.spawn((
                    Node {
                        width: px(5),
                        height: px(3.0 + 3.0 * f32::from(*h).min(8.0)),
                        border_radius: BorderRadius::top(px(1)),
                        ..default()
                    },
                    BackgroundColor(colour),
                    Pickable::IGNORE,
                ));
            }
        });
    }
}

/// The move list: the last moves, a row a turn pair, numbered, the current move marked; in a
/// replay each move is a button that jumps there (with the review's marks).
fn move_rows(
    mut commands: Commands,
    session: Res<Session>,
    review: Option<Res<crate::gui::stream::eval::Review>>,
    panel: Query<Entity, With<MoveRows>>,
    mut shown: Local<Option<(Entity, usize, usize, bool)>>,
) {
    let Ok(panel) = panel.single() else { return };
    let replay = session.replay.is_some();
    let at = session.history.len();
    let total = at + session.redo.len();
    let key = Some((panel, at, total, replay));
    if *shown == key && !review.as_ref().is_some_and(|r| r.is_changed()) {
        return;
    }
    *shown = key;
    commands.entity(panel).despawn_children();
    let moves: Vec<String> = session.record.moves.iter().take(total).map(|m| m.mv.to_string()).collect();
    // Pairs around the current move: the last 14 while playing, 7 either side in a replay.
    let pair_at = at.saturating_sub(1) / 2;
    let pairs = moves.len().div_ceil(2);
    let first = if replay { pair_at.saturating_sub(7) } else { pairs.saturating_sub(14) };
    let created = session.record.created_ms;
    commands.entity(panel).with_children(|p| {
        if moves.is_empty() {
            p.spawn(text("No moves yet", size::BODY, colour::MUTED));
        }
        for pair in first..pairs.min(first + 14) {
            // A row of fixed height; the number and the moves on one line each, never wrapped.
            let line = Node { align_items: AlignItems::Center, height: px(20), flex_shrink: 0.0, ..default() };
            p.spawn((line, Pickable::IGNORE)).with_children(|row| {
                row.spawn((
                    mono(format!("{}.", pair + 1), size::SMALL, colour::MUTED),
                    TextLayout::no_wrap(),
                    Node { width: px(30), ..default() },
                ));
                for i in [2 * pair, 2 * pair + 1] {
                    let Some(mv) = moves.get(i) else { continue };
                    let judged = review.as_ref().and_then(|r| r.mark(created, i + 1)).unwrap_or("");
                    let current = i + 1 == at;
                    let fill = if current { colour::CHOSEN } else { Color::NONE };
                    let mut cell = row.spawn((
                        Node {
                            width: px(74),
                            padding: UiRect::axes(px(4), px(1)),
                            border_radius: BorderRadius::all(px(4)),
                            overflow: Overflow::clip(),
                            ..default()
                        },
                        BackgroundColor(fill),
                        children![(mono(format!("{mv}{judged}"), size::SMALL, colour::TEXT), TextLayout::no_wrap())],
                    ));
                    if replay {
                        cell.insert(Button).observe(on_press(Action::Cmd(Command::Jump(i + 1))));
                    } else {
                        cell.insert(Pickable::IGNORE);
                    }
                }
            });
        }
    });
}
