//! No game is lost: every way a game begins at the table saves it (the menu's *Start*, a new
//! game from the table, resume, paste, play on), and a save that fails (a full disk, a
//! read-only folder) loses nothing and resumes by itself.

use crate::table::{click, click_entity, session, settle};
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use tablero::gui::Screen;
use tablero::gui::frame::session::{Command, PlayerKind};
use tablero::gui::screens::choice::MenuChoice;
use tablero::gui::screens::menu::PlayerButton;
use tablero::record::Record;
use tablero::rules::{Cell, Game, Side};

fn c(s: &str) -> Cell {
    s.parse().unwrap()
}

pub(crate) fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablero-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The saved games under the folder, by file name.
pub(crate) fn saved(dir: &Path) -> Vec<(PathBuf, Record)> {
    let mut v: Vec<(PathBuf, Record)> = std::fs::read_dir(dir.join("games"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.clone(), Record::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Every button on screen with its label.
/// (A button's words may sit a level down, as a card's title does.)
pub(crate) fn buttons(app: &mut App) -> Vec<(Entity, String)> {
    let world = app.world_mut();
    let texts: Vec<(Entity, String)> =
        world.query::<(Entity, &Text)>().iter(world).map(|(e, t)| (e, t.0.clone())).collect();
    let mut out = Vec::new();
    for (e, words) in texts {
        let mut at = world.get::<ChildOf>(e).map(|c| c.parent());
        for _ in 0..3 {
            let Some(p) = at else { break };
            if world.get::<Button>(p).is_some() {
                out.push((p, words));
                break;
            }
            at = world.get::<ChildOf>(p).map(|c| c.parent());
        }
    }
    out
}

/// The menu button whose label starts with `label`.
pub(crate) fn menu_button(app: &mut App, label: &str) -> Entity {
    buttons(app)
        .into_iter()
        .find(|(_, t)| t.starts_with(label))
        .map(|(p, _)| p)
        .unwrap_or_else(|| panic!("no menu button '{label}'"))
}

pub(crate) fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Clicks the menu's button, then lets the state change and the first frames run.
pub(crate) fn press(app: &mut App, label: &str) {
    assert_eq!(screen(app), Screen::Menu);
    let b = menu_button(app, label);
    click_entity(app, b);
    app.update();
    app.update();
}

/// Clicks the menu's button that makes `kind` play `side`.
pub(crate) fn press_player(app: &mut App, side: Side, kind: PlayerKind) {
    let world = app.world_mut();
    let b = world
        .query::<(Entity, &PlayerButton)>()
        .iter(world)
        .find(|(_, b)| **b == PlayerButton { side, kind })
        .unwrap_or_else(|| panic!("no button for {kind:?} on side {}", side.index() + 1))
        .0;
    click_entity(app, b);
    app.update();
}

/// Whether the menu button whose label starts with `label` is shown.
fn shown(app: &mut App, label: &str) -> bool {
    let b = menu_button(app, label);
    app.world().get::<Node>(b).unwrap().display != Display::None
}

/// The menu as a newcomer meets it: each side's player chosen directly, any computer level
/// for either side, and only the chosen game's options.
#[test]
fn the_menu_chooses_players_directly_and_shows_only_the_games_options() {
    let dir = fresh_dir("menu-choice");
    let mut app = tablero::gui::headless_menu_app(dir);
    for side in [Side::First, Side::Second] {
        for kind in PlayerKind::all() {
            press_player(&mut app, side, kind);
            assert_eq!(app.world().resource::<MenuChoice>().players[side.index()], kind);
        }
    }
    assert!(PlayerKind::all().contains(&PlayerKind::Ai(tablero::ai::LEVELS.len() - 1)), "master can be chosen");
    // Ordo Classic (the first game) has no options.
    assert!(!shown(&mut app, "Exact phalanx") && !shown(&mut app, "Secret squares"));
    assert!(!shown(&mut app, "Build near the source"));
    press(&mut app, "Crossings");
    assert!(shown(&mut app, "Exact phalanx: off") && !shown(&mut app, "Secret squares"));
    press(&mut app, "Exact phalanx");
    app.update();
    assert!(shown(&mut app, "Exact phalanx: on"), "the caption says the option's state");
    assert_eq!(app.world().resource::<MenuChoice>().game().to_string().split(' ').nth(4), Some("exact"));
    press(&mut app, "CTOR 8x8");
    assert!(shown(&mut app, "Secret squares: off") && shown(&mut app, "Sand-glass: none"));
    assert!(!shown(&mut app, "Exact phalanx") && !shown(&mut app, "Build near the source"));
    press(&mut app, "Volterra");
    assert!(shown(&mut app, "Build near the source: off") && !shown(&mut app, "Teams"));
}

/// A CTOR game with secret squares, started from the menu: the squares are chosen after
/// the game's file exists, and the file holds them at once (a record without them would
/// replay to another position as soon as one works).
#[test]
fn the_secret_squares_chosen_at_the_table_are_saved() {
    let dir = fresh_dir("menu-secrets");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "CTOR 8x8");
    press(&mut app, "Secret squares");
    for side in [Side::First, Side::Second] {
        press_player(&mut app, side, PlayerKind::Random);
    }
    press(&mut app, "Start");
    let files = saved(&dir);
    assert_eq!(files.len(), 1);
    let secrets = files[0].1.secrets.clone().expect("the record holds the secret squares");
    let tablero::rules::AnyGame::Ctor(g) =
        &session(&app).history.first().map_or(session(&app).game.clone(), |h| h.0.clone())
    else {
        panic!("a CTOR game")
    };
    for side in [Side::First, Side::Second] {
        let squares: Vec<u16> = g.secrets(side).iter().map(|s| s.0).collect();
        assert_eq!(squares.len(), 5);
        assert_eq!(secrets[side.index()], squares);
    }
    // Played on until a secret square has worked: the file still replays to the table.
    for _ in 0..400 {
        app.update();
    }
    settle(&mut app);
    assert_saved_is_the_table(&app);
}

/// The record on disk is the game at the table, move for move.
fn assert_saved_is_the_table(app: &App) {
    let s = session(app);
    let path = s.record_path.clone().expect("a live game has a file");
    let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let positions = rec.replay().unwrap();
    assert_eq!(rec.moves.len(), s.history.len(), "{}", path.display());
    assert_eq!(positions.last().unwrap().to_string(), s.game.to_string());
}

/// A single stone's move of the person to move, played by two clicks.
fn person_move(app: &mut App) {
    let before = session(app).history.len();
    let game = session(app).game.clone();
    let mv = game
        .legal_moves()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| m.len() <= 7 && m.contains('-') && !m.contains(':') && !m.contains(','))
        .expect("a single stone's move");
    let (from, to) = mv.split_once('-').unwrap();
    click(app, c(from));
    click(app, c(to));
    if let Some((_, part)) = crate::table::picking(app).choices.first().cloned() {
        app.world_mut().write_message(Command::Choose(part));
        app.update();
    }
    assert_eq!(session(app).history.len(), before + 1, "{mv}: {}", crate::table::notice(app));
}

/// A move by the person, then the reply of the random player.
fn play_two_moves(app: &mut App) {
    let before = session(app).history.len();
    person_move(app);
    for _ in 0..200 {
        app.update();
        if session(app).history.len() == before + 2 {
            break;
        }
    }
    settle(app);
    assert_eq!(session(app).history.len(), before + 2, "the computer replied");
}

#[test]
fn every_way_a_game_begins_saves_it() {
    let dir = fresh_dir("menu-save");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    assert!(saved(&dir).is_empty());
    // The menu's Start, as a player starts a game: Ordo Classic, a person against the
    // computer at medium by default; here the random mover is chosen by its button (it
    // answers at once).
    assert_eq!(app.world().resource::<MenuChoice>().players, [PlayerKind::Person, PlayerKind::Ai(1)]);
    press_player(&mut app, Side::Second, PlayerKind::Random);
    press(&mut app, "Start");
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(saved(&dir).len(), 1, "saved as soon as it starts");
    play_two_moves(&mut app);
    let files = saved(&dir);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].1.moves.len(), 2, "both moves are on disk");
    assert_eq!(files[0].1.players[1].kind, "computer:random");
    assert_saved_is_the_table(&app);
    let first = files[0].0.clone();

    // A new game from the table: back to the menu, Start again, a second file.
    app.world_mut().write_message(Command::NewGame);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    press_player(&mut app, Side::Second, PlayerKind::Random);
    press(&mut app, "Start");
    play_two_moves(&mut app);
    assert_eq!(saved(&dir).len(), 2);
    assert_saved_is_the_table(&app);
    assert_eq!(
        Record::from_json(&std::fs::read_to_string(&first).unwrap()).unwrap().moves.len(),
        2,
        "the first game stays"
    );

    // Resume from the menu: the newest unfinished game goes on in its own file.
    app.world_mut().write_message(Command::NewGame);
    app.update();
    app.update();
    press(&mut app, "Resume your unfinished");
    assert_eq!(session(&app).history.len(), 2);
    let resumed = session(&app).record_path.clone().unwrap();
    play_two_moves(&mut app);
    assert_eq!(saved(&dir).len(), 2, "resuming makes no new file");
    assert_eq!(Record::from_json(&std::fs::read_to_string(&resumed).unwrap()).unwrap().moves.len(), 4);
    assert_saved_is_the_table(&app);

    // Paste a position: a new game with its own file.
    let crossings = tablero::rules::Variant::Crossings.initial().to_string();
    app.world_mut().write_message(Command::Open(crossings.clone()));
    app.update();
    app.update();
    assert_eq!(saved(&dir).len(), 3);
    assert_eq!(session(&app).record.start, crossings);
    person_move(&mut app);
    assert_saved_is_the_table(&app);

    // Paste a record: a replay, which saves nothing; play on from its third move: a new file.
    let rec = saved(&dir).into_iter().map(|(_, r)| r).find(|r| r.moves.len() == 4).unwrap();
    app.world_mut().write_message(Command::Open(rec.to_json()));
    app.update();
    assert_eq!(crate::table::mode(&app), tablero::gui::Mode::Replay);
    assert_eq!(saved(&dir).len(), 3, "a replay is not a new game");
    app.world_mut().write_message(Command::Jump(3));
    app.update();
    app.world_mut().write_message(Command::PlayOn);
    app.update();
    app.update();
    assert_eq!(crate::table::mode(&app), tablero::gui::Mode::Live);
    assert_eq!(saved(&dir).len(), 4, "play on saves the branch");
    assert_saved_is_the_table(&app);
    assert_eq!(session(&app).history.len(), 3);

    // A bad paste changes nothing and says why.
    app.world_mut().write_message(Command::Open("ordo\nnonsense".into()));
    app.update();
    assert!(crate::table::notice(&app).contains("bad position"), "{}", crate::table::notice(&app));
    assert!(!crate::table::notice(&app).contains('\n'));
    assert_eq!(saved(&dir).len(), 4);
    let _ = std::fs::remove_dir_all(dir);
}

