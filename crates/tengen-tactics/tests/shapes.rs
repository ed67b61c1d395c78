//! Positions written for this crate from the definitions, one or a few per
//! notion: eyes and false eyes, eye-space shapes, snapbacks, nets, capture
//! races, atari and self-atari, shortage of liberties, attack and defence.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{board, pt};
use tengen_core::{BoardSize, Color, Point};
use tengen_tactics::*;

// ---------------------------------------------------------------- eyes

#[test]
fn one_point_eyes_real_and_false() {
    // A single chain around the point: real whatever the diagonals.
    let b = board(
        ". . . . .
         . X X X .
         . X . X .
         . X X X .
         . . . . .",
    );
    assert_eq!(eye(&b, pt(&b, "C3"), Color::Black), Some(EyeKind::Real));
    assert_eq!(eye(&b, pt(&b, "C3"), Color::White), None);
    assert_eq!(eye(&b, pt(&b, "A1"), Color::Black), None);
    // Four chains around, the four diagonals White's: false.
    let b = board(
        ". . . . .
         . O X O .
         . X . X .
         . O X O .
         . . . . .",
    );
    assert_eq!(eye(&b, pt(&b, "C3"), Color::Black), Some(EyeKind::False));
    // One white diagonal is not enough in the middle...
    let b = board(
        ". . . . .
         . O X . .
         . X . X .
         . . X X .
         . . . . .",
    );
    assert_eq!(eye(&b, pt(&b, "C3"), Color::Black), Some(EyeKind::Real));
    // ...but it is in the corner and on the edge.
    let b = board(
        ". . . . .
         . . . . .
         . . . . .
         X . . X .
         . X X . .",
    );
    assert_eq!(eye(&b, pt(&b, "A1"), Color::Black), Some(EyeKind::Real));
    let b = board(
        ". . . . .
         . . . . .
         . . . . .
         X O . X .
         . X X . .",
    );
    assert_eq!(eye(&b, pt(&b, "A1"), Color::Black), Some(EyeKind::False));
    let b = board(
        ". . . . .
         . . . . .
         . . . . .
         O X O . .
         X . X . .",
    );
    assert_eq!(eye(&b, pt(&b, "B1"), Color::Black), Some(EyeKind::False));
}

fn shape(points: &[(u32, u32)]) -> EyeSpace {
    let size = BoardSize::square(9).unwrap();
    classify_space(
        size,
        points
            .iter()
            .map(|&(x, y)| size.point(x, y).unwrap())
            .collect(),
    )
}

#[test]
fn eye_space_shapes_and_which_can_be_killed() {
    let p = |x, y| BoardSize::square(9).unwrap().point(x, y).unwrap();
    type Case<'a> = (&'a [(u32, u32)], EyeShape, bool, Option<(u32, u32)>);
    let cases: &[Case] = &[
        (&[(0, 0)], EyeShape::One, true, None),
        (&[(0, 0), (1, 0)], EyeShape::Two, true, None),
        (
            &[(0, 0), (1, 0), (2, 0)],
            EyeShape::StraightThree,
            true,
            Some((1, 0)),
        ),
        (
            &[(0, 0), (1, 0), (1, 1)],
            EyeShape::BentThree,
            true,
            Some((1, 0)),
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (3, 0)],
            EyeShape::StraightFour,
            false,
            None,
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (2, 1)],
            EyeShape::BentFour,
            false,
            None,
        ),
        (
            &[(0, 0), (1, 0), (1, 1), (2, 1)],
            EyeShape::TwistedFour,
            false,
            None,
        ),
        (
            &[(0, 0), (1, 0), (0, 1), (1, 1)],
            EyeShape::SquareFour,
            true,
            None,
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (1, 1)],
            EyeShape::PyramidFour,
            true,
            Some((1, 0)),
        ),
        (
            &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
            EyeShape::BulkyFive,
            true,
            Some((0, 1)),
        ),
        (
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
            EyeShape::CrossedFive,
            true,
            Some((1, 1)),
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
            EyeShape::Other(5),
            false,
            None,
        ),
        (
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)],
            EyeShape::RabbitySix,
            true,
            Some((1, 1)),
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
            EyeShape::Other(6),
            false,
            None,
        ),
    ];
    for (points, want, killable, vital) in cases {
        let s = shape(points);
        assert_eq!(s.shape, *want, "{points:?}");
        assert_eq!(s.killable, *killable, "{points:?}");
        assert_eq!(s.vital, vital.map(|(x, y)| p(x, y)), "{points:?}");
    }
    // On a board: the space a group encloses.
    let b = board(
        ". . . . . .
         O O O O O .
         O . . . O .
         O O O O O .
         . . . . . .
         . . . . . .",
    );
    let s = eye_space(&b, pt(&b, "C4"), Color::White).unwrap();
    assert_eq!(
        (s.shape, s.vital),
        (EyeShape::StraightThree, Some(pt(&b, "C4")))
    );
    assert!(
        eye_space(&b, pt(&b, "A1"), Color::White).is_none(),
        "open area"
    );
}

