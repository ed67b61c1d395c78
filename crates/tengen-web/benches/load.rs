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
//!
//! TENGEN_LOAD_CLUSTER=1 measures several servers on one PostgreSQL (a
//! cluster of the bench's own, as the tests make it) beside one SQLite
//! server, in one run: for 500 and 2,000 games (TENGEN_LOAD_CLUSTER_GAMES),
//! one SQLite server, then two and three servers on PostgreSQL, each game's
//! two players on different servers, every configuration played for
//! TENGEN_LOAD_SECONDS (10) and measured in moves/s and latency; then the
//! engine: TENGEN_LOAD_ENGINE_GAMES (12) games against the medium engine
//! (2,000 playouts a move) played on a web-only server, their moves
//! computed by one, two and three worker servers (one worker each), in
//! engine moves/s.

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

/// What every player shares: the moves per game, the mean think time, the
/// wait until all are connected, and when to stop (if before the moves).
struct Load {
    moves: u64,
    think_ms: u64,
    chat_every: u64,
    connected: Barrier,
    /// Set once everyone is connected: no move is begun after it.
    deadline: std::sync::OnceLock<Instant>,
    seconds: Option<f64>,
}

impl Load {
    fn new(
        moves: u64,
        think_ms: u64,
        chat_every: u64,
        players: usize,
        seconds: Option<f64>,
    ) -> Load {
        Load {
            moves,
            think_ms,
            chat_every,
            connected: Barrier::new(players + 1),
            deadline: std::sync::OnceLock::new(),
            seconds,
        }
    }

    /// Everyone is connected: the clock starts.
    async fn go(&self) -> Instant {
        self.connected.wait().await;
        let start = Instant::now();
        if let Some(s) = self.seconds {
            let _ = self.deadline.set(start + Duration::from_secs_f64(s));
        }
        start
    }

    fn past_deadline(&self) -> bool {
        self.deadline.get().is_some_and(|d| Instant::now() > *d)
    }
}

