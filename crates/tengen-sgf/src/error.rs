//! Positions, warnings and errors.
//!
//! Every problem names where it is (byte offset, line and column) and, where
//! there is one, the property involved, so that a user can find and fix the
//! file. Lenient parsing reports the same problems as [`Warning`]s that strict
//! parsing reports as [`ParseError`]s.

use std::fmt;

/// A byte range `start..end`.
///
/// Offsets are into the *decoded* text (UTF-8, after charset conversion and
/// without a byte order mark), which [`Parsed::source`](crate::Parsed::source)
/// holds, so that spans can be shown next to the text a user sees. Nodes and
/// values built in code rather than parsed have the empty span `0..0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// A position in a text, for messages: byte offset, 1-based line and column.
///
/// Columns count characters (Unicode scalar values) from the start of the
/// line; lines end at LF, CRLF or a lone CR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// Byte offset from the start of the text.
    pub offset: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte {} (line {}, column {})",
            self.offset, self.line, self.column
        )
    }
}

/// The line and column of byte `offset` in `text` (1-based; the column in
/// characters). An offset past the end is clamped to the end; one inside a
/// character counts that character.
pub fn line_column(text: &str, offset: usize) -> Location {
    let mut cursor = LineCursor::default();
    cursor.locate(text.as_bytes(), offset)
}

/// Incremental line/column lookup: warnings come mostly in increasing order,
/// so each lookup scans only from the previous one.
#[derive(Debug, Default, Clone)]
pub(crate) struct LineCursor {
    offset: usize,
    line: usize,
    line_start: usize,
}

