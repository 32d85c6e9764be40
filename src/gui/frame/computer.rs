//! The computer at the table: its moves and the person's hints, searched off the main thread
//! (the random mover's at once, after a short wait) and sent as chosen moves, at the pace the
//! players set, or paused.

use super::steps::{Mode, TableSystems};
use crate::gui::frame::session::{By, Command, MoveChosen, Notice, Picking, PlayerKind, Session, TableIntent};
use crate::rules::{AnyGame, AnyMove};
use crate::table::Intent;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<ComputerThinking>()
        .init_resource::<ComputerPace>()
        .add_systems(PreUpdate, computer_turn.in_set(TableSystems::Pick));
}

/// The computer's search in progress, off the main thread, for the position it was asked
/// about (and whether it is a hint).
#[derive(Default)]
pub struct Thinking {
    task: Option<(SearchTask, AnyGame, bool)>,
    /// Seconds the table has rested since the computer's turn began.
    waited: f32,
    /// A move found, waiting for its pace (or the end of a pause).
    ready: Option<(AnyMove, AnyGame)>,
    /// The moves played when the wait began.
    moves: usize,
}

/// A search on a thread of its own, below the window's priority and on one core fewer than the
/// machine has ([`crate::ai::table_threads`]), so that the frame goes on while the computer
/// thinks. Dropping it (undo, a new game, leaving the table) tells the search to stop, so its
/// core is free at once.
pub struct SearchTask {
    job: crate::background::Job<Option<AnyMove>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl SearchTask {
    fn start(game: AnyGame, level: crate::ai::Level, seed: u64, then: Then) -> SearchTask {
        let threads = crate::ai::table_threads();
        SearchTask::on_thread(move |stop| crate::ai::search_until(&game, level.on(threads), seed, stop).mv, then)
    }

    /// Any other computer player of the kind (it is not stopped early).
    fn with_player(game: AnyGame, kind: PlayerKind, seed: u64, then: Then) -> SearchTask {
        let threads = crate::ai::table_threads();
        SearchTask::on_thread(move |_| kind.player(seed, threads).and_then(|mut p| p.choose(&game)), then)
    }

    fn on_thread(
        search: impl FnOnce(&std::sync::atomic::AtomicBool) -> Option<AnyMove> + Send + 'static,
        then: Then,
    ) -> SearchTask {
        use crate::background::{Job, Priority};
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        // The window rests while the computer searches: the search wakes it when it ends.
        let job = Job::spawn("tablero-search", Priority::Lower, move || search(&flag), then);
        SearchTask { job, stop }
    }
}

/// What a search does once its answer can be polled: wake the window ([`super::steps::wake_when_done`]).
type Then = Box<dyn FnOnce() + Send>;

impl Drop for SearchTask {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// How the computer plays at the table: at least `seconds` between the table coming to rest
/// and its move (so a match between computers can be followed, or streamed), or not at all
/// while paused.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct ComputerPace {
    pub seconds: f32,
    pub paused: bool,
}

impl ComputerPace {
    /// The paces *Computer pace* cycles through.
    pub const CHOICES: [f32; 5] = [0.0, 1.0, 2.0, 4.0, 8.0];

    pub fn next(self) -> ComputerPace {
        let i = Self::CHOICES.iter().position(|s| *s == self.seconds).map_or(0, |i| (i + 1) % Self::CHOICES.len());
        ComputerPace { seconds: Self::CHOICES[i], ..self }
    }

