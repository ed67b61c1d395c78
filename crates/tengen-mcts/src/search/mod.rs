//! The Monte-Carlo tree search: UCT with RAVE (all moves as first) and
//! prior knowledge, heavy playouts (`heavy_playout.rs`), a tree
//! shared by all threads through atomics, and the tree kept between moves.
//!
//! Every move in the tree is checked by [`Game`] with the full rules,
//! repetition rule included, when its parent is expanded; playouts run on
//! the fast board with simple ko. Win rates are for the player to move.
//!
//! | file | concern |
//! |---|---|
//! | this one | what a search is asked ([`Request`]) and answers ([`Analysis`], [`Decision`]); [`Search`] |
//! | `filter.rs` | the avoid/allow restrictions of analysis tools ([`Restrictions`]) |
//! | `reuse.rs` | the tree kept between moves |
//! | `prune.rs` | the kept tree cut to leave the new search room |
//! | `worker.rs` | the threads: descent, expansion with priors, playout, backup |
//! | `select.rs` | the descent's choice among a node's children: RAVE over the priors, the score's pull |
//! | `batch.rs` | the network's evaluations, gathered in batches |
//! | `analysis.rs` | the root's statistics as an [`Analysis`] |
//! | `decide.rs` | the move chosen from an analysis: resignation, passing, cleanup |
//! | `check.rs` | the value network's second look at the best moves before one is played |
//!
//! Left out: the dead-stone estimate of a finished game, which needs no
//! tree ([`crate::ownership`]), and the clock ([`crate::time`]).

mod analysis;
mod batch;
mod check;
mod decide;
mod filter;
#[cfg(all(test, feature = "net"))]
mod network_tests;
mod prune;
mod reuse;
mod select;
mod worker;

pub use filter::{Restriction, RestrictionKind, Restrictions};

use crate::book::Book;
use crate::prior::Knowledge;
use crate::tree::Node;
use crate::value::ValueSource;
use filter::Filter;
use reuse::{Kept, KeptOwners};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tengen_core::{Color, Game, Move};
use worker::Shared;

/// The network's batch below the root: on two cores a batch of 8 costs
/// about half as much per position as one position at a time
/// (`tengen bench net`), and waits for no more than 8 nodes to reach the
/// network's threshold.
pub const DEFAULT_NETWORK_BATCH: usize = 8;

/// How the search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Worker threads.
    pub threads: usize,
    /// Seed of the playouts (thread `i` uses `seed + i`).
    pub seed: u64,
    /// Resign when the best move's win rate is below this; `None` never
    /// resigns.
    pub resign_below: Option<f64>,
    /// What the tree knows of a move before playing it out.
    pub knowledge: Knowledge,
    /// Positions the network evaluates at once below the root (with
    /// [`Knowledge::Net`]); 1 asks it node by node.
    pub network_batch: usize,
    /// Whether [`Search::genmove`] plays the opening book's move where it
    /// knows one ([`crate::book`]; never with [`Knowledge::None`]).
    pub book: bool,
    /// Whether the fights are read where the network is asked: the moves
    /// that save a chain in danger or take one that could escape add to
    /// their learned prior (read by `tengen-tactics`'s reader, chains of
    /// one or two liberties).
    pub reading: bool,
    /// Whether the playouts learn, in each search, the replies that won
    /// and try them again (last good reply with forgetting; off by default,
    /// no clear gain measured: see the README's "Last good replies").
    pub last_good_reply: bool,
    /// The weight of the score in the descent, beside the win rate (0:
    /// the win rate alone): KataGo's score utility, so that a search
    /// where every move wins (or loses) still prefers the larger margin.
    /// `None`: the board's default, [`default_score_weight`].
    pub score_weight: Option<f32>,
    /// Whether [`Search::genmove`] has the value network look at the
    /// moves the search ranks close to its best, on the boards it learned,
    /// and plays the best by both judgements (`check.rs`; off by default).
    pub check_moves: bool,
    /// The weight of the value network's judgement in each simulation's
    /// result, 0 to 1 (0: the playouts alone).
    pub value_weight: f32,
    /// Simulations through a node before the value network judges it
    /// (with a `value_weight` above 0; the root is judged at once).
    pub judge_at: u32,
    /// The value network that judges.
    pub value: ValueSource,
    /// Whether the value network's judgement of the root gives the
    /// standing the analysis reports, on the boards it learned
    /// ([`crate::value::learned`]): the root's win rate, score lead and
    /// (half of) its ownership, each candidate's as far from it as the
    /// search puts it from the best move. The search ranks the moves; the
    /// network, far truer than the playouts about who is ahead on 19x19,
    /// says where the game stands. One judgement per search.
    pub judge_root: bool,
    /// Bytes the tree may take, the subtree kept from the last move
    /// included (as Pachi's `max_tree_size`): once full it stops growing
    /// and the search goes on within it, so a long think holds memory
    /// flat. The subtree kept is pruned to half of it before the next
    /// search, so that search has room to grow.
    pub tree_memory: usize,
}

/// The tree's memory where none is asked: 512 MiB, about five million
/// nodes, more than a minute of thinking on two cores.
pub const DEFAULT_TREE_MEMORY: usize = 512 << 20;

