//! The search tree: nodes whose statistics are atomics, so that several
//! threads descend and update one tree without locks, and whose children are
//! created once (`OnceLock`) by whichever thread expands the node first.
//!
//! Visits are counted on the way down (a virtual loss that spreads threads
//! over different lines) and wins on the way back up.

use crate::heavy_playout::{PlayoutResult, WIN};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use tengen_core::{Move, Point};

/// Visits in the high half, wins in units of [`WIN`] in the low half: one
/// atomic add updates both.
const VISIT: u64 = 1 << 32;

/// The bits of a policy nobody gave (a NaN no model produces).
const NO_POLICY: u32 = u32::MAX;

/// The bits of a judgement nobody gave (two NaNs no network produces).
const NOT_JUDGED: u64 = u64::MAX;
/// The judgement of a node claimed by one thread and not yet given.
const JUDGING: u64 = u64::MAX - 1;

/// What is known about a node before any playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaf {
    /// An ordinary position: expand, or play out.
    Open,
    /// The game is over here with this result (two passes counted as the
    /// board stands, a capture goal reached).
    Terminal(PlayoutResult),
    /// Two passes under rules that remove dead stones: play out from here
    /// to judge the dead stones, never expand.
    Settle,
}

/// One node: the move that led here and its statistics, from the side of
/// the player who made that move.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) mv: Move,
    /// Virtual visits and wins of the prior knowledge (two f32, visits in
    /// the high half), replaced once if the network speaks later.
    prior: AtomicU64,
    /// The learned model's probability of the move (f32 bits), when it
    /// was asked.
    policy: AtomicU32,
    /// Whether the network was asked for the children's priors.
    asked: AtomicBool,
    /// The value network's judgement of the position (two f32, Black's
    /// chance to win in the high half, his lead in the low), or
    /// [`NOT_JUDGED`].
    judged: AtomicU64,
    pub(crate) leaf: Leaf,
    stats: AtomicU64,
    amaf: AtomicU64,
    /// Sum of Black's margins in eighths of a point.
    score: AtomicI64,
    /// Sum of the squares of those margins, for their spread.
    score_sq: AtomicU64,
    pub(crate) children: OnceLock<Box<[Node]>>,
}

impl Node {
    /// A node of `mv` with its prior (visits, wins) and the learned
    /// model's probability of the move, if asked.
    pub(crate) fn new(mv: Move, prior: (f32, f32), policy: Option<f32>, leaf: Leaf) -> Node {
        Node {
            mv,
            prior: AtomicU64::new(pack(prior.0, prior.1)),
            policy: AtomicU32::new(policy.map_or(NO_POLICY, f32::to_bits)),
            asked: AtomicBool::new(false),
            judged: AtomicU64::new(NOT_JUDGED),
            leaf,
            stats: AtomicU64::new(0),
            amaf: AtomicU64::new(0),
            score: AtomicI64::new(0),
            score_sq: AtomicU64::new(0),
            children: OnceLock::new(),
        }
    }

    /// Virtual visits and wins of the prior knowledge.
    #[inline]
    pub(crate) fn prior(&self) -> (f32, f32) {
        let bits = self.prior.load(Ordering::Relaxed);
        (
            f32::from_bits((bits >> 32) as u32),
            f32::from_bits(bits as u32),
        )
    }

    /// The learned model's probability of the move, if it was asked.
    #[inline]
    pub(crate) fn policy(&self) -> Option<f32> {
        let bits = self.policy.load(Ordering::Relaxed);
        (bits != NO_POLICY).then(|| f32::from_bits(bits))
    }

    /// Sets the prior knowledge (at expansion, or when a better model
    /// speaks: threads reading meanwhile see the old or the new).
    pub(crate) fn set_prior(&self, visits: f32, wins: f32, policy: Option<f32>) {
        self.prior.store(pack(visits, wins), Ordering::Relaxed);
        self.policy
            .store(policy.map_or(NO_POLICY, f32::to_bits), Ordering::Relaxed);
    }

    /// True for the one caller that first asks the network about this
    /// node's children.
    #[inline]
    pub(crate) fn claim_network(&self) -> bool {
        !self.asked.load(Ordering::Relaxed) && !self.asked.swap(true, Ordering::Relaxed)
    }

    /// Whether the network's priors of the children were asked for (and
    /// not handed back).
    #[cfg(all(test, feature = "net"))]
    pub(crate) fn network_asked(&self) -> bool {
        self.asked.load(Ordering::Relaxed)
    }

    /// Undoes [`Node::claim_network`] when the request was never answered.
    pub(crate) fn release_network(&self) {
        self.asked.store(false, Ordering::Relaxed);
    }

    /// A root with no statistics.
    pub(crate) fn root() -> Node {
        Node::new(Move::Pass, (0.0, 0.0), None, Leaf::Open)
    }

    /// Counts a visit on the way down.
    #[inline]
    pub(crate) fn enter(&self) {
        self.stats.fetch_add(VISIT, Ordering::Relaxed);
    }

    /// Adds the result of a simulation that went through this node, for
    /// `mover` (who made this node's move).
    #[inline]
    pub(crate) fn record(&self, wins: u32, margin: i32) {
        self.stats.fetch_add(u64::from(wins), Ordering::Relaxed);
        self.score.fetch_add(i64::from(margin), Ordering::Relaxed);
        let square = i64::from(margin).pow(2).unsigned_abs();
        self.score_sq.fetch_add(square, Ordering::Relaxed);
    }

