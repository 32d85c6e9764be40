//! The look every screen shares: one palette, one scale of text sizes, the fonts, and the
//! widgets built from them (buttons, texts, panels), so that the menu, the table's panels, the
//! rules, the settings and the tips read as one thing and none imports another for a colour.
//!
//! Type: Noto Sans (regular and bold, OFL: `assets/fonts/LICENSE-NotoSans.txt`) for every
//! word, DejaVu Sans Mono (`assets/fonts/LICENSE-DejaVu.txt`) for notation only (the move
//! list, positions). Colours: light text on dark, warm surfaces; every text colour keeps a
//! contrast of at least 4.5:1 (WCAG AA) on every surface it is drawn on ([`TEXT_PAIRS`],
//! checked by a test).

use crate::rules::{Side, Variant};
use bevy::asset::uuid_handle;
use bevy::prelude::*;

/// The palette.
pub mod colour {
    use bevy::prelude::Color;

    /// Words.
    pub const TEXT: Color = Color::srgb(0.95, 0.93, 0.89);
    /// Secondary words: a card's line, a caption, a key beside its action.
    pub const MUTED: Color = Color::srgb(0.75, 0.72, 0.67);
    /// What asks for attention: a notice, a refusal, a prompt.
    pub const NOTICE: Color = Color::srgb(1.0, 0.80, 0.47);
    /// Team play's seats and other plain information set apart.
    pub const INFO: Color = Color::srgb(0.72, 0.85, 1.0);

    /// The panels over the table (nearly opaque, so that words read over any part of it).
    pub const SURFACE: Color = Color::srgba(0.075, 0.07, 0.065, 0.93);
    /// Full-screen and modal surfaces (the menu's page, the settings, a hand-over screen).
    pub const PAGE: Color = Color::srgb(0.09, 0.085, 0.08);
    /// A control (button, card, segment) at rest.
    pub const CONTROL: Color = Color::srgb(0.19, 0.18, 0.17);
    /// The control chosen (a card, a segment, an option that is on).
    pub const CHOSEN: Color = Color::srgb(0.35, 0.25, 0.12);
    /// The chosen control's edge, a cue besides its colour.
    pub const CHOSEN_EDGE: Color = Color::srgb(0.98, 0.76, 0.38);
    /// The one main action of a screen (Start, Done) and what is left to do.
    pub const PRIMARY: Color = Color::srgb(0.12, 0.40, 0.24);
    /// The result of a game.
    pub const BANNER: Color = Color::srgb(0.40, 0.09, 0.06);
    /// A tip.
    pub const TIP: Color = Color::srgb(0.10, 0.23, 0.32);
    /// The keyboard's focus: an outline around the control reached, the frame on the board.
    pub const FOCUS: Color = Color::srgb(1.0, 0.55, 0.0);
    /// Behind the window's content before the table draws.
    pub const CLEAR: Color = Color::srgb(0.16, 0.14, 0.13);
}

/// The scale of text sizes, in pixels (before the UI scale).
pub mod size {
    /// Keys, captions, a card's line.
    pub const SMALL: f32 = 12.5;
    /// Most words.
    pub const BODY: f32 = 14.5;
    /// A control's words, a panel's heading.
    pub const LABEL: f32 = 16.5;
    /// Whose turn it is; a screen's part.
    pub const TITLE: f32 = 21.0;
    /// A result, a hand-over screen.
    pub const HEADING: f32 = 28.0;
    /// The name on the front door.
    pub const DISPLAY: f32 = 44.0;
}

/// Every pair of a text colour and a surface it is drawn on, named, for the contrast test.
pub const TEXT_PAIRS: &[(&str, Color, Color)] = {
    use colour::*;
    &[
        ("text on a panel", TEXT, SURFACE),
        ("text on a page", TEXT, PAGE),
        ("text on a control", TEXT, CONTROL),
        ("text on a chosen control", TEXT, CHOSEN),
        ("text on the main action", TEXT, PRIMARY),
        ("text on the result", TEXT, BANNER),
        ("text on a tip", TEXT, TIP),
        ("muted on a panel", MUTED, SURFACE),
        ("muted on a page", MUTED, PAGE),
        ("muted on a control", MUTED, CONTROL),
        ("muted on a chosen control", MUTED, CHOSEN),
        ("notice on a panel", NOTICE, SURFACE),
        ("notice on a page", NOTICE, PAGE),
        ("info on a panel", INFO, SURFACE),
    ]
};

