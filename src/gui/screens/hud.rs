//! On-screen information: whose turn, the score, the message line, the move list, the
//! buttons, the chooser for ambiguous clicks, the result banner, the replay's timeline, and
//! labels kept over points of the board (coordinates, heights, square numbers).

use crate::gui::frame::animate::Speed;
use crate::gui::frame::clock::CtorTable;
use crate::gui::frame::keymap::{self, Action as Key, Pressed};
use crate::gui::frame::session::SecretCommand;
use crate::gui::frame::session::{Command, Notice, Picking, Session};
use crate::gui::frame::steps::{Mode, Screen, TableSystems};
use crate::rules::{AnyGame, Game, Side};
use crate::table::SecretPhase;
use crate::table::words::{banner_line, move_list, score_line, status_line};
use bevy::prelude::*;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum HudText {
    Status,
    Captured,
    Message,
    Moves,
    Speed,
    Banner,
    /// CTOR team play: the members, their Puts left, the seat acting.
    Seats,
}

/// CTOR team play: the buttons for members leaving and players joining, rebuilt when the
/// seats change.
#[derive(Component)]
struct SeatButtons;

#[derive(Component)]
struct Chooser;

/// CTOR's *End turn* button, marked when ending the turn is all that is left.
#[derive(Component)]
pub struct EndTurnButton;

/// The replay's column of moves that can be clicked to jump there.
#[derive(Component)]
struct ReplayMoves;

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
        .add_systems(
            OnEnter(Screen::Playing),
            (spawn_hud, crate::gui::stream::eval::spawn_table_bar).run_if(resource_exists::<Session>),
        )
        .add_systems(OnEnter(Mode::Replay), spawn_timeline)
        .add_systems(
            Update,
            (
                refresh_texts,
                refresh_chooser,
                secret_screens,
                seat_buttons.run_if(resource_exists_and_changed::<Session>),
                end_turn_left
                    .run_if(resource_exists_and_changed::<Session>.or_else(any_match_filter::<Added<EndTurnButton>>)),
                replay_moves.run_if(in_state(Mode::Replay)),
            )
                .in_set(TableSystems::Present),
        );
}

fn text(s: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour), Pickable::IGNORE)
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
    spawn_button_sized(parent, label, action, 13.0)
}

fn spawn_button_sized(parent: &mut ChildSpawnerCommands, label: &str, action: Action, size: f32) -> Entity {
    parent
        .spawn((
            Button,
            Node {
                padding: UiRect::axes(px(7), px(5)),
                margin: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.12, 0.1, 0.08, 0.85)),
            children![text(label, size, Color::srgb(0.95, 0.92, 0.85))],
        ))
        .observe(
            move |_: On<Pointer<Click>>,
                  mut cmds: MessageWriter<Command>,
                  mut keys: MessageWriter<Pressed>,
                  mut secret: MessageWriter<SecretCommand>| {
                match &action {
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
            },
        )
        .id()
}

/// The colour of a button that marks what is left to do.
const ONLY_LEFT: Color = Color::srgb(0.2, 0.45, 0.15);

