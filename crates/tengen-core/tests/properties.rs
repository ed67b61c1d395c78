//! Property tests of the rules over long random games on small boards.
//!
//! Every game is driven by a tiny xorshift generator seeded by proptest, so a
//! failure shrinks to a seed and a board size. Moves are chosen among all the
//! points of the board (occupied ones included), a few points of other boards
//! (off this board) and passes, so that most attempts are illegal and kos and
//! superko cycles occur. Beside the library, the test keeps a plain reference
//! written from RULES.md: arrangements as `Vec<u8>`, chains by flood fill, and
//! the whole history of arrangements with who was to move and how each arose.
//!
//! What is checked:
//! 1. after every move, the incremental board (chains, liberties, stone
//!    counts, empty points, Zobrist hash) equals a recomputation from scratch;
//! 2. the verdict of `Game::check`/`Game::play` (legal, or which rule is
//!    broken) equals the reference's, for each of the four repetition rules
//!    and the three suicide rules, and an illegal play changes nothing; the
//!    end of play (two passes, capture goals, the fourth repetition of a
//!    situation under simple ko) also follows the reference;
//! 3. scores: regions partition the board, the area methods agree, the
//!    Chinese count and the FFG quick count agree with the area count;
//! 4. the 8 symmetries of a square board (4 of a rectangular one) preserve
//!    every verdict and the score.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRng, TestRunner};
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Instant;
use tengen_core::scoring::{self, CountInput};
use tengen_core::{
    Board, BoardSize, ByColor, Color, EndError, EndOfPlay, Game, HandicapPlacement, HandicapStones,
    IllegalMove, KoRule, Move, Outcome, Phase, Point, Points, Preset, Rules, Score, Scoring, Setup,
    Suicide, Tax, Vertex, WinBy,
};

type TestResult<T = ()> = Result<T, TestCaseError>;

// ---------------------------------------------------------------------------
// A tiny deterministic generator.

use common::{Snap, XorShift, is_re_form};

// ---------------------------------------------------------------------------
// Plain geometry: points numbered `y * width + x`, neighbours by coordinates.

const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct Geo {
    size: BoardSize,
    w: usize,
    h: usize,
    /// Naive index -> library point.
    points: Vec<Point>,
    /// Padded index -> naive index.
    index_of: Vec<u32>,
    adj: Vec<Vec<usize>>,
}

impl Geo {
    fn new(size: BoardSize) -> Geo {
        let (w, h) = (size.width() as usize, size.height() as usize);
        let mut points = Vec::with_capacity(w * h);
        let mut index_of = vec![NONE; 1024];
        let mut adj = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let p = size.point(x as u32, y as u32).expect("on the board");
                index_of[p.index()] = points.len() as u32;
                points.push(p);
                let mut a = Vec::new();
                if x > 0 {
                    a.push(y * w + x - 1);
                }
                if x + 1 < w {
                    a.push(y * w + x + 1);
                }
                if y > 0 {
                    a.push((y - 1) * w + x);
                }
                if y + 1 < h {
                    a.push((y + 1) * w + x);
                }
                adj.push(a);
            }
        }
        Geo {
            size,
            w,
            h,
            points,
            index_of,
            adj,
        }
    }

    fn n(&self) -> usize {
        self.points.len()
    }

    fn idx(&self, p: Point) -> Option<usize> {
        match self.index_of.get(p.index()) {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }

    /// The image of `p` under symmetry `sym` (0..8; 0..4 for rectangles).
    /// Points off this board are kept as they are.
    fn map(&self, sym: usize, p: Point) -> Point {
        let Some(i) = self.idx(p) else {
            return p;
        };
        let (x, y) = (i % self.w, i / self.w);
        let (w, h) = (self.w - 1, self.h - 1);
        let (nx, ny) = match sym {
            0 => (x, y),
            1 => (w - x, y),
            2 => (x, h - y),
            3 => (w - x, h - y),
            4 => (y, x),
            5 => (h - y, x),
            6 => (y, w - x),
            _ => (h - y, w - x),
        };
        self.points[ny * self.w + nx]
    }

    fn symmetries(&self) -> usize {
        if self.w == self.h { 8 } else { 4 }
    }
}

/// Points of other boards that are not points of `size` (border cells and
/// indexes beyond this board's padded array).
fn off_board_points(size: BoardSize) -> Vec<Point> {
    let mut v: Vec<Point> = (1..=25)
        .flat_map(|n| BoardSize::new(n, 26 - n).unwrap().points())
        .chain(BoardSize::square(25).unwrap().points())
        .chain(BoardSize::new(1, 25).unwrap().points())
        .filter(|&p| !size.contains(p))
        .collect();
    v.sort();
    v.dedup();
    v
}

// ---------------------------------------------------------------------------
// Plain arrangements and chains.

type Arr = Vec<u8>;

const fn code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

fn decode(v: u8) -> Option<Color> {
    match v {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

fn arrangement(geo: &Geo, board: &Board) -> Arr {
    geo.points
        .iter()
        .map(|&p| board.get(p).map_or(0, code))
        .collect()
}

/// Flood fill with stamps, so nothing is cleared between calls.
#[derive(Debug)]
struct Flood {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
    stones: Vec<usize>,
}

impl Flood {
    fn new() -> Flood {
        Flood {
            mark: vec![0; 1024],
            stamp: 0,
            stack: Vec::new(),
            stones: Vec::new(),
        }
    }

    fn fresh(&mut self) -> u32 {
        self.stamp += 1;
        self.stamp
    }

    /// The chain at `i` into `self.stones`; returns its distinct liberties.
    fn chain(&mut self, geo: &Geo, arr: &[u8], i: usize) -> usize {
        let color = arr[i];
        let s = self.fresh();
        let l = self.fresh();
        self.stones.clear();
        self.stack.clear();
        self.stack.push(i);
        self.mark[i] = s;
        let mut libs = 0;
        while let Some(p) = self.stack.pop() {
            self.stones.push(p);
            for &q in &geo.adj[p] {
                if arr[q] == color && self.mark[q] != s {
                    self.mark[q] = s;
                    self.stack.push(q);
                } else if arr[q] == 0 && self.mark[q] != l {
                    self.mark[q] = l;
                    libs += 1;
                }
            }
        }
        libs
    }
}

#[derive(Clone, Debug)]
struct NaivePlay {
    arr: Arr,
    captured: u32,
    suicided: u32,
}

/// A stone play as RULES.md §1 says: put the stone, remove opposing chains
/// without liberty, then the mover's own chain if it has none.
fn naive_play(
    geo: &Geo,
    flood: &mut Flood,
    arr: &[u8],
    i: usize,
    color: Color,
    suicide: Suicide,
) -> Result<NaivePlay, IllegalMove> {
    let mut a = arr.to_vec();
    a[i] = code(color);
    let enemy = code(color.opponent());
    let mut captured = 0;
    for &q in &geo.adj[i] {
        if a[q] == enemy && flood.chain(geo, &a, q) == 0 {
            for &s in &flood.stones {
                a[s] = 0;
            }
            captured += flood.stones.len() as u32;
        }
    }
    let mut suicided = 0;
    if flood.chain(geo, &a, i) == 0 {
        match suicide {
            Suicide::Forbidden => return Err(IllegalMove::Suicide),
            Suicide::MultiStone if flood.stones.len() == 1 => {
                return Err(IllegalMove::SingleStoneSuicide);
            }
            _ => {}
        }
        for &s in &flood.stones {
            a[s] = 0;
        }
        suicided = flood.stones.len() as u32;
    }
    Ok(NaivePlay {
        arr: a,
        captured,
        suicided,
    })
}

// ---------------------------------------------------------------------------
// The reference game: the whole history, checked plainly.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Maker {
    Start,
    Pass(Color),
    Stone(Color),
}

impl Maker {
    fn by(self) -> Option<Color> {
        match self {
            Maker::Start => None,
            Maker::Pass(c) | Maker::Stone(c) => Some(c),
        }
    }
}

#[derive(Clone, Debug)]
struct Entry {
    arr: Arr,
    to_move: Color,
    maker: Maker,
}

/// What the reference expects after a legal turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Continue,
    Marking,
    Void,
    CaptureGoal(Color, u32),
    Count,
}

#[derive(Clone, Debug)]
struct Reference {
    rules: Rules,
    arr: Arr,
    to_move: Color,
    hist: Vec<Entry>,
    seen: HashMap<Arr, Vec<usize>>,
    captures: ByColor<u32>,
    passes: ByColor<u32>,
    consecutive_passes: u32,
    last_stone: Option<Color>,
    /// Passes since the last stone play (or the start); a dispute keeps them.
    passes_since_stone: u32,
    phase: Phase,
    /// Every turn so far was made by the player to move.
    alternating: bool,
}

impl Reference {
    fn new(rules: Rules, arr: Arr, to_move: Color) -> Reference {
        let mut r = Reference {
            rules,
            arr: arr.clone(),
            to_move,
            hist: Vec::new(),
            seen: HashMap::new(),
            captures: ByColor::default(),
            passes: ByColor::default(),
            consecutive_passes: 0,
            last_stone: None,
            passes_since_stone: 0,
            phase: Phase::Playing,
            alternating: true,
        };
        r.push(arr, to_move, Maker::Start);
        r
    }

