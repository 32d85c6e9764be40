//! One keymap: every action a key takes at the table, its keys, and their words for the
//! buttons and the help. The Input step reads the keyboard here, once a frame, and sends each
//! action as [`Pressed`]; the buttons that do the same send the same action.

use bevy::prelude::*;

/// Something a player asks for by a key (or by the button that shows the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Undo,
    Redo,
    /// Drop the move being chosen.
    Cancel,
    NewGame,
    CopyPosition,
    Paste,
    Hint,
    ComputerPace,
    PauseComputer,
    Export,
    /// The camera from above, from the first side, from the second, back to the start.
    ViewTop,
    ViewFirst,
    ViewSecond,
    ViewReset,
    /// The next of the views (the first side's, the second's, from above).
    ViewNext,
    /// The list of every action with its key (the table's *Menu*).
    Actions,
    /// The evaluation bar at the table.
    Evaluation,
    /// The animation's speed.
    Speed,
    /// CTOR's field on the doughnut or flat.
    Doughnut,
    /// CTOR: the team on turn's own secret squares.
    MySecrets,
    /// Heights (Volterra) or square numbers (CTOR).
    Labels,
    /// The rules panel.
    Rules,
    /// The settings panel.
    Settings,
    FullScreen,
    Mute,
    /// Photo mode on or off.
    Photo,
    /// Bring the piece under the pointer close to look at it, or put it back.
    Inspect,
    /// Open the broadcast window.
    Broadcast,
    /// The evaluation bar on the broadcast.
    BroadcastBar,
    /// The director's next way of choosing shots.
    Director,
    ChromaKey,
    /// One of the broadcast's overlays: names, whose turn, score, last move, move list, result.
    Overlay(u8),
    /// Keyboard play and the buttons: the cursor or the focus one step.
    Left,
    Right,
    Up,
    Down,
    /// The next cell or button (`Shift`: the one before).
    Next,
    Previous,
    /// The cell under the cursor, the button in focus, the photo in photo mode.
    Enter,
    /// The button in focus (and in CTOR, ending the turn).
    Space,
    /// One of the moves offered, 1 to 9.
    Choice(u8),
    /// CTOR: start choosing a Landing.
    Landing,
    /// A hosted game: yes to the other side's question, or a rematch asked after the end.
    Agree,
    /// Host the game on the network (or stop hosting it).
    Host,
    /// Copy the game's address for spectators.
    CopyWatch,
}

/// A key, with `Ctrl` held (`Some(true)`), not held (`Some(false)`), or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    pub key: KeyCode,
    pub ctrl: Option<bool>,
    /// `Shift` held (`Some(true)`), not held, or either.
    pub shift: Option<bool>,
}

const fn key(key: KeyCode) -> Chord {
    Chord { key, ctrl: None, shift: None }
}

const fn plain(key: KeyCode) -> Chord {
    Chord { key, ctrl: Some(false), shift: None }
}

const fn ctrl(key: KeyCode) -> Chord {
    Chord { key, ctrl: Some(true), shift: None }
}

