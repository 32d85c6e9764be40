//! The broadcast window, headless: its scene has overlays and no controls, every overlay says
//! what the rules say through whole games of every variant; and the computer's pace and pause.

use crate::table::{moving, session};
use bevy::prelude::*;
use tablero::gui::frame::computer::ComputerPace;
use tablero::gui::frame::session::PlayerKind;
use tablero::gui::stream::broadcast::{BroadcastCamera, OpenBroadcast, Overlay, overlay_text};
use tablero::rules::{Game, Side, Variant};

const RANDOM: [PlayerKind; 2] = [PlayerKind::Random, PlayerKind::Random];

fn with_broadcast(variant: Variant, players: [PlayerKind; 2]) -> App {
    let mut app = tablero::gui::headless_app(variant.initial(), players);
    app.add_plugins(tablero::gui::stream::broadcast::plugin);
    app.world_mut().write_message(OpenBroadcast);
    app.update();
    app.update();
    app
}

#[test]
fn the_broadcast_has_its_own_window_camera_and_overlays_and_no_controls() {
    let mut app = with_broadcast(Variant::Ordo, RANDOM);
    let world = app.world_mut();
    let cams: Vec<(Entity, BroadcastCamera)> =
        world.query::<(Entity, &BroadcastCamera)>().iter(world).map(|(e, b)| (e, *b)).collect();
    assert_eq!(cams.len(), 1, "one broadcast camera");
    let (cam, b) = cams[0];
    assert!(world.get::<Window>(b.window.unwrap()).is_some(), "it draws into its own window");
    // Everything under the overlays' root targets the broadcast camera and is no control.
    let roots: Vec<Entity> = world
        .query::<(Entity, &UiTargetCamera)>()
        .iter(world)
        .filter(|(_, t)| t.entity() == cam)
        .map(|(e, _)| e)
        .collect();
    assert_eq!(roots.len(), 1);
    let mut stack = roots.clone();
    let mut overlays = 0;
    while let Some(e) = stack.pop() {
        assert!(world.get::<Button>(e).is_none(), "no button on the broadcast");
        overlays += world.get::<Overlay>(e).is_some() as usize;
        if let Some(children) = world.get::<Children>(e) {
            stack.extend(children.iter());
        }
    }
    assert!(overlays >= 6, "names, turn, score, last move, moves, result: {overlays}");
    // A second request opens no second window.
    app.world_mut().write_message(OpenBroadcast);
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&BroadcastCamera>().iter(world).count(), 1);
}

/// On a screen smaller than the chosen size (1920 x 1080 on 1600 x 1000) the window opens at
/// the largest size of the same shape that fits with room for its frame, and the panel says
/// so; where it fits, at the size chosen.
#[test]
fn the_broadcast_window_fits_the_screen_in_the_shape_chosen() {
    use tablero::gui::stream::broadcast::fitted;
    let full_hd = UVec2::new(1920, 1080);
    assert_eq!(fitted(full_hd, None), full_hd, "no screen known: as chosen");
    assert_eq!(fitted(full_hd, Some(UVec2::new(2560, 1440))), full_hd, "it fits");
    let small = fitted(full_hd, Some(UVec2::new(1600, 1000)));
    assert_eq!(small, UVec2::new(1568, 882));
    assert_eq!(small.x * 9, small.y * 16, "the same shape");
    let portrait = fitted(UVec2::new(1080, 1920), Some(UVec2::new(1600, 1000)));
    assert!(portrait.y <= 920 && portrait.x * 16 == portrait.y * 9, "{portrait}");
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), RANDOM);
    app.add_plugins(tablero::gui::stream::broadcast::plugin);
    app.world_mut().spawn((
        bevy::window::Monitor {
            name: Some("small".into()),
            physical_height: 2000,
            physical_width: 3200,
            physical_position: IVec2::ZERO,
            refresh_rate_millihertz: None,
            scale_factor: 2.0,
            video_modes: Vec::new(),
        },
        bevy::window::PrimaryMonitor,
    ));
    app.world_mut().write_message(OpenBroadcast);
    app.update();
    app.update();
    let world = app.world_mut();
    let window = world.query::<&BroadcastCamera>().iter(world).next().unwrap().window.unwrap();
    let res = &world.get::<Window>(window).unwrap().resolution;
    assert_eq!((res.width(), res.height()), (1568.0, 882.0), "the largest 16:9 that fits a 1600x1000 screen");
    let said = app.world().resource::<tablero::gui::frame::session::Notice>().0.clone();
    assert!(said.contains("opens at 1568x882: 1920x1080 does not fit this 1600x1000 screen"), "{said}");
}

