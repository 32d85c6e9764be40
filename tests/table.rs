//! The table's state without Bevy (`tablero::table`): every change goes through `apply`, which
//! says what happened or why it refused; undo against the computer, replays, saving, CTOR's
//! secret squares, team rounds and seats, and a spectator following a feed.

use tablero::record::{PlayerInfo, Record};
use tablero::rules::ctor::{Ctor, CtorMove, Options, SecretState, Teams};
use tablero::rules::{AnyGame, AnyMove, Cell, Game, Side, Variant};
use tablero::table::{By, Intent, Mode, PlayerKind, RoundPhase, SecretPhase, Step, Table};
use tablero::team::{Lead, TeamRecord};

const PEOPLE: [PlayerKind; 2] = [PlayerKind::Person; 2];

fn first_move(t: &Table) -> AnyMove {
    t.game.legal_moves()[0].clone()
}

fn play(t: &mut Table, by: By) -> AnyMove {
    let mv = first_move(t);
    let out = t.apply(Intent::Play(mv.clone(), by)).unwrap();
    assert_eq!(out.played.len(), 1);
    assert_eq!(out.played[0].mv, mv);
    mv
}

#[test]
fn a_move_goes_through_apply_and_a_refused_one_changes_nothing() {
    let mut t = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    let before = t.game.to_string();
    // A Crossings move in an Ordo game, and a move that is not legal here.
    let wrong = Variant::Crossings.initial().legal_moves()[0].clone();
    assert!(t.apply(Intent::Play(wrong, By::Person)).is_err());
    assert_eq!(t.game.to_string(), before, "a refused move changes nothing");
    assert!(t.history.is_empty() && t.record.moves.is_empty());

    let mv = first_move(&t);
    let out = t.apply(Intent::Play(mv.clone(), By::Person)).unwrap();
    assert!(!out.played[0].parts.is_empty(), "the effects to animate");
    assert_eq!(t.history.len(), 1);
    assert_eq!(t.record.moves.len(), 1, "the record follows every move");
    assert!(!t.last_move.is_empty(), "the last move's cells are marked");

    let out = t.apply(Intent::Undo).unwrap();
    assert!(out.rebuilt && out.played.is_empty());
    assert_eq!(t.game.to_string(), before);
    assert_eq!(t.redo, vec![mv.clone()]);
    assert!(t.record.moves.is_empty());
    let out = t.apply(Intent::Redo).unwrap();
    assert_eq!(out.played[0].by, By::History);
    assert_eq!(out.played[0].mv, mv);
    assert!(t.redo.is_empty());

    t.apply(Intent::Jump(0)).unwrap();
    assert_eq!(t.apply(Intent::Undo).unwrap_err().0, "nothing to undo");
    t.apply(Intent::Jump(1)).unwrap();
    assert_eq!(t.apply(Intent::Redo).unwrap_err().0, "nothing to redo");
}

#[test]
fn undo_against_the_computer_goes_back_to_the_persons_turn() {
    let mut t = Table::new(Variant::Ordo.initial(), [PlayerKind::Person, PlayerKind::Random], 5);
    assert!(t.person_to_move());
    assert!(t.apply(Intent::PlayRandom).is_err(), "the random mover waits for its turn");
    play(&mut t, By::Person);
    assert!(t.computer_to_move());
    let out = t.apply(Intent::PlayRandom).unwrap();
    assert_eq!(out.played[0].by, By::Computer);
    assert_eq!(t.history.len(), 2);
    t.apply(Intent::Undo).unwrap();
    assert!(t.history.is_empty(), "both moves taken back");
    assert!(t.person_to_move());
}

#[test]
fn the_random_mover_repeats_seed_for_seed() {
    let game = |seed| {
        let mut t = Table::new(Variant::Crossings.initial(), [PlayerKind::Random; 2], seed);
        for _ in 0..12 {
            t.apply(Intent::PlayRandom).unwrap();
        }
        t.record.move_list()
    };
    assert_eq!(game(3), game(3));
    assert_ne!(game(3), game(4));
}

