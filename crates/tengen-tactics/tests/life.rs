//! Life and death of enclosed groups: the standard eye shapes and Benson's
//! unconditional life (the real problems of Cho Chikun's elementary
//! encyclopedia are read in `sanderland.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::pt;
use tengen_core::{Board, Color};
use tengen_tactics::{LifeAndDeath, kill, live, pass_alive, vital_moves};

fn board(text: &str) -> Board {
    Board::from_ascii(text).unwrap()
}

/// (position, a white stone, the point where Black kills and White lives,
/// or `None` when the group lives whoever plays first).
const SHAPES: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "straight three in the corner: the middle point decides",
        ". . . O X . .
         O O O O X . .
         X X X X X . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .",
        "D7",
        Some("B7"),
    ),
    (
        "bent three in the corner: the point of the bend decides",
        ". . . . . . .
         . . . . . . .
         . . . . . . .
         X X X X . . .
         O O O X . . .
         . O O X . . .
         . . O X . . .",
        "B3",
        Some("A1"),
    ),
    (
        "straight four on the edge: alive whoever plays first",
        ". . . . O X .
         O O O O O X .
         X X X X X X .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .",
        "E7",
        None,
    ),
];

#[test]
fn standard_eye_shapes() {
    for &(name, text, stone, vital) in SHAPES {
        let b = board(text);
        let s = pt(&b, stone);
        match vital {
            Some(v) => {
                let v = pt(&b, v);
                assert_eq!(
                    kill(&b, s),
                    LifeAndDeath::Succeeds { first: Some(v) },
                    "{name}: Black kills"
                );
                assert_eq!(
                    live(&b, s),
                    LifeAndDeath::Succeeds { first: Some(v) },
                    "{name}: White lives"
                );
                let moves = vital_moves(&b, Color::Black);
                assert_eq!(
                    moves.first().map(|m| (m.point, m.kills)),
                    Some((v, true)),
                    "{name}"
                );
            }
            None => {
                assert_eq!(kill(&b, s), LifeAndDeath::Fails, "{name}: no kill");
                assert!(
                    matches!(live(&b, s), LifeAndDeath::Succeeds { .. }),
                    "{name}: lives"
                );
                assert!(vital_moves(&b, Color::Black).is_empty(), "{name}");
            }
        }
    }
}

#[test]
fn two_separate_eyes_are_unconditional_life_one_is_not() {
    let b = board(
        ". O . O X
         O O O O X
         X X X X X
         . . . . .
         . . . . .",
    );
    assert!(pass_alive(&b, pt(&b, "B5")));
    assert!(!pass_alive(&b, pt(&b, "E5")), "Black's wall has no eye");
    let one = board(
        ". O O O X
         O O O O X
         X X X X X
         . . . . .
         . . . . .",
    );
    assert!(!pass_alive(&one, pt(&one, "B5")));
    // One eye: dead whoever plays first, so no move decides it.
    let a5 = pt(&one, "A5");
    assert_eq!(
        kill(&one, pt(&one, "B5")),
        LifeAndDeath::Succeeds { first: Some(a5) }
    );
    assert_eq!(live(&one, pt(&one, "B5")), LifeAndDeath::Fails);
    assert!(vital_moves(&one, Color::Black).is_empty());
}
