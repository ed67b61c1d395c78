//! Ladder positions written for this crate from the definition of a ladder
//! (no external data): each is a known outcome, and every one must be read
//! correctly.
//!
//! The base position is the textbook ladder on 19x19, White C4, B3, C2, D2
//! around a black stone at C3 in atari. Running is hopeless: Black's chain
//! goes up the diagonal (D3, D4, E4, E5, F5, ...) with White ataring from
//! alternate sides (E3, D5, F4, E6, G5, ...), until the top right edge
//! catches it. From it, by construction:
//! - the same ladder under the eight symmetries of the board (works);
//! - a black stone on the ladder's path, or on a point where White must
//!   atari, breaks it (the chain connects, or White cannot atari from the
//!   right side), and that stone is the ladder breaker;
//! - a black stone that leaves one of White's ataring stones in atari when
//!   the ladder passes (F3 or E2, next to White's E3) breaks it by a
//!   counter-capture;
//! - black stones far from the path, and white stones on it, change
//!   nothing (works);
//! - the chain before White's first atari (two liberties, the attacker to
//!   move) is also caught, while a two-liberty stone in the open is not;
//! - ladders that run into the edge at once, along the edge, and from the
//!   corner.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::{LadderResult, ladder_line, ladder_runs, read_ladder};

const N: i32 = 19;

/// A point given as (column, row), both from 1, row 1 at the bottom (as
/// GTP names them), after symmetry `sym` (0..8) of the 19x19 board.
fn at(size: BoardSize, sym: u8, (x, y): (i32, i32)) -> Point {
    let (mut a, mut b) = (x - 1, y - 1);
    if sym & 1 != 0 {
        a = N - 1 - a;
    }
    if sym & 2 != 0 {
        b = N - 1 - b;
    }
    if sym & 4 != 0 {
        std::mem::swap(&mut a, &mut b);
    }
    size.point(a as u32, (N - 1 - b) as u32).unwrap()
}

fn position(sym: u8, black: &[(i32, i32)], white: &[(i32, i32)]) -> Board {
    let size = BoardSize::square(N as u32).unwrap();
    let mut b = Board::new(size);
    for &p in black {
        b.play_unchecked(at(size, sym, p), Color::Black);
    }
    for &p in white {
        b.play_unchecked(at(size, sym, p), Color::White);
    }
    b
}

const WALL: [(i32, i32); 4] = [(3, 4), (2, 3), (3, 2), (4, 2)];
const CHASED: (i32, i32) = (3, 3);

/// Black's running path of the base ladder: (k, k-1)... i.e. D3, D4, E4, E5, ...
fn path() -> Vec<(i32, i32)> {
    let mut out = vec![(4, 3)];
    for k in 4..18 {
        out.push((k, k));
        out.push((k + 1, k));
    }
    out
}

#[derive(Debug)]
enum Expect {
    Works,
    Escapes(Option<Point>),
}

struct Case {
    name: String,
    board: Board,
    chain: Point,
    expect: Expect,
}

