//! The table, headless: clicks reach the scene's picking observers, time is stepped by hand.

use bevy::prelude::*;
use tablero::gui::Mode;
use tablero::gui::frame::animate::{Resyncs, Speed, Tween};
use tablero::gui::frame::board::{Layout, cell_pos};
use tablero::gui::frame::session::{Command, Notice, Picking, PlayerKind, Session};
use tablero::gui::sets::stones::{Square, Stone};
use tablero::rules::{AnyGame, Cell, Game, Variant};

pub(crate) const PEOPLE: [PlayerKind; 2] = [PlayerKind::Person, PlayerKind::Person];

fn table(game: AnyGame, players: [PlayerKind; 2]) -> App {
    tablero::gui::headless_app(game, players)
}

fn c(s: &str) -> Cell {
    s.parse().unwrap()
}

/// The entity a click on `cell` hits from above: the stone or pawn on it, else the top tile,
/// else the square or pad.
pub(crate) fn entity_at(app: &mut App, cell: Cell) -> Entity {
    use tablero::gui::sets::pine::{Pad, Pawn, Tile};
    let world = app.world_mut();
    let stone = world.query::<(Entity, &Stone)>().iter(world).find(|(_, s)| s.cell == Some(cell)).map(|(e, _)| e);
    let pawn = world.query::<(Entity, &Pawn)>().iter(world).find(|(_, p)| p.cell == cell).map(|(e, _)| e);
    let top = world
        .query::<(Entity, &Tile)>()
        .iter(world)
        .filter(|(_, t)| t.cell == Some(cell))
        .max_by_key(|(_, t)| t.level)
        .map(|(e, _)| e);
    let square = world.query::<(Entity, &Square)>().iter(world).find(|(_, s)| s.0 == cell).map(|(e, _)| e);
    let pad = world.query::<(Entity, &Pad)>().iter(world).find(|(_, p)| p.0 == cell).map(|(e, _)| e);
    let field = world
        .query::<(Entity, &tablero::gui::sets::torus::FieldSquare)>()
        .iter(world)
        .find(|(_, f)| f.of == cell && !f.border)
        .map(|(e, _)| e);
    stone.or(pawn).or(top).or(square).or(pad).or(field).expect("every cell has something to click")
}

/// A primary click on the entity at `cell`, delivered to its observers, then one frame.
pub(crate) fn click(app: &mut App, cell: Cell) {
    let target = entity_at(app, cell);
    click_entity(app, target);
}

pub(crate) fn click_entity(app: &mut App, target: Entity) {
    app.world_mut().trigger(tablero::gui::screens::keyboard::click_on(target));
    app.update();
}

/// How a board item looks in the player's view: its highlight's material where one shows
/// over it, else its own.
pub(crate) fn painted(world: &mut World, item: Entity) -> Handle<StandardMaterial> {
    use tablero::gui::frame::board::Mark;
    let own = world.get::<MeshMaterial3d<StandardMaterial>>(item).unwrap().0.clone();
    let children: Vec<Entity> = world.get::<Children>(item).map(|c| c.iter().collect()).unwrap_or_default();
    children
        .into_iter()
        .filter(|c| world.get::<Mark>(*c).is_some() && world.get::<Visibility>(*c) != Some(&Visibility::Hidden))
        .find_map(|c| world.get::<MeshMaterial3d<StandardMaterial>>(c).map(|m| m.0.clone()))
        .unwrap_or(own)
}

pub(crate) fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

/// The move being chosen (the picker, the moves offered, a hint).
pub(crate) fn picking(app: &App) -> &Picking {
    app.world().resource::<Picking>()
}

/// The panel's message line.
pub(crate) fn notice(app: &App) -> String {
    app.world().resource::<Notice>().0.clone()
}

/// The position the table shows (with a chosen first part applied).
pub(crate) fn shown(app: &App) -> AnyGame {
    picking(app).shown(&session(app).game)
}

/// What the table is doing: a live game, a replay, the secret squares' setup.
pub(crate) fn mode(app: &App) -> Mode {
    *app.world().resource::<State<Mode>>().get()
}

pub(crate) fn moving(app: &mut App) -> bool {
    let world = app.world_mut();
    // Tweens: slides, lifts, drops and the torus's disc flips.
    world.query_filtered::<(), With<Tween>>().iter(world).next().is_some()
}

pub(crate) fn settle(app: &mut App) {
    for _ in 0..200 {
        app.update();
        if !moving(app) {
            app.update();
            return;
        }
    }
    panic!("the animation never ended");
}

/// Every stone on the board stands on its square, on a cell where the rules have its piece,
/// and no piece of the rules' position is missing.
pub(crate) fn assert_scene_matches(app: &mut App) {
    let shown = shown(app);
    let layout = *app.world().resource::<Layout>();
    let world = app.world_mut();
    let stones: Vec<(Stone, Transform)> =
        world.query::<(&Stone, &Transform)>().iter(world).map(|(s, t)| (*s, *t)).collect();
    let mut on_board = 0;
    for (stone, tf) in &stones {
        if let Some(cell) = stone.cell {
            on_board += 1;
            assert_eq!(shown.piece_at(cell), Some(stone.side), "stone on {cell}");
            assert!(tf.translation.distance(cell_pos(&layout, cell)) < 1e-3, "stone of {cell} at {}", tf.translation);
        } else {
            assert!(tf.translation.x.abs() > layout.files as f32 / 2.0, "a captured stone lies beside the board");
        }
    }
    let (f, r) = shown.board_size();
    let pieces =
        (0..r).flat_map(|r| (0..f).map(move |f| Cell::new(f, r))).filter(|c| shown.piece_at(*c).is_some()).count();
    assert_eq!(on_board, pieces);
    assert_eq!(app.world().resource::<Resyncs>().0, 0, "the animation left the scene as the rules say");
}

