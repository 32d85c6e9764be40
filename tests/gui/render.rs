//! Renders the initial position of each stone game off-screen with `tablero screenshot` and
//! checks the picture: not blank, and the stones' colours on the board.

use std::process::Command;

/// Whether a Vulkan device can be expected: CI always renders; elsewhere a missing device
/// skips with a reason.
fn must_render() -> bool {
    std::env::var_os("CI").is_some()
}

/// Whether a render that failed with `why` may skip: only for want of a Vulkan adapter, and
/// only outside CI. Any other failure is a failure.
pub(crate) fn may_skip(why: &str) -> bool {
    why.contains(tablero::gui::offscreen::NO_VULKAN) && !must_render()
}

fn render(position: &str, name: &str) -> Option<(u32, u32, Vec<u8>)> {
    let out = std::env::temp_dir().join(format!("tablero-test-{name}.png"));
    let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["screenshot", position, "--out", out.to_str().unwrap(), "--size", "640x360"])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    if !run.status.success() {
        if may_skip(&err) {
            eprintln!("skipping the render test: {err}");
            return None;
        }
        panic!("screenshot failed: {err}");
    }
    Some(read_png(&out))
}

/// A PNG's size and its pixels as RGB.
fn read_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let rgb: Vec<u8> = buf.chunks(info.color_type.samples()).flat_map(|p| [p[0], p[1], p[2]]).collect();
    (info.width, info.height, rgb)
}

/// Pixels in the middle of the picture (the board) that match a colour test.
fn count(width: u32, height: u32, rgb: &[u8], test: impl Fn(u8, u8, u8) -> bool) -> usize {
    let (w, h) = (width as usize, height as usize);
    (h / 5..h * 9 / 10)
        .flat_map(|y| (w / 5..w * 4 / 5).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let i = (y * w + x) * 3;
            test(rgb[i], rgb[i + 1], rgb[i + 2])
        })
        .count()
}

#[test]
fn every_stone_game_renders_its_initial_position() {
    let cases: [(&str, &str, fn(u8, u8, u8) -> bool, fn(u8, u8, u8) -> bool); 3] = [
        (
            "ordo ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w",
            "ordo",
            |r, g, b| r > 200 && g > 200 && b > 190,
            |r, _, b| b > 150 && b as i32 > r as i32 + 60,
        ),
        (
            "ordo-x ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w",
            "ordo-x",
            |r, g, b| r > 200 && g > 200 && b > 190,
            |r, _, b| b > 150 && b as i32 > r as i32 + 60,
        ),
        (
            "crossings BBBBBBBB/BBBBBBBB/......../......../......../......../RRRRRRRR/RRRRRRRR r 0",
            "crossings",
            |r, g, b| r > 150 && r as i32 > 2 * g as i32 && r as i32 > 2 * b as i32,
            |r, g, b| r.max(g).max(b) < 85 && r.max(g).max(b) - r.min(g).min(b) < 12,
        ),
    ];
    for (position, name, first, second) in cases {
        let Some((w, h, rgb)) = render(position, name) else { return };
        assert_eq!((w, h), (640, 360));
        let distinct: std::collections::HashSet<&[u8]> = rgb.chunks(3).collect();
        assert!(distinct.len() > 500, "{name}: the picture is nearly blank ({} colours)", distinct.len());
        let (a, b) = (count(w, h, &rgb, first), count(w, h, &rgb, second));
        assert!(a > 2000, "{name}: too few pixels of the first side's stones: {a}");
        assert!(b > 2000, "{name}: too few pixels of the second side's stones: {b}");
    }
}

/// Light and dark pine, the felt, CTOR's field colours and its discs.
fn light_pine(r: u8, g: u8, b: u8) -> bool {
    r > 180 && g > 150 && b > 100 && r as i32 > b as i32 + 40
}
fn dark_pine(r: u8, g: u8, b: u8) -> bool {
    (60..170).contains(&r) && r as i32 > g as i32 + 20 && g as i32 > b as i32 && b < 90
}
fn felt(r: u8, g: u8, b: u8) -> bool {
    g as i32 > r as i32 + 15 && g > b && g > 40
}
fn edge_blue(r: u8, g: u8, b: u8) -> bool {
    b > 150 && b as i32 > r as i32 + 25 && g > 130
}
fn black_disc(r: u8, g: u8, b: u8) -> bool {
    r.max(g).max(b) < 85 && r.max(g).max(b) - r.min(g).min(b) < 12
}
fn white_disc(r: u8, g: u8, b: u8) -> bool {
    r > 215 && g > 215 && b > 205
}

