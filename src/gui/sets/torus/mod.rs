//! CTOR's torus: the N × N field with its edge squares coloured, the auxiliary border drawn a
//! little apart whose duplicate discs always show what their originals show, and two-sided
//! discs (black face, white face) that flip with a half-turn, one after another in the
//! rules' cascade order. The white face carries a grey ring, so that the faces differ by more
//! than their colour.

use super::add_room;
use super::room::Room;
use crate::gui::frame::animate::{Speed, Tween};
use crate::gui::frame::board::{BOARD_TOP, BoardItem, Layout, Marks, ShowLabels, cell_pos, highlight, with_mark};
use crate::gui::frame::board::{OnCell, pickable};
use crate::gui::frame::session::{Highlights, MovesToPlan, Picking, Session};
use crate::rules::ctor::Ctor;
use crate::rules::{AnyGame, Cell, Effect, Side};
use crate::sound::Sound;
use bevy::prelude::*;
use std::collections::HashMap;

pub mod doughnut;
pub mod marks;

pub const DISC_R: f32 = 0.4;
pub const DISC_H: f32 = 0.1;
/// How far the border ring stands apart from the field.
const GAP: f32 = 0.35;
const DROP: f32 = 0.3;
const SLIDE: f32 = 0.35;
const FLIP: f32 = 0.4;

/// A disc on the field, showing `up`.
#[derive(Component, Clone, Copy, Debug)]
pub struct Disc {
    pub cell: Option<Cell>,
    pub up: Side,
}

/// A copy of a field disc on the border cell `at` (file, rank in -1..N).
#[derive(Component, Clone, Copy, Debug)]
pub struct Duplicate {
    pub at: (i8, i8),
    pub up: Side,
}

/// A square of the main field, or a border square showing the main square `of`.
#[derive(Component, Clone, Copy, Debug)]
pub struct FieldSquare {
    pub of: Cell,
    pub border: bool,
}

impl OnCell for FieldSquare {
    fn cell(&self) -> Option<Cell> {
        Some(self.of)
    }
}

#[derive(Resource)]
pub struct TorusSet {
    half: Handle<Mesh>,
    square: Handle<Mesh>,
    faces: [Handle<StandardMaterial>; 2],
    field: Handle<StandardMaterial>,
    edge: Handle<StandardMaterial>,
    border: Handle<StandardMaterial>,
    target: Handle<StandardMaterial>,
    selected: Handle<StandardMaterial>,
    /// The white half with its ring: one mesh, the ring darkened by vertex colour
    /// (no extra entity per disc: a full 10 x 10 field has 144 of them).
    white_half: Handle<Mesh>,
}

/// How far the ring stands off the white face.
const RING_H: f32 = 0.003;

/// The face-up rotation of a disc: black on top is the identity.
pub fn face(up: Side) -> Quat {
    if up == Side::First { Quat::IDENTITY } else { Quat::from_rotation_x(std::f32::consts::PI) }
}

pub fn disc_pos(layout: &Layout, c: Cell) -> Vec3 {
    cell_pos(layout, c).with_y(BOARD_TOP + DISC_H / 2.0 + 0.02)
}

