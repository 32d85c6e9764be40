//! The game at the table in the app: the [`Session`] resource holding the table's state
//! (`crate::table`), the messages between the frame's steps, and the rules step, the one
//! system that changes the game. Whoever chooses a move (a person's clicks, the computer, the
//! replay, *End turn*, the sand-glass) sends a [`MoveChosen`]; whoever wants another change
//! (a secret square, a seat, the feed) sends a [`TableIntent`]; the rules step applies them
//! and announces each move as [`Played`], with its effects part by part, for the sets to
//! animate and the panels and the saver to follow.

use super::steps::{Mode, Screen, TableSystems};
use crate::gui::frame::board::{CellClicked, Rebuild};
use crate::rules::{AnyGame, AnyMove, Cell, Effect, Game};
use crate::table::pick::{Pick, Picker};
use crate::table::{Intent, Outcome, Refused, Step, Table};
use bevy::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

pub use crate::table::{By, PlayerKind, Replay};

/// The game at the table, read-only to every system but the rules step (it dereferences to
/// the table's state; only [`Session::apply`] changes it).
#[derive(Resource, Debug)]
pub struct Session(Table);

impl From<Table> for Session {
    fn from(table: Table) -> Session {
        Session(table)
    }
}

impl std::ops::Deref for Session {
    type Target = Table;
    fn deref(&self) -> &Table {
        &self.0
    }
}

impl Session {
    /// Applies an intent to the table (the rules step's call; tests use it to set a table up).
    pub fn apply(&mut self, intent: Intent) -> Result<Outcome, Refused> {
        self.0.apply(intent)
    }
}

/// A change asked of the table besides a chosen move (a secret square, a seat, the feed, the
/// random mover's turn), applied by the rules step.
#[derive(Message, Debug)]
pub struct TableIntent(pub Intent);

/// Buttons of the hand-over screens (CTOR's secret squares, team rounds) and of the seats.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretCommand {
    /// The right team, or member, looks at the screen now.
    Proceed,
    /// The chosen squares are final.
    Done,
    /// Show or hide the own unrevealed squares of the team on turn.
    ShowMine,
    /// Team play: the member choosing has chosen their blind Puts.
    PutsDone,
    /// Team play: the member in this seat leaves the team.
    Leave(crate::rules::Side, u8),
    /// Team play: a player joins the team.
    Join(crate::rules::Side),
}

/// A spectator's feed no longer follows from the game here: its state is to be read again.
#[derive(Message, Clone, Copy, Debug)]
pub struct FeedOutOfStep;

/// What the rules step's intents changed in the game, in order, as the seats' host passes its
/// own on ([`crate::table::Change`]): the live feed follows them.
#[derive(Message, Debug, Clone)]
pub struct TableChanged(pub Vec<crate::table::Change>);

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
    pub(crate) fn say(&mut self, text: impl Into<String>) {
        let text = text.into();
        if self.0 != text {
            self.0 = text;
        }
    }
}

/// A move chosen, for the rules step to play.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct MoveChosen {
    pub mv: AnyMove,
    pub by: By,
}

/// A move the rules step played: what it changed, part by part, the first `shown` parts of
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
    /// A hosted game: yes to the other side's question (after the end: ask for a rematch).
    Agree,
    /// Host this game on the network, or stop hosting it.
    Host,
    /// Copy the game's address for spectators (the live feed's step answers it).
    CopyWatch,
}

impl Command {
    /// A choice about the move being chosen, which the pick step answers (the rules step
    /// leaves it alone).
    pub fn picks(&self) -> bool {
        matches!(self, Command::Choose(_) | Command::Cancel | Command::EndTurn | Command::Landing)
    }
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

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Command>()
        .add_message::<MoveChosen>()
        .add_message::<Played>()
        .add_message::<PartShown>()
        .add_message::<TableIntent>()
        .add_message::<FeedOutOfStep>()
        .add_message::<TableChanged>()
        .add_message::<SecretCommand>()
        .init_resource::<SaveFolder>()
        .init_resource::<Picking>()
        .init_resource::<Notice>()
        .init_resource::<Highlights>()
        .add_systems(
            PreUpdate,
            (
                (pick_clicks, pick_commands).chain(),
                autoplay.run_if(in_state(Mode::Replay)),
                end_turn_by_itself.run_if(in_state(Mode::Live).and_then(auto_end_turn).and_then(not(animating))),
            )
                .run_if(resource_exists::<Session>)
                .in_set(TableSystems::Pick),
        )
        .add_systems(
            PreUpdate,
            (rules, follow_mode, highlight).chain().run_if(resource_exists::<Session>).in_set(TableSystems::Rules),
        );
}