// ---------------------------------------------------------------- snapback

/// White's four stones in the corner have two liberties, A1 and B1;
/// a black stone at either is a sacrifice that is taken back with five.
const SNAP: &str = ". . . . .
                    X X X X .
                    O O O X .
                    . . O X .";

#[test]
fn snapback_throw_ins() {
    let b = board(SNAP);
    for (throw, take) in [("B1", "A1"), ("A1", "B1")] {
        let s = snapback(&b, pt(&b, throw), Color::Black).unwrap();
        assert_eq!(s.capture_at, pt(&b, take));
        assert_eq!(s.recapture_at, pt(&b, throw));
        assert_eq!((s.given, s.taken), (1, 5));
        let sa = self_atari(&b, pt(&b, throw), Color::Black).unwrap();
        assert_eq!(sa.kind, SelfAtariKind::Snapback);
        assert!(!sa.bad);
    }
    // After the throw-in, White's capture is snapped back.
    let mut after = b.clone();
    after.play_unchecked(pt(&b, "B1"), Color::Black);
    assert_eq!(
        capture_is_snapped_back(&after, pt(&b, "A1"), Color::White),
        Some(5)
    );
    // White filling its own liberty is no snapback, and a ko is not one.
    assert!(snapback(&b, pt(&b, "A1"), Color::White).is_none());
    let ko = board(
        ". X O .
         X . X O
         . X O .
         . . . .",
    );
    assert!(
        snapback(&ko, pt(&ko, "B3"), Color::White).is_none(),
        "a ko capture"
    );
    // With an outside liberty (C3) for White there is no snapback; the
    // stone is still a useful throw-in, as White cannot then fill B1 and
    // is short of liberties.
    let open = board(
        ". . . . .
         X X . X .
         O O O X .
         . . O X .",
    );
    assert!(snapback(&open, pt(&open, "B1"), Color::Black).is_none());
    let sa = self_atari(&open, pt(&open, "B1"), Color::Black).unwrap();
    assert_eq!((sa.kind, sa.bad), (SelfAtariKind::ThrowIn, false));
}

// ---------------------------------------------------------------- nets

#[test]
fn a_net_catches_a_two_liberty_stone() {
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X . . . . .
         . . . X O . . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let e5 = pt(&b, "E5");
    assert_eq!(b.liberties(e5), 2);
    let n = net(&b, pt(&b, "F6"), Color::Black).unwrap();
    assert_eq!((n.chain, n.stones, n.liberties), (e5, 1, 2));
    // The atari from above is not a net (it is an atari), and a move far
    // away catches nothing.
    assert!(net(&b, pt(&b, "E6"), Color::Black).is_none());
    assert!(net(&b, pt(&b, "A9"), Color::Black).is_none());
    // Reading agrees: after the net White cannot be saved, before it could.
    let mut after = b.clone();
    after.play_unchecked(pt(&b, "F6"), Color::Black);
    assert_eq!(defend(&after, e5), Defence::Fails);
    assert!(matches!(defend(&b, e5), Defence::Saved { .. }));
    assert!(
        matches!(attack(&b, e5), Attack::Captures { .. }),
        "Black to move catches it"
    );
}

// ---------------------------------------------------------------- semeai

