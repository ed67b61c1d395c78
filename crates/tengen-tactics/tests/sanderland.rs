//! The snapback and net problems of Lee Changho's tesuji books in
//! `shared/data/tsumego_sanderland` (MIT repository, read from the shared
//! data): `2. Snapback And Shortage Of Liberties` and `4. Net And Squeeze
//! Tactics`, 123 problems each, "Black to play", with the accepted first
//! moves in `SOL`.
//!
//! Two measures per set, printed, each asserted at the rate reached when
//! the test was written:
//! - *detection*: is an accepted first move recognised by the matching
//!   detector ([`snapback`] for the first set, [`net`] for the second)?
//!   Many problems of the first set are shortages of liberties rather than
//!   snapbacks, and many of the second are squeezes, so this is not
//!   expected to reach every problem;
//! - *solving*: a small tactical solver built from this crate (for each
//!   opposing chain of three liberties or fewer, [`Reader::attack`]; the
//!   move capturing the most stones wins) plays an accepted first move.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::data_root;
use std::path::Path;
use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::{Attack, Limits, Reader, net, snapback, vital_moves};

struct Problem {
    name: String,
    board: Board,
    to_play: Color,
    solutions: Vec<Point>,
}

/// The strings of the JSON array after `"key":` (flat arrays of strings, or
/// for `SOL` the second string of each inner array).
fn strings_after(text: &str, key: &str) -> Vec<String> {
    let Some(start) = text.find(&format!("\"{key}\"")) else {
        return Vec::new();
    };
    let rest = &text[start + key.len() + 2..];
    let Some(open) = rest.find('[') else {
        return Vec::new();
    };
    let mut depth = 0;
    let mut end = open;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    let body = &rest[open + 1..end];
    if key == "SOL" {
        body.split('[')
            .skip(1)
            .filter_map(|inner| inner.split('"').nth(3).map(str::to_string))
            .collect()
    } else {
        body.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }
}

fn sgf_point(size: BoardSize, s: &str) -> Option<Point> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    size.point(
        u32::from(b[0].wrapping_sub(b'a')),
        u32::from(b[1].wrapping_sub(b'a')),
    )
}

fn load(dir: &Path) -> Vec<Problem> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        let sz: u32 = text
            .split("\"SZ\"")
            .nth(1)
            .and_then(|r| r.split('"').nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(19);
        let size = BoardSize::square(sz).unwrap();
        let mut board = Board::new(size);
        for (key, color) in [("AB", Color::Black), ("AW", Color::White)] {
            for s in strings_after(&text, key) {
                if let Some(q) = sgf_point(size, &s) {
                    board.play_unchecked(q, color);
                }
            }
        }
        let to_play = if text.contains("White to play") {
            Color::White
        } else {
            Color::Black
        };
        let solutions = strings_after(&text, "SOL")
            .iter()
            .filter_map(|s| sgf_point(size, s))
            .collect();
        out.push(Problem {
            name: p.file_name().unwrap().to_string_lossy().into_owned(),
            board,
            to_play,
            solutions,
        });
    }
    out
}

/// The move capturing the most stones by reading, if any.
fn solve(reader: &mut Reader, board: &Board, color: Color) -> Option<Point> {
    let mut best: Option<(u32, Point)> = None;
    for p in board.chains() {
        if board.get(p) != Some(color.opponent()) {
            continue;
        }
        if board.liberties(p) > 3 {
            continue;
        }
        if let Attack::Captures { first } = reader.attack(board, p) {
            let n = board.chain_len(p);
            if best.is_none_or(|(b, _)| n > b) {
                best = Some((n, first));
            }
        }
    }
    best.map(|(_, m)| m)
}

fn run_set(
    folder: &str,
    detect: impl Fn(&Board, Point, Color) -> bool,
) -> Option<(usize, usize, usize)> {
    let root = data_root()?;
    let dir = root
        .join("tsumego_sanderland/problems/2b. Lee Changho Tesuji")
        .join(folder);
    let problems = load(&dir);
    let mut reader = Reader::new(Limits::TACTICAL);
    let (mut detected, mut solved) = (0, 0);
    let mut missed = Vec::new();
    for p in &problems {
        assert!(!p.solutions.is_empty(), "{}", p.name);
        if p.solutions.iter().any(|&m| detect(&p.board, m, p.to_play)) {
            detected += 1;
        }
        match solve(&mut reader, &p.board, p.to_play) {
            Some(m) if p.solutions.contains(&m) => solved += 1,
            other => missed.push(format!(
                "{} ({:?})",
                p.name,
                other.map(|m| p.board.size().xy(m))
            )),
        }
    }
    eprintln!(
        "{folder}: {} problems; an accepted first move detected in {detected}; solved by reading in {solved}",
        problems.len()
    );
    eprintln!("  not solved: {}", missed.join(", "));
    Some((problems.len(), detected, solved))
}

#[test]
fn lee_changho_snapback_problems() {
    let Some((n, detected, solved)) =
        run_set("2. Snapback And Shortage Of Liberties", |b, m, c| {
            snapback(b, m, c).is_some()
        })
    else {
        return;
    };
    assert_eq!(n, 123);
    assert!(detected >= SNAPBACK_DETECTED, "{detected}");
    assert!(solved >= SNAPBACK_SOLVED, "{solved}");
}

const SNAPBACK_DETECTED: usize = 1;
const SNAPBACK_SOLVED: usize = 57;

#[test]
fn lee_changho_net_problems() {
    let Some((n, detected, solved)) = run_set("4. Net And Squeeze Tactics", |b, m, c| {
        net(b, m, c).is_some()
    }) else {
        return;
    };
    assert_eq!(n, 123);
    assert!(detected >= NET_DETECTED, "{detected}");
    assert!(solved >= NET_SOLVED, "{solved}");
}

const NET_DETECTED: usize = 77;
const NET_SOLVED: usize = 77;

/// Cho Chikun's Encyclopedia of Life and Death, elementary (900 problems,
/// "Black to play"): the first of [`vital_moves`] (the largest group whose
/// life the move decides) is an accepted first move. Problems whose group
/// is not enclosed in a small space, or that need a ko, are not read.
/// When the test was written: 309 answered, 262 of them right (85%); the
/// wrong answers are mostly of the kinds the module leaves out (walls
/// short of liberties, kos, bent four).
#[test]
fn cho_chikun_elementary_life_and_death() {
    let Some(root) = data_root() else {
        return;
    };
    let dir = root.join(
        "tsumego_sanderland/problems/1a. Tsumego Beginner/Cho Chikun Encyclopedia Life And Death - Elementary",
    );
    let problems = load(&dir);
    assert_eq!(problems.len(), 900);
    let (mut answered, mut solved) = (0, 0);
    let mut wrong = Vec::new();
    for p in &problems {
        let Some(first) = vital_moves(&p.board, p.to_play).first().copied() else {
            continue;
        };
        answered += 1;
        if p.solutions.contains(&first.point) {
            solved += 1;
        } else {
            wrong.push(format!("{} {:?}", p.name, p.board.size().xy(first.point)));
        }
    }
    eprintln!(
        "Cho Chikun elementary: {} problems, {answered} answered, {solved} solved",
        problems.len()
    );
    eprintln!("  answered wrongly: {}", wrong.join(", "));
    assert!(solved >= CHO_SOLVED, "{solved}");
    assert!(answered - solved <= CHO_WRONG, "{}", answered - solved);
}

const CHO_SOLVED: usize = 262;
const CHO_WRONG: usize = 47;
