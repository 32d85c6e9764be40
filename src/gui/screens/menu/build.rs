//! The menu's pages as they are built: the game cards, the sides and their players, the
//! options, the saved games and the network and streaming page.

use super::begin::{join, set_relay, start, watch};
use super::*;

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
pub(super) fn options() -> [OptionSpec; 9] {
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

pub(super) fn spawn_menu(
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
                                    choice.relay = false;
                                    other_person(&mut choice);
                                },
                            );
                            // Through the relay of the settings: nobody needs to reach this
                            // machine's port.
                            button(links, "Host through a relay: off").insert(RelaySwitch).observe(
                                |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| {
                                    choice.relay = !choice.relay;
                                    choice.host = choice.relay;
                                    other_person(&mut choice);
                                },
                            );
                            button(links, "Set the relay from the address you copied").insert(SetRelayButton).observe(set_relay);
                            button(links, "Join a game from the invitation you copied").observe(join);
                            button(links, "Watch a game from the address you copied").observe(watch);
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

/// Hosting is for a person elsewhere: the other side becomes one.
fn other_person(choice: &mut MenuChoice) {
    if choice.host && choice.players.iter().filter(|p| **p == PlayerKind::Person).count() < 2 {
        let other = if choice.players[0] == PlayerKind::Person { 1 } else { 0 };
        choice.players[other] = PlayerKind::Person;
    }
}