#[test]
fn volterra_and_ctor_render_their_sets() {
    type Test = fn(u8, u8, u8) -> bool;
    let cases: [(&str, &str, &[(&str, Test)]); 5] = [
        (
            "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l",
            "volterra",
            &[("light pine", light_pine), ("dark pine", dark_pine)],
        ),
        ("volterra-free -,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- l", "volterra-free", &[("felt", felt)]),
        (
            "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0",
            "ctor8",
            &[("edge squares", edge_blue)],
        ),
        (
            "ctor10 ........../........../........../........../........../........../........../........../........../.......... b 1 P1M0L0 1v1 0",
            "ctor10",
            &[("edge squares", edge_blue)],
        ),
        (
            "ctor10 .BWWWW.WBB/BBW.B..B.B/BB......BB/........BB/...B....../.....B.B.B/W.B.....BB/B.W....W.B/B...W....B/BBB.WWWWBB w 48 P2M1L1 1v1 0",
            "ctor10-midgame",
            &[("black discs", black_disc), ("white discs", white_disc), ("edge squares", edge_blue)],
        ),
    ];
    for (position, name, tests) in cases {
        let Some((w, h, rgb)) = render(position, name) else { return };
        let distinct: std::collections::HashSet<&[u8]> = rgb.chunks(3).collect();
        assert!(distinct.len() > 300, "{name}: the picture is nearly blank ({} colours)", distinct.len());
        for (what, test) in tests {
            let n = count(w, h, &rgb, test);
            assert!(n > 1500, "{name}: too few pixels of {what}: {n}");
        }
    }
}

/// The software profile draws the table at a lower resolution and shows it scaled up: the
/// 3D camera draws into an image of `SOFTWARE_SCALE` of the output, and the output picture
/// is full size with the stones in place; the full profile draws straight into the output.
#[test]
fn the_software_profile_draws_the_table_smaller_and_scales_it_up() {
    use bevy::prelude::*;
    use tablero::gui::Offscreen;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::{Quality, SOFTWARE_SCALE, ScaledView};
    for quality in [Quality::Software, Quality::Full] {
        let game = tablero::rules::Variant::Ordo.initial();
        let mut view = match Offscreen::with_quality(game, [PlayerKind::Person; 2], 800, 450, Some(quality)) {
            Ok(v) => v,
            Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
            Err(why) => panic!("{why}"),
        };
        let out = std::env::temp_dir().join(format!("tablero-test-profile-{quality:?}.png"));
        view.save(&out).unwrap();
        let world = view.app.world_mut();
        let views: Vec<ScaledView> = world.query::<&ScaledView>().iter(world).cloned().collect();
        if quality == Quality::Software {
            assert_eq!(views.len(), 1, "the table camera draws into a smaller image");
            let images = world.resource::<Assets<Image>>();
            let size = images.get(&views[0].image).unwrap().size();
            assert_eq!(size, UVec2::new((800.0 * SOFTWARE_SCALE) as u32, (450.0 * SOFTWARE_SCALE) as u32));
        } else {
            assert!(views.is_empty(), "the full profile draws at the output's resolution");
        }
        let (width, height, rgb) = read_png(&out);
        assert_eq!((width, height), (800, 450), "{quality:?}: the picture is full size");
        let blue = count(800, 450, &rgb, |r, _, b| b > 150 && b as i32 > r as i32 + 60);
        assert!(blue > 1500, "{quality:?}: the blue stones show: {blue}");
    }
}

/// `tablero film` of a short record writes a GIF of the expected size whose frames decode, as
/// many as it says; a bad record fails before anything is written.
#[test]
fn a_film_of_a_short_record_is_a_gif_that_decodes() {
    let dir = std::env::temp_dir().join(format!("tablero-film-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (record, _) = crate::common::random_record(tablero::rules::Variant::Crossings.initial(), 5, 4);
    let rec = dir.join("game.json");
    std::fs::write(&rec, record.to_json()).unwrap();
    let out = dir.join("film.gif");
    let frames_dir = dir.join("frames");
    let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["film", rec.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(["--size", "320x180", "--fps", "5", "--pace", "0.4", "--frames-dir", frames_dir.to_str().unwrap()])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    if !run.status.success() && may_skip(&err) {
        return eprintln!("skipping the film test: {err}");
    }
    assert!(run.status.success(), "{err}");
    let said: usize =
        String::from_utf8_lossy(&run.stdout).split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (320, 180));
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, said, "the film has the frames it says");
    let pngs = std::fs::read_dir(&frames_dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "png"))
        .count();
    assert_eq!(pngs, frames, "--frames-dir holds every frame as a PNG");
    // 4 moves at 0.4 s and the end held 2 s, at 5 frames a second.
    assert!((14..=30).contains(&frames), "{frames} frames");
    assert!(!dir.join("film.gif.part").exists(), "no temporary file is left");
    // A record that does not replay: one line, no file.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, record.to_json().replace(&record.moves[0].mv, "z9-z8")).unwrap();
    let out2 = dir.join("bad.gif");
    let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["film", bad.to_str().unwrap(), "--out", out2.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).lines().count() == 1, "one line");
    assert!(!out2.exists() && !dir.join("bad.gif.part").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(dir);
}

/// A piece's top face as the camera sees it, in grey (0 to 255): the grey of most of it, and
/// how much its pixels vary (its pattern: a pip, a ring, an inlay, grain).
#[derive(Clone, Copy, Debug)]
struct Face {
    /// The grey of most of the face (its median: the body, not a small mark).
    body: f32,
    spread: f32,
}

