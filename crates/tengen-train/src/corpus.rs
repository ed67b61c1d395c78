//! Game records as learning material: each record's main line replayed
//! (tolerantly: a record is evidence of what was played, not a referee's
//! case), its positions walked in order, and a split into training and
//! test games that never shares a game, nor a game recorded twice.
//!
//! The split is a function of the game itself: the smallest hash of its
//! move sequence under the eight symmetries of the board. A game copied
//! into two collections, or recorded rotated, gets one key, so it is in
//! one split only, and is kept once.

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use tengen_core::{Board, BoardSize, Color, Game, Move, Point, Points, Rules, Setup};
use tengen_mcts::Position;
use tengen_sgf::record::{self, RecordedResult, ReplayMode, ReplayOptions};
use tengen_sgf::{ParseOptions, parse};

/// One in this many games is a test game.
pub const TEST_ONE_IN: u64 = 20;

/// Which part of the data a game belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// A game fitted on.
    Train,
    /// A held-out game, never trained on.
    Test,
}

/// One game: where it starts and what was played.
#[derive(Clone, Debug)]
pub struct Record {
    /// The file, and the game's number in it (1 for the first).
    pub path: PathBuf,
    /// The game's number in its file (1 for the first).
    pub game: usize,
    /// The rules and komi it was played under.
    pub rules: Rules,
    /// The komi it was played with.
    pub komi: Points,
    /// The board before the first move (handicap stones on it).
    pub initial: Board,
    /// Handicap stones placed before the first move.
    pub handicap: u32,
    /// Who played first.
    pub first: Color,
    /// Every turn, passes included.
    pub moves: Vec<(Color, Move)>,
    /// The symmetry-free key of the move sequence.
    pub key: u64,
    /// The result the record gives (`RE`), if any.
    pub result: Option<RecordedResult>,
}

/// A position of a record and the stone that was played there.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Where the move was played, and what the mover knew.
    pub position: Position<'a>,
    /// The point played.
    pub played: Point,
    /// 1 for the record's first move.
    pub move_number: usize,
}

impl Sample<'_> {
    /// The moves the played one competes with, itself included: every
    /// legal stone play on the fast board (simple ko, no suicide), in the
    /// board's order of empty points.
    pub fn candidates(&self, out: &mut Vec<Point>) {
        out.clear();
        out.extend(
            self.position
                .board
                .simple_legal_moves(self.position.to_move),
        );
    }
}

impl Record {
    /// The part of the data this game is in.
    pub fn split(&self) -> Split {
        if self.key.is_multiple_of(TEST_ONE_IN) {
            Split::Test
        } else {
            Split::Train
        }
    }

    /// Calls `f` with every position where a stone was played, in order.
    pub fn for_each_sample(&self, mut f: impl FnMut(&Sample)) {
        let mut board = self.initial.clone();
        let (mut last, mut before_last) = (None, None);
        for (i, &(color, mv)) in self.moves.iter().enumerate() {
            if let Move::Play(p) = mv
                && board.is_empty(p)
            {
                let sample = Sample {
                    position: Position {
                        board: &board,
                        to_move: color,
                        last,
                        own_last: before_last,
                    },
                    played: p,
                    move_number: i + 1,
                };
                f(&sample);
            }
            replay(&mut board, color, mv);
            before_last = last;
            last = match mv {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            };
        }
    }

    /// The board before turn `turn` (0 for the first), `None` past the end.
    pub fn board_before(&self, turn: usize) -> Option<Board> {
        let mut board = self.initial.clone();
        for &(color, mv) in self.moves.get(..turn)? {
            replay(&mut board, color, mv);
        }
        Some(board)
    }

    /// The last moves before turn `turn`, most recent first, as the
    /// network reads them.
    pub fn recent(&self, turn: usize) -> Vec<Option<Point>> {
        let before = self.moves.get(..turn).unwrap_or(&[]);
        tengen_mcts::net::recent(before.iter().map(|&(_, mv)| mv))
    }

    /// The game after turn `turn` (0: before the first), under its rules,
    /// every move checked; `None` past the end or where the record breaks
    /// the rules.
    pub fn game_after(&self, turn: usize) -> Option<Game> {
        let mut game = self.start()?;
        for &(_, mv) in self.moves.get(..turn)? {
            game.play(mv).ok()?;
        }
        Some(game)
    }

    /// The game before its first move, under its rules (for a search).
    pub fn start(&self) -> Option<Game> {
        let setup = Setup {
            handicap: self.handicap,
            ..Setup::of(&self.initial, self.first)
        };
        let mut game = Game::from_setup(self.rules, &setup).ok()?;
        game.set_komi(self.komi);
        Some(game)
    }
}

