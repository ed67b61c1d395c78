//! Helpers shared by the integration tests and the bench: the shared data,
//! a real game, diagrams, colours and points by name.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tengen_core::{Board, BoardSize, Color, Game, Point, Preset, Vertex};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{self, ReplayMode, ReplayOptions, Source};

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

/// A real professional game of 250 moves (19x19, Fox server): the record
/// the bench names and the tests say in every language.
pub const PRO_GAME: &str = "fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf";

/// The main line of `PRO_GAME` under Chinese rules, panicking on error.
pub fn pro_game() -> Game {
    let path = data_root().unwrap().join(PRO_GAME);
    let replay = ReplayOptions {
        mode: ReplayMode::Tolerant,
        rules: Some(Preset::Chinese.rules()),
        komi: None,
    };
    // Lenient: player names may be in a legacy charset; only the moves matter.
    let loaded = record::load_main_line(Source::File(&path), &ParseOptions::lenient(), &replay)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = loaded.replay.game;
    assert_eq!(game.turns().len(), 250, "the record has 250 moves");
    game
}
