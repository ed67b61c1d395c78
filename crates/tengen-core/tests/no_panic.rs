//! Fuzz-style tests: random input to every entry point. Nothing may panic
//! ("never panics on input", lib.rs), a refused operation leaves the game as
//! it was, and what is accepted is consistent.
//!
//! Inputs: board sizes 1x1 to 25x25 (1x1, 1xN and rectangles included),
//! points of this board and of every other board size (off-board padded
//! indexes), random rules, random sequences of every `Game` operation, and
//! random text for the parsers. Each case is driven by a seed, so a failure
//! shrinks to a seed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRng, TestRunner};
use std::sync::OnceLock;
use tengen_core::scoring;
use tengen_core::vertex::parse_points;
use tengen_core::{
    Board, BoardSize, Color, EndError, EndOfPlay, Game, HandicapCompensation, HandicapPlacement,
    HandicapStones, IllegalMove, KoRule, Move, PassStones, Phase, Point, Points, Preset, Rules,
    Scoring, Setup, Suicide, Tax, Vertex,
};

use common::{Snap, XorShift, is_re_form};

fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> TestResult) {
    let cfg = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(cfg.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(cfg, rng);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

/// Every point of every board size: for a given board, most are off it
/// (border cells of its padded array, or indexes beyond it).
fn all_points() -> &'static [Point] {
    static POINTS: OnceLock<Vec<Point>> = OnceLock::new();
    POINTS.get_or_init(|| {
        let mut v: Vec<Point> = (1..=25)
            .flat_map(|w| (1..=25).map(move |h| (w, h)))
            .flat_map(|(w, h)| BoardSize::new(w, h).unwrap().points())
            .collect();
        v.sort();
        v.dedup();
        v
    })
}

/// Sizes, with the thin and tiny ones often.
fn sizes() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        (1..=3u32, 1..=3u32),
        (1..=25u32, 1..=25u32),
        (Just(1u32), 1..=25u32),
        (1..=25u32, Just(1u32)),
        (4..=9u32, 4..=9u32),
    ]
}

fn random_point(rng: &mut XorShift, size: BoardSize) -> Point {
    if rng.chance(700) {
        let w = size.width() as usize;
        let h = size.height() as usize;
        size.point(rng.below(w) as u32, rng.below(h) as u32)
            .unwrap()
    } else {
        rng.pick(all_points())
    }
}

fn random_points(rng: &mut XorShift, size: BoardSize, max: usize) -> Vec<Point> {
    let n = rng.below(max + 1);
    (0..n).map(|_| random_point(rng, size)).collect()
}

fn random_move(rng: &mut XorShift, size: BoardSize) -> Move {
    if rng.chance(100) {
        Move::Pass
    } else {
        Move::Play(random_point(rng, size))
    }
}

fn random_komi(rng: &mut XorShift) -> Points {
    Points::quarters(rng.range(-4000, 4000) as i32)
}

fn random_rules(rng: &mut XorShift) -> Rules {
    if rng.chance(500) {
        return rng.pick(&Preset::ALL).rules();
    }
    Rules {
        ko: rng.pick(&[
            KoRule::Simple,
            KoRule::Positional,
            KoRule::Situational,
            KoRule::NaturalSituational,
        ]),
        suicide: rng.pick(&[Suicide::Forbidden, Suicide::MultiStone, Suicide::Allowed]),
        end: rng.pick(&[EndOfPlay::TwoPasses, EndOfPlay::Agreement]),
        scoring: rng.pick(&[
            Scoring::AreaDameBoth,
            Scoring::AreaDameShared,
            Scoring::AreaDameNobody,
            Scoring::Stones,
            Scoring::Territory,
            Scoring::Captures,
        ]),
        komi: random_komi(rng),
        handicap_placement: rng.pick(&[
            HandicapPlacement::Fixed,
            HandicapPlacement::Free,
            HandicapPlacement::FixedOrFree,
            HandicapPlacement::WhitePasses,
        ]),
        handicap_compensation: rng.pick(&[
            HandicapCompensation::None,
            HandicapCompensation::N,
            HandicapCompensation::NMinusOne,
            HandicapCompensation::HalfPlusNMinusOne,
        ]),
        capture_goal: if rng.chance(300) {
            Some(rng.below(7) as u32)
        } else {
            None
        },
        pass_stones: rng.pick(&[PassStones::NotCounted, PassStones::Counted]),
        tax: rng.pick(&[Tax::None, Tax::Seki]),
    }
}

