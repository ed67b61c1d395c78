//! What a package installs beside the binary, as a user meets it: the
//! manual pages (`tengen manpages`), the completion scripts (`tengen
//! completions`), and the logs of the service, written to a file or the
//! journal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;
#[path = "common/serve.rs"]
mod serve;

use common::{stdout, tengen};
use std::collections::BTreeMap;
use std::path::PathBuf;
use tengen_core::Preset;
use tengen_mcts::Knowledge;

/// The pages `tengen manpages` writes, by file name, as roff source;
/// `test` names the test's own directory (they run at once).
fn pages(test: &str) -> BTreeMap<String, String> {
    let dir = std::env::temp_dir().join(format!("tengen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = tengen(&["manpages", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let pages = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    pages
}

/// Roff source as plain text: no font changes, hyphens unescaped.
fn plain(roff: &str) -> String {
    roff.replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "")
        .replace("\\-", "-")
}

/// The titles of the page's sections, in order.
fn sections(page: &str) -> Vec<String> {
    page.lines()
        .filter_map(|l| l.strip_prefix(".SH "))
        .map(|t| t.trim_matches('"').to_string())
        .collect()
}

/// The text of the section `title`, up to the next one.
fn section(page: &str, title: &str) -> String {
    let mut text = String::new();
    let mut inside = false;
    for line in page.lines() {
        if let Some(t) = line.strip_prefix(".SH ") {
            inside = t.trim_matches('"') == title;
        } else if inside {
            text.push_str(line);
            text.push('\n');
        }
    }
    plain(&text)
}

#[test]
fn manual_pages_have_the_sections_of_a_manual() {
    let pages = pages("sections");
    let root = &pages["tengen.1"];
    for title in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "FILES",
        "EXAMPLES",
    ] {
        assert!(
            sections(root).iter().any(|s| s == title),
            "tengen.1: {title}"
        );
    }
    let name = section(root, "NAME");
    assert!(!name.contains("binary"), "{name}");
    assert!(name.contains("Go (baduk, weiqi)"), "{name}");
    let status = section(root, "EXIT STATUS");
    for code in ["0", "1", "2"] {
        assert!(status.lines().any(|l| l == code), "{status}");
    }
    let environment = section(root, "ENVIRONMENT");
    for variable in [
        "RUST_LOG",
        "XDG_DATA_HOME",
        "HOME",
        "PGPASSWORD",
        "PGSSLMODE",
    ] {
        assert!(environment.contains(variable), "{variable}: {environment}");
    }
    for (name, page) in &pages {
        let titles = sections(page);
        assert!(titles.iter().any(|s| s == "EXIT STATUS"), "{name}");
        // The statuses have their own section, not clap's catch-all.
        assert!(!titles.iter().any(|s| s == "EXTRA"), "{name}");
    }
    for command in ["serve", "gtp", "analysis", "score", "check", "match"] {
        let page = &pages[&format!("tengen-{command}.1")];
        assert!(sections(page).iter().any(|s| s == "EXAMPLES"), "{command}");
        let examples = section(page, "EXAMPLES");
        assert!(
            examples.contains(&format!("tengen {command}")),
            "{examples}"
        );
    }
    let serve = &pages["tengen-serve.1"];
    assert!(section(serve, "FILES").contains("~/.local/share/tengen/tengen.db"));
    assert!(section(serve, "ENVIRONMENT").contains("PGPASSWORD"));
    // A command that reads no record never exits 1.
    assert!(!section(serve, "EXIT STATUS").lines().any(|l| l == "1"));
    let score = &pages["tengen-score.1"];
    assert!(section(score, "NOTES").contains("RE"), "{score}");
}

#[test]
fn every_page_a_page_names_is_written() {
    let pages = pages("see-also");
    for (name, page) in &pages {
        let text = plain(page);
        for (at, _) in text.match_indices("(1)") {
            let before = &text[..at];
            let rest = before.trim_end_matches(|c: char| c.is_ascii_lowercase() || c == '-');
            let named = &before[rest.len()..];
            if named.starts_with("tengen") {
                assert!(
                    pages.contains_key(&format!("{named}.1")),
                    "{name} names {named}(1), which is not written"
                );
            }
        }
    }
    assert!(!pages.contains_key("tengen-help.1"));
}

