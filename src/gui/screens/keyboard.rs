//! Play by keyboard: the arrow keys move a cursor over the board's cells (a1 first), `Enter`
//! clicks the cell under it (the same `CellClicked` a pick sends, so the picker, the refusals
//! and the animations are the same), `Tab` jumps to the next piece that can move (or, with a
//! piece chosen, to the next square it can go to; `Shift+Tab` goes back), the number keys
//! answer the list when a click fits several moves, `Space` ends a CTOR turn and `L` starts a
//! Landing. The cursor is an orange frame around its cell, shown once a key has moved it.
//!
//! In the menu, in the settings panel and the table's menu while they are open, and at the
//! table after the last piece (`Tab` goes on from the board to the table's controls, and from
//! the last control back to the board), `Tab` and the arrows walk the buttons shown
//! (`Shift+Tab`, up and left go back), and `Enter` or `Space` presses the one reached, through
//! the same click its mouse press sends; it wears an orange outline.

use crate::gui::frame::board::{CellClicked, Layout, PLAYER_ONLY, cell_pos};
use crate::gui::frame::keymap::{Action, Pressed};
use crate::gui::frame::session::{Command, Picking, Session};
use crate::gui::frame::steps::{Screen, TableSystems};
use crate::rules::{AnyGame, Cell};
use bevy::prelude::*;

/// Where the keyboard's cursor is, if a key has placed it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor(pub Option<Cell>);

/// The frame that shows the cursor.
#[derive(Component)]
struct CursorMark;

/// The button the keyboard has reached (in the menu, or in the settings panel while it is
/// open), if a key has reached one.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ButtonFocus(pub Option<Entity>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Cursor>()
        .init_resource::<ButtonFocus>()
        .init_resource::<BackToBoard>()
        .add_systems(OnEnter(Screen::Playing), (spawn_mark, unfocus))
        .add_systems(OnEnter(Screen::Menu), unfocus)
        .init_resource::<KeysTaken>()
        // The buttons' keys first, then the board's: each reads every frame (no key is read
        // twice, nor late), and the board leaves alone a key the buttons took.
        .add_systems(
            PreUpdate,
            button_keys
                .after(crate::gui::frame::keymap::read_keys)
                .before(TableSystems::Input)
                .after(bevy::input::InputSystems),
        )
        .add_systems(PreUpdate, keys.in_set(TableSystems::Input))
        .add_systems(Update, show.in_set(TableSystems::Present))
        .add_systems(
            Update,
            (
                outline_focus.run_if(resource_changed::<ButtonFocus>),
                to_board.run_if(resource_exists::<Session>.and_then(resource_changed::<BackToBoard>)),
            )
                .chain(),
        );
}

/// Whether the buttons' keys took this frame's keys (the board then leaves them alone).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
struct KeysTaken(bool);

/// What decides who takes the keys: the panels open, photo mode, a name being typed.
#[derive(bevy::ecs::system::SystemParam)]
struct Panels<'w> {
    settings: Option<Res<'w, crate::gui::screens::prefs::SettingsOpen>>,
    actions: Option<Res<'w, crate::gui::screens::hud::ActionsOpen>>,
    photo: Option<Res<'w, crate::gui::look::camera::PhotoMode>>,
    seats: Option<Res<'w, crate::gui::screens::choice::MenuSeats>>,
}

impl Panels<'_> {
    /// The settings panel or the table's menu is open: the keys walk its buttons.
    fn open(&self) -> bool {
        self.settings.as_ref().is_some_and(|o| o.0) || self.actions.as_ref().is_some_and(|o| o.0)
    }

    /// Photo mode is on (Enter takes the photo), or a member's name is being typed.
    fn elsewhere(&self) -> bool {
        self.photo.as_ref().is_some_and(|m| m.0) || self.seats.as_ref().is_some_and(|s| s.editing.is_some())
    }
}

