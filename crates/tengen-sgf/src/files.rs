//! Finding SGF files under paths and reading one file with a bound: what
//! every command, session and test that reads records from disk starts
//! from.
//!
//! Reading is bounded before anything is kept: a file is read through
//! [`Read::take`] and refused past the limit ([`MAX_FILE_BYTES`] unless the
//! caller asks less), so `/dev/zero`, a named pipe that never ends or a
//! huge file costs at most the limit in memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest record file read: 64 MiB, the default
/// [`ParseOptions::max_bytes`](crate::ParseOptions::max_bytes). The largest
/// real collections (GoGoD's yearly files, Fox dumps) are a few MiB.
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// Reads everything `reader` gives, up to `limit` bytes. One byte more is
/// an error of kind [`io::ErrorKind::FileTooLarge`] saying the limit; the
/// rest is never read.
///
/// # Errors
/// The reader's error, or the limit passed.
pub fn read_bounded(reader: impl Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "more than {} (the limit of a record): not read",
                size_text(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// Reads the file at `path` through [`read_bounded`].
///
/// # Errors
/// The file cannot be opened or read, or it is longer than `limit`.
pub fn read_file(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    read_bounded(File::open(path)?, limit)
}

fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// What a walk found: the files to read and the entries it could not use.
#[derive(Debug, Default)]
pub struct Walk {
    /// `.sgf` files (any case) under the directories, and every path named
    /// that is not a directory; sorted.
    pub files: Vec<PathBuf>,
    /// Entries that could not be used, with why: a path named that does not
    /// exist, a dangling link, a link loop, an unreadable directory, an
    /// `.sgf` entry that is not a regular file (a FIFO, a device). Sorted.
    pub problems: Vec<(PathBuf, String)>,
}

/// Walks `paths` (directories recursively, links followed, loops detected
/// by walkdir) and keeps going past every entry it cannot use. Under a
/// directory only regular files are kept, so that a FIFO or a link to a
/// device named `x.sgf` is reported rather than read; a path named
/// explicitly is kept whatever it is (a pipe from the shell), since its
/// reading is bounded anyway.
pub fn walk_sgf_files(paths: &[PathBuf]) -> Walk {
    let mut walk = Walk::default();
    for path in paths {
        match std::fs::metadata(path) {
            Err(e) => walk.problems.push((path.clone(), e.to_string())),
            Ok(meta) if !meta.is_dir() => walk.files.push(path.clone()),
            Ok(_) => walk_dir(path, &mut walk),
        }
    }
    walk.files.sort();
    walk.files.dedup();
    walk.problems.sort();
    walk
}

fn walk_dir(dir: &Path, walk: &mut Walk) {
    for entry in walkdir::WalkDir::new(dir).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let path = e.path().unwrap_or(dir).to_path_buf();
                let why = match (e.loop_ancestor(), e.io_error()) {
                    (Some(ancestor), _) => {
                        format!("a link loop back to {}", ancestor.display())
                    }
                    (None, Some(io)) => io.to_string(),
                    (None, None) => e.to_string(),
                };
                walk.problems.push((path, why));
                continue;
            }
        };
        if entry.file_type().is_dir() || !is_sgf(entry.path()) {
            continue;
        }
        if entry.file_type().is_file() {
            walk.files.push(entry.into_path());
        } else {
            walk.problems.push((
                entry.into_path(),
                "not a regular file (a pipe, a device or a socket): not read".into(),
            ));
        }
    }
}

/// Every `.sgf` file (any case) under `paths`, as [`walk_sgf_files`] finds
/// them, for readers that cannot go on past a bad entry.
///
/// # Errors
/// The first entry the walk could not use, its path in the message.
pub fn sgf_files(paths: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let walk = walk_sgf_files(paths);
    match walk.problems.into_iter().next() {
        Some((path, why)) => Err(io::Error::other(format!("{}: {why}", path.display()))),
        None => Ok(walk.files),
    }
}

fn is_sgf(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}
