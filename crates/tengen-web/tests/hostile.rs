//! The server under hostile or heavy clients: heavy reviews, many engine
//! games, slow headers, many stored games, a read-only database, other
//! sites' pages, and seat tokens kept out of addresses. Time bounds here
//! are generous liveness checks; speed is the load benchmark's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{Running, assert_error, heavy_record, http_raw, temp_db};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tengen_web::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Posts a record for review: the status (200 asserted, with the
/// answer shown otherwise) and how long it took.
async fn post_review(addr: std::net::SocketAddr, sgf: &str) -> (u16, Duration) {
    let t = Instant::now();
    let (status, body) = common::http(addr, "POST", "/api/review", sgf).await;
    assert_eq!(status, 200, "{}", &body[..body.len().min(300)]);
    (status, t.elapsed())
}

// One async worker: what runs on it, every other request waits for.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn heavy_reviews_do_not_stall_reads_or_moves() {
    let limits = Limits {
        review_workers: 1,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("heavyreview"), limits).await;
    let sgf = heavy_record();
    assert!(sgf.len() > 900_000 && sgf.len() <= 1 << 20, "{}", sgf.len());
    // One alone: how long a heavy review takes on this machine.
    let (status, alone) = post_review(server.addr, &sgf).await;
    assert_eq!(status, 200);
    let g = server
        .create(json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}))
        .await;
    let mut player = server
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let reviews: Vec<_> = (0..4)
        .map(|_| {
            let sgf = sgf.clone();
            let addr = server.addr;
            tokio::spawn(async move { post_review(addr, &sgf).await })
        })
        .collect();
    // Time for the four records to arrive (4 MB over loopback).
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Reads and a move, timed again and again until the reviews are done:
    // on the async workers, some waited for a whole parse.
    let mut slowest_read = Duration::ZERO;
    let mut slowest_move = Duration::ZERO;
    let mut busiest = Value::Null;
    let mut n = 0;
    while !reviews.iter().all(|r| r.is_finished()) {
        let t = Instant::now();
        let health = server.get_json("/api/health").await;
        slowest_read = slowest_read.max(t.elapsed());
        if health["reviews"]["queued"].as_u64() > busiest["reviews"]["queued"].as_u64() {
            busiest = health;
        }
        let vertex = ["C3", "G7", "C7", "G3", "E5", "E3"][n % 6];
        let t = Instant::now();
        player.send(json!({"type": "play", "vertex": vertex})).await;
        let v = player.next().await;
        slowest_move = slowest_move.max(t.elapsed());
        assert_eq!(v["move_number"], 1, "{v}");
        player.ask(json!({"type": "undo"})).await;
        n += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let bound = alone / 2;
    assert!(
        slowest_read < bound && slowest_move < bound,
        "a read took {slowest_read:?} and a move {slowest_move:?} while reviews ran (one alone: {alone:?})"
    );
    // One review ran at a time, the others waited in line.
    assert_eq!(busiest["reviews"]["running"], 1, "{busiest}");
    assert!(
        busiest["reviews"]["queued"].as_u64() >= Some(1),
        "{busiest}"
    );
    for r in reviews {
        assert_eq!(r.await.unwrap().0, 200);
    }
}

/// Creates an engine game where the client plays Black on a 9x9 board.
async fn engine_game(server: &Running, strength: &str, size: u32) -> (String, String) {
    let g = server
        .create(json!({"rules": "chinese", "size": size,
            "opponent": {"kind": "engine", "strength": strength, "color": "black"}}))
        .await;
    (
        g["id"].as_str().unwrap().to_string(),
        g["token"].as_str().unwrap().to_string(),
    )
}

