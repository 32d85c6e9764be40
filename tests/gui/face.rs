//! The table's face: one palette whose texts read (WCAG AA contrast), used by every screen; and
//! a layout where nothing overlaps, overflows or leaves the window, at three window sizes, in
//! both profiles, with every game, in the menu, at the table, in the rules panel, the settings
//! and the table's menu. Drawn off-screen by the renderer a window uses (lavapipe here).

use bevy::prelude::*;
use bevy::ui::{ComputedNode, UiGlobalTransform};
use tablero::gui::theme::{self, colour};

#[test]
fn every_text_colour_of_the_theme_keeps_aa_contrast_on_its_surfaces() {
    for (name, text, surface) in theme::TEXT_PAIRS {
        let ratio = theme::contrast(*text, *surface);
        assert!(ratio >= 4.5, "{name}: contrast {ratio:.2}, under 4.5");
    }
    // WCAG's own figures: white on black is 21, a colour on itself 1.
    assert!((theme::contrast(Color::WHITE, Color::BLACK) - 21.0).abs() < 0.01);
    assert!((theme::contrast(colour::CONTROL, colour::CONTROL) - 1.0).abs() < 1e-4);
    // The check can fail: grey on a slightly darker grey, or text on a see-through surface over
    // white, is refused.
    assert!(theme::contrast(Color::srgb(0.5, 0.5, 0.5), Color::srgb(0.4, 0.4, 0.4)) < 4.5);
    assert!(theme::contrast(colour::TEXT, Color::BLACK.with_alpha(0.2)) < 4.5);
    // Every named pair is a pair the screens draw: the text colours and surfaces are the palette's.
    assert!(theme::TEXT_PAIRS.len() >= 10);
}

/// One palette: the screens' sources write no colour of their own, only the theme's.
#[test]
fn the_screens_take_every_colour_from_the_theme() {
    // Every file under src/gui/screens, those of its folders (the menu's, the panels') too.
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui/screens")];
    let mut files = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                assert!(
                    !line.contains("Color::srgb") && !line.contains("Color::WHITE"),
                    "{}:{}: a colour of its own: {line}",
                    path.display(),
                    i + 1
                );
            }
        }
    }
    assert!(files >= 10, "the screens' files were read ({files})");
}

/// A node as laid out: its rectangle in the picture (physical pixels), the part of it an
/// ancestor that clips lets show, and what it draws.
struct Laid {
    e: Entity,
    rect: Rect,
    shown: Rect,
    ancestors: Vec<Entity>,
    /// Drawn: a fill, an edge, a picture or words.
    drawn: bool,
    /// Its words' size, if it has words.
    text: Option<Vec2>,
    /// An open panel over the rest (a global z-index above 0).
    over: bool,
    words: String,
}

fn intersects(a: Rect, b: Rect) -> bool {
    let i = a.intersect(b);
    i.width() > 1.0 && i.height() > 1.0
}

