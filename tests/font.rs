//! The fonts the table draws with (assets/fonts, bundled in the binary) have a glyph for
//! every character tablero prints: Noto Sans (every word: messages, menus, rule explanations)
//! and DejaVu Sans Mono (the move notation, positions), for everything written in the sources
//! and the names people give players in records.

use std::collections::BTreeSet;
use std::path::Path;

fn u16_at(b: &[u8], i: usize) -> u32 {
    u32::from(u16::from_be_bytes([b[i], b[i + 1]]))
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// The characters a TrueType font maps to a glyph, from its `cmap` table (formats 4 and 12).
fn covered(font: &[u8]) -> BTreeSet<u32> {
    let tables = u16_at(font, 4) as usize;
    let cmap = (0..tables)
        .map(|t| 12 + 16 * t)
        .find(|&r| &font[r..r + 4] == b"cmap")
        .map(|r| u32_at(font, r + 8) as usize)
        .expect("a cmap table");
    let mut chars = BTreeSet::new();
    for k in 0..u16_at(font, cmap + 2) as usize {
        let sub = cmap + u32_at(font, cmap + 4 + 8 * k + 4) as usize;
        match u16_at(font, sub) {
            4 => {
                let segs = u16_at(font, sub + 6) as usize / 2;
                let (ends, starts) = (sub + 14, sub + 16 + 2 * segs);
                let (deltas, offsets) = (starts + 2 * segs, starts + 4 * segs);
                for s in 0..segs {
                    let (start, end) = (u16_at(font, starts + 2 * s), u16_at(font, ends + 2 * s));
                    let (delta, offset) = (u16_at(font, deltas + 2 * s), u16_at(font, offsets + 2 * s) as usize);
                    for c in start..=end.min(0xFFFE) {
                        let glyph = if offset == 0 {
                            (c + delta) & 0xFFFF
                        } else {
                            let at = offsets + 2 * s + offset + 2 * (c - start) as usize;
                            let g = u16_at(font, at);
                            if g == 0 { 0 } else { (g + delta) & 0xFFFF }
                        };
                        if glyph != 0 {
                            chars.insert(c);
                        }
                    }
                }
            }
            12 => {
                for g in 0..u32_at(font, sub + 12) as usize {
                    let group = sub + 16 + 12 * g;
                    chars.extend(u32_at(font, group)..=u32_at(font, group + 4));
                }
            }
            _ => {}
        }
    }
    chars
}

fn sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs" || e == "html") {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn the_bundled_font_draws_every_character_tablero_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let font = std::fs::read(root.join("assets/fonts/DejaVuSansMono.ttf")).unwrap();
    let chars = covered(&font);
    // The font Bevy bundles holds printable ASCII only; this one holds far more.
    assert!((32..127).all(|c| chars.contains(&c)));
    assert!(chars.len() > 3000, "{} characters", chars.len());
    let mut text = String::new();
    sources(&root.join("src"), &mut text);
    text.push_str(&std::fs::read_to_string(root.join("docs/rules.md")).unwrap());
    // Names as people write them in records.
    text.push_str("José Müller, Ørsted, Łukasz, Ærø, Dvořák, Ἀθηνᾶ, Дмитрий, Çağlar, Ñandú");
    let missing: BTreeSet<char> = text.chars().filter(|c| !c.is_control() && !chars.contains(&(*c as u32))).collect();
    assert!(missing.is_empty(), "no glyph for {missing:?}");
    // And the check can fail: a character the font lacks is found.
    assert!(!chars.contains(&('\u{1F600}' as u32)), "an emoji is not in it");
}

/// The sources' text without their comments (`//` lines and what follows ` // `), with each
/// `\u{...}` escape as the character it writes.
fn printed(root: &Path) -> String {
    let mut all = String::new();
    sources(&root.join("src"), &mut all);
    let mut out = String::new();
    for line in all.lines() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let code = line.split(" // ").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("\\u{") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 3..];
            let end = after.find('}').unwrap_or(0);
            if let Some(c) = u32::from_str_radix(&after[..end], 16).ok().and_then(char::from_u32) {
                out.push(c);
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

#[test]
fn the_interface_font_draws_every_character_the_menus_rules_and_names_use() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = printed(root);
    text.push_str(&std::fs::read_to_string(root.join("docs/rules.md")).unwrap());
    text.push_str("José Müller, Ørsted, Łukasz, Ærø, Dvořák, Ἀθηνᾶ, Дмитрий, Çağlar, Ñandú");
    assert!(text.contains('\u{d7}'), "the escapes are read: the broadcast window's size has a ×");
    for file in ["NotoSans-Regular.ttf", "NotoSans-Bold.ttf"] {
        let font = std::fs::read(root.join("assets/fonts").join(file)).unwrap();
        let chars = covered(&font);
        assert!((32..127).all(|c| chars.contains(&c)), "{file}: printable ASCII");
        let missing: BTreeSet<char> =
            text.chars().filter(|c| !c.is_control() && !chars.contains(&(*c as u32))).collect();
        assert!(missing.is_empty(), "{file}: no glyph for {missing:?}");
        // The check can fail: a character the font lacks is found.
        assert!(!chars.contains(&('\u{25B6}' as u32)), "{file}: no play sign in it");
    }
    // Each font's licence is beside it and names it.
    for (licence, name) in [("LICENSE-NotoSans.txt", "Noto Sans"), ("LICENSE-DejaVu.txt", "DejaVu")] {
        let words = std::fs::read_to_string(root.join("assets/fonts").join(licence)).unwrap();
        assert!(words.contains(name), "{licence} names {name}");
    }
}