/// Whether a UI entity is shown: neither it nor a parent is hidden or out of the layout.
fn shown(e: Entity, nodes: &Query<(Option<&Node>, Option<&Visibility>, Option<&ChildOf>)>) -> bool {
    let mut at = Some(e);
    while let Some(x) = at {
        let Ok((node, vis, parent)) = nodes.get(x) else { return true };
        if node.is_some_and(|n| n.display == Display::None) || vis == Some(&Visibility::Hidden) {
            return false;
        }
        at = parent.map(|p| p.parent());
    }
    true
}

/// The UI's tree, to walk the buttons in the order they are laid out.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Tree<'w, 's> {
    roots: Query<'w, 's, Entity, (With<Node>, Without<ChildOf>)>,
    children: Query<'w, 's, &'static Children>,
    nodes: Query<'w, 's, (Option<&'static Node>, Option<&'static Visibility>, Option<&'static ChildOf>)>,
    buttons: Query<'w, 's, (), With<Button>>,
    modal: Query<
        'w,
        's,
        Entity,
        Or<(With<crate::gui::screens::prefs::SettingsPanel>, With<crate::gui::screens::hud::ActionsMenu>)>,
    >,
}

impl Tree<'_, '_> {
    /// The buttons shown, in the tree's order (down each column, the columns left to right):
    /// only an open panel's (the settings', the table's menu) while one is open.
    pub(crate) fn buttons(&self) -> Vec<Entity> {
        let open: Vec<Entity> = self.modal.iter().filter(|e| shown(*e, &self.nodes)).collect();
        let mut roots: Vec<Entity> = if open.is_empty() { self.roots.iter().collect() } else { open };
        roots.sort();
        let mut order = Vec::new();
        let mut stack: Vec<Entity> = roots.into_iter().rev().collect();
        while let Some(e) = stack.pop() {
            if self.buttons.contains(e) && shown(e, &self.nodes) {
                order.push(e);
            }
            if let Ok(kids) = self.children.get(e) {
                stack.extend(kids.iter().rev());
            }
        }
        order
    }
}

/// `Tab`, the arrows, `Enter` and `Space` over the buttons shown. At the table, Tab past the
/// last control (Shift+Tab before the first) goes back to the board's pieces, and Escape too.
#[allow(clippy::too_many_arguments)]
fn button_keys(
    mut commands: Commands,
    mut pressed: MessageReader<Pressed>,
    mut focus: ResMut<ButtonFocus>,
    tree: Tree,
    screen: Res<State<Screen>>,
    mut back: ResMut<BackToBoard>,
    panels: Panels,
    mut taken: ResMut<KeysTaken>,
) {
    let actions: Vec<Action> = pressed.read().map(|Pressed(a)| *a).collect();
    let has = |a: Action| actions.contains(&a);
    let active = panels.open() || *screen.get() == Screen::Menu || focus.0.is_some();
    taken.0 = active && !panels.elsewhere();
    if !taken.0 {
        return;
    }
    let order = tree.buttons();
    let panel_open = tree.modal.iter().any(|e| shown(e, &tree.nodes));
    let at_table = *screen.get() == Screen::Playing && !panel_open;
    if focus.0.is_some_and(|f| !order.contains(&f)) {
        focus.0 = None;
        if at_table {
            return;
        }
    }
    if order.is_empty() {
        return;
    }
    // Back to the board: past either end of the controls, or Escape.
    let mut back_to_board = |focus: &mut ButtonFocus, last: bool| {
        focus.0 = None;
        back.0 = Some(last);
    };
    if at_table && has(Action::Cancel) {
        back_to_board(&mut focus, false);
        return;
    }
    let step = if has(Action::Next) || has(Action::Previous) {
        Some(has(Action::Previous))
    } else if has(Action::Down) || has(Action::Right) {
        Some(false)
    } else if has(Action::Up) || has(Action::Left) {
        Some(true)
    } else {
        None
    };
    if let Some(back) = step {
        let n = order.len();
        let i = focus.0.and_then(|f| order.iter().position(|e| *e == f));
        let tab = has(Action::Next) || has(Action::Previous);
        if at_table && tab && matches!((i, back), (Some(0), true)) {
            back_to_board(&mut focus, true);
            return;
        }
        if at_table && tab && i == Some(n - 1) && !back {
            back_to_board(&mut focus, false);
            return;
        }
        let j = match (i, back) {
            (None, false) => 0,
            (None, true) => n - 1,
            (Some(i), false) => (i + 1) % n,
            (Some(i), true) => (i + n - 1) % n,
        };
        focus.0 = Some(order[j]);
    }
    if (has(Action::Enter) || has(Action::Space))
        && let Some(e) = focus.0
    {
        commands.trigger(click_on(e));
    }
}

