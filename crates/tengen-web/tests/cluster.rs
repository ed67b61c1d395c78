//! Several servers on one PostgreSQL database (a cluster of the test's own):
//! players and spectators of one game on different servers see every move
//! at once, two servers given a move for the same turn store exactly one,
//! the engine's moves are computed by whichever server has workers, clocks
//! and the end of the game work across servers, chat lines said on one
//! server are read on the other in the order stored, a player connected to
//! another server is shown connected, a lobby seat taken from two servers
//! at once goes to one, and a database of an earlier schema is upgraded in
//! place. (A server killed with SIGKILL:
//! tengen-cli's cluster_crash test, on real processes.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::pg;
use common::{Client, Running, TestDb, assert_error};
use serde_json::{Value, json};
use std::time::Duration;
use tengen_web::Limits;

/// Two servers on one fresh database, started at the same moment (they
/// create the schema together: one migrates, the other waits and finds it
/// done).
async fn two_nodes(a_limits: Limits, b_limits: Limits) -> (Running, Running) {
    let db: TestDb = pg::fresh_db().await.into();
    tokio::join!(
        Running::start_node(db.clone(), Some("a"), a_limits),
        Running::start_node(db, Some("b"), b_limits),
    )
}

fn friend_game() -> Value {
    json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}})
}

