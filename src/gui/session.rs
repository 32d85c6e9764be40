//! The game being played at the table: the rules' position, history for undo and redo, the
//! move being chosen, the players, and the messages that turn clicks and buttons into moves.

use super::Screen;
use crate::interact::{Pick, Picker};
use crate::players::{Player, RandomPlayer};
use crate::rules::{AnyGame, AnyMove, Cell, Effect, Game, Side};
use bevy::prelude::*;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Person,
    /// The seeded random mover (the computer opponent comes later).
    Random,
}

impl PlayerKind {
    pub fn label(self) -> &'static str {
        match self {
            PlayerKind::Person => "person",
            PlayerKind::Random => "computer (random)",
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
    computer: RandomPlayer,
    /// Seconds the computer has waited before moving (so its moves can be followed).
    waited: f32,
}

impl Session {
    pub fn new(game: AnyGame, players: [PlayerKind; 2], seed: u64) -> Session {
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
    pub fn person_to_move(&self) -> bool {
        self.blocked.is_none()
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
        self.last_move = effects
            .iter()
            .flat_map(|e| match e {
                Effect::Moved { from, to } => vec![*from, *to],
                Effect::Captured { at } => vec![*at],
                _ => vec![],
            })
            .collect();
        let skip = std::mem::take(&mut self.shown_effects);
        self.picker.clear();
        self.choices.clear();
        self.message.clear();
        Animate { effects, skip, breaks }
    }

    fn undo(&mut self) -> bool {
        let Some((before, mv)) = self.history.pop() else { return false };
        self.game = before;
        self.redo.push(mv);
        self.after_jump();
        true
    }

    fn redo(&mut self) -> bool {
        let Some(mv) = self.redo.pop() else { return false };
        let before = self.game.clone();
        if self.game.play(&mv).is_err() {
            return false;
        }
        self.history.push((before, mv));
        self.after_jump();
        true
    }

    fn after_jump(&mut self) {
        self.picker.clear();
        self.choices.clear();
        self.shown_effects = 0;
        self.waited = 0.0;
        self.message.clear();
        self.last_move = match self.history.last() {
            Some((before, mv)) => {
                let mut g = before.clone();
                g.play(mv).unwrap_or_default().iter().flat_map(cells_of).collect()
            }
            None => Vec::new(),
        };
    }
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

/// True while pieces are moving: input waits.
pub fn animating(tweens: Query<(), With<super::animate::Tween>>) -> bool {
    !tweens.is_empty()
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CellClicked>()
        .add_message::<Command>()
        .add_message::<Animate>()
        .add_message::<Rebuild>()
        .add_systems(
            Update,
            (handle_clicks, handle_commands, computer_turn)
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
                    && !session.person_to_move()
                    && session.history.len() > 0
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
            Command::Redo => {
                if session.redo() {
                    rebuild.write(Rebuild);
                } else {
                    session.message = "nothing to redo".into();
                }
            }
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

fn computer_turn(
    session: Option<ResMut<Session>>,
    tweens: Query<(), With<super::animate::Tween>>,
    time: Res<Time>,
    speed: Res<super::animate::Speed>,
    mut animate: MessageWriter<Animate>,
) {
    let Some(mut session) = session else { return };
    if !tweens.is_empty() || session.game.outcome().is_some() || session.blocked.is_some() {
        return;
    }
    if session.players[session.game.side_to_move().index()] != PlayerKind::Random {
        return;
    }
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