/// Polls the health route until `pred` holds, for at most `within`.
async fn health_until(server: &Running, within: Duration, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let h = server.get_json("/api/health").await;
        if pred(&h) || start.elapsed() > within {
            return h;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_stops_when_its_position_is_taken_back() {
    let limits = Limits {
        engine_workers: 1,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("cancel"), limits).await;
    let (id, token) = engine_game(&server, "strong", 19).await;
    let mut c = server.connect(&id, Some(&token)).await;
    // Each play starts a 20,000-playout search (seconds of CPU); each undo
    // makes it stale.
    for v in ["D4", "Q16", "D16", "Q4", "K10"] {
        let seen = c.play(v).await;
        assert_eq!(seen["move_number"], 1, "{seen}");
        let busy = health_until(&server, Duration::from_secs(10), |h| {
            h["engine"]["running"] == 1
        })
        .await;
        assert_eq!(busy["engine"]["running"], 1, "{busy}");
        let back = c.ask(json!({"type": "undo"})).await;
        assert_eq!(back["move_number"], 0, "{back}");
    }
    let idle = health_until(&server, Duration::from_secs(5), |h| {
        h["engine"]["running"] == 0 && h["engine"]["queued"] == 0
    })
    .await;
    assert_eq!(idle["engine"]["running"], 0, "{idle}");
    assert_eq!(idle["engine"]["queued"], 0, "{idle}");
    // The engine never answered a position taken back.
    assert_eq!(server.view(&id).await["move_number"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_engine_games_wait_in_line_and_all_are_answered() {
    const GAMES: usize = 12;
    let limits = Limits {
        heavy_workers: 2,
        engine_workers: 2,
        engine_games_per_client: GAMES,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("manyengines"), limits).await;
    let mut clients = Vec::new();
    for _ in 0..GAMES {
        let (id, token) = engine_game(&server, "medium", 9).await;
        clients.push(server.connect(&id, Some(&token)).await);
    }
    let start = Instant::now();
    for c in &mut clients {
        c.send(json!({"type": "play", "vertex": "E5"})).await;
    }
    // The jobs wait in the database; the two workers each take one.
    let queued = health_until(&server, Duration::from_secs(10), |h| {
        h["engine"]["queued"].as_u64() > Some(0) && h["engine"]["running"] == 2
    })
    .await;
    assert_eq!(queued["engine"]["running"], 2, "{queued}");
    assert!(queued["engine"]["queued"].as_u64() > Some(0), "{queued}");
    // The server still answers at once while the engines think.
    let t = Instant::now();
    server.get_json("/api/sizes").await;
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let answers = futures_util::future::join_all(
        clients
            .iter_mut()
            .map(|c| c.wait_view(|v| v["move_number"] == 2)),
    )
    .await;
    assert!(answers.iter().all(|v| v["last_color"] == "white"));
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "{GAMES} engine moves took {:?}",
        start.elapsed()
    );
    let idle = health_until(&server, Duration::from_secs(5), |h| {
        h["engine"]["running"] == 0
    })
    .await;
    assert_eq!(idle["engine"]["queued"], 0, "{idle}");
}

#[tokio::test]
async fn one_client_may_have_only_so_many_engine_games() {
    let limits = Limits {
        engine_games_per_client: 2,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("perclient"), limits).await;
    let form = json!({"rules": "chinese", "size": 9,
        "opponent": {"kind": "engine", "strength": "easy", "color": "black"}});
    server.create(form.clone()).await;
    let (id, token) = engine_game(&server, "easy", 9).await;
    let (status, refused) = server.post_json("/api/games", &form).await;
    assert_eq!(status, 429, "{refused}");
    assert_error(&refused, "too_many_engine_games");
    // Games against a friend are not limited.
    server
        .create(json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}))
        .await;
    // A game over no longer counts.
    let mut c = server.connect(&id, Some(&token)).await;
    c.ask(json!({"type": "resign"})).await;
    server.create(form).await;
}

/// Opens a connection and sends the start of a request's head, never its
/// end.
async fn dribbler(addr: std::net::SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/sizes HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
        .await
        .unwrap();
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_heads_are_cut_off_and_do_not_stop_others() {
    let limits = Limits {
        connections: 64,
        header_read: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("slowloris"), limits).await;
    // Twice as many dribblers as connections allowed, each sending one
    // header line every 300 ms for ever.
    let mut dribblers = Vec::new();
    for _ in 0..128 {
        dribblers.push(dribbler(server.addr).await);
    }
    let addr = server.addr;
    let feeding = tokio::spawn(async move {
        let mut closed = 0;
        for round in 0.. {
            tokio::time::sleep(Duration::from_millis(300)).await;
            closed = 0;
            for s in &mut dribblers {
                let line = format!("X-Slow-{round}: {addr}\r\n");
                if s.write_all(line.as_bytes()).await.is_err() {
                    closed += 1;
                }
            }
            if closed == dribblers.len() || round > 40 {
                break;
            }
        }
        closed
    });
    // Normal requests still get answers meanwhile.
    for _ in 0..5 {
        let t = Instant::now();
        let sizes = tokio::time::timeout(Duration::from_secs(10), server.get_json("/api/sizes"))
            .await
            .expect("an answer within 10 s while slow clients dribble");
        assert!(sizes["offered"].is_array(), "{sizes}");
        assert!(t.elapsed() < Duration::from_secs(10));
    }
    // Every dribbler is closed by the server (a write fails once the
    // server has reset the connection).
    let closed = tokio::time::timeout(Duration::from_secs(30), feeding)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(closed, 128, "slow connections left open");
    let h = server.get_json("/api/health").await;
    assert!(h["connections"]["open"].as_u64() <= Some(2), "{h}");
}

#[tokio::test]
async fn a_head_never_finished_is_closed() {
    let limits = Limits {
        header_read: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("nohead"), limits).await;
    let mut s = dribbler(server.addr).await;
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection is still open after 10 s");
    // An idle keep-alive connection is closed alike.
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let addr = server.addr;
    s.write_all(format!("GET /api/sizes HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the idle connection is still open after 10 s");
    assert!(String::from_utf8_lossy(&buf).contains("200 OK"));
}

#[tokio::test]
async fn games_are_loaded_when_opened_and_unloaded_when_left() {
    let db = temp_db("lazy");
    let server = Running::start(db).await;
    let mut ids = Vec::new();
    for i in 0..200 {
        let g = server
            .create(json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}))
            .await;
        if i < 3 {
            let mut c = server
                .connect(g["id"].as_str().unwrap(), g["token"].as_str())
                .await;
            c.play("C3").await;
            c.play("G7").await;
            c.close().await;
        }
        ids.push((
            g["id"].as_str().unwrap().to_string(),
            g["token"].as_str().unwrap().to_string(),
        ));
    }
    let db = server.stop();
    // A restart loads no game.
    let limits = Limits {
        unload_after: Duration::from_millis(300),
        ..Limits::default()
    };
    let start = Instant::now();
    let server = Running::start_with(db, limits).await;
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(server.get_json("/api/health").await["games_loaded"], 0);
    // Opening one replays it: what was acknowledged is there.
    let (id, token) = &ids[1];
    let mut c = server.connect(id, Some(token)).await;
    assert_eq!(c.last_view["move_number"], 2);
    assert_eq!(server.get_json("/api/health").await["games_loaded"], 1);
    let v = c.play("E5").await;
    assert_eq!(v["move_number"], 3);
    // Watched, it stays; left, it goes.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(server.get_json("/api/health").await["games_loaded"], 1);
    c.close().await;
    let h = health_until(&server, Duration::from_secs(5), |h| h["games_loaded"] == 0).await;
    assert_eq!(h["games_loaded"], 0, "{h}");
    // Back again, as it was left.
    let mut c = server.connect(id, Some(token)).await;
    assert_eq!(c.last_view["move_number"], 3);
    assert_eq!(c.play("D4").await["move_number"], 4);
}

#[tokio::test]
async fn a_read_only_database_is_refused_at_start() {
    let db = temp_db("readonly");
    let server = Running::start(db.clone()).await;
    server
        .create(json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}))
        .await;
    server.stop();
    // SQLite's own read-only mode: what it falls back to when the file or
    // its file system refuses writes (permissions do not stop root, who
    // runs these tests in CI).
    let read_only = format!("file:{}?mode=ro", db.display());
    let config = tengen_web::ServeConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        std::path::PathBuf::from(read_only),
    );
    let refused = tengen_web::Server::bind(&config).await.unwrap_err();
    assert!(
        matches!(
            refused,
            tengen_web::WebError::Store(tengen_web::store::StoreError::ReadOnly(_))
        ),
        "{refused:?}"
    );
    let message = refused.to_string();
    assert!(
        message.contains("read-only") && message.contains("--db"),
        "{message}"
    );
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let server = Running::start(temp_db("headers")).await;
    for path in ["/", "/app.js", "/api/sizes", "/api/games/nothere"] {
        let (_, head, _) = server.get_with_head(path).await;
        for expected in [
            "content-security-policy: default-src 'none'; script-src 'self'; style-src 'self'",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(expected), "{path} lacks {expected}:\n{head}");
        }
    }
    // The page keeps no inline script or style for the policy to block.
    let (_, _, page) = server.get_with_head("/").await;
    assert!(!page.contains("<style") && !page.contains(" style="));
    assert_eq!(page.matches("<script").count(), 1);
    assert!(page.contains(r#"<script type="module" src="/app.js"></script>"#));
}

#[tokio::test]
async fn another_site_cannot_create_games_or_open_sockets() {
    let limits = Limits {
        header_read: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("origin"), limits).await;
    let addr = server.addr;
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}).to_string();
    let post = |origin: Option<String>| {
        let origin = origin
            .map(|o| format!("Origin: {o}\r\n"))
            .unwrap_or_default();
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\n{origin}Connection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        )
    };
    let (status, _, body) = http_raw(addr, &post(Some("http://evil.example".into()))).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("cross_origin"), "{body}");
    let (status, _, body) = http_raw(addr, &post(Some("null".into()))).await;
    assert_eq!(status, 403, "{body}");
    // The server's own page and programs without Origin may.
    let (status, _, body) = http_raw(addr, &post(Some(format!("http://{addr}")))).await;
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = http_raw(addr, &post(None)).await;
    assert_eq!(status, 200, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A socket opened by another site's page is refused before upgrade.
    let upgrade = |origin: &str| {
        format!(
            "GET /ws/{id} HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
    };
    let (status, _, _) = http_raw(addr, &upgrade("http://evil.example")).await;
    assert_eq!(status, 403);
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(upgrade(&format!("http://{addr}")).as_bytes())
        .await
        .unwrap();
    let mut head = [0u8; 64];
    let n = s.read(&mut head).await.unwrap();
    assert!(
        String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head[..n])
    );
}