/// One turn of a record on the fast board (the record was replayed under
/// its rules when read, so no check is made here).
fn replay(board: &mut Board, color: Color, mv: Move) {
    match mv {
        Move::Play(p) => {
            board.play_unchecked(p, color);
        }
        Move::Pass => board.pass(),
    }
}

/// The key of a move sequence: the smallest over the eight symmetries of
/// an FNV-1a hash of its points (passes included), so that a game and its
/// rotations share it.
fn sequence_key(size: BoardSize, moves: &[(Color, Move)]) -> u64 {
    let (w, h) = (size.width() as i32, size.height() as i32);
    let mut best = u64::MAX;
    for k in 0..8 {
        if k >= 4 && w != h {
            break;
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &(_, mv) in moves {
            let code = match mv {
                Move::Pass => 0xffff,
                Move::Play(p) => {
                    let (x, y) = size.xy(p);
                    let (mut x, mut y) = (x as i32, y as i32);
                    if k & 1 == 1 {
                        x = w - 1 - x;
                    }
                    if k & 2 == 2 {
                        y = h - 1 - y;
                    }
                    if k & 4 == 4 {
                        std::mem::swap(&mut x, &mut y);
                    }
                    (y * 32 + x) as u64
                }
            };
            for b in code.to_le_bytes().iter().take(2) {
                hash ^= u64::from(*b);
                hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
            }
        }
        best = best.min(hash);
    }
    best
}

/// The games of one file on a `size` board with at least `min_moves`
/// turns (unreadable files and games give none).
fn read_file(path: &Path, size: Option<BoardSize>, min_moves: usize) -> Vec<Record> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let Ok(parsed) = parse(&bytes, &ParseOptions::lenient()) else {
        return Vec::new();
    };
    let options = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    let mut out = Vec::new();
    for (i, tree) in parsed.collection.trees.iter().enumerate() {
        let Ok((info, replay)) = record::replay_main_line(tree, &options) else {
            continue;
        };
        let game = replay.game;
        if size.is_some_and(|s| s != game.size()) || game.turns().len() < min_moves {
            continue;
        }
        let moves: Vec<(Color, Move)> = game.turns().iter().map(|t| (t.color, t.mv)).collect();
        out.push(Record {
            path: path.to_path_buf(),
            game: i + 1,
            rules: info.rules,
            komi: info.komi,
            initial: game.initial_board().clone(),
            handicap: info.handicap,
            first: game.first_to_move(),
            key: sequence_key(game.size(), &moves),
            moves,
            result: info.recorded_result(),
        });
    }
    out
}

/// Reads `files` on all cores: every game on a `size` board (any size
/// when `None`) with at least `min_moves` turns, each game once (the first
/// file in path order keeps it), in path order. `progress` is told of each
/// file read.
pub fn read_records(
    files: &[PathBuf],
    size: Option<BoardSize>,
    min_moves: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Record> {
    let mut records: Vec<Record> = files
        .par_iter()
        .flat_map_iter(|f| {
            let r = read_file(f, size, min_moves);
            progress();
            r
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    records.retain(|r| seen.insert(r.key));
    records
}

/// Up to `limit` games of `split` (every game when `None`), in the order
/// of their keys: a fixed draw that mixes the collections and the years.
pub fn pick(records: &[Record], split: Option<Split>, limit: Option<usize>) -> Vec<&Record> {
    let mut out: Vec<&Record> = records
        .iter()
        .filter(|r| split.is_none_or(|s| r.split() == s))
        .collect();
    out.sort_by_key(|r| r.key);
    out.truncate(limit.unwrap_or(usize::MAX));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(size: BoardSize, x: u32, y: u32) -> Move {
        Move::Play(size.point(x, y).unwrap())
    }

    #[test]
    fn a_game_and_its_rotation_share_a_key_and_a_split() {
        let size = BoardSize::square(19).unwrap();
        let a = [(3, 3), (15, 15), (15, 3), (2, 16)];
        let moves = |f: &dyn Fn(u32, u32) -> (u32, u32)| -> Vec<(Color, Move)> {
            a.iter()
                .enumerate()
                .map(|(i, &(x, y))| {
                    let (x, y) = f(x, y);
                    let c = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    (c, point(size, x, y))
                })
                .collect()
        };
        let plain = sequence_key(size, &moves(&|x, y| (x, y)));
        let rotated = sequence_key(size, &moves(&|x, y| (18 - y, x)));
        let other = sequence_key(size, &moves(&|x, y| (x, (y + 1) % 19)));
        assert_eq!(plain, rotated);
        assert_ne!(plain, other);
    }
}