/// Invariants that hold after any operation.
fn invariants(g: &Game) -> TestResult {
    let size = g.size();
    let stones = g.board().stones();
    prop_assert_eq!(
        (stones.black + stones.white) as usize + g.board().empty_points().len(),
        size.num_points()
    );
    prop_assert_eq!(g.phase() == Phase::Over, g.outcome().is_some());
    prop_assert_eq!(g.move_number(), g.turns().len());
    if let Some(o) = g.outcome() {
        let sgf = o.to_sgf();
        prop_assert!(is_re_form(&sgf), "RE {:?}", sgf);
        prop_assert!(!o.to_string().is_empty());
        prop_assert_eq!(g.check(g.to_move(), Move::Pass), Err(IllegalMove::GameOver));
    }
    if g.phase() == Phase::Marking {
        prop_assert_eq!(
            g.check(g.to_move(), Move::Pass),
            Err(IllegalMove::WrongPhase)
        );
    }
    if g.phase() == Phase::Playing {
        prop_assert_eq!(g.check(g.to_move(), Move::Pass), Ok(()));
    }
    Ok(())
}

/// The partition of the board by a count.
fn check_score(g: &Game, dead: &[Point]) -> TestResult {
    let s = g.score(dead);
    let r = s.regions;
    prop_assert_eq!(
        (s.stones.black
            + s.stones.white
            + r.territory.black
            + r.territory.white
            + r.dame
            + r.neutral) as usize,
        g.size().num_points()
    );
    prop_assert!(r.seki.black <= r.territory.black && r.seki.white <= r.territory.white);
    prop_assert_eq!(s.margin, s.totals.black - s.totals.white);
    prop_assert!(s.quick.is_some());
    Ok(())
}

/// Builds a game in a random way (falling back to an even game when the
/// construction is refused).
fn random_game(rng: &mut XorShift, rules: Rules, size: BoardSize) -> TestResult<Game> {
    let game = match rng.below(4) {
        0 => Ok(Game::new(rules, size)),
        1 => {
            let n = rng.below(12) as u32;
            Game::with_handicap(rules, size, n, HandicapStones::Fixed).map_err(|e| e.to_string())
        }
        2 => {
            let n = rng.below(12) as u32;
            let points = if rng.chance(500) {
                (0..n).map(|_| random_point(rng, size)).collect()
            } else {
                random_points(rng, size, 12)
            };
            Game::with_handicap(rules, size, n, HandicapStones::Free(points))
                .map_err(|e| e.to_string())
        }
        _ => {
            let setup = Setup {
                size,
                black: random_points(rng, size, 8),
                white: random_points(rng, size, 8),
                to_move: rng.color(),
                handicap: rng.below(10) as u32,
            };
            Game::from_setup(rules, &setup).map_err(|e| e.to_string())
        }
    };
    Ok(match game {
        Ok(g) => {
            invariants(&g)?;
            g
        }
        Err(msg) => {
            prop_assert!(!msg.is_empty());
            Game::new(rules, size)
        }
    })
}

type TestResult<T = ()> = Result<T, TestCaseError>;