/// Every action with its keys, in the order the help lists them.
pub const KEYMAP: &[(Action, &[Chord])] = &[
    (Action::Undo, &[key(KeyCode::KeyU), ctrl(KeyCode::KeyZ)]),
    (Action::Redo, &[ctrl(KeyCode::KeyY)]),
    (Action::Cancel, &[key(KeyCode::Escape)]),
    (Action::NewGame, &[ctrl(KeyCode::KeyN)]),
    (Action::CopyPosition, &[ctrl(KeyCode::KeyC)]),
    (Action::Paste, &[ctrl(KeyCode::KeyV)]),
    (Action::Hint, &[plain(KeyCode::KeyI)]),
    (Action::ComputerPace, &[plain(KeyCode::KeyC)]),
    (Action::PauseComputer, &[ctrl(KeyCode::KeyP)]),
    (Action::Export, &[plain(KeyCode::KeyX)]),
    (Action::ViewTop, &[key(KeyCode::KeyT)]),
    (Action::ViewFirst, &[key(KeyCode::Digit1)]),
    (Action::ViewSecond, &[key(KeyCode::Digit2)]),
    (Action::ViewReset, &[key(KeyCode::KeyR)]),
    (Action::ViewNext, &[plain(KeyCode::KeyV)]),
    (Action::Actions, &[key(KeyCode::KeyK)]),
    (Action::Evaluation, &[key(KeyCode::KeyE)]),
    (Action::Speed, &[key(KeyCode::KeyF)]),
    (Action::Doughnut, &[plain(KeyCode::KeyD)]),
    (Action::MySecrets, &[plain(KeyCode::KeyM)]),
    (Action::Labels, &[plain(KeyCode::KeyH), plain(KeyCode::KeyN)]),
    (Action::Host, &[ctrl(KeyCode::KeyH)]),
    (Action::CopyWatch, &[ctrl(KeyCode::KeyW)]),
    (Action::Agree, &[plain(KeyCode::KeyY)]),
    (Action::Rules, &[key(KeyCode::F1)]),
    (Action::Settings, &[key(KeyCode::KeyS)]),
    (Action::FullScreen, &[key(KeyCode::F11)]),
    (Action::Mute, &[ctrl(KeyCode::KeyM)]),
    (Action::Photo, &[plain(KeyCode::KeyP)]),
    (Action::Inspect, &[plain(KeyCode::KeyG)]),
    (Action::Broadcast, &[key(KeyCode::F8)]),
    (Action::BroadcastBar, &[key(KeyCode::F12)]),
    (Action::Director, &[key(KeyCode::F9)]),
    (Action::ChromaKey, &[key(KeyCode::F10)]),
    (Action::Overlay(0), &[key(KeyCode::F2)]),
    (Action::Overlay(1), &[key(KeyCode::F3)]),
    (Action::Overlay(2), &[key(KeyCode::F4)]),
    (Action::Overlay(3), &[key(KeyCode::F5)]),
    (Action::Overlay(4), &[key(KeyCode::F6)]),
    (Action::Overlay(5), &[key(KeyCode::F7)]),
    (Action::Left, &[key(KeyCode::ArrowLeft)]),
    (Action::Right, &[key(KeyCode::ArrowRight)]),
    (Action::Up, &[key(KeyCode::ArrowUp)]),
    (Action::Down, &[key(KeyCode::ArrowDown)]),
    (Action::Next, &[Chord { key: KeyCode::Tab, ctrl: None, shift: Some(false) }]),
    (Action::Previous, &[Chord { key: KeyCode::Tab, ctrl: None, shift: Some(true) }]),
    (Action::Enter, &[key(KeyCode::Enter), key(KeyCode::NumpadEnter)]),
    (Action::Space, &[key(KeyCode::Space)]),
    (Action::Choice(1), &[key(KeyCode::Digit1)]),
    (Action::Choice(2), &[key(KeyCode::Digit2)]),
    (Action::Choice(3), &[key(KeyCode::Digit3)]),
    (Action::Choice(4), &[key(KeyCode::Digit4)]),
    (Action::Choice(5), &[key(KeyCode::Digit5)]),
    (Action::Choice(6), &[key(KeyCode::Digit6)]),
    (Action::Choice(7), &[key(KeyCode::Digit7)]),
    (Action::Choice(8), &[key(KeyCode::Digit8)]),
    (Action::Choice(9), &[key(KeyCode::Digit9)]),
    (Action::Landing, &[key(KeyCode::KeyL)]),
];

/// The keys of an action in words, as its button and the help show them ("Ctrl+Z or U").
pub fn keys_of(action: Action) -> String {
    let words: Vec<String> = KEYMAP
        .iter()
        .filter(|(a, _)| *a == action)
        .flat_map(|(_, chords)| chords.iter())
        .map(|c| chord_words(*c))
        .collect();
    words.join(" or ")
}

/// What an action does, in a few words (the help's second column).
pub fn words(action: Action) -> String {
    let overlays = ["names", "whose turn", "score", "last move", "move list", "result"];
    match action {
        Action::Undo => "undo (at a hosted game: ask the other side)".into(),
        Action::Redo => "redo".into(),
        Action::Cancel => "drop the move being chosen (at a hosted game: refuse the other side's question)".into(),
        Action::NewGame => "a new game (the menu)".into(),
        Action::CopyPosition => "copy the position".into(),
        Action::Paste => "paste a position, a record or a seat's invitation".into(),
        Action::Hint => "a hint".into(),
        Action::ComputerPace => "the computer's pace".into(),
        Action::PauseComputer => "pause or resume the computer".into(),
        Action::Export => "export the record and the move list".into(),
        Action::ViewTop => "the view from above".into(),
        Action::ViewFirst => "the first side's view".into(),
        Action::ViewSecond => "the second side's view".into(),
        Action::ViewReset => "the view back to the start".into(),
        Action::ViewNext => "the next view: a side's, the other's, from above".into(),
        Action::Actions => "the table's menu: every action with its key".into(),
        Action::Evaluation => "the evaluation bar".into(),
        Action::Speed => "the animation's speed".into(),
        Action::Doughnut => "CTOR: the field on the doughnut, or flat".into(),
        Action::MySecrets => "CTOR: your team's own secret squares".into(),
        Action::Labels => "heights (Volterra) or square numbers (CTOR)".into(),
        Action::Rules => "the rules panel".into(),
        Action::Settings => "the settings panel".into(),
        Action::FullScreen => "full screen".into(),
        Action::Mute => "sound off or on".into(),
        Action::Photo => "photo mode".into(),
        Action::Inspect => {
            "bring the piece under the pointer close (drag with the right button to turn it), or put it back".into()
        }
        Action::Broadcast => "open the broadcast window".into(),
        Action::BroadcastBar => "the evaluation bar on the broadcast".into(),
        Action::Director => "the broadcast director's next way of choosing shots".into(),
        Action::ChromaKey => "the broadcast's chroma key".into(),
        Action::Overlay(i) => format!("the broadcast's {} overlay", overlays.get(i as usize).unwrap_or(&"")),
        Action::Left | Action::Right | Action::Up | Action::Down => {
            "move the keyboard's cursor, or the focus over the buttons".into()
        }
        Action::Next => "the next piece or square to choose, or the next button".into(),
        Action::Previous => "the piece, square or button before".into(),
        Action::Enter => "choose the cell under the cursor, press the button in focus, take the photo".into(),
        Action::Space => "CTOR: end the turn (and press the button in focus)".into(),
        Action::Choice(n) => format!("the move numbered {n} in the list offered"),
        Action::Landing => "CTOR: start a Landing".into(),
        Action::Host => "host this game on the network, or stop (the invitation is copied)".into(),
        Action::CopyWatch => {
            "copy the game's address for spectators (a hosted game's, the live feed's, the game watched)".into()
        }
        Action::Agree => {
            "at a hosted game: yes to the other side's question, or ask for a rematch after the end".into()
        }
    }
}