#[test]
fn a_replay_is_watched_then_played_on_as_a_new_game() {
    let mut live = Table::new(Variant::Volterra.initial(), PEOPLE, 1);
    for _ in 0..4 {
        play(&mut live, By::Person);
    }
    let mut t = Table::replay(live.record.clone()).unwrap();
    assert_eq!(t.mode(), Mode::Replay);
    assert_eq!(t.redo.len(), 4);
    assert!(!t.person_to_move(), "nobody moves in a replay");
    t.apply(Intent::TogglePlay).unwrap();
    assert!(t.replay.unwrap().autoplay);
    t.apply(Intent::Pace).unwrap();
    assert_eq!(t.replay.unwrap().pace, 2.0);
    t.apply(Intent::StopAutoplay).unwrap();
    assert!(!t.replay.unwrap().autoplay);
    t.apply(Intent::Jump(2)).unwrap();
    assert_eq!(t.history.len(), 2);
    let out = t.apply(Intent::PlayOn(None)).unwrap();
    assert_eq!(out.said.as_deref(), Some("playing on from here as a new game"));
    assert_eq!(t.mode(), Mode::Live);
    assert!(t.redo.is_empty() && t.needs_a_file());
    assert_eq!(t.record.moves.len(), 2, "the new game's record holds the moves so far");
}

#[test]
fn a_game_is_saved_after_every_change_and_resumed_from_its_file() {
    let path = std::env::temp_dir().join(format!("tablero-table-{}.json", std::process::id()));
    let saved = |path: &std::path::Path| Record::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut t = Table::new(Variant::Crossings.initial(), PEOPLE, 1).saved_to(path.clone());
    assert!(!t.needs_a_file());
    assert_eq!(saved(&path).moves.len(), 0);
    play(&mut t, By::Person);
    play(&mut t, By::Person);
    assert_eq!(saved(&path).moves.len(), 2);
    t.apply(Intent::Undo).unwrap();
    assert_eq!(saved(&path).moves.len(), 1);
    let resumed = Table::resume(saved(&path), Some(path.clone())).unwrap();
    assert_eq!(resumed.game.to_string(), t.game.to_string());
    assert_eq!(resumed.mode(), Mode::Live);
    let _ = std::fs::remove_file(path);
}

#[test]
fn pasted_text_opens_a_game_or_is_refused_and_the_table_stays() {
    let mut t = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    play(&mut t, By::Person);
    let err = t.apply(Intent::Open("ordo ..BB w".into())).unwrap_err();
    assert!(err.0.contains("bad position"), "{err}");
    assert_eq!(t.history.len(), 1, "the game at the table stays");
    let out = t.apply(Intent::Open(Variant::Crossings.initial().to_string())).unwrap();
    assert!(out.rebuilt);
    assert_eq!(t.game.variant(), Variant::Crossings);
}

fn cell(t: &Table, sq: u16) -> Cell {
    match &t.game {
        AnyGame::Ctor(g) => g.cell(sq),
        _ => unreachable!(),
    }
}

