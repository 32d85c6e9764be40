//! The game at the table: the rules' position and its history, the record and its file, and
//! the one path every move takes. Whoever chooses a move (a person's clicks, the computer,
//! the replay, *End turn*, the sand-glass) sends a [`MoveChosen`]; the session alone plays it
//! and announces it as [`Played`], with its effects part by part, for the sets to animate and
//! the panels and the saver to follow.

use super::table::{CellClicked, Rebuild};
use super::{Mode, Screen, TableSystems};
use crate::interact::{Pick, Picker};
use crate::players::{Player, RandomPlayer};
use crate::record::Record;
use crate::rules::{AnyGame, AnyMove, Cell, Effect, Game};
use bevy::prelude::*;
use std::collections::BTreeSet;
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
    /// Every choice, in the order the menu shows them.
    pub fn all() -> Vec<PlayerKind> {
        let mut v = vec![PlayerKind::Person, PlayerKind::Random];
        v.extend((0..crate::ai::LEVELS.len()).map(PlayerKind::Ai));
        v
    }

    fn kind(self) -> crate::record::Kind {
        use crate::record::Kind;
        match self {
            PlayerKind::Person => Kind::Human,
            PlayerKind::Random => Kind::Random,
            PlayerKind::Ai(l) => Kind::Ai(l),
        }
    }

    /// The kind written in records.
    pub fn record_kind(self) -> String {
        self.kind().name()
    }

    /// A record's player kind (records are checked on reading: an unknown kind never loads).
    pub(crate) fn from_record(kind: &str) -> PlayerKind {
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

/// Watching a record: it plays on by itself at a pace, or is stepped through by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    pub autoplay: bool,
    /// Seconds a move while it plays on by itself.
    pub pace: f32,
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
    pub players: [PlayerKind; 2],
    /// Cells of the last move, highlighted.
    pub last_move: Vec<Cell>,
    /// The game's record, kept up to date with every move, undo and redo.
    pub record: Record,
    /// Where the record is saved after every move (none while replaying a record; a live game
    /// without one gets a new file in the save folder, see [`SaveFolder`]).
    pub record_path: Option<PathBuf>,
    /// Why the last save failed, while it keeps failing (shown until a save succeeds again).
    pub save_error: Option<String>,
    /// A record being watched (the table is in [`Mode::Replay`]); `None` for a live game.
    pub replay: Option<Replay>,
    /// Watching another table's live feed (`tablero watch`): nobody here moves; the feed's
    /// moves are played as they come.
    pub spectator: bool,
    /// CTOR team play: the seat in its team of who made each move of the history (see
    /// [`crate::team`]); `None` outside team games.
    pub members: Vec<Option<u8>>,
    /// CTOR team play: the turn whose blind Puts have all been chosen and placed (the seat
    /// acting plays on without Puts).
    pub blind_done: Option<u32>,
    random: RandomPlayer,
}

impl Session {
    pub fn new(game: AnyGame, players: [PlayerKind; 2], seed: u64) -> Session {
        let record = Record::new(&game, players.map(|k| (k.label(), k.record_kind())));
        Session {
            start: game.clone(),
            game,
            history: Vec::new(),
            redo: Vec::new(),
            players,
            last_move: Vec::new(),
            record,
            record_path: None,
            save_error: None,
            replay: None,
            spectator: false,
            members: Vec::new(),
            blind_done: None,
            random: RandomPlayer::new(seed),
        }
    }

    /// Pieces of each side taken off the board since the start, as `shown` has them.
    pub fn off_board(&self, shown: &AnyGame) -> [usize; 2] {
        if !matches!(self.game, AnyGame::Ordo(_) | AnyGame::Crossings(_)) {
            return [0, 0];
        }
        shown.tally(&self.start).sides.map(|n| n[0] as usize)
    }

    fn to_move(&self) -> Option<PlayerKind> {
        if self.replay.is_some() || self.spectator || self.game.outcome().is_some() || self.in_round() {
            return None;
        }
        let side = self.game.side_to_move();
        Some(match (self.seats(), self.acting_member()) {
            (Some(seats), Some(m)) => seats[side.index()]
                .get(m as usize)
                .map_or(self.players[side.index()], |p| PlayerKind::from_record(&p.kind)),
            _ => self.players[side.index()],
        })
    }

