//! The start menu: choose the game and its options, who plays each side, and start.

use super::Screen;
use super::session::PlayerKind;
use super::theme::{label, styled_button};
use crate::rules::crossings::{Crossings, Options};
use crate::rules::{AnyGame, Side, Variant};
use crate::table::{Table, capital};
use bevy::prelude::*;

/// The games the table offers, one card each: the variant, one line saying what it is, and
/// its picture (rendered by tablero itself: `assets/pictures.sh`).
const GAMES: [(Variant, &str, &[u8]); 7] = [
    (Variant::Ordo, "Keep your stones together and reach the far row.", include_bytes!("../../assets/menu/ordo.png")),
    (Variant::OrdoX, "Ordo with freer lines: sideways, then forward.", include_bytes!("../../assets/menu/ordo-x.png")),
    (
        Variant::Crossings,
        "Move lines of stones, capture, cross to the far row.",
        include_bytes!("../../assets/menu/crossings.png"),
    ),
    (
        Variant::Volterra,
        "Step your pawn and build towers of pine tiles.",
        include_bytes!("../../assets/menu/volterra.png"),
    ),
    (
        Variant::VolterraFree,
        "Lay out the tiles yourselves, then play Volterra.",
        include_bytes!("../../assets/menu/volterra-free.png"),
    ),
    (
        Variant::Ctor8,
        "Put, move and turn discs on a torus: the small field.",
        include_bytes!("../../assets/menu/ctor8.png"),
    ),
    (
        Variant::Ctor10,
        "CTOR on the large 10 x 10 field; 3 against 3 is its classic version.",
        include_bytes!("../../assets/menu/ctor10.png"),
    ),
];

/// CTOR team sizes the menu offers: every format from 1 against 1 to 3 against 3 (the seed:
/// "teams may be formed by 1, 2 or 3 people", and may be unequal).
pub const TEAMS: [[u8; 2]; 9] = [[1, 1], [2, 2], [3, 3], [1, 2], [2, 1], [1, 3], [3, 1], [2, 3], [3, 2]];

/// What the menu has chosen so far.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MenuChoice {
    /// Index into the games the menu offers.
    pub game: usize,
    pub players: [PlayerKind; 2],
    pub seed: u64,
    /// Crossings: a phalanx moves exactly as many squares as it has stones.
    pub exact: bool,
    /// Volterra: a build's destination next to the source tower rather than the pawn.
    pub near_source: bool,
    /// CTOR: index into the team sizes.
    pub teams: usize,
    /// CTOR: the turn power (the allowance table's row), when not the larger team's.
    pub power: Option<u8>,
    /// CTOR: a Landing puts its disc back on one of the two squares it emptied.
    pub landing_back: bool,
    /// Volterra: who plays first (light unless chosen).
    pub first: Side,
    /// CTOR: landings per turn instead of the table's.
    pub landing: Option<u8>,
    /// CTOR: each team chooses 5 secret squares.
    pub secrets: bool,
    /// CTOR: the sand-glass, seconds per turn.
    pub timer: Option<u8>,
}

/// The opponent a new game starts with: the computer at medium.
pub const DEFAULT_OPPONENT: PlayerKind = PlayerKind::Ai(1);

impl Default for MenuChoice {
    fn default() -> MenuChoice {
        MenuChoice {
            game: 0,
            players: [PlayerKind::Person, DEFAULT_OPPONENT],
            seed: 1,
            exact: false,
            near_source: false,
            teams: 0,
            power: None,
            landing_back: false,
            first: Side::First,
            landing: None,
            secrets: false,
            timer: None,
        }
    }
}

impl MenuChoice {
    /// The chosen game's variant.
    pub fn variant(&self) -> Variant {
        GAMES[self.game].0
    }

    /// The initial position of the chosen game, with its options.
    pub fn game(&self) -> AnyGame {
        match self.variant() {
            Variant::Crossings => AnyGame::Crossings(Crossings::initial(Options { exact: self.exact })),
            Variant::Volterra => AnyGame::Volterra(
                crate::rules::volterra::Volterra::initial(crate::rules::volterra::Options {
                    build_near_source: self.near_source,
                })
                .first_player(self.first),
            ),
            Variant::VolterraFree => AnyGame::Volterra(
                crate::rules::volterra::Volterra::free_setup(Default::default()).first_player(self.first),
            ),
            variant @ (Variant::Ctor8 | Variant::Ctor10) => {
                use crate::rules::ctor::{Ctor, Options};
                let n = if variant == Variant::Ctor8 { 8 } else { 10 };
                let options = Options {
                    landing: self.landing,
                    timer: self.timer,
                    landing_back: self.landing_back,
                    ..Options::default()
                };
                AnyGame::Ctor(Ctor::new(n, self.ctor_teams(), options))
            }
            variant => variant.initial(),
        }
    }
}