/// The mode follows the table (a record opened, played on or pasted, CTOR's secret squares
/// chosen) through Bevy's state transition, which runs right after the rules step (before the
/// frame's scene steps).
fn follow_mode(session: Res<Session>, mode: Res<State<Mode>>, mut next: ResMut<NextState<Mode>>) {
    let want = Mode::from(session.mode());
    if *mode.get() != want {
        next.set(want);
    }
}

/// With the setting on, a person's CTOR turn ends by itself once the table rests and ending
/// it is all that is left (the same *End turn* the button sends, once for each position).
fn end_turn_by_itself(session: Res<Session>, mut cmds: MessageWriter<Command>, mut ended: Local<Option<String>>) {
    if !session.only_end_left() {
        return;
    }
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
pub fn animating(tweens: Query<(), With<crate::gui::frame::animate::Tween>>) -> bool {
    !tweens.is_empty()
}

/// Clicks on cells, as the table stands: CTOR's secret squares while they are chosen, a team
/// member's blind Puts while they choose, else a person's move: the picker turns them into a
/// chosen move, a first part to show, a choice to offer or a reason for refusing. Clicks
/// while pieces move change no move.
fn pick_clicks(
    mut clicks: MessageReader<CellClicked>,
    session: Res<Session>,
    tweens: Query<(), With<crate::gui::frame::animate::Tween>>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut chosen: MessageWriter<MoveChosen>,
    mut parts: MessageWriter<PartShown>,
    mut intents: MessageWriter<TableIntent>,
) {
    match session.mode() {
        crate::table::Mode::Secrets => {
            intents.write_batch(clicks.read().map(|c| TableIntent(Intent::SecretClick(c.0))));
            return;
        }
        crate::table::Mode::Live if session.round.choosing().is_some() => {
            intents.write_batch(clicks.read().map(|c| TableIntent(Intent::RoundClick(c.0))));
            return;
        }
        _ => {}
    }
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

/// The person's choices besides clicks: a move offered, cancel, *End turn*, *Landing*.
fn pick_commands(
    mut commands: MessageReader<Command>,
    session: Res<Session>,
    mut picking: ResMut<Picking>,
    mut notice: ResMut<Notice>,
    mut chosen: MessageWriter<MoveChosen>,
    mut parts: MessageWriter<PartShown>,
    mut rebuild: MessageWriter<Rebuild>,
) {
    for command in commands.read() {
        if !command.picks() {
            continue;
        }
        if session.spectator && *command != Command::Cancel {
            notice.say(SPECTATING);
            continue;
        }
        if !session.person_to_move() && *command != Command::Cancel {
            continue;
        }
        match command {
            Command::Choose(part) => {
                if picking.choices.iter().all(|(_, p)| p != part) {
                    continue;
                }
                picking.choices.clear();
                let pick = picking.picker.choose_part(&session.game, part);
                answer(pick, &session.game, &mut picking, &mut notice, &mut chosen, &mut parts);
            }
            Command::Cancel => {
                let had_part = !picking.picker.parts.is_empty();
                *picking = Picking::default();
                notice.say("");
                if had_part {
                    rebuild.write(Rebuild);
                }
            }
            Command::EndTurn => match &session.game {
                AnyGame::Ctor(_) => {
                    chosen.write(MoveChosen { mv: AnyMove::Ctor(crate::rules::ctor::CtorMove::End), by: By::Person });
                }
                _ => notice.say("only a CTOR turn is ended by a button"),
            },
            Command::Landing => match picking.picker.start_landing(&session.game) {
                Ok(()) => notice.say("Landing: choose two of your discs, then where one lands"),
                Err(why) => notice.say(why.to_string()),
            },
            _ => {}
        }
    }
}

/// What a spectator is told when trying to play.
const SPECTATING: &str = "watching a live feed: the moves are made at the feed's table";

/// What the rules step writes besides the table: the move being chosen, the message line,
/// and the messages to the steps after it.
#[derive(bevy::ecs::system::SystemParam)]
struct Reply<'w> {
    picking: ResMut<'w, Picking>,
    notice: ResMut<'w, Notice>,
    played: MessageWriter<'w, Played>,
    rebuild: MessageWriter<'w, Rebuild>,
    out_of_step: MessageWriter<'w, FeedOutOfStep>,
    changed: MessageWriter<'w, TableChanged>,
}

impl Reply<'_> {
    /// Applies `intent` to the table and answers with what it did (and what it changed).
    fn apply(&mut self, session: &mut Session, intent: Intent) {
        let mark = session.mark();
        let result = session.apply(intent);
        if let Ok(out) = &result {
            let changes = session.changes(mark, out);
            if !changes.is_empty() {
                self.changed.write(TableChanged(changes));
            }
        }
        self.answer(result);
    }

    /// Tells the frame's later steps what an intent did, or says why it was refused.
    fn answer(&mut self, result: Result<Outcome, Refused>) {
        let out = match result {
            Ok(out) => out,
            Err(why) => return self.notice.say(why.0),
        };
        for p in out.played {
            let shown = if p.by == By::Person { self.picking.picker.parts.len() } else { 0 };
            if p.by != By::Person && !self.picking.picker.parts.is_empty() {
                // Another move (a redo) while a first part of the person's was on the table:
                // the scene is rebuilt, the preview does not belong to the game.
                self.rebuild.write(Rebuild);
            }
            *self.picking = Picking::default();
            self.played.write(Played { mv: p.mv, by: p.by, parts: p.parts, shown });
        }
        if out.rebuilt {
            // After moving through the history or opening a game: nothing half-chosen, the
            // scene rebuilt.
            *self.picking = Picking::default();
            self.rebuild.write(Rebuild);
        }
        if let Some(said) = out.said {
            self.notice.say(said);
        }
        if out.out_of_step {
            self.out_of_step.write(FeedOutOfStep);
        }
    }
}

