//! The player's settings file: read back as written, defaults when there is none, and a
//! broken, unknown or out-of-range file reported in one line, kept aside, never fatal.

use tablero::settings::{Animation, Palette, Quality, Settings, WindowPlace, file};

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-settings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn settings_are_read_back_as_saved_and_default_when_absent() {
    let d = dir("round");
    assert_eq!(Settings::load(&d), (Settings::default(), None), "no file yet: the defaults, nothing said");
    let mut s = Settings {
        animation: Animation::Fast,
        quality: Quality::Software,
        palette: Palette::OkabeIto,
        invert_camera: true,
        reduced_motion: true,
        window: Some(WindowPlace { width: 1600, height: 900, x: Some(40), y: Some(-20), fullscreen: true }),
        ..Settings::default()
    };
    s.step_sensitivity(true);
    s.step_ui_scale(true);
    s.step_ui_scale(true);
    s.save(&d).unwrap();
    assert_eq!(Settings::load(&d), (s.clone(), None));
    assert_eq!((s.camera_sensitivity, s.ui_scale), (1.5, 1.5));
    assert!(s.to_json().contains(r#""palette": "okabe-ito""#), "{}", s.to_json());
    // Only the file is left: the write went through a temporary file, renamed.
    let names: Vec<_> = std::fs::read_dir(&d).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("settings.json")]);
    // A file written by hand with only some fields: the rest are the defaults.
    std::fs::write(file(&d), r#"{"ui_scale": 2.0}"#).unwrap();
    let (read, trouble) = Settings::load(&d);
    assert_eq!(trouble, None);
    assert_eq!(read, Settings { ui_scale: 2.0, ..Settings::default() });
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_broken_settings_file_is_reported_kept_aside_and_replaced_by_defaults() {
    let cases: [(&str, &[u8], &str); 10] = [
        ("json", b"{ this is not json", "key must be a string"),
        ("unknown", br#"{"loudness": 3}"#, "unknown field `loudness`"),
        ("scale", br#"{"ui_scale": 3.5}"#, "ui_scale 3.5 is not from 1 to 2"),
        ("volume", br#"{"volume": 101}"#, "volume 101 is not from 0 to 100"),
        ("sensitivity", br#"{"camera_sensitivity": -1}"#, "camera_sensitivity -1"),
        (
            "window",
            br#"{"window": {"width": 10, "height": 10, "x": null, "y": null, "fullscreen": false}}"#,
            "a window of 10x10",
        ),
        ("format", br#"{"format": 9}"#, "format 9"),
        ("quality", br#"{"quality": "ultra"}"#, "unknown variant `ultra`"),
        ("palette", br#"{"palette": "rainbow"}"#, "unknown variant `rainbow`"),
        ("binary", &[0xff, 0xfe, 0x00, 0x01], "not UTF-8"),
    ];
    for (name, text, why) in cases {
        let d = dir(name);
        std::fs::write(file(&d), text).unwrap();
        let (s, trouble) = Settings::load(&d);
        assert_eq!(s, Settings::default(), "{name}");
        let trouble = trouble.unwrap_or_else(|| panic!("{name}: the trouble is said"));
        assert_eq!(trouble.lines().count(), 1, "{name}: one line: {trouble}");
        assert!(trouble.contains(why) && trouble.contains("defaults"), "{name}: {trouble}");
        assert!(!file(&d).exists(), "{name}: the broken file is moved aside");
        assert_eq!(std::fs::read(d.join("settings.json.broken")).unwrap(), text, "{name}: and kept as it was");
        // The next start finds no file and says nothing.
        assert_eq!(Settings::load(&d), (Settings::default(), None), "{name}");
        let _ = std::fs::remove_dir_all(d);
    }
    // A folder where the file should be.
    let d = dir("folder");
    std::fs::create_dir_all(file(&d)).unwrap();
    let (s, trouble) = Settings::load(&d);
    assert_eq!(s, Settings::default());
    assert!(trouble.unwrap().contains("not a regular file"));
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn settings_steps_stay_within_their_ranges() {
    let mut s = Settings::default();
    for _ in 0..10 {
        s.step_ui_scale(true);
        s.step_sensitivity(true);
    }
    assert_eq!((s.ui_scale, s.camera_sensitivity), (2.0, 4.0));
    for _ in 0..20 {
        s.step_ui_scale(false);
        s.step_sensitivity(false);
    }
    assert_eq!((s.ui_scale, s.camera_sensitivity), (1.0, 0.25));
    assert_eq!(Animation::Normal.next().next().next(), Animation::Normal);
    assert_eq!(Quality::Auto.next().next().next(), Quality::Auto);
}