/// Where a border cell lies: past the field's edge, a gap further out.
pub fn border_pos(layout: &Layout, (file, rank): (i8, i8)) -> Vec3 {
    let n = layout.files as i8;
    let half = (n as f32 - 1.0) / 2.0;
    let push = |v: i8| {
        if v < 0 {
            -GAP
        } else if v >= n {
            GAP
        } else {
            0.0
        }
    };
    Vec3::new(file as f32 - half + push(file), BOARD_TOP + DISC_H / 2.0 + 0.02, half - rank as f32 - push(rank))
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup).add_systems(Update, follow_palette.run_if(resource_changed::<super::Palette>));
    add_room(app, Room::Torus, build, plan, verify, (paint, numbers));
    doughnut::plugin(app);
    marks::plugin(app);
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    quality: Option<Res<crate::gui::look::render::Quality>>,
) {
    use crate::gui::look::render::{Quality, round_segments};
    let software = quality.as_deref() == Some(&Quality::Software);
    let segments = round_segments(quality.as_deref());
    // The software profile draws the field at a few pixels a square, where the gaps between
    // squares (a twenty-fifth of a square) would fall between pixels, shown in some places and
    // not in others: there the squares meet, and each draws its outline from a texture,
    // filtered evenly at any distance.
    let outline = software.then(|| images.add(outlined_square()));
    let mut mat = |c: Color, r: f32, texture: Option<Handle<Image>>| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: r,
            base_color_texture: texture,
            ..default()
        })
    };
    let faces = [mat(Color::srgb(0.05, 0.05, 0.06), 0.35, None), mat(Color::srgb(0.95, 0.95, 0.92), 0.35, None)];
    let field = mat(Color::srgb(0.82, 0.74, 0.58), 0.8, outline.clone());
    let edge = mat(Color::srgb(0.55, 0.68, 0.78), 0.8, outline.clone());
    let border = mat(Color::srgb(0.42, 0.36, 0.30), 0.9, outline.clone());
    // The palette's colours are given by `follow_palette`.
    let target = mat(Color::WHITE, 0.5, outline.clone());
    let selected = mat(Color::WHITE, 0.5, outline);
    let side = if software { 1.0 } else { 0.96 };
    commands.insert_resource(TorusSet {
        half: meshes.add(Cylinder::new(DISC_R, DISC_H / 2.0).mesh().resolution(segments)),
        square: meshes.add(Cuboid::new(side, 0.04, side)),
        faces,
        field,
        edge,
        border,
        target,
        selected,
        white_half: meshes.add(white_half(segments)),
    });
}

/// A square's colour over its face: white, darkened along its edges (as wide as the gap the
/// full look leaves between squares), with its mipmaps.
fn outlined_square() -> Image {
    const SIZE: u32 = 64;
    let rim = 0.025 * SIZE as f32;
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for j in 0..SIZE {
        for i in 0..SIZE {
            let edge = [i, j, SIZE - 1 - i, SIZE - 1 - j].into_iter().min().unwrap_or(0) as f32 + 0.5;
            let v = if edge < rim { 70 } else { 255 };
            data.extend_from_slice(&[v, v, v, 255]);
        }
    }
    crate::gui::frame::board::square_image(SIZE, data, bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb)
}

