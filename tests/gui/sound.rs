//! The table's sounds: what each animation sounds like and when it is heard (a landing as the
//! piece lands, a slide or a flip as it starts, a tower landing as one, every flip of a
//! cascade, the box's lid and each tile out of it, the sand-glass's last seconds), and the
//! volume and mute settings; with the `audio` feature, what is played and how loud.

use crate::table::{session, settle};
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use tablero::gui::frame::animate::{Speed, Tween};
use tablero::gui::frame::session::{By, MoveChosen, PlayerKind};
use tablero::gui::look::sound::Sounded;
use tablero::rules::{AnyGame, Effect, Game, Variant};
use tablero::sound::Sound;

const PEOPLE: [PlayerKind; 2] = [PlayerKind::Person, PlayerKind::Person];

/// Steps `frames` updates, with the sounds heard in each (frame index, sound).
fn listen(app: &mut App, frames: usize, mut each: impl FnMut(&mut App, usize)) -> Vec<(usize, Sound)> {
    let mut cursor = app.world().resource::<Messages<Sounded>>().get_cursor_current();
    let mut heard = Vec::new();
    for f in 0..frames {
        app.update();
        let messages = app.world().resource::<Messages<Sounded>>();
        heard.extend(cursor.read(messages).map(|s| (f, s.0)));
        each(app, f);
    }
    heard
}

fn play(app: &mut App, mv: &str) {
    let game = session(app).game.clone();
    let mv = game.parse_move(mv).unwrap();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
}

/// A table of people at normal speed on `game`, its pieces at rest.
fn at_rest(game: AnyGame) -> App {
    let mut app = tablero::gui::headless_app(game, PEOPLE);
    app.insert_resource(Speed::Normal);
    settle(&mut app);
    app
}

fn count(heard: &[(usize, Sound)], sound: Sound) -> usize {
    heard.iter().filter(|(_, s)| *s == sound).count()
}

#[test]
fn a_tower_is_heard_once_as_it_lands_on_another() {
    // A Volterra position where a tower of several tiles moves onto another.
    let mut game = Variant::Volterra.initial();
    let mut rng = 0usize;
    let (mv, lifted) = loop {
        let found = game.legal_moves().into_iter().find_map(|m| {
            let mut g = game.clone();
            let fx = g.play(&m).ok()?;
            fx.iter().find_map(|e| match e {
                Effect::Stacked { tiles, .. } if tiles.len() >= 2 => Some((m.to_string(), tiles.len())),
                _ => None,
            })
        });
        if let Some(f) = found {
            break f;
        }
        let moves = game.legal_moves();
        rng = (rng * 7 + 3) % moves.len().max(1);
        game.play(&moves[rng]).unwrap();
    };
    let hops = {
        let mut g = game.clone();
        let m = g.parse_move(&mv).unwrap();
        g.play(&m).unwrap().iter().filter(|e| matches!(e, Effect::PawnMoved { .. })).count()
    };
    let mut app = at_rest(game);
    play(&mut app, &mv);
    let mut rest_at = None;
    let heard = listen(&mut app, 80, |app, f| {
        let world = app.world_mut();
        let moving =
            world.query_filtered::<(), (With<Tween>, With<tablero::gui::sets::pine::Tile>)>().iter(world).count();
        if moving == 0 && rest_at.is_none() && f > 0 {
            rest_at = Some(f);
        }
    });
    // The tower once (not a sound a tile), then the pawn if it hops on after it.
    assert_eq!(heard.len(), 1 + hops, "one sound for a tower of {lifted} landing ({mv}): {heard:?}");
    assert!(heard.iter().all(|h| h.1 == Sound::TileStacked), "{heard:?}");
    assert_eq!(Some(heard[0].0), rest_at, "heard as the tower comes to rest");
}

#[test]
fn every_flip_of_a_cascade_is_heard_and_the_put_lands() {
    let (game, put) = tablero::gui::offscreen::cascade_position(12);
    let flips = {
        let mut g = game.clone();
        let mv = g.parse_move(&put).unwrap();
        g.play(&mv).unwrap().iter().filter(|e| matches!(e, Effect::Flipped { .. })).count()
    };
    let mut app = at_rest(game);
    play(&mut app, &put);
    let heard = listen(&mut app, 400, |_, _| {});
    assert_eq!(count(&heard, Sound::DiscSet), 1, "the Put lands: {heard:?}");
    assert_eq!(count(&heard, Sound::DiscFlipped), flips, "each of the {flips} flips: {heard:?}");
    // The flips one after another (not all at once).
    let frames: Vec<usize> = heard.iter().filter(|(_, s)| *s == Sound::DiscFlipped).map(|(f, _)| *f).collect();
    assert!(frames.windows(2).all(|w| w[0] <= w[1]));
    assert!(frames.last().unwrap() - frames[0] >= flips / 2, "the flips are spread out: {frames:?}");
}

