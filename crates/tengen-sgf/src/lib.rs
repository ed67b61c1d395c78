//! SGF FF\[4\] text: read and write game records, with no Go rules.
//!
//! This crate is the text layer only: it turns the bytes of a `.sgf` file into
//! a [`Collection`] of [`GameTree`]s whose nodes hold properties with raw
//! values, and writes such a collection back. What `B[pd]` or `KM[375]` mean
//! is not the text layer's business (the game mapping is [`record`], built on
//! it); the text layer gives the decoded forms ([`Value::text`],
//! [`Value::simple_text`], [`Value::composed`], [`expand_point_list`]).
//!
//! Why it is built the way it is:
//!
//! - **No recursion anywhere.** Trees are flat arenas; parsing, writing,
//!   walking, comparing and dropping use loops. A 100,000-move main line and
//!   a 100,000-deep OGS-style nesting work on a 2 MiB thread stack.
//! - **Raw values.** Values keep their escapes (as sgfmill does), so
//!   parse -> write -> parse gives the same collection and unknown
//!   properties (Fox `TC`, Sabaki `SBKV`...) survive untouched.
//! - **Positions everywhere.** Nodes, properties and values carry [`Span`]s;
//!   errors and warnings name the byte, line and column and the property:
//!   `byte 1234 (line 5, column 17): unterminated value of property C`.
//! - **Strict or lenient.** [`ParseOptions::lenient`] repairs what real files
//!   get wrong and says so in [`Parsed::warnings`] instead of dropping
//!   anything silently. See "Lenient mode" below.
//! - **Charsets first.** Bytes are decoded to UTF-8 before any syntax is read
//!   (see [`charset_for_label`] and [`Parsed::charset`]); a collection whose
//!   games declare different charsets is decoded game by game.
//! - **Bounded.** Input size ([`ParseOptions::max_bytes`]), node count
//!   ([`ParseOptions::max_nodes`]) and warnings ([`MAX_WARNINGS`]) are
//!   capped. Besides the nodes, memory stays within a small multiple of the
//!   input: the decoded text (at most 3 bytes per input byte), its copy in
//!   [`Parsed::source`], properties and values (at most about 16 bytes per
//!   input byte for `A[]`-style junk) and the `(` stack (8 bytes per `(`).
//!
//! ```
//! use tengen_sgf::{parse, write, ParseOptions};
//!
//! let sgf = b"(;GM[1]FF[4]SZ[19]C[a \\] bracket]\n;B[pd];W[dd](;B[pq])(;B[dp]))";
//! let parsed = parse(sgf, &ParseOptions::default()).unwrap();
//! let tree = &parsed.collection.trees[0];
//! let root = tree.node(tree.root());
//! assert_eq!(root.get("C").unwrap().first().unwrap().raw(), "a \\] bracket");
//! assert_eq!(root.get("C").unwrap().first().unwrap().text(), "a ] bracket");
//! assert_eq!(tree.main_line().count(), 4);
//! let again = parse(write(&parsed.collection).as_bytes(), &ParseOptions::default()).unwrap();
//! assert_eq!(again.collection, parsed.collection);
//! ```
//!
//! # Lenient mode
//!
//! Strict mode (the default) accepts FF\[4\] syntax and nothing else: each item
//! below is a [`ParseError::Syntax`] there. Lenient mode repairs it and adds
//! a [`Warning`] naming the [`Issue`]:
//!
//! | input | lenient reading |
//! |---|---|
//! | empty or only whitespace | empty collection (strict: [`ParseError::Empty`]) |
//! | text before the first `(`, between trees, after the last | skipped |
//! | stray `)` outside a tree | skipped |
//! | file starting with `;` (Fox files without `(`) | `(` assumed |
//! | end of input inside trees | trees closed |
//! | end of input inside a value | value ends there |
//! | `CoPyright[...]`, `GaMe[1]` (FF\[1\] names) | lower-case letters dropped: `CP`, `GM` |
//! | identifier without upper-case letter (`xyz[1]`) | property dropped |
//! | same property twice in a node (Fox `AP`) | values merged into the first |
//! | letters without a value (`B;`) | dropped |
//! | unescaped `]`: `US[Matsuyama[3d]]`, `C[a]b]` | kept in the value, escaped |
//! | other characters between properties | skipped |
//! | value without identifier (`;[aa]`) | dropped |
//! | properties before `;` (`(CA[UTF-8])`) | node assumed |
//! | `()` | dropped |
//! | node after variations (`(;a(;b)(;c);d)`) | one more variation of `a` |
//! | `((;a))`, `((;a)(;b))` | the variation is the tree; several roots become several trees |
//! | unknown `CA` label | charset detected from the bytes |
//! | bytes invalid in the charset | U+FFFD (strict: [`ParseError::InvalidBytes`]) |
//!
//! Outside game trees, a `(` starts one only when `;`, `(`, `)` or a
//! property (`CA[`) follows it, so that free text before a game such as
//! "a point list (MA property)" is skipped as text.
//!
//! An unescaped `]` is only recovered when what follows it cannot continue
//! the node and another `]` comes before any `[`, `;`, `(` or `)`; anything
//! else would guess at the author's meaning. Text with no game tree at all
//! (`this is not an sgf file`) is [`ParseError::NoGameTree`] in both modes:
//! there is nothing to recover.
//!
//! Charset notes ([`Issue::CharsetGuessed`], [`Issue::CharsetOverridden`],
//! [`Issue::CharsetMismatch`]) are warnings in both modes.

