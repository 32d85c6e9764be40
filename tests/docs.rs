//! The documents hold no dead reference: every Markdown file of the repository is walked, and
//! each relative link, each `path/to/file` in backticks and each `tablero <command>` it shows
//! must exist; no file cites a document outside the repository. The README names the packages
//! its commands need and `.ci/run` installs them; and one house rule read off the sources.

use clap::CommandFactory;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dir` (not the build's or git's folders) whose name ends in one of `ends`.
fn files(dir: &Path, ends: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !["target", ".git", "node_modules", "mutants.out"].contains(&name.as_str()) {
                files(&path, ends, out);
            }
        } else if ends.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

fn markdown() -> Vec<PathBuf> {
    let mut out = Vec::new();
    files(&root(), &[".md"], &mut out);
    out.sort();
    out
}

/// The relative targets of `[text](target)` links and `![alt](target)` pictures.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split_whitespace().next().unwrap_or("").to_string();
        if !(target.is_empty() || target.starts_with('#') || target.contains("://") || target.starts_with("mailto:")) {
            out.push(target.split('#').next().unwrap_or("").to_string());
        }
    }
    out
}

/// The text of every code span (between single backticks) outside fenced blocks, and every line
/// of the fenced blocks.
fn code(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut spans, mut lines) = (Vec::new(), Vec::new());
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            lines.push(line.to_string());
        } else {
            spans.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    (spans, lines)
}

/// Whether a code span names a file or folder of the repository: no spaces or placeholders,
/// and beginning with one of its top folders.
fn is_path(span: &str) -> bool {
    let tops = ["src/", "tests/", "docs/", "assets/", "benches/", ".ci/"];
    tops.iter().any(|t| span.starts_with(t)) && !span.chars().any(|c| c.is_whitespace() || "<>*…$~=|[]{}".contains(c))
}

/// The subcommands `tablero` knows (with their aliases).
fn commands() -> BTreeSet<String> {
    let cli = tablero::cli::Cli::command();
    let mut names: BTreeSet<String> = BTreeSet::from(["help".to_string()]);
    for c in cli.get_subcommands() {
        names.insert(c.get_name().to_string());
        names.extend(c.get_all_aliases().map(str::to_string));
    }
    names
}

/// The word after each `tablero ` in `text`, where it is a word (not a flag or a placeholder).
fn commands_shown(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("tablero ") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "tablero ".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '/') {
            continue;
        }
        let word: String = rest.chars().take_while(|c| !c.is_whitespace() && *c != '`').collect();
        if word.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && word.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            out.push(word);
        }
    }
    out
}

