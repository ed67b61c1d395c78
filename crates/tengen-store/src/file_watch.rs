//! The SQLite file as it was opened, watched. A file removed while the
//! server runs goes on taking writes (SQLite writes to the open file,
//! which no name reaches any more) and everything since is gone at the
//! next start; a file replaced is no longer the one written; a full disk
//! fails every write while reads still answer. So every write first checks
//! that the file at the path is still the one opened (one `stat`, a few
//! microseconds beside a commit), a write that failed for want of room or
//! of the disk itself is remembered until one succeeds, and the health
//! check reports both: a proxy then sends players elsewhere, and nothing
//! is acknowledged that would not be kept.
//!
//! Left out: a file changed in place by another program (the same file,
//! other bytes) is SQLite's to notice.

use crate::error::StoreError;
use rusqlite::ErrorCode;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file's identity: its device and inode (its name alone says
/// nothing once another file takes it).
type Identity = (u64, u64);

/// The database file, and the last write's failure.
#[derive(Debug)]
pub(super) struct FileWatch {
    path: PathBuf,
    opened: Identity,
    /// Why the last write failed, when it failed for the disk's sake.
    fault: Mutex<Option<String>>,
}

impl FileWatch {
    /// Watches the file at `path`, as it is now (just opened).
    ///
    /// # Errors
    /// [`StoreError::Io`] when the file cannot be looked at.
    pub(super) fn of(path: &Path) -> Result<FileWatch, StoreError> {
        Ok(FileWatch {
            path: path.to_path_buf(),
            opened: identity(path)?,
            fault: Mutex::new(None),
        })
    }

    /// Whether the file at the path is still the one opened.
    ///
    /// # Errors
    /// [`StoreError::DatabaseLost`] when it was removed or replaced.
    pub(super) fn check(&self) -> Result<(), StoreError> {
        let lost = |what: &str| StoreError::DatabaseLost {
            path: self.path.display().to_string(),
            what: what.to_string(),
        };
        match identity(&self.path) {
            Ok(now) if now == self.opened => Ok(()),
            Ok(_) => Err(lost("replaced by another file")),
            Err(_) => Err(lost("removed")),
        }
    }

    /// Notes how a write ended: `failure`, SQLite's error if it failed.
    /// A failure of the disk (full, or failing) is remembered; anything
    /// else (a success, a conflict) says the disk took the write.
    pub(super) fn wrote(&self, failure: Option<&rusqlite::Error>) {
        let mut fault = self.fault.lock().unwrap_or_else(|e| e.into_inner());
        *fault = failure.filter(|e| disk_failure(e)).map(ToString::to_string);
    }

    /// Whether writes can be kept: the file is the one opened and the
    /// last write did not fail for the disk's sake.
    ///
    /// # Errors
    /// [`StoreError::DatabaseLost`]; [`StoreError::DiskFailing`] with what
    /// the last write was told.
    pub(super) fn health(&self) -> Result<(), StoreError> {
        self.check()?;
        match &*self.fault.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(why) => Err(StoreError::DiskFailing(why.clone())),
            None => Ok(()),
        }
    }
}

/// A failure that says the disk cannot keep writes.
fn disk_failure(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(
            ErrorCode::DiskFull
                | ErrorCode::SystemIoFailure
                | ErrorCode::ReadOnly
                | ErrorCode::CannotOpen
                | ErrorCode::DatabaseCorrupt
                | ErrorCode::NotADatabase
        )
    )
}

#[cfg(unix)]
fn identity(path: &Path) -> std::io::Result<Identity> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path)?;
    Ok((m.dev(), m.ino()))
}

/// Elsewhere its creation time stands in for an inode.
#[cfg(not(unix))]
fn identity(path: &Path) -> std::io::Result<Identity> {
    let m = std::fs::metadata(path)?;
    let created = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    Ok((created, 0))
}