#[test]
fn secret_squares_are_chosen_team_by_team_before_any_move() {
    let mut t = Table::new(Variant::Ctor8.initial(), PEOPLE, 1).with_secrets();
    assert_eq!(t.secrets, SecretPhase::HandOver(Side::First));
    assert_eq!(t.mode(), Mode::Secrets);
    t.apply(Intent::SecretStep(Step::Done)).unwrap();
    assert_eq!(t.secrets, SecretPhase::HandOver(Side::First), "Done does not belong to the hand-over");
    t.apply(Intent::SecretStep(Step::Proceed)).unwrap();
    for sq in [1, 2, 3, 4, 5, 6] {
        let c = cell(&t, sq);
        t.apply(Intent::SecretClick(c)).unwrap();
    }
    let SecretPhase::Choosing(Side::First, chosen) = &t.secrets else { panic!("{:?}", t.secrets) };
    assert_eq!(chosen.len(), 5, "five at most");
    let c = cell(&t, 5);
    t.apply(Intent::SecretClick(c)).unwrap();
    t.apply(Intent::SecretStep(Step::Done)).unwrap();
    assert!(matches!(t.secrets, SecretPhase::Choosing(Side::First, _)), "four are not enough");
    let c = cell(&t, 9);
    t.apply(Intent::SecretClick(c)).unwrap();
    t.apply(Intent::SecretStep(Step::Done)).unwrap();
    assert_eq!(t.secrets, SecretPhase::HandOver(Side::Second));
    assert!(t.visible_secrets(true).is_empty(), "the next team sees nothing of the first's");
    t.apply(Intent::SecretStep(Step::Proceed)).unwrap();
    for sq in [60, 61, 62, 63, 64] {
        let c = cell(&t, sq);
        t.apply(Intent::SecretClick(c)).unwrap();
    }
    t.apply(Intent::SecretStep(Step::Done)).unwrap();
    assert_eq!(t.secrets, SecretPhase::Ready);
    t.apply(Intent::SecretStep(Step::Proceed)).unwrap();
    assert_eq!(t.mode(), Mode::Live);
    let AnyGame::Ctor(g) = &t.game else { unreachable!() };
    let black: Vec<u16> = g.secrets(Side::First).iter().map(|(s, _)| *s).collect();
    assert_eq!(black, vec![1, 2, 3, 4, 9]);
    assert!(g.secrets(Side::First).iter().all(|(_, s)| *s == SecretState::Hidden));
    assert_eq!(t.record.secrets, Record::secrets_of(&t.game), "the record keeps them");
    // Black, on turn, may look at its own; never at white's.
    let seen: Vec<Cell> = t.visible_secrets(true).into_iter().map(|(c, _)| c).collect();
    assert_eq!(seen, [1, 2, 3, 4, 9].map(|s| cell(&t, s)).to_vec());
    assert!(t.visible_secrets(false).is_empty());
}

#[test]
fn a_computer_team_chooses_its_secret_squares_at_once_and_repeatably() {
    let secrets = || {
        let t = Table::new(Variant::Ctor8.initial(), [PlayerKind::Ai(0); 2], 1).with_secrets();
        assert_eq!(t.secrets, SecretPhase::Done, "no screen to hand over");
        assert_eq!(t.mode(), Mode::Live);
        let AnyGame::Ctor(g) = &t.game else { unreachable!() };
        [Side::First, Side::Second].map(|s| g.secrets(s).to_vec())
    };
    let a = secrets();
    assert_eq!(a[0].len(), 5);
    assert_eq!(a[1].len(), 5);
    assert_eq!(a, secrets());
    let mut t = Table::new(Variant::Ctor8.initial(), PEOPLE, 1);
    play(&mut t, By::Person);
    assert!(t.apply(Intent::Secrets(Side::First, vec![1, 2, 3, 4, 5])).is_err(), "not after the first move");
}

fn seat(name: &str, kind: &str) -> PlayerInfo {
    PlayerInfo { name: name.into(), kind: kind.into() }
}

fn team_table(seats: [Vec<PlayerInfo>; 2]) -> Table {
    let game = AnyGame::Ctor(Ctor::new(8, Teams::new([2, 2]), Options::default()));
    let mut t = Table::new(game, PEOPLE, 3);
    t.record.team = Some(TeamRecord::new(seats, Lead::Captain));
    t.settled()
}

