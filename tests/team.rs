//! CTOR team play without the table: shares, the seats a record keeps, `tablero check`'s
//! verdict on members' Puts, and a computer member's choice from its team's view alone.

use std::process::Command;
use tablero::record::{PlayerInfo, Record};
use tablero::rules::ctor::{Ctor, CtorMove, Options, Teams};
use tablero::rules::{AnyGame, Game, Side};
use tablero::team::{Lead, TeamChange, TeamRecord, computer_puts};

fn seat(name: &str, kind: &str) -> PlayerInfo {
    PlayerInfo { name: name.into(), kind: kind.into() }
}

fn ctor(sizes: [u8; 2]) -> Ctor {
    Ctor::new(8, Teams::new(sizes), Options::default())
}

/// A record of a team game played from `start`: each move with the member who made it.
fn team_record(start: &Ctor, seats: [Vec<PlayerInfo>; 2], moves: &[(&str, Option<u8>)]) -> Record {
    let mut game = AnyGame::Ctor(start.clone());
    let mut rec = Record::new(
        &game,
        [("Black team".to_string(), "human".to_string()), ("White team".to_string(), "human".to_string())],
    );
    rec.team = Some(TeamRecord::new(seats, Lead::Rotation));
    for (mv, member) in moves {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        rec.push(mv, &game);
        rec.moves.last_mut().unwrap().member = *member;
    }
    rec
}

fn two_and_two() -> [Vec<PlayerInfo>; 2] {
    [vec![seat("Ana", "human"), seat("Bo", "ai:hard")], vec![seat("Cy", "human"), seat("Di", "human")]]
}

/// The opening: turn 1 (one Put), turn 2 (two), turn 3 (three, shared two and one); then
/// white's turn 4 with no operation, and black's turn 5, a Move by the acting seat.
const GAME: [(&str, Option<u8>); 12] = [
    ("P1", Some(0)),
    ("E", None),
    ("P10", Some(0)),
    ("P20", Some(1)),
    ("E", Some(1)),
    ("P30", Some(1)),
    ("P40", Some(0)),
    ("P50", Some(0)),
    ("E", Some(1)),
    ("E", Some(0)),
    ("M30-31", Some(0)),
    ("E", Some(0)),
];