/// The value network's weight in each simulation's result where none is
/// asked: none. It judges held-out 19x19 games far better than the
/// playouts (`tengen evaluate`; see `knowledge/README.md`), and on 19x19
/// it gives the standing the search reports ([`SearchConfig::judge_root`]),
/// but a judgement costs as much as fifty playouts: at equal time, mixed
/// into the results (weight 0.5, each node judged at 40 simulations) it
/// lost 6 of 8 games of 19x19 at 1 s a move to the playouts alone; judged
/// only at 200 simulations (a fifth to a quarter of the playouts a
/// second), it won 11 of 20 against Pachi at 5 s a move, where the
/// playouts alone won 13 and 14 of 20. Measured again with the score's
/// pull (README, "On 19x19"), it won 20 of 20 against GNU Go level 10,
/// where the weight 0 won 57 of 60, but 4 of 10 against Pachi, where the
/// weight 0 won 17 of 20: the network, sure of fights it misreads, likely turns
/// the search away from them. So the weight stays 0.
pub const DEFAULT_VALUE_WEIGHT: f32 = 0.0;

/// Simulations through a node before the value network judges it, where
/// none is asked: the policy network's threshold, so that a judged node
/// has earned its price (judging at expansion, 8, cut the playouts five
/// times over).
pub const DEFAULT_JUDGE_AT: u32 = 40;

/// The weight of the score beside the win rate where none is asked, on
/// 19x19: there the playouts' win rates of every move drift together
/// (most lost games were leads given away over a hundred moves). At 5 s a
/// move the search won 28 of 40 games against Pachi without the score, 17
/// of 20 at this weight and 20 of 20 at 0.15; against GNU Go level 10, 57
/// of 60 at this weight and 17 of 20 at 0.15, where the larger weight
/// lost fights to its reading (see the README's "On 19x19").
pub const DEFAULT_SCORE_WEIGHT: f32 = 0.05;

/// The weight of the score where none is asked on a board of `size`:
/// [`DEFAULT_SCORE_WEIGHT`] on 19x19, where it was measured stronger; 0
/// elsewhere, where the win rate alone met its mark (9x9: 49 of 52 games
/// against Pachi at 1 s a move).
pub fn default_score_weight(size: tengen_core::BoardSize) -> f32 {
    if size.width() == 19 && size.height() == 19 {
        DEFAULT_SCORE_WEIGHT
    } else {
        0.0
    }
}

impl SearchConfig {
    /// The score's weight on a board of `size`: the one asked, else the
    /// board's default.
    pub fn score_weight_on(&self, size: tengen_core::BoardSize) -> f32 {
        self.score_weight
            .unwrap_or_else(|| default_score_weight(size))
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: 0x7465_6e67_656e,
            resign_below: Some(0.1),
            knowledge: Knowledge::default(),
            network_batch: DEFAULT_NETWORK_BATCH,
            book: true,
            reading: false,
            last_good_reply: false,
            score_weight: None,
            check_moves: false,
            value_weight: DEFAULT_VALUE_WEIGHT,
            judge_at: DEFAULT_JUDGE_AT,
            value: ValueSource::Shipped,
            judge_root: true,
            tree_memory: DEFAULT_TREE_MEMORY,
        }
    }
}

/// When to stop thinking: at whichever limit comes first; none given
/// means [`Limit::DEFAULT_PLAYOUTS`] playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Simulations (tree descents with their playout) of this search.
    pub playouts: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Simulations in the root's tree, those kept from the last search
    /// counted (KataGo's `maxVisits` beside its `maxPlayouts`): a search
    /// that follows the line searched last spends only what the tree
    /// still lacks. The territory comes with the tree for the same
    /// position or one move on; deeper, the search runs at least
    /// [`Limit::TERRITORY_PLAYOUTS`] (no more than the limit) for one.
    pub visits: Option<u64>,
}

impl Limit {
    /// The simulations of a search given no limit.
    pub const DEFAULT_PLAYOUTS: u64 = 10_000;

    /// The playouts a limit of visits still runs where the tree kept came
    /// without its territory: enough for the dead stones of a settled
    /// position, about 50 ms on one thread on 19x19.
    pub const TERRITORY_PLAYOUTS: u64 = 100;

    /// The playouts a search of this limit runs from a root that holds
    /// `kept` simulations, their territory with them or not.
    fn playouts_from(self, kept: u64, territory: bool) -> u64 {
        let Limit {
            playouts,
            time,
            visits,
        } = self;
        if playouts.is_none() && time.is_none() && visits.is_none() {
            return Limit::DEFAULT_PLAYOUTS;
        }
        let lacking = visits.map_or(u64::MAX, |v| {
            let floor = if territory || kept == 0 {
                0
            } else {
                v.min(Limit::TERRITORY_PLAYOUTS)
            };
            v.saturating_sub(kept).max(floor)
        });
        playouts.unwrap_or(u64::MAX).min(lacking)
    }

    /// A limit of `n` simulations.
    pub fn playouts(n: u64) -> Limit {
        Limit {
            playouts: Some(n),
            ..Limit::default()
        }
    }

    /// A limit of `n` simulations in the tree, those kept included.
    pub fn visits(n: u64) -> Limit {
        Limit {
            visits: Some(n),
            ..Limit::default()
        }
    }

