//! The Monte-Carlo tree search: UCT with RAVE (all moves as first) and
//! prior knowledge, heavy playouts ([`crate::policy`]), a tree shared by
//! all threads through atomics, and the tree kept between moves.
//!
//! Every move in the tree is checked by [`Game`] with the full rules,
//! repetition rule included, when its parent is expanded; playouts run on
//! the fast board with simple ko. Win rates are for the player to move.

use crate::features::{Extractor, Position};
use crate::geometry::Geometry;
use crate::model::PatternModel;
use crate::net::{self, Network};
use crate::policy::{Count, Judge, Playout, Result2, Start};
use crate::prior::{Knowledge, Prior};
use crate::rng::Rng;
use crate::tree::{Leaf, Node};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tengen_core::{Color, Game, Move, Outcome, Phase, Point, Points, Scoring};

/// How the search runs.
#[derive(Clone, Debug, PartialEq)]
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
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: 0x7465_6e67_656e,
            resign_below: Some(0.1),
            knowledge: Knowledge::default(),
        }
    }
}

/// When to stop thinking: at whichever limit comes first; neither given
/// means [`Limit::DEFAULT_PLAYOUTS`] playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Simulations (tree descents with their playout).
    pub playouts: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
}

impl Limit {
    /// The simulations of a search given no limit.
    pub const DEFAULT_PLAYOUTS: u64 = 10_000;

    /// A limit of `n` simulations.
    pub fn playouts(n: u64) -> Limit {
        Limit {
            playouts: Some(n),
            time: None,
        }
    }

    /// A limit of `t` of thinking.
    pub fn time(t: Duration) -> Limit {
        Limit {
            playouts: None,
            time: Some(t),
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
    /// The expected continuation, this move first.
    pub pv: Vec<Move>,
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
    /// The best move's mean margin for the player to move, in points.
    pub score_lead: f64,
    /// The moves searched, best first.
    pub candidates: Vec<Candidate>,
    /// One per point in the order of [`tengen_core::BoardSize::points`]:
    /// +1.0 Black's at the end of every playout, -1.0 White's.
    pub ownership: Vec<f32>,
}

/// Whether a clause names the moves to leave out or the only moves to
/// consider (GTP `avoid` and `allow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RestrictionKind {
    /// The named moves are never chosen.
    Avoid,
    /// Only the named moves (and a pass) are chosen.
    Allow,
}

/// One `avoid`/`allow` clause: moves of `color` the tree may not choose
/// down to `until_depth` (1: the root's moves only, 2: also the replies to
/// them, and so on).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Restriction {
    /// Avoid the moves, or allow only them.
    pub kind: RestrictionKind,
    /// The player whose moves are restricted.
    pub color: Color,
    /// The moves named; a pass is restricted only when named here.
    pub moves: Vec<Move>,
    /// The deepest tree level the clause holds at (the root's moves are at 1).
    pub until_depth: u32,
}

/// Moves the tree may not choose, for analysis tools that ask for other
/// lines. Only the tree obeys them (playouts do not), as in Leela Zero
/// and KataGo: a forbidden move is never descended into, reported or
/// chosen. The default restricts nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Restrictions {
    /// The clauses; a move is forbidden when any avoid clause in force
    /// names it, or when an allow clause is in force and none names it.
    pub clauses: Vec<Restriction>,
}

impl Restrictions {
    /// No restriction.
    pub const NONE: Restrictions = Restrictions {
        clauses: Vec::new(),
    };

    /// Whether nothing is restricted.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }
}

/// [`Restrictions`] ready for the tree: one point mask per clause, so that
/// testing a child costs a lookup per clause in force.
#[derive(Debug)]
struct Filter {
    bans: Vec<Ban>,
    /// The deepest level any clause holds at (0: none).
    until: u32,
}

/// One clause as a mask.
#[derive(Debug)]
struct Ban {
    kind: RestrictionKind,
    color: Color,
    until: u32,
    /// Indexed by [`Point::index`]; points past its end are not named.
    points: Vec<bool>,
    pass: bool,
}

