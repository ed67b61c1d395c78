//! GTP (Go Text Protocol) version 2 text for tengen.
//!
//! This is the only crate that knows GTP text: how a command line is read
//! (control characters, comments, ids, exactly as the reference
//! implementation, GNU Go, reads it), every command the engine answers and
//! its arguments as a typed [`Request`], how responses are framed, the
//! standard error strings, the analysis lines GUIs parse (Leela Zero and
//! KataGo formats), and a [`Client`] that drives another engine's process
//! for `tengen match`. It knows no search and no session: what a request
//! does is `tengen-engine`'s.
//!
//! ```
//! use tengen_core::{BoardSize, Color};
//! use tengen_gtp::{Command, GtpError, Request, Response};
//!
//! let cmd = Command::parse("7 play\tblack D4 # a comment\r").unwrap();
//! assert_eq!(cmd.id, Some(7));
//! assert_eq!(cmd.name, "play");
//! assert_eq!(cmd.args, ["black", "D4"]);
//! let request = Request::read(&cmd, BoardSize::STANDARD).unwrap();
//! assert!(matches!(request, Request::Play(Color::Black, _)));
//! assert_eq!(Response::success(cmd.id, "").to_string(), "=7 \n\n");
//! let off_board = Command::parse("play b T20").unwrap();
//! let error = Request::read(&off_board, BoardSize::STANDARD).unwrap_err();
//! assert_eq!(error, GtpError::InvalidCoordinate);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod args;
pub mod client;
pub mod clock;
pub mod command;
pub mod json_analysis;
pub mod line;
pub mod request;
pub mod response;
pub mod rules;

pub use analysis::{
    AnalysisFormat, AnalyzeOptions, AnalyzeRequest, Clause, ClauseKind, InfoMove, Report, RootInfo,
};
pub use client::{Client, ClientError, EngineStderr, split_command_line};
pub use command::{Command, preprocess};
pub use line::{Line, MAX_LINE_BYTES, read_line};
pub use request::{LoadUntil, Request, StoneStatus};
pub use response::{GtpError, Response};
