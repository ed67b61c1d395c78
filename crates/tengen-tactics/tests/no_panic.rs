//! Every function on many pseudo-random positions (a fixed linear
//! congruential sequence, so the test is deterministic): no panic, and every
//! search stays within its node bound.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::*;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_board(rng: &mut Lcg) -> Board {
    let sizes = [
        (5, 5),
        (7, 7),
        (9, 9),
        (13, 13),
        (19, 19),
        (6, 11),
        (1, 1),
        (2, 3),
    ];
    let (w, h) = sizes[rng.below(sizes.len() as u64) as usize];
    let size = BoardSize::new(w, h).unwrap();
    let mut b = Board::new(size);
    let fill = rng.below(70);
    let mut color = Color::Black;
    for _ in 0..(size.num_points() as u64 * fill / 100) {
        let empties = b.empty_points().to_vec();
        if empties.is_empty() {
            break;
        }
        let p = empties[rng.below(empties.len() as u64) as usize];
        if b.is_legal_simple(p, color) {
            b.play_unchecked(p, color);
        }
        color = color.opponent();
    }
    b
}

#[test]
fn all_functions_on_random_positions() {
    let mut rng = Lcg(0x5eed);
    let mut reader = Reader::new(Limits {
        max_nodes: 500,
        ..Limits::TACTICAL
    });
    let mut ladder_reader = Reader::new(Limits {
        max_nodes: 2_000,
        ..Limits::LADDER
    });
    for _ in 0..150 {
        let b = random_board(&mut rng);
        let points: Vec<Point> = b.size().points().collect();
        for _ in 0..12 {
            let p = points[rng.below(points.len() as u64) as usize];
            let c = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            let q = points[rng.below(points.len() as u64) as usize];
            let _ = ladder_reader.ladder(&b, p);
            assert!(ladder_reader.nodes() <= 2_000);
            let _ = ladder_reader.ladder_line(&b, p);
            let _ = reader.attack(&b, p);
            assert!(reader.nodes() <= 500);
            let _ = reader.defend(&b, p);
            assert!(reader.nodes() <= 500);
            let _ = reader.net(&b, p, c);
            let _ = snapback(&b, p, c);
            let _ = capture_is_snapped_back(&b, p, c);
            let _ = ataris(&b, p, c);
            let _ = self_atari(&b, p, c);
            let _ = dame_zumari(&b, p, c);
            let _ = eye(&b, p, c);
            let _ = eye_space(&b, p, c);
            let _ = breaks_nakade_seki(&b, p, c);
            let _ = semeai(&b, p, q);
        }
    }
}

#[test]
fn the_race_solver_is_bounded_on_large_counts() {
    let big = RaceLiberties {
        outside: 1_000,
        eye: 17,
        eyes: 1,
    };
    let start = std::time::Instant::now();
    let r = race(big, big, 1_000, Color::Black);
    assert_eq!(r, race(big, big, 1_000, Color::Black));
    assert!(start.elapsed().as_secs() < 5);
}