#[tokio::test]
async fn seat_tokens_travel_in_the_first_message_only() {
    let limits = Limits {
        hello: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("hello"), limits).await;
    let g = server
        .create(
            json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let token = g["token"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap();
    // 128 bits each, from the OS generator: unlike each other and hex.
    for t in [token, invite] {
        assert_eq!(t.len(), 32);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    assert_ne!(token, invite);
    // In the hello, the token seats its holder.
    let c = server.connect(id, Some(token)).await;
    assert_eq!(c.seat, "black");
    // In the address, it is not read: a hello without it is a spectator.
    let mut ws = common::connect(&format!("ws://{}/ws/{id}?token={token}", server.addr)).await;
    futures_util::SinkExt::send(
        &mut ws,
        tokio_tungstenite::tungstenite::Message::Text(json!({"type": "hello"}).to_string().into()),
    )
    .await
    .unwrap();
    let welcome = next_json(&mut ws).await;
    assert_eq!(welcome["seat"], "spectator", "{welcome}");
    // A wrong token of the right length seats no one.
    let mut wrong = token.to_string();
    wrong.replace_range(31.., if token.ends_with('0') { "1" } else { "0" });
    assert_eq!(server.connect(id, Some(&wrong)).await.seat, "spectator");
    // A socket that says nothing is told so and closed.
    let mut silent = common::connect(&format!("ws://{}/ws/{id}", server.addr)).await;
    let said = next_json(&mut silent).await;
    assert_error(&said, "no_hello");
    let end = tokio::time::timeout(Duration::from_secs(5), silent.next()).await;
    assert!(
        matches!(
            end,
            Ok(None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))))
        ),
        "{end:?}"
    );
}

