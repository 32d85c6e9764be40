//! CTOR: every fixture row, the torus and its border, the allowances and opening turns,
//! cascades, Landing, secret squares, the sand-glass, team data, the two ends, bad input and
//! a seeded soak.
mod common;

use common::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::rules::ctor::{Allowance, Ctor, CtorMove, Options, SecretState, Teams};
use tablero::rules::{AnyGame, Effect, Game, Reason, Side};

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn c(s: &str) -> Ctor {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn new(n: u8, a: u8, b: u8) -> Ctor {
    Ctor::new(n, Teams::new([a, b]), Options::default())
}

/// A board from (square, side) pairs, written as a position string.
fn board(n: u8, discs: &[(u16, char)], rest: &str) -> Ctor {
    let mut cells = vec!['.'; n as usize * n as usize];
    for &(sq, ch) in discs {
        cells[sq as usize - 1] = ch;
    }
    let rows: Vec<String> = cells.chunks(n as usize).map(|r| r.iter().collect()).collect();
    c(&format!("ctor{n} {} {rest}", rows.join("/")))
}

#[test]
fn fixtures() {
    let bad = check_fixture("ctor.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn perft_from_the_empty_field() {
    let g = new(8, 1, 1);
    assert_eq!(
        g.to_string(),
        "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0"
    );
    assert_eq!((g.perft(1), g.perft(2), g.perft(3)), (65, 129, 8192));
}

#[test]
fn every_legal_move_round_trips_and_positions_print_back() {
    for row in fixture("ctor.tsv").into_iter().filter(|r| r.moves < 3000) {
        let g = parse(&row.position);
        assert_eq!(g.to_string(), row.position);
        check_round_trip(&g);
    }
    // A Landing is read with its pair in either order and printed with a < b.
    let g = board(8, &[(3, 'B'), (40, 'B'), (10, 'W')], "b 5 P2M2L1 1v1 0");
    assert_eq!(g.parse_move("L40,3>12").unwrap(), CtorMove::Landing(3, 40, 12));
    assert_eq!(g.parse_move("L40,3>12").unwrap().to_string(), "L3,40>12");
}

#[test]
fn neighbours_wrap_on_both_sizes() {
    let g = new(8, 1, 1);
    let sorted = |mut v: Vec<u16>| {
        v.sort();
        v
    };
    assert_eq!(sorted(g.neighbours(1)), [2, 8, 9, 10, 16, 57, 58, 64]);
    assert_eq!(sorted(g.neighbours(8)), [1, 7, 9, 15, 16, 57, 63, 64]);
    assert_eq!(sorted(g.neighbours(57)), [1, 2, 8, 49, 50, 56, 58, 64]);
    assert_eq!(sorted(g.neighbours(64)), [1, 7, 8, 49, 55, 56, 57, 63]);
    assert_eq!(sorted(g.neighbours(4)), [3, 5, 11, 12, 13, 59, 60, 61], "top edge wraps to the bottom row");
    assert_eq!(sorted(g.neighbours(25)), [17, 18, 24, 26, 32, 33, 34, 40], "left edge wraps to the right column");
    let g = new(10, 1, 1);
    assert_eq!(sorted(g.neighbours(1)), [2, 10, 11, 12, 20, 91, 92, 100]);
    assert_eq!(sorted(g.neighbours(100)), [1, 9, 10, 81, 89, 90, 91, 99]);
    assert_eq!(sorted(g.neighbours(95)), [4, 5, 6, 84, 85, 86, 94, 96]);
    for n in [8u8, 10] {
        let g = new(n, 1, 1);
        for sq in 1..=(n as u16 * n as u16) {
            let nb = g.neighbours(sq);
            assert_eq!(nb.len(), 8, "every square has exactly 8 neighbours");
            for other in nb {
                assert!(g.neighbours(other).contains(&sq), "neighbourhood is symmetric");
            }
        }
    }
}

#[test]
fn the_border_duplicates_the_opposite_edges() {
    for n in [8u8, 10] {
        let g = new(n, 1, 1);
        let border = g.border();
        assert_eq!(border.len(), 4 * n as usize + 4);
        let nn = n as u16 * n as u16;
        for corner in [1, n as u16, nn - n as u16 + 1, nn] {
            assert_eq!(g.duplicates(corner).len(), 3, "corner {corner}");
        }
        assert_eq!(g.duplicates(2).len(), 1);
        assert_eq!(g.duplicates(n as u16 + 1).len(), 1);
        assert!(g.duplicates(n as u16 + 2).is_empty(), "an inner square has no duplicate");
        // The top-left square (1) shows to the right (file N), below (rank -1) and at that corner.
        let mut d = g.duplicates(1);
        d.sort();
        let n = n as i8;
        assert_eq!(d, [(0, -1), (n, -1), (n, n - 1)]);
    }
    // A put on a corner changes its three duplicates.
    let mut g = new(8, 1, 1);
    let fx = g.play_text("P1").unwrap();
    let shown: Vec<_> = fx.iter().filter(|e| matches!(e, Effect::Border { side: Some(Side::First), .. })).collect();
    assert_eq!(shown.len(), 3);
}

/// The nine formats, black's team first.
const FORMATS: [[u8; 2]; 9] = [[1, 1], [2, 2], [3, 3], [1, 2], [2, 1], [1, 3], [3, 1], [2, 3], [3, 2]];

/// The seed's table: the normal turn of each row.
fn row(r: u8) -> Allowance {
    match r {
        1 => Allowance { puts: 2, steps: 2, landings: 1 },
        2 => Allowance { puts: 2, steps: 2, landings: 0 },
        _ => Allowance { puts: 3, steps: 3, landings: 0 },
    }
}

/// The seed: "if the game is played 1 against 1, 2 against 2 or 1 against 2, the team that plays
/// first puts 1 disc, the second team puts 2 discs, and then the first team may put 3 discs;
/// after this the game returns to the normal rules (the table)". Every format, 8 × 8 and
/// 10 × 10: turns 1 to 3 only Put, 1, 2 and 3 discs; from turn 4 the row of the larger team
/// ("Equipo 1 | Equipo 2 | Poner | Moverse | Aterrizaje"), without Landings when unequal.
#[test]
fn the_opening_puts_one_two_then_three_in_every_format() {
    for n in [8, 10] {
        for [a, b] in FORMATS {
            let mut g = new(n, a, b);
            let mut normal = row(a.max(b));
            if a != b {
                normal.landings = 0;
            }
            for t in 1..=6u32 {
                let expect = if t <= 3 { Allowance { puts: t as u8, steps: 0, landings: 0 } } else { normal };
                assert_eq!((g.turn(), g.left()), (t, expect), "{a}v{b} on {n} x {n}, turn {t}");
                assert_eq!(g.is_opening(t), t <= 3);
                if t <= 3 {
                    assert!(
                        g.legal_moves().iter().all(|m| matches!(m, CtorMove::Put(_) | CtorMove::End)),
                        "{a}v{b}: turn {t} only puts"
                    );
                }
                // Put everything the turn allows, then end it.
                for _ in 0..g.left().puts {
                    let sq = (1..=n as u16 * n as u16).find(|s| g.disc(*s).is_none()).unwrap();
                    g.play(&CtorMove::Put(sq)).unwrap();
                }
                if t == 3 {
                    assert_eq!(g.count(Side::First), 4, "{a}v{b}: black has put 1 then 3 discs");
                    assert_eq!(g.count(Side::Second), 2, "{a}v{b}: white has put 2");
                }
                g.play(&CtorMove::End).unwrap();
            }
        }
    }
    let landing =
        c("ctor8 ......../......../......../......../......../......../......../........ b 5 P2M2L3 2v2 0 landing=3");
    assert_eq!(landing.left().landings, 3, "the landing allowance is configurable");
}

/// The seed: "if, with a selected turn power (3), the game is played with teams of 3 against 3,
/// and a member withdraws, another player takes on their duties"; "to add a player to the team,
/// the number of players in this team must be less than the number of Put operations per turn".
/// The power is the table's row, chosen apart from the sizes; a team never has more members than
/// the row's Puts; the position writes a power other than the larger team's as `power=R`.
#[test]
fn the_turn_power_is_a_row_chosen_apart_from_the_team_sizes() {
    for [a, b] in FORMATS {
        for r in 1..=3u8 {
            let fits = a.max(b) <= row(r).puts;
            let teams = Teams::with_power([a, b], r);
            assert_eq!(teams.is_ok(), fits, "{a}v{b} under power {r}");
            let Ok(teams) = teams else { continue };
            assert_eq!(teams.row(), r);
            let mut g = Ctor::new(8, teams.clone(), Options::default());
            let text = g.to_string();
            assert_eq!(text.ends_with(&format!(" power={r}")), r != a.max(b), "{text}");
            assert_eq!(c(&text), g, "the power reads back");
            // The opening is the same under every power; the fourth turn is the row's.
            for _ in 0..3 {
                while g.left().puts > 0 {
                    let sq = (1..=64).find(|s| g.disc(*s).is_none()).unwrap();
                    g.play(&CtorMove::Put(sq)).unwrap();
                }
                g.play(&CtorMove::End).unwrap();
            }
            let mut expect = row(r);
            if a != b {
                expect.landings = 0;
            }
            assert_eq!(g.left(), expect, "{a}v{b} under power {r}");
        }
    }
    let e = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 3v1 0 power=1"
        .parse::<Ctor>()
        .unwrap_err();
    assert!(e.to_string().contains("at most as many players as Puts"), "{e}");
    let e = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0 power=4"
        .parse::<Ctor>()
        .unwrap_err();
    assert!(e.to_string().contains("power=R takes a row R of 1, 2 or 3"), "{e}");
}

/// A game begun under tablero's earlier reading of the opening (a normal third turn where the
/// row has 2 Puts) still reads: a third turn that does not fit the opening is read that way,
/// and `opening=old` carries the reading in every string up to the end of the third turn where
/// the `left` field does not say it by itself.
#[test]
fn positions_written_under_the_old_opening_still_read() {
    let old = c("ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P2M2L1 1v1 0");
    assert_eq!(old.left(), Allowance { puts: 2, steps: 2, landings: 1 });
    assert!(old.legal_moves().iter().any(|m| matches!(m, CtorMove::Move(..))), "the old third turn moves");
    assert_eq!(
        old.to_string(),
        "ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P2M2L1 1v1 0"
    );
    let mut early =
        c("ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0 opening=old");
    assert!(early.to_string().ends_with(" opening=old"));
    for _ in 0..2 {
        while early.left().puts > 0 {
            let sq = (1..=64).find(|s| early.disc(*s).is_none()).unwrap();
            early.play(&CtorMove::Put(sq)).unwrap();
        }
        early.play(&CtorMove::End).unwrap();
    }
    assert_eq!(early.left(), Allowance { puts: 2, steps: 2, landings: 1 }, "the old reading's third turn");
    // Where the row has 3 Puts both readings agree, and the string does not say it.
    let three =
        c("ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 3v3 0 opening=old");
    assert!(!three.to_string().contains("opening"));
}

/// Every position CTOR prints reads back as the same position, in its whole state: seeded
/// playouts from starts of both readings of the opening (`opening=old` included, and third turns
/// written under the old reading), team sizes and options, each legal move played from every
/// position reached. The old reading part way through its third turn (`P1M0L0` fits the new
/// opening's three Puts too) once read back under the new one.
#[test]
fn every_printed_position_reads_back_as_the_same_position() {
    let issue = "ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P1M0L1 1v1 0";
    let g = parse(issue);
    let mv = g.parse_move("L25,33>51").unwrap();
    check_reads_back_after(&g, &mv).unwrap();
    let empty8 = "......../......../......../......../......../......../......../........";
    let empty10 =
        "........../........../........../........../........../........../........../........../........../..........";
    let starts = [
        format!("ctor8 {empty8} b 1 P1M0L0 1v1 0"),
        format!("ctor8 {empty8} b 1 P1M0L0 1v1 0 opening=old"),
        format!("ctor8 {empty8} b 1 P1M0L0 1v1 0 opening=old landing-back"),
        format!("ctor8 {empty8} b 1 P1M0L0 1v2 0 opening=old"),
        format!("ctor8 {empty8} b 1 P1M0L0 3v3 0 opening=old"),
        format!("ctor10 {empty10} b 1 P1M0L0 2v2 0 opening=old landing=2"),
        format!("ctor10 {empty10} b 1 P1M0L0 2v2 0 power=3"),
        format!("ctor10 {empty10} b 1 P1M0L0 2v1 0 power=1 opening=old"),
        issue.to_string(),
        "ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P2M2L1 1v1 0".to_string(),
        "ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P0M1L0 1v1 0".to_string(),
        "ctor8 ......../......../......../BW....../B......./......../......../......W. b 3 P1M0L0 1v1 0 opening=old"
            .to_string(),
        "ctor8 ......../......../......../BW....../B......./......../......../......W. w 2 P1M0L0 1v1 0 opening=old"
            .to_string(),
    ];
    let mut checked = 0;
    for (i, start) in starts.iter().enumerate() {
        let start = parse(start);
        let again: AnyGame = start.to_string().parse().unwrap();
        assert!(same_position(&again, &start), "{start} reads back as {again:?}");
        for seed in 0..3u64 {
            let mut rng = StdRng::seed_from_u64(seed * 100 + i as u64);
            let mut game = start.clone();
            for _ in 0..70 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for mv in &moves {
                    check_reads_back_after(&game, mv).unwrap();
                    checked += 1;
                }
                // Ending the turn early now and then, so that playouts reach later turns.
                let mv = if rng.random_ratio(1, 8) {
                    game.parse_move("E").unwrap()
                } else {
                    moves[rng.random_range(0..moves.len())].clone()
                };
                game.play(&mv).unwrap();
            }
            assert!(
                game.to_string().split(' ').nth(3).unwrap().parse::<u32>().unwrap() > 3,
                "{game}: past the opening"
            );
        }
    }
    assert!(checked > 10_000, "{checked} moves checked");
}

/// The seed's only example of a Landing: "two of your discs (#27, #12) are removed from the
/// field and one disc of yours (#27) is placed on the field". With `landing-back` the disc goes
/// back on one of the two squares just emptied; by default on any empty square.
#[test]
fn landing_back_puts_the_disc_on_a_square_just_emptied() {
    let anywhere = board(8, &[(12, 'B'), (27, 'B'), (40, 'W')], "b 5 P0M0L1 1v1 0");
    let back = board(8, &[(12, 'B'), (27, 'B'), (40, 'W')], "b 5 P0M0L1 1v1 0 landing-back");
    let landings = |g: &Ctor| -> Vec<String> {
        g.legal_moves().iter().filter(|m| matches!(m, CtorMove::Landing(..))).map(|m| m.to_string()).collect()
    };
    assert_eq!(landings(&back), ["L12,27>12", "L12,27>27"]);
    assert_eq!(landings(&anywhere).len(), 63, "61 empty squares and the two just emptied");
    assert_eq!(back.count_moves(), 3);
    assert!(back.to_string().ends_with(" landing-back"));
    let e = back.parse_move("L12,27>33").unwrap_err().to_string();
    assert!(e.contains("goes back on 12 or 27"), "{e}");
}

#[test]
fn a_cascade_runs_through_the_wrap_edge() {
    // Black puts on 2; white discs on 1 and 8 (across the wrap) each end up with 5 black
    // neighbours, the second only once the first has turned.
    let g = board(
        8,
        &[(57, 'B'), (58, 'B'), (64, 'B'), (9, 'B'), (10, 'B'), (16, 'B'), (1, 'W'), (8, 'W'), (7, 'B'), (15, 'B')],
        "b 5 P2M2L1 1v1 0",
    );
    // Square 1 has B on 57 58 64 9 10 16 = 6 black neighbours already, so the position's cascade
    // is pending; apply it and check that 8 (neighbours 1 7 9 15 16 56 57 63) follows.
    let mut g2 = g.clone();
    let fx = g2.replace_cascade();
    let flips: Vec<String> = fx
        .iter()
        .filter_map(
            |e| if let Effect::Flipped { at, .. } = e { Some(g.square(*at).unwrap().to_string()) } else { None },
        )
        .collect();
    assert_eq!(flips, ["1", "8"], "1 turns, then 8 counts it at once");
    assert_eq!(g2.count(Side::Second), 0);
}

/// An independent cascade, in a random order, through the public API only.
fn reference_cascade(g: &Ctor, rng: &mut StdRng) -> Vec<Option<Side>> {
    let n = g.size() as u16;
    let me = g.side_to_move();
    let mut cells: Vec<Option<Side>> = (1..=n * n).map(|s| g.disc(s)).collect();
    loop {
        let mut order: Vec<u16> = (1..=n * n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let target = order.into_iter().find(|&sq| {
            cells[sq as usize - 1] == Some(me.other())
                && g.neighbours(sq).iter().filter(|&&x| cells[x as usize - 1] == Some(me)).count() >= 5
        });
        match target {
            Some(sq) => cells[sq as usize - 1] = Some(me),
            None => return cells,
        }
    }
}

#[test]
fn the_cascade_does_not_depend_on_order() {
    let mut rng = StdRng::seed_from_u64(99);
    for case in 0..300 {
        let n = if case % 2 == 0 { 8u8 } else { 10 };
        let density = rng.random_range(0.3..0.95);
        let mut discs: Vec<(u16, char)> = Vec::new();
        for s in 1..=n as u16 * n as u16 {
            if rng.random_bool(density) {
                discs.push((s, if rng.random_bool(0.55) { 'B' } else { 'W' }));
            }
        }
        let g = board(n, &discs, "b 5 P0M0L0 1v1 0");
        let expected = reference_cascade(&g, &mut rng);
        let mut ours = g.clone();
        ours.replace_cascade();
        let got: Vec<Option<Side>> = (1..=n as u16 * n as u16).map(|s| ours.disc(s)).collect();
        assert_eq!(got, expected, "case {case}: {g}");
    }
}

#[test]
fn landing_may_drop_on_a_vacated_square() {
    let mut g = board(8, &[(20, 'B'), (30, 'B'), (50, 'W')], "b 5 P2M2L1 1v1 0");
    let fx = g.play_text("L20,30>20").unwrap();
    assert_eq!(fx.iter().filter(|e| matches!(e, Effect::Removed { .. })).count(), 2);
    assert_eq!(g.disc(20), Some(Side::First));
    assert_eq!(g.disc(30), None);
    assert_eq!(g.left().landings, 0);
    assert!(g.parse_move("L20,50>1").is_err());
}

#[test]
fn move_steps_one_disc_twice_or_two_discs_once() {
    let g = board(8, &[(20, 'B'), (30, 'B'), (50, 'W')], "b 5 P2M2L1 1v1 0");
    let mut a = g.clone();
    a.play_text("M20-21").unwrap();
    a.play_text("M21-22").unwrap();
    assert_eq!(a.left().steps, 0);
    assert!(a.parse_move("M22-23").unwrap_err().to_string().contains("no Move step left"));
    let mut b = g.clone();
    b.play_text("M20-12").unwrap();
    b.play_text("M30-38").unwrap();
    assert_eq!((b.disc(12), b.disc(38)), (Some(Side::First), Some(Side::First)));
    // Across the wrap: 57 (bottom left) to 1 (top left) and 64 to 57.
    let mut w = board(8, &[(57, 'B'), (64, 'B')], "b 5 P2M2L1 1v1 0");
    w.play_text("M57-1").unwrap();
    w.play_text("M64-57").unwrap();
    assert_eq!((w.disc(1), w.disc(57), w.disc(64)), (Some(Side::First), Some(Side::First), None));
    assert!(g.parse_move("M20-29").unwrap_err().to_string().contains("not orthogonally next"));
}

#[test]
fn secret_squares_work_on_put_and_landing_once_and_stay_hidden() {
    let mut g = board(8, &[(20, 'B'), (30, 'B'), (40, 'W')], "b 5 P2M2L1 1v1 0");
    g.set_secrets(Side::Second, &[11, 12, 13, 21, 41]).unwrap();
    g.set_secrets(Side::First, &[60, 61, 62, 63, 64]).unwrap();
    // Black's view does not show white's secrets; white's own view does.
    assert!(g.view(Side::First).secrets(Side::Second).is_empty());
    assert_eq!(g.view(Side::Second).secrets(Side::Second).len(), 5);
    assert!(g.view(Side::Second).secrets(Side::First).is_empty());
    // Black puts on 11 (white's secret), moves 20 -> 21 (a secret, but by Move), lands on 41.
    g.play_text("P11").unwrap();
    g.play_text("M20-21").unwrap();
    g.play_text("L30,21>41").unwrap();
    assert_eq!(g.disc(11), Some(Side::First), "nothing shows until white's turn starts");
    assert_eq!(g.secrets(Side::Second).iter().filter(|s| s.1 == SecretState::Pending).count(), 2);
    assert!(g.view(Side::First).secrets(Side::Second).is_empty(), "still hidden from black");
    let fx = g.play_text("E").unwrap();
    assert_eq!(g.disc(11), Some(Side::Second), "Put on a secret square turned");
    assert_eq!(g.disc(41), Some(Side::Second), "Landing on a secret square turned");
    let revealed: Vec<_> = fx.iter().filter(|e| matches!(e, Effect::SecretRevealed { .. })).collect();
    assert_eq!(revealed.len(), 2);
    let seen: Vec<u16> = g.view(Side::First).secrets(Side::Second).iter().map(|s| s.0).collect();
    assert_eq!(seen, [11, 41], "revealed squares are known to both");
    // Once only, by Put and by Landing: a square that has worked is an ordinary square after.
    for second in ["P1", "L20,30>1"] {
        let mut h = board(8, &[(5, 'W'), (20, 'B'), (30, 'B')], "b 5 P2M2L1 1v1 0");
        h.set_secrets(Side::Second, &[1, 2, 3, 4, 6]).unwrap();
        h.play_text("P1").unwrap();
        h.play_text("E").unwrap();
        assert_eq!(h.disc(1), Some(Side::Second), "the first Put on 1 turned");
        h.play_text("M1-9").unwrap();
        h.play_text("E").unwrap();
        assert_eq!(h.disc(1), None);
        h.play_text(second).unwrap_or_else(|e| panic!("{second}: {e}"));
        h.play_text("E").unwrap();
        assert_eq!(h.disc(1), Some(Side::First), "{second}: a secret square works once");
    }
    // The same Landing on a square that has not worked turns.
    let mut h = board(8, &[(5, 'W'), (20, 'B'), (30, 'B')], "b 5 P2M2L1 1v1 0");
    h.set_secrets(Side::Second, &[1, 2, 3, 4, 6]).unwrap();
    h.play_text("L20,30>1").unwrap();
    h.play_text("E").unwrap();
    assert_eq!(h.disc(1), Some(Side::Second), "a Landing on a secret square turns");
    // Bad secret choices.
    let mut e = new(8, 1, 1);
    assert!(e.set_secrets(Side::First, &[1, 2, 3, 4, 65]).unwrap_err().to_string().contains("65 is not on the field"));
    assert!(e.set_secrets(Side::First, &[1, 2, 3, 4, 4]).unwrap_err().to_string().contains("chosen twice"));
    assert!(e.set_secrets(Side::First, &[0, 2, 3, 4, 5]).unwrap_err().to_string().contains("0 is not on the field"));
    assert!(e.set_secrets(Side::First, &[1, 2]).unwrap_err().to_string().contains("chooses 5"));
}

#[test]
fn the_sand_glass_ends_the_turn_and_is_recorded() {
    let mut g = Ctor::new(8, Teams::default(), Options { timer: Some(10), ..Options::default() });
    g.play_text("P1").unwrap();
    let before = g.turn();
    g.play_text("T").unwrap();
    assert_eq!(g.turn(), before + 1);
    assert_eq!(g.side_to_move(), Side::Second);
    assert_eq!(g.timeouts(), [1]);
    let mut plain = new(8, 1, 1);
    assert!(plain.play_text("T").unwrap_err().to_string().contains("no sand-glass"));
}

#[test]
fn team_puts_are_shared_and_blind_collisions_choose_again() {
    let teams = Teams { members: [vec!["ana".into(), "bo".into(), "cy".into()], vec![]], ..Teams::new([3, 3]) };
    let mut g = Ctor::new(10, teams, Options::default());
    for op in ["P1", "E", "P2", "P3", "E"] {
        g.play_text(op).unwrap();
    }
    // Turn 3 of a 3v3 game: black puts 3 discs, one per member in turn.
    assert_eq!(g.left().puts, 3);
    assert_eq!(g.put_member(), 0);
    g.play_text("P5").unwrap();
    assert_eq!(g.put_member(), 1);
    let blind = g.resolve_blind_put(&[(1, 7), (2, 7), (0, 5)]);
    assert_eq!(blind.accepted, [(1, 7)]);
    assert_eq!(blind.choose_again, [2, 0], "the later member on 7, and the member on the taken 5");
}

#[test]
fn the_game_ends_on_a_full_field_or_two_idle_turns() {
    // One empty square left: black's Put fills the field.
    let mut discs: Vec<(u16, char)> = (1..=63).map(|s| (s, if s % 3 == 0 { 'W' } else { 'B' })).collect();
    discs.retain(|d| d.0 != 30);
    discs.push((64, 'W'));
    let mut g = board(8, &discs, "b 41 P2M2L1 1v1 0");
    g.play_text("P30").unwrap();
    let out = g.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (Some(Side::First), Reason::FullField));
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.count_moves(), 0);
    // Two turns in a row with no operation end the game as it stands.
    let mut g = board(8, &[(1, 'W'), (2, 'W'), (3, 'B')], "b 5 P2M2L1 1v1 0");
    g.play_text("E").unwrap();
    assert!(g.outcome().is_none());
    g.play_text("E").unwrap();
    let out = g.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (Some(Side::Second), Reason::IdleTurns));
    assert!(g.to_string().ends_with(" 2"), "{g}");
    assert!(g.legal_moves().is_empty());
}

