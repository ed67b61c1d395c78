//! The light playouts reproduce the classic reference bot's published
//! statistics from the empty 9x9 board over 1,000,000 playouts: about 111.05
//! moves per playout counting the two final passes, and Black wins 0.4213 at
//! komi 7.5, 0.4334 at komi 7 and 0.5245 at komi 0.
//!
//! A draw (at komi 7) counts as half a win. Win rates must agree within 0.002 (four standard errors of the difference
//! of two samples of a million). The mean length's own spread at a million
//! playouts is about 0.016 moves, so it is checked within 0.1.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::collections::BTreeMap;
use tengen_core::{Board, BoardSize, Color, Points};
use tengen_mcts::{LightPlayout, Rng};

const PLAYOUTS: u64 = 1_000_000;

/// Histogram of Black's area minus White's, and the total number of turns.
fn run(seed: u64, n: u64) -> (BTreeMap<i32, u64>, u64) {
    let board = Board::new(BoardSize::square(9).unwrap());
    let mut rng = Rng::new(seed);
    let mut runner = LightPlayout::default();
    let mut hist = BTreeMap::new();
    let mut moves = 0;
    for _ in 0..n {
        let mut b = board.clone();
        let end = runner.run(&mut b, Color::Black, &mut rng);
        moves += u64::from(end.moves);
        *hist
            .entry(end.area.black as i32 - end.area.white as i32)
            .or_insert(0) += 1;
    }
    (hist, moves)
}

#[test]
fn light_playouts_match_the_reference_bot() {
    let threads = 4;
    let parts: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || run(1000 + t, PLAYOUTS / threads)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut hist: BTreeMap<i32, u64> = BTreeMap::new();
    let mut moves = 0;
    for (h, m) in parts {
        moves += m;
        for (k, v) in h {
            *hist.entry(k).or_insert(0) += v;
        }
    }
    let total: u64 = hist.values().sum();
    assert_eq!(total, PLAYOUTS);
    // A draw (possible at integer komi) counts as half a win, as in the
    // published figures.
    let win_rate = |komi: Points| {
        let half_wins: u64 = hist
            .iter()
            .map(|(d, n)| match (Points::whole(*d) - komi).in_eighths() {
                0 => *n,
                m if m > 0 => 2 * n,
                _ => 0,
            })
            .sum();
        half_wins as f64 / (2 * total) as f64
    };
    let mean = moves as f64 / total as f64;
    let report = format!(
        "mean_moves={mean:.3} komi7.5={:.4} komi7={:.4} komi0={:.4}",
        win_rate(Points::halves(15)),
        win_rate(Points::whole(7)),
        win_rate(Points::ZERO)
    );
    assert!((mean - 111.05).abs() < 0.1, "{report}");
    for (komi, published) in [
        (Points::halves(15), 0.4213),
        (Points::whole(7), 0.4334),
        (Points::ZERO, 0.5245),
    ] {
        let ours = win_rate(komi);
        assert!(
            (ours - published).abs() < 0.002,
            "komi {komi}: {ours:.4} vs {published}; {report}"
        );
    }
}