async fn next_json(ws: &mut common::Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .unwrap()
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

#[tokio::test]
async fn a_name_pointed_at_the_server_is_refused_unless_allowed() {
    // DNS rebinding: evil.example made to point at this server, its page
    // asking with its own name as Host and Origin.
    let config = tengen_web::ServeConfig {
        allowed_hosts: vec!["go.example.org".into()],
        ..tengen_web::ServeConfig::new("127.0.0.1:0".parse().unwrap(), temp_db("hosts"))
    };
    let addr = common::serve(config).await;
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}).to_string();
    let post = |host: &str, origin: &str| {
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        )
    };
    let get = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    let port = addr.port();
    let (status, _, body) = http_raw(
        addr,
        &post(
            &format!("evil.example:{port}"),
            &format!("http://evil.example:{port}"),
        ),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body.contains("unknown_host") && body.contains("--allowed-host"),
        "{body}"
    );
    let (status, _, _) = http_raw(addr, &get(&format!("evil.example:{port}"))).await;
    assert_eq!(status, 403, "even reading: the page would read the games");
    // The address itself, localhost and the allowed name are answered.
    for host in [
        addr.to_string(),
        format!("localhost:{port}"),
        "go.example.org".into(),
    ] {
        let (status, _, _) = http_raw(addr, &get(&host)).await;
        assert_eq!(status, 200, "{host}");
    }
    // Behind a proxy that passes its own Host upstream, the allowed
    // public name's page may create games.
    let (status, _, body) =
        http_raw(addr, &post(&addr.to_string(), "https://go.example.org")).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_share() {
    // The proxy on this machine; the per-client limit of engine games is
    // one, so that the second game of a client is refused.
    let start = |trusted: Vec<ipnet::IpNet>| {
        common::serve(tengen_web::ServeConfig {
            limits: Limits {
                engine_games_per_client: 1,
                ..Limits::default()
            },
            trusted_proxies: trusted,
            ..tengen_web::ServeConfig::new("127.0.0.1:0".parse().unwrap(), temp_db("proxy"))
        })
    };
    let form = json!({"rules": "chinese", "size": 9,
        "opponent": {"kind": "engine", "strength": "easy", "color": "black"}})
    .to_string();
    let create = |addr, client| common::post_for(addr, "/api/games", client, &form);
    let trusting = start(vec![tengen_web::client::parse_proxy("127.0.0.1").unwrap()]).await;
    let (status, body) = create(trusting, "203.0.113.1").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = create(trusting, "203.0.113.1").await;
    assert_eq!(status, 429, "the same client's second game: {body}");
    // Another member behind the same proxy is not refused for the first.
    let (status, body) = create(trusting, "203.0.113.2").await;
    assert_eq!(status, 200, "{body}");
    // A server that trusts no proxy believes no header: one client.
    let plain = start(Vec::new()).await;
    let (status, body) = create(plain, "203.0.113.1").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = create(plain, "203.0.113.2").await;
    assert_eq!(status, 429, "{body}");
}

