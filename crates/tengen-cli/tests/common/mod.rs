//! What the command-line tests share: running the built binary, reading its
//! output, finding the shared game records.
#![allow(dead_code)] // each test file uses its own part

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// Runs `tengen` with these arguments and waits for it.
pub fn tengen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .expect("the tengen binary runs")
}

/// Starts `command` with its standard streams piped, for a test that talks
/// to it while it runs.
pub fn spawn_piped(command: &mut Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The shared game records beside the repository; the tests need them.
pub fn data() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        root.is_dir(),
        "the shared data is missing: {}",
        root.display()
    );
    root
}
