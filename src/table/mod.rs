//! The game at the table as plain Rust, without Bevy: the position and its history with undo
//! and redo, the players, the record and its file, CTOR's secret squares, team rounds and
//! seats, a spectator's feed, and a hosted game's questions (an undo, a rematch): the 3D
//! table and the seats' host (`crate::net`) hold the same one. One entry point changes it: [`Table::apply`] takes an
//! [`Intent`] and returns what happened ([`Outcome`]) or why it was refused ([`Refused`]).
//!
//! Read its fields freely; change them only through `apply` (the 3D table holds it read-only
//! everywhere but in its rules step, which alone applies intents).

mod ask;
mod change;
mod follow;
mod intent;
pub mod pick;
mod round;
mod secrets;
pub mod words;

pub use change::{Change, Mark};
pub use intent::{By, Ground, Intent, Mode, Outcome, Played, Question, Refused, Replay, Step, TableError};
use intent::{illegal, refuse};
pub use round::{RoundPhase, TeamRound};
pub use secrets::SecretPhase;

use crate::players::{Player, RandomPlayer};
use crate::record::{PlayerInfo, Record};
use crate::rules::{AnyGame, AnyMove, Cell, Effect, Game, Side};
use std::path::PathBuf;

/// Who plays a side: the one player kind of records, the command line and the seats.
pub use crate::players::Kind as PlayerKind;

/// The game at the table.
#[derive(Debug)]
pub struct Table {
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
    /// Where the record is saved after every move (none while replaying a record, or until a
    /// file is given with [`Intent::SaveTo`]).
    pub record_path: Option<PathBuf>,
    /// Why the last save failed, while it keeps failing (shown until a save succeeds again).
    pub save_error: Option<String>,
    /// A record being watched; `None` for a live game.
    pub replay: Option<Replay>,
    /// Watching another table's live feed: nobody here moves; the feed's moves are played as
    /// they come.
    pub spectator: bool,
    /// A seat of a game hosted on another machine (`tablero join`): only this side's moves
    /// are chosen here; the other side's come from the host ([`Intent::Hosted`]).
    pub seat: Option<Side>,
    /// CTOR team play: the seat in its team of who made each move of the history (see
    /// [`crate::team`]); `None` outside team games.
    pub members: Vec<Option<u8>>,
    /// CTOR team play: the turn whose blind Puts have all been chosen and placed (the seat
    /// acting plays on without Puts).
    pub blind_done: Option<u32>,
    /// CTOR: the secret squares being chosen at the table.
    pub secrets: SecretPhase,
    /// CTOR team play: the blind round of the team on turn.
    pub round: TeamRound,
    /// A question one side asked the other and the other has not answered (cleared by the
    /// next move).
    pub asked: Option<(Side, Question)>,
    /// CTOR team play: the members choose their blind Puts on their own machines, each when
    /// it likes ([`Intent::Blind`]: the seats' host), not one after another at this screen.
    pub apart: bool,
    /// The record is written only when asked ([`Intent::Save`]), not within every change (a
    /// host wakes its seats first, then writes).
    save_when_asked: bool,
    /// A change the record file does not have yet (where it is written when asked).
    unsaved: bool,
    /// A spectator: the feed's events stopped following from the game here (until its state
    /// is read again).
    feed_stale: bool,
    random: Random,
}

/// The random mover of the table, seeded when the table is set.
struct Random(RandomPlayer);

impl std::fmt::Debug for Random {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RandomPlayer")
    }
}

impl Table {
    pub fn new(game: AnyGame, players: [PlayerKind; 2], seed: u64) -> Table {
        let record = Record::new(&game, players.map(|k| (k.label(), k.name())));
        Table {
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
            seat: None,
            members: Vec::new(),
            blind_done: None,
            secrets: SecretPhase::Off,
            round: TeamRound::default(),
            asked: None,
            apart: false,
            save_when_asked: false,
            unsaved: false,
            feed_stale: false,
            random: Random(RandomPlayer::new(seed)),
        }
    }

    /// The same table, whose CTOR game is played with secret squares: they are chosen first
    /// (a computer's team at once), before any move.
    pub fn with_secrets(mut self) -> Table {
        self.begin_secrets();
        self
    }

    /// The table as it stands once set up (a team's blind round begun if it is a team's turn):
    /// what a table is put on the screen as.
    pub fn settled(mut self) -> Table {
        self.settle();
        self
    }

    /// The same table, whose team members choose their blind Puts apart ([`Intent::Blind`]).
    pub fn members_apart(mut self) -> Table {
        self.apart = true;
        self.round = TeamRound::default();
        self.settle();
        self
    }

