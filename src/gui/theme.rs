//! The shared widgets and colours of the screens and overlays (menu, settings, broadcast,
//! evaluation bar), so that none imports another for a button or a colour.

use crate::rules::{Side, Variant};
use bevy::prelude::*;

/// A menu button: its text's size, its padding above and below and its margin, its colour.
/// Its border shows when it is the one chosen (a cue besides its colour).
pub fn styled_button<'a>(
    p: &'a mut ChildSpawnerCommands,
    text: &str,
    size: f32,
    (pad, margin): (f32, f32),
    colour: Color,
) -> EntityCommands<'a> {
    p.spawn((
        Button,
        Node {
            padding: UiRect::axes(px(10), px(pad)),
            margin: UiRect::all(px(margin)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(colour),
        children![label(text, size)],
    ))
}

/// A button's words: not a target of clicks of their own.
pub fn label(s: &str, size: f32) -> (Text, TextFont, Pickable) {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, Pickable::IGNORE)
}

/// A side's colour as the game's pieces show it, for the names.
pub fn side_colour(variant: Variant, side: Side) -> Color {
    match (variant, side) {
        (Variant::Ordo | Variant::OrdoX, Side::First) => Color::srgb(0.95, 0.93, 0.86),
        (Variant::Ordo | Variant::OrdoX, Side::Second) => Color::srgb(0.35, 0.55, 1.0),
        (Variant::Crossings, Side::First) => Color::srgb(0.95, 0.25, 0.2),
        (Variant::Crossings, Side::Second) => Color::srgb(0.6, 0.6, 0.62),
        (Variant::Volterra | Variant::VolterraFree, Side::First) => Color::srgb(0.95, 0.84, 0.62),
        (Variant::Volterra | Variant::VolterraFree, Side::Second) => Color::srgb(0.7, 0.45, 0.25),
        (Variant::Ctor8 | Variant::Ctor10, Side::First) => Color::srgb(0.55, 0.55, 0.58),
        (Variant::Ctor8 | Variant::Ctor10, Side::Second) => Color::srgb(0.97, 0.97, 0.95),
    }
}
/// A PNG bundled in the binary (the menu's and the rules panel's pictures) as an image asset;
/// the default (blank) image if it cannot be read.
pub fn bundled_png(images: &mut Assets<Image>, png: &[u8]) -> Handle<Image> {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
    Image::from_buffer(
        png,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::default(),
        RenderAssetUsages::default(),
    )
    .map(|image| images.add(image))
    .unwrap_or_default()
}

/// The colour of a menu choice, and of the one chosen.
pub const CHOICE: Color = Color::srgb(0.25, 0.16, 0.08);
pub const CHOSEN: Color = Color::srgb(0.52, 0.34, 0.12);
