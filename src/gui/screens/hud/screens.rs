//! What comes over the table for a moment: the chooser of a click that fits several moves, the
//! result banner, CTOR's hand-over screens, and the seats' buttons of a team game.

use super::*;

/// Centre: the chooser for a click that fits several moves; top: the result banner.
pub(super) fn spawn_chooser_and_banner(commands: &mut Commands) {
    commands.spawn((
        absolute(|n| {
            n.top = percent(30);
            n.left = percent(30);
            n.flex_direction = FlexDirection::Column;
            n.padding = UiRect::all(px(12));
        }),
        BackgroundColor(colour::SURFACE),
        GlobalZIndex(12),
        Visibility::Hidden,
        Chooser,
        DespawnOnExit(Screen::Playing),
    ));
    commands.spawn((
        absolute(|n| {
            n.top = px(14);
            n.left = percent(35);
            // Never over the move list at the right: long results wrap.
            n.max_width = percent(38);
            n.padding = UiRect::all(px(12));
            n.border_radius = BorderRadius::all(px(10));
        }),
        BackgroundColor(colour::BANNER),
        Visibility::Hidden,
        Pickable::IGNORE,
        DespawnOnExit(Screen::Playing),
        children![(bold("", size::TITLE, colour::TEXT), HudText::Banner)],
    ));
}

/// CTOR's secret squares: an opaque screen between the teams, and the Done button.
pub(super) fn spawn_secret_screens(commands: &mut Commands) {
    commands
        .spawn((
            absolute(|n| {
                n.width = percent(100);
                n.height = percent(100);
                n.flex_direction = FlexDirection::Column;
                n.align_items = AlignItems::Center;
                n.justify_content = JustifyContent::Center;
            }),
            BackgroundColor(colour::PAGE),
            GlobalZIndex(25),
            Visibility::Hidden,
            SecretScreen::HandOver,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| {
            p.spawn((text("", size::HEADING, colour::TEXT), HudText::Message));
            spawn_button_sized(p, "Continue", Action::Secret(SecretCommand::Proceed), size::HEADING);
        });
    // The Done panel of each kind of choosing: one button where it does not hide the board.
    let done =
        |commands: &mut Commands, screen: SecretScreen, at: fn(&mut Node), words: &str, c: SecretCommand, size| {
            commands.spawn((absolute(at), Visibility::Hidden, screen, DespawnOnExit(Screen::Playing))).with_children(
                |p| {
                    spawn_button_sized(p, words, Action::Secret(c), size);
                },
            );
        };
    let panel_side = |n: &mut Node| {
        n.top = px(200);
        n.left = px(10);
    };
    let above_buttons = |n: &mut Node| {
        n.bottom = px(120);
        n.left = percent(40);
    };
    done(
        commands,
        SecretScreen::Choosing,
        panel_side,
        "Done: these are our 5 secret squares",
        SecretCommand::Done,
        13.0,
    );
    let puts = "Done: these are my Puts (Space)";
    done(commands, SecretScreen::PutsChoosing, above_buttons, puts, SecretCommand::PutsDone, 20.0);
}

/// The seats' buttons of a team game, under its members on the panel: each member of a team
/// of several may leave, a player may join a team with fewer members than Puts a turn (the
/// table says why not when the moment is wrong).
pub(super) fn seat_buttons(
    mut commands: Commands,
    session: Res<Session>,
    panels: Query<Entity, With<SeatButtons>>,
    mut shown: Local<Option<[Vec<crate::record::PlayerInfo>; 2]>>,
) {
    let seats = if session.replay.is_some() || session.spectator { None } else { session.seats() };
    if *shown == seats && !panels.is_empty() {
        return;
    }
    *shown = seats.clone();
    for panel in &panels {
        commands.entity(panel).despawn_children();
        let Some(seats) = &seats else { continue };
        commands.entity(panel).with_children(|p| {
            let most = match &session.game {
                AnyGame::Ctor(g) => g.teams().allowance(g.options().landing).puts as usize,
                _ => 0,
            };
            for side in [Side::First, Side::Second] {
                let team = &seats[side.index()];
                if team.len() >= 2 {
                    for (m, member) in team.iter().enumerate() {
                        let leave = Action::Secret(SecretCommand::Leave(side, m as u8));
                        spawn_button(p, &format!("{} leaves", member.name), leave);
                    }
                }
                if team.len() < most {
                    let name = crate::team::team_name(side);
                    spawn_button(p, &format!("A player joins {name}"), Action::Secret(SecretCommand::Join(side)));
                }
            }
        });
    }
}

pub(super) fn refresh_chooser(
    mut commands: Commands,
    picking: Res<Picking>,
    mut chooser: Query<(Entity, &mut Visibility), With<Chooser>>,
    mut shown: Local<Vec<(String, String)>>,
) {
    if *shown == picking.choices {
        return;
    }
    *shown = picking.choices.clone();
    let Ok((panel, mut vis)) = chooser.single_mut() else { return };
    commands.entity(panel).despawn_children();
    if picking.choices.is_empty() {
        *vis = Visibility::Hidden;
        return;
    }
    *vis = Visibility::Inherited;
    let choices = picking.choices.clone();
    commands.entity(panel).with_children(|p| {
        p.spawn(bold("Which move?", size::LABEL, colour::TEXT));
        for (label, part) in choices {
            spawn_button(p, &label, Action::Cmd(Command::Choose(part)));
        }
        spawn_button(p, "Cancel", Action::Cmd(Command::Cancel));
    });
}

/// The hand-over screens of CTOR's secret squares and of a team's blind Puts, shown while
/// their phase lasts.
pub(super) fn secret_screens(session: Res<Session>, mut screens: Query<(&SecretScreen, &mut Visibility)>) {
    use crate::table::RoundPhase;
    let (table, round) = (&session.secrets, &session.round);
    let live = session.mode() == crate::table::Mode::Live;
    for (screen, mut vis) in &mut screens {
        let show = match screen {
            SecretScreen::HandOver => {
                matches!(table, SecretPhase::HandOver(_) | SecretPhase::Ready)
                    || live && matches!(round.phase, RoundPhase::HandOver(..))
            }
            SecretScreen::Choosing => matches!(table, SecretPhase::Choosing(..)),
            SecretScreen::PutsChoosing => live && matches!(round.phase, RoundPhase::Choosing(..)),
        };
        let want = if show { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}