/// Renders `game` in `palette` (full profile, 640 x 360) and reads the top face of every
/// piece on the board, by side: Ordo and Crossings stones, the top tile of every Volterra
/// tower, CTOR discs by the face they show.
fn faces_by_side(
    game: tablero::rules::AnyGame,
    palette: tablero::settings::Palette,
    name: &str,
) -> Option<[Vec<Face>; 2]> {
    use bevy::prelude::*;
    use tablero::gui::Offscreen;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::Quality;
    use tablero::gui::sets::{pine, stones, torus};
    let (w, h) = (640usize, 360usize);
    let mut view = match Offscreen::with_quality(game, [PlayerKind::Person; 2], w as u32, h as u32, Some(Quality::Full))
    {
        Ok(v) => v,
        Err(why) if may_skip(&why.to_string()) => {
            eprintln!("skipping the render test: {why}");
            return None;
        }
        Err(why) => panic!("{why}"),
    };
    view.app.insert_resource(palette);
    let out = std::env::temp_dir().join(format!("tablero-test-grey-{name}-{palette:?}.png"));
    view.save(&out).unwrap();
    let (_, _, rgb) = read_png(&out);
    let grey = |x: usize, y: usize| {
        let p = &rgb[(y * w + x) * 3..];
        0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32
    };
    let world = view.app.world_mut();
    let (camera, eye) =
        world.query::<(&Camera, &GlobalTransform)>().iter(world).next().map(|(c, g)| (c.clone(), *g)).unwrap();
    // Points of a top face around its centre: a disc of `r`, or a square of half side `r`.
    let face = |centre: Vec3, r: f32, round: bool| -> Face {
        let mut v = Vec::new();
        for i in -6..=6 {
            for j in -6..=6 {
                let (dx, dz) = (i as f32 / 6.0 * r, j as f32 / 6.0 * r);
                if round && dx * dx + dz * dz > r * r {
                    continue;
                }
                let Ok(p) = camera.world_to_viewport(&eye, centre + Vec3::new(dx, 0.0, dz)) else { continue };
                let (x, y) = (p.x.round() as usize, p.y.round() as usize);
                if x < w && y < h {
                    v.push(grey(x, y));
                }
            }
        }
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        let spread = (v.iter().map(|g| (g - mean).powi(2)).sum::<f32>() / v.len() as f32).sqrt();
        v.sort_by(f32::total_cmp);
        Face { body: v[v.len() / 2], spread }
    };
    let mut sides = [Vec::new(), Vec::new()];
    for (s, g) in world.query::<(&stones::Stone, &GlobalTransform)>().iter(world) {
        if s.cell.is_some() {
            let top = g.translation() + Vec3::Y * stones::STONE_H / 2.0;
            sides[s.side.index()].push(face(top, stones::STONE_R * 0.85, true));
        }
    }
    let mut towers: std::collections::HashMap<_, (u8, tablero::rules::Side, Vec3)> = Default::default();
    for (t, g) in world.query::<(&pine::Tile, &GlobalTransform)>().iter(world) {
        if let Some(c) = t.cell
            && towers.get(&c).is_none_or(|(level, _, _)| t.level > *level)
        {
            towers.insert(c, (t.level, t.side, g.translation()));
        }
    }
    for (_, side, at) in towers.into_values() {
        sides[side.index()].push(face(at + Vec3::Y * pine::THICK / 2.0, pine::TILE * 0.45, false));
    }
    for (d, g) in world.query::<(&torus::Disc, &GlobalTransform)>().iter(world) {
        if d.cell.is_some() {
            let top = g.translation() + Vec3::Y * torus::DISC_H / 2.0;
            sides[d.up.index()].push(face(top, torus::DISC_R * 0.85, true));
        }
    }
    Some(sides)
}

/// In either palette, the two sides' pieces differ in grey (as a person who sees no colour,
/// or a greyscale stream, sees them): clearly in brightness, and by the mark one side wears
/// (the pip, the ring, the inlay), which shows as a pattern the other side does not have.
#[test]
fn both_sides_pieces_differ_in_greyscale_in_every_palette() {
    use tablero::rules::Variant;
    use tablero::settings::Palette;
    let ctor = "ctor10 .BWWWW.WBB/BBW.B..B.B/BB......BB/........BB/...B....../.....B.B.B/W.B.....BB/B.W....W.B/B...W....B/BBB.WWWWBB w 48 P2M1L1 1v1 0";
    let cases = [
        ("ordo", Variant::Ordo.initial()),
        ("crossings", Variant::Crossings.initial()),
        ("volterra", "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l".parse().unwrap()),
        ("ctor", ctor.parse().unwrap()),
    ];
    for palette in [Palette::Classic, Palette::OkabeIto] {
        for (name, game) in &cases {
            let Some(sides) = faces_by_side(game.clone(), palette, name) else { return };
            let avg = |v: &[Face], f: fn(&Face) -> f32| v.iter().map(f).sum::<f32>() / v.len().max(1) as f32;
            let [a, b] = &sides;
            assert!(
                a.len() >= 8 && b.len() >= 8,
                "{name} {palette:?}: pieces of both sides seen: {} and {}",
                a.len(),
                b.len()
            );
            let (mean_a, mean_b) = (avg(a, |f| f.body), avg(b, |f| f.body));
            let (spread_a, spread_b) = (avg(a, |f| f.spread), avg(b, |f| f.spread));
            eprintln!("{name} {palette:?}: grey {mean_a:.0} and {mean_b:.0}, spread {spread_a:.1} and {spread_b:.1}");
            assert!(
                (mean_a - mean_b).abs() >= 40.0,
                "{name} {palette:?}: the sides' greys {mean_a:.0} and {mean_b:.0} are too close"
            );
            // The mark (always on the second side: CTOR's white face, Volterra's dark tiles, the
            // second side's stones): its faces vary clearly more than the plain side's.
            let (marked, plain) = (spread_b, spread_a);
            assert!(
                marked >= plain + 8.0,
                "{name} {palette:?}: the mark does not show: spread {marked:.1} against {plain:.1}"
            );
        }
    }
}

