//! CTOR's doughnut: the field on a true torus. Clicks on its patches play the same moves as
//! on the flat field (every CTOR fixture's sample), every disc has its image on the surface
//! where the flat one stands (through drops and flips), the doughnut turns the last move's
//! square to the camera, and switching back shows the flat field as it was.

use crate::table::{click_entity, session, settle};
use bevy::prelude::*;
use rand::{SeedableRng, seq::IndexedRandom};
use tablero::gui::frame::animate::Speed;
use tablero::gui::frame::session::{Command, PlayerKind};
use tablero::gui::sets::torus::doughnut::{Doughnut, DoughnutView, Image, Patch, on_doughnut};
use tablero::gui::sets::torus::{Disc, FieldSquare};
use tablero::rules::ctor::CtorMove;
use tablero::rules::{AnyGame, AnyMove, Cell, Game, Side};

fn patch(app: &mut App, cell: Cell) -> Entity {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &FieldSquare), With<Patch>>()
        .iter(world)
        .find(|(_, f)| f.of == cell)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no patch for {cell}"))
}

fn doughnut_app(position: &str) -> App {
    let game: AnyGame = position.parse().unwrap();
    let mut app = tablero::gui::headless_app(game, [PlayerKind::Person; 2]);
    app.insert_resource(Speed::Instant);
    app.insert_resource(DoughnutView(true));
    app.update();
    app.update();
    settle(&mut app);
    app
}

/// Plays `mv` by clicks on the doughnut's patches (a Landing after its button).
fn play_on_doughnut(app: &mut App, game: &AnyGame, mv: &CtorMove) {
    let AnyGame::Ctor(g) = game else { unreachable!() };
    let cells: Vec<Cell> = match mv {
        CtorMove::Put(s) => vec![g.cell(*s)],
        CtorMove::Move(a, b) => vec![g.cell(*a), g.cell(*b)],
        CtorMove::Landing(a, b, d) => {
            app.world_mut().write_message(Command::Landing);
            app.update();
            vec![g.cell(*a), g.cell(*b), g.cell(*d)]
        }
        CtorMove::End | CtorMove::Timeout => return,
    };
    for c in cells {
        let p = patch(app, c);
        click_entity(app, p);
    }
}

/// Every image of a disc lies where its flat disc maps to on the doughnut, and every disc on
/// the field has one.
fn assert_images_follow(app: &mut App) {
    let world = app.world_mut();
    let n = world.query::<&Doughnut>().single(world).unwrap().n;
    let discs: Vec<(Entity, Transform, Option<Cell>)> =
        world.query::<(Entity, &Disc, &Transform)>().iter(world).map(|(e, d, t)| (e, *t, d.cell)).collect();
    let images: Vec<(Entity, Transform)> =
        world.query::<(&Image, &Transform)>().iter(world).map(|(i, t)| (i.0, *t)).collect();
    for (e, tf, cell) in &discs {
        let Some(_) = cell else { continue };
        let image =
            images.iter().find(|(of, _)| of == e).unwrap_or_else(|| panic!("the disc on {cell:?} has no image"));
        let want = on_doughnut(n, tf);
        assert!(
            image.1.translation.distance(want.translation) < 1e-4,
            "{cell:?}: image at {} where {} maps to {}",
            image.1.translation,
            tf.translation,
            want.translation
        );
        let same = |a: Quat, b: Quat| [Vec3::X, Vec3::Y].iter().all(|v| (a * *v).distance(b * *v) < 1e-3);
        assert!(same(image.1.rotation, want.rotation), "{cell:?}: {} against {}", image.1.rotation, want.rotation);
    }
    let on_field = discs.iter().filter(|d| d.2.is_some()).count();
    assert_eq!(images.iter().filter(|(of, _)| discs.iter().any(|d| d.0 == *of && d.2.is_some())).count(), on_field);
}