    /// CTOR team play: each team's members now.
    pub fn seats(&self) -> Option<[Vec<crate::record::PlayerInfo>; 2]> {
        self.record.team.as_ref().map(|t| t.seats_at(self.history.len()))
    }

    /// CTOR team play: how many members the team on turn has now (1 outside team play).
    fn seats_on_turn(&self) -> usize {
        self.seats().map_or(1, |s| s[self.game.side_to_move().index()].len())
    }

    /// CTOR team play: the team on turn's members are choosing their Puts blind (nobody
    /// moves at the table meanwhile; see `gui::team`).
    pub fn in_round(&self) -> bool {
        let AnyGame::Ctor(g) = &self.game else { return false };
        self.seats_on_turn() >= 2
            && self.replay.is_none()
            && !self.spectator
            && self.game.outcome().is_none()
            && self.blind_done != Some(g.turn())
            && g.left().puts > 0
    }

    /// CTOR team play: the blind Puts of this turn are done, so the seat acting may not Put.
    pub fn puts_closed(&self) -> bool {
        self.seats_on_turn() >= 2 && !self.in_round()
    }

    /// CTOR team play: the seat of the team on turn that plays its Moves and Landings.
    pub fn acting_member(&self) -> Option<u8> {
        let team = self.record.team.as_ref()?;
        let AnyGame::Ctor(g) = &self.game else { return None };
        Some(crate::team::acting(team.lead, g.turn(), self.seats_on_turn()) as u8)
    }

