//! The value network: who is winning a position, by how much, and who will
//! own each point, learned from the records' results and counts (AlphaGo's
//! value network; the score and ownership heads of KataGo, whose dense
//! per-point targets teach far more per game than a single win or loss).
//!
//! Its input is cheap to read (stones by liberties, the last two moves,
//! the komi and whether the count is by area), so a judgement costs one
//! forward pass and no pattern reading. Three heads share one trunk:
//! ownership (a tanh per point, from the mover's side), the final area
//! margin (the sum of the ownership plus a learned correction, so that a
//! score needs only what the ownership does not say), and the win (a logit
//! that reads the lead against its spread, so that a win learned from a
//! resigned game teaches the trunk how territory decides games). The
//! score's spread is its own output, trained by the Gaussian likelihood.
//!
//! Left out: the move choice (the policy network's), and the rules beyond
//! area against territory counting (the margin is an area margin; under
//! territory counting the true margin can differ by a point).
//!
//! This module reads positions as the network does and says what a
//! judgement is; the network itself (`network.rs`, with burn) is built
//! with the `net` feature, on by default. Without it, [`ValueNetwork`] is
//! a type with no value and nothing is judged but by the playouts.

use crate::net::{NetError, recent, row_index, symmetric};
use tengen_core::{Board, BoardSize, Color, Game, Points};

#[cfg(not(feature = "net"))]
mod absent;
#[cfg(feature = "net")]
mod network;
#[cfg(not(feature = "net"))]
pub use absent::ValueNetwork;
#[cfg(feature = "net")]
pub use network::{Heads, ValueNet, ValueNetwork, value_batch};

/// Input planes per point.
pub const VALUE_PLANES: usize = 12;
/// The last moves the input shows.
const RECENT: usize = 2;
/// The komi plane's scale: komi / `KOMI_SCALE` from the mover's side.
const KOMI_SCALE: f32 = 10.0;

/// Whether the networks learned positions of boards of `size`: their
/// records are 19x19, and elsewhere a judgement or a prior is a guess
/// (the value network's standing, [`crate::Knowledge::on`]'s choice).
pub fn learned(size: BoardSize) -> bool {
    size.width() == 19 && size.height() == 19
}

/// The size of a value network: filters per layer and layers of
/// convolution (the first 5x5, the others 3x3 with a skip connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueShape {
    /// Filters per layer.
    pub channels: usize,
    /// Layers of convolution.
    pub layers: usize,
}

impl ValueShape {
    /// The shipped network's size.
    pub const SHIPPED: ValueShape = ValueShape {
        channels: 64,
        layers: 12,
    };
}

/// One position as the value network reads it, row by row from the top
/// left (index y * width + x), from the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueInput {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// [VALUE_PLANES][height * width]: own stones with 1, 2, 3+ liberties;
    /// the opponent's the same; empty; on the board; the last move and the
    /// one before; the mover's komi / 10; 1 where the count is by area.
    pub planes: Vec<f32>,
    /// The mover's komi in points (White's komi for White, its negation
    /// for Black).
    pub komi: f32,
    /// The player to move, whose side the planes and the heads take.
    pub mover: Color,
}