#[test]
fn stones_slide_and_captured_ones_are_set_down_in_the_tray() {
    // Ordo: a capture. Play until one is legal, then take it.
    let mut game = Variant::Ordo.initial();
    let mut k = 0usize;
    let capture = loop {
        let found = game.legal_moves().into_iter().find(|m| {
            let mut g = game.clone();
            g.play(m).is_ok_and(|fx| fx.iter().any(|e| matches!(e, Effect::Captured { .. })))
        });
        if let Some(m) = found {
            break m.to_string();
        }
        let moves = game.legal_moves();
        k = (k * 5 + 1) % moves.len();
        game.play(&moves[k]).unwrap();
    };
    let mut app = at_rest(game);
    play(&mut app, &capture);
    let heard = listen(&mut app, 80, |_, _| {});
    assert_eq!(heard.first().map(|h| h.1), Some(Sound::StoneSlid), "{capture}: {heard:?}");
    assert_eq!(count(&heard, Sound::StoneSet), 1, "{capture}: the captured stone lands in the tray: {heard:?}");
    let slid = heard.iter().find(|h| h.1 == Sound::StoneSlid).unwrap().0;
    let set = heard.iter().find(|h| h.1 == Sound::StoneSet).unwrap().0;
    assert!(set > slid, "the capture lands after the slide began");
}

#[test]
fn the_box_is_heard_opening_and_each_tile_laid_out_of_it() {
    use crate::saving::{buttons, fresh_dir, press_player};
    use tablero::rules::Side;
    let mut app = tablero::gui::headless_menu_app(fresh_dir("sound-box"));
    app.insert_resource(Speed::Normal);
    let card = buttons(&mut app).into_iter().find(|(_, t)| t == "Volterra").map(|(e, _)| e).unwrap();
    crate::table::click_entity(&mut app, card);
    for side in [Side::First, Side::Second] {
        press_player(&mut app, side, PlayerKind::Person);
    }
    let start = buttons(&mut app).into_iter().find(|(_, t)| t == "Start").map(|(e, _)| e).unwrap();
    let mut cursor = app.world().resource::<Messages<Sounded>>().get_cursor_current();
    crate::table::click_entity(&mut app, start);
    let mut heard: Vec<(usize, Sound)> =
        cursor.read(app.world().resource::<Messages<Sounded>>()).map(|s| (0, s.0)).collect();
    heard.extend(listen(&mut app, 500, |_, _| {}).into_iter().map(|(f, s)| (f + 1, s)));
    assert_eq!(heard.first().map(|h| h.1), Some(Sound::LidSlid), "{heard:?}");
    assert_eq!(count(&heard, Sound::LidSlid), 1);
    let levels: Vec<u8> = {
        let world = app.world_mut();
        world.query::<&tablero::gui::sets::pine::Tile>().iter(world).map(|t| t.level).collect()
    };
    assert_eq!(levels.len(), 20);
    let on_board = levels.iter().filter(|l| **l == 0).count();
    assert_eq!(count(&heard, Sound::TileLaid), on_board, "each tile on its square: {heard:?}");
    // The tiles laid on others, and both pawns set on their towers.
    assert_eq!(count(&heard, Sound::TileStacked), 20 - on_board + 2, "{heard:?}");
    // One a frame at most: the tiles come one after another.
    let laid: Vec<usize> = heard.iter().filter(|h| h.1 == Sound::TileLaid).map(|h| h.0).collect();
    assert!(laid.windows(2).all(|w| w[1] > w[0]), "{laid:?}");
}

#[test]
fn the_sand_glass_ticks_through_its_last_five_seconds() {
    let game = AnyGame::Ctor(tablero::rules::ctor::Ctor::new(
        8,
        tablero::rules::ctor::Teams::default(),
        tablero::rules::ctor::Options { timer: Some(8), ..Default::default() },
    ));
    let mut app = tablero::gui::headless_app(game, PEOPLE);
    // 8 s at 50 ms a frame, and a little more.
    let heard = listen(&mut app, 170, |_, _| {});
    let ticks: Vec<usize> = heard.iter().filter(|h| h.1 == Sound::SandTick).map(|h| h.0).collect();
    assert_eq!(ticks.len(), 5, "{heard:?}");
    // A second apart (20 frames), the first with five seconds left (3 s in, frame 60).
    assert!((58..=62).contains(&ticks[0]), "{ticks:?}");
    assert!(ticks.windows(2).all(|w| (19..=21).contains(&(w[1] - w[0]))), "{ticks:?}");
    let moves: Vec<String> = session(&app).history.iter().map(|(_, m)| m.to_string()).collect();
    assert_eq!(moves.first().map(String::as_str), Some("T"), "the turn ran out after the ticks");
}

