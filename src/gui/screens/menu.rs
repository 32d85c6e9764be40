//! The start menu, the front door: the seven games as cards, and beside them the chosen game:
//! who plays each side (a person, or the computer at a level), its options, the rules, and
//! Start; the unfinished game to resume above it. Saved games, streaming and play across
//! machines have a page of their own (*Your games, streaming and network*), the settings their
//! panel.

use crate::gui::frame::session::PlayerKind;
use crate::gui::frame::steps::Screen;
use crate::gui::theme::{self, bold, button, chosen_look, colour, size, styled_button, text};
use crate::rules::{AnyGame, Side, Variant};
use crate::table::{Table, capital};
use bevy::prelude::*;

use super::choice::{GAMES, MenuChoice, MenuSeats, TEAMS, kind_name};
use super::seats::spawn_seats;

/// A game's card in the menu.
#[derive(Component)]
struct GameCard(usize);

/// A segment that chooses who plays a side: a person, or the computer at a level (random
/// moves, or one of the levels).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerButton {
    pub side: Side,
    pub kind: PlayerKind,
}

/// The *Computer* segment of a side: the computer at the level last chosen for it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerButton(pub Side);

/// A side's row of levels, shown while the computer plays it.
#[derive(Component)]
struct LevelRow(Side);

/// The words before a side's segments (the side's name depends on the game).
#[derive(Component)]
struct SideLabel(Side);

/// The swatch of a side's colour beside its name.
#[derive(Component)]
struct SideSwatch(Side);

/// The chosen game's title, its line and its picture, above its players.
#[derive(Component)]
enum Chosen {
    Title,
    Line,
    Picture,
}

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

/// A part shown only when each side has one player (a team game names its members in the
/// team block instead).
#[derive(Component)]
struct SoloOnly;

/// The line under Start: what Start begins, and what went wrong.
#[derive(Component)]
struct MenuLabel;

/// The *Host this game on the network* switch.
#[derive(Component)]
struct HostSwitch;

/// The broadcast window's button (its words say its size).
#[derive(Component)]
struct BroadcastButton;

/// The live feed's switch.
#[derive(Component)]
struct FeedSwitch;

/// The menu's two pages: the games (the front door), and saved games, streaming and network.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MenuPage {
    #[default]
    Games,
    More,
}

/// A part of the menu shown on one page only.
#[derive(Component)]
struct OnPage(MenuPage);

/// A button that turns to a page.
#[derive(Component)]
struct PageButton(MenuPage);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MenuChoice>()
        .init_resource::<MenuSeats>()
        .init_resource::<MenuPage>()
        // Typed names (registered by the input plugin in the window; here for headless menus).
        .add_message::<bevy::input::keyboard::KeyboardInput>()
        .add_systems(OnEnter(Screen::Menu), (|mut page: ResMut<MenuPage>| *page = MenuPage::Games, spawn_menu).chain())
        .add_systems(Update, (refresh, pages).run_if(in_state(Screen::Menu)))
        .add_systems(Update, menu_joined.run_if(resource_exists::<MenuJoin>))
        .add_plugins(super::seats::plugin);
}

/// A menu button that changes the choice.
fn choice_button(
    p: &mut ChildSpawnerCommands,
    words: String,
    f: impl Fn(&mut MenuChoice) + Send + Sync + 'static,
) -> Entity {
    button(p, &words).observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| f(&mut choice)).id()
}

/// A segmented control: its segments side by side, joined.
fn segments(p: &mut ChildSpawnerCommands, f: impl FnOnce(&mut ChildSpawnerCommands)) {
    p.spawn((
        Node { flex_direction: FlexDirection::Row, margin: UiRect::right(px(10)), ..default() },
        Pickable::IGNORE,
    ))
    .with_children(f);
}

/// One segment of a segmented control.
fn segment<'a>(p: &'a mut ChildSpawnerCommands, words: &str) -> EntityCommands<'a> {
    styled_button(p, words, size::BODY, (5.0, 1.0), colour::CONTROL)
}

/// The width of a game's card.
const CARD: f32 = 340.0;

