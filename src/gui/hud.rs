//! On-screen information: whose turn, captured pieces, the reason a click was refused, the
//! move list, undo and redo, new game, speed, camera views, the chooser for ambiguous
//! clicks, the result banner, and coordinates along the board's edges.

use super::Screen;
use super::animate::Speed;
use super::camera::View;
use super::scene::{BOARD_TOP, Layout};
use super::session::{Command, Session};
use crate::rules::{AnyGame, Cell, Game, Side, Variant};
use bevy::prelude::*;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum HudText {
    Status,
    Captured,
    Message,
    Moves,
    Speed,
    Banner,
}

#[derive(Component)]
struct Chooser;

/// The replay timeline, and the column of moves that can be clicked to jump there.
#[derive(Component)]
struct Timeline;

#[derive(Component)]
struct ReplayMoves;

/// A coordinate letter or number, kept next to its point on the board's edge.
#[derive(Component)]
pub struct CoordLabel(pub Vec3);

#[derive(Clone, Debug)]
enum Action {
    Cmd(Command),
    View(View),
    Speed,
    Heights,
    Secret(super::sets::ctor::SecretCommand),
}

/// The opaque screen between teams while secret squares are chosen, and the Done panel.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum SecretScreen {
    HandOver,
    Choosing,
}

/// Whether each Volterra tower shows its height, or each CTOR square its number.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShowHeights(pub bool);

/// A tower's height label.
#[derive(Component)]
struct HeightLabel;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(coordinates_plugin)
        .init_resource::<ShowHeights>()
        .add_systems(Update, (secret_screens, replay_panels).run_if(in_state(Screen::Playing)))
        .add_systems(OnEnter(Screen::Playing), spawn_hud)
        .add_systems(
            Update,
            (refresh_texts, refresh_chooser, toggle_heights, refresh_heights.before(place_coords))
                .run_if(in_state(Screen::Playing)),
        );
}

/// Only the coordinates along the board's edges (for off-screen pictures).
pub(super) fn coordinates_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (refresh_coords.after(super::scene::rebuild_scene), place_coords).chain().run_if(in_state(Screen::Playing)),
    );
}

fn text(s: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour), Pickable::IGNORE)
}

fn spawn_button(parent: &mut ChildSpawnerCommands, label: &str, action: Action) {
    spawn_button_sized(parent, label, action, 15.0);
}

