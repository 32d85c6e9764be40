//! The game being played at the table: the rules' position, history for undo and redo, the
//! move being chosen, the players, and the messages that turn clicks and buttons into moves.

use super::Screen;
use crate::interact::{Pick, Picker};
use crate::players::{Player, RandomPlayer};
use crate::record::Record;
use crate::rules::{AnyGame, AnyMove, Cell, Effect, Game, Side};
use bevy::prelude::*;
use std::path::PathBuf;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Person,
    /// The seeded random mover.
    Random,
    /// The computer opponent at a level (an index into `ai::LEVELS`).
    Ai(usize),
}

impl PlayerKind {
    /// Every choice, in the order the menu cycles through them.
    pub fn all() -> Vec<PlayerKind> {
        let mut v = vec![PlayerKind::Person, PlayerKind::Random];
        v.extend((0..crate::ai::LEVELS.len()).map(PlayerKind::Ai));
        v
    }

    /// The next choice in the menu.
    pub fn next(self) -> PlayerKind {
        let all = PlayerKind::all();
        let i = all.iter().position(|k| *k == self).unwrap_or(0);
        all[(i + 1) % all.len()]
    }

    /// The kind written in records.
    pub fn record_kind(self) -> String {
        use crate::record::Kind;
        match self {
            PlayerKind::Person => Kind::Human,
            PlayerKind::Random => Kind::Random,
            PlayerKind::Ai(l) => Kind::Ai(l),
        }
        .name()
    }

    /// A record's player kind (records are checked on reading: an unknown kind never loads).
    fn from_record(kind: &str) -> PlayerKind {
        use crate::record::Kind;
        match Kind::parse(kind) {
            Some(Kind::Ai(l)) => PlayerKind::Ai(l),
            Some(Kind::Random) => PlayerKind::Random,
            Some(Kind::Human) | None => PlayerKind::Person,
        }
    }

    pub fn label(self) -> String {
        match self {
            PlayerKind::Person => "person".into(),
            PlayerKind::Random => "computer (random)".into(),
            PlayerKind::Ai(l) => format!("computer ({})", crate::ai::LEVELS[l].name),
        }
    }
}

/// The game at the table.
#[derive(Resource)]
pub struct Session {
    pub game: AnyGame,
    /// The position the game started from, for counting captured pieces.
    pub start: AnyGame,
    /// Each move played, with the position before it.
    pub history: Vec<(AnyGame, AnyMove)>,
    /// Moves undone, the next to redo last.
    pub redo: Vec<AnyMove>,
    pub picker: Picker,
    /// Moves offered when a click fits several (label, part).
    pub choices: Vec<(String, String)>,
    pub players: [PlayerKind; 2],
    /// A short line for the player: why a click was refused, or what to do next.
    pub message: String,
    /// Cells of the last move, highlighted.
    pub last_move: Vec<Cell>,
    /// Effects of a chosen first part already shown on the table.
    pub shown_effects: usize,
    /// A setup screen is up (CTOR's secret squares): moves wait, the reason is shown.
    pub blocked: Option<String>,
    /// The game's record, kept up to date with every move, undo and redo.
    pub record: Record,
    /// Where the record is saved after every move (none while replaying a record; a live game
    /// without one gets a new file in the save folder, see [`SaveFolder`]).
    pub record_path: Option<PathBuf>,
    /// Why the last save failed, while it keeps failing (shown until a save succeeds again).
    pub save_error: Option<String>,
    /// Watching a record: the timeline moves the game, clicks do not.
    pub replaying: bool,
    /// Replay plays on by itself, a move every `pace` seconds.
    pub autoplay: bool,
    /// A person asked for a hint.
    pub hint_wanted: bool,
    pub pace: f32,
    computer: RandomPlayer,
    /// Seconds the computer has waited before moving (so its moves can be followed).
    waited: f32,
}

impl Session {
    pub fn new(game: AnyGame, players: [PlayerKind; 2], seed: u64) -> Session {
        let game_for_record = game.clone();
        Session {
            start: game.clone(),
            game,
            history: Vec::new(),
            redo: Vec::new(),
            picker: Picker::default(),
            choices: Vec::new(),
            players,
            message: String::new(),
            last_move: Vec::new(),
            shown_effects: 0,
            blocked: None,
            record: Record::new(
                &game_for_record,
                players.map(|k| (k.label().to_string(), k.record_kind().to_string())),
            ),
            record_path: None,
            save_error: None,
            replaying: false,
            autoplay: false,
            hint_wanted: false,
            pace: 1.0,
            computer: RandomPlayer::new(seed),
            waited: 0.0,
        }
    }

