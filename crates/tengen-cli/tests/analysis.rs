//! `tengen analysis`, KataGo's JSON analysis engine: every field of an
//! answer checked against the query that asked for it (the schema of
//! KataGo's `docs/Analysis_Engine.md`), errors, warnings, `terminate`,
//! and KaTrain's own engine code (the `katrain` wheel, which `.ci/run`
//! installs) driving it through a real record.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A running `tengen analysis` and the lines it writes.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = common::spawn_piped(
            Command::new(env!("CARGO_BIN_EXE_tengen"))
                .arg("analysis")
                .args(args),
        );
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, query: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{query}").unwrap();
        stdin.flush().unwrap();
    }

    fn send_text(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{text}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, as JSON.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer within two minutes");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Lines until one matches `done`, all of them.
    fn until(&self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let v = self.next();
            let last = done(&v);
            seen.push(v);
            if last {
                return seen;
            }
        }
    }

    /// Closes the input and waits: the engine answers what is queued and
    /// exits 0.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
        self.lines
            .iter()
            .map(|l| serde_json::from_str(&l).unwrap())
            .collect()
    }
}

fn is_final(v: &Value) -> bool {
    v.get("moveInfos").is_some() && v["isDuringSearch"] == false
}

/// A 9x9 position: Black holds the top three rows, White the bottom
/// three, as stones given before the first move.
fn walls() -> Value {
    let mut stones = Vec::new();
    for col in "ABCDEFGHJ".chars() {
        stones.push(json!(["B", format!("{col}7")]));
        stones.push(json!(["W", format!("{col}3")]));
    }
    Value::Array(stones)
}

/// A query on [`walls`], White first, under Chinese rules with komi 7,
/// with `fields` besides.
fn on_walls(fields: Value) -> Value {
    let mut query = json!({
        "rules": "chinese",
        "komi": 7,
        "boardXSize": 9,
        "boardYSize": 9,
        "initialStones": walls(),
        "initialPlayer": "W",
    });
    let Value::Object(fields) = fields else {
        panic!("fields are an object: {fields}");
    };
    query.as_object_mut().unwrap().extend(fields);
    query
}

/// An array of numbers.
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("an array: {v}"))
        .iter()
        .map(|n| n.as_f64().unwrap())
        .collect()
}

/// A game analysed turn by turn, as KaTrain asks for it: each turn's
/// search starts from the tree the turn before left under the move
/// played, and `maxVisits` counts that tree, as KataGo's does, so each
/// turn holds what was asked and not more; its territory comes with the
/// tree, though few new playouts ran.
#[test]
fn max_visits_counts_the_tree_kept_from_the_turn_before() {
    let mut engine = Engine::start(&["--seed", "1", "-analysis-threads", "1"]);
    engine.send(&on_walls(json!({
        "id": "turns",
        "moves": [["W", "E5"], ["B", "D5"], ["W", "D4"]],
        "analyzeTurns": [0, 1, 2, 3],
        "maxVisits": 200,
        "includeOwnership": true,
    })));
    let answers = engine.finish();
    let finals: Vec<&Value> = answers.iter().filter(|v| is_final(v)).collect();
    assert_eq!(finals.len(), 4);
    for a in finals {
        assert_eq!(a["rootInfo"]["visits"], 200, "{a}");
        let own = numbers(&a["ownership"]);
        assert!(own[0] > 0.5 && own[72] < -0.5, "{} {}", own[0], own[72]);
    }
}