#[test]
fn volume_and_mute_are_settings_shown_in_the_panel() {
    use tablero::gui::look::sound::loudness;
    use tablero::gui::screens::prefs::Setting;
    use tablero::settings::Settings;
    let mut s = Settings::default();
    assert_eq!(s.volume, 70);
    assert!((loudness(&s) - 0.7).abs() < 1e-6);
    for _ in 0..5 {
        s.step_volume(true);
    }
    assert_eq!(s.volume, 100, "it stops at 100");
    for _ in 0..12 {
        s.step_volume(false);
    }
    assert_eq!(s.volume, 0, "and at 0");
    s.volume = 35;
    s.step_volume(true);
    assert_eq!(s.volume, 40, "a step goes to the next tenth");
    s.muted = true;
    assert_eq!(loudness(&s), 0.0, "muted is silent whatever the volume");
    // In the window's panel: the volume's row and the mute button, saved with the rest;
    // Ctrl+M mutes.
    let dir = crate::saving::fresh_dir("sound-settings");
    let mut app = tablero::gui::headless_menu_app(dir);
    app.init_resource::<ButtonInput<KeyCode>>();
    app.update();
    let captions: Vec<String> = crate::saving::buttons(&mut app).into_iter().map(|(_, t)| t).collect();
    assert!(captions.iter().any(|c| c.starts_with("Sound: 70%")), "{captions:?}");
    assert!(captions.iter().any(|c| c == "Mute (Ctrl+M): off"), "{captions:?}");
    if !tablero::gui::look::sound::BUILT_WITH_SOUND {
        assert!(captions.iter().any(|c| c.contains("this build is silent")), "{captions:?}");
    }
    let mute = {
        let world = app.world_mut();
        world.query::<(Entity, &Setting)>().iter(world).find(|(_, s)| **s == Setting::Mute).map(|(e, _)| e).unwrap()
    };
    crate::table::click_entity(&mut app, mute);
    assert!(app.world().resource::<Settings>().muted);
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyM);
    }
    app.update();
    assert!(!app.world().resource::<Settings>().muted, "Ctrl+M unmutes");
}

/// With the `audio` feature: each sound heard is played once (a tower's tiles landing
/// together as one), another variant than the time before, at the settings' loudness; muted,
/// nothing plays.
#[cfg(feature = "audio")]
#[test]
fn the_sounds_heard_are_played_at_the_settings_volume() {
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use tablero::settings::Settings;
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), PEOPLE);
    app.init_asset::<AudioSource>().init_resource::<Settings>();
    tablero::gui::look::sound::playback(&mut app);
    app.update();
    let players = |app: &mut App| {
        let world = app.world_mut();
        world
            .query::<(&AudioPlayer, &PlaybackSettings)>()
            .iter(world)
            .map(|(p, s)| (p.0.clone(), s.volume.to_linear()))
            .collect::<Vec<_>>()
    };
    app.world_mut().resource_mut::<Settings>().volume = 40;
    for s in [Sound::StoneSet, Sound::StoneSet, Sound::DiscFlipped] {
        app.world_mut().write_message(Sounded(s));
    }
    app.update();
    let first = players(&mut app);
    assert_eq!(first.len(), 2, "two kinds heard in one frame: two sounds");
    assert!(first.iter().all(|(_, v)| (v - 0.4).abs() < 1e-4), "{:?}", first.iter().map(|p| p.1).collect::<Vec<_>>());
    let bank = app.world().resource::<tablero::gui::look::sound::Bank>();
    let stone: Vec<_> = bank.0[&Sound::StoneSet].clone();
    let played = first.iter().find(|(h, _)| stone.contains(h)).unwrap().0.clone();
    app.world_mut().write_message(Sounded(Sound::StoneSet));
    app.update();
    let again: Vec<_> =
        players(&mut app).into_iter().map(|p| p.0).filter(|h| stone.contains(h) && *h != played).collect();
    assert_eq!(again.len(), 1, "the next stone is another variant");
    let before = players(&mut app).len();
    app.world_mut().resource_mut::<Settings>().muted = true;
    app.world_mut().write_message(Sounded(Sound::TileLaid));
    app.update();
    assert_eq!(players(&mut app).len(), before, "muted: nothing more plays");
}
