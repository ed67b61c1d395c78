//! The `tengen` binary as a user runs it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{stdout, tengen};
use tengen_core::Preset;

#[test]
fn rules_prints_every_preset_and_every_field() {
    let out = tengen(&["rules"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for p in Preset::ALL {
        assert!(text.contains(p.name()), "{} missing:\n{text}", p.name());
        assert!(text.contains(p.description()));
    }
    for (field, _) in Preset::Ffg.rules().fields() {
        assert!(text.contains(field), "{field} missing");
    }
    assert!(text.contains("natural situational superko"));
}

#[test]
fn rules_by_alias_prints_one_preset() {
    let out = tengen(&["rules", "New Zealand"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("nz"), "{text}");
    assert!(text.contains("situational superko"));
    assert!(text.contains("allowed (single and multi-stone)"));
    assert!(!text.contains("chinese"));
}

#[test]
fn unknown_rules_list_the_known_ones_and_exit_2() {
    let out = tengen(&["rules", "ing"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for p in Preset::ALL {
        assert!(err.contains(p.name()), "{err}");
    }
}

#[test]
fn bench_search_prints_a_line_per_score_weight_asked_and_the_board_default_otherwise() {
    let field = |extra: &[&str], name: &str| {
        let mut args = vec![
            "bench",
            "search",
            "--playouts",
            "300",
            "--threads",
            "1",
            "--knowledge",
            "patterns",
        ];
        args.extend_from_slice(extra);
        let out = tengen(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = stdout(&out);
        text.lines()
            .map(|l| {
                l.split(' ')
                    .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
                    .unwrap_or_else(|| panic!("{l}"))
                    .to_string()
            })
            .collect::<Vec<_>>()
    };
    let lines = |extra: &[&str]| field(extra, "score_weight");
    assert_eq!(
        lines(&[
            "--size",
            "9",
            "--score-weight",
            "0",
            "--score-weight",
            "0.2"
        ]),
        ["0", "0.2"]
    );
    assert_eq!(lines(&["--size", "9"]), ["0"]);
    assert_eq!(lines(&["--size", "19"]), ["0.05"]);
    // The last good replies: off unless asked, a line for each asked.
    let replies = |extra: &[&str]| field(extra, "last_good_reply");
    assert_eq!(replies(&["--size", "9"]), ["false"]);
    assert_eq!(
        replies(&[
            "--size",
            "9",
            "--last-good-reply",
            "false",
            "--last-good-reply",
            "true"
        ]),
        ["false", "true"]
    );
}

#[test]
fn bench_search_refuses_a_weight_outside_0_to_1_naming_it() {
    for flag in ["--score-weight", "--value-weight"] {
        let out = tengen(&["bench", "search", flag, "1.5"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains("not a weight from 0 to 1"),
            "{err}"
        );
    }
}

#[test]
fn bench_playouts_prints_the_documented_line() {
    let out = tengen(&[
        "bench",
        "playouts",
        "--size",
        "9",
        "--playouts",
        "3000",
        "--komi",
        "7",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let line = text.lines().next().unwrap_or_default();
    let fields: Vec<(&str, &str)> = line.split(' ').filter_map(|f| f.split_once('=')).collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        [
            "size",
            "playouts",
            "playouts_per_s",
            "mean_moves",
            "black_wins",
            "komi"
        ],
        "{line}"
    );
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| *v)
            .unwrap_or_default()
    };
    assert_eq!(get("size"), "9");
    assert_eq!(get("playouts"), "3000");
    assert_eq!(get("komi"), "7");
    let mean: f64 = get("mean_moves").parse().unwrap();
    assert!((100.0..125.0).contains(&mean), "{line}");
    let wins: f64 = get("black_wins").parse().unwrap();
    assert!((0.35..0.52).contains(&wins), "{line}");
}

#[test]
fn bench_play_replays_under_every_preset() {
    let out = tengen(&["bench", "play", "--size", "9", "--games", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    for p in Preset::ALL {
        assert!(text.contains(&format!("rules={} ", p.name())), "{text}");
    }
}

#[test]
fn bench_analysis_reads_a_record_written_in_another_charset() {
    // A Fox record in GB2312: its names are not UTF-8, its moves are.
    let record = common::data().join("fox_pro/Pro.7z/Pro/9p/1379941595019999631.sgf");
    assert!(std::fs::read_to_string(&record).is_err());
    let path = record.to_str().unwrap();
    let out = tengen(&["bench", "analysis", path, "--playouts", "2"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("analysis positions=257 "), "{text}");
}
