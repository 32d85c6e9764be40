//! The rules at hand: a panel (`F1`, or the *Rules* buttons of the menu and the table) that
//! says in a few lines how the chosen game is played and won, its options, and how the move
//! list writes its moves, with a picture of a position rendered by tablero itself
//! (`assets/pictures.sh`). It sits at the right edge and takes no clicks from the board, so a
//! move being chosen stays as it is; the full text is docs/rules.md.

use crate::gui::frame::keymap::{Action, Pressed};
use crate::gui::frame::steps::Screen;
use crate::rules::Variant;
use bevy::prelude::*;

/// One game's page: its picture, what the picture shows, and the rules in short.
pub struct Page {
    pub picture: &'static [u8],
    pub caption: &'static str,
    pub text: &'static str,
}

/// Ordo Classic's and Ordo X's move notation: the last line of both pages.
macro_rules! ordo_notation {
    () => {
        "- Moves list: c2-c5 a stone, e4xe5 a capture, c2:d2-c4 an ordo (its two ends, then where the first lands); in Ordo X c2-a2,a2-a4 sideways then forward, and ^f6 names the group that stays."
    };
}

const ORDO: &str = concat!(
    "\
- Goal: a stone of yours on the far row, or every enemy stone captured.
- Your stones must stay one group (touching at a side or a corner) after each of your moves.
- A turn: slide one stone any distance forward, diagonally forward or sideways; landing on an enemy captures it. Or move an ordo (your stones side by side in a straight line): a row moves forward, a column sideways, all the same distance, never capturing.
- Split by a capture, you must join up again at once (backward moves allowed then, captures too: tablero's choice); if you cannot, you lose.
- A player who cannot move loses (tablero's choice: the rules are silent).
",
    ordo_notation!()
);

const ORDO_X: &str = concat!(
    "\
- Goal: a stone of yours on the far row, or every enemy stone captured.
- Your stones stay one group. A capture that splits the enemy removes all but its largest part (if parts tie, the capturer chooses).
- Any ordo moves forward, diagonally forward or sideways.
- A sideways move must be followed in the same turn by a forward one: a turn is one forward move, or sideways then forward.
",
    ordo_notation!()
);

const CROSSINGS: &str = "\
- Goal: cross to the far row and make it stick. After your crossing the opponent has one move: unless it crosses too, you win.
- A turn: one stone steps to any empty neighbour; or a phalanx of L stones in a line moves along it 1 to L squares (tablero's choice; exactly L with the exact phalanx option).
- The front stone may capture the first enemy it meets if the enemy line there is shorter than L; the move stops there, so a capture may be shorter than L even with exact.
- A crossed stone (gold ring) is locked: it never moves and cannot be captured.
- Draws (tablero's choice: the rules only say draws are rare): threefold repetition, 100 moves without capture or crossing, no move.
- Moves list: b2-c3 a stone, a1:a2-a4 a phalanx (rear, front, where the front lands), c1:c2xc4 a capture.";

const VOLTERRA: &str = "\
- Goal: the taller towers when the game ends. Then each side lists its towers tallest first; the first difference decides (identical lists draw: tablero's choice).
- Light starts unless the players choose dark (option First player).
- A turn is two actions in either order: step your pawn to a neighbouring tower of your colour, and build: lift the top tile (or two) of your tower next to your pawn that has a free side, onto another tower next to your pawn. Emptied cells become holes.
- After a build, every part of the board without a pawn is removed.
- The game ends when the player to move cannot make a whole turn.
- A free side: a hole or the grid's edge beside the tower (tablero's choice).
- Option build near the source: the tiles go next to the tower they come from.
- Moves list: Pb3-a4 a step, a3-b4 a build of one tile, a3=b4 of two; a turn joins its two actions with a comma.";

const VOLTERRA_FREE: &str = "\
- First the players lay out the board: in turn, the first player first (light unless dark is chosen), each lays a tile of their colour on an empty cell until the grid is full; then each puts their pawn on a tower of their own colour (+b2 lays a tile, @c3 puts the pawn).
- Then it plays as Volterra: a turn is a step of your pawn and a build, in either order; parts without a pawn are removed; the taller towers win when the player to move has no whole turn.
- Moves list: Pb3-a4 a step, a3-b4 a build of one tile, a3=b4 of two.";

const CTOR: &str = "\
- Goal: more discs than the other team when the field is full.
- The field is a torus: its edges join; the border shows copies of the opposite edges.
- A turn, within its allowance and in any order, then End turn: Put a disc on an empty square; Move one a step along a rank or file; Landing: take two of yours off, put one anywhere empty (tablero's choice; option Landing: on a square emptied).
- A disc with 5 or more of its 8 neighbours of the other colour turns over by itself, in a cascade (done for you: tablero's choice, it costs you nothing).
- The first three turns only Put: 1 disc, then 2, then up to 3. Normal turns follow, by the table's row (the turn power).
- Black begins, two turns with no operation end the game (tablero's choices).
- Options: teams of 1 to 3 each, turn power, landings a turn, where a Landing goes, secret squares (an enemy disc put there turns to you), the sand-glass.
- Moves list: P12 a Put, M27-28 a Move, L12,27>33 a Landing, E the end of the turn (squares numbered from the top left).";

/// The page of a variant.
pub fn page(variant: Variant) -> Page {
    match variant {
        Variant::Ordo => Page {
            picture: include_bytes!("../../../assets/rules/ordo.png"),
            caption: "White may capture on d5 with a stone from b3, d4 or e4.",
            text: ORDO,
        },
        Variant::OrdoX => Page {
            picture: include_bytes!("../../../assets/rules/ordo-x.png"),
            caption: "The same position in Ordo X: ordos move more freely.",
            text: ORDO_X,
        },
        Variant::Crossings => Page {
            picture: include_bytes!("../../../assets/rules/crossings.png"),
            caption: "Red has crossed on d8: Black must cross too at once, or lose.",
            text: CROSSINGS,
        },
        Variant::Volterra => Page {
            picture: include_bytes!("../../../assets/rules/volterra.png"),
            caption: "Towers built two high, and holes where tiles were lifted away.",
            text: VOLTERRA,
        },
        Variant::VolterraFree => Page {
            picture: include_bytes!("../../../assets/rules/volterra-free.png"),
            caption: "The free setup under way: tiles laid one by one.",
            text: VOLTERRA_FREE,
        },
        Variant::Ctor8 | Variant::Ctor10 => Page {
            picture: include_bytes!("../../../assets/rules/ctor.png"),
            caption: "The white disc on square 20 has six black neighbours: it turns black when Black's turn begins.",
            text: CTOR,
        },
    }
}

/// Whether the rules panel is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RulesOpen(pub bool);

/// The panel and its parts.
#[derive(Component)]
struct RulesPanel;
#[derive(Component)]
struct RulesTitle;
#[derive(Component)]
struct RulesText;
#[derive(Component)]
struct RulesCaption;
#[derive(Component)]
struct RulesPicture;

/// The pictures, decoded once, by variant.
#[derive(Resource, Default)]
struct Pictures(Vec<(Variant, Handle<Image>)>);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<RulesOpen>()
        .init_resource::<Pictures>()
        // The wheel scrolls a long page (registered by the input plugin in the window).
        .add_message::<bevy::input::mouse::MouseWheel>()
        .add_systems(Startup, spawn_panel)
        .add_systems(Update, (keys, show, fill.run_if(rules_open), scroll.run_if(rules_open)).chain());
}

fn rules_open(open: Res<RulesOpen>) -> bool {
    open.0
}

/// The game the panel explains: the one at the table, else the one chosen in the menu.
fn shown_variant(
    screen: &State<Screen>,
    session: Option<&crate::gui::frame::session::Session>,
    choice: Option<&crate::gui::screens::choice::MenuChoice>,
) -> Variant {
    match (screen.get(), session) {
        (Screen::Playing, Some(s)) => crate::rules::Game::variant(&s.game),
        _ => choice.map_or(Variant::Ordo, |c| c.variant()),
    }
}

/// `F1` (or the *Rules* button) opens and closes the panel.
fn keys(mut pressed: MessageReader<Pressed>, mut open: ResMut<RulesOpen>) {
    for Pressed(action) in pressed.read() {
        if *action == Action::Rules {
            open.0 = !open.0;
        }
    }
}

fn spawn_panel(mut commands: Commands) {
    use crate::gui::theme::size;
    let small = |size: f32| TextFont { font_size: FontSize::Px(size), ..default() };
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                top: px(8),
                right: px(8),
                // Narrow enough to stay beside most of the board; as tall as the window allows
                // (the mouse wheel scrolls a page longer than that).
                width: px(300),
                max_height: percent(86),
                overflow: Overflow::scroll_y(),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(10)),
                border_radius: BorderRadius::all(px(10)),
                display: Display::None,
                ..default()
            },
            BackgroundColor(crate::gui::theme::colour::PAGE),
            GlobalZIndex(15),
            Pickable::IGNORE,
            RulesPanel,
        ))
        .with_children(|p| {
            p.spawn((
                crate::gui::theme::bold("", size::LABEL, crate::gui::theme::colour::TEXT),
                Node { flex_shrink: 0.0, ..default() },
                RulesTitle,
            ));
            p.spawn((
                ImageNode::default(),
                Node {
                    width: px(280),
                    height: px(175),
                    margin: UiRect::vertical(px(4)),
                    flex_shrink: 0.0,
                    border_radius: BorderRadius::all(px(6)),
                    ..default()
                },
                Pickable::IGNORE,
                RulesPicture,
            ));
            p.spawn((
                Text::new(""),
                small(size::SMALL),
                TextColor(crate::gui::theme::colour::MUTED),
                Node { flex_shrink: 0.0, ..default() },
                Pickable::IGNORE,
                RulesCaption,
            ));
            p.spawn((
                Text::new(""),
                small(size::SMALL),
                // Its full height, scrolled inside the panel rather than squeezed.
                Node { margin: UiRect::top(px(6)), flex_shrink: 0.0, ..default() },
                Pickable::IGNORE,
                RulesText,
            ));
            p.spawn((
                Text::new("F1 closes this. The full rules: docs/rules.md"),
                small(size::SMALL),
                TextColor(crate::gui::theme::colour::MUTED),
                Node { margin: UiRect::top(px(6)), flex_shrink: 0.0, ..default() },
                Pickable::IGNORE,
            ));
        });
}

/// The mouse wheel scrolls the open panel (a page longer than the window).
fn scroll(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    mut panels: Query<&mut ScrollPosition, With<RulesPanel>>,
) {
    use bevy::input::mouse::MouseScrollUnit;
    let dy: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y * 24.0,
            MouseScrollUnit::Pixel => w.y,
        })
        .sum();
    if dy != 0.0 {
        for mut at in &mut panels {
            at.y = (at.y - dy).max(0.0);
        }
    }
}