    /// The position the table shows (with a chosen first part applied).
    pub fn shown(&self) -> AnyGame {
        self.picker.shown(&self.game)
    }

    /// Pieces of each side taken off the board since the start.
    pub fn off_board(&self) -> [usize; 2] {
        if !matches!(self.game, AnyGame::Ordo(_) | AnyGame::Crossings(_)) {
            return [0, 0];
        }
        let count = |g: &AnyGame, s: Side| {
            let (f, r) = g.board_size();
            (0..r).flat_map(|r| (0..f).map(move |f| Cell::new(f, r))).filter(|c| g.piece_at(*c) == Some(s)).count()
        };
        let shown = self.shown();
        [Side::First, Side::Second].map(|s| count(&self.start, s).saturating_sub(count(&shown, s)))
    }

    /// Whether a person chooses the move now.
    /// Whether the computer chooses the move now.
    pub fn computer_to_move(&self) -> bool {
        self.blocked.is_none()
            && !self.replaying
            && self.game.outcome().is_none()
            && self.players[self.game.side_to_move().index()] != PlayerKind::Person
    }

    pub fn person_to_move(&self) -> bool {
        self.blocked.is_none()
            && !self.replaying
            && self.game.outcome().is_none()
            && self.players[self.game.side_to_move().index()] == PlayerKind::Person
    }

    /// Plays a move given in notation (a button's move, like CTOR's end of turn or timeout).
    pub fn play_text(&mut self, text: &str) -> Result<Animate, String> {
        let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
        Ok(self.play(mv))
    }

    /// Plays a legal move and returns what to animate.
    fn play(&mut self, mv: AnyMove) -> Animate {
        let before = self.game.clone();
        let breaks: Vec<usize> =
            (1..mv.parts().len()).filter_map(|k| before.preview(&mv, k).map(|(_, e)| e.len())).collect();
        let effects = self.game.play(&mv).expect("moves reach the session only from the legal list");
        self.history.push((before, mv));
        self.redo.clear();
        self.last_move = effects.iter().flat_map(cells_of).collect();
        let skip = std::mem::take(&mut self.shown_effects);
        self.picker.clear();
        self.choices.clear();
        self.message.clear();
        self.sync_record();
        Animate { effects, skip, breaks }
    }

    /// Makes the record the moves of the history, then saves it (atomically) if it has a file.
    fn sync_record(&mut self) {
        if self.replaying {
            return;
        }
        self.record.moves.truncate(self.history.len());
        let have = self.record.moves.len();
        for (i, (_, mv)) in self.history.iter().enumerate().skip(have) {
            let after = self.history.get(i + 1).map(|(g, _)| g.clone()).unwrap_or_else(|| self.game.clone());
            self.record.push(&mv.to_string(), &after);
        }
        self.record.result = crate::record::RecordResult::of(&self.game);
        if let Some(path) = &self.record_path {
            self.save_error = crate::record::write_atomic(path, &self.record.to_json()).err().map(|e| {
                format!("saving failed ({e}): the game goes on, and {} keeps the last good record", path.display())
            });
        }
    }

    /// The panel's message line: what is blocking moves or the last message, and a failing save.
    pub fn status(&self) -> String {
        let main = self.blocked.clone().unwrap_or_else(|| self.message.clone());
        match &self.save_error {
            Some(e) if main.is_empty() => e.clone(),
            Some(e) => format!("{main}\n{e}"),
            None => main,
        }
    }

    /// Saves this game from now on (after every move) to `path`.
    pub fn save_to(&mut self, path: PathBuf) {
        self.record_path = Some(path);
        self.sync_record();
    }

    /// Opens a record to watch: at its start, every move ready to step through.
    pub fn replay(record: Record) -> Result<Session, crate::record::RecordError> {
        let positions = record.replay()?;
        let mut s = Session::new(positions[0].clone(), [PlayerKind::Person; 2], 1);
        for (i, m) in record.moves.iter().enumerate() {
            let mv = positions[i]
                .parse_move(&m.mv)
                .map_err(|e| crate::record::RecordError(format!("move {}: {e}", i + 1)))?;
            s.redo.insert(0, mv);
        }
        s.record = record;
        s.replaying = true;
        s.blocked = Some("replay: step through the game with the timeline, or play on from here".into());
        Ok(s)
    }