#[test]
fn a_teams_blind_puts_are_chosen_in_turn_revealed_and_placed() {
    let mut t =
        team_table([vec![seat("Ana", "human"), seat("Bo", "human")], vec![seat("Cy", "human"), seat("Di", "human")]]);
    // Turn 1, black: one Put, Ana's.
    assert!(t.in_round() && !t.person_to_move());
    assert_eq!(t.round.phase, RoundPhase::HandOver(0, 1));
    assert!(t.round_prompt().unwrap().contains("hand the screen to Ana"));
    t.apply(Intent::RoundStep(Step::Proceed)).unwrap();
    let c = cell(&t, 20);
    t.apply(Intent::RoundClick(c)).unwrap();
    let c = cell(&t, 21);
    let why = t.apply(Intent::RoundClick(c)).unwrap_err();
    assert!(why.0.contains("that is all your Puts"), "{why}");
    t.apply(Intent::RoundStep(Step::Done)).unwrap();
    assert_eq!(t.round.phase, RoundPhase::Placing);
    assert!(t.round.revealed.contains("Ana on 20"), "{}", t.round.revealed);
    let out = t.apply(Intent::PlaceNextPut).unwrap();
    assert_eq!(out.played[0].mv, AnyMove::Ctor(CtorMove::Put(20)));
    assert_eq!(out.played[0].by, By::Member(0));
    // The turn's only Put placed, the round is over.
    assert_eq!(t.round.phase, RoundPhase::Idle);
    assert!(t.puts_closed() && t.person_to_move(), "the acting seat plays on, without Puts");
    assert_eq!(t.members, vec![Some(0)]);
    let why = t.apply(Intent::Undo).unwrap_err();
    assert!(why.0.contains("blind Puts"), "{why}");
    // Black ends the turn; white's turn 2: two Puts, one each. Cy takes 30, Di too: Di again.
    t.apply(Intent::Play(AnyMove::Ctor(CtorMove::End), By::Person)).unwrap();
    assert_eq!(t.round.phase, RoundPhase::HandOver(0, 1));
    for (member, sq) in [(0, 30), (1, 30)] {
        assert_eq!(t.round.phase, RoundPhase::HandOver(member, 1));
        t.apply(Intent::RoundStep(Step::Proceed)).unwrap();
        let c = cell(&t, sq);
        t.apply(Intent::RoundClick(c)).unwrap();
        t.apply(Intent::RoundStep(Step::Done)).unwrap();
    }
    assert!(t.round.revealed.contains("both chose 30"), "{}", t.round.revealed);
    t.apply(Intent::PlaceNextPut).unwrap();
    t.apply(Intent::PlaceNextPut).unwrap();
    assert_eq!(t.round.phase, RoundPhase::HandOver(1, 1), "Di chooses again, knowing 30 is taken");
    t.apply(Intent::RoundStep(Step::Proceed)).unwrap();
    let c = cell(&t, 30);
    let why = t.apply(Intent::RoundClick(c)).unwrap_err();
    assert!(why.0.contains("taken"), "{why}");
    let c = cell(&t, 31);
    t.apply(Intent::RoundClick(c)).unwrap();
    t.apply(Intent::RoundStep(Step::Done)).unwrap();
    let out = t.apply(Intent::PlaceNextPut).unwrap();
    assert_eq!(out.played[0].by, By::Member(1));
    t.apply(Intent::PlaceNextPut).unwrap();
    // Ana's Put, the End of black's acting seat (the captain, Ana), Cy's Put, Di's.
    assert_eq!(t.members, vec![Some(0), Some(0), Some(0), Some(1)]);
    assert_eq!(t.record.moves.iter().map(|m| m.member).collect::<Vec<_>>(), t.members);
}

#[test]
fn a_computer_member_chooses_at_once_and_seats_change_between_turns() {
    let mut t = team_table([
        vec![seat("Ana", "human"), seat("Bo", "human")],
        vec![seat("Hal", "ai:easy"), seat("Di", "human")],
    ]);
    t.apply(Intent::RoundStep(Step::Proceed)).unwrap();
    let c = cell(&t, 20);
    t.apply(Intent::RoundClick(c)).unwrap();
    t.apply(Intent::RoundStep(Step::Done)).unwrap();
    let why = t.apply(Intent::Leave(Side::First, 1)).unwrap_err();
    assert!(why.0.contains("between turns"), "{why}");
    t.apply(Intent::PlaceNextPut).unwrap();
    t.apply(Intent::Play(AnyMove::Ctor(CtorMove::End), By::Person)).unwrap();
    // White's turn 2: Hal has chosen already; Di is handed the screen.
    assert_eq!(t.round.phase, RoundPhase::HandOver(1, 1));
    assert_eq!(t.round.choices.len(), 1);
    assert_eq!(t.round.choices[0].0, 0);
    // Between black's turns: nobody more may join a full team; a member may leave.
    let why = t.apply(Intent::Join(Side::First)).unwrap_err();
    assert!(why.0.contains("nobody more may join"), "{why}");
    let out = t.apply(Intent::Leave(Side::First, 1)).unwrap();
    assert_eq!(out.said.as_deref(), Some("Bo leaves the black team"));
    assert_eq!(t.record.team.as_ref().unwrap().changes.len(), 1, "recorded");
    assert_eq!(t.seats().unwrap()[0].len(), 1);
}