/// `tablero photo` renders a position from a named view at the size asked (no panels, no
/// labels), and refuses an unknown view or a size past 3840 x 2160 in one line, writing nothing.
#[test]
fn a_photo_is_rendered_from_its_view_and_bad_requests_are_refused() {
    let dir = std::env::temp_dir().join(format!("tablero-photo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let volterra = "volterra D,L,D,L/-,D,LL,D/-,Ll,DD,L/L,D,LDd,DL/-,-,D,L l";
    let out = dir.join("macro.png");
    let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["photo", volterra, "--out", out.to_str().unwrap(), "--size", "640x360", "--view", "macro"])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    if !run.status.success() && may_skip(&err) {
        return eprintln!("skipping the photo test: {err}");
    }
    assert!(run.status.success(), "{err}");
    let (width, height, rgb) = read_png(&out);
    assert_eq!((width, height), (640, 360));
    // Close up, the pine fills much of the picture.
    let pine = count(640, 360, &rgb, light_pine) + count(640, 360, &rgb, dark_pine);
    assert!(pine > 640 * 360 / 5, "the macro view is close to the tiles: {pine} pine pixels");
    // A variant's name is its start, for a photo and a screenshot as for every command.
    for command in ["photo", "screenshot"] {
        let named = dir.join(format!("{command}-named.png"));
        let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args([command, "volterra", "--out", named.to_str().unwrap(), "--size", "160x90"])
            .env("XDG_RUNTIME_DIR", std::env::temp_dir())
            .output()
            .unwrap();
        assert!(run.status.success(), "{command} volterra: {}", String::from_utf8_lossy(&run.stderr));
        assert_eq!(read_png(&named).0, 160);
    }
    // CTOR on the doughnut, in the photo's light: the torus's edge colour and both faces of
    // the discs, and a picture unlike the flat field's from the first player's view.
    let ctor = "ctor8 BB.W..W./.BWW.B../..B..W../W..BB.../.W....B./..WW..B./B....W../.B..W..W b 9 P2M2L1 1v1 0";
    let mut pictures = Vec::new();
    for view in ["doughnut", "first"] {
        let out = dir.join(format!("ctor-{view}.png"));
        let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args(["photo", ctor, "--out", out.to_str().unwrap(), "--size", "640x360", "--view", view])
            .env("XDG_RUNTIME_DIR", std::env::temp_dir())
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        pictures.push(read_png(&out).2);
    }
    let round = &pictures[0];
    let (blue, black, white) =
        (count(640, 360, round, edge_blue), count(640, 360, round, black_disc), count(640, 360, round, white_disc));
    assert!(blue > 2000 && black > 300 && white > 300, "the doughnut in the photo: {blue} {black} {white}");
    let differ = round
        .chunks(3)
        .zip(pictures[1].chunks(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 40))
        .count();
    assert!(differ > 640 * 360 / 10, "the doughnut photo is not the flat field's: {differ}");
    for (args, why) in [
        (vec!["--view", "sideways"], "--view 'sideways' is not one of first, second, top, macro, doughnut"),
        (vec!["--view", "doughnut"], "--view doughnut shows a CTOR field; this position is not CTOR"),
        (vec!["--size", "5000x3000"], "a photo is from 16x16 to 3840x2160, not 5000x3000"),
    ] {
        let bad = dir.join("bad.png");
        let run = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args(["photo", volterra, "--out", bad.to_str().unwrap()])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success());
        assert_eq!(err.trim(), format!("tablero: {why}"));
        assert!(!bad.exists(), "nothing written");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// CTOR's doughnut in both profiles: the torus's field colours, black and white discs on it,
/// and a picture unlike the flat field's.
#[test]
fn the_doughnut_renders_in_both_profiles() {
    use tablero::gui::Offscreen;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::Quality;
    use tablero::gui::sets::torus::doughnut::DoughnutView;
    let position = "ctor8 BB.W..W./.BWW.B../..B..W../W..BB.../.W....B./..WW..B./B....W../.B..W..W b 9 P2M2L1 1v1 0";
    for quality in [Quality::Software, Quality::Full] {
        let mut pictures = Vec::new();
        for doughnut in [false, true] {
            let game = position.parse().unwrap();
            let mut view = match Offscreen::with_quality(game, [PlayerKind::Person; 2], 640, 360, Some(quality)) {
                Ok(v) => v,
                Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
                Err(why) => panic!("{why}"),
            };
            view.app.insert_resource(DoughnutView(doughnut));
            let out = std::env::temp_dir().join(format!("tablero-test-doughnut-{quality:?}-{doughnut}.png"));
            view.save(&out).unwrap();
            pictures.push(read_png(&out));
        }
        let (w, h, flat) = &pictures[0];
        let (_, _, round) = &pictures[1];
        let blue = count(*w, *h, round, edge_blue);
        let black = count(*w, *h, round, black_disc);
        let white = count(*w, *h, round, white_disc);
        eprintln!("{quality:?}: doughnut blue {blue}, black {black}, white {white}");
        assert!(blue > 2000, "{quality:?}: the edge squares show on the doughnut: {blue}");
        assert!(black > 300 && white > 300, "{quality:?}: both faces of discs show: {black} black, {white} white");
        let differ = flat
            .chunks(3)
            .zip(round.chunks(3))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 40))
            .count();
        assert!(differ > (w * h / 10) as usize, "{quality:?}: the doughnut is not the flat field: {differ}");
    }
}