#[test]
fn capture_race_counts_on_a_board() {
    // Black's A3-C3-C4 has a two-point eye (A4, B4, enclosed by its own
    // stones and the edge: two eye liberties); White's A2-C2 has three
    // outside liberties (A1, B1, C1): White wins whoever starts.
    let b = board(
        ". . X O . . . .
         X X X O O O O O
         O O O X X X X X
         . . . X . . . .",
    );
    let s = semeai(&b, pt(&b, "A3"), pt(&b, "A2")).unwrap();
    assert_eq!(
        s.black,
        RaceLiberties {
            outside: 0,
            eye: 2,
            eyes: 1
        }
    );
    assert_eq!(
        s.white,
        RaceLiberties {
            outside: 3,
            eye: 0,
            eyes: 0
        }
    );
    assert_eq!(s.shared, 0);
    assert_eq!(s.black_first, RaceOutcome::Captures(Color::White));
    assert_eq!(s.white_first, RaceOutcome::Captures(Color::White));
    // Shared liberties and an eye.
    let b = board(
        ". X O . O
         X X O O O
         O O X X X
         . O X . X",
    );
    // Black's upper chain: B4 eye? no, A4 is its only own liberty (an eye
    // of one point bordered by Black); White's A2-B2-B1 has A1.
    let s = semeai(&b, pt(&b, "A3"), pt(&b, "A2")).unwrap();
    assert_eq!(s.black.eyes + s.black.outside, 1);
    assert_eq!(s.white.outside + s.white.eye, 1);
    assert_eq!(s.black_first, RaceOutcome::Captures(Color::Black));
    assert_eq!(s.white_first, RaceOutcome::Captures(Color::White));
    assert!(
        semeai(&b, pt(&b, "A3"), pt(&b, "B3")).is_none(),
        "same colour"
    );
}

#[test]
fn capture_race_on_counts() {
    let out = |o| RaceLiberties {
        outside: o,
        eye: 0,
        eyes: 0,
    };
    let eye = |e, o| RaceLiberties {
        outside: o,
        eye: e,
        eyes: 1,
    };
    let alive = RaceLiberties {
        outside: 0,
        eye: 2,
        eyes: 2,
    };
    use Color::{Black as B, White as W};
    use RaceOutcome::{Captures, Seki};
    // No eyes, nothing shared: the side to move wins with as many liberties.
    assert_eq!(race(out(3), out(3), 0, B), Captures(B));
    assert_eq!(race(out(3), out(3), 0, W), Captures(W));
    assert_eq!(race(out(2), out(3), 0, B), Captures(W));
    assert_eq!(race(out(4), out(3), 0, W), Captures(B));
    // Shared liberties and no outside ones: seki.
    assert_eq!(race(out(0), out(0), 2, B), Seki);
    assert_eq!(race(out(1), out(1), 2, W), Seki);
    // One shared, none outside: whoever moves captures.
    assert_eq!(race(out(0), out(0), 1, W), Captures(W));
    // Outside liberties decide when there are enough of them.
    assert_eq!(race(out(3), out(0), 2, W), Captures(B));
    // An eye against no eye wins the shared liberties.
    assert_eq!(race(eye(1, 0), out(1), 2, W), Captures(B));
    assert_eq!(race(eye(1, 0), out(0), 3, W), Captures(B));
    // Big eyes count more: five liberties for a four-point eye.
    assert_eq!(race(eye(5, 0), out(4), 0, W), Captures(B));
    // Eye against eye with shared liberties: seki when even.
    assert_eq!(race(eye(1, 0), eye(1, 0), 2, B), Seki);
    // Two eyes live.
    assert_eq!(race(alive, out(9), 0, W), Captures(B));
    assert_eq!(race(alive, alive, 3, W), Seki);
}

// ---------------------------------------------------------------- atari

#[test]
fn ataris_and_self_ataris() {
    let b = board(
        ". . . . .
         . . O . .
         . O X . .
         . . . . .
         . . . . .",
    );
    // White D3 ataris the black stone; Black D3 is no self-atari.
    assert_eq!(ataris(&b, pt(&b, "D3"), Color::White), vec![pt(&b, "C3")]);
    assert!(self_atari(&b, pt(&b, "D3"), Color::Black).is_none());
    assert!(ataris(&b, pt(&b, "A1"), Color::White).is_empty());
    // Black into White's tiger's mouth: a plain, bad self-atari.
    let b = board(
        ". . . . .
         . . . . .
         . O . O .
         . . O . .
         . . . . .",
    );
    let s = self_atari(&b, pt(&b, "C3"), Color::Black).unwrap();
    assert_eq!((s.kind, s.stones, s.bad), (SelfAtariKind::Plain, 1, true));
    // Suicide.
    let b = board(
        ". O .
         O . O
         . O .",
    );
    assert_eq!(
        self_atari(&b, pt(&b, "B2"), Color::Black).unwrap().kind,
        SelfAtariKind::Suicide
    );
    // A ko capture leaves the taker in atari, and is fine.
    let b = board(
        ". X O .
         X O . O
         . X O .
         . . . .",
    );
    let s = self_atari(&b, pt(&b, "C3"), Color::Black).unwrap();
    assert_eq!((s.kind, s.bad), (SelfAtariKind::Ko, false));
}

