//! `tengen gtp` driven by Sabaki's own GTP library (`@sabaki/gtp`): the
//! session of tests/sabaki/session.js (sync, genmove, `lz-analyze` and
//! `kata-analyze` parsed as Sabaki parses them). `.ci/run` runs `npm ci` in
//! tests/sabaki.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::path::PathBuf;
use std::process::Command;

#[test]
fn a_sabaki_session() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    assert!(
        dir.join("node_modules/@sabaki/gtp").is_dir(),
        "@sabaki/gtp is not installed: run `npm ci` in {} (.ci/run does)",
        dir.display()
    );
    let output = Command::new("node")
        .arg("session.js")
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .current_dir(&dir)
        .output()
        .expect("node runs (Node 20 is needed)");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Sabaki session failed ({}):\n{out}\n{err}",
        output.status
    );
    for step in [
        "handshake",
        "sync",
        "resync",
        "genmove",
        "lz-analyze",
        "kata-analyze",
        "after analysis",
    ] {
        assert!(out.contains(&format!("ok   {step}")), "{step}:\n{out}");
    }
}