/// A player's measures: each answer's latency, the moves accepted, and
/// his chat lines' echoes.
#[derive(Debug, Default)]
struct Played {
    latencies: Vec<Duration>,
    moves: u64,
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
) -> Played {
    let Load {
        moves,
        think_ms,
        chat_every,
        ref connected,
        ..
    } = *load;
    let mut said = 0u64;
    let mut played = 0u64;
    let mut chat = Vec::new();
    let mut ws = common::join(addr, &id, Some(&token)).await;
    connected.wait().await;
    let mut rng = Rng::new(seed);
    let mut latencies = Vec::new();
    let mut accepted = 0;
    let mut view = Heard::default();
    loop {
        // Wait for this player's turn, or the end of the game.
        let done = |v: &Heard| v.phase != "playing" || v.number() >= moves;
        let waiting = Instant::now();
        while !view.is_view() || (view.to_move != color && !done(&view)) {
            // After the deadline the opponent may have stopped: a second's
            // silence ends the wait.
            let Ok(msg) = tokio::time::timeout(Duration::from_secs(1), ws.next()).await else {
                if load.past_deadline() {
                    return Played {
                        latencies,
                        moves: accepted,
                        chat,
                    };
                }
                assert!(
                    waiting.elapsed() < Duration::from_secs(60),
                    "a view within 60 s"
                );
                continue;
            };
            let msg = msg.unwrap().unwrap();
            if let Message::Text(t) = msg {
                let v: Heard = serde_json::from_str(t.as_str()).unwrap();
                if v.is_view() {
                    view = v;
                }
            }
        }
        let number = view.number();
        if done(&view) || load.past_deadline() {
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
                accepted += 1;
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
    Played {
        latencies,
        moves: accepted,
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
    if env_or("TENGEN_LOAD_CLUSTER", 0) != 0 {
        cluster::run();
        return;
    }
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
        let load = Arc::new(Load::new(moves, think_ms, chat_every, games * 2, None));
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
        let start = load.go().await;
        let mut all = Vec::new();
        let mut chat = Vec::new();
        for t in tasks {
            let played = t.await.unwrap();
            all.extend(played.latencies);
            chat.extend(played.chat);
        }
        let seconds = start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        for t in hostile_tasks {
            t.await.unwrap();
        }
        all.sort();
        chat.sort();
        let pct = |p: f64| percentile(&all, p);
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
                percentile(&chat, 0.5),
                percentile(&chat, 0.99),
                percentile(&chat, 1.0)
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

/// The `p` quantile of sorted latencies, in ms.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Several servers on one PostgreSQL beside one SQLite server.
mod cluster {
    use super::{Load, Played, env_or, percentile, player};
    use crate::common::{Running, TestDb, pg, temp_db};
    use serde_json::json;
    use std::sync::Arc;
    use tengen_web::Limits;

    /// Servers on one database: `n` of them, named, each with `workers`
    /// engine workers (the first with `first_workers`).
    async fn servers(
        db: &TestDb,
        n: usize,
        first_workers: usize,
        workers: usize,
        connections: usize,
    ) -> Vec<Running> {
        let mut nodes = Vec::new();
        for i in 0..n {
            let w = if i == 0 { first_workers } else { workers };
            let limits = Limits {
                connections,
                engine_workers: w,
                heavy_workers: w.max(1),
                engine_games_per_client: 4096,
                ..Limits::default()
            };
            nodes.push(Running::start_node(db.clone(), Some(&format!("n{i}")), limits).await);
        }
        nodes
    }

    /// A fresh database of `store` (PostgreSQL's on the run's cluster).
    async fn fresh(store: &str, name: &str) -> TestDb {
        if store == "sqlite" {
            temp_db(name).into()
        } else {
            pg::fresh_db().await.into()
        }
    }

    /// `games` friend games on `n` servers, each game's players on two
    /// servers, played for `seconds`.
    async fn play(store: &str, n: usize, games: usize, seconds: f64) {
        let db = fresh(store, "cluster-load").await;
        let nodes = servers(&db, n, 0, 0, 4 * games + 64).await;
        let mut created = Vec::new();
        for _ in 0..games {
            created.push(
                nodes[0]
                    .create(json!({"rules": "ffg", "size": 9,
                        "opponent": {"kind": "friend", "color": "black"}}))
                    .await,
            );
        }
        let load = Arc::new(Load::new(10_000, 0, 0, games * 2, Some(seconds)));
        let mut tasks = Vec::new();
        for (i, g) in created.iter().enumerate() {
            let id = g["id"].as_str().unwrap().to_string();
            for (k, (color, token)) in [("black", &g["token"]), ("white", &g["invite"])]
                .into_iter()
                .enumerate()
            {
                tasks.push(tokio::spawn(player(
                    nodes[(i + k) % n].addr,
                    id.clone(),
                    token.as_str().unwrap().to_string(),
                    color,
                    (i as u64) * 2 + k as u64,
                    Arc::clone(&load),
                )));
            }
        }
        let start = load.go().await;
        let mut all = Vec::new();
        let mut moves = 0;
        for t in tasks {
            let Played {
                latencies,
                moves: m,
                ..
            } = t.await.unwrap();
            all.extend(latencies);
            moves += m;
        }
        let seconds = start.elapsed().as_secs_f64();
        all.sort();
        println!(
            "play store={store} nodes={n} games={games} seconds={seconds:.2} moves={moves} moves_per_s={:.0} latency_ms p50={:.2} p99={:.2} max={:.2}",
            moves as f64 / seconds,
            percentile(&all, 0.5),
            percentile(&all, 0.99),
            percentile(&all, 1.0),
        );
        for node in nodes {
            node.stop();
        }
    }

    /// `games` games against the medium engine on a web-only server, the
    /// engine's moves computed by `workers` servers of one worker each,
    /// played for `seconds`.
    async fn engine(store: &str, workers: usize, games: usize, seconds: f64) {
        let db = fresh(store, "cluster-engine").await;
        let nodes = if store == "sqlite" {
            servers(&db, 1, 1, 1, 256).await
        } else {
            servers(&db, workers + 1, 0, 1, 256).await
        };
        let web = &nodes[0];
        let mut ids = Vec::new();
        let load = Arc::new(Load::new(10_000, 0, 0, games, Some(seconds)));
        let mut tasks = Vec::new();
        for i in 0..games {
            let g = web
                .create(json!({"rules": "chinese", "size": 9,
                    "opponent": {"kind": "engine", "strength": "medium", "color": "black"}}))
                .await;
            let id = g["id"].as_str().unwrap().to_string();
            ids.push(id.clone());
            tasks.push(tokio::spawn(player(
                web.addr,
                id,
                g["token"].as_str().unwrap().to_string(),
                "black",
                i as u64,
                Arc::clone(&load),
            )));
        }
        let start = load.go().await;
        for t in tasks {
            t.await.unwrap();
        }
        let seconds = start.elapsed().as_secs_f64();
        let mut answered = 0;
        for id in &ids {
            answered += web.view(id).await["move_number"].as_u64().unwrap() / 2;
        }
        println!(
            "engine store={store} worker_nodes={workers} workers_per_node=1 playouts=2000 games={games} seconds={seconds:.2} engine_moves={answered} engine_moves_per_s={:.2}",
            answered as f64 / seconds,
        );
        for node in nodes {
            node.stop();
        }
    }

    pub fn run() {
        let seconds = env_or("TENGEN_LOAD_SECONDS", 10) as f64;
        let engine_games = env_or("TENGEN_LOAD_ENGINE_GAMES", 12);
        let sizes: Vec<usize> = std::env::var("TENGEN_LOAD_CLUSTER_GAMES")
            .ok()
            .map(|v| v.split(',').filter_map(|g| g.trim().parse().ok()).collect())
            .unwrap_or_else(|| vec![500, 2000]);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            // One cluster for the whole run, held until its end.
            let _cluster = tokio::task::spawn_blocking(pg::cluster).await.unwrap();
            for &games in &sizes {
                play("sqlite", 1, games, seconds).await;
                play("postgres", 2, games, seconds).await;
                play("postgres", 3, games, seconds).await;
            }
            engine("sqlite", 1, engine_games, seconds).await;
            for workers in 1..=3 {
                engine("postgres", workers, engine_games, seconds).await;
            }
        });
    }
}
