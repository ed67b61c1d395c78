//! Load: 500 concurrent games of two WebSocket players each making random
//! legal moves against a real server on a loopback port (SQLite on disk,
//! every move stored before it is answered, no engine). Reports moves/s and
//! the move latency (send to answer) percentiles.
//!
//! `cargo bench -p tengen-web --bench load` (TENGEN_LOAD_GAMES and
//! TENGEN_LOAD_MOVES change the 500 games and 40 moves per game). Players
//! answer at once by default: every game always has a move in flight, so
//! the latency is mostly queueing behind the other 499 games.
//! TENGEN_LOAD_THINK_MS gives each player a random think time (uniform, of
//! that mean) before each move, as people have. Every player connects
//! before the clock starts: the figures are those of play, not of 1,000
//! WebSocket handshakes.
//!
//! Players talk too: every TENGEN_LOAD_CHAT_EVERY-th move (4 by default,
//! 0 for none) a player also sends a chat line and waits for it to come
//! back from the server (stored, then broadcast to both players); those
//! waits are timed apart and reported as the chat latency.
//!
//! TENGEN_LOAD_HOSTILE=1 adds a hostile client for the whole run: four
//! loops posting 1 MB records of 20,000 variations to `/api/review`, and
//! as many strong 19x19 engine games as one client may have, each played
//! and taken back without pause (every move a 20,000-playout search).
//! The figures should stay those of play: the review and engine pools
//! hold that work off the async workers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Running, heavy_record, temp_db};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tengen_mcts::Rng;
use tokio::sync::Barrier;
use tokio_tungstenite::tungstenite::Message;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What a player reads of a server message (a view or an error); the
/// other fields are skipped, so that the clients, which share the machine
/// with the server, spend little on parsing.
#[derive(Debug, Default, Deserialize)]
struct Heard {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    phase: String,
    #[serde(default)]
    move_number: Option<u64>,
    #[serde(default)]
    to_move: String,
    #[serde(default)]
    board: String,
    #[serde(default)]
    width: usize,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    lines: Vec<HeardLine>,
}

/// A chat line as a player reads it.
#[derive(Debug, Default, Deserialize)]
struct HeardLine {
    text: String,
}

impl Heard {
    fn is_view(&self) -> bool {
        self.kind == "view"
    }

    fn number(&self) -> u64 {
        self.move_number.unwrap_or(0)
    }
}

/// What every player shares: the moves per game, the mean think time, and
/// the wait until all are connected.
struct Load {
    moves: u64,
    think_ms: u64,
    chat_every: u64,
    connected: Barrier,
}

/// One player's timings: his moves' answers and his chat lines' echoes.
#[derive(Default)]
struct Timings {
    moves: Vec<Duration>,
    chat: Vec<Duration>,
}

