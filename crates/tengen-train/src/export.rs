//! The judged games as one compact file, for a value trainer outside
//! tengen: on a machine with an accelerator, a few minutes of a GPU train
//! what two cores train in days. The trainer replays the moves itself, so
//! the file holds games, not positions (a game is a few hundred bytes, its
//! positions a hundred kilobytes), and a sample of positions as tengen
//! reads them, for the trainer to check its replay against before it
//! learns anything.
//!
//! The layout, every number little-endian: the magic `TGVG0001`; a `u32`
//! length and that many bytes of JSON naming the counts (`games`,
//! `moves`, `checks`, `size`); then the arrays, each whole before the next:
//!
//! | array | type | per |
//! | --- | --- | --- |
//! | split (0 training, 1 test) | `u8` | game |
//! | area counting | `u8` | game |
//! | winner (1 Black, -1 White, 0 a draw) | `i8` | game |
//! | ownership kind (0 none, 1 counted, 2 estimated) | `u8` | game |
//! | White's komi | `f32` | game |
//! | Black's area margin before komi (0 when no ownership) | `f32` | game |
//! | moves | `u32` | game |
//! | the first board (1 Black, -1 White, 0 empty) | `i8` × points | game |
//! | Black's ownership × 127 | `i8` × points | game |
//! | each move's colour (1 Black, -1 White) | `i8` | move |
//! | each move's point (row index, -1 a pass) | `i16` | move |
//! | check: game, turn | `u32`, `u32` | check |
//! | check: stones by liberties (0 empty, 1-3 Black's with 1, 2, 3+, 4-6 White's) | `u8` × points | check |
//!
//! Points are in row order from the top left ([`tengen_mcts::net::row_index`]).
//! Left out: boards of other sizes than the first game's (skipped).

use crate::value::Judged;
use std::io::{self, Write};
use tengen_core::{Color, Move, Points};
use tengen_mcts::Rng;
use tengen_mcts::net::row_index;
use tengen_mcts::value::ValueInput;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TGVG0001";

/// Writes `train` and `test` (of the first game's size) into `out`, with
/// `checks` positions drawn by `seed` as tengen reads them. Returns the
/// games written.
///
/// # Errors
/// What `out` reports.
pub fn write_games(
    train: &[Judged],
    test: &[Judged],
    checks: usize,
    seed: u64,
    out: &mut dyn Write,
) -> io::Result<usize> {
    let Some(size) = train
        .iter()
        .chain(test)
        .map(|g| g.record.initial.size())
        .next()
    else {
        return Ok(0);
    };
    let games: Vec<(u8, &Judged)> = train
        .iter()
        .map(|g| (0, g))
        .chain(test.iter().map(|g| (1, g)))
        .filter(|(_, g)| g.record.initial.size() == size)
        .collect();
    let n = size.points().count();
    let moves: usize = games.iter().map(|(_, g)| g.record.moves.len()).sum();
    let mut rng = Rng::new(seed);
    let drawn: Vec<(u32, u32)> = (0..if games.is_empty() { 0 } else { checks })
        .map(|_| {
            let g = rng.below(games.len());
            let turn = rng.below(games[g].1.record.moves.len() + 1);
            (g as u32, turn as u32)
        })
        .collect();
    let header = format!(
        r#"{{"games":{},"moves":{moves},"checks":{},"size":{},"points":{n}}}"#,
        games.len(),
        drawn.len(),
        size.width()
    );
    out.write_all(MAGIC)?;
    out.write_all(&(header.len() as u32).to_le_bytes())?;
    out.write_all(header.as_bytes())?;
    let each = |out: &mut dyn Write, f: &dyn Fn(u8, &Judged) -> Vec<u8>| -> io::Result<()> {
        for (split, g) in &games {
            out.write_all(&f(*split, g))?;
        }
        Ok(())
    };
    let sign = |c: Color| c.sign() as i8;
    each(out, &|split, _| vec![split])?;
    each(out, &|_, g| {
        vec![u8::from(g.record.rules.scoring.counts_area())]
    })?;
    each(out, &|_, g| {
        vec![g.ending.winner.map_or(0, sign).to_le_bytes()[0]]
    })?;
    each(
        out,
        &|_, g| match (&g.ending.counted, &g.ending.estimated) {
            (Some(_), _) => vec![1],
            (None, Some(_)) => vec![2],
            (None, None) => vec![0],
        },
    )?;
    each(out, &|_, g| {
        (g.ending.komi.to_f64() as f32).to_le_bytes().to_vec()
    })?;
    each(out, &|_, g| {
        let margin = match (&g.ending.counted, &g.ending.estimated) {
            (Some(c), _) => c.black_area,
            (None, Some(e)) => e.iter().sum(),
            (None, None) => 0.0,
        };
        margin.to_le_bytes().to_vec()
    })?;
    each(out, &|_, g| {
        (g.record.moves.len() as u32).to_le_bytes().to_vec()
    })?;
    each(out, &|_, g| {
        let board = &g.record.initial;
        size.points()
            .map(|p| board.get(p).map_or(0, sign).to_le_bytes()[0])
            .collect()
    })?;
    each(out, &|_, g| {
        let owner: Vec<f32> = match (&g.ending.counted, &g.ending.estimated) {
            (Some(c), _) => c.owner.iter().map(|&o| f32::from(o)).collect(),
            (None, Some(e)) => e.clone(),
            (None, None) => vec![0.0; n],
        };
        owner
            .iter()
            .map(|o| ((o.clamp(-1.0, 1.0) * 127.0).round() as i8).to_le_bytes()[0])
            .collect()
    })?;
    // Each move's bytes, game after game.
    let per_move = |out: &mut dyn Write, f: &dyn Fn(Color, Move) -> Vec<u8>| {
        each(out, &|_, g| {
            g.record
                .moves
                .iter()
                .flat_map(|&(c, mv)| f(c, mv))
                .collect()
        })
    };
    per_move(out, &|c, _| sign(c).to_le_bytes().to_vec())?;
    per_move(out, &|_, mv| {
        let i = match mv {
            Move::Play(p) => row_index(size, p) as i16,
            Move::Pass => -1,
        };
        i.to_le_bytes().to_vec()
    })?;
    for &(g, turn) in &drawn {
        out.write_all(&g.to_le_bytes())?;
        out.write_all(&turn.to_le_bytes())?;
    }
    for &(g, turn) in &drawn {
        let record = games[g as usize].1.record;
        let board = record
            .board_before(turn as usize)
            .unwrap_or_else(|| record.initial.clone());
        // Read off the network's own input with Black to move, so that the
        // trainer checks its replay against what the network reads.
        let input = ValueInput::new(&board, Color::Black, &[], Points::ZERO, true);
        let codes: Vec<u8> = (0..n)
            .map(|i| {
                (0..6u8)
                    .find(|&k| input.planes[usize::from(k) * n + i] > 0.5)
                    .map_or(0, |k| k + 1)
            })
            .collect();
        out.write_all(&codes)?;
    }
    Ok(games.len())
}