impl LineCursor {
    /// `bytes` may be UTF-8 text (columns in characters) or raw bytes of an
    /// unknown charset (columns then count bytes that do not look like UTF-8
    /// continuation bytes, which is exact for ASCII and UTF-8).
    pub(crate) fn locate(&mut self, bytes: &[u8], offset: usize) -> Location {
        let offset = offset.min(bytes.len());
        if offset < self.offset || self.line == 0 {
            *self = LineCursor {
                offset: 0,
                line: 1,
                line_start: 0,
            };
        }
        let between = bytes.get(self.offset..offset).unwrap_or_default();
        if between.contains(&b'\r') {
            let mut i = self.offset;
            while i < offset {
                match bytes.get(i) {
                    Some(b'\n') => {
                        self.line += 1;
                        self.line_start = i + 1;
                    }
                    Some(b'\r') if bytes.get(i + 1) != Some(&b'\n') => {
                        self.line += 1;
                        self.line_start = i + 1;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if let Some(last) = between.iter().rposition(|&c| c == b'\n') {
            // Line feeds only (the usual case): counted without a branch
            // per byte.
            self.line += between.iter().filter(|&&c| c == b'\n').count();
            self.line_start = self.offset + last + 1;
        }
        self.offset = offset;
        let column = bytes
            .get(self.line_start..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count()
            + 1;
        Location {
            offset,
            line: self.line,
            column,
        }
    }
}

/// One kind of deviation from FF\[4\] (or charset trouble), with the property
/// involved where there is one.
///
/// Strict parsing turns the syntax issues into [`ParseError::Syntax`];
/// lenient parsing repairs them as [`Issue::recovery`] says and reports a
/// [`Warning`]. The charset notes ([`Issue::CharsetGuessed`],
/// [`Issue::CharsetOverridden`], [`Issue::CharsetMismatch`]) are warnings in
/// both modes, since a file without `CA` is legal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Issue {
    /// Nothing but whitespace (or nothing at all).
    EmptyInput,
    /// Text before the first game tree, between trees or after the last.
    JunkOutsideTree {
        /// Bytes skipped, whitespace excluded at both ends.
        bytes: usize,
    },
    /// A `)` with no open game tree.
    UnmatchedClose,
    /// The file starts with `;` instead of `(` (some Fox files).
    MissingOpenParen,
    /// The input ends inside game trees.
    Unclosed {
        /// How many trees and variations were open.
        open: usize,
    },
    /// A value with no closing `]` before the end of the input.
    UnterminatedValue {
        /// The property the value belongs to.
        property: String,
    },
    /// An identifier with lower-case letters (FF\[1\]-FF\[3\] style, `CoPyright`).
    LowercaseIdent {
        /// The identifier as written.
        found: String,
        /// The identifier read: its upper-case letters.
        ident: String,
    },
    /// An identifier with no upper-case letter at all.
    NoUppercaseIdent {
        /// The identifier as written.
        found: String,
    },
    /// The same property twice in one node (Fox `AP`, EasyGo `AB`).
    DuplicateProperty {
        /// The identifier.
        property: String,
    },
    /// Letters not followed by a value.
    MissingValue {
        /// The letters.
        property: String,
    },
    /// A `]` that should have been escaped (`US[Matsuyama[3d]]`).
    UnescapedBracket {
        /// The property whose value it belongs to.
        property: String,
    },
    /// A character that cannot appear where it is.
    UnexpectedChar {
        /// The first such character.
        found: char,
        /// The property just before it, if any.
        property: Option<String>,
    },
    /// A value `[...]` with no identifier before it.
    ValueWithoutProperty,
    /// A property before the first `;` of a game tree or variation.
    PropertyOutsideNode {
        /// The identifier.
        property: String,
    },
    /// `()`: a game tree or variation without a node.
    EmptyGameTree,
    /// A node after the variations of a sequence: `(;a(;b)(;c);d)`.
    NodeAfterVariation,
    /// A game tree with two root nodes: `((;a)(;b))`.
    SeveralRoots,
    /// A game tree that opens a variation before its first node: `((;a))`.
    VariationAtRoot,
    /// A `CA` charset that is not known (or not usable).
    UnknownCharset {
        /// The label as written.
        label: String,
    },
    /// No usable `CA` and the bytes are not UTF-8: the charset was guessed.
    CharsetGuessed {
        /// The charset used.
        charset: &'static str,
    },
    /// `CA` names one charset but the bytes were read as another.
    CharsetOverridden {
        /// The label in `CA`.
        declared: String,
        /// The charset used.
        charset: &'static str,
    },
    /// Byte sequences not valid in the charset used, replaced by U+FFFD.
    Replaced {
        /// How many sequences.
        count: usize,
        /// The charset used.
        charset: &'static str,
    },
    /// A later game tree declares another charset than the one the file was
    /// read with: only where a byte order mark or UTF-16 bytes fix one
    /// charset for the file; other collections are read game by game, each
    /// in the charset its own `CA` names.
    CharsetMismatch {
        /// The label in that tree's `CA`.
        declared: String,
        /// The charset used for the file.
        charset: &'static str,
    },
    /// More warnings than [`MAX_WARNINGS`](crate::MAX_WARNINGS); the rest
    /// were counted, not kept.
    TooManyWarnings {
        /// How many were left out.
        suppressed: usize,
    },
}

fn prop_suffix(property: &Option<String>) -> String {
    match property {
        Some(p) => format!(" after property {p}"),
        None => String::new(),
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Issue::EmptyInput => write!(f, "empty input"),
            Issue::JunkOutsideTree { bytes } => {
                write!(f, "{bytes} bytes of text outside any game tree")
            }
            Issue::UnmatchedClose => write!(f, "unmatched ')'"),
            Issue::MissingOpenParen => write!(f, "game tree starts with ';' instead of '('"),
            Issue::Unclosed { open } => {
                write!(f, "end of input inside {open} unclosed game tree(s)")
            }
            Issue::UnterminatedValue { property } => {
                write!(f, "unterminated value of property {property}")
            }
            Issue::LowercaseIdent { found, ident } => write!(
                f,
                "lower-case letters in property identifier {found} (read as {ident})"
            ),
            Issue::NoUppercaseIdent { found } => {
                write!(f, "property identifier {found} has no upper-case letter")
            }
            Issue::DuplicateProperty { property } => {
                write!(f, "property {property} appears twice in one node")
            }
            Issue::MissingValue { property } => write!(f, "property {property} has no value"),
            Issue::UnescapedBracket { property } => {
                write!(f, "unescaped ']' in value of property {property}")
            }
            Issue::UnexpectedChar { found, property } => {
                write!(f, "unexpected character {found:?}{}", prop_suffix(property))
            }
            Issue::ValueWithoutProperty => write!(f, "value without a property identifier"),
            Issue::PropertyOutsideNode { property } => {
                write!(f, "property {property} outside a node (missing ';')")
            }
            Issue::EmptyGameTree => write!(f, "empty game tree '()'"),
            Issue::NodeAfterVariation => write!(f, "node after the variations of a sequence"),
            Issue::SeveralRoots => write!(f, "game tree with several root nodes"),
            Issue::VariationAtRoot => {
                write!(f, "game tree opens a variation before its first node")
            }
            Issue::UnknownCharset { label } => write!(f, "unknown charset {label:?} in CA"),
            Issue::CharsetGuessed { charset } => {
                write!(
                    f,
                    "no usable CA and not UTF-8: charset guessed as {charset}"
                )
            }
            Issue::CharsetOverridden { declared, charset } => write!(
                f,
                "CA[{declared}] does not match the bytes: read as {charset}"
            ),
            Issue::Replaced { count, charset } => write!(
                f,
                "{count} byte sequence(s) not valid in {charset} replaced by U+FFFD"
            ),
            Issue::CharsetMismatch { declared, charset } => write!(
                f,
                "game tree declares CA[{declared}] but the file was read as {charset}"
            ),
            Issue::TooManyWarnings { suppressed } => {
                write!(f, "{suppressed} more warning(s) not listed")
            }
        }
    }
}

impl Issue {
    /// What lenient parsing does about it, in words.
    pub fn recovery(&self) -> &'static str {
        match self {
            Issue::EmptyInput => "empty collection",
            Issue::JunkOutsideTree { .. } => "skipped",
            Issue::UnmatchedClose => "skipped",
            Issue::MissingOpenParen => "'(' assumed",
            Issue::Unclosed { .. } => "closed at the end of input",
            Issue::UnterminatedValue { .. } => "value ends at the end of input",
            Issue::LowercaseIdent { .. } => "lower-case letters dropped",
            Issue::NoUppercaseIdent { .. } => "property dropped",
            Issue::DuplicateProperty { .. } => "values merged into the first",
            Issue::MissingValue { .. } => "letters dropped",
            Issue::UnescapedBracket { .. } => "kept in the value, escaped",
            Issue::UnexpectedChar { .. } => "skipped",
            Issue::ValueWithoutProperty => "value dropped",
            Issue::PropertyOutsideNode { .. } => "node assumed",
            Issue::EmptyGameTree => "dropped",
            Issue::NodeAfterVariation => "read as one more variation",
            Issue::SeveralRoots => "split into separate game trees",
            Issue::VariationAtRoot => "variation read as the game tree",
            Issue::UnknownCharset { .. } => "charset detected from the bytes",
            Issue::CharsetGuessed { .. }
            | Issue::CharsetOverridden { .. }
            | Issue::Replaced { .. }
            | Issue::CharsetMismatch { .. }
            | Issue::TooManyWarnings { .. } => "",
        }
    }

    /// A short identifier of the kind of issue, stable across versions
    /// and wordings, for tools that sort problems (as SGFC numbers its
    /// messages): `sgf.*` for the syntax, `charset.*` for decoding.
    pub fn code(&self) -> &'static str {
        match self {
            Issue::EmptyInput => "sgf.empty",
            Issue::JunkOutsideTree { .. } => "sgf.junk-outside-tree",
            Issue::UnmatchedClose => "sgf.unmatched-close",
            Issue::MissingOpenParen => "sgf.missing-open-paren",
            Issue::Unclosed { .. } => "sgf.unclosed",
            Issue::UnterminatedValue { .. } => "sgf.unterminated-value",
            Issue::LowercaseIdent { .. } => "sgf.lowercase-ident",
            Issue::NoUppercaseIdent { .. } => "sgf.no-uppercase-ident",
            Issue::DuplicateProperty { .. } => "sgf.duplicate-property",
            Issue::MissingValue { .. } => "sgf.missing-value",
            Issue::UnescapedBracket { .. } => "sgf.unescaped-bracket",
            Issue::UnexpectedChar { .. } => "sgf.unexpected-char",
            Issue::ValueWithoutProperty => "sgf.value-without-property",
            Issue::PropertyOutsideNode { .. } => "sgf.property-outside-node",
            Issue::EmptyGameTree => "sgf.empty-game-tree",
            Issue::NodeAfterVariation => "sgf.node-after-variation",
            Issue::SeveralRoots => "sgf.several-roots",
            Issue::VariationAtRoot => "sgf.variation-at-root",
            Issue::UnknownCharset { .. } => "charset.unknown",
            Issue::CharsetGuessed { .. } => "charset.guessed",
            Issue::CharsetOverridden { .. } => "charset.overridden",
            Issue::Replaced { .. } => "charset.replaced",
            Issue::CharsetMismatch { .. } => "charset.mismatch",
            Issue::TooManyWarnings { .. } => "sgf.too-many-warnings",
        }
    }

    /// The property this issue is about, if any.
    pub fn property(&self) -> Option<&str> {
        match self {
            Issue::UnterminatedValue { property }
            | Issue::DuplicateProperty { property }
            | Issue::MissingValue { property }
            | Issue::UnescapedBracket { property }
            | Issue::PropertyOutsideNode { property } => Some(property),
            Issue::LowercaseIdent { ident, .. } => Some(ident),
            Issue::NoUppercaseIdent { found } => Some(found),
            Issue::UnexpectedChar { property, .. } => property.as_deref(),
            Issue::UnknownCharset { .. }
            | Issue::CharsetOverridden { .. }
            | Issue::CharsetMismatch { .. } => Some("CA"),
            _ => None,
        }
    }
}

/// A problem lenient parsing repaired, or a note about the charset.
///
/// `message` is the issue and what was done about it, e.g.
/// `property AP appears twice in one node; values merged into the first`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Where, in the decoded text.
    pub span: Span,
    /// The issue and what was done, in words.
    pub message: String,
    /// The issue, typed.
    pub issue: Issue,
    /// Line of `span.start`, from 1.
    pub line: usize,
    /// Column of `span.start` in characters, from 1.
    pub column: usize,
}