#[test]
fn bad_positions_are_refused_with_the_reason() {
    let empty8 = "......../......../......../......../......../......../......../........";
    let cases = [
        (format!("ctor8 {empty8}/........ b 1 P1M0L0 1v1 0"), "the board has 9 ranks, expected 8"),
        (format!("ctor10 {empty8} b 1 P1M0L0 1v1 0"), "the board has 8 ranks, expected 10"),
        (
            format!("ctor8 {} b 1 P1M0L0 1v1 0", empty8.replacen("........", ".........", 1)),
            "rank 1 from the top has 9 squares",
        ),
        (format!("ctor8 {} b 1 P1M0L0 1v1 0", empty8.replacen("........", "...X....", 1)), "unknown character 'X'"),
        (format!("ctor8 {empty8} b 1 P2M0L0 1v1 0"), "left field P2M0L0 is above the turn's allowance P1M0L0"),
        (format!("ctor8 {empty8} b 5 P2M3L1 1v1 0"), "above the turn's allowance P2M2L1"),
        (format!("ctor8 {empty8} b 5 P2M2L1 1v2 0"), "above the turn's allowance P2M2L0"),
        (format!("ctor8 {empty8} b 5 P2M2 1v1 0"), "left field is 'P2M2'"),
        (format!("ctor8 {empty8} b 5 P2M2L1 4v4 0"), "teams field is '4v4'"),
        (format!("ctor8 {empty8} b 5 P2M2L1 0v1 0"), "teams field is '0v1'"),
        (format!("ctor8 {empty8} b 5 P2M2L1 two 0"), "teams field is 'two'"),
        (format!("ctor8 {empty8} b 0 P2M2L1 1v1 0"), "turn field is '0'"),
        (format!("ctor8 {empty8} b -3 P2M2L1 1v1 0"), "turn field is '-3'"),
        (format!("ctor8 {empty8} w 5 P2M2L1 1v1 0"), "turn 5 is black's"),
        (format!("ctor8 {empty8} x 5 P2M2L1 1v1 0"), "side field is 'x'"),
        (format!("ctor8 {empty8} b 5 P2M2L1 1v1 7"), "idle field is '7'"),
        (format!("ctor8 {empty8} b 1 P1M0L0 1v1 1"), "idle field is 1 on turn 1"),
        (format!("ctor8 {empty8} b 5 P2M2L1 1v1"), "missing the idle field"),
        (format!("ctor8 {empty8} b 5 P2M2L1 1v1 0 fast"), "unknown option 'fast'"),
    ];
    for (text, needle) in cases {
        let err = text.parse::<AnyGame>().unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn soak() {
    let mut rng = StdRng::seed_from_u64(23);
    let mut endings = std::collections::HashMap::new();
    for game in 0..300 {
        let n = if game % 3 == 0 { 10u8 } else { 8 };
        let sizes = [[1, 1], [2, 2], [3, 3], [1, 2], [2, 3]][game % 5];
        let mut g = Ctor::new(n, Teams::new(sizes), Options::default());
        if game % 2 == 0 {
            let nn = n as u16 * n as u16;
            let pick = |rng: &mut StdRng| {
                let mut v: Vec<u16> = Vec::new();
                while v.len() < 5 {
                    let s = rng.random_range(1..=nn);
                    if !v.contains(&s) {
                        v.push(s);
                    }
                }
                v
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            g.set_secrets(Side::First, &a).unwrap();
            g.set_secrets(Side::Second, &b).unwrap();
        }
        let nn = n as usize * n as usize;
        let mut ops = 0;
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            // End turns rarely, so fields fill.
            let mv = if moves.len() > 1 && rng.random_bool(0.9) {
                moves[rng.random_range(0..moves.len() - 1)]
            } else {
                CtorMove::End
            };
            let mut cells: Vec<Option<Side>> = (1..=nn as u16).map(|s| g.disc(s)).collect();
            let fx = g.play(&mv).unwrap();
            // Replay the effects on the copy: each cascade flip needs 5 neighbours of its colour.
            for (i, e) in fx.iter().enumerate() {
                let sq = |at| g.square(at).unwrap() as usize;
                match e {
                    Effect::Placed { at, side } => cells[sq(*at) - 1] = Some(*side),
                    Effect::Removed { at } => cells[sq(*at) - 1] = None,
                    Effect::Moved { from, to } => {
                        cells[sq(*to) - 1] = cells[sq(*from) - 1].take();
                    }
                    Effect::Flipped { at, to } => {
                        let s = sq(*at);
                        let secret = matches!(fx.get(i + 1), Some(Effect::SecretRevealed { at: r, .. }) if r == at);
                        if !secret {
                            let hits =
                                g.neighbours(s as u16).iter().filter(|&&x| cells[x as usize - 1] == Some(*to)).count();
                            assert!(hits >= 5, "a flip with {hits} neighbours: {mv}");
                        }
                        assert_eq!(cells[s - 1], Some(to.other()));
                        cells[s - 1] = Some(*to);
                    }
                    _ => {}
                }
            }
            let now: Vec<Option<Side>> = (1..=nn as u16).map(|s| g.disc(s)).collect();
            assert_eq!(now, cells, "the effects describe the change exactly: {mv}");
            assert!(g.count(Side::First) + g.count(Side::Second) <= nn as u32);
            ops += 1;
            assert!(ops < 20_000);
        }
        *endings.entry(format!("{:?}", g.outcome().unwrap().reason)).or_insert(0) += 1;
    }
    eprintln!("ctor endings: {endings:?}");
    // The turn limit (turn 4294967295) has a test of its own.
    for want in ["FullField", "IdleTurns"] {
        assert!(endings.contains_key(want), "no random game ended by {want}: {endings:?}");
    }
}