    /// A limit of `t` of thinking.
    pub fn time(t: Duration) -> Limit {
        Limit {
            time: Some(t),
            ..Limit::default()
        }
    }
}

/// A report interval and the function that receives the analysis so far
/// (live analysis for GUIs).
pub type Reporter<'a> = (Duration, &'a mut dyn FnMut(&Analysis));

/// How a move is chosen at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenMode {
    /// Pass when passing is best; dead stones are agreed afterwards.
    Normal,
    /// Capture the opponent's dead stones before passing (GTP
    /// `kgs-genmove_cleanup`, servers that count the board as it stands):
    /// two passes are counted with every stone alive, and the engine never
    /// passes while the opponent has dead stones on the board.
    Cleanup,
}

/// What the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A stone play or a pass.
    Move(Move),
    /// The engine resigns.
    Resign,
}

/// One move the search considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Simulations through it.
    pub visits: u64,
    /// Win rate for the player to move, 0..1.
    pub winrate: f64,
    /// The prior knowledge's opinion of the move, 0..1 (summing to 1 over
    /// the candidates of a position).
    pub prior: f64,
    /// Mean margin for the player to move, in points.
    pub score_lead: f64,
    /// The spread of the margins through the move, in points.
    pub score_stdev: f64,
    /// A lower confidence bound of the win rate (the mean less 1.96
    /// standard errors of a proportion over these visits).
    pub lcb: f64,
    /// The expected continuation, this move first.
    pub pv: Vec<Move>,
    /// The simulations through each move of `pv`.
    pub pv_visits: Vec<u64>,
    /// The ownership of the simulations through this move, as
    /// [`Analysis::ownership`]; only when [`Request::moves_ownership`].
    pub ownership: Option<Ownership>,
}

/// Who owned each point at the end of some simulations: one value per
/// point in the order of [`tengen_core::BoardSize::points`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ownership {
    /// The mean: +1.0 Black's at the end of every simulation, -1.0
    /// White's.
    pub mean: Vec<f32>,
    /// The standard deviation of the owner (+1, 0 or -1) over them.
    pub stdev: Vec<f32>,
}

/// What the search thinks of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The player the win rates are for.
    pub to_move: Color,
    /// Simulations in the tree (those kept from earlier moves included).
    pub visits: u64,
    /// The best move's win rate for the player to move.
    pub winrate: f64,
    /// The best move's win rate by the search's own statistics (the same
    /// as `winrate` unless the network judged the root): a resignation
    /// needs both to be low.
    pub searched_winrate: f64,
    /// The best move's mean margin for the player to move, in points.
    pub score_lead: f64,
    /// The spread of the margins of every simulation, in points.
    pub score_stdev: f64,
    /// The moves searched, best first.
    pub candidates: Vec<Candidate>,
    /// One per point in the order of [`tengen_core::BoardSize::points`]:
    /// +1.0 Black's at the end of every playout, -1.0 White's.
    pub ownership: Vec<f32>,
    /// The standard deviation of each point's owner over the playouts.
    pub ownership_stdev: Vec<f32>,
    /// The prior of every move of the root (the learned probability where
    /// there is one), normalised over them all, whatever the filter: the
    /// policy a client asks for.
    pub policy: Vec<(Move, f64)>,
}

/// What one search is asked: how long to think, how the end of the game
/// is played, which moves the tree may not choose, and who may stop it or
/// hear from it. [`Request::new`] gives the rest their defaults; set the
/// fields that differ:
///
/// ```
/// # use tengen_mcts::{GenMode, Limit, Request};
/// let cleanup = Request {
///     mode: GenMode::Cleanup,
///     ..Request::new(Limit::playouts(500))
/// };
/// assert!(cleanup.restrictions.is_empty());
/// ```
pub struct Request<'a> {
    /// When to stop thinking.
    pub limit: Limit,
    /// How the end of the game is played (and, for
    /// [`Search::genmove`], the move chosen): [`GenMode::Normal`] by
    /// default.
    pub mode: GenMode,
    /// Moves the tree may not choose, for this search only: they are
    /// neither searched nor reported, and never the decision. None by
    /// default.
    pub restrictions: &'a Restrictions,
    /// Stops the search before its limit once set (live analysis), once
    /// the root holds a simulation, so that it has its candidates; none by
    /// default.
    pub stop: Option<&'a AtomicBool>,
    /// Receives the analysis so far at an interval; none by default.
    pub report: Option<Reporter<'a>>,
    /// Whether each candidate's own ownership is shown; not by default.
    pub moves_ownership: bool,
}

/// What [`Request::new`] restricts: nothing.
static UNRESTRICTED: Restrictions = Restrictions::NONE;

impl<'a> Request<'a> {
    /// A search of `limit`, in [`GenMode::Normal`], with no restriction,
    /// no stop and no report.
    pub fn new(limit: Limit) -> Request<'a> {
        Request {
            limit,
            mode: GenMode::Normal,
            restrictions: &UNRESTRICTED,
            stop: None,
            report: None,
            moves_ownership: false,
        }
    }
}

impl fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("limit", &self.limit)
            .field("mode", &self.mode)
            .field("restrictions", self.restrictions)
            .field("stop", &self.stop)
            .field("report", &self.report.as_ref().map(|(every, _)| every))
            .field("moves_ownership", &self.moves_ownership)
            .finish()
    }
}

