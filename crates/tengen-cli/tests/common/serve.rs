//! Running `tengen serve` as a real process and talking to it: its
//! address from its first line, plain HTTP requests, moves over the
//! game's WebSocket.

#![allow(dead_code)] // each test file uses its own part

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Starts `tengen serve` on a free loopback port with these further
/// arguments, its logs written to `log`; returns it and its address.
pub fn start(args: &[&str], log: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("tengen: http://")
        .unwrap_or_else(|| {
            panic!(
                "first line names the address: {line:?}\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            )
        })
        .to_string();
    (child, addr)
}

pub fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
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

pub fn view(addr: &str, id: &str) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), "");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the game's WebSocket with the seat token; reads the welcome and
/// the current view.
pub async fn join(addr: &str, id: &str, token: &str) -> Socket {
    let url = format!("ws://{addr}/ws/{id}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    // The seat token travels in the first message, not the address.
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    for _ in 0..2 {
        ws.next().await.unwrap().unwrap();
    }
    ws
}

/// Sends a request; returns the answer, a view or an error (names of
/// moves, chat and presence come aside).
pub async fn answer(ws: &mut Socket, msg: Value) -> Value {
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
    loop {
        let answer = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let v: Value = serde_json::from_str(answer.to_text().unwrap()).unwrap();
        if !matches!(v["type"].as_str(), Some("names" | "chat" | "presence")) {
            return v;
        }
    }
}

/// Plays the moves over the game's WebSocket, waiting for each answer.
pub async fn play(addr: &str, id: &str, token: &str, moves: &[&str]) -> Value {
    let mut ws = join(addr, id, token).await;
    let mut last = Value::Null;
    for m in moves {
        last = answer(&mut ws, json!({"type": "play", "vertex": m})).await;
        assert_eq!(last["type"], "view", "{m}: {last}");
    }
    last
}

/// Asserts two views show one game in one state (`when`: which moment).
pub fn assert_same_game(before: &Value, after: &Value, when: &str) {
    for key in [
        "board",
        "move_number",
        "to_move",
        "captures",
        "phase",
        "last",
    ] {
        assert_eq!(before[key], after[key], "{key} {when}");
    }
}