/// The white half of a disc with the ring on its outer face (below it, as the half lies under
/// the black one): grey by vertex colour, on the white material.
fn white_half(segments: u32) -> Mesh {
    let coloured = |mut m: Mesh, grey: f32| {
        m.remove_attribute(Mesh::ATTRIBUTE_UV_0);
        let n = m.count_vertices();
        m.insert_attribute(Mesh::ATTRIBUTE_COLOR, vec![[grey, grey, grey, 1.0]; n]);
        m
    };
    let mut half = coloured(Cylinder::new(DISC_R, DISC_H / 2.0).mesh().resolution(segments).build(), 1.0);
    // A flat ring just proud of the face: a few triangles (lavapipe pays for every one).
    let ring = Annulus::new(DISC_R * 0.5, DISC_R * 0.7)
        .mesh()
        .resolution(20)
        .build()
        .rotated_by(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
        .translated_by(Vec3::new(0.0, -DISC_H / 4.0 - RING_H, 0.0));
    // Vertex colours are linear: 0.21 is the mid grey (0.5 in sRGB) the ring had as a material.
    if let Err(e) = half.merge(&coloured(ring, 0.21)) {
        warn!("the disc's ring could not be made: {e}");
    }
    half
}

/// The highlights in the palette's colours (at start, and when it changes).
fn follow_palette(palette: Res<super::Palette>, set: Res<TorusSet>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let c = super::Colours::of(*palette);
    super::reglow(&mut materials, &set.target, c.target);
    super::reglow(&mut materials, &set.selected, c.selected);
}

fn build(
    mut commands: Commands,
    session: Res<Session>,
    picking: Res<Picking>,
    set: Res<TorusSet>,
    layout: Res<Layout>,
) {
    let AnyGame::Ctor(g) = picking.shown(&session.game) else { return };
    let n = g.size();
    for rank in 0..n {
        for file in 0..n {
            let c = Cell::new(file, rank);
            let edge = file == 0 || rank == 0 || file == n - 1 || rank == n - 1;
            let mat = if edge { set.edge.clone() } else { set.field.clone() };
            let mut square = commands.spawn((
                Mesh3d(set.square.clone()),
                MeshMaterial3d(mat),
                Transform::from_translation(cell_pos(&layout, c).with_y(BOARD_TOP - 0.01)),
                FieldSquare { of: c, border: false },
                BoardItem,
            ));
            pickable::<FieldSquare>(&mut square);
            with_mark(&mut square, set.square.clone());
            if let Some(sq) = g.square(c)
                && let Some(side) = g.disc(sq)
            {
                spawn_disc(&mut commands, &set, Disc { cell: Some(c), up: side }, disc_pos(&layout, c));
            }
        }
    }
    for ((file, rank), sq) in g.border() {
        let of = g.cell(sq);
        let mut square = commands.spawn((
            Mesh3d(set.square.clone()),
            MeshMaterial3d(set.border.clone()),
            Transform::from_translation(border_pos(&layout, (file, rank)).with_y(BOARD_TOP - 0.01)),
            FieldSquare { of, border: true },
            BoardItem,
        ));
        pickable::<FieldSquare>(&mut square);
        with_mark(&mut square, set.square.clone());
        if let Some(side) = g.disc(sq) {
            spawn_duplicate(
                &mut commands,
                &set,
                Duplicate { at: (file, rank), up: side },
                border_pos(&layout, (file, rank)),
            );
        }
    }
}

/// A two-sided disc: a black half on top of a white half with its ring, turned over to show
/// white.
fn disc_halves(set: &TorusSet) -> impl Bundle {
    children![
        (
            Mesh3d(set.half.clone()),
            MeshMaterial3d(set.faces[0].clone()),
            Transform::from_xyz(0.0, DISC_H / 4.0, 0.0),
            Pickable::IGNORE
        ),
        (
            Mesh3d(set.white_half.clone()),
            MeshMaterial3d(set.faces[1].clone()),
            Transform::from_xyz(0.0, -DISC_H / 4.0, 0.0),
            Pickable::IGNORE
        ),
    ]
}

fn spawn_disc(commands: &mut Commands, set: &TorusSet, disc: Disc, at: Vec3) -> Entity {
    commands
        .spawn((
            Transform::from_translation(at).with_rotation(face(disc.up)),
            Visibility::default(),
            disc,
            BoardItem,
            disc_halves(set),
        ))
        .id()
}

fn spawn_duplicate(commands: &mut Commands, set: &TorusSet, dup: Duplicate, at: Vec3) -> Entity {
    commands
        .spawn((
            Transform::from_translation(at).with_rotation(face(dup.up)).with_scale(Vec3::splat(0.85)),
            Visibility::default(),
            dup,
            BoardItem,
            disc_halves(set),
        ))
        .id()
}

#[allow(clippy::too_many_arguments)]
fn plan(
    mut moves: MovesToPlan,
    mut commands: Commands,
    mut discs: Query<(Entity, &mut Disc)>,
    mut dups: Query<(Entity, &mut Duplicate), Without<Disc>>,
    transforms: Query<&Transform>,
    layout: Res<Layout>,
    set: Res<TorusSet>,
    speed: Res<Speed>,
) {
    let f = speed.factor();
    for parts in moves.read() {
        let mut on: HashMap<Cell, Entity> = discs.iter().filter_map(|(e, d)| d.cell.map(|c| (c, e))).collect();
        let mut copies: HashMap<(i8, i8), Entity> = dups.iter().map(|(e, d)| (d.at, e)).collect();
        let mut cursor = 0.0;
        let mut last = 0.0;
        let supply = Vec3::new(layout.files as f32 / 2.0 + 2.0, 0.1, 0.0);
        // Translations and rotations to animate: entity, target, delay, duration, lift.
        let mut slides: Vec<(Entity, Vec3, f32, f32, f32)> = Vec::new();
        let mut turns: Vec<(Entity, Side, f32, f32)> = Vec::new();
        // What a disc's tween sounds like (the border's copies are silent).
        let mut sounds: HashMap<Entity, Sound> = HashMap::new();
        for effect in parts.into_iter().flatten() {
            match effect {
                Effect::Placed { at, side } => {
                    let to = disc_pos(&layout, *at);
                    let e = spawn_disc(&mut commands, &set, Disc { cell: Some(*at), up: *side }, to + Vec3::Y * 1.5);
                    on.insert(*at, e);
                    commands.entity(e).insert(Tween::falling(to, 1.5, cursor, DROP * f).sounding(Sound::DiscSet));
                    last = cursor;
                    cursor += DROP * f * 0.6;
                }
                Effect::Moved { from, to } => {
                    if let Some(e) = on.remove(from) {
                        on.insert(*to, e);
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.cell = Some(*to);
                        }
                        slides.push((e, disc_pos(&layout, *to), cursor, SLIDE * f, 0.5));
                        sounds.insert(e, Sound::DiscSet);
                        last = cursor;
                        cursor += SLIDE * f;
                    }
                }
                Effect::Removed { at } => {
                    if let Some(e) = on.remove(at) {
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.cell = None;
                        }
                        slides.push((e, supply, cursor, SLIDE * f, 1.0));
                        sounds.insert(e, Sound::DiscSet);
                        last = cursor;
                        cursor += SLIDE * f * 0.4;
                    }
                }
                Effect::Flipped { at, to } => {
                    if let Some(&e) = on.get(at) {
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.up = *to;
                        }
                        turns.push((e, *to, cursor, FLIP * f));
                        slides.push((e, disc_pos(&layout, *at), cursor, FLIP * f, 0.35));
                        sounds.insert(e, Sound::DiscFlipped);
                        last = cursor;
                        cursor += FLIP * f * 0.7;
                    }
                }
                Effect::Border { file, rank, side } => {
                    let at = (*file, *rank);
                    match (side, copies.get(&at).copied()) {
                        (None, Some(e)) => {
                            copies.remove(&at);
                            commands.entity(e).despawn();
                        }
                        (Some(s), Some(e)) => {
                            if let Ok((_, mut d)) = dups.get_mut(e)
                                && d.up != *s
                            {
                                d.up = *s;
                                turns.push((e, *s, last, FLIP * f));
                                slides.push((e, border_pos(&layout, at), last, FLIP * f, 0.3));
                            }
                        }
                        (Some(s), None) => {
                            let to = border_pos(&layout, at);
                            let e = spawn_duplicate(&mut commands, &set, Duplicate { at, up: *s }, to + Vec3::Y * 1.5);
                            copies.insert(at, e);
                            commands.entity(e).insert(Tween::falling(to, 1.5, last, DROP * f));
                        }
                        (None, None) => {}
                    }
                }
                _ => {}
            }
        }
        // One tween a disc: the last planned for it, turning over if it flips.
        let mut tweens: HashMap<Entity, Tween> = HashMap::new();
        for (e, to, delay, duration, lift) in slides {
            let from = transforms.get(e).map(|t| t.translation).unwrap_or(to);
            tweens.insert(e, Tween::slide(from, to, delay, duration, lift));
        }
        for (e, up, delay, duration) in turns {
            let from = transforms.get(e).map(|t| t.rotation).unwrap_or(face(up.other()));
            let at = transforms.get(e).map(|t| t.translation).unwrap_or_default();
            let tween = tweens.remove(&e).unwrap_or_else(|| Tween::slide(at, at, delay, duration, 0.0));
            tweens.insert(e, tween.turning(from, face(up)));
        }
        for (e, tween) in tweens {
            commands.entity(e).insert(tween.sounding(sounds.get(&e).copied()));
        }
    }
}