#[test]
fn an_answer_carries_every_field_asked_for() {
    let mut engine = Engine::start(&["--seed", "1", "-analysis-threads", "1"]);
    engine.send(&on_walls(json!({
        "id": "all",
        "moves": [["W", "E5"], ["B", "D5"]],
        "analyzeTurns": [0, 2],
        "maxVisits": 300,
        "includeOwnership": true,
        "includeOwnershipStdev": true,
        "includeMovesOwnership": true,
        "includePolicy": true,
        "includePVVisits": true,
        "analysisPVLen": 3,
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"},
    })));
    let answers: Vec<Value> = engine.until(|v| is_final(v) && v["turnNumber"] == 2);
    let mut turns: Vec<u64> = answers
        .iter()
        .filter(|v| is_final(v))
        .map(|v| v["turnNumber"].as_u64().unwrap())
        .collect();
    turns.sort_unstable();
    assert_eq!(turns, [0, 2]);
    for a in answers.iter().filter(|v| is_final(v)) {
        assert_eq!(a["id"], "all");
        let turn = a["turnNumber"].as_u64().unwrap();
        let root = &a["rootInfo"];
        // White moves first: White at turn 0 and 2.
        assert_eq!(root["currentPlayer"], "W", "{a}");
        let visits = root["visits"].as_u64().unwrap();
        assert!(visits >= 300, "{visits}");
        for key in ["winrate", "utility"] {
            assert!(root[key].is_f64(), "rootInfo.{key}: {root}");
        }
        for key in ["scoreLead", "scoreSelfplay", "scoreStdev"] {
            assert!(root[key].as_f64().unwrap().is_finite(), "rootInfo.{key}");
        }
        let moves = a["moveInfos"].as_array().unwrap();
        assert!(!moves.is_empty());
        let mut sum = 0;
        for (order, m) in moves.iter().enumerate() {
            assert_eq!(m["order"], order, "{m}");
            let v = m["visits"].as_u64().unwrap();
            sum += v;
            assert!(v >= 1);
            let w = m["winrate"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&w));
            let prior = m["prior"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&prior));
            for key in [
                "scoreLead",
                "scoreMean",
                "scoreStdev",
                "scoreSelfplay",
                "lcb",
                "utility",
                "utilityLcb",
            ] {
                assert!(m[key].as_f64().unwrap().is_finite(), "{key} of {m}");
            }
            let pv = m["pv"].as_array().unwrap();
            assert!(!pv.is_empty() && pv.len() <= 3, "analysisPVLen 3: {pv:?}");
            assert_eq!(pv[0], m["move"]);
            assert_eq!(m["pvVisits"].as_array().unwrap().len(), pv.len());
            assert_eq!(m["ownership"].as_array().unwrap().len(), 81);
        }
        assert!(sum <= visits, "{sum} > {visits}");
        // Row by row from the top, from Black's view: Black owns the
        // top-left corner (A9, index 0), White the bottom-left (A1, 72).
        let own = numbers(&a["ownership"]);
        assert_eq!(own.len(), 81);
        assert!(own[0] > 0.5 && own[72] < -0.5, "{} {}", own[0], own[72]);
        assert_eq!(a["ownershipStdev"].as_array().unwrap().len(), 81);
        let policy = numbers(&a["policy"]);
        assert_eq!(policy.len(), 82);
        // A7 (index 18) holds a stone: illegal, -1; the pass is legal.
        assert_eq!(policy[18], -1.0);
        assert!(policy[81] >= 0.0);
        let legal: f64 = policy.iter().filter(|p| **p >= 0.0).sum();
        assert!((legal - 1.0).abs() < 0.01, "policy sums to {legal}");
        let stones = 18 + turn as usize;
        assert_eq!(policy.iter().filter(|p| **p < 0.0).count(), stones);
    }
    let rest = engine.finish();
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn the_perspective_is_the_one_asked_for() {
    // A position won for Black whoever looks: the side to move (White)
    // sees a low win rate, Black a high one.
    let mut engine = Engine::start(&["--seed", "2", "-analysis-threads", "1"]);
    let query = |id: &str, view: &str| {
        let mut stones = walls().as_array().unwrap().clone();
        for col in "ABCDEFGHJ".chars() {
            stones.push(json!(["B", format!("{col}5")]));
            stones.push(json!(["B", format!("{col}4")]));
        }
        json!({
            "id": id, "rules": "chinese", "komi": 7, "boardXSize": 9, "boardYSize": 9,
            "initialStones": stones, "initialPlayer": "W", "moves": [], "maxVisits": 200,
            "overrideSettings": {"reportAnalysisWinratesAs": view},
        })
    };
    engine.send(&query("black", "BLACK"));
    engine.send(&query("mover", "SIDETOMOVE"));
    let answers = engine.finish();
    let root = |id: &str| {
        answers
            .iter()
            .find(|a| a["id"] == id && is_final(a))
            .unwrap()["rootInfo"]
            .clone()
    };
    let (black, mover) = (root("black"), root("mover"));
    assert!(black["winrate"].as_f64().unwrap() > 0.9, "{black}");
    assert!(black["scoreLead"].as_f64().unwrap() > 10.0, "{black}");
    assert!(mover["winrate"].as_f64().unwrap() < 0.1, "{mover}");
    assert!(mover["scoreLead"].as_f64().unwrap() < -10.0, "{mover}");
}

