//! `tengen explain` on real records of the shared data: the line format,
//! French, the annotated record read back, errors, and a sample of every
//! collection explained without failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, stdout, tengen};
use std::path::{Path, PathBuf};
use tengen_sgf::{ParseOptions, parse};

/// A professional 19x19 game of 250 moves, no handicap.
fn pro_game() -> PathBuf {
    let p = data().join("fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf");
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

/// The term identifiers a line may name.
fn known(id: &str) -> bool {
    tengen_lexicon::TERMS.contains(&id)
}

/// Checks one line: `<number> <B|W> <vertex> <ids or -> <sentence>`.
fn check_line(line: &str, number: usize) {
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    assert_eq!(fields.len(), 5, "{line}");
    assert_eq!(fields[0], number.to_string(), "{line}");
    assert!(fields[1] == "B" || fields[1] == "W", "{line}");
    let v = fields[2];
    assert!(
        v == "pass"
            || (v.len() >= 2
                && v.as_bytes()[0].is_ascii_uppercase()
                && v[1..].parse::<u32>().is_ok()),
        "{line}"
    );
    if fields[3] != "-" {
        for id in fields[3].split(',') {
            assert!(known(id), "unknown term {id} in {line}");
        }
    }
    assert!(!fields[4].trim().is_empty(), "{line}");
}

#[test]
fn explains_every_move_of_a_professional_game_in_the_exact_form() {
    let out = tengen(&["explain", pro_game().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 250);
    for (i, line) in lines.iter().enumerate() {
        check_line(line, i + 1);
    }
    // The first stone has nothing to relate to.
    assert!(
        lines[0].starts_with("1 B ") && lines[0].ends_with(" - a move with no named shape"),
        "{}",
        lines[0]
    );
    // A pro game names the common shapes.
    for id in ["nobi", "tsuke", "kosumi", "keima"] {
        assert!(
            lines.iter().any(|l| l
                .split(' ')
                .nth(3)
                .is_some_and(|ids| ids.split(',').any(|t| t == id))),
            "no {id} in the whole game"
        );
    }
}

#[test]
fn french_sentences_with_the_same_terms() {
    let game = pro_game();
    let en = stdout(&tengen(&["explain", game.to_str().unwrap()]));
    let out = tengen(&["explain", game.to_str().unwrap(), "--lang", "fr"]);
    assert!(out.status.success());
    let fr = stdout(&out);
    assert_eq!(en.lines().count(), fr.lines().count());
    let head = |l: &str| l.splitn(5, ' ').take(4).collect::<Vec<_>>().join(" ");
    for (e, f) in en.lines().zip(fr.lines()) {
        assert_eq!(head(e), head(f), "the same terms in both languages");
    }
    assert!(fr.contains("un coup sans nom particulier"));
    assert!(fr.contains("depuis"), "French sentences: {fr}");
    assert!(!fr.contains(" from "), "no English left");
}

#[test]
fn out_writes_the_record_with_a_comment_on_every_move() {
    let game = pro_game();
    let target = std::env::temp_dir().join(format!("tengen-explain-{}.sgf", std::process::id()));
    let out = tengen(&[
        "explain",
        game.to_str().unwrap(),
        "--out",
        target.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    let written = std::fs::read(&target).unwrap();
    let _ = std::fs::remove_file(&target);
    let parsed =
        parse(&written, &ParseOptions::strict()).expect("the annotated record parses strictly");
    let original = parse(&std::fs::read(&game).unwrap(), &ParseOptions::lenient()).unwrap();
    let tree = &parsed.collection.trees[0];
    let before = &original.collection.trees[0];
    // The record's other properties are kept.
    let root = tree.node(tree.root());
    for ident in ["SZ", "KM", "PB", "PW", "RE"] {
        assert_eq!(
            root.value(ident).map(|v| v.text()),
            before.node(before.root()).value(ident).map(|v| v.text()),
            "{ident}"
        );
    }
    let moves: Vec<_> = tree
        .main_line()
        .filter(|&id| tree.node(id).get("B").is_some() || tree.node(id).get("W").is_some())
        .collect();
    assert_eq!(moves.len(), 250);
    for (id, line) in moves.iter().zip(&lines) {
        let comment = tree
            .node(*id)
            .value("C")
            .map(|v| v.text())
            .unwrap_or_default();
        let sentence = line.splitn(5, ' ').nth(4).unwrap();
        assert!(comment.ends_with(sentence), "{comment:?} vs {line}");
    }
}

#[test]
fn errors_name_the_file_and_exit_1_usage_errors_exit_2() {
    let dir = std::env::temp_dir().join(format!("tengen-explain-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Not SGF at all: the byte is named.
    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, "hello").unwrap();
    let out = tengen(&["explain", broken.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("broken.sgf") && err.contains("byte 0"),
        "{err}"
    );
    // A property the record cannot be replayed with: it is named.
    let size = dir.join("size.sgf");
    std::fs::write(&size, "(;GM[1]FF[4]SZ[99];B[aa])").unwrap();
    let out = tengen(&["explain", size.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("size.sgf") && err.contains("SZ[99]"), "{err}");
    let stone_on_stone = dir.join("twice.sgf");
    std::fs::write(&stone_on_stone, "(;GM[1]FF[4]SZ[9];B[ee];W[ee])").unwrap();
    let out = tengen(&["explain", stone_on_stone.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("twice.sgf") && err.contains("move 2"), "{err}");
    // The move before the error is still explained.
    assert_eq!(stdout(&out).lines().count(), 1);
    let missing = dir.join("missing.sgf");
    let out = tengen(&["explain", missing.to_str().unwrap()]);
    // A path that cannot be read: the command could not do its work.
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.sgf"));
    let _ = std::fs::remove_dir_all(&dir);
    // Usage errors: two files, an unknown language.
    let g = pro_game();
    let out = tengen(&["explain", g.to_str().unwrap(), g.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = tengen(&["explain", g.to_str().unwrap(), "--lang", "de"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Every `step`-th SGF file under `dir`, sorted.
fn sample(dir: &Path, step: usize) -> Vec<PathBuf> {
    let all = tengen_sgf::sgf_files(&[dir.to_path_buf()]).unwrap();
    all.into_iter().step_by(step).collect()
}

#[test]
fn explains_a_sample_of_the_game_collections_without_failure() {
    let root = data();
    let mut files = Vec::new();
    // The records `tengen check` diagnoses as broken (missing handicap
    // stones, a stone on a stone) cannot be replayed; they are left out.
    let broken: Vec<&str> = include_str!("data/broken-records.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .collect();
    for (dir, step) in [("fox_pro", 40), ("kgs_6d", 40), ("yenw_ai", 40)] {
        let d = root.join(dir);
        assert!(d.is_dir(), "{} is missing", d.display());
        files.extend(sample(&d, step).into_iter().filter(|f| {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            !broken.contains(&rel.as_str())
        }));
    }
    assert!(files.len() >= 350, "{} files", files.len());
    let mut args = vec!["explain".to_string(), "--stats".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = tengen(&args);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{}\n{}",
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with(&format!("files={} ", files.len())),
        "{summary}"
    );
    assert!(summary.ends_with("failures=0"), "{summary}");
    // Every term has its row: `term count per-1000-moves`.
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with("files=")).collect();
    assert_eq!(rows.len(), tengen_lexicon::TERMS.len());
    let count = |id: &str| -> usize {
        rows.iter()
            .find(|r| r.split(' ').next() == Some(id))
            .and_then(|r| r.split(' ').nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    // The sanity check of the issue: the common shapes are common, ladders
    // rare.
    for id in ["kosumi", "tsuke", "nobi", "keima"] {
        assert!(
            count(id) > 3 * count("shicho"),
            "{id}: {} vs shicho {}",
            count(id),
            count("shicho")
        );
    }
}
