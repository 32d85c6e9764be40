//! The table's clocks and what the players show: the sand-glass's clock, whose running out
//! ends a CTOR turn like any other chosen move; the pace at which a team's revealed Puts are
//! placed; and *My secrets*, the team on turn's own secret squares shown at its asking.

use super::session::{By, MoveChosen, SecretCommand, Session, TableIntent, animating};
use super::steps::{Mode, Screen, TableSystems};
use crate::rules::ctor::CtorMove;
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::table::{Intent, RoundPhase, SecretPhase};
use bevy::prelude::*;

/// What the CTOR table shows besides the game: the team on turn's own secret squares when it
/// asks, and the sand-glass's clock.
#[derive(Resource, Clone, Debug, Default)]
pub struct CtorTable {
    /// The team on turn shows its own unrevealed secret squares (the other team looks away).
    pub show_own: bool,
    /// Seconds the current turn has run.
    pub clock: f32,
    clock_turn: Option<(Side, u32)>,
}

pub(crate) fn plugin(app: &mut App) {
    // Each table put on the screen starts with the glass full and no one's secrets shown.
    app.init_resource::<CtorTable>()
        .add_systems(OnEnter(Screen::Playing), |mut table: ResMut<CtorTable>| *table = CtorTable::default())
        .add_systems(
            PreUpdate,
            (
                show_mine.run_if(in_state(Mode::Live)),
                sand_clock.run_if(in_state(Mode::Live).and_then(timed).and_then(not(animating))),
                place_puts.run_if(in_state(Mode::Live).and_then(placing).and_then(not(animating))),
            )
                .in_set(TableSystems::Pick),
        );
}

/// A CTOR game with a sand-glass is at the table.
pub(crate) fn timed(session: Option<Res<Session>>) -> bool {
    session.is_some_and(|s| has_glass(&s) && !s.in_round())
}

fn has_glass(session: &Session) -> bool {
    matches!(&session.game, AnyGame::Ctor(g) if g.options().timer.is_some())
}

/// The game at the table is a CTOR game with a sand-glass, not over: its clock runs.
pub fn sand_running(session: &Session) -> bool {
    has_glass(session) && session.game.outcome().is_none() && !session.spectator
}

/// *My secrets* during play: the team on turn shows or hides its own unrevealed squares.
fn show_mine(mut commands: MessageReader<SecretCommand>, session: Res<Session>, mut table: ResMut<CtorTable>) {
    for command in commands.read() {
        if *command == SecretCommand::ShowMine && matches!(session.secrets, SecretPhase::Off | SecretPhase::Done) {
            table.show_own = !table.show_own;
        }
    }
}

/// The sand-glass's clock: it runs while the side to move chooses and nothing moves; when it
/// runs out the turn ends, a Timeout chosen like any other move (at a hosted game's seat, the
/// host's clock ends it).
fn sand_clock(
    session: Res<Session>,
    mut table: ResMut<CtorTable>,
    time: Res<Time>,
    mut chosen: MessageWriter<MoveChosen>,
    mut heard: MessageWriter<crate::gui::look::sound::Sounded>,
) {
    let AnyGame::Ctor(g) = &session.game else { return };
    let Some(limit) = g.options().timer else { return };
    let now = Some((g.side_to_move(), g.turn()));
    if table.clock_turn != now {
        table.clock_turn = now;
        table.clock = 0.0;
    }
    if g.outcome().is_some() || (session.seat.is_some() && table.clock >= limit as f32) {
        return;
    }
    let before = table.clock;
    table.clock += time.delta_secs();
    for _ in 0..crate::gui::look::sound::sand_ticks(before, table.clock, limit as f32) {
        heard.write(crate::gui::look::sound::Sounded(crate::sound::Sound::SandTick));
    }
    if table.clock >= limit as f32 {
        if session.seat.is_some() {
            // A seat of a hosted game: the host's sand-glass ends the turn, this one only shows it.
            table.clock = limit as f32;
            return;
        }
        table.clock = 0.0;
        chosen.write(MoveChosen { mv: AnyMove::Ctor(CtorMove::Timeout), by: By::SandGlass });
    }
}

/// A team's revealed Puts wait to be placed.
fn placing(session: Option<Res<Session>>) -> bool {
    session.is_some_and(|s| s.round.phase == RoundPhase::Placing)
}

/// Once the table rests, the next revealed Put is placed (or the round goes on, or ends).
fn place_puts(mut intents: MessageWriter<TableIntent>) {
    intents.write(TableIntent(Intent::PlaceNextPut));
}
