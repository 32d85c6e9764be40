//! The start menu: choose the game and its options, who plays each side, and start.

use super::Screen;
use super::ctor_table::CtorTable;
use super::session::{PlayerKind, Session};
use crate::rules::crossings::{Crossings, Options};
use crate::rules::{AnyGame, Game, Side, Variant};
use bevy::prelude::*;

/// The games the table offers: a variant, and the option the menu names after its title.
const GAMES: [(Variant, Option<&str>); 9] = [
    (Variant::Ordo, None),
    (Variant::OrdoX, None),
    (Variant::Crossings, None),
    (Variant::Crossings, Some("exact distance")),
    (Variant::Volterra, None),
    (Variant::Volterra, Some("build near the source")),
    (Variant::VolterraFree, None),
    (Variant::Ctor8, None),
    (Variant::Ctor10, None),
];

/// A game's name in the menu: its title, and its option.
fn game_name(i: usize) -> String {
    let (variant, option) = GAMES[i];
    match option {
        Some(o) => format!("{}, {o}", variant.title()),
        None => variant.title().to_string(),
    }
}

/// CTOR team sizes the menu offers.
const TEAMS: [[u8; 2]; 6] = [[1, 1], [2, 2], [3, 3], [1, 2], [2, 1], [2, 3]];

/// What the menu has chosen so far.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MenuChoice {
    pub game: usize,
    pub players: [PlayerKind; 2],
    pub seed: u64,
    /// CTOR: index into the team sizes.
    pub teams: usize,
    /// CTOR: landings per turn instead of the table's.
    pub landing: Option<u8>,
    /// CTOR: each team chooses 5 secret squares.
    pub secrets: bool,
    /// CTOR: the sand-glass, seconds per turn.
    pub timer: Option<u8>,
}

impl Default for MenuChoice {
    fn default() -> MenuChoice {
        MenuChoice {
            game: 0,
            players: [PlayerKind::Person, PlayerKind::Random],
            seed: 1,
            teams: 0,
            landing: None,
            secrets: false,
            timer: None,
        }
    }
}

impl MenuChoice {
    /// The menu's "switch who plays" button: person, random, then each computer level.
    pub fn switch_player(&mut self, side: Side) {
        let k = &mut self.players[side.index()];
        *k = k.next();
    }

    /// The initial position of the chosen game.
    pub fn game(&self) -> AnyGame {
        let (variant, option) = GAMES[self.game];
        let option = option.is_some();
        match variant {
            Variant::Crossings => AnyGame::Crossings(Crossings::initial(Options { exact: option })),
            Variant::Volterra => {
                AnyGame::Volterra(crate::rules::volterra::Volterra::initial(crate::rules::volterra::Options {
                    build_near_source: option,
                }))
            }
            Variant::Ctor8 | Variant::Ctor10 => {
                use crate::rules::ctor::{Ctor, Options, Teams};
                let n = if variant == Variant::Ctor8 { 8 } else { 10 };
                let teams = Teams { sizes: TEAMS[self.teams], members: [Vec::new(), Vec::new()] };
                AnyGame::Ctor(Ctor::new(n, teams, Options { landing: self.landing, timer: self.timer }))
            }
            _ => variant.initial(),
        }
    }
}

#[derive(Component)]
struct MenuLabel;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuChoice>()
        .add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(Update, refresh.run_if(in_state(Screen::Menu)));
}

fn button(p: &mut ChildSpawnerCommands, text: String, f: impl Fn(&mut MenuChoice) + Send + Sync + 'static) {
    styled_button(p, &text, 18.0, (7.0, 4.0), Color::srgb(0.25, 0.16, 0.08))
        .observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| f(&mut choice));
}

/// The broadcast buttons' colour.
const BROADCAST: Color = Color::srgb(0.3, 0.12, 0.25);

/// A smaller button (saved games, the broadcast window); its click is observed by the caller.
fn small_button<'a>(p: &'a mut ChildSpawnerCommands, text: &str, colour: Color) -> EntityCommands<'a> {
    styled_button(p, text, 15.0, (5.0, 3.0), colour)
}

/// A menu button: its text's size, its padding above and below and its margin, its colour.
fn styled_button<'a>(
    p: &'a mut ChildSpawnerCommands,
    text: &str,
    size: f32,
    (pad, margin): (f32, f32),
    colour: Color,
) -> EntityCommands<'a> {
    p.spawn((
        Button,
        Node {
            padding: UiRect::axes(px(14), px(pad)),
            margin: UiRect::all(px(margin)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BackgroundColor(colour),
        children![label(text, size)],
    ))
}

fn label(s: &str, size: f32) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, Pickable::IGNORE)
}