#[test]
fn bad_lines_are_answered_and_the_engine_reads_on() {
    let mut engine = Engine::start(&["-analysis-threads", "1"]);
    engine.send_text("this is not json");
    engine.send(&json!({"id": "nosize", "rules": "chinese", "moves": []}));
    engine.send(&json!({
        "id": "ko", "rules": "japanese", "boardXSize": 9, "boardYSize": 9,
        "moves": [["B", "E5"], ["W", "E5"]],
    }));
    engine.send(&json!({
        "id": "odd", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [],
        "maxVisits": 20, "colour": "red", "overrideSettings": {"nnCacheSizePowerOfTwo": 20},
    }));
    engine.send(&json!({"id": "v", "action": "query_version"}));
    let lines = engine.finish();
    let by_id = |id: &str| -> Vec<&Value> { lines.iter().filter(|l| l["id"] == id).collect() };
    let anonymous: Vec<&Value> = lines.iter().filter(|l| l.get("id").is_none()).collect();
    assert_eq!(anonymous.len(), 1, "{lines:?}");
    assert!(
        anonymous[0]["error"]
            .as_str()
            .unwrap()
            .contains("JSON object")
    );
    let nosize = by_id("nosize");
    assert_eq!(nosize[0]["field"], "boardXSize");
    let ko = by_id("ko");
    assert_eq!(ko.len(), 1);
    let message = ko[0]["error"].as_str().unwrap();
    assert!(
        message.starts_with("Illegal move 2: W E5 (") && message.contains("occupied"),
        "{message}"
    );
    let odd = by_id("odd");
    let warned: Vec<&str> = odd
        .iter()
        .filter_map(|l| l.get("warning").map(|_| l["field"].as_str().unwrap()))
        .collect();
    assert_eq!(
        warned,
        ["colour", "overrideSettings.nnCacheSizePowerOfTwo"],
        "{odd:?}"
    );
    assert!(odd.iter().any(|l| is_final(l)), "still analysed: {odd:?}");
    let version = by_id("v");
    assert_eq!(version[0]["action"], "query_version");
    assert!(version[0]["version"].is_string());
}

#[test]
fn terminate_stops_a_search_and_drops_the_queued_turns() {
    let mut engine = Engine::start(&["-analysis-threads", "1"]);
    engine.send(&json!({
        "id": "long", "rules": "chinese", "boardXSize": 9, "boardYSize": 9,
        "moves": [["B", "E5"], ["W", "C3"]], "analyzeTurns": [0, 1, 2],
        "maxVisits": 100_000_000, "reportDuringSearchEvery": 0.2,
    }));
    // A report during the search of the first turn, then the terminate.
    let first = engine.next();
    assert_eq!(first["isDuringSearch"], true, "{first}");
    let running = first["turnNumber"].as_u64().unwrap();
    engine.send(&json!({"id": "stop", "action": "terminate", "terminateId": "long"}));
    let rest = engine.until(|v| v["id"] == "stop");
    assert_eq!(rest.last().unwrap()["terminateId"], "long");
    let mut lines = rest;
    lines.extend(engine.finish());
    let finals: Vec<&Value> = lines
        .iter()
        .filter(|l| l["id"] == "long" && l["isDuringSearch"] == false)
        .collect();
    assert_eq!(finals.len(), 3, "one final answer per turn: {finals:?}");
    for f in finals {
        if f["turnNumber"] == running {
            assert!(f["moveInfos"].as_array().is_some_and(|m| !m.is_empty()));
        } else {
            assert_eq!(f["noResults"], true, "{f}");
        }
    }
}