/// The search, keeping its tree between moves.
#[derive(Debug)]
pub struct Search {
    config: SearchConfig,
    kept: Option<Kept>,
}

impl Search {
    /// A search with no tree yet.
    pub fn new(config: SearchConfig) -> Search {
        Search { config, kept: None }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the number of worker threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.max(1);
    }

    /// Forgets the tree (a new game).
    pub fn clear(&mut self) {
        self.kept = None;
    }

    /// Thinks about `game` (phase Playing) for the side to move, as
    /// `request` says; reuses the tree when `game` extends the position
    /// searched last in the same mode and under the same restrictions.
    pub fn analyze(&mut self, game: &Game, request: Request<'_>) -> Analysis {
        let Request {
            limit,
            mode,
            restrictions,
            stop,
            report,
            moves_ownership,
        } = request;
        let (root, kept_nodes, owners) = self.root_for(game, mode, restrictions);
        let filter = Filter::new(restrictions);
        let never = AtomicBool::new(false);
        let stop = stop.unwrap_or(&never);
        let shared = Shared::new(game, &root, owners, mode, limit, stop, &filter)
            .holding(self.config.tree_memory, kept_nodes)
            .knowing(self.config.knowledge, self.config.network_batch)
            .reading(self.config.reading)
            .replying(self.config.last_good_reply)
            .scoring(self.config.score_weight_on(game.size()))
            .valuing(
                self.config.value_weight,
                self.config.judge_at,
                self.config.value,
                self.config.judge_root,
            )
            .showing_moves_ownership(moves_ownership);
        shared.search(self.config.threads.max(1), self.config.seed, report);
        let analysis = shared.analysis();
        let owners = shared.into_owners();
        self.kept = Some(Kept {
            game: game.clone(),
            mode,
            restrictions: restrictions.clone(),
            root,
            owners,
        });
        analysis
    }

    /// The root to search `game` from, the nodes under it and the
    /// ownership of the playouts through it: the subtree kept from the last
    /// search where it fits the position, its least-visited lines pruned.
    fn root_for(
        &mut self,
        game: &Game,
        mode: GenMode,
        restrictions: &Restrictions,
    ) -> (Node, usize, Option<KeptOwners>) {
        let Some(kept) = self.kept.take() else {
            return (Node::root(), 0, None);
        };
        let (mut root, owners) = kept.into_root(game, mode, restrictions);
        let nodes = prune::prune_kept(&mut root, self.config.tree_memory);
        (root, nodes, owners)
    }

    /// [`Search::analyze`], then the move to play in `request`'s mode: the
    /// most visited, unless the search resigns, passes to end a game it
    /// wins as the board stands, or captures dead stones before passing
    /// ([`GenMode::Cleanup`]), or the value network's check picks another
    /// of its best ([`SearchConfig::check_moves`]).
    ///
    /// In the opening, the book's move where it knows one (in
    /// [`GenMode::Normal`], with learned knowledge and no restriction);
    /// the search still runs, for its analysis and the tree kept.
    pub fn genmove(&mut self, game: &Game, request: Request<'_>) -> (Decision, Analysis) {
        let mode = request.mode;
        let booked = (self.config.book
            && self.config.knowledge != Knowledge::None
            && mode == GenMode::Normal
            && request.restrictions.is_empty())
        .then(|| Book::shipped().lookup(game))
        .flatten();
        let analysis = self.analyze(game, request);
        let decision = match booked {
            Some(p) => Decision::Move(Move::Play(p)),
            None => match decide::decide(game, &analysis, mode, self.config.resign_below) {
                Decision::Move(mv) if mode == GenMode::Normal => {
                    Decision::Move(self.checked(game, &analysis, mv))
                }
                decision => decision,
            },
        };
        (decision, analysis)
    }