    /// The same table, whose record is written only when asked ([`Intent::Save`]).
    pub fn saving_when_asked(mut self) -> Table {
        self.save_when_asked = true;
        self
    }

    /// The same table, saved from now on (after every move) to `path`.
    pub fn saved_to(mut self, path: PathBuf) -> Table {
        self.save_to(path);
        self
    }

    fn save_to(&mut self, path: PathBuf) {
        self.record_path = Some(path);
        self.sync_record();
    }

    /// Opens a record to watch: at its start, every move ready to step through.
    pub fn replay(record: Record) -> Result<Table, crate::record::RecordError> {
        let positions = record.replay()?;
        let mut s = Table::new(positions[0].clone(), [PlayerKind::Person; 2], 1);
        for (i, m) in record.moves.iter().enumerate() {
            let mv =
                positions[i].parse_move(&m.mv).map_err(|err| crate::record::RecordError::Move { n: i + 1, err })?;
            s.redo.insert(0, mv);
        }
        s.record = record;
        s.replay = Some(Replay { autoplay: false, pace: 1.0 });
        Ok(s)
    }

    /// Opens a record to go on playing it, saving into `path` (usually its own file).
    pub fn resume(record: Record, path: Option<PathBuf>) -> Result<Table, crate::record::RecordError> {
        let players = [0, 1].map(|i| PlayerKind::from_record(&record.players[i].kind));
        let mut s = Table::replay(record)?;
        s.players = players;
        while s.redo_one() {}
        s.replay = None;
        s.redo.clear();
        s.record_path = path;
        s.sync_record();
        s.settle();
        Ok(s)
    }

    /// Opens pasted text: a record (JSON) to replay, or a position string (or a variant's name)
    /// to play from.
    pub fn open_text(text: &str) -> Result<Table, TableError> {
        let text = text.trim();
        if text.starts_with('{') {
            let record = Record::from_json(text)?;
            return Ok(Table::replay(record)?);
        }
        let game = AnyGame::read(text)?;
        Ok(Table::new(game, [PlayerKind::Person; 2], 1))
    }

    /// What the table is doing now.
    pub fn mode(&self) -> Mode {
        if self.replay.is_some() {
            Mode::Replay
        } else if self.secrets.setting_up() {
            Mode::Secrets
        } else {
            Mode::Live
        }
    }

    /// The one entry point: makes the change `intent` asks for and says what happened, or
    /// says why it is refused (and then nothing changed).
    pub fn apply(&mut self, intent: Intent) -> Result<Outcome, Refused> {
        // A spectator's moves are the feed's (`Intent::FeedEvent`), never chosen here.
        if self.spectator
            && matches!(intent, Intent::Play(..) | Intent::PlayRandom | Intent::Undo | Intent::Redo | Intent::Jump(_))
        {
            return refuse("watching a game: its moves are made at its own table");
        }
        if let Some(seat) = self.seat {
            match &intent {
                Intent::Play(..) | Intent::PlayRandom if self.game.side_to_move() != seat => {
                    return refuse("the other seat is on turn: its move comes from the host");
                }
                Intent::Undo | Intent::Redo | Intent::Jump(_) | Intent::PlayOn(_) | Intent::Open(_) => {
                    return refuse("at a hosted game the moves stay as the host has them");
                }
                _ => {}
            }
        }
        let out = match intent {
            Intent::Hosted(moves) => Ok(self.hosted(&moves)),
            Intent::Follow { changes, moves } => Ok(self.follow_changes(&changes, &moves)),
            Intent::Play(mv, by) => self.play_by(&mv, by),
            Intent::PlayRandom => self.play_random(),
            Intent::Undo => self.undo_turn(),
            Intent::Redo => match self.redo.last().cloned() {
                Some(mv) => self.play_by(&mv, By::History),
                None => refuse("nothing to redo"),
            },
            Intent::Jump(k) => {
                let end = self.history.len() + self.redo.len();
                self.jump(k.min(end));
                Ok(Outcome::rebuilt())
            }
            Intent::TogglePlay | Intent::Pace | Intent::StopAutoplay => {
                let Some(replay) = &mut self.replay else { return Ok(Outcome::default()) };
                match intent {
                    Intent::TogglePlay => replay.autoplay = !replay.autoplay,
                    Intent::Pace => replay.pace = if replay.pace >= 2.0 { 0.5 } else { replay.pace * 2.0 },
                    _ => replay.autoplay = false,
                }
                Ok(Outcome::default())
            }
            Intent::PlayOn(path) => {
                self.play_on(path);
                Ok(Outcome::say("playing on from here as a new game"))
            }
            Intent::Open(text) => {
                let opened = Table::open_text(&text).map_err(|e| Refused(e.to_string(), Ground::Illegal))?;
                *self = opened;
                Ok(Outcome::rebuilt())
            }
            Intent::Replace(table) => {
                *self = *table;
                Ok(Outcome::rebuilt())
            }
            Intent::Save => {
                self.write_record();
                Ok(Outcome::default())
            }
            Intent::SaveTo(path) => {
                self.save_to(path);
                Ok(Outcome::default())
            }
            Intent::SetPlayers(players) => {
                self.players = players;
                Ok(Outcome::default())
            }
            Intent::BeginSecrets => {
                self.begin_secrets();
                Ok(Outcome::default())
            }
            Intent::Secrets(side, squares) => self.set_secrets(side, &squares),
            Intent::SecretStep(step) => self.secret_step(step),
            Intent::SecretClick(cell) => self.secret_click(cell),
            Intent::RoundStep(step) => self.round_step(step),
            Intent::RoundClick(cell) => self.round_click(cell),
            Intent::PlaceNextPut => self.place_next_put(),
            Intent::Blind(member, mv) => self.blind(member, &mv),
            Intent::Ask(side, what) => self.ask(side, what),
            Intent::Answer(side, yes) => self.answer(side, yes),
            Intent::TakeBack(side) => match self.taken_back_to(side) {
                Some(keep) => {
                    self.jump(keep);
                    self.redo.clear();
                    Ok(Outcome::rebuilt())
                }
                None => refuse("this side has no move to take back"),
            },
            Intent::Leave(side, m) => self.seat_change(side, Some(m)),
            Intent::Join(side) => self.seat_change(side, None),
            Intent::FeedState(fresh) => Ok(self.feed_state(*fresh)),
            Intent::FeedEvent(event) => Ok(self.feed_event(&event)),
        }?;
        self.settle();
        Ok(out)
    }

