//! Naming every move of a real 250-move professional game (19x19, Fox
//! server, shared/data/fox_pro), one thread: the whole lexicon, reading
//! included, as `tengen explain` runs it. The budget is 50 ms a game.
//!
//! Criterion's figure comes first; then one line gives milliseconds per
//! game over a fixed number of runs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

// The tests' helpers: the shared data and the record, read by tengen-sgf.
#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, black_box};
use std::time::Instant;
use tengen_lexicon::name_moves;

fn main() {
    let game = common::pro_game();
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
