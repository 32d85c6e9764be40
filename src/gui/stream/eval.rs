//! The computer's view of the game at the table: the evaluation bar (who stands better, by how
//! much) beside the board (`E`), on the broadcast (`F12`) and on the live feed; and the
//! replay's *Review*, which marks the moves that lost most. Both weigh positions off the main
//! thread (at the usual priority: the idle class starved a review on a busy machine) with
//! [`crate::ai::weigh`], the same as `tablero review`.

use crate::ai::{Mistake, Weighed};
use crate::background::{Job, Priority};
use crate::gui::frame::session::{Command, Notice, Session};
use crate::gui::frame::steps::{Mode, Screen, TableSystems};
use crate::gui::theme::side_colour;
use crate::rules::{AnyGame, AnyMove, Game, Side};
use bevy::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The evaluation bar: where it shows, and the last position weighed.
#[derive(Resource, Default)]
pub struct Evaluation {
    /// Beside the board (`E`, the *Evaluation* button).
    pub shown: bool,
    /// On the broadcast window (`F12`).
    pub broadcast: bool,
    /// The first side's expected result in `for_game`, 0 (lost) to 1 (won).
    pub value: Option<f64>,
    pub for_game: Option<AnyGame>,
    task: Option<WeighTask>,
}

impl Evaluation {
    /// The value for `game`, if that is the position weighed last.
    pub fn of(&self, game: &AnyGame) -> Option<f64> {
        self.value.filter(|_| self.for_game.as_ref() == Some(game))
    }
}

/// A position being weighed; dropping it stops the search.
struct WeighTask {
    task: Job<f64>,
    game: AnyGame,
    stop: Arc<AtomicBool>,
}

impl Drop for WeighTask {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The replay's review: under way (positions weighed so far of all), or done with its marks.
#[derive(Resource, Default)]
pub struct Review {
    /// The record reviewed (its `created_ms`) and its marks, worst first.
    pub marks: Option<(u64, Vec<Mistake>)>,
    running: Option<Reviewing>,
}

/// A finished review: the record's positions and moves, each position weighed.
type Reviewed = (Vec<AnyGame>, Vec<AnyMove>, Vec<Weighed>);

struct Reviewing {
    task: Job<Option<Reviewed>>,
    done: Arc<AtomicUsize>,
    total: usize,
    stop: Arc<AtomicBool>,
    record: u64,
}

impl Drop for Reviewing {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How many moves the review marks at most.
pub const MARKS: usize = 5;

impl Review {
    /// The mark of move `ply` (1 for the first) of the record `record`: `?` for a mistake,
    /// `??` for one that lost a quarter of the game or more.
    pub fn mark(&self, record: u64, ply: usize) -> Option<&'static str> {
        let (id, marks) = self.marks.as_ref()?;
        let m = marks.iter().find(|m| m.ply == ply).filter(|_| *id == record)?;
        Some(if m.loss >= 0.25 { "??" } else { "?" })
    }

    /// While under way: positions weighed, of all.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.running.as_ref().map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }
}

/// Whether a search off the main thread is weighing (the window keeps waking to see it end).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weighing(pub bool);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Evaluation>().init_resource::<Review>().init_resource::<Weighing>().add_systems(
        Update,
        (weigh, review, busy, refresh_bars)
            .chain()
            .in_set(TableSystems::Present)
            .after(crate::gui::stream::feed::publish)
            .in_set(Weighs),
    );
}

/// The evaluation's systems of a frame (the table's pace is decided after them).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weighs;