    /// CTOR team play: why an undo is refused (a turn's blind Puts and earlier turns cannot be
    /// taken back; the acting seat's Moves of this turn can).
    pub fn undo_refused(&self) -> Option<&'static str> {
        let AnyGame::Ctor(g) = &self.game else { return None };
        let (before, mv) = self.history.last()?;
        let team_game = self.record.team.as_ref().is_some_and(|t| t.seats.iter().any(|s| s.len() >= 2));
        let AnyGame::Ctor(b) = before else { return None };
        let blind = crate::team::is_put(mv) && self.seats().is_some_and(|s| s[b.side_to_move().index()].len() >= 2);
        (team_game && self.replay.is_none() && (blind || b.turn() != g.turn()))
            .then_some("in team play a turn's blind Puts, and the turns before, are not taken back")
    }

    /// CTOR: a person is to move in a live game and ending the turn is all that is left.
    pub fn only_end_left(&self) -> bool {
        self.person_to_move() && self.replay.is_none() && matches!(&self.game, AnyGame::Ctor(g) if g.only_end_left())
    }

    /// Whether a person chooses the move now.
    pub fn person_to_move(&self) -> bool {
        self.to_move() == Some(PlayerKind::Person)
    }

    /// Whether the computer chooses the move now.
    pub fn computer_to_move(&self) -> bool {
        self.to_move().is_some_and(|k| k != PlayerKind::Person)
    }

    /// Plays a legal move and returns its effects part by part. Redoing the next undone move
    /// keeps the moves undone after it; any other move drops them.
    pub fn play(&mut self, mv: &AnyMove) -> Result<Vec<Vec<Effect>>, String> {
        // A record being replayed keeps its members; a live team game's move is the acting
        // seat's (a single member's team: its only member).
        let member = match &self.replay {
            Some(_) => self.record.moves.get(self.history.len()).and_then(|m| m.member),
            None => self.acting_member(),
        };
        self.play_as(mv, member)
    }

    /// Plays a legal move made by a member of a CTOR team (`None` outside team play).
    pub fn play_as(&mut self, mv: &AnyMove, member: Option<u8>) -> Result<Vec<Vec<Effect>>, String> {
        // The rules' own check (a CTOR timeout is legal without being listed).
        if let Err(e) = self.game.clone().play(mv) {
            return Err(match self.game.outcome() {
                Some(_) => "the game is over: start a new game or undo".into(),
                None => e.to_string(),
            });
        }
        let before = self.game.clone();
        let parts = self.game.play_parts_unchecked(mv);
        self.history.push((before, mv.clone()));
        self.members.truncate(self.history.len() - 1);
        self.members.resize(self.history.len() - 1, None);
        self.members.push(member);
        if self.redo.last() == Some(mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.last_move = parts.iter().flatten().flat_map(cells_of).collect();
        self.sync_record();
        Ok(parts)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        let Some((before, mv)) = self.history.pop() else { return false };
        self.game = before;
        self.members.truncate(self.history.len());
        self.redo.push(mv);
        // The move now last is highlighted again: its cells, from its own effects.
        self.last_move = match self.history.last() {
            Some((before, mv)) => before.clone().play_unchecked(mv).iter().flat_map(cells_of).collect(),
            None => Vec::new(),
        };
        self.sync_record();
        true
    }

    /// Plays the next undone move again.
    pub fn redo(&mut self) -> bool {
        let Some(mv) = self.redo.last().cloned() else { return false };
        self.play(&mv).is_ok()
    }

    /// Goes to the position after `k` moves, without animation.
    pub fn jump(&mut self, k: usize) {
        while self.history.len() > k && self.undo() {}
        while self.history.len() < k && self.redo() {}
    }

    /// Makes the record the moves of the history, then saves it (atomically) if it has a file.
    pub(super) fn sync_record(&mut self) {
        if self.replay.is_some() {
            return;
        }
        // CTOR's secret squares are chosen at the table after the game (and its file) began.
        let start = self.history.first().map_or(&self.game, |(g, _)| g);
        self.record.secrets = Record::secrets_of(start);
        self.record.moves.truncate(self.history.len());
        let have = self.record.moves.len();
        for (i, (_, mv)) in self.history.iter().enumerate().skip(have) {
            let after = self.history.get(i + 1).map(|(g, _)| g.clone()).unwrap_or_else(|| self.game.clone());
            self.record.push(&mv.to_string(), &after);
        }
        for (m, member) in self.record.moves.iter_mut().zip(&self.members) {
            m.member = *member;
        }
        if let Some(team) = &mut self.record.team {
            let played = self.history.len();
            team.changes.retain(|c| c.at <= played);
        }
        self.record.result = crate::record::RecordResult::of(&self.game);
        if let Some(path) = &self.record_path {
            self.save_error = crate::record::write_atomic(path, &self.record.to_json()).err().map(|e| {
                format!("saving failed ({e}): the game goes on, and {} keeps the last good record", path.display())
            });
        }
    }

    /// The panel's message line: the notice, and a failing save.
    pub fn status(&self, notice: &str) -> String {
        match &self.save_error {
            Some(e) if notice.is_empty() => e.clone(),
            Some(e) => format!("{notice}\n{e}"),
            None => notice.to_string(),
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
        s.replay = Some(Replay { autoplay: false, pace: 1.0 });
        Ok(s)
    }

    /// Opens a record to go on playing it, saving into `path` (usually its own file).
    pub fn resume(record: Record, path: Option<PathBuf>) -> Result<Session, crate::record::RecordError> {
        let players = [0, 1].map(|i| PlayerKind::from_record(&record.players[i].kind));
        let mut s = Session::replay(record)?;
        s.players = players;
        while s.redo() {}
        s.replay = None;
        s.redo.clear();
        s.record_path = path;
        s.sync_record();
        Ok(s)
    }

    /// Leaves the replay at the current move as a new game (a branch with its own record).
    pub fn play_on(&mut self, path: Option<PathBuf>) {
        self.replay = None;
        self.redo.clear();
        self.players = [PlayerKind::Person; 2];
        let start = self.history.first().map(|(g, _)| g.clone()).unwrap_or_else(|| self.game.clone());
        // A team game goes on as one, every seat now a person's.
        let mut team = self.record.team.take();
        if let Some(t) = &mut team {
            t.changes.retain(|c| c.at <= self.history.len());
            for p in t.seats.iter_mut().flatten().chain(t.changes.iter_mut().filter_map(|c| c.join.as_mut())) {
                p.kind = PlayerKind::Person.record_kind();
            }
        }
        self.record = Record::new(&start, self.players.map(|k| (k.label(), k.record_kind())));
        self.record.team = team;
        self.record_path = path;
        self.sync_record();
    }
}

fn cells_of(e: &Effect) -> Vec<Cell> {
    match e {
        Effect::Moved { from, to } => vec![*from, *to],
        Effect::Captured { at } => vec![*at],
        _ => vec![],
    }
}

/// The move being chosen at the table, owned by the pick step: the picker's state, the moves
/// offered when a click fits several, and a hint's cells.
#[derive(Resource, Clone, Debug, Default)]
pub struct Picking {
    pub picker: Picker,
    /// Moves offered when a click fits several (label, part).
    pub choices: Vec<(String, String)>,
    /// The cells of the move a hint suggests.
    pub hint: Vec<Cell>,
}

impl Picking {
    /// The position the table shows: the game with the chosen first parts applied.
    pub fn shown(&self, game: &AnyGame) -> AnyGame {
        self.picker.shown(game)
    }
}

/// How the table marks cells, computed once from the session and the move being chosen; each
/// set paints its own pieces from it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Highlights {
    /// The selected piece, and the CTOR discs chosen for a Landing.
    pub selected: BTreeSet<Cell>,
    /// Where the selection can go.
    pub targets: BTreeSet<Cell>,
    /// Cells a one-click move can be made on (Volterra's free setup).
    pub setup: BTreeSet<Cell>,
    /// The last move's cells, or the hint's.
    pub last: BTreeSet<Cell>,
    /// A person chooses the move now (hover marks show).
    pub person: bool,
}