impl MenuChoice {
    /// CTOR: the chosen team sizes and turn power (a power that does not fit the sizes, which
    /// the menu's buttons never leave, falls back to the larger team's).
    pub fn ctor_teams(&self) -> crate::rules::ctor::Teams {
        let sizes = TEAMS[self.teams];
        self.power
            .and_then(|p| crate::rules::ctor::Teams::with_power(sizes, p).ok())
            .unwrap_or_else(|| crate::rules::ctor::Teams::new(sizes))
    }

    /// The next team sizes; a chosen turn power that no longer fits is dropped.
    fn next_teams(&mut self) {
        self.teams = (self.teams + 1) % TEAMS.len();
        if self.power.is_some_and(|p| crate::rules::ctor::Teams::with_power(TEAMS[self.teams], p).is_err()) {
            self.power = None;
        }
    }

    /// The next turn power that fits the team sizes: the larger team's, then rows 1 to 3.
    fn next_power(&mut self) {
        let sizes = TEAMS[self.teams];
        let larger = sizes[0].max(sizes[1]);
        let mut p = self.power;
        loop {
            p = match p {
                None => Some(1),
                Some(3) => None,
                Some(r) => Some(r + 1),
            };
            match p {
                Some(r) if r == larger => continue,
                Some(r) if crate::rules::ctor::Teams::with_power(sizes, r).is_err() => continue,
                _ => break,
            }
        }
        self.power = p;
    }
}

/// CTOR team play: the members the menu names, beyond the sides' first (whose kind is the
/// side's player above), and who plays the Moves and Landings.
#[derive(Resource, Clone, Debug)]
pub struct MenuSeats {
    pub names: [[String; 3]; 2],
    /// Kinds of the second and third members (the first is `MenuChoice::players`).
    pub kinds: [[PlayerKind; 3]; 2],
    pub lead: crate::team::Lead,
    /// The member whose name is being typed.
    pub editing: Option<(Side, usize)>,
}

impl Default for MenuSeats {
    fn default() -> MenuSeats {
        let names = |team: &str| [1, 2, 3].map(|k| format!("{team} {k}"));
        MenuSeats {
            names: [names("Black"), names("White")],
            kinds: [[PlayerKind::Person; 3]; 2],
            lead: crate::team::Lead::Captain,
            editing: None,
        }
    }
}

impl MenuSeats {
    /// The seats of a team game with these team sizes (none when every team has one player).
    pub fn team(&self, choice: &MenuChoice) -> Option<crate::team::TeamRecord> {
        let sizes = TEAMS[choice.teams];
        if sizes.iter().all(|s| *s < 2) || !matches!(choice.variant(), Variant::Ctor8 | Variant::Ctor10) {
            return None;
        }
        let seats = [0, 1].map(|t| {
            (0..sizes[t] as usize)
                .map(|k| {
                    let kind = if k == 0 { choice.players[t] } else { self.kinds[t][k] };
                    crate::record::PlayerInfo { name: self.names[t][k].clone(), kind: kind.record_kind() }
                })
                .collect()
        });
        Some(crate::team::TeamRecord::new(seats, self.lead))
    }
}

/// Whether a member's name is being typed in the menu (the keys then write it).
pub fn renaming(seats: Option<Res<MenuSeats>>) -> bool {
    seats.is_some_and(|s| s.editing.is_some())
}

/// A member's name or kind in the menu's team block.
#[derive(Component, Clone, Copy)]
struct SeatButton {
    side: Side,
    seat: usize,
    name: bool,
}

/// The menu's team block: shown for CTOR games with a team of two or three.
#[derive(Component)]
struct SeatsBlock;

#[derive(Component)]
struct LeadButton;

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

/// The colour of a menu choice, and of the one chosen.
const CHOICE: Color = Color::srgb(0.25, 0.16, 0.08);
const CHOSEN: Color = Color::srgb(0.52, 0.34, 0.12);

/// The menu's words for a player kind.
fn kind_name(kind: PlayerKind) -> String {
    match kind {
        PlayerKind::Person => "person".into(),
        PlayerKind::Random => "random".into(),
        PlayerKind::Ai(l) => crate::ai::LEVELS[l].name.into(),
    }
}

/// Capitalised, as a heading.

#[derive(Component)]
struct MenuLabel;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuChoice>()
        .init_resource::<MenuSeats>()
        // Typed names (registered by the input plugin in the window; here for headless menus).
        .add_message::<bevy::input::keyboard::KeyboardInput>()
        .add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(Update, (refresh, refresh_seats, type_name.run_if(renaming)).run_if(in_state(Screen::Menu)));
}