/// The pine set in both profiles: in every tile's picture region the light pine is lighter
/// than the dark, and the box beside the board shows in its varnished pine, lighter than the
/// table around it.
#[test]
fn the_pine_set_and_its_box_render_in_both_profiles() {
    use bevy::prelude::*;
    use tablero::gui::Offscreen;
    use tablero::gui::frame::board::Layout;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::Quality;
    use tablero::gui::sets::pine::{self, pine_box};
    let (w, h) = (640usize, 360usize);
    for quality in [Quality::Software, Quality::Full] {
        let game: tablero::rules::AnyGame = "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l".parse().unwrap();
        let mut view = match Offscreen::with_quality(game, [PlayerKind::Person; 2], w as u32, h as u32, Some(quality)) {
            Ok(v) => v,
            Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
            Err(why) => panic!("{why}"),
        };
        let out = std::env::temp_dir().join(format!("tablero-test-pine-{quality:?}.png"));
        view.save(&out).unwrap();
        let (_, _, rgb) = read_png(&out);
        let world = view.app.world_mut();
        let layout = *world.resource::<Layout>();
        let (camera, eye) = world
            .query_filtered::<(&Camera, &GlobalTransform), With<tablero::gui::look::camera::PlayerCamera>>()
            .iter(world)
            .next()
            .map(|(c, g)| (c.clone(), *g))
            .unwrap();
        // The software profile's camera draws into a smaller picture, shown scaled up.
        let scale = camera.logical_viewport_size().map_or(1.0, |s| w as f32 / s.x);
        // The median grey, and the median colour, of a square region of the table's top.
        let region = |centre: Vec3, half: f32| -> (f32, [u8; 3]) {
            let mut px: Vec<[u8; 3]> = Vec::new();
            for i in -4..=4 {
                for j in -4..=4 {
                    let p = centre + Vec3::new(i as f32 / 4.0 * half, 0.0, j as f32 / 4.0 * half);
                    let Ok(v) = camera.world_to_viewport(&eye, p) else { continue };
                    let (x, y) = ((v.x * scale).round() as usize, (v.y * scale).round() as usize);
                    if x < w && y < h {
                        let k = (y * w + x) * 3;
                        px.push([rgb[k], rgb[k + 1], rgb[k + 2]]);
                    }
                }
            }
            assert!(!px.is_empty(), "{quality:?}: {centre} is off the picture");
            let grey = |p: &[u8; 3]| 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32;
            px.sort_by(|a, b| grey(a).total_cmp(&grey(b)));
            let mid = px[px.len() / 2];
            (grey(&mid), mid)
        };
        let mut light = Vec::new();
        let mut dark = Vec::new();
        for (t, g) in world.query::<(&pine::Tile, &GlobalTransform)>().iter(world) {
            let top = g.translation() + Vec3::Y * pine::THICK / 2.0;
            let (grey, _) = region(top, pine::TILE * 0.3);
            if t.side == tablero::rules::Side::First { light.push(grey) } else { dark.push(grey) }
        }
        let darkest_light = light.iter().copied().fold(f32::MAX, f32::min);
        let lightest_dark = dark.iter().copied().fold(0.0, f32::max);
        eprintln!("{quality:?}: light tiles from {darkest_light:.0}, dark tiles up to {lightest_dark:.0}");
        assert!(darkest_light > lightest_dark + 20.0, "{quality:?}: every light tile is lighter than every dark one");
        // The box's floor, inside its walls, against the table beyond the lid.
        let floor = pine_box::box_centre(&layout) + Vec3::new(0.0, 0.09, 0.3);
        let (box_grey, box_rgb) = region(floor, 0.3);
        let (table_grey, table_rgb) = region(pine_box::box_centre(&layout) + Vec3::new(0.0, 0.0, 3.5), 0.3);
        eprintln!("{quality:?}: box floor {box_rgb:?} ({box_grey:.0}), table {table_rgb:?} ({table_grey:.0})");
        assert!(
            box_rgb[0] > box_rgb[2] && box_rgb[1] > box_rgb[2],
            "{quality:?}: the box is wood-coloured: {box_rgb:?}"
        );
        assert!(box_grey > table_grey + 15.0, "{quality:?}: the box shows apart from the table");
    }
}