fn spawn_button_sized(parent: &mut ChildSpawnerCommands, label: &str, action: Action, size: f32) {
    parent
        .spawn((
            Button,
            Node {
                padding: UiRect::axes(px(10), px(5)),
                margin: UiRect::all(px(3)),
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
                  mut heights: ResMut<ShowHeights>,
                  mut secret: MessageWriter<super::sets::ctor::SecretCommand>| {
                match &action {
                    Action::Heights => heights.0 = !heights.0,
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
        );
}

fn spawn_hud(mut commands: Commands, session: Option<Res<Session>>) {
    let Some(session) = session else { return };
    let names = [Side::First, Side::Second].map(|s| session.game.variant().side_name(s));
    let panel =
        (BackgroundColor(Color::srgba(0.05, 0.04, 0.03, 0.7)), Pickable::IGNORE, DespawnOnExit(Screen::Playing));
    // Top left: the state of the game.
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(10),
            left: px(10),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            width: px(400),
            row_gap: px(4),
            ..default()
        },
        panel.clone(),
        children![
            (text("", 22.0, Color::WHITE), HudText::Status),
            (text("", 15.0, Color::srgb(0.85, 0.85, 0.8)), HudText::Captured),
            (text("", 15.0, Color::srgb(1.0, 0.8, 0.4)), HudText::Message),
        ],
    ));
    // Right: the moves.
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(10),
            right: px(10),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            min_width: px(150),
            ..default()
        },
        panel.clone(),
        children![(text("moves", 15.0, Color::srgb(0.8, 0.8, 0.75))), (text("", 14.0, Color::WHITE), HudText::Moves)],
    ));
    // Bottom: buttons.
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                bottom: px(10),
                left: px(10),
                flex_wrap: FlexWrap::Wrap,
                align_items: AlignItems::Center,
                ..default()
            },
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            spawn_button(p, "Undo", Action::Cmd(Command::Undo));
            spawn_button(p, "Redo", Action::Cmd(Command::Redo));
            spawn_button(p, "New game", Action::Cmd(Command::NewGame));
            spawn_button(p, "Speed", Action::Speed);
            p.spawn((
                text("", 14.0, Color::WHITE),
                HudText::Speed,
                Node { margin: UiRect::right(px(12)), ..default() },
            ));
            spawn_button(p, "Top view", Action::View(View::Top));
            spawn_button(p, &format!("{} view", names[0]), Action::View(View::First));
            spawn_button(p, &format!("{} view", names[1]), Action::View(View::Second));
            spawn_button(p, "Reset view", Action::View(View::Reset));
            spawn_button(p, "Hint", Action::Cmd(Command::Hint));
            spawn_button(p, "Export", Action::Cmd(Command::Export));
            spawn_button(p, "Copy position", Action::Cmd(Command::CopyPosition));
            spawn_button(p, "Paste", Action::Cmd(Command::Paste));
            match session.game {
                AnyGame::Volterra(_) => spawn_button(p, "Heights", Action::Heights),
                AnyGame::Ctor(_) => {
                    spawn_button(p, "Numbers", Action::Heights);
                    spawn_button(p, "My secrets", Action::Secret(super::sets::ctor::SecretCommand::ShowMine));
                    spawn_button(p, "Landing", Action::Cmd(Command::Landing));
                    spawn_button(p, "End turn", Action::Cmd(Command::EndTurn));
                }
                _ => {}
            }
        });
    // Centre: the chooser and the result banner.
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: percent(30),
            left: percent(30),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(12)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.1, 0.08, 0.05, 0.92)),
        Visibility::Hidden,
        Chooser,
        DespawnOnExit(Screen::Playing),
    ));
    // The replay timeline and its clickable move list.
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                bottom: px(90),
                left: px(10),
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(Color::srgba(0.05, 0.04, 0.03, 0.8)),
            Visibility::Hidden,
            Timeline,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            spawn_button(p, "|<", Action::Cmd(Command::Jump(0)));
            spawn_button(p, "<", Action::Cmd(Command::Undo));
            spawn_button(p, ">", Action::Cmd(Command::StepForward));
            spawn_button(p, ">|", Action::Cmd(Command::Jump(usize::MAX)));
            spawn_button(p, "Play / pause", Action::Cmd(Command::TogglePlay));
            spawn_button(p, "Pace", Action::Cmd(Command::Pace));
            spawn_button(p, "Play on from here", Action::Cmd(Command::PlayOn));
        });
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(60),
            right: px(10),
            flex_direction: FlexDirection::Column,
            ..default()
        },
        Visibility::Hidden,
        ReplayMoves,
        DespawnOnExit(Screen::Playing),
    ));
    // CTOR's secret squares: an opaque screen between the teams, and the Done button.
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                justify_content: JustifyContent::Center,
                ..default()
            },
            BackgroundColor(Color::srgb(0.08, 0.06, 0.05)),
            Visibility::Hidden,
            SecretScreen::HandOver,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            p.spawn((text("", 26.0, Color::WHITE), HudText::Message));
            spawn_button_sized(p, "Continue", Action::Secret(super::sets::ctor::SecretCommand::Proceed), 30.0);
        });
    commands
        .spawn((
            Node { position_type: PositionType::Absolute, top: px(200), left: px(10), ..default() },
            Visibility::Hidden,
            SecretScreen::Choosing,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            spawn_button(
                p,
                "Done: these are our 5 secret squares",
                Action::Secret(super::sets::ctor::SecretCommand::Done),
            )
        });
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(14),
            left: percent(35),
            padding: UiRect::all(px(12)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.35, 0.05, 0.02, 0.88)),
        Visibility::Hidden,
        Pickable::IGNORE,
        DespawnOnExit(Screen::Playing),
        children![(text("", 24.0, Color::WHITE), HudText::Banner)],
    ));
}