/// The rules step, the one writer of the game: the hand-over screens' steps, the intents of
/// the pick step (secret squares, seats, the feed, the random mover), the buttons and keys
/// that change the table, and the chosen moves, in that order; then a new live game gets its
/// file.
#[allow(clippy::too_many_arguments)]
fn rules(
    mut session: ResMut<Session>,
    mut secret: MessageReader<SecretCommand>,
    mut intents: ResMut<Messages<TableIntent>>,
    mut commands: MessageReader<Command>,
    mut chosen: MessageReader<MoveChosen>,
    mut reply: Reply,
    mut screen: ResMut<NextState<Screen>>,
    folder: Res<SaveFolder>,
) {
    use crate::table::RoundPhase;
    let secrets = session.mode() == crate::table::Mode::Secrets;
    let mut steps: Vec<Intent> = secret
        .read()
        .filter_map(|c| match (c, secrets) {
            (SecretCommand::Proceed, true) => Some(Intent::SecretStep(Step::Proceed)),
            (SecretCommand::Done, true) => Some(Intent::SecretStep(Step::Done)),
            (SecretCommand::Proceed, false) => Some(Intent::RoundStep(Step::Proceed)),
            (SecretCommand::PutsDone, false) => Some(Intent::RoundStep(Step::Done)),
            (SecretCommand::Leave(side, m), false) => Some(Intent::Leave(*side, *m)),
            (SecretCommand::Join(side), false) => Some(Intent::Join(*side)),
            _ => None,
        })
        .collect();
    let commands: Vec<Command> = commands.read().cloned().collect();
    // Space (the key that ends a turn, which cannot end one during a round) goes on: it is
    // *Continue* on the hand-over screen and *Done* while choosing.
    if commands.contains(&Command::EndTurn) && !secrets {
        match session.round.phase {
            RoundPhase::HandOver(..) => steps.push(Intent::RoundStep(Step::Proceed)),
            RoundPhase::Choosing(..) => steps.push(Intent::RoundStep(Step::Done)),
            _ => {}
        }
    }
    // The rules step alone reads the intents: each is taken (a table carried by one moves in).
    for intent in steps.into_iter().chain(intents.drain().map(|TableIntent(i)| i)) {
        reply.apply(&mut session, intent);
    }
    let mut later = Vec::new();
    for command in &commands {
        if command.picks() {
            continue;
        }
        let looks_only =
            matches!(command, Command::Export | Command::CopyPosition | Command::CopyWatch | Command::NewGame);
        if session.spectator && !looks_only {
            reply.notice.say(SPECTATING);
            continue;
        }
        let intent = match command {
            // At a hosted game's seat an undo is asked of the other side (the remote room).
            Command::Undo if session.seat.is_some() => continue,
            Command::Undo => Intent::Undo,
            // A redo is played after the moves chosen this frame, as one of them.
            Command::Redo | Command::StepForward => {
                later.push(Intent::Redo);
                continue;
            }
            Command::Jump(k) => Intent::Jump(*k),
            Command::TogglePlay => Intent::TogglePlay,
            Command::Pace => Intent::Pace,
            // A new game: it gets its own file below.
            Command::PlayOn => Intent::PlayOn(None),
            // A seat's invitation is the remote room's to open.
            Command::Open(text) if crate::net::Invitation::parse(text).is_ok() => continue,
            Command::Open(text) => Intent::Open(text.clone()),
            Command::Paste => match crate::gui::frame::clipboard::text() {
                Ok(text) if crate::net::Invitation::parse(&text).is_ok() => continue,
                Ok(text) => Intent::Open(text),
                Err(e) => {
                    reply.notice.say(format!("the clipboard is not available ({e})"));
                    continue;
                }
            },
            Command::Export => {
                reply.notice.say(export(&session));
                continue;
            }
            Command::CopyPosition => {
                let text = reply.picking.shown(&session.game).to_string();
                reply.notice.say(match crate::gui::frame::clipboard::copy(&text) {
                    Ok(()) => format!("copied: {text}"),
                    Err(e) => format!("the clipboard is not available ({e}); the position is {text}"),
                });
                continue;
            }
            Command::NewGame => {
                screen.set(Screen::Menu);
                continue;
            }
            // The pick step and the computer answer the others.
            _ => continue,
        };
        reply.apply(&mut session, intent);
    }
    for MoveChosen { mv, by } in chosen.read() {
        reply.apply(&mut session, Intent::Play(mv.clone(), *by));
    }
    for intent in later {
        reply.apply(&mut session, intent);
    }
    // Every live game at the table has a file, however it began (the menu's *Start*, a
    // position on the command line, a paste, *Play on*, a new game): one without gets a new
    // file in the save folder here, in one place, and is saved at once.
    if let Some(path) = folder.0.as_deref().and_then(|dir| session.new_file_in(dir)) {
        reply.apply(&mut session, Intent::SaveTo(path));
    }
}

