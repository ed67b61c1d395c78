//! The engine's levels for people: how many playouts a move gets and, for
//! the beginner, a move drawn the way a person errs. The web board's
//! opponent and `tengen gtp --strength` play them alike, so that the
//! guide's table, measured against GNU Go with `tengen match`, is what a
//! player meets on the board. Time limits are left out: a level is the
//! same on a slow machine as on a fast one.

use crate::{Analysis, Decision, Rng};
use tengen_core::Move;

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strength {
    /// A handful of playouts, and a move drawn among those the search
    /// looked at: the learning path's opponent.
    Beginner,
    /// 100 playouts.
    Easy,
    /// 2,000 playouts.
    Medium,
    /// 20,000 playouts.
    Strong,
}

impl Strength {
    /// Every level, weakest first.
    pub const ALL: [Strength; 4] = [
        Strength::Beginner,
        Strength::Easy,
        Strength::Medium,
        Strength::Strong,
    ];

    /// The level's name, as the web form and `--strength` write it.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Beginner => "beginner",
            Strength::Easy => "easy",
            Strength::Medium => "medium",
            Strength::Strong => "strong",
        }
    }

    /// The level named `name`.
    ///
    /// # Errors
    /// A sentence listing the known names.
    pub fn from_name(name: &str) -> Result<Strength, String> {
        Strength::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Strength::ALL.iter().map(|s| s.name()).collect();
                format!("{name:?} is not a strength (known: {})", known.join(", "))
            })
    }

    /// Playouts per move.
    pub fn playouts(self) -> u64 {
        match self {
            Strength::Beginner => 8,
            Strength::Easy => 100,
            Strength::Medium => 2_000,
            Strength::Strong => 20_000,
        }
    }

    /// The move this level plays, given the search's `decision` and
    /// `analysis`: the search's own, except the beginner's (see
    /// `beginner_choice`). `seed` varies from move to move.
    pub fn choose(self, decision: Decision, analysis: &Analysis, seed: u64) -> Decision {
        match decision {
            Decision::Move(_) if self == Strength::Beginner => {
                beginner_choice(analysis, seed).map_or(decision, Decision::Move)
            }
            other => other,
        }
    }
}

/// The beginner's move: drawn among the moves the search looked at, in
/// proportion to the probability the move model learned from human games
/// gives them, so that it plays moves a person would and errs as a
/// beginner does, instead of always finding the tactic.
fn beginner_choice(analysis: &Analysis, seed: u64) -> Option<Move> {
    /// Draws in parts per million.
    const SCALE: f64 = 1e6;
    let weights: Vec<u64> = analysis
        .candidates
        .iter()
        .map(|c| (c.prior * SCALE) as u64)
        .collect();
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut r = Rng::new(seed ^ 0x6265_6769_6e6e_6572).below(total as usize) as u64;
    for (c, &w) in analysis.candidates.iter().zip(&weights) {
        if r < w {
            return Some(c.mv);
        }
        r -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly

    use super::*;

    #[test]
    fn names_read_back_and_an_unknown_one_lists_the_known() {
        for s in Strength::ALL {
            assert_eq!(Strength::from_name(s.name()), Ok(s));
        }
        let err = Strength::from_name("expert").unwrap_err();
        assert!(err.contains("beginner, easy, medium, strong"), "{err}");
    }

    #[test]
    fn each_level_searches_more_than_the_one_below() {
        for pair in Strength::ALL.windows(2) {
            assert!(pair[0].playouts() < pair[1].playouts(), "{pair:?}");
        }
    }
}
