//! The records a command line names: `-` is standard input, everything is
//! read through tengen-sgf's bounded reader (at most
//! [`tengen_sgf::MAX_FILE_BYTES`]), and a record whose text is mostly not
//! SGF is refused rather than replayed.

use std::path::Path;
use tengen_sgf::record::{self, LoadError, Loaded, ReplayOptions, Source};
use tengen_sgf::{MAX_FILE_BYTES, ParseOptions};

/// The name of standard input on the command line.
pub const STDIN: &str = "-";

/// Whether `path` names standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// The bytes of `path` (standard input for `-`), at most
/// [`MAX_FILE_BYTES`].
///
/// # Errors
/// The file cannot be opened or read, or it is longer than the limit.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    if is_stdin(path) {
        tengen_sgf::read_bounded(std::io::stdin().lock(), MAX_FILE_BYTES)
    } else {
        tengen_sgf::read_file(path, MAX_FILE_BYTES)
    }
}

/// Why a single record could not be used, and the exit status it earns.
#[derive(Debug)]
pub enum Refused {
    /// The path could not be read: the command could not do its work.
    Unread(String),
    /// The text is not a usable record.
    Bad(String),
}

impl Refused {
    /// Says what went wrong on standard error and gives the exit status it
    /// earns: could not read (2), or read a record with errors (1).
    pub fn report(self) -> std::process::ExitCode {
        match self {
            Refused::Unread(message) => {
                eprintln!("tengen: {message}");
                super::exit::failed()
            }
            Refused::Bad(message) => {
                eprintln!("{message}");
                super::exit::errors_found()
            }
        }
    }

    /// What went wrong, naming the path, whatever the exit status.
    pub fn into_message(self) -> String {
        match self {
            Refused::Unread(message) | Refused::Bad(message) => message,
        }
    }
}

/// A record's first game, its main line replayed, from `path` (or
/// standard input): what `score` and `explain` start from.
///
/// # Errors
/// [`Refused`], its message naming the path.
pub fn load(path: &Path, parse: &ParseOptions, replay: &ReplayOptions) -> Result<Loaded, Refused> {
    let shown = path.display();
    let bytes = read(path).map_err(|e| Refused::Unread(format!("{shown}: cannot read: {e}")))?;
    let loaded = record::load_main_line(Source::Bytes(&bytes), parse, replay).map_err(|e| {
        Refused::Bad(match e {
            LoadError::Parse(e) => format!("{shown}: not a readable SGF file: {e}"),
            e => format!("{shown}: {e}"),
        })
    })?;
    if let Some(why) = loaded.not_sgf {
        return Err(Refused::Bad(format!("{shown}: {why}")));
    }
    Ok(loaded)
}