    /// Opens a record to go on playing it, saving into `path` (usually its own file).
    pub fn resume(record: Record, path: Option<PathBuf>) -> Result<Session, crate::record::RecordError> {
        let players = [0, 1].map(|i| PlayerKind::from_record(&record.players[i].kind));
        let mut s = Session::replay(record)?;
        s.players = players;
        while s.redo() {}
        s.replaying = false;
        s.blocked = None;
        s.redo.clear();
        s.record_path = path;
        s.sync_record();
        Ok(s)
    }

    /// Leaves the replay at the current move as a new game (a branch with its own record).
    pub fn play_on(&mut self, path: Option<PathBuf>) {
        self.replaying = false;
        self.autoplay = false;
        self.blocked = None;
        self.redo.clear();
        self.players = [PlayerKind::Person; 2];
        let start = self.history.first().map(|(g, _)| g.clone()).unwrap_or_else(|| self.game.clone());
        self.record = Record::new(&start, self.players.map(|k| (k.label(), k.record_kind())));
        self.record_path = path;
        self.sync_record();
    }

    /// Goes to the position after `k` moves, without animation.
    pub fn jump(&mut self, k: usize) {
        while self.history.len() > k && self.undo() {}
        while self.history.len() < k && self.redo() {}
    }

    /// One move forward on the redo stack, animated.
    fn step_forward(&mut self) -> Option<Animate> {
        let mv = self.redo.pop()?;
        let before = self.game.clone();
        let effects = self.game.play(&mv).ok()?;
        let breaks = part_breaks(&before, &mv);
        self.history.push((before, mv));
        self.after_jump(effects.iter().flat_map(cells_of).collect());
        self.sync_record();
        Some(Animate { effects, skip: 0, breaks })
    }

    fn undo(&mut self) -> bool {
        let Some((before, mv)) = self.history.pop() else { return false };
        self.game = before;
        self.redo.push(mv);
        // The move now last in the history is highlighted again: replay it to find its cells.
        let last = match self.history.last() {
            Some((before, mv)) => before.clone().play(mv).unwrap_or_default().iter().flat_map(cells_of).collect(),
            None => Vec::new(),
        };
        self.after_jump(last);
        self.sync_record();
        true
    }

    fn redo(&mut self) -> bool {
        self.step_forward().is_some()
    }

    /// After moving through the history: nothing half-chosen, the last move's cells marked.
    fn after_jump(&mut self, last_move: Vec<Cell>) {
        self.picker.clear();
        self.choices.clear();
        self.shown_effects = 0;
        self.waited = 0.0;
        self.message.clear();
        self.last_move = last_move;
    }
}

/// Where each later part of a move starts in its effects (parts play one after the other).
fn part_breaks(before: &AnyGame, mv: &AnyMove) -> Vec<usize> {
    (1..mv.parts().len()).filter_map(|k| before.preview(mv, k).map(|(_, e)| e.len())).collect()
}

fn cells_of(e: &Effect) -> Vec<Cell> {
    match e {
        Effect::Moved { from, to } => vec![*from, *to],
        Effect::Captured { at } => vec![*at],
        _ => vec![],
    }
}

/// A click on a cell of the board (a square or the stone on it).
#[derive(Message, Clone, Copy, Debug)]
pub struct CellClicked(pub Cell);

/// A button or key.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Command {
    Undo,
    Redo,
    /// One of the offered moves (its part text).
    Choose(String),
    /// Drop the move being chosen.
    Cancel,
    NewGame,
    /// CTOR: end the turn.
    EndTurn,
    /// CTOR: start choosing a Landing.
    Landing,
    /// Replay: go to the position after this many moves.
    Jump(usize),
    /// Replay: one move forward, animated.
    StepForward,
    /// Replay: start or stop playing on by itself.
    TogglePlay,
    /// Replay: the next pace (seconds a move).
    Pace,
    /// Replay: continue from the current move as a new game.
    PlayOn,
    /// Write the record and the move list into the data folder.
    Export,
    /// Show the move the computer would play for the person to move.
    Hint,
    /// Copy the current position string to the clipboard.
    CopyPosition,
    /// Open what the clipboard holds: a position string or a record.
    Paste,
    /// Open this text as if pasted: a position string or a record.
    Open(String),
}