    /// `mv`, the search's best in `analysis`, or the move the value
    /// network's check plays in its place where it is asked for
    /// ([`SearchConfig::check_moves`]) on a board the network learned.
    fn checked(&self, game: &Game, analysis: &Analysis, mv: Move) -> Move {
        let asked = self.config.check_moves
            && crate::value::learned(game.size())
            && analysis.candidates.first().map(|c| c.mv) == Some(mv);
        // The network only where the check is asked for: reading it in
        // loads the shipped weights, which a 9x9 game never needs.
        match asked.then(|| self.config.value.network()).flatten() {
            Some(network) => {
                let weight = self.config.score_weight_on(game.size());
                check::check(game, analysis, network, weight).unwrap_or(mv)
            }
            None => mv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{BoardSize, Preset};

    #[test]
    fn the_tree_stays_within_its_memory_the_kept_subtree_counted() {
        let nodes = 3_000;
        let mut search = Search::new(SearchConfig {
            threads: 2,
            book: false,
            tree_memory: nodes * std::mem::size_of::<Node>(),
            ..SearchConfig::default()
        });
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        // One expansion per thread may pass the bound by a node's children.
        let slack = 2 * 82;
        for _ in 0..3 {
            let (decision, _) = search.genmove(&game, Request::new(Limit::playouts(20_000)));
            let kept = search.kept.as_ref().map_or(0, |k| k.root.size());
            assert!(kept <= nodes + slack, "{kept} nodes");
            assert!(kept >= nodes / 2, "{kept} nodes: the tree grew");
            match decision {
                Decision::Move(mv) => game.play(mv).unwrap(),
                other => panic!("{other:?}"),
            };
        }
    }

    #[test]
    fn the_score_weighs_by_default_on_19x19_alone() {
        let size = |n| BoardSize::square(n).unwrap();
        assert_eq!(default_score_weight(size(19)), DEFAULT_SCORE_WEIGHT);
        const { assert!(DEFAULT_SCORE_WEIGHT > 0.0) };
        for n in [9, 13] {
            assert_eq!(default_score_weight(size(n)), 0.0);
        }
        assert_eq!(SearchConfig::default().score_weight, None);
    }

    #[test]
    fn a_limit_of_visits_counts_the_kept_tree_and_spends_only_what_it_lacks() {
        let mut search = bookless();
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let (decision, _) = search.genmove(&game, Request::new(Limit::playouts(2_000)));
        let mv = play(&mut game, decision);
        let (_, kept, _) = kept_under(&search, mv);
        assert!(kept > 100, "{kept} simulations kept");
        // The tree already holds more than asked: nothing is added.
        let a = search.analyze(&game, Request::new(Limit::visits(u64::from(kept) / 2)));
        assert_eq!(a.visits, u64::from(kept));
        // Asked for 300 more than it holds: 300 are run, on one thread.
        let a = search.analyze(&game, Request::new(Limit::visits(u64::from(kept) + 300)));
        assert_eq!(a.visits, u64::from(kept) + 300);
        // A limit of playouts counts only this search's.
        let a = search.analyze(&game, Request::new(Limit::playouts(300)));
        assert_eq!(a.visits, u64::from(kept) + 600);
    }

    #[test]
    fn a_search_stopped_before_it_starts_still_answers_a_move_on_the_board() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(19).unwrap());
        let stop = AtomicBool::new(true);
        for threads in [1, 2] {
            let mut search = Search::new(SearchConfig {
                book: false,
                threads,
                ..SearchConfig::default()
            });
            let request = Request {
                stop: Some(&stop),
                ..Request::new(Limit::playouts(10_000))
            };
            let (decision, analysis) = search.genmove(&game, request);
            assert!(!analysis.candidates.is_empty());
            assert!(analysis.visits <= threads as u64, "{}", analysis.visits);
            assert!(
                matches!(decision, Decision::Move(Move::Play(_))),
                "{decision:?}"
            );
            // The tree kept holds its simulations: a stop adds none.
            let kept = search.analyze(&game, Request::new(Limit::visits(200)));
            let request = Request {
                stop: Some(&stop),
                ..Request::new(Limit::playouts(10_000))
            };
            assert_eq!(search.analyze(&game, request).visits, kept.visits);
        }
    }

    #[test]
    fn the_ownership_of_the_playouts_kept_comes_with_the_tree() {
        let mut search = bookless();
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let shown = |limit| Request {
            moves_ownership: true,
            ..Request::new(limit)
        };
        let first = search.analyze(&game, shown(Limit::playouts(2_000)));
        // The same position, no playout added: the same territory, each
        // move's included.
        let again = search.analyze(&game, shown(Limit::visits(1)));
        assert_eq!(again.visits, first.visits);
        assert_eq!(again.ownership, first.ownership);
        assert_eq!(again.ownership_stdev, first.ownership_stdev);
        assert_eq!(again.candidates, first.candidates);
        // One move on: the territory of the playouts through the move.
        let best = &first.candidates[0];
        let through = best.ownership.as_ref().expect("asked for");
        assert!(through.mean.iter().any(|&o| o != 0.0));
        game.play(best.mv).unwrap();
        let next = search.analyze(&game, Request::new(Limit::visits(1)));
        assert_eq!(next.visits, best.visits);
        assert_eq!(next.ownership, through.mean);
    }

    /// A search without the book, its tree of the default size.
    fn bookless() -> Search {
        small_tree(DEFAULT_TREE_MEMORY / std::mem::size_of::<Node>())
    }

    /// A search whose tree holds `nodes` nodes, without the book.
    fn small_tree(nodes: usize) -> Search {
        Search::new(SearchConfig {
            book: false,
            tree_memory: nodes * std::mem::size_of::<Node>(),
            ..SearchConfig::default()
        })
    }

    /// The move decided, played in `game`.
    fn play(game: &mut Game, decision: Decision) -> Move {
        let Decision::Move(mv) = decision else {
            panic!("{decision:?}");
        };
        assert!(game.is_legal(mv), "{mv:?}");
        game.play(mv).unwrap();
        mv
    }

    /// The subtree kept for the move `mv` just played: its size, its root's
    /// visits and its root's children with theirs.
    fn kept_under(search: &Search, mv: Move) -> (usize, u32, Vec<(Move, u32)>) {
        let kept = search.kept.as_ref().expect("a tree kept");
        let child = kept.root.kids().iter().find(|c| c.mv == mv).unwrap();
        let kids = child.kids().iter().map(|k| (k.mv, k.visits())).collect();
        (child.size(), child.visits(), kids)
    }