fn check(rec: &Record) -> (i32, String) {
    let dir =
        std::env::temp_dir().join(format!("tablero-team-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    std::fs::write(&path, rec.to_json()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tablero")).arg("check").arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_team_record_keeps_its_members_and_seats_through_a_round_trip() {
    let mut rec = team_record(&ctor([2, 2]), two_and_two(), &GAME);
    rec.team.as_mut().unwrap().changes.push(TeamChange { at: 5, team: "white".into(), join: None, leave: Some(0) });
    let json = rec.to_json();
    assert!(json.contains("\"member\": 1") && json.contains("\"lead\": \"rotation\""), "{json}");
    let back = Record::from_json(&json).unwrap();
    assert_eq!(back, rec);
    let positions = back.replay().unwrap();
    assert_eq!(positions.len(), GAME.len() + 1);
    let seats = back.team.as_ref().unwrap().seats_at(5);
    assert_eq!(seats[1].iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Di"]);
    assert_eq!(back.team.as_ref().unwrap().seats_at(4)[1].len(), 2);
    let (code, out) = check(&back);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn check_refuses_puts_beyond_a_members_share_and_seats_the_format_does_not_allow() {
    let start = ctor([2, 2]);
    // Ana (seat 0) makes all three Puts of turn 3: her share is two.
    let mut moves = GAME;
    moves[5].1 = Some(0);
    let (code, out) = check(&team_record(&start, two_and_two(), &moves));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("move 8") && out.contains("share is 2"), "{out}");
    // A Put without its member.
    moves = GAME;
    moves[2].1 = None;
    let (code, out) = check(&team_record(&start, two_and_two(), &moves));
    assert!(code == 2 && out.contains("move 3") && out.contains("names its member"), "{out}");
    // Seat 2 in a team of two.
    moves = GAME;
    moves[3].1 = Some(2);
    let (code, out) = check(&team_record(&start, two_and_two(), &moves));
    assert!(code == 2 && out.contains("not seated"), "{out}");
    // A third member of a team with two Puts a turn, from the start and by joining.
    let mut three = two_and_two();
    three[0].push(seat("Ed", "human"));
    let (code, out) = check(&team_record(&start, three, &GAME));
    assert!(code == 2 && out.contains("team.seats[0]") && out.contains("1 to 2"), "{out}");
    let mut rec = team_record(&start, two_and_two(), &GAME);
    rec.team.as_mut().unwrap().changes.push(TeamChange {
        at: 2,
        team: "black".into(),
        join: Some(seat("Ed", "human")),
        leave: None,
    });
    let (code, out) = check(&rec);
    assert!(code == 2 && out.contains("nobody more may join"), "{out}");
    // A change of the team in the middle of its turn (white has put once); one of the other
    // team at the same moment is between its turns, and is taken: its seat 1 is then empty.
    let mut rec = team_record(&start, two_and_two(), &GAME);
    rec.team.as_mut().unwrap().changes.push(TeamChange { at: 3, team: "white".into(), join: None, leave: Some(1) });
    let (code, out) = check(&rec);
    assert!(code == 2 && out.contains("between turns"), "{out}");
    let mut rec = team_record(&start, two_and_two(), &GAME);
    rec.team.as_mut().unwrap().changes.push(TeamChange { at: 3, team: "black".into(), join: None, leave: Some(1) });
    let (code, out) = check(&rec);
    assert!(code == 2 && out.contains("move 6 (P30): member 1 is not seated (the black team has 1)"), "{out}");
    // `member` without a team.
    let mut rec = team_record(&start, two_and_two(), &GAME);
    rec.team = None;
    let (code, out) = check(&rec);
    assert!(code == 2 && out.contains("belongs to CTOR team games"), "{out}");
}

#[test]
fn a_team_of_two_in_a_three_against_three_game_may_take_a_third_never_a_fourth() {
    let start = ctor([3, 3]);
    let seats = [
        vec![seat("Ana", "human"), seat("Bo", "human")],
        vec![seat("Cy", "human"), seat("Di", "human"), seat("Ed", "human")],
    ];
    let team = TeamRecord::new(seats, Lead::Captain);
    let game = start.clone();
    assert!(team.may_change(&game, 0, Side::First, true).is_ok());
    let mut joined = team.clone();
    joined.changes.push(TeamChange { at: 0, team: "black".into(), join: Some(seat("Fay", "human")), leave: None });
    assert_eq!(joined.seats_at(0)[0].len(), 3);
    let err = joined.may_change(&game, 0, Side::First, true).unwrap_err();
    assert!(err.to_string().contains("nobody more may join"), "{err}");
    // Three Puts shared by three, then two Puts of the team of two: 2 and 1.
    assert_eq!(tablero::team::shares(3, 2), vec![2, 1]);
}

#[test]
fn a_computer_member_chooses_from_its_teams_view_alone() {
    let mut game = AnyGame::Ctor(ctor([2, 2]));
    for mv in ["P1", "E", "P10", "P11", "E", "P12", "P13", "E"] {
        game.play_text(mv).unwrap();
    }
    let AnyGame::Ctor(g) = game else { unreachable!() };
    assert_eq!(g.side_to_move(), Side::Second);
    let mine = computer_puts(&g.view(Side::Second), 1, "ai:hard".parse().unwrap(), 9);
    assert_eq!(mine.len(), 1);
    // The opponent's secret squares differ: its view, and so its choice, do not.
    for secrets in [[2, 3, 4, 5, 6], [40, 41, 42, 43, 44], [mine[0], 50, 51, 52, 53]] {
        let mut other = g.clone();
        other.set_secrets(Side::First, &secrets).unwrap();
        assert_eq!(
            computer_puts(&other.view(Side::Second), 1, "ai:hard".parse().unwrap(), 9),
            mine,
            "secrets {secrets:?}"
        );
    }
    // It takes squares that turn discs: with five black discs round an empty square... it
    // puts a disc of its own where a put turns the most, at least never on an occupied one.
    for kind in ["computer:random", "ai:easy", "ai:medium", "ai:hard", "ai:master"] {
        let puts = computer_puts(&g.view(Side::Second), 2, kind.parse().unwrap(), 3);
        assert_eq!(puts.len(), 2, "{kind}");
        assert!(puts.iter().all(|&s| g.disc(s).is_none()) && puts[0] != puts[1], "{kind}: {puts:?}");
        assert_eq!(
            computer_puts(&g.view(Side::Second), 2, kind.parse().unwrap(), 3),
            puts,
            "{kind} repeats for its seed"
        );
    }
}

#[test]
fn a_computer_member_takes_the_put_that_turns_discs() {
    // White to move; the black disc on 19 has four white neighbours: a fifth turns it.
    let text = "ctor8 ......../.WWW..../.WB...../......../......../......../......../........ w 4 P2M2L0 2v2 0";
    let AnyGame::Ctor(g) = text.parse::<AnyGame>().unwrap() else { unreachable!() };
    for kind in ["ai:medium", "ai:hard", "ai:master"] {
        let puts = computer_puts(&g.view(Side::Second), 1, kind.parse().unwrap(), 1);
        let mut after = g.clone();
        after.play(&CtorMove::Put(puts[0])).unwrap();
        assert_eq!(after.disc(19), Some(Side::Second), "{kind} put on {puts:?} and left 19 black");
    }
}

/// A hostile team record is refused in one short line: the text it repeats (a team's name,
/// a move) is quoted, escaped and cut, never repeated raw or whole.
#[test]
fn a_team_records_refusals_quote_what_they_repeat() {
    let start = ctor([2, 2]);
    let mut rec = team_record(&start, two_and_two(), &GAME);
    let long = format!("bl\nack{}", "x".repeat(1_000_000));
    rec.team.as_mut().unwrap().changes.push(TeamChange { at: 2, team: long, join: None, leave: Some(0) });
    let e = rec.replay().unwrap_err().to_string();
    assert!(e.contains("team 'bl\\nackxxx") && e.contains("…' is not black or white"), "{}", &e[..e.len().min(200)]);
    assert!(!e.contains('\n') && e.len() < 300, "{} bytes", e.len());
    // A Put with no member, written with spaces round it: the move is quoted as written.
    let mut rec = team_record(&start, two_and_two(), &GAME);
    rec.moves[0].mv = " P1 ".into();
    rec.moves[0].member = None;
    let e = rec.replay().unwrap_err().to_string();
    assert!(e.contains("move 1 ( P1 ): a team game's Put names its member"), "{e}");
}