/// One random operation, with what it must and must not do.
fn random_op(rng: &mut XorShift, g: &mut Game) -> TestResult {
    let size = g.size();
    let before = Snap::of(g);
    let c = rng.color();
    let end_result = |r: Result<(), EndError>, g: &Game| -> TestResult {
        if let Err(e) = r {
            prop_assert!(!e.to_string().is_empty());
            prop_assert_eq!(&Snap::of(g), &before, "{:?} changed the game", e);
        }
        Ok(())
    };
    match rng.below(22) {
        0..=6 => {
            let color = if rng.chance(800) { g.to_move() } else { c };
            let mv = random_move(rng, size);
            let checked = g.check(color, mv);
            let r = if color == g.to_move() && rng.chance(500) {
                g.play(mv)
            } else {
                g.play_as(color, mv)
            };
            prop_assert_eq!(checked, r.map_err(|e| e.reason));
            match r {
                Err(e) => {
                    prop_assert_eq!((e.color, e.mv), (color, mv));
                    prop_assert!(!e.to_string().is_empty());
                    prop_assert_eq!(&Snap::of(g), &before, "refused {:?}", e);
                }
                Ok(()) => {
                    prop_assert_eq!(g.turns().len(), before.turns.len() + 1);
                    let t = g.turns().last().unwrap();
                    prop_assert_eq!((t.color, t.mv), (color, mv));
                    prop_assert_eq!(g.to_move(), color.opponent());
                    if let Move::Play(p) = mv {
                        prop_assert!(size.contains(p));
                    }
                }
            }
        }
        7 => {
            let r = g.play(Move::Pass);
            prop_assert_eq!(r.is_ok(), before.phase == Phase::Playing);
        }
        8 => {
            let r = match rng.below(3) {
                0 => g.resign(c),
                1 => g.lose_on_time(c),
                _ => g.forfeit(c),
            };
            prop_assert_eq!(r.is_ok(), before.phase != Phase::Over);
            if r.is_ok() {
                prop_assert_eq!(g.outcome().and_then(|o| o.winner()), Some(c.opponent()));
            }
            end_result(r, g)?;
        }
        9 => {
            let r = g.propose_stop(c);
            end_result(r, g)?;
        }
        10 => {
            let r = g.accept_stop(c);
            end_result(r, g)?;
        }
        11 => {
            let dead = random_points(rng, size, 4);
            let r = g.propose_dead(c, &dead);
            if r.is_ok() {
                let (by, v) = g.dead_proposal().unwrap();
                prop_assert_eq!(by, c);
                prop_assert!(v.iter().all(|&p| g.board().get(p).is_some()));
            }
            end_result(r, g)?;
        }
        12 => {
            let r = g.accept_dead(c);
            if r.is_ok() {
                prop_assert_eq!(g.phase(), Phase::Over);
                prop_assert!(g.final_score().is_some());
            }
            end_result(r, g)?;
        }
        13 => {
            let r = g.dispute(c);
            if r.is_ok() {
                prop_assert_eq!(g.phase(), Phase::Playing);
            }
            end_result(r, g)?;
        }
        14 => {
            // Undo replays the game: not too often.
            if rng.chance(300) {
                let r = g.undo();
                match r {
                    Ok(()) => {
                        prop_assert_eq!(g.turns().len() + 1, before.turns.len());
                        let now: Vec<(Color, Move)> =
                            g.turns().iter().map(|t| (t.color, t.mv)).collect();
                        prop_assert_eq!(&now[..], &before.turns[..now.len()]);
                        prop_assert_eq!(g.komi(), before.komi);
                    }
                    Err(e) => {
                        prop_assert_eq!(e, EndError::NothingToUndo);
                        prop_assert!(before.turns.is_empty());
                    }
                }
                end_result(r, g)?;
            }
        }
        15 => {
            let dead = random_points(rng, size, 6);
            check_score(g, &dead)?;
            prop_assert_eq!(&Snap::of(g), &before);
        }
        16 => {
            let mv = random_move(rng, size);
            prop_assert_eq!(g.is_legal(mv), g.check(g.to_move(), mv).is_ok());
            let _ = g.check(c, mv);
            prop_assert_eq!(&Snap::of(g), &before);
        }
        17 => {
            if size.num_points() <= 100 || rng.chance(100) {
                let legal: Vec<Point> = g.legal_points().collect();
                for p in legal {
                    prop_assert!(size.contains(p) && g.board().is_empty(p));
                }
            }
        }
        18 => {
            let k = random_komi(rng);
            g.set_komi(k);
            prop_assert_eq!(g.komi(), k);
        }
        19 => {
            // Read-only views.
            let _ = g.board().to_string();
            let _ = format!("{:?}", g.board());
            let _ = g.rules().name();
            let _ = g.rules().fields();
            let _ = g.rules().preset();
            let _ = (g.handicap(), g.first_to_move(), g.initial_board().stones());
            if let Some(s) = g.final_score() {
                prop_assert_eq!(s.margin, s.totals.black - s.totals.white);
            }
            for t in g.turns() {
                if let Move::Play(p) = t.mv {
                    prop_assert!(size.contains(p));
                    let _ = Vertex::point_name(p, size);
                }
                let _ = t.mv.name(size);
            }
        }
        _ => {
            // The bare board under the game: a checked play on a copy.
            let mut b = g.board().clone();
            let p = random_point(rng, size);
            let suicide = rng.pick(&[Suicide::Forbidden, Suicide::MultiStone, Suicide::Allowed]);
            let copy = b.clone();
            match b.play(p, c, suicide) {
                Ok(played) => {
                    prop_assert!(size.contains(p));
                    let s = b.stones();
                    prop_assert_eq!(
                        (s.black + s.white + b.empty_points().len() as u32) as usize,
                        size.num_points()
                    );
                    let _ = played;
                }
                Err(e) => {
                    prop_assert!(b == copy && b.hash() == copy.hash(), "{}", e);
                }
            }
        }
    }
    invariants(g)
}

