//! The root's statistics as an [`Analysis`]: the candidates best first
//! with their principal variations, the priors normalised over the moves
//! shown, the spread of their margins, and the ownership of the playouts
//! so far, those kept with the tree included (each candidate's own when
//! asked for). Moves a [`Filter`] forbids are not shown.
//!
//! The standing (the win rate and lead the best move starts from) is the
//! count where the borders are closed ([`counted`]), else the value
//! network's judgement where it gave one, else the search's own figures.
//!
//! Left out: the move to play ([`super::decide`]) and the text of GTP
//! analysis lines (`tengen-gtp`'s).

use super::filter::Filter;
use super::worker::{Owners, Shared, move_slot};
use super::{Analysis, Candidate, Ownership};
use crate::tree::Node;
use crate::value::Judgement;
use tengen_core::{Color, Game, Move};

impl Shared<'_> {
    /// What the tree says now (threads may still be adding to it).
    pub(super) fn analysis(&self) -> Analysis {
        let to_move = self.game.to_move();
        let sign = f64::from(to_move.sign());
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
        let all_sum: f64 = self.root.kids().iter().map(prior_of).sum();
        let policy = self
            .root
            .kids()
            .iter()
            .map(|c| (c.mv, prior_of(c) / all_sum.max(1e-9)))
            .collect();
        let moves_owner = self.shows_moves_owner.then(|| {
            self.moves_owner
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        });
        let cells = self.game.size().cells();
        let mut candidates: Vec<Candidate> = kids
            .iter()
            .filter(|c| c.visits() > 0)
            .map(|c| {
                let visits = u64::from(c.visits());
                let line = principal_variation(c, visits, self.filter, to_move.opponent());
                Candidate {
                    mv: c.mv,
                    visits,
                    winrate: c.winrate(),
                    prior: prior_of(c) / prior_sum.max(1e-9),
                    score_lead: sign * c.black_margin(),
                    score_stdev: c.margin_stdev(),
                    lcb: lower_bound(c.winrate(), visits),
                    pv: line.iter().map(|(mv, _)| *mv).collect(),
                    pv_visits: line.iter().map(|(_, n)| *n).collect(),
                    ownership: moves_owner.as_ref().map(|m| {
                        match m.get(move_slot(c.mv, cells)).and_then(Option::as_ref) {
                            Some(o) => ownership_of(o),
                            None => ownership_of(&Owners::new(self.ownership.len())),
                        }
                    }),
                }
            })
            .collect();
        drop(moves_owner);
        candidates.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
        });
        let all = ownership_of(&self.owners());
        let searched_winrate = candidates.first().map_or(0.5, |c| c.winrate);
        let judged = self.root_judgement.as_ref().filter(|_| self.root_judged);
        let standing = counted(self.game, &all.mean).or_else(|| judged.map(Standing::of));
        if let Some(s) = &standing {
            anchor(&mut candidates, s, to_move);
        }
        // The value network's ownership of the root weighs as much as its
        // judgement does in the results, or half where it gives the
        // standing (the playouts still see the captures to come).
        let weight = self.value_weight();
        let ownership = match (&self.root_judgement, judged) {
            (Some(j), _) if weight > 0.0 => j.mix_ownership(&all.mean, weight),
            (_, Some(j)) => j.mix_ownership(&all.mean, ROOT_OWNERSHIP_SHARE),
            _ => all.mean,
        };
        let (winrate, score_lead) = match (candidates.first(), &standing) {
            (Some(c), _) => (c.winrate, c.score_lead),
            (None, Some(s)) => s.for_mover(to_move),
            (None, None) => (0.5, sign * self.root.black_margin()),
        };
        Analysis {
            to_move,
            visits: u64::from(self.root.visits()),
            winrate,
            searched_winrate,
            score_lead,
            score_stdev: standing
                .as_ref()
                .map_or_else(|| self.root.margin_stdev(), |s| s.spread),
            candidates,
            ownership,
            ownership_stdev: all.stdev,
            policy,
        }
    }
}

/// The network's share of the root's ownership where it gives the
/// standing ([`super::SearchConfig::judge_root`]).
const ROOT_OWNERSHIP_SHARE: f32 = 0.5;

/// A region reaching both colours of at most this many points is dame
/// left unfilled, not a border still to be played. On the 35 counted
/// held-out Fox games, the widest at the final position was 3 points or
/// fewer in 34 (15 in the other), and at three quarters of the game 10 or
/// more in all.
const CLOSED_DAME: usize = 3;

