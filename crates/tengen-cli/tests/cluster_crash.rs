//! Two `tengen serve` processes on one PostgreSQL database (a cluster of
//! the test's own, in a temporary directory): the one thinking about an
//! engine move, which also serves a player of a friend game, is killed with
//! SIGKILL; the players go to the other, find every move they were
//! answered, and finish both games there, the engine's move taken over once
//! the dead server's lease runs out. And a player connected through a
//! server killed with SIGKILL is shown gone on the other once what the dead
//! server said of him runs out.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "../../tengen-web/tests/common/pg.rs"]
mod pg;
#[path = "common/serve.rs"]
mod serve;

use futures_util::{SinkExt, StreamExt};
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
    let mut nodes = vec![
        node(&db.url, "a", "1", &logs.join("a.log")),
        node(&db.url, "b", "1", &logs.join("b.log")),
    ];

    // A friend game, Black on A and White on B, three moves answered.
    let (addr_a, addr_b) = (nodes[0].1.clone(), nodes[1].1.clone());
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}});
    let friends = create(&addr_a, &form);
    let id = friends["id"].as_str().unwrap().to_string();
    let black = friends["token"].as_str().unwrap().to_string();
    let white = friends["invite"].as_str().unwrap().to_string();
    play(&addr_a, &id, &black, &["E5"]).await;
    view_until(&addr_b, &id, Duration::from_secs(5), |v| {
        v["move_number"] == 1
    });
    play(&addr_b, &id, &white, &["C3"]).await;
    view_until(&addr_a, &id, Duration::from_secs(5), |v| {
        v["move_number"] == 2
    });
    let answered = play(&addr_a, &id, &black, &["G7"]).await;

    // An engine game: one node's worker takes the strong engine's answer
    // to D4 (seconds of search); the other sees the job held and leaves it.
    let form = json!({"rules": "chinese", "size": 19,
        "opponent": {"kind": "engine", "strength": "strong", "color": "black"}});
    let engine = create(&addr_a, &form);
    let eid = engine["id"].as_str().unwrap().to_string();
    let human = engine["token"].as_str().unwrap().to_string();
    play(&addr_a, &eid, &human, &["D4"]).await;
    let thinking = |addr: &str| {
        let health: Value = serde_json::from_str(&http(addr, "GET", "/api/health", "").1).unwrap();
        health["engine"]["running"] == 1
    };
    let start = Instant::now();
    let thinker = loop {
        if let Some(i) = (0..2).find(|&i| thinking(&nodes[i].1)) {
            break i;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no node thinks");
        std::thread::sleep(Duration::from_millis(10));
    };

    // SIGKILL mid-thought: no shutdown, no lease given back. The other
    // node (called B from here, whichever it is) lives on.
    let live_name = if thinker == 0 { "b" } else { "a" };
    let (mut dead, _) = nodes.remove(thinker);
    let (mut b, addr_b) = nodes.remove(0);
    dead.kill().unwrap();
    dead.wait().unwrap();
    let killed = Instant::now();
    assert_eq!(
        view(&addr_b, &eid)["move_number"],
        1,
        "killed before answering"
    );

    // The friends reconnect to the live node (B here) and find every
    // answered move.
    let after = view(&addr_b, &id);
    serve::assert_same_game(&answered, &after, "on B");
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
    assert!(
        health.contains(&format!("\"node\":\"{live_name}\"")),
        "{health}"
    );
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

/// Opens game `id` on `addr` as a spectator.
async fn spectate(addr: &str, id: &str) -> serve::Socket {
    let url = format!("ws://{addr}/ws/{id}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = json!({"type": "hello"}).to_string();
    ws.send(tokio_tungstenite::tungstenite::Message::Text(hello.into()))
        .await
        .unwrap();
    ws
}

/// The first `presence` message on `ws` for which `pred` holds, within
/// `within` (`None`: none came).
async fn presence_until(
    ws: &mut serve::Socket,
    within: Duration,
    pred: impl Fn(&Value) -> bool,
) -> Option<Value> {
    let end = tokio::time::Instant::now() + within;
    loop {
        let msg = tokio::time::timeout_at(end, ws.next()).await.ok()??.ok()?;
        let Ok(text) = msg.to_text() else { continue };
        let v: Value = serde_json::from_str(text).unwrap_or_default();
        if v["type"] == "presence" && pred(&v) {
            return Some(v);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_on_a_server_killed_is_shown_gone_once_its_word_runs_out() {
    let db = pg::fresh_db().await;
    let logs = db.cluster.socket_dir().to_path_buf();
    // Each server says again every second who is connected through it;
    // what it says holds for three periods (a second is short enough for a
    // quick test and long enough for a loaded machine not to miss three).
    let period = 1.0;
    let lease = Duration::from_secs_f64(3.0 * period);
    let node = |name: &str| {
        start(
            &[
                "--db",
                &db.url,
                "--node",
                name,
                "--engine-workers",
                "0",
                "--presence-period",
                &period.to_string(),
            ],
            &logs.join(format!("presence-{name}.log")),
        )
    };
    let ((mut a, addr_a), (mut b, addr_b)) = (node("pa"), node("pb"));
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}});
    let g = create(&addr_a, &form);
    let id = g["id"].as_str().unwrap();
    // Black connected through A; a spectator on B sees him connected.
    let _black = serve::join(&addr_a, id, g["token"].as_str().unwrap()).await;
    let mut watch = spectate(&addr_b, id).await;
    let online = |v: &Value| v["black"]["online"] == true;
    let offline = |v: &Value| v["black"]["online"] == false;
    assert!(
        presence_until(&mut watch, Duration::from_secs(10), online)
            .await
            .is_some(),
        "B shows Black, connected through A"
    );
    // While A lives, its word is renewed: Black stays connected on B for
    // two leases.
    let shown = presence_until(&mut watch, lease * 2, offline).await;
    assert!(shown.is_none(), "Black shown gone while A lives: {shown:?}");

    // SIGKILL: A says nothing more, not even that Black left.
    a.kill().unwrap();
    a.wait().unwrap();
    let killed = Instant::now();
    let shown = presence_until(&mut watch, Duration::from_secs(10), offline).await;
    assert!(
        shown.is_some(),
        "B still shows Black connected through dead A"
    );
    let after = killed.elapsed();
    assert!(
        after >= lease / 2,
        "gone after {after:?}, before A's word ran out"
    );
    eprintln!("Black shown gone on B {after:?} after A was killed (lease {lease:?})");
    b.kill().unwrap();
    b.wait().unwrap();
}
