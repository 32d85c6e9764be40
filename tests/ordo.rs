//! Ordo Classic and Ordo X: the check figure, every fixture row, notation round-trips,
//! hand-built positions for each rule, and a seeded random-playout soak.
mod common;

use common::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::rules::ordo::{Ordo, OrdoMove, Rules, cut_points, is_connected};
use tablero::rules::{AnyGame, Effect, Game, MoveError, Reason, Side};

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn ordo(s: &str) -> Ordo {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn texts(g: &Ordo) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn check_figure_56_moves_from_the_start() {
    let start = Ordo::initial(Rules::Classic);
    let moves = start.legal_moves();
    assert_eq!(moves.len(), 56);
    let ordos: Vec<String> = moves.iter().filter(|m| m.first.is_ordo()).map(|m| m.to_string()).collect();
    assert_eq!(ordos, ["c2:d2-c3", "c2:d2-c4", "g2:h2-g3", "g2:h2-g4"]);
    assert_eq!(start.perft(2), 3136);
    assert_eq!(Ordo::initial(Rules::X).legal_moves().len(), 2062);
}

#[test]
fn classic_fixtures() {
    let bad = check_fixture("ordo_classic.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn x_fixtures() {
    let bad = check_fixture("ordo_x.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_legal_move_round_trips_and_positions_print_back() {
    for name in ["ordo_classic.tsv", "ordo_x.tsv"] {
        for row in fixture(name) {
            let g = parse(&row.position);
            assert_eq!(g.to_string(), row.position);
            check_round_trip(&g);
        }
    }
}

#[test]
fn notation_examples_parse() {
    // Blue's vertical ordo a7-a8 moves sideways two squares: `a7:a8-c7`.
    let g = ordo("ordo B........./B........./........../........../........../........../W........./W......... b");
    assert!(texts(&g).contains(&"a7:a8-c7".to_string()), "{:?}", texts(&g));
    // Ordo X: a horizontal ordo d4-e4 moves one square east in single file: `d4:e4-e4`,
    // and sideways moves are completed by a forward move.
    let g = ordo("ordo-x ........../....B...../........../........../...WW...../........../........../.......... w");
    let t = texts(&g);
    assert!(t.iter().any(|m| m.starts_with("d4:e4-e4,")), "{t:?}");
    assert!(t.iter().all(|m| !m.starts_with("d4:e4-e4") || m.contains(',')));
    assert!(t.contains(&"d4:e4-d5".to_string()));
    assert!(t.contains(&"d4:e4-e5".to_string()), "diagonally forward: {t:?}");
}

#[test]
fn classic_connection_rule() {
    // The white pair d4 e4 with one piece on c3: no move may leave a piece alone.
    let g = ordo("ordo ........B./........../........../........../...WW...../..W......./........../.......... w");
    for mv in g.legal_moves() {
        let mut next = g.clone();
        next.play(&mv).unwrap();
        assert!(is_connected(next.pieces(Side::First)), "{mv} splits white");
    }
    let err = g.parse_move("e4-e6").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }) && err.to_string().contains("split"), "{err}");
}

#[test]
fn classic_reconnection_allows_backward_moves_only_when_disconnected() {
    // White is split: d5 alone, b3 c3 together. Every legal move must reconnect, and backward
    // moves are allowed (d5-d4 reconnects by stepping back).
    let g = ordo("ordo ........B./........../........../...W....../........../.WW......./........../.......... w");
    assert!(g.is_disconnected());
    let moves = texts(&g);
    assert!(moves.contains(&"d5-d4".to_string()), "{moves:?}");
    for mv in g.legal_moves() {
        let mut next = g.clone();
        next.play(&mv).unwrap();
        assert!(is_connected(next.pieces(Side::First)), "{mv} does not reconnect");
    }
    // Connected, the same backward step is refused.
    let g = ordo("ordo ........B./........../........../...W....../..W......./.WW......./........../.......... w");
    assert!(!g.is_disconnected());
    let err = g.parse_move("d5-d4").unwrap_err().to_string();
    assert!(err.contains("backward"), "{err}");
}

