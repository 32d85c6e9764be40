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
use begin::{MenuJoin, MenuWatch, menu_joined, menu_watched};
use build::{options, spawn_menu};

mod begin;
mod build;

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

/// The *Host through a relay* switch.
#[derive(Component)]
struct RelaySwitch;

/// The *Set the relay from the address you copied* button.
#[derive(Component)]
struct SetRelayButton;

/// What the last press of *Set the relay…* found on the clipboard, when it was not a relay.
#[derive(Resource, Clone, Debug, Default)]
struct SetRelayNote(Option<String>);

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
        .init_resource::<SetRelayNote>()
        .add_systems(Update, (refresh, pages).run_if(in_state(Screen::Menu)))
        .add_systems(
            Update,
            set_relay_caption.run_if(in_state(Screen::Menu).and_then(resource_changed::<SetRelayNote>)),
        )
        .add_systems(Update, menu_joined.run_if(resource_exists::<MenuJoin>))
        .add_systems(Update, menu_watched.run_if(resource_exists::<MenuWatch>))
        .add_plugins(super::seats::plugin);
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
    relay: Option<&str>,
) -> [String; 4] {
    let feed = if live.is_some_and(|l| l.url().is_some()) { "on" } else { "off" };
    [
        format!("Host this game on the network: {}", on_off(choice.host && !choice.relay)),
        match relay {
            Some(r) => format!("Host through a relay ({}): {}", crate::net::relay::shown(r), on_off(choice.relay)),
            None => format!("Host through a relay: {} (no relay set yet)", on_off(choice.relay)),
        },
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
    settings: Option<Res<crate::settings::Settings>>,
    mut looks: ParamSet<(
        Query<(ChoiceLook, &GameCard)>,
        Query<(ChoiceLook, Option<&PlayerButton>, Option<&ComputerButton>)>,
        Query<(ChoiceLook, &GameOption)>,
        Query<ChoiceLook, With<HostSwitch>>,
        Query<(&SideSwatch, &mut BackgroundColor)>,
        Query<ChoiceLook, With<RelaySwitch>>,
    )>,
    mut nodes: ParamSet<(
        Query<(&mut Node, &LevelRow)>,
        Query<&mut Node, With<NoOptions>>,
        Query<(&mut Node, &GameOption)>,
        Query<&mut Node, With<SoloOnly>>,
    )>,
    mut texts: Query<&mut Text, Without<MenuLabel>>,
    mut label: Query<&mut Text, With<MenuLabel>>,
    worded: Query<(
        &Children,
        Option<&GameOption>,
        (Has<HostSwitch>, Has<RelaySwitch>),
        Has<FeedSwitch>,
        Has<BroadcastButton>,
    )>,
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
        mark(look, choice.host && !choice.relay);
    }
    for look in &mut looks.p5() {
        mark(look, choice.relay);
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
    let relay = settings.as_ref().and_then(|s| s.relay.clone());
    let [host, relayed, feed, open] = captions(&choice, live.as_deref(), broadcast.as_deref(), relay.as_deref());
    for (children, option, (is_host, is_relay), is_feed, is_broadcast) in &worded {
        let caption = match option {
            Some(o) => (o.caption)(&choice),
            None if is_host => host.clone(),
            None if is_relay => relayed.clone(),
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
    let hosted = match (choice.host, choice.relay, &relay) {
        (true, true, None) => {
            "\nHosted through a relay: copy its address (nats://HOST:PORT) and press *Set the relay* first"
        }
        (true, true, Some(_)) => {
            "\nHosted through the relay: Start copies the other seat's invitation to send to its player"
        }
        (true, false, _) => "\nHosted on the network: Start copies the other seat's invitation to send to its player",
        _ => "",
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

/// *Set the relay…* says what was wrong with the clipboard's text, on the page it is pressed on.
fn set_relay_caption(
    note: Res<SetRelayNote>,
    buttons: Query<&Children, With<SetRelayButton>>,
    mut texts: Query<&mut Text, Without<MenuLabel>>,
) {
    let words = match &note.0 {
        Some(why) => format!("Set the relay from the address you copied ({why})"),
        None => "Set the relay from the address you copied".to_string(),
    };
    for children in &buttons {
        set_words(children, &mut texts, &words);
    }
}