/// Highlights: where the selected disc can go, and the discs chosen for a Landing.
fn paint(
    marks: Res<Highlights>,
    layout: Res<Layout>,
    set: Res<TorusSet>,
    squares: Query<(&FieldSquare, &Children)>,
    mut shells: Marks,
) {
    let n = layout.files;
    for (sq, children) in &squares {
        let c = sq.of;
        let own = if sq.border {
            &set.border
        } else if c.file == 0 || c.rank == 0 || c.file == n - 1 || c.rank == n - 1 {
            &set.edge
        } else {
            &set.field
        };
        let want = if marks.selected.contains(&c) {
            &set.selected
        } else if marks.targets.contains(&c) {
            &set.target
        } else {
            own
        };
        highlight(children, &mut shells, want, own);
    }
}

/// A square's number, shown over it on request.
#[derive(Component)]
pub struct SquareNumber;

/// The squares' numbers (as moves are written), while they are shown.
fn numbers(
    mut commands: Commands,
    show: Res<ShowLabels>,
    session: Res<Session>,
    layout: Res<Layout>,
    labels: Query<Entity, With<SquareNumber>>,
    mut shown_for: Local<Option<u8>>,
) {
    let AnyGame::Ctor(g) = &session.game else { return };
    let have: Vec<Entity> = labels.iter().collect();
    if !super::relabel(&mut shown_for, show.0.then_some(g.size()), &have, &mut commands) {
        return;
    }
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let c = Cell::new(file, rank);
            let sq = g.square(c).unwrap_or(0);
            let at = cell_pos(&layout, c) + Vec3::new(-0.3, 0.12, -0.3);
            commands.spawn((
                crate::gui::frame::board::label(sq.to_string(), 12.0, Color::srgb(1.0, 1.0, 0.7), at),
                SquareNumber,
                BoardItem,
            ));
        }
    }
}

