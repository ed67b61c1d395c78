//! Checkpoints of the SQLite write-ahead log, off the writer's path.
//!
//! By default SQLite copies the log back into the database file (and
//! syncs both to disk) inside the commit that makes the log pass 1,000
//! pages. Under a steady stream of moves that is a commit every half
//! second or so taking 10 to 30 ms instead of well under one, and every
//! move acknowledged in that group commit, and the next, waits for it
//! (the load bench without its hostile client, 99th percentile of three
//! runs each beside other builds: 5.3 to 6.8 ms with it, 0.9 to 1.5 ms
//! without). So a thread of its own, at lowered priority like other background
//! work, makes a passive checkpoint (one that never waits for, nor
//! blocks, the writer or the readers) a few times a second, on its own
//! connection; the writer's automatic checkpoint stays as a backstop at
//! a much larger log, should that thread fall far behind.

use crate::error::StoreError;
use rusqlite::Connection;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the log is checkpointed.
const EVERY: Duration = Duration::from_millis(250);

/// Log pages past which the writer checkpoints itself (about 40 MB): only
/// if the checkpoint thread cannot keep up.
pub(super) const WRITER_BACKSTOP_PAGES: u32 = 10_000;

/// The checkpoint thread of one database; it ends when this is dropped.
#[derive(Debug)]
pub(super) struct Checkpoints {
    _stop: mpsc::Sender<()>,
}

impl Checkpoints {
    /// Starts checkpointing the database at `path` (already in WAL mode).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the database cannot be opened again;
    /// [`StoreError::Io`] when the thread cannot start.
    pub(super) fn start(path: &Path) -> Result<Checkpoints, StoreError> {
        let conn = Connection::open(path)?;
        let (stop, stopped) = mpsc::channel();
        std::thread::Builder::new()
            .name("tengen-db-ckpt".into())
            .spawn(move || checkpoint(&conn, &stopped))?;
        Ok(Checkpoints { _stop: stop })
    }
}

/// The thread: a passive checkpoint every [`EVERY`] until the store is
/// dropped.
fn checkpoint(conn: &Connection, stopped: &mpsc::Receiver<()>) {
    if let Err(e) = crate::priority::lower_this_thread() {
        tracing::warn!("checkpoints run at normal priority: {e}");
    }
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!("checkpointing the database: {e}");
        }
    }
}