#[test]
fn a_spectator_follows_the_feeds_moves_and_waits_for_its_state_when_out_of_step() {
    let mut host = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    let mut watcher = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    use tablero::feed::wire::{After, Event, Moved, What};
    let event = |mv: &AnyMove, parts: &[Vec<tablero::rules::Effect>], after: &AnyGame| {
        let after = After { position: after.to_string(), ..After::default() };
        let moved = Moved { ply: 0, mv: mv.to_string(), by: String::new(), at_ms: 0, parts: parts.to_vec(), after };
        Intent::FeedEvent(Event { seq: 1, what: What::Move(moved) })
    };
    let mv = first_move(&host);
    let out = host.apply(Intent::Play(mv.clone(), By::Person)).unwrap();
    let parts = out.played[0].parts.clone();
    let out = watcher.apply(event(&mv, &parts, &host.game)).unwrap();
    assert_eq!(out.played.len(), 1);
    assert_eq!(out.played[0].by, By::History);
    assert!(!out.out_of_step);
    assert_eq!(watcher.game, host.game);
    // An event that does not follow: out of step, and later events wait for the state.
    let out = watcher.apply(event(&mv, &parts, &host.game)).unwrap();
    assert!(out.out_of_step);
    let mv2 = first_move(&host);
    let out = host.apply(Intent::Play(mv2.clone(), By::Person)).unwrap();
    let parts2 = out.played[0].parts.clone();
    let out = watcher.apply(event(&mv2, &parts2, &host.game)).unwrap();
    assert!(out.played.is_empty(), "waits for the state");
    // The state read again replaces the game here.
    let mut fresh = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    fresh.apply(Intent::Play(mv, By::History)).unwrap();
    fresh.apply(Intent::Play(mv2, By::History)).unwrap();
    let out = watcher.apply(Intent::FeedState(Box::new(fresh))).unwrap();
    assert!(out.rebuilt);
    assert_eq!(watcher.game, host.game);
    // A spectator's table plays, undoes and redoes nothing of its own: its moves are the feed's.
    watcher.spectator = true;
    let mv3 = first_move(&watcher);
    assert!(watcher.apply(Intent::Play(mv3, By::Person)).is_err());
    assert!(watcher.apply(Intent::Undo).is_err());
    assert_eq!(watcher.game, host.game);
}

/// In the app, the rules step is the one writer of the table: no other file of `src/gui/`
/// holds the session mutably (every other system reads it as `Res<Session>`).
#[test]
fn only_the_rules_step_holds_the_table_mutably() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src/gui"), &mut files);
    assert!(files.len() > 20, "the app's files are found");
    let writers: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.contains("ResMut<Session>") || text.contains("resource_mut::<Session>")
        })
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert_eq!(writers, vec!["src/gui/frame/session.rs".to_string()]);
}