/// A tmpfs mounted for the test, unmounted when dropped (needs root, as CI runs).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(size_kib: u32) -> Option<Tmpfs> {
        let dir = fresh_dir("tmpfs");
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size_kib}k"), "tablero-test"])
            .arg(&dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs(dir))
    }

    fn remount(&self, mode: &str) {
        let s = std::process::Command::new("mount").args(["-o", &format!("remount,{mode}")]).arg(&self.0).status();
        assert!(s.unwrap().success(), "remount {mode}");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fills the file system under `dir` until no byte more fits.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let filler = dir.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).is_ok() {}
    while f.write_all(&block[..1]).is_ok() {}
    let _ = f.sync_all();
    filler
}

#[test]
fn a_full_disk_or_a_read_only_folder_loses_nothing_and_saving_resumes() {
    let Some(fs) = Tmpfs::mount(512) else {
        assert!(std::env::var_os("CI").is_none(), "CI runs as root: mounting a tmpfs must work there");
        println!("skipped: mounting a small tmpfs needs root (run as root to test a full disk)");
        return;
    };
    let mut app = tablero::gui::headless_menu_app(fs.0.clone());
    {
        let mut choice = app.world_mut().resource_mut::<MenuChoice>();
        choice.players = [PlayerKind::Person, PlayerKind::Person];
    }
    press(&mut app, "Start");
    let move_by = |app: &mut App| {
        person_move(app);
        settle(app);
    };
    move_by(&mut app);
    assert_saved_is_the_table(&app);
    let path = session(&app).record_path.clone().unwrap();
    let good = std::fs::read_to_string(&path).unwrap();

    // The disk is full: the move is played, the panel says saving failed and why, the last
    // good record stays as it was, and no temporary file is left behind.
    let filler = fill(&fs.0);
    move_by(&mut app);
    assert_eq!(session(&app).history.len(), 2, "the game goes on");
    let status = session(&app).status(&crate::table::notice(&app));
    assert!(status.contains("saving failed") && status.contains("No space left"), "{status}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), good, "the last good record is intact");
    let leftovers: Vec<_> =
        std::fs::read_dir(path.parent().unwrap()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    // Room again: the next move saves everything, and the warning goes.
    std::fs::remove_file(&filler).unwrap();
    move_by(&mut app);
    assert!(session(&app).save_error.is_none(), "{}", session(&app).status(&crate::table::notice(&app)));
    assert_saved_is_the_table(&app);

    // A read-only folder (root too is refused on a read-only mount).
    let good = std::fs::read_to_string(&path).unwrap();
    fs.remount("ro");
    move_by(&mut app);
    let status = session(&app).status(&crate::table::notice(&app));
    assert!(status.contains("saving failed") && status.contains("Read-only"), "{status}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), good);
    // Undo is saved too once writing works again.
    fs.remount("rw");
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert!(session(&app).save_error.is_none());
    assert_saved_is_the_table(&app);
    drop(app);
}