    #[test]
    fn the_kept_tree_is_pruned_to_half_its_memory_the_root_moves_kept() {
        let nodes = 3_000;
        let mut search = small_tree(nodes);
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let mut pruned = 0;
        for _ in 0..10 {
            let (decision, _) = search.genmove(&game, Request::new(Limit::playouts(5_000)));
            let mv = play(&mut game, decision);
            let (before, visits, kids) = kept_under(&search, mv);
            let (root, counted, owners) =
                search.root_for(&game, GenMode::Normal, &Restrictions::NONE);
            let size = root.size();
            assert_eq!(counted, size);
            assert!(size <= nodes / 2, "{size} nodes of {before}");
            if before > nodes / 2 {
                pruned += 1;
                // The best lines stay, not the root's children alone.
                assert!(size > kids.len(), "{size} nodes");
            } else {
                assert_eq!(size, before);
            }
            // A move the full tree never expanded keeps its visits.
            assert_eq!(root.visits(), visits);
            let after: Vec<(Move, u32)> = root.kids().iter().map(|k| (k.mv, k.visits())).collect();
            assert_eq!(after, kids);
            search.kept = Some(Kept {
                game: game.clone(),
                mode: GenMode::Normal,
                restrictions: Restrictions::NONE,
                root,
                owners: owners.expect("the move played was searched"),
            });
        }
        assert!(pruned > 0, "no kept tree was over half the memory");
    }

    #[test]
    fn a_search_from_a_pruned_tree_plays_legal_moves_its_root_visits_kept() {
        let nodes = 2_000;
        let playouts = 3_000;
        let mut search = small_tree(nodes);
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let (decision, _) = search.genmove(&game, Request::new(Limit::playouts(playouts)));
        let mut mv = play(&mut game, decision);
        let mut pruned = 0;
        for _ in 0..4 {
            let (before, visits, kids) = kept_under(&search, mv);
            pruned += usize::from(before > nodes / 2);
            let (decision, a) = search.genmove(&game, Request::new(Limit::playouts(playouts)));
            assert!(
                a.visits >= u64::from(visits) + playouts,
                "{} {visits}",
                a.visits
            );
            // Every move of the root has its visits of the last search and
            // more: none was pruned.
            for (m, v) in kids.into_iter().filter(|&(_, v)| v > 0) {
                let c = a.candidates.iter().find(|c| c.mv == m).unwrap();
                assert!(c.visits >= u64::from(v), "{m:?}: {} < {v}", c.visits);
            }
            mv = play(&mut game, decision);
        }
        assert!(pruned > 0, "no kept tree was over half the memory");
    }

    #[test]
    fn the_opening_book_plays_where_it_knows_the_position() {
        let mut game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let booked = Book::shipped()
            .lookup(&game)
            .expect("the 9x9 book knows the empty board");
        let mut search = Search::new(SearchConfig::default());
        let (d, a) = search.genmove(&game, Request::new(Limit::playouts(50)));
        assert_eq!(d, Decision::Move(Move::Play(booked)));
        // The search ran all the same.
        assert!(a.visits >= 50);
        // Past a pass, the book knows nothing.
        game.play(Move::Pass).unwrap();
        assert_eq!(Book::shipped().lookup(&game), None);
    }