/// One player: waits for his turn, plays a random empty point (another on
/// refusal, a pass after 20 refusals), and times each answer; now and then
/// says something and times its echo.
async fn player(
    addr: std::net::SocketAddr,
    id: String,
    token: String,
    color: &'static str,
    seed: u64,
    load: Arc<Load>,
) -> Timings {
    let Load {
        moves,
        think_ms,
        chat_every,
        ref connected,
    } = *load;
    let mut said = 0u64;
    let mut played = 0u64;
    let mut chat = Vec::new();
    let mut ws = common::join(addr, &id, Some(&token)).await;
    connected.wait().await;
    let mut rng = Rng::new(seed);
    let mut latencies = Vec::new();
    let mut view = Heard::default();
    loop {
        // Wait for this player's turn, or the end of the game.
        let done = |v: &Heard| v.phase != "playing" || v.number() >= moves;
        while !view.is_view() || (view.to_move != color && !done(&view)) {
            let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
                .await
                .expect("a view within 60 s")
                .unwrap()
                .unwrap();
            if let Message::Text(t) = msg {
                let v: Heard = serde_json::from_str(t.as_str()).unwrap();
                if v.is_view() {
                    view = v;
                }
            }
        }
        let number = view.number();
        if done(&view) {
            break;
        }
        if think_ms > 0 {
            let t = rng.below(2 * think_ms as usize + 1) as u64;
            tokio::time::sleep(Duration::from_millis(t)).await;
        }
        let board = view.board.as_bytes();
        let n = view.width;
        let empty: Vec<usize> = (0..board.len()).filter(|&i| board[i] == b'.').collect();
        let mut tries = 0;
        loop {
            let request = if tries < 20 && !empty.is_empty() {
                let p = empty[rng.below(empty.len())];
                let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
                let vertex = format!("{}{}", letters[p % n] as char, n - p / n);
                json!({"type": "play", "vertex": vertex})
            } else {
                json!({"type": "pass"})
            };
            let sent = Instant::now();
            ws.send(Message::Text(request.to_string().into()))
                .await
                .unwrap();
            // The answer: an error, or the view of this move.
            let answer = loop {
                let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
                    .await
                    .expect("an answer within 60 s")
                    .unwrap()
                    .unwrap();
                if let Message::Text(t) = msg {
                    let v: Heard = serde_json::from_str(t.as_str()).unwrap();
                    if v.kind == "error" || v.move_number > Some(number) {
                        break v;
                    }
                }
            };
            latencies.push(sent.elapsed());
            if answer.is_view() {
                view = answer;
                break;
            }
            // (an error: another point is tried below)
            assert!(
                matches!(
                    answer.code.as_deref(),
                    Some("suicide" | "ko" | "natural_situational_superko")
                ),
                "only the rules refuse random moves: {answer:?}"
            );
            tries += 1;
        }
        played += 1;
        if chat_every > 0 && played.is_multiple_of(chat_every) {
            said += 1;
            let text = format!("{id} {color} says {said}: nice move");
            let sent = Instant::now();
            ws.send(Message::Text(
                json!({"type": "chat", "text": text}).to_string().into(),
            ))
            .await
            .unwrap();
            loop {
                let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
                    .await
                    .expect("a chat echo within 60 s")
                    .unwrap()
                    .unwrap();
                if let Message::Text(t) = msg {
                    let v: Heard = serde_json::from_str(t.as_str()).unwrap();
                    assert_ne!(v.kind, "error", "a chat line is refused: {v:?}");
                    if v.is_view() && v.number() >= view.number() {
                        view = v;
                    } else if v.kind == "chat" && v.lines.iter().any(|l| l.text == text) {
                        break;
                    }
                }
            }
            chat.push(sent.elapsed());
        }
    }
    Timings {
        moves: latencies,
        chat,
    }
}

/// What the hostile client got done: reviews answered, engine moves
/// asked (each makes a search), and the longest engine queue it saw.
#[derive(Debug, Default)]
struct Hostile {
    reviews: AtomicU64,
    asked: AtomicU64,
    longest_queue: AtomicU64,
}

/// Posts heavy records until `stop`.
async fn review_loop(addr: std::net::SocketAddr, stop: Arc<AtomicBool>, done: Arc<Hostile>) {
    let sgf = heavy_record();
    while !stop.load(Ordering::Relaxed) {
        let (status, _) = common::http(addr, "POST", "/api/review", &sgf).await;
        assert_eq!(status, 200, "a heavy review is read");
        done.reviews.fetch_add(1, Ordering::Relaxed);
    }
}

/// Plays and takes back in a strong engine game until `stop`: each play
/// starts a search, each undo makes it stale.
async fn engine_loop(server: Arc<Running>, stop: Arc<AtomicBool>, done: Arc<Hostile>) {
    let g = server
        .create(json!({"rules": "chinese", "size": 19,
            "opponent": {"kind": "engine", "strength": "strong", "color": "black"}}))
        .await;
    let mut c = server
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let mut rng = Rng::new(done.asked.load(Ordering::Relaxed) + 7);
    while !stop.load(Ordering::Relaxed) {
        let letters = b"ABCDEFGHJKLMNOPQRST";
        let vertex = format!("{}{}", letters[rng.below(19)] as char, 1 + rng.below(19));
        let answer = c.play(&vertex).await;
        if answer["type"] == "view" {
            done.asked.fetch_add(1, Ordering::Relaxed);
            c.ask(json!({"type": "undo"})).await;
        }
    }
}