/// A card: a picture at its left, a title in bold and a line beside it.
fn picture_card<'a>(
    p: &'a mut ChildSpawnerCommands,
    picture: Handle<Image>,
    (width, height): (f32, f32),
    title: &str,
    line: &str,
    fill: Color,
) -> EntityCommands<'a> {
    p.spawn((
        Button,
        Node {
            flex_direction: FlexDirection::Row,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(5)),
            margin: UiRect::vertical(px(2)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(8)),
            width: px(CARD),
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(fill),
        children![
            (
                ImageNode::new(picture),
                Node {
                    width: px(width),
                    height: px(height),
                    margin: UiRect::right(px(10)),
                    border_radius: BorderRadius::all(px(5)),
                    flex_shrink: 0.0,
                    ..default()
                },
                Pickable::IGNORE,
            ),
            (
                Node {
                    flex_direction: FlexDirection::Column,
                    flex_grow: 1.0,
                    flex_shrink: 1.0,
                    min_width: px(0),
                    ..default()
                },
                Pickable::IGNORE,
                children![bold(title, size::LABEL, colour::TEXT), text(line, size::SMALL, colour::MUTED)],
            )
        ],
    ))
}

/// A heading of a part of the menu.
fn heading(words: &str) -> impl Bundle {
    (bold(words, size::LABEL, colour::MUTED), Node { margin: UiRect::new(px(2), px(0), px(10), px(4)), ..default() })
}