/// Random games of random rules on random boards, every operation mixed.
#[test]
fn game_operations_never_panic() {
    run(
        400,
        (any::<u64>(), sizes()),
        |(seed, (w, h))| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let rules = random_rules(&mut rng);
            let mut g = random_game(&mut rng, rules, size)?;
            for _ in 0..300 {
                random_op(&mut rng, &mut g)?;
                if g.phase() == Phase::Over && rng.chance(100) {
                    g = random_game(&mut rng, rules, size)?;
                }
            }
            Ok(())
        },
    );
}

/// Long games that mostly play: the end of play, marking, and counting on
/// every board shape.
#[test]
fn long_games_on_every_shape() {
    run(
        150,
        (any::<u64>(), sizes()),
        |(seed, (w, h))| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let rules = random_rules(&mut rng);
            let mut g = Game::new(rules, size);
            for _ in 0..600 {
                match g.phase() {
                    Phase::Playing => {
                        let mv = if rng.chance(30) {
                            Move::Pass
                        } else {
                            random_move(&mut rng, size)
                        };
                        let _ = g.play(mv);
                    }
                    Phase::Marking => {
                        if rng.chance(300) {
                            let dead = random_points(&mut rng, size, 3);
                            let c = rng.color();
                            let _ = g.propose_dead(c, &dead);
                            let _ = g.accept_dead(c.opponent());
                        } else {
                            let _ = g.dispute(rng.color());
                        }
                    }
                    Phase::Over => g = Game::new(rules, size),
                }
                invariants(&g)?;
            }
            check_score(&g, &[])
        },
    );
}