#[tokio::test]
async fn a_client_has_only_so_many_open_games_and_so_many_in_the_lobby() {
    let limits = Limits {
        games_per_minute: 0,
        games_per_client: 3,
        listed_per_client: 1,
        open_for: Duration::from_millis(1_500),
        ..Limits::default()
    };
    let addr = common::behind_proxy(temp_db("open"), limits).await.addr;
    let friend = |lobby: bool| {
        json!({"rules": "ffg", "size": 9, "lobby": lobby,
            "opponent": {"kind": "friend", "color": "black"}})
        .to_string()
    };
    let create = |client, lobby| {
        let form = friend(lobby);
        async move { common::post_for(addr, "/api/games", client, &form).await }
    };
    let (status, body) = create("203.0.113.1", true).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = create("203.0.113.1", true).await;
    assert_eq!(status, 429, "a second listed game: {body}");
    assert!(body.contains("too_many_listed"), "{body}");
    for _ in 0..2 {
        let (status, body) = create("203.0.113.1", false).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = create("203.0.113.1", false).await;
    assert_eq!(status, 429, "a fourth open game: {body}");
    assert!(body.contains("too_many_games"), "{body}");
    // Another client is not refused for the first's games.
    let (status, body) = create("203.0.113.2", true).await;
    assert_eq!(status, 200, "{body}");
    // Games left alone stop counting.
    tokio::time::sleep(Duration::from_millis(1_600)).await;
    let (status, body) = create("203.0.113.1", true).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_clients_first_engine_move_waits_for_one_job_not_a_whole_queue() {
    let addr = common::behind_proxy(temp_db("turns"), common::one_engine_worker())
        .await
        .addr;
    let before = common::greedy_moves_before_another(addr).await;
    // The job running when it came, and at most one more taken meanwhile:
    // never the greedy client's whole queue.
    assert!(
        before <= 2,
        "{before} of the greedy client's moves came first"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_peer_holds_only_so_many_connections_and_others_still_get_in() {
    let limits = Limits {
        connections: 16,
        connections_per_peer: 6,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("peers"), limits).await;
    let addr = server.addr;
    // One peer holds its six, idle.
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    // Its seventh is told why, and closed.
    let (status, _, body) = http_raw(
        addr,
        &format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("too_many_connections"), "{body}");
    // Another peer (another loopback address) is served at once.
    let mut other = common::tcp_from(addr, "127.0.0.2".parse().unwrap())
        .await
        .unwrap();
    other
        .write_all(
            format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
    let mut answer = String::new();
    other.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // One closed, the first peer gets a place again.
    drop(held.pop());
    let start = Instant::now();
    loop {
        let (status, _, _) = http_raw(
            addr,
            &format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        )
        .await;
        if status == 200 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{status}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_client_creating_games_faster_than_a_person_is_slowed_and_others_are_not() {
    let addr = common::behind_proxy(
        temp_db("rate"),
        Limits {
            games_per_minute: 5,
            ..Limits::default()
        },
    )
    .await
    .addr;
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}})
        .to_string();
    let create = |client| common::post_for(addr, "/api/games", client, &form);
    // A flood from one client: its minute's allowance, then refusals
    // that say when to try again.
    let mut created = 0;
    let mut refused = None;
    for _ in 0..50 {
        let (status, body) = create("203.0.113.1").await;
        match status {
            200 => created += 1,
            429 => refused = Some(body),
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(created, 5);
    let refused = refused.expect("refused");
    assert!(refused.contains("games_too_fast"), "{refused}");
    // One more a minute / 5: within 12 s (and said in whole seconds).
    let wait: u64 = refused
        .split("try again in ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!((1..=12).contains(&wait), "{refused}");
    // Another client is served meanwhile.
    let (status, body) = create("203.0.113.2").await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn one_client_holds_only_so_many_sockets_and_one_that_never_answers_is_closed() {
    let limits = Limits {
        sockets_per_client: 2,
        socket_ping: Duration::from_millis(200),
        // Short waits for the raw requests' connections to close.
        header_read: Duration::from_millis(500),
        hello: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("sockets"), limits).await;
    let g = server
        .create(json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let token = g["token"].as_str();
    let upgrade = format!(
        "GET /ws/{id} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        server.addr
    );
    // A client that reads (and so answers the pings) and one that never
    // reads again once it has said hello.
    let reader = server.connect(id, token).await;
    let silent = common::join(server.addr, id, None).await;
    // The reader reads all along, as a page does (its socket answers the
    // pings).
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reading = {
        let stop = std::sync::Arc::clone(&stop);
        tokio::spawn(async move {
            let mut reader = reader;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                reader.drain().await;
            }
            reader
        })
    };
    let (status, _, body) = http_raw(server.addr, &upgrade).await;
    assert_eq!(status, 429, "a third socket: {body}");
    assert!(body.contains("too_many_sockets"), "{body}");
    // Three periods without a word from the silent one: closed, its
    // place given back.
    let started = Instant::now();
    loop {
        let (status, _, _) = http_raw(server.addr, &upgrade).await;
        if status == 101 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the silent socket kept its place"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "closed before its time"
    );
    drop(silent);
    // The one that answers is still served.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut reader = reading.await.unwrap();
    let v = reader.play("E5").await;
    assert_eq!(v["last"], "E5", "{v}");
}

#[tokio::test]
async fn games_held_in_memory_are_capped_the_least_recently_touched_leaving_first() {
    let limits = Limits {
        games_loaded: 8,
        ..Limits::default()
    };
    let server = Running::start_with(temp_db("lru"), limits).await;
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "same_screen"}});
    // A game watched all along stays, however many come after it.
    let first = server.create(form.clone()).await;
    let mut watcher = server
        .connect(first["id"].as_str().unwrap(), first["token"].as_str())
        .await;
    let mut ids = Vec::new();
    for _ in 0..40 {
        let g = server.create(form.clone()).await;
        ids.push((
            g["id"].as_str().unwrap().to_string(),
            g["token"].as_str().unwrap().to_string(),
        ));
        let held = server.get_json("/api/health").await["games_loaded"]
            .as_u64()
            .unwrap();
        assert!(held <= 8, "{held} games held");
    }
    assert_eq!(watcher.play("C3").await["last"], "C3");
    // An early game left memory and comes back whole when opened.
    let (id, token) = &ids[0];
    let mut c = server.connect(id, Some(token)).await;
    assert_eq!(c.play("D4").await["last"], "D4");
}