/// Every option of the games: the games it belongs to, its caption, whether it is on, what a
/// press does.
fn options() -> [OptionSpec; 9] {
    [
        (&[Variant::Crossings], |c| format!("Exact phalanx: {}", on_off(c.exact)), |c| c.exact, |c| c.exact = !c.exact),
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
            // Lit when it is not the larger team's row.
            |c| format!("Turn power: row {}", c.ctor_teams().row()),
            |c| c.power.is_some(),
            |c| c.next_power(),
        ),
        (
            &[Variant::Ctor8, Variant::Ctor10],
            |c| format!("Landing: {}", if c.landing_back { "on a square emptied" } else { "anywhere" }),
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
            |c| format!("Sand-glass: {}", c.timer.map(|t| format!("{t} s a turn")).unwrap_or_else(|| "none".into())),
            |c| c.timer.is_some(),
            |c| {
                let timers = crate::rules::ctor::TIMERS;
                c.timer = match c.timer {
                    None => Some(timers[0]),
                    Some(t) => timers.iter().position(|x| *x == t).and_then(|i| timers.get(i + 1).copied()),
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
    ]
}

fn spawn_menu(
    mut commands: Commands,
    folder: Res<crate::gui::frame::session::SaveFolder>,
    mut images: ResMut<Assets<Image>>,
    mut pictures: Local<Vec<Handle<Image>>>,
) {
    // Decoded once: they stay in the assets.
    if pictures.is_empty() {
        *pictures = GAMES.iter().map(|(_, _, png)| theme::bundled_png(&mut images, png)).collect();
    }
    let picture = |variant: &str| -> Handle<Image> {
        let i = GAMES.iter().position(|g| g.0.name() == variant).unwrap_or(0);
        pictures.get(i).cloned().unwrap_or_default()
    };
    let saved = folder.0.as_deref().map(crate::record::saved_games).unwrap_or_default();
    let unfinished = saved.iter().find(|(_, r)| r.result.is_none() && !r.moves.is_empty()).cloned();
    let column = |grow: bool| Node {
        flex_direction: FlexDirection::Column,
        flex_grow: if grow { 1.0 } else { 0.0 },
        flex_shrink: if grow { 1.0 } else { 0.0 },
        min_width: px(0),
        ..default()
    };
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                padding: UiRect::axes(px(28), px(16)),
                ..default()
            },
            BackgroundColor(colour::PAGE.with_alpha(0.96)),
            DespawnOnExit(Screen::Menu),
        ))
        .with_children(|p| {
            // The name, what it is, and the secondary places at the right.
            p.spawn((
                Node {
                    flex_direction: FlexDirection::Row,
                    align_items: AlignItems::Center,
                    justify_content: JustifyContent::SpaceBetween,
                    width: percent(100),
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|top| {
                top.spawn((Node { align_items: AlignItems::Baseline, ..default() }, Pickable::IGNORE)).with_children(
                    |name| {
                        name.spawn(bold("tablero", size::DISPLAY, colour::TEXT));
                        name.spawn((
                            text("four abstract games on one table", size::BODY, colour::MUTED),
                            Node { margin: UiRect::left(px(14)), ..default() },
                        ));
                    },
                );
            });
            p.spawn((
                Node {
                    flex_direction: FlexDirection::Row,
                    flex_grow: 1.0,
                    column_gap: px(28),
                    margin: UiRect::top(px(8)),
                    min_height: px(0),
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|row| {
                // The games, each a card with its picture and what it is.
                row.spawn((column(false), Pickable::IGNORE)).with_children(|games| {
                    games.spawn(heading("Choose a game"));
                    for (i, (variant, line, _)) in GAMES.iter().enumerate() {
                        picture_card(games, picture(variant.name()), (84.0, 52.0), variant.title(), line, colour::CONTROL)
                            .insert(GameCard(i))
                            .observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| choice.game = i);
                    }
                });
                // The chosen game: resume first, then who plays, the options, Start.
                row.spawn((column(true), OnPage(MenuPage::Games), Pickable::IGNORE)).with_children(|game| {
                    if let Some((path, rec)) = &unfinished {
                        let (path, rec) = (path.clone(), rec.clone());
                        let title = format!("Resume your unfinished {} game", title_of(&rec.variant));
                        let n = rec.moves.len();
                        let line = format!("{n} {} played, {}", if n == 1 { "move" } else { "moves" }, players_of(&rec));
                        let pic = picture(&rec.variant);
                        game.spawn((Node { margin: UiRect::bottom(px(10)), ..default() }, Pickable::IGNORE))
                            .with_children(|at| {
                                open_card(at, pic, title, line, colour::PRIMARY, move || {
                                    Table::resume(rec.clone(), Some(path.clone()))
                                });
                            });
                    }
                    game.spawn((
                        Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, ..default() },
                        Pickable::IGNORE,
                    ))
                    .with_children(|head| {
                        head.spawn((
                            ImageNode::default(),
                            Node {
                                width: px(96),
                                height: px(60),
                                margin: UiRect::right(px(12)),
                                border_radius: BorderRadius::all(px(6)),
                                flex_shrink: 0.0,
                                ..default()
                            },
                            Pickable::IGNORE,
                            Chosen::Picture,
                        ));
                        head.spawn((
                            Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_width: px(0), ..default() },
                            Pickable::IGNORE,
                        ))
                        .with_children(|words| {
                            words.spawn((bold("", size::TITLE, colour::TEXT), Chosen::Title));
                            words.spawn((text("", size::BODY, colour::MUTED), Chosen::Line));
                        });
                    });
                    game.spawn((heading("Who plays"), SoloOnly));
                    for side in [Side::First, Side::Second] {
                        game.spawn((
                            SoloOnly,
                            Node {
                                flex_direction: FlexDirection::Row,
                                flex_wrap: FlexWrap::Wrap,
                                align_items: AlignItems::Center,
                                row_gap: px(4),
                                margin: UiRect::bottom(px(4)),
                                ..default()
                            },
                            Pickable::IGNORE,
                        ))
                        .with_children(|line| {
                            line.spawn((
                                Node { width: px(118), align_items: AlignItems::Center, ..default() },
                                Pickable::IGNORE,
                            ))
                            .with_children(|name| {
                                name.spawn((theme::swatch(14.0), SideSwatch(side)));
                                name.spawn((text("", size::BODY, colour::TEXT), SideLabel(side)));
                            });
                            segments(line, |s| {
                                let person = PlayerButton { side, kind: PlayerKind::Person };
                                segment(s, "Person").insert(person).observe(
                                    move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                                        choice.players[side.index()] = PlayerKind::Person;
                                    },
                                );
                                segment(s, "Computer").insert(ComputerButton(side)).observe(
                                    move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                                        choice.players[side.index()] = choice.computers[side.index()];
                                    },
                                );
                            });
                            line.spawn((
                                Node { flex_direction: FlexDirection::Row, ..default() },
                                LevelRow(side),
                                Pickable::IGNORE,
                            ))
                            .with_children(|s| {
                                for kind in PlayerKind::all().into_iter().filter(|k| *k != PlayerKind::Person) {
                                    segment(s, &capital(&kind_name(kind))).insert(PlayerButton { side, kind }).observe(
                                        move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                                            choice.players[side.index()] = kind;
                                            choice.computers[side.index()] = kind;
                                        },
                                    );
                                }
                            });
                        });
                    }
                    game.spawn(heading("Options"));
                    game.spawn((text("This game has no options.", size::BODY, colour::MUTED), NoOptions));
                    game.spawn((
                        Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, ..default() },
                        Pickable::IGNORE,
                    ))
                    .with_children(|wrap| {
                        for (games, caption, on, change) in options() {
                            let id = choice_button(wrap, caption(&MenuChoice::default()), change);
                            wrap.commands().entity(id).insert(GameOption { games, caption, on });
                        }
                    });
                    spawn_seats(game);
                    // Start, prominent, at the foot of the column; the rules beside it.
                    game.spawn((Node { flex_grow: 1.0, min_height: px(8), ..default() }, Pickable::IGNORE));
                    game.spawn((
                        Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, ..default() },
                        Pickable::IGNORE,
                    ))
                    .with_children(|foot| {
                        styled_button(foot, "Start", size::HEADING, (8.0, 2.0), colour::PRIMARY)
                            .insert(Node {
                                padding: UiRect::axes(px(40), px(8)),
                                margin: UiRect::right(px(12)),
                                border: UiRect::all(px(2)),
                                border_radius: BorderRadius::all(px(10)),
                                ..default()
                            })
                            .observe(start);
                        button(foot, "Rules of this game (F1)").observe(
                            |_: On<Pointer<Click>>, mut open: ResMut<crate::gui::screens::guide::RulesOpen>| {
                                open.0 = !open.0
                            },
                        );
                    });
                    game.spawn((
                        text("", size::SMALL, colour::MUTED),
                        Node { margin: UiRect::top(px(6)), ..default() },
                        MenuLabel,
                    ));
                });
                // The second page: saved games, streaming, across machines.
                row.spawn((column(true), OnPage(MenuPage::More), Pickable::IGNORE)).with_children(|more| {
                    button(more, "Back to the game").insert(PageButton(MenuPage::Games)).observe(turn_page).insert(Node {
                        align_self: AlignSelf::FlexStart,
                        padding: UiRect::axes(px(12), px(6)),
                        margin: UiRect::all(px(3)),
                        border: UiRect::all(px(2)),
                        border_radius: BorderRadius::all(px(8)),
                        ..default()
                    });
                    more.spawn((
                        Node { flex_direction: FlexDirection::Row, column_gap: px(24), ..default() },
                        Pickable::IGNORE,
                    ))
                    .with_children(|cols| {
                        cols.spawn((column(false), Pickable::IGNORE)).with_children(|games| {
                            games.spawn(heading("Your games"));
                            if saved.is_empty() {
                                games.spawn(text("No saved games yet.", size::BODY, colour::MUTED));
                            }
                            for (_, rec) in saved.iter().take(5) {
                                let rec = rec.clone();
                                let end = rec
                                    .result
                                    .as_ref()
                                    .map(|r| format!(", {} ({})", r.winner.as_deref().unwrap_or("draw"), r.reason))
                                    .unwrap_or_default();
                                let title = format!("Replay {}", title_of(&rec.variant));
                                let line = format!("{} moves{end}", rec.moves.len());
                                let pic = picture(&rec.variant);
                                open_card(games, pic, title, line, colour::CONTROL, move || Table::replay(rec.clone()));
                            }
                        });
                        cols.spawn((column(true), Pickable::IGNORE)).with_children(|links| {
                            // The broadcast window: its size (landscape or a vertical stream),
                            // and opening it for a streaming tool to capture (F8 at the table).
                            links.spawn(heading("Streaming"));
                            button(links, "Open the broadcast window").insert(BroadcastButton).observe(
                                |_: On<Pointer<Click>>,
                                 mut open: MessageWriter<crate::gui::stream::broadcast::OpenBroadcast>| {
                                    open.write(crate::gui::stream::broadcast::OpenBroadcast);
                                },
                            );
                            button(links, "Change the broadcast window's size").observe(
                                |_: On<Pointer<Click>>, mut b: ResMut<crate::gui::stream::broadcast::Broadcast>| {
                                    b.size = crate::gui::stream::broadcast::Broadcast::next_size(b.size);
                                },
                            );
                            // The live feed: the game's state, events and an overlay page for a
                            // streaming tool, on this machine (127.0.0.1:7878).
                            button(links, "Live feed for streaming tools: off").insert(FeedSwitch).observe(
                                |_: On<Pointer<Click>>, mut live: ResMut<crate::gui::stream::feed::LiveFeed>| {
                                    live.toggle()
                                },
                            );
                            // Across machines: Start hosts the game (its invitations copied and
                            // shown), or a seat of a game hosted elsewhere is taken.
                            links.spawn(heading("Across machines"));
                            button(links, "Host this game on the network: off").insert(HostSwitch).observe(
                                |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                                    choice.host = !choice.host;
                                    // Hosting is for a person elsewhere: the other side becomes one.
                                    if choice.host
                                        && choice.players.iter().filter(|p| **p == PlayerKind::Person).count() < 2
                                    {
                                        let other = if choice.players[0] == PlayerKind::Person { 1 } else { 0 };
                                        choice.players[other] = PlayerKind::Person;
                                    }
                                },
                            );
                            button(links, "Join a game from the invitation you copied").observe(join);
                            links.spawn((
                                text(
                                    "Keys: Tab or the arrows walk the buttons, Enter presses one; F1 the rules, S the settings.",
                                    size::SMALL,
                                    colour::MUTED,
                                ),
                                Node { margin: UiRect::top(px(12)), ..default() },
                            ));
                        });
                    });
                });
            });
            // The secondary places, at the top right (last in the keyboard's order).
            p.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    top: px(22),
                    right: px(28),
                    flex_direction: FlexDirection::Row,
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|links| {
                button(links, "Your games, streaming and network").insert(PageButton(MenuPage::More)).observe(turn_page);
                button(links, "Settings (S)").observe(
                    |_: On<Pointer<Click>>, mut open: ResMut<crate::gui::screens::prefs::SettingsOpen>| open.0 = !open.0,
                );
            });
        });
}