/// Handicap games of every count and placement: accepted or refused, never
/// a panic; an accepted one has its stones and its compensation.
#[test]
fn handicap_of_any_count() {
    run(
        400,
        (any::<u64>(), sizes(), 0..40u32),
        |(seed, (w, h), n)| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let rules = random_rules(&mut rng);
            let stones = if rng.chance(500) {
                HandicapStones::Fixed
            } else {
                let k = if rng.chance(500) {
                    n as usize
                } else {
                    rng.below(12)
                };
                HandicapStones::Free((0..k).map(|_| random_point(&mut rng, size)).collect())
            };
            match Game::with_handicap(rules, size, n, stones) {
                Ok(g) => {
                    invariants(&g)?;
                    prop_assert_eq!(g.handicap(), n);
                    if n >= 2 {
                        prop_assert_eq!(g.board().stones().black, n);
                        prop_assert_eq!(g.komi(), rules.handicap_compensation.points(n));
                    }
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
            Ok(())
        },
    );
}

/// A setup (SGF AB/AW/HA) with any handicap count: refused, or accepted
/// with the exact compensation (n, n-1 or n-0.5 points; komi when n is 0).
#[test]
fn setup_with_any_handicap_count() {
    run(
        300,
        (any::<u64>(), sizes(), any::<u32>()),
        |(seed, (w, h), handicap)| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let rules = random_rules(&mut rng);
            let setup = Setup {
                size,
                black: random_points(&mut rng, size, 6),
                white: random_points(&mut rng, size, 6),
                to_move: rng.color(),
                handicap,
            };
            let result = std::panic::catch_unwind(|| Game::from_setup(rules, &setup));
            let Ok(result) = result else {
                return Err(TestCaseError::fail(format!(
                    "Game::from_setup panicked: handicap {handicap}, compensation {:?}",
                    rules.handicap_compensation
                )));
            };
            if let Ok(g) = result {
                invariants(&g)?;
                let n = i64::from(handicap);
                let quarters = match (handicap, rules.handicap_compensation) {
                    (0, _) => i64::from(rules.komi.in_quarters()),
                    (_, HandicapCompensation::None) => 0,
                    (1, HandicapCompensation::N) => 0,
                    (_, HandicapCompensation::N) => 4 * n,
                    (_, HandicapCompensation::NMinusOne) => 4 * (n - 1),
                    (_, HandicapCompensation::HalfPlusNMinusOne) => 2 + 4 * (n - 1),
                };
                prop_assert_eq!(
                    i64::from(g.komi().in_quarters()),
                    quarters,
                    "handicap {} {:?}: komi {}",
                    handicap,
                    rules.handicap_compensation,
                    g.komi()
                );
            }
            Ok(())
        },
    );
}

/// The bare board with points of every board.
#[test]
fn board_operations_never_panic() {
    run(
        300,
        (any::<u64>(), sizes()),
        |(seed, (w, h))| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let mut b = Board::new(size);
            for _ in 0..400 {
                let p = random_point(&mut rng, size);
                let c = rng.color();
                let _ = (b.get(p), b.is_empty(p), b.liberties(p), b.chain_len(p));
                let _ = (b.chain_id(p), b.chain(p).count(), b.neighbours(p).count());
                prop_assert_eq!(size.neighbours(p).all(|q| size.contains(q)), true);
                if size.contains(p) {
                    let _ = b.is_one_point_eye(p, c);
                    let _ = b.is_legal_simple(p, c);
                    if b.is_empty(p) {
                        let _ = (b.is_suicide(p, c), b.preview(p, c));
                    }
                    prop_assert_eq!(size.point(size.xy(p).0, size.xy(p).1), Some(p));
                } else {
                    prop_assert!(b.get(p).is_none() && !b.is_empty(p));
                    prop_assert!(!b.is_legal_simple(p, c));
                }
                match rng.below(10) {
                    0 => b.pass(),
                    1 => {
                        let pts = random_points(&mut rng, size, 3);
                        let _ = b.remove_chains(&pts);
                    }
                    2 => {
                        let _ = tengen_core::RegionMap::new(&b, &[]);
                        let _ = scoring::area(&b);
                    }
                    _ => {
                        let before = b.clone();
                        let suicide =
                            rng.pick(&[Suicide::Forbidden, Suicide::MultiStone, Suicide::Allowed]);
                        if let Err(e) = b.play(p, c, suicide) {
                            prop_assert!(b == before, "{}", e);
                        } else {
                            prop_assert!(size.contains(p));
                        }
                    }
                }
                let s = b.stones();
                prop_assert_eq!(
                    (s.black + s.white) as usize + b.empty_points().len(),
                    size.num_points()
                );
            }
            Ok(())
        },
    );
}