#[test]
fn katrain_drives_tengen_through_a_game() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/katrain");
    let probe = Command::new("python3")
        .args(["-c", "import katrain.core.engine"])
        .env("KIVY_NO_ARGS", "1")
        .env("KIVY_NO_CONSOLELOG", "1")
        .output()
        .expect("python3 runs");
    assert!(
        probe.status.success(),
        "KaTrain is not installed: `python3 -m pip install katrain==1.20.0` (.ci/run does)\n{}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let record = common::data().join("fox_pro/Pro2.7z/Pro/9p/1530722529010001769.sgf");
    let output = Command::new("python3")
        .arg("session.py")
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .arg(record)
        .current_dir(&dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the KaTrain session failed ({}):\n{out}\n{err}",
        output.status
    );
    for step in [
        "start",
        "game analysis",
        "points lost",
        "policy",
        "alternatives",
        "ai move",
        "terminate",
        "shutdown",
    ] {
        assert!(out.contains(&format!("ok   {step}")), "{step}:\n{out}");
    }
}

#[path = "common/serve.rs"]
mod serve;

/// A short record for the web review: nine moves on 9x9.
const REVIEWED: &str =
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gc];W[cg];B[ge];W[dd];B[ce];W[de];B[df])";

#[test]
fn the_web_review_hands_its_analysis_to_an_analysis_engine() {
    let dir = std::env::temp_dir().join(format!("tengen-analyst-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let queries = dir.join("queries.jsonl");
    // The engine: `tengen analysis` behind `tee`, so that the queries the
    // server sent can be read back.
    let engine = format!(
        "sh -c 'tee {} | {} analysis --seed 3'",
        queries.display(),
        env!("CARGO_BIN_EXE_tengen")
    );
    let (mut server, addr) = serve::start(
        &[
            "--db",
            dir.join("db.sqlite").to_str().unwrap(),
            "--analysis-playouts",
            "40",
            "--analysis-engine",
            &engine,
        ],
        &dir.join("serve.log"),
    );
    let mut last = Value::Null;
    for _ in 0..600 {
        let (status, body) = serve::http(&addr, "POST", "/api/review/analysis?start=1", REVIEWED);
        assert_eq!(status, 200, "{body}");
        last = serde_json::from_str(&body).unwrap();
        if last["done"] == 10 && last["running"] == false {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(last["done"], 10, "{last}");
    let positions = last["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 10);
    for p in positions {
        assert!(p["visits"].as_u64().unwrap() >= 40, "{p}");
        let w = p["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{p}");
        assert_eq!(p["ownership"].as_str().unwrap().len(), 81, "{p}");
        assert!(p["best"].is_string(), "{p}");
    }
    // Every position went to the engine, as KataGo's queries: the record's
    // moves up to it, its rules, komi and size, Black's view.
    let sent: Vec<Value> = std::fs::read_to_string(&queries)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(sent.len(), 10, "{sent:?}");
    let mut turns: Vec<u64> = sent
        .iter()
        .map(|q| {
            assert_eq!(q["boardXSize"], 9);
            assert_eq!(q["komi"], 7.0);
            assert_eq!(q["rules"]["scoring"], "AREA");
            assert_eq!(q["maxVisits"], 40);
            assert_eq!(q["overrideSettings"]["reportAnalysisWinratesAs"], "BLACK");
            let turn = q["analyzeTurns"][0].as_u64().unwrap();
            assert_eq!(q["moves"].as_array().unwrap().len() as u64, turn);
            turn
        })
        .collect();
    turns.sort_unstable();
    assert_eq!(turns, (0..10).collect::<Vec<u64>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_with_an_analysis_engine_that_cannot_start_says_so() {
    let dir = std::env::temp_dir().join(format!("tengen-noanalyst-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("db.sqlite"))
        .args(["--analysis-engine", "/nonexistent/katago analysis"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("analysis engine") && err.contains("/nonexistent/katago"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