/// A move (or a first part) to animate: its effects, the first `skip` already shown, and
/// the indices where a new part of the move begins (parts play one after the other).
#[derive(Message, Clone, Debug, Default)]
pub struct Animate {
    pub effects: Vec<Effect>,
    pub skip: usize,
    pub breaks: Vec<usize>,
}

/// The scene must be rebuilt from the session's shown position, without animation.
#[derive(Message, Clone, Copy, Debug)]
pub struct Rebuild;

/// The moves a set animates this frame. None when the scene is rebuilt in the same frame
/// (an undo or a paste right after a move): the rebuilt scene already shows them, and
/// animating them too would put their pieces on the table twice.
#[derive(bevy::ecs::system::SystemParam)]
pub struct MovesToPlan<'w, 's> {
    moves: MessageReader<'w, 's, Animate>,
    rebuilt: MessageReader<'w, 's, Rebuild>,
}

impl MovesToPlan<'_, '_> {
    /// This frame's moves to animate (none if the scene is rebuilt this frame).
    pub fn read(&mut self) -> impl Iterator<Item = &Animate> {
        if !self.rebuilt.is_empty() {
            self.rebuilt.clear();
            self.moves.clear();
        }
        self.moves.read()
    }

    /// Drops this frame's moves (the set is not on the table).
    pub fn clear(&mut self) {
        self.rebuilt.clear();
        self.moves.clear();
    }
}

/// True while pieces are moving: input waits.
pub fn animating(tweens: Query<(), With<super::animate::Tween>>) -> bool {
    !tweens.is_empty()
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CellClicked>()
        .add_message::<Command>()
        .add_message::<Animate>()
        .add_message::<Rebuild>()
        .init_resource::<SaveFolder>()
        .add_systems(
            Update,
            (handle_clicks, handle_commands, computer_turn, autoplay, save_new_games.run_if(needs_a_file))
                .chain()
                .before(super::scene::rebuild_scene)
                .run_if(in_state(Screen::Playing)),
        );
}

fn handle_clicks(
    mut clicks: MessageReader<CellClicked>,
    session: Option<ResMut<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    mut animate: MessageWriter<Animate>,
) {
    let Some(mut session) = session else { return };
    // Clicks while pieces move, or while the computer is to move, change nothing.
    if !tweens.is_empty() || !session.person_to_move() {
        clicks.clear();
        return;
    }
    for CellClicked(cell) in clicks.read().copied().collect::<Vec<_>>() {
        if !session.choices.is_empty() {
            session.message = "choose one of the moves offered, or cancel".into();
            continue;
        }
        let game = session.game.clone();
        let pick = session.picker.click(&game, cell);
        match pick {
            Pick::Selected => session.message.clear(),
            Pick::Refused(why) => session.message = why,
            Pick::Choose(options) => {
                session.message = "several moves land there: choose one".into();
                session.choices = options;
            }
            Pick::NextPart => next_part(&mut session, &mut animate),
            Pick::Play(mv) => {
                animate.write(session.play(mv));
                break;
            }
        }
    }
}

/// A first part was chosen: show it on the table and ask for the next.
fn next_part(session: &mut Session, animate: &mut MessageWriter<Animate>) {
    let game = session.game.clone();
    let k = session.picker.parts.len();
    if let Some(mv) = session.picker.candidates(&game).first()
        && let Some((_, effects)) = game.preview(mv, k)
    {
        session.shown_effects = effects.len();
        animate.write(Animate { effects, ..default() });
    }
    session.message = "now the forward move: select a stone".into();
}