#[test]
fn selecting_shows_exactly_the_rules_destinations() {
    for variant in [Variant::Ordo, Variant::OrdoX, Variant::Crossings] {
        let game = variant.initial();
        let mut app = table(game.clone(), PEOPLE);
        let from = if variant == Variant::Crossings { c("c2") } else { c("c2") };
        click(&mut app, from);
        assert_eq!(picking(&app).picker.selected, Some(from), "{variant}");
        // The rules' destinations for that stone, as landing squares of its moves' first part.
        let mut expected: Vec<Cell> = game
            .legal_moves()
            .iter()
            .flat_map(|m| m.paths(0))
            .filter(|(f, t)| *f == from && game.piece_at(*t) != Some(game.side_to_move()))
            .map(|(_, t)| t)
            .collect();
        expected.sort();
        expected.dedup();
        let shown: Vec<Cell> = picking(&app).picker.targets(&session(&app).game).into_iter().collect();
        assert_eq!(shown, expected, "{variant}");
        // The scene paints exactly those squares as targets: no more, no fewer.
        app.update();
        let palette_target: Vec<(Cell, Handle<StandardMaterial>)> = {
            let world = app.world_mut();
            let squares: Vec<(Cell, Entity)> =
                world.query::<(&Square, Entity)>().iter(world).map(|(s, e)| (s.0, e)).collect();
            squares.into_iter().map(|(c, e)| (c, painted(world, e))).collect()
        };
        let target_mat = palette_target.iter().find(|(c, _)| *c == expected[0]).unwrap().1.clone();
        let painted: Vec<Cell> = palette_target.iter().filter(|(_, m)| *m == target_mat).map(|(c, _)| *c).collect();
        let mut painted = painted;
        painted.sort();
        assert_eq!(painted, expected, "{variant}: painted targets");
    }
}

#[test]
fn a_played_move_animates_and_ends_where_the_rules_say() {
    let mut app = table(Variant::Ordo.initial(), PEOPLE);
    // c2 reaches c4 alone or with its ordo c2-d2: the table asks which.
    click(&mut app, c("c2"));
    click(&mut app, c("c4"));
    let parts: Vec<String> = picking(&app).choices.iter().map(|(_, p)| p.clone()).collect();
    assert_eq!(parts, ["c2-c4", "c2:d2-c4"]);
    app.world_mut().write_message(Command::Choose("c2:d2-c4".into()));
    app.update();
    assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
    assert_eq!(session(&app).history[0].1.to_string(), "c2:d2-c4");
    assert!(moving(&mut app), "the stones slide");
    // Under way, each stone is between its squares, on the straight line from one to the other.
    app.update();
    app.update();
    let layout = *app.world().resource::<Layout>();
    for (from, to) in [("c2", "c4"), ("d2", "d4")] {
        let (a, b) = (cell_pos(&layout, c(from)), cell_pos(&layout, c(to)));
        let world = app.world_mut();
        let at = world
            .query::<(&Stone, &Transform)>()
            .iter(world)
            .find(|(s, _)| s.cell == Some(c(to)))
            .map(|(_, t)| t.translation)
            .expect("the stone of the move");
        let (p, ab) = ((at - a).xz(), (b - a).xz());
        let t = p.dot(ab) / ab.length_squared();
        assert!(t > 0.05 && t < 0.95, "{from}-{to}: the stone at {at} is not under way ({t:.2} of the way)");
        assert!((p - ab * t).length() < 1e-3, "{from}-{to}: the stone at {at} left the straight line");
    }
    settle(&mut app);
    assert_scene_matches(&mut app);
}

#[test]
fn captures_and_removed_groups_leave_the_board_and_stay_visible() {
    let game: AnyGame =
        "ordo-x ........../........../...B.BB.../...BBBB.../...WW...../....W...../........../.......... w"
            .parse()
            .unwrap();
    let mut app = table(game, PEOPLE);
    click(&mut app, c("e4"));
    click(&mut app, c("e5"));
    assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
    settle(&mut app);
    assert_scene_matches(&mut app);
    let world = app.world_mut();
    let off: usize = world.query::<&Stone>().iter(world).filter(|s| s.cell.is_none()).count();
    assert_eq!(off, 3, "one captured, two removed, all beside the board");
}

#[test]
fn clicks_during_an_animation_and_illegal_clicks_change_nothing() {
    let mut app = table(Variant::Ordo.initial(), PEOPLE);
    // Illegal: an enemy stone, an empty square, a square the selected stone cannot reach.
    click(&mut app, c("a7"));
    assert!(notice(&app).contains("blue piece"), "{}", notice(&app));
    click(&mut app, c("e3"));
    click(&mut app, c("e6"));
    assert!(notice(&app).contains("e3 to e6"), "{}", notice(&app));
    assert!(session(&app).history.is_empty());
    assert_scene_matches(&mut app);
    // A move (e3 is still selected after the refused click), then clicks while it animates.
    assert_eq!(picking(&app).picker.selected, Some(c("e3")));
    click(&mut app, c("e4"));
    assert_eq!(session(&app).history.len(), 1);
    assert!(moving(&mut app));
    let picker_before = picking(&app).picker.clone();
    click(&mut app, c("a6"));
    click(&mut app, c("a5"));
    assert_eq!(session(&app).history.len(), 1, "no move while pieces move");
    assert_eq!(picking(&app).picker, picker_before);
    settle(&mut app);
    assert_scene_matches(&mut app);
}