/// The status line: whose turn, or the result.
pub fn status_line(game: &AnyGame, players: &[super::session::PlayerKind; 2]) -> String {
    let v = game.variant();
    let side = game.side_to_move();
    let title = match v {
        Variant::Ordo => "Ordo Classic",
        Variant::OrdoX => "Ordo X",
        Variant::Crossings => "Crossings",
        Variant::Volterra => "Volterra",
        Variant::VolterraFree => "Volterra (free setup)",
        Variant::Ctor8 => "CTOR 8x8",
        Variant::Ctor10 => "CTOR 10x10",
    };
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

fn refresh_texts(
    session: Option<Res<Session>>,
    speed: Res<Speed>,
    table: Option<Res<super::sets::ctor::CtorTable>>,
    mut texts: Query<(&HudText, &mut Text)>,
    mut banner: Query<&mut Visibility, (With<Node>, Without<Chooser>, Without<HudText>)>,
    parents: Query<(&HudText, &ChildOf)>,
) {
    let Some(session) = session else { return };
    let timed = matches!(&session.game, AnyGame::Ctor(g) if g.options().timer.is_some());
    if !session.is_changed() && !speed.is_changed() && !timed {
        return;
    }
    let clock = table.map(|t| t.clock).unwrap_or(0.0);
    let v = session.game.variant();
    let off = session.off_board();
    let banner_text = banner_line(&session.game);
    for (kind, mut t) in &mut texts {
        let s = match kind {
            HudText::Status if session.replaying => {
                let title = status_line(&session.game, &session.players);
                format!("{}: replay", title.split(':').next().unwrap_or(""))
            }
            HudText::Status => status_line(&session.game, &session.players),
            HudText::Captured => match &session.game {
                AnyGame::Ctor(g) => {
                    let glass = match g.options().timer {
                        Some(t) => format!(", sand-glass {:.0} s left", (t as f32 - clock).max(0.0).ceil()),
                        None => String::new(),
                    };
                    let left = g.left();
                    let opening = if g.is_opening(g.turn()) { " (opening turn: puts only)" } else { "" };
                    format!(
                        "turn {}: left {} puts, {} steps, {} landings{opening}{glass}\ndiscs: {} {}, {} {}",
                        g.turn(),
                        left.puts,
                        left.steps,
                        left.landings,
                        v.side_name(Side::First),
                        g.count(Side::First),
                        v.side_name(Side::Second),
                        g.count(Side::Second)
                    )
                }
                AnyGame::Volterra(g) => {
                    let list = |s: Side| g.heights(s).iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ");
                    format!(
                        "towers, tallest first: {} {} | {} {}",
                        v.side_name(Side::First),
                        list(Side::First),
                        v.side_name(Side::Second),
                        list(Side::Second)
                    )
                }
                _ => format!(
                    "off the board: {} {}, {} {}",
                    v.side_name(Side::First),
                    off[0],
                    v.side_name(Side::Second),
                    off[1]
                ),
            },
            HudText::Message => session.status(),
            HudText::Moves => move_list(&session),
            HudText::Speed => format!("animation: {}", speed.label()),
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
            *vis = if banner_text.is_some() { Visibility::Inherited } else { Visibility::Hidden };
        }
    }
}

/// The last moves in notation, numbered by turn pairs (in a replay, where the game stands).
pub fn move_list(session: &Session) -> String {
    if session.replaying {
        let total = session.history.len() + session.redo.len();
        return format!("replay: move {} of {}, pace {} s a move", session.history.len(), total, session.pace);
    }
    let moves: Vec<String> = session.history.iter().map(|(_, m)| m.to_string()).collect();
    let lines: Vec<String> =
        moves.chunks(2).enumerate().map(|(i, pair)| format!("{:>3}. {}", i + 1, pair.join("  "))).collect();
    let skip = lines.len().saturating_sub(24);
    lines[skip..].join("\n")
}

fn refresh_chooser(
    mut commands: Commands,
    session: Option<Res<Session>>,
    mut chooser: Query<(Entity, &mut Visibility), With<Chooser>>,
    mut shown: Local<Vec<(String, String)>>,
) {
    let Some(session) = session else { return };
    if *shown == session.choices {
        return;
    }
    *shown = session.choices.clone();
    let Ok((panel, mut vis)) = chooser.single_mut() else { return };
    commands.entity(panel).despawn_children();
    if session.choices.is_empty() {
        *vis = Visibility::Hidden;
        return;
    }
    *vis = Visibility::Inherited;
    let choices = session.choices.clone();
    commands.entity(panel).with_children(|p| {
        p.spawn(text("Which move?", 18.0, Color::WHITE));
        for (label, part) in choices {
            spawn_button(p, &label, Action::Cmd(Command::Choose(part)));
        }
        spawn_button(p, "Cancel", Action::Cmd(Command::Cancel));
    });
}

fn refresh_coords(
    mut commands: Commands,
    layout: Res<Layout>,
    labels: Query<Entity, With<CoordLabel>>,
    mut last: Local<Option<(u8, u8, Variant)>>,
) {
    if *last == Some((layout.files, layout.ranks, layout.variant)) {
        return;
    }
    *last = Some((layout.files, layout.ranks, layout.variant));
    for e in &labels {
        commands.entity(e).despawn();
    }
    for (pos, label) in coordinate_points(&layout) {
        commands.spawn((
            text(label, 16.0, Color::srgb(1.0, 0.95, 0.85)),
            Node { position_type: PositionType::Absolute, ..default() },
            CoordLabel(pos),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// Letters along the near and far edges, numbers along the left and right edges.
pub fn coordinate_points(layout: &Layout) -> Vec<(Vec3, String)> {
    let mut out = Vec::new();
    // CTOR numbers its squares instead (shown on request), and its border ring lies there.
    if super::sets::ctor::is_ctor(layout.variant) {
        return out;
    }
    let edge = |c: Cell| super::scene::cell_pos(layout, c).with_y(BOARD_TOP);
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

/// Keeps each coordinate label over its point on the board.
pub fn place_coords(
    cams: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut labels: Query<(&CoordLabel, &mut Node, &mut Visibility)>,
) {
    let Ok((cam, cam_tf)) = cams.single() else { return };
    for (label, mut node, mut vis) in &mut labels {
        match cam.world_to_viewport(cam_tf, label.0) {
            Ok(p) => {
                node.left = px(p.x - 5.0);
                node.top = px(p.y - 10.0);
                *vis = Visibility::Inherited;
            }
            Err(_) => *vis = Visibility::Hidden,
        }
    }
}

fn toggle_heights(input: Res<ButtonInput<KeyCode>>, mut heights: ResMut<ShowHeights>) {
    if input.just_pressed(KeyCode::KeyH) || input.just_pressed(KeyCode::KeyN) {
        heights.0 = !heights.0;
    }
}

/// One label over each Volterra tower with its height, while heights are shown and nothing moves.
fn refresh_heights(
    mut commands: Commands,
    show: Res<ShowHeights>,
    session: Option<Res<Session>>,
    layout: Res<Layout>,
    labels: Query<Entity, With<HeightLabel>>,
    tweens: Query<(), With<super::animate::Tween>>,
    mut shown_for: Local<Option<String>>,
) {
    let Some(session) = session else { return };
    let shown = session.shown();
    if let AnyGame::Ctor(g) = &shown {
        let key = show.0.then(|| format!("numbers {}", g.size()));
        if *shown_for == key {
            return;
        }
        *shown_for = key;
        for e in &labels {
            commands.entity(e).despawn();
        }
        if shown_for.is_some() {
            for rank in 0..layout.ranks {
                for file in 0..layout.files {
                    let c = Cell::new(file, rank);
                    let sq = g.square(c).unwrap_or(0);
                    commands.spawn((
                        text(sq.to_string(), 12.0, Color::srgb(1.0, 1.0, 0.7)),
                        Node { position_type: PositionType::Absolute, ..default() },
                        CoordLabel(super::scene::cell_pos(&layout, c) + Vec3::new(-0.3, 0.12, -0.3)),
                        HeightLabel,
                        DespawnOnExit(Screen::Playing),
                    ));
                }
            }
        }
        return;
    }
    let AnyGame::Volterra(v) = shown else { return };
    let key = (show.0 && tweens.is_empty()).then(|| v.to_string());
    if *shown_for == key {
        return;
    }
    *shown_for = key;
    for e in &labels {
        commands.entity(e).despawn();
    }
    if shown_for.is_none() {
        return;
    }
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let c = Cell::new(file, rank);
            let Some(t) = v.tower(c).filter(|t| t.height > 0) else { continue };
            let top = super::sets::volterra::tile_pos(&layout, c, t.height - 1) + Vec3::Y * 0.25;
            commands.spawn((
                text(t.height.to_string(), 20.0, Color::WHITE),
                Node { position_type: PositionType::Absolute, padding: UiRect::horizontal(px(4)), ..default() },
                BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
                CoordLabel(top),
                HeightLabel,
                DespawnOnExit(Screen::Playing),
            ));
        }
    }
}

fn secret_screens(table: Res<super::sets::ctor::CtorTable>, mut screens: Query<(&SecretScreen, &mut Visibility)>) {
    use super::sets::ctor::SecretPhase;
    for (screen, mut vis) in &mut screens {
        let show = match screen {
            SecretScreen::HandOver => matches!(table.phase, SecretPhase::HandOver(_) | SecretPhase::Ready),
            SecretScreen::Choosing => matches!(table.phase, SecretPhase::Choosing(..)),
        };
        let want = if show { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}

/// Shows the timeline while replaying, with one button per move around the current one.
fn replay_panels(
    mut commands: Commands,
    session: Option<Res<Session>>,
    mut timeline: Query<&mut Visibility, (With<Timeline>, Without<ReplayMoves>)>,
    mut moves: Query<(Entity, &mut Visibility), With<ReplayMoves>>,
    mut shown: Local<Option<(usize, usize)>>,
) {
    let Some(session) = session else { return };
    let vis = if session.replaying { Visibility::Inherited } else { Visibility::Hidden };
    for mut v in &mut timeline {
        if *v != vis {
            *v = vis;
        }
    }
    let Ok((panel, mut v)) = moves.single_mut() else { return };
    if *v != vis {
        *v = vis;
    }
    let at = session.history.len();
    let total = at + session.redo.len();
    let key = session.replaying.then_some((at, total));
    if *shown == key {
        return;
    }
    *shown = key;
    commands.entity(panel).despawn_children();
    if !session.replaying {
        return;
    }
    let texts: Vec<String> = session.record.moves.iter().map(|m| m.mv.clone()).collect();
    let from = at.saturating_sub(12);
    commands.entity(panel).with_children(|p| {
        for (i, t) in texts.iter().enumerate().skip(from).take(24) {
            let mark = if i + 1 == at { "> " } else { "  " };
            spawn_button(p, &format!("{mark}{}. {t}", i + 1), Action::Cmd(Command::Jump(i + 1)));
        }
    });
}
