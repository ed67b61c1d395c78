//! Random games under full rules, for benchmarks of the rules core.

use crate::rng::Rng;
use tengen_core::{BoardSize, Game, Move, Phase, Rules, Turn};

/// A game of random legal stone plays (never filling the mover's own
/// one-point eye), checked by [`Game::play`] under `rules`; a player passes
/// when a few random draws find nothing. Stops when play stops or after
/// `max_turns`. Returns the turns, to be replayed.
pub fn random_game(rules: Rules, size: BoardSize, max_turns: usize, rng: &mut Rng) -> Vec<Turn> {
    let mut game = Game::new(rules, size);
    while game.phase() == Phase::Playing && game.turns().len() < max_turns {
        let color = game.to_move();
        let mut chosen = Move::Pass;
        let empty = game.board().empty_points();
        for _ in 0..8 {
            if empty.is_empty() {
                break;
            }
            let p = empty[rng.below(empty.len())];
            if game.board().is_playout_move(p, color) && game.check(color, Move::Play(p)).is_ok() {
                chosen = Move::Play(p);
                break;
            }
        }
        if game.play(chosen).is_err() && game.play(Move::Pass).is_err() {
            break;
        }
    }
    game.turns().to_vec()
}