#[test]
fn ambiguous_clicks_offer_a_choice() {
    let mut app = table(Variant::Crossings.initial(), PEOPLE);
    click(&mut app, c("a2"));
    click(&mut app, c("a3"));
    let choices = picking(&app).choices.clone();
    let parts: Vec<&str> = choices.iter().map(|(_, p)| p.as_str()).collect();
    assert_eq!(parts, ["a1:a2-a3", "a2-a3"], "the stone alone, or the phalanx a1-a2");
    app.world_mut().write_message(Command::Choose("a1:a2-a3".into()));
    app.update();
    assert_eq!(session(&app).history.len(), 1);
    settle(&mut app);
    assert_scene_matches(&mut app);
}

#[test]
fn ordo_x_turns_are_chosen_part_by_part() {
    let game: AnyGame =
        "ordo-x ........../......B.../........../........../........../....W...../........../.......... w"
            .parse()
            .unwrap();
    let mut app = table(game, PEOPLE);
    click(&mut app, c("e3"));
    click(&mut app, c("a3"));
    settle(&mut app);
    assert!(session(&app).history.is_empty(), "the sideways part alone is no move");
    assert_scene_matches(&mut app);
    click(&mut app, c("a3"));
    click(&mut app, c("a5"));
    assert_eq!(session(&app).history[0].1.to_string(), "e3-a3,a3-a5");
    settle(&mut app);
    assert_scene_matches(&mut app);
}

#[test]
fn undo_and_redo_restore_the_scene_exactly() {
    let mut app = table(Variant::Crossings.initial(), [PlayerKind::Random, PlayerKind::Random]);
    app.insert_resource(Speed::Fast);
    for _ in 0..400 {
        app.update();
        if session(&app).history.len() >= 6 && !moving(&mut app) {
            break;
        }
    }
    settle(&mut app);
    let played = session(&app).history.len();
    assert!(played >= 6);
    app.world_mut().resource_mut::<Session>().apply(tablero::table::Intent::SetPlayers(PEOPLE)).unwrap();
    let snapshot = |app: &mut App| {
        let world = app.world_mut();
        let mut v: Vec<String> = world
            .query::<(&Stone, &Transform)>()
            .iter(world)
            .map(|(s, t)| format!("{:?} {:?} {:.3}", s.side, s.cell, t.translation))
            .collect();
        v.sort();
        v
    };
    let after = snapshot(&mut app);
    for _ in 0..3 {
        app.world_mut().write_message(Command::Undo);
        app.update();
        app.update();
    }
    assert_eq!(session(&app).history.len(), played - 3);
    assert_scene_matches(&mut app);
    for _ in 0..3 {
        app.world_mut().write_message(Command::Redo);
        app.update();
        settle(&mut app);
    }
    assert_eq!(snapshot(&mut app), after, "redo restores every stone");
    assert_scene_matches(&mut app);
}

#[test]
fn a_random_game_plays_to_its_end_with_the_scene_in_step() {
    let mut app = table(Variant::OrdoX.initial(), [PlayerKind::Random, PlayerKind::Random]);
    app.insert_resource(Speed::Instant);
    for _ in 0..3000 {
        app.update();
        if session(&app).game.outcome().is_some() {
            break;
        }
    }
    settle(&mut app);
    assert!(session(&app).game.outcome().is_some());
    assert_scene_matches(&mut app);
}

mod volterra {
    use super::*;
    use tablero::gui::sets::pine::{Pawn, Tile, set_matches};

    pub(super) fn assert_set_matches(app: &mut App) {
        let shown = shown(app);
        let layout = *app.world().resource::<Layout>();
        let world = app.world_mut();
        let tiles: Vec<(Tile, Transform)> =
            world.query::<(&Tile, &Transform)>().iter(world).map(|(a, b)| (*a, *b)).collect();
        let pawns: Vec<(Pawn, Transform)> =
            world.query::<(&Pawn, &Transform)>().iter(world).map(|(a, b)| (*a, *b)).collect();
        assert!(
            set_matches(&shown, &layout, tiles.iter().map(|(a, b)| (a, b)), pawns.iter().map(|(a, b)| (a, b))),
            "the towers and pawns on the table are not {shown}"
        );
        assert_eq!(app.world().resource::<Resyncs>().0, 0);
    }

    #[test]
    fn selection_shows_the_rules_choices_and_a_turn_plays_by_clicks() {
        let game = Variant::Volterra.initial();
        let mut app = table(game.clone(), PEOPLE);
        assert_set_matches(&mut app);
        // The light pawn on b3: its steps are exactly the rules' first-action steps.
        click(&mut app, c("b3"));
        let mut steps: Vec<Cell> =
            game.legal_moves().iter().filter(|m| m.parts()[0].starts_with('P')).map(|m| m.paths(0)[0].1).collect();
        steps.sort();
        steps.dedup();
        let shown: Vec<Cell> = picking(&app).picker.targets(&session(&app).game).into_iter().collect();
        assert_eq!(shown, steps);
        // Step to a4, then build: lift the tile of b5 onto a5.
        click(&mut app, c("a4"));
        settle(&mut app);
        assert_set_matches(&mut app);
        assert!(session(&app).history.is_empty(), "half a turn is not a move");
        click(&mut app, c("b5"));
        click(&mut app, c("a5"));
        assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
        assert_eq!(session(&app).history[0].1.to_string(), "Pb3-a4,b5-a5");
        settle(&mut app);
        assert_set_matches(&mut app);
        // Undo puts every tile and pawn back.
        app.world_mut().write_message(Command::Undo);
        app.update();
        app.update();
        assert_set_matches(&mut app);
    }