#[test]
fn classic_capture_disconnects_and_no_reconnection_loses() {
    // White a2 captures blue on b3? Blue: a4 and c4 joined only through b3.
    let g = ordo("ordo ........../........../........../........../B.B......./.B......../W........./.......... w");
    let mut next = g.clone();
    let fx = next.play_text("a2xb3").unwrap();
    assert_eq!(fx[0], Effect::Captured { at: "b3".parse().unwrap() });
    assert!(next.is_disconnected(), "blue is split into a4 and c4");
    // Blue may move backward to reconnect: a4-b4 sideways reconnects? a4-b4 touches c4.
    let moves = texts(&next);
    assert!(!moves.is_empty());
    assert!(moves.contains(&"a4-b4".to_string()) || moves.contains(&"c4-b4".to_string()), "{moves:?}");
    // Three lone blue pieces far apart: one move cannot join them, so blue loses.
    let g = ordo("ordo B...B....B/........../........../........../........../..WW....../........../.......... b");
    let out = g.outcome().expect("blue cannot reconnect");
    assert_eq!(out.winner, Some(Side::First));
    assert_eq!(out.reason, Reason::NoReconnection);
    assert!(g.legal_moves().is_empty());
}

#[test]
fn home_row_and_all_captured_win() {
    let mut g = ordo("ordo ...B....../...W....../........../........../........../........../........../.......... w");
    // d7 captures on d8, which is also Blue's last piece and Blue's home row.
    g.play_text("d7xd8").unwrap();
    let out = g.outcome().unwrap();
    assert_eq!(out.winner, Some(Side::First));
    assert_eq!(out.reason, Reason::HomeRow);
    let mut g = ordo("ordo ........../........../........../........../........../B........./W........./.......... w");
    g.play_text("a2xa3").unwrap();
    assert_eq!(g.outcome().unwrap().reason, Reason::AllCaptured);
    assert!(g.legal_moves().is_empty());
}

#[test]
fn ordos_never_capture_and_need_empty_paths() {
    // White ordo c3-d3 faces a blue piece on d5: it may go to c4 d4 but not through d5.
    let g = ordo("ordo ........../........../........../...B....../........../..WW....../........../.......... w");
    let t = texts(&g);
    assert!(t.contains(&"c3:d3-c4".to_string()));
    assert!(!t.iter().any(|m| m.starts_with("c3:d3-c5")), "{t:?}");
    assert!(t.iter().all(|m| !(m.contains(':') && m.contains('x'))));
}

#[test]
fn x_tie_choice_gives_one_move_per_largest_group() {
    // White e4 captures e5; blue is left as two groups of two (c5 d6 ... ) that tie.
    let g = ordo("ordo-x ........../........../...B.B..../...BBB..../...WW...../....W...../........../.......... w");
    let captures: Vec<String> = texts(&g).into_iter().filter(|m| m.starts_with("e4xe5")).collect();
    assert_eq!(captures, ["e4xe5^d5", "e4xe5^f5"], "{captures:?}");
    // The suffix may name any square of the staying group; the move prints canonically.
    let mv = g.parse_move("e4xe5^d6").unwrap();
    assert_eq!(mv.to_string(), "e4xe5^d5");
    let mut after = g.clone();
    let fx = after.play(&mv).unwrap();
    let removed: Vec<String> =
        fx.iter().filter_map(|e| if let Effect::Removed { at } = e { Some(at.to_string()) } else { None }).collect();
    assert_eq!(removed, ["f5", "f6"]);
    assert_eq!(after.pieces(Side::Second).count_ones(), 2);
    // Without the suffix the move is refused with a hint.
    let err = g.parse_move("e4xe5").unwrap_err().to_string();
    assert!(err.contains('^'), "{err}");
}