#[test]
fn every_overlay_says_what_the_rules_say_through_whole_games() {
    for variant in Variant::ALL {
        let mut app = with_broadcast(variant, RANDOM);
        app.insert_resource(tablero::gui::frame::animate::Speed::Instant);
        for frame in 0..4000 {
            app.update();
            let s = session(&app);
            let game = &s.game;
            let v = game.variant();
            let turn = overlay_text(Overlay::Turn, s, 0.0);
            let last = overlay_text(Overlay::LastMove, s, 0.0);
            let result = overlay_text(Overlay::Result, s, 0.0);
            match game.outcome() {
                None => {
                    assert_eq!(turn, format!("{} to move", v.side_name(game.side_to_move())), "{variant}");
                    assert!(result.is_empty(), "{variant}: no result before the end");
                }
                Some(o) => {
                    assert!(turn.is_empty());
                    assert!(result.contains(&o.reason.to_string()), "{variant}: {result}");
                }
            }
            assert_eq!(last, s.history.last().map(|(_, m)| m.to_string()).unwrap_or_default(), "{variant}");
            for side in [Side::First, Side::Second] {
                let name = overlay_text(Overlay::Name(side), s, 0.0);
                assert!(name.starts_with(v.side_name(side)) && name.contains(&s.players[side.index()].label()));
            }
            if game.outcome().is_some() || frame == 3999 {
                break;
            }
        }
        let s = session(&app);
        assert!(s.history.len() > 4, "{variant}: the game went on ({} moves)", s.history.len());
        // The overlays on the broadcast show those texts.
        let world = app.world_mut();
        let shown: Vec<(Overlay, String)> =
            world.query::<(&Overlay, &Text)>().iter(world).map(|(o, t)| (*o, t.0.clone())).collect();
        let s = app.world().resource::<tablero::gui::frame::session::Session>();
        for (kind, text) in shown {
            if kind != Overlay::Score {
                assert_eq!(text, overlay_text(kind, s, 0.0), "{variant}: {kind:?}");
            }
        }
    }
}

#[test]
fn the_computer_keeps_its_pace_and_pauses() {
    let mut app = tablero::gui::headless_app(Variant::Crossings.initial(), RANDOM);
    app.insert_resource(tablero::gui::frame::animate::Speed::Instant);
    app.insert_resource(ComputerPace { seconds: 2.0, paused: false });
    // 10 s at 50 ms a frame: one move every 2 s at most.
    for _ in 0..200 {
        app.update();
    }
    let played = session(&app).history.len();
    assert!((3..=5).contains(&played), "{played} moves in 10 s at 2 s a move");
    app.world_mut().write_message(tablero::gui::frame::session::Command::PauseComputer);
    app.update();
    assert!(app.world().resource::<ComputerPace>().paused);
    let before = session(&app).history.len();
    for _ in 0..200 {
        app.update();
    }
    assert!(!moving(&mut app));
    assert_eq!(session(&app).history.len(), before, "no move while paused");
    app.world_mut().write_message(tablero::gui::frame::session::Command::PauseComputer);
    for _ in 0..60 {
        app.update();
    }
    assert!(session(&app).history.len() > before, "the match goes on");
}

/// CTOR's secret squares on the broadcast, which both teams and the audience see: a square
/// shows there only once revealed; the choosing team's squares and a team's own look at its
/// squares stay at the table.
#[test]
fn the_broadcast_never_shows_an_unrevealed_secret_square() {
    use bevy::camera::visibility::RenderLayers;
    use tablero::gui::frame::session::Command;
    use tablero::gui::frame::session::{SecretCommand, TableIntent};
    use tablero::gui::sets::torus::marks::SecretMark;
    let mut app = with_broadcast(Variant::Ctor8, crate::table::PEOPLE);
    app.world_mut().write_message(TableIntent(tablero::table::Intent::BeginSecrets));
    app.update();
    let broadcast_sees = |app: &mut App| -> Vec<tablero::rules::Cell> {
        let world = app.world_mut();
        let cam_layers = broadcast_camera_layers(world);
        let mut seen: Vec<_> = world
            .query::<(&SecretMark, Option<&RenderLayers>)>()
            .iter(world)
            .filter(|(_, l)| l.cloned().unwrap_or_default().intersects(&cam_layers))
            .map(|(m, _)| m.0)
            .collect();
        seen.sort();
        seen
    };
    let marks = |app: &mut App| {
        let world = app.world_mut();
        world.query::<&SecretMark>().iter(world).count()
    };
    let secret = |app: &mut App, c: SecretCommand| {
        app.world_mut().write_message(c);
        app.update();
        app.update();
    };
    let c = |s: &str| -> tablero::rules::Cell { s.parse().unwrap() };
    secret(&mut app, SecretCommand::Proceed);
    for cell in ["a1", "b1", "c1", "d1", "e1"] {
        crate::table::click(&mut app, c(cell));
    }
    assert_eq!(marks(&mut app), 5, "the choosing team sees its squares at the table");
    assert!(broadcast_sees(&mut app).is_empty(), "the broadcast does not");
    secret(&mut app, SecretCommand::Done);
    secret(&mut app, SecretCommand::Proceed);
    for cell in ["a8", "b8", "c8", "d8", "e8"] {
        crate::table::click(&mut app, c(cell));
    }
    assert!(broadcast_sees(&mut app).is_empty());
    secret(&mut app, SecretCommand::Done);
    secret(&mut app, SecretCommand::Proceed);
    secret(&mut app, SecretCommand::ShowMine);
    assert_eq!(marks(&mut app), 5, "black looks at its own squares at the table");
    assert!(broadcast_sees(&mut app).is_empty(), "never on the broadcast");
    // Black puts on white's secret a8 and ends the turn: revealed, so shown to all.
    crate::table::click(&mut app, c("a8"));
    crate::table::settle(&mut app);
    app.world_mut().write_message(Command::EndTurn);
    app.update();
    crate::table::settle(&mut app);
    assert_eq!(broadcast_sees(&mut app), vec![c("a8")]);
}