    #[test]
    fn a_tower_without_a_free_side_says_so() {
        let mut app = table(Variant::Volterra.initial(), PEOPLE);
        click(&mut app, c("c2"));
        assert!(notice(&app).contains("no free side"), "{}", notice(&app));
        assert!(picking(&app).picker.selected.is_none());
    }

    #[test]
    fn random_games_keep_the_towers_in_step_and_splits_leave_the_table() {
        for variant in [Variant::Volterra, Variant::VolterraFree] {
            let mut app = table(variant.initial(), [PlayerKind::Random, PlayerKind::Random]);
            app.insert_resource(Speed::Fast);
            for _ in 0..4000 {
                app.update();
                if session(&app).game.outcome().is_some() {
                    break;
                }
            }
            settle(&mut app);
            assert!(session(&app).game.outcome().is_some(), "{variant}: {}", session(&app).game);
            assert_set_matches(&mut app);
        }
    }
}

mod ctor {
    use super::*;
    use tablero::gui::frame::session::Command;
    use tablero::gui::sets::torus::{Disc, Duplicate, FieldSquare, torus_matches};

    pub(super) fn assert_torus_matches(app: &mut App) {
        let shown = shown(app);
        let layout = *app.world().resource::<Layout>();
        let world = app.world_mut();
        let discs: Vec<(Disc, Transform)> =
            world.query::<(&Disc, &Transform)>().iter(world).map(|(a, b)| (*a, *b)).collect();
        let dups: Vec<(Duplicate, Transform)> =
            world.query::<(&Duplicate, &Transform)>().iter(world).map(|(a, b)| (*a, *b)).collect();
        assert!(
            torus_matches(&shown, &layout, discs.iter().map(|(a, b)| (a, b)), dups.iter().map(|(a, b)| (a, b))),
            "the discs and their duplicates are not {shown}"
        );
        assert_eq!(app.world().resource::<Resyncs>().0, 0);
    }

    fn ctor(s: &str) -> AnyGame {
        s.parse().unwrap()
    }

    #[test]
    fn selecting_a_disc_shows_exactly_the_rules_moves() {
        let game =
            ctor("ctor8 B......./......../...W..../...BW.../......../......../......../.......B b 5 P2M2L1 1v1 0");
        let mut app = table(game.clone(), PEOPLE);
        for from in ["d5", "a8", "h1"].map(c) {
            click(&mut app, from);
            let mut expected: Vec<Cell> = game
                .legal_moves()
                .iter()
                .flat_map(|m| game.move_paths(m, 0))
                .filter(|(f, _)| *f == from)
                .map(|(_, t)| t)
                .collect();
            expected.sort();
            let shown: Vec<Cell> = picking(&app).picker.targets(&session(&app).game).into_iter().collect();
            assert_eq!(shown, expected, "moves of {from}");
            click(&mut app, from);
        }
        // a8 (square 1) wraps: up to a1 (57) and left to h8 (8).
        click(&mut app, c("a8"));
        let shown = picking(&app).picker.targets(&session(&app).game);
        assert!(shown.contains(&c("a1")) && shown.contains(&c("h8")), "{shown:?}");
    }

    #[test]
    fn a_put_on_a_corner_shows_its_three_duplicates() {
        let mut app = table(Variant::Ctor8.initial(), PEOPLE);
        assert_torus_matches(&mut app);
        // Square 1 is the top left corner: a8.
        click(&mut app, c("a8"));
        assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
        assert_eq!(session(&app).history[0].1.to_string(), "P1");
        settle(&mut app);
        assert_torus_matches(&mut app);
        let world = app.world_mut();
        assert_eq!(world.query::<&Duplicate>().iter(world).count(), 3);
    }

    #[test]
    fn a_move_across_the_wrap_through_the_border_and_a_landing() {
        // Black discs on 57 (a1) and 64 (h1); turn 5 allows moves and a landing.
        let game =
            ctor("ctor8 ......../......../......../......../......../......../......../B......B b 5 P2M2L1 1v1 0");
        let mut app = table(game, PEOPLE);
        // Select a1 and click the border square that shows a8 above... the wrap step from a1 goes
        // to a8 (square 1); the border copy of a8 lies below the field at (0, -1).
        click(&mut app, c("a1"));
        let border = {
            let world = app.world_mut();
            let mut q = world.query::<(Entity, &FieldSquare, &Transform)>();
            let below: Vec<(Entity, f32)> = q
                .iter(world)
                .filter(|(_, f, _)| f.border && f.of == c("a8"))
                .map(|(e, _, t)| (e, t.translation.z))
                .collect();
            below.into_iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0
        };
        click_entity(&mut app, border);
        assert_eq!(session(&app).history.last().unwrap().1.to_string(), "M57-1", "{}", notice(&app));
        settle(&mut app);
        assert_torus_matches(&mut app);
        // A Landing: both discs off, one lands on d4.
        app.world_mut().write_message(Command::Landing);
        app.update();
        click(&mut app, c("a8"));
        click(&mut app, c("h1"));
        click(&mut app, c("d4"));
        assert_eq!(session(&app).history.last().unwrap().1.to_string(), "L1,64>36", "{}", notice(&app));
        settle(&mut app);
        assert_torus_matches(&mut app);
        // End of turn by the button's command.
        app.world_mut().write_message(Command::EndTurn);
        app.update();
        assert_eq!(session(&app).history.last().unwrap().1.to_string(), "E");
        settle(&mut app);
        assert_torus_matches(&mut app);
    }

