//! Pachi's unit tables (`shared/data/pachi_tests/t-unit/*.t`, GPL-2.0,
//! read from the shared data, not copied): ladders, self-ataris, snapbacks
//! and nakade sekis, each assertion checked against this crate's reading.
//!
//! Pachi's conventions, from its `t-unit/test.c`:
//! - `ladder C P 1`: the chain of colour C at P is in atari and the defender
//!   moves first; 1 when running does not save it (`ladder_any` is the same
//!   question, Pachi answering it with a more general reader).
//! - `wouldbe_ladder C P 1`: C ataris the two-liberty chain next to P by
//!   playing P, and the ladder works; `wouldbe_ladder` (without `_any`) only
//!   counts ladders that are not trivial (the defender's first run must not
//!   leave it in atari).
//! - `bad_selfatari C P 1` (alias `sar`): C at P is a self-atari that gives
//!   stones away for nothing (not a nakade, throw-in or snapback).
//! - `snapback C P 1`: C at P is a sacrifice that sets up a snapback.
//! - `breaking_nakade_seki C P 1`: C at P would break a seki in which an
//!   opposing chain of three to six stones sits inside C's eye space.
//! - A line starting with `!` is one Pachi itself may fail; its expectation
//!   is still the right answer, and it is counted here like any other.
//!
//! Each suite asserts at least the pass count reached when it was written,
//! so that a regression fails the test; the figures are printed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{TCase, Tally, color, data_root, pt, read_t_file};
use tengen_core::Board;
use tengen_tactics::{LadderResult, breaks_nakade_seki, is_bad_self_atari, read_ladder, snapback};

fn describe(c: &TCase) -> String {
    format!(
        "line {} [{}] {}{} {}\n{}",
        c.line,
        c.title,
        if c.optional { "!" } else { "" },
        c.cmd,
        c.args.join(" "),
        c.board
    )
}

fn expected(c: &TCase) -> bool {
    c.args.last().map(|s| s.as_str()) == Some("1")
}

fn ladder_case(c: &TCase) -> bool {
    let p = pt(&c.board, &c.args[1]);
    assert_eq!(c.board.get(p), Some(color(&c.args[0])), "{}", describe(c));
    // Strict: "unknown" is a failure whatever was expected.
    match read_ladder(&c.board, p) {
        LadderResult::Captured { .. } => expected(c),
        LadderResult::Escapes { .. } => !expected(c),
        _ => false,
    }
}

fn wouldbe_case(c: &TCase, any: bool) -> bool {
    let attacker = color(&c.args[0]);
    let p = pt(&c.board, &c.args[1]);
    let target = c
        .board
        .neighbours(p)
        .find(|&q| c.board.get(q) == Some(attacker.opponent()) && c.board.liberties(q) == 2)
        .expect("a two-liberty chain next to the point");
    let mut after = c.board.clone();
    after.play_unchecked(p, attacker);
    let works = match read_ladder(&after, target) {
        LadderResult::Captured { .. } => {
            // Pachi's non-`_any` form ignores trivial ladders: the
            // defender's first run already leaves it in atari.
            any || !trivial(&after, target)
        }
        _ => false,
    };
    works == expected(c)
}

fn trivial(board: &Board, target: tengen_core::Point) -> bool {
    let lib = board.neighbours(target).find(|&q| board.is_empty(q));
    let lib = lib.or_else(|| {
        board
            .chain(target)
            .flat_map(|s| board.neighbours(s).collect::<Vec<_>>())
            .find(|&q| board.is_empty(q))
    });
    let Some(l) = lib else { return true };
    let mut b = board.clone();
    b.play_unchecked(l, board.get(target).unwrap());
    b.liberties(target) <= 1
}

fn run(file: &str, mut check: impl FnMut(&TCase) -> Option<bool>) -> Option<Tally> {
    let root = data_root()?;
    let mut tally = Tally::default();
    for c in read_t_file(&root, file) {
        if let Some(ok) = check(&c) {
            tally.check(ok, || describe(&c));
        }
    }
    tally.report(file);
    Some(tally)
}

#[test]
fn pachi_ladder_tables() {
    let Some(a) = run("ladder.t", |c| (c.cmd == "ladder").then(|| ladder_case(c))) else {
        return;
    };
    let b = run("ladder_any.t", |c| {
        (c.cmd == "ladder_any").then(|| ladder_case(c))
    })
    .unwrap();
    let w = run("wouldbe_ladder.t", |c| {
        (c.cmd == "wouldbe_ladder").then(|| wouldbe_case(c, false))
    })
    .unwrap();
    let wa = run("wouldbe_ladder_any.t", |c| {
        (c.cmd == "wouldbe_ladder_any").then(|| wouldbe_case(c, true))
    })
    .unwrap();
    let passed = a.passed + b.passed + w.passed + wa.passed;
    let total = a.total + b.total + w.total + wa.total;
    eprintln!("pachi ladder tables: {passed} of {total}");
    assert_eq!(total, 61);
    assert!(
        passed >= LADDER_PASSED,
        "{passed} of {total}, was {LADDER_PASSED}"
    );
}

const LADDER_PASSED: usize = 61;

#[test]
fn pachi_selfatari_table() {
    let Some(t) = run("selfatari.t", |c| match c.cmd.as_str() {
        "bad_selfatari" | "sar" => {
            let p = pt(&c.board, &c.args[1]);
            Some(is_bad_self_atari(&c.board, p, color(&c.args[0])) == expected(c))
        }
        _ => None,
    }) else {
        return;
    };
    assert_eq!(t.total, 308);
    assert!(
        t.passed >= SELFATARI_PASSED,
        "{} of {}, was {SELFATARI_PASSED}",
        t.passed,
        t.total
    );
}

const SELFATARI_PASSED: usize = 267;

#[test]
fn pachi_snapback_table() {
    let Some(t) = run("selfatari.t", |c| match c.cmd.as_str() {
        "snapback" => {
            let p = pt(&c.board, &c.args[1]);
            Some(snapback(&c.board, p, color(&c.args[0])).is_some() == expected(c))
        }
        _ => None,
    }) else {
        return;
    };
    assert_eq!(t.total, 16);
    assert!(
        t.passed >= SNAPBACK_PASSED,
        "{} of {}, was {SNAPBACK_PASSED}",
        t.passed,
        t.total
    );
}

const SNAPBACK_PASSED: usize = 16;

#[test]
fn pachi_seki_table() {
    let Some(t) = run("seki.t", |c| match c.cmd.as_str() {
        "breaking_nakade_seki" => {
            let p = pt(&c.board, &c.args[1]);
            Some(breaks_nakade_seki(&c.board, p, color(&c.args[0])) == expected(c))
        }
        _ => None,
    }) else {
        return;
    };
    assert_eq!(t.total, 115);
    assert!(
        t.passed >= SEKI_PASSED,
        "{} of {}, was {SEKI_PASSED}",
        t.passed,
        t.total
    );
}

const SEKI_PASSED: usize = 113;
