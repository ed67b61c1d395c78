//! `tengen serve` killed with SIGKILL mid-game restarts on the same
//! database with the game exactly as it was: every move answered was stored.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "common/serve.rs"]
mod serve;

use serde_json::{Value, json};
use serve::{http, play, start, view};
use std::path::Path;

fn start_on(db: &Path) -> (std::process::Child, String) {
    start(&["--db", db.to_str().unwrap()], &db.with_extension("log"))
}

#[tokio::test]
async fn sigkill_mid_game_loses_nothing() {
    let dir = std::env::temp_dir().join(format!("tengen-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");

    let (mut server, addr) = start_on(&db);
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

    let (mut server, addr) = start_on(&db);
    let after = view(&addr, &id);
    serve::assert_same_game(&before, &after, "after the restart");
    assert_eq!(after["move_number"], 3);
    // The seats survive: White plays on; Black may not play out of turn.
    let v = play(&addr, &id, &white, &["D4"]).await;
    assert_eq!(v["move_number"], 4);
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