/// What is wrong with the layout on screen now: overlaps, words too big for their node, nodes
/// outside their parent or the window.
fn problems(app: &mut App, size: Vec2) -> Vec<String> {
    use tablero::gui::frame::board::CoordLabel;
    use tablero::gui::look::render::Backdrop;
    let world = app.world_mut();
    let mut q = world.query::<(
        Entity,
        &ComputedNode,
        &UiGlobalTransform,
        Option<&InheritedVisibility>,
        Option<&BackgroundColor>,
        Option<&BorderColor>,
        Has<ImageNode>,
        Option<&bevy::text::TextLayoutInfo>,
        Option<&GlobalZIndex>,
        Option<&Node>,
        Has<CoordLabel>,
        Has<Backdrop>,
    )>();
    let parents: std::collections::HashMap<Entity, Entity> = {
        let mut p = world.query::<(Entity, &ChildOf)>();
        p.iter(world).map(|(e, c)| (e, c.parent())).collect()
    };
    let texts: std::collections::HashMap<Entity, String> = {
        let mut t = world.query::<(Entity, &Text)>();
        t.iter(world).map(|(e, t)| (e, t.0.clone())).collect()
    };
    struct Raw {
        rect: Rect,
        visible: bool,
        clips: bool,
        scene: bool,
        drawn: bool,
        text: Option<Vec2>,
        over: bool,
    }
    let mut raw = std::collections::HashMap::new();
    for (e, node, at, vis, bg, border, image, layout, z, style, coord, backdrop) in q.iter(world) {
        let centre = at.affine().translation;
        let rect = Rect::from_center_size(centre, node.size());
        let has_border = node.border().min_inset.max_element() > 0.0 || node.border().max_inset.max_element() > 0.0;
        let drawn = bg.is_some_and(|b| b.0.alpha() > 0.0)
            || (has_border && border.is_some_and(|b| b.top.alpha() > 0.0))
            || image
            || layout.is_some_and(|l| l.size.x > 0.5);
        let clips =
            style.is_some_and(|s| s.overflow.x != OverflowAxis::Visible || s.overflow.y != OverflowAxis::Visible);
        raw.insert(
            e,
            Raw {
                rect,
                visible: vis.is_none_or(|v| v.get()) && node.size().x > 0.0 && node.size().y > 0.0,
                clips,
                scene: coord || backdrop,
                drawn,
                text: layout.map(|l| l.size),
                over: z.is_some_and(|z| z.0 > 0),
            },
        );
    }
    let mut laid = Vec::new();
    for (&e, r) in &raw {
        let mut ancestors = Vec::new();
        let mut at = e;
        let mut shown = r.rect;
        let mut scene = r.scene;
        let mut visible = r.visible;
        while let Some(&p) = parents.get(&at) {
            ancestors.push(p);
            if let Some(pr) = raw.get(&p) {
                scene |= pr.scene;
                visible &= pr.visible;
                if pr.clips {
                    shown = shown.intersect(pr.rect);
                }
            }
            at = p;
        }
        if !visible || scene || shown.width() <= 0.0 || shown.height() <= 0.0 {
            continue;
        }
        laid.push(Laid {
            e,
            rect: r.rect,
            shown,
            ancestors,
            drawn: r.drawn,
            text: r.text,
            over: r.over,
            words: texts.get(&e).cloned().unwrap_or_default(),
        });
    }
    let name = |l: &Laid| {
        if l.words.is_empty() {
            format!("{:?} at {:?}", l.e, l.rect)
        } else {
            format!("{:?} {:?} at {:?}", l.e, l.words.chars().take(40).collect::<String>(), l.rect)
        }
    };
    let window = Rect::new(0.0, 0.0, size.x, size.y);
    let mut out = Vec::new();
    // Open panels hide what they cover.
    let panels: Vec<&Laid> = laid.iter().filter(|l| l.over).collect();
    let covered = |l: &Laid| {
        panels.iter().any(|p| p.e != l.e && !l.ancestors.contains(&p.e) && intersects(p.shown, l.shown))
            && !l.over
            && !l.ancestors.iter().any(|a| panels.iter().any(|p| p.e == *a))
    };
    let drawn: Vec<&Laid> = laid.iter().filter(|l| l.drawn && !covered(l)).collect();
    for l in &drawn {
        // Within the window.
        let inside = l.shown.intersect(window);
        if (inside.width() - l.shown.width()).abs() > 1.0 || (inside.height() - l.shown.height()).abs() > 1.0 {
            out.push(format!("leaves the window: {}", name(l)));
        }
        // Its words within it.
        // (Glyphs' advances are rounded: a few pixels are allowed.)
        if let Some(t) = l.text
            && (t.x > l.rect.width() + 4.0 || t.y > l.rect.height() + 4.0)
        {
            out.push(format!("words larger than their node ({t:?}): {}", name(l)));
        }
        // Within its parent, unless the parent clips it (then it shows only inside).
        // (The nearest ancestor that is drawn or clips: a row without a fill of its own that
        // spills out of its panel is found by its buttons.)
        let holder = l
            .ancestors
            .iter()
            .find_map(|a| laid.iter().find(|x| x.e == *a).filter(|x| x.drawn || raw.get(a).is_some_and(|r| r.clips)));
        if let Some(p) = holder
            && !raw.get(&p.e).is_some_and(|r| r.clips)
        {
            let i = l.rect.intersect(p.rect);
            if (i.width() - l.rect.width()).abs() > 1.0 || (i.height() - l.rect.height()).abs() > 1.0 {
                out.push(format!("outside its parent {}: {}", name(p), name(l)));
            }
        }
    }
    // No two drawn nodes intersect, unless one is inside the other's tree.
    for (i, a) in drawn.iter().enumerate() {
        for b in &drawn[i + 1..] {
            if a.ancestors.contains(&b.e) || b.ancestors.contains(&a.e) {
                continue;
            }
            if intersects(a.shown, b.shown) {
                out.push(format!("overlap: {} and {}", name(a), name(b)));
            }
        }
    }
    out
}

