//! The web board in a real browser: the scenarios of tests/browser/scenarios.js
//! (Playwright driving Debian's chromium, headless) against a server started
//! here, on each store (SQLite; PostgreSQL, on a cluster of the test's own),
//! one browser at a time. Screenshots of the SQLite run go to
//! target/browser-shots, or to `$TENGEN_SHOTS`, those of the PostgreSQL run
//! to target/browser-shots-postgres:
//! `TENGEN_SHOTS=docs/src/img cargo test --release -p tengen-web --test
//! browser` regenerates the guide's pictures. `.ci/run` installs chromium
//! and runs `npm ci` in tests/browser.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{Backend, Running};
use std::path::PathBuf;
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_scenarios_on_sqlite() {
    scenarios(Backend::Sqlite).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_scenarios_on_postgres() {
    scenarios(Backend::Postgres).await;
}

async fn scenarios(store: Backend) {
    static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _turn = ONE_BROWSER.lock().await;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    assert!(
        dir.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run `npm ci` in {} (.ci/run does)",
        dir.display()
    );
    assert!(
        std::path::Path::new("/usr/bin/chromium").exists(),
        "/usr/bin/chromium is missing: install Debian's chromium (.ci/run does)"
    );
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shots = match (store, std::env::var_os("TENGEN_SHOTS")) {
        #[cfg(feature = "postgres")]
        (Backend::Postgres, _) => root.join("target/browser-shots-postgres"),
        (Backend::Sqlite, Some(dir)) => root.join(dir),
        (Backend::Sqlite, None) => root.join("target/browser-shots"),
    };
    // A small budget per position: the analysis scenario searches a whole
    // game. Every page of the scenarios is one client (one address): their
    // games against the engine, left unfinished, add up.
    let limits = tengen_web::Limits {
        analysis_playouts: 48,
        engine_games_per_client: 64,
        ..tengen_web::Limits::default()
    };
    let server = Running::start_with(store.fresh("browser").await, limits).await;
    let base = format!("http://{}", server.addr);
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg("scenarios.js")
            .arg(&base)
            .arg(&shots)
            .current_dir(&dir)
            .output()
    })
    .await
    .unwrap()
    .expect("node runs (Node 20 is needed)");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser scenarios failed ({}):\n{out}\n{err}",
        output.status
    );
    for name in [
        "frenchPage",
        "koClickIsExplained",
        "gameEndsAndCounts",
        "reloadKeepsTheGame",
        "invitationAndSpectator",
        "reviewAnSgf",
        "beginnerWinsFirstCapture",
        "namesChatAndPresence",
        "lobbyListsInvitationsAndGames",
        "reviewFinishedGame",
        "playHelpers",
        "noCursorAfterClick",
        "notYourTurnGoes",
        "stonesCountAlone",
        "sekiDrawnAsCounted",
        "superkoInPlainWords",
        "invitationPanel",
        "fractionalMainTime",
        "clockAfterTheFlag",
        "resignAsksFirst",
        "wordsAndHeader",
        "lessonProblemsAtPhoneSize",
        "reviewTreeAndEdits",
        "reviewAnalysis",
        "teacherSeesTheClass",
        "memberOnTwoDevices",
    ] {
        assert!(
            out.contains(&format!("ok   {name}")),
            "{name} did not pass:\n{out}"
        );
    }
}