    pub fn label(self) -> String {
        let pace = if self.seconds > 0.0 { format!("{} s a move", self.seconds) } else { "at once".into() };
        if self.paused { format!("computer paused ({pace})") } else { format!("computer: {pace}") }
    }
}

/// Whether the computer is searching now (the table rests meanwhile: the search wakes it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputerThinking(pub bool);

/// The computer's turn and the person's hints: a search off the main thread (or the random
/// mover's pick after a short wait) becomes a chosen move, or the hint's marked cells.
#[allow(clippy::too_many_arguments)]
fn computer_turn(
    session: Res<Session>,
    mode: Res<State<Mode>>,
    tweens: Query<(), With<crate::gui::frame::animate::Tween>>,
    time: Res<Time>,
    speed: Res<crate::gui::frame::animate::Speed>,
    mut commands: MessageReader<Command>,
    mut thinking: Local<Thinking>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut busy: ResMut<ComputerThinking>,
    mut pace: ResMut<ComputerPace>,
    mut chosen: MessageWriter<MoveChosen>,
    mut intents: MessageWriter<TableIntent>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let waker = || -> Then { Box::new(super::steps::wake_when_done(proxy.as_deref())) };
    // Said after every step, so that the table ticks the frame its search ends (the move then
    // waits for the pace) and rests while it searches.
    (|| {
        // Away from a live game (a replay, the secret squares), no search goes on.
        if *mode.get() != Mode::Live {
            thinking.task = None;
            commands.clear();
            return;
        }
        let mut hint_asked = false;
        for command in commands.read() {
            match command {
                Command::Hint => hint_asked = true,
                Command::PauseComputer => pace.paused = !pace.paused,
                Command::ComputerPace => *pace = pace.next(),
                _ => {}
            }
        }
        if !tweens.is_empty() || !session.computer_to_move() || thinking.moves != session.history.len() {
            thinking.waited = 0.0;
            thinking.moves = session.history.len();
        } else {
            thinking.waited += time.delta_secs();
        }
        // A move found plays once the table has rested its pace, unless paused; a position that
        // changed meanwhile (an undo) drops it.
        if let Some((_, for_position)) = &thinking.ready
            && *for_position != session.game
        {
            thinking.ready = None;
        }
        if thinking.ready.is_some() {
            if !pace.paused && tweens.is_empty() && thinking.waited >= pace.seconds {
                let (mv, _) = thinking.ready.take().expect("checked");
                notice.say("");
                chosen.write(MoveChosen { mv, by: By::Computer });
            }
            return;
        }
        // A finished search plays (or hints) only if the position is still the one it was for:
        // an undo or a new game meanwhile simply drops it.
        if let Some((search, for_position, hint)) = &mut thinking.task
            && let Some(answer) = search.job.poll()
        {
            // A search whose thread is gone (it could not start) plays nothing: the next frame asks again.
            let result = answer.ok().flatten();
            let (still, hint) = (*for_position == session.game, *hint);
            thinking.task = None;
            if still && let Some(mv) = result {
                if hint {
                    picking.hint = crate::ai::hint_cells(&session.game, &mv);
                    notice.say(format!("hint: {mv}"));
                } else {
                    thinking.ready = Some((mv, session.game.clone()));
                }
            }
            return;
        }
        if let Some((_, for_position, _)) = &thinking.task {
            if *for_position != session.game {
                thinking.task = None; // dropping the search stops it
            }
            return;
        }
        // The computer sees the game as its team does (CTOR: not the opponent's unrevealed secret
        // squares), and a team's acting seat has no Puts left after the members' blind ones.
        let view = session.view_to_move();
        if hint_asked && session.person_to_move() {
            let game = session.game.clone();
            let seed = session.history.len() as u64 ^ 0x41;
            // The hint is master's own move (the level that weighs the evaluation bar), as the
            // computer's moves are searched at the table.
            let master = crate::ai::LEVELS[crate::ai::EVAL_LEVEL];
            thinking.task = Some((SearchTask::start(view, master, seed, waker()), game, true));
            notice.say(format!("thinking about a hint ({} thinks for you)...", master.name));
            return;
        }
        if !tweens.is_empty() || !session.computer_to_move() || pace.paused {
            return;
        }
        match session.to_move().unwrap_or(PlayerKind::Person) {
            PlayerKind::Random => {
                // A short wait at least, so that its moves can be followed.
                if thinking.waited < (0.4 * speed.factor()).max(pace.seconds) {
                    return;
                }
                // The table's own seeded random mover chooses, from the same view.
                intents.write(TableIntent(Intent::PlayRandom));
            }
            PlayerKind::Ai(l) => {
                let game = session.game.clone();
                let seed = session.history.len() as u64;
                let level = crate::ai::LEVELS[l];
                // The panel says who thinks (its thinking line); an older message goes.
                notice.say("");
                thinking.task = Some((SearchTask::start(view, level, seed, waker()), game, false));
            }
            kind @ (PlayerKind::Baseline | PlayerKind::Uct(_)) => {
                // The yardstick and the sparring partner (a record of a match resumed here).
                let game = session.game.clone();
                let seed = session.history.len() as u64;
                notice.say("");
                thinking.task = Some((SearchTask::with_player(view, kind, seed, waker()), game, false));
            }
            PlayerKind::Person => {}
        }
    })();
    let searching = thinking.task.is_some();
    if busy.0 != searching {
        busy.0 = searching;
    }
}
