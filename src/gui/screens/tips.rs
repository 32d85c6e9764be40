//! First-game tips: while a person plays a game they have not played before, a short line
//! at the top, above the board, says what to click next (a stone, the green squares, the list of
//! moves, *End turn*). Each tip is shown once for each game and then kept as seen in the
//! settings; the setting *Tips* switches them off.

use crate::gui::frame::session::{Highlights, Picking, Session};
use crate::gui::frame::steps::{Mode, Screen, TableSystems};
use crate::rules::{Game, Variant};
use crate::settings::Settings;
use bevy::prelude::*;

/// What a person can be in the middle of, each with its tip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Nothing chosen yet.
    Start,
    /// A piece chosen: its moves are lit.
    Chosen,
    /// A click that fits several moves: the list asks which.
    List,
    /// CTOR: ending the turn is all that is left.
    EndTurn,
}

impl Moment {
    fn id(self) -> &'static str {
        match self {
            Moment::Start => "start",
            Moment::Chosen => "chosen",
            Moment::List => "list",
            Moment::EndTurn => "end",
        }
    }

    /// The tip, in the game's own words.
    pub fn tip(self, variant: Variant) -> &'static str {
        match (self, variant) {
            (Moment::Start, Variant::Ordo | Variant::OrdoX) => {
                "Tip: click one of your stones to see where it (or its line) can go. F1: the rules."
            }
            (Moment::Start, Variant::Crossings) => {
                "Tip: click one of your stones to see where it (or its phalanx) can go. F1: the rules."
            }
            (Moment::Start, Variant::Volterra) => {
                "Tip: click your pawn to step it, or a tower of yours next to it to build. F1: the rules."
            }
            (Moment::Start, Variant::VolterraFree) => {
                "Tip: click an empty cell to lay one of your tiles. F1: the rules."
            }
            (Moment::Start, _) => {
                "Tip: click an empty square to Put a disc, or one of your discs to Move it. F1: the rules."
            }
            (Moment::Chosen, _) => {
                "Tip: the green squares are where it can go (red: a capture). Click one; Esc drops it."
            }
            (Moment::List, _) => "Tip: this click fits several moves: choose one in the list.",
            (Moment::EndTurn, _) => "Tip: nothing is left this turn: press End turn.",
        }
    }
}

/// The tip's key in the settings: the game and the moment.
fn key(variant: Variant, moment: Moment) -> String {
    format!("{}:{}", variant.name(), moment.id())
}

/// The moment a person is in at the table, if a person chooses now.
pub fn moment(session: &Session, picking: &Picking, marks: &Highlights) -> Option<Moment> {
    if !session.person_to_move() || session.replay.is_some() || session.game.outcome().is_some() {
        return None;
    }
    if !picking.choices.is_empty() {
        return Some(Moment::List);
    }
    if session.only_end_left() {
        return Some(Moment::EndTurn);
    }
    if !marks.selected.is_empty() && !marks.targets.is_empty() {
        return Some(Moment::Chosen);
    }
    (marks.selected.is_empty() && picking.picker.parts.is_empty()).then_some(Moment::Start)
}

/// The tip line.
#[derive(Component)]
struct TipLine;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), spawn_line).add_systems(
        Update,
        follow.run_if(in_state(Mode::Live).and_then(resource_exists::<Settings>)).in_set(TableSystems::Present),
    );
}

fn spawn_line(mut commands: Commands) {
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            // Where the result banner goes once the game is over (no tip shows then), above
            // the board and between the panels.
            top: px(14),
            left: percent(34),
            max_width: percent(40),
            padding: UiRect::axes(px(12), px(6)),
            border_radius: BorderRadius::all(px(6)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(crate::gui::theme::colour::TIP),
        Pickable::IGNORE,
        DespawnOnExit(Screen::Playing),
        children![(Text::new(""), TextFont { font_size: FontSize::Px(15.0), ..default() }, Pickable::IGNORE, TipLine,)],
    ));
}

/// Shows the tip of the moment, once: a tip shown is marked seen as soon as the moment
/// passes (the person acted on it), and saved with the settings.
#[allow(clippy::type_complexity)]
fn follow(
    session: Res<Session>,
    picking: Res<Picking>,
    marks: Res<Highlights>,
    mut settings: ResMut<Settings>,
    mut line: Query<(&mut Text, &ChildOf), With<TipLine>>,
    mut nodes: Query<&mut Node>,
    mut shown: Local<Option<String>>,
) {
    let variant = session.game.variant();
    let now = moment(&session, &picking, &marks).map(|m| (key(variant, m), m));
    // The tip shown before has done its work once the moment changes.
    if let Some(before) = shown.as_ref()
        && now.as_ref().map(|n| &n.0) != Some(before)
    {
        if !settings.tips_seen.contains(before) {
            settings.tips_seen.push(before.clone());
        }
        *shown = None;
    }
    let tip = now.filter(|(k, _)| settings.tips && !settings.tips_seen.contains(k));
    let text = tip.as_ref().map(|(_, m)| m.tip(variant)).unwrap_or("");
    *shown = tip.map(|(k, _)| k);
    for (mut t, parent) in &mut line {
        if t.0 != text {
            t.0 = text.to_string();
        }
        if let Ok(mut node) = nodes.get_mut(parent.parent()) {
            let display = if text.is_empty() { Display::None } else { Display::Flex };
            if node.display != display {
                node.display = display;
            }
        }
    }
}
