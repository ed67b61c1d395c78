//! GTP (Go Text Protocol) version 2 text for tengen.
//!
//! This is the only crate that knows GTP text: how a command line is read
//! (control characters, comments, ids, exactly as the reference
//! implementation, GNU Go, reads it), how responses are framed, the standard
//! error strings, colours and vertices as arguments, the analysis lines GUIs
//! parse (Leela Zero and KataGo formats), and a [`Client`] that drives
//! another engine's process for `tengen match`.
//!
//! ```
//! use tengen_gtp::{Command, Response};
//!
//! let cmd = Command::parse("7 play\tblack D4 # a comment\r").unwrap();
//! assert_eq!(cmd.id, Some(7));
//! assert_eq!(cmd.name, "play");
//! assert_eq!(cmd.args, ["black", "D4"]);
//! assert_eq!(Response::success(cmd.id, "").to_string(), "=7 \n\n");
//! ```

// No panics on input paths: library code returns errors (tests may unwrap).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod analysis;
pub mod args;
pub mod client;
pub mod command;
pub mod response;

pub use analysis::{AnalysisFormat, InfoMove};
pub use client::{Client, ClientError, EngineStderr, split_command_line};
pub use command::{Command, preprocess};
pub use response::{GtpError, Response};