    #[test]
    fn a_cascade_flips_one_disc_after_another_and_undo_restores() {
        // Black puts on 2: white 1 has five black neighbours across the wrap (57 58 64 9 10 16
        // minus one), then 8 follows once 1 has turned.
        let game =
            ctor("ctor8 W.....BW/BB.....B/......../......../......../......../......../BB.....B b 5 P2M2L1 1v1 0");
        let mut app = table(game, PEOPLE);
        let before = session(&app).game.to_string();
        click(&mut app, c("b8"));
        assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
        let flips = session(&app)
            .history
            .iter()
            .map(|(g, m)| {
                let mut g = g.clone();
                g.play(m).unwrap().iter().filter(|e| matches!(e, tablero::rules::Effect::Flipped { .. })).count()
            })
            .sum::<usize>();
        assert!(flips >= 2, "a cascade of {flips} flips");
        settle(&mut app);
        assert_torus_matches(&mut app);
        app.world_mut().write_message(Command::Undo);
        app.update();
        app.update();
        assert_eq!(session(&app).game.to_string(), before);
        assert_torus_matches(&mut app);
    }

    #[test]
    fn random_play_keeps_discs_and_duplicates_in_step() {
        for variant in [Variant::Ctor8, Variant::Ctor10] {
            let mut app = table(variant.initial(), [PlayerKind::Random, PlayerKind::Random]);
            app.insert_resource(Speed::Fast);
            for _ in 0..600 {
                app.update();
            }
            settle(&mut app);
            assert!(session(&app).history.len() > 20, "{variant}");
            assert_torus_matches(&mut app);
        }
    }

    use tablero::gui::frame::session::{SecretCommand, TableIntent};
    use tablero::gui::sets::torus::marks::SecretMark;
    use tablero::table::SecretPhase;

    fn marks(app: &mut App) -> Vec<Cell> {
        let world = app.world_mut();
        let mut v: Vec<Cell> = world.query::<&SecretMark>().iter(world).map(|m| m.0).collect();
        v.sort();
        v
    }

    fn phase(app: &App) -> SecretPhase {
        app.world().resource::<Session>().secrets.clone()
    }

    fn secret(app: &mut App, command: SecretCommand) {
        app.world_mut().write_message(command);
        app.update();
        app.update();
    }

    #[test]
    fn secret_squares_are_chosen_in_turn_and_never_shown_to_the_other_team() {
        let mut app = table(Variant::Ctor8.initial(), PEOPLE);
        app.world_mut().write_message(TableIntent(tablero::table::Intent::BeginSecrets));
        app.update();
        assert_eq!(phase(&app), SecretPhase::HandOver(tablero::rules::Side::First));
        assert_eq!(mode(&app), Mode::Secrets, "no move while secrets are chosen");
        // Black looks and chooses a1..e1.
        secret(&mut app, SecretCommand::Proceed);
        let black: Vec<Cell> = ["a1", "b1", "c1", "d1", "e1"].map(c).to_vec();
        for cell in &black {
            click(&mut app, *cell);
        }
        assert_eq!(marks(&mut app), black, "the choosing team sees its choice");
        secret(&mut app, SecretCommand::Done);
        // The hand-over screen: nothing of black's shows.
        assert_eq!(phase(&app), SecretPhase::HandOver(tablero::rules::Side::Second));
        assert!(marks(&mut app).is_empty());
        secret(&mut app, SecretCommand::Proceed);
        assert!(marks(&mut app).is_empty(), "white choosing never sees black's squares");
        let white: Vec<Cell> = ["a8", "b8", "c8", "d8", "e8"].map(c).to_vec();
        for cell in &white {
            click(&mut app, *cell);
        }
        assert_eq!(marks(&mut app), white);
        secret(&mut app, SecretCommand::Done);
        assert_eq!(phase(&app), SecretPhase::Ready);
        secret(&mut app, SecretCommand::Proceed);
        assert_eq!(phase(&app), SecretPhase::Done);
        assert_eq!(mode(&app), Mode::Live);
        assert!(marks(&mut app).is_empty(), "unrevealed squares stay hidden");
        // Black asks to see its own: only black's.
        secret(&mut app, SecretCommand::ShowMine);
        assert_eq!(marks(&mut app), black);
        // Black puts on white's secret a8 (square 1) and ends the turn.
        click(&mut app, c("a8"));
        settle(&mut app);
        assert_eq!(marks(&mut app), black, "still black's turn");
        app.world_mut().write_message(Command::EndTurn);
        app.update();
        settle(&mut app);
        // White's turn (the own squares hide again): its secret a8 worked and is revealed to
        // all; black's never show.
        let AnyGame::Ctor(g) = &session(&app).game else { panic!() };
        assert_eq!(g.disc(1), Some(tablero::rules::Side::Second), "the disc on the secret square turned");
        assert_eq!(marks(&mut app), vec![c("a8")]);
        secret(&mut app, SecretCommand::ShowMine);
        let shown = marks(&mut app);
        assert!(shown.iter().all(|m| white.contains(m)), "white sees only white's squares: {shown:?}");
        assert!(!shown.iter().any(|m| black.contains(m)));
        assert_torus_matches(&mut app);
    }

    #[test]
    fn the_sand_glass_ends_the_turn() {
        let game = AnyGame::Ctor(tablero::rules::ctor::Ctor::new(
            8,
            tablero::rules::ctor::Teams::default(),
            tablero::rules::ctor::Options { timer: Some(5), ..Default::default() },
        ));
        let mut app = table(game, PEOPLE);
        // 5 s at 50 ms a frame: the turn ends by itself.
        for _ in 0..120 {
            app.update();
        }
        let moves: Vec<String> = session(&app).history.iter().map(|(_, m)| m.to_string()).collect();
        assert_eq!(moves.first().map(String::as_str), Some("T"), "{moves:?}");
        let AnyGame::Ctor(g) = &session(&app).game else { panic!() };
        assert!(g.timeouts().contains(&1));
    }
}

