//! `tengen member add|reset` as an organiser runs it: the password made
//! and printed once opens the member's account, a reset gives another and
//! the old one no longer does; mistakes are refused with the reason.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{stderr, stdout, tengen};
use std::io::Write;
use std::process::{Command, Stdio};
use tengen_web::store::{Database, Store};

/// The member `key`'s stored hash.
fn stored_hash(db: &str, key: &str) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(
            &Database::parse(db).unwrap(),
            "test",
            &tengen_web::Environment::default(),
        )
        .await
        .unwrap();
        store.member(key).await.unwrap().unwrap().hash
    })
}

#[test]
fn an_organiser_adds_a_member_and_resets_the_password() {
    let dir = std::env::temp_dir().join(format!("tengen-member-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("club.db");
    let db = db.to_str().unwrap();
    let out = tengen(&["member", "add", " Ana Lúcia ", "--db", db]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Ana Lúcia is a member\n"), "{text}");
    let made = text
        .lines()
        .find_map(|l| l.strip_prefix("password: "))
        .unwrap()
        .to_string();
    assert_eq!(made.len(), 19, "{made}");
    assert!(tengen_web::member::verify(
        &made,
        &stored_hash(db, "ana lúcia")
    ));
    // The name is taken whatever its case.
    let again = tengen(&["member", "add", "ANA LÚCIA", "--db", db]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("this name is taken"),
        "{}",
        stderr(&again)
    );
    // A reset with a password of the organiser's choosing.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "member",
            "reset",
            "ana lúcia",
            "--password-stdin",
            "--db",
            db,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a new one for Ana\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("password:"), "{}", stdout(&out));
    let hash = stored_hash(db, "ana lúcia");
    assert!(tengen_web::member::verify("a new one for Ana", &hash));
    assert!(!tengen_web::member::verify(&made, &hash));
    // Mistakes say what is wrong.
    let unknown = tengen(&["member", "reset", "Bo", "--db", db]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("no member \"Bo\""),
        "{}",
        stderr(&unknown)
    );
    let short = tengen(&["member", "add", "B", "--db", db]);
    assert!(
        stderr(&short).contains("a member's name is 2 to 32"),
        "{}",
        stderr(&short)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
