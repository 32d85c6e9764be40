//! The menu's team seats (CTOR with teams of two or three): who sits in each seat, a person or
//! the computer, their names typed in place, and who plays the Moves and Landings.

use super::choice::{MenuChoice, MenuSeats, TEAMS, kind_name, renaming};
use crate::gui::frame::session::PlayerKind;
use crate::gui::frame::steps::Screen;
use crate::gui::theme::{colour::CONTROL as CHOICE, label, styled_button};
use crate::rules::Side;
use crate::table::capital;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, (refresh_seats, type_name.run_if(renaming)).run_if(in_state(Screen::Menu)));
}

/// A seat's button: its name, or who sits there.
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

pub(crate) fn spawn_seats(opts: &mut ChildSpawnerCommands) {
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
