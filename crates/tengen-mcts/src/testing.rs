//! What the unit tests of several modules share: their positions and the
//! checks they make alike.

use crate::features::{Extractor, Position};
use std::ops::RangeInclusive;
use tengen_core::{Board, BoardSize, Color, Point};

/// A 5x5 position for reading the networks' inputs: White's E5-E4 chain
/// is in atari (one liberty at D5), Black's pair A1-B1 has three; D5 is
/// legal for Black, A5 is not (suicide).
pub(crate) fn atari_board() -> Board {
    Board::from_ascii(
        ". O . . O
         O . . X O
         . . . . X
         . . . . .
         X X . . .",
    )
    .unwrap()
}

/// What `policy` gives Black's first move on the empty 19x19 board (by
/// point index), and every point ranked by it, the most probable first.
pub(crate) fn opening_policy(
    policy: impl FnOnce(&mut Extractor, &Position<'_>, &[Point]) -> Vec<f32>,
) -> (Vec<f32>, Vec<Point>) {
    let size = BoardSize::square(19).unwrap();
    let board = Board::new(size);
    let position = Position {
        board: &board,
        to_move: Color::Black,
        last: None,
        own_last: None,
    };
    let moves: Vec<Point> = size.points().collect();
    let policy = policy(&mut Extractor::new(size), &position, &moves);
    let mut ranked = moves;
    ranked.sort_by(|a, b| policy[b.index()].total_cmp(&policy[a.index()]));
    (policy, ranked)
}

/// Asserts that the eight points ranked first lie on `lines` (0 the edge)
/// counted from the nearest edges of the 19x19 board: in the corners.
pub(crate) fn assert_top_eight_in_corners(ranked: &[Point], lines: RangeInclusive<u32>) {
    let size = BoardSize::square(19).unwrap();
    for p in &ranked[..8] {
        let (x, y) = size.xy(*p);
        let corner_line = |v: u32| lines.contains(&v) || lines.contains(&(18 - v));
        assert!(corner_line(x) && corner_line(y), "{x},{y}");
    }
}