    /// After every change: the team on turn's blind round starts, or ends, with the game.
    fn settle(&mut self) {
        self.follow_round();
    }

    /// Pieces of each side taken off the board since the start, as `shown` has them.
    pub fn off_board(&self, shown: &AnyGame) -> [usize; 2] {
        if !matches!(self.game, AnyGame::Ordo(_) | AnyGame::Crossings(_)) {
            return [0, 0];
        }
        shown.tally(&self.start).sides.map(|n| n[0] as usize)
    }

    /// Who chooses the move now: nobody while a record is watched, a feed followed, the game
    /// over or a team's members choose their Puts.
    pub fn to_move(&self) -> Option<PlayerKind> {
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
    pub fn seats(&self) -> Option<[Vec<PlayerInfo>; 2]> {
        self.record.team.as_ref().map(|t| t.seats_at(self.history.len()))
    }

    /// CTOR team play: how many members the team on turn has now (1 outside team play).
    fn seats_on_turn(&self) -> usize {
        self.seats().map_or(1, |s| s[self.game.side_to_move().index()].len())
    }

    /// CTOR team play: the team on turn's members are choosing their Puts blind (nobody
    /// moves at the table meanwhile).
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

    /// The game as the side to move may see it (CTOR: not the opponent's unrevealed secret
    /// squares), and, once a team's blind Puts are done, without Puts left to its acting seat.
    pub fn view_to_move(&self) -> AnyGame {
        let view = match &self.game {
            AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
            game => game.clone(),
        };
        if self.puts_closed() { crate::team::after_round(&view) } else { view }
    }

    /// The message line: the notice, and a failing save.
    pub fn status(&self, notice: &str) -> String {
        match &self.save_error {
            Some(e) if notice.is_empty() => e.clone(),
            Some(e) => format!("{notice}\n{e}"),
            None => notice.to_string(),
        }
    }

    /// A live game that is not yet saved to a file (a new game gets one when games are saved).
    pub fn needs_a_file(&self) -> bool {
        self.replay.is_none() && !self.spectator && self.record_path.is_none()
    }

    /// The new file in `dir` a live game without one is to be saved to, if it has none.
    pub fn new_file_in(&self, dir: &std::path::Path) -> Option<PathBuf> {
        self.needs_a_file().then(|| crate::record::new_game_path(dir, &self.record))
    }

    /// Plays a chosen move: a record being replayed keeps its members; a live team game's
    /// move is the acting seat's, a member's blind Put its own.
    fn play_by(&mut self, mv: &AnyMove, by: By) -> Result<Outcome, Refused> {
        let parts = self.play_as(mv, self.member_for(by)).map_err(illegal)?;
        let said = if by == By::SandGlass { "the sand ran out: the turn ended" } else { "" };
        Ok(Outcome {
            played: vec![Played { mv: mv.clone(), by, parts }],
            said: Some(said.into()),
            ..Outcome::default()
        })
    }

    /// The random mover's move for the side to move.
    fn play_random(&mut self) -> Result<Outcome, Refused> {
        if self.to_move() != Some(PlayerKind::Random) {
            return refuse("the random mover is not to move");
        }
        let view = self.view_to_move();
        let chosen = self.random.0.choose(&view);
        match chosen {
            Some(mv) => self.play_by(&mv, By::Computer),
            None => Ok(Outcome::default()),
        }
    }

    /// Plays a legal move made by a member of a CTOR team (`None` outside team play) and
    /// returns its effects part by part. Redoing the next undone move keeps the moves undone
    /// after it; any other move drops them.
    fn play_as(&mut self, mv: &AnyMove, member: Option<u8>) -> Result<Vec<Vec<Effect>>, TableError> {
        // The rules' own check (a CTOR timeout is legal without being listed).
        if let Err(e) = self.game.clone().play(mv) {
            return Err(match self.game.outcome() {
                Some(_) => TableError::Over,
                None => TableError::Move(e),
            });
        }
        let before = self.game.clone();
        let parts = self.game.play_parts_unchecked(mv);
        self.asked = None;
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
    fn undo(&mut self) -> bool {
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

    /// Undo as a player asks it: against the computer, back to the person's last turn.
    fn undo_turn(&mut self) -> Result<Outcome, Refused> {
        if let Some(why) = self.undo_refused() {
            return refuse(why);
        }
        let mut any = self.undo();
        while any
            && !self.person_to_move()
            && self.replay.is_none()
            && !self.history.is_empty()
            && self.players.contains(&PlayerKind::Person)
        {
            any = self.undo();
        }
        if any { Ok(Outcome::rebuilt()) } else { refuse("nothing to undo") }
    }

    /// Plays the next undone move again.
    fn redo_one(&mut self) -> bool {
        let Some(mv) = self.redo.last().cloned() else { return false };
        self.play_as(&mv, self.member_for(By::History)).is_ok()
    }

    /// The team member a move chosen by `by` is recorded for: a member's own blind Put; in a
    /// record being replayed, the member the record names; else the acting seat (`None`
    /// outside team play).
    fn member_for(&self, by: By) -> Option<u8> {
        match (by, &self.replay) {
            (By::Member(m), _) => Some(m),
            (_, Some(_)) => self.record.moves.get(self.history.len()).and_then(|m| m.member),
            (_, None) => self.acting_member(),
        }
    }

    /// Goes to the position after `k` moves, without animation.
    fn jump(&mut self, k: usize) {
        while self.history.len() > k && self.undo() {}
        while self.history.len() < k && self.redo_one() {}
    }

    /// Makes the record the moves of the history, then saves it (atomically) if it has a file.
    fn sync_record(&mut self) {
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
        self.unsaved = true;
        if !self.save_when_asked {
            self.write_record();
        }
    }

    /// Writes the record to its file (atomically), if it has one and a change to write.
    fn write_record(&mut self) {
        let Some(path) = &self.record_path else { return };
        if !std::mem::take(&mut self.unsaved) {
            return;
        }
        self.save_error = crate::record::write_atomic(path, &self.record.to_json()).err().map(|e| {
            format!("saving failed ({e}): the game goes on, and {} keeps the last good record", path.display())
        });
        self.unsaved = self.save_error.is_some();
    }

    /// Leaves the replay at the current move as a new game (a branch with its own record).
    fn play_on(&mut self, path: Option<PathBuf>) {
        self.replay = None;
        self.redo.clear();
        self.players = [PlayerKind::Person; 2];
        let start = self.history.first().map(|(g, _)| g.clone()).unwrap_or_else(|| self.game.clone());
        // A team game goes on as one, every seat now a person's.
        let mut team = self.record.team.take();
        if let Some(t) = &mut team {
            t.changes.retain(|c| c.at <= self.history.len());
            for p in t.seats.iter_mut().flatten().chain(t.changes.iter_mut().filter_map(|c| c.join.as_mut())) {
                p.kind = PlayerKind::Person.name();
            }
        }
        self.record = Record::new(&start, self.players.map(|k| (k.label(), k.name())));
        self.record.team = team;
        self.record_path = path;
        self.sync_record();
    }
}

/// The cells a move's effect touches (highlighted as the last move).
fn cells_of(e: &Effect) -> Vec<Cell> {
    match e {
        Effect::Moved { from, to } => vec![*from, *to],
        Effect::Captured { at } => vec![*at],
        _ => vec![],
    }
}

/// The word with its first letter capitalised ("black" → "Black").
pub fn capital(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
