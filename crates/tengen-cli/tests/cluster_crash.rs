//! Two `tengen serve` processes on one PostgreSQL database (a cluster of
//! the test's own, in a temporary directory): the one serving a game and
//! thinking about an engine move is killed with SIGKILL; the players go to
//! the other, find every move they were answered, and finish both games
//! there, the engine's move taken over once the dead server's lease runs
//! out.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "../../tengen-web/tests/common/pg.rs"]
mod pg;
#[path = "common/serve.rs"]
mod serve;

use serde_json::{Value, json};
use serve::{http, play, start, view};
use std::process::Child;
use std::time::{Duration, Instant};

/// A server on the database `url`, named `node`, with `workers` engine
/// workers and a two-second lease.
fn node(url: &str, node: &str, workers: &str, log: &std::path::Path) -> (Child, String) {
    start(
        &[
            "--db",
            url,
            "--node",
            node,
            "--engine-workers",
            workers,
            "--engine-lease",
            "2",
        ],
        log,
    )
}

fn create(addr: &str, form: &Value) -> Value {
    let (status, body) = http(addr, "POST", "/api/games", &form.to_string());
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Polls `addr`'s view of game `id` until `pred` holds, for at most `within`.
fn view_until(addr: &str, id: &str, within: Duration, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let v = view(addr, id);
        if pred(&v) || start.elapsed() > within {
            return v;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_game_and_mid_engine_move_loses_nothing() {
    let db = pg::fresh_db().await;
    let logs = db.cluster.socket_dir().to_path_buf();
    let (mut a, addr_a) = node(&db.url, "a", "1", &logs.join("a.log"));

    // A friend game, three moves answered by A.
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}});
    let friends = create(&addr_a, &form);
    let id = friends["id"].as_str().unwrap().to_string();
    let black = friends["token"].as_str().unwrap().to_string();
    let white = friends["invite"].as_str().unwrap().to_string();
    play(&addr_a, &id, &black, &["E5"]).await;
    play(&addr_a, &id, &white, &["C3"]).await;
    let answered = play(&addr_a, &id, &black, &["G7"]).await;

    // An engine game: A's worker takes the strong engine's answer to D4
    // (seconds of search).
    let form = json!({"rules": "chinese", "size": 19,
        "opponent": {"kind": "engine", "strength": "strong", "color": "black"}});
    let engine = create(&addr_a, &form);
    let eid = engine["id"].as_str().unwrap().to_string();
    let human = engine["token"].as_str().unwrap().to_string();
    play(&addr_a, &eid, &human, &["D4"]).await;
    let start = Instant::now();
    while http(&addr_a, "GET", "/api/health", "")
        .1
        .contains("\"running\":0,")
        && start.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let health: Value = serde_json::from_str(&http(&addr_a, "GET", "/api/health", "").1).unwrap();
    assert_eq!(health["engine"]["running"], 1, "A thinks: {health}");

    // B starts while A thinks: A holds the job, so B leaves it.
    let (mut b, addr_b) = node(&db.url, "b", "1", &logs.join("b.log"));
    assert_eq!(view(&addr_b, &eid)["move_number"], 1);

    // SIGKILL mid-thought: no shutdown, no lease given back.
    a.kill().unwrap();
    a.wait().unwrap();
    let killed = Instant::now();

    // The friends reconnect to B and find every answered move.
    let after = view(&addr_b, &id);
    for key in [
        "board",
        "move_number",
        "to_move",
        "captures",
        "phase",
        "last",
    ] {
        assert_eq!(answered[key], after[key], "{key} on B");
    }
    // And finish the game there: two more moves, then White resigns.
    play(&addr_b, &id, &white, &["D4"]).await;
    play(&addr_b, &id, &black, &["F4"]).await;
    let over = resign(&addr_b, &id, &white).await;
    assert_eq!(over["phase"], "over");
    assert_eq!(over["result"]["sgf"], "B+R");
    assert_eq!(over["move_number"], 5);

    // The engine's move: B takes the job once A's lease runs out.
    let v = view_until(&addr_b, &eid, Duration::from_secs(120), |v| {
        v["move_number"] == 2
    });
    assert_eq!(v["move_number"], 2, "the engine answered on B: {v}");
    assert_eq!(v["last_color"], "white");
    assert!(
        killed.elapsed() > Duration::from_millis(1500),
        "not before A's lease ran out"
    );
    // The game goes on, and ends, on B.
    let v = resign(&addr_b, &eid, &human).await;
    assert_eq!(v["result"]["sgf"], "W+R");
    let (status, health) = http(&addr_b, "GET", "/healthz", "");
    assert_eq!(status, 200, "{health}");
    assert!(health.contains("\"node\":\"b\""), "{health}");
    b.kill().unwrap();
    b.wait().unwrap();
}

/// Resigns for the seat of `token`; returns the view of the end.
async fn resign(addr: &str, id: &str, token: &str) -> Value {
    let mut ws = serve::join(addr, id, token).await;
    let v = serve::answer(&mut ws, json!({"type": "resign"})).await;
    assert_eq!(v["phase"], "over", "{v}");
    v
}