/// The panel's message line: why a click was refused, what to do next, what happened.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Notice(pub String);

impl Notice {
    pub(super) fn say(&mut self, text: impl Into<String>) {
        let text = text.into();
        if self.0 != text {
            self.0 = text;
        }
    }
}

/// Who chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Person,
    Computer,
    /// Redo, or the replay's timeline.
    History,
    /// The sand-glass ran out (CTOR).
    SandGlass,
    /// A CTOR team member's blind Put, revealed (its seat in the team).
    Member(u8),
}

/// A move chosen, for the session to play.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct MoveChosen {
    pub mv: AnyMove,
    pub by: By,
}

/// A move the session played: what it changed, part by part, the first `shown` parts of
/// which are already on the table (chosen one at a time).
#[derive(Message, Clone, Debug)]
pub struct Played {
    pub mv: AnyMove,
    pub by: By,
    pub parts: Vec<Vec<Effect>>,
    pub shown: usize,
}

/// The first part of a move was chosen: its effects go on the table while the next is chosen.
#[derive(Message, Clone, Debug)]
pub struct PartShown {
    pub effects: Vec<Effect>,
}

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
    /// Stop or resume the computer's moves (a match between computers can be paused).
    PauseComputer,
    /// The next pace for the computer's moves: the least seconds between them.
    ComputerPace,
    /// Copy the current position string to the clipboard.
    CopyPosition,
    /// Open what the clipboard holds: a position string or a record.
    Paste,
    /// Open this text as if pasted: a position string or a record.
    Open(String),
    /// Replay: weigh every move and mark those that lost most (see `eval`).
    Review,
}

/// The effects a set animates this frame, part by part: a first part just chosen, then the
/// parts of played moves not yet on the table. None when the scene is rebuilt in the same
/// frame (an undo or a paste right after a move): the rebuilt scene already shows them, and
/// animating them too would put their pieces on the table twice.
#[derive(bevy::ecs::system::SystemParam)]
pub struct MovesToPlan<'w, 's> {
    parts: MessageReader<'w, 's, PartShown>,
    moves: MessageReader<'w, 's, Played>,
    rebuilt: MessageReader<'w, 's, Rebuild>,
}

