//! `tengen match` against the built binary: a real opponent (GNU Go) and
//! engines that crash, play illegally or never answer.

use std::path::{Path, PathBuf};
use std::process::Command;
use tengen_core::{Move, Phase, Preset};
use tengen_sgf::record::{self, RecordedResult, ReplayMode, ReplayOptions, Severity};

const GNUGO: &str = "/usr/games/gnugo";

fn tengen() -> String {
    env!("CARGO_BIN_EXE_tengen").to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs a match and returns stdout's lines.
fn run_match(args: &[&str]) -> Vec<String> {
    let out = Command::new(tengen())
        .arg("match")
        .args(args)
        .output()
        .expect("tengen match runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.lines().map(str::to_string).collect()
}

/// Replays a written record strictly under Chinese rules: every move legal.
fn replay(path: &Path) -> (tengen_core::Game, String) {
    let bytes = std::fs::read(path).unwrap();
    let parsed = tengen_sgf::parse(&bytes, &tengen_sgf::ParseOptions::strict()).unwrap();
    let tree = &parsed.collection.trees[0];
    let options = ReplayOptions {
        mode: ReplayMode::Strict,
        ..Default::default()
    };
    let (info, r) = record::replay_main_line(tree, &options).unwrap();
    assert!(r.complete, "{}: {:?}", path.display(), r.findings);
    assert!(
        r.findings.iter().all(|f| f.severity != Severity::Error),
        "{:?}",
        r.findings
    );
    (r.game, info.result_text.unwrap_or_default())
}

#[test]
fn tengen_against_gnu_go_scores_every_game_and_writes_legal_records() {
    assert!(
        Path::new(GNUGO).exists(),
        "GNU Go is required: apt-get install gnugo"
    );
    let dir = temp_dir("gnugo");
    let black = format!("{} gtp --playouts 200 --threads 1", tengen());
    let white = format!("{GNUGO} --mode gtp --level 1 --chinese-rules");
    let lines = run_match(&[
        "--black",
        &black,
        "--white",
        &white,
        "--games",
        "2",
        "--size",
        "9",
        "--komi",
        "7",
        "--sgf-dir",
        dir.to_str().unwrap(),
        "--move-timeout",
        "60",
    ]);
    let games: Vec<&String> = lines.iter().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{lines:?}");
    assert!(games[0].starts_with("game 1: A black B white: "));
    assert!(games[1].starts_with("game 2: A white B black: "));
    for (i, line) in games.iter().enumerate() {
        let re = line.split(": ").nth(2).unwrap().split(' ').next().unwrap();
        let parsed = RecordedResult::parse(re);
        assert!(
            matches!(parsed, RecordedResult::Outcome(_)) || re.ends_with("+R"),
            "{line}"
        );
        assert!(!re.ends_with("+F") && !re.ends_with("+T"), "{line}");
        let (game, recorded) = replay(&dir.join(format!("game-{:03}.sgf", i + 1)));
        assert_eq!(recorded, re);
        assert_eq!(*game.rules(), Preset::Chinese.rules());
        assert_eq!(game.komi().to_string(), "7");
        if !re.ends_with("+R") {
            // Counted: play stopped at two passes.
            let turns = game.turns();
            assert!(turns.len() >= 2);
            assert!(turns[turns.len() - 2..].iter().all(|t| t.mv == Move::Pass));
            assert_ne!(game.phase(), Phase::Playing);
        }
    }
    let summary = lines.join("\n");
    assert!(summary.contains("games 2: A won "), "{summary}");
    assert!(summary.contains("95% Wilson interval"));
    assert!(summary.contains("Elo A-B "));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fake engine in shell: answers everything with success, and `genmove`
/// as `$1` says: `crash`, `silent` or a fixed vertex.
fn fake(genmove: &str) -> String {
    let answer = match genmove {
        "crash" => "exit 1".to_string(),
        "silent" => ":".to_string(),
        v => format!("printf \"=%s {v}\\n\\n\" $id"),
    };
    format!(
        "sh -c 'while read id cmd rest; do case $cmd in genmove) {answer};; quit) printf \"=%s\\n\\n\" $id; exit 0;; *) printf \"=%s\\n\\n\" $id;; esac; done'"
    )
}

fn results(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            l.split(": ")
                .nth(2)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_crash_an_illegal_move_and_a_timeout_lose() {
    let engine = format!("{} gtp --playouts 50 --threads 1", tengen());
    let common = ["--size", "9", "--games", "2", "--move-timeout", "0.5"];
    let crash = fake("crash");
    let mut args = vec!["--black", engine.as_str(), "--white", crash.as_str()];
    args.extend(common);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["B+F", "W+F"], "{lines:?}");
    assert!(lines.join("\n").contains("A won 2, B won 0"));

    // Always A1: legal once, then occupied.
    let illegal = fake("A1");
    let mut args = vec!["--black", illegal.as_str(), "--white", engine.as_str()];
    args.extend(common);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["W+F", "B+F"], "{lines:?}");

    let silent = fake("silent");
    let mut args = vec!["--black", engine.as_str(), "--white", silent.as_str()];
    args.extend(["--size", "9", "--games", "1", "--move-timeout", "0.5"]);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["B+T"], "{lines:?}");
}

#[test]
fn a_missing_engine_is_an_error() {
    let out = Command::new(tengen())
        .args([
            "match",
            "--black",
            "/nonexistent/engine",
            "--white",
            "/nonexistent/too",
            "--games",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start"), "{err}");
}