impl Filter {
    fn new(restrictions: &Restrictions) -> Filter {
        let bans: Vec<Ban> = restrictions
            .clauses
            .iter()
            .map(|c| {
                let cells = c
                    .moves
                    .iter()
                    .filter_map(|m| match m {
                        Move::Play(p) => Some(p.index() + 1),
                        Move::Pass => None,
                    })
                    .max()
                    .unwrap_or(0);
                let mut points = vec![false; cells];
                for m in &c.moves {
                    if let Move::Play(p) = m
                        && let Some(slot) = points.get_mut(p.index())
                    {
                        *slot = true;
                    }
                }
                Ban {
                    kind: c.kind,
                    color: c.color,
                    until: c.until_depth,
                    points,
                    pass: c.moves.contains(&Move::Pass),
                }
            })
            .collect();
        let until = bans.iter().map(|b| b.until).max().unwrap_or(0);
        Filter { bans, until }
    }

    /// Whether any clause holds at `depth`.
    #[inline]
    fn active(&self, depth: u32) -> bool {
        depth <= self.until
    }

    /// Whether `color` may not play `mv` at `depth` of the tree.
    fn forbids(&self, color: Color, mv: Move, depth: u32) -> bool {
        if !self.active(depth) {
            return false;
        }
        let named = |b: &Ban| match mv {
            Move::Pass => b.pass,
            Move::Play(p) => b.points.get(p.index()).copied().unwrap_or(false),
        };
        let live = || {
            self.bans
                .iter()
                .filter(move |b| b.color == color && depth <= b.until)
        };
        if live().any(|b| b.kind == RestrictionKind::Avoid && named(b)) {
            return true;
        }
        let mut allows = live()
            .filter(|b| b.kind == RestrictionKind::Allow)
            .peekable();
        mv != Move::Pass && allows.peek().is_some() && !allows.any(named)
    }
}

/// The search, keeping its tree between moves.
#[derive(Debug)]
pub struct Search {
    config: SearchConfig,
    kept: Option<Kept>,
}

/// The tree of the last search and the position it was for.
#[derive(Debug)]
struct Kept {
    game: Game,
    mode: GenMode,
    /// The restrictions the tree was grown under.
    restrictions: Restrictions,
    root: Node,
}