    #[test]
    fn a_search_on_the_empty_board_returns_a_legal_move() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let mut search = Search::new(SearchConfig::default());
        let (d, a) = search.genmove(&game, Request::new(Limit::playouts(300)));
        let Decision::Move(mv) = d else {
            panic!("resigned on the empty board");
        };
        assert!(game.is_legal(mv));
        assert_eq!(a.ownership.len(), 81);
        assert!(a.visits >= 300);
    }

    fn at(game: &Game, x: u32, y: u32) -> Move {
        Move::Play(game.size().point(x, y).unwrap())
    }

    fn clause(kind: RestrictionKind, color: Color, moves: Vec<Move>, depth: u32) -> Restrictions {
        Restrictions {
            clauses: vec![Restriction {
                kind,
                color,
                moves,
                until_depth: depth,
            }],
        }
    }

    fn restricted(search: &mut Search, game: &Game, playouts: u64, r: &Restrictions) -> Analysis {
        let request = Request {
            restrictions: r,
            ..Request::new(Limit::playouts(playouts))
        };
        search.analyze(game, request)
    }

    #[test]
    fn avoided_moves_are_neither_reported_nor_chosen() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(5).unwrap());
        let avoided: Vec<Move> = (1..4)
            .flat_map(|x| (1..4).map(move |y| (x, y)))
            .map(|(x, y)| at(&game, x, y))
            .collect();
        let r = clause(RestrictionKind::Avoid, Color::Black, avoided.clone(), 1);
        let mut search = Search::new(SearchConfig::default());
        let request = Request {
            restrictions: &r,
            ..Request::new(Limit::playouts(500))
        };
        let (d, a) = search.genmove(&game, request);
        assert!(!a.candidates.is_empty());
        assert!(a.candidates.iter().all(|c| !avoided.contains(&c.mv)));
        assert!(matches!(d, Decision::Move(mv) if !avoided.contains(&mv)));
        // The same search again keeps its tree and its restrictions.
        let again = restricted(&mut search, &game, 100, &r);
        assert!(again.visits >= a.visits + 100);
        assert!(again.candidates.iter().all(|c| !avoided.contains(&c.mv)));
        // They do not leak into the next search: the centre comes back.
        let (_, free) = search.genmove(&game, Request::new(Limit::playouts(500)));
        assert!(free.visits < a.visits + 500, "the bent tree was dropped");
        assert!(free.candidates.iter().any(|c| c.mv == at(&game, 2, 2)));
    }

    #[test]
    fn allow_keeps_the_root_to_the_listed_moves_and_a_pass() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(5).unwrap());
        let allowed = vec![at(&game, 0, 0), at(&game, 4, 4)];
        let r = clause(RestrictionKind::Allow, Color::Black, allowed.clone(), 1);
        let mut search = Search::new(SearchConfig::default());
        let a = restricted(&mut search, &game, 400, &r);
        assert!(!a.candidates.is_empty());
        for c in &a.candidates {
            assert!(allowed.contains(&c.mv) || c.mv == Move::Pass, "{:?}", c.mv);
        }
        // The replies are White's and not restricted.
        assert!(a.candidates.iter().any(|c| c.pv.len() > 1));
    }

    #[test]
    fn a_restriction_binds_only_its_colour_and_its_depth() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(5).unwrap());
        let centre = at(&game, 2, 2);
        let mut search = Search::new(SearchConfig::default());
        let white = clause(RestrictionKind::Avoid, Color::White, vec![centre], 2);
        let a = restricted(&mut search, &game, 1500, &white);
        assert!(a.candidates.iter().any(|c| c.mv == centre));
        // White, at depth 2, never answers in the centre.
        for c in &a.candidates {
            assert_ne!(c.pv.get(1), Some(&centre), "{:?}", c.pv);
        }
        // A pass is restricted only when named.
        let filter = Filter::new(&white);
        assert!(filter.forbids(Color::White, centre, 2));
        assert!(!filter.forbids(Color::White, centre, 3));
        assert!(!filter.forbids(Color::Black, centre, 1));
        assert!(!filter.forbids(Color::White, Move::Pass, 1));
        let allow = clause(RestrictionKind::Allow, Color::Black, vec![centre], 1);
        let filter = Filter::new(&allow);
        assert!(!filter.forbids(Color::Black, Move::Pass, 1));
        assert!(filter.forbids(Color::Black, at(&game, 0, 0), 1));
        let pass = clause(RestrictionKind::Avoid, Color::Black, vec![Move::Pass], 1);
        assert!(Filter::new(&pass).forbids(Color::Black, Move::Pass, 1));
    }

    /// The position of `text` (as [`tengen_core::Board::from_ascii`] reads
    /// it), `to_move` to play, under Chinese rules.
    fn position(text: &str, to_move: Color) -> Game {
        let board = tengen_core::Board::from_ascii(text).unwrap();
        let setup = tengen_core::Setup::of(&board, to_move);
        Game::from_setup(Preset::Chinese.rules(), &setup).unwrap()
    }

    #[test]
    fn the_tree_never_runs_into_a_working_ladder() {
        // Black's C3 is in atari; running to D3 leaves two liberties that
        // White's ladder takes. A black stone at E4 breaks the ladder: then
        // D3 saves the stone, and is searched.
        let working = "\
. . . . . . .
. . . . . . .
. . . . . . .
. . O . . . .
. O X . . . .
. . O O . . .
. . . . . . .";
        let broken = "\
. . . . . . .
. . . . . . .
. . . . . . .
. . O . X . .
. O X . . . .
. . O O . . .
. . . . . . .";
        for (text, works) in [(working, true), (broken, false)] {
            let game = position(text, Color::Black);
            let run = at(&game, 3, 4);
            let mut search = Search::new(SearchConfig::default());
            let a = search.analyze(&game, Request::new(Limit::playouts(2000)));
            let searched = a.candidates.iter().any(|c| c.mv == run);
            assert_eq!(searched, !works, "ladder works: {works}");
        }
    }

    /// 19x19, Black's wall on the fifth line from the left, White's on the
    /// fourth, `rows` long from the top: Black owns three quarters of the
    /// board; below shorter walls, a border is still open.
    fn walls(rows: u32) -> Game {
        let size = BoardSize::square(19).unwrap();
        let setup = tengen_core::Setup {
            size,
            black: (0..rows).map(|y| size.point(4, y).unwrap()).collect(),
            white: (0..rows).map(|y| size.point(3, y).unwrap()).collect(),
            to_move: Color::White,
            handicap: 0,
        };
        Game::from_setup(Preset::Chinese.rules(), &setup).unwrap()
    }

    /// The walls with the bottom four rows open: the network judges.
    fn walled() -> Game {
        walls(15)
    }

    #[test]
    fn a_closed_position_is_judged_by_its_count() {
        // Walls from top to bottom: nothing left to play. Black's 15
        // columns against White's 4, komi 7.5: Black by 201.5.
        let game = walls(19);
        for judge_root in [true, false] {
            let mut search = Search::new(SearchConfig {
                judge_root,
                ..SearchConfig::default()
            });
            let a = search.analyze(&game, Request::new(Limit::playouts(300)));
            // White to move.
            assert!((a.score_lead + 201.5).abs() < 1e-9, "{}", a.score_lead);
            assert!(a.winrate < 1e-3, "{}", a.winrate);
            assert!((a.score_stdev - 1.0).abs() < 1e-9);
        }
        // The same walls open at the bottom: no count.
        let mut search = Search::new(SearchConfig::default());
        let a = search.analyze(&walled(), Request::new(Limit::playouts(300)));
        assert!((a.score_stdev - 1.0).abs() > 1e-3, "{}", a.score_stdev);
    }

    #[cfg(feature = "net")]
    #[test]
    fn the_value_network_judges_with_the_weight_it_is_given() {
        let game = walled();
        let value = crate::value::ValueNetwork::shipped().unwrap();
        let judged = value.judge_game(&game);
        // One simulation: the root is expanded, one child played out from,
        // and the deepest judged position of that line is the root.
        let search = |weight: f32| {
            let mut s = Search::new(SearchConfig {
                value_weight: weight,
                judge_root: false,
                ..SearchConfig::default()
            });
            s.analyze(&game, Request::new(Limit::playouts(1)))
        };
        let white = 1.0 - f64::from(judged.black_wins);
        let unit = 1.0 / 64.0;
        // All weight on the network: its judgement, to the rounding of a
        // win into 64 parts, and its ownership.
        let all = search(1.0);
        assert!(
            (all.winrate - white).abs() <= unit,
            "{} against {white}",
            all.winrate
        );
        for (a, j) in all.ownership.iter().zip(&judged.ownership) {
            assert!((a - j).abs() < 1e-6);
        }
        // None: the playout alone, a win, a draw or a loss.
        let none = search(0.0);
        assert!([0.0, 0.5, 1.0].contains(&none.winrate), "{}", none.winrate);
        // Half and half.
        let half = search(0.5);
        assert!(
            (half.winrate - (white + none.winrate) / 2.0).abs() <= unit,
            "{} {} {}",
            half.winrate,
            white,
            none.winrate
        );
    }

    #[cfg(feature = "net")]
    #[test]
    fn a_node_is_judged_once_it_has_earned_it_and_only_on_the_boards_learned() {
        // Every node of the kept tree, with its simulations and whether it
        // was judged.
        fn nodes(n: &Node, out: &mut Vec<(u32, bool)>) {
            out.push((n.visits(), n.judged().is_some()));
            for k in n.kids() {
                nodes(k, out);
            }
        }
        let judged = |size: u32, judge_at: u32| {
            let game = Game::new(Preset::Chinese.rules(), BoardSize::square(size).unwrap());
            let mut search = Search::new(SearchConfig {
                value_weight: 0.5,
                judge_at,
                book: false,
                ..SearchConfig::default()
            });
            search.analyze(&game, Request::new(Limit::playouts(300)));
            let mut out = Vec::new();
            nodes(&search.kept.as_ref().unwrap().root, &mut out);
            out
        };
        for judge_at in [20, 60] {
            let tree = judged(19, judge_at);
            // The root at once; below it, every node that reached the
            // threshold (and was passed again), none before.
            assert!(tree[0].1);
            let below: Vec<_> = tree[1..].iter().filter(|(_, j)| *j).collect();
            assert!(!below.is_empty(), "judge_at {judge_at}");
            assert!(
                below.iter().all(|(v, _)| *v >= judge_at),
                "judge_at {judge_at}: {below:?}"
            );
            assert!(
                tree[1..]
                    .iter()
                    .filter(|(v, _)| *v >= judge_at)
                    .all(|(_, j)| *j)
            );
        }
        // The network learned 19x19 only: nothing judged on 9x9.
        assert!(judged(9, 20).iter().all(|(_, j)| !j));
    }

    #[cfg(feature = "net")]
    #[test]
    fn the_network_gives_the_standing_on_19x19_and_the_search_the_moves() {
        let game = walled();
        let judged = crate::value::ValueNetwork::shipped()
            .unwrap()
            .judge_game(&game);
        let mut search = Search::new(SearchConfig::default());
        let a = search.analyze(&game, Request::new(Limit::playouts(200)));
        let white = 1.0 - f64::from(judged.black_wins);
        assert!((a.winrate - white).abs() < 1e-6, "{} {white}", a.winrate);
        assert!((a.score_lead + f64::from(judged.black_lead)).abs() < 1e-4);
        // The spread of the lead is the network's, not the playouts'.
        assert!((a.score_stdev - f64::from(judged.spread)).abs() < 1e-4);
        assert!(a.candidates.iter().all(|c| c.score_stdev == a.score_stdev));
        // The search's own statistics are kept, and its order of moves.
        let visits: Vec<u64> = a.candidates.iter().map(|c| c.visits).collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]));
        assert!(
            a.candidates
                .iter()
                .all(|c| (0.0..=1.0).contains(&c.winrate))
        );
        assert!((0.0..=1.0).contains(&a.searched_winrate));
        // Without it, the playouts' standing.
        let mut plain = Search::new(SearchConfig {
            judge_root: false,
            ..SearchConfig::default()
        });
        let b = plain.analyze(&game, Request::new(Limit::playouts(200)));
        assert!((b.winrate - b.searched_winrate).abs() < 1e-12);
        // On 9x9, which the network never saw, the search's own.
        let small = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let c = search.analyze(&small, Request::new(Limit::playouts(200)));
        assert!((c.winrate - c.searched_winrate).abs() < 1e-12);
    }
}