fn cases() -> Vec<Case> {
    let size = BoardSize::square(N as u32).unwrap();
    let mut out = Vec::new();
    // 1. The base ladder under the eight symmetries.
    for sym in 0..8 {
        out.push(Case {
            name: format!("base ladder, symmetry {sym}"),
            board: position(sym, &[CHASED], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Works,
        });
    }
    // 2. A black stone on the path breaks it, and is the breaker.
    for (i, &(x, y)) in [(8, 8), (10, 9), (12, 12), (15, 14), (17, 17)]
        .iter()
        .enumerate()
    {
        assert!(path().contains(&(x, y)));
        let sym = (i * 3 % 8) as u8;
        out.push(Case {
            name: format!("breaker on the path at {x},{y}, symmetry {sym}"),
            board: position(sym, &[CHASED, (x, y)], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Escapes(Some(at(size, sym, (x, y)))),
        });
    }
    // A black stone where White must atari from (the upper side of the
    // path: (k, k+1)) also breaks it: the other atari lets Black out.
    for (i, &(x, y)) in [(9, 10), (13, 14)].iter().enumerate() {
        let sym = (i * 5 % 8) as u8;
        out.push(Case {
            name: format!("breaker on White's atari point {x},{y}, symmetry {sym}"),
            board: position(sym, &[CHASED, (x, y)], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Escapes(Some(at(size, sym, (x, y)))),
        });
    }
    // 3. Counter-captures: White's first atari stone E3 is caught.
    for (i, &(x, y)) in [(6, 3), (5, 2)].iter().enumerate() {
        let sym = (i * 6 % 8) as u8;
        out.push(Case {
            name: format!("counter-capture of E3 helped by {x},{y}, symmetry {sym}"),
            board: position(sym, &[CHASED, (x, y)], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Escapes(Some(at(size, sym, (x, y)))),
        });
    }
    // 4. Black stones far from the path do not help.
    for (i, &(x, y)) in [(3, 16), (16, 3), (4, 10), (12, 5), (16, 9)]
        .iter()
        .enumerate()
    {
        let sym = (i * 7 % 8) as u8;
        out.push(Case {
            name: format!("black stone off the path at {x},{y}, symmetry {sym}"),
            board: position(sym, &[CHASED, (x, y)], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Works,
        });
    }
    // White stones on the path only make it shorter.
    for (i, &(x, y)) in [(9, 9), (14, 13)].iter().enumerate() {
        let sym = (i * 2 + 1) as u8;
        let mut white = WALL.to_vec();
        white.push((x, y));
        out.push(Case {
            name: format!("white stone on the path at {x},{y}, symmetry {sym}"),
            board: position(sym, &[CHASED], &white),
            chain: at(size, sym, CHASED),
            expect: Expect::Works,
        });
    }
    // 5. Two liberties, attacker to move: Black has already run to D3.
    for sym in [0u8, 5] {
        out.push(Case {
            name: format!("two liberties before the atari, symmetry {sym}"),
            board: position(sym, &[CHASED, (4, 3)], &WALL),
            chain: at(size, sym, CHASED),
            expect: Expect::Works,
        });
        // A two-liberty stone in the open: no atari catches it.
        out.push(Case {
            name: format!("two liberties in the open, symmetry {sym}"),
            board: position(sym, &[(10, 10)], &[(10, 11), (9, 10)]),
            chain: at(size, sym, (10, 10)),
            expect: Expect::Escapes(None),
        });
    }
    // 6. Near the edge. The base shape next to the top right corner runs
    // into the edge at once.
    for sym in [0u8, 6] {
        let shift = |(x, y): (i32, i32)| (x + 13, y + 13);
        let white: Vec<_> = WALL.iter().map(|&p| shift(p)).collect();
        out.push(Case {
            name: format!("ladder into the corner at once, symmetry {sym}"),
            board: position(sym, &[shift(CHASED)], &white),
            chain: at(size, sym, shift(CHASED)),
            expect: Expect::Works,
        });
    }
    // A stone on the second line, hemmed from above and the left, with
    // White below on the first line: running along the edge fails.
    out.push(Case {
        name: "second line, pushed along the edge".into(),
        board: position(0, &[(5, 2)], &[(4, 2), (5, 3), (5, 1), (6, 1)]),
        chain: at(size, 0, (5, 2)),
        expect: Expect::Works,
    });
    // A lone stone on the first line in atari from above and the side: it
    // runs along the edge, White ataris from above each time, and the
    // corner catches it.
    for sym in [0u8, 3] {
        out.push(Case {
            name: format!("first line, runs to the corner, symmetry {sym}"),
            board: position(sym, &[(10, 1)], &[(9, 1), (10, 2)]),
            chain: at(size, sym, (10, 1)),
            expect: Expect::Works,
        });
    }
    // The same with a black stone on the second line ahead: the runner
    // joins it.
    out.push(Case {
        name: "first line, joins a second-line stone".into(),
        board: position(0, &[(10, 1), (15, 2)], &[(9, 1), (10, 2)]),
        chain: at(size, 0, (10, 1)),
        expect: Expect::Escapes(Some(at(size, 0, (15, 2)))),
    });
    out
}

#[test]
fn constructed_ladders_are_all_read_right() {
    let cases = cases();
    let mut by_kind = std::collections::BTreeMap::new();
    for c in &cases {
        let r = read_ladder(&c.board, c.chain);
        let ok = match (&c.expect, r) {
            (Expect::Works, LadderResult::Captured { .. }) => true,
            (Expect::Escapes(want), LadderResult::Escapes { breaker }) => {
                want.is_none() || *want == breaker
            }
            _ => false,
        };
        let kind: String = c
            .name
            .split([',', ' '])
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        *by_kind.entry(kind).or_insert(0) += 1;
        assert!(
            ok,
            "{}: expected {:?}, read {:?}\n{}",
            c.name, c.expect, r, c.board
        );
    }
    assert!(cases.len() >= 30, "{} cases", cases.len());
    eprintln!(
        "{} constructed ladders, all read right: {by_kind:?}",
        cases.len()
    );
}

#[test]
fn running_only_loses_where_the_ladder_works() {
    // Of every constructed ladder whose chain is in atari: where the
    // ladder works, running at the chain's liberty is a run into it (or
    // no run at all: a stone there with one liberty left); where it
    // escapes, no point is.
    let (mut works, mut escapes) = (0, 0);
    for c in cases() {
        if c.board.liberties(c.chain) != 1 {
            continue;
        }
        let runs = ladder_runs(&c.board, Color::Black);
        let liberty = c
            .board
            .chain(c.chain)
            .flat_map(|s| c.board.neighbours(s))
            .find(|&q| c.board.is_empty(q));
        match c.expect {
            Expect::Works => {
                works += usize::from(!runs.is_empty());
                assert!(
                    runs.iter().all(|&p| Some(p) == liberty),
                    "{}: {runs:?}",
                    c.name
                );
            }
            Expect::Escapes(_) => {
                escapes += 1;
                assert!(runs.is_empty(), "{}: {runs:?}\n{}", c.name, c.board);
            }
        }
    }
    assert!(
        works >= 8 && escapes >= 5,
        "{works} runs, {escapes} escapes"
    );
    // The base ladder's run is D3.
    let board = position(0, &[CHASED], &WALL);
    assert_eq!(
        ladder_runs(&board, Color::Black),
        vec![at(board.size(), 0, (4, 3))]
    );
    assert!(ladder_runs(&board, Color::White).is_empty());
}

#[test]
fn the_base_ladder_runs_up_the_diagonal_to_the_edge() {
    let board = position(0, &[CHASED], &WALL);
    let size = board.size();
    let chain = at(size, 0, CHASED);
    let line = ladder_line(&board, chain);
    // Black's moves follow the path, White's alternate sides, and White
    // has the last word: the capture.
    let black: Vec<Point> = line
        .iter()
        .filter(|m| m.0 == Color::Black)
        .map(|m| m.1)
        .collect();
    let expected: Vec<Point> = path().into_iter().map(|p| at(size, 0, p)).collect();
    // Up to S17, then a last run or two along the edge.
    assert!(black.len() >= expected.len(), "{} runs", black.len());
    assert_eq!(black[..expected.len()], expected[..]);
    let last = line.last().unwrap();
    assert_eq!(last.0, Color::White);
    let mut b = board.clone();
    for &(c, p) in &line {
        b.play_unchecked(p, c);
    }
    assert!(b.get(chain).is_none(), "captured at the end");
    let (x, y) = size.xy(last.1);
    assert!(
        x == 18 || y == 0,
        "captured at the top or right edge, at {x},{y}"
    );
}

#[test]
fn ladder_results_are_deterministic_and_bounded() {
    let board = position(0, &[CHASED], &WALL);
    let chain = at(board.size(), 0, CHASED);
    let first = read_ladder(&board, chain);
    for _ in 0..3 {
        assert_eq!(read_ladder(&board, chain), first);
    }
    // A tiny node budget gives up cleanly instead of guessing.
    let mut reader = tengen_tactics::Reader::new(tengen_tactics::Limits {
        max_nodes: 10,
        ..tengen_tactics::Limits::LADDER
    });
    assert_eq!(reader.ladder(&board, chain), LadderResult::Unknown);
    assert!(reader.nodes() <= 10);
    // Three liberties or an empty point: nothing to read.
    let open = position(0, &[(10, 10)], &[]);
    assert_eq!(
        read_ladder(&open, at(open.size(), 0, (10, 10))),
        LadderResult::NotALadder
    );
    assert_eq!(
        read_ladder(&open, at(open.size(), 0, (5, 5))),
        LadderResult::NotALadder
    );
}