/// A page button turns to its page.
fn turn_page(click: On<Pointer<Click>>, buttons: Query<&PageButton>, mut page: ResMut<MenuPage>) {
    if let Ok(to) = buttons.get(click.entity) {
        *page = to.0;
    }
}

/// Shows the page turned to.
fn pages(page: Res<MenuPage>, mut parts: Query<(&OnPage, &mut Node)>) {
    for (on, mut node) in &mut parts {
        let display = if on.0 == *page { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// A variant's title from its name in a record.
fn title_of(name: &str) -> &str {
    name.parse::<Variant>().map(|v| v.title()).unwrap_or(name)
}

/// A record's players, "Ana against computer (hard)".
fn players_of(rec: &crate::record::Record) -> String {
    rec.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(" against ")
}

/// A choice's colours, as a query asks for them and as it gets them.
type ChoiceLook = (&'static mut BackgroundColor, &'static mut BorderColor);
type Look<'a> = (Mut<'a, BackgroundColor>, Mut<'a, BorderColor>);

/// Marks a control chosen or not (its fill and its edge).
fn mark((mut bg, mut border): Look, chosen: bool) {
    let (fill, edge) = chosen_look(chosen, colour::CONTROL);
    if bg.0 != fill {
        bg.0 = fill;
    }
    if border.top != edge {
        *border = BorderColor::all(edge);
    }
}

/// The words of a button (its text children).
fn set_words(children: &Children, texts: &mut Query<&mut Text, Without<MenuLabel>>, words: &str) {
    for child in children {
        if let Ok(mut t) = texts.get_mut(*child)
            && t.0 != words
        {
            t.0 = words.to_string();
        }
    }
}

/// The words of the switches on the second page, as their state says.
fn captions(
    choice: &MenuChoice,
    live: Option<&crate::gui::stream::feed::LiveFeed>,
    broadcast: Option<&crate::gui::stream::broadcast::Broadcast>,
) -> [String; 3] {
    let feed = if live.is_some_and(|l| l.url().is_some()) { "on" } else { "off" };
    [
        format!("Host this game on the network: {}", on_off(choice.host)),
        format!("Live feed for streaming tools: {feed}"),
        match broadcast {
            Some(b) => format!("Open the broadcast window ({}\u{d7}{})", b.size.x, b.size.y),
            None => "Open the broadcast window".into(),
        },
    ]
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn refresh(
    choice: Res<MenuChoice>,
    seats: Res<MenuSeats>,
    broadcast: Option<Res<crate::gui::stream::broadcast::Broadcast>>,
    live: Option<Res<crate::gui::stream::feed::LiveFeed>>,
    trouble: Option<Res<crate::gui::screens::prefs::SettingsTrouble>>,
    mut looks: ParamSet<(
        Query<(ChoiceLook, &GameCard)>,
        Query<(ChoiceLook, Option<&PlayerButton>, Option<&ComputerButton>)>,
        Query<(ChoiceLook, &GameOption)>,
        Query<ChoiceLook, With<HostSwitch>>,
        Query<(&SideSwatch, &mut BackgroundColor)>,
    )>,
    mut nodes: ParamSet<(
        Query<(&mut Node, &LevelRow)>,
        Query<&mut Node, With<NoOptions>>,
        Query<(&mut Node, &GameOption)>,
        Query<&mut Node, With<SoloOnly>>,
    )>,
    mut texts: Query<&mut Text, Without<MenuLabel>>,
    mut label: Query<&mut Text, With<MenuLabel>>,
    worded: Query<(&Children, Option<&GameOption>, Has<HostSwitch>, Has<FeedSwitch>, Has<BroadcastButton>)>,
    sides: Query<(Entity, &SideLabel)>,
    chosen: Query<(Entity, &Chosen)>,
    mut pictures: Query<&mut ImageNode, With<Chosen>>,
    card_pictures: Query<(&GameCard, &Children)>,
    images: Query<&ImageNode, Without<Chosen>>,
) {
    let v = choice.variant();
    for (look, card) in &mut looks.p0() {
        mark(look, card.0 == choice.game);
    }
    for (look, person_or_level, computer) in &mut looks.p1() {
        let on = match (person_or_level, computer) {
            (Some(b), _) => choice.players[b.side.index()] == b.kind,
            (None, Some(c)) => choice.players[c.0.index()] != PlayerKind::Person,
            _ => continue,
        };
        mark(look, on);
    }
    for (look, option) in &mut looks.p2() {
        mark(look, (option.on)(&choice));
    }
    for look in &mut looks.p3() {
        mark(look, choice.host);
    }
    for (side, mut bg) in &mut looks.p4() {
        let c = theme::side_colour(v, side.0);
        if bg.0 != c {
            bg.0 = c;
        }
    }
    let show = |node: &mut Mut<Node>, on: bool| {
        let display = if on { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    };
    for (mut node, row) in &mut nodes.p0() {
        show(&mut node, choice.players[row.0.index()] != PlayerKind::Person);
    }
    let count = options().iter().filter(|o| o.0.contains(&v)).count();
    for mut node in &mut nodes.p1() {
        show(&mut node, count == 0);
    }
    for (mut node, option) in &mut nodes.p2() {
        show(&mut node, option.games.contains(&v));
    }
    let solo = seats.team(&choice).is_none();
    for mut node in &mut nodes.p3() {
        show(&mut node, solo);
    }
    // The words: the options' captions, the switches', the sides' names, the chosen game.
    let [host, feed, open] = captions(&choice, live.as_deref(), broadcast.as_deref());
    for (children, option, is_host, is_feed, is_broadcast) in &worded {
        let caption = match option {
            Some(o) => (o.caption)(&choice),
            None if is_host => host.clone(),
            None if is_feed => feed.clone(),
            None if is_broadcast => open.clone(),
            None => continue,
        };
        set_words(children, &mut texts, &caption);
    }
    for (e, side) in &sides {
        if let Ok(mut t) = texts.get_mut(e) {
            let s = capital(v.side_name(side.0));
            if t.0 != s {
                t.0 = s;
            }
        }
    }
    for (e, part) in &chosen {
        let words = match part {
            Chosen::Title => v.title(),
            Chosen::Line => GAMES[choice.game].1,
            Chosen::Picture => continue,
        };
        if let Ok(mut t) = texts.get_mut(e)
            && t.0 != words
        {
            t.0 = words.to_string();
        }
    }
    let picture = card_pictures
        .iter()
        .find(|(c, _)| c.0 == choice.game)
        .and_then(|(_, kids)| kids.iter().find_map(|k| images.get(k).ok()))
        .map(|i| i.image.clone());
    if let Some(picture) = picture {
        for mut image in &mut pictures {
            if image.image != picture {
                image.image = picture.clone();
            }
        }
    }
    // The line under Start follows the choice; until it changes, it keeps what a press said
    // (a saved game that cannot be opened, an invitation that cannot be used).
    let feed_changed = live.as_ref().is_some_and(|l| l.is_changed());
    if !choice.is_changed() && !seats.is_changed() && !feed_changed && !trouble.as_ref().is_some_and(|t| t.is_changed())
    {
        return;
    }
    let game = choice.game();
    let ctor = match &game {
        AnyGame::Ctor(g) => format!(", {} teams", g.teams()),
        _ => String::new(),
    };
    // The live feed's address to give the streaming tool, or why it could not start.
    let feed =
        live.filter(|l| l.url().is_some() || l.error.is_some()).map(|l| format!("\n{}", l.line())).unwrap_or_default();
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
        "{}{ctor}: {} {} against {} {}{feed}{trouble}{hosted}",
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

/// An invitation from the clipboard being taken (see [`crate::gui::frame::remote::Joining`]).
#[derive(Resource)]
struct MenuJoin(crate::gui::frame::remote::Joining);

/// *Join a game*: the invitation on the clipboard makes the table that seat, once its host
/// answers ([`menu_joined`]); the menu never waits on the network.
fn join(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let said = match arboard::Clipboard::new().and_then(|mut c| c.get_text()) {
        Ok(text) => match crate::net::Invitation::parse(&text) {
            Ok(inv) => {
                let joining = crate::gui::frame::remote::Joining::start(
                    text,
                    std::time::Duration::from_secs(3),
                    proxy.as_deref(),
                );
                commands.insert_resource(MenuJoin(joining));
                format!("joining the game at {}…", inv.addr)
            }
            Err(_) => "copy a seat's invitation (http://…/join#seat=…&token=…) first, then press Join".to_string(),
        },
        Err(e) => format!("the clipboard is not available ({e})"),
    };
    for mut t in &mut labels {
        t.0 = said.clone();
    }
}

/// The invitation's seat once its host answered: the table opens as that seat, or the menu
/// says why not.
fn menu_joined(joining: Res<MenuJoin>, mut commands: Commands, mut labels: Query<&mut Text, With<MenuLabel>>) {
    let Some(answer) = joining.0.poll() else { return };
    commands.remove_resource::<MenuJoin>();
    match answer {
        Ok((table, seat)) => {
            commands.insert_resource(seat);
            commands.queue(crate::gui::frame::session::open(table));
        }
        Err(e) => {
            for mut t in &mut labels {
                t.0 = format!("the invitation cannot be used: {e}");
            }
        }
    }
}

/// A card that opens a saved game (to replay or to resume).
fn open_card(
    p: &mut ChildSpawnerCommands,
    picture: Handle<Image>,
    title: String,
    line: String,
    fill: Color,
    open: impl Fn() -> Result<Table, crate::record::RecordError> + Send + Sync + 'static,
) {
    picture_card(p, picture, (64.0, 40.0), &title, &line, fill).observe(
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
