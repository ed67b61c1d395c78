//! The root's statistics as an [`Analysis`]: the candidates best first
//! with their principal variations, the priors normalised over the moves
//! shown, and the ownership of the playouts so far. Moves a [`Filter`]
//! forbids are not shown.
//!
//! Left out: the move to play ([`super::decide`]) and the text of GTP
//! analysis lines (`tengen-gtp`'s).

use super::filter::Filter;
use super::worker::Shared;
use super::{Analysis, Candidate};
use crate::tree::Node;
use std::sync::atomic::Ordering;
use tengen_core::{Color, Move};

impl Shared<'_> {
    /// What the tree says now (threads may still be adding to it).
    pub(super) fn analysis(&self) -> Analysis {
        let to_move = self.game.to_move();
        let sign = match to_move {
            Color::Black => 1.0,
            Color::White => -1.0,
        };
        let kids: Vec<&Node> = self
            .root
            .kids()
            .iter()
            .filter(|c| !self.filter.forbids(to_move, c.mv, 1))
            .collect();
        // The learned probability where there is one, else the prior win
        // rate, normalised over the moves shown.
        let prior_of = |c: &Node| {
            let (n, w) = c.prior();
            f64::from(c.policy().unwrap_or_else(|| w / n.max(1.0)))
        };
        let prior_sum: f64 = kids.iter().map(|c| prior_of(c)).sum();
        let mut candidates: Vec<Candidate> = kids
            .iter()
            .filter(|c| c.visits() > 0)
            .map(|c| Candidate {
                mv: c.mv,
                visits: u64::from(c.visits()),
                winrate: c.winrate(),
                prior: prior_of(c) / prior_sum.max(1e-9),
                score_lead: sign * c.black_margin(),
                pv: principal_variation(c, self.filter, to_move.opponent()),
            })
            .collect();
        candidates.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
        });
        let owned = self.owned.load(Ordering::Relaxed).max(1) as f32;
        let ownership = self
            .ownership
            .iter()
            .map(|a| a.load(Ordering::Relaxed) as f32 / owned)
            .collect();
        let (winrate, score_lead) = match candidates.first() {
            Some(c) => (c.winrate, c.score_lead),
            None => (0.5, sign * self.root.black_margin()),
        };
        Analysis {
            to_move,
            visits: u64::from(self.root.visits()),
            winrate,
            score_lead,
            candidates,
            ownership,
        }
    }
}

/// The line of most-visited moves from `node` (a move of the root),
/// its own move first, through moves `filter` allows; `color` replies to
/// `node`.
fn principal_variation(node: &Node, filter: &Filter, mut color: Color) -> Vec<Move> {
    let mut pv = vec![node.mv];
    let mut at = node;
    let mut depth = 2;
    while let Some(next) = at.best_child(|c| !filter.forbids(color, c.mv, depth)) {
        if next.visits() == 0 || pv.len() >= 24 {
            break;
        }
        pv.push(next.mv);
        at = next;
        color = color.opponent();
        depth += 1;
    }
    pv
}
