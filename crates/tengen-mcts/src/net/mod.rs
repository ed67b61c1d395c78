//! The policy network: a small convolutional network over the whole board
//! (Clark and Storkey 2015, Maddison et al. 2015) that sees what a
//! pattern cannot, the position around the move as far as seven lines
//! away and the last four moves. It does not start from nothing: its
//! output is a logit per point added to a learned share of the pattern
//! model's log-probability of that point, so the network learns what the
//! patterns miss and never knows less than they do.
//!
//! One definition serves the search (on the CPU, through burn's pure-Rust
//! `flex` backend) and `tengen train net` (the same module on an autodiff
//! device). The weights are a safetensors file; [`Network::shipped`] is the
//! one trained from the professional records and built into the binary.
//!
//! This module reads positions as the network does; the network itself
//! (`policy.rs`, with burn) is built with the `net` feature, on by
//! default. Without it, [`Network`] is a type with no value: the search
//! keeps the pattern model's priors, and the crate needs no burn.
//!
//! Left out: judging who wins (the value network, [`crate::value`]), and
//! passes (the records' passes are not predicted; the search decides
//! them).

use crate::features::{Extractor, Position};
use crate::model::PatternModel;
use tengen_core::{Board, BoardSize, Color, Move, Point};

#[cfg(not(feature = "net"))]
mod absent;
#[cfg(feature = "net")]
mod policy;
#[cfg(feature = "net")]
pub(crate) mod safetensors;
#[cfg(not(feature = "net"))]
pub use absent::Network;
#[cfg(feature = "net")]
pub use policy::{Network, PolicyNet, batch};

/// Input planes per point.
pub const PLANES: usize = 16;
/// How many past moves the input shows.
pub const HISTORY: usize = 4;
/// The logit of an illegal point: far below any legal one, finite so that
/// a softmax never divides nothing by nothing.
const MASKED: f32 = -1.0e4;
/// The smallest log-probability a legal point is given from the patterns.
const LOG_FLOOR: f32 = -20.0;

/// Why a network cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("not a safetensors file: {0}")]
    /// The safetensors header cannot be read.
    Header(String),
    #[error("the network has no tensor {0:?}")]
    /// A tensor the network needs is not in the file.
    Missing(String),
    #[error("the network's tensor {name:?} has shape {found:?} where {expected:?} is expected")]
    /// A tensor has the wrong shape.
    Shape {
        /// The tensor.
        name: String,
        /// Its shape in the file.
        found: Vec<usize>,
        /// The shape the network needs.
        expected: Vec<usize>,
    },
    #[error("the network's weights cannot be read: {0}")]
    /// The weights cannot be loaded into the network.
    Load(String),
    #[error("this build has no networks (tengen-mcts without its `net` feature)")]
    /// The crate was built without the `net` feature.
    Absent,
}

/// The size of a network: filters per layer and layers of convolution
/// (the first 5x5, the others 3x3 with a skip connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Filters per layer.
    pub channels: usize,
    /// Layers of convolution.
    pub layers: usize,
}

impl Shape {
    /// The shipped network's size: a 13x13-point view (15 with the first
    /// layer) at 2-5 ms an evaluation on one core.
    pub const SHIPPED: Shape = Shape {
        channels: 64,
        layers: 6,
    };
}

/// The last [`HISTORY`] moves of `moves` (given oldest first), most recent
/// first, `None` for a pass.
pub fn recent(moves: impl DoubleEndedIterator<Item = Move>) -> Vec<Option<Point>> {
    moves
        .rev()
        .take(HISTORY)
        .map(|mv| match mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        })
        .collect()
}

/// The index of `p` in the network's rows: y * width + x.
pub fn row_index(size: BoardSize, p: Point) -> usize {
    let (x, y) = size.xy(p);
    y as usize * size.width() as usize + x as usize
}