#[test]
fn x_smaller_groups_are_removed_and_no_one_is_ever_disconnected() {
    let g = ordo("ordo-x ........../........../...B.BB.../...BBBB.../...WW...../....W...../........../.......... w");
    let mut after = g.clone();
    let fx = after.play_text("e4xe5").unwrap();
    assert!(fx.contains(&Effect::Removed { at: "d5".parse().unwrap() }));
    assert!(fx.contains(&Effect::Removed { at: "d6".parse().unwrap() }));
    assert_eq!(after.pieces(Side::Second).count_ones(), 4);
    assert!(is_connected(after.pieces(Side::Second)));
}

#[test]
fn x_sideways_must_be_followed_by_forward() {
    let g = ordo("ordo-x ........../......B.../........../........../........../....W...../........../.......... w");
    let t = texts(&g);
    // A lone piece: forward (3 directions) or sideways then forward.
    assert!(t.contains(&"e3-e5".to_string()));
    assert!(t.contains(&"e3-a3,a3-a4".to_string()));
    assert!(t.iter().all(|m| {
        let parts: Vec<&str> = m.split(',').collect();
        parts.len() == 1 || (parts[0].ends_with('3') && !parts[1].ends_with('3'))
    }));
    let err = g.parse_move("e3-a3").unwrap_err().to_string();
    assert!(err.contains("followed"), "{err}");
    // A sideways capture of the last enemy piece is a whole turn.
    let g = ordo("ordo-x ........../........../........../........../........../....WB..../....W...../.......... w");
    let mut g2 = g.clone();
    let mv = g.parse_move("e3xf3").unwrap();
    assert!(mv.then.is_none());
    g2.play(&mv).unwrap();
    assert_eq!(g2.outcome().unwrap().reason, Reason::AllCaptured);
}

#[test]
fn illegal_moves_change_nothing() {
    let mut g = Ordo::initial(Rules::Classic);
    let before = g.clone();
    for bad in ["a1-a2", "e3-e5", "a2-a5", "c2:d2-c6", "b7-b6", "z9-a1", "a3", ""] {
        assert!(g.play_text(bad).is_err(), "{bad}");
        assert_eq!(g, before);
    }
}

/// Plays seeded random games and checks the rules' invariants after every move.
fn soak(rules: Rules, games: u32, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut reasons = std::collections::HashMap::new();
    for _ in 0..games {
        let mut g = Ordo::initial(rules);
        let mut plies = 0;
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            let mv: OrdoMove = moves[rng.random_range(0..moves.len())];
            let mover = g.side_to_move();
            let (own, opp) = (g.pieces(mover).count_ones(), g.pieces(mover.other()).count_ones());
            let fx = g.play(&mv).unwrap();
            assert!(is_connected(g.pieces(mover)), "{mv} left the mover split: {g}");
            assert_eq!(g.pieces(mover).count_ones(), own, "the mover never gains or loses pieces");
            let captured = fx.iter().filter(|e| matches!(e, Effect::Captured { .. })).count() as u32;
            let removed = fx.iter().filter(|e| matches!(e, Effect::Removed { .. })).count() as u32;
            assert_eq!(g.pieces(mover.other()).count_ones(), opp - captured - removed);
            for step in mv.steps() {
                assert!(!(step.capture && step.is_ordo()), "an ordo captured: {mv}");
            }
            if rules == Rules::X {
                assert!(removed == 0 || captured > 0);
                assert!(is_connected(g.pieces(mover.other())), "Ordo X never leaves a side split");
            } else {
                assert_eq!(removed, 0);
            }
            plies += 1;
            assert!(plies < 3000, "a game that does not end: {g}");
        }
        let out = g.outcome().unwrap();
        assert!(out.winner.is_some());
        *reasons.entry(format!("{:?}", out.reason)).or_insert(0) += 1;
    }
    eprintln!("{rules:?}: {games} games, endings {reasons:?}");
    // Ordo X's random games all end on the home row; its other endings have tests of their own.
    let wanted: &[&str] =
        if rules == Rules::Classic { &["HomeRow", "NoReconnection", "AllCaptured"] } else { &["HomeRow"] };
    for want in wanted {
        assert!(reasons.contains_key(*want), "{rules:?}: no random game ended by {want}: {reasons:?}");
    }
}

