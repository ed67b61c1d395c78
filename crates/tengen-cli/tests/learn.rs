//! `tengen train` and `tengen predict` as a user runs them, on real
//! professional records of `shared/data/fox_pro`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, spawn_piped, stderr, stdout, tengen};
use std::path::{Path, PathBuf};
use std::process::Output;

const RECORD: &str = "fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf";

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(out).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

/// A fresh directory of this test run, named `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tengen predict --json` of `RECORD` with `options`, which must succeed.
fn predict(options: &[&str]) -> serde_json::Value {
    let record = data().join(RECORD);
    let mut args = vec!["predict", record.to_str().unwrap()];
    args.extend_from_slice(options);
    args.push("--json");
    let out = tengen(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)
}

/// `tengen train KIND` on the records of `dir`, with `options`.
fn train(kind: &str, dir: &Path, options: &[&str]) -> Output {
    let mut args = vec!["train", kind, dir.to_str().unwrap()];
    args.extend_from_slice(options);
    tengen(&args)
}

/// `tengen train KIND` of a small network (8 channels, 2 layers, batches
/// of 16, a checkpoint every 2 steps) on the records of `dir`, with
/// `games` saying how many are trained and tested on.
fn train_small_network(
    kind: &str,
    dir: &Path,
    games: &[&str],
    steps: &str,
    checkpoint: &Path,
    weights: &Path,
) -> Output {
    let mut options = games.to_vec();
    options.extend_from_slice(&[
        "--channels",
        "8",
        "--layers",
        "2",
        "--batch",
        "16",
        "--steps",
        steps,
        "--checkpoint-every",
        "2",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
    ]);
    train(kind, dir, &options)
}

/// Asserts that `tengen ARGS` is refused as a usage error (exit code 2),
/// saying `reason`.
fn refused(args: &[&str], reason: &str) {
    let out = tengen(args);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(reason), "{}", stderr(&out));
}