/// WCAG's contrast ratio of two colours (1 to 21); a translucent surface is taken over
/// whichever of black and white gives the lower ratio.
pub fn contrast(text: Color, surface: Color) -> f32 {
    let lum = |c: Srgba| {
        let lin = |v: f32| if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) };
        0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
    };
    let ratio = |a: f32, b: f32| (a.max(b) + 0.05) / (a.min(b) + 0.05);
    let t = text.to_srgba();
    let s = surface.to_srgba();
    [0.0f32, 1.0]
        .map(|base| {
            let over = |v: f32| v * s.alpha + base * (1.0 - s.alpha);
            ratio(lum(t), lum(Srgba::rgb(over(s.red), over(s.green), over(s.blue))))
        })
        .into_iter()
        .fold(f32::MAX, f32::min)
}

/// The interface's font (the default handle: every text without a font of its own).
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSans-Regular.ttf");
/// Its bold, for headings and whose turn it is.
pub const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/NotoSans-Bold.ttf");
/// Notation: the move list, positions.
pub const FONT_MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// The bold font's handle.
pub const BOLD: Handle<Font> = uuid_handle!("5b0f4b8e-3f0e-4a57-9d0c-2a51e1c3b7a1");
/// The notation's font's handle.
pub const MONO: Handle<Font> = uuid_handle!("a3c1d9e2-6b7f-4c18-8e25-7f4d0b9a6c32");

/// Puts the fonts where their handles find them: Bevy's own default font holds only printable
/// ASCII, so a name like "José", a "×" or a "–" drew as a box.
pub fn install_fonts(app: &mut App) {
    let Some(mut fonts) = app.world_mut().get_resource_mut::<Assets<Font>>() else { return };
    for (id, bytes) in [(AssetId::default(), FONT), (BOLD.id(), FONT_BOLD), (MONO.id(), FONT_MONO)] {
        if let Err(e) = fonts.insert(id, Font::from_bytes(bytes.to_vec())) {
            warn!("a bundled font could not be used: {e}");
        }
    }
}

/// Words in the interface's font: not a target of clicks of their own.
pub fn text(s: impl Into<String>, size: f32, colour: Color) -> (Text, TextFont, TextColor, Pickable) {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour), Pickable::IGNORE)
}

/// Words in bold.
pub fn bold(s: impl Into<String>, size: f32, colour: Color) -> (Text, TextFont, TextColor, Pickable) {
    let font = TextFont { font: BOLD.into(), font_size: FontSize::Px(size), ..default() };
    (Text::new(s), font, TextColor(colour), Pickable::IGNORE)
}

/// Notation, in the monospaced font.
pub fn mono(s: impl Into<String>, size: f32, colour: Color) -> (Text, TextFont, TextColor, Pickable) {
    let font = TextFont { font: MONO.into(), font_size: FontSize::Px(size), ..default() };
    (Text::new(s), font, TextColor(colour), Pickable::IGNORE)
}

/// A control's words.
pub fn label(s: &str, size: f32) -> (Text, TextFont, TextColor, Pickable) {
    text(s, size, colour::TEXT)
}

/// A button: its words, their size, its padding above and below and its margin, its colour.
/// Its border shows when it is the one chosen (a cue besides its colour).
pub fn styled_button<'a>(
    p: &'a mut ChildSpawnerCommands,
    words: &str,
    size: f32,
    (pad, margin): (f32, f32),
    colour: Color,
) -> EntityCommands<'a> {
    p.spawn((
        Button,
        Node {
            padding: UiRect::axes(px(12), px(pad)),
            margin: UiRect::all(px(margin)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(8)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BorderColor::all(Color::NONE),
        BackgroundColor(colour),
        children![label(words, size)],
    ))
}

/// A button of the usual size and colour.
pub fn button<'a>(p: &'a mut ChildSpawnerCommands, words: &str) -> EntityCommands<'a> {
    styled_button(p, words, size::BODY, (6.0, 3.0), colour::CONTROL)
}

/// A chosen control's look: its fill and its edge.
pub fn chosen_look(chosen: bool, rest: Color) -> (Color, Color) {
    if chosen { (colour::CHOSEN, colour::CHOSEN_EDGE) } else { (rest, Color::NONE) }
}

/// A panel's node: rounded, padded, in a column.
pub fn panel_node(f: impl FnOnce(&mut Node)) -> Node {
    let mut node = Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(12)),
        border_radius: BorderRadius::all(px(10)),
        row_gap: px(4),
        ..default()
    };
    f(&mut node);
    node
}

/// A round swatch of a side's colour beside its name (its fill set by whoever shows the side).
pub fn swatch(diameter: f32) -> (Node, BorderColor, BackgroundColor, Pickable) {
    let node = Node {
        width: px(diameter),
        height: px(diameter),
        margin: UiRect::right(px(diameter * 0.55)),
        border: UiRect::all(px(1)),
        border_radius: BorderRadius::MAX,
        flex_shrink: 0.0,
        ..default()
    };
    (node, BorderColor::all(colour::MUTED), BackgroundColor(Color::NONE), Pickable::IGNORE)
}

/// A side's colour as the game's pieces show it, for its name and the swatch beside it.
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
