//! The review API against a real server (the stored analysis on each
//! store, SQLite and PostgreSQL): the lexicon's
//! names of every move, edits written back as SGF (comments, new
//! variations, refused moves), and the engine's analysis of the main line,
//! stored so that asking again, or after a restart, searches nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{Backend, Running, TestDb, temp_db};
use serde_json::{Value, json};
use std::time::Duration;
use tengen_web::Limits;

async fn review(server: &Running, sgf: &str) -> Value {
    let (status, body) = server.http("POST", "/api/review", sgf).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

async fn edit(server: &Running, sgf: &str, edit: Value) -> (u16, Value) {
    server
        .post_json("/api/review/edit", &json!({"sgf": sgf, "edit": edit}))
        .await
}

#[tokio::test]
async fn every_move_of_every_line_has_the_lexicons_names() {
    let server = Running::start(temp_db("revnames")).await;
    // C7 then a knight's move to E6 on the main line; a one-point jump to
    // C5 in the variation.
    let r = review(&server, "(;GM[1]FF[4]SZ[9];B[cc];W[gg](;B[ed])(;B[ce]))").await;
    let ids = |n: usize| -> Vec<String> {
        r["nodes"][n]["names"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x["id"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(r["nodes"][3]["vertex"], "E6");
    assert!(ids(3).contains(&"keima".to_string()), "{:?}", ids(3));
    assert_eq!(r["nodes"][4]["vertex"], "C5");
    assert!(ids(4).contains(&"ikken-tobi".to_string()), "{:?}", ids(4));
    assert!(!ids(4).contains(&"keima".to_string()));
    let fr = r["nodes"][3]["names"][0]["fr"].as_str().unwrap();
    assert!(!fr.is_empty());
}

/// Issue: the record's notes stayed English in the French page. Each is
/// said in every language, numbers the language's way, SGF text as read.
#[tokio::test]
async fn the_records_notes_are_said_in_every_language() {
    let server = Running::start(temp_db("revnotes")).await;
    let r = review(&server, "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[375]HA[two];B[ee])").await;
    let notes = r["notes"].as_array().unwrap();
    let said =
        |lang: &str| -> Vec<&str> { notes.iter().map(|n| n[lang].as_str().unwrap()).collect() };
    assert!(
        said("en")
            .contains(&"KM[375] read as komi 7.5 (komi written x100, or as Chinese stones x100)"),
        "{notes:?}"
    );
    assert!(
        said("fr").contains(
            &"KM[375] lu comme un komi de 7,5 (komi écrit x100, ou en pierres chinoises x100)"
        ),
        "{notes:?}"
    );
    assert!(
        said("fr").contains(&"HA[two] n'est pas un nombre : lue comme une partie à égalité"),
        "{notes:?}"
    );
    assert_eq!(r["komi"], "7.5");
}

#[tokio::test]
async fn edits_are_written_back_as_sgf_and_bad_ones_refused() {
    let server = Running::start(temp_db("revedit")).await;
    let sgf = "(;GM[1]FF[4]SZ[9]C[start];B[ee];W[gc]C[joseki?](;B[gg];W[cc])(;B[cg]))";
    // A comment on move 2, with SGF's special characters.
    let (status, c) = edit(
        &server,
        sgf,
        json!({"kind": "comment", "node": 2, "text": "better at [C3] \\ here"}),
    )
    .await;
    assert_eq!(status, 200, "{c}");
    let text = c["sgf"].as_str().unwrap();
    assert!(text.contains(r"C[better at [C3\] \\ here]"), "{text}");
    assert_eq!(c["at"], 2);
    assert_eq!(c["nodes"][2]["comment"], "better at [C3] \\ here");
    // The text written reads back the same.
    let again = review(&server, text).await;
    assert_eq!(again["nodes"], c["nodes"]);
    // A new variation after move 2: Black's third move elsewhere.
    let (status, v) = edit(
        &server,
        text,
        json!({"kind": "play", "node": 2, "vertex": "D4"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let at = v["at"].as_u64().unwrap() as usize;
    assert_eq!(v["nodes"][at]["vertex"], "D4");
    assert_eq!(v["nodes"][at]["color"], "black");
    assert_eq!(v["nodes"][at]["number"], 3);
    assert_eq!(v["nodes"][2]["children"].as_array().unwrap().len(), 3);
    let with_variation = v["sgf"].as_str().unwrap();
    assert!(with_variation.contains("(;B[df])"), "{with_variation}");
    assert!(with_variation.contains("better at"), "{with_variation}");
    // White answers in the new line.
    let (status, w) = edit(
        &server,
        with_variation,
        json!({"kind": "play", "node": at, "vertex": "F4"}),
    )
    .await;
    assert_eq!(status, 200, "{w}");
    let w_at = w["at"].as_u64().unwrap() as usize;
    assert_eq!(w["nodes"][w_at]["color"], "white");
    assert_eq!(w["nodes"][w_at]["parent"], at);
    // Playing a move the node already has goes there: nothing added.
    let (status, same) = edit(
        &server,
        sgf,
        json!({"kind": "play", "node": 2, "vertex": "G3"}),
    )
    .await;
    assert_eq!(status, 200, "{same}");
    assert_eq!(same["at"], 3);
    assert_eq!(same["nodes"].as_array().unwrap().len(), 6);
    // Refused: a stone on a stone, a node the record lacks, off the board.
    let (status, e) = edit(
        &server,
        sgf,
        json!({"kind": "play", "node": 2, "vertex": "E5"}),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("occupied")), "{e}");
    let (status, e) = edit(
        &server,
        sgf,
        json!({"kind": "comment", "node": 99, "text": "x"}),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("invalid")), "{e}");
    let (status, e) = edit(
        &server,
        sgf,
        json!({"kind": "play", "node": 0, "vertex": "Z99"}),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("invalid")), "{e}");
    let (status, e) = edit(
        &server,
        "(;GM[1]SZ[99])",
        json!({"kind": "play", "node": 0, "vertex": "A1"}),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("sgf")), "{e}");
}

#[tokio::test]
async fn a_ko_retake_is_refused_in_a_new_variation() {
    let server = Running::start(temp_db("revko")).await;
    // The ko of the API tests: Black has just taken at F5.
    let sgf =
        "(;GM[1]FF[4]SZ[9]RU[Japanese];B[de];W[fd];B[ed];W[ge];B[ef];W[ff];B[ia];W[ee];B[fe])";
    let (status, e) = edit(
        &server,
        sgf,
        json!({"kind": "play", "node": 9, "vertex": "E5"}),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("ko")), "{e}");
    // Elsewhere is fine, and passing too.
    let (status, p) = edit(
        &server,
        sgf,
        json!({"kind": "play", "node": 9, "vertex": "pass"}),
    )
    .await;
    assert_eq!(status, 200, "{p}");
    assert!(p["sgf"].as_str().unwrap().contains(";W[]"), "{p}");
}

/// A 9x9 game of 12 moves: 13 positions.
const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[gc];B[cg];W[cc];B[gg];W[dc];B[fd];W[fc];B[eb];W[ed];B[fe];W[db])";

fn small_budget() -> Limits {
    Limits {
        analysis_playouts: 24,
        ..Limits::default()
    }
}

async fn analysis(server: &Running, query: &str) -> Value {
    let (status, body) = server
        .http("POST", &format!("/api/review/analysis?{query}"), GAME)
        .await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The analysis once all 13 positions are done (within a minute).
async fn finished(server: &Running) -> Value {
    for _ in 0..600 {
        let a = analysis(server, "").await;
        if a["done"] == 13 && a["running"] == false {
            return a;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the analysis did not end within a minute");
}

async fn searched(server: &Running) -> u64 {
    server.get_json("/api/health").await["positions_analysed"]
        .as_u64()
        .unwrap()
}

async fn stored_rows(db: &TestDb) -> i64 {
    db.sql("SELECT COUNT(*) FROM analyses").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_is_stored_and_never_searched_twice_on_sqlite() {
    the_analysis_is_stored_and_never_searched_twice(Backend::Sqlite).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_is_stored_and_never_searched_twice_on_postgres() {
    the_analysis_is_stored_and_never_searched_twice(Backend::Postgres).await;
}

async fn the_analysis_is_stored_and_never_searched_twice(store: Backend) {
    let server = Running::start_with(store.fresh("analysis").await, small_budget()).await;
    // Nothing asked yet: nothing stored, nothing started.
    let first = analysis(&server, "").await;
    assert_eq!(first["total"], 13);
    assert_eq!(first["done"], 0);
    assert_eq!(first["running"], false);
    // Started, and followed until done.
    let started = analysis(&server, "start=1").await;
    assert_eq!(started["playouts"], 24);
    assert_eq!(started["running"], true);
    let done = finished(&server).await;
    assert_eq!(done["running"], false);
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 13);
    for (n, p) in positions.iter().enumerate() {
        assert_eq!(p["number"], n);
        let w = p["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{p}");
        assert_eq!(p["ownership"].as_str().unwrap().len(), 81);
        assert!(p["visits"].as_u64().unwrap() >= 24, "{p}");
        assert_eq!(p["pv"][0], p["best"]);
    }
    // Each mistake is what its player lost between the positions around
    // it, at least a point, the most points first.
    let mut before = f64::INFINITY;
    for m in done["mistakes"].as_array().unwrap() {
        let n = m["number"].as_u64().unwrap() as usize;
        let sign = if m["color"] == "black" { 1.0 } else { -1.0 };
        let at = |i: usize, k: &str| positions[i][k].as_f64().unwrap();
        let lost = sign * (at(n - 1, "winrate") - at(n, "winrate"));
        assert!((lost - m["loss"].as_f64().unwrap()).abs() < 1e-9, "{m}");
        let points = sign * (at(n - 1, "score") - at(n, "score"));
        assert!(
            (points - m["score_loss"].as_f64().unwrap()).abs() < 1e-9,
            "{m}"
        );
        assert!(points >= 1.0 && points <= before, "{m}");
        before = points;
    }
    assert_eq!(searched(&server).await, 13);
    assert_eq!(stored_rows(&server.db).await, 13);
    // Asked again, even to start: all stored, nothing searched.
    let again = analysis(&server, "start=1&since=10").await;
    assert_eq!(again["running"], false);
    assert_eq!(again["done"], 13);
    let numbers: Vec<u64> = again["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [10, 11, 12]);
    assert_eq!(again["mistakes"], done["mistakes"]);
    assert_eq!(searched(&server).await, 13);
    // After a restart too.
    let db = server.stop();
    let server = Running::start_with(db, small_budget()).await;
    let restarted = analysis(&server, "start=1").await;
    assert_eq!(restarted["done"], 13);
    assert_eq!(restarted["running"], false);
    assert_eq!(restarted["positions"], done["positions"]);
    assert_eq!(searched(&server).await, 0);
    assert_eq!(stored_rows(&server.db).await, 13);
    // An analysis cut short (positions 5 to 8 lost) searches only what is
    // missing when started again.
    server
        .db
        .sql("DELETE FROM analyses WHERE position BETWEEN 5 AND 8")
        .await;
    let partial = analysis(&server, "").await;
    assert_eq!(partial["done"], 9);
    analysis(&server, "start=1").await;
    finished(&server).await;
    assert_eq!(searched(&server).await, 4);
    assert_eq!(stored_rows(&server.db).await, 13);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_beyond_the_limit_are_refused_until_one_ends() {
    let limits = Limits {
        analysis_playouts: 5_000,
        analyses_at_once: 1,
        // The server's limit, not the client's, is under test.
        analyses_per_client: 0,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("analysisbusy"), limits).await;
    let (status, body) = server
        .http("POST", "/api/review/analysis?start=1", GAME)
        .await;
    assert_eq!(status, 200, "{body}");
    let other = "(;GM[1]FF[4]SZ[9];B[ee];W[cc])";
    let (status, body) = server
        .http("POST", "/api/review/analysis?start=1", other)
        .await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("analyses_busy"), "{body}");
    // Asking how far the first has gone is no new analysis.
    let (status, body) = server.http("POST", "/api/review/analysis", GAME).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"running\":true"), "{body}");
    let health = server.get_json("/api/health").await;
    assert_eq!(
        health["analyses"]["workers"],
        Limits::default().analysis_workers
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_has_one_record_analysed_at_a_time_and_others_theirs() {
    let addr = common::behind_proxy(
        temp_db("analysisshare"),
        Limits {
            analysis_playouts: 5_000,
            ..Limits::default()
        },
    )
    .await
    .addr;
    let analyse = |client, sgf| common::post_for(addr, "/api/review/analysis?start=1", client, sgf);
    let other = "(;GM[1]FF[4]SZ[9];B[ee];W[cc])";
    let (status, body) = analyse("203.0.113.1", GAME).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = analyse("203.0.113.1", other).await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("too_many_analyses"), "{body}");
    // Another member is not kept waiting by the first.
    let (status, body) = analyse("203.0.113.2", other).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"running\":true"), "{body}");
}