impl MovesToPlan<'_, '_> {
    /// This frame's changes to animate, each a list of parts.
    pub fn read(&mut self) -> Vec<Vec<&[Effect]>> {
        if !self.rebuilt.is_empty() {
            self.rebuilt.clear();
            self.parts.clear();
            self.moves.clear();
            return Vec::new();
        }
        let mut out: Vec<Vec<&[Effect]>> = self.parts.read().map(|p| vec![&p.effects[..]]).collect();
        out.extend(self.moves.read().map(|m| m.parts.iter().skip(m.shown).map(|p| &p[..]).collect()));
        out
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Command>()
        .add_message::<MoveChosen>()
        .add_message::<Played>()
        .add_message::<PartShown>()
        .init_resource::<SaveFolder>()
        .init_resource::<Picking>()
        .init_resource::<Notice>()
        .init_resource::<ComputerThinking>()
        .init_resource::<ComputerPace>()
        .init_resource::<Highlights>()
        .add_systems(
            Update,
            (
                pick_clicks.run_if(in_state(Mode::Live)),
                computer_turn,
                autoplay.run_if(in_state(Mode::Replay)),
                end_turn_by_itself.run_if(in_state(Mode::Live).and_then(auto_end_turn).and_then(not(animating))),
            )
                .in_set(TableSystems::Pick),
        )
        .add_systems(
            Update,
            (handle_commands, play_chosen, super::follow_mode_now, save_new_games.run_if(needs_a_file), highlight)
                .chain()
                .in_set(TableSystems::Rules),
        );
}

/// With the setting on, a person's CTOR turn ends by itself once the table rests and ending
/// it is all that is left (the same *End turn* the button sends, once for each position).
fn end_turn_by_itself(
    session: Option<Res<Session>>,
    mut cmds: MessageWriter<Command>,
    mut ended: Local<Option<String>>,
) {
    let Some(session) = session.filter(|s| s.only_end_left()) else { return };
    let here = session.game.to_string();
    if ended.as_deref() != Some(&here) {
        *ended = Some(here);
        cmds.write(Command::EndTurn);
    }
}

/// The setting that ends a CTOR turn by itself is on.
fn auto_end_turn(settings: Option<Res<crate::settings::Settings>>) -> bool {
    settings.is_some_and(|s| s.auto_end_turn)
}

/// True while pieces are moving: clicks wait, clocks stop.
pub fn animating(tweens: Query<(), With<super::animate::Tween>>) -> bool {
    !tweens.is_empty()
}

/// A person's clicks: the picker turns them into a chosen move, a first part to show, a
/// choice to offer or a reason for refusing. Clicks while pieces move change nothing.
fn pick_clicks(
    mut clicks: MessageReader<CellClicked>,
    session: Option<Res<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut chosen: MessageWriter<MoveChosen>,
    mut parts: MessageWriter<PartShown>,
) {
    let Some(session) = session else { return };
    if !tweens.is_empty() || !session.person_to_move() {
        clicks.clear();
        return;
    }
    for CellClicked(cell) in clicks.read().copied().collect::<Vec<_>>() {
        if !picking.choices.is_empty() {
            notice.say("choose one of the moves offered, or cancel");
            continue;
        }
        let pick = picking.picker.click(&session.game, cell);
        if session.puts_closed() && matches!(&pick, Pick::Play(mv) if crate::team::is_put(mv)) {
            picking.picker = Default::default();
            notice.say("this turn's Puts were the members' to choose: move, land or end the turn");
            continue;
        }
        if answer(pick, &session.game, &mut picking, &mut notice, &mut chosen, &mut parts) {
            break;
        }
    }
}

/// Acts on what the picker made of a click or a choice; true once a whole move is chosen.
fn answer(
    pick: Pick,
    game: &AnyGame,
    picking: &mut Picking,
    notice: &mut Notice,
    chosen: &mut MessageWriter<MoveChosen>,
    parts: &mut MessageWriter<PartShown>,
) -> bool {
    match pick {
        Pick::Selected => notice.say(""),
        Pick::Refused(why) => notice.say(why),
        Pick::Choose(options) => {
            notice.say("several moves land there: choose one");
            picking.choices = options;
        }
        Pick::NextPart => {
            // Show the chosen first part on the table, and ask for the next.
            let k = picking.picker.parts.len();
            if let Some(mv) = picking.picker.candidates(game).first()
                && let Some((_, effects)) = game.preview(mv, k)
            {
                parts.write(PartShown { effects });
            }
            notice.say("now the forward move: select a stone");
        }
        Pick::Play(mv) => {
            chosen.write(MoveChosen { mv, by: By::Person });
            return true;
        }
    }
    false
}

/// The session plays each chosen move and announces it; the move being chosen is done with.
fn play_chosen(
    mut chosen: MessageReader<MoveChosen>,
    session: Option<ResMut<Session>>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut played: MessageWriter<Played>,
    mut rebuild: MessageWriter<Rebuild>,
) {
    let Some(mut session) = session else { return };
    for MoveChosen { mv, by } in chosen.read() {
        let result = match by {
            By::Member(m) => session.play_as(mv, Some(*m)),
            _ => session.play(mv),
        };
        match result {
            Ok(parts) => {
                let shown = if *by == By::Person { picking.picker.parts.len() } else { 0 };
                if *by != By::Person && !picking.picker.parts.is_empty() {
                    // Another move (a redo) while a first part of the person's was on the
                    // table: the scene is rebuilt, the preview does not belong to the game.
                    rebuild.write(Rebuild);
                }
                *picking = Picking::default();
                notice.say(if *by == By::SandGlass { "the sand ran out: the turn ended" } else { "" });
                played.write(Played { mv: mv.clone(), by: *by, parts, shown });
            }
            Err(why) => notice.say(why),
        }
    }
}

/// What the rules step writes besides the session: the move being chosen, the message line,
/// and the messages to the steps after it.
#[derive(bevy::ecs::system::SystemParam)]
struct Reply<'w> {
    picking: ResMut<'w, Picking>,
    notice: ResMut<'w, Notice>,
    chosen: MessageWriter<'w, MoveChosen>,
    parts: MessageWriter<'w, PartShown>,
    rebuild: MessageWriter<'w, Rebuild>,
}

