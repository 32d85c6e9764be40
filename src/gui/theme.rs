//! The shared widgets of the screens (menu, settings), so that no screen imports another for
//! a button: the styled button and its label.

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

pub fn label(s: &str, size: f32) -> (Text, TextFont, Pickable) {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, Pickable::IGNORE)
}