/// When ending the turn is all a person can still do in CTOR, *End turn* is marked (its
/// colour and its words; see [`Session::only_end_left`]).
#[allow(clippy::type_complexity)]
fn end_turn_left(
    session: Res<Session>,
    mut buttons: Query<(&mut BackgroundColor, &Children), With<EndTurnButton>>,
    mut texts: Query<&mut Text>,
) {
    let only = session.only_end_left();
    let (colour, words) = if only {
        (ONLY_LEFT, "\u{25B6} End turn (Space)")
    } else {
        (Color::srgba(0.12, 0.1, 0.08, 0.85), "End turn (Space)")
    };
    for (mut bg, children) in &mut buttons {
        if bg.0 != colour {
            bg.0 = colour;
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
    (BackgroundColor(Color::srgba(0.05, 0.04, 0.03, 0.7)), Pickable::IGNORE, DespawnOnExit(Screen::Playing))
}

fn absolute(f: impl FnOnce(&mut Node)) -> Node {
    let mut node = Node { position_type: PositionType::Absolute, ..default() };
    f(&mut node);
    node
}

/// The panels of the table: the state of the game, the moves, the buttons, the chooser, the
/// result banner and CTOR's secret-square screens.
fn spawn_hud(mut commands: Commands, session: Res<Session>) {
    spawn_state_panel(&mut commands);
    spawn_moves_panel(&mut commands);
    spawn_buttons(&mut commands, &session.game, session.spectator);
    spawn_chooser_and_banner(&mut commands);
    spawn_secret_screens(&mut commands);
}

/// Top left: whose turn, what was taken, the message line.
fn spawn_state_panel(commands: &mut Commands) {
    commands.spawn((
        absolute(|n| {
            n.top = px(10);
            n.left = px(10);
            n.flex_direction = FlexDirection::Column;
            n.padding = UiRect::all(px(10));
            n.width = px(400);
            n.row_gap = px(4);
        }),
        panel(),
        children![
            (text("", 22.0, Color::WHITE), HudText::Status),
            (text("", 15.0, Color::srgb(0.85, 0.85, 0.8)), HudText::Captured),
            // Words wrap as words; a link longer than the panel (a seat's invitation) wraps too.
            (
                text("", 15.0, Color::srgb(1.0, 0.8, 0.4)),
                TextLayout::linebreak(LineBreak::WordOrCharacter),
                HudText::Message
            ),
            (text("", 14.0, Color::srgb(0.75, 0.85, 1.0)), HudText::Seats),
            (Node { flex_wrap: FlexWrap::Wrap, ..default() }, SeatButtons, Pickable::IGNORE),
        ],
    ));
}

/// Right: the moves.
fn spawn_moves_panel(commands: &mut Commands) {
    commands.spawn((
        absolute(|n| {
            n.top = px(10);
            n.right = px(10);
            n.flex_direction = FlexDirection::Column;
            n.padding = UiRect::all(px(10));
            n.min_width = px(150);
        }),
        panel(),
        children![(text("moves", 15.0, Color::srgb(0.8, 0.8, 0.75))), (text("", 14.0, Color::WHITE), HudText::Moves)],
    ));
}

/// Bottom: the buttons, with the game's own (heights, numbers, secrets, Landing, End turn); a
/// spectator of a live feed gets only those that look (views, speed, labels, export, copy).
fn spawn_buttons(commands: &mut Commands, game: &AnyGame, spectator: bool) {
    let names = [Side::First, Side::Second].map(|s| game.variant().side_name(s));
    commands
        .spawn((
            absolute(|n| {
                n.bottom = px(10);
                n.left = px(10);
                n.flex_wrap = FlexWrap::Wrap;
                n.align_items = AlignItems::Center;
            }),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            if !spectator {
                key_button(p, "Undo", Key::Undo, 0);
                key_button(p, "Redo", Key::Redo, 0);
                key_button(p, "New game", Key::NewGame, 0);
            }
            key_button(p, "Speed", Key::Speed, 0);
            p.spawn((
                text("", 14.0, Color::WHITE),
                HudText::Speed,
                Node { margin: UiRect::right(px(12)), ..default() },
            ));
            key_button(p, "Top view", Key::ViewTop, 0);
            key_button(p, &format!("{} view", names[0]), Key::ViewFirst, 0);
            key_button(p, &format!("{} view", names[1]), Key::ViewSecond, 0);
            key_button(p, "Reset view", Key::ViewReset, 0);
            if !spectator {
                key_button(p, "Hint", Key::Hint, 0);
                key_button(p, "Pause computer", Key::PauseComputer, 0);
                key_button(p, "Computer pace", Key::ComputerPace, 0);
            }
            key_button(p, "Evaluation", Key::Evaluation, 0);
            key_button(p, "Settings", Key::Settings, 0);
            key_button(p, "Rules", Key::Rules, 0);
            key_button(p, "Export", Key::Export, 0);
            key_button(p, "Copy position", Key::CopyPosition, 0);
            if !spectator {
                key_button(p, "Paste", Key::Paste, 0);
            }
            match game {
                AnyGame::Volterra(_) => {
                    key_button(p, "Heights", Key::Labels, 0);
                }
                AnyGame::Ctor(_) if spectator => {
                    key_button(p, "Numbers", Key::Labels, 1);
                    key_button(p, "Doughnut", Key::Doughnut, 0);
                }
                AnyGame::Ctor(_) => {
                    key_button(p, "Numbers", Key::Labels, 1);
                    key_button(p, "Doughnut", Key::Doughnut, 0);
                    key_button(p, "My secrets", Key::MySecrets, 0);
                    spawn_button(p, &labelled("Landing", Key::Landing, 0), Action::Cmd(Command::Landing));
                    let end = spawn_button(p, &labelled("End turn", Key::Space, 0), Action::Cmd(Command::EndTurn));
                    p.commands().entity(end).insert(EndTurnButton);
                }
                _ => {}
            }
        });
}

/// Centre: the chooser for a click that fits several moves; top: the result banner.
fn spawn_chooser_and_banner(commands: &mut Commands) {
    commands.spawn((
        absolute(|n| {
            n.top = percent(30);
            n.left = percent(30);
            n.flex_direction = FlexDirection::Column;
            n.padding = UiRect::all(px(12));
        }),
        BackgroundColor(Color::srgba(0.1, 0.08, 0.05, 0.92)),
        Visibility::Hidden,
        Chooser,
        DespawnOnExit(Screen::Playing),
    ));
    commands.spawn((
        absolute(|n| {
            n.top = px(14);
            n.left = percent(35);
            // Never over the move list at the right: long results wrap.
            n.max_width = percent(38);
            n.padding = UiRect::all(px(12));
        }),
        BackgroundColor(Color::srgba(0.35, 0.05, 0.02, 0.88)),
        Visibility::Hidden,
        Pickable::IGNORE,
        DespawnOnExit(Screen::Playing),
        children![(text("", 24.0, Color::WHITE), HudText::Banner)],
    ));
}

/// CTOR's secret squares: an opaque screen between the teams, and the Done button.
fn spawn_secret_screens(commands: &mut Commands) {
    commands
        .spawn((
            absolute(|n| {
                n.width = percent(100);
                n.height = percent(100);
                n.flex_direction = FlexDirection::Column;
                n.align_items = AlignItems::Center;
                n.justify_content = JustifyContent::Center;
            }),
            BackgroundColor(Color::srgb(0.08, 0.06, 0.05)),
            Visibility::Hidden,
            SecretScreen::HandOver,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            p.spawn((text("", 26.0, Color::WHITE), HudText::Message));
            spawn_button_sized(p, "Continue", Action::Secret(SecretCommand::Proceed), 30.0);
        });
    // The Done panel of each kind of choosing: one button where it does not hide the board.
    let done =
        |commands: &mut Commands, screen: SecretScreen, at: fn(&mut Node), words: &str, c: SecretCommand, size| {
            commands.spawn((absolute(at), Visibility::Hidden, screen, DespawnOnExit(Screen::Playing))).with_children(
                |p| {
                    spawn_button_sized(p, words, Action::Secret(c), size);
                },
            );
        };
    let panel_side = |n: &mut Node| {
        n.top = px(200);
        n.left = px(10);
    };
    let above_buttons = |n: &mut Node| {
        n.bottom = px(120);
        n.left = percent(40);
    };
    done(
        commands,
        SecretScreen::Choosing,
        panel_side,
        "Done: these are our 5 secret squares",
        SecretCommand::Done,
        13.0,
    );
    let puts = "Done: these are my Puts (Space)";
    done(commands, SecretScreen::PutsChoosing, above_buttons, puts, SecretCommand::PutsDone, 20.0);
}

/// The seats' buttons of a team game, under its members on the panel: each member of a team
/// of several may leave, a player may join a team with fewer members than Puts a turn (the
/// table says why not when the moment is wrong).
fn seat_buttons(
    mut commands: Commands,
    session: Res<Session>,
    panels: Query<Entity, With<SeatButtons>>,
    mut shown: Local<Option<[Vec<crate::record::PlayerInfo>; 2]>>,
) {
    let seats = if session.replay.is_some() || session.spectator { None } else { session.seats() };
    if *shown == seats && !panels.is_empty() {
        return;
    }
    *shown = seats.clone();
    for panel in &panels {
        commands.entity(panel).despawn_children();
        let Some(seats) = &seats else { continue };
        commands.entity(panel).with_children(|p| {
            let most = match &session.game {
                AnyGame::Ctor(g) => g.teams().allowance(g.options().landing).puts as usize,
                _ => 0,
            };
            for side in [Side::First, Side::Second] {
                let team = &seats[side.index()];
                if team.len() >= 2 {
                    for (m, member) in team.iter().enumerate() {
                        let leave = Action::Secret(SecretCommand::Leave(side, m as u8));
                        spawn_button(p, &format!("{} leaves", member.name), leave);
                    }
                }
                if team.len() < most {
                    let name = crate::team::team_name(side);
                    spawn_button(p, &format!("A player joins {name}"), Action::Secret(SecretCommand::Join(side)));
                }
            }
        });
    }
}

/// The replay's timeline and its column of moves to jump to, while a record is watched.
fn spawn_timeline(mut commands: Commands) {
    commands
        .spawn((
            absolute(|n| {
                n.bottom = px(90);
                n.left = px(10);
                n.align_items = AlignItems::Center;
            }),
            BackgroundColor(Color::srgba(0.05, 0.04, 0.03, 0.8)),
            DespawnOnExit(Mode::Replay),
        ))
        .with_children(|p| {
            spawn_button(p, "|<", Action::Cmd(Command::Jump(0)));
            spawn_button(p, "<", Action::Cmd(Command::Undo));
            spawn_button(p, ">", Action::Cmd(Command::StepForward));
            spawn_button(p, ">|", Action::Cmd(Command::Jump(usize::MAX)));
            spawn_button(p, "Play / pause", Action::Cmd(Command::TogglePlay));
            spawn_button(p, "Pace", Action::Cmd(Command::Pace));
            spawn_button(p, "Play on from here", Action::Cmd(Command::PlayOn));
            spawn_button(p, "Review", Action::Cmd(Command::Review));
        });
    commands.spawn((
        absolute(|n| {
            n.top = px(60);
            n.right = px(10);
            n.flex_direction = FlexDirection::Column;
        }),
        ReplayMoves,
        DespawnOnExit(Mode::Replay),
    ));
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
            "replay: step through the game with the timeline, or play on from here".into()
        }
        _ => session.status(&notice.0),
    }
}