    /// Adds an all-moves-as-first result.
    #[inline]
    pub(crate) fn record_amaf(&self, wins: u32) {
        self.amaf
            .fetch_add(VISIT | u64::from(wins), Ordering::Relaxed);
    }

    /// Visits (virtual visits of threads still descending included).
    #[inline]
    pub(crate) fn visits(&self) -> u32 {
        (self.stats.load(Ordering::Relaxed) >> 32) as u32
    }

    /// Visits and wins (a win counting 1, a draw 1/2).
    #[inline]
    pub(crate) fn stats(&self) -> (f32, f32) {
        let s = self.stats.load(Ordering::Relaxed);
        ((s >> 32) as f32, (s & 0xffff_ffff) as f32 / WIN as f32)
    }

    #[inline]
    pub(crate) fn amaf(&self) -> (f32, f32) {
        let s = self.amaf.load(Ordering::Relaxed);
        ((s >> 32) as f32, (s & 0xffff_ffff) as f32 / WIN as f32)
    }

    /// The value network's judgement of this node's position (Black's
    /// chance to win, Black's lead), once it was asked.
    #[inline]
    pub(crate) fn judged(&self) -> Option<(f32, f32)> {
        let bits = self.judged.load(Ordering::Relaxed);
        (bits != NOT_JUDGED && bits != JUDGING).then(|| {
            (
                f32::from_bits((bits >> 32) as u32),
                f32::from_bits(bits as u32),
            )
        })
    }

    /// True for the one caller that first claims the judgement of this
    /// node's position (none judged it before).
    #[inline]
    pub(crate) fn claim_judgement(&self) -> bool {
        self.judged.load(Ordering::Relaxed) == NOT_JUDGED
            && self
                .judged
                .compare_exchange(NOT_JUDGED, JUDGING, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Sets the value network's judgement of this node's position.
    pub(crate) fn set_judged(&self, black_wins: f32, black_lead: f32) {
        self.judged
            .store(pack(black_wins, black_lead), Ordering::Relaxed);
    }

    /// Win rate of the move for its mover, from real visits (0.5 unvisited).
    pub(crate) fn winrate(&self) -> f64 {
        let (n, w) = self.stats();
        if n > 0.0 { f64::from(w / n) } else { 0.5 }
    }

    /// Black's mean margin in points over the simulations through here.
    pub(crate) fn black_margin(&self) -> f64 {
        let n = self.visits();
        if n == 0 {
            0.0
        } else {
            self.score.load(Ordering::Relaxed) as f64 / 8.0 / f64::from(n)
        }
    }

    /// The standard deviation of the margins, in points, over the
    /// simulations through here (0 unvisited).
    pub(crate) fn margin_stdev(&self) -> f64 {
        let n = f64::from(self.visits());
        if n == 0.0 {
            return 0.0;
        }
        let mean = self.score.load(Ordering::Relaxed) as f64 / 8.0 / n;
        let mean_sq = self.score_sq.load(Ordering::Relaxed) as f64 / 64.0 / n;
        (mean_sq - mean * mean).max(0.0).sqrt()
    }

    /// The children, if expanded.
    #[inline]
    pub(crate) fn kids(&self) -> &[Node] {
        self.children.get().map_or(&[], |c| c)
    }

    /// The child among those `allowed` that a player would choose after
    /// the search: most visits, the win rate breaking ties.
    pub(crate) fn best_child(&self, allowed: impl Fn(&Node) -> bool) -> Option<&Node> {
        self.kids().iter().filter(|c| allowed(c)).max_by(|a, b| {
            a.visits()
                .cmp(&b.visits())
                .then(a.winrate().total_cmp(&b.winrate()))
        })
    }

    /// The nodes under this one, itself excluded (walked with a stack of
    /// its own, not by recursion); the search counts its nodes as it goes.
    #[cfg(test)]
    pub(crate) fn size(&self) -> usize {
        let mut count = 0;
        let mut waiting = vec![self];
        while let Some(node) = waiting.pop() {
            if let Some(kids) = node.children.get() {
                count += kids.len();
                waiting.extend(kids.iter());
            }
        }
        count
    }

    /// Makes this node a leaf again, its own statistics kept (pruning).
    /// The network is asked anew when it is expanded again, since its
    /// priors went with the children. The subtree is freed level by
    /// level: dropping it whole would recurse as deep as the tree.
    pub(crate) fn forget_children(&mut self) {
        *self.asked.get_mut() = false;
        let mut doomed: Vec<Box<[Node]>> = self.children.take().into_iter().collect();
        while let Some(mut kids) = doomed.pop() {
            doomed.extend(kids.iter_mut().filter_map(|k| k.children.take()));
        }
    }

    /// Takes the subtree under `mv` out of this node (tree reuse).
    pub(crate) fn into_child(self, mv: Move) -> Option<Node> {
        let kids = self.children.into_inner()?;
        kids.into_vec().into_iter().find(|c| c.mv == mv)
    }
}

/// The points of the stone plays among `nodes`, in their order (the pass
/// left out): the moves a model is asked about.
pub(crate) fn stone_points(nodes: &[Node]) -> Vec<Point> {
    nodes
        .iter()
        .filter_map(|k| match k.mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        })
        .collect()
}

/// Two f32 in one u64, the first in the high half.
fn pack(high: f32, low: f32) -> u64 {
    (u64::from(high.to_bits()) << 32) | u64::from(low.to_bits())
}
