//! The start menu: choose the game and its options, who plays each side, and start.

use crate::gui::frame::session::PlayerKind;
use crate::gui::frame::steps::Screen;
use crate::gui::theme::{CHOICE, CHOSEN, label, styled_button};
use crate::rules::{AnyGame, Side, Variant};
use crate::table::{Table, capital};
use bevy::prelude::*;

use super::choice::{GAMES, MenuChoice, MenuSeats, TEAMS, kind_name};
use super::seats::spawn_seats;

/// A game's card in the menu.
#[derive(Component)]
struct GameCard(usize);

/// A button that chooses who plays a side.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerButton {
    pub side: Side,
    pub kind: PlayerKind,
}

/// The words above a side's player buttons (the side's name depends on the game).
#[derive(Component)]
struct SideLabel(Side);

/// An option of some games: shown only while one of them is chosen, its caption saying its
/// state, marked while it is on.
#[derive(Component)]
struct GameOption {
    games: &'static [Variant],
    caption: fn(&MenuChoice) -> String,
    on: fn(&MenuChoice) -> bool,
}

/// An option: the games it belongs to, its caption, whether it is on, and what a press does.
type OptionSpec = (&'static [Variant], fn(&MenuChoice) -> String, fn(&MenuChoice) -> bool, fn(&mut MenuChoice));

/// The line shown instead of options for a game that has none.
#[derive(Component)]
struct NoOptions;

/// Capitalised, as a heading.

#[derive(Component)]
struct MenuLabel;

/// The *Host on the network* switch's words.
#[derive(Component)]
struct HostSwitch;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MenuChoice>()
        .init_resource::<MenuSeats>()
        // Typed names (registered by the input plugin in the window; here for headless menus).
        .add_message::<bevy::input::keyboard::KeyboardInput>()
        .add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(Update, refresh.run_if(in_state(Screen::Menu)))
        .add_plugins(super::seats::plugin);
}

fn button(p: &mut ChildSpawnerCommands, text: String, f: impl Fn(&mut MenuChoice) + Send + Sync + 'static) -> Entity {
    styled_button(p, &text, 15.0, (5.0, 2.0), CHOICE)
        .observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| f(&mut choice))
        .id()
}

/// The network buttons' colour.
const NETWORK: Color = Color::srgb(0.12, 0.25, 0.22);

/// The broadcast buttons' colour.
const BROADCAST: Color = Color::srgb(0.3, 0.12, 0.25);

/// A smaller button (saved games, the broadcast window); its click is observed by the caller.
fn small_button<'a>(p: &'a mut ChildSpawnerCommands, text: &str, colour: Color) -> EntityCommands<'a> {
    styled_button(p, text, 14.0, (4.0, 3.0), colour)
}

/// The width of a card (a game's, a saved game's).
const CARD: f32 = 350.0;

/// A button with a picture at its left and words beside it (the games' cards, the saved games).
fn picture_button<'a>(
    p: &'a mut ChildSpawnerCommands,
    picture: Handle<Image>,
    (width, height): (f32, f32),
    title: &str,
    line: &str,
    colour: Color,
) -> EntityCommands<'a> {
    p.spawn((
        Button,
        Node {
            flex_direction: FlexDirection::Row,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(4)),
            margin: UiRect::all(px(2)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            width: px(CARD),
            min_height: px(height + 14.0),
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(colour),
        children![
            (
                ImageNode::new(picture),
                Node { width: px(width), height: px(height), margin: UiRect::right(px(8)), ..default() },
                Pickable::IGNORE,
            ),
            (
                Text::new(title),
                TextFont { font_size: FontSize::Px(16.0), ..default() },
                Node { max_width: px(CARD - width - 24.0), ..default() },
                Pickable::IGNORE,
                children![(
                    TextSpan::new(if line.is_empty() { String::new() } else { format!("\n{line}") }),
                    TextFont { font_size: FontSize::Px(12.0), ..default() },
                    TextColor(Color::srgb(0.85, 0.8, 0.7)),
                )],
            )
        ],
    ))
}