fn spawn_menu(mut commands: Commands, folder: Res<super::session::SaveFolder>) {
    let column = || Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        margin: UiRect::all(px(10)),
        ..default()
    };
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                top: percent(5),
                left: percent(12),
                width: percent(76),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(16)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.08, 0.05, 0.03, 0.9)),
            DespawnOnExit(Screen::Menu),
        ))
        .with_children(|p| {
            p.spawn(label("tablero", 40.0));
            p.spawn((
                Node { flex_direction: FlexDirection::Row, align_items: AlignItems::FlexStart, ..default() },
                Pickable::IGNORE,
            ))
            .with_children(|row| {
                row.spawn((column(), Pickable::IGNORE)).with_children(|games| {
                    games.spawn(label("Choose a game", 18.0));
                    for i in 0..GAMES.len() {
                        button(games, game_name(i), move |c| c.game = i);
                    }
                });
                row.spawn((column(), Pickable::IGNORE)).with_children(|opts| {
                    opts.spawn(label("Players and options", 18.0));
                    for side in [Side::First, Side::Second] {
                        button(opts, format!("switch who plays side {}", side.index() + 1), move |c| {
                            c.switch_player(side)
                        });
                    }
                    button(opts, "CTOR: switch team sizes".into(), |c| c.teams = (c.teams + 1) % TEAMS.len());
                    button(opts, "CTOR: secret squares on or off".into(), |c| c.secrets = !c.secrets);
                    button(opts, "CTOR: switch the sand-glass".into(), |c| {
                        let timers = crate::rules::ctor::TIMERS;
                        c.timer = match c.timer {
                            None => Some(timers[0]),
                            Some(t) => timers.iter().position(|x| *x == t).and_then(|i| timers.get(i + 1).copied()),
                        }
                    });
                    button(opts, "CTOR: switch landings per turn".into(), |c| {
                        c.landing = match c.landing {
                            None => Some(0),
                            Some(l) if l < 2 => Some(l + 1),
                            _ => None,
                        }
                    });
                    // The broadcast window: its size (landscape or a vertical stream), and
                    // opening it for a streaming tool to capture (F8 at the table too).
                    small_button(opts, "switch the broadcast window's size", BROADCAST).observe(
                        |_: On<Pointer<Click>>, mut b: ResMut<super::broadcast::Broadcast>| {
                            b.size = super::broadcast::Broadcast::next_size(b.size);
                        },
                    );
                    small_button(opts, "Open the broadcast window", BROADCAST).observe(
                        |_: On<Pointer<Click>>, mut open: MessageWriter<super::broadcast::OpenBroadcast>| {
                            open.write(super::broadcast::OpenBroadcast);
                        },
                    );
                    // The live feed: the game's state, events and an overlay page for a
                    // streaming tool, on this machine (127.0.0.1:7878).
                    small_button(opts, "Live feed on or off", BROADCAST)
                        .observe(|_: On<Pointer<Click>>, mut live: ResMut<super::feed::LiveFeed>| live.toggle());
                });
            });
            // Saved games: resume the newest unfinished one, or replay any of the last few.
            let saved = folder.0.as_deref().map(crate::record::saved_games).unwrap_or_default();
            if let Some((path, rec)) = saved.iter().find(|(_, r)| r.result.is_none() && !r.moves.is_empty()) {
                let (path, rec) = (path.clone(), rec.clone());
                let text = format!("Resume your unfinished {} game ({} moves)", rec.variant, rec.moves.len());
                open_button(p, text, move || Session::resume(rec.clone(), Some(path.clone())));
            }
            for (_, rec) in saved.iter().take(4) {
                let rec = rec.clone();
                let end = rec
                    .result
                    .as_ref()
                    .map(|r| format!(", {} ({})", r.winner.as_deref().unwrap_or("draw"), r.reason))
                    .unwrap_or_default();
                let text = format!("Replay {}: {} moves{end}", rec.variant, rec.moves.len());
                open_button(p, text, move || Session::replay(rec.clone()));
            }
            p.spawn((label("", 18.0), MenuLabel));

            p.spawn((
                Button,
                Node {
                    padding: UiRect::axes(px(24), px(10)),
                    margin: UiRect::all(px(10)),
                    border_radius: BorderRadius::all(px(8)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.15, 0.4, 0.15)),
                children![label("Start", 24.0)],
            ))
            .observe(start);
        });
}

fn refresh(
    choice: Res<MenuChoice>,
    broadcast: Option<Res<super::broadcast::Broadcast>>,
    live: Option<Res<super::feed::LiveFeed>>,
    mut label: Query<&mut Text, With<MenuLabel>>,
) {
    let game = choice.game();
    let v = game.variant();
    let ctor = match &game {
        AnyGame::Ctor(g) => {
            let landing = choice.landing.map(|l| l.to_string()).unwrap_or_else(|| "as the table says".into());
            let secrets = if choice.secrets { "with" } else { "no" };
            let glass = choice.timer.map(|t| format!("{t} s")).unwrap_or_else(|| "none".into());
            format!(
                " ({} teams, landings per turn: {landing}, {secrets} secret squares, sand-glass: {glass})",
                g.teams()
            )
        }
        _ => String::new(),
    };
    let size = broadcast.map(|b| format!("   (broadcast window {}x{})", b.size.x, b.size.y)).unwrap_or_default();
    let feed = live.map(|l| format!("\n{}", l.line())).unwrap_or_default();
    let s = format!(
        "{}{ctor}\n{}: {}\n{}: {}{size}{feed}",
        game_name(choice.game),
        v.side_name(Side::First),
        choice.players[0].label(),
        v.side_name(Side::Second),
        choice.players[1].label(),
    );
    for mut t in &mut label {
        if t.0 != s {
            t.0 = s.clone();
        }
    }
}

fn start(_: On<Pointer<Click>>, mut commands: Commands, mut choice: ResMut<MenuChoice>) {
    let session = Session::new(choice.game(), choice.players, choice.seed);
    commands.queue(super::open(session, CtorTable::new(choice.secrets)));
    choice.seed = choice.seed.wrapping_add(1);
}

/// A menu button that opens a saved game (to replay or to resume).
fn open_button(
    p: &mut ChildSpawnerCommands,
    text: String,
    open: impl Fn() -> Result<Session, crate::record::RecordError> + Send + Sync + 'static,
) {
    small_button(p, &text, Color::srgb(0.12, 0.22, 0.3)).observe(
        move |_: On<Pointer<Click>>, mut commands: Commands, mut labels: Query<&mut Text, With<MenuLabel>>| match open()
        {
            Ok(session) => {
                commands.queue(super::open(session, CtorTable::new(false)));
            }
            Err(e) => {
                for mut t in &mut labels {
                    t.0 = e.to_string();
                }
            }
        },
    );
}