fn button(p: &mut ChildSpawnerCommands, text: String, f: impl Fn(&mut MenuChoice) + Send + Sync + 'static) -> Entity {
    styled_button(p, &text, 15.0, (5.0, 2.0), CHOICE)
        .observe(move |_: On<Pointer<Click>>, mut choice: ResMut<MenuChoice>| f(&mut choice))
        .id()
}

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
    folder: Res<super::session::SaveFolder>,
    mut images: ResMut<Assets<Image>>,
    mut pictures: Local<Vec<Handle<Image>>>,
) {
    // Decoded once: they stay in the assets.
    if pictures.is_empty() {
        *pictures = GAMES.iter().map(|(_, _, png)| super::bundled_png(&mut images, png)).collect();
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
                        .observe(|_: On<Pointer<Click>>, mut open: ResMut<super::guide::RulesOpen>| open.0 = !open.0);
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
                        |_: On<Pointer<Click>>, mut b: ResMut<super::broadcast::Broadcast>| {
                            b.size = super::broadcast::Broadcast::next_size(b.size);
                        },
                    );
                    small_button(games, "Open the broadcast window", BROADCAST).observe(
                        |_: On<Pointer<Click>>, mut open: MessageWriter<super::broadcast::OpenBroadcast>| {
                            open.write(super::broadcast::OpenBroadcast);
                        },
                    );
                    // The live feed: the game's state, events and an overlay page for a
                    // streaming tool, on this machine (127.0.0.1:7878).
                    small_button(games, "Live feed on or off", BROADCAST)
                        .observe(|_: On<Pointer<Click>>, mut live: ResMut<super::feed::LiveFeed>| live.toggle());
                    // Settings (animation, quality, camera, UI scale, reduced motion): S too.
                    games.spawn(heading("Settings"));
                    small_button(games, "Settings (S)", CHOICE).observe(
                        |_: On<Pointer<Click>>, mut open: ResMut<super::prefs::SettingsOpen>| open.0 = !open.0,
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
fn spawn_seats(opts: &mut ChildSpawnerCommands) {
    opts.spawn((
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            display: Display::None,
            ..default()
        },
        SeatsBlock,
        Pickable::IGNORE,
    ))
    .with_children(|block| {
        block.spawn(label("Team members (click a name to type it)", 14.0));
        block.spawn((Node { flex_direction: FlexDirection::Row, ..default() }, Pickable::IGNORE)).with_children(
            |row| {
                for side in [Side::First, Side::Second] {
                    row.spawn((
                        Node { flex_direction: FlexDirection::Column, align_items: AlignItems::Center, ..default() },
                        Pickable::IGNORE,
                    ))
                    .with_children(|team| {
                        for seat in 0..3 {
                            team.spawn((
                                Node { flex_direction: FlexDirection::Row, display: Display::None, ..default() },
                                SeatButton { side, seat, name: false },
                                Pickable::IGNORE,
                            ))
                            .with_children(|line| {
                                for name in [true, false] {
                                    styled_button(line, "", 13.0, (2.0, 1.0), CHOICE)
                                    .insert(SeatButton { side, seat, name })
                                    .observe(
                                        move |_: On<Pointer<Click>>,
                                              mut seats: ResMut<MenuSeats>,
                                              mut choice: ResMut<MenuChoice>| {
                                            if name {
                                                let me = Some((side, seat));
                                                seats.editing = if seats.editing == me { None } else { me };
                                                return;
                                            }
                                            seats.editing = None;
                                            let all = PlayerKind::all();
                                            let next = |k: PlayerKind| {
                                                all[(all.iter().position(|x| *x == k).unwrap_or(0) + 1) % all.len()]
                                            };
                                            if seat == 0 {
                                                choice.players[side.index()] = next(choice.players[side.index()]);
                                            } else {
                                                seats.kinds[side.index()][seat] = next(seats.kinds[side.index()][seat]);
                                            }
                                        },
                                    );
                                }
                            });
                        }
                    });
                }
            },
        );
        styled_button(block, "", 13.0, (2.0, 2.0), CHOICE).insert(LeadButton).observe(
            |_: On<Pointer<Click>>, mut seats: ResMut<MenuSeats>| {
                use crate::team::Lead;
                seats.lead = if seats.lead == Lead::Captain { Lead::Rotation } else { Lead::Captain };
            },
        );
    });
}

/// The team block follows the choice: shown for team games, a row per member, the captions.
#[allow(clippy::type_complexity)]
fn refresh_seats(
    choice: Res<MenuChoice>,
    seats: Res<MenuSeats>,
    mut block: Query<&mut Node, (With<SeatsBlock>, Without<SeatButton>)>,
    mut buttons: Query<(&SeatButton, &mut Node, Option<&Children>), Without<SeatsBlock>>,
    lead: Query<&Children, With<LeadButton>>,
    mut texts: Query<&mut Text>,
) {
    if !choice.is_changed() && !seats.is_changed() {
        return;
    }
    let team = seats.team(&choice);

    let shown = if team.is_some() { Display::Flex } else { Display::None };
    for mut node in &mut block {
        if node.display != shown {
            node.display = shown;
        }
    }
    let sizes = TEAMS[choice.teams];
    let mut set = |children: &Children, caption: String| {
        for child in children {
            if let Ok(mut t) = texts.get_mut(*child)
                && t.0 != caption
            {
                t.0 = caption.clone();
            }
        }
    };
    for (b, mut node, children) in &mut buttons {
        let display = if b.seat < sizes[b.side.index()] as usize { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
        let Some(children) = children else { continue };
        let caption = if b.name {
            let typing = if seats.editing == Some((b.side, b.seat)) { "_" } else { "" };
            format!("{}{typing}", seats.names[b.side.index()][b.seat])
        } else if b.seat == 0 {
            kind_name(choice.players[b.side.index()])
        } else {
            kind_name(seats.kinds[b.side.index()][b.seat])
        };
        set(children, caption);
    }
    for children in &lead {
        set(children, format!("Moves and Landings: {}", seats.lead.label()));
    }
}

/// Typing a member's name: letters, digits and spaces (at most 16), Backspace takes one back,
/// Enter or Escape ends.
fn type_name(mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>, mut seats: ResMut<MenuSeats>) {
    use bevy::input::keyboard::Key;
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        let Some((side, seat)) = seats.editing else { return };
        let name = &mut seats.names[side.index()][seat];
        match &key.logical_key {
            Key::Enter | Key::Escape | Key::Tab => {
                if name.trim().is_empty() {
                    *name = format!("{} {}", capital(crate::team::team_name(side)), seat + 1);
                }
                seats.editing = None;
            }
            Key::Backspace => {
                name.pop();
            }
            Key::Space if name.chars().count() < 16 => name.push(' '),
            Key::Character(c) => {
                for ch in c.chars().filter(|ch| ch.is_alphanumeric() || *ch == '-' || *ch == '\'') {
                    if name.chars().count() < 16 {
                        name.push(ch);
                    }
                }
            }
            _ => {}
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

/// A choice's colours, as a query asks for them and as it gets them.
type ChoiceLook = (&'static mut BackgroundColor, &'static mut BorderColor);
type Look<'a> = (Mut<'a, BackgroundColor>, Mut<'a, BorderColor>);

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn refresh(
    choice: Res<MenuChoice>,
    seats: Res<MenuSeats>,
    broadcast: Option<Res<super::broadcast::Broadcast>>,
    live: Option<Res<super::feed::LiveFeed>>,
    trouble: Option<Res<super::prefs::SettingsTrouble>>,
    mut label: Query<&mut Text, With<MenuLabel>>,
    mut sides: Query<(&mut Text, &SideLabel), Without<MenuLabel>>,
    mut cards: Query<(ChoiceLook, &GameCard)>,
    mut players: Query<(ChoiceLook, &PlayerButton), Without<GameCard>>,
    mut options: Query<(ChoiceLook, &mut Node, &GameOption, &Children), (Without<GameCard>, Without<PlayerButton>)>,
    mut none: Query<&mut Node, (With<NoOptions>, Without<GameOption>)>,
    mut texts: Query<&mut Text, (Without<MenuLabel>, Without<SideLabel>)>,
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
    let s = format!(
        "{}{ctor}: {} {} against {} {}{size}{feed}{trouble}",
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

fn start(_: On<Pointer<Click>>, mut commands: Commands, mut choice: ResMut<MenuChoice>, seats: Res<MenuSeats>) {
    let mut session = Table::new(choice.game(), choice.players, choice.seed);
    if let Some(team) = seats.team(&choice) {
        for (player, members) in session.record.players.iter_mut().zip(&team.seats) {
            player.name = members.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
        }
        session.record.team = Some(team);
    }
    let session = if choice.secrets { session.with_secrets() } else { session };
    commands.queue(super::open(session));
    choice.seed = choice.seed.wrapping_add(1);
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
                commands.queue(super::open(session));
            }
            Err(e) => {
                for mut t in &mut labels {
                    t.0 = e.to_string();
                }
            }
        },
    );
}