/// Every key with what it does, one line each, as `tablero keys` prints them.
pub fn help() -> String {
    let mut lines: Vec<String> = Vec::new();
    for (action, _) in KEYMAP {
        let keys = match action {
            Action::Left | Action::Right | Action::Up | Action::Down => "Arrows".to_string(),
            Action::Choice(1) => "1 to 9".to_string(),
            Action::Choice(_) => continue,
            _ => keys_of(*action),
        };
        let what = match action {
            Action::Choice(_) => "while moves are offered: the one of that number".to_string(),
            _ => words(*action),
        };
        let line = format!("{keys:<14} {what}");
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines.join("\n")
}

/// The `i`th key of an action in words, as a button shows it ("U" for *Undo*).
pub fn shown(action: Action, i: usize) -> String {
    let chord = KEYMAP.iter().filter(|(a, _)| *a == action).flat_map(|(_, c)| c.iter()).nth(i);
    chord.map(|c| chord_words(*c)).unwrap_or_default()
}

fn chord_words(c: Chord) -> String {
    let name = key_name(c.key);
    match (c.ctrl, c.shift) {
        (Some(true), _) => format!("Ctrl+{name}"),
        (_, Some(true)) => format!("Shift+{name}"),
        _ => name,
    }
}

fn key_name(key: KeyCode) -> String {
    let debug = format!("{key:?}");
    let short = debug.strip_prefix("Key").or_else(|| debug.strip_prefix("Digit")).unwrap_or(&debug);
    match key {
        KeyCode::ArrowLeft => "Left".into(),
        KeyCode::ArrowRight => "Right".into(),
        KeyCode::ArrowUp => "Up".into(),
        KeyCode::ArrowDown => "Down".into(),
        KeyCode::NumpadEnter => "keypad Enter".into(),
        _ => short.to_string(),
    }
}

/// An action asked for this frame (by its key, or by its button).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pressed(pub Action);

/// A key of any kind was pressed this frame (the pine set's unpacking ends at once).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnyKey;

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Pressed>().add_message::<AnyKey>().add_systems(
        PreUpdate,
        read_keys
            .run_if(resource_exists::<ButtonInput<KeyCode>>)
            .after(bevy::input::InputSystems)
            .before(super::steps::TableSystems::Input),
    );
}

/// The keyboard, read once a frame: each chord pressed becomes its action. While the moves a
/// click fits are listed, the number keys choose among them (and turn no camera).
pub(crate) fn read_keys(
    input: Res<ButtonInput<KeyCode>>,
    picking: Option<Res<super::session::Picking>>,
    mut pressed: MessageWriter<Pressed>,
    mut any: MessageWriter<AnyKey>,
) {
    let listing = picking.is_some_and(|p| !p.choices.is_empty());
    if input.get_just_pressed().next().is_none() {
        return;
    }
    any.write(AnyKey);
    let ctrl = input.pressed(KeyCode::ControlLeft) || input.pressed(KeyCode::ControlRight);
    let shift = input.pressed(KeyCode::ShiftLeft) || input.pressed(KeyCode::ShiftRight);
    for (action, chords) in KEYMAP {
        let hit = chords.iter().any(|c| {
            input.just_pressed(c.key)
                && c.ctrl.is_none_or(|want| want == ctrl)
                && c.shift.is_none_or(|want| want == shift)
        });
        if hit && !(listing && matches!(action, Action::ViewFirst | Action::ViewSecond)) {
            pressed.write(Pressed(*action));
        }
    }
}