#[test]
fn sacrifices_inside_an_eye() {
    // White's group has only its eye's two liberties; Black inside ataris
    // it, White must take, and Black takes the whole group back: a
    // capture from inside, which is a snapback. White filling its own eye
    // is the bad self-atari.
    let b = board(
        "X X X X .
         O O O X .
         . . O X .
         O O O X .",
    );
    let s = self_atari(&b, pt(&b, "A2"), Color::Black).unwrap();
    assert_eq!((s.kind, s.bad), (SelfAtariKind::Snapback, false));
    assert!(is_bad_self_atari(&b, pt(&b, "A2"), Color::White));
    assert!(is_bad_self_atari(&b, pt(&b, "B2"), Color::White));
    // A straight-three eye space with a black stone on its vital point,
    // White's group with outside liberties: Black A4 puts two stones in
    // atari, and once White takes them only a two-point eye is left.
    let b = board(
        ". . . . . .
         O O O O . .
         . X . O . .
         O O O O . .
         . . . . . .",
    );
    let s = self_atari(&b, pt(&b, "A3"), Color::Black).unwrap();
    assert_eq!((s.kind, s.stones, s.bad), (SelfAtariKind::Nakade, 2, false));
    // The same space opened on the right: A3 only gives two stones away.
    let b = board(
        ". . . . . .
         O O O O . .
         . X . . . .
         O O O O . .
         . . . . . .",
    );
    let s = self_atari(&b, pt(&b, "A3"), Color::Black).unwrap();
    assert_eq!(
        (s.kind, s.stones, s.bad),
        (SelfAtariKind::ConnectAndDie, 2, true)
    );
    assert!(
        self_atari(&b, pt(&b, "C3"), Color::Black).is_none(),
        "two liberties left"
    );
}

#[test]
fn shortage_of_liberties() {
    // Black's B3-C3 has two liberties, B2 and C2; C2 is a pocket (White
    // C1 and D2), so Black C2 fills a liberty and gains none.
    let b = board(
        ". . . . .
         . O O . .
         O X X O .
         . . . O .
         . . O . .",
    );
    let d = dame_zumari(&b, pt(&b, "C2"), Color::Black).unwrap();
    assert_eq!((d.chain, d.before, d.after), (pt(&b, "C2"), 2, 1));
    assert!(!d.capturable, "it could be captured before already");
    // B2 gains liberties (A2, B1): no shortage.
    assert!(dame_zumari(&b, pt(&b, "B2"), Color::Black).is_none());
    assert!(
        dame_zumari(&b, pt(&b, "E5"), Color::Black).is_none(),
        "not next to its chain"
    );
}

// ---------------------------------------------------------------- reading

#[test]
fn attack_and_defence_basics() {
    let b = board(
        ". . . . . . .
         . . . . . . .
         . . . O . . .
         . . O X . . .
         . . . O . . .
         . . . . . . .
         . . . . . . .",
    );
    let d4 = pt(&b, "D4");
    // Two liberties, a ladder for White: captured by E4 first (driving
    // Black towards White's stones).
    assert!(matches!(attack(&b, d4), Attack::Captures { .. }));
    // Black to move gets out.
    assert!(matches!(defend(&b, d4), Defence::Saved { first: Some(_) }));
    // A lone stone in the open cannot be caught, and needs no defence.
    let open = board(
        ". . . . .
         . . . . .
         . . X . .
         . . . . .
         . . . . .",
    );
    assert_eq!(attack(&open, pt(&open, "C3")), Attack::Fails);
    assert_eq!(
        defend(&open, pt(&open, "C3")),
        Defence::Saved { first: None }
    );
    let _: Point = d4;
}