#[test]
fn picking_on_the_doughnut_plays_the_same_move_as_on_the_flat_field_for_every_fixture() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let rows = crate::common::fixture("ctor.tsv");
    let (mut played, mut landings) = (0, 0);
    for row in &rows {
        let game: AnyGame = row.position.parse().unwrap();
        if game.outcome().is_some() {
            continue;
        }
        let AnyGame::Ctor(g) = &game else { unreachable!() };
        let moves: Vec<CtorMove> = g.legal_moves().into_iter().filter(|m| !matches!(m, CtorMove::End)).collect();
        // A sample: a Put, a Move and a Landing where the position has them.
        let mut sample: Vec<CtorMove> = Vec::new();
        for kind in 0..3 {
            let of_kind: Vec<&CtorMove> = moves
                .iter()
                .filter(|m| match kind {
                    0 => matches!(m, CtorMove::Put(_)),
                    1 => matches!(m, CtorMove::Move(..)),
                    _ => matches!(m, CtorMove::Landing(..)),
                })
                .collect();
            if let Some(m) = of_kind.choose(&mut rng) {
                sample.push(**m);
            }
        }
        for mv in sample {
            let mut app = doughnut_app(&row.position);
            play_on_doughnut(&mut app, &game, &mv);
            settle(&mut app);
            let s = session(&app);
            let last = s.history.last().map(|(_, m)| m.clone());
            assert_eq!(last, Some(AnyMove::Ctor(mv)), "{} by the doughnut's patches in {}", mv, row.position);
            assert_images_follow(&mut app);
            played += 1;
            landings += usize::from(matches!(mv, CtorMove::Landing(..)));
        }
    }
    eprintln!("{played} moves played on the doughnut, {landings} of them Landings");
    assert!(played > 200 && landings > 10, "{played} moves played on the doughnut, {landings} Landings");
}

/// A Put that turns discs: the images flip on the doughnut while the flat discs do, and end
/// where they map; the doughnut turns the move's square to the camera; switching back shows
/// the flat field with every disc, and the doughnut goes.
#[test]
fn flips_happen_on_the_doughnut_and_switching_back_keeps_every_disc() {
    // White to put on 20: the black disc on 19 then has five white neighbours.
    let text = "ctor8 ......../.WWW..../.WB...../..W...../......../......../......../........ w 4 P2M2L0 1v1 0";
    let mut app = doughnut_app(text);
    app.insert_resource(Speed::Normal);
    assert_images_follow(&mut app);
    let turned_before = {
        let world = app.world_mut();
        world.query_filtered::<&Transform, With<Doughnut>>().single(world).unwrap().rotation
    };
    let AnyGame::Ctor(g) = session(&app).game.clone() else { unreachable!() };
    let p = patch(&mut app, g.cell(20));
    click_entity(&mut app, p);
    // Mid-flip, the image of 19 turns with its disc.
    let flat19 = {
        let world = app.world_mut();
        world.query::<(Entity, &Disc)>().iter(world).find(|(_, d)| d.cell == Some(g.cell(19))).unwrap().0
    };
    let mut turning_seen = false;
    for _ in 0..60 {
        app.update();
        let world = app.world_mut();
        let image = world.query::<(&Image, &Transform)>().iter(world).find(|(i, _)| i.0 == flat19).map(|(_, t)| *t);
        let flat = *world.get::<Transform>(flat19).unwrap();
        let n = world.query::<&Doughnut>().single(world).unwrap().n;
        if let Some(image) = image {
            assert!(image.translation.distance(on_doughnut(n, &flat).translation) < 1e-4, "the image follows mid-flip");
            let tilt = flat.rotation.angle_between(Quat::IDENTITY);
            turning_seen |= tilt > 0.5 && tilt < 2.6;
        }
    }
    assert!(turning_seen, "the disc was seen half-way over");
    settle(&mut app);
    let AnyGame::Ctor(after) = session(&app).game.clone() else { unreachable!() };
    assert_eq!(after.disc(19), Some(Side::Second));
    assert_images_follow(&mut app);
    // The doughnut turned: the square of the move faces the camera (the player's, or where
    // the table's camera stands by default when there is none, as here).
    let (root, n) = {
        let world = app.world_mut();
        let (tf, d) = world.query::<(&Transform, &Doughnut)>().single(world).unwrap();
        (*tf, d.n)
    };
    assert!(root.rotation.angle_between(turned_before) > 1e-3, "the doughnut turned");
    let cam = {
        let world = app.world_mut();
        world
            .query_filtered::<&Transform, With<tablero::gui::look::camera::PlayerCamera>>()
            .iter(world)
            .next()
            .map_or(Vec3::new(0.0, 10.0, 10.0), |t| t.translation)
    };
    let layout = *app.world().resource::<tablero::gui::frame::board::Layout>();
    let at = on_doughnut(
        n,
        &Transform::from_translation(tablero::gui::frame::board::cell_pos(&layout, g.cell(20)).with_y(0.2)),
    );
    let point = root.translation + root.rotation * at.translation;
    let normal = root.rotation * at.rotation * Vec3::Y;
    let facing = normal.dot((cam - point).normalize());
    assert!(facing > 0.2, "the square of the last move faces the camera: {facing}");
    // Back to the flat field: every disc shows there, the doughnut and its images are gone.
    app.insert_resource(DoughnutView(false));
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&Doughnut>().iter(world).count(), 0);
    assert_eq!(world.query::<&Image>().iter(world).count(), 0);
    let hidden = world
        .query_filtered::<&Visibility, Or<(With<Disc>, With<FieldSquare>)>>()
        .iter(world)
        .filter(|v| **v == Visibility::Hidden)
        .count();
    assert_eq!(hidden, 0, "the flat field shows again");
    let discs = world.query::<&Disc>().iter(world).filter(|d| d.cell.is_some()).count();
    assert_eq!(discs as u32, after.count(Side::First) + after.count(Side::Second));
    assert_eq!(
        app.world().resource::<tablero::gui::frame::animate::Resyncs>().0,
        0,
        "the scene never had to be rebuilt"
    );
}

