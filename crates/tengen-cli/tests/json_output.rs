//! The `--json` outputs of `score`, `explain` and `check`, field by field,
//! on records of the shared data (and a few written for the purpose): each
//! schema as the reference gives it, the same values as the text, the
//! exit statuses, and every `check` code listed in the reference.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, stderr as err, stdout as out, tengen};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A record of the shared data, checked to be there.
fn shared(rel: &str) -> String {
    let p = data().join(rel);
    assert!(p.is_file(), "{} is missing", p.display());
    p.display().to_string()
}

/// A record of this crate's own test data.
fn own(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
        .display()
        .to_string()
}

/// An AGA game of 247 moves ended by two passes, `RE[B+7.50]`.
const AGA: &str = "gnugo_regression/regression/games/kgs/yagr-r08ert.sgf";

/// Its dead stones, as the players counted them.
const AGA_DEAD: &str = "N18,D17,D3,T10,T9,T8,P7,Q7,T7,S6,P5,Q5,S5,T5,R4,S4,R3,Q2,R2,S1";

/// A professional 19x19 game of 250 moves, no handicap.
const PRO: &str = "fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf";

/// The one JSON object a command wrote.
fn object(o: &std::process::Output) -> Value {
    serde_json::from_str(&out(o))
        .unwrap_or_else(|e| panic!("not one JSON object ({e}):\n{}{}", out(o), err(o)))
}