#[test]
fn every_link_path_and_command_in_the_documents_exists() {
    let known = commands();
    let mut problems = Vec::new();
    let files = markdown();
    assert!(files.len() >= 10, "the documents: {files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(root()).unwrap().display().to_string();
        let dir = file.parent().unwrap();
        for target in links(&text) {
            if !dir.join(&target).exists() {
                problems.push(format!("{shown}: the link '{target}' leads nowhere"));
            }
        }
        let (spans, lines) = code(&text);
        for span in &spans {
            let path = span.split('#').next().unwrap_or("");
            if is_path(path) && !root().join(path).exists() && !dir.join(path).exists() {
                problems.push(format!("{shown}: `{span}` is not in the repository"));
            }
        }
        for text in spans.iter().chain(&lines) {
            for word in commands_shown(text) {
                if !known.contains(&word) {
                    problems.push(format!("{shown}: `tablero {word}` is not a command"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// No document, source or build file speaks to this project's developers about their workflow
/// or cites a document that is not in the repository.
#[test]
fn nothing_cites_a_document_outside_the_repository() {
    let outside = ["../shared", "NOTATION.md", "RULES.md", "STYLE.md", "BEVY-0.19", "closing note", "your note"];
    let mut all = markdown();
    files(&root().join("src"), &[".rs"], &mut all);
    files(&root().join("tests"), &[".rs"], &mut all);
    all.extend([root().join("Cargo.toml"), root().join(".ci/run"), root().join("docs/pictures.sh")]);
    let mut problems = Vec::new();
    for file in all.iter().filter(|f| !f.ends_with("tests/docs.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for needle in outside {
            if let Some(at) = text.find(needle) {
                let line = text[..at].lines().count().max(1);
                problems.push(format!("{}:{line}: cites '{needle}'", file.strip_prefix(root()).unwrap().display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checks themselves find what they are meant to find.
#[test]
fn the_checks_see_links_paths_and_commands() {
    assert_eq!(links("see [a](docs/a.md#x) and ![p](p.png \"t\") and [w](https://x.org)"), ["docs/a.md", "p.png"]);
    let (spans, lines) = code("a `src/x.rs` b `tablero frob`\n```sh\n$ tablero moves \"x\"\n```\n");
    assert_eq!(spans, ["src/x.rs", "tablero frob"]);
    assert_eq!(lines, ["$ tablero moves \"x\""]);
    assert!(is_path("src/x.rs") && !is_path("src/<file>.rs") && !is_path("gui/sets/"));
    assert_eq!(commands_shown("tablero frob --x, tablero [play …], my-tablero x, tablero --help"), ["frob"]);
    assert!(commands().contains("photo") && commands().contains("analyze") && !commands().contains("frob"));
}

/// The packages named in the README's `apt-get install` lines.
fn readme_packages() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let (spans, _) = code(&readme);
    spans
        .iter()
        .filter_map(|s| s.strip_prefix("sudo apt-get install "))
        .flat_map(|s| s.split_whitespace().map(str::to_string))
        .collect()
}

/// The README's `apt-get install` lines name what a fresh Debian needs for both of its commands
/// (building and running; the tests, under `xvfb-run` and with the overlay page in headless
/// Chromium), and `.ci/run` installs every one of them.
#[test]
fn the_readme_names_every_package_its_commands_need_and_ci_installs_them() {
    let named = readme_packages();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut needed = vec!["build-essential", "mesa-vulkan-drivers", "libvulkan1"];
    if readme.contains("xvfb-run") {
        needed.extend(["xvfb", "xauth"]);
    }
    let mut tests = Vec::new();
    files(&root().join("tests"), &[".rs"], &mut tests);
    let browser = tests
        .iter()
        .filter(|t| !t.ends_with("docs.rs"))
        .any(|t| std::fs::read_to_string(t).unwrap().contains("/usr/bin/chromium"));
    assert!(browser, "a test opens a page in Chromium (this check would see nothing otherwise)");
    needed.extend(["chromium", "chromium-driver"]);
    for p in needed {
        assert!(named.contains(p), "the README's apt-get lines lack {p}: {named:?}");
    }
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let installed: BTreeSet<&str> = ci
        .lines()
        .filter_map(|l| l.trim().strip_prefix("for p in "))
        .flat_map(|l| l.trim_end_matches("; do").split_whitespace())
        .collect();
    for p in &named {
        assert!(installed.contains(p.as_str()), ".ci/run does not install {p}, which the README names: {installed:?}");
    }
}

/// A system that needs the table's session waits for it with a run condition
/// (`resource_exists::<Session>`) rather than taking `Option<Res<Session>>` and returning early:
/// only run conditions (functions that answer a `bool`) take it.
#[test]
fn no_system_returns_early_for_a_missing_session() {
    let mut sources = Vec::new();
    files(&root().join("src"), &[".rs"], &mut sources);
    let mut early = Vec::new();
    let mut conditions = 0;
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut from = 0;
        while let Some(i) = text[from..].find("Option<Res<Session>>") {
            let at = from + i;
            from = at + 1;
            let Some(start) = text[..at].rfind("fn ") else { continue };
            let end = at + text[at..].find('{').unwrap_or(text.len() - at);
            let signature = &text[start..end];
            if signature.contains("-> bool") {
                conditions += 1;
            } else {
                early.push(format!("{}: {}", path.display(), signature.lines().next().unwrap_or("")));
            }
        }
    }
    assert!(conditions > 0, "the check sees the run conditions that take it");
    assert!(early.is_empty(), "systems taking Option<Res<Session>>:\n{}", early.join("\n"));
}