impl Reply<'_> {
    /// After moving through the history or opening a game: nothing half-chosen, the scene
    /// rebuilt.
    fn moved_in_history(&mut self) {
        *self.picking = Picking::default();
        self.notice.say("");
        self.rebuild.write(Rebuild);
    }

    fn choose(&mut self, mv: AnyMove, by: By) {
        self.chosen.write(MoveChosen { mv, by });
    }
}

/// The buttons and keys, each group by its own function.
fn handle_commands(
    mut commands: MessageReader<Command>,
    session: Option<ResMut<Session>>,
    mut reply: Reply,
    mut screen: ResMut<NextState<Screen>>,
) {
    let Some(mut session) = session else { return };
    for command in commands.read() {
        let looks_only =
            matches!(command, Command::Export | Command::CopyPosition | Command::NewGame | Command::Cancel);
        if session.spectator && !looks_only {
            reply.notice.say("watching a live feed: the moves are made at the feed's table");
            continue;
        }
        match command {
            Command::Undo | Command::Redo | Command::StepForward | Command::Jump(_) => {
                history(&mut session, command, &mut reply)
            }
            Command::TogglePlay | Command::Pace | Command::PlayOn => replay(&mut session, command, &mut reply),
            Command::Export | Command::CopyPosition | Command::Paste | Command::Open(_) => {
                files(&mut session, command, &mut reply)
            }
            Command::Choose(_) | Command::Cancel | Command::EndTurn | Command::Landing => {
                choosing(&session, command, &mut reply)
            }
            Command::NewGame => screen.set(Screen::Menu),
            // The computer answers these itself (computer_turn, eval's review).
            Command::Hint | Command::PauseComputer | Command::ComputerPace | Command::Review => {}
        }
    }
}

/// Undo, redo, and the replay's steps and jumps.
fn history(session: &mut Session, command: &Command, reply: &mut Reply) {
    match command {
        Command::Undo if session.undo_refused().is_some() => {
            reply.notice.say(session.undo_refused().unwrap_or_default());
        }
        Command::Undo => {
            // Against the computer, undo goes back to the person's last turn.
            let mut any = session.undo();
            while any
                && !session.person_to_move()
                && session.replay.is_none()
                && !session.history.is_empty()
                && session.players.contains(&PlayerKind::Person)
            {
                any = session.undo();
            }
            if any {
                reply.moved_in_history();
            } else {
                reply.notice.say("nothing to undo");
            }
        }
        Command::Redo | Command::StepForward => match session.redo.last() {
            Some(mv) => reply.choose(mv.clone(), By::History),
            None => reply.notice.say("nothing to redo"),
        },
        Command::Jump(k) => {
            let end = session.history.len() + session.redo.len();
            session.jump((*k).min(end));
            reply.moved_in_history();
        }
        _ => {}
    }
}

