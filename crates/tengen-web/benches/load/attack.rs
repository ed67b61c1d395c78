//! TENGEN_LOAD_ATTACK=flood|hoard|engine|analyses|none: players as in the
//! plain run (TENGEN_LOAD_GAMES games, 200 by default, each player from
//! a loopback address of its own, thinking TENGEN_LOAD_THINK_MS, 200 ms
//! by default, for TENGEN_LOAD_SECONDS, 30) on a server with the default
//! limits behind a trusted proxy (127.0.0.1, whose `X-Forwarded-For` names
//! each game's creator), while one client attacks:
//!
//! - `flood`: eight loops creating listed games as fast as the server
//!   answers; the games made, those refused, the lobby, and the process's
//!   peak memory (server and clients together).
//! - `hoard`: one peer (127.0.1.66) opens game sockets and idle
//!   connections until refused, and keeps them; a visitor from another
//!   address asks `/healthz` every 100 ms.
//! - `engine`: as many strong 19x19 engine games as one client may have,
//!   waiting for each engine move; every 5 s another client starts an
//!   engine game whose engine moves first, and its wait for that first
//!   move is timed, with the greedy client's moves answered meanwhile.
//! - `analyses`: four clients each start the analysis of a professional
//!   game (`shared/data/fox_pro`, beside the repository or under
//!   TENGEN_DATA); the positions each got analysed.
//! - `none`: the same players unattacked, the figures to compare with.
//!
//! Reports the players' move latency (p50, p99, max) and the attack's
//! figures.

use super::{EngineRun, Hostile, Load, engine_loop, percentile, player};
use crate::common::{self, Running, http_raw, post_for, temp_db};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tengen_web::Limits;

/// The attacking client, when it goes through the proxy.
const ATTACKER: &str = "203.0.113.66";

/// Runs the attack `kind` beside the players.
pub fn run(kind: &str) {
    let games = super::env_or("TENGEN_LOAD_GAMES", 200);
    let seconds = super::env_or("TENGEN_LOAD_SECONDS", 30) as f64;
    let think_ms = super::env_or("TENGEN_LOAD_THINK_MS", 200) as u64;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let limits = Limits {
            // The players, and the places a hoarder may take.
            connections: 4 * games + 1024,
            ..Limits::default()
        };
        let server = Arc::new(common::behind_proxy(temp_db("attack"), limits.clone()).await);
        let addr = server.addr;
        let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}})
            .to_string();
        let mut created = Vec::new();
        for i in 0..games {
            // Each game by a member of its own behind the proxy.
            let member = format!("10.1.{}.{}", i / 250, 1 + i % 250);
            let (status, body) = post_for(addr, "/api/games", &member, &form).await;
            assert_eq!(status, 200, "{body}");
            created.push(serde_json::from_str::<Value>(&body).unwrap());
        }
        let load = Arc::new(Load::new(10_000, think_ms, 0, games * 2, Some(seconds)));
        let mut tasks = Vec::new();
        for (i, g) in created.iter().enumerate() {
            let id = g["id"].as_str().unwrap().to_string();
            for (color, token) in [("black", &g["token"]), ("white", &g["invite"])] {
                let n = (i as u64) * 2 + u64::from(color == "white");
                tasks.push(tokio::spawn(player(
                    addr,
                    id.clone(),
                    token.as_str().unwrap().to_string(),
                    color,
                    n,
                    Arc::clone(&load),
                )));
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let attack = {
            let (server, stop, kind) = (Arc::clone(&server), Arc::clone(&stop), kind.to_string());
            tokio::spawn(async move { attack(&kind, server, stop).await })
        };
        // Until the attack is in full swing.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let start = load.go().await;
        let mut all = Vec::new();
        let mut moves = 0;
        for t in tasks {
            let played = t.await.unwrap();
            all.extend(played.latencies);
            moves += played.moves;
        }
        let elapsed = start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        let report = attack.await.unwrap();
        all.sort();
        println!(
            "attack={kind} games={games} think_ms={think_ms} seconds={elapsed:.1} moves={moves} latency_ms p50={:.2} p99={:.2} max={:.2}",
            percentile(&all, 0.5),
            percentile(&all, 0.99),
            percentile(&all, 1.0)
        );
        println!("attack={kind}: {report}");
    });
}