/// Puts a table on the screen (from the menu, a saved game, the command line): the table's
/// screen and mode start together, so that no frame runs in the wrong mode.
pub fn open(table: Table) -> impl FnOnce(&mut World) {
    move |world: &mut World| {
        let mut table = table.settled();
        // A new live game is saved from its first frame, however it began.
        if let Some(path) = world.get_resource::<SaveFolder>().and_then(|f| table.new_file_in(f.0.as_deref()?)) {
            table = table.saved_to(path);
        }
        let mode = Mode::from(table.mode());
        world.insert_resource(Session::from(table));
        world.resource_mut::<NextState<Screen>>().set(Screen::Playing);
        world.resource_mut::<NextState<Mode>>().set(mode);
    }
}

/// Opens pasted text: a record (JSON) to replay, or a position string to play from (a new
/// game, which the rules step saves like any other).
pub fn open_text(text: &str) -> Result<Session, crate::table::TableError> {
    Table::open_text(text).map(Session)
}

/// The folder where games at the table are saved (`None`: not saved, for tests and timing).
/// The app uses the data folder (`record::data_dir`).
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveFolder(pub Option<PathBuf>);

/// Writes the record and the move list into the data folder's exports.
fn export(session: &Session) -> String {
    let dir = crate::record::data_dir().join("exports");
    let name = crate::record::file_stem(&session.record);
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
    session: Res<Session>,
    tweens: Query<(), With<crate::gui::frame::animate::Tween>>,
    time: Res<Time>,
    mut waited: Local<f32>,
    mut chosen: MessageWriter<MoveChosen>,
    mut intents: MessageWriter<TableIntent>,
) {
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
            intents.write(TableIntent(Intent::StopAutoplay));
        }
    }
}

/// The highlights follow the session and the move being chosen (recomputed only when they change).
fn highlight(session: Res<Session>, picking: Res<Picking>, mode: Res<State<Mode>>, mut marks: ResMut<Highlights>) {
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