impl Warning {
    pub(crate) fn new(span: Span, issue: Issue, at: Location) -> Warning {
        let recovery = issue.recovery();
        let message = if recovery.is_empty() {
            issue.to_string()
        } else {
            format!("{issue}; {recovery}")
        };
        Warning {
            span,
            message,
            issue,
            line: at.line,
            column: at.column,
        }
    }

    /// Where the warning starts.
    pub fn location(&self) -> Location {
        Location {
            offset: self.span.start,
            line: self.line,
            column: self.column,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

/// Why a file could not be read.
///
/// Messages are lower-case and start with the position, e.g.
/// `byte 1234 (line 5, column 17): unterminated value of property C`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The input is longer than [`ParseOptions::max_bytes`](crate::ParseOptions::max_bytes).
    #[error("input of {size} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// Bytes given (or decoded, when decoding made them more than 4 GiB).
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// More nodes than [`ParseOptions::max_nodes`](crate::ParseOptions::max_nodes).
    #[error("{at}: more than {limit} nodes")]
    TooManyNodes {
        /// Where the node over the limit starts.
        at: Location,
        /// The limit.
        limit: usize,
    },
    /// Strict mode: nothing but whitespace.
    #[error("empty input: no game tree")]
    Empty,
    /// Text with no game tree in it at all (both modes).
    #[error("{at}: no game tree found (no '(')")]
    NoGameTree {
        /// Where the text starts.
        at: Location,
    },
    /// Strict mode: bytes that are not valid in the charset used. The
    /// location is in the raw input bytes (line and column count bytes).
    #[error("{at}: bytes not valid in charset {charset}")]
    InvalidBytes {
        /// The first invalid byte, in the input bytes.
        at: Location,
        /// The charset used.
        charset: &'static str,
    },
    /// Strict mode: a deviation from FF\[4\] that lenient mode would repair.
    #[error("{at}: {issue}")]
    Syntax {
        /// Where it starts.
        at: Location,
        /// What it covers.
        span: Span,
        /// What is wrong.
        issue: Issue,
    },
}

impl ParseError {
    /// Where the problem is, if it has a position.
    pub fn location(&self) -> Option<Location> {
        match self {
            ParseError::TooManyNodes { at, .. }
            | ParseError::NoGameTree { at }
            | ParseError::InvalidBytes { at, .. }
            | ParseError::Syntax { at, .. } => Some(*at),
            ParseError::TooLarge { .. } | ParseError::Empty => None,
        }
    }

    /// The property involved, if any.
    pub fn property(&self) -> Option<&str> {
        match self {
            ParseError::Syntax { issue, .. } => issue.property(),
            _ => None,
        }
    }

    /// A short stable identifier of the kind of error: the issue's
    /// [`Issue::code`] for syntax errors.
    pub fn code(&self) -> &'static str {
        match self {
            ParseError::TooLarge { .. } => "sgf.too-large",
            ParseError::TooManyNodes { .. } => "sgf.too-many-nodes",
            ParseError::Empty => "sgf.empty",
            ParseError::NoGameTree { .. } => "sgf.no-game-tree",
            ParseError::InvalidBytes { .. } => "charset.invalid-bytes",
            ParseError::Syntax { issue, .. } => issue.code(),
        }
    }

    /// The issue, for syntax errors.
    pub fn issue(&self) -> Option<&Issue> {
        match self {
            ParseError::Syntax { issue, .. } => Some(issue),
            _ => None,
        }
    }
}

/// Why a node, property or value could not be built in code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Identifiers are one or more upper-case ASCII letters.
    #[error("invalid property identifier {0:?}: use upper-case letters A-Z")]
    InvalidIdent(String),
    /// A raw value must not contain an unescaped `]` nor end in a lone `\`.
    #[error("invalid raw value {0:?}: unescaped ']' or trailing '\\'")]
    InvalidRaw(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let t = "ab\ncd\r\nef\rgh é";
        assert_eq!(
            line_column(t, 0),
            Location {
                offset: 0,
                line: 1,
                column: 1
            }
        );
        assert_eq!(line_column(t, 4).line, 2);
        assert_eq!(line_column(t, 4).column, 2);
        assert_eq!(line_column(t, 8).line, 3);
        assert_eq!(line_column(t, 11).line, 4);
        assert_eq!(line_column(t, 10).column, 1);
        assert_eq!(line_column(t, t.len()).column, 5);
        let mut c = LineCursor::default();
        assert_eq!(c.locate(t.as_bytes(), 8).line, 3);
        assert_eq!(c.locate(t.as_bytes(), 1).line, 1);
        assert_eq!(c.locate(t.as_bytes(), 100).offset, t.len());
    }

    #[test]
    fn messages() {
        let at = Location {
            offset: 1234,
            line: 5,
            column: 17,
        };
        let e = ParseError::Syntax {
            at,
            span: Span::new(1234, 1240),
            issue: Issue::UnterminatedValue {
                property: "C".into(),
            },
        };
        assert_eq!(
            e.to_string(),
            "byte 1234 (line 5, column 17): unterminated value of property C"
        );
        assert_eq!(e.property(), Some("C"));
        assert_eq!(e.code(), "sgf.unterminated-value");
        let w = Warning::new(
            Span::new(3, 5),
            Issue::DuplicateProperty {
                property: "AP".into(),
            },
            Location {
                offset: 3,
                line: 1,
                column: 4,
            },
        );
        assert_eq!(
            w.to_string(),
            "byte 3 (line 1, column 4): property AP appears twice in one node; values merged into the first"
        );
    }
}