/// Vertex names of points of other boards: text, not a panic.
#[test]
fn vertex_names_of_foreign_points_do_not_panic() {
    let sizes = [(1, 1), (3, 3), (1, 25), (25, 1), (9, 9), (19, 19)];
    for (w, h) in sizes {
        let size = BoardSize::new(w, h).unwrap();
        for &p in all_points() {
            let name = std::panic::catch_unwind(|| {
                (
                    Vertex::point_name(p, size),
                    Vertex::Point(p).display(size).to_string(),
                )
            });
            assert!(
                name.is_ok(),
                "Vertex::point_name(point of padded index {}, {size}) panicked",
                p.index()
            );
        }
    }
}

/// Sizes: accepted exactly when both sides are 1 to 25.
#[test]
fn board_size_new_of_anything() {
    for w in 0..30u32 {
        for h in 0..30u32 {
            let ok = (1..=25).contains(&w) && (1..=25).contains(&h);
            match BoardSize::new(w, h) {
                Ok(s) => {
                    assert!(ok, "{w}x{h}");
                    assert_eq!((s.width(), s.height()), (w, h));
                    assert_eq!(s.points().count(), (w * h) as usize);
                    assert_eq!(s.is_square(), w == h);
                    assert_eq!(s.to_string(), format!("{w}x{h}"));
                }
                Err(e) => {
                    assert!(!ok, "{w}x{h}");
                    assert!(!e.to_string().is_empty());
                }
            }
        }
        assert_eq!(
            BoardSize::square(w).is_ok(),
            (1..=25).contains(&w),
            "square {w}"
        );
    }
    for big in [u32::MAX, 256, 281] {
        assert!(BoardSize::new(big, 5).is_err());
        assert!(BoardSize::new(5, big).is_err());
    }
}

/// Random text from an alphabet that makes near misses likely.
fn text_from(rng: &mut XorShift, pieces: &[&str], max: usize) -> String {
    let n = rng.below(max + 1);
    (0..n).map(|_| rng.pick(pieces)).collect()
}

/// Runs `check` on 3000 random strings, each followed by a short (up to
/// three pieces) and a long (up to `long` pieces) text from `pieces`.
fn parse_of_anything(pieces: &'static [&str], long: usize, check: impl Fn(&str) -> TestResult) {
    run(
        3000,
        (any::<u64>(), any::<String>()),
        |(seed, raw)| -> TestResult {
            let mut rng = XorShift::new(seed);
            let texts = [
                raw,
                text_from(&mut rng, pieces, 3),
                text_from(&mut rng, pieces, long),
            ];
            for text in &texts {
                check(text)?;
            }
            Ok(())
        },
    );
}

const VERTEX_PIECES: &[&str] = &[
    "A", "a", "I", "i", "J", "T", "t", "Z", "z", "0", "1", "2", "5", "9", "19", "25", "26", "000",
    " ", "\t", "\n", ",", "-", "+", "pass", "PASS", "é", "Ａ", "١", "٣", "ß", "ǅ", "\u{0}", "🀄",
];