/// Where a point lands in the broadcast's 16:9 picture, in normalised device coordinates.
fn in_picture(tf: &Transform, p: Vec3) -> Vec3 {
    let view = tf.to_matrix().inverse();
    // Bevy's perspective projection: a quarter turn of vertical view, 16:9.
    let proj = Mat4::perspective_rh(std::f32::consts::FRAC_PI_4, 16.0 / 9.0, 0.1, 1000.0);
    proj.project_point3(view.transform_point3(p))
}

/// Plays random games with the broadcast open, recording the director's camera each frame,
/// and checks that every cell the last move involves stays inside the picture while it moves.
fn directed_game(variant: Variant, frames: usize) -> Vec<Transform> {
    use tablero::gui::stream::broadcast::effect_points;
    let mut app = with_broadcast(variant, RANDOM);
    let mut path = Vec::new();
    for _ in 0..frames {
        app.update();
        let layout = *app.world().resource::<tablero::gui::frame::board::Layout>();
        let world = app.world_mut();
        let tf = *world.query_filtered::<&Transform, With<BroadcastCamera>>().single(world).unwrap();
        path.push(tf);
        let moving = crate::table::moving(&mut app);
        let s = session(&app);
        if let (true, Some((before, mv))) = (moving, s.history.last()) {
            let parts = before.clone().play_parts_unchecked(mv);
            for p in parts.iter().flatten().flat_map(|e| effect_points(&layout, e)) {
                let ndc = in_picture(&tf, p);
                assert!(
                    ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && (0.0..=1.0).contains(&ndc.z),
                    "{variant}: {mv} leaves the picture at {p} ({ndc})"
                );
            }
        }
        // Never under the table top, never inside the board.
        assert!(tf.translation.y > 2.0, "{variant}: the camera at {}", tf.translation);
    }
    path
}

#[test]
fn the_director_keeps_every_cell_of_a_move_in_the_picture_and_repeats_itself() {
    for variant in Variant::ALL {
        let first = directed_game(variant, 300);
        if variant == Variant::Ordo {
            assert_eq!(first, directed_game(variant, 300), "the same game gives the same camera path");
        }
        let moved = first.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(moved > 100, "{variant}: the camera moves ({moved} frames)");
    }
}

/// Selection, targets, hover and the last move are marked in the player's view only: the
/// broadcast camera sees none of the marks, the player's camera sees them.
#[test]
fn the_broadcast_shows_no_highlights() {
    use bevy::camera::visibility::RenderLayers;
    use tablero::gui::frame::board::{Mark, player_layers};
    let mut app = with_broadcast(Variant::Ordo, crate::table::PEOPLE);
    crate::table::click(&mut app, "e3".parse().unwrap());
    app.update();
    let world = app.world_mut();
    let shown: Vec<RenderLayers> = world
        .query_filtered::<(&Visibility, &RenderLayers), With<Mark>>()
        .iter(world)
        .filter(|(v, _)| **v != Visibility::Hidden)
        .map(|(_, l)| l.clone())
        .collect();
    assert!(shown.len() >= 3, "the selection and its targets are marked: {}", shown.len());
    let broadcast = broadcast_camera_layers(world);
    assert!(shown.iter().all(|l| !l.intersects(&broadcast)), "no mark on the broadcast");
    assert!(shown.iter().all(|l| l.intersects(&player_layers())), "all in the player's view");
}

