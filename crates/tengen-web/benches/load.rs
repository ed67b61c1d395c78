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
//! as many strong 19x19 engine games as one client may have (a new one
//! every 20 moves), half of them waiting for each engine move (a
//! 20,000-playout search), half taking each move back at once (a search
//! started and stopped). The figures should stay those of play: the
//! review and engine pools hold that work off the async workers, on
//! threads of lowered priority. What the hostile client got done during
//! play is printed, and the CPU time of each kind of thread.
//!
//! TENGEN_LOAD_STORE=postgres plays the run on PostgreSQL (a cluster of
//! the bench's own, with the feature `postgres`) instead of SQLite, the
//! hostile client included.
//!
//! TENGEN_LOAD_ATTACK=flood|hoard|engine|analyses|none measures the
//! players' latency while one client attacks a server with the default
//! limits (see `load/attack.rs`).
//!
//! TENGEN_LOAD_CLUSTER=1 (with the feature `postgres`, on by default)
//! measures several servers on one PostgreSQL (a
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

#[path = "load/attack.rs"]
mod attack;

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
    // Each player from a loopback address of its own (four sockets an
    // address), as people come from theirs: the per-client limits hold.
    let from = std::net::IpAddr::from([127, 0, 0, 2 + (seed % 250) as u8]);
    let mut ws = common::join_from(addr, &id, Some(&token), from).await;
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
                if let Some(v) = heard_within_60s(&mut ws, "an answer").await
                    && (v.kind == "error" || v.move_number > Some(number))
                {
                    break v;
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
                if let Some(v) = heard_within_60s(&mut ws, "a chat echo").await {
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
/// played (each a full search), moves played and taken back at once
/// (each a search started, then stopped), engine games started, and the
/// longest engine queue it saw, and what failed.
#[derive(Debug, Default)]
struct Hostile {
    reviews: AtomicU64,
    engine_moves: AtomicU64,
    taken_back: AtomicU64,
    games: AtomicU64,
    longest_queue: AtomicU64,
    /// Reviews refused or cut, games given up for a late answer.
    failures: AtomicU64,
}

/// The hostile client's counts at one moment.
#[derive(Clone, Copy, Debug)]
struct HostileCounts {
    reviews: u64,
    engine_moves: u64,
    taken_back: u64,
    games: u64,
}

impl Hostile {
    fn counts(&self) -> HostileCounts {
        HostileCounts {
            reviews: self.reviews.load(Ordering::Relaxed),
            engine_moves: self.engine_moves.load(Ordering::Relaxed),
            taken_back: self.taken_back.load(Ordering::Relaxed),
            games: self.games.load(Ordering::Relaxed),
        }
    }
}

/// Posts heavy records until `stop`.
/// The next message on `ws`, read as the bench reads it (`None` for a
/// frame that is not text); `what` names it if it does not come in 60 s.
async fn heard_within_60s(ws: &mut common::Socket, what: &str) -> Option<Heard> {
    let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
        .await
        .unwrap_or_else(|_| panic!("{what} within 60 s"))
        .unwrap()
        .unwrap();
    match msg {
        Message::Text(t) => Some(serde_json::from_str(t.as_str()).unwrap()),
        _ => None,
    }
}

async fn review_loop(addr: std::net::SocketAddr, stop: Arc<AtomicBool>, done: Arc<Hostile>) {
    let sgf = Arc::new(heavy_record());
    while !stop.load(Ordering::Relaxed) {
        let sgf = Arc::clone(&sgf);
        // (In a task of its own: the small client's failures panic.)
        let posted =
            tokio::spawn(async move { common::http(addr, "POST", "/api/review", &sgf).await })
                .await;
        match posted {
            Ok((200, _)) => done.reviews.fetch_add(1, Ordering::Relaxed),
            _ => done.failures.fetch_add(1, Ordering::Relaxed),
        };
    }
}

/// Plays strong 19x19 engine games until `stop`, a new one every 20 moves
/// (the last resigned). A `thinking` loop waits for each of the engine's
/// answers (a full 20,000-playout search); the others take each move back
/// at once, so that every move starts a search made stale at once.
async fn engine_loop(run: EngineRun, seed: u64) {
    let mut rng = Rng::new(seed);
    while !run.stop.load(Ordering::Relaxed) {
        // One game in a task of its own: a hostile client gives up on a
        // game whose answers are late (the test client panics after 10 s)
        // rather than end the run, and is counted.
        let game = tokio::spawn(engine_game(run.clone(), rng.below(1 << 30) as u64));
        if game.await.is_err() {
            run.done.failures.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// What each engine game of [`engine_loop`] plays with.
#[derive(Clone)]
struct EngineRun {
    server: Arc<Running>,
    stop: Arc<AtomicBool>,
    done: Arc<Hostile>,
    /// Whether it waits for the engine's answers (or takes each move back).
    thinking: bool,
}

/// One engine game of [`engine_loop`], resigned after 20 moves or at
/// `stop`.
async fn engine_game(run: EngineRun, seed: u64) {
    let EngineRun {
        server,
        stop,
        done,
        thinking,
    } = run;
    let mut rng = Rng::new(seed);
    let (status, g) = server
        .post_json(
            "/api/games",
            &json!({"rules": "chinese", "size": 19,
                "opponent": {"kind": "engine", "strength": "strong", "color": "black"}}),
        )
        .await;
    if status != 200 {
        // The game just resigned may still count against the limit.
        tokio::time::sleep(Duration::from_millis(50)).await;
        return;
    }
    done.games.fetch_add(1, Ordering::Relaxed);
    let mut c = server
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let mut plays = 0;
    while plays < 20 && !stop.load(Ordering::Relaxed) {
        let letters = b"ABCDEFGHJKLMNOPQRST";
        let vertex = format!("{}{}", letters[rng.below(19)] as char, 1 + rng.below(19));
        let answer = c.play(&vertex).await;
        if answer["type"] != "view" {
            // An occupied point: another.
            continue;
        }
        plays += 1;
        if !thinking {
            c.ask(json!({"type": "undo"})).await;
            done.taken_back.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let mut over = false;
        while !stop.load(Ordering::Relaxed) {
            // (Read a second at a time, so that `stop` is heard.)
            let Ok(v) = tokio::time::timeout(Duration::from_secs(1), c.next()).await else {
                continue;
            };
            if v["type"] == "view" && v["phase"] != "playing" {
                over = true;
                break;
            }
            if v["type"] == "view" && v["to_move"] == "black" {
                done.engine_moves.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
        if over {
            break;
        }
    }
    c.send(json!({"type": "resign"})).await;
    c.close().await;
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

/// CPU seconds used so far by this process's live threads, by thread
/// name (the async workers, the pools' heavy-work threads, the database
/// writer...), from Linux's per-thread scheduler statistics, and by the
/// whole process, ended threads included (under [`ALL`]); empty
/// elsewhere.
fn cpu_by_thread() -> std::collections::BTreeMap<String, f64> {
    let mut by_name = std::collections::BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return by_name;
    };
    for task in tasks.flatten() {
        let path = task.path();
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let ns: f64 = std::fs::read_to_string(path.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .unwrap_or(0.0);
        *by_name.entry(name.trim().to_string()).or_insert(0.0) += ns / 1e9;
    }
    // The process's user and system time (fields 14 and 15, after the
    // parenthesised name), in Linux's fixed 100 ticks a second.
    let ticks: f64 = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let fields: Vec<&str> = s.rsplit_once(')')?.1.split_whitespace().collect();
            let field = |n: usize| fields.get(n - 3)?.parse::<f64>().ok();
            Some(field(14)? + field(15)?)
        })
        .unwrap_or(0.0);
    by_name.insert(ALL.to_string(), ticks / 100.0);
    by_name
}

/// The whole process's entry in [`cpu_by_thread`].
const ALL: &str = "(process)";

fn main() {
    if env_or("TENGEN_LOAD_CLUSTER", 0) != 0 {
        cluster::run();
        return;
    }
    if let Ok(kind) = std::env::var("TENGEN_LOAD_ATTACK") {
        attack::run(&kind);
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
        let db = store_db().await;
        let server = Arc::new(Running::start_with(db, limits.clone()).await);
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
            for i in 0..limits.engine_games_per_client {
                let run = EngineRun {
                    server: Arc::clone(&server),
                    stop: Arc::clone(&stop),
                    done: Arc::clone(&done),
                    thinking: i % 2 == 0,
                };
                hostile_tasks.push(tokio::spawn(engine_loop(run, 7 + i as u64)));
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
        let (cpu_before, hostile_before) = (cpu_by_thread(), done.counts());
        let mut all = Vec::new();
        let mut chat = Vec::new();
        for t in tasks {
            let played = t.await.unwrap();
            all.extend(played.latencies);
            chat.extend(played.chat);
        }
        let seconds = start.elapsed().as_secs_f64();
        let (cpu_after, hostile_after) = (cpu_by_thread(), done.counts());
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
            let (b, a) = (hostile_before, hostile_after);
            println!(
                "hostile, while the games were played: reviews={} ({:.1}/s, 1 MB each) engine_moves_played={} (20,000-playout searches) moves_taken_back={} engine_games_started={} longest_engine_queue={} failures={} engine_workers={} review_workers={} heavy_cores={}",
                a.reviews - b.reviews,
                (a.reviews - b.reviews) as f64 / seconds,
                a.engine_moves - b.engine_moves,
                a.taken_back - b.taken_back,
                a.games - b.games,
                done.longest_queue.load(Ordering::Relaxed),
                done.failures.load(Ordering::Relaxed),
                limits.engine_workers,
                limits.review_workers,
                limits.heavy_workers,
            );
        }
        let used: Vec<(&String, f64)> = cpu_after
            .iter()
            .map(|(name, s)| (name, s - cpu_before.get(name).unwrap_or(&0.0)))
            .filter(|(name, s)| *s >= 0.05 && *name != ALL)
            .collect();
        let all = cpu_after.get(ALL).unwrap_or(&0.0) - cpu_before.get(ALL).unwrap_or(&0.0);
        let live: f64 = used.iter().map(|(_, s)| s).sum();
        println!(
            "cpu_s over the {seconds:.1} s of play: process={all:.1}, live threads: {} ended threads (a search's own workers)={:.1}",
            used.iter()
                .map(|(name, s)| format!("{name}={s:.1}"))
                .collect::<Vec<_>>()
                .join(" "),
            (all - live).max(0.0),
        );
    });
}

/// The `p` quantile of sorted latencies, in ms.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Built without PostgreSQL: nothing to measure, and the run says why
/// rather than measure SQLite alone as if it were the cluster.
/// The plain run's database: TENGEN_LOAD_STORE's (`sqlite`, the default,
/// or `postgres`).
async fn store_db() -> common::TestDb {
    match std::env::var("TENGEN_LOAD_STORE").as_deref() {
        #[cfg(feature = "postgres")]
        Ok("postgres") => common::Backend::Postgres.fresh("load").await,
        Ok("sqlite") | Err(_) => temp_db("load").into(),
        Ok(other) => panic!("TENGEN_LOAD_STORE={other}: sqlite or postgres (with the feature)"),
    }
}

#[cfg(not(feature = "postgres"))]
mod cluster {
    pub fn run() {
        panic!(
            "TENGEN_LOAD_CLUSTER measures PostgreSQL: build with the feature `postgres` (on by default)"
        );
    }
}

/// Several servers on one PostgreSQL beside one SQLite server.
#[cfg(feature = "postgres")]
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
                sockets_per_client: 0,
                connections_per_peer: 0,
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
