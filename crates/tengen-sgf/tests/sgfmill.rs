//! A real client: Python's `sgfmill` (installed by `.ci/run`) reads what
//! tengen writes with the same moves, setup stones, komi and result, and
//! tengen reads what sgfmill writes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::path::Path;
use std::process::Command;
use tengen_core::{BoardSize, Color, Game, HandicapStones, Move, Phase, Preset};
use tengen_sgf::record::{self, RecordInfo, ReplayOptions};
use tengen_sgf::{ParseOptions, parse, write_tree};

/// Runs a Python script; fails the test with a clear message when python3
/// or sgfmill is missing.
fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs (CI installs it with sgfmill: pip install sgfmill)");
    assert!(
        out.status.success(),
        "python failed (is sgfmill installed? pip install sgfmill):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const READ: &str = r#"
import sys
from sgfmill import sgf
g = sgf.Sgf_game.from_bytes(open(sys.argv[1], 'rb').read())
root = g.get_root()
print("size", g.get_size())
print("komi", g.get_komi())
print("handicap", g.get_handicap())
print("result", root.get("RE") if root.has_property("RE") else "-")
b, w, e = root.get_setup_stones()
print("black", " ".join(sorted("%d,%d" % p for p in b)))
print("white", " ".join(sorted("%d,%d" % p for p in w)))
for node in g.get_main_sequence()[1:]:
    colour, move = node.get_move()
    if colour is None:
        continue
    print("move", colour, "pass" if move is None else "%d,%d" % move)
"#;

/// sgfmill's point text: row from the bottom, then column.
fn mill_point(p: tengen_core::Point, size: BoardSize) -> String {
    let (x, y) = size.xy(p);
    format!("{},{}", size.height() - 1 - y, x)
}

/// A random game under `preset`, played to its end.
fn random_game(preset: Preset, n: u32, handicap: u32, seed: u64) -> Game {
    let size = BoardSize::square(n).unwrap();
    let mut game =
        Game::with_handicap(preset.rules(), size, handicap, HandicapStones::Fixed).unwrap();
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..(n * n * 2) {
        if game.phase() != Phase::Playing {
            break;
        }
        let pts: Vec<_> = game
            .legal_points()
            .filter(|&p| !game.board().is_one_point_eye(p, game.to_move()))
            .collect();
        let mv = if pts.is_empty() || next().is_multiple_of(50) {
            Move::Pass
        } else {
            Move::Play(pts[(next() % pts.len() as u64) as usize])
        };
        game.play(mv).unwrap();
    }
    if game.phase() == Phase::Playing {
        game.play(Move::Pass).unwrap();
        if game.phase() == Phase::Playing {
            game.play(Move::Pass).unwrap();
        }
    }
    if game.phase() == Phase::Marking {
        game.propose_dead(Color::Black, &[]).unwrap();
        game.accept_dead(Color::White).unwrap();
    }
    game
}

fn info(game: &Game) -> RecordInfo {
    RecordInfo {
        black: Some("Noir".into()),
        white: Some("Blanc é".into()),
        date: Some("2026-11-21".into()),
        ..RecordInfo::of(game)
    }
}

#[test]
fn sgfmill_reads_what_tengen_writes() {
    let dir = std::env::temp_dir().join(format!("tengen-sgfmill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (Preset::Chinese, 9, 0, 1),
        (Preset::Ffg, 9, 3, 2),
        (Preset::Japanese, 13, 4, 3),
        (Preset::TrompTaylor, 19, 0, 4),
        (Preset::Aga, 19, 9, 5),
        (Preset::CaptureFive, 9, 0, 6),
    ];
    for (preset, n, handicap, seed) in cases {
        let game = random_game(preset, n, handicap, seed);
        let tree = record::write_game(&game, &info(&game));
        let path = dir.join(format!("{}-{n}.sgf", preset.name()));
        std::fs::write(&path, write_tree(&tree)).unwrap();
        let out = python(READ, &[path.to_str().unwrap()]);
        let size = game.size();
        let mut expected = vec![
            format!("size {n}"),
            format!("komi {}", komi_text(game.stated_komi())),
            format!(
                "handicap {}",
                if game.handicap() >= 2 {
                    game.handicap().to_string()
                } else {
                    "None".into()
                }
            ),
            format!(
                "result {}",
                game.outcome().map(|o| o.to_sgf()).unwrap_or("-".into())
            ),
        ];
        for c in [Color::Black, Color::White] {
            let mut pts: Vec<String> = size
                .points()
                .filter(|&p| game.initial_board().get(p) == Some(c))
                .map(|p| mill_point(p, size))
                .collect();
            pts.sort();
            expected.push(
                format!("{} {}", c.name(), pts.join(" "))
                    .trim_end()
                    .to_string(),
            );
        }
        for t in game.turns() {
            let colour = if t.color == Color::Black { "b" } else { "w" };
            let mv = match t.mv {
                Move::Pass => "pass".to_string(),
                Move::Play(p) => mill_point(p, size),
            };
            expected.push(format!("move {colour} {mv}"));
        }
        let got: Vec<String> = out.lines().map(|l| l.trim_end().to_string()).collect();
        assert_eq!(got, expected, "{} {n}x{n}", preset.name());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// sgfmill prints komi as a Python float.
fn komi_text(k: tengen_core::Points) -> String {
    let s = k.to_string();
    if s.contains('.') { s } else { format!("{s}.0") }
}

const WRITE: &str = r#"
import sys, random
from sgfmill import sgf, boards
random.seed(int(sys.argv[2]))
size = int(sys.argv[3])
g = sgf.Sgf_game(size=size)
root = g.get_root()
root.set("KM", 6.5)
root.set("RU", "Japanese")
board = boards.Board(size)
stones = [(2, 2), (size - 3, size - 3)]
root.set_setup_stones(stones, [])
root.set("HA", 2)
for (r, c) in stones:
    board.play(r, c, 'b')
colour = 'w'
for i in range(size * size):
    empties = [(r, c) for r in range(size) for c in range(size) if board.get(r, c) is None]
    random.shuffle(empties)
    played = None
    for (r, c) in empties:
        trial = board.copy()
        try:
            trial.play(r, c, colour)
        except ValueError:
            continue
        # sgfmill's board allows suicide; skip it, and simple ko by hand.
        if trial.get(r, c) is None:
            continue
        played = (r, c)
        board = trial
        break
    node = g.extend_main_sequence()
    node.set_move(colour, played)
    colour = 'b' if colour == 'w' else 'w'
    if played is None and i > 10:
        break
root.set("RE", "?")
open(sys.argv[1], 'wb').write(g.serialise())
"#;

#[test]
fn tengen_reads_what_sgfmill_writes() {
    let dir = std::env::temp_dir().join(format!("tengen-sgfmill-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (seed, n) in [(1, 9), (2, 13), (3, 19)] {
        let path = dir.join(format!("mill-{seed}.sgf"));
        python(
            WRITE,
            &[path.to_str().unwrap(), &seed.to_string(), &n.to_string()],
        );
        let listing = python(READ, &[path.to_str().unwrap()]);
        let parsed = parse(&std::fs::read(&path).unwrap(), &ParseOptions::default()).unwrap();
        let tree = &parsed.collection.trees[0];
        let options = ReplayOptions {
            mode: record::ReplayMode::Tolerant,
            ..ReplayOptions::default()
        };
        let (info, replay) = record::replay_main_line(tree, &options).unwrap();
        assert!(replay.complete, "{:?}", replay.findings);
        assert_eq!(info.size, BoardSize::square(n).unwrap());
        assert_eq!(info.handicap, 2);
        assert_eq!(info.komi.to_string(), "6.5");
        let size = info.size;
        let moves: Vec<String> = listing
            .lines()
            .filter(|l| l.starts_with("move "))
            .map(str::to_string)
            .collect();
        let ours: Vec<String> = replay
            .game
            .turns()
            .iter()
            .map(|t| {
                let colour = if t.color == Color::Black { "b" } else { "w" };
                match t.mv {
                    Move::Pass => format!("move {colour} pass"),
                    Move::Play(p) => format!("move {colour} {}", mill_point(p, size)),
                }
            })
            .collect();
        assert_eq!(ours, moves);
        let black: Vec<String> = {
            let mut v: Vec<String> = size
                .points()
                .filter(|&p| replay.game.initial_board().get(p) == Some(Color::Black))
                .map(|p| mill_point(p, size))
                .collect();
            v.sort();
            v
        };
        assert!(listing.contains(&format!("black {}", black.join(" "))));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = Path::new(".");
}