/// A new screen starts with no button reached.
fn unfocus(mut focus: ResMut<ButtonFocus>) {
    focus.0 = None;
}

/// The keyboard left the table's controls for the board: the cursor goes to the first piece
/// that can move (`Some(true)`: the last).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackToBoard(pub Option<bool>);

fn to_board(mut back: ResMut<BackToBoard>, session: Res<Session>, picking: Res<Picking>, mut cursor: ResMut<Cursor>) {
    let Some(last) = back.0.take() else { return };
    let cells: Vec<Cell> = picking.picker.selectable(&session.game).into_iter().collect();
    cursor.0 = if last { cells.last().copied() } else { cells.first().copied() };
}

/// The click a mouse press on `target` sends (sent by a key instead, or by a test).
pub fn click_on(target: Entity) -> Pointer<Click> {
    use bevy::camera::NormalizedRenderTarget;
    use bevy::picking::backend::HitData;
    use bevy::picking::pointer::{Location, PointerId};
    let location = Location { target: NormalizedRenderTarget::None { width: 1, height: 1 }, position: Vec2::ZERO };
    let hit = HitData::new(Entity::PLACEHOLDER, 0.0, None, None);
    let click = Click { button: PointerButton::Primary, hit, duration: std::time::Duration::ZERO, count: 1 };
    Pointer::new(PointerId::Mouse, location, click, target)
}

/// The button reached wears an orange outline.
fn outline_focus(mut commands: Commands, focus: Res<ButtonFocus>, mut had: Local<Option<Entity>>) {
    if *had == focus.0 {
        return;
    }
    if let Some(old) = had.take()
        && let Ok(mut e) = commands.get_entity(old)
    {
        e.try_remove::<Outline>();
    }
    if let Some(new) = focus.0
        && let Ok(mut e) = commands.get_entity(new)
    {
        e.try_insert(Outline::new(px(3), px(1), crate::gui::theme::colour::FOCUS));
        *had = Some(new);
    }
}

