//! The camera: orbit with the right button, pan with the middle button, zoom with the wheel,
//! so the left button only ever picks; presets for the top view and each player's view.

use crate::gui::frame::board::Layout;
use crate::gui::sets::room::Room;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;

/// Whether photo mode is on.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhotoMode(pub bool);

/// A piece brought close at the table (`G`, see `photo.rs`): its cell, and the view to go
/// back to.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Inspecting {
    pub cell: Option<crate::rules::Cell>,
    pub back_to: Option<Orbit>,
}

/// How close the camera may come: in play, and in photo mode.
pub const NEAREST: f32 = 4.0;
pub const NEAREST_PHOTO: f32 = 1.2;

/// Where the camera looks from: around `focus`, at `yaw` and `pitch`, `distance` away.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    pub focus: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
}

/// The camera views players can jump to.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Top,
    First,
    Second,
    Reset,
}

impl Orbit {
    /// A preset for a board of `layout`'s size.
    pub fn preset(view: View, layout: &Layout) -> Orbit {
        let span = layout.files.max(layout.ranks) as f32 + Room::of(layout.variant).margin();
        let distance = span * 1.25 + 2.0;
        // From a player's side the camera looks at a point a little nearer to it than the
        // board's centre, so the board sits higher in the picture, clear of the buttons along
        // the bottom (at 1280 x 720 CTOR's last border row lay under them).
        let near = span * 0.06;
        match view {
            View::Top => {
                Orbit { focus: Vec3::new(0.0, 0.0, 0.03 * span), yaw: 0.0, pitch: 1.5, distance: distance * 1.08 }
            }
            View::First | View::Reset => Orbit { focus: Vec3::new(0.0, 0.0, near), yaw: 0.0, pitch: 0.95, distance },
            View::Second => {
                Orbit { focus: Vec3::new(0.0, 0.0, -near), yaw: std::f32::consts::PI, pitch: 0.95, distance }
            }
        }
    }

    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        Transform::from_translation(self.focus + offset).looking_at(self.focus, Vec3::Y)
    }
}

/// The camera's systems (labels over the board follow them).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Steering;

/// The player's camera: the one the mouse steers and picks through, under the player's panels.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayerCamera;

/// The camera for a board: Orbit, Transform and the 3D camera itself.
pub fn camera_bundle(layout: &Layout) -> impl Bundle {
    let orbit = Orbit::preset(View::First, layout);
    (Camera3d::default(), orbit, orbit.transform(), Msaa::Sample4)
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<View>().add_systems(Startup, spawn).add_systems(
        Update,
        (presets, steer).chain().in_set(crate::gui::frame::steps::TableSystems::Present).in_set(Steering),
    );
}

fn spawn(mut commands: Commands, layout: Res<Layout>) {
    commands.spawn((
        camera_bundle(&layout),
        PlayerCamera,
        IsDefaultUiCamera,
        MeshPickingCamera,
        crate::gui::frame::board::player_layers(),
    ));
}

fn presets(
    mut views: MessageReader<View>,
    layout: Res<Layout>,
    mut cams: Query<&mut Orbit, With<PlayerCamera>>,
    mut framed: Local<Option<(u8, u8, crate::rules::Variant)>>,
) {
    // A board of another size: frame it from the first player's side.
    if *framed != Some((layout.files, layout.ranks, layout.variant)) {
        *framed = Some((layout.files, layout.ranks, layout.variant));
        for mut orbit in &mut cams {
            *orbit = Orbit::preset(View::First, &layout);
        }
    }
    for view in views.read() {
        for mut orbit in &mut cams {
            *orbit = Orbit::preset(*view, &layout);
        }
    }
}

fn steer(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    settings: Option<Res<crate::settings::Settings>>,
    photo: Option<Res<PhotoMode>>,
    inspecting: Option<Res<Inspecting>>,
    mut cams: Query<(&mut Orbit, &mut Transform), With<PlayerCamera>>,
) {
    // Photo mode lets the camera come closer and lower (a macro shot of a tower).
    // So does a piece brought close.
    let close = photo.is_some_and(|p| p.0) || inspecting.is_some_and(|i| i.cell.is_some());
    let (nearest, lowest) = if close { (NEAREST_PHOTO, 0.03) } else { (NEAREST, 0.15) };
    // The settings' sensitivity scales every movement; inverted, dragging turns the other way.
    let (k, sign) = settings.map_or((1.0, 1.0), |s| (s.camera_sensitivity, if s.invert_camera { -1.0 } else { 1.0 }));
    for (mut orbit, mut tf) in &mut cams {
        let delta = motion.delta * k;
        if buttons.pressed(MouseButton::Right) && delta != Vec2::ZERO {
            orbit.yaw -= sign * delta.x * 0.006;
            orbit.pitch = (orbit.pitch + sign * delta.y * 0.006).clamp(lowest, 1.55);
        }
        if buttons.pressed(MouseButton::Middle) && delta != Vec2::ZERO {
            let right = tf.right().as_vec3();
            let forward = Vec3::new(-orbit.yaw.sin(), 0.0, -orbit.yaw.cos());
            let k = orbit.distance * 0.0015;
            orbit.focus += (-right * delta.x + forward * delta.y) * k;
            orbit.focus = orbit.focus.clamp(Vec3::new(-8.0, 0.0, -8.0), Vec3::new(8.0, 0.0, 8.0));
        }
        if scroll.delta.y != 0.0 {
            let lines = match scroll.unit {
                MouseScrollUnit::Line => scroll.delta.y,
                MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
            } * k;
            orbit.distance = (orbit.distance * (1.0 - lines * 0.08)).clamp(nearest, 40.0);
        }
        let want = orbit.transform();
        if *tf != want {
            *tf = want;
        }
    }
}