/// The full profile's light (a GPU's; rendered here by lavapipe too): towers cast shadows on
/// the table and on each other. The same picture drawn with the key light's shadows off has
/// no region that much darker; with them, the towers' shadows are there, beside the towers
/// on the side away from the light.
#[test]
fn towers_cast_shadows_in_the_full_profile() {
    use bevy::prelude::*;
    use tablero::gui::Offscreen;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::Quality;
    let (w, h) = (640usize, 360usize);
    let mut pictures = Vec::new();
    for shadows in [true, false] {
        // Tall towers along the board's edges.
        let game: tablero::rules::AnyGame =
            "volterra LDLDL,D,-,-/L,D,-,-/-,Ll,Dd,-/-,-,L,D/-,-,DL,LDLDLD l".parse().unwrap();
        let mut view =
            match Offscreen::with_quality(game, [PlayerKind::Person; 2], w as u32, h as u32, Some(Quality::Full)) {
                Ok(v) => v,
                Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
                Err(why) => panic!("{why}"),
            };
        // The table's light comes at the first frame.
        view.frame();
        {
            let world = view.app.world_mut();
            let mut n = 0;
            for mut light in world.query::<&mut DirectionalLight>().iter_mut(world) {
                light.shadow_maps_enabled = shadows;
                n += 1;
            }
            assert_eq!(n, 1, "the table's key light");
        }
        let out = std::env::temp_dir().join(format!("tablero-test-shadows-{shadows}.png"));
        view.save(&out).unwrap();
        let world = view.app.world_mut();
        let lit = world.query_filtered::<(), With<tablero::gui::look::light::Lit>>().iter(world).count();
        assert!(lit > 0, "the full profile's camera has the full light");
        pictures.push(read_png(&out).2);
    }
    let grey = |p: &[u8], i: usize| 0.299 * p[i] as f32 + 0.587 * p[i + 1] as f32 + 0.114 * p[i + 2] as f32;
    let darker = (0..w * h).filter(|&k| grey(&pictures[0], k * 3) + 25.0 < grey(&pictures[1], k * 3)).count();
    let lighter = (0..w * h).filter(|&k| grey(&pictures[0], k * 3) > grey(&pictures[1], k * 3) + 25.0).count();
    eprintln!("with shadows: {darker} pixels much darker, {lighter} much lighter, of {}", w * h);
    assert!(darker > w * h / 100, "the towers' shadows darken at least 1% of the picture ({darker} pixels)");
    assert!(lighter < darker / 10, "shadows only darken ({lighter} pixels lighter)");
}

/// The room the environment light is filtered from: six square faces of half floats, each
/// pixel the radiance of its direction (the ceiling above the floor, the daylight window
/// brightest).
#[test]
fn the_environment_is_a_room_with_a_daylight_window() {
    use bevy::prelude::*;
    use tablero::gui::look::light::{radiance, room};
    let image = room();
    let size = image.texture_descriptor.size;
    assert_eq!((size.width, size.height, size.depth_or_array_layers), (64, 64, 6));
    assert!(size.width.is_power_of_two());
    let data = image.data.as_ref().unwrap();
    assert_eq!(data.len(), 6 * 64 * 64 * 8);
    let f16 = |b: [u8; 2]| -> f32 {
        let h = u16::from_le_bytes(b) as u32;
        let (e, m) = ((h >> 10) & 0x1f, h & 0x3ff);
        if e == 0 { 0.0 } else { f32::from_bits(((e + 112) << 23) | (m << 13)) }
    };
    // The centre of each face looks along its axis, in the GPU's order +X, -X, +Y, -Y, +Z, -Z.
    let axes = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z];
    for (face, axis) in axes.iter().enumerate() {
        let k = ((face * 64 + 32) * 64 + 32) * 8;
        let red = f16([data[k], data[k + 1]]);
        let want = radiance(*axis)[0];
        assert!((red - want).abs() < 0.05 * want.max(0.05), "face {face}: {red} for {want}");
    }
    let grey = |d: Vec3| radiance(d).iter().sum::<f32>() / 3.0;
    assert!(grey(Vec3::Y) > 2.0 * grey(Vec3::NEG_Y), "the ceiling is brighter than the floor");
    let window = Vec3::new(-0.55, 0.3, -0.78);
    assert!(grey(window) > 3.0 && grey(window) > 4.0 * grey(Vec3::X), "the window is the brightest");
    let [r, _, b] = radiance(window);
    assert!(b > r, "daylight from the window");
}

