//! The threads of one search: each descends the shared tree (UCT with
//! RAVE over the priors), expands a node once it has earned it (every move
//! the full rules allow, with its prior), plays the position out, and adds
//! the result to every node it passed and the AMAF results to their
//! children. The calling thread watches the clock and reports.
//!
//! Left out: the choice among a node's children ([`super::select`]), what
//! the tree says once the threads are done ([`super::analysis`]) and the
//! move chosen ([`super::decide`]).

use super::batch::{self, Batches, Pending};
use super::filter::Filter;
use super::reuse::KeptOwners;
use super::select::{SCORE_SCALE_PER_LINE, ScorePull, select};
use super::{GenMode, Limit, Reporter};
use crate::features::{Extractor, Position};
use crate::heavy_playout::{HeavyPlayout, Judge, PlayoutResult, Start};
use crate::model::PatternModel;
use crate::net::{self, Network};
use crate::prior::{Knowledge, Prior};
use crate::replies::Replies;
use crate::rng::Rng;
use crate::shape::ShapeModel;
use crate::tree::{Leaf, Node, stone_points};
use crate::urgent::{URGENT_LIMITS, Urgent, urgent_moves};
use crate::value::{Judgement, ValueNetwork, ValueSource};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tengen_core::{Color, Game, Move, Outcome, Phase, Point};
use tengen_tactics::{Reader, ladder_runs};

/// Simulations through a node before it is expanded.
const EXPAND_AT: u32 = 8;
/// Simulations through a node before the network is asked for its
/// children's priors (AlphaGo's threshold; the root is asked at once).
pub(super) const NETWORK_AT: u32 = 40;
/// Simulations between two flushes of a thread's ownership counts.
const OWNERSHIP_FLUSH: u32 = 16;

