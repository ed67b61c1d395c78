//! The descent's choice among a node's children: RAVE over the priors (the
//! win rate, prior knowledge counted as virtual simulations, blended with
//! the all-moves-as-first rate), plus the pull of the score where it
//! weighs (KataGo's score utility).
//!
//! Left out: which children are allowed (the caller's filter) and the
//! exploration term (none: the priors and RAVE explore).

use crate::tree::Node;
use tengen_core::Color;

/// RAVE equivalence: the visits at which AMAF and real statistics weigh the
/// same (Michi's 3500).
const RAVE_EQUIV: f32 = 3500.0;

/// Points of the score's scale per line of the board (KataGo's score
/// utility: a lead grows the pull less and less beyond a scale of about
/// three quarters of the board's side).
pub(super) const SCORE_SCALE_PER_LINE: f32 = 0.75;

/// The pull of the score on the descent (KataGo's score utility, read off
/// each node's mean margin): a child's value gains `weight * 2/pi *
/// atan((margin - center) / scale)`, its margin the mover's mean over its
/// simulations, its prior's virtual simulations counted at the center,
/// the center the root's mean margin (where the game stands). Where every
/// move wins, or every move loses, the win rates no longer part them and
/// the search drifts (a lead given away point by point); the score still
/// does. The win rates the search reports are left as they are.
#[derive(Clone, Copy, Debug)]
pub(super) struct ScorePull {
    pub(super) weight: f32,
    /// Black's margin at the center, in points.
    pub(super) black_center: f32,
    pub(super) scale: f32,
}

impl ScorePull {
    /// The pull for the children `mover` chooses among: the center and
    /// the margins from his side.
    #[inline]
    pub(super) fn for_mover(self, mover: Color) -> MoverPull {
        let sign = mover.sign();
        MoverPull {
            weight: self.weight,
            center: sign * self.black_center,
            sign,
            scale: self.scale,
        }
    }
}

/// A [`ScorePull`] from one player's side.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoverPull {
    weight: f32,
    center: f32,
    sign: f32,
    scale: f32,
}

impl MoverPull {
    /// The pull on a child of `visits` real simulations and `virtual`
    /// simulations of its prior (never negative): none before its first
    /// simulation, where its mean is the center (most children of a 19x19
    /// node, so the descent skips their `atan`).
    #[inline]
    fn of(self, child: &Node, visits: f32, virtual_visits: f32) -> f32 {
        if visits <= 0.0 {
            return 0.0;
        }
        let all = visits + virtual_visits;
        let margin = self.sign * child.black_margin() as f32;
        let mean = (visits * margin + virtual_visits * self.center) / all;
        self.weight * std::f32::consts::FRAC_2_PI * ((mean - self.center) / self.scale).atan()
    }
}

/// The child the descent takes: the best by a blend (RAVE's) of its win
/// rate (prior knowledge counted as virtual simulations) and its AMAF win
/// rate, plus the pull of its score when asked; `None` when none is
/// allowed.
#[inline]
pub(super) fn select(
    kids: &[Node],
    pull: Option<MoverPull>,
    allowed: impl Fn(&Node) -> bool,
) -> Option<&Node> {
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    for c in kids.iter().filter(|c| allowed(c)) {
        let (real, w) = c.stats();
        let (prior_visits, prior_wins) = c.prior();
        let n = real + prior_visits;
        let w = w + prior_wins;
        let rate = if n > 0.0 { w / n } else { 0.5 };
        let (an, aw) = c.amaf();
        // A learned prior also starts the AMAF statistics (Gelly and
        // Silver 2007), else the all-moves-as-first values of random
        // playouts drown it within a few hundred simulations.
        let (an, aw) = if c.policy().is_some() {
            (an + prior_visits, aw + prior_wins)
        } else {
            (an, aw)
        };
        let value = if an > 0.0 {
            let beta = an / (an + n + n * an / RAVE_EQUIV);
            (1.0 - beta) * rate + beta * aw / an
        } else {
            rate
        } + pull.map_or(0.0, |p| p.of(c, real, prior_visits));
        if best.is_none() || value > best_value {
            best_value = value;
            best = Some(c);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heavy_playout::WIN;
    use crate::tree::Leaf;
    use tengen_core::Move;

    /// A node of `visits` simulations, each with Black's margin `black`
    /// points, and `virtual_visits` of prior.
    fn node(visits: u32, black: i32, virtual_visits: f32) -> Node {
        let n = Node::new(Move::Pass, (virtual_visits, 0.0), None, Leaf::Open);
        for _ in 0..visits {
            n.enter();
            n.record(0, black * 8);
        }
        n
    }

    #[test]
    fn the_score_pulls_towards_the_larger_margin_of_the_mover_bounded_by_its_weight() {
        let pull = ScorePull {
            weight: 0.2,
            black_center: 10.0,
            scale: 10.0,
        };
        let black = pull.for_mover(Color::Black);
        let white = pull.for_mover(Color::White);
        let of = |p: MoverPull, n: &Node| p.of(n, n.stats().0, n.prior().0);
        // At the center nothing; ten points above, atan(1) of the way.
        assert_eq!(of(black, &node(4, 10, 0.0)), 0.0);
        let ahead = of(black, &node(4, 20, 0.0));
        assert!((ahead - 0.1).abs() < 1e-6, "{ahead}");
        // White's gain is Black's loss, from White's side.
        assert!((of(white, &node(4, 0, 0.0)) - 0.1).abs() < 1e-6);
        assert!((of(black, &node(4, 0, 0.0)) + 0.1).abs() < 1e-6);
        // The prior's virtual simulations count at the center.
        let damped = of(black, &node(4, 20, 4.0));
        assert!((damped - 0.2 * std::f32::consts::FRAC_2_PI * 0.5f32.atan()).abs() < 1e-6);
        // Nothing known, or only the prior, no pull (at any center);
        // however large the margin, below the weight.
        assert_eq!(of(black, &node(0, 0, 0.0)), 0.0);
        for center in [0.1, -7.3, 33.0] {
            let p = ScorePull {
                black_center: center,
                ..pull
            };
            assert_eq!(of(p.for_mover(Color::Black), &node(0, 0, 3.0)), 0.0);
            assert_eq!(of(p.for_mover(Color::White), &node(0, 0, 3.0)), 0.0);
        }
        assert!(of(black, &node(4, 10_000, 0.0)) < 0.2);
    }

    #[test]
    fn the_pull_parts_children_the_win_rate_does_not() {
        let won = |black: i32| {
            let n = node(0, 0, 0.0);
            for _ in 0..10 {
                n.enter();
                n.record(WIN, black * 8);
            }
            n
        };
        let kids = [won(5), won(30), won(15)];
        let pull = ScorePull {
            weight: 0.1,
            black_center: 15.0,
            scale: 14.0,
        }
        .for_mover(Color::Black);
        let chosen = select(&kids, Some(pull), |_| true).unwrap();
        assert_eq!(chosen.black_margin(), 30.0);
        // Without it the first of the equals.
        let chosen = select(&kids, None, |_| true).unwrap();
        assert_eq!(chosen.black_margin(), 5.0);
    }
}
