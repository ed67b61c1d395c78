//! Light playouts, as the classic reference bot plays them: a uniform choice
//! among the legal moves that do not fill the mover's own one-point eye,
//! pass when none is left, two passes end, and a Tromp-Taylor area count.
//!
//! The rules of the playout are deliberately those of the reference bot
//! (suicide forbidden, simple ko on the fast board): the search checks tree
//! moves with the full rules, playouts only estimate. They stay for
//! benchmarks and as the reference; the search plays the
//! heavy playouts (`heavy_playout.rs`).

use crate::rng::Rng;
use tengen_core::{Board, ByColor, Color, Point, Points};

/// The end of one playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Turns played, the final passes included.
    pub moves: u32,
    /// Tromp-Taylor area of each colour on the final board.
    pub area: ByColor<u32>,
}

impl PlayoutEnd {
    /// Black's area minus White's area minus komi.
    pub fn margin(&self, komi: Points) -> Points {
        Points::whole(self.area.black as i32 - self.area.white as i32) - komi
    }
}

/// A reusable light-playout runner (it owns its scratch list).
#[derive(Clone, Debug)]
pub struct LightPlayout {
    candidates: Vec<Point>,
    /// Turns after which a playout stops even without two passes (a
    /// safeguard against endless cycles, which simple ko allows).
    pub max_moves: u32,
}

impl Default for LightPlayout {
    fn default() -> LightPlayout {
        LightPlayout {
            candidates: Vec::with_capacity(625),
            max_moves: 1000,
        }
    }
}

impl LightPlayout {
    /// Plays `board` out from `to_move` and counts it.
    pub fn run(&mut self, board: &mut Board, to_move: Color, rng: &mut Rng) -> PlayoutEnd {
        let mut color = to_move;
        let mut passes = 0;
        let mut moves = 0;
        let max = self.max_moves.max(4 * board.size().num_points() as u32);
        while moves < max {
            moves += 1;
            match self.choose(board, color, rng) {
                Some(p) => {
                    board.play_unchecked(p, color);
                    passes = 0;
                }
                None => {
                    board.pass();
                    passes += 1;
                    if passes == 2 {
                        break;
                    }
                }
            }
            color = color.opponent();
        }
        PlayoutEnd {
            moves,
            area: tengen_core::scoring::area(board),
        }
    }

    /// A uniform choice among the empty points that are legal and not the
    /// mover's own one-point eye: draw without replacement until one fits.
    /// The first draw reads the board's list directly; the list is copied
    /// only when that draw fails (late in the playout).
    #[inline]
    fn choose(&mut self, board: &Board, color: Color, rng: &mut Rng) -> Option<Point> {
        let fits = |p: Point| board.is_playout_move(p, color);
        let empty = board.empty_points();
        let mut k = empty.len();
        if k == 0 {
            return None;
        }
        let first = rng.below(k);
        if fits(empty[first]) {
            return Some(empty[first]);
        }
        self.candidates.clear();
        self.candidates.extend_from_slice(empty);
        k -= 1;
        self.candidates.swap(first, k);
        while k > 0 {
            let r = rng.below(k);
            let p = self.candidates[r];
            if fits(p) {
                return Some(p);
            }
            k -= 1;
            self.candidates.swap(r, k);
        }
        None
    }
}

/// Statistics of many playouts from one position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Playouts run.
    pub playouts: u64,
    /// Turns in all, final passes included.
    pub moves: u64,
    /// Sum of squared turn counts (for the spread of the mean).
    pub moves_sq: u64,
    /// Playouts Black won at the given komi.
    pub black_wins: u64,
    /// Playouts drawn (Black's margin equal to an integer komi).
    pub draws: u64,
}

impl PlayoutStats {
    /// Adds one playout, won by Black when his margin beats `komi`.
    pub fn add(&mut self, end: &PlayoutEnd, komi: Points) {
        self.playouts += 1;
        self.moves += u64::from(end.moves);
        self.moves_sq += u64::from(end.moves) * u64::from(end.moves);
        match end.margin(komi).in_eighths() {
            0 => self.draws += 1,
            m if m > 0 => self.black_wins += 1,
            _ => {}
        }
    }

    /// Joins statistics gathered apart (threads).
    pub fn merge(&mut self, other: &PlayoutStats) {
        self.playouts += other.playouts;
        self.moves += other.moves;
        self.moves_sq += other.moves_sq;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
    }

    /// Mean turns per playout.
    pub fn mean_moves(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }

    /// Standard error of [`PlayoutStats::mean_moves`].
    pub fn mean_moves_error(&self) -> f64 {
        let n = self.playouts.max(1) as f64;
        let mean = self.mean_moves();
        let var = (self.moves_sq as f64 / n - mean * mean).max(0.0);
        (var / n).sqrt()
    }

    /// Fraction of playouts Black won, a draw counting half.
    pub fn black_win_rate(&self) -> f64 {
        (self.black_wins as f64 + self.draws as f64 / 2.0) / self.playouts.max(1) as f64
    }
}

/// Runs `n` light playouts from the empty board of `board`'s size.
pub fn run_from(board: &Board, to_move: Color, n: u64, komi: Points, seed: u64) -> PlayoutStats {
    let mut rng = Rng::new(seed);
    let mut runner = LightPlayout::default();
    let mut stats = PlayoutStats::default();
    for _ in 0..n {
        let mut b = board.clone();
        let end = runner.run(&mut b, to_move, &mut rng);
        stats.add(&end, komi);
    }
    stats
}