#[test]
fn predict_ranks_every_stone_play_of_a_record_by_phase() {
    let v = predict(&[]);
    assert_eq!(v["model"], "patterns");
    assert_eq!(v["games"], 1);
    let phase = |name: &str, key: &str| v["phases"][name][key].as_f64().unwrap();
    let moves = phase("all", "moves");
    // Every stone play but the forced ones (one legal move) is ranked.
    assert_eq!(
        moves,
        phase("1-50", "moves") + phase("51-150", "moves") + phase("151+", "moves")
    );
    assert_eq!(phase("1-50", "moves"), 50.0);
    assert!(moves > 150.0, "{moves}");
    let (t1, t3, t5) = (
        phase("all", "top1"),
        phase("all", "top3"),
        phase("all", "top5"),
    );
    assert!(
        0.2 < t1 && t1 <= t3 && t3 <= t5 && t5 < 1.0,
        "{t1} {t3} {t5}"
    );
    assert!(phase("all", "log_likelihood") < 0.0);
    // The table says the same.
    let out = tengen(&["predict", data().join(RECORD).to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.starts_with("model patterns: 1 games"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("151+")), "{text}");
}

#[test]
fn train_writes_a_model_that_predict_reads() {
    let tmp = temp_dir("train");
    let model = tmp.join("small.tgpm");
    let out = train(
        "patterns",
        &data().join("fox_pro/Pro2.7z/Pro/1p"),
        &[
            "--games",
            "30",
            "--test-games",
            "5",
            "--rounds",
            "3",
            "--min-count",
            "2",
            "--out",
            model.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("round 3: mean log-likelihood"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("model patterns:"), "{}", stdout(&out));
    let top1 = predict(&["--weights", model.to_str().unwrap()])["phases"]["all"]["top1"]
        .as_f64()
        .unwrap();
    assert!(top1 > 0.1, "{top1}");
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn bad_models_and_knowledge_are_refused_with_the_reason() {
    let path = data().join(RECORD);
    let path = path.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("tengen-bad-model-{}", std::process::id()));
    std::fs::write(&tmp, b"not a model").unwrap();
    refused(
        &["predict", path, "--weights", tmp.to_str().unwrap()],
        "no TGPM header",
    );
    std::fs::remove_file(&tmp).ok();
    refused(
        &["predict", path, "--weights", "/nonexistent/m.tgpm"],
        "cannot read /nonexistent/m.tgpm",
    );
    refused(
        &[
            "predict",
            path,
            "--model",
            "net",
            "--weights",
            "/nonexistent/p.safetensors",
        ],
        "cannot read /nonexistent/p.safetensors",
    );
    refused(
        &["gtp", "--strength", "expert"],
        "known: beginner, easy, medium, strong",
    );
    let out = tengen(&["gtp", "--strength", "easy", "--playouts", "5"]);
    assert_eq!(out.status.code(), Some(2), "a level is its own playouts");
    refused(
        &["gtp", "--knowledge", "oracle"],
        "known: none, patterns, net",
    );
}

#[test]
fn train_net_checkpoints_resumes_and_writes_weights_that_predict_reads() {
    let dir = data().join("fox_pro/Pro2.7z/Pro/1p");
    let tmp = temp_dir("train-net");
    let weights = tmp.join("small.safetensors");
    let checkpoint = tmp.join("checkpoint");
    let games = [
        "--games",
        "10",
        "--test-games",
        "3",
        "--test-positions",
        "100",
    ];
    let run = |steps: &str| train_small_network("net", &dir, &games, steps, &checkpoint, &weights);
    let out = run("4");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    for step in [
        "step 0: test top-1",
        "step 2: test top-1",
        "step 4: test top-1",
    ] {
        assert!(err.contains(step), "{err}");
    }
    assert!(err.contains("4 steps"), "{err}");
    // The second run goes on from step 4, and measures only its new steps.
    let out = run("6");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("step 6: test top-1"), "{err}");
    assert!(!err.contains("step 0:"), "{err}");
    let v = predict(&["--model", "net", "--weights", weights.to_str().unwrap()]);
    assert_eq!(v["model"], "net");
    let top1 = v["phases"]["all"]["top1"].as_f64().unwrap();
    assert!(top1 > 0.1, "{top1}");
    // The shipped network, without --weights.
    let top1 = predict(&["--model", "net"])["phases"]["all"]["top1"]
        .as_f64()
        .unwrap();
    assert!(top1 > 0.25, "{top1}");
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn train_value_writes_weights_that_evaluate_reads_and_evaluate_judges_records() {
    let tmp = temp_dir("train-value");
    let weights = tmp.join("value.safetensors");
    let out = train_small_network(
        "value",
        &data().join("fox_pro/Pro2.7z/Pro/8p"),
        &[
            "--games",
            "30",
            "--test-games",
            "5",
            "--test-positions",
            "64",
        ],
        "4",
        &tmp.join("checkpoint"),
        &weights,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    // Training and test measures side by side, at each checkpoint.
    for line in [
        "step 0 (",
        "step 2 (",
        "step 4 (",
        "  train: win loss",
        "  test:  win loss",
    ] {
        assert!(err.contains(line), "{line} missing: {err}");
    }
    assert!(err.contains("counted as recorded"), "{err}");
    // The trained weights judge a record, one JSON object per position.
    let out = tengen(&[
        "evaluate",
        data().join(RECORD).to_str().unwrap(),
        "--value",
        weights.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, positions) = lines.split_last().unwrap();
    assert!(positions.len() > 100, "{} positions", positions.len());
    for (turn, p) in positions.iter().enumerate() {
        assert_eq!(p["turn"], turn);
        let wins = p["network"]["black_wins"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&wins), "{p}");
        assert!(p["search"].is_null());
    }
    assert_eq!(summary["games"], 1);
    assert_eq!(
        summary["summary"]["network"]["favoured"]["final"]["games"],
        1
    );
    // The same weights judge in `tengen gtp`'s search, whose analysis
    // then reports the network's view at once; a file that is not a value
    // network is refused by name.
    let mut gtp = spawn_piped(
        std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args([
                "gtp",
                "--playouts",
                "40",
                "--threads",
                "1",
                "--value-weight",
                "1",
            ])
            .arg("--value")
            .arg(&weights),
    );
    std::io::Write::write_all(
        gtp.stdin.as_mut().unwrap(),
        b"boardsize 19\nkata-genmove_analyze b\nquit\n",
    )
    .unwrap();
    let out = gtp.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("play "), "{text}");
    assert!(text.contains("scoreLead"), "{text}");
    let broken = tmp.join("broken.safetensors");
    std::fs::write(&broken, b"not weights").unwrap();
    let out = tengen(&["gtp", "--value", broken.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a value network"),
        "{}",
        stderr(&out)
    );
    // The shipped network and a short search, in the table.
    let out = tengen(&[
        "evaluate",
        data().join("fox_pro/Pro2.7z/Pro/1p").to_str().unwrap(),
        "--split",
        "test",
        "--games",
        "6",
        "--playouts",
        "50",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let games: usize = text
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!((3..=6).contains(&games), "{text}");
    for row in [
        "judge        1/4     1/2     3/4   final",
        "network ",
        "search  ",
    ] {
        assert!(text.contains(row), "{row} missing: {text}");
    }
    std::fs::remove_dir_all(&tmp).ok();
}
