//! `tengen serve` killed with SIGKILL mid-game restarts on the same
//! database with the game exactly as it was: every move answered was stored.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Starts the server on a free loopback port; returns it and its address.
fn start(db: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("tengen: http://")
        .unwrap_or_else(|| panic!("first line names the address: {line:?}"))
        .to_string();
    (child, addr)
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn view(addr: &str, id: &str) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), "");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Plays the moves over the game's WebSocket, waiting for each answer.
async fn play(addr: &str, id: &str, token: &str, moves: &[&str]) -> Value {
    let url = format!("ws://{addr}/ws/{id}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    // The seat token travels in the first message, not the address.
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    let mut last = Value::Null;
    // The welcome and the current view.
    for _ in 0..2 {
        ws.next().await.unwrap().unwrap();
    }
    for m in moves {
        let msg = json!({"type": "play", "vertex": m}).to_string();
        ws.send(Message::Text(msg.into())).await.unwrap();
        // The answer: the view of the move (names of moves, chat and
        // presence come aside).
        last = loop {
            let answer = tokio::time::timeout(Duration::from_secs(10), ws.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            let v: Value = serde_json::from_str(answer.to_text().unwrap()).unwrap();
            if !matches!(v["type"].as_str(), Some("names" | "chat" | "presence")) {
                break v;
            }
        };
        assert_eq!(last["type"], "view", "{m}: {last}");
    }
    last
}

#[tokio::test]
async fn sigkill_mid_game_loses_nothing() {
    let dir = std::env::temp_dir().join(format!("tengen-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");

    let (mut server, addr) = start(&db);
    let form = json!({"rules": "ffg", "size": 9, "opponent": {"kind": "friend", "color": "black"}});
    let (status, body) = http(&addr, "POST", "/api/games", &form.to_string());
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let white = created["invite"].as_str().unwrap().to_string();
    play(&addr, &id, &black, &["E5"]).await;
    play(&addr, &id, &white, &["C3"]).await;
    let answered = play(&addr, &id, &black, &["G7"]).await;
    let before = view(&addr, &id);
    assert_eq!(answered["board"], before["board"]);

    // SIGKILL: no shutdown, no flush.
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, addr) = start(&db);
    let after = view(&addr, &id);
    for key in [
        "board",
        "move_number",
        "to_move",
        "captures",
        "phase",
        "last",
    ] {
        assert_eq!(before[key], after[key], "{key} after the restart");
    }
    assert_eq!(after["move_number"], 3);
    // The seats survive: White plays on; Black may not play out of turn.
    let v = play(&addr, &id, &white, &["D4"]).await;
    assert_eq!(v["move_number"], 4);
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