/// One position as the network reads it, row by row from the top left
/// (index y * width + x), from the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// [PLANES][height * width]: own stones with 1, 2, 3, 4+ liberties;
    /// the opponent's the same; empty; on the board; the last four moves
    /// (most recent first); legal for the mover; the pattern model's
    /// log-probability, scaled into 0..1.
    pub planes: Vec<f32>,
    /// The pattern model's log-probability of each legal point (0 elsewhere).
    pub prior: Vec<f32>,
    /// 0 at legal points, a large negative number elsewhere.
    pub mask: Vec<f32>,
}

impl Encoded {
    /// The position of `board` with `to_move` to play, after `recent`
    /// (the last moves, most recent first; `None` for a pass), and the
    /// pattern model's probability of each point (by point index, as
    /// [`PatternModel::policy`] gives them; 0 for a move it does not rate).
    /// The legal points are the fast board's (simple ko, no suicide).
    pub fn new(
        board: &Board,
        to_move: Color,
        recent: &[Option<Point>],
        probability: &[f32],
    ) -> Encoded {
        let size = board.size();
        let (width, height) = (size.width() as usize, size.height() as usize);
        let n = width * height;
        let mut planes = vec![0.0f32; PLANES * n];
        let mut prior = vec![0.0f32; n];
        let mut mask = vec![MASKED; n];
        let index = |p: Point| row_index(size, p);
        for p in size.points() {
            let i = index(p);
            let mut set = |plane: usize| planes[plane * n + i] = 1.0;
            set(9);
            match board.get(p) {
                Some(c) => {
                    let libs = board.liberties(p).clamp(1, 4) as usize - 1;
                    set(if c == to_move { libs } else { 4 + libs });
                }
                None => {
                    set(8);
                    if board.is_legal_simple(p, to_move) {
                        set(14);
                        let logp = probability
                            .get(p.index())
                            .map_or(LOG_FLOOR, |&q| q.ln().max(LOG_FLOOR));
                        prior[i] = logp;
                        mask[i] = 0.0;
                        planes[15 * n + i] = 1.0 + logp / -LOG_FLOOR;
                    }
                }
            }
        }
        for (k, mv) in recent.iter().take(HISTORY).enumerate() {
            if let Some(p) = mv.filter(|&p| size.contains(p)) {
                planes[(10 + k) * n + index(p)] = 1.0;
            }
        }
        Encoded {
            width,
            height,
            planes,
            prior,
            mask,
        }
    }

    /// `position` after `recent` (see [`Encoded::new`]), with the pattern
    /// model's probabilities of `moves`, as the network reads it.
    pub fn with_patterns(
        model: &PatternModel,
        extractor: &mut Extractor,
        position: &Position,
        recent: &[Option<Point>],
        moves: &[Point],
    ) -> Encoded {
        let cells = position.board.size().cells();
        let patterns = model.policy(extractor, position, moves, cells);
        Encoded::new(position.board, position.to_move, recent, &patterns)
    }

    /// The same position turned by symmetry `k` (0-7; [`symmetric`]).
    pub fn turned(&self, k: u8) -> Encoded {
        let n = self.width * self.height;
        let map = |from: &[f32]| -> Vec<f32> {
            let mut out = vec![0.0f32; from.len()];
            for (chunk_in, chunk_out) in from.chunks(n).zip(out.chunks_mut(n)) {
                for (i, &v) in chunk_in.iter().enumerate() {
                    chunk_out[symmetric(i, k, self.width, self.height)] = v;
                }
            }
            out
        };
        Encoded {
            width: self.width,
            height: self.height,
            planes: map(&self.planes),
            prior: map(&self.prior),
            mask: map(&self.mask),
        }
    }
}

/// Where the point of index `i` (y * width + x) goes under symmetry `k`:
/// bit 0 mirrors left-right, bit 1 top-bottom, bit 2 swaps the axes
/// (only on square boards; elsewhere bit 2 is ignored).
pub fn symmetric(i: usize, k: u8, width: usize, height: usize) -> usize {
    let (mut x, mut y) = (i % width, i / width);
    if k & 1 == 1 {
        x = width - 1 - x;
    }
    if k & 2 == 2 {
        y = height - 1 - y;
    }
    if k & 4 == 4 && width == height {
        std::mem::swap(&mut x, &mut y);
    }
    y * width + x
}

