//! The helpers the tactics and lexicon tests both need: the shared data,
//! diagrams, colours and points by name. `tengen-lexicon` includes this
//! file from its own `tests/common`.

use std::path::{Path, PathBuf};
use tengen_core::{Board, BoardSize, Color, Point, Vertex};

/// `shared/data` (the external test sets), in the repository or beside it.
/// The suites are part of the proof: a missing directory fails the test
/// rather than skipping it.
pub fn data_root() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = [
        std::env::var_os("TENGEN_DATA").map(PathBuf::from),
        Some(manifest.join("../../shared/data")),
        Some(manifest.join("../../../shared/data")),
    ];
    let found = roots.into_iter().flatten().find(|p| p.is_dir());
    assert!(
        found.is_some(),
        "no shared/data directory beside the repository (set TENGEN_DATA)"
    );
    found
}

/// The point named `text` (`C3`, GTP style) on a board of `size`.
pub fn pt_size(size: BoardSize, text: &str) -> Point {
    match Vertex::parse(text, size) {
        Ok(Vertex::Point(p)) => p,
        other => panic!("bad vertex {text:?}: {other:?}"),
    }
}

/// `b`/`black`/`x` or `w`/`white`/`o`.
pub fn color(text: &str) -> Color {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" | "x" => Color::Black,
        "w" | "white" | "o" => Color::White,
        other => panic!("bad colour {other:?}"),
    }
}

/// An ASCII board (rows of `X`, `O`, `.`), panicking on error.
pub fn board(text: &str) -> Board {
    Board::from_ascii(text).unwrap_or_else(|e| panic!("bad diagram: {e}\n{text}"))
}