impl ValueInput {
    /// `board` with `to_move` to play after `recent` (the last moves,
    /// most recent first, `None` for a pass), White receiving `komi`,
    /// counted by area when `area`.
    pub fn new(
        board: &Board,
        to_move: Color,
        recent: &[Option<tengen_core::Point>],
        komi: Points,
        area: bool,
    ) -> ValueInput {
        let size = board.size();
        let (width, height) = (size.width() as usize, size.height() as usize);
        let n = width * height;
        let mut planes = vec![0.0f32; VALUE_PLANES * n];
        let white_komi = komi.to_f64() as f32;
        let komi = match to_move {
            Color::White => white_komi,
            Color::Black => -white_komi,
        };
        for p in size.points() {
            let i = row_index(size, p);
            let mut set = |plane: usize, v: f32| planes[plane * n + i] = v;
            set(7, 1.0);
            set(10, komi / KOMI_SCALE);
            set(11, if area { 1.0 } else { 0.0 });
            match board.get(p) {
                Some(c) => {
                    let libs = board.liberties(p).clamp(1, 3) as usize - 1;
                    set(if c == to_move { libs } else { 3 + libs }, 1.0);
                }
                None => set(6, 1.0),
            }
        }
        for (k, mv) in recent.iter().take(RECENT).enumerate() {
            if let Some(p) = mv.filter(|&p| size.contains(p)) {
                planes[(8 + k) * n + row_index(size, p)] = 1.0;
            }
        }
        ValueInput {
            width,
            height,
            planes,
            komi,
            mover: to_move,
        }
    }

    /// The position of `game` now, its mover to play.
    pub fn of_game(game: &Game) -> ValueInput {
        let recent = recent(game.turns().iter().map(|t| t.mv));
        ValueInput::new(
            game.board(),
            game.to_move(),
            &recent,
            game.komi(),
            game.rules().scoring.counts_area(),
        )
    }

    /// The same stones with the other player to move, as if the mover had
    /// passed: own and opposing planes swapped, the komi seen from the
    /// other side, no last move (the pass) and the one before it the
    /// stone just played.
    pub fn passed(&self) -> ValueInput {
        let n = self.width * self.height;
        let mut planes = self.planes.clone();
        let plane = |k: usize| k * n..(k + 1) * n;
        for k in 0..3 {
            let (own, opposing) = planes.split_at_mut(plane(3 + k).start);
            own[plane(k)].swap_with_slice(&mut opposing[..n]);
        }
        planes.copy_within(plane(8), plane(9).start);
        planes[plane(8)].fill(0.0);
        for v in &mut planes[plane(10)] {
            *v = -*v;
        }
        ValueInput {
            width: self.width,
            height: self.height,
            planes,
            komi: -self.komi,
            mover: self.mover.opponent(),
        }
    }

    /// The same position turned by symmetry `k` (0-7; [`symmetric`]).
    pub fn turned(&self, k: u8) -> ValueInput {
        let n = self.width * self.height;
        let mut planes = vec![0.0f32; self.planes.len()];
        for (from, to) in self.planes.chunks(n).zip(planes.chunks_mut(n)) {
            for (i, &v) in from.iter().enumerate() {
                to[symmetric(i, k, self.width, self.height)] = v;
            }
        }
        ValueInput {
            width: self.width,
            height: self.height,
            planes,
            komi: self.komi,
            mover: self.mover,
        }
    }
}

/// A judgement of one position, from Black's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Black's chance to win, 0 to 1.
    pub black_wins: f32,
    /// Black's lead in points, komi included (area margin minus komi).
    pub black_lead: f32,
    /// The spread of that lead (one standard deviation), in points.
    pub spread: f32,
    /// Black's ownership of each point, -1 (White's) to 1, in the order
    /// of [`tengen_core::BoardSize::points`].
    pub ownership: Vec<f32>,
}

impl Judgement {
    /// Another ownership of the same points (the playouts') mixed with
    /// this one, this one weighing `weight` (0 to 1).
    pub fn mix_ownership(&self, other: &[f32], weight: f32) -> Vec<f32> {
        other
            .iter()
            .zip(&self.ownership)
            .map(|(o, j)| weight * j + (1.0 - weight) * o)
            .collect()
    }
}

/// Which value network a search judges with: the shipped one, or another
/// read once for the life of the process (`--value FILE`), so that a newly
/// trained network can be measured and played without a new binary.
#[derive(Clone, Copy, Debug, Default)]
pub enum ValueSource {
    /// The network built into the binary.
    #[default]
    Shipped,
    /// Another network.
    Loaded(&'static ValueNetwork),
}

impl ValueSource {
    /// A network read from a safetensors file, kept for the life of the
    /// process.
    ///
    /// # Errors
    /// See [`ValueNetwork::from_bytes`].
    pub fn load(bytes: &[u8]) -> Result<ValueSource, NetError> {
        let network = ValueNetwork::from_bytes(bytes)?;
        Ok(ValueSource::Loaded(Box::leak(Box::new(network))))
    }