/// The project's textures carry their mipmaps: each level the average of the one above, down
/// to one pixel (the grain calm at a distance, and a small level for a software renderer).
#[test]
fn made_textures_have_their_mipmaps() {
    use tablero::gui::frame::board::{mipmaps, square_image, table_top};
    // A 4 x 4 of two colours in columns: the 2 x 2 level is their halves, the 1 x 1 the mean.
    let top: Vec<u8> = (0..16).flat_map(|p| if p % 4 < 2 { [200, 100, 0, 255] } else { [0, 100, 200, 255] }).collect();
    let (levels, count) = mipmaps(4, &top).unwrap();
    assert_eq!(count, 3);
    assert_eq!(levels.len(), (16 + 4 + 1) * 4);
    assert_eq!(&levels[64..68], &[200, 100, 0, 255]);
    assert_eq!(&levels[68..72], &[0, 100, 200, 255]);
    assert_eq!(&levels[80..84], &[100, 100, 100, 255]);
    assert!(mipmaps(6, &[0; 6 * 6 * 4]).is_none(), "only a power of two halves evenly");
    let image = square_image(4, top, bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb);
    assert_eq!(image.texture_descriptor.mip_level_count, 3);
    let (colour, normal) = table_top(256);
    assert_eq!(colour.texture_descriptor.mip_level_count, 9);
    assert_eq!(normal.texture_descriptor.mip_level_count, 9);
}

/// The software profile is built for a software renderer before the renderer starts: it
/// compiles none of the compute pipelines of ambient occlusion, the sky, the environment light,
/// GPU culling or clustering (which a software renderer would hold as compiled code and run on
/// the CPU), and still draws the table; the full profile keeps its ambient occlusion; both cull
/// nothing on the device and prepare meshes on the CPU.
#[test]
fn each_profile_compiles_only_the_pipelines_it_draws_with() {
    use bevy::material::descriptor::PipelineDescriptor;
    use bevy::render::RenderApp;
    use bevy::render::batching::gpu_preprocessing::{GpuPreprocessingMode, GpuPreprocessingSupport};
    use bevy::render::render_resource::PipelineCache;
    use tablero::gui::Offscreen;
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::render::Quality;
    let position = "ctor8 BB.W..W./.BWW.B../..B..W../W..BB.../.W....B./..WW..B./B....W../.B..W..W b 9 P2M2L1 1v1 0";
    for quality in [Quality::Software, Quality::Full] {
        let game = position.parse().unwrap();
        let mut view = match Offscreen::with_quality(game, [PlayerKind::Person; 2], 640, 360, Some(quality)) {
            Ok(v) => v,
            Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
            Err(why) => panic!("{why}"),
        };
        let out = std::env::temp_dir().join(format!("tablero-test-pipelines-{quality:?}.png"));
        view.save(&out).unwrap();
        let (w, h, pixels) = read_png(&out);
        assert!(count(w, h, &pixels, black_disc) > 300, "{quality:?}: the discs are drawn");
        // The software profile draws the table top, most of the picture, with its own unlit
        // material (no lighting code run for every pixel); the wood shows in the corners.
        {
            use bevy::prelude::*;
            use tablero::gui::frame::board::Table;
            use tablero::gui::look::render::TableTop;
            let world = view.app.world_mut();
            let tops = world.query_filtered::<(), (With<Table>, With<MeshMaterial3d<TableTop>>)>().iter(world).count();
            let standard =
                world.query_filtered::<(), (With<Table>, With<MeshMaterial3d<StandardMaterial>>)>().iter(world).count();
            assert_eq!((tops, standard), if quality == Quality::Software { (1, 0) } else { (0, 1) }, "{quality:?}");
            for (x, y) in [(8, h - 8), (w - 8, h - 8)] {
                let i = ((y * w + x) * 3) as usize;
                let (r, g, b) = (pixels[i], pixels[i + 1], pixels[i + 2]);
                assert!(r > g && g > b && r > 50, "{quality:?}: wood at ({x}, {y}), not {r} {g} {b}");
            }
        }
        let render = view.app.sub_app(RenderApp).world();
        let labels: Vec<(bool, String)> = render
            .resource::<PipelineCache>()
            .pipelines()
            .map(|p| match &p.descriptor {
                PipelineDescriptor::RenderPipelineDescriptor(d) => (false, d.label.clone().unwrap_or_default().into()),
                PipelineDescriptor::ComputePipelineDescriptor(d) => (true, d.label.clone().unwrap_or_default().into()),
            })
            .collect();
        let mode = render.resource::<GpuPreprocessingSupport>().max_supported_mode;
        eprintln!("{quality:?}: {} pipelines: {labels:?}", labels.len());
        let named = |word: &str| labels.iter().any(|(_, l)| l.contains(word));
        assert!(!named("occlusion") && !named("clustering"), "{quality:?}: nothing culled or clustered on the device");
        // Meshes prepared on the CPU in both profiles (on the device they cost the full profile
        // memory and time on lavapipe, and changed nothing in the picture).
        assert!(mode == GpuPreprocessingMode::None, "{quality:?}: meshes prepared on the CPU");
        let preprocessing = labels.iter().any(|(_, l)| l.contains("preprocess") && !l.contains("ssao"));
        assert!(!preprocessing, "{quality:?}: no mesh preprocessing pipeline: {labels:?}");
        match quality {
            Quality::Software => {
                // Bevy's own buffer updates aside, nothing is computed on the device.
                let compute: Vec<_> = labels.iter().filter(|(c, l)| *c && !l.contains("sparse buffer")).collect();
                assert!(compute.is_empty(), "the software profile compiles no other compute pipeline: {compute:?}");
                for word in ["ssao", "lut", "radiance", "environment", "preprocess"] {
                    assert!(!named(word), "no {word} pipeline in the software profile: {labels:?}");
                }
                assert!(labels.len() <= 20, "a handful of pipelines: {}", labels.len());
            }
            Quality::Full => {
                assert!(named("ssao"), "the full look keeps its ambient occlusion: {labels:?}");
            }
        }
    }
}

