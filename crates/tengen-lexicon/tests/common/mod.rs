//! Helpers shared by the integration tests and the bench: the shared data,
//! a real game, diagrams, colours and points by name.

#![allow(dead_code)]

#[path = "../../../tengen-tactics/tests/common/basics.rs"]
mod basics;

#[allow(unused_imports)] // each test binary uses its own share of them
pub use basics::{board, color, data_root, pt_size};
use tengen_core::{Game, Preset};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{self, ReplayMode, ReplayOptions, Source};

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