fn handle_commands(
    mut commands: MessageReader<Command>,
    session: Option<ResMut<Session>>,
    mut animate: MessageWriter<Animate>,
    mut rebuild: MessageWriter<Rebuild>,
    mut screen: ResMut<NextState<Screen>>,
) {
    let Some(mut session) = session else { return };
    for command in commands.read() {
        match command {
            Command::Undo => {
                // Against the computer, undo goes back to the person's last turn.
                let mut any = session.undo();
                while any
                    && !session.replaying
                    && !session.person_to_move()
                    && !session.history.is_empty()
                    && session.players.contains(&PlayerKind::Person)
                {
                    any = session.undo();
                }
                if any {
                    rebuild.write(Rebuild);
                } else {
                    session.message = "nothing to undo".into();
                }
            }
            Command::Redo | Command::StepForward => match session.step_forward() {
                Some(a) => {
                    animate.write(a);
                }
                None => session.message = "nothing to redo".into(),
            },
            Command::Jump(k) => {
                let end = session.history.len() + session.redo.len();
                session.jump((*k).min(end));
                rebuild.write(Rebuild);
            }
            Command::TogglePlay => session.autoplay = !session.autoplay && session.replaying,
            Command::Pace => session.pace = if session.pace >= 2.0 { 0.5 } else { session.pace * 2.0 },
            Command::PlayOn => {
                // A new game: `save_new_games` gives it its own file.
                session.play_on(None);
                session.message = "playing on from here as a new game".into();
            }
            Command::Export => session.message = export(&session),
            Command::Hint => {
                if session.person_to_move() {
                    session.hint_wanted = true;
                    session.message = "thinking about a hint...".into();
                }
            }
            Command::CopyPosition => {
                let text = session.shown().to_string();
                session.message = match arboard::Clipboard::new().and_then(|mut c| c.set_text(text.clone())) {
                    Ok(()) => format!("copied: {text}"),
                    Err(e) => format!("the clipboard is not available ({e}); the position is {text}"),
                };
            }
            Command::Paste => match arboard::Clipboard::new().and_then(|mut c| c.get_text()) {
                Ok(text) => open_into(&mut session, &text, &mut rebuild),
                Err(e) => session.message = format!("the clipboard is not available ({e})"),
            },
            Command::Open(text) => open_into(&mut session, text, &mut rebuild),
            Command::Choose(part) => {
                if session.choices.iter().all(|(_, p)| p != part) {
                    continue;
                }
                session.choices.clear();
                let game = session.game.clone();
                match session.picker.choose_part(&game, part) {
                    Pick::Play(mv) => {
                        animate.write(session.play(mv));
                    }
                    Pick::NextPart => next_part(&mut session, &mut animate),
                    Pick::Refused(why) => session.message = why,
                    _ => {}
                }
            }
            Command::Cancel => {
                let had_part = !session.picker.parts.is_empty();
                session.picker.clear();
                session.choices.clear();
                session.shown_effects = 0;
                session.message.clear();
                if had_part {
                    rebuild.write(Rebuild);
                }
            }
            Command::NewGame => screen.set(Screen::Menu),
            Command::EndTurn => {
                if !session.person_to_move() {
                    continue;
                }
                match session.play_text("E") {
                    Ok(a) => {
                        animate.write(a);
                    }
                    Err(e) => session.message = e,
                }
            }
            Command::Landing => {
                let game = session.game.clone();
                match session.picker.start_landing(&game) {
                    Ok(()) => session.message = "Landing: choose two of your discs, then where one lands".into(),
                    Err(why) => session.message = why,
                }
            }
        }
    }
}

/// Opens pasted text: a record (JSON) to replay, or a position string to play from (a new
/// game, which [`save_new_games`] saves like any other).
pub fn open_text(text: &str) -> Result<Session, String> {
    let text = text.trim();
    if text.starts_with('{') {
        let record = Record::from_json(text).map_err(|e| e.to_string())?;
        return Session::replay(record).map_err(|e| e.to_string());
    }
    let game: AnyGame = text.parse().map_err(|e: crate::rules::PositionError| e.to_string())?;
    Ok(Session::new(game, [PlayerKind::Person; 2], 1))
}

/// Replaces the session with what `text` opens, or says why it cannot (the game at the table
/// stays as it was).
fn open_into(session: &mut Session, text: &str, rebuild: &mut MessageWriter<Rebuild>) {
    match open_text(text) {
        Ok(opened) => {
            *session = opened;
            rebuild.write(Rebuild);
        }
        Err(why) => session.message = why,
    }
}

/// The folder where games at the table are saved (`None`: not saved, for tests and timing).
/// The app uses the data folder (`record::data_dir`).
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveFolder(pub Option<PathBuf>);

/// A live game at the table without a file, while games are saved.
fn needs_a_file(folder: Res<SaveFolder>, session: Option<Res<Session>>) -> bool {
    folder.0.is_some() && session.is_some_and(|s| !s.replaying && s.record_path.is_none())
}

/// Every live game at the table has a file, however it began (the menu's *Start*, a position
/// on the command line, a paste, *Play on*, a new game): a session without one gets a new
/// file in the save folder here, in one place, and is saved at once.
pub fn save_new_games(folder: Res<SaveFolder>, mut session: ResMut<Session>) {
    if let Some(dir) = &folder.0 {
        let path = crate::record::new_game_path(dir, &session.record);
        session.save_to(path);
    }
}