#[test]
fn members_apart_choose_their_blind_puts_in_any_order_and_a_collision_chooses_again() {
    let mut t =
        team_table([vec![seat("Ana", "human"), seat("Bo", "human")], vec![seat("Cy", "human"), seat("Di", "human")]])
            .members_apart();
    // Turn 1, black: one Put, Ana's; nobody is handed the screen.
    assert_eq!(t.round.phase, RoundPhase::Open);
    assert_eq!(t.round.blind(0), (1, vec![]));
    assert_eq!(t.round.blind(1), (0, vec![]));
    let put = |sq| AnyMove::Ctor(CtorMove::Put(sq));
    let why = t.apply(Intent::Blind(1, put(20))).unwrap_err();
    assert!(why.0.contains("has chosen its Puts"), "{why}");
    let why = t.apply(Intent::Blind(0, AnyMove::Ctor(CtorMove::Move(1, 2)))).unwrap_err();
    assert!(why.0.contains("chooses its Puts first"), "{why}");
    t.apply(Intent::Blind(0, put(20))).unwrap();
    // Everyone chose: revealed, then placed as the table rests.
    assert_eq!(t.round.phase, RoundPhase::Placing);
    t.apply(Intent::PlaceNextPut).unwrap();
    t.apply(Intent::PlaceNextPut).unwrap();
    assert_eq!(t.round.phase, RoundPhase::Idle);
    assert_eq!(t.members, vec![Some(0)]);
    t.apply(Intent::Play(AnyMove::Ctor(CtorMove::End), By::Person)).unwrap();
    // White's turn 2: one Put each. Di chooses first, then Cy the same square: the earlier
    // choice (Di's) stands and Cy chooses again.
    assert_eq!(t.round.phase, RoundPhase::Open);
    let why = t.apply(Intent::Blind(1, put(20))).unwrap_err();
    assert_eq!(why.1, tablero::table::Ground::Illegal, "a square taken: {why}");
    t.apply(Intent::Blind(1, put(30))).unwrap();
    assert_eq!(t.round.blind(1), (0, vec![30]), "Di's choice, unseen by the others");
    assert_eq!(t.round.phase, RoundPhase::Open, "Cy has not chosen");
    t.apply(Intent::Blind(0, put(30))).unwrap();
    while t.round.phase == RoundPhase::Placing {
        t.apply(Intent::PlaceNextPut).unwrap();
    }
    assert_eq!(t.round.phase, RoundPhase::Open, "Cy chooses again");
    assert_eq!(t.round.blind(0), (1, vec![]));
    assert_eq!(t.members.last(), Some(&Some(1)), "Di's Put on 30 was placed");
    // Cy gives up its Put: the round is over, no Put more.
    let played = t.history.len();
    t.apply(Intent::Blind(0, AnyMove::Ctor(CtorMove::End))).unwrap();
    while t.round.phase == RoundPhase::Placing {
        t.apply(Intent::PlaceNextPut).unwrap();
    }
    assert_eq!(t.history.len(), played);
    assert!(t.puts_closed() && t.person_to_move());
}

#[test]
fn a_question_is_answered_by_the_other_side_and_a_move_withdraws_it() {
    let mut t = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    use tablero::table::Question;
    assert!(t.apply(Intent::Ask(Side::First, Question::Undo)).is_err(), "nothing to take back");
    assert!(t.apply(Intent::Ask(Side::First, Question::Rematch)).is_err(), "the game is not over");
    play(&mut t, By::Person);
    play(&mut t, By::Person);
    play(&mut t, By::Person);
    t.apply(Intent::Ask(Side::Second, Question::Undo)).unwrap();
    assert_eq!(t.asked, Some((Side::Second, Question::Undo)));
    assert!(t.apply(Intent::Answer(Side::Second, true)).is_err(), "not one's own question");
    // White answers yes: black's move and white's after it are taken back.
    t.apply(Intent::Answer(Side::First, true)).unwrap();
    assert_eq!(t.history.len(), 1);
    assert!(t.redo.is_empty() && t.asked.is_none());
    t.apply(Intent::Ask(Side::First, Question::Undo)).unwrap();
    play(&mut t, By::Person);
    assert_eq!(t.asked, None, "a move withdraws the question");
    t.apply(Intent::Ask(Side::Second, Question::Undo)).unwrap();
    t.apply(Intent::Answer(Side::First, false)).unwrap();
    assert_eq!(t.history.len(), 2, "no changes nothing");
    assert!(t.apply(Intent::TakeBack(Side::First)).is_ok());
    assert_eq!(t.history.len(), 0);
}