/// Keeps the evaluation of the position at the table while someone looks at it: the bar at
/// the table or on the broadcast, or the live feed (which hears each value as it comes).
fn weigh(
    session: Res<Session>,
    mode: Res<State<Mode>>,
    live: Res<crate::gui::stream::feed::LiveFeed>,
    mut eval: ResMut<Evaluation>,
) {
    let wanted = eval.shown || eval.broadcast || live.url().is_some();
    if !wanted || *mode.get() == Mode::Secrets {
        if eval.task.is_some() {
            eval.task = None;
        }
        return;
    }
    // Polled without counting as a change (the bars redraw when the value changes).
    if let Some(w) = &eval.bypass_change_detection().task
        && let Some(answer) = w.task.poll()
    {
        let game = w.game.clone();
        eval.task = None;
        // A weighing whose thread is gone gives no value; the next frame weighs again.
        if let Ok(value) = answer
            && game == session.game
        {
            live.feed.evaluation(session.history.len(), value);
            eval.value = Some(value);
            eval.for_game = Some(game);
        }
    }
    if eval.task.as_ref().is_some_and(|w| w.game != session.game) {
        eval.task = None; // dropping it stops the search
    }
    if eval.task.is_none() && eval.for_game.as_ref() != Some(&session.game) {
        let game = session.game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let (g, flag) = (game.clone(), stop.clone());
        let weigh = move || if flag.load(Ordering::Relaxed) { 0.5 } else { crate::ai::evaluation(&g) };
        let task = Job::spawn("tablero-weigh", Priority::Normal, weigh, || {});
        eval.task = Some(WeighTask { task, game, stop });
    }
}

/// The window keeps waking while a position is weighed, to show the value as it comes.
fn busy(eval: Res<Evaluation>, review: Res<Review>, mut busy: ResMut<Weighing>) {
    let on = eval.task.is_some() || review.running.is_some();
    if busy.0 != on {
        busy.0 = on;
    }
}

/// *Review* in a replay: every position of the record weighed off the main thread, then the
/// moves that lost most marked in the move list and named on the message line.
fn review(
    session: Res<Session>,
    mode: Res<State<Mode>>,
    mut commands: MessageReader<Command>,
    mut review: ResMut<Review>,
    mut notice: ResMut<Notice>,
) {
    let asked = commands.read().filter(|c| matches!(c, Command::Review)).count() > 0;
    if *mode.get() != Mode::Replay {
        if review.running.is_some() {
            review.running = None;
        }
        return;
    }
    let record = session.record.created_ms;
    if asked && review.running.is_none() {
        let rec = &session.record;
        match rec.replay().and_then(|positions| rec.moves_played(&positions).map(|m| (positions, m))) {
            Ok((positions, moves)) => {
                let done = Arc::new(AtomicUsize::new(0));
                let stop = Arc::new(AtomicBool::new(false));
                let total = positions.len();
                let (d, s) = (done.clone(), stop.clone());
                let reviewing = move || {
                    let weighed = crate::ai::review(&positions, &s, &mut |n| d.store(n, Ordering::Relaxed));
                    (weighed.len() == positions.len()).then_some((positions, moves, weighed))
                };
                let task = Job::spawn("tablero-review", Priority::Normal, reviewing, || {});
                review.running = Some(Reviewing { task, done, total, stop, record });
                notice.say(format!("review: weighing {total} positions... 0 done"));
            }
            Err(e) => notice.say(format!("review: the record does not replay ({e})")),
        }
    }
    let Some(r) = &review.running else { return };
    if r.record != record {
        review.running = None;
        return;
    }
    // Polled without counting as a change (the move list is rebuilt when the review changes).
    let r = review.bypass_change_detection().running.as_ref().expect("checked");
    let done = r.done.load(Ordering::Relaxed);
    if let Some(answer) = r.task.poll() {
        review.running = None;
        let result = answer.ok().flatten();
        if let Some((positions, moves, weighed)) = result {
            let marks = crate::ai::mistakes(&positions, &moves, &weighed, MARKS);
            notice.say(summary(&positions, &moves, &marks));
            review.marks = Some((record, marks));
        }
    } else {
        let line = format!("review: weighing {} positions... {done} done", r.total);
        if notice.0 != line {
            notice.say(line);
        }
    }
}

/// The review's line: the moves that lost most, or that none did.
pub fn summary(positions: &[AnyGame], moves: &[AnyMove], marks: &[Mistake]) -> String {
    if marks.is_empty() {
        return format!("review: no move lost {:.0}% or more", crate::ai::MISTAKE * 100.0);
    }
    let v = positions[0].variant();
    let named: Vec<String> = marks
        .iter()
        .map(|m| {
            format!(
                "{}. {} ({}, -{:.0}%)",
                m.ply,
                moves[m.ply - 1],
                v.side_name(positions[m.ply - 1].side_to_move()),
                m.loss * 100.0
            )
        })
        .collect();
    format!("review: the moves that lost most: {}", named.join(", "))
}