/// The answer to a move: the view showing it, or the error refusing it
/// (views of other changes are skipped).
async fn answer(c: &mut Client, vertex: &str) -> Value {
    loop {
        let v = c.next().await;
        if v["type"] == "error" || v["last"] == vertex {
            return v;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_on_two_servers_share_one_game() {
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    assert_eq!(a.get_json("/healthz").await["node"], "a");
    assert_eq!(b.get_json("/healthz").await["store"], "postgres");
    let g = a.create(friend_game()).await;
    let id = g["id"].as_str().unwrap();
    // Black and a spectator on A, White and a spectator on B.
    let mut black = a.connect(id, g["token"].as_str()).await;
    let mut white = b.connect(id, g["invite"].as_str()).await;
    let mut watch_a = a.connect(id, None).await;
    let mut watch_b = b.connect(id, None).await;
    assert_eq!(
        (black.seat.as_str(), white.seat.as_str()),
        ("black", "white")
    );
    let moves = ["E5", "C3", "G7", "C7", "G3", "D4"];
    for (n, m) in moves.iter().enumerate() {
        let (mover, other) = if n % 2 == 0 {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        other.wait_view(|v| v["move_number"] == n).await;
        let v = mover.play(m).await;
        assert_eq!(v["move_number"], n + 1, "{m}: {v}");
        for c in [&mut *other, &mut watch_a, &mut watch_b] {
            let seen = c.wait_view(|v| v["move_number"] == n + 1).await;
            assert_eq!(seen["last"], *m);
        }
    }
    // An undo asked on A, accepted on B.
    black.ask(json!({"type": "undo"})).await;
    white.wait_view(|v| v["undo_request"] == "black").await;
    let v = white.ask(json!({"type": "accept_undo"})).await;
    assert_eq!(v["move_number"], 4);
    let seen = watch_a.wait_view(|v| v["move_number"] == 4).await;
    assert_eq!(seen["to_move"], "black");
    // The end: passes on both servers, dead stones proposed on B and
    // accepted on A.
    black.wait_view(|v| v["move_number"] == 4).await;
    black.ask(json!({"type": "pass"})).await;
    white.wait_view(|v| v["move_number"] == 5).await;
    let v = white.ask(json!({"type": "pass"})).await;
    assert_eq!(v["phase"], "marking");
    black.wait_view(|v| v["phase"] == "marking").await;
    let v = white.ask(json!({"type": "accept_dead"})).await;
    assert_eq!(v["phase"], "marking");
    black.wait_view(|v| v["proposer"] == "white").await;
    let v = black.ask(json!({"type": "accept_dead"})).await;
    assert_eq!(v["phase"], "over", "{v}");
    for c in [&mut white, &mut watch_a, &mut watch_b] {
        let seen = c.wait_view(|v| v["phase"] == "over").await;
        assert_eq!(seen["result"], v["result"]);
    }
    // Both servers read the same record.
    let sgf_a = a.http("GET", &format!("/api/games/{id}/sgf"), "").await.1;
    let sgf_b = b.http("GET", &format!("/api/games/{id}/sgf"), "").await.1;
    assert_eq!(sgf_a, sgf_b);
    assert!(sgf_a.contains(";B[ee]"), "{sgf_a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_given_a_move_for_the_same_turn_store_exactly_one() {
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    let g = a.create(friend_game()).await;
    let id = g["id"].as_str().unwrap();
    let black_token = g["token"].as_str();
    // Black's seat is open on both servers; White plays on A.
    let mut black_a = a.connect(id, black_token).await;
    let mut black_b = b.connect(id, black_token).await;
    let mut white = a.connect(id, g["invite"].as_str()).await;
    let letters = "ABCDEFGHJ".as_bytes();
    let rounds = 12;
    for round in 0..rounds {
        let n = 2 * round;
        black_a.wait_view(|v| v["move_number"] == n).await;
        black_b.wait_view(|v| v["move_number"] == n).await;
        // Two points of this round's column: one per server.
        let col = letters[round % 9] as char;
        let row = 1 + 4 * (round / 9);
        let (va, vb) = (format!("{col}{row}"), format!("{col}{}", row + 1));
        black_a.drain().await;
        black_b.drain().await;
        black_a.send(json!({"type": "play", "vertex": va})).await;
        black_b.send(json!({"type": "play", "vertex": vb})).await;
        let (ra, rb) = tokio::join!(answer(&mut black_a, &va), answer(&mut black_b, &vb));
        let accepted = [&ra, &rb].iter().filter(|r| r["type"] == "view").count();
        assert_eq!(accepted, 1, "round {round}: {ra} / {rb}");
        let refused = if ra["type"] == "error" { &ra } else { &rb };
        assert_error(refused, "not_your_turn");
        // Both servers show the one move stored.
        let (view_a, view_b) = (a.view(id).await, b.view(id).await);
        let winner = if ra["type"] == "view" { &va } else { &vb };
        for v in [&view_a, &view_b] {
            assert_eq!(v["move_number"], n + 1, "{v}");
            assert_eq!(v["last"], winner.as_str());
        }
        // White answers on the first line's far side.
        white.wait_view(|v| v["move_number"] == n + 1).await;
        let w = format!("{}9", letters[round % 9] as char);
        let w = if round >= 9 {
            format!("{}8", letters[round % 9] as char)
        } else {
            w
        };
        let v = white.play(&w).await;
        assert_eq!(v["move_number"], n + 2, "{w}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_of_a_game_on_a_web_only_server_thinks_on_another() {
    let web_only = Limits {
        engine_workers: 0,
        ..Limits::default()
    };
    let worker = Limits {
        engine_workers: 1,
        ..Limits::default()
    };
    let (a, b) = two_nodes(web_only, worker).await;
    let g = a
        .create(json!({"rules": "chinese", "size": 9,
            "opponent": {"kind": "engine", "strength": "easy", "color": "black"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let mut c = a.connect(id, g["token"].as_str()).await;
    let mut watch_b = b.connect(id, None).await;
    for (n, m) in ["E5", "C3", "G7"].iter().enumerate() {
        let v = c.play(m).await;
        assert_eq!(v["type"], "view", "{m}: {v}");
        let reply = c.wait_view(|v| v["move_number"] == 2 * n + 2).await;
        assert_eq!(reply["last_color"], "white");
        watch_b.wait_view(|v| v["move_number"] == 2 * n + 2).await;
    }
    let ha = a.get_json("/api/health").await;
    assert_eq!(ha["engine"]["workers"], 0, "{ha}");
    assert_eq!(ha["engine"]["queued"], 0, "{ha}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_once_though_both_servers_watch_the_clock() {
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    let g = a
        .create(json!({"rules": "ffg", "size": 9,
            "clock": {"kind": "absolute", "main_s": 2},
            "opponent": {"kind": "friend", "color": "black"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let mut black = a.connect(id, g["token"].as_str()).await;
    let mut watch_b = b.connect(id, None).await;
    black.play("E5").await;
    // White, on neither server, lets the flag fall; both servers' clocks
    // see it, one stores it.
    let seen = watch_b.wait_view(|v| v["phase"] == "over").await;
    assert_eq!(seen["result"]["sgf"], "B+T");
    let v = black.wait_view(|v| v["phase"] == "over").await;
    assert_eq!(v["result"]["sgf"], "B+T");
    tokio::time::sleep(Duration::from_millis(300)).await;
    for s in [&a, &b] {
        let v = s.view(id).await;
        assert_eq!(v["move_number"], 1);
        assert_eq!(v["result"]["by"], "time");
    }
}

#[tokio::test]
async fn a_database_of_an_earlier_schema_is_upgraded_in_place() {
    let db = pg::fresh_db().await;
    let (client, connection) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(connection);
    let first = &tengen_web::store::migrations::STEPS[0];
    client.batch_execute(first.postgres).await.unwrap();
    client
        .batch_execute(tengen_web::store::migrations::LEDGER)
        .await
        .unwrap();
    client
        .batch_execute(
            "INSERT INTO tengen_migrations VALUES (1, 'games, their actions, learners', 0);
             INSERT INTO games VALUES ('old', 'ffg', 9, 9, NULL, 0, 'fixed',
                '{\"kind\":\"same_screen\"}', 't', 't', NULL, NULL, NULL, 0, 'playing', NULL);
             INSERT INTO moves VALUES ('old', 1, 'play',
                '{\"kind\":\"play\",\"color\":\"black\",\"vertex\":\"D4\"}', 5);",
        )
        .await
        .unwrap();
    let server = Running::start(db.clone()).await;
    let v = server.view("old").await;
    assert_eq!(v["move_number"], 1);
    assert_eq!(v["last"], "D4");
    let mut c = server.connect("old", Some("t")).await;
    assert_eq!(c.play("E5").await["move_number"], 2);
    let versions: Vec<i32> = client
        .query(
            "SELECT version FROM tengen_migrations ORDER BY version",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let all: Vec<i32> = tengen_web::store::migrations::STEPS
        .iter()
        .map(|s| s.version as i32)
        .collect();
    assert_eq!(versions, all);
    // The token the old game was made with plays (above), and the
    // database keeps only its digest, the one the server computes.
    let kept: String = client
        .query_one("SELECT black_token FROM games WHERE id = 'old'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(kept, tengen_web::token::digest("t"));
    drop(client);
    let _ = driver.await;
    // A refused database is said clearly.
    let config = tengen_web::ServeConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        tengen_web::Database::Postgres(db.cluster.url("no_such_database")),
    );
    let refused = tengen_web::Server::bind(&config).await.unwrap_err();
    assert!(
        refused.to_string().contains("no_such_database"),
        "{refused}"
    );
}

#[tokio::test]
async fn healthz_answers_on_sqlite_too() {
    let server = Running::start(common::temp_db("healthz")).await;
    let h = server.get_json("/healthz").await;
    assert_eq!(h["status"], "ok");
    assert_eq!(h["store"], "sqlite");
    assert_eq!(h["node"], server.node.as_str());
}

#[tokio::test]
async fn a_database_file_removed_while_serving_is_reported_and_nothing_more_is_acknowledged() {
    let path = common::temp_db("lost");
    let server = Running::start(path.clone()).await;
    let g = server.create(friend_game()).await;
    let id = g["id"].as_str().unwrap();
    let mut black = server.connect(id, g["token"].as_str()).await;
    black.send(json!({"type": "play", "vertex": "D4"})).await;
    assert_eq!(answer(&mut black, "D4").await["last"], "D4");
    // The file goes; SQLite could still write to it, no name reaches it.
    for end in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{end}", path.display()));
    }
    let (status, body) = server.http("GET", "/healthz", "").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("was removed while the server ran"), "{body}");
    let (status, body) = server.http("GET", "/api/health", "").await;
    assert_eq!(status, 503, "{body}");
    // The next move is refused, in words the page translates, not
    // acknowledged and lost.
    let mut white = server.connect(id, g["invite"].as_str()).await;
    white.send(json!({"type": "play", "vertex": "E5"})).await;
    let refused = answer(&mut white, "E5").await;
    assert_eq!(refused["code"], "storage_lost", "{refused}");
    let (status, body) = server.post_json("/api/games", &friend_game()).await;
    assert_eq!(status, 503, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_and_presence_cross_servers_in_the_order_stored() {
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    let g = a.create(friend_game()).await;
    let id = g["id"].as_str().unwrap();
    // Black on A, White and a spectator on B.
    let mut black = a.connect_named(id, g["token"].as_str(), "Ann").await;
    let mut white = b.connect_named(id, g["invite"].as_str(), "Bo").await;
    let mut watch_b = b.connect(id, None).await;
    // Each sees the other connected, though through the other server.
    black
        .wait_talk(|c| c.presence["white"]["online"] == true && c.presence["white"]["name"] == "Bo")
        .await;
    white
        .wait_talk(|c| {
            c.presence["black"]["online"] == true && c.presence["black"]["name"] == "Ann"
        })
        .await;
    // A line said on A is read by the spectator on B.
    black
        .send(json!({"type": "chat", "text": "hello from A"}))
        .await;
    watch_b.wait_talk(|c| !c.chat.is_empty()).await;
    assert_eq!(watch_b.chat[0]["text"], "hello from A");
    assert_eq!(watch_b.chat[0]["name"], "Ann");
    assert_eq!(watch_b.chat[0]["seq"], 1);
    // Lines said on both servers at once: each takes its own place, and
    // everyone reads them in the same order.
    white.wait_talk(|c| c.chat.len() == 1).await;
    for i in 0..3 {
        black
            .send(json!({"type": "chat", "text": format!("A{i}")}))
            .await;
        white
            .send(json!({"type": "chat", "text": format!("B{i}")}))
            .await;
    }
    for c in [&mut black, &mut white, &mut watch_b] {
        c.wait_talk(|c| c.chat.len() == 7).await;
    }
    let order = |c: &Client| -> Vec<(u64, String)> {
        c.chat
            .iter()
            .map(|l| {
                (
                    l["seq"].as_u64().unwrap(),
                    l["text"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let mut seen = order(&watch_b);
    seen.sort();
    assert_eq!(
        seen.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6, 7]
    );
    let mut heard_a = order(&black);
    heard_a.sort();
    assert_eq!(
        heard_a, seen,
        "both servers show the lines stored, numbered alike"
    );
    // White leaves B: A shows him gone.
    white.close().await;
    black
        .wait_talk(|c| c.presence["white"]["online"] == false)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_seat_taken_from_two_servers_at_once_goes_to_one() {
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    for _ in 0..5 {
        let g = a
            .create(json!({"rules": "ffg", "size": 9, "lobby": true,
                "opponent": {"kind": "friend", "color": "black"}}))
            .await;
        let id = g["id"].as_str().unwrap();
        // B has the game loaded too, as when someone watches it there.
        b.view(id).await;
        let path = format!("/api/lobby/{id}/join");
        let empty = json!({});
        let ((sa, ta), (sb, tb)) =
            tokio::join!(a.post_json(&path, &empty), b.post_json(&path, &empty));
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{ta} {tb}");
        let won = if sa == 200 { ta } else { tb };
        // The winner's new token gives the seat on either server: the
        // one that did not mint it reads it from the database.
        let token = won["token"].as_str();
        let (other, minter) = if sa == 200 { (&b, &a) } else { (&a, &b) };
        for s in [other, minter] {
            let c = s.connect(id, token).await;
            assert_eq!(c.seat, "white");
            c.close().await;
        }
        // Once taken, no server offers it again.
        for s in [&a, &b] {
            let (status, again) = s.post_json(&path, &json!({})).await;
            assert_eq!(status, 409, "{again}");
            assert_error(&again, "seat_taken");
        }
    }
}

/// A server that loads a game while another stores a move in it comes to
/// show that move, whichever of the two goes first. (The announcement of
/// the move could reach it after it had read the game's actions but before
/// it held the game, and was dropped: it showed the old position for
/// good.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_loading_a_game_as_another_stores_a_move_catches_up() {
    use std::time::Instant;
    const TRIALS: usize = 300;
    let (a, b) = two_nodes(Limits::default(), Limits::default()).await;
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}});
    let mut behind = Vec::new();
    for trial in 0..TRIALS {
        let g = a.create(form.clone()).await;
        let id = g["id"].as_str().unwrap();
        let mut c = a.connect(id, g["token"].as_str()).await;
        // B's load starts as A's move is sent, the one or the other a
        // little ahead by turns.
        let lead = Duration::from_micros(100 * (trial / 2 % 10) as u64);
        let play = json!({"type": "play", "vertex": "E5"});
        let (addr, path) = (b.addr, format!("/api/games/{id}"));
        if trial % 2 == 0 {
            c.send(play).await;
            spin(lead);
            common::http(addr, "GET", &path, "").await;
        } else {
            let load = tokio::spawn(async move { common::http(addr, "GET", &path, "").await });
            spin(lead);
            c.send(play).await;
            load.await.unwrap();
        }
        let v = c.wait_view(|v| v["seq"] == 1).await;
        assert_eq!(v["last"], "E5");
        // B comes to A's position.
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let v = b.view(id).await;
            if v["seq"] == 1 {
                break;
            }
            if Instant::now() > deadline {
                behind.push(trial);
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        c.close().await;
    }
    assert!(
        behind.is_empty(),
        "B kept the position before A's move in {} trials of {TRIALS}: {behind:?}",
        behind.len()
    );
}

/// Waits `d` without yielding (finer than the runtime's timer).
fn spin(d: Duration) {
    let start = std::time::Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_engine_games_are_counted_over_every_server() {
    let one = Limits {
        engine_games_per_client: 1,
        ..Limits::default()
    };
    let (a, b) = two_nodes(one.clone(), one).await;
    let form = json!({"rules": "chinese", "size": 9,
        "opponent": {"kind": "engine", "strength": "easy", "color": "black"}});
    a.create(form.clone()).await;
    let (status, refused) = b.post_json("/api/games", &form).await;
    assert_eq!(status, 429, "{refused}");
    assert_error(&refused, "too_many_engine_games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_on_a_shared_database_take_turns_between_clients() {
    // Held to the end: it keeps the test's PostgreSQL cluster running.
    let server = common::behind_proxy(pg::fresh_db().await, common::one_engine_worker()).await;
    let before = common::greedy_moves_before_another(server.addr).await;
    assert!(
        before <= 2,
        "{before} of the greedy client's moves came first"
    );
}