fn spawn_mark(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut cursor: ResMut<Cursor>,
) {
    cursor.0 = None;
    // A frame of four bars around the cell: seen over any highlight, by its shape too.
    let mut bar = |w: f32, d: f32| meshes.add(Cuboid::new(w, 0.06, d));
    let (long, wide) = (bar(1.0, 0.09), bar(0.09, 1.0));
    let material = materials.add(StandardMaterial {
        base_color: crate::gui::theme::colour::FOCUS,
        emissive: LinearRgba::rgb(0.9, 0.4, 0.0),
        unlit: true,
        ..default()
    });
    let layer = bevy::camera::visibility::RenderLayers::layer(PLAYER_ONLY);
    commands
        .spawn((Transform::default(), Visibility::Hidden, layer.clone(), CursorMark, DespawnOnExit(Screen::Playing)))
        .with_children(|frame| {
            for (mesh, x, z) in [(&long, 0.0, 0.46), (&long, 0.0, -0.46), (&wide, 0.46, 0.0), (&wide, -0.46, 0.0)] {
                frame.spawn((
                    Mesh3d(mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    Transform::from_xyz(x, 0.0, z),
                    layer.clone(),
                    Pickable::IGNORE,
                ));
            }
        });
}

fn on_board(game: &AnyGame, c: Cell) -> bool {
    let (files, ranks) = game.board_size();
    c.file < files && c.rank < ranks
}

/// The next of `cells` after `now` (before it, `back`), going round.
fn cycle(cells: &[Cell], now: Option<Cell>, back: bool) -> Option<Cell> {
    if cells.is_empty() {
        return None;
    }
    let i = now.and_then(|c| cells.iter().position(|x| *x == c));
    let n = cells.len();
    let j = match (i, back) {
        (None, false) => 0,
        (None, true) => n - 1,
        (Some(i), false) => (i + 1) % n,
        (Some(i), true) => (i + n - 1) % n,
    };
    Some(cells[j])
}

#[allow(clippy::too_many_arguments)]
fn keys(
    mut pressed: MessageReader<Pressed>,
    session: Res<Session>,
    picking: Res<Picking>,
    mut cursor: ResMut<Cursor>,
    mut clicks: MessageWriter<CellClicked>,
    mut cmds: MessageWriter<Command>,
    mut focus: ResMut<ButtonFocus>,
    tree: Tree,
    panels: Panels,
    taken: Res<KeysTaken>,
) {
    let actions: Vec<Action> = pressed.read().map(|Pressed(a)| *a).collect();
    if taken.0 || panels.open() || panels.elsewhere() {
        return;
    }
    let has = |a: Action| actions.contains(&a);
    let game = picking.shown(&session.game);
    // The arrows: a1 first, then a cell at a time, staying on the board.
    for (key, df, dr) in [(Action::Left, -1i32, 0i32), (Action::Right, 1, 0), (Action::Up, 0, 1), (Action::Down, 0, -1)]
    {
        if has(key) {
            cursor.0 = Some(match cursor.0 {
                None => Cell::new(0, 0),
                Some(c) => {
                    let next = Cell::new((c.file as i32 + df).max(0) as u8, (c.rank as i32 + dr).max(0) as u8);
                    if on_board(&game, next) { next } else { c }
                }
            });
        }
    }
    if has(Action::Next) || has(Action::Previous) {
        let back = has(Action::Previous);
        let targets = picking.picker.targets(&session.game);
        let cells: Vec<Cell> = if picking.picker.selected.is_some() && !targets.is_empty() {
            targets.into_iter().collect()
        } else {
            picking.picker.selectable(&session.game).into_iter().collect()
        };
        // Past the last piece (before the first), on to the table's controls.
        let i = cursor.0.and_then(|c| cells.iter().position(|x| *x == c));
        let past = match (i, back) {
            (_, _) if cells.is_empty() => true,
            (Some(i), false) => i + 1 == cells.len(),
            (Some(0), true) => true,
            _ => false,
        };
        let controls = if past { tree.buttons() } else { Vec::new() };
        if !controls.is_empty() {
            focus.0 = if back { controls.last().copied() } else { controls.first().copied() };
            cursor.0 = None;
        } else if let Some(c) = cycle(&cells, cursor.0, back) {
            cursor.0 = Some(c);
        }
    }
    if has(Action::Enter)
        && let Some(c) = cursor.0
    {
        clicks.write(CellClicked(c));
    }
    // The list of moves a click fits: 1 to 9.
    for n in 1..=9u8 {
        if has(Action::Choice(n))
            && let Some((_, part)) = picking.choices.get(n as usize - 1)
        {
            cmds.write(Command::Choose(part.clone()));
        }
    }
    if matches!(session.game, AnyGame::Ctor(_)) {
        if has(Action::Space) {
            cmds.write(Command::EndTurn);
        }
        if has(Action::Landing) {
            cmds.write(Command::Landing);
        }
    }
}

/// The cursor's frame follows it.
fn show(
    cursor: Res<Cursor>,
    layout: Res<Layout>,
    mut marks: Query<(&mut Transform, &mut Visibility), With<CursorMark>>,
) {
    if !cursor.is_changed() && !layout.is_changed() {
        return;
    }
    for (mut tf, mut vis) in &mut marks {
        match cursor.0 {
            Some(c) => {
                tf.translation = cell_pos(&layout, c) + Vec3::Y * 0.02;
                *vis = Visibility::Inherited;
            }
            None => *vis = Visibility::Hidden,
        }
    }
}
