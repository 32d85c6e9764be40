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
pub(crate) fn start(title: &str, speed: Speed, name: &str) -> App {
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

/// The grey of a texel of an sRGB texture.
fn grey(data: &[u8], w: usize, x: usize, y: usize) -> f32 {
    let k = (y * w + x) * 4;
    0.299 * data[k] as f32 + 0.587 * data[k + 1] as f32 + 0.114 * data[k + 2] as f32
}

/// A face's texels (grey) from a baked board texture, as rows.
fn face(image: &Image, f: tablero::gui::sets::pine::pine_wood::Face) -> Vec<Vec<f32>> {
    let w = image.width() as usize;
    let data = image.data.as_ref().unwrap();
    let (u0, v0, fw, fh) = f.region();
    let (x0, y0) = ((u0 * w as f32) as usize + 2, (v0 * w as f32) as usize + 2);
    let (nx, ny) = ((fw * w as f32) as usize - 4, (fh * w as f32) as usize - 4);
    (0..ny).map(|y| (0..nx).map(|x| grey(data, w, x0 + x, y0 + y)).collect()).collect()
}

/// How alike two patterns are: the largest correlation of one with the other shifted by up to
/// `reach` texels each way (1: the same pattern, in the same place or moved).
fn likeness(a: &[Vec<f32>], b: &[Vec<f32>], reach: i32) -> f32 {
    let (h, w) = (a.len() as i32, a[0].len() as i32);
    let mut best = f32::MIN;
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let mut pairs = Vec::new();
            for y in reach..h - reach {
                for x in reach..w - reach {
                    pairs.push((a[y as usize][x as usize], b[(y + dy) as usize][(x + dx) as usize]));
                }
            }
            let n = pairs.len() as f32;
            let (ma, mb) = (pairs.iter().map(|p| p.0).sum::<f32>() / n, pairs.iter().map(|p| p.1).sum::<f32>() / n);
            let cov: f32 = pairs.iter().map(|p| (p.0 - ma) * (p.1 - mb)).sum();
            let va: f32 = pairs.iter().map(|p| (p.0 - ma).powi(2)).sum();
            let vb: f32 = pairs.iter().map(|p| (p.1 - mb).powi(2)).sum();
            best = best.max(cov / (va * vb).sqrt().max(1e-6));
        }
    }
    best
}