/// Probabilities row by row (as [`Network::policy`] gives them) turned
/// into the search's order, by point index ([`BoardSize::cells`] long).
pub fn by_point(size: BoardSize, by_row: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; size.cells()];
    for (p, &v) in size.points().zip(by_row.iter()) {
        if let Some(o) = out.get_mut(p.index()) {
            *o = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(e: &Encoded, k: usize) -> &[f32] {
        let n = e.width * e.height;
        &e.planes[k * n..(k + 1) * n]
    }

    fn at(e: &Encoded, x: usize, y: usize) -> usize {
        y * e.width + x
    }

    #[test]
    fn the_encoding_reads_liberties_history_and_legality_from_the_movers_side() {
        let board = crate::testing::atari_board();
        let size = board.size();
        let p = |x, y| size.point(x, y).unwrap();
        let e = Encoded::new(
            &board,
            Color::Black,
            &[Some(p(3, 1)), None, Some(p(4, 2))],
            &[],
        );
        assert_eq!((e.width, e.height), (5, 5));
        // Black is the mover: own stones in planes 0-3.
        assert_eq!(plane(&e, 2)[at(&e, 0, 4)], 1.0, "A1-B1 has 3 liberties");
        assert_eq!(plane(&e, 4)[at(&e, 4, 0)], 1.0, "white in atari");
        assert_eq!(plane(&e, 4)[at(&e, 4, 1)], 1.0, "its chain shares it");
        assert_eq!(plane(&e, 8)[at(&e, 2, 2)], 1.0, "empty");
        assert!(plane(&e, 9).iter().all(|&v| v == 1.0), "on the board");
        assert_eq!(plane(&e, 10)[at(&e, 3, 1)], 1.0, "last move");
        assert!(plane(&e, 11).iter().all(|&v| v == 0.0), "a pass before it");
        assert_eq!(plane(&e, 12)[at(&e, 4, 2)], 1.0, "three moves ago");
        assert_eq!(plane(&e, 14)[at(&e, 3, 0)], 1.0, "D5 captures: legal");
        assert_eq!(plane(&e, 14)[at(&e, 0, 0)], 0.0, "A5 has no liberty");
        assert_eq!(e.mask[at(&e, 0, 0)], MASKED);
        assert_eq!(e.mask[at(&e, 1, 0)], MASKED, "occupied");
        assert_eq!(e.mask[at(&e, 3, 0)], 0.0);
        // No pattern probability given: the floor at every legal point.
        assert_eq!(e.prior[at(&e, 3, 0)], LOG_FLOOR);
        assert_eq!(plane(&e, 15)[at(&e, 3, 0)], 0.0);
        // From White's side the colours swap.
        let w = Encoded::new(&board, Color::White, &[], &[]);
        assert_eq!(plane(&w, 0)[at(&w, 4, 0)], 1.0);
        assert_eq!(plane(&w, 6)[at(&w, 0, 4)], 1.0);
    }

    #[test]
    fn turning_the_board_turns_the_encoding() {
        let size = BoardSize::square(7).unwrap();
        let stones = [
            (1, 1, Color::Black),
            (2, 1, Color::White),
            (5, 3, Color::Black),
            (0, 6, Color::White),
        ];
        for k in 0..8u8 {
            let mut plain = Board::new(size);
            let mut turned = Board::new(size);
            for &(x, y, c) in &stones {
                plain.play_unchecked(size.point(x, y).unwrap(), c);
                let j = symmetric(y as usize * 7 + x as usize, k, 7, 7);
                turned.play_unchecked(size.point((j % 7) as u32, (j / 7) as u32).unwrap(), c);
            }
            let a = Encoded::new(&plain, Color::Black, &[], &[]).turned(k);
            let b = Encoded::new(&turned, Color::Black, &[], &[]);
            assert_eq!(a, b, "symmetry {k}");
        }
        // Each symmetry is a permutation of the points.
        for k in 0..8u8 {
            let mut seen: Vec<usize> = (0..35).map(|i| symmetric(i, k, 7, 5)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..35).collect::<Vec<_>>());
        }
    }
}