/// Simulations through a node before it is expanded.
const EXPAND_AT: u32 = 8;
/// Simulations through a node before the network is asked for its
/// children's priors (AlphaGo's threshold; the root is asked at once).
const NETWORK_AT: u32 = 40;
/// RAVE equivalence: the visits at which AMAF and real statistics weigh the
/// same (Michi's 3500).
const RAVE_EQUIV: f32 = 3500.0;
/// Nodes the tree may hold before it stops growing (memory bound).
const MAX_NODES: usize = 4_000_000;
/// Root visits under which the engine does not resign.
const RESIGN_MIN_VISITS: u64 = 500;
/// Simulations between two flushes of a thread's ownership counts.
const OWNERSHIP_FLUSH: u32 = 16;

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

    /// Think about `game` (phase Playing) for the side to move; reuse the
    /// tree when `game` extends the position searched last. Stops at the
    /// limit or when `stop` is set; `report` is called every interval with
    /// the analysis so far.
    pub fn analyze(
        &mut self,
        game: &Game,
        limit: Limit,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
    ) -> Analysis {
        self.analyze_restricted(game, limit, stop, report, &Restrictions::NONE)
    }

    /// [`Search::analyze`] with moves the tree may not choose: they are
    /// neither searched nor reported. They hold for this call only.
    pub fn analyze_restricted(
        &mut self,
        game: &Game,
        limit: Limit,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
        restrictions: &Restrictions,
    ) -> Analysis {
        self.run(game, limit, GenMode::Normal, stop, report, restrictions)
    }

    /// Chooses a move for the side to move of `game`.
    pub fn genmove(&mut self, game: &Game, limit: Limit, mode: GenMode) -> (Decision, Analysis) {
        self.genmove_restricted(game, limit, mode, &Restrictions::NONE)
    }

    /// [`Search::genmove`] with moves the tree may not choose (the
    /// decision is never one of them). They hold for this call only.
    pub fn genmove_restricted(
        &mut self,
        game: &Game,
        limit: Limit,
        mode: GenMode,
        restrictions: &Restrictions,
    ) -> (Decision, Analysis) {
        let stop = AtomicBool::new(false);
        let analysis = self.run(game, limit, mode, &stop, None, restrictions);
        let decision = self.decide(game, &analysis, mode);
        (decision, analysis)
    }

    fn decide(&self, game: &Game, analysis: &Analysis, mode: GenMode) -> Decision {
        if game.phase() != Phase::Playing {
            return Decision::Move(Move::Pass);
        }
        let Some(best) = analysis.candidates.first() else {
            return Decision::Move(Move::Pass);
        };
        if let Some(threshold) = self.config.resign_below
            && analysis.visits >= RESIGN_MIN_VISITS
            && best.winrate < threshold
        {
            return Decision::Resign;
        }
        // The opponent passed: a pass ends play. When the count as it
        // stands (the dead stones estimated) wins, playing on in one's own
        // area only spends the clock (and points under territory rules);
        // unless the search expects to lose, which says that the estimate
        // is wrong about some group: then the fight goes on.
        if mode == GenMode::Normal
            && best.mv != Move::Pass
            && best.winrate >= 0.5
            && game.turns().last().map(|t| t.mv) == Some(Move::Pass)
            && judge_of(game).goal.is_none()
        {
            let margin = game.score(&dead_stones(game, &analysis.ownership)).margin;
            let ours = match game.to_move() {
                Color::Black => margin,
                Color::White => -margin,
            };
            if ours > Points::ZERO {
                return Decision::Move(Move::Pass);
            }
        }
        if best.mv == Move::Pass && mode == GenMode::Cleanup {
            let opponent = game.to_move().opponent();
            let dead = dead_stones(game, &analysis.ownership);
            if dead.iter().any(|&p| game.board().get(p) == Some(opponent))
                && let Some(c) = analysis
                    .candidates
                    .iter()
                    .find(|c| c.mv != Move::Pass && game.is_legal(c.mv))
            {
                return Decision::Move(c.mv);
            }
        }
        Decision::Move(best.mv)
    }

    fn run(
        &mut self,
        game: &Game,
        limit: Limit,
        mode: GenMode,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
        restrictions: &Restrictions,
    ) -> Analysis {
        let root = self.reuse(game, mode, restrictions);
        let geo = Geometry::new(game.size());
        let filter = Filter::new(restrictions);
        let shared = Shared::new(game, &geo, &root, mode, limit, stop, &filter)
            .knowing(self.config.knowledge);
        shared.search(self.config.threads.max(1), self.config.seed, report);
        let analysis = shared.analysis();
        self.kept = Some(Kept {
            game: game.clone(),
            mode,
            restrictions: restrictions.clone(),
            root,
        });
        analysis
    }

    /// The kept subtree for `game`, or a fresh root. A tree grown under
    /// restrictions has its statistics bent by them, so it is kept only
    /// for the same position under the same restrictions.
    fn reuse(&mut self, game: &Game, mode: GenMode, restrictions: &Restrictions) -> Node {
        let Some(kept) = self.kept.take() else {
            return Node::root();
        };
        let before = kept.game.turns();
        let bent = !kept.restrictions.is_empty()
            && (kept.restrictions != *restrictions || game.turns().len() != before.len());
        let same_start = !bent
            && kept.mode == mode
            && kept.game.rules() == game.rules()
            && kept.game.komi() == game.komi()
            && kept.game.first_to_move() == game.first_to_move()
            && kept.game.initial_board() == game.initial_board()
            && kept.game.phase() == Phase::Playing
            && game.turns().starts_with(before);
        if !same_start {
            return Node::root();
        }
        let mut node = kept.root;
        let mut to_move = kept.game.to_move();
        for turn in &game.turns()[before.len()..] {
            if turn.color != to_move {
                return Node::root();
            }
            match node.into_child(turn.mv) {
                Some(n) => node = n,
                None => return Node::root(),
            }
            to_move = to_move.opponent();
        }
        if node.children.get().is_none() {
            return Node::root();
        }
        node
    }
}

/// How a finished game counts, for the playouts.
pub(crate) fn judge_of(game: &Game) -> Judge {
    let rules = game.rules();
    let count = match rules.scoring {
        Scoring::Stones => Count::Stones,
        Scoring::Captures => Count::Captures,
        _ => Count::Area,
    };
    Judge {
        count,
        komi: game.komi().in_eighths(),
        goal: rules.capture_goal,
    }
}