/// When a pass in `game` ends play, what the count as it then stands gives
/// the player to move: 1 a win, 1/2 a draw, 0 a loss.
fn ending_pass(game: &Game) -> Option<f32> {
    let mut after = game.clone();
    after.play(Move::Pass).ok()?;
    if after.phase() == Phase::Playing {
        return None;
    }
    let winner = match after.outcome() {
        Some(Outcome::Win { winner, .. }) => Some(*winner),
        Some(_) => None,
        None => after.score(&[]).winner(),
    };
    Some(match winner {
        Some(c) if c == game.to_move() => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

/// The last stone play of `game`, when its last turn was one.
fn last_play(game: &Game) -> Option<Point> {
    play_back(game, 1)
}

/// The stone play `back` turns ago (1: the last), if that turn played a
/// stone.
fn play_back(game: &Game, back: usize) -> Option<Point> {
    let turns = game.turns();
    match turns.len().checked_sub(back).map(|i| turns[i].mv) {
        Some(Move::Play(p)) => Some(p),
        _ => None,
    }
}

/// Everything the threads of one search share.
pub(super) struct Shared<'a> {
    pub(super) game: &'a Game,
    judge: Judge,
    knowledge: Knowledge,
    /// The network, when the knowledge is the network's.
    network: Option<&'static Network>,
    /// The nodes waiting for the network.
    batches: Batches<'a>,
    /// Whether the fights are read where the network is asked
    /// ([`crate::urgent`]).
    reading: bool,
    /// The last good replies the playouts learn and try, when asked.
    replies: Option<Replies>,
    /// The pull of the score on the descent, its center left at 0 (each
    /// descent centres it on the root), when the score weighs.
    score_pull: Option<ScorePull>,
    /// The value network and the weight of its judgement in each
    /// simulation's result, when it judges.
    value: Option<(&'static ValueNetwork, f32)>,
    /// Simulations through a node before the value network judges it.
    judge_at: u32,
    /// The value network's judgement of the root's position, when it
    /// judges the simulations or the root.
    pub(super) root_judgement: Option<Judgement>,
    /// Whether that judgement gives the standing reported
    /// ([`super::SearchConfig::judge_root`]).
    pub(super) root_judged: bool,
    pub(super) root: &'a Node,
    mode: GenMode,
    pub(super) filter: &'a Filter,
    max_playouts: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    done: AtomicBool,
    issued: AtomicU64,
    finished: AtomicUsize,
    /// Nodes in the tree, and how many it may hold.
    nodes: AtomicUsize,
    max_nodes: usize,
    pub(super) ownership: Vec<AtomicI32>,
    /// Per point, the playouts in which someone owned it (the sum of the
    /// owners' squares), for the spread.
    pub(super) decided: Vec<AtomicI32>,
    pub(super) owned: AtomicU64,
    /// Per move of the root, the ownership of the simulations through it
    /// (indexed by [`move_slot`]): shown when asked for, and kept with the
    /// tree so that the move played brings its playouts' ownership along.
    pub(super) moves_owner: Mutex<Vec<Option<Owners>>>,
    /// Whether the analysis shows each candidate's ownership.
    pub(super) shows_moves_owner: bool,
}

/// Ownership counts of some simulations: per point, the sum of the owners
/// (+1 Black, -1 White, 0 nobody) and of their squares.
#[derive(Clone, Debug)]
pub(super) struct Owners {
    pub(super) sum: Vec<i32>,
    pub(super) decided: Vec<i32>,
    pub(super) count: u32,
}

impl Owners {
    pub(super) fn new(n: usize) -> Owners {
        Owners {
            sum: vec![0; n],
            decided: vec![0; n],
            count: 0,
        }
    }

    fn add(&mut self, owner: &[i8]) {
        for ((s, d), &o) in self.sum.iter_mut().zip(&mut self.decided).zip(owner) {
            *s += i32::from(o);
            *d += i32::from(o != 0);
        }
        self.count += 1;
    }

    fn merge(&mut self, other: &Owners) {
        for (a, b) in self.sum.iter_mut().zip(&other.sum) {
            *a += b;
        }
        for (a, b) in self.decided.iter_mut().zip(&other.decided) {
            *a += b;
        }
        self.count += other.count;
    }
}

/// Where a root move's counts go: its point's index, the pass after every
/// cell.
pub(super) fn move_slot(mv: Move, cells: usize) -> usize {
    match mv {
        Move::Play(p) => p.index(),
        Move::Pass => cells,
    }
}

/// One thread's scratch.
struct Worker {
    rng: Rng,
    playout: HeavyPlayout,
    moves: Vec<(Point, Color)>,
    depth_at: Vec<usize>,
    amaf: Vec<u8>,
    owner: Vec<i8>,
    owner_sum: Vec<i32>,
    owner_decided: Vec<i32>,
    owner_count: u32,
    /// This thread's counts per root move, by [`move_slot`].
    moves_owner: Vec<Option<Owners>>,
    /// The pattern model's tables, when the priors come from it.
    extractor: Option<Extractor>,
}

impl<'a> Shared<'a> {
    /// A search of `root` (a fresh node, or the subtree kept) starting
    /// from the ownership `kept` with it, if any.
    pub(super) fn new(
        game: &'a Game,
        root: &'a Node,
        kept: Option<KeptOwners>,
        mode: GenMode,
        limit: Limit,
        stop: &'a AtomicBool,
        filter: &'a Filter,
    ) -> Shared<'a> {
        let territory = kept.as_ref().is_some_and(|k| k.all.count > 0);
        let KeptOwners { all, mut moves } = kept.unwrap_or_else(|| KeptOwners {
            all: Owners::new(game.size().num_points()),
            moves: Vec::new(),
        });
        moves.resize(game.size().cells() + 1, None);
        let atomics = |v: &[i32]| v.iter().map(|&x| AtomicI32::new(x)).collect();
        Shared {
            game,
            judge: Judge::of(game),
            knowledge: Knowledge::default(),
            network: None,
            batches: Batches::new(1),
            reading: false,
            replies: None,
            score_pull: None,
            value: None,
            judge_at: EXPAND_AT,
            root_judgement: None,
            root_judged: false,
            root,
            mode,
            filter,
            max_playouts: limit.playouts_from(root.visits().into(), territory),
            deadline: limit.time.map(|t| Instant::now() + t),
            stop,
            done: AtomicBool::new(false),
            issued: AtomicU64::new(0),
            finished: AtomicUsize::new(0),
            nodes: AtomicUsize::new(0),
            max_nodes: usize::MAX,
            ownership: atomics(&all.sum),
            decided: atomics(&all.decided),
            owned: AtomicU64::new(all.count.into()),
            moves_owner: Mutex::new(moves),
            shows_moves_owner: false,
        }
    }

    /// The same, showing each candidate's ownership when `show`.
    pub(super) fn showing_moves_ownership(self, show: bool) -> Shared<'a> {
        Shared {
            shows_moves_owner: show,
            ..self
        }
    }

    /// The ownership counts so far, read in the reverse order of the
    /// workers' flush (sums, decided playouts, the count), each acquired:
    /// every playout a point shows is in the count.
    pub(super) fn owners(&self) -> Owners {
        let sum = self
            .ownership
            .iter()
            .map(|a| a.load(Ordering::Acquire))
            .collect();
        let decided = self
            .decided
            .iter()
            .map(|a| a.load(Ordering::Acquire))
            .collect();
        Owners {
            sum,
            decided,
            count: u32::try_from(self.owned.load(Ordering::Acquire)).unwrap_or(u32::MAX),
        }
    }

    /// The ownership counts of the search done, to keep with its tree.
    pub(super) fn into_owners(self) -> KeptOwners {
        KeptOwners {
            all: self.owners(),
            moves: self
                .moves_owner
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        }
    }

    /// The same, its tree (`nodes` under the root already: the kept
    /// subtree, counted as it was pruned) growing while it takes less than
    /// `bytes`.
    pub(super) fn holding(self, bytes: usize, nodes: usize) -> Shared<'a> {
        Shared {
            nodes: AtomicUsize::new(nodes),
            max_nodes: bytes / std::mem::size_of::<Node>(),
            ..self
        }
    }

    /// The same, with `knowledge` for the priors (as it stands on this
    /// board, [`Knowledge::on`]; and the shipped network when the
    /// knowledge is the network's, asked `batch` positions at a time below
    /// the root).
    pub(super) fn knowing(self, knowledge: Knowledge, batch: usize) -> Shared<'a> {
        let knowledge = knowledge.on(self.game.size());
        Shared {
            knowledge,
            network: (knowledge == Knowledge::Net)
                .then(Network::shipped)
                .flatten(),
            batches: Batches::new(batch),
            ..self
        }
    }

    /// The same, the playouts trying the last good replies when `learn`
    /// ([`crate::replies`]).
    pub(super) fn replying(self, learn: bool) -> Shared<'a> {
        let replies = learn.then(|| Replies::new(self.game.size()));
        Shared { replies, ..self }
    }

    /// The same, reading the fights where the network is asked when
    /// `reading` ([`crate::urgent`]).
    pub(super) fn reading(self, reading: bool) -> Shared<'a> {
        Shared { reading, ..self }
    }

    /// The same, the descent pulled towards the larger score by `weight`
    /// ([`ScorePull`]).
    pub(super) fn scoring(self, weight: f32) -> Shared<'a> {
        let size = self.game.size();
        let score_pull = (weight > 0.0).then(|| ScorePull {
            weight,
            black_center: 0.0,
            scale: SCORE_SCALE_PER_LINE * size.width().max(size.height()) as f32,
        });
        Shared { score_pull, ..self }
    }

    /// The moves that decide a fight in `game`, when the search reads them.
    fn urgent(&self, game: &Game, reader: &mut Option<Reader>) -> Vec<Urgent> {
        if !self.reading {
            return Vec::new();
        }
        let reader = reader.get_or_insert_with(|| Reader::new(URGENT_LIMITS));
        urgent_moves(game.board(), game.to_move(), reader)
    }

    /// The same, the value network's judgement weighing `weight` in each
    /// simulation's result (none at 0, nor on a board it did not learn):
    /// the root is judged at once, every other node once `judge_at`
    /// simulations went through it. With `judge_root`, on a board the
    /// network learned, the root is judged even at weight 0, and that
    /// judgement gives the standing reported.
    pub(super) fn valuing(
        self,
        weight: f32,
        judge_at: u32,
        source: ValueSource,
        judge_root: bool,
    ) -> Shared<'a> {
        let network = source.network();
        let learned = crate::value::learned(self.game.size());
        let value = (weight > 0.0 && learned)
            .then_some(network)
            .flatten()
            .map(|v| (v, weight.min(1.0)));
        let root_judged = judge_root && learned;
        let root_judgement = (value.is_some() || root_judged)
            .then_some(network)
            .flatten()
            .map(|v| v.judge_game(self.game));
        if value.is_some()
            && let Some(j) = &root_judgement
        {
            self.root.set_judged(j.black_wins, j.black_lead);
        }
        Shared {
            value,
            judge_at: judge_at.max(1),
            root_judged: root_judged && root_judgement.is_some(),
            root_judgement,
            ..self
        }
    }

    /// The weight of the value network's judgement (0 without one).
    pub(super) fn value_weight(&self) -> f32 {
        self.value.map_or(0.0, |(_, w)| w)
    }

    /// Runs the workers; this thread watches the clock and reports.
    pub(super) fn search(&self, threads: usize, seed: u64, mut report: Option<Reporter<'_>>) {
        if self.game.phase() != Phase::Playing {
            return;
        }
        let started = Instant::now();
        let mut next_report = report.as_ref().map(|(every, _)| started + *every);
        std::thread::scope(|s| {
            for i in 0..threads {
                s.spawn(move || self.work(seed.wrapping_add(i as u64)));
            }
            while self.finished.load(Ordering::Acquire) < threads {
                std::thread::sleep(Duration::from_millis(2));
                let now = Instant::now();
                if let Some(deadline) = self.deadline
                    && (now >= deadline || self.decided(deadline - now, now - started))
                {
                    self.done.store(true, Ordering::Relaxed);
                }
                if let (Some(at), Some((every, f))) = (next_report, report.as_mut())
                    && now >= at
                {
                    f(&self.analysis());
                    next_report = Some(now + *every);
                }
            }
        });
        self.batches.release();
    }

    /// Whether the best move can no longer be overtaken in the time left
    /// (at the rate seen so far).
    fn decided(&self, left: Duration, spent: Duration) -> bool {
        let done = self.issued.load(Ordering::Relaxed) as f64;
        if done < 200.0 || spent.is_zero() {
            return false;
        }
        let rate = done / spent.as_secs_f64();
        let remaining = rate * left.as_secs_f64();
        let to_move = self.game.to_move();
        let mut visits: Vec<u32> = self
            .root
            .kids()
            .iter()
            .filter(|c| !self.filter.forbids(to_move, c.mv, 1))
            .map(Node::visits)
            .collect();
        visits.sort_unstable_by(|a, b| b.cmp(a));
        match visits.as_slice() {
            [best, second, ..] => f64::from(best - second) > remaining * 1.2,
            [_] => true,
            [] => false,
        }
    }

    fn work(&self, seed: u64) {
        let size = self.game.size();
        let cells = size.cells();
        let n = size.num_points();
        let mut w = Worker {
            rng: Rng::new(seed),
            playout: HeavyPlayout::new(
                size,
                self.judge,
                // Learned shapes with learned priors; `none` keeps every
                // piece of knowledge hand-set, for honest comparisons.
                (self.knowledge != Knowledge::None).then(ShapeModel::shipped),
            ),
            moves: Vec::with_capacity(4 * n),
            depth_at: Vec::with_capacity(64),
            amaf: vec![0; cells],
            owner: vec![0; n],
            owner_sum: vec![0; n],
            owner_decided: vec![0; n],
            owner_count: 0,
            moves_owner: vec![None; cells + 1],
            extractor: (self.knowledge != Knowledge::None).then(|| Extractor::new(size)),
        };
        loop {
            // A stop counts once the root holds a simulation (kept, or
            // entered by a worker of this search): a search stopped at once
            // (a `quit` piped right behind `genmove`) still expands the
            // root and answers its best prior, never a pass for want of a
            // candidate.
            let stopped = self.stop.load(Ordering::Relaxed) && self.root.visits() > 0;
            if stopped || self.done.load(Ordering::Relaxed) {
                break;
            }
            if self.issued.fetch_add(1, Ordering::Relaxed) >= self.max_playouts {
                break;
            }
            self.simulate(&mut w);
            if w.owner_count >= OWNERSHIP_FLUSH {
                self.flush(&mut w);
            }
            if let Some(deadline) = self.deadline
                && Instant::now() >= deadline
            {
                self.done.store(true, Ordering::Relaxed);
                break;
            }
        }
        self.flush(&mut w);
        self.finished.fetch_add(1, Ordering::Release);
    }

    /// Adds the worker's ownership counts to the shared ones: the count of
    /// playouts first, then each point's decided playouts, then its owners'
    /// sum, each released, so that a reader that takes them in the reverse
    /// order ([`Shared::analysis`]) never sees a point hold more playouts
    /// than the count, nor a sum beyond its decided playouts.
    fn flush(&self, w: &mut Worker) {
        self.owned
            .fetch_add(u64::from(w.owner_count), Ordering::Release);
        w.owner_count = 0;
        for (a, d) in self.decided.iter().zip(w.owner_decided.iter_mut()) {
            a.fetch_add(*d, Ordering::Release);
            *d = 0;
        }
        for (a, s) in self.ownership.iter().zip(w.owner_sum.iter_mut()) {
            a.fetch_add(*s, Ordering::Release);
            *s = 0;
        }
        let mut shared = self
            .moves_owner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (total, local) in shared.iter_mut().zip(w.moves_owner.iter_mut()) {
            if let Some(local) = local.take() {
                match total {
                    Some(t) => t.merge(&local),
                    None => *total = Some(local),
                }
            }
        }
    }

    /// One descent, its playout and the update of every node passed.
    fn simulate(&self, w: &mut Worker) {
        let game = self.game;
        let mut board = game.board().clone();
        let mut color = game.to_move();
        let mut captures = game.captures();
        let mut last = last_play(game);
        let mut before = last.and(play_back(game, 2));
        let mut path: Vec<&'a Node> = Vec::with_capacity(32);
        w.moves.clear();
        w.depth_at.clear();
        let mut node = self.root;
        let pull = self.score_pull.map(|p| ScorePull {
            black_center: self.root.black_margin() as f32,
            ..p
        });
        node.enter();
        path.push(node);
        w.depth_at.push(0);
        // The descent stops at a terminal node (its result is known) or
        // at a node to play out from.
        let terminal = loop {
            match node.leaf {
                Leaf::Terminal(r) => break Some(r),
                Leaf::Settle => break None,
                Leaf::Open => {}
            }
            let kids = match node.children.get() {
                Some(k) => k,
                // A full tree grows no more (the root aside): the node
                // stays unexpanded, to grow in a later search with room.
                None if path.len() == 1
                    || (node.visits() >= EXPAND_AT
                        && self.nodes.load(Ordering::Relaxed) < self.max_nodes) =>
                {
                    node.children
                        .get_or_init(|| self.expand(&path, w.extractor.as_mut()))
                }
                None => &[][..],
            };
            if let Some((value, _)) = self.value
                && node.visits() >= self.judge_at
                && node.claim_judgement()
                && let Some(game) = self.game_at(&path)
            {
                let j = value.judge_game(&game);
                node.set_judged(j.black_wins, j.black_lead);
            }
            if let Some(network) = self.network
                && kids.len() > 1
                && node.visits() >= NETWORK_AT
                && node.claim_network()
            {
                self.ask_network(network, &path, w.extractor.as_mut());
            }
            // The level of the child chosen now (the root's moves are at 1).
            let depth = path.len() as u32;
            let pull = pull.map(|p| p.for_mover(color));
            let child = if self.filter.active(depth) {
                select(kids, pull, |c| !self.filter.forbids(color, c.mv, depth))
            } else {
                select(kids, pull, |_| true)
            };
            // No child at all, or every one forbidden: play out from here.
            let Some(child) = child else {
                break None;
            };
            child.enter();
            match child.mv {
                Move::Play(p) => {
                    let played = board.play_unchecked(p, color);
                    captures[color] += played.captured;
                    captures[color.opponent()] += played.suicided;
                    w.moves.push((p, color));
                    before = last;
                    last = Some(p);
                }
                Move::Pass => {
                    board.pass();
                    before = None;
                    last = None;
                }
            }
            path.push(child);
            w.depth_at.push(w.moves.len());
            node = child;
            color = color.opponent();
        };
        let result = match terminal {
            Some(r) => {
                // Counted only for the ownership of the board as it stands.
                w.playout.count(&board, captures, &mut w.owner);
                r
            }
            None => {
                let played = w.playout.run(
                    &mut board,
                    Start {
                        to_move: color,
                        last,
                        before,
                        captures,
                    },
                    &mut w.rng,
                    self.replies.as_ref(),
                    &mut w.moves,
                    &mut w.owner,
                );
                // The deepest judged position of the line stands for the
                // leaf (AlphaGo's mixing, with an expansion threshold).
                match (self.value, path.iter().rev().find_map(|n| n.judged())) {
                    (Some((_, weight)), Some((wins, lead))) => played.mixed(wins, lead, weight),
                    _ => played,
                }
            }
        };
        for ((acc, d), &o) in w
            .owner_sum
            .iter_mut()
            .zip(w.owner_decided.iter_mut())
            .zip(w.owner.iter())
        {
            *acc += i32::from(o);
            *d += i32::from(o != 0);
        }
        w.owner_count += 1;
        if let Some(first) = path.get(1)
            && let Some(slot) = w
                .moves_owner
                .get_mut(move_slot(first.mv, game.size().cells()))
        {
            slot.get_or_insert_with(|| Owners::new(w.owner.len()))
                .add(&w.owner);
        }
        if let Some(replies) = &self.replies {
            replies.learn(&w.moves, result.winner());
        }
        self.backup(w, &path, result);
    }

    /// Adds the result to every node of the path, and the AMAF results to
    /// the children of each node whose move the same player made later.
    fn backup(&self, w: &mut Worker, path: &[&Node], result: PlayoutResult) {
        let root_mover = self.game.to_move().opponent();
        let mover = |d: usize| {
            if d.is_multiple_of(2) {
                root_mover
            } else {
                root_mover.opponent()
            }
        };
        for (d, n) in path.iter().enumerate() {
            n.record(result.wins_for(mover(d)), result.margin);
        }
        let code = |c: Color| match c {
            Color::Black => 1u8,
            Color::White => 2u8,
        };
        let mut k = w.moves.len();
        for d in (0..path.len()).rev() {
            while k > w.depth_at[d] {
                k -= 1;
                let (p, c) = w.moves[k];
                w.amaf[p.index()] = code(c);
            }
            let to_move = mover(d).opponent();
            let want = code(to_move);
            let wins = result.wins_for(to_move);
            for c in path[d].kids() {
                if let Move::Play(p) = c.mv
                    && w.amaf[p.index()] == want
                {
                    c.record_amaf(wins);
                }
            }
        }
        for &(p, _) in &w.moves {
            w.amaf[p.index()] = 0;
        }
    }

    /// The game at the last node of `path`, `None` if a move of the path
    /// cannot be played (a tree grown under other restrictions).
    fn game_at(&self, path: &[&Node]) -> Option<Game> {
        let mut game = self.game.clone();
        for n in &path[1..] {
            game.play(n.mv).ok()?;
        }
        Some(game)
    }

    /// The learned probability of each of `moves` in `game` (by point
    /// index): the network's when one is given, else the pattern model's;
    /// `None` without an `extractor` (hand-set priors).
    fn learned(
        &self,
        game: &Game,
        moves: &[Point],
        extractor: Option<&mut Extractor>,
        network: Option<&Network>,
    ) -> Option<Vec<f32>> {
        let extractor = extractor?;
        let recent = net::recent(game.turns().iter().map(|t| t.mv));
        let position = Position::after(game.board(), game.to_move(), &recent);
        let model = PatternModel::shipped();
        Some(match network {
            Some(n) => n.position_policy(model, extractor, &position, &recent, moves),
            None => model.policy(extractor, &position, moves, game.size().cells()),
        })
    }

    /// The children of the last node of `path`: every move legal under the
    /// full rules at that position (own one-point eyes and runs into a
    /// working ladder left out, [`ladder_runs`]) and a pass,
    /// each with its prior knowledge (learned when an `extractor` is
    /// given: the network's at the root, the pattern model's elsewhere
    /// until [`Shared::ask_network`]).
    fn expand(&self, path: &[&Node], extractor: Option<&mut Extractor>) -> Box<[Node]> {
        let Some(game) = self.game_at(path) else {
            return Box::new([]);
        };
        if game.phase() != Phase::Playing {
            return Box::new([]);
        }
        let color = game.to_move();
        let board = game.board();
        let last = last_play(&game);
        let runs = ladder_runs(board, color);
        let moves: Vec<Point> = game
            .size()
            .points()
            .filter(|&p| {
                board.is_empty(p)
                    && !board.is_one_point_eye(p, color)
                    && !runs.contains(&p)
                    && game.check(color, Move::Play(p)).is_ok()
            })
            .collect();
        let network = self
            .network
            .filter(|_| path.len() == 1 && path[0].claim_network());
        let urgent = if network.is_some() {
            self.urgent(&game, &mut None)
        } else {
            Vec::new()
        };
        let learned = self.learned(&game, &moves, extractor, network);
        let prior = Prior::new(board, color, last, learned).with_urgent(urgent);
        let mut kids = Vec::with_capacity(moves.len() + 1);
        for p in moves {
            let leaf = self.goal_leaf(&game, p, color);
            kids.push(Node::new(Move::Play(p), prior.of(p), prior.policy(p), leaf));
        }
        let pass = prior.of_pass(kids.len(), ending_pass(&game));
        kids.push(Node::new(Move::Pass, pass, None, self.pass_leaf(&game)));
        self.nodes.fetch_add(kids.len(), Ordering::Relaxed);
        kids.into_boxed_slice()
    }

    /// Queues the last node of `path` for the network's priors of its
    /// children (once it has earned the cost of an evaluation: AlphaGo's
    /// threshold of visits), and evaluates the batch this request fills.
    fn ask_network(&self, network: &Network, path: &[&'a Node], extractor: Option<&mut Extractor>) {
        let (Some(node), Some(extractor)) = (path.last(), extractor) else {
            return;
        };
        let Some(game) = self.game_at(path) else {
            node.release_network();
            return;
        };
        let moves = stone_points(node.kids());
        let Some(full) = self
            .batches
            .push(Pending::new(node, game, &moves, extractor))
        else {
            return;
        };
        let mut reader = None;
        for (request, learned) in full.iter().zip(batch::evaluate(network, &full)) {
            let game = &request.game;
            let kids = request.node.kids();
            // Every child but the pass is a stone move.
            let stones = kids.len().saturating_sub(1);
            let prior = Prior::new(game.board(), game.to_move(), last_play(game), Some(learned))
                .with_urgent(self.urgent(game, &mut reader));
            for k in kids {
                match k.mv {
                    Move::Play(p) => {
                        let (n, w) = prior.of(p);
                        k.set_prior(n, w, prior.policy(p));
                    }
                    Move::Pass => {
                        let (n, w) = prior.of_pass(stones, ending_pass(game));
                        k.set_prior(n, w, None);
                    }
                }
            }
        }
    }

    /// Terminal when the play reaches a capture goal.
    fn goal_leaf(&self, game: &Game, p: Point, color: Color) -> Leaf {
        let Some(goal) = self.judge.goal else {
            return Leaf::Open;
        };
        let preview = game.board().preview(p, color);
        let captures = game.captures();
        if captures[color] + preview.captured >= goal {
            Leaf::Terminal(PlayoutResult::goal_won_by(color))
        } else if captures[color.opponent()] + preview.suicided >= goal {
            Leaf::Terminal(PlayoutResult::goal_won_by(color.opponent()))
        } else {
            Leaf::Open
        }
    }

    /// What a pass leads to: the end of play after another pass.
    fn pass_leaf(&self, game: &Game) -> Leaf {
        let mut after = game.clone();
        if after.play(Move::Pass).is_err() {
            return Leaf::Open;
        }
        match after.phase() {
            Phase::Playing => Leaf::Open,
            Phase::Marking if self.mode == GenMode::Normal => Leaf::Settle,
            Phase::Marking => Leaf::Terminal(PlayoutResult::from_margin(
                after.score(&[]).margin.in_eighths(),
            )),
            Phase::Over => Leaf::Terminal(match after.outcome() {
                Some(Outcome::Win { winner, .. }) => {
                    let margin = after.final_score().map_or(0, |s| s.margin.in_eighths());
                    let margin = match winner {
                        Color::Black => margin.max(1),
                        Color::White => margin.min(-1),
                    };
                    PlayoutResult::from_margin(margin)
                }
                _ => PlayoutResult::from_margin(0),
            }),
        }
    }
}