/// Vertices, parsed against every kind of board.
#[test]
fn vertex_parse_of_anything() {
    run(
        2000,
        (any::<u64>(), sizes(), any::<String>()),
        |(seed, (w, h), raw)| -> TestResult {
            let mut rng = XorShift::new(seed);
            let size = BoardSize::new(w, h).unwrap();
            let texts = [
                raw.clone(),
                text_from(&mut rng, VERTEX_PIECES, 4),
                text_from(&mut rng, VERTEX_PIECES, 12),
            ];
            for text in &texts {
                match Vertex::parse(text, size) {
                    Ok(Vertex::Point(p)) => {
                        prop_assert!(size.contains(p), "{:?}", text);
                        let name = Vertex::point_name(p, size);
                        prop_assert_eq!(Vertex::parse(&name, size), Ok(Vertex::Point(p)));
                    }
                    Ok(Vertex::Pass) => {
                        prop_assert!(text.trim().eq_ignore_ascii_case("pass"));
                    }
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
                if let Ok(points) = parse_points(text, size) {
                    prop_assert!(points.iter().all(|&p| size.contains(p)));
                }
            }
            Ok(())
        },
    );
}

const NUMBER_PIECES: &[&str] = &[
    "0", "1", "2", "3", "5", "7", "9", "25", "75", "50", "000", "1000", "999999", ".", "-", "+",
    " ", "e", "E", "_", "½", "٣", "−", "\u{a0}", "inf", "NaN", "0x", ",",
];

/// Komi and score text: exact or refused.
#[test]
fn points_parse_of_anything() {
    parse_of_anything(NUMBER_PIECES, 8, |text| {
        match text.parse::<Points>() {
            Ok(p) => {
                prop_assert!(p.abs() <= Points::whole(1000), "{:?} -> {}", text, p);
                prop_assert_eq!(p.to_string().parse::<Points>(), Ok(p));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        Ok(())
    });
}

const RULES_PIECES: &[&str] = &[
    "ko",
    "KO",
    "SIMPLE",
    "POSITIONAL",
    "SITUATIONAL",
    "SPIGHT",
    "score",
    "scoring",
    "AREA",
    "TERRITORY",
    "tax",
    "NONE",
    "SEKI",
    "ALL",
    "sui",
    "0",
    "1",
    "2",
    "button",
    "whb",
    "N",
    "N-1",
    "fpok",
    "komi",
    "7.5",
    "-3.25",
    "1e9",
    "99999999999",
    "+",
    ".",
    "nz",
    "New Zealand",
    "chinese",
    "Japanese",
    "tt",
    "aga",
    "ffg",
    " ",
    "-",
    "_",
    "é",
    "İ",
    "ẞ",
];

/// Rules names and KataGo strings.
#[test]
fn rules_parse_of_anything() {
    parse_of_anything(RULES_PIECES, 10, |text| {
        match text.parse::<Rules>() {
            Ok(r) => {
                prop_assert!(!r.name().is_empty());
                prop_assert!(!r.fields().is_empty());
                prop_assert!(r.komi.abs() <= Points::whole(1000));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        let _ = Preset::from_name(text);
        Ok(())
    });
}

const ASCII_PIECES: &[&str] = &[
    "X", "O", "x", "o", ".", "+", ",", "#", " ", " ", "\n", "\n", "\r\n", "1", "19", "A B C", "a",
    "|", "é", "\t", "XO", "OX", ".X.", "O.O",
];

/// Diagrams: a board that reads back, or an error.
#[test]
fn board_from_ascii_of_anything() {
    run(
        2000,
        (any::<u64>(), any::<String>(), 1..=26usize, 1..=26usize),
        |(seed, raw, w, h)| -> TestResult {
            let mut rng = XorShift::new(seed);
            // A rectangle of random points, sometimes with a ragged row.
            let mut grid = String::new();
            for y in 0..h {
                let len = if rng.chance(30) { rng.below(w + 2) } else { w };
                for _ in 0..len {
                    grid.push_str(rng.pick(&["X", "O", ".", ".", "+"]));
                    if rng.chance(300) {
                        grid.push(' ');
                    }
                }
                if rng.chance(100) {
                    grid.push_str(&format!(" {}", y + 1));
                }
                grid.push('\n');
            }
            let texts = [raw.clone(), text_from(&mut rng, ASCII_PIECES, 40), grid];
            for text in &texts {
                match Board::from_ascii(text) {
                    Ok(b) => {
                        let size = b.size();
                        prop_assert!(size.width() <= 25 && size.height() <= 25);
                        for p in size.points() {
                            if b.get(p).is_some() {
                                prop_assert!(b.liberties(p) > 0, "{:?}", text);
                            }
                        }
                        let again = Board::from_ascii(&b.to_string());
                        prop_assert_eq!(again.as_ref().ok(), Some(&b));
                        prop_assert_eq!(b.ko_point(), None);
                    }
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
            }
            Ok(())
        },
    );
}