/// The last stone play of `game`, when its last turn was one.
fn last_play(game: &Game) -> Option<Point> {
    match game.turns().last().map(|t| t.mv) {
        Some(Move::Play(p)) => Some(p),
        _ => None,
    }
}

/// Everything the threads of one search share.
struct Shared<'a> {
    game: &'a Game,
    geo: &'a Geometry,
    judge: Judge,
    knowledge: Knowledge,
    /// The network, when the knowledge is the network's.
    network: Option<&'static Network>,
    root: &'a Node,
    mode: GenMode,
    filter: &'a Filter,
    max_playouts: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    done: AtomicBool,
    issued: AtomicU64,
    finished: AtomicUsize,
    nodes: AtomicUsize,
    ownership: Vec<AtomicI32>,
    owned: AtomicU64,
}

/// One thread's scratch.
struct Worker<'a> {
    rng: Rng,
    playout: Playout<'a>,
    moves: Vec<(Point, Color)>,
    depth_at: Vec<usize>,
    amaf: Vec<u8>,
    owner: Vec<i8>,
    owner_sum: Vec<i32>,
    owner_count: u32,
    /// The pattern model's tables, when the priors come from it.
    extractor: Option<Extractor>,
}

impl<'a> Shared<'a> {
    fn new(
        game: &'a Game,
        geo: &'a Geometry,
        root: &'a Node,
        mode: GenMode,
        limit: Limit,
        stop: &'a AtomicBool,
        filter: &'a Filter,
    ) -> Shared<'a> {
        let max_playouts = match limit {
            Limit {
                playouts: None,
                time: None,
            } => Limit::DEFAULT_PLAYOUTS,
            Limit { playouts, .. } => playouts.unwrap_or(u64::MAX),
        };
        Shared {
            game,
            geo,
            judge: judge_of(game),
            knowledge: Knowledge::default(),
            network: None,
            root,
            mode,
            filter,
            max_playouts,
            deadline: limit.time.map(|t| Instant::now() + t),
            stop,
            done: AtomicBool::new(false),
            issued: AtomicU64::new(0),
            finished: AtomicUsize::new(0),
            nodes: AtomicUsize::new(0),
            ownership: (0..geo.points().len()).map(|_| AtomicI32::new(0)).collect(),
            owned: AtomicU64::new(0),
        }
    }

    /// The same, with `knowledge` for the priors (and the shipped network
    /// when the knowledge is the network's).
    fn knowing(self, knowledge: Knowledge) -> Shared<'a> {
        Shared {
            knowledge,
            network: (knowledge == Knowledge::Net)
                .then(Network::shipped)
                .flatten(),
            ..self
        }
    }

    /// Runs the workers; this thread watches the clock and reports.
    fn search(&self, threads: usize, seed: u64, mut report: Option<Reporter<'_>>) {
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
        let cells = self.geo.cells();
        let n = self.geo.points().len();
        let mut w = Worker {
            rng: Rng::new(seed),
            playout: Playout::new(self.geo, self.judge),
            moves: Vec::with_capacity(4 * n),
            depth_at: Vec::with_capacity(64),
            amaf: vec![0; cells],
            owner: vec![0; n],
            owner_sum: vec![0; n],
            owner_count: 0,
            extractor: (self.knowledge != Knowledge::None).then(|| Extractor::new(self.geo.size())),
        };
        loop {
            if self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed) {
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

    fn flush(&self, w: &mut Worker) {
        for (a, s) in self.ownership.iter().zip(w.owner_sum.iter_mut()) {
            a.fetch_add(*s, Ordering::Relaxed);
            *s = 0;
        }
        self.owned
            .fetch_add(u64::from(w.owner_count), Ordering::Relaxed);
        w.owner_count = 0;
    }

    /// One descent, its playout and the update of every node passed.
    fn simulate(&self, w: &mut Worker) {
        let game = self.game;
        let mut board = game.board().clone();
        let mut color = game.to_move();
        let mut captures = game.captures();
        let mut last = last_play(game);
        let mut path: Vec<&Node> = Vec::with_capacity(32);
        w.moves.clear();
        w.depth_at.clear();
        let mut node = self.root;
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
                None if path.len() == 1 || node.visits() >= EXPAND_AT => node
                    .children
                    .get_or_init(|| self.expand(&path, w.extractor.as_mut())),
                None => &[][..],
            };
            if let Some(network) = self.network
                && kids.len() > 1
                && node.visits() >= NETWORK_AT
                && node.claim_network()
            {
                self.ask_network(network, &path, kids, w.extractor.as_mut());
            }
            // The level of the child chosen now (the root's moves are at 1).
            let depth = path.len() as u32;
            let child = if self.filter.active(depth) {
                select(kids, |c| !self.filter.forbids(color, c.mv, depth))
            } else {
                select(kids, |_| true)
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
                    last = Some(p);
                }
                Move::Pass => {
                    board.pass();
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
            None => w.playout.run(
                &mut board,
                Start {
                    to_move: color,
                    last,
                    captures,
                },
                &mut w.rng,
                &mut w.moves,
                &mut w.owner,
            ),
        };
        for (acc, &o) in w.owner_sum.iter_mut().zip(w.owner.iter()) {
            *acc += i32::from(o);
        }
        w.owner_count += 1;
        self.backup(w, &path, result);
    }

    /// Adds the result to every node of the path, and the AMAF results to
    /// the children of each node whose move the same player made later.
    fn backup(&self, w: &mut Worker, path: &[&Node], result: Result2) {
        let root_mover = self.game.to_move().opponent();
        let mover = |d: usize| {
            if d.is_multiple_of(2) {
                root_mover
            } else {
                root_mover.opponent()
            }
        };
        for (d, n) in path.iter().enumerate() {
            n.record(result.wins2_for(mover(d)), result.margin);
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
            let wins2 = result.wins2_for(to_move);
            for c in path[d].kids() {
                if let Move::Play(p) = c.mv
                    && w.amaf[p.index()] == want
                {
                    c.record_amaf(wins2);
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
            None => model.policy(extractor, &position, moves, self.geo.cells()),
        })
    }

    /// The children of the last node of `path`: every move legal under the
    /// full rules at that position (own one-point eyes left out) and a pass,
    /// each with its prior knowledge (learned when an `extractor` is
    /// given: the network's at the root, the pattern model's elsewhere
    /// until [`Shared::ask_network`]).
    fn expand(&self, path: &[&Node], extractor: Option<&mut Extractor>) -> Box<[Node]> {
        let Some(game) = self.game_at(path) else {
            return Box::new([]);
        };
        if game.phase() != Phase::Playing || self.nodes.load(Ordering::Relaxed) > MAX_NODES {
            return Box::new([]);
        }
        let color = game.to_move();
        let board = game.board();
        let last = last_play(&game);
        let moves: Vec<Point> = self
            .geo
            .points()
            .iter()
            .copied()
            .filter(|&p| {
                board.is_empty(p)
                    && !board.is_one_point_eye(p, color)
                    && game.check(color, Move::Play(p)).is_ok()
            })
            .collect();
        let network = self
            .network
            .filter(|_| path.len() == 1 && path[0].claim_network());
        let learned = self.learned(&game, &moves, extractor, network);
        let prior = Prior::new(self.geo, board, color, last, learned);
        let mut kids = Vec::with_capacity(moves.len() + 1);
        for p in moves {
            let leaf = self.goal_leaf(&game, p, color);
            kids.push(Node::new(Move::Play(p), prior.of(p), prior.policy(p), leaf));
        }
        let pass = prior.of_pass(kids.len());
        kids.push(Node::new(Move::Pass, pass, None, self.pass_leaf(&game)));
        self.nodes.fetch_add(kids.len(), Ordering::Relaxed);
        kids.into_boxed_slice()
    }

    /// Replaces the priors of `kids`, the children of the last node of
    /// `path`, by the network's (once that node has earned the cost of an
    /// evaluation: AlphaGo's threshold of visits).
    fn ask_network(
        &self,
        network: &Network,
        path: &[&Node],
        kids: &[Node],
        extractor: Option<&mut Extractor>,
    ) {
        let Some(game) = self.game_at(path) else {
            return;
        };
        let moves: Vec<Point> = kids
            .iter()
            .filter_map(|k| match k.mv {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        let learned = self.learned(&game, &moves, extractor, Some(network));
        let prior = Prior::new(
            self.geo,
            game.board(),
            game.to_move(),
            last_play(&game),
            learned,
        );
        for k in kids {
            match k.mv {
                Move::Play(p) => {
                    let (n, w) = prior.of(p);
                    k.set_prior(n, w, prior.policy(p));
                }
                Move::Pass => {
                    let (n, w) = prior.of_pass(moves.len());
                    k.set_prior(n, w, None);
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
            Leaf::Terminal(Result2::goal_won_by(color))
        } else if captures[color.opponent()] + preview.suicided >= goal {
            Leaf::Terminal(Result2::goal_won_by(color.opponent()))
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
            Phase::Marking => {
                Leaf::Terminal(Result2::from_margin(after.score(&[]).margin.in_eighths()))
            }
            Phase::Over => Leaf::Terminal(match after.outcome() {
                Some(Outcome::Win { winner, .. }) => {
                    let margin = after.final_score().map_or(0, |s| s.margin.in_eighths());
                    let margin = match winner {
                        Color::Black => margin.max(1),
                        Color::White => margin.min(-1),
                    };
                    Result2::from_margin(margin)
                }
                _ => Result2::from_margin(0),
            }),
        }
    }

    fn analysis(&self) -> Analysis {
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

/// The child to descend into among those `allowed`: the best blend of
/// its win rate (prior knowledge counted as virtual simulations) and its
/// AMAF win rate; `None` when none is allowed.
#[inline]
fn select(kids: &[Node], allowed: impl Fn(&Node) -> bool) -> Option<&Node> {
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    for c in kids.iter().filter(|c| allowed(c)) {
        let (n, w) = c.stats();
        let (prior_visits, prior_wins) = c.prior();
        let n = n + prior_visits;
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
        };
        if best.is_none() || value > best_value {
            best_value = value;
            best = Some(c);
        }
    }
    best
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

/// Dead stones from ownership (one value per point, in the order of
/// [`tengen_core::BoardSize::points`]): the chains whose points belong to
/// the opponent more often than not. The status is binary, so the most
/// likely one is the estimate: asking for more confidence would leave
/// every contested chain alive, a bias to the side that owns it, which
/// the count then carries (a corner race settled by a ko, a big group
/// the playouts take three times in five). A chain in seki keeps its
/// stones in the playouts, so it is not marked.
pub fn dead_stones(game: &Game, ownership: &[f32]) -> Vec<Point> {
    let board = game.board();
    let own: std::collections::HashMap<Point, f32> = game
        .size()
        .points()
        .zip(ownership.iter().copied())
        .collect();
    let own_at = |p: Point| own.get(&p).copied().unwrap_or(0.0);
    let mut seen = std::collections::HashSet::new();
    let mut dead = Vec::new();
    for p in game.size().points() {
        let Some(color) = board.get(p) else {
            continue;
        };
        let Some(id) = board.chain_id(p) else {
            continue;
        };
        if !seen.insert(id) {
            continue;
        }
        let sign = match color {
            Color::Black => 1.0,
            Color::White => -1.0,
        };
        let stones: Vec<Point> = board.chain(p).collect();
        let mean = stones.iter().map(|&s| own_at(s) * sign).sum::<f32>() / stones.len() as f32;
        if mean < 0.0 {
            dead.extend(stones);
        }
    }
    dead.sort_by_key(|p| p.index());
    dead
}

/// Dead stones of `game`'s final position (any phase), for `tengen score
/// --dead auto`, the web board and GTP `final_status_list`: `playouts`
/// playouts from the position, half with each player to move first, and
/// [`dead_stones`] of their ownership.
pub fn estimate_dead(game: &Game, playouts: u64, seed: u64) -> Vec<Point> {
    dead_stones(game, &final_ownership(game, playouts, seed))
}

/// Ownership of a finished position from playouts alone (no tree), half
/// with each player moving first; one value per point.
pub fn final_ownership(game: &Game, playouts: u64, seed: u64) -> Vec<f32> {
    let geo = Geometry::new(game.size());
    let mut judge = judge_of(game);
    // Whatever the game's method, ownership is about the board.
    judge.count = Count::Area;
    judge.goal = None;
    let mut playout = Playout::new(&geo, judge);
    let mut rng = Rng::new(seed);
    let n = geo.points().len();
    let mut sum = vec![0i64; n];
    let mut owner = vec![0i8; n];
    let mut moves = Vec::new();
    let playouts = playouts.max(2);
    for i in 0..playouts {
        let mut board = game.board().clone();
        board.pass();
        let first = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        moves.clear();
        playout.run(
            &mut board,
            Start {
                to_move: first,
                last: None,
                captures: game.captures(),
            },
            &mut rng,
            &mut moves,
            &mut owner,
        );
        for (s, &o) in sum.iter_mut().zip(owner.iter()) {
            *s += i64::from(o);
        }
    }
    sum.iter().map(|&s| s as f32 / playouts as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{BoardSize, Preset};

    #[test]
    fn a_search_on_the_empty_board_returns_a_legal_move() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let mut search = Search::new(SearchConfig::default());
        let (d, a) = search.genmove(&game, Limit::playouts(300), GenMode::Normal);
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

    #[test]
    fn the_network_gives_the_priors_of_the_root_and_of_nodes_of_40_visits() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(9).unwrap());
        let network = Network::shipped().unwrap();
        let mut search = Search::new(SearchConfig {
            threads: 1,
            knowledge: Knowledge::Net,
            ..SearchConfig::default()
        });
        search.analyze(&game, Limit::playouts(2000), &AtomicBool::new(false), None);
        let root = &search.kept.as_ref().unwrap().root;
        let mut extractor = Extractor::new(game.size());
        // The network's policy of `game` for the moves of `kids`.
        let mut expected = |game: &Game, kids: &[Node]| {
            let moves: Vec<Point> = kids
                .iter()
                .filter_map(|k| match k.mv {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                })
                .collect();
            let recent = net::recent(game.turns().iter().map(|t| t.mv));
            let position = Position::after(game.board(), game.to_move(), &recent);
            network.position_policy(
                PatternModel::shipped(),
                &mut extractor,
                &position,
                &recent,
                &moves,
            )
        };
        let check = |policy: &[f32], kids: &[Node]| {
            for k in kids {
                if let Move::Play(p) = k.mv {
                    assert_eq!(k.policy(), Some(policy[p.index()]), "{p:?}");
                }
            }
        };
        check(&expected(&game, root.kids()), root.kids());
        // A child of the root past 40 visits: asked too.
        let busy = root
            .kids()
            .iter()
            .find(|k| k.visits() >= NETWORK_AT && k.kids().len() > 1)
            .expect("a busy child");
        let mut after = game.clone();
        after.play(busy.mv).unwrap();
        check(&expected(&after, busy.kids()), busy.kids());
        // A child expanded but never past 40 visits keeps the patterns'.
        if let Some(quiet) = root
            .kids()
            .iter()
            .find(|k| k.visits() < NETWORK_AT && k.kids().len() > 1)
        {
            let mut after = game.clone();
            after.play(quiet.mv).unwrap();
            let net = expected(&after, quiet.kids());
            assert!(
                quiet
                    .kids()
                    .iter()
                    .any(|k| matches!(k.mv, Move::Play(p) if k.policy() != Some(net[p.index()]))),
                "the network was asked below 40 visits"
            );
        }
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
        let stop = AtomicBool::new(false);
        search.analyze_restricted(game, Limit::playouts(playouts), &stop, None, r)
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
        let (d, a) = search.genmove_restricted(&game, Limit::playouts(500), GenMode::Normal, &r);
        assert!(!a.candidates.is_empty());
        assert!(a.candidates.iter().all(|c| !avoided.contains(&c.mv)));
        assert!(matches!(d, Decision::Move(mv) if !avoided.contains(&mv)));
        // The same search again keeps its tree and its restrictions.
        let again = restricted(&mut search, &game, 100, &r);
        assert!(again.visits >= a.visits + 100);
        assert!(again.candidates.iter().all(|c| !avoided.contains(&c.mv)));
        // They do not leak into the next search: the centre comes back.
        let (_, free) = search.genmove(&game, Limit::playouts(500), GenMode::Normal);
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

    #[test]
    fn policy_helpers_are_reachable() {
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(5).unwrap());
        let geo = Geometry::new(game.size());
        let p = game.size().point(2, 2).unwrap();
        assert_eq!(
            crate::policy::liberties_after(game.board(), &geo, p, Color::Black),
            2
        );
    }
}