    /// The network (`None` only if the shipped file is broken).
    pub fn network(self) -> Option<&'static ValueNetwork> {
        match self {
            ValueSource::Shipped => ValueNetwork::shipped(),
            ValueSource::Loaded(network) => Some(network),
        }
    }
}

/// Two sources are the same when they are the same network in memory.
impl PartialEq for ValueSource {
    fn eq(&self, other: &ValueSource) -> bool {
        match (self, other) {
            (ValueSource::Shipped, ValueSource::Shipped) => true,
            (ValueSource::Loaded(a), ValueSource::Loaded(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(e: &ValueInput, k: usize) -> &[f32] {
        let n = e.width * e.height;
        &e.planes[k * n..(k + 1) * n]
    }

    #[test]
    fn the_input_reads_liberties_moves_komi_and_counting_from_the_movers_side() {
        let board = crate::testing::atari_board();
        let size = board.size();
        let p = |x, y| size.point(x, y).unwrap();
        let at = |x: usize, y: usize| y * 5 + x;
        let komi = Points::halves(13);
        let e = ValueInput::new(
            &board,
            Color::Black,
            &[Some(p(3, 1)), Some(p(4, 2))],
            komi,
            true,
        );
        assert_eq!(plane(&e, 2)[at(0, 4)], 1.0, "A1-B1: three liberties");
        assert_eq!(plane(&e, 3)[at(4, 0)], 1.0, "White's chain in atari");
        assert_eq!(plane(&e, 6)[at(2, 2)], 1.0, "empty");
        assert!(plane(&e, 7).iter().all(|&v| v == 1.0));
        assert_eq!(plane(&e, 8)[at(3, 1)], 1.0, "last move");
        assert_eq!(plane(&e, 9)[at(4, 2)], 1.0, "the one before");
        // Black gives the komi: -6.5 from his side.
        assert_eq!(e.komi, -6.5);
        assert!(plane(&e, 10).iter().all(|&v| v == -0.65));
        assert!(plane(&e, 11).iter().all(|&v| v == 1.0));
        let w = ValueInput::new(&board, Color::White, &[], komi, false);
        assert_eq!(w.komi, 6.5);
        assert_eq!(plane(&w, 0)[at(4, 0)], 1.0, "White's own chain now");
        assert_eq!(plane(&w, 5)[at(0, 4)], 1.0);
        assert!(plane(&w, 11).iter().all(|&v| v == 0.0));
        // The other player to move: the sides swap, the komi turns, the
        // last move becomes the pass and the stone before it the last one.
        let p2 = e.passed();
        assert_eq!(p2.mover, Color::White);
        assert_eq!(p2.komi, 6.5);
        assert_eq!(plane(&p2, 5)[at(0, 4)], 1.0, "Black's chain, now opposing");
        assert_eq!(
            plane(&p2, 0)[at(4, 0)],
            1.0,
            "White's chain in atari, now own"
        );
        assert!(plane(&p2, 8).iter().all(|&v| v == 0.0));
        assert_eq!(plane(&p2, 9)[at(3, 1)], 1.0);
        assert!(plane(&p2, 10).iter().all(|&v| v == 0.65));
        assert_eq!(plane(&p2, 6), plane(&e, 6));
        assert_eq!(p2.passed().planes[..6 * 25], e.planes[..6 * 25]);
        // Turning the board turns every plane.
        let turned = e.turned(5);
        for k in 0..VALUE_PLANES {
            for i in 0..25 {
                assert_eq!(plane(&turned, k)[symmetric(i, 5, 5, 5)], plane(&e, k)[i]);
            }
        }
    }
}
