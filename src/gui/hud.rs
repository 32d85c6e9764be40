//! On-screen information: whose turn, the score, the message line, the move list, the
//! buttons, the chooser for ambiguous clicks, the result banner, the replay's timeline, and
//! labels kept over points of the board (coordinates, heights, square numbers).

use super::animate::Speed;
use super::camera::View;
use super::ctor_table::CtorTable;
use super::session::SecretCommand;
use super::session::{Command, Notice, Picking, Session};
use super::sets::Room;
use super::table::{BOARD_TOP, CoordLabel, Layout, ShowLabels, cell_pos, label};
use super::{Mode, Screen, TableSystems};
use crate::rules::{AnyGame, Cell, Game, Side};
use crate::table::SecretPhase;
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

#[derive(Clone, Debug)]
enum Action {
    Cmd(Command),
    View(View),
    Speed,
    Labels,
    Eval,
    Settings,
    Rules,
    Secret(SecretCommand),
    /// CTOR: the field on a true torus, or flat.
    Doughnut,
}

/// The opaque screen between teams while secret squares are chosen, and the Done panel.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum SecretScreen {
    HandOver,
    Choosing,
    /// Team play: a member chooses their blind Puts.
    PutsChoosing,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(coordinates_plugin)
        .add_systems(OnEnter(Screen::Playing), (spawn_hud, super::eval::spawn_table_bar))
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

/// Only the coordinates along the board's edges, and every label kept over its point (for
/// off-screen pictures too).
pub(super) fn coordinates_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (refresh_coords, place_coords).chain().in_set(TableSystems::Present).after(super::camera::Steering),
    );
}

