//! Ownership and dead stones without a tree: playouts from a finished
//! position, half with each player moving first, say who owns each point;
//! a chain on points its opponent owns more often than not is dead. This is
//! the dead-stone estimate behind `tengen score --dead auto`, GTP
//! `final_score` and `final_status_list`, the web board's proposal and the
//! match referee.
//!
//! Where the search mixes in the value network's judgement, its ownership
//! is mixed in the same way ([`judged_ownership`]).
//!
//! Left out: seki by rule (a chain in seki keeps its stones in the
//! playouts, so it is never marked) and any reading of life and death.

use crate::heavy_playout::{Count, HeavyPlayout, Judge, Start};
use crate::rng::Rng;
use crate::value::ValueNetwork;
use tengen_core::{Color, Game, Point};

/// Playouts of the dead-stone estimate for a caller with no reason to ask
/// for another number (the GTP session, the web board, `tengen score`):
/// one default, so that they all mark the same stones.
pub const ESTIMATE_PLAYOUTS: u64 = 2_000;

/// Dead stones from ownership (one value per point, in the order of
/// [`tengen_core::BoardSize::points`]): the chains whose points belong to
/// the opponent more often than not. The status is binary, so the most
/// likely one is the estimate: asking for more confidence would leave
/// every contested chain alive, a bias to the side that owns it, which
/// the count then carries (a corner race settled by a ko, a big group
/// the playouts take three times in five). A chain in seki keeps its
/// stones in the playouts, so it is not marked.
pub fn dead_stones(game: &Game, ownership: &[f32]) -> Vec<Point> {
    let board = game.board();
    let own: std::collections::HashMap<Point, f32> = game
        .size()
        .points()
        .zip(ownership.iter().copied())
        .collect();
    let own_at = |p: Point| own.get(&p).copied().unwrap_or(0.0);
    let mut seen = std::collections::HashSet::new();
    let mut dead = Vec::new();
    for p in game.size().points() {
        let Some(color) = board.get(p) else {
            continue;
        };
        let Some(id) = board.chain_id(p) else {
            continue;
        };
        if !seen.insert(id) {
            continue;
        }
        let sign = color.sign();
        let stones: Vec<Point> = board.chain(p).collect();
        let mean = stones.iter().map(|&s| own_at(s) * sign).sum::<f32>() / stones.len() as f32;
        if mean < 0.0 {
            dead.extend(stones);
        }
    }
    dead.sort_by_key(|p| p.index());
    dead
}

/// The value network's share of the ownership that the dead-stone
/// estimate reads, on the boards it learned ([`crate::value::learned`]):
/// the playouts miss what a group needs to live, the network what a local
/// fight still changes (`tengen bench dead --value-share`). None: on the
/// 27 human-checked 19x19 final positions of OGS's score estimator tests,
/// the playouts alone mark the dead stones of 26 exactly (22 stones wrong
/// in all), a quarter or half of the network's changes nothing, and the
/// network alone gets 21 (114 wrong).
pub const ESTIMATE_VALUE_SHARE: f32 = 0.0;

/// Dead stones of `game`'s final position (any phase), for `tengen score
/// --dead auto`, the web board and GTP `final_status_list`: `playouts`
/// playouts from the position, half with each player to move first, their
/// ownership mixed with the value network's ([`judged_ownership`] at
/// [`ESTIMATE_VALUE_SHARE`]), and [`dead_stones`] of that.
pub fn estimate_dead(game: &Game, playouts: u64, seed: u64) -> Vec<Point> {
    estimate_dead_with(game, playouts, seed, ESTIMATE_VALUE_SHARE)
}

/// [`estimate_dead`] with the network weighing `share` (0 to 1).
pub fn estimate_dead_with(game: &Game, playouts: u64, seed: u64, share: f32) -> Vec<Point> {
    dead_stones(game, &judged_ownership(game, playouts, seed, share))
}

/// The ownership of the playouts ([`final_ownership`]) mixed with the
/// value network's, the network weighing `share` on the boards it learned
/// (at 0, or elsewhere, it is not even read).
pub fn judged_ownership(game: &Game, playouts: u64, seed: u64, share: f32) -> Vec<f32> {
    let played = final_ownership(game, playouts, seed);
    match (share > 0.0 && crate::value::learned(game.size()))
        .then(ValueNetwork::shipped)
        .flatten()
    {
        Some(value) => value
            .judge_game(game)
            .mix_ownership(&played, share.min(1.0)),
        None => played,
    }
}

/// Ownership of a finished position from playouts alone (no tree), half
/// with each player moving first; one value per point.
pub fn final_ownership(game: &Game, playouts: u64, seed: u64) -> Vec<f32> {
    let mut judge = Judge::of(game);
    // Whatever the game's method, ownership is about the board.
    judge.count = Count::Area;
    judge.goal = None;
    let mut playout = HeavyPlayout::new(game.size(), judge, None);
    let mut rng = Rng::new(seed);
    let n = game.size().num_points();
    let mut sum = vec![0i64; n];
    let mut owner = vec![0i8; n];
    let mut moves = Vec::new();
    let playouts = playouts.max(2);
    for i in 0..playouts {
        let mut board = game.board().clone();
        board.pass();
        let first = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        moves.clear();
        playout.run(
            &mut board,
            Start {
                to_move: first,
                last: None,
                before: None,
                captures: game.captures(),
            },
            &mut rng,
            None,
            &mut moves,
            &mut owner,
        );
        for (s, &o) in sum.iter_mut().zip(owner.iter()) {
            *s += i64::from(o);
        }
    }
    sum.iter().map(|&s| s as f32 / playouts as f32).collect()
}