pub(crate) mod records {
    use super::*;
    use tablero::gui::frame::session::Command;
    use tablero::record::Record;

    /// Any set: the scene is the shown position (stones, pine set or torus).
    pub(crate) fn in_step(app: &mut App) {
        assert_eq!(app.world().resource::<Resyncs>().0, 0);
        let shown = shown(app);
        match shown {
            AnyGame::Ordo(_) | AnyGame::Crossings(_) => assert_scene_matches(app),
            AnyGame::Volterra(_) => super::volterra::assert_set_matches(app),
            AnyGame::Ctor(_) => super::ctor::assert_torus_matches(app),
        }
    }

    fn random_record(variant: Variant, seed: u64, n: usize) -> Record {
        crate::common::random_record(variant.initial(), seed, n).0
    }

    #[test]
    fn replay_steps_jumps_and_plays_on_with_the_scene_in_step() {
        for variant in [Variant::Ordo, Variant::OrdoX, Variant::Crossings, Variant::Volterra, Variant::Ctor8] {
            let rec = random_record(variant, 3, 16);
            let positions = rec.replay().unwrap();
            let mut app = tablero::gui::headless_app_with(tablero::table::Table::replay(rec.clone()).unwrap());
            assert_eq!(mode(&app), Mode::Replay);
            // Clicks do nothing in a replay.
            app.world_mut().write_message(tablero::gui::frame::board::CellClicked(c("a1")));
            app.update();
            assert!(session(&app).history.is_empty());
            for k in 1..=4 {
                app.world_mut().write_message(Command::StepForward);
                app.update();
                settle(&mut app);
                assert_eq!(session(&app).game.to_string(), positions[k].to_string(), "{variant} step {k}");
                in_step(&mut app);
            }
            app.world_mut().write_message(Command::Jump(rec.moves.len()));
            app.update();
            app.update();
            assert_eq!(session(&app).game.to_string(), positions.last().unwrap().to_string());
            in_step(&mut app);
            app.world_mut().write_message(Command::Jump(7));
            app.update();
            app.update();
            assert_eq!(session(&app).game.to_string(), positions[7].to_string());
            in_step(&mut app);
            app.world_mut().write_message(Command::Undo);
            app.update();
            app.update();
            assert_eq!(session(&app).game.to_string(), positions[6].to_string(), "{variant}: one step back");
            in_step(&mut app);
            // Play on from here: a live game whose record holds the 6 moves, saved to its file.
            let path = std::env::temp_dir().join(format!("tablero-playon-{variant}-{}.json", std::process::id()));
            let play_on = tablero::table::Intent::PlayOn(Some(path.clone()));
            app.world_mut().resource_mut::<Session>().apply(play_on).unwrap();
            assert!(session(&app).replay.is_none() && session(&app).redo.is_empty());
            app.update();
            assert_eq!(mode(&app), Mode::Live, "the table leaves the replay with the session");
            let saved = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(saved.moves.len(), 6);
            assert_eq!(saved.replay().unwrap().last().unwrap().to_string(), positions[6].to_string());
            let _ = std::fs::remove_file(path);
        }
    }

    #[test]
    fn replay_plays_by_itself_at_its_pace() {
        let rec = random_record(Variant::Crossings, 8, 10);
        let mut app = tablero::gui::headless_app_with(tablero::table::Table::replay(rec.clone()).unwrap());
        app.world_mut().write_message(Command::TogglePlay);
        for _ in 0..600 {
            app.update();
        }
        assert_eq!(session(&app).history.len(), rec.moves.len());
        assert!(!session(&app).replay.unwrap().autoplay, "stops at the end");
        assert_scene_matches(&mut app);
    }

    #[test]
    fn every_move_is_saved_as_it_is_played() {
        let path = std::env::temp_dir().join(format!("tablero-autosave-{}.json", std::process::id()));
        let mut s = tablero::table::Table::new(Variant::Ordo.initial(), PEOPLE, 1);
        s.apply(tablero::table::Intent::SaveTo(path.clone())).unwrap();
        let mut app = tablero::gui::headless_app_with(s);
        let moves =
            |path: &std::path::Path| Record::from_json(&std::fs::read_to_string(path).unwrap()).unwrap().moves.len();
        assert_eq!(moves(&path), 0);
        click(&mut app, c("e3"));
        click(&mut app, c("e4"));
        assert_eq!(moves(&path), 1, "saved after the move");
        settle(&mut app);
        click(&mut app, c("a6"));
        assert_eq!(moves(&path), 1, "a selection saves nothing new");
        app.world_mut().write_message(Command::Undo);
        app.update();
        assert_eq!(moves(&path), 0, "and after an undo");
        // Resuming the saved game continues from it.
        app.world_mut().write_message(Command::Redo);
        app.update();
        settle(&mut app);
        let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let resumed = tablero::table::Table::resume(rec, Some(path.clone())).unwrap();
        assert_eq!(resumed.game.to_string(), session(&app).game.to_string());
        assert_eq!(resumed.history.len(), 1);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn pasted_text_opens_a_position_or_a_record_and_bad_text_is_refused() {
        let rec = random_record(Variant::Volterra, 2, 6);
        let s = tablero::gui::frame::session::open_text(&rec.to_json()).unwrap();
        assert!(s.replay.is_some() && s.redo.len() == 6);
        let err = tablero::gui::frame::session::open_text("ordo ..BB..BB../BB w").err().unwrap();
        assert!(err.to_string().contains("bad position"), "{err}");
        let err = tablero::gui::frame::session::open_text("{\"format\": 1").err().unwrap();
        assert!(err.to_string().contains("ends too early"), "{err}");
    }
}

mod computer {
    use super::*;
    use tablero::gui::frame::session::Command;