fn text(s: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour), Pickable::IGNORE)
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
                  mut views: MessageWriter<View>,
                  mut speed: ResMut<Speed>,
                  mut labels: ResMut<ShowLabels>,
                  mut eval: ResMut<super::eval::Evaluation>,
                  mut settings: Option<ResMut<super::prefs::SettingsOpen>>,
                  mut rules: Option<ResMut<super::guide::RulesOpen>>,
                  mut secret: MessageWriter<SecretCommand>,
                  mut doughnut: ResMut<super::sets::DoughnutView>| {
                match &action {
                    Action::Doughnut => doughnut.0 = !doughnut.0,
                    Action::Rules => {
                        if let Some(open) = rules.as_mut() {
                            open.0 = !open.0;
                        }
                    }
                    Action::Settings => {
                        if let Some(open) = settings.as_mut() {
                            open.0 = !open.0;
                        }
                    }
                    Action::Labels => labels.0 = !labels.0,
                    Action::Eval => eval.shown = !eval.shown,
                    Action::Secret(c) => {
                        secret.write(*c);
                    }
                    Action::Cmd(c) => {
                        cmds.write(c.clone());
                    }
                    Action::View(v) => {
                        views.write(*v);
                    }
                    Action::Speed => *speed = speed.next(),
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
    session: Option<Res<Session>>,
    mut buttons: Query<(&mut BackgroundColor, &Children), With<EndTurnButton>>,
    mut texts: Query<&mut Text>,
) {
    let Some(session) = session else { return };
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
fn spawn_hud(mut commands: Commands, session: Option<Res<Session>>) {
    let Some(session) = session else { return };
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
            (text("", 15.0, Color::srgb(1.0, 0.8, 0.4)), HudText::Message),
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
                spawn_button(p, "Undo (U)", Action::Cmd(Command::Undo));
                spawn_button(p, "Redo (Ctrl+Y)", Action::Cmd(Command::Redo));
                spawn_button(p, "New game (Ctrl+N)", Action::Cmd(Command::NewGame));
            }
            spawn_button(p, "Speed (F)", Action::Speed);
            p.spawn((
                text("", 14.0, Color::WHITE),
                HudText::Speed,
                Node { margin: UiRect::right(px(12)), ..default() },
            ));
            spawn_button(p, "Top view (T)", Action::View(View::Top));
            spawn_button(p, &format!("{} view (1)", names[0]), Action::View(View::First));
            spawn_button(p, &format!("{} view (2)", names[1]), Action::View(View::Second));
            spawn_button(p, "Reset view (R)", Action::View(View::Reset));
            if !spectator {
                spawn_button(p, "Hint (I)", Action::Cmd(Command::Hint));
                spawn_button(p, "Pause computer (Ctrl+P)", Action::Cmd(Command::PauseComputer));
                spawn_button(p, "Computer pace (C)", Action::Cmd(Command::ComputerPace));
            }
            spawn_button(p, "Evaluation (E)", Action::Eval);
            spawn_button(p, "Settings (S)", Action::Settings);
            spawn_button(p, "Rules (F1)", Action::Rules);
            spawn_button(p, "Export (X)", Action::Cmd(Command::Export));
            spawn_button(p, "Copy position (Ctrl+C)", Action::Cmd(Command::CopyPosition));
            if !spectator {
                spawn_button(p, "Paste (Ctrl+V)", Action::Cmd(Command::Paste));
            }
            match game {
                AnyGame::Volterra(_) => {
                    spawn_button(p, "Heights (H)", Action::Labels);
                }
                AnyGame::Ctor(_) if spectator => {
                    spawn_button(p, "Numbers (N)", Action::Labels);
                    spawn_button(p, "Doughnut (D)", Action::Doughnut);
                }
                AnyGame::Ctor(_) => {
                    spawn_button(p, "Numbers (N)", Action::Labels);
                    spawn_button(p, "Doughnut (D)", Action::Doughnut);
                    spawn_button(p, "My secrets (M)", Action::Secret(SecretCommand::ShowMine));
                    spawn_button(p, "Landing (L)", Action::Cmd(Command::Landing));
                    let end = spawn_button(p, "End turn (Space)", Action::Cmd(Command::EndTurn));
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

/// The status line: whose turn, or the result.
pub fn status_line(game: &AnyGame, players: &[super::session::PlayerKind; 2]) -> String {
    let v = game.variant();
    let side = game.side_to_move();
    let title = v.title();
    match game.outcome() {
        Some(o) => match o.winner {
            Some(w) => format!("{title}: {} wins", v.side_name(w)),
            None => format!("{title}: draw"),
        },
        None => format!("{title}: {} to move ({})", v.side_name(side), players[side.index()].label()),
    }
}

/// The result banner, or for Crossings the crossing that must be answered.
pub fn banner_line(game: &AnyGame) -> Option<String> {
    let v = game.variant();
    if let Some(o) = game.outcome() {
        return Some(match o.winner {
            Some(w) => format!("{} wins: {}", v.side_name(w), o.reason),
            None => format!("Draw: {}", o.reason),
        });
    }
    if let AnyGame::Crossings(c) = game {
        let (me, them) = (game.side_to_move(), game.side_to_move().other());
        if c.crossed(them) > c.crossed(me) {
            return Some(format!("{} has crossed: {} must answer with a crossing", v.side_name(them), v.side_name(me)));
        }
    }
    None
}

/// The score as each game counts it: CTOR's turn, operations left, sand-glass and disc counts;
/// Volterra's towers tallest first; the pieces taken off the board.
pub fn score_line(session: &Session, shown: &AnyGame, clock: f32) -> String {
    match &session.game {
        AnyGame::Ctor(g) => {
            let glass = match g.options().timer {
                Some(t) => format!(", sand-glass {:.0} s left", (t as f32 - clock).max(0.0).ceil()),
                None => String::new(),
            };
            let left = g.left();
            let opening = if g.is_opening(g.turn()) { " (opening turn: puts only)" } else { "" };
            format!(
                "turn {}: left {} puts, {} steps, {} landings{opening}{glass}\n{}",
                g.turn(),
                left.puts,
                left.steps,
                left.landings,
                shown.tally(&session.start)
            )
        }
        _ => shown.tally(&session.start).to_string(),
    }
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
    session: Option<Res<Session>>,
    picking: Res<Picking>,
    notice: Res<Notice>,
    mode: Res<State<Mode>>,
    speed: Res<Speed>,
    pace: Res<super::computer::ComputerPace>,
    table: Res<CtorTable>,
    live: Res<super::feed::LiveFeed>,
    settings: Option<Res<crate::settings::Settings>>,
    mut texts: Query<(&HudText, &mut Text)>,
    mut banner: Query<&mut Visibility, (With<Node>, Without<Chooser>, Without<HudText>)>,
    parents: Query<(&HudText, &ChildOf)>,
) {
    let Some(session) = session else { return };
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

/// The last moves in notation, numbered by turn pairs (in a replay, where the game stands).
pub fn move_list(session: &Session) -> String {
    if let Some(replay) = &session.replay {
        let total = session.history.len() + session.redo.len();
        return format!("replay: move {} of {}, pace {} s a move", session.history.len(), total, replay.pace);
    }
    numbered_moves(session, 24)
}

/// The last `rows` pairs of moves played, numbered.
pub fn numbered_moves(session: &Session, rows: usize) -> String {
    let moves: Vec<String> = session.history.iter().map(|(_, m)| m.to_string()).collect();
    let lines: Vec<String> =
        moves.chunks(2).enumerate().map(|(i, pair)| format!("{:>3}. {}", i + 1, pair.join("  "))).collect();
    let skip = lines.len().saturating_sub(rows);
    lines[skip..].join("\n")
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
    cams: Query<(&Camera, &GlobalTransform, Option<&super::render::ScaledView>), With<super::camera::PlayerCamera>>,
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
    session: Option<Res<Session>>,
    review: Res<super::eval::Review>,
    panel: Query<Entity, With<ReplayMoves>>,
    mut shown: Local<Option<(Entity, usize, usize)>>,
) {
    let Some(session) = session else { return };
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
