//! Capture races (semeai): liberty counting between two opposing chains.
//!
//! Each chain's liberties are sorted into three kinds, as players count
//! them: *outside* liberties (only that chain's, the opponent may fill them
//! at any time), *eye* liberties (the empty points of a small eye space
//! bordered by that colour: one per point up to three, then five for four
//! points, eight for five, twelve for six, seventeen for seven, the usual
//! big-eye counts; the opponent fills them last), and *shared* liberties
//! (both chains'). A chain with two eye spaces or more is alive and cannot
//! be captured.
//!
//! The race itself is then solved exactly on these counts, by a small
//! minimax over the numbers (each move fills one liberty; filling the
//! last liberty captures; a move that would leave the mover without
//! liberty and capture nothing is forbidden; two passes end the race with
//! neither captured, which is seki). This gives the textbook results: with
//! no eye, the side to move wins with at least as many outside liberties as
//! the other, and two shared liberties with few outside ones make seki; an
//! eye against no eye wins the shared liberties. It is exact for the counts,
//! and as good as the counts are: approach moves, ko, and liberties gained
//! by capturing other stones are not modelled.

use crate::eyes::eye_space;
use crate::util::{PointSet, liberty_list};
use std::collections::HashMap;
use tengen_core::{Board, Color, Point};

/// One side's liberties in a race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RaceLiberties {
    /// Liberties only this chain has, outside any eye.
    pub outside: u32,
    /// Liberties inside its eye (the big-eye count of its eye space).
    pub eye: u32,
    /// Number of eye spaces (two or more: the chain lives).
    pub eyes: u32,
}

/// How a race ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceOutcome {
    /// The chain of this colour captures the other.
    Captures(Color),
    /// Neither chain is captured: seki (or both live).
    Seki,
}

/// A counted capture race between a black and a white chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Semeai {
    /// The black chain's liberties.
    pub black: RaceLiberties,
    /// The white chain's liberties.
    pub white: RaceLiberties,
    /// Liberties of both chains.
    pub shared: u32,
    /// The result with Black to move.
    pub black_first: RaceOutcome,
    /// The result with White to move.
    pub white_first: RaceOutcome,
}

/// Counts the race between the chains at `a` and `b` (of opposite colours)
/// and solves it for each side moving first. `None` when either point is
/// empty, both are the same colour, or a count is larger than
/// [`MAX_COUNT`].
pub fn semeai(board: &Board, a: Point, b: Point) -> Option<Semeai> {
    let ca = board.get(a)?;
    let cb = board.get(b)?;
    if ca == cb {
        return None;
    }
    let (black, white) = if ca == Color::Black { (a, b) } else { (b, a) };
    let black_libs: Vec<Point> = liberty_list(board, black);
    let white_libs: Vec<Point> = liberty_list(board, white);
    let mut white_set = PointSet::new();
    for &l in &white_libs {
        white_set.insert(l);
    }
    let shared = black_libs
        .iter()
        .filter(|&&l| white_set.contains(l))
        .count() as u32;
    let mut shared_set = PointSet::new();
    for &l in black_libs.iter().filter(|&&l| white_set.contains(l)) {
        shared_set.insert(l);
    }
    let bl = classify(board, &black_libs, &shared_set, Color::Black);
    let wl = classify(board, &white_libs, &shared_set, Color::White);
    let limit = MAX_COUNT;
    if [bl.outside, bl.eye, wl.outside, wl.eye, shared]
        .iter()
        .any(|&n| n > limit)
    {
        return None;
    }
    Some(Semeai {
        black: bl,
        white: wl,
        shared,
        black_first: race(bl, wl, shared, Color::Black),
        white_first: race(bl, wl, shared, Color::White),
    })
}

/// The big-eye liberty count of an eye space of `n` empty points.
pub fn eye_liberties(n: usize) -> u32 {
    match n {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 5,
        5 => 8,
        6 => 12,
        _ => 17,
    }
}

fn classify(board: &Board, libs: &[Point], shared: &PointSet, color: Color) -> RaceLiberties {
    let mut out = RaceLiberties::default();
    let mut in_eye = PointSet::new();
    for &l in libs {
        if shared.contains(l) || in_eye.contains(l) {
            continue;
        }
        match eye_space(board, l, color) {
            Some(space)
                if space
                    .points
                    .iter()
                    .all(|&p| board.is_empty(p) && !shared.contains(p)) =>
            {
                for &p in &space.points {
                    in_eye.insert(p);
                }
                out.eyes += 1;
                out.eye += eye_liberties(space.points.len());
            }
            _ => out.outside += 1,
        }
    }
    out
}

/// The largest count of one kind the race solver takes; larger counts are
/// clamped to it (no race with more liberties than that is close), which
/// bounds the solver to well under a million positions (each side's
/// outside liberties are filled before its eye, so a side has at most
/// outside + eye + 1 states).
pub const MAX_COUNT: u32 = 24;

