//! The exit statuses every command shares, and their words for `--help` and
//! the manual pages.

use std::process::ExitCode;

/// When each status is given, as literals: [`HELP`] is put together from
/// them at compile time and [`STATUSES`] lists them, so that `--help` and
/// the manual pages say the same thing.
macro_rules! when_ok {
    () => {
        "everything was read and nothing is wrong"
    };
}
macro_rules! when_errors_found {
    () => {
        "everything was read and some record has errors (not SGF, a move the rules \
         forbid, a game that cannot be counted)"
    };
}
macro_rules! when_failed {
    () => {
        "the command could not do all it was asked: wrong arguments, a path that \
         cannot be read (missing, unreadable, not a regular file inside a directory, \
         longer than 64 MiB), output that cannot be written"
    };
}

/// What the statuses mean, shown by `tengen --help` and the help of the
/// commands that read records.
pub const HELP: &str = concat!(
    "Exit status: 0 when ",
    when_ok!(),
    "; 1 when ",
    when_errors_found!(),
    "; 2 when ",
    when_failed!(),
    ". `-` names standard input."
);

/// Each status and when it is given, for the manual pages.
pub const STATUSES: [(u8, &str); 3] = [
    (0, when_ok!()),
    (ERRORS_FOUND, when_errors_found!()),
    (FAILED, when_failed!()),
];

/// When a command that reads no record gives status 0.
pub const DONE: &str = "the command did all it was asked";

/// The status of a command that read everything and found errors in a record.
const ERRORS_FOUND: u8 = 1;

/// The status of a command that could not do all it was asked.
const FAILED: u8 = 2;

/// Read, and a record has errors.
pub fn errors_found() -> ExitCode {
    ExitCode::from(ERRORS_FOUND)
}

/// The command could not do all it was asked.
pub fn failed() -> ExitCode {
    ExitCode::from(FAILED)
}
