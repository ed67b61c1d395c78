//! Responses as the reference frames them: `=id text` or `?id text`, ended
//! by an empty line, and the standard error strings.

use std::fmt;

/// A failure, said with the standard GTP strings where one exists.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GtpError {
    /// The command is not known.
    #[error("unknown command")]
    UnknownCommand,
    /// Missing or malformed arguments.
    #[error("syntax error")]
    Syntax,
    /// A colour that is not `b`, `black`, `w` or `white`.
    #[error("invalid color")]
    InvalidColor,
    /// A vertex that does not read or lies off the board.
    #[error("invalid coordinate")]
    InvalidCoordinate,
    /// A play the rules forbid (occupied, suicide, ko, superko, after the end).
    #[error("illegal move")]
    IllegalMove,
    /// Nothing to take back.
    #[error("cannot undo")]
    CannotUndo,
    /// A board size outside 1 to 25.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// Handicap asked for on a board with stones.
    #[error("board not empty")]
    BoardNotEmpty,
    /// A handicap count the board does not take.
    #[error("invalid number of stones")]
    InvalidStoneCount,
    /// A free handicap list with a repeat, a pass, or the wrong length.
    #[error("bad vertex list")]
    BadVertexList,
    /// `loadsgf` could not read or replay the file.
    #[error("cannot load file")]
    CannotLoadFile,
    /// An input line longer than [`crate::MAX_LINE_BYTES`]; the rest of it
    /// was skipped.
    #[error("line too long")]
    LineTooLong,
    /// Any other failure, in words (lowercase, one line).
    #[error("{0}")]
    Other(String),
}

/// A response to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The id of the command answered.
    pub id: Option<u32>,
    /// The text of a success, or the failure.
    pub result: Result<String, GtpError>,
}

impl Response {
    /// A success with this text (one or more lines).
    pub fn success(id: Option<u32>, text: impl Into<String>) -> Response {
        Response {
            id,
            result: Ok(text.into()),
        }
    }

    /// A failure.
    pub fn failure(id: Option<u32>, error: GtpError) -> Response {
        Response {
            id,
            result: Err(error),
        }
    }
}

/// The first line of a streamed response (`lz-analyze`, `kata-analyze`):
/// `=id` and a newline, then the stream's lines, then [`STREAM_END`].
pub fn stream_start(id: Option<u32>) -> String {
    match id {
        Some(id) => format!("={id}\n"),
        None => "=\n".to_string(),
    }
}

/// What ends a streamed response: the empty line.
pub const STREAM_END: &str = "\n";

impl fmt::Display for Response {
    /// The wire form: status, id, one space, the text, an empty line. The
    /// first line may be empty (a board diagram starts on the next line, as
    /// GNU Go's `showboard` does); later empty lines would end the response
    /// early, so they are dropped, as are trailing newlines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (status, text) = match &self.result {
            Ok(text) => ('=', text.clone()),
            Err(e) => ('?', e.to_string()),
        };
        match self.id {
            Some(id) => write!(f, "{status}{id} ")?,
            None => write!(f, "{status} ")?,
        }
        let mut lines = text.split('\n');
        f.write_str(lines.next().unwrap_or("").trim_end())?;
        for line in lines.filter(|l| !l.trim().is_empty()) {
            write!(f, "\n{}", line.trim_end())?;
        }
        f.write_str("\n\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_follows_the_reference() {
        assert_eq!(Response::success(None, "2").to_string(), "= 2\n\n");
        assert_eq!(Response::success(Some(5), "").to_string(), "=5 \n\n");
        assert_eq!(
            Response::failure(Some(5), GtpError::IllegalMove).to_string(),
            "?5 illegal move\n\n"
        );
        assert_eq!(
            Response::failure(None, GtpError::UnknownCommand).to_string(),
            "? unknown command\n\n"
        );
    }

    #[test]
    fn multi_line_texts_hold_no_empty_line() {
        let r = Response::success(Some(1), "a\n\nb\n  \nc\n");
        assert_eq!(r.to_string(), "=1 a\nb\nc\n\n");
        let r = Response::success(None, "\n. X\n\nO .\n");
        assert_eq!(r.to_string(), "= \n. X\nO .\n\n");
    }

    #[test]
    fn standard_error_strings() {
        let all = [
            (GtpError::UnknownCommand, "unknown command"),
            (GtpError::Syntax, "syntax error"),
            (GtpError::InvalidColor, "invalid color"),
            (GtpError::InvalidCoordinate, "invalid coordinate"),
            (GtpError::IllegalMove, "illegal move"),
            (GtpError::CannotUndo, "cannot undo"),
            (GtpError::UnacceptableSize, "unacceptable size"),
            (GtpError::BoardNotEmpty, "board not empty"),
            (GtpError::InvalidStoneCount, "invalid number of stones"),
            (GtpError::BadVertexList, "bad vertex list"),
            (GtpError::CannotLoadFile, "cannot load file"),
        ];
        for (e, text) in all {
            assert_eq!(e.to_string(), text);
        }
        assert_eq!(stream_start(Some(3)), "=3\n");
        assert_eq!(stream_start(None), "=\n");
    }
}
