//! The pine Volterra set's box: a new game's tiles come out of it onto their squares in the
//! setup order, a click or a key lays the rest at once, reduced motion shows the set laid out,
//! and the free setup takes each tile laid from the box.

use crate::saving::{buttons, fresh_dir, press_player};
use crate::table::{click_entity, moving, session, settle};
use bevy::prelude::*;
use tablero::gui::frame::animate::{Resyncs, Speed, Tween};
use tablero::gui::frame::board::{CellClicked, Layout};
use tablero::gui::frame::session::PlayerKind;
use tablero::gui::sets::pine::pine_box::{Boxed, PineBox, box_centre, slot};
use tablero::gui::sets::pine::{Pad, Pawn, Tile, pawn_pos, tile_pos};
use tablero::rules::{AnyGame, Side};

/// The menu: the game's card (its exact title), people on both sides, Start.
fn start(title: &str, speed: Speed, name: &str) -> App {
    let mut app = tablero::gui::headless_menu_app(fresh_dir(name));
    app.insert_resource(speed);
    let card = buttons(&mut app).into_iter().find(|(_, t)| t == title).map(|(e, _)| e).expect("the game's card");
    click_entity(&mut app, card);
    for side in [Side::First, Side::Second] {
        press_player(&mut app, side, PlayerKind::Person);
    }
    let start = buttons(&mut app).into_iter().find(|(_, t)| t == "Start").map(|(e, _)| e).unwrap();
    click_entity(&mut app, start);
    app.update();
    app.update();
    app
}

fn tiles(app: &mut App) -> Vec<(Entity, Tile, Transform)> {
    let world = app.world_mut();
    world.query::<(Entity, &Tile, &Transform)>().iter(world).map(|(e, t, tf)| (e, *t, *tf)).collect()
}

/// Every tile and pawn stands where the rules have it.
fn assert_laid_out(app: &mut App) {
    let layout = *app.world().resource::<Layout>();
    for (_, t, tf) in tiles(app) {
        let c = t.cell.expect("every tile is on the board");
        assert!(tf.translation.distance(tile_pos(&layout, c, t.level)) < 1e-3, "the tile of {c}");
    }
    let AnyGame::Volterra(v) = session(app).game.clone() else { panic!("Volterra") };
    let world = app.world_mut();
    for (p, tf) in world.query::<(&Pawn, &Transform)>().iter(world) {
        let h = v.tower(p.cell).map(|t| t.height).unwrap_or(0);
        assert!(tf.translation.distance(pawn_pos(&layout, p.cell, h)) < 1e-3, "the pawn on {}", p.cell);
    }
    assert_eq!(app.world().resource::<Resyncs>().0, 0, "the scene is as the rules say");
}

#[test]
fn a_new_volterra_game_comes_out_of_its_box_onto_its_squares_in_the_setup_order() {
    let mut app = start("Volterra", Speed::Normal, "box-order");
    let layout = *app.world().resource::<Layout>();
    // At first every tile is in the box beside the board, and the lid is coming off.
    let box_x = box_centre(&layout).x;
    let all = tiles(&mut app);
    assert_eq!(all.len(), 20);
    assert!(all.iter().all(|(_, _, tf)| (tf.translation.x - box_x).abs() < 0.7), "every tile starts in the box");
    assert!(moving(&mut app));
    let lid_moves = {
        let world = app.world_mut();
        world.query_filtered::<(&PineBox, Has<Tween>), ()>().iter(world).any(|(b, t)| *b == PineBox::Lid && t)
    };
    assert!(lid_moves, "the lid comes off");
    // Each tile arrives on its square; they come in the setup order, rank by rank from a1.
    let mut arrived: Vec<(usize, (u8, u8))> = Vec::new();
    for frame in 0..400 {
        app.update();
        for (e, t, tf) in tiles(&mut app) {
            let c = t.cell.unwrap();
            if !arrived.iter().any(|(_, at)| *at == (c.rank, c.file))
                && tf.translation.distance(tile_pos(&layout, c, t.level)) < 1e-3
                && app.world().get::<Tween>(e).is_none()
            {
                arrived.push((frame, (c.rank, c.file)));
            }
        }
        if !moving(&mut app) {
            break;
        }
    }
    assert_eq!(arrived.len(), 20, "every tile arrived");
    let order: Vec<(u8, u8)> = arrived.iter().map(|(_, c)| *c).collect();
    let mut sorted = order.clone();
    sorted.sort();
    // Frame by frame, a tile laid later never stands before one laid earlier in the order.
    for w in arrived.windows(2) {
        assert!(w[0].0 < w[1].0 || w[0].1 < w[1].1, "{order:?}");
    }
    assert_eq!(order, sorted, "the setup order");
    settle(&mut app);
    assert_laid_out(&mut app);
    assert!(session(&app).history.is_empty());
}

