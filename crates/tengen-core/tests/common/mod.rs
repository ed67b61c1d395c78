//! Helpers shared by the integration tests.

#![allow(dead_code)]

use tengen_core::{Board, ByColor, Color, Game, Move, Outcome, Phase, Point, Points};

/// A tiny deterministic generator: a test driven by a seed replays exactly.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        let mut r = XorShift((seed ^ 0x9E37_79B9_7F4A_7C15) | 1);
        r.next();
        r
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    pub fn color(&mut self) -> Color {
        self.pick(&Color::ALL)
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}

/// `B+3.5`, `W+R`, `B+T`, `W+F`, `B+C`, `0` or `Void`.
pub fn is_re_form(s: &str) -> bool {
    if s == "0" || s == "Void" {
        return true;
    }
    let Some(rest) = s.strip_prefix("B+").or_else(|| s.strip_prefix("W+")) else {
        return false;
    };
    if matches!(rest, "R" | "T" | "F" | "C") {
        return true;
    }
    match rest.parse::<Points>() {
        Ok(p) => p > Points::ZERO && p.to_string() == rest,
        Err(_) => false,
    }
}

/// Everything a refused operation must leave as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Snap {
    pub board: Board,
    pub hash: u64,
    pub to_move: Color,
    pub turns: Vec<(Color, Move)>,
    pub phase: Phase,
    pub outcome: Option<Outcome>,
    pub captures: ByColor<u32>,
    pub passes: ByColor<u32>,
    pub komi: Points,
    pub proposal: Option<(Color, Vec<Point>)>,
    pub final_margin: Option<Points>,
}

impl Snap {
    pub fn of(g: &Game) -> Snap {
        Snap {
            board: g.board().clone(),
            hash: g.board().hash(),
            to_move: g.to_move(),
            turns: g.turns().iter().map(|t| (t.color, t.mv)).collect(),
            phase: g.phase(),
            outcome: g.outcome().copied(),
            captures: g.captures(),
            passes: g.passes(),
            komi: g.komi(),
            proposal: g.dead_proposal().map(|(c, v)| (c, v.to_vec())),
            final_margin: g.final_score().map(|s| s.margin),
        }
    }
}