fn spawn_menu(
    mut commands: Commands,
    folder: Res<crate::gui::frame::session::SaveFolder>,
    mut images: ResMut<Assets<Image>>,
    mut pictures: Local<Vec<Handle<Image>>>,
) {
    // Decoded once: they stay in the assets.
    if pictures.is_empty() {
        *pictures = GAMES.iter().map(|(_, _, png)| crate::gui::theme::bundled_png(&mut images, png)).collect();
    }
    let picture = |variant: &str| -> Handle<Image> {
        let i = GAMES.iter().position(|g| g.0.name() == variant).unwrap_or(0);
        pictures.get(i).cloned().unwrap_or_default()
    };
    let column = || Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        margin: UiRect::horizontal(px(8)),
        ..default()
    };
    let heading = |text: &str| label(text, 17.0);
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                top: percent(3),
                left: percent(4),
                width: percent(92),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(10)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.08, 0.05, 0.03, 0.9)),
            DespawnOnExit(Screen::Menu),
        ))
        .with_children(|p| {
            p.spawn(label("tablero", 34.0));
            p.spawn((
                Node { flex_direction: FlexDirection::Row, align_items: AlignItems::FlexStart, ..default() },
                Pickable::IGNORE,
            ))
            .with_children(|row| {
                // The games, each a card with its picture and what it is.
                row.spawn((column(), Pickable::IGNORE)).with_children(|games| {
                    games.spawn(heading("Choose a game"));
                    for (i, (variant, line, _)) in GAMES.iter().enumerate() {
                        picture_button(games, picture(variant.name()), (80.0, 50.0), variant.title(), line, CHOICE)
                            .insert(GameCard(i))
                            .observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| choice.game = i);
                    }
                });
                // Who plays each side, chosen directly; then the chosen game's options.
                row.spawn((column(), Pickable::IGNORE)).with_children(|opts| {
                    for side in [Side::First, Side::Second] {
                        opts.spawn((heading(""), SideLabel(side)));
                        opts.spawn((
                            Node {
                                flex_direction: FlexDirection::Row,
                                flex_wrap: FlexWrap::Wrap,
                                justify_content: JustifyContent::Center,
                                max_width: px(300),
                                margin: UiRect::bottom(px(4)),
                                ..default()
                            },
                            Pickable::IGNORE,
                        ))
                        .with_children(|kinds| {
                            for kind in PlayerKind::all() {
                                let id = button(kinds, kind_name(kind), move |c| c.players[side.index()] = kind);
                                kinds.commands().entity(id).insert(PlayerButton { side, kind });
                            }
                        });
                    }
                    small_button(opts, "Rules of this game (F1)", CHOICE)
                        .observe(|_: On<Pointer<Click>>, mut open: ResMut<crate::gui::screens::guide::RulesOpen>| open.0 = !open.0);
                    opts.spawn(heading("Options"));
                    opts.spawn((label("This game has no options.", 14.0), NoOptions));
                    let options: [OptionSpec; 9] = [
                        (
                            &[Variant::Crossings],
                            |c| format!("Exact phalanx: {}", on_off(c.exact)),
                            |c| c.exact,
                            |c| c.exact = !c.exact,
                        ),
                        (
                            &[Variant::Volterra],
                            |c| format!("Build near the source: {}", on_off(c.near_source)),
                            |c| c.near_source,
                            |c| c.near_source = !c.near_source,
                        ),
                        (
                            &[Variant::Volterra, Variant::VolterraFree],
                            |c| format!("First player: {}", if c.first == Side::First { "light" } else { "dark" }),
                            |c| c.first != Side::First,
                            |c| c.first = c.first.other(),
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| format!("Teams: {} against {}", TEAMS[c.teams][0], TEAMS[c.teams][1]),
                            |c| c.teams != 0,
                            |c| c.next_teams(),
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| {
                                // Lit when it is not the larger team's row.
                                format!("Turn power: row {}", c.ctor_teams().row())
                            },
                            |c| c.power.is_some(),
                            |c| c.next_power(),
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| {
                                format!(
                                    "Landing: {}",
                                    if c.landing_back { "on a square emptied" } else { "anywhere" }
                                )
                            },
                            |c| c.landing_back,
                            |c| c.landing_back = !c.landing_back,
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| format!("Secret squares: {}", on_off(c.secrets)),
                            |c| c.secrets,
                            |c| c.secrets = !c.secrets,
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| {
                                format!(
                                    "Sand-glass: {}",
                                    c.timer.map(|t| format!("{t} s a turn")).unwrap_or_else(|| "none".into())
                                )
                            },
                            |c| c.timer.is_some(),
                            |c| {
                                let timers = crate::rules::ctor::TIMERS;
                                c.timer = match c.timer {
                                    None => Some(timers[0]),
                                    Some(t) => {
                                        timers.iter().position(|x| *x == t).and_then(|i| timers.get(i + 1).copied())
                                    }
                                }
                            },
                        ),
                        (
                            &[Variant::Ctor8, Variant::Ctor10],
                            |c| {
                                format!(
                                    "Landings a turn: {}",
                                    c.landing.map(|l| l.to_string()).unwrap_or_else(|| "as the rules say".into())
                                )
                            },
                            |c| c.landing.is_some(),
                            |c| {
                                c.landing = match c.landing {
                                    None => Some(0),
                                    Some(l) if l < 2 => Some(l + 1),
                                    _ => None,
                                }
                            },
                        ),
                    ];
                    // Side by side where two fit, so that CTOR's six options and its team
                    // block leave the Start button on a 720-pixel-high window.
                    opts.spawn((
                        Node {
                            flex_direction: FlexDirection::Row,
                            flex_wrap: FlexWrap::Wrap,
                            justify_content: JustifyContent::Center,
                            // A definite width: a wrapping row sized to its content would be
                            // measured as tall as one button a row.
                            width: px(460),
                            ..default()
                        },
                        Pickable::IGNORE,
                    ))
                    .with_children(|wrap| {
                        for (games, caption, on, change) in options {
                            let id = button(wrap, caption(&MenuChoice::default()), change);
                            wrap.commands().entity(id).insert(GameOption { games, caption, on });
                        }
                    });
                    spawn_seats(opts);
                });
                // Saved games: resume the newest unfinished one, or replay any of the last few;
                // then what streamers use.
                let saved = folder.0.as_deref().map(crate::record::saved_games).unwrap_or_default();
                row.spawn((column(), Pickable::IGNORE)).with_children(|games| {
                    if !saved.is_empty() {
                        games.spawn(heading("Your games"));
                    }
                    if let Some((path, rec)) = saved.iter().find(|(_, r)| r.result.is_none() && !r.moves.is_empty()) {
                        let (path, rec) = (path.clone(), rec.clone());
                        let text = format!("Resume your unfinished {} game", title_of(&rec.variant));
                        let line = format!("{} moves", rec.moves.len());
                        let pic = picture(&rec.variant);
                        open_button(games, pic, text, line, move || Table::resume(rec.clone(), Some(path.clone())));
                    }
                    for (_, rec) in saved.iter().take(4) {
                        let rec = rec.clone();
                        let end = rec
                            .result
                            .as_ref()
                            .map(|r| format!(", {} ({})", r.winner.as_deref().unwrap_or("draw"), r.reason))
                            .unwrap_or_default();
                        let text = format!("Replay {}", title_of(&rec.variant));
                        let line = format!("{} moves{end}", rec.moves.len());
                        let pic = picture(&rec.variant);
                        open_button(games, pic, text, line, move || Table::replay(rec.clone()));
                    }
                    // The broadcast window: its size (landscape or a vertical stream), and
                    // opening it for a streaming tool to capture (F8 at the table too).
                    games.spawn(heading("Streaming"));
                    small_button(games, "switch the broadcast window's size", BROADCAST).observe(
                        |_: On<Pointer<Click>>, mut b: ResMut<crate::gui::stream::broadcast::Broadcast>| {
                            b.size = crate::gui::stream::broadcast::Broadcast::next_size(b.size);
                        },
                    );
                    small_button(games, "Open the broadcast window", BROADCAST).observe(
                        |_: On<Pointer<Click>>, mut open: MessageWriter<crate::gui::stream::broadcast::OpenBroadcast>| {
                            open.write(crate::gui::stream::broadcast::OpenBroadcast);
                        },
                    );
                    // The live feed: the game's state, events and an overlay page for a
                    // streaming tool, on this machine (127.0.0.1:7878).
                    small_button(games, "Live feed on or off", BROADCAST)
                        .observe(|_: On<Pointer<Click>>, mut live: ResMut<crate::gui::stream::feed::LiveFeed>| live.toggle());
                    // Across machines: Start hosts the game (its invitations copied and shown),
                    // or a seat of a game hosted elsewhere is taken with its invitation.
                    games.spawn(heading("Across machines"));
                    let switch = small_button(games, "Host on the network: off", NETWORK)
                        .observe(|_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                            choice.host = !choice.host;
                            // Hosting is for a person elsewhere: the other side becomes one.
                            if choice.host && choice.players.iter().filter(|p| **p == PlayerKind::Person).count() < 2 {
                                let other = if choice.players[0] == PlayerKind::Person { 1 } else { 0 };
                                choice.players[other] = PlayerKind::Person;
                            }
                        })
                        .id();
                    games.commands().entity(switch).insert(HostSwitch);
                    small_button(games, "Join a game (copy its invitation first)", NETWORK).observe(join);
                    // Settings (animation, quality, camera, UI scale, reduced motion): S too.
                    games.spawn(heading("Settings"));
                    small_button(games, "Settings (S)", CHOICE).observe(
                        |_: On<Pointer<Click>>, mut open: ResMut<crate::gui::screens::prefs::SettingsOpen>| open.0 = !open.0,
                    );
                    // The menu by keyboard (keyboard.rs).
                    games.spawn((
                        Text::new("Keys: Tab or the arrows walk the buttons, Enter presses one; F1 the rules, S the settings."),
                        TextFont { font_size: FontSize::Px(12.0), ..default() },
                        TextColor(Color::srgb(0.85, 0.8, 0.7)),
                        Node { max_width: px(300), margin: UiRect::top(px(10)), ..default() },
                        Pickable::IGNORE,
                    ));
                });
            });
            p.spawn((label("", 16.0), MenuLabel));

            p.spawn((
                Button,
                Node {
                    padding: UiRect::axes(px(28), px(8)),
                    margin: UiRect::all(px(6)),
                    border_radius: BorderRadius::all(px(8)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.15, 0.4, 0.15)),
                children![label("Start", 24.0)],
            ))
            .observe(start);
        });
}