/// The share of a picture's pixels darker than luminance 50 of 255.
fn dark_share(rgb: &[u8]) -> f32 {
    let dark =
        rgb.chunks(3).filter(|p| (0.2126 * p[0] as f32 + 0.7152 * p[1] as f32 + 0.0722 * p[2] as f32) < 50.0).count();
    dark as f32 / (rgb.len() / 3) as f32
}

/// The pine set's photos stand in a room, not a void: in the macro, first and top views of a
/// position of tall towers (the full profile), at most 2% of the pixels are darker than
/// luminance 50, and above the table (the picture's top rows in the macro view) the room's
/// wall shows, lighter than the old void's 0.16 grey.
#[test]
fn the_pine_set_is_photographed_in_a_lit_room() {
    use bevy::math::UVec2;
    let position = "volterra LDLDL,D,-,-/L,D,-,-/-,Ll,Dd,-/-,-,L,D/-,-,DL,LDLDLD l";
    for view in ["macro", "first", "top"] {
        let out = std::env::temp_dir().join(format!("tablero-test-room-{view}.png"));
        match tablero::gui::look::photo::photo(position.parse().unwrap(), &out, UVec2::new(480, 270), view) {
            Ok(()) => {}
            Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
            Err(why) => panic!("{why}"),
        }
        let (w, _, rgb) = read_png(&out);
        let share = dark_share(&rgb);
        eprintln!("{view}: {:.2}% of the pixels darker than 50", share * 100.0);
        assert!(share <= 0.02, "{view}: {:.1}% of the picture is near black", share * 100.0);
        if view == "macro" {
            let top: Vec<u8> = rgb[..(w as usize * 20 * 3)].to_vec();
            let mean = top.iter().map(|v| *v as f32).sum::<f32>() / top.len() as f32;
            assert!(mean > 90.0, "the room above the table: mean {mean:.0}");
        }
    }
}

/// `tablero photo --inspect`: two light tiles of the start, each alone on the same sweep from
/// the same angle, differ by their wood (a root mean square of at least 8 of 255), and only
/// there: the sweep round them is the same picture. A cell off the board, an empty cell and a
/// game without towers are refused in one line.
#[test]
fn inspected_tiles_differ_only_by_their_wood() {
    use bevy::math::UVec2;
    use tablero::gui::look::photo::inspect_photo;
    let start = "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l";
    let (w, h) = (320usize, 180usize);
    let mut shots = Vec::new();
    for cell in ["b5", "a4"] {
        let out = std::env::temp_dir().join(format!("tablero-test-inspect-{cell}.png"));
        match inspect_photo(start.parse().unwrap(), &out, UVec2::new(w as u32, h as u32), cell) {
            Ok(()) => {}
            Err(why) if may_skip(&why.to_string()) => return eprintln!("skipping the render test: {why}"),
            Err(why) => panic!("{why}"),
        }
        shots.push(read_png(&out).2);
    }
    let rms = |a: &[u8], b: &[u8]| {
        (a.iter().zip(b).map(|(x, y)| (*x as f32 - *y as f32).powi(2)).sum::<f32>() / a.len() as f32).sqrt()
    };
    let whole = rms(&shots[0], &shots[1]);
    // The picture's top corners: the sweep alone.
    let corner = |rgb: &[u8]| -> Vec<u8> { (0..30).flat_map(|y| rgb[y * w * 3..(y * w + 60) * 3].to_vec()).collect() };
    let backdrop = rms(&corner(&shots[0]), &corner(&shots[1]));
    eprintln!("b5 against a4: {whole:.1} over the picture, {backdrop:.1} in the sweep's corner");
    assert!(whole >= 8.0, "two tiles' close-ups differ by their wood: rms {whole:.1}");
    assert!(backdrop < 2.0, "the same sweep behind each: rms {backdrop:.1}");
    let out = std::env::temp_dir().join("tablero-test-inspect-refused.png");
    let size = UVec2::new(64, 64);
    for (position, cell, says) in [
        (start, "e9", "off the"),
        (start, "b", "not a square"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,-/L,D,L,D/D,L,D,L l", "d3", "nothing stands there"),
        ("ordo", "a1", "not Volterra"),
    ] {
        let game = tablero::rules::AnyGame::read(position).unwrap();
        let why = inspect_photo(game, &out, size, cell).unwrap_err().to_string();
        assert!(why.contains(says), "--inspect {cell}: {why}");
    }
}