/// The replay's pace, and playing on from it.
fn replay(session: &mut Session, command: &Command, reply: &mut Reply) {
    match (command, &mut session.replay) {
        (Command::TogglePlay, Some(replay)) => replay.autoplay = !replay.autoplay,
        (Command::Pace, Some(replay)) => replay.pace = if replay.pace >= 2.0 { 0.5 } else { replay.pace * 2.0 },
        (Command::PlayOn, _) => {
            // A new game: `save_new_games` gives it its own file.
            session.play_on(None);
            reply.notice.say("playing on from here as a new game");
        }
        _ => {}
    }
}

/// Export, the clipboard, and opening pasted text.
fn files(session: &mut Session, command: &Command, reply: &mut Reply) {
    match command {
        Command::Export => reply.notice.say(export(session)),
        Command::CopyPosition => {
            let text = reply.picking.shown(&session.game).to_string();
            reply.notice.say(match arboard::Clipboard::new().and_then(|mut c| c.set_text(text.clone())) {
                Ok(()) => format!("copied: {text}"),
                Err(e) => format!("the clipboard is not available ({e}); the position is {text}"),
            });
        }
        Command::Paste => match arboard::Clipboard::new().and_then(|mut c| c.get_text()) {
            Ok(text) => open_into(session, &text, reply),
            Err(e) => reply.notice.say(format!("the clipboard is not available ({e})")),
        },
        Command::Open(text) => open_into(session, text, reply),
        _ => {}
    }
}