#[test]
fn soak_classic() {
    soak(Rules::Classic, 3000, 7);
}

#[test]
fn soak_x() {
    soak(Rules::X, 1000, 11);
}

#[test]
fn the_game_is_over_exactly_when_no_move_is_left() {
    // `outcome` stops at the first legal move it finds; it must agree with the full count,
    // in every fixture position and after every move of seeded games (blocked ends included).
    let mut positions: Vec<AnyGame> = ["ordo_classic.tsv", "ordo_x.tsv"]
        .iter()
        .flat_map(|f| fixture(f))
        .map(|r| r.position.parse().unwrap())
        .collect();
    let mut rng = StdRng::seed_from_u64(11);
    for start in [tablero::rules::Variant::Ordo.initial(), tablero::rules::Variant::OrdoX.initial()] {
        for _ in 0..60 {
            let mut g = start.clone();
            while let Some(mv) = g.random_move(&mut rng) {
                g.play_unchecked(&mv);
                positions.push(g.clone());
            }
        }
    }
    let mut ends = 0;
    for g in &positions {
        let moves = g.count_moves();
        assert_eq!(g.outcome().is_some(), moves == 0, "{g}");
        ends += g.outcome().is_some() as usize;
    }
    assert!(ends >= 100, "only {ends} finished positions");
}

#[test]
fn wins_at_once_agrees_with_trying_every_turn() {
    // The cheap test for a turn that wins at once (the goal row reached or the last piece
    // taken) must say exactly what playing every legal turn says, in both rule sets, late
    // positions (runners, small groups) included.
    let (mut checked, mut winning) = (0, 0);
    along_random_games(17, 40, |g| {
        let AnyGame::Ordo(o) = g else { unreachable!() };
        let me = g.side_to_move();
        let brute = g.legal_moves().iter().any(|m| {
            let mut next = g.clone();
            next.play_unchecked(m);
            let AnyGame::Ordo(n) = &next else { unreachable!() };
            n.finished().is_some_and(|out| out.winner == Some(me))
        });
        assert_eq!(o.wins_at_once(), brute, "{g}");
        checked += 1;
        winning += brute as usize;
    });
    assert!(winning >= 60 && checked >= 2000, "{winning} winning of {checked}");
}

#[test]
fn a_runner_is_every_piece_with_a_free_line_to_the_goal_row() {
    // The bitboard test for a free line to the goal row must agree with walking each piece's
    // three forward lines square by square, for both sides, in both rule sets; and in Classic a
    // turn that wins at once by the goal row always has such a piece.
    let (mut checked, mut runners) = (0, 0);
    along_random_games(23, 30, |g| {
        let AnyGame::Ordo(o) = g else { unreachable!() };
        for side in [Side::First, Side::Second] {
            let f: i32 = if side == Side::First { 1 } else { -1 };
            let goal = if side == Side::First { 7 } else { 0 };
            let walked = (0..8).flat_map(|r| (0..10).map(move |c| (c, r))).any(|(c, r)| {
                o.piece_at(tablero::rules::Cell::new(c as u8, r as u8)) == Some(side)
                    && [-1, 0, 1].iter().any(|&dx| {
                        let (mut x, mut y) = (c + dx, r + f);
                        while (0..10).contains(&x) && (0..8).contains(&y) {
                            match o.piece_at(tablero::rules::Cell::new(x as u8, y as u8)) {
                                None if y == goal => return true,
                                None => {}
                                Some(s) => return s != side && y == goal,
                            }
                            x += dx;
                            y += f;
                        }
                        false
                    })
            });
            assert_eq!(o.has_runner(side), walked, "{side:?} in {g}");
            checked += 1;
            runners += walked as usize;
        }
        // (In Ordo X a sideways step may open the line first.)
        if o.rules() == Rules::Classic && o.wins_at_once() && o.pieces(g.side_to_move().other()).count_ones() > 1 {
            assert!(o.has_runner(g.side_to_move()), "{g}");
        }
    });
    assert!(runners >= 100 && checked >= 2000, "{runners} runners of {checked}");
}