    fn push(&mut self, arr: Arr, to_move: Color, maker: Maker) {
        let k = self.hist.len();
        self.seen.entry(arr.clone()).or_default().push(k);
        self.hist.push(Entry {
            arr,
            to_move,
            maker,
        });
    }

    /// The verdict on `color` making `mv` now.
    fn verdict(
        &self,
        geo: &Geo,
        flood: &mut Flood,
        color: Color,
        mv: Move,
    ) -> Result<Option<NaivePlay>, IllegalMove> {
        match self.phase {
            Phase::Over => return Err(IllegalMove::GameOver),
            Phase::Marking => return Err(IllegalMove::WrongPhase),
            Phase::Playing => {}
        }
        let Move::Play(p) = mv else {
            return Ok(None);
        };
        let i = geo.idx(p).ok_or(IllegalMove::OffBoard)?;
        if self.arr[i] != 0 {
            return Err(IllegalMove::Occupied);
        }
        let played = naive_play(geo, flood, &self.arr, i, color, self.rules.suicide)?;
        match self.repetition(self.rules.ko, color, &played.arr) {
            Some(r) => Err(r),
            None => Ok(Some(played)),
        }
    }

    /// RULES.md §2, read plainly against the whole history.
    fn repetition(&self, ko: KoRule, mover: Color, after: &[u8]) -> Option<IllegalMove> {
        let earlier = self.seen.get(after);
        match ko {
            KoRule::Simple => {
                // The arrangement that stood just before the opponent's last turn.
                let k = (1..self.hist.len())
                    .rev()
                    .find(|&k| self.hist[k].maker.by() == Some(mover.opponent()))?;
                (self.hist[k - 1].arr == after).then_some(IllegalMove::Ko)
            }
            // Any earlier arrangement, the current one included.
            KoRule::Positional => earlier.map(|_| IllegalMove::PositionalSuperko),
            // An arrangement that stood with the mover's opponent to move.
            KoRule::Situational => earlier?
                .iter()
                .any(|&k| self.hist[k].to_move == mover.opponent())
                .then_some(IllegalMove::SituationalSuperko),
            // An arrangement the mover made by one of his own stone plays.
            KoRule::NaturalSituational => earlier?
                .iter()
                .any(|&k| self.hist[k].maker == Maker::Stone(mover))
                .then_some(IllegalMove::NaturalSituationalSuperko),
        }
    }

    fn removes_dead_stones(&self) -> bool {
        !matches!(self.rules.scoring, Scoring::Stones | Scoring::Captures)
    }

    /// Applies a legal turn and says what must follow.
    fn apply(&mut self, color: Color, played: Option<NaivePlay>) -> Expect {
        let opp = color.opponent();
        if color != self.to_move {
            self.alternating = false;
        }
        match played {
            None => {
                self.passes[color] += 1;
                self.consecutive_passes += 1;
                self.passes_since_stone += 1;
                self.push(self.arr.clone(), opp, Maker::Pass(color));
            }
            Some(p) => {
                self.arr = p.arr;
                self.captures[color] += p.captured;
                self.captures[opp] += p.suicided;
                self.consecutive_passes = 0;
                self.passes_since_stone = 0;
                self.last_stone = Some(color);
                self.push(self.arr.clone(), opp, Maker::Stone(color));
            }
        }
        self.to_move = opp;
        if let Some(goal) = self.rules.capture_goal {
            for c in [color, opp] {
                if self.captures[c] >= goal {
                    self.phase = Phase::Over;
                    return Expect::CaptureGoal(c, self.captures[c]);
                }
            }
        }
        if self.rules.ko == KoRule::Simple {
            let situations = self.seen[&self.arr]
                .iter()
                .filter(|&&k| self.hist[k].to_move == self.to_move)
                .count();
            if situations >= 4 {
                self.phase = Phase::Over;
                return Expect::Void;
            }
        }
        if self.consecutive_passes >= 2 {
            return self.stop();
        }
        Expect::Continue
    }

    fn stop(&mut self) -> Expect {
        if self.removes_dead_stones() {
            self.phase = Phase::Marking;
            Expect::Marking
        } else {
            self.phase = Phase::Over;
            Expect::Count
        }
    }
}

// ---------------------------------------------------------------------------
// Plain counting.

#[derive(Clone, Debug, Default)]
struct NaiveCount {
    stones: ByColor<u32>,
    territory: ByColor<u32>,
    dame: u32,
    neutral: u32,
    seki: ByColor<u32>,
}

/// A maximal set of connected empty points.
#[derive(Debug, Default)]
struct Region {
    points: Vec<usize>,
    black: bool,
    white: bool,
    /// Bordering chains, by label.
    chains: Vec<usize>,
}

/// Whether a stone of `color` on the empty point `i` can fill it safely: it
/// captures, or it leaves its chain with two liberties or more (a suicide
/// never fills safely).
fn fills_safely(geo: &Geo, flood: &mut Flood, arr: &[u8], i: usize, color: Color) -> bool {
    let played = naive_play(geo, flood, arr, i, color, Suicide::Allowed).expect("allowed");
    if played.suicided > 0 {
        return false;
    }
    played.captured > 0 || flood.chain(geo, &played.arr, i) >= 2
}

/// Regions and stones counted plainly. Eyes in seki (scoring.rs): points of
/// one-colour regions bordered by a chain that touches a region reaching
/// both colours which neither player can fill anywhere without leaving his
/// own chain in atari.
fn naive_count(geo: &Geo, arr: &[u8]) -> NaiveCount {
    let n = arr.len();
    let mut chain_of = vec![usize::MAX; n];
    let mut chains = 0;
    let mut stack = Vec::new();
    let mut out = NaiveCount::default();
    for i in 0..n {
        if let Some(c) = decode(arr[i]) {
            out.stones[c] += 1;
            if chain_of[i] == usize::MAX {
                chain_of[i] = chains;
                stack.push(i);
                while let Some(p) = stack.pop() {
                    for &q in &geo.adj[p] {
                        if arr[q] == arr[i] && chain_of[q] == usize::MAX {
                            chain_of[q] = chains;
                            stack.push(q);
                        }
                    }
                }
                chains += 1;
            }
        }
    }
    let mut regions: Vec<Region> = Vec::new();
    let mut region_of = vec![usize::MAX; n];
    for i in 0..n {
        if arr[i] != 0 || region_of[i] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut r = Region::default();
        region_of[i] = id;
        stack.push(i);
        while let Some(p) = stack.pop() {
            r.points.push(p);
            for &q in &geo.adj[p] {
                match arr[q] {
                    0 if region_of[q] == usize::MAX => {
                        region_of[q] = id;
                        stack.push(q);
                    }
                    0 => {}
                    v => {
                        if v == 1 {
                            r.black = true;
                        } else {
                            r.white = true;
                        }
                        if !r.chains.contains(&chain_of[q]) {
                            r.chains.push(chain_of[q]);
                        }
                    }
                }
            }
        }
        regions.push(r);
    }
    let mut seki_chains = Vec::new();
    let mut flood = Flood::new();
    for r in &regions {
        let size = r.points.len() as u32;
        match (r.black, r.white) {
            (true, true) => {
                out.dame += size;
                let unfillable = r.points.iter().all(|&p| {
                    Color::ALL
                        .into_iter()
                        .all(|c| !fills_safely(geo, &mut flood, arr, p, c))
                });
                if unfillable {
                    seki_chains.extend(r.chains.iter().copied());
                }
            }
            (true, false) => out.territory.black += size,
            (false, true) => out.territory.white += size,
            (false, false) => out.neutral += size,
        }
    }
    for r in &regions {
        if r.black != r.white && r.chains.iter().any(|c| seki_chains.contains(c)) {
            let c = if r.black { Color::Black } else { Color::White };
            out.seki[c] += r.points.len() as u32;
        }
    }
    out
}

fn whole(n: u32) -> Points {
    Points::whole(n as i32)
}

// ---------------------------------------------------------------------------
// The driver.

/// How a game starts.
#[derive(Clone, Debug)]
enum Start {
    Even,
    Handicap {
        n: u32,
        points: Vec<Point>,
        fixed: bool,
    },
}