    /// Updates until `what` holds. A search's time, not a count of frames: the full suite keeps
    /// both cores busy, and the search runs below it.
    fn wait_for(app: &mut App, what: impl Fn(&App) -> bool) {
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(300) {
            app.update();
            if what(app) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        panic!("waited too long");
    }

    #[test]
    fn the_computer_thinks_off_the_main_thread_and_plays() {
        let mut app = table(Variant::Crossings.initial(), [PlayerKind::Ai(0), PlayerKind::Ai(0)]);
        app.insert_resource(Speed::Instant);
        wait_for(&mut app, |app| session(app).history.len() >= 4);
        settle(&mut app);
        assert_scene_matches(&mut app);
        for (before, mv) in &session(&app).history {
            assert!(before.legal_moves().contains(mv));
        }
    }

    #[test]
    fn undo_while_the_computer_thinks_drops_its_answer() {
        let mut app = table(Variant::Volterra.initial(), [PlayerKind::Person, PlayerKind::Ai(3)]);
        // A person's move, then the computer starts thinking (master takes a while).
        click(&mut app, c("b3"));
        click(&mut app, c("a4"));
        settle(&mut app);
        click(&mut app, c("b5"));
        click(&mut app, c("a5"));
        assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
        settle(&mut app);
        app.update();
        assert!(app.world().resource::<tablero::gui::frame::computer::ComputerThinking>().0, "{}", notice(&app));
        // The panel's thinking line says who thinks; the message line does not say it again.
        assert!(!notice(&app).contains("thinking"), "{}", notice(&app));
        app.world_mut().write_message(Command::Undo);
        app.update();
        assert!(session(&app).history.is_empty());
        let start = session(&app).game.to_string();
        for _ in 0..300 {
            app.update();
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        assert_eq!(session(&app).game.to_string(), start, "the stale answer was not played");
    }

    /// The nice values of this process's threads named `name` (Linux).
    fn nice_of_threads(name: &str) -> Vec<i64> {
        let mut found = Vec::new();
        for task in std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            // After the name in parentheses: state is field 3, nice field 19.
            let fields: Vec<&str> = stat.rsplit_once(')').map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
            if comm.trim() == name && fields.len() > 16 {
                found.push(fields[16].parse().unwrap_or(0));
            }
        }
        found
    }

    /// The computer's move at the table is master's with the table's threads (one fewer than the
    /// cores), as `tablero analyse --level master --threads N` finds it, and its search runs on
    /// threads of its own below the window's priority.
    #[test]
    fn the_computers_move_at_the_table_is_masters_on_the_tables_threads_below_the_windows_priority() {
        let master = tablero::ai::LEVELS.len() - 1;
        let start = Variant::Crossings.initial();
        let mut app = table(start.clone(), [PlayerKind::Ai(master), PlayerKind::Person]);
        let started = std::time::Instant::now();
        let mut nice = Vec::new();
        let mut rested = 0;
        while session(&app).history.is_empty() {
            assert!(started.elapsed() < std::time::Duration::from_secs(120), "master did not play");
            app.update();
            if nice.is_empty() {
                nice = nice_of_threads("tablero-search");
            }
            // While it searches the window needs no frame for it (the search wakes it when it
            // ends): no ticking, only the new scene's settling at first.
            if app.world().resource::<tablero::gui::frame::computer::ComputerThinking>().0 {
                let activity = *app.world().resource::<tablero::gui::pacing::Activity>();
                assert_ne!(activity, tablero::gui::pacing::Activity::Waiting);
                rested += (activity == tablero::gui::pacing::Activity::Resting) as usize;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(rested > 0, "it searched at rest for some frames");
        if cfg!(target_os = "linux") {
            assert!(!nice.is_empty(), "a thread of its own, named tablero-search");
            assert!(nice.iter().all(|n| *n >= tablero::background::LOWER_NICE as i64), "{nice:?}");
        }
        let level = tablero::ai::LEVELS[master].on(tablero::ai::table_threads());
        let expected = tablero::ai::choose(&start, level, 0).expect("a move");
        assert_eq!(session(&app).history[0].1, expected, "the move analyse finds with the table's threads");
    }

    #[test]
    fn a_hint_shows_the_computers_move_for_the_person() {
        // The hint is master's move (the search the evaluation bar uses), on every core.
        let mut app = table(Variant::Ordo.initial(), PEOPLE);
        app.world_mut().write_message(Command::Hint);
        wait_for(&mut app, |app| notice(app).starts_with("hint: "));
        let s = session(&app);
        let text = notice(&app).trim_start_matches("hint: ").to_string();
        let master = tablero::ai::LEVELS[tablero::ai::EVAL_LEVEL];
        assert_eq!(master.name, "master");
        let expected = tablero::ai::choose(&s.game, master.on(tablero::ai::table_threads()), 0x41).expect("a move");
        assert_eq!(text, expected.to_string(), "the hint is master's move");
        assert!(!picking(&app).hint.is_empty(), "the hint's squares are marked");
        assert!(s.history.is_empty(), "a hint plays nothing");
    }
}

/// The table rests when nothing happens: it asks for every frame only while pieces move (or
/// the scene was just built), for a few while the computer is to move, and none at rest.
#[test]
fn the_table_draws_only_while_something_happens() {
    use tablero::gui::pacing::Activity;
    let activity = |app: &App| *app.world().resource::<Activity>();
    let mut app = table(Variant::Ordo.initial(), [PlayerKind::Person, PlayerKind::Random]);
    assert_eq!(activity(&app), Activity::Moving, "the scene was just built");
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(activity(&app), Activity::Resting, "a person to move, nothing moving");
    click(&mut app, c("e3"));
    assert_eq!(activity(&app), Activity::Resting, "a selection only repaints");
    click(&mut app, c("e4"));
    assert_eq!(activity(&app), Activity::Moving, "the stone slides");
    settle(&mut app);
    assert_eq!(activity(&app), Activity::Waiting, "the random mover waits before it moves");
    for _ in 0..100 {
        app.update();
        if session(&app).history.len() == 2 && !moving(&mut app) {
            break;
        }
    }
    app.update();
    assert_eq!(session(&app).history.len(), 2);
    assert_eq!(activity(&app), Activity::Resting, "the person's turn again");
}

/// Heights over Volterra's towers and numbers over CTOR's squares: shown on request, and
/// shown again after the board is rebuilt (an undo takes them with the board).
#[test]
fn labels_over_the_board_come_and_stay() {
    use tablero::gui::frame::board::{Rebuild, ShowLabels};
    use tablero::gui::sets::pine::HeightLabel;
    use tablero::gui::sets::torus::SquareNumber;
    fn count<T: Component>(app: &mut App) -> usize {
        let world = app.world_mut();
        world.query_filtered::<(), With<T>>().iter(world).count()
    }
    let mut app = table(Variant::Volterra.initial(), PEOPLE);
    assert_eq!(count::<HeightLabel>(&mut app), 0, "hidden at first");
    app.insert_resource(ShowLabels(true));
    app.update();
    app.update();
    assert_eq!(count::<HeightLabel>(&mut app), 20, "one over each of the 20 towers");
    app.world_mut().write_message(Rebuild);
    app.update();
    app.update();
    assert_eq!(count::<HeightLabel>(&mut app), 20, "back after a rebuild");
    app.insert_resource(ShowLabels(false));
    app.update();
    app.update();
    assert_eq!(count::<HeightLabel>(&mut app), 0);
    let mut app = table(Variant::Ctor8.initial(), PEOPLE);
    app.insert_resource(ShowLabels(true));
    app.update();
    app.update();
    assert_eq!(count::<SquareNumber>(&mut app), 64);
    app.world_mut().write_message(Rebuild);
    app.update();
    app.update();
    assert_eq!(count::<SquareNumber>(&mut app), 64, "back after a rebuild");
}

/// Under reduced motion the animation is instant: a move is shown at once, with a brief flash
/// where it happened (where the stone left and where it now stands, where a disc was put)
/// that fades without moving and then goes; at normal speed nothing flashes.
#[test]
fn an_instant_move_flashes_where_it_happened_and_the_flash_fades() {
    use tablero::gui::frame::animate::{FLASH, Flash};
    use tablero::gui::pacing::Activity;
    let flashes = |app: &mut App| -> Vec<Vec3> {
        let world = app.world_mut();
        world.query_filtered::<&Transform, With<Flash>>().iter(world).map(|t| t.translation).collect()
    };
    for speed in [Speed::Instant, Speed::Normal] {
        let mut app = table(Variant::Ordo.initial(), PEOPLE);
        app.insert_resource(speed);
        settle(&mut app);
        click(&mut app, c("e3"));
        click(&mut app, c("e4"));
        assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
        let layout = *app.world().resource::<Layout>();
        if speed == Speed::Normal {
            let mut seen = 0;
            while moving(&mut app) {
                seen += flashes(&mut app).len();
                app.update();
            }
            assert_eq!(seen, 0, "nothing flashes while the stone slides");
            continue;
        }
        // Shown at once: the next frame has nothing moving and the stone on its square.
        app.update();
        assert!(!moving(&mut app), "an instant move does not slide");
        assert_scene_matches(&mut app);
        let at = flashes(&mut app);
        assert_eq!(at.len(), 2, "a flash where the stone left and one where it stands: {at:?}");
        for cell in ["e3", "e4"] {
            let p = cell_pos(&layout, c(cell));
            assert!(at.iter().any(|f| (f.xz() - p.xz()).length() < 1e-3), "a flash on {cell}: {at:?}");
        }
        assert_eq!(*app.world().resource::<Activity>(), Activity::Moving, "the table draws while it fades");
        // It fades in place, and is gone after FLASH seconds (frames of 50 ms).
        let alpha = |app: &mut App| {
            let world = app.world_mut();
            let handle = world
                .query_filtered::<&MeshMaterial3d<StandardMaterial>, With<Flash>>()
                .iter(world)
                .next()
                .map(|m| m.0.clone());
            handle.and_then(|h| world.resource::<Assets<StandardMaterial>>().get(&h).map(|m| m.base_color.alpha()))
        };
        let first = alpha(&mut app).unwrap();
        for _ in 0..12 {
            app.update();
        }
        assert!(alpha(&mut app).unwrap() < first - 0.1, "the flash fades");
        assert_eq!(flashes(&mut app), at, "the flash does not move");
        for _ in 0..(FLASH / 0.05) as usize + 2 {
            app.update();
        }
        assert!(flashes(&mut app).is_empty(), "the flash is gone");
        app.update();
        assert_eq!(*app.world().resource::<Activity>(), Activity::Resting);
    }
}