/// The pine's wood is one solid texture baked per piece, seeded: a cut repeats for its seed;
/// each of the twenty tiles is its own wood (no two tops are the same pattern, even moved a
/// little); the top's grain runs along the tile, the ends show end grain, unlike the sides;
/// the relief leans with the grain and the roughness follows it; light pine is lighter than
/// dark throughout; each dark tile has its pale inlay in the same corner.
#[test]
fn every_tile_is_its_own_pine_with_grain_end_grain_relief_and_an_inlay() {
    use tablero::gui::sets::pine::pine_wood::{Cut, Detail, Face, Sawn, Stain, bake_board, tile_cut};
    use tablero::gui::sets::pine::{INLAY_AT, INLAY_R, PER_SIDE, THICK, TILE, set_wood};
    let half = Vec3::new(TILE / 2.0, THICK * 0.49, TILE / 2.0);
    let bytes = |i: &Image| i.data.clone().unwrap();
    let a = bake_board(half, &tile_cut(0, 3), &Stain::pine(), Detail::Software.tile(), |_, _, s| s);
    let a2 = bake_board(half, &tile_cut(0, 3), &Stain::pine(), Detail::Software.tile(), |_, _, s| s);
    assert_eq!(bytes(&a.colour), bytes(&a2.colour), "a cut gives the same wood");
    let wood = &set_wood(Detail::Software);
    assert_eq!(wood.tiles[0].len(), PER_SIDE);
    assert_eq!(wood.tiles[1].len(), PER_SIDE);
    for side in 0..2 {
        // The tops' wood, away from the dark tiles' inlay (in the +x, +z corner).
        let tops: Vec<Vec<Vec<f32>>> = wood.tiles[side]
            .iter()
            .map(|b| {
                let top = face(&b.colour, Face::Top);
                let keep = top.len() * 2 / 3;
                top[..keep].iter().map(|row| row[..keep].to_vec()).collect()
            })
            .collect();
        for i in 0..tops.len() {
            for j in i + 1..tops.len() {
                let l = likeness(&tops[i], &tops[j], 4);
                assert!(l < 0.8, "side {side}: tiles {i} and {j} are the same pattern ({l:.2})");
            }
        }
    }
    // Across many cuts: along a top the grain changes less than across it; the ends' rings
    // (end grain) are not the sides' long grain.
    let mut along_less = 0;
    for k in 0..10 {
        let b = bake_board(half, &Cut::random(k, Sawn::Any), &Stain::pine(), Detail::Software.tile(), |_, _, s| s);
        let top = face(&b.colour, Face::Top);
        let change = |dx: usize, dy: usize| -> f32 {
            let mut sum = 0.0;
            for y in 0..top.len() - dy {
                for x in 0..top[0].len() - dx {
                    sum += (top[y + dy][x + dx] - top[y][x]).abs();
                }
            }
            sum
        };
        if change(1, 0) < change(0, 1) {
            along_less += 1;
        }
        let (end, side) = (face(&b.colour, Face::PlusX), face(&b.colour, Face::PlusZ));
        let swing = |f: &[Vec<f32>]| {
            let all: Vec<f32> = f.iter().flatten().copied().collect();
            all.iter().copied().fold(f32::MIN, f32::max) - all.iter().copied().fold(f32::MAX, f32::min)
        };
        assert!(swing(&end) > 15.0 && swing(&side) > 15.0, "cut {k}: rings on the end and the side");
        let (end_rows, side_rows) = (end.len().min(side.len()), end[0].len().min(side[0].len()));
        let e: Vec<Vec<f32>> = end[..end_rows].iter().map(|r| r[..side_rows].to_vec()).collect();
        let s: Vec<Vec<f32>> = side[..end_rows].iter().map(|r| r[..side_rows].to_vec()).collect();
        assert!(likeness(&e, &s, 0) < 0.9, "cut {k}: end grain is not the side's grain");
    }
    assert!(along_less >= 8, "the grain runs along the tile ({along_less} of 10 tops)");
    for (k, b) in wood.tiles[0].iter().enumerate() {
        // The relief leans with the grain, and the roughness follows it.
        let normals = bytes(&b.normal);
        let w = b.normal.width() as usize;
        let leaning =
            normals.chunks(4).take(w * w).filter(|p| p[0].abs_diff(128) > 1 || p[1].abs_diff(128) > 1).count();
        assert!(leaning > w * w / 10, "tile {k}: the grain's relief ({leaning} texels lean)");
        let w = b.roughness.width() as usize;
        let rough: Vec<u8> = bytes(&b.roughness).chunks(4).take(w * w).map(|p| p[1]).collect();
        let (lo, hi) = (rough.iter().min().unwrap(), rough.iter().max().unwrap());
        assert!(hi - lo > 25, "tile {k}: the roughness follows the grain ({lo} to {hi})");
    }
    // Light pine lighter than dark, tile by tile.
    let mean = |i: &Image| {
        let w = i.width() as usize;
        let data = bytes(i);
        (0..w * w).map(|p| grey(&data, w, p % w, p / w)).sum::<f32>() / (w * w) as f32
    };
    for k in 0..PER_SIDE {
        let (l, d) = (mean(&wood.tiles[0][k].colour), mean(&wood.tiles[1][k].colour));
        assert!(l > d + 60.0, "tile {k}: light {l:.0} against dark {d:.0}");
    }
    // The dark tiles' inlay: a pale disc in the same corner of the top, flush in the wood.
    for (k, b) in wood.tiles[1].iter().enumerate() {
        let top = face(&b.colour, Face::Top);
        let n = top.len() as f32 + 4.0;
        let at = |x: f32, z: f32| {
            let (i, j) = (((x / TILE + 0.5) * n) as usize - 2, ((z / TILE + 0.5) * n) as usize - 2);
            top[j][i]
        };
        let inlay = at(INLAY_AT, INLAY_AT);
        let wood = at(-INLAY_AT, -INLAY_AT).max(at(0.0, 0.0));
        assert!(inlay > wood + 60.0, "dark tile {k}: the inlay {inlay:.0} against its wood {wood:.0}");
        assert!(at(INLAY_AT - INLAY_R * 1.5, INLAY_AT) < inlay - 60.0, "dark tile {k}: the inlay is a small disc");
    }
}
