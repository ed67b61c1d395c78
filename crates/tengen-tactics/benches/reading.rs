//! Ladder reads per second on 19x19 positions, one thread, and the life
//! and death of a small enclosed group ([`vital_moves`]).
//!
//! Three positions, built here so the bench needs no data files:
//! - `long`: the textbook ladder from C3 that runs the whole diagonal to the
//!   top right edge and works (about 60 plies);
//! - `broken`: the same with a black stone on the path at K10; the read
//!   fails, and the time includes finding the breaker (one more read per
//!   candidate stone tried);
//! - `short`: a ladder caught by a white stone at G7 after a few ataris.
//!
//! Criterion's figures come first; then one line per position gives reads
//! per second measured over a fixed number of reads with one reused
//! [`Reader`], the way the engine and the lexicon call it.
//!
//! `life`: White's bent three in the corner of an otherwise empty 19x19
//! board; `vital_moves` reads it from both sides and finds the vital point.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use criterion::{BenchmarkId, Criterion, black_box};
use std::time::Instant;
use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::{LadderResult, Limits, Reader, read_ladder, vital_moves};

fn point(size: BoardSize, x: u32, y: u32) -> Point {
    // x from 1 at the left, y from 1 at the bottom.
    match size.point(x - 1, size.height() - y) {
        Some(p) => p,
        None => unreachable!("on the board"),
    }
}

fn ladder(extra_black: &[(u32, u32)], extra_white: &[(u32, u32)]) -> (Board, Point) {
    let size = BoardSize::STANDARD;
    let mut b = Board::new(size);
    for &(x, y) in [(3, 4), (2, 3), (3, 2), (4, 2)].iter().chain(extra_white) {
        b.play_unchecked(point(size, x, y), Color::White);
    }
    for &(x, y) in [(3, 3)].iter().chain(extra_black) {
        b.play_unchecked(point(size, x, y), Color::Black);
    }
    (b, point(size, 3, 3))
}

fn positions() -> Vec<(&'static str, Board, Point)> {
    let (long, c) = ladder(&[], &[]);
    let (broken, c2) = ladder(&[(10, 10)], &[]);
    let (short, c3) = ladder(&[], &[(7, 7)]);
    vec![
        ("long", long, c),
        ("broken", broken, c2),
        ("short", short, c3),
    ]
}

/// White's bent three in the lower left corner, walled by Black.
fn bent_three() -> Board {
    let size = BoardSize::STANDARD;
    let mut b = Board::new(size);
    for (x, y) in [(1, 3), (2, 3), (3, 3), (2, 2), (3, 2), (3, 1)] {
        b.play_unchecked(point(size, x, y), Color::White);
    }
    for (x, y) in [(1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (4, 1)] {
        b.play_unchecked(point(size, x, y), Color::Black);
    }
    b
}

fn bench(c: &mut Criterion) {
    let board = bent_three();
    c.bench_function("life bent three", |b| {
        b.iter(|| vital_moves(black_box(&board), Color::Black))
    });
    let mut group = c.benchmark_group("ladder");
    for (name, board, chain) in positions() {
        let mut reader = Reader::new(Limits::LADDER);
        group.bench_with_input(BenchmarkId::from_parameter(name), &board, |b, board| {
            b.iter(|| reader.ladder(black_box(board), chain))
        });
    }
    group.finish();
}

fn summary() {
    let board = bent_three();
    let reads = 2_000u32;
    let start = Instant::now();
    let mut found = 0;
    for _ in 0..reads {
        found = black_box(vital_moves(black_box(&board), Color::Black)).len();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "life bent three: {found} vital move(s); {:.0} reads/s",
        f64::from(reads) / secs
    );
    for (name, board, chain) in positions() {
        let result = read_ladder(&board, chain);
        let mut reader = Reader::new(Limits::LADDER);
        let reads = 20_000u32;
        let start = Instant::now();
        for _ in 0..reads {
            black_box(reader.ladder(black_box(&board), chain));
        }
        let secs = start.elapsed().as_secs_f64();
        let verdict = match result {
            LadderResult::Captured { depth } => format!("captured, {depth} plies"),
            LadderResult::Escapes { breaker } => format!("escapes, breaker {breaker:?}"),
            other => format!("{other:?}"),
        };
        println!(
            "ladder {name}: {verdict}; {:.0} reads/s",
            f64::from(reads) / secs
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    summary();
}
