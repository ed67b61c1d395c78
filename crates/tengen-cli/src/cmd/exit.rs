//! The exit statuses every command shares, and their words for `--help`.

use std::process::ExitCode;

/// What the statuses mean, shown by `tengen --help` and the help of the
/// commands that read records.
pub const HELP: &str = "Exit status: 0 when everything was read and nothing is wrong; \
1 when everything was read and some record has errors (not SGF, a move the rules forbid, \
a game that cannot be counted); 2 when the command could not do all it was asked: \
wrong arguments, a path that cannot be read (missing, unreadable, not a regular file \
inside a directory, longer than 64 MiB), output that cannot be written. \
`-` names standard input.";

/// Read, and a record has errors.
pub fn errors_found() -> ExitCode {
    ExitCode::from(1)
}

/// The command could not do all it was asked.
pub fn failed() -> ExitCode {
    ExitCode::from(2)
}
