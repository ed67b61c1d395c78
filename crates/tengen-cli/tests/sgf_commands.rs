//! `tengen check` and `tengen score` on records written for the purpose.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{stderr as err, stdout as out, tengen};
use std::path::PathBuf;

/// A directory of SGF files for one test.
fn files(name: &str, contents: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for (file, text) in contents {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// A 5x5 game: a black wall on column B, a white wall on column D, the
/// centre column dame: 10 points each, 5 dame.
const WALLS: &str = ";B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[]";

#[test]
fn check_reports_each_problem_as_file_game_move() {
    let dir = files(
        "check",
        &[
            ("good.sgf", "(;GM[1]SZ[9]RU[Chinese];B[ee];W[cc])"),
            (
                "sub/suicide.SGF",
                "(;SZ[5]RU[Chinese];B[ba];W[cc];B[ab];W[aa])(;SZ[9];B[ee])",
            ),
            ("notes.txt", "not a record, not read"),
            ("broken.sgf", "garbage without a tree"),
        ],
    );
    let o = tengen(&["check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with("broken.sgf:0:0: not a readable SGF file: byte 0 (line 1, column 1): no game tree found (no '(')"), "{text}");
    assert!(
        lines[1].ends_with(
            "sub/suicide.SGF:1:4: illegal move W[aa] at move 4: suicide is forbidden under chinese"
        ),
        "{text}"
    );
    assert!(
        lines[2].starts_with("files=3 games=3 moves=6 errors=2 seconds="),
        "{text}"
    );

    // --rules overrides RU: under New Zealand rules the suicide is legal.
    let o = tengen(&["check", "--rules", "nz", dir.join("sub").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));

    // --json: one object per problem, then the summary.
    let o = tengen(&["check", "--json", dir.join("sub").to_str().unwrap()]);
    let text = out(&o);
    assert_eq!(text.lines().count(), 2, "{text}");
    let line = text.lines().next().unwrap();
    for part in [
        "\"game\":1",
        "\"move\":4",
        "\"severity\":\"error\"",
        "\"code\":\"rules.illegal-move\"",
        "suicide is forbidden under chinese",
    ] {
        assert!(line.contains(part), "{line}");
    }
    let summary = text.lines().nth(1).unwrap();
    assert!(summary.starts_with("{\"summary\":{"), "{summary}");
    assert!(err(&o).is_empty(), "{}", err(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_usage_errors_exit_2() {
    assert_eq!(tengen(&["check"]).status.code(), Some(2));
    let o = tengen(&["check", "--rules", "ing", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("known rules are nz, chinese"),
        "{}",
        err(&o)
    );
}

#[test]
fn score_prints_the_result_first_then_the_breakdown() {
    let dir = files(
        "score",
        &[
            (
                "ffg.sgf",
                &format!("(;SZ[5]RU[French]KM[7.5]RE[W+7.5]{WALLS})"),
            ),
            (
                "chinese.sgf",
                &format!("(;SZ[5]RU[Chinese]KM[7.5]RE[B+3]{WALLS})"),
            ),
            ("nz.sgf", &format!("(;SZ[5]RU[NZ]KM[0]{WALLS})")),
        ],
    );
    let ffg = tengen(&["score", dir.join("ffg.sgf").to_str().unwrap()]);
    assert!(ffg.status.success(), "{}", err(&ffg));
    let text = out(&ffg);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("W+7.5"));
    assert!(text.contains("quick count:"), "{text}");
    assert!(text.contains("margin -7.5 (area count: -7.5)"), "{text}");
    assert!(!text.contains("chinese count"));
    assert!(err(&ffg).is_empty(), "the record agrees: {}", err(&ffg));

    // RE[B+3] is not what the count gives: the count all the same, exit 1.
    let chinese = tengen(&["score", dir.join("chinese.sgf").to_str().unwrap()]);
    assert_eq!(chinese.status.code(), Some(1));
    let text = out(&chinese);
    assert_eq!(text.lines().next(), Some("W+7.5"));
    // 10 stones + 2.5 shared dame against 12.5 + 3.75.
    assert!(
        text.contains("chinese count: black 12.5 against 16.25: White wins by 3.75 stones"),
        "{text}"
    );
    assert!(
        err(&chinese).contains("chinese.sgf: the record says RE[B+3], the count gives W+7.5"),
        "{}",
        err(&chinese)
    );

    // A draw with integer komi under New Zealand rules.
    let nz = tengen(&["score", dir.join("nz.sgf").to_str().unwrap()]);
    assert_eq!(out(&nz).lines().next(), Some("0"));

    // Dead stones and komi given on the command line.
    let dead = tengen(&[
        "score",
        dir.join("nz.sgf").to_str().unwrap(),
        "--dead",
        "D1,D5",
        "--komi",
        "-0.5",
    ]);
    let text = out(&dead);
    assert_eq!(text.lines().next(), Some("B+25.5"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn score_of_an_illegal_record_names_the_move_and_exits_1() {
    let dir = files(
        "illegal",
        &[("bad.sgf", "(;SZ[5]RU[Chinese];B[ba];W[cc];B[ab];W[aa])")],
    );
    let o = tengen(&["score", dir.join("bad.sgf").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).is_empty());
    assert!(
        err(&o).contains("illegal move W[aa] at move 4: suicide is forbidden under chinese"),
        "{}",
        err(&o)
    );
    let o = tengen(&[
        "score",
        dir.join("bad.sgf").to_str().unwrap(),
        "--dead",
        "Z9",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Chinese records (Fox, yenw) give area results in stones (Chinese rules
/// 2002, art. 9 and note ***): `RE[W+3.75]` is White by 7.5 points.
#[test]
fn chinese_results_in_stones_agree_with_the_count() {
    let dir = files(
        "stones",
        &[
            (
                "stones.sgf",
                &format!("(;SZ[5]RU[Chinese]KM[7.5]RE[W+3.75]{WALLS})"),
            ),
            (
                "points.sgf",
                &format!("(;SZ[5]RU[Chinese]KM[7.5]RE[W+7.5]{WALLS})"),
            ),
            (
                "wrong.sgf",
                &format!("(;SZ[5]RU[Chinese]KM[7.5]RE[W+1.75]{WALLS})"),
            ),
        ],
    );
    for (file, differs) in [
        ("stones.sgf", false),
        ("points.sgf", false),
        ("wrong.sgf", true),
    ] {
        let run = tengen(&["score", dir.join(file).to_str().unwrap()]);
        assert_eq!(
            run.status.code(),
            Some(if differs { 1 } else { 0 }),
            "{}",
            err(&run)
        );
        assert_eq!(out(&run).lines().next(), Some("W+7.5"));
        assert_eq!(
            err(&run).contains("the record says"),
            differs,
            "{file}: {}",
            err(&run)
        );
    }
}