/// A bar's fill for one side.
#[derive(Component, Clone, Copy)]
struct Fill(Side);

/// A bar's words.
#[derive(Component)]
struct Words;

/// An evaluation bar: beside the board, or on the broadcast.
#[derive(Component, Clone, Copy)]
pub struct Bar {
    pub broadcast: bool,
}

/// An evaluation bar, `height` pixels tall and text of `size`, the first side's part at the
/// bottom (as its pieces sit nearer the player), with its words above it.
pub fn spawn_bar(parent: &mut ChildSpawnerCommands, bar: Bar, height: f32, size: f32) {
    parent
        .spawn((
            Node { flex_direction: FlexDirection::Column, row_gap: px(4), align_items: AlignItems::Start, ..default() },
            Visibility::Hidden,
            Pickable::IGNORE,
            bar,
        ))
        .with_children(|p| {
            p.spawn((
                Text::new(""),
                TextFont { font_size: FontSize::Px(size), ..default() },
                TextColor(Color::WHITE),
                TextShadow::default(),
                Pickable::IGNORE,
                Words,
            ));
            p.spawn((
                Node {
                    width: px(size * 1.1),
                    height: px(height),
                    flex_direction: FlexDirection::Column,
                    border: UiRect::all(px(2)),
                    ..default()
                },
                BorderColor::all(Color::srgba(0.0, 0.0, 0.0, 0.7)),
                Pickable::IGNORE,
            ))
            .with_children(|b| {
                b.spawn((Node { width: percent(100), height: percent(50), ..default() }, Fill(Side::Second)));
                b.spawn((Node { width: percent(100), height: percent(50), ..default() }, Fill(Side::First)));
            });
        });
}

/// The bar beside the board at the table, at the bottom left, below the state panel.
pub(crate) fn spawn_table_bar(mut commands: Commands) {
    commands
        .spawn((
            // At the bottom left, above the controls' line and below the state panel.
            Node { position_type: PositionType::Absolute, left: px(12), bottom: px(72), ..default() },
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|p| spawn_bar(p, Bar { broadcast: false }, 260.0, 15.0));
}

/// The bars follow the evaluation: their fills, their words, whether they show.
#[allow(clippy::type_complexity)]
fn refresh_bars(
    session: Res<Session>,
    eval: Res<Evaluation>,
    screen: Res<State<Screen>>,
    mut bars: Query<(&Bar, &mut Visibility, &Children)>,
    mut words: Query<&mut Text, With<Words>>,
    mut fills: Query<(&Fill, &mut Node, &mut BackgroundColor)>,
    children: Query<&Children>,
) {
    if !session.is_changed() && !eval.is_changed() && !screen.is_changed() {
        return;
    }
    let variant = session.game.variant();
    let value = eval.of(&session.game);
    let playing = *screen.get() == Screen::Playing;
    for (bar, mut vis, kids) in &mut bars {
        let on = playing && if bar.broadcast { eval.broadcast } else { eval.shown };
        let want = if on { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
        for kid in kids.iter() {
            if let Ok(mut t) = words.get_mut(kid) {
                let s = value.map_or("weighing...".to_string(), |v| crate::ai::standing(variant, v));
                if t.0 != s {
                    t.0 = s;
                }
            }
            for fill in children.get(kid).map(|c| c.iter().collect::<Vec<_>>()).unwrap_or_default() {
                if let Ok((f, mut node, mut colour)) = fills.get_mut(fill) {
                    let share = value.map_or(0.5, |v| if f.0 == Side::First { v } else { 1.0 - v });
                    let h = percent((share * 100.0) as f32);
                    if node.height != h {
                        node.height = h;
                    }
                    let c = side_colour(variant, f.0);
                    if colour.0 != c {
                        colour.0 = c;
                    }
                }
            }
        }
    }
}