/// CTOR's team block: each team's members, a name to click and type, and a kind to click
/// through (person, random, the levels); who plays the Moves and Landings.
fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// A variant's title from its name in a record.
fn title_of(name: &str) -> &str {
    name.parse::<Variant>().map(|v| v.title()).unwrap_or(name)
}

/// A choice's colours, as a query asks for them and as it gets them.
type ChoiceLook = (&'static mut BackgroundColor, &'static mut BorderColor);
type Look<'a> = (Mut<'a, BackgroundColor>, Mut<'a, BorderColor>);

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn refresh(
    choice: Res<MenuChoice>,
    seats: Res<MenuSeats>,
    broadcast: Option<Res<crate::gui::stream::broadcast::Broadcast>>,
    live: Option<Res<crate::gui::stream::feed::LiveFeed>>,
    trouble: Option<Res<crate::gui::screens::prefs::SettingsTrouble>>,
    mut label: Query<&mut Text, With<MenuLabel>>,
    mut sides: Query<(&mut Text, &SideLabel), Without<MenuLabel>>,
    mut cards: Query<(ChoiceLook, &GameCard)>,
    mut players: Query<(ChoiceLook, &PlayerButton), Without<GameCard>>,
    mut options: Query<(ChoiceLook, &mut Node, &GameOption, &Children), (Without<GameCard>, Without<PlayerButton>)>,
    mut none: Query<&mut Node, (With<NoOptions>, Without<GameOption>)>,
    mut texts: Query<&mut Text, (Without<MenuLabel>, Without<SideLabel>)>,
    switch: Query<
        (&Children, ChoiceLook),
        (With<HostSwitch>, Without<GameCard>, Without<PlayerButton>, Without<GameOption>),
    >,
) {
    let mark = |(mut bg, mut border): Look, chosen: bool| {
        let (colour, edge) = if chosen { (CHOSEN, Color::srgb(1.0, 0.85, 0.4)) } else { (CHOICE, Color::NONE) };
        if bg.0 != colour {
            bg.0 = colour;
        }
        if border.top != edge {
            *border = BorderColor::all(edge);
        }
    };
    for (look, card) in &mut cards {
        mark(look, card.0 == choice.game);
    }
    for (look, b) in &mut players {
        mark(look, choice.players[b.side.index()] == b.kind);
    }
    for (children, (mut bg, mut border)) in switch {
        let caption = format!("Host on the network: {}", on_off(choice.host));
        for child in children {
            if let Ok(mut t) = texts.get_mut(*child)
                && t.0 != caption
            {
                t.0 = caption.clone();
            }
        }
        let (colour, edge) = if choice.host { (CHOSEN, Color::srgb(1.0, 0.85, 0.4)) } else { (NETWORK, Color::NONE) };
        if bg.0 != colour {
            bg.0 = colour;
        }
        if border.top != edge {
            *border = BorderColor::all(edge);
        }
    }
    let v = choice.variant();
    let mut shown = 0;
    for (look, mut node, option, children) in &mut options {
        let display = if option.games.contains(&v) { Display::Flex } else { Display::None };
        shown += usize::from(display == Display::Flex);
        if node.display != display {
            node.display = display;
        }
        mark(look, (option.on)(&choice));
        let caption = (option.caption)(&choice);
        for child in children {
            if let Ok(mut t) = texts.get_mut(*child)
                && t.0 != caption
            {
                t.0 = caption.clone();
            }
        }
    }
    for mut node in &mut none {
        let display = if shown == 0 { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
    for (mut t, side) in &mut sides {
        let s = format!("{} plays", capital(v.side_name(side.0)));
        if t.0 != s {
            t.0 = s;
        }
    }
    let game = choice.game();
    let ctor = match &game {
        AnyGame::Ctor(g) => format!(", {} teams", g.teams()),
        _ => String::new(),
    };
    let size = broadcast.map(|b| format!("   (broadcast window {}x{})", b.size.x, b.size.y)).unwrap_or_default();
    let feed = live.map(|l| format!("\n{}", l.line())).unwrap_or_default();
    let trouble = trouble.and_then(|t| t.0.clone()).map(|t| format!("\n{t}")).unwrap_or_default();
    // A team game names its members.
    let who = |side: Side| match seats.team(&choice) {
        Some(team) => team.seats[side.index()].iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", "),
        None => choice.players[side.index()].label(),
    };
    let hosted = if choice.host {
        "\nHosted on the network: Start copies the other seat's invitation to send to its player"
    } else {
        ""
    };
    let s = format!(
        "{}{ctor}: {} {} against {} {}{size}{feed}{trouble}{hosted}",
        v.title(),
        v.side_name(Side::First),
        who(Side::First),
        v.side_name(Side::Second),
        who(Side::Second),
    );
    for mut t in &mut label {
        if t.0 != s {
            t.0 = s.clone();
        }
    }
}

fn start(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    mut choice: ResMut<MenuChoice>,
    seats: Res<MenuSeats>,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    folder: Res<crate::gui::frame::session::SaveFolder>,
) {
    if choice.host {
        match hosted(&choice, folder.0.as_deref()) {
            Ok(h) => {
                commands.insert_resource(h.seat);
                commands.insert_resource(h.hosting);
                commands.queue(crate::gui::frame::session::open(h.table));
                choice.seed = choice.seed.wrapping_add(1);
            }
            Err(e) => {
                for mut t in &mut labels {
                    t.0 = format!("cannot host this game: {e}");
                }
            }
        }
        return;
    }
    let mut session = Table::new(choice.game(), choice.players, choice.seed);
    if let Some(team) = seats.team(&choice) {
        for (player, members) in session.record.players.iter_mut().zip(&team.seats) {
            player.name = members.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
        }
        session.record.team = Some(team);
    }
    let session = if choice.secrets { session.with_secrets() } else { session };
    commands.queue(crate::gui::frame::session::open(session));
    choice.seed = choice.seed.wrapping_add(1);
}

/// The chosen game hosted on the network, this table the first person's seat.
fn hosted(
    choice: &MenuChoice,
    folder: Option<&std::path::Path>,
) -> Result<crate::gui::frame::remote::HostedHere, crate::gui::error::GuiError> {
    use crate::gui::frame::remote::{host_addr, host_here, sitters};
    let game = choice.game();
    let seats = sitters(&game, choice.players)?;
    // Saved with the table's games (the host's record; the table keeps its own copy too).
    let record = folder.map(|d| {
        d.join("games").join(format!(
            "{}-{}-hosted.json",
            crate::record::now_ms(),
            crate::rules::Game::variant(&game).name()
        ))
    });
    host_here(crate::net::host::HostOptions {
        seats,
        record,
        timer: choice.timer,
        secrets: choice.secrets,
        ..crate::net::host::HostOptions::remote(game, host_addr())
    })
}

/// *Join a game*: the invitation on the clipboard makes the table that seat.
fn join(_: On<Pointer<Click>>, mut commands: Commands, mut labels: Query<&mut Text, With<MenuLabel>>) {
    let said = match arboard::Clipboard::new().and_then(|mut c| c.get_text()) {
        Ok(text) if crate::net::Invitation::parse(&text).is_ok() => {
            match crate::gui::frame::remote::seat_table(&text, std::time::Duration::from_secs(3)) {
                Ok((table, seat)) => {
                    commands.insert_resource(seat);
                    commands.queue(crate::gui::frame::session::open(table));
                    return;
                }
                Err(e) => format!("the invitation cannot be used: {e}"),
            }
        }
        Ok(_) => "copy a seat's invitation (http://…/join#seat=…&token=…) first, then press Join".to_string(),
        Err(e) => format!("the clipboard is not available ({e})"),
    };
    for mut t in &mut labels {
        t.0 = said.clone();
    }
}

/// A menu button that opens a saved game (to replay or to resume).
fn open_button(
    p: &mut ChildSpawnerCommands,
    picture: Handle<Image>,
    text: String,
    line: String,
    open: impl Fn() -> Result<Table, crate::record::RecordError> + Send + Sync + 'static,
) {
    picture_button(p, picture, (64.0, 40.0), &text, &line, Color::srgb(0.12, 0.22, 0.3)).observe(
        move |_: On<Pointer<Click>>, mut commands: Commands, mut labels: Query<&mut Text, With<MenuLabel>>| match open()
        {
            Ok(session) => {
                commands.queue(crate::gui::frame::session::open(session));
            }
            Err(e) => {
                for mut t in &mut labels {
                    t.0 = e.to_string();
                }
            }
        },
    );
}
