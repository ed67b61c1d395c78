//! SQLite's readers: a few read-only connections beside the writer's. In
//! write-ahead-log mode readers never wait for the writer, nor it for
//! them; on the writer's own connection a read waited behind a whole group
//! commit, and a slow read held up the next one.

use crate::error::StoreError;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Connections for reading, taken in turn.
#[derive(Debug)]
pub(crate) struct Readers {
    connections: Vec<Mutex<Connection>>,
    next: AtomicUsize,
}

impl Readers {
    /// `n` read-only connections to the database at `path`, already in
    /// write-ahead-log mode.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the file cannot be opened.
    pub(crate) fn open(path: &Path, n: usize) -> Result<Readers, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connections = (0..n.max(1))
            .map(|_| {
                let conn = Connection::open_with_flags(path, flags)?;
                conn.busy_timeout(Duration::from_secs(5))?;
                Ok(Mutex::new(conn))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Readers {
            connections,
            next: AtomicUsize::new(0),
        })
    }

    /// A free connection, or, when every one is busy, the next in turn.
    pub(crate) fn get(&self) -> MutexGuard<'_, Connection> {
        let n = self.connections.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..n {
            if let Ok(conn) = self.connections[(start + i) % n].try_lock() {
                return conn;
            }
        }
        // A panic while reading leaves nothing half done.
        self.connections[start % n]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}