#[allow(clippy::too_many_arguments)]
fn refresh_texts(
    session: Res<Session>,
    picking: Res<Picking>,
    notice: Res<Notice>,
    mode: Res<State<Mode>>,
    speed: Res<Speed>,
    pace: Res<crate::gui::frame::computer::ComputerPace>,
    table: Res<CtorTable>,
    live: Res<crate::gui::stream::feed::LiveFeed>,
    settings: Option<Res<crate::settings::Settings>>,
    mut texts: Query<(&HudText, &mut Text)>,
    mut banner: Query<&mut Visibility, (With<Node>, Without<Chooser>, Without<HudText>)>,
    parents: Query<(&HudText, &ChildOf)>,
) {
    let reduced = settings.as_ref().is_some_and(|s| s.reduced_motion);
    let changed = session.is_changed() || picking.is_changed() || notice.is_changed() || mode.is_changed();
    if !changed
        && !speed.is_changed()
        && !table.is_changed()
        && !pace.is_changed()
        && !live.is_changed()
        && !settings.as_ref().is_some_and(|s| s.is_changed())
    {
        return;
    }
    // The table's own mode (the state follows it a frame later).
    let mode = Mode::from(session.mode());
    let shown = picking.shown(&session.game);
    let banner_text = banner_line(&session.game);
    for (kind, mut t) in &mut texts {
        let s = match kind {
            HudText::Status if mode == Mode::Replay => format!("{}: replay", session.game.variant().title()),
            HudText::Status => {
                session.team_status_line().unwrap_or_else(|| status_line(&session.game, &session.players))
            }
            HudText::Captured => score_line(&session, &shown, table.clock),
            HudText::Message => message_line(&session, &notice),
            HudText::Seats => session.seats_line().unwrap_or_default(),
            HudText::Moves => move_list(&session),
            HudText::Speed => {
                let reduced = if reduced { " (reduced motion)" } else { "" };
                match live.url() {
                    Some(url) => {
                        format!("animation: {}{reduced}, {}\nlive feed: {url}/overlay", speed.label(), pace.label())
                    }
                    None => format!("animation: {}{reduced}, {}", speed.label(), pace.label()),
                }
            }
            HudText::Banner => banner_text.clone().unwrap_or_default(),
        };
        if t.0 != s {
            t.0 = s;
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

fn refresh_chooser(
    mut commands: Commands,
    picking: Res<Picking>,
    mut chooser: Query<(Entity, &mut Visibility), With<Chooser>>,
    mut shown: Local<Vec<(String, String)>>,
) {
    if *shown == picking.choices {
        return;
    }
    *shown = picking.choices.clone();
    let Ok((panel, mut vis)) = chooser.single_mut() else { return };
    commands.entity(panel).despawn_children();
    if picking.choices.is_empty() {
        *vis = Visibility::Hidden;
        return;
    }
    *vis = Visibility::Inherited;
    let choices = picking.choices.clone();
    commands.entity(panel).with_children(|p| {
        p.spawn(text("Which move?", 18.0, Color::WHITE));
        for (label, part) in choices {
            spawn_button(p, &label, Action::Cmd(Command::Choose(part)));
        }
        spawn_button(p, "Cancel", Action::Cmd(Command::Cancel));
    });
}

/// A coordinate along the board's edge.
fn secret_screens(session: Res<Session>, mut screens: Query<(&SecretScreen, &mut Visibility)>) {
    use crate::table::RoundPhase;
    let (table, round) = (&session.secrets, &session.round);
    let live = session.mode() == crate::table::Mode::Live;
    for (screen, mut vis) in &mut screens {
        let show = match screen {
            SecretScreen::HandOver => {
                matches!(table, SecretPhase::HandOver(_) | SecretPhase::Ready)
                    || live && matches!(round.phase, RoundPhase::HandOver(..))
            }
            SecretScreen::Choosing => matches!(table, SecretPhase::Choosing(..)),
            SecretScreen::PutsChoosing => live && matches!(round.phase, RoundPhase::Choosing(..)),
        };
        let want = if show { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}

/// The replay's column of moves: one button per move around the current one.
fn replay_moves(
    mut commands: Commands,
    session: Res<Session>,
    review: Res<crate::gui::stream::eval::Review>,
    panel: Query<Entity, With<ReplayMoves>>,
    mut shown: Local<Option<(Entity, usize, usize)>>,
) {
    let Ok(panel) = panel.single() else { return };
    let at = session.history.len();
    let total = at + session.redo.len();
    let key = Some((panel, at, total));
    if *shown == key && !review.is_changed() {
        return;
    }
    *shown = key;
    commands.entity(panel).despawn_children();
    let from = at.saturating_sub(12);
    commands.entity(panel).with_children(|p| {
        for (i, m) in session.record.moves.iter().enumerate().skip(from).take(24) {
            let mark = if i + 1 == at { "> " } else { "  " };
            // The review's marks: ? a mistake, ?? a bad one.
            let judged = review.mark(session.record.created_ms, i + 1).unwrap_or("");
            spawn_button(p, &format!("{mark}{}. {}{judged}", i + 1, m.mv), Action::Cmd(Command::Jump(i + 1)));
        }
    });
}