/// Every position before a move of `games` random games of each rule set (Classic first),
/// the moves drawn by one generator seeded with `seed`.
fn along_random_games(seed: u64, games: usize, mut f: impl FnMut(&AnyGame)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for start in [tablero::rules::Variant::Ordo.initial(), tablero::rules::Variant::OrdoX.initial()] {
        for _ in 0..games {
            let mut g = start.clone();
            while let Some(mv) = g.random_move(&mut rng) {
                f(&g);
                g.play_unchecked(&mv);
            }
        }
    }
}

#[test]
fn the_searchs_successors_agree_with_listing_and_playing_every_turn() {
    // `successors` plays Ordo X's sideways step once for all the turns that begin with it and
    // describes nothing; listing and playing each turn must give the same turns and
    // positions, in order, in both rule sets, captures that split a group included.
    let (mut positions, mut splits) = (0, 0);
    along_random_games(23, 12, |g| {
        for (_, _, effects) in check_successors(g) {
            splits += effects.iter().any(|e| matches!(e, Effect::Removed { .. })) as usize;
        }
        positions += 1;
    });
    assert!(positions > 500 && splits > 20, "{positions} positions, {splits} splitting turns");
}

#[test]
fn the_capture_threat_is_the_most_a_capturing_turn_takes_for_either_side() {
    // Ordo X's capture_threat lists no turns. It counts the opponent's pieces taken (cut-off
    // sub-groups included) by every turn that is one forward step or begins with a sideways
    // capture (tie choices included), and some that begin with a sideways step joining a
    // forward capture to the group: never less than the first, never more than any turn
    // takes. Classic has none (cut-off pieces reconnect).
    // The same holds for the side that has just moved, as if the side to move passed (what
    // a search asks of a turn: what it threatens).
    let (mut checked, mut splits, mut joined, mut passed) = (0, 0, 0, 0);
    along_random_games(29, 24, |g| {
        let AnyGame::Ordo(to_move) = g else { unreachable!("an Ordo game") };
        let other = to_move.passed();
        assert_eq!(other.side_to_move(), to_move.side_to_move().other(), "{g}");
        assert_eq!(other.passed(), *to_move, "{g}");
        for o in [to_move, &other] {
            if o.rules() == Rules::Classic {
                assert_eq!(o.capture_threat(), 0, "{g}");
                continue;
            }
            if o.finished().is_some() {
                continue;
            }
            let theirs = |p: &Ordo| p.pieces(o.side_to_move().other()).count_ones();
            let (mut plain, mut any) = (0, 0);
            for mv in o.legal_moves() {
                let mut next = o.clone();
                next.play_unchecked(&mv);
                let taken = theirs(o) - theirs(&next);
                any = any.max(taken);
                if mv.then.is_none() || mv.first.capture {
                    plain = plain.max(taken);
                }
            }
            let threat = o.capture_threat();
            assert!(plain <= threat && threat <= any, "{o}: {threat} taken, {plain} to {any} expected");
            checked += 1;
            splits += (plain > 1) as usize;
            joined += (threat > plain) as usize;
            passed += usize::from(std::ptr::eq(o, &other) && threat > 0);
        }
    });
    assert!(
        checked > 600 && splits > 20 && joined > 0 && passed > 50,
        "{checked} positions, {splits} with a capture taking more than one piece, {joined} joined by a sideways step, \
         {passed} threats of the side that moved"
    );
}