/// Once the table settles, the discs and their copies must show the shown position;
/// otherwise the scene is rebuilt (and counted).
fn verify(discs: Query<(&Disc, &Transform)>, copies: Query<(&Duplicate, &Transform)>, mut check: super::SceneCheck) {
    if let Some(shown) = check.shown() {
        let ok = torus_matches(&shown, &check.layout, discs.iter(), copies.iter());
        check.expect(ok);
    }
}

/// Whether the discs on the field and on the border show exactly the position: every disc on
/// its square face up as the rules say, every duplicate like its original.
pub fn torus_matches<'a>(
    game: &AnyGame,
    layout: &Layout,
    discs: impl Iterator<Item = (&'a Disc, &'a Transform)>,
    dups: impl Iterator<Item = (&'a Duplicate, &'a Transform)>,
) -> bool {
    let AnyGame::Ctor(g) = game else { return false };
    let up_of = |tf: &Transform| if (tf.rotation * Vec3::Y).y > 0.0 { Side::First } else { Side::Second };
    let mut on_field = 0;
    for (d, tf) in discs {
        let Some(c) = d.cell else { continue };
        on_field += 1;
        let Some(sq) = g.square(c) else { return false };
        if g.disc(sq) != Some(d.up) || up_of(tf) != d.up || tf.translation.distance(disc_pos(layout, c)) > 1e-3 {
            return false;
        }
    }
    let mut copies = 0;
    for (d, tf) in dups {
        copies += 1;
        let sq = g.border().into_iter().find(|(at, _)| *at == d.at).map(|(_, sq)| sq);
        if sq.and_then(|sq| g.disc(sq)) != Some(d.up)
            || up_of(tf) != d.up
            || tf.translation.distance(border_pos(layout, d.at)) > 1e-3
        {
            return false;
        }
    }
    let count = |g: &Ctor| g.count(Side::First) + g.count(Side::Second);
    let shown_copies = g.border().into_iter().filter(|(_, sq)| g.disc(*sq).is_some()).count();
    on_field == count(g) as usize && copies == shown_copies
}