/// Runs the attack until `stop`; what it got, in words.
async fn attack(kind: &str, server: Arc<Running>, stop: Arc<AtomicBool>) -> String {
    match kind {
        "flood" => flood(server.addr, stop).await,
        "hoard" => hoard(server.addr, stop).await,
        "engine" => engine(server, stop).await,
        "analyses" => analyses(server.addr, stop).await,
        "none" => String::from("none"),
        other => panic!("TENGEN_LOAD_ATTACK={other}: flood, hoard, engine, analyses or none"),
    }
}

async fn flood(addr: SocketAddr, stop: Arc<AtomicBool>) -> String {
    // Half the loops list their games in the lobby.
    let form = |lobby: bool| {
        json!({"rules": "ffg", "size": 19, "lobby": lobby,
            "opponent": {"kind": "friend", "color": "black"}})
        .to_string()
    };
    let (made, refused, failed) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let loops: Vec<_> = (0..8)
        .map(|i| {
            let (stop, form) = (Arc::clone(&stop), form(i % 2 == 0));
            let counts = [&made, &refused, &failed].map(Arc::clone);
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let (status, _) = post_for(addr, "/api/games", ATTACKER, &form).await;
                    let i = match status {
                        200 => 0,
                        429 => 1,
                        _ => 2,
                    };
                    counts[i].fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for l in loops {
        l.await.unwrap();
    }
    let get = format!("GET /api/lobby HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let (_, _, lobby) = http_raw(addr, &get).await;
    let lobby: Value = serde_json::from_str(&lobby).unwrap();
    format!(
        "created={} refused={} failed={} lobby_open={} peak_rss_mb={:.0}",
        made.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
        lobby["open"].as_array().map_or(0, Vec::len),
        peak_rss_mb()
    )
}

/// The process's peak resident memory (Linux's VmHWM), in MB; 0
/// elsewhere.
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

async fn hoard(addr: SocketAddr, stop: Arc<AtomicBool>) -> String {
    let hoarder: IpAddr = "127.0.1.66".parse().unwrap();
    let (status, body) = post_for(
        addr,
        "/api/games",
        ATTACKER,
        &json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}})
            .to_string(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game: Value = serde_json::from_str(&body).unwrap();
    let url = format!("ws://{addr}/ws/{}", game["id"].as_str().unwrap());
    // Sockets until refused, each read so that it answers the pings.
    let mut sockets = Vec::new();
    while let Ok(ws) = common::connect_from(addr, &url, hoarder).await {
        let stop = Arc::clone(&stop);
        sockets.push(tokio::spawn(async move {
            let mut ws = ws;
            while !stop.load(Ordering::Relaxed) {
                if let Ok(None) = tokio::time::timeout(Duration::from_millis(500), ws.next()).await
                {
                    break;
                }
            }
        }));
        if sockets.len() > 10_000 {
            break;
        }
    }
    // Then connections that never send a request, opened again as the
    // server closes them, until it refuses them.
    let turned_away = Arc::new(AtomicU64::new(0));
    let opener = {
        let (stop, turned_away) = (Arc::clone(&stop), Arc::clone(&turned_away));
        tokio::spawn(async move {
            let mut idle = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut tcp) = common::tcp_from(addr, hoarder).await else {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let mut first = [0u8; 1];
                let said = tokio::io::AsyncReadExt::read(&mut tcp, &mut first);
                match tokio::time::timeout(Duration::from_millis(5), said).await {
                    // Nothing said: held.
                    Err(_) => idle.push(tcp),
                    Ok(_) => {
                        turned_away.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            }
        })
    };
    // A visitor from elsewhere.
    let visitor: IpAddr = "127.0.1.67".parse().unwrap();
    let mut waits = Vec::new();
    let mut most_open = 0;
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        let mut tcp = common::tcp_from(addr, visitor).await.unwrap();
        let get = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        tokio::io::AsyncWriteExt::write_all(&mut tcp, get.as_bytes())
            .await
            .unwrap();
        let mut answer = Vec::new();
        tokio::io::AsyncReadExt::read_to_end(&mut tcp, &mut answer)
            .await
            .unwrap();
        assert!(
            answer.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
        waits.push(t.elapsed());
        let get = format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        let (_, _, health) = http_raw(addr, &get).await;
        let health: Value = serde_json::from_str(&health).unwrap();
        most_open = most_open.max(health["connections"]["open"].as_u64().unwrap_or(0));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    opener.await.unwrap();
    let socket_count = sockets.len();
    for s in sockets {
        s.await.unwrap();
    }
    waits.sort();
    format!(
        "sockets_held={socket_count} server_connections_open_at_most={most_open} (the players' included) turned_away={} visitor_healthz_ms p50={:.2} p99={:.2} max={:.2} (n={})",
        turned_away.load(Ordering::Relaxed),
        percentile(&waits, 0.5),
        percentile(&waits, 0.99),
        percentile(&waits, 1.0),
        waits.len()
    )
}

async fn engine(server: Arc<Running>, stop: Arc<AtomicBool>) -> String {
    // The greedy client: the proxy itself (no header), as many thinking
    // games as it may have.
    let done = Arc::new(Hostile::default());
    let greedy: Vec<_> = (0..Limits::default().engine_games_per_client)
        .map(|i| {
            let run = EngineRun {
                server: Arc::clone(&server),
                stop: Arc::clone(&stop),
                done: Arc::clone(&done),
                thinking: true,
            };
            tokio::spawn(engine_loop(run, 7 + i as u64))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let addr = server.addr;
    let form = json!({"rules": "chinese", "size": 19,
        "opponent": {"kind": "engine", "strength": "strong", "color": "white"}})
    .to_string();
    let mut probes = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let before = done.engine_moves.load(Ordering::Relaxed);
        let t = Instant::now();
        let (status, body) = post_for(addr, "/api/games", "203.0.113.78", &form).await;
        assert_eq!(status, 200, "{body}");
        let g: Value = serde_json::from_str(&body).unwrap();
        let id = g["id"].as_str().unwrap();
        loop {
            if server.view(id).await["move_number"].as_u64() > Some(0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let wait = t.elapsed();
        let between = done.engine_moves.load(Ordering::Relaxed) - before;
        probes.push((wait, between));
        let mut c = server.connect(id, g["token"].as_str()).await;
        c.ask(json!({"type": "resign"})).await;
        c.close().await;
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    for g in greedy {
        g.await.unwrap();
    }
    let worst = probes.iter().map(|p| p.0).max().unwrap_or_default();
    let most_between = probes.iter().map(|p| p.1).max().unwrap_or(0);
    format!(
        "greedy_engine_moves={} probes={} first_reply_s max={:.1} mean={:.1} greedy_moves_answered_meanwhile max={most_between} engine_workers={}",
        done.engine_moves.load(Ordering::Relaxed),
        probes.len(),
        worst.as_secs_f64(),
        probes.iter().map(|p| p.0.as_secs_f64()).sum::<f64>() / probes.len().max(1) as f64,
        Limits::default().engine_workers
    )
}

/// Four professional games (shared/data/fox_pro), for `analyses`.
const RECORDS: [&str; 4] = [
    "fox_pro/Pro2.7z/Pro/7p/1570718600080010073.sgf",
    "fox_pro/Pro2.7z/Pro/7p/1570787275010001068.sgf",
    "fox_pro/Pro2.7z/Pro/7p/1553742010010001021.sgf",
    "fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf",
];

fn record(name: &str) -> String {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = [
        std::env::var_os("TENGEN_DATA").map(std::path::PathBuf::from),
        Some(manifest.join("../../../shared/data")),
    ];
    let path = roots
        .into_iter()
        .flatten()
        .map(|r| r.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not found beside the repository (set TENGEN_DATA)"));
    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
}

async fn analyses(addr: SocketAddr, stop: Arc<AtomicBool>) -> String {
    let records: Vec<String> = RECORDS.iter().map(|r| record(r)).collect();
    let client = |i: usize| format!("198.51.100.{}", i + 1);
    for (i, r) in records.iter().enumerate() {
        let (status, body) = post_for(addr, "/api/review/analysis?start=1", &client(i), r).await;
        assert_eq!(status, 200, "{body}");
    }
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut done = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let (status, body) =
            post_for(addr, "/api/review/analysis?since=100000", &client(i), r).await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        done.push(v["done"].as_u64().unwrap_or(0));
    }
    format!(
        "positions_analysed_per_client={done:?} (min {} max {})",
        done.iter().min().unwrap_or(&0),
        done.iter().max().unwrap_or(&0)
    )
}