#[test]
fn a_click_lays_the_rest_at_once_and_plays_no_move() {
    let mut app = start("Volterra", Speed::Normal, "box-skip");
    for _ in 0..8 {
        app.update();
    }
    assert!(moving(&mut app));
    app.world_mut().write_message(CellClicked(tablero::rules::Cell::new(1, 2)));
    app.update();
    app.update();
    assert!(!moving(&mut app), "the rest is laid at once");
    assert_laid_out(&mut app);
    assert!(session(&app).history.is_empty(), "the click was not a move");
}

#[test]
fn under_reduced_motion_the_set_is_simply_there() {
    let mut app = start("Volterra", Speed::Instant, "box-instant");
    assert!(!moving(&mut app));
    assert_laid_out(&mut app);
}

#[test]
fn the_free_setup_takes_each_tile_laid_from_the_box() {
    let mut app = start("Volterra, free setup", Speed::Normal, "box-free");
    settle(&mut app);
    let layout = *app.world().resource::<Layout>();
    let boxed = |app: &mut App| {
        let world = app.world_mut();
        world.query::<&Boxed>().iter(world).count()
    };
    assert_eq!(boxed(&mut app), 20, "all twenty wait in the box");
    for k in 0..3 {
        let pad = {
            let world = app.world_mut();
            let AnyGame::Volterra(v) = world.resource::<tablero::gui::frame::session::Session>().game.clone() else {
                unreachable!()
            };
            world
                .query::<(Entity, &Pad)>()
                .iter(world)
                .find(|(_, p)| v.tower(p.0).is_none_or(|t| t.height == 0))
                .map(|(e, _)| e)
                .expect("an empty cell")
        };
        click_entity(&mut app, pad);
        app.update();
        // The new tile starts from the top of the box's stacks.
        let world = app.world_mut();
        let from: Vec<Vec3> = world.query::<(&Tile, &Tween)>().iter(world).map(|(_, t)| t.from).collect();
        assert_eq!(from.len(), 1, "one tile laid");
        assert!(from[0].distance(slot(&layout, 20 - k - 1)) < 1e-3, "out of the box: {}", from[0]);
        settle(&mut app);
        assert_eq!(boxed(&mut app), 20 - k - 1);
    }
    assert_eq!(app.world().resource::<Resyncs>().0, 0);
}

/// The pine's wood is made by the project, seeded: each variant repeats for its seed, the
/// variants differ, the grain's normal map is not flat, the cut ends' end grain differs from
/// the faces', and the light pine is lighter than the dark throughout.
#[test]
fn the_pine_wood_is_seeded_varied_and_has_grain_end_grain_and_relief() {
    use tablero::gui::sets::pine::pine_wood::{Pine, tile_textures};
    let light = Pine { base: [0.93, 0.80, 0.56], rings: 38.0, contrast: 0.16 };
    let dark = Pine { base: [0.40, 0.23, 0.11], rings: 64.0, contrast: 0.3 };
    let bytes = |i: &Image| i.data.clone().unwrap();
    let (a, an) = tile_textures(light, 1);
    let (a2, _) = tile_textures(light, 1);
    let (b, _) = tile_textures(light, 2);
    assert_eq!(bytes(&a), bytes(&a2), "a seed gives the same wood");
    assert_ne!(bytes(&a), bytes(&b), "another seed another");
    let w = a.width() as usize;
    let grey = |data: &[u8], x: usize, y: usize| {
        let k = (y * w + x) * 4;
        0.299 * data[k] as f32 + 0.587 * data[k + 1] as f32 + 0.114 * data[k + 2] as f32
    };
    // The normal map leans with the grain somewhere (not every pixel straight up).
    let normals = bytes(&an);
    let leaning = normals.chunks(4).filter(|p| p[0].abs_diff(128) > 6 || p[1].abs_diff(128) > 6).count();
    assert!(leaning > w * w / 10, "the grain's relief: {leaning} pixels lean");
    // Down a column of the face the rings come and go; across the end grain too, differently.
    let column = |data: &[u8], x: usize| (0..w).map(|y| grey(data, x, y)).collect::<Vec<f32>>();
    let face = column(&bytes(&a), w / 3);
    let end = column(&bytes(&a), w - 4);
    let swing = |v: &[f32]| v.iter().copied().fold(f32::MIN, f32::max) - v.iter().copied().fold(f32::MAX, f32::min);
    assert!(
        swing(&face) > 15.0 && swing(&end) > 15.0,
        "rings on the face ({}) and the end ({})",
        swing(&face),
        swing(&end)
    );
    assert!(
        face.iter().zip(&end).filter(|(f, e)| (*f - *e).abs() > 5.0).count() > w / 4,
        "end grain is not the face's"
    );
    // Light pine lighter than dark, variant by variant.
    for seed in 0..6 {
        let (l, _) = tile_textures(light, seed);
        let (d, _) = tile_textures(dark, seed + 100);
        let mean = |i: &Image| {
            let data = bytes(i);
            (0..w * w).map(|p| grey(&data, p % w, p / w)).sum::<f32>() / (w * w) as f32
        };
        assert!(mean(&l) > mean(&d) + 60.0, "seed {seed}: light {} against dark {}", mean(&l), mean(&d));
    }
}