/// The points of lead over which the count's win chance goes from a half
/// to about 73%, and the spread it reports: what is left to go wrong once
/// the borders are closed (a dame that fills a liberty, a ko, a chain
/// misjudged).
const COUNT_SCALE: f64 = 1.0;

/// Black's win chance, lead and its spread, as the root's standing.
pub(super) struct Standing {
    black_wins: f64,
    black_lead: f64,
    spread: f64,
}

impl Standing {
    /// The value network's judgement.
    pub(super) fn of(j: &Judgement) -> Standing {
        Standing {
            black_wins: f64::from(j.black_wins),
            black_lead: f64::from(j.black_lead),
            spread: f64::from(j.spread),
        }
    }

    /// The win chance and score lead of `mover`.
    pub(super) fn for_mover(&self, mover: Color) -> (f64, f64) {
        match mover {
            Color::Black => (self.black_wins, self.black_lead),
            Color::White => (1.0 - self.black_wins, -self.black_lead),
        }
    }
}

/// The count of `game` by its rules, the dead stones those the playouts'
/// `ownership` shows ([`crate::dead_stones`]), when every border is
/// closed (no region reaching both colours wider than [`CLOSED_DAME`],
/// none reaching no stone); `None` while the borders are open. On the 35
/// counted held-out Fox games at their final position this lead is off by
/// 0.4 points on average, the value network's by 4.0, the playouts' mean
/// margin by 7.1.
fn counted(game: &Game, ownership: &[f32]) -> Option<Standing> {
    let dead = crate::dead_stones(game, ownership);
    let map = game.region_map(&dead);
    if map.regions().neutral > 0 || map.widest_dame() > CLOSED_DAME {
        return None;
    }
    let lead = game.count(&map).margin.to_f64();
    Some(Standing {
        black_wins: 1.0 / (1.0 + (-lead / COUNT_SCALE).exp()),
        black_lead: lead,
        spread: COUNT_SCALE,
    })
}

/// Moves every candidate by what takes the best one to the root's
/// standing, seen by `mover`: the differences the search
/// finds between moves stay, in logits for the win rates and in points
/// for the leads; the spread of the lead is the standing's.
fn anchor(candidates: &mut [Candidate], standing: &Standing, mover: Color) {
    let Some(best) = candidates.first() else {
        return;
    };
    let logit = |p: f64| {
        let p = p.clamp(1e-4, 1.0 - 1e-4);
        (p / (1.0 - p)).ln()
    };
    let (win, lead) = standing.for_mover(mover);
    let shift = logit(win) - logit(best.winrate);
    let lead_shift = lead - best.score_lead;
    for c in candidates {
        c.winrate = 1.0 / (1.0 + (-(logit(c.winrate) + shift)).exp());
        c.lcb = 1.0 / (1.0 + (-(logit(c.lcb) + shift)).exp());
        c.score_lead += lead_shift;
        // The playouts' spread of margins says how random they are, not
        // how uncertain the lead is: the standing's says that.
        c.score_stdev = standing.spread;
    }
}

/// The mean owner of each point and its spread, from counts.
fn ownership_of(o: &Owners) -> Ownership {
    let n = o.count.max(1) as f32;
    let mean: Vec<f32> = o.sum.iter().map(|&s| s as f32 / n).collect();
    let stdev = mean
        .iter()
        .zip(&o.decided)
        .map(|(m, &d)| (d as f32 / n - m * m).max(0.0).sqrt())
        .collect();
    Ownership { mean, stdev }
}

/// A lower confidence bound of a win rate seen over `visits`: the mean
/// less 1.96 standard errors of a proportion (0 unvisited).
fn lower_bound(winrate: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    winrate - 1.96 * (winrate * (1.0 - winrate) / visits as f64).sqrt()
}

/// The line of most-visited moves from `node` (a move of the root), its
/// own move first (with `visits`, its count as the caller read it: a
/// search still running moves on between two reads), through moves
/// `filter` allows, with each move's visits; `color` replies to `node`.
fn principal_variation(
    node: &Node,
    visits: u64,
    filter: &Filter,
    mut color: Color,
) -> Vec<(Move, u64)> {
    let mut pv = vec![(node.mv, visits)];
    let mut at = node;
    let mut depth = 2;
    while let Some(next) = at.best_child(|c| !filter.forbids(color, c.mv, depth)) {
        if next.visits() == 0 || pv.len() >= 24 {
            break;
        }
        pv.push((next.mv, u64::from(next.visits())));
        at = next;
        color = color.opponent();
        depth += 1;
    }
    pv
}