/// A non-move action of the log (moves are logged as `Act::Move`).
#[derive(Clone, Debug)]
enum Act {
    Move(Color, Move),
    ProposeStop(Color),
    AcceptStop(Color),
    ProposeDead(Color, Vec<Point>),
    AcceptDead(Color),
    Dispute(Color),
    Resign(Color),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Res {
    Move(Result<(), IllegalMove>),
    End(Result<(), EndError>),
}

#[derive(Clone, Copy, Debug)]
struct Opts {
    /// Attempted moves per proptest case.
    attempts: usize,
    /// Attempted moves per game before it is abandoned and a new one starts.
    max_game: usize,
    /// Play handicap games.
    handicap: bool,
    /// Sometimes move out of turn (`play_as` for the player not to move),
    /// and check the other player's verdicts too.
    out_of_turn: bool,
    /// Replay each game under the symmetries of the board.
    symmetries: bool,
}

#[derive(Clone, Debug, Default)]
struct Stats {
    attempts: u64,
    legal_plays: u64,
    legal_passes: u64,
    illegal: HashMap<String, u64>,
    games: u64,
    endings: HashMap<String, u64>,
    markings: u64,
    full_checks: u64,
    undo_checks: u64,
    sym_replays: u64,
    quick_checks: u64,
    longest_game: usize,
    /// Stone plays that recreate an earlier arrangement, by the verdicts of
    /// the four repetition rules (simple, positional, situational, natural).
    repeats: HashMap<String, u64>,
}

impl Stats {
    fn merge(&mut self, o: &Stats) {
        self.attempts += o.attempts;
        self.legal_plays += o.legal_plays;
        self.legal_passes += o.legal_passes;
        for (k, v) in &o.illegal {
            *self.illegal.entry(k.clone()).or_default() += v;
        }
        self.games += o.games;
        for (k, v) in &o.endings {
            *self.endings.entry(k.clone()).or_default() += v;
        }
        self.markings += o.markings;
        self.full_checks += o.full_checks;
        self.undo_checks += o.undo_checks;
        self.sym_replays += o.sym_replays;
        self.quick_checks += o.quick_checks;
        self.longest_game = self.longest_game.max(o.longest_game);
        for (k, v) in &o.repeats {
            *self.repeats.entry(k.clone()).or_default() += v;
        }
    }
}

fn reason_name(r: IllegalMove) -> &'static str {
    match r {
        IllegalMove::OffBoard => "off board",
        IllegalMove::Occupied => "occupied",
        IllegalMove::Suicide => "suicide",
        IllegalMove::SingleStoneSuicide => "single-stone suicide",
        IllegalMove::Ko => "ko",
        IllegalMove::PositionalSuperko => "positional superko",
        IllegalMove::SituationalSuperko => "situational superko",
        IllegalMove::NaturalSituationalSuperko => "natural situational superko",
        IllegalMove::GameOver => "game over",
        IllegalMove::WrongPhase => "wrong phase",
    }
}

struct Driver<'a> {
    rules: Rules,
    geo: &'a Geo,
    seed: u64,
    opts: Opts,
    rng: XorShift,
    flood: Flood,
    off_board: Vec<Point>,
    stats: Stats,
    // The current game.
    start: Start,
    game: Game,
    reference: Reference,
    log: Vec<(Act, Res)>,
    game_attempts: usize,
}

macro_rules! ensure {
    ($d:expr, $cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err($d.fail(format!($($arg)+)));
        }
    };
}

macro_rules! ensure_eq {
    ($d:expr, $left:expr, $right:expr, $($arg:tt)+) => {{
        let (l, r) = (&$left, &$right);
        if l != r {
            return Err($d.fail(format!("{}\n  left:  {:?}\n  right: {:?}", format!($($arg)+), l, r)));
        }
    }};
}