#[test]
fn a_rematch_starts_a_new_record_beside_the_last_saved_only_when_asked() {
    let dir = std::env::temp_dir().join(format!("tablero-table-rematch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    let mut t = Table::new(Variant::Crossings.initial(), PEOPLE, 1).saving_when_asked().saved_to(path.clone());
    assert!(!path.exists(), "written only when asked");
    t.apply(Intent::Save).unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    play(&mut t, By::Person);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved, "a move is not written until asked");
    t.apply(Intent::Save).unwrap();
    assert_eq!(Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap().moves.len(), 1);
    // Played out to the end, then a rematch.
    while t.game.outcome().is_none() {
        play(&mut t, By::Person);
    }
    let created = t.record.created_ms;
    let players = t.record.players.clone();
    t.apply(Intent::Ask(Side::First, tablero::table::Question::Rematch)).unwrap();
    t.apply(Intent::Answer(Side::Second, true)).unwrap();
    assert!(t.history.is_empty() && t.game.to_string() == Variant::Crossings.initial().to_string());
    assert!(t.record.created_ms > created && t.record.players == players);
    let new = t.record_path.clone().unwrap();
    assert_ne!(new, path);
    assert_eq!(new.parent(), Some(dir.as_path()), "beside the last");
    t.apply(Intent::Save).unwrap();
    assert!(new.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seats_table_follows_the_hosts_changes_and_falls_back_on_its_moves() {
    use tablero::table::Change;
    let mut host = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    let mut seat = Table::new(Variant::Ordo.initial(), PEOPLE, 1);
    seat.seat = Some(Side::Second);
    let moves = |t: &Table| t.history.iter().map(|(_, m)| m.to_string()).collect::<Vec<_>>();
    let mut log: Vec<Change> = Vec::new();
    let step = |host: &mut Table, intent: Intent, log: &mut Vec<Change>| {
        let mark = host.mark();
        let out = host.apply(intent).unwrap();
        log.extend(host.changes(mark, &out));
    };
    let mv = first_move(&host);
    step(&mut host, Intent::Play(mv, By::Person), &mut log);
    let out = seat.apply(Intent::Follow { changes: std::mem::take(&mut log), moves: moves(&host) }).unwrap();
    assert_eq!(out.played.len(), 1, "the host's move, animated here");
    // The seat's own move, played here first, is passed over when the host's change brings it.
    let own = first_move(&seat);
    seat.apply(Intent::Play(own.clone(), By::Person)).unwrap();
    step(&mut host, Intent::Play(own, By::Person), &mut log);
    let mv = first_move(&host);
    step(&mut host, Intent::Play(mv, By::Person), &mut log);
    assert_eq!(log.len(), 2);
    let out = seat.apply(Intent::Follow { changes: std::mem::take(&mut log), moves: moves(&host) }).unwrap();
    assert_eq!(out.played.len(), 1);
    assert_eq!(moves(&seat), moves(&host));
    // Moves taken back.
    step(&mut host, Intent::TakeBack(Side::Second), &mut log);
    assert_eq!(log, [Change::Back { ply: 1 }]);
    let out = seat.apply(Intent::Follow { changes: std::mem::take(&mut log), moves: moves(&host) }).unwrap();
    assert!(out.rebuilt && out.played.is_empty());
    assert_eq!(moves(&seat), moves(&host));
    // Changes that do not follow from the game here (some missed): the host's moves stand.
    let mv = first_move(&host);
    step(&mut host, Intent::Play(mv, By::Person), &mut log);
    let mv = first_move(&host);
    step(&mut host, Intent::Play(mv, By::Person), &mut log);
    let out = seat.apply(Intent::Follow { changes: log[1..].to_vec(), moves: moves(&host) }).unwrap();
    assert_eq!(moves(&seat), moves(&host));
    assert_eq!(out.played.len(), 2, "caught up from the list");
}
