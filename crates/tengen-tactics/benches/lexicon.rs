//! Naming every move of a real 250-move professional game (19x19, Fox
//! server, shared/data/fox_pro), one thread: the whole lexicon, reading
//! included, as `tengen explain` runs it. The budget is 50 ms a game.
//!
//! Criterion's figure comes first; then one line gives milliseconds per
//! game over a fixed number of runs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

// The tests' minimal SGF reader (this crate does not depend on tengen-sgf);
// the bench uses its parser, not its position builder.
#[allow(dead_code)]
#[path = "../tests/common/sgf.rs"]
mod sgf;

use criterion::{Criterion, black_box};
use std::path::Path;
use std::time::Instant;
use tengen_core::{BoardSize, Game, Move, Preset};
use tengen_tactics::name_moves;

/// The record: 250 moves, no handicap, read from the shared data beside
/// the repository.
const RECORD: &str = "fox_pro/Pro2.7z/Pro/1p/1530608028010001073.sgf";

fn game() -> Game {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = [
        std::env::var_os("TENGEN_DATA").map(std::path::PathBuf::from),
        Some(manifest.join("../../shared/data")),
        Some(manifest.join("../../../shared/data")),
    ];
    let path = roots
        .into_iter()
        .flatten()
        .map(|r| r.join(RECORD))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{RECORD} not found beside the repository (set TENGEN_DATA)"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Player names may be in a legacy charset; only the moves matter here.
    let text = String::from_utf8_lossy(&bytes);
    let record = sgf::parse(&text).unwrap_or_else(|| panic!("{}: unreadable", path.display()));
    let size = BoardSize::square(record.size).unwrap_or_else(|e| panic!("{e}"));
    let mut game = Game::new(Preset::Chinese.rules(), size);
    for node in &record.nodes {
        if let Some((color, p)) = node.play {
            let mv = match p.and_then(|(x, y)| size.point(x, y)) {
                Some(p) => Move::Play(p),
                None => Move::Pass,
            };
            game.play_as(color, mv)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    assert_eq!(game.turns().len(), 250, "the record has 250 moves");
    game
}

fn main() {
    let game = game();
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("name_moves 250-move 19x19 game", |b| {
        b.iter(|| name_moves(black_box(&game)))
    });
    c.final_summary();
    let runs = 20;
    let start = Instant::now();
    let mut named = 0;
    for _ in 0..runs {
        named += name_moves(black_box(&game)).iter().flatten().count();
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
    println!(
        "explain: {ms:.2} ms per 250-move game (one thread, {} terms named per game)",
        named / runs as usize
    );
}