/// Watches the engine queue until `stop`.
async fn queue_watch(server: Arc<Running>, stop: Arc<AtomicBool>, done: Arc<Hostile>) {
    while !stop.load(Ordering::Relaxed) {
        let h = server.get_json("/api/health").await;
        let queued = h["engine"]["queued"].as_u64().unwrap_or(0);
        done.longest_queue.fetch_max(queued, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn main() {
    let games = env_or("TENGEN_LOAD_GAMES", 500);
    let moves = env_or("TENGEN_LOAD_MOVES", 40) as u64;
    let think_ms = env_or("TENGEN_LOAD_THINK_MS", 0) as u64;
    let chat_every = env_or("TENGEN_LOAD_CHAT_EVERY", 4) as u64;
    let hostile = env_or("TENGEN_LOAD_HOSTILE", 0) != 0;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let limits = tengen_web::Limits {
            // 1,000 players, the hostile client, and room to spare.
            connections: 4 * games + 64,
            ..tengen_web::Limits::default()
        };
        let server = Arc::new(Running::start_with(temp_db("load"), limits.clone()).await);
        let mut created = Vec::new();
        for _ in 0..games {
            created.push(
                server
                    .create(json!({"rules": "ffg", "size": 9,
                        "opponent": {"kind": "friend", "color": "black"}}))
                    .await,
            );
        }
        let load = Arc::new(Load {
            moves,
            think_ms,
            chat_every,
            connected: Barrier::new(games * 2 + 1),
        });
        let mut tasks = Vec::new();
        for (i, g) in created.iter().enumerate() {
            let id = g["id"].as_str().unwrap().to_string();
            for (color, token) in [("black", &g["token"]), ("white", &g["invite"])] {
                tasks.push(tokio::spawn(player(
                    server.addr,
                    id.clone(),
                    token.as_str().unwrap().to_string(),
                    color,
                    (i as u64) * 2 + u64::from(color == "white"),
                    Arc::clone(&load),
                )));
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(Hostile::default());
        let mut hostile_tasks = Vec::new();
        if hostile {
            for _ in 0..4 {
                hostile_tasks.push(tokio::spawn(review_loop(
                    server.addr,
                    Arc::clone(&stop),
                    Arc::clone(&done),
                )));
            }
            for _ in 0..limits.engine_games_per_client {
                hostile_tasks.push(tokio::spawn(engine_loop(
                    Arc::clone(&server),
                    Arc::clone(&stop),
                    Arc::clone(&done),
                )));
            }
            hostile_tasks.push(tokio::spawn(queue_watch(
                Arc::clone(&server),
                Arc::clone(&stop),
                Arc::clone(&done),
            )));
            // Until the hostile client is in full swing.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        load.connected.wait().await;
        let start = Instant::now();
        let mut all = Vec::new();
        let mut chat = Vec::new();
        for t in tasks {
            let timings = t.await.unwrap();
            all.extend(timings.moves);
            chat.extend(timings.chat);
        }
        let seconds = start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        for t in hostile_tasks {
            t.await.unwrap();
        }
        all.sort();
        chat.sort();
        let pct_of = |v: &[Duration], p: f64| {
            v.get(((v.len() as f64 - 1.0) * p).round() as usize)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        let pct = |p: f64| pct_of(&all, p);
        let mut played = 0;
        for g in &created {
            played += server.view(g["id"].as_str().unwrap()).await["move_number"]
                .as_u64()
                .unwrap();
        }
        assert!(played >= games as u64 * moves.min(20), "the games were played");
        println!(
            "games={games} players={} think_ms={think_ms} (uniform 0..={} ms per move) moves={played} requests={} seconds={seconds:.2} moves_per_s={:.0} latency_ms p50={:.2} p99={:.2} max={:.2}",
            games * 2,
            2 * think_ms,
            all.len(),
            played as f64 / seconds,
            pct(0.5),
            pct(0.99),
            pct(1.0)
        );
        if chat_every > 0 {
            println!(
                "chat: every {chat_every} moves, lines={} echo_ms p50={:.2} p99={:.2} max={:.2}",
                chat.len(),
                pct_of(&chat, 0.5),
                pct_of(&chat, 0.99),
                pct_of(&chat, 1.0)
            );
        }
        if hostile {
            println!(
                "hostile: reviews={} engine_moves_asked={} longest_engine_queue={} engine_workers={} review_workers={}",
                done.reviews.load(Ordering::Relaxed),
                done.asked.load(Ordering::Relaxed),
                done.longest_queue.load(Ordering::Relaxed),
                limits.engine_workers,
                limits.review_workers,
            );
        }
    });
}