/// The chroma key: the broadcast's background turns keying green and the table top leaves
/// its picture (the board and pieces stay); the player's view keeps the table.
#[test]
fn the_chroma_key_leaves_the_board_on_green() {
    use bevy::camera::visibility::RenderLayers;
    use tablero::gui::frame::board::{Table, player_layers};
    use tablero::gui::stream::broadcast::{CHROMA, Overlays};
    let mut app = with_broadcast(Variant::Ordo, RANDOM);
    app.world_mut().resource_mut::<Overlays>().chroma = true;
    app.update();
    let world = app.world_mut();
    let (cam, layers) =
        world.query_filtered::<(&Camera, &RenderLayers), With<BroadcastCamera>>().single(world).unwrap();
    assert!(matches!(cam.clear_color, ClearColorConfig::Custom(c) if c == CHROMA));
    let layers = layers.clone();
    let table = world.query_filtered::<&RenderLayers, With<Table>>().single(world).unwrap().clone();
    assert!(!table.intersects(&layers), "no table top on the broadcast");
    assert!(table.intersects(&player_layers()), "the player's view keeps it");
    assert!(layers.intersects(&RenderLayers::layer(0)), "the board and pieces stay");
    app.world_mut().resource_mut::<Overlays>().chroma = false;
    app.update();
    let world = app.world_mut();
    let layers = world.query_filtered::<&RenderLayers, With<BroadcastCamera>>().single(world).unwrap().clone();
    assert!(table.intersects(&layers), "the table is back");
}

/// The layers the broadcast's camera draws.
fn broadcast_camera_layers(world: &mut World) -> bevy::camera::visibility::RenderLayers {
    world
        .query_filtered::<Option<&bevy::camera::visibility::RenderLayers>, With<BroadcastCamera>>()
        .single(world)
        .unwrap()
        .cloned()
        .unwrap_or_default()
}

/// With CTOR's doughnut shown, the director frames the whole doughnut (which turns each
/// move's square to the front itself) while the moves animate.
#[test]
fn the_director_frames_the_doughnut_while_its_moves_animate() {
    use tablero::gui::sets::torus::doughnut::{DoughnutView, centre, radii};
    let mut app = with_broadcast(Variant::Ctor8, RANDOM);
    app.insert_resource(DoughnutView(true));
    let (r, a) = radii(8);
    let c = centre(8);
    let bounds = [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z, Vec3::Y, -Vec3::Y].map(|v| c + v * (r + a) * 0.9);
    let mut checked = 0;
    // The camera eases up to the doughnut when it appears (three seconds).
    for _ in 0..60 {
        app.update();
    }
    for _ in 0..300 {
        app.update();
        if !crate::table::moving(&mut app) {
            continue;
        }
        let world = app.world_mut();
        let tf = *world.query_filtered::<&Transform, With<BroadcastCamera>>().single(world).unwrap();
        for p in bounds {
            let ndc = in_picture(&tf, p);
            assert!(ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0, "the doughnut leaves the picture at {p} ({ndc})");
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked} frames checked while moving");
    assert!(session(&app).history.len() > 3);
}

/// At rest the director orbits for a while after the last move, then holds still, so that the
/// broadcast window draws nothing; the next move sets it going at once.
#[test]
fn the_director_rests_after_a_while_without_a_move_and_wakes_with_the_next() {
    use tablero::gui::frame::session::{By, MoveChosen};
    use tablero::gui::pacing::Activity;
    use tablero::gui::stream::broadcast::{Directing, ORBIT_FOR};
    let mut app = with_broadcast(Variant::Ordo, [PlayerKind::Person; 2]);
    let cam = |app: &mut App| {
        let world = app.world_mut();
        *world.query_filtered::<&Transform, With<BroadcastCamera>>().single(world).unwrap()
    };
    // The headless table's clock advances 50 ms a frame.
    let mut orbited = 0;
    for _ in 0..(ORBIT_FOR / 0.05) as usize + 40 {
        let before = cam(&mut app);
        app.update();
        orbited += (cam(&mut app) != before) as usize;
    }
    assert!(orbited > 100, "the slow orbit ran for a while ({orbited} frames)");
    assert!(!app.world().resource::<Directing>().0, "the director rests");
    let still = cam(&mut app);
    for _ in 0..20 {
        app.update();
    }
    // (Only the last of its easing, too small to see, which a resting window does not draw.)
    assert!(cam(&mut app).translation.distance(still.translation) < 0.01, "the camera holds still");
    assert_eq!(*app.world().resource::<Activity>(), Activity::Resting, "nothing asks for a frame");
    // A move: the director goes at once.
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    app.update();
    app.update();
    assert!(app.world().resource::<Directing>().0, "the director frames the move");
    for _ in 0..10 {
        app.update();
    }
    assert!(cam(&mut app).translation.distance(still.translation) > 0.01, "the camera moves to the move");
}