/// The panel shows while it is open.
fn show(open: Res<RulesOpen>, mut panels: Query<&mut Node, With<RulesPanel>>) {
    let display = if open.0 { Display::Flex } else { Display::None };
    for mut node in &mut panels {
        if node.display != display {
            node.display = display;
        }
    }
}

/// The open panel says the rules of the game it explains (its texts stay while it is closed).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn fill(
    screen: Res<State<Screen>>,
    session: Option<Res<crate::gui::frame::session::Session>>,
    choice: Option<Res<crate::gui::screens::choice::MenuChoice>>,
    mut pictures: ResMut<Pictures>,
    mut images: ResMut<Assets<Image>>,
    mut pics: Query<&mut ImageNode, With<RulesPicture>>,
    mut texts: Query<(&mut Text, Has<RulesTitle>, Has<RulesCaption>, Has<RulesText>)>,
    mut last: Local<Option<Variant>>,
) {
    let variant = shown_variant(&screen, session.as_deref(), choice.as_deref());
    if *last == Some(variant) {
        return;
    }
    *last = Some(variant);
    let page = page(variant);
    let handle = match pictures.0.iter().find(|(v, _)| *v == variant) {
        Some((_, h)) => h.clone(),
        None => {
            let h = crate::gui::theme::bundled_png(&mut images, page.picture);
            pictures.0.push((variant, h.clone()));
            h
        }
    };
    for mut pic in &mut pics {
        if pic.image != handle {
            pic.image = handle.clone();
        }
    }
    for (mut t, title, caption, text) in &mut texts {
        let want = if title {
            format!("Rules: {}", variant.title())
        } else if caption {
            page.caption.to_string()
        } else if text {
            page.text.to_string()
        } else {
            continue;
        };
        if t.0 != want {
            t.0 = want;
        }
    }
}