#![warn(missing_docs)]

mod charset;
mod coverage;
mod error;
mod files;
mod parse;
pub mod record;
mod small;
mod text;
mod time;
mod tree;
mod write;

pub use charset::charset_for_label;
pub use coverage::{NotSgf, Skipped};
pub use error::{BuildError, Issue, Location, ParseError, Span, Warning, line_column};
pub use files::{MAX_FILE_BYTES, Walk, read_bounded, read_file, sgf_files, walk_sgf_files};
pub use parse::MAX_WARNINGS;
pub use text::{expand_point_list, parse_point};
pub use time::{read_time_control, time_properties};
pub use tree::{Collection, GameTree, Node, NodeId, Preorder, Property, Value};
pub use write::{LINE_WIDTH, write, write_io, write_to, write_tree, write_tree_to};

use std::borrow::Cow;

use error::LineCursor;

/// How to read a file.
///
/// `Default` is strict, 64 MiB ([`MAX_FILE_BYTES`]) and 8,388,608 nodes: strict because a program
/// that writes SGF should learn about its mistakes; readers of files from the
/// wild (uploads, archives) should use [`ParseOptions::lenient`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    /// Repair what real files get wrong (with warnings) instead of failing.
    pub lenient: bool,
    /// Longest input accepted, in bytes: [`ParseError::TooLarge`] beyond.
    pub max_bytes: usize,
    /// Most nodes accepted over all the trees of the file:
    /// [`ParseError::TooManyNodes`] beyond. A node costs about 80 bytes, so
    /// the default caps node memory near 700 MB; a server taking uploads
    /// should lower both limits.
    pub max_nodes: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            lenient: false,
            max_bytes: MAX_FILE_BYTES,
            max_nodes: 8 << 20,
        }
    }
}

impl ParseOptions {
    /// Strict FF\[4\], default limits.
    pub fn strict() -> ParseOptions {
        ParseOptions::default()
    }

    /// Lenient, default limits.
    pub fn lenient() -> ParseOptions {
        ParseOptions {
            lenient: true,
            ..ParseOptions::default()
        }
    }
}

/// A file read: the games, what was repaired, and the charset used.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The game trees.
    pub collection: Collection,
    /// Charset notes (both modes) first, then repairs (lenient mode) in the
    /// order they were made.
    pub warnings: Vec<Warning>,
    /// The charset the bytes were read as (encoding_rs name: `UTF-8`,
    /// `GBK`, `gb18030`, `Big5`, `Shift_JIS`, `EUC-KR`, `windows-1252`...);
    /// the first game's when the games declare different charsets, each
    /// being read in its own.
    pub charset: &'static str,
    /// Bytes of [`Parsed::source`] that lenient reading skipped or dropped
    /// as not SGF, outside game trees and inside them.
    pub skipped: Skipped,
    /// The decoded text, which every [`Span`] points into.
    pub source: String,
}