/// The JSON objects a command wrote, one a line.
fn objects(o: &std::process::Output) -> Vec<Value> {
    out(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The keys of an object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

const SCORE_KEYS: [&str; 14] = [
    "after_end",
    "chinese",
    "counts",
    "dead",
    "end",
    "file",
    "komi",
    "moves",
    "quick",
    "record",
    "result",
    "rules",
    "says",
    "scoring",
];

#[test]
fn score_json_gives_the_count_the_dead_stones_and_the_agreement() {
    let path = shared(AGA);
    let o = tengen(&["score", &path, "--dead", AGA_DEAD, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = object(&o);
    assert_eq!(keys(&v), SCORE_KEYS.to_vec());
    assert_eq!(v["file"], json!(path));
    assert_eq!(v["result"], json!("B+7.5"));
    assert_eq!(v["says"], json!("black wins by 7.5 points"));
    assert_eq!(v["end"], json!("count"));
    assert_eq!(v["rules"], json!("aga"));
    assert_eq!(v["scoring"], json!("area, dame to nobody"));
    assert_eq!(v["komi"], json!(5.5));
    assert_eq!(v["moves"], json!(247));
    assert_eq!(v["after_end"], Value::Null);
    assert_eq!(
        v["counts"],
        json!({
            "black": {"stones": 112, "territory": 75, "captures": 5, "dead": 3, "total": 187.0},
            "white": {"stones": 100, "territory": 74, "captures": 8, "dead": 17, "total": 179.5},
            "dame": 0,
            "margin": 7.5,
            "area_margin": 7.5,
        })
    );
    // AGA counts pass stones: the quick count, equal to the area count.
    assert_eq!(v["chinese"], Value::Null);
    assert_eq!(
        v["quick"],
        json!({
            "held": {"black": 24, "white": 12},
            "pass_stones": {"black": 1, "white": 1},
            "last_play_stone": 1,
            "remaining": {"black": 63, "white": 50},
            "komi": 5.5,
            "margin": 7.5,
        })
    );
    // Every stone of the chains named, row by row from the top.
    assert_eq!(
        v["dead"],
        json!({
            "from": "given",
            "black": ["N18", "D17", "D3"],
            "white": ["T10", "T9", "T8", "P7", "Q7", "T7", "S6", "P5", "Q5", "S5", "T5",
                      "R4", "S4", "R3", "Q2", "R2", "S1"],
        })
    );
    assert_eq!(v["record"], json!({"result": "B+7.50", "agrees": true}));
    assert!(err(&o).is_empty(), "{}", err(&o));

    // The text gives the same values.
    let o = tengen(&["score", &path, "--dead", AGA_DEAD]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.starts_with("B+7.5\nblack wins by 7.5 points\n"),
        "{text}"
    );
    assert!(text.contains("rules: aga  komi: 5.5  moves: 247"), "{text}");
    let total = text.lines().find(|l| l.starts_with("total")).unwrap();
    assert_eq!(
        total.split_whitespace().collect::<Vec<_>>(),
        ["total", "187", "179.5"]
    );
    assert!(text.contains("margin 7.5 (area count: 7.5)"), "{text}");
}

#[test]
fn score_of_a_record_whose_result_disagrees_exits_1_in_text_and_json() {
    // Without its dead stones the count gives B+25.5, not the recorded B+7.50.
    let path = shared(AGA);
    let o = tengen(&["score", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        out(&o).starts_with("B+25.5\n"),
        "the count is written: {}",
        out(&o)
    );
    assert!(
        err(&o).contains(&format!(
            "{path}: the record says RE[B+7.50], the count gives B+25.5"
        )),
        "{}",
        err(&o)
    );
    let o = tengen(&["score", &path, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let v = object(&o);
    assert_eq!(v["result"], json!("B+25.5"));
    assert_eq!(v["record"], json!({"result": "B+7.50", "agrees": false}));
    assert_eq!(v["dead"], json!({"from": "none", "black": [], "white": []}));
    assert_eq!(v["counts"]["black"]["dead"], json!(0));
    assert!(
        err(&o).contains("the record says RE[B+7.50]"),
        "{}",
        err(&o)
    );

    // The help says so.
    let help = out(&tengen(&["score", "--help"]));
    assert!(help.contains("exits 1"), "{help}");
    assert!(help.contains("--json"), "{help}");
}

#[test]
fn score_json_of_an_estimate_lists_the_stones_it_counted_dead() {
    let o = tengen(&["score", &shared(AGA), "--dead", "auto", "--json"]);
    let v = object(&o);
    assert_eq!(v["dead"]["from"], json!("estimated"));
    for color in ["black", "white"] {
        let listed = v["dead"][color].as_array().unwrap();
        assert_eq!(json!(listed.len()), v["counts"][color]["dead"], "{v}");
        for vertex in listed {
            let name = vertex.as_str().unwrap();
            assert!(
                name.as_bytes()[0].is_ascii_uppercase() && name[1..].parse::<u32>().is_ok(),
                "{name}"
            );
        }
    }
    // The status follows the agreement, whatever the estimate.
    let agrees = v["record"]["agrees"].as_bool().unwrap();
    assert_eq!(o.status.code(), Some(if agrees { 0 } else { 1 }));
}

#[test]
fn score_json_of_games_without_a_count_or_without_an_end() {
    // A void repetition, two moves recorded after it, no RE.
    let path = own("triple-ko-void-then-more.sgf");
    let o = tengen(&["score", &path, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = object(&o);
    assert_eq!(keys(&v), SCORE_KEYS.to_vec());
    assert_eq!(v["result"], json!("Void"));
    assert_eq!(
        v["says"],
        json!("no result: the same situation occurred for the fourth time")
    );
    assert_eq!(v["end"], json!("rules"));
    assert_eq!(v["moves"], json!(18));
    assert_eq!(v["after_end"], json!({"first": 19, "moves": 2}));
    for none in ["scoring", "counts", "chinese", "quick", "dead"] {
        assert_eq!(v[none], Value::Null, "{none}");
    }
    assert_eq!(v["record"], json!({"result": null, "agrees": null}));

    // A KGS game lost on time: counted as it stands, RE[W+Time] not compared.
    let kgs =
        "kgs_6d/KGS_6d_190000/KGS-2017_01-19-733-.tar.gz/kgs-19-2017-01-new/2017-01-13-15.sgf";
    let o = tengen(&["score", &shared(kgs), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = object(&o);
    assert_eq!(v["end"], json!("unfinished"));
    assert_eq!(v["moves"], json!(118));
    assert_eq!(v["record"], json!({"result": "W+Time", "agrees": null}));
    assert!(!err(&o).contains("the record says"), "{}", err(&o));

    // A CGOS game won by an illegal move: no count to compare with.
    let cgos = shared("gnugo_regression/regression/games/cgos/13435.sgf");
    let o = tengen(&["score", &cgos, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = object(&o);
    assert_eq!(v["result"], json!("W+23.5"));
    assert_eq!(v["record"], json!({"result": "B+Illegal", "agrees": null}));
}

#[test]
fn score_json_gives_the_chinese_count_in_stones() {
    // 5x5: Black's wall on column B, White's on D, the centre column dame.
    let dir = temp_dir("chinese");
    let path = dir.join("stones.sgf");
    std::fs::write(
        &path,
        "(;SZ[5]RU[Chinese]KM[7.5]RE[W+3.75];B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[])",
    )
    .unwrap();
    let o = tengen(&["score", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = object(&o);
    assert_eq!(v["result"], json!("W+7.5"));
    assert_eq!(
        v["chinese"],
        json!({"black": 12.5, "threshold": 16.25, "margin_stones": -3.75})
    );
    assert_eq!(v["quick"], Value::Null);
    assert_eq!(v["counts"]["dame"], json!(5));
    assert_eq!(v["counts"]["white"]["total"], json!(20.0));
    // RE in stones (3.75) is White by 7.5 points.
    assert_eq!(v["record"], json!({"result": "W+3.75", "agrees": true}));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text line of `explain`: number, colour, vertex, ids, sentence.
fn line_fields(line: &str) -> Vec<&str> {
    line.splitn(5, ' ').collect()
}

#[test]
fn explain_json_gives_the_game_and_each_move_as_the_text_does() {
    let path = shared(PRO);
    let bytes = std::fs::read(&path).unwrap();
    let parsed = tengen_sgf::parse(&bytes, &tengen_sgf::ParseOptions::lenient()).unwrap();
    let root = parsed.collection.trees[0].root();
    let root = parsed.collection.trees[0].node(root);
    let prop = |id: &str| root.value(id).map(|v| v.simple_text());
    for lang in ["en", "fr"] {
        let text = tengen(&["explain", &path, "--lang", lang]);
        let o = tengen(&["explain", &path, "--lang", lang, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let v = object(&o);
        assert_eq!(keys(&v), ["error", "file", "game", "lang", "moves"]);
        assert_eq!(v["file"], json!(path));
        assert_eq!(v["lang"], json!(lang));
        assert_eq!(v["error"], Value::Null);
        let game = &v["game"];
        assert_eq!(
            keys(game),
            [
                "black", "date", "handicap", "komi", "result", "rules", "size", "white"
            ]
        );
        assert_eq!(game["size"], json!("19x19"));
        assert_eq!(game["handicap"], json!(0));
        assert!(game["komi"].is_f64(), "{game}");
        assert!(game["rules"].is_string(), "{game}");
        assert_eq!(game["black"], json!(prop("PB")));
        assert_eq!(game["white"], json!(prop("PW")));
        assert_eq!(game["date"], json!(prop("DT")));
        assert_eq!(game["result"], json!(prop("RE")));

        let lines: Vec<String> = out(&text).lines().map(str::to_string).collect();
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 250);
        assert_eq!(moves.len(), lines.len());
        let mut named = 0;
        for (i, (m, line)) in moves.iter().zip(&lines).enumerate() {
            assert_eq!(keys(m), ["color", "number", "sentence", "terms", "vertex"]);
            let f = line_fields(line);
            assert_eq!(m["number"], json!(i + 1), "{line}");
            assert_eq!(m["number"].to_string(), f[0], "{line}");
            assert_eq!(m["color"], json!(f[1]), "{line}");
            assert_eq!(m["vertex"], json!(f[2]), "{line}");
            assert_eq!(m["sentence"], json!(f[4]), "{line}");
            let terms = m["terms"].as_array().unwrap();
            let ids: Vec<&str> = terms.iter().map(|t| t["id"].as_str().unwrap()).collect();
            if ids.is_empty() {
                assert_eq!(f[3], "-", "{line}");
            } else {
                named += 1;
                assert_eq!(ids.join(","), f[3], "{line}");
                let sentences: Vec<&str> = terms
                    .iter()
                    .map(|t| t["sentence"].as_str().unwrap())
                    .collect();
                assert_eq!(sentences.join("; "), f[4], "{line}");
                for id in ids {
                    assert!(tengen_lexicon::TERMS.contains(&id), "{id}");
                }
            }
        }
        assert!(named > 100, "{named} moves named");
    }
}

#[test]
fn explain_json_of_a_record_that_stops_says_why_and_exits_1() {
    let path = shared(
        "sgf_parser_tests/Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/invalidmove.sgf",
    );
    let text = tengen(&["explain", &path]);
    let o = tengen(&["explain", &path, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text.status.code(), Some(1));
    let v = object(&o);
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("move 3 B[rs] is not a point of the 9x9 board"),
        "{error}"
    );
    assert_eq!(v["game"]["size"], json!("9x9"));
    // The moves before the one that stops the line, as the text gives them.
    assert_eq!(
        v["moves"].as_array().unwrap().len(),
        out(&text).lines().count()
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    // --json does not mix with --judge.
    let o = tengen(&["explain", "--judge", "x.tsv", "data", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));
}

#[test]
fn explain_stats_json_gives_the_counts_of_the_text() {
    let dir = data().join("katago_tests");
    let dir = dir.to_str().unwrap();
    let text = tengen(&["explain", "--stats", dir]);
    let o = tengen(&["explain", "--stats", dir, "--json"]);
    assert_eq!(o.status.code(), text.status.code());
    let v = object(&o);
    assert_eq!(keys(&v), ["failures", "files", "moves", "terms"]);
    let t = out(&text);
    let mut lines: Vec<&str> = t.lines().collect();
    let summary = lines.pop().unwrap();
    assert_eq!(
        summary,
        format!(
            "files={} moves={} failures={}",
            v["files"], v["moves"], v["failures"]
        )
    );
    assert!(v["moves"].as_u64().unwrap() > 0, "{v}");
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), tengen_lexicon::TERMS.len());
    assert_eq!(terms.len(), lines.len());
    for (t, line) in terms.iter().zip(lines) {
        assert_eq!(keys(t), ["count", "per_1000_moves", "term"]);
        let rate = t["per_1000_moves"].as_f64().unwrap();
        assert_eq!(
            line,
            format!("{} {} {rate:.2}", t["term"].as_str().unwrap(), t["count"]),
        );
    }
}

const PROBLEM_KEYS: [&str; 9] = [
    "code", "column", "file", "game", "line", "message", "move", "property", "severity",
];

/// The text of a file from `line` and `column` (from 1, the column in
/// characters) on.
fn text_at(path: &str, line: &Value, column: &Value) -> String {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let line = line.as_u64().unwrap() as usize;
    let column = column.as_u64().unwrap() as usize;
    let l = text.split('\n').nth(line - 1).unwrap();
    l.chars().skip(column - 1).collect()
}

#[test]
fn check_json_gives_each_problem_a_code_a_place_and_a_property() {
    let illegal = shared("sgf_parser_tests/herzbube+littlego/sgf/Illegal games/illegal-move.sgf");
    let buzco = shared("gnugo_regression/regression/games/buzco1.sgf");
    let off = shared(
        "sgf_parser_tests/Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/size-after-invalid-points.sgf",
    );
    let unterminated = shared("fox_pro/Pro.7z/Pro/9p/1507468590010001941.sgf");
    let not_sgf =
        shared("sgf_parser_tests/herzbube+littlego/sgf/Illegal games/not-an-sgf-file.sgf");
    let link = shared("pachi_tests/t-regress/old/by-falseeye/2011-06-05-Zen19-pachi2.sgf");
    let o = tengen(&[
        "check",
        "--json",
        "--notes",
        &illegal,
        &buzco,
        &off,
        &unterminated,
        &not_sgf,
        &link,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).is_empty(), "nothing on stderr: {}", err(&o));
    let all = objects(&o);
    let (last, problems) = all.split_last().unwrap();
    assert_eq!(keys(last), ["summary"]);
    for p in problems {
        assert_eq!(keys(p), PROBLEM_KEYS.to_vec(), "{p}");
    }
    let find = |file: &str, code: &str| -> &Value {
        problems
            .iter()
            .find(|p| p["file"] == json!(file) && p["code"] == json!(code))
            .unwrap_or_else(|| panic!("no {code} for {file}: {problems:?}"))
    };

    // A move on a stone: game, move, the W property where it stands.
    let p = find(&illegal, "rules.illegal-move");
    assert_eq!(p["game"], json!(1));
    assert_eq!(p["move"], json!(16));
    assert_eq!(p["severity"], json!("error"));
    assert_eq!(p["property"], json!("W"));
    assert_eq!((&p["line"], &p["column"]), (&json!(5), &json!(21)));
    assert!(text_at(&illegal, &p["line"], &p["column"]).starts_with("W[hd]"));
    assert_eq!(
        p["message"],
        json!("illegal move W[hd] at move 16: the point is occupied under japanese")
    );

    // A node with both moves, and a note of the parser: no game, no move.
    let p = find(&buzco, "record.two-moves");
    assert_eq!((&p["game"], &p["move"]), (&json!(1), &json!(266)));
    assert_eq!(p["property"], json!("B"));
    assert!(
        text_at(&buzco, &p["line"], &p["column"]).starts_with("B["),
        "{p}"
    );
    let p = find(&buzco, "sgf.lowercase-ident");
    assert_eq!((&p["game"], &p["move"]), (&Value::Null, &Value::Null));
    assert_eq!(p["severity"], json!("note"));
    assert_eq!(p["property"], json!("VW"));
    assert_eq!((&p["line"], &p["column"]), (&json!(2), &json!(1)));
    assert!(text_at(&buzco, &p["line"], &p["column"]).starts_with("VieW["));

    // A setup point off the board.
    let p = find(&off, "record.setup-off-board");
    assert_eq!((&p["game"], &p["move"]), (&json!(1), &json!(0)));
    assert_eq!(p["property"], json!("AB"));
    assert!(
        text_at(&off, &p["line"], &p["column"]).starts_with("AB["),
        "{p}"
    );

    // A value the file ends inside (a note: lenient reading closes it).
    let p = find(&unterminated, "sgf.unterminated-value");
    assert_eq!(p["severity"], json!("note"));
    assert_eq!(p["property"], json!("W"));
    assert_eq!((&p["line"], &p["column"]), (&json!(1), &json!(1100)));

    // Whole files that are no SGF: game and move null.
    let p = find(&not_sgf, "sgf.no-game-tree");
    assert_eq!((&p["game"], &p["move"]), (&Value::Null, &Value::Null));
    assert_eq!((&p["line"], &p["column"]), (&json!(1), &json!(1)));
    assert_eq!(p["property"], Value::Null);
    let p = find(&link, "sgf.saved-link");
    assert_eq!(
        (&p["game"], &p["line"], &p["property"]),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    assert_eq!(p["severity"], json!("error"));
}

#[test]
fn check_json_ends_with_the_summary_the_text_gives() {
    let dir = data().join("sgf_parser_tests/herzbube+littlego/sgf/Illegal games");
    let dir = dir.to_str().unwrap();
    let text = tengen(&["check", dir]);
    let o = tengen(&["check", "--json", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text.status.code(), Some(1));
    assert!(err(&o).is_empty(), "{}", err(&o));
    let all = objects(&o);
    let (last, problems) = all.split_last().unwrap();
    let s = &last["summary"];
    assert_eq!(
        keys(s),
        [
            "deviations",
            "errors",
            "files",
            "games",
            "moves",
            "notes",
            "problems",
            "seconds",
            "unreadable"
        ]
    );
    assert_eq!(s["problems"], json!(problems.len()));
    assert_eq!(s["errors"], json!(problems.len()));
    assert_eq!(
        (&s["notes"], &s["deviations"], &s["unreadable"]),
        (&json!(0), &json!(0), &json!(0))
    );
    let t = out(&text);
    let summary = t.lines().last().unwrap();
    assert!(
        summary.starts_with(&format!(
            "files={} games={} moves={} errors={} seconds=",
            s["files"], s["games"], s["moves"], s["errors"]
        )),
        "{summary} against {s}"
    );
    assert_eq!(t.lines().count(), problems.len() + 1);

    // Under --tolerant the suicide is a deviation, counted apart.
    let suicide = format!("{dir}/suicide.sgf");
    let o = tengen(&["check", "--json", "--tolerant", &suicide]);
    assert_eq!(o.status.code(), Some(1));
    let all = objects(&o);
    assert_eq!(all[0]["severity"], json!("deviation"));
    assert_eq!(all[0]["code"], json!("rules.illegal-move"));
    assert_eq!(all[0]["property"], json!("W"));
    assert_eq!(all[1]["summary"]["deviations"], json!(1));
    assert_eq!(all[1]["summary"]["errors"], json!(1));

    // A path that cannot be read: exit 2, counted apart.
    let o = tengen(&["check", "--json", "no/such/record.sgf"]);
    assert_eq!(o.status.code(), Some(2));
    let all = objects(&o);
    assert_eq!(all[0]["code"], json!("file.unreadable"));
    assert_eq!(
        (&all[0]["game"], &all[0]["line"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(all[1]["summary"]["unreadable"], json!(1));
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-json-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_file_without_a_game_is_an_error_for_check_as_for_score() {
    let dir = temp_dir("nogame");
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, bytes) in [
        ("empty.sgf", Vec::new()),
        ("bom.sgf", b"\xEF\xBB\xBF".to_vec()),
        ("parens.sgf", vec![b'('; 5_000_000]),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        files.push(p);
    }
    // An empty record of the shared data.
    files.push(PathBuf::from(shared(
        "gnugo_regression/regression/games/pending/nightmare.sgf",
    )));
    for path in &files {
        let shown = path.to_str().unwrap();
        let o = tengen(&["check", shown]);
        assert_eq!(o.status.code(), Some(1), "{shown}: {}", out(&o));
        let t = out(&o);
        assert!(
            t.starts_with(&format!("{shown}:0:0: no game in the file\n")),
            "{t}"
        );
        assert!(t.contains("files=1 games=0 moves=0 errors=1 "), "{t}");

        let o = tengen(&["check", "--json", shown]);
        assert_eq!(o.status.code(), Some(1));
        let all = objects(&o);
        assert_eq!(all.len(), 2, "{}", out(&o));
        assert_eq!(
            all[0],
            json!({
                "file": shown, "game": null, "move": null, "severity": "error",
                "code": "sgf.no-game", "line": null, "column": null, "property": null,
                "message": "no game in the file",
            })
        );
        assert_eq!(all[1]["summary"]["games"], json!(0));
        assert_eq!(all[1]["summary"]["errors"], json!(1));

        let o = tengen(&["score", shown, "--json"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(out(&o).is_empty(), "{}", out(&o));
        assert!(err(&o).contains("no game in the file"), "{}", err(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The codes of the reference's table.
fn documented_codes() -> BTreeSet<String> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/en/reference.md");
    let doc = std::fs::read_to_string(doc).unwrap();
    let codes: Vec<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |"))
        .map(|(code, _)| code.to_string())
        .filter(|c| c.contains('.'))
        .collect();
    let set: BTreeSet<String> = codes.iter().cloned().collect();
    assert_eq!(set.len(), codes.len(), "a code listed twice: {codes:?}");
    set
}

#[test]
fn every_code_check_gives_is_in_the_reference() {
    let documented = documented_codes();
    assert!(documented.len() > 40, "{documented:?}");
    let dirs = [
        data().join("sgf_parser_tests"),
        data().join("gnugo_regression"),
        data().join("pachi_tests"),
        data().join("fox_pro/Pro.7z/Pro/9p"),
    ];
    let mut args = vec!["check".to_string(), "--json".into(), "--notes".into()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = tengen(&args);
    let all = objects(&o);
    let seen: BTreeSet<&str> = all[..all.len() - 1]
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    for code in &seen {
        assert!(documented.contains(*code), "{code} is not in the reference");
    }
    // Every replay finding of these records has its own code.
    assert!(!seen.contains("record.other"), "{seen:?}");
    assert!(seen.len() > 20, "{seen:?}");
}
