//! `tengen score`, `check` and `explain` on records of every ending: void
//! repetitions, moves after the end, trailing passes, unfinished capture
//! games, other game types, collections of several charsets. The records
//! are in `data/records/`, each saying in its comment what it holds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{stderr as err, stdout as out, tengen};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn record(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
        .display()
        .to_string()
}

/// The number after `margin` and after `area count:` in the quick count
/// line.
fn quick_and_area(text: &str) -> (String, String) {
    let line = text
        .lines()
        .find(|l| l.starts_with("quick count:"))
        .unwrap_or_else(|| panic!("no quick count:\n{text}"));
    let after = |key: &str| {
        line.split(key)
            .nth(1)
            .unwrap()
            .trim_start()
            .split([' ', ')'])
            .next()
            .unwrap()
            .to_string()
    };
    (after("margin"), after("area count:"))
}

#[test]
fn a_void_repetition_is_scored_void() {
    let o = tengen(&["score", &record("triple-ko-void.sgf")]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("Void"), "{text}");
    assert_eq!(
        lines.next(),
        Some("no result: the same situation occurred for the fourth time"),
        "{text}"
    );
    assert!(!text.contains("total"), "no count for a void game:\n{text}");
    assert!(text.contains("moves: 18"), "{text}");
}

#[test]
fn moves_after_the_end_are_left_out_of_the_count_and_warned_about() {
    // After a void repetition: score gives the result, check reports the moves.
    let path = record("triple-ko-void-then-more.sgf");
    let o = tengen(&["score", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("Void\n"), "{}", out(&o));
    assert!(
        err(&o).contains(
            "the game ended at move 18; the 2 move(s) recorded after it, from move 19, are not counted"
        ),
        "{}",
        err(&o)
    );
    let o = tengen(&["check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains(":1:19: move 19 B[cb] comes after the end of the game Void"),
        "{}",
        out(&o)
    );

    // After a capture goal.
    let path = record("capture-goal-then-more.sgf");
    let o = tengen(&["score", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("B+C\n"), "{text}");
    assert!(text.contains("capture goal"), "{text}");
    assert!(err(&o).contains("the game ended at move 3"), "{}", err(&o));
    let o = tengen(&["check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains(":1:4: move 4 W[dd] comes after the end"));

    // A third pass after the two that ended a game counted at once.
    let path = record("stones-third-pass.sgf");
    let o = tengen(&["score", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("0\ndraw: equal count\n"), "{text}");
    assert!(text.contains("moves: 12"), "{text}");
    assert!(err(&o).contains("from move 13"), "{}", err(&o));
    let o = tengen(&["check", &path]);
    assert!(out(&o).contains(":1:13: move 13 B[] comes after the end"));
}

#[test]
fn the_quick_count_agrees_with_the_area_count_after_trailing_passes() {
    let o = tengen(&["score", &record("ffg-third-pass.sgf")]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("W+7.5\n"), "{text}");
    let (quick, area) = quick_and_area(&text);
    assert_eq!(quick, area, "{text}");
    assert_eq!(area, "-7.5", "{text}");
}

#[test]
fn an_unfinished_capture_game_is_not_said_to_end_by_passes() {
    let o = tengen(&["score", &record("capture-five-unfinished.sgf")]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(!text.contains("after two passes"), "{text}");
    assert!(text.contains("the capture game is not over"), "{text}");
    assert!(text.contains("black 1 white 0"), "{text}");
}

#[test]
fn a_record_of_another_game_is_not_go() {
    let path = record("not-go.sgf");
    let o = tengen(&["score", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("GM[19]: not a Go game (Go records are GM[1])"),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("is not a point"), "{}", err(&o));
    let o = tengen(&["check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains(":1:0: GM[19]: not a Go game"),
        "{}",
        out(&o)
    );
}

#[test]
fn each_game_of_a_collection_is_decoded_by_its_own_charset() {
    let path = record("mixed-charsets.sgf");
    let o = tengen(&["check", "--notes", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = out(&o);
    assert!(!text.contains("CA["), "no charset note:\n{text}");
    assert!(!text.contains("replaced"), "{text}");
    let dir = std::env::temp_dir().join(format!("tengen-records-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("utf8.sgf");
    let o = tengen(&["explain", &path, "--out", target.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let written = std::fs::read_to_string(&target).unwrap();
    for name in [
        "PB[古力]",
        "PW[常昊]",
        "PB[井山裕太]",
        "PW[張栩]",
        "C[ソ表示]",
    ] {
        assert!(written.contains(name), "{name} missing:\n{written}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn notes_name_their_location_once() {
    let dir = std::env::temp_dir().join(format!("tengen-records-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junk-first.sgf");
    std::fs::write(&path, "x(;GM[1]SZ[5];B[aa])").unwrap();
    let o = tengen(&["check", "--notes", path.to_str().unwrap()]);
    let text = out(&o);
    let note = text.lines().next().unwrap();
    assert!(
        note.ends_with(
            ":0:0: byte 0 (line 1, column 1): 1 bytes of text outside any game tree; skipped"
        ),
        "{text}"
    );
    assert_eq!(note.matches("byte 0").count(), 1, "{note}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_writes_its_file_whatever_happens_to_stdout() {
    let dir = std::env::temp_dir().join(format!("tengen-records-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("explained.sgf");
    // Standard output is a pipe whose reader is gone: the first write fails.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["explain", &record("ff3.sgf"), "--out"])
        .arg(&target)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let written = std::fs::read_to_string(&target).expect("the file is written");
    assert!(written.contains("CA[UTF-8]"), "{written}");
    assert!(written.contains("FF[4]"), "{written}");
    assert!(!written.contains("FF[3]"), "{written}");
    assert!(written.contains(";B[ee]C["), "{written}");
    let _ = std::fs::remove_dir_all(&dir);
}
