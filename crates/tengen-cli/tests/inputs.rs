//! What the commands that read records do with what a command line can
//! name: standard input, missing paths, endless files (`/dev/zero`), odd
//! directory entries (dangling links, link loops, pipes), random bytes. Each
//! run is bounded in time and in memory: a command that read before
//! limiting would be killed, and the test would fail.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{spawn_piped, stderr as err, stdout as out, tengen};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Address space allowed to a bounded run, in KiB: far more than the 64 MiB
/// limit of a record needs, far less than reading `/dev/zero` takes.
const MEMORY_KIB: u32 = 1_000_000;

/// Runs `tengen` under a memory limit, feeding `input`, and fails if it
/// does not finish in 60 seconds.
fn bounded(args: &[&str], input: &[u8]) -> Output {
    let mut child = spawn_piped(
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {MEMORY_KIB}; exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_tengen"))
            .args(args),
    );
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("tengen {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-inputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A 5x5 game, Black's walls on column B, White's on D: W+7.5 under
/// Chinese rules (5 + 5 points each, komi 7.5).
const WALLS: &str =
    "(;GM[1]SZ[5]RU[Chinese];B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[])";

#[test]
fn a_dash_is_standard_input() {
    let o = bounded(&["check", "-"], WALLS.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).starts_with("files=1 games=1 moves=12 errors=0"),
        "{}",
        out(&o)
    );

    let o = bounded(&["score", "-"], WALLS.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("W+7.5\n"), "{}", out(&o));

    let o = bounded(&["explain", "-"], WALLS.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("1 B B5"), "{}", out(&o));
}

#[test]
fn a_missing_path_is_named_and_exits_2_for_every_command() {
    let missing = "no/such/record.sgf";
    for command in ["check", "score", "explain"] {
        let o = tengen(&[command, missing]);
        assert_eq!(o.status.code(), Some(2), "{command}");
        let said = format!("{}{}", out(&o), err(&o));
        assert!(
            said.contains(missing) && said.contains("No such file"),
            "{command}: {said}"
        );
    }
    // A record with errors is 1 for every command.
    let dir = temp_dir("status");
    let bad = dir.join("bad.sgf");
    std::fs::write(&bad, "(;GM[1]SZ[5];B[zz])").unwrap();
    for command in ["check", "score", "explain"] {
        let o = tengen(&[command, bad.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{command}: {}{}",
            out(&o),
            err(&o)
        );
    }
    let help = out(&tengen(&["--help"]));
    assert!(help.contains("Exit status: 0"), "{help}");
    for command in ["check", "score", "explain"] {
        let help = out(&tengen(&[command, "--help"]));
        assert!(help.contains("Exit status: 0"), "{command}: {help}");
        assert!(help.contains("standard input"), "{command}: {help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_endless_file_is_refused_at_the_limit() {
    for command in ["score", "explain", "check"] {
        let o = bounded(&[command, "/dev/zero"], b"");
        assert_eq!(o.status.code(), Some(2), "{command}: {}", err(&o));
        let said = format!("{}{}", out(&o), err(&o));
        assert!(
            said.contains("/dev/zero") && said.contains("more than 64 MiB"),
            "{command}: {said}"
        );
    }
    // Standard input too.
    let endless = vec![b' '; (64 << 20) + 10];
    let o = bounded(&["score", "-"], &endless);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("more than 64 MiB"), "{}", err(&o));
}

#[test]
fn loadsgf_of_an_endless_file_fails_and_the_session_goes_on() {
    let o = bounded(
        &["gtp", "--playouts", "100", "--threads", "1"],
        b"1 loadsgf /dev/zero\n2 name\n3 quit\n",
    );
    assert!(o.status.success());
    let text = out(&o);
    assert!(
        text.starts_with("?1 cannot load file\n\n=2 tengen\n\n=3"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn a_walk_reports_each_bad_entry_and_goes_on() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("walk");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("good.sgf"), WALLS).unwrap();
    std::fs::write(dir.join("sub/illegal.sgf"), "(;GM[1]SZ[5];B[aa];W[aa])").unwrap();
    symlink("nowhere.sgf", dir.join("dangling.sgf")).unwrap();
    symlink("..", dir.join("sub/loop")).unwrap();
    symlink("/dev/zero", dir.join("zero.sgf")).unwrap();
    let fifo = dir.join("x.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());

    let o = bounded(&["check", dir.to_str().unwrap()], b"");
    let text = out(&o);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{}", dir.join(name).display())))
            .unwrap_or_else(|| panic!("{name} not reported:\n{text}"))
            .to_string()
    };
    assert!(
        line("dangling.sgf").contains("cannot read: No such file"),
        "{text}"
    );
    assert!(line("sub/loop").contains("a link loop"), "{text}");
    assert!(line("x.sgf").contains("not a regular file"), "{text}");
    assert!(line("zero.sgf").contains("not a regular file"), "{text}");
    assert!(
        line("sub/illegal.sgf").contains("illegal move W[aa]"),
        "{text}"
    );
    assert!(!text.contains("good.sgf"), "{text}");
    assert!(text.contains("games=2 moves=13 errors=5"), "{text}");
    // Entries that cannot be read: the check could not do all it was asked.
    assert_eq!(o.status.code(), Some(2), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `len` bytes from a fixed generator (xorshift), the same on every run.
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn random_bytes_are_not_a_record() {
    let dir = temp_dir("random");
    for seed in 1..=8u64 {
        let path = dir.join(format!("random-{seed}.sgf"));
        std::fs::write(&path, random_bytes(100_000, seed)).unwrap();
        let shown = path.to_str().unwrap();
        let o = tengen(&["check", shown]);
        let text = out(&o);
        assert_eq!(o.status.code(), Some(1), "{text}");
        assert!(text.contains(":0:0: not an SGF file: "), "{text}");
        assert!(text.contains("is not SGF and was skipped"), "{text}");
        assert!(text.contains("games=0 moves=0 errors=1"), "{text}");
        let o = tengen(&["score", shown]);
        assert_eq!(o.status.code(), Some(1), "{}", out(&o));
        assert!(out(&o).is_empty(), "no result: {}", out(&o));
        assert!(err(&o).contains("not an SGF file"), "{}", err(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_after_a_long_preface_is_still_read() {
    let dir = temp_dir("preface");
    let path: &Path = &dir.join("preface.sgf");
    let text = format!(
        "{}\n{WALLS}",
        "This record comes with a long preface. ".repeat(100)
    );
    std::fs::write(path, text).unwrap();
    let o = tengen(&["score", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("W+7.5\n"), "{}", out(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