impl<'a> Driver<'a> {
    fn new(rules: Rules, geo: &'a Geo, seed: u64, opts: Opts) -> Driver<'a> {
        let game = Game::new(rules, geo.size);
        let reference = Reference::new(rules, vec![0; geo.n()], Color::Black);
        Driver {
            rules,
            geo,
            seed,
            opts,
            rng: XorShift::new(seed),
            flood: Flood::new(),
            off_board: off_board_points(geo.size),
            stats: Stats::default(),
            start: Start::Even,
            game,
            reference,
            log: Vec::new(),
            game_attempts: 0,
        }
    }

    fn name(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) if self.geo.idx(p).is_some() => Vertex::point_name(p, self.geo.size),
            Move::Play(p) => format!("off-board index {}", p.index()),
        }
    }

    /// A failure with everything needed to replay it.
    fn fail(&self, msg: String) -> TestCaseError {
        let turns: Vec<String> = self
            .game
            .turns()
            .iter()
            .map(|t| format!("{}{}", t.color.letter(), self.name(t.mv)))
            .collect();
        TestCaseError::fail(format!(
            "{msg}\n  rules {:?}\n  board {} seed {} game {} start {:?}\n  turns ({}): {}\n  log tail: {:?}\n  board now:\n{}",
            self.rules,
            self.geo.size,
            self.seed,
            self.stats.games,
            self.start,
            turns.len(),
            turns.join(" "),
            &self.log[self.log.len().saturating_sub(6)..],
            self.game.board(),
        ))
    }

    /// Starts a new game (handicap or even) and a reference from its start.
    fn new_game(&mut self) -> TestResult {
        self.stats.games += 1;
        self.log.clear();
        self.game_attempts = 0;
        self.start = Start::Even;
        if self.opts.handicap {
            let n = 2 + self.rng.below(4) as u32;
            let fixed_ok = tengen_core::handicap::max_fixed(self.geo.size) >= n;
            let must_fix = self.rules.handicap_placement == HandicapPlacement::Fixed;
            if must_fix && !fixed_ok {
                self.start = Start::Handicap {
                    n: 1,
                    points: Vec::new(),
                    fixed: false,
                };
            } else if fixed_ok && (must_fix || self.rng.chance(300)) {
                let points = tengen_core::handicap::fixed_points(self.geo.size, n).unwrap();
                self.start = Start::Handicap {
                    n,
                    points,
                    fixed: true,
                };
            } else {
                let mut points = Vec::new();
                while points.len() < n as usize {
                    let p = self.geo.points[self.rng.below(self.geo.n())];
                    if !points.contains(&p) {
                        points.push(p);
                    }
                }
                self.start = Start::Handicap {
                    n,
                    points,
                    fixed: false,
                };
            }
        }
        self.game = match &self.start {
            Start::Even => Game::new(self.rules, self.geo.size),
            Start::Handicap { n, points, fixed } => {
                let stones = if *fixed {
                    HandicapStones::Fixed
                } else {
                    HandicapStones::Free(points.clone())
                };
                match Game::with_handicap(self.rules, self.geo.size, *n, stones) {
                    Ok(g) => g,
                    Err(e) => return Err(self.fail(format!("handicap refused: {e}"))),
                }
            }
        };
        // The reference starts from the initial board and replays the turns
        // the handicap made (New Zealand: Black plays while White passes).
        let arr = arrangement(self.geo, self.game.initial_board());
        let turns = self.game.turns().to_vec();
        self.reference = Reference::new(self.rules, arr, self.game.first_to_move());
        if let Start::Handicap { n, points, .. } = &self.start {
            let expected_black = if *n >= 2 { *n } else { 0 };
            ensure!(
                self,
                self.game.handicap() == *n,
                "handicap count {} != {n}",
                self.game.handicap()
            );
            ensure!(
                self,
                *n < 2
                    || (self.game.board().stones().black == expected_black
                        && points
                            .iter()
                            .all(|&p| self.game.board().get(p) == Some(Color::Black))),
                "handicap stones not on the board"
            );
            let komi = self.rules.handicap_compensation.points(*n);
            ensure_eq!(self, self.game.komi(), komi, "handicap compensation");
        }
        for t in turns {
            let v = self
                .reference
                .verdict(self.geo, &mut self.flood, t.color, t.mv);
            match v {
                Ok(p) => {
                    self.reference.apply(t.color, p);
                }
                Err(e) => return Err(self.fail(format!("handicap turn illegal: {e}"))),
            }
        }
        ensure_eq!(
            self,
            self.game.to_move(),
            self.reference.to_move,
            "to move at start"
        );
        self.check_board()
    }

    /// Runs games until the attempt budget is spent.
    fn run(&mut self) -> TestResult {
        self.new_game()?;
        while self.stats.attempts < self.opts.attempts as u64 {
            let over = match self.game.phase() {
                Phase::Playing => {
                    self.turn()?;
                    self.game.phase() == Phase::Over
                }
                Phase::Marking => {
                    self.marking()?;
                    self.game.phase() == Phase::Over
                }
                Phase::Over => true,
            };
            if over || self.game_attempts >= self.opts.max_game {
                self.end_of_game()?;
                self.new_game()?;
            }
        }
        self.end_of_game()
    }

    fn choose_move(&mut self) -> Move {
        let last_pass = matches!(self.game.turns().last(), Some(t) if t.mv == Move::Pass);
        let pass = if last_pass { 250 } else { 25 };
        let r = self.rng.below(1000);
        if r < pass {
            return Move::Pass;
        }
        if r < pass + 10 {
            return Move::Play(self.off_board[self.rng.below(self.off_board.len())]);
        }
        if self.rng.chance(500) {
            let empties: Vec<usize> = (0..self.geo.n())
                .filter(|&i| self.reference.arr[i] == 0)
                .collect();
            if !empties.is_empty() {
                return Move::Play(self.geo.points[empties[self.rng.below(empties.len())]]);
            }
        }
        Move::Play(self.geo.points[self.rng.below(self.geo.n())])
    }

    /// One turn of play, or now and then an agreement or a resignation.
    fn turn(&mut self) -> TestResult {
        let r = self.rng.below(10_000);
        if r < 20 {
            return self.agreement();
        }
        if r < 22 {
            let c = self.rng.color();
            return self.end_action(Act::Resign(c));
        }
        if r < 40 {
            // Marking actions are refused during play.
            let c = self.rng.color();
            let act = match self.rng.below(3) {
                0 => Act::AcceptDead(c),
                1 => Act::Dispute(c),
                _ => Act::ProposeDead(c, Vec::new()),
            };
            return self.end_action(act);
        }
        self.stats.attempts += 1;
        self.game_attempts += 1;
        let to_move = self.game.to_move();
        let color = if self.opts.out_of_turn && self.rng.chance(100) {
            to_move.opponent()
        } else {
            to_move
        };
        let mv = self.choose_move();
        let after_pass = matches!(self.game.turns().last(), Some(t) if t.mv == Move::Pass);
        if self.stats.attempts.is_multiple_of(16) || (self.opts.out_of_turn && after_pass) {
            self.full_check()?;
        }
        self.attempt(color, mv)
    }

    /// Compares the verdict on every point (and a pass) with the reference.
    fn full_check(&mut self) -> TestResult {
        self.stats.full_checks += 1;
        let colors: &[Color] = if self.opts.out_of_turn {
            &[Color::Black, Color::White]
        } else {
            &[self.game.to_move()]
        };
        for &color in colors {
            let mut legal = Vec::new();
            for i in 0..self.geo.n() {
                let mv = Move::Play(self.geo.points[i]);
                let expected = self
                    .reference
                    .verdict(self.geo, &mut self.flood, color, mv)
                    .map(|_| ());
                if expected.is_ok() {
                    legal.push(self.geo.points[i]);
                }
                ensure_eq!(
                    self,
                    self.game.check(color, mv),
                    expected,
                    "check({color}, {})",
                    self.name(mv)
                );
            }
            ensure_eq!(
                self,
                self.game.check(color, Move::Pass),
                Ok(()),
                "a pass is legal"
            );
            if color == self.game.to_move() {
                let mut lib: Vec<Point> = self.game.legal_points().collect();
                lib.sort();
                legal.sort();
                ensure_eq!(self, lib, legal, "legal_points");
            }
        }
        Ok(())
    }

    /// Attempts a move and checks everything about it.
    fn attempt(&mut self, color: Color, mv: Move) -> TestResult {
        let expected = self.reference.verdict(self.geo, &mut self.flood, color, mv);
        let verdict = expected.as_ref().map(|_| ()).map_err(|e| *e);
        self.count_repeat(color, mv);
        ensure_eq!(
            self,
            self.game.check(color, mv),
            verdict,
            "check({color}, {})",
            self.name(mv)
        );
        if color == self.game.to_move() {
            ensure_eq!(
                self,
                self.game.is_legal(mv),
                verdict.is_ok(),
                "is_legal({})",
                self.name(mv)
            );
        }
        // The fast board's view of the same stone.
        if let Move::Play(p) = mv
            && let Some(i) = self.geo.idx(p)
            && self.reference.arr[i] == 0
        {
            let preview = self.game.board().preview(p, color);
            let plain = naive_play(
                self.geo,
                &mut self.flood,
                &self.reference.arr,
                i,
                color,
                Suicide::Allowed,
            )
            .expect("suicide allowed");
            ensure_eq!(
                self,
                (preview.captured, preview.suicided),
                (plain.captured, plain.suicided),
                "preview of {}",
                self.name(mv)
            );
            ensure_eq!(
                self,
                preview.single_stone_suicide,
                plain.suicided == 1,
                "single-stone suicide"
            );
            ensure_eq!(
                self,
                self.game.board().is_suicide(p, color),
                plain.suicided > 0,
                "is_suicide"
            );
            let mut after = Board::new(self.geo.size);
            for (j, &v) in plain.arr.iter().enumerate() {
                if let Some(c) = decode(v) {
                    after.play_unchecked(self.geo.points[j], c);
                }
            }
            ensure_eq!(self, preview.hash_after, after.hash(), "preview hash");
        }
        let before = Snap::of(&self.game);
        let keep = self.rng.chance(5).then(|| self.game.clone());
        let result = if color == self.game.to_move() && self.rng.chance(500) {
            self.game.play(mv)
        } else {
            self.game.play_as(color, mv)
        };
        self.log.push((
            Act::Move(color, mv),
            Res::Move(result.map_err(|e| e.reason)),
        ));
        match (result, expected) {
            (Err(e), Err(reason)) => {
                ensure_eq!(self, e.reason, reason, "reason");
                ensure_eq!(self, (e.color, e.mv), (color, mv), "error names the move");
                *self
                    .stats
                    .illegal
                    .entry(reason_name(reason).to_string())
                    .or_default() += 1;
                ensure!(
                    self,
                    Snap::of(&self.game) == before,
                    "a refused move changed the game"
                );
                ensure_eq!(
                    self,
                    arrangement(self.geo, self.game.board()),
                    self.reference.arr,
                    "board after a refused move"
                );
            }
            (Ok(()), Ok(played)) => {
                if played.is_some() {
                    self.stats.legal_plays += 1;
                } else {
                    self.stats.legal_passes += 1;
                }
                let expect = self.reference.apply(color, played);
                self.after_turn(color, mv, expect)?;
                if let Some(g) = keep {
                    self.check_undo(&g)?;
                }
            }
            (got, want) => {
                return Err(self.fail(format!(
                    "{color} {}: library says {got:?}, reference says {:?}",
                    self.name(mv),
                    want.map(|_| ())
                )));
            }
        }
        Ok(())
    }

    /// For statistics: how the four repetition rules judge a stone play
    /// that recreates an earlier arrangement.
    fn count_repeat(&mut self, color: Color, mv: Move) {
        let Move::Play(p) = mv else { return };
        let Some(i) = self.geo.idx(p) else { return };
        if self.reference.arr[i] != 0 || self.reference.phase != Phase::Playing {
            return;
        }
        let Ok(played) = naive_play(
            self.geo,
            &mut self.flood,
            &self.reference.arr,
            i,
            color,
            self.rules.suicide,
        ) else {
            return;
        };
        if !self.reference.seen.contains_key(&played.arr) {
            return;
        }
        let single = played.captured == 0 && played.suicided == 1;
        let key: String = [
            KoRule::Simple,
            KoRule::Positional,
            KoRule::Situational,
            KoRule::NaturalSituational,
        ]
        .into_iter()
        .map(
            |ko| match (self.reference.repetition(ko, color, &played.arr), single) {
                (None, _) => '.',
                (Some(_), true) => 's',
                (Some(_), false) => 'X',
            },
        )
        .collect();
        *self.stats.repeats.entry(key).or_default() += 1;
    }

    /// Everything that must hold after a legal turn.
    fn after_turn(&mut self, color: Color, mv: Move, expect: Expect) -> TestResult {
        let g = &self.game;
        ensure_eq!(
            self,
            g.turns().last().map(|t| (t.color, t.mv)),
            Some((color, mv)),
            "last turn"
        );
        ensure_eq!(self, g.move_number(), g.turns().len(), "move number");
        ensure_eq!(self, g.to_move(), self.reference.to_move, "to move");
        ensure_eq!(self, g.captures(), self.reference.captures, "captures");
        ensure_eq!(self, g.passes(), self.reference.passes, "passes");
        ensure_eq!(self, g.phase(), self.reference.phase, "phase ({expect:?})");
        self.check_board()?;
        match expect {
            Expect::Continue => {}
            Expect::Marking => self.stats.markings += 1,
            Expect::Void => {
                ensure_eq!(self, self.game.outcome(), Some(&Outcome::Void), "void");
            }
            Expect::CaptureGoal(winner, n) => {
                ensure_eq!(
                    self,
                    self.game.outcome(),
                    Some(&Outcome::Win {
                        winner,
                        by: WinBy::CaptureGoal(n)
                    }),
                    "capture goal"
                );
            }
            Expect::Count => {
                let score = self.game.final_score().cloned();
                let Some(score) = score else {
                    return Err(self.fail("no final score".into()));
                };
                self.check_score(&[], &score)?;
                self.check_outcome_of(&score)?;
            }
        }
        // The fast board's ko point is a real ko for the next player.
        if let (Move::Play(_), Some(k), true) = (
            mv,
            self.game.board().ko_point(),
            self.game.phase() == Phase::Playing,
        ) {
            let next = self.game.to_move();
            let want = match self.rules.ko {
                KoRule::Simple => Some(IllegalMove::Ko),
                KoRule::Positional => Some(IllegalMove::PositionalSuperko),
                KoRule::Situational => Some(IllegalMove::SituationalSuperko),
                KoRule::NaturalSituational => None,
            };
            if let (Some(want), true) = (want, self.reference.alternating) {
                ensure_eq!(
                    self,
                    self.game.check(next, Move::Play(k)),
                    Err(want),
                    "retaking the fast board's ko point {}",
                    self.name(Move::Play(k))
                );
            }
        }
        Ok(())
    }

    /// `undo` after this turn gives back the game as it was before it.
    fn check_undo(&mut self, before: &Game) -> TestResult {
        self.stats.undo_checks += 1;
        let mut undone = self.game.clone();
        ensure!(self, undone.undo().is_ok(), "undo refused");
        ensure!(self, undone.board() == before.board(), "undo: board");
        ensure_eq!(self, undone.board().hash(), before.board().hash(), "undo");
        ensure_eq!(self, undone.to_move(), before.to_move(), "undo: to move");
        ensure_eq!(self, undone.turns(), before.turns(), "undo: turns");
        ensure_eq!(self, undone.captures(), before.captures(), "undo: captures");
        ensure_eq!(self, undone.passes(), before.passes(), "undo: passes");
        ensure_eq!(self, undone.komi(), before.komi(), "undo: komi");
        ensure_eq!(self, undone.outcome(), None, "undo: outcome");
        // A stop that preceded the undone turn may come back; nothing else.
        let stopped_before = before.turns().len() >= 2
            && before.turns()[before.turns().len() - 2..]
                .iter()
                .all(|t| t.mv == Move::Pass);
        ensure!(
            self,
            undone.phase() == Phase::Playing
                || (undone.phase() == Phase::Marking && stopped_before),
            "undo: phase {:?}",
            undone.phase()
        );
        // The history came back too: same verdicts everywhere.
        if undone.phase() == Phase::Playing {
            for &p in &self.geo.points {
                ensure_eq!(
                    self,
                    undone.check(before.to_move(), Move::Play(p)),
                    before.check(before.to_move(), Move::Play(p)),
                    "undo: verdict at {}",
                    self.name(Move::Play(p))
                );
            }
        }
        Ok(())
    }

    /// A non-move action, checked against the expected result.
    fn end_action(&mut self, act: Act) -> TestResult {
        let before = Snap::of(&self.game);
        let phase = self.game.phase();
        let (result, expected): (Result<(), EndError>, Result<(), EndError>) = match &act {
            Act::Resign(c) => {
                let want = if phase == Phase::Over {
                    Err(EndError::WrongPhase("over"))
                } else {
                    Ok(())
                };
                (self.game.resign(*c), want)
            }
            Act::AcceptDead(c) => (self.game.accept_dead(*c), Err(wrong_phase(phase))),
            Act::Dispute(c) => (self.game.dispute(*c), Err(wrong_phase(phase))),
            Act::ProposeDead(c, v) => (self.game.propose_dead(*c, v), Err(wrong_phase(phase))),
            _ => return Err(self.fail(format!("unexpected action {act:?}"))),
        };
        let is_err = result.is_err();
        self.log.push((act.clone(), Res::End(result)));
        ensure_eq!(self, result, expected, "{act:?}");
        if is_err {
            ensure!(
                self,
                Snap::of(&self.game) == before,
                "{act:?} changed the game"
            );
        } else if let Act::Resign(c) = act {
            self.reference.phase = Phase::Over;
            ensure_eq!(
                self,
                self.game.outcome(),
                Some(&Outcome::Win {
                    winner: c.opponent(),
                    by: WinBy::Resignation
                }),
                "resignation"
            );
            ensure_eq!(self, self.game.phase(), Phase::Over, "resigned");
        }
        Ok(())
    }

    /// Proposes to stop and accepts (rules ending by agreement), checking the
    /// refusals on the way.
    fn agreement(&mut self) -> TestResult {
        let c = self.rng.color();
        let before = Snap::of(&self.game);
        let r = self.game.propose_stop(c);
        self.log.push((Act::ProposeStop(c), Res::End(r)));
        if self.rules.end != EndOfPlay::Agreement {
            ensure_eq!(self, r, Err(EndError::NoAgreement), "propose_stop");
            ensure!(self, Snap::of(&self.game) == before, "propose_stop changed");
            return Ok(());
        }
        ensure_eq!(self, r, Ok(()), "propose_stop");
        let r = self.game.accept_stop(c);
        self.log.push((Act::AcceptStop(c), Res::End(r)));
        ensure_eq!(
            self,
            r,
            Err(EndError::NoProposal),
            "accepting one's own stop"
        );
        ensure!(self, Snap::of(&self.game) == before, "accept_stop changed");
        if self.rng.chance(300) {
            // The offer lapses with the next turn.
            return Ok(());
        }
        let r = self.game.accept_stop(c.opponent());
        self.log.push((Act::AcceptStop(c.opponent()), Res::End(r)));
        ensure_eq!(self, r, Ok(()), "accept_stop");
        *self.stats.endings.entry("stop agreed".into()).or_default() += 1;
        match self.reference.stop() {
            Expect::Marking => {
                self.stats.markings += 1;
                ensure_eq!(self, self.game.phase(), Phase::Marking, "agreed stop");
            }
            _ => {
                ensure_eq!(self, self.game.phase(), Phase::Over, "agreed stop");
                let score = self.game.final_score().cloned();
                let Some(score) = score else {
                    return Err(self.fail("no final score".into()));
                };
                self.check_score(&[], &score)?;
                self.check_outcome_of(&score)?;
            }
        }
        Ok(())
    }

    /// Some stones (whole chains named by one stone), for dead-stone proposals.
    fn random_dead(&mut self) -> Vec<Point> {
        let stones: Vec<Point> = (0..self.geo.n())
            .filter(|&i| self.reference.arr[i] != 0)
            .map(|i| self.geo.points[i])
            .collect();
        let k = match self.rng.below(4) {
            0 => 0,
            1 => 1,
            2 => 2,
            _ => stones.len(),
        };
        (0..k.min(stones.len()))
            .map(|_| stones[self.rng.below(stones.len())])
            .collect()
    }

    /// The dead-stone phase: mostly dispute and play on, sometimes agree.
    fn marking(&mut self) -> TestResult {
        // Moves are refused.
        let mv = self.choose_move();
        let c = self.rng.color();
        let before = Snap::of(&self.game);
        ensure_eq!(
            self,
            self.game.check(c, mv),
            Err(IllegalMove::WrongPhase),
            "check in marking"
        );
        let r = self.game.play_as(c, mv).map_err(|e| e.reason);
        self.log.push((Act::Move(c, mv), Res::Move(r)));
        ensure_eq!(self, r, Err(IllegalMove::WrongPhase), "play in marking");
        for (act, r) in [
            (Act::ProposeStop(c), self.game.propose_stop(c)),
            (Act::AcceptStop(c), self.game.accept_stop(c)),
            (Act::AcceptDead(c), self.game.accept_dead(c)),
        ] {
            self.log.push((act.clone(), Res::End(r)));
            ensure!(self, r.is_err(), "{act:?} in marking");
        }
        ensure!(
            self,
            Snap::of(&self.game) == before,
            "refusals changed the game"
        );

        // Scores of this position for a few dead-stone sets.
        for _ in 0..2 {
            let dead = self.random_dead();
            let score = self.game.score(&dead);
            self.check_score(&dead, &score)?;
        }

        let r = self.rng.below(100);
        let by = self.rng.color();
        if r < 15 {
            let dead = self.random_dead();
            let expected_score = self.game.score(&dead);
            let res = self.game.propose_dead(by, &dead);
            self.log
                .push((Act::ProposeDead(by, dead.clone()), Res::End(res)));
            ensure_eq!(self, res, Ok(()), "propose_dead");
            // The proposal names whole chains.
            let mut chains: Vec<Point> = dead
                .iter()
                .flat_map(|&p| self.game.board().chain(p).collect::<Vec<_>>())
                .collect();
            chains.sort();
            chains.dedup();
            ensure_eq!(
                self,
                self.game.dead_proposal().map(|(c, v)| (c, v.to_vec())),
                Some((by, chains)),
                "dead proposal"
            );
            let before = Snap::of(&self.game);
            let res = self.game.accept_dead(by);
            self.log.push((Act::AcceptDead(by), Res::End(res)));
            ensure_eq!(self, res, Err(EndError::NoProposal), "accepting one's own");
            ensure!(self, Snap::of(&self.game) == before, "accept_dead changed");
            if r < 5 {
                let res = self.game.dispute(by.opponent());
                self.log.push((Act::Dispute(by.opponent()), Res::End(res)));
                ensure_eq!(self, res, Ok(()), "dispute");
                self.reference.phase = Phase::Playing;
                self.reference.consecutive_passes = 0;
                ensure_eq!(
                    self,
                    self.game.dead_proposal(),
                    None,
                    "proposal after dispute"
                );
                return Ok(());
            }
            let res = self.game.accept_dead(by.opponent());
            self.log
                .push((Act::AcceptDead(by.opponent()), Res::End(res)));
            ensure_eq!(self, res, Ok(()), "accept_dead");
            self.reference.phase = Phase::Over;
            ensure_eq!(self, self.game.phase(), Phase::Over, "counted");
            ensure_eq!(
                self,
                self.game.final_score(),
                Some(&expected_score),
                "final score = score of the dead stones agreed"
            );
            self.check_outcome_of(&expected_score)?;
        } else if r < 28 {
            // A proposal naming an empty point is refused.
            if let Some(i) = (0..self.geo.n()).find(|&i| self.reference.arr[i] == 0) {
                let before = Snap::of(&self.game);
                let v = vec![self.geo.points[i]];
                let res = self.game.propose_dead(by, &v);
                self.log.push((Act::ProposeDead(by, v), Res::End(res)));
                ensure_eq!(
                    self,
                    res,
                    Err(EndError::NotAStone),
                    "propose an empty point"
                );
                ensure!(
                    self,
                    Snap::of(&self.game) == before,
                    "refused proposal changed"
                );
            }
        } else if r < 29 {
            self.end_action(Act::Resign(by))?;
        } else {
            let res = self.game.dispute(by);
            self.log.push((Act::Dispute(by), Res::End(res)));
            ensure_eq!(self, res, Ok(()), "dispute");
            self.reference.phase = Phase::Playing;
            self.reference.consecutive_passes = 0;
            ensure_eq!(self, self.game.phase(), Phase::Playing, "after dispute");
            ensure_eq!(self, self.game.to_move(), self.reference.to_move, "dispute");
        }
        Ok(())
    }

    /// The outcome a count gives.
    fn check_outcome_of(&mut self, score: &Score) -> TestResult {
        let margin = score.margin;
        let expected = if margin.is_zero() {
            Outcome::Draw
        } else {
            let winner = if margin > Points::ZERO {
                Color::Black
            } else {
                Color::White
            };
            let by = match score.scoring {
                Scoring::Captures => WinBy::Captures {
                    winner: score.captures[winner],
                    loser: score.captures[winner.opponent()],
                },
                _ => WinBy::Score(margin.abs()),
            };
            Outcome::Win { winner, by }
        };
        ensure_eq!(
            self,
            self.game.outcome(),
            Some(&expected),
            "outcome of the count"
        );
        Ok(())
    }

    /// The incremental board against a recomputation from scratch.
    fn check_board(&mut self) -> TestResult {
        let geo = self.geo;
        let board = self.game.board();
        let arr = &self.reference.arr;
        ensure_eq!(self, board.size(), geo.size, "size");
        ensure_eq!(self, &arrangement(geo, board), arr, "arrangement");
        let n = geo.n();
        let mut label = vec![usize::MAX; n];
        let mut ids = Vec::new();
        let mut stones = ByColor::<u32>::default();
        let mut rebuilt = Board::new(geo.size);
        for i in 0..n {
            let p = geo.points[i];
            let Some(c) = decode(arr[i]) else {
                ensure!(
                    self,
                    board.is_empty(p)
                        && board.chain(p).next().is_none()
                        && board.chain_len(p) == 0
                        && board.liberties(p) == 0
                        && board.chain_id(p).is_none(),
                    "empty point {} has a chain",
                    self.name(Move::Play(p))
                );
                continue;
            };
            stones[c] += 1;
            rebuilt.play_unchecked(p, c);
            if label[i] != usize::MAX {
                continue;
            }
            let libs = self.flood.chain(geo, arr, i) as u32;
            let chain = self.flood.stones.clone();
            let k = ids.len();
            for &s in &chain {
                label[s] = k;
            }
            let id = board.chain_id(p);
            ensure!(self, id.is_some(), "a stone without chain id");
            ids.push(id);
            for &s in &chain {
                let q = geo.points[s];
                ensure_eq!(self, board.chain_id(q), id, "chain id");
                ensure_eq!(self, board.chain_len(q), chain.len() as u32, "chain_len");
                ensure_eq!(self, board.liberties(q), libs, "liberties");
                // The chain's stones, seen from this stone: each once.
                let stamp = self.flood.fresh();
                let mut count = 0;
                for r in board.chain(q) {
                    let Some(j) = geo.idx(r) else {
                        return Err(self.fail("chain stone off the board".into()));
                    };
                    ensure!(
                        self,
                        label[j] == k && self.flood.mark[j] != stamp,
                        "chain of {} lists {} wrongly",
                        self.name(Move::Play(q)),
                        self.name(Move::Play(r))
                    );
                    self.flood.mark[j] = stamp;
                    count += 1;
                }
                ensure_eq!(self, count, chain.len(), "chain length seen");
            }
        }
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        ensure_eq!(self, sorted.len(), ids.len(), "distinct chains share an id");
        ensure_eq!(self, board.stones(), stones, "stone counts");
        let empties = board.empty_points();
        let stamp = self.flood.fresh();
        for &e in empties {
            let Some(j) = geo.idx(e) else {
                return Err(self.fail("empty point off the board".into()));
            };
            ensure!(
                self,
                arr[j] == 0 && self.flood.mark[j] != stamp,
                "empty list"
            );
            self.flood.mark[j] = stamp;
        }
        ensure_eq!(
            self,
            empties.len(),
            arr.iter().filter(|&&v| v == 0).count(),
            "empty count"
        );
        ensure_eq!(self, rebuilt.hash(), board.hash(), "Zobrist hash");
        ensure!(self, rebuilt == *board, "rebuilt board differs");
        Ok(())
    }

    /// A score against the plain count of the same position.
    fn check_score(&mut self, dead: &[Point], score: &Score) -> TestResult {
        let geo = self.geo;
        let mut arr = self.reference.arr.clone();
        let mut removed = ByColor::<u32>::default();
        for &p in dead {
            if let Some(i) = geo.idx(p)
                && let Some(c) = decode(arr[i])
            {
                self.flood.chain(geo, &arr, i);
                for &s in &self.flood.stones {
                    arr[s] = 0;
                }
                removed[c] += self.flood.stones.len() as u32;
            }
        }
        let nc = naive_count(geo, &arr);
        let komi = self.game.komi();
        let caps = self.reference.captures;
        ensure_eq!(self, score.scoring, self.rules.scoring, "scoring method");
        ensure_eq!(self, score.stones, nc.stones, "stones");
        ensure_eq!(self, score.regions.territory, nc.territory, "territory");
        ensure_eq!(self, score.regions.dame, nc.dame, "dame");
        ensure_eq!(self, score.regions.neutral, nc.neutral, "neutral");
        ensure_eq!(self, score.regions.seki, nc.seki, "seki");
        ensure_eq!(self, score.dead, removed, "dead");
        ensure_eq!(self, score.captures, caps, "captures");
        ensure_eq!(self, score.komi, komi, "komi");
        let area = ByColor::from_fn(|c| whole(nc.stones[c] + nc.territory[c]));
        ensure_eq!(
            self,
            area.black + area.white + whole(nc.dame + nc.neutral),
            whole(geo.n() as u32),
            "black area + dame + neutral + white area = points"
        );
        let prisoners = ByColor::from_fn(|c| caps[c] + removed[c.opponent()]);
        let seki_eyes = |c: Color| match self.rules.tax {
            Tax::None => 0,
            Tax::Seki => nc.seki[c],
        };
        let totals = match self.rules.scoring {
            Scoring::AreaDameNobody => ByColor::from_fn(|c| area[c] - whole(seki_eyes(c))),
            Scoring::AreaDameBoth => {
                ByColor::from_fn(|c| area[c] + whole(nc.dame) - whole(seki_eyes(c)))
            }
            Scoring::AreaDameShared => {
                ByColor::from_fn(|c| area[c] + Points::halves(nc.dame as i32) - whole(seki_eyes(c)))
            }
            Scoring::Stones => nc.stones.map(whole),
            Scoring::Territory => {
                ByColor::from_fn(|c| whole(nc.territory[c] - seki_eyes(c) + prisoners[c]))
            }
            Scoring::Captures => caps.map(whole),
        };
        let totals = ByColor::new(totals.black, totals.white + komi);
        ensure_eq!(self, score.totals, totals, "totals");
        ensure_eq!(self, score.margin, totals.black - totals.white, "margin");
        let area_margin = area.black - area.white - komi;
        ensure_eq!(self, score.area_margin, area_margin, "area margin");
        // Every area method gives the same margin.
        for method in [
            Scoring::AreaDameBoth,
            Scoring::AreaDameShared,
            Scoring::AreaDameNobody,
        ] {
            let s = scoring::count(
                self.game.board(),
                dead,
                CountInput {
                    scoring: method,
                    komi,
                    captures: caps,
                    tax: Tax::None,
                },
            );
            ensure_eq!(self, s.margin, area_margin, "{method:?} margin");
            ensure_eq!(
                self,
                s.totals.black - s.totals.white,
                area_margin,
                "{method:?} totals"
            );
        }
        // The Chinese count: Black's area plus half the dame against half
        // the shared points plus half the komi. Twice its margin is the area
        // margin, on an empty board too.
        let ch = score.chinese;
        ensure_eq!(
            self,
            ch.black,
            area.black + Points::halves(nc.dame as i32),
            "Chinese count"
        );
        ensure_eq!(
            self,
            ch.margin_stones.double(),
            area_margin,
            "Chinese margin in stones x 2"
        );
        // The quick count.
        let Some(q) = score.quick else {
            return Err(self.fail("no quick count".into()));
        };
        let white_first = self.game.first_to_move() == Color::White;
        // White hands over one more stone when Black made one turn more
        // (as many, White having started): FFG's "Black made the last stone
        // play" when turns alternate and two passes stop play; the side
        // with fewer turns hands over the difference otherwise.
        let made = |c: Color| self.game.turns().iter().filter(|t| t.color == c).count() as i64;
        let lead = made(Color::Black) - made(Color::White) + i64::from(white_first);
        let passes = self.reference.passes;
        let held = ByColor::new(
            caps.black + removed.white + passes.white + lead.max(0) as u32,
            caps.white + removed.black + passes.black + (-lead).max(0) as u32,
        );
        ensure_eq!(self, q.held, held, "quick count: stones held");
        let initial = self.game.initial_board().stones();
        let balance = initial.black as i32 - initial.white as i32;
        ensure_eq!(
            self,
            q.komi,
            komi - Points::whole(balance - i32::from(white_first)),
            "quick count komi"
        );
        // The quick count is the area count on every position: after the
        // two passes that stop play, mid-game, and after passes that follow
        // a stop (a dispute, or a record's trailing pass).
        self.stats.quick_checks += 1;
        ensure_eq!(
            self,
            q.margin,
            area_margin,
            "FFG quick count margin = area margin"
        );
        Ok(())
    }

    fn end_of_game(&mut self) -> TestResult {
        self.stats.longest_game = self.stats.longest_game.max(self.game.turns().len());
        let ending = match self.game.outcome() {
            None => format!("unfinished ({:?})", self.game.phase()),
            Some(Outcome::Void) => "void".to_string(),
            Some(Outcome::Draw) => "draw".to_string(),
            Some(Outcome::Win { by, .. }) => match by {
                WinBy::Score(_) => "count".to_string(),
                WinBy::Captures { .. } => "captures after passes".to_string(),
                other => format!("{other:?}"),
            },
        };
        *self.stats.endings.entry(ending).or_default() += 1;
        if let Some(o) = self.game.outcome() {
            let sgf = o.to_sgf();
            ensure!(self, is_re_form(&sgf), "RE form {sgf:?}");
        }
        // The final position, counted with a few dead-stone sets.
        for _ in 0..2 {
            let dead = self.random_dead();
            let score = self.game.score(&dead);
            self.check_score(&dead, &score)?;
        }
        // The diagram reads back.
        let text = self.game.board().to_string();
        match Board::from_ascii(&text) {
            Ok(b) => ensure!(self, b == *self.game.board(), "from_ascii(Display)"),
            Err(e) => return Err(self.fail(format!("from_ascii(Display): {e}"))),
        }
        if self.opts.symmetries {
            for sym in 1..self.geo.symmetries() {
                self.replay(sym)?;
            }
        }
        Ok(())
    }

    /// Replays the game under a symmetry: every verdict and the score agree.
    fn replay(&mut self, sym: usize) -> TestResult {
        self.stats.sym_replays += 1;
        let geo = self.geo;
        let m = |p: Point| geo.map(sym, p);
        let mut g = match &self.start {
            Start::Even => Game::new(self.rules, geo.size),
            Start::Handicap { n, points, .. } => {
                let mapped: Vec<Point> = points.iter().map(|&p| m(p)).collect();
                let made = if self.rules.handicap_placement == HandicapPlacement::Fixed && *n >= 2 {
                    Game::from_setup(
                        self.rules,
                        &Setup {
                            size: geo.size,
                            black: mapped,
                            white: Vec::new(),
                            to_move: Color::White,
                            handicap: *n,
                        },
                    )
                    .map_err(|e| e.to_string())
                } else {
                    Game::with_handicap(self.rules, geo.size, *n, HandicapStones::Free(mapped))
                        .map_err(|e| e.to_string())
                };
                match made {
                    Ok(g) => g,
                    Err(e) => return Err(self.fail(format!("symmetry {sym}: start {e}"))),
                }
            }
        };
        for &p in &geo.points {
            ensure_eq!(
                self,
                g.initial_board().get(m(p)),
                self.game.initial_board().get(p),
                "symmetry {sym}: initial board"
            );
        }
        for (step, (act, res)) in self.log.iter().enumerate() {
            let mv = |mv: Move| match mv {
                Move::Pass => Move::Pass,
                Move::Play(p) => Move::Play(m(p)),
            };
            let got = match act {
                Act::Move(c, x) => Res::Move(g.play_as(*c, mv(*x)).map_err(|e| e.reason)),
                Act::ProposeStop(c) => Res::End(g.propose_stop(*c)),
                Act::AcceptStop(c) => Res::End(g.accept_stop(*c)),
                Act::ProposeDead(c, v) => {
                    let v: Vec<Point> = v.iter().map(|&p| m(p)).collect();
                    Res::End(g.propose_dead(*c, &v))
                }
                Act::AcceptDead(c) => Res::End(g.accept_dead(*c)),
                Act::Dispute(c) => Res::End(g.dispute(*c)),
                Act::Resign(c) => Res::End(g.resign(*c)),
            };
            if &got != res {
                return Err(self.fail(format!(
                    "symmetry {sym}, step {step} {act:?}: got {got:?}, original {res:?}"
                )));
            }
        }
        ensure_eq!(self, g.phase(), self.game.phase(), "symmetry {sym}: phase");
        ensure_eq!(
            self,
            g.outcome(),
            self.game.outcome(),
            "symmetry {sym}: outcome"
        );
        ensure_eq!(
            self,
            g.final_score(),
            self.game.final_score(),
            "symmetry {sym}: final score"
        );
        ensure_eq!(self, g.captures(), self.game.captures(), "symmetry {sym}");
        ensure_eq!(self, g.to_move(), self.game.to_move(), "symmetry {sym}");
        for &p in &geo.points {
            ensure_eq!(
                self,
                g.board().get(m(p)),
                self.game.board().get(p),
                "symmetry {sym}: board"
            );
        }
        let dead = self.random_dead();
        let mapped: Vec<Point> = dead.iter().map(|&p| m(p)).collect();
        ensure_eq!(
            self,
            g.score(&mapped),
            self.game.score(&dead),
            "symmetry {sym}: score"
        );
        Ok(())
    }
}