/// Writes the record and the move list into the data folder's exports.
fn export(session: &Session) -> String {
    let dir = crate::record::data_dir().join("exports");
    let name = format!("{}-{}", session.record.created_ms, session.record.variant);
    let json = dir.join(format!("{name}.json"));
    let txt = dir.join(format!("{name}.txt"));
    match crate::record::write_atomic(&json, &session.record.to_json())
        .and_then(|()| crate::record::write_atomic(&txt, &session.record.move_list()))
    {
        Ok(()) => format!("exported {} and {}", json.display(), txt.display()),
        Err(e) => format!("could not export: {e}"),
    }
}

/// Replay plays on by itself at its pace.
fn autoplay(
    session: Option<ResMut<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    time: Res<Time>,
    mut waited: Local<f32>,
    mut animate: MessageWriter<Animate>,
) {
    let Some(mut session) = session else { return };
    if !session.replaying || !session.autoplay || !tweens.is_empty() {
        *waited = 0.0;
        return;
    }
    *waited += time.delta_secs();
    if *waited < session.pace {
        return;
    }
    *waited = 0.0;
    match session.step_forward() {
        Some(a) => {
            animate.write(a);
        }
        None => session.autoplay = false,
    }
}

/// The computer's search in progress, off the main thread, for the position it was asked about.
#[derive(Default)]
pub struct Thinking {
    task: Option<(SearchTask, String, bool)>,
}

/// A search on the task pool. Dropping it (undo, a new game, leaving the table) tells the
/// search to stop, so its core is free at once.
pub struct SearchTask {
    task: bevy::tasks::Task<Option<AnyMove>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl SearchTask {
    fn start(game: AnyGame, level: crate::ai::Level, seed: u64) -> SearchTask {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let task = bevy::tasks::AsyncComputeTaskPool::get()
            .spawn(async move { crate::ai::search_until(&game, level, seed, &flag).mv });
        SearchTask { task, stop }
    }
}

impl Drop for SearchTask {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

fn computer_turn(
    session: Option<ResMut<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    time: Res<Time>,
    speed: Res<super::animate::Speed>,
    mut thinking: Local<Thinking>,
    mut animate: MessageWriter<Animate>,
) {
    use bevy::tasks::{block_on, futures_lite::future};
    let Some(mut session) = session else {
        thinking.task = None;
        return;
    };
    // A finished search plays (or hints) only if the position is still the one it was for:
    // an undo or a new game meanwhile simply drops it.
    if let Some((search, for_position, hint)) = &mut thinking.task
        && let Some(result) = block_on(future::poll_once(&mut search.task))
    {
        let (still, hint) = (*for_position == session.game.to_string(), *hint);
        thinking.task = None;
        if still && let Some(mv) = result {
            if hint {
                session.last_move = crate::ai::hint_cells(&session.game, &mv);
                session.message = format!("hint: {mv}");
            } else if tweens.is_empty() {
                animate.write(session.play(mv));
            } else {
                session.message.clear();
            }
        }
        return;
    }
    if let Some((_, for_position, _)) = &thinking.task {
        if *for_position != session.game.to_string() {
            thinking.task = None; // dropping the search stops it
        }
        return;
    }
    if session.hint_wanted {
        session.hint_wanted = false;
        let game = session.game.clone();
        let key = game.to_string();
        let seed = session.history.len() as u64 ^ 0x41;
        thinking.task = Some((SearchTask::start(game, crate::ai::LEVELS[2], seed), key, true));
        return;
    }
    if !tweens.is_empty() || !session.computer_to_move() {
        return;
    }
    match session.players[session.game.side_to_move().index()] {
        PlayerKind::Random => {
            session.waited += time.delta_secs();
            if session.waited < 0.4 * speed.factor() {
                return;
            }
            session.waited = 0.0;
            let game = session.game.clone();
            if let Some(mv) = session.computer.choose(&game) {
                animate.write(session.play(mv));
            }
        }
        PlayerKind::Ai(l) => {
            let game = session.game.clone();
            let key = game.to_string();
            let seed = session.history.len() as u64;
            let level = crate::ai::LEVELS[l];
            session.message = format!("the computer ({}) is thinking...", level.name);
            thinking.task = Some((SearchTask::start(game, level, seed), key, false));
        }
        PlayerKind::Person => {}
    }
}