/// Where a side's group can be split: the pieces the other side can take with one slide and
/// whose loss cuts the group (what master's evaluation weighs in Ordo Classic).
#[test]
fn exposed_cuts_agree_with_taking_each_piece_in_turn() {
    // The quick count (whole-bitboard lines, a local test before the whole group's) must say
    // what taking each piece the opponent could slide onto and looking at the group says.
    let mut checked = 0;
    let mut cuts = 0;
    along_random_games(31, 30, |g| {
        let AnyGame::Ordo(o) = g else { unreachable!() };
        if o.rules() != Rules::Classic {
            return;
        }
        for side in [Side::First, Side::Second] {
            let own = o.pieces(side);
            let f: i32 = if side == Side::First { -1 } else { 1 }; // the other side's forward
            let brute = if own.count_ones() < 3 || !is_connected(own) {
                0
            } else {
                let mut targets = std::collections::BTreeSet::new();
                for sq in 0..80u32 {
                    if o.pieces(side.other()) & (1u128 << sq) == 0 {
                        continue;
                    }
                    for (dx, dy) in [(0, f), (-1, f), (1, f), (-1, 0), (1, 0)] {
                        let (mut x, mut y) = ((sq % 10) as i32 + dx, (sq / 10) as i32 + dy);
                        while (0..10).contains(&x) && (0..8).contains(&y) {
                            let at = (y * 10 + x) as u32;
                            if own & (1u128 << at) != 0 {
                                targets.insert(at);
                                break;
                            }
                            if o.pieces(side.other()) & (1u128 << at) != 0 {
                                break;
                            }
                            x += dx;
                            y += dy;
                        }
                    }
                }
                targets.into_iter().filter(|&t| !is_connected(own & !(1u128 << t))).count() as u32
            };
            assert_eq!(o.exposed_cuts(side), brute, "{side:?} in {g}");
            // The cut points of the whole group (what a search keeps while the other side
            // moves): every piece whose loss leaves the rest in more than one group.
            let points: u128 = if own.count_ones() < 3 || !is_connected(own) {
                0
            } else {
                (0..80)
                    .filter(|&sq| own & (1u128 << sq) != 0 && !is_connected(own & !(1u128 << sq)))
                    .map(|sq| 1u128 << sq)
                    .sum()
            };
            assert_eq!(cut_points(own), points, "{side:?} in {g}");
            assert_eq!((o.exposed(side) & points).count_ones(), brute, "{side:?} in {g}");
            checked += 1;
            cuts += (brute > 0) as usize;
        }
    });
    assert!(checked >= 1000 && cuts >= 100, "{cuts} of {checked}");
}

#[test]
fn exposed_cuts_are_the_pieces_whose_capture_splits_the_group() {
    let at = |rows: [&str; 8], side: &str| -> Ordo { format!("ordo {} {side}", rows.join("/")).parse().unwrap() };
    let empty = "..........";
    // d3 holds c3 and e3 together, and blue's d5 can take it: one place to be cut.
    let line = at([empty, empty, empty, "...B......", empty, "..WWW.....", empty, empty], "w");
    assert_eq!(line.exposed_cuts(Side::First), 1);
    assert_eq!(line.exposed_cuts(Side::Second), 0, "a single piece cannot be cut");
    // With d2 beside it the group holds without d3; out of reach, d3 is no danger either.
    let held = at([empty, empty, empty, "...B......", empty, "..WWW.....", "...W......", empty], "w");
    assert_eq!(held.exposed_cuts(Side::First), 0);
    let away = at([empty, empty, empty, "B.........", empty, "..WWW.....", empty, empty], "w");
    assert_eq!(away.exposed_cuts(Side::First), 0);
    // Blue cannot take backwards: a blue piece below d3 is no threat to it.
    let below = at([empty, empty, empty, empty, empty, "..WWW.....", empty, "...B......"], "w");
    assert_eq!(below.exposed_cuts(Side::First), 0);
    // Sideways: blue's a3 slides to c3, which holds nothing together; g3 slides to e3, which
    // does not either; but a blue piece on d4 can take d3 forward.
    let side = at([empty, empty, empty, empty, "...B......", "..WWW.....", empty, empty], "w");
    assert_eq!(side.exposed_cuts(Side::First), 1);
    // Ordo X removes cut-off pieces at once: the weighing is Classic's only.
    let x: Ordo =
        format!("ordo-x {} w", [empty, empty, empty, "...B......", empty, "..WWW.....", empty, empty].join("/"))
            .parse()
            .unwrap();
    assert_eq!(x.exposed_cuts(Side::First), 0);
}