fn wrong_phase(phase: Phase) -> EndError {
    EndError::WrongPhase(match phase {
        Phase::Playing => "in play",
        Phase::Marking => "in the dead-stone phase",
        Phase::Over => "over",
    })
}

// ---------------------------------------------------------------------------
// Running the properties.

fn game_strategy(
    sizes: std::ops::RangeInclusive<u32>,
) -> impl Strategy<Value = (u64, u32, u32, bool)> {
    (any::<u64>(), sizes.clone(), sizes, any::<bool>())
}

/// The budgets below are for release builds (the project tests with
/// `--release`); a debug build runs a quarter of the games.
const DEBUG_SCALE: u32 = if cfg!(debug_assertions) { 4 } else { 1 };

fn config(cases: u32) -> Config {
    Config {
        cases: cases.div_ceil(DEBUG_SCALE),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    }
}

/// Runs `cases` random games of `rules` (each of `opts.attempts` attempted
/// moves) and returns the statistics.
fn run_games(
    label: &str,
    rules: Rules,
    cases: u32,
    sizes: std::ops::RangeInclusive<u32>,
    opts: Opts,
) -> Stats {
    let start = Instant::now();
    let cfg = config(cases);
    let rng = TestRng::deterministic_rng(cfg.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(cfg, rng);
    let total = RefCell::new(Stats::default());
    let result = runner.run(&game_strategy(sizes), |(seed, w, h, square)| {
        let h = if square { w } else { h };
        let geo = Geo::new(BoardSize::new(w, h).unwrap());
        let mut d = Driver::new(rules, &geo, seed, opts);
        let r = d.run();
        total.borrow_mut().merge(&d.stats);
        r
    });
    if let Err(e) = result {
        panic!("{label}: {e}");
    }
    let stats = total.into_inner();
    let mut illegal: Vec<_> = stats.illegal.iter().collect();
    illegal.sort();
    let mut endings: Vec<_> = stats.endings.iter().collect();
    endings.sort();
    let mut repeats: Vec<_> = stats.repeats.iter().collect();
    repeats.sort();
    eprintln!(
        "{label}: {} attempted moves ({} stones, {} passes legal) in {} games, {:.2?}\n  \
         refused: {illegal:?}\n  endings: {endings:?}\n  markings {}, full checks {}, \
         undo checks {}, symmetric replays {}, quick-count checks {}, longest game {} turns\n  \
         repeats (simple/positional/situational/natural; X forbids, s forbids a \
         single-stone suicide, . allows): {repeats:?}",
        stats.attempts,
        stats.legal_plays,
        stats.legal_passes,
        stats.games,
        start.elapsed(),
        stats.markings,
        stats.full_checks,
        stats.undo_checks,
        stats.sym_replays,
        stats.quick_checks,
        stats.longest_game,
    );
    stats
}

/// At least this many attempted moves per preset.
const MOVES_PER_PRESET: u64 = 200_000;

const PRESET_OPTS: Opts = Opts {
    attempts: 2_000,
    max_game: 1_000,
    handicap: false,
    out_of_turn: false,
    symmetries: true,
};

fn preset(p: Preset) {
    let cases = (MOVES_PER_PRESET as usize).div_ceil(PRESET_OPTS.attempts) as u32;
    let stats = run_games(p.name(), p.rules(), cases, 4..=9, PRESET_OPTS);
    assert!(
        stats.attempts >= MOVES_PER_PRESET / u64::from(DEBUG_SCALE),
        "{}",
        stats.attempts
    );
}

#[test]
fn preset_nz() {
    preset(Preset::NewZealand);
}

#[test]
fn preset_chinese() {
    preset(Preset::Chinese);
}

#[test]
fn preset_ffg() {
    preset(Preset::Ffg);
}

#[test]
fn preset_strasbourg() {
    preset(Preset::Strasbourg);
}

#[test]
fn preset_first_capture() {
    preset(Preset::FirstCapture);
}

#[test]
fn preset_capture_five() {
    preset(Preset::CaptureFive);
}

#[test]
fn preset_tromp_taylor() {
    preset(Preset::TrompTaylor);
}

#[test]
fn preset_aga() {
    preset(Preset::Aga);
}

#[test]
fn preset_japanese() {
    preset(Preset::Japanese);
}

#[test]
fn every_preset_has_a_test() {
    // The tests above cover Preset::ALL; a new preset needs a new test.
    assert_eq!(Preset::ALL.len(), 9);
}

/// Each repetition rule with suicide allowed and multi-stone only.
#[test]
fn custom_suicide_and_ko_combinations() {
    let base = Preset::TrompTaylor.rules();
    for ko in [
        KoRule::Simple,
        KoRule::Positional,
        KoRule::Situational,
        KoRule::NaturalSituational,
    ] {
        for suicide in [Suicide::Allowed, Suicide::MultiStone] {
            let rules = Rules {
                ko,
                suicide,
                ..base
            };
            let label = format!("custom {ko:?} suicide {suicide:?}");
            run_games(&label, rules, 25, 4..=7, PRESET_OPTS);
        }
    }
}

/// Odd combinations: agreement with stone or capture counting, a capture
/// goal with suicide allowed, dame counted for both with simple ko.
#[test]
fn custom_end_and_scoring_combinations() {
    let base = Preset::TrompTaylor.rules();
    let combos = [
        Rules {
            ko: KoRule::Simple,
            suicide: Suicide::Allowed,
            end: EndOfPlay::Agreement,
            scoring: Scoring::Stones,
            komi: Points::ZERO,
            ..base
        },
        Rules {
            ko: KoRule::Situational,
            suicide: Suicide::MultiStone,
            end: EndOfPlay::Agreement,
            scoring: Scoring::Captures,
            capture_goal: Some(3),
            ..base
        },
        Rules {
            ko: KoRule::NaturalSituational,
            suicide: Suicide::Allowed,
            scoring: Scoring::Territory,
            komi: Points::halves(-1),
            ..base
        },
        Rules {
            ko: KoRule::Simple,
            suicide: Suicide::MultiStone,
            end: EndOfPlay::Agreement,
            scoring: Scoring::AreaDameBoth,
            ..base
        },
    ];
    for rules in combos {
        let label = format!("custom {:?}/{:?}/{:?}", rules.ko, rules.end, rules.scoring);
        run_games(&label, rules, 15, 4..=7, PRESET_OPTS);
    }
}

/// Handicap games under the rules that compensate them; the quick count
/// must still equal the area count.
#[test]
fn handicap_games() {
    for p in [
        Preset::Ffg,
        Preset::Aga,
        Preset::Chinese,
        Preset::NewZealand,
    ] {
        let sizes = if p == Preset::Aga { 7..=9 } else { 4..=9 };
        let opts = Opts {
            handicap: true,
            ..PRESET_OPTS
        };
        let stats = run_games(
            &format!("{} handicap", p.name()),
            p.rules(),
            20,
            sizes,
            opts,
        );
        assert!(stats.quick_checks > 0);
    }
}

/// Moves out of turn (`play_as` for the player not to move), with the
/// verdicts of both players checked: the repetition rules read "the
/// opponent's last turn" and "who was to move" literally (RULES.md §2).
fn out_of_turn(p: Preset) {
    let opts = Opts {
        out_of_turn: true,
        ..PRESET_OPTS
    };
    run_games(
        &format!("{} out of turn", p.name()),
        p.rules(),
        15,
        4..=7,
        opts,
    );
}

#[test]
fn out_of_turn_strasbourg() {
    out_of_turn(Preset::Strasbourg);
}

#[test]
fn out_of_turn_chinese() {
    out_of_turn(Preset::Chinese);
}

#[test]
fn out_of_turn_nz() {
    out_of_turn(Preset::NewZealand);
}

#[test]
fn out_of_turn_ffg() {
    out_of_turn(Preset::Ffg);
}

#[test]
fn out_of_turn_aga() {
    out_of_turn(Preset::Aga);
}

/// Boards of 1 to 3 points a side (1x1, 1xN, 2x2, ...), where every rule is
/// at its edge: single-stone suicides, whole-board captures, short cycles.
#[test]
fn tiny_boards() {
    let opts = Opts {
        attempts: 1_000,
        max_game: 300,
        ..PRESET_OPTS
    };
    for p in Preset::ALL {
        run_games(&format!("{} tiny", p.name()), p.rules(), 20, 1..=3, opts);
    }
    let custom = Rules {
        ko: KoRule::Situational,
        suicide: Suicide::MultiStone,
        ..Preset::TrompTaylor.rules()
    };
    run_games("custom tiny", custom, 20, 1..=3, opts);
}

// ---------------------------------------------------------------------------
// Focused properties.

/// The Chinese count is exact for any komi (quarters included): twice the
/// margin in stones is the area margin.
#[test]
fn chinese_count_is_exact_for_every_komi() {
    let mut runner = TestRunner::new_with_rng(
        config(256),
        TestRng::deterministic_rng(Config::default().rng_algorithm),
    );
    let result = runner.run(&(any::<u64>(), -40i32..=40), |(seed, komi_q)| {
        let size = BoardSize::square(5).unwrap();
        let mut rng = XorShift::new(seed);
        let mut game = Game::new(Preset::Chinese.rules(), size);
        game.set_komi(Points::quarters(komi_q));
        for _ in 0..60 {
            let p = size.points().nth(rng.below(25)).unwrap();
            let _ = game.play(Move::Play(p));
        }
        let s = game.score(&[]);
        prop_assert_eq!(s.regions.neutral, 0);
        prop_assert_eq!(
            s.chinese.margin_stones.double(),
            s.area_margin,
            "komi {}",
            Points::quarters(komi_q)
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// On an empty board (both pass at once, or every stone agreed dead) the
/// Chinese count must agree with the area count too.
#[test]
fn chinese_count_on_an_empty_board() {
    let size = BoardSize::square(9).unwrap();
    let mut game = Game::new(Preset::Chinese.rules(), size);
    game.play(Move::Pass).unwrap();
    game.play(Move::Pass).unwrap();
    let s = game.score(&[]);
    assert_eq!(s.regions.neutral, 81);
    assert_eq!(
        s.chinese.margin_stones.double(),
        s.area_margin,
        "Chinese margin {} stones, area margin {}",
        s.chinese.margin_stones,
        s.area_margin
    );
}

/// An accepted stop offer is used up: after a dispute, play stops again
/// only on a new proposal (or two passes).
#[test]
fn stop_offer_does_not_survive_its_acceptance() {
    let size = BoardSize::square(9).unwrap();
    let mut game = Game::new(Preset::NewZealand.rules(), size);
    let p = size.point(4, 4).unwrap();
    game.play(Move::Play(p)).unwrap();
    game.propose_stop(Color::Black).unwrap();
    game.accept_stop(Color::White).unwrap();
    assert_eq!(game.phase(), Phase::Marking);
    game.dispute(Color::White).unwrap();
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(
        game.accept_stop(Color::White),
        Err(EndError::NoProposal),
        "the old offer stopped play a second time"
    );
    assert_eq!(game.phase(), Phase::Playing);
}

/// Simple ko forbids "the arrangement that stood just before the
/// opponent's last turn" (RULES.md §2). Black takes the ko, White passes,
/// then White retakes out of turn (GTP `play white`): Black has had no turn
/// since taking, so the retake recreates the arrangement before Black's
/// last turn and is a ko violation.
#[test]
fn simple_ko_looks_at_the_opponents_last_turn() {
    let size = BoardSize::square(4).unwrap();
    let at = |x, y| size.point(x, y).unwrap();
    // . X O .
    // X O . O
    // . X O .
    // . . . .
    let setup = Setup {
        size,
        black: vec![at(1, 0), at(0, 1), at(1, 2)],
        white: vec![at(2, 0), at(1, 1), at(3, 1), at(2, 2)],
        to_move: Color::Black,
        handicap: 0,
    };
    let mut game = Game::from_setup(Preset::Strasbourg.rules(), &setup).unwrap();
    game.play(Move::Play(at(2, 1))).unwrap();
    assert_eq!(game.captures().black, 1);
    // In turn, White may not retake at once.
    assert_eq!(
        game.check(Color::White, Move::Play(at(1, 1))),
        Err(IllegalMove::Ko)
    );
    game.play(Move::Pass).unwrap();
    // Black to move; White's retake, out of turn, still comes right after
    // Black's capture.
    assert_eq!(
        game.check(Color::White, Move::Play(at(1, 1))),
        Err(IllegalMove::Ko),
        "White retakes the ko with no Black turn since Black took it"
    );
    assert!(game.play_as(Color::White, Move::Play(at(1, 1))).is_err());
}