/// The person's choices besides clicks: a move offered, cancel, *End turn*, *Landing*.
fn choosing(session: &Session, command: &Command, reply: &mut Reply) {
    if !session.person_to_move() && *command != Command::Cancel {
        return;
    }
    match command {
        Command::Choose(part) => {
            if reply.picking.choices.iter().all(|(_, p)| p != part) {
                return;
            }
            reply.picking.choices.clear();
            let pick = reply.picking.picker.choose_part(&session.game, part);
            let Reply { picking, notice, chosen, parts, .. } = reply;
            answer(pick, &session.game, picking, notice, chosen, parts);
        }
        Command::Cancel => {
            let had_part = !reply.picking.picker.parts.is_empty();
            *reply.picking = Picking::default();
            reply.notice.say("");
            if had_part {
                reply.rebuild.write(Rebuild);
            }
        }
        Command::EndTurn => match &session.game {
            AnyGame::Ctor(_) => reply.choose(AnyMove::Ctor(crate::rules::ctor::CtorMove::End), By::Person),
            _ => reply.notice.say("only a CTOR turn is ended by a button"),
        },
        Command::Landing => match reply.picking.picker.start_landing(&session.game) {
            Ok(()) => reply.notice.say("Landing: choose two of your discs, then where one lands"),
            Err(why) => reply.notice.say(why),
        },
        _ => {}
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
fn open_into(session: &mut Session, text: &str, reply: &mut Reply) {
    match open_text(text) {
        Ok(opened) => {
            *session = opened;
            reply.moved_in_history();
        }
        Err(why) => reply.notice.say(why),
    }
}

/// The folder where games at the table are saved (`None`: not saved, for tests and timing).
/// The app uses the data folder (`record::data_dir`).
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveFolder(pub Option<PathBuf>);

/// A live game at the table without a file, while games are saved.
fn needs_a_file(folder: Res<SaveFolder>, session: Option<Res<Session>>) -> bool {
    folder.0.is_some() && session.is_some_and(|s| s.replay.is_none() && !s.spectator && s.record_path.is_none())
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

/// The replay plays on by itself at its pace: the next move, as the timeline's *>* would.
fn autoplay(
    session: Option<ResMut<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    time: Res<Time>,
    mut waited: Local<f32>,
    mut chosen: MessageWriter<MoveChosen>,
) {
    let Some(mut session) = session else { return };
    let Some(replay) = session.replay else { return };
    if !replay.autoplay || !tweens.is_empty() {
        *waited = 0.0;
        return;
    }
    *waited += time.delta_secs();
    if *waited < replay.pace {
        return;
    }
    *waited = 0.0;
    match session.redo.last() {
        Some(mv) => {
            chosen.write(MoveChosen { mv: mv.clone(), by: By::History });
        }
        None => {
            if let Some(r) = &mut session.replay {
                r.autoplay = false;
            }
        }
    }
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
            .spawn(async move { crate::ai::search_until(&game, level.on(crate::ai::cores()), seed, &flag).mv });
        SearchTask { task, stop }
    }

    /// A search that thinks deeper and deeper for `ms` milliseconds and plays the deepest
    /// finished (the hint: the strongest search that answers within the time).
    fn start_timed(game: AnyGame, ms: u64, seed: u64) -> SearchTask {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let task = bevy::tasks::AsyncComputeTaskPool::get().spawn(async move {
            crate::engine::think(
                &game,
                crate::engine::Budget::Movetime(ms),
                seed,
                crate::ai::cores(),
                &flag,
                &mut |_| {},
            )
        });
        SearchTask { task, stop }
    }
}

/// How long a hint thinks.
pub const HINT_MS: u64 = 2000;

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

/// Whether the computer is searching now (the table keeps drawing to show it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputerThinking(pub bool);

/// The computer's turn and the person's hints: a search off the main thread (or the random
/// mover's pick after a short wait) becomes a chosen move, or the hint's marked cells.
#[allow(clippy::too_many_arguments)]
fn computer_turn(
    session: Option<ResMut<Session>>,
    mode: Res<State<Mode>>,
    tweens: Query<(), With<super::animate::Tween>>,
    time: Res<Time>,
    speed: Res<super::animate::Speed>,
    mut commands: MessageReader<Command>,
    mut thinking: Local<Thinking>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut busy: ResMut<ComputerThinking>,
    mut pace: ResMut<ComputerPace>,
    mut chosen: MessageWriter<MoveChosen>,
) {
    use bevy::tasks::{block_on, futures_lite::future};
    let searching = thinking.task.is_some();
    if busy.0 != searching {
        busy.0 = searching;
    }
    let Some(mut session) = session.filter(|_| *mode.get() == Mode::Live) else {
        thinking.task = None;
        commands.clear();
        return;
    };
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
        && let Some(result) = block_on(future::poll_once(&mut search.task))
    {
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
    let mut view = match &session.game {
        AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
        game => game.clone(),
    };
    if session.puts_closed() {
        view = crate::team::after_round(&view);
    }
    if hint_asked && session.person_to_move() {
        let game = session.game.clone();
        let seed = session.history.len() as u64 ^ 0x41;
        thinking.task = Some((SearchTask::start_timed(view, HINT_MS, seed), game, true));
        notice.say("thinking about a hint (up to 2 s)...");
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
            if let Some(mv) = session.random.choose(&view) {
                chosen.write(MoveChosen { mv, by: By::Computer });
            }
        }
        PlayerKind::Ai(l) => {
            let game = session.game.clone();
            let seed = session.history.len() as u64;
            let level = crate::ai::LEVELS[l];
            notice.say(format!("the computer ({}) is thinking...", level.name));
            thinking.task = Some((SearchTask::start(view, level, seed), game, false));
        }
        PlayerKind::Person => {}
    }
}

/// The highlights follow the session and the move being chosen (recomputed only when they change).
fn highlight(
    session: Option<Res<Session>>,
    picking: Res<Picking>,
    mode: Res<State<Mode>>,
    mut marks: ResMut<Highlights>,
) {
    let Some(session) = session else { return };
    if !session.is_changed() && !picking.is_changed() && !mode.is_changed() {
        return;
    }
    let game = &session.game;
    let picker = &picking.picker;
    let person = *mode.get() == Mode::Live && session.person_to_move();
    let mut selected: BTreeSet<Cell> = picker.selected.into_iter().collect();
    selected.extend(picker.landing_discs.iter().copied());
    let targets = if picker.landing { picker.landing_targets(game) } else { picker.targets(game) };
    let setup = if person && picker.parts.is_empty() {
        game.legal_moves().iter().filter_map(|m| m.click_cell()).collect()
    } else {
        BTreeSet::new()
    };
    let last = if picking.hint.is_empty() { &session.last_move } else { &picking.hint };
    let want = Highlights { selected, targets, setup, last: last.iter().copied().collect(), person };
    if *marks != want {
        *marks = want;
    }
}