/// A team member's blind choice shows on the doughnut as on the flat field: its ring on the
/// chosen patch, at the table only (the player's layer).
#[test]
fn a_members_choice_shows_on_the_doughnut_at_the_table_only() {
    use bevy::camera::visibility::RenderLayers;
    use tablero::gui::frame::session::SecretCommand;
    use tablero::gui::sets::torus::marks::ChoiceMark;
    use tablero::record::PlayerInfo;
    use tablero::rules::ctor::{Ctor, Options, Teams};
    use tablero::team::{Lead, TeamRecord};
    let seat = |n: &str| PlayerInfo { name: n.into(), kind: "human".into() };
    let game = AnyGame::Ctor(Ctor::new(8, Teams::new([2, 2]), Options::default()));
    let mut s = tablero::table::Table::new(game, [PlayerKind::Person; 2], 3);
    s.record.team = Some(TeamRecord::new([vec![seat("Ana"), seat("Bo")], vec![seat("Cy"), seat("Di")]], Lead::Captain));
    let mut app = tablero::gui::headless_app_with(s);
    app.insert_resource(DoughnutView(true));
    app.update();
    app.world_mut().write_message(SecretCommand::Proceed);
    app.update();
    app.update();
    let AnyGame::Ctor(g) = session(&app).game.clone() else { unreachable!() };
    let p = patch(&mut app, g.cell(12));
    click_entity(&mut app, p);
    app.update();
    let world = app.world_mut();
    let mark = world.query_filtered::<Entity, With<ChoiceMark>>().single(world).expect("Ana's choice");
    let n = world.query::<&Doughnut>().single(world).unwrap().n;
    let flat = *world.get::<Transform>(mark).unwrap();
    let images: Vec<(Transform, Option<RenderLayers>)> = world
        .query::<(&Image, &Transform, Option<&RenderLayers>)>()
        .iter(world)
        .filter(|(i, ..)| i.0 == mark)
        .map(|(_, t, l)| (*t, l.cloned()))
        .collect();
    assert_eq!(images.len(), 1, "the choice has its image on the doughnut");
    assert!(images[0].0.translation.distance(on_doughnut(n, &flat).translation) < 1e-4);
    assert_eq!(
        images[0].1,
        Some(RenderLayers::layer(tablero::gui::frame::board::PLAYER_ONLY)),
        "seen at the table only"
    );
}