#[test]
fn every_page_that_lists_version_takes_it() {
    let version = env!("CARGO_PKG_VERSION");
    for (name, page) in pages("version") {
        let synopsis = section(&page, "SYNOPSIS");
        assert!(synopsis.contains("--version"), "{name}: {synopsis}");
        // `tengen train value [...]`: the command line before its options.
        let words: Vec<&str> = synopsis
            .split_whitespace()
            .take_while(|w| !w.starts_with('[') && !w.starts_with('<'))
            .collect();
        assert_eq!(words.first(), Some(&"tengen"), "{name}: {synopsis}");
        let mut args: Vec<&str> = words[1..].to_vec();
        for flag in ["-V", "--version"] {
            args.push(flag);
            let o = tengen(&args);
            assert!(o.status.success(), "{name}: {args:?}");
            assert!(stdout(&o).contains(version), "{name}: {args:?}");
            args.pop();
        }
    }
}

/// The completion script of `shell`.
fn completions(shell: &str) -> String {
    let o = tengen(&["completions", shell]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    stdout(&o)
}

#[test]
fn bash_completes_rules_and_knowledge_by_name() {
    let script = completions("bash");
    let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
    let kinds: Vec<&str> = Knowledge::ALL.iter().map(|(n, _)| *n).collect();
    // The line after each `--OPTION)` case is what bash offers for it.
    let offers = |option: &str| -> Vec<String> {
        let case = format!("{option})");
        let lines: Vec<&str> = script.lines().collect();
        lines
            .windows(2)
            .filter(|w| w[0].trim() == case)
            .map(|w| w[1].to_string())
            .collect()
    };
    // check, score, gtp, match take --rules; gtp, analysis, evaluate,
    // bench and train --knowledge.
    for (option, names, commands) in [("--rules", &presets, 4), ("--knowledge", &kinds, 5)] {
        let offered = offers(option);
        assert!(offered.len() >= commands, "{option}: {offered:?}");
        for line in offered {
            assert!(line.contains("compgen -W"), "{option}: {line}");
            assert!(!line.contains("compgen -f"), "{option}: {line}");
            for name in names.iter() {
                assert!(line.contains(name), "{option} lacks {name}: {line}");
            }
        }
    }
    // `tengen rules NAME` completes the presets too.
    let rules = script
        .lines()
        .skip_while(|l| l.trim() != "tengen__subcmd__rules)")
        .find(|l| l.trim_start().starts_with("opts="))
        .unwrap();
    for name in &presets {
        assert!(rules.contains(name), "{rules}");
    }
}

#[test]
fn fish_and_zsh_complete_rules_by_name() {
    let fish = completions("fish");
    let lines: Vec<&str> = fish.lines().filter(|l| l.contains("-l rules")).collect();
    assert!(lines.len() >= 4, "{fish}");
    for line in lines {
        // -f: no file names; the names follow, one a line with its
        // description.
        assert!(line.contains(" -f -a \"nz\\t"), "{line}");
    }
    assert!(fish.contains("\ntromp-taylor\\t"), "{fish}");
    let zsh = completions("zsh");
    let lines: Vec<&str> = zsh.lines().filter(|l| l.contains("'--rules=")).collect();
    assert!(lines.len() >= 4, "{zsh}");
    for line in lines {
        assert!(line.contains(":RULES:((nz"), "{line}");
    }
}

#[test]
fn serve_writes_no_colour_codes_into_its_log_file() {
    let dir: PathBuf = std::env::temp_dir().join(format!("tengen-logs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("serve.log");
    let db = dir.join("games.db");
    let (mut server, addr) = serve::start(&["--db", db.to_str().unwrap()], &log);
    let (status, body) = serve::http(&addr, "GET", "/api/presets", "");
    assert_eq!(status, 200, "{body}");
    server.kill().unwrap();
    server.wait().unwrap();
    let bytes = std::fs::read(&log).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("serving on"), "{text}");
    assert!(!bytes.contains(&0x1b), "colour codes in the log: {text:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