/// Sizes the overlap test lays out at.
const SIZES: [(u32, u32); 3] = [(1280, 720), (1920, 1080), (1024, 640)];

/// Lays out, then returns what is wrong, named by where.
fn check(view: &mut tablero::gui::Offscreen, size: Vec2, what: &str, found: &mut Vec<String>) {
    // A frame lays out what the last change asked for (the panels follow their switches in
    // Update, the layout and the words' measure in PostUpdate).
    view.frame();
    for p in problems(&mut view.app, size) {
        found.push(format!("{what}: {p}"));
    }
}

#[test]
fn nothing_overlaps_in_the_menu_at_the_table_or_in_the_panels() {
    use tablero::gui::look::render::Quality;
    use tablero::gui::screens::choice::MenuChoice;
    use tablero::gui::screens::guide::RulesOpen;
    use tablero::gui::screens::hud::ActionsOpen;
    use tablero::gui::screens::menu::MenuPage;
    use tablero::gui::screens::prefs::SettingsOpen;
    use tablero::gui::{Offscreen, Screen};
    use tablero::rules::Variant;
    let mut found = Vec::new();
    let mut checked = 0;
    for quality in [Quality::Software, Quality::Full] {
        let (w, h) = SIZES[0];
        let mut view = match Offscreen::interface(w, h, Some(quality)) {
            Ok(v) => v,
            Err(why) if crate::render::may_skip(&why.to_string()) => {
                return eprintln!("skipping the layout test: {why}");
            }
            Err(why) => panic!("{why}"),
        };
        for (w, h) in SIZES {
            view.resize(w, h);
            // The new size reaches the layout a frame later.
            view.frame();
            view.frame();
            let size = Vec2::new(w as f32, h as f32);
            let at = |what: &str| format!("{quality:?} {w}x{h} {what}");
            // The menu: every game chosen; CTOR with its largest team block; the second page;
            // the rules and the settings over it.
            for (i, variant) in Variant::ALL.iter().enumerate() {
                view.app.world_mut().resource_mut::<MenuChoice>().game = i.min(6);
                check(&mut view, size, &at(&format!("menu, {variant}")), &mut found);
                checked += 1;
            }
            {
                let mut choice = view.app.world_mut().resource_mut::<MenuChoice>();
                choice.game = 6;
                choice.teams = 2;
                choice.players = [tablero::gui::frame::session::PlayerKind::Ai(3); 2];
            }
            check(&mut view, size, &at("menu, CTOR 3 against 3"), &mut found);
            *view.app.world_mut().resource_mut::<MenuPage>() = MenuPage::More;
            check(&mut view, size, &at("menu, second page"), &mut found);
            *view.app.world_mut().resource_mut::<MenuPage>() = MenuPage::Games;
            for (open, what) in [(true, false), (false, true)] {
                view.app.world_mut().resource_mut::<RulesOpen>().0 = open;
                view.app.world_mut().resource_mut::<SettingsOpen>().0 = what;
                check(&mut view, size, &at(if open { "menu, rules" } else { "menu, settings" }), &mut found);
            }
            view.app.world_mut().resource_mut::<SettingsOpen>().0 = false;
            *view.app.world_mut().resource_mut::<MenuChoice>() = MenuChoice::default();
            // Each game at the table, some moves in, with its panels.
            for variant in Variant::ALL {
                let mut table = tablero::table::Table::new(
                    variant.initial(),
                    [tablero::gui::frame::session::PlayerKind::Person; 2],
                    3,
                );
                for _ in 0..24 {
                    if tablero::rules::Game::outcome(&table.game).is_some() {
                        break;
                    }
                    let _ = table.apply(tablero::table::Intent::PlayRandom);
                }
                tablero::gui::open(table)(view.app.world_mut());
                // The evaluation bar shown too, at its place beside the panels.
                view.app.world_mut().resource_mut::<tablero::gui::stream::eval::Evaluation>().shown = true;
                view.frame();
                view.frame();
                assert_eq!(*view.app.world().resource::<State<Screen>>().get(), Screen::Playing, "{variant}");
                check(&mut view, size, &at(&format!("{variant} at the table")), &mut found);
                for (rules, settings, actions, what) in
                    [(true, false, false, "rules"), (false, true, false, "settings"), (false, false, true, "menu")]
                {
                    view.app.world_mut().resource_mut::<RulesOpen>().0 = rules;
                    view.app.world_mut().resource_mut::<SettingsOpen>().0 = settings;
                    view.app.world_mut().resource_mut::<ActionsOpen>().0 = actions;
                    check(&mut view, size, &at(&format!("{variant} at the table, {what}")), &mut found);
                }
                view.app.world_mut().resource_mut::<ActionsOpen>().0 = false;
                view.app.world_mut().resource_mut::<SettingsOpen>().0 = false;
                view.app.world_mut().resource_mut::<RulesOpen>().0 = false;
                checked += 4;
                view.app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
                view.frame();
            }
        }
    }
    println!("{checked} layouts checked");
    found.dedup();
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The check itself can fail: two panels put on top of each other, and a word too long for
/// its box, are found.
#[test]
fn the_overlap_check_finds_an_overlap_and_words_too_big() {
    use tablero::gui::Offscreen;
    let mut view = match Offscreen::interface(640, 360, None) {
        Ok(v) => v,
        Err(why) if crate::render::may_skip(&why.to_string()) => {
            return eprintln!("skipping the layout test: {why}");
        }
        Err(why) => panic!("{why}"),
    };
    let spawn = |app: &mut App, left: f32, words: &str, width: f32| -> Entity {
        app.world_mut()
            .spawn((
                Node {
                    position_type: PositionType::Absolute,
                    left: px(left),
                    top: px(100),
                    width: px(width),
                    overflow: Overflow::visible(),
                    ..default()
                },
                BackgroundColor(colour::CONTROL),
                children![(Text::new(words), TextLayout::no_wrap(), Node::default())],
            ))
            .id()
    };
    let a = spawn(&mut view.app, 100.0, "a", 100.0);
    let b = spawn(&mut view.app, 150.0, "b", 100.0);
    spawn(&mut view.app, 400.0, "a word far too long for so small a box", 40.0);
    let mut found = Vec::new();
    check(&mut view, Vec2::new(640.0, 360.0), "test", &mut found);
    let (a, b) = (format!("{a:?} at"), format!("{b:?} at"));
    assert!(found.iter().any(|p| p.contains("overlap") && p.contains(&a) && p.contains(&b)), "{found:?}");
    assert!(
        found
            .iter()
            .any(|p| p.contains("a word far too long") && (p.contains("outside its parent") || p.contains("larger"))),
        "{found:?}"
    );
}