/// Solves a race on the counts (see the module docs): the outcome with
/// `first` to move, Black's liberties `black`, White's `white`, `shared`
/// shared liberties. Counts above [`MAX_COUNT`] are clamped to it.
///
/// ```
/// use tengen_core::Color;
/// use tengen_tactics::{RaceLiberties, RaceOutcome, race};
///
/// let three = RaceLiberties { outside: 3, eye: 0, eyes: 0 };
/// let two = RaceLiberties { outside: 2, eye: 0, eyes: 0 };
/// // Three against three, nothing shared: whoever moves first wins.
/// assert_eq!(race(three, three, 0, Color::White), RaceOutcome::Captures(Color::White));
/// // Two shared liberties and few outside ones: seki.
/// assert_eq!(race(RaceLiberties::default(), RaceLiberties::default(), 2, Color::Black), RaceOutcome::Seki);
/// // An eye against no eye takes the shared liberties.
/// let eye = RaceLiberties { outside: 0, eye: 1, eyes: 1 };
/// assert_eq!(race(eye, two, 2, Color::White), RaceOutcome::Captures(Color::Black));
/// ```
pub fn race(black: RaceLiberties, white: RaceLiberties, shared: u32, first: Color) -> RaceOutcome {
    let alive_b = black.eyes >= 2;
    let alive_w = white.eyes >= 2;
    match (alive_b, alive_w) {
        (true, true) => return RaceOutcome::Seki,
        (true, false) => return RaceOutcome::Captures(Color::Black),
        (false, true) => return RaceOutcome::Captures(Color::White),
        (false, false) => {}
    }
    let state = State {
        o: [
            black.outside.min(MAX_COUNT) as u8,
            white.outside.min(MAX_COUNT) as u8,
        ],
        e: [
            black.eye.min(MAX_COUNT) as u8,
            white.eye.min(MAX_COUNT) as u8,
        ],
        s: shared.min(MAX_COUNT) as u8,
        to_move: first.index() as u8,
        passed: false,
    };
    let mut memo = HashMap::new();
    match solve(state, &mut memo) {
        v if v > 0 => RaceOutcome::Captures(Color::Black),
        v if v < 0 => RaceOutcome::Captures(Color::White),
        _ => RaceOutcome::Seki,
    }
}

/// A position of the abstract race: outside and eye liberties per side
/// (0 = Black, 1 = White), shared liberties, the side to move, and whether
/// the last move was a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    o: [u8; 2],
    e: [u8; 2],
    s: u8,
    to_move: u8,
    passed: bool,
}

impl State {
    fn libs(&self, side: usize) -> u32 {
        u32::from(self.o[side]) + u32::from(self.e[side]) + u32::from(self.s)
    }
}

/// Value for Black: 1 Black captures, -1 White captures, 0 seki. The
/// recursion depth is bounded by the total of the counts (each move fills
/// a liberty, and two passes in a row end it).
fn solve(st: State, memo: &mut HashMap<State, i8>) -> i8 {
    if let Some(&v) = memo.get(&st) {
        return v;
    }
    let me = usize::from(st.to_move);
    let them = 1 - me;
    let sign: i8 = if me == 0 { 1 } else { -1 };
    let mut children: Vec<Result<State, i8>> = Vec::with_capacity(4);
    let next = |mut s: State| {
        s.to_move = them as u8;
        s.passed = false;
        s
    };
    // Fill one of the opponent's outside liberties.
    if st.o[them] > 0 {
        let mut s = st;
        s.o[them] -= 1;
        children.push(if s.libs(them) == 0 {
            Err(sign)
        } else {
            Ok(next(s))
        });
    }
    // Fill a shared liberty.
    if st.s > 0 {
        let mut s = st;
        s.s -= 1;
        if s.libs(them) == 0 {
            children.push(Err(sign));
        } else if s.libs(me) > 0 {
            children.push(Ok(next(s)));
        }
    }
    // Fill the opponent's eye, last.
    if st.e[them] > 0 && st.o[them] == 0 && st.s == 0 {
        let mut s = st;
        s.e[them] -= 1;
        if s.libs(them) == 0 {
            children.push(Err(sign));
        } else if st.e[them] > 1 {
            children.push(Ok(next(s)));
        }
    }
    let mut best: i8 = -2 * sign;
    let better = |v: i8, best: i8| if sign > 0 { v > best } else { v < best };
    for c in children {
        let v = match c {
            Err(v) => v,
            Ok(s) => solve(s, memo),
        };
        if better(v, best) {
            best = v;
        }
        if best == sign {
            break;
        }
    }
    if best != sign {
        // Pass: a second pass in a row ends the race in seki.
        let v = if st.passed {
            0
        } else {
            let mut s = st;
            s.to_move = them as u8;
            s.passed = true;
            solve(s, memo)
        };
        if better(v, best) {
            best = v;
        }
    }
    memo.insert(st, best);
    best
}
