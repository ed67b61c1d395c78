//! The logs of the commands that run for long (`serve`, `gtp`): tracing on
//! standard error, in colour only on a terminal, so that a file, a pipe or
//! the journal gets plain text.

use std::io::IsTerminal;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::fmt::SubscriberBuilder;
use tracing_subscriber::fmt::format::{DefaultFields, Format};

/// The logger both commands start from: standard error, in colour when it
/// is a terminal and `NO_COLOR` is unset or empty.
pub fn to_stderr() -> SubscriberBuilder<DefaultFields, Format, LevelFilter, fn() -> std::io::Stderr>
{
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr as fn() -> std::io::Stderr)
        .with_ansi(colour())
}

/// Whether the logs may carry colour codes.
fn colour() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}