impl Parsed {
    /// Whether most of the text is not SGF (see [`NotSgf`]).
    pub fn not_sgf(&self) -> Option<NotSgf> {
        NotSgf::judge(self.source.len(), self.skipped, &self.collection.trees)
    }

    /// Line and column of a byte offset of [`Parsed::source`].
    pub fn location(&self, offset: usize) -> Location {
        line_column(&self.source, offset)
    }
}

/// Reads an SGF file from its bytes: charset detection and decoding (see
/// the crate documentation), then parsing.
pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<Parsed, ParseError> {
    if bytes.len() > options.max_bytes {
        return Err(ParseError::TooLarge {
            size: bytes.len(),
            limit: options.max_bytes,
        });
    }
    let decoded = charset::decode(bytes, options.lenient)?;
    let charset = decoded.encoding.name();
    let parsed = parse_decoded(decoded.text, 0, options, charset, decoded.notes, false)?;
    let mixed = parsed
        .warnings
        .iter()
        .any(|w| matches!(w.issue, Issue::CharsetMismatch { .. }));
    if mixed && let Some(again) = charset::decode_per_game(bytes, options.lenient)? {
        // Games of several charsets (a collection joined from several
        // sources): each is read in its own.
        let charset = again.encoding.name();
        return parse_decoded(again.text, 0, options, charset, again.notes, true);
    }
    Ok(parsed)
}

/// Reads SGF text that is already decoded (a leading U+FEFF is skipped).
/// `CA` is not consulted; [`Parsed::charset`] is `UTF-8`.
pub fn parse_str(text: &str, options: &ParseOptions) -> Result<Parsed, ParseError> {
    if text.len() > options.max_bytes {
        return Err(ParseError::TooLarge {
            size: text.len(),
            limit: options.max_bytes,
        });
    }
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    parse_decoded(
        Cow::Borrowed(text),
        start,
        options,
        "UTF-8",
        Vec::new(),
        false,
    )
}

fn parse_decoded(
    source: Cow<'_, str>,
    start: usize,
    options: &ParseOptions,
    charset: &'static str,
    notes: Vec<(Issue, Span)>,
    per_game: bool,
) -> Result<Parsed, ParseError> {
    let text: &str = &source;
    if text.len() >= u32::MAX as usize {
        return Err(ParseError::TooLarge {
            size: text.len(),
            limit: u32::MAX as usize - 1,
        });
    }
    let parser = parse::Parser::new(text, options.lenient, options.max_nodes);
    let (trees, syntax, skipped) = parser.run(start)?;
    let mut warnings = Vec::with_capacity(notes.len() + syntax.len());
    let mut cursor = LineCursor::default();
    for (issue, span) in notes {
        let at = cursor.locate(text.as_bytes(), span.start);
        warnings.push(Warning::new(span, issue, at));
    }
    // Read as one charset: say so when a later game declares another.
    let used = if trees.len() > 1 {
        charset_for_label(charset)
    } else {
        None
    };
    let later = if per_game { 0 } else { trees.len() };
    for tree in trees.iter().skip(1).take(later) {
        let Some(ca) = tree.node(tree.root()).value("CA") else {
            continue;
        };
        let label = ca.simple_text();
        if charset_for_label(&label) != used {
            let span = ca.span();
            let at = cursor.locate(text.as_bytes(), span.start);
            warnings.push(Warning::new(
                span,
                Issue::CharsetMismatch {
                    declared: label,
                    charset,
                },
                at,
            ));
        }
    }
    warnings.extend(syntax);
    Ok(Parsed {
        collection: Collection { trees },
        warnings,
        charset,
        skipped,
        source: source.into_owned(),
    })
}
