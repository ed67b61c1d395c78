//! The move chosen from an analysis: the most visited, unless the search
//! resigns, passes to end a game it wins as the board stands, or (in
//! cleanup) captures the dead stones before passing.
//!
//! Left out: the clock (a decision takes what the analysis says, however
//! long it took) and playing the move (the caller's).

use super::{Analysis, Decision, GenMode};
use crate::ownership::dead_stones;
use tengen_core::{Color, Game, Move, Phase, Points};

/// Root visits under which the engine does not resign.
const RESIGN_MIN_VISITS: u64 = 500;

/// What to play in `game` after `analysis`, resigning below
/// `resign_below` (never when `None`).
pub(super) fn decide(
    game: &Game,
    analysis: &Analysis,
    mode: GenMode,
    resign_below: Option<f64>,
) -> Decision {
    if game.phase() != Phase::Playing {
        return Decision::Move(Move::Pass);
    }
    let Some(best) = analysis.candidates.first() else {
        return Decision::Move(Move::Pass);
    };
    if let Some(threshold) = resign_below
        && analysis.visits >= RESIGN_MIN_VISITS
        && best.winrate < threshold
        && analysis.searched_winrate < threshold
    {
        return Decision::Resign;
    }
    // The opponent passed: a pass ends play. When the count as it
    // stands (the dead stones estimated) wins, playing on in one's own
    // area only spends the clock (and points under territory rules);
    // unless the search expects to lose, which says that the estimate
    // is wrong about some group: then the fight goes on.
    if mode == GenMode::Normal
        && best.mv != Move::Pass
        && best.winrate >= 0.5
        && game.turns().last().map(|t| t.mv) == Some(Move::Pass)
        && game.rules().capture_goal.is_none()
    {
        let margin = game.score(&dead_stones(game, &analysis.ownership)).margin;
        let ours = match game.to_move() {
            Color::Black => margin,
            Color::White => -margin,
        };
        if ours > Points::ZERO {
            return Decision::Move(Move::Pass);
        }
    }
    if best.mv == Move::Pass && mode == GenMode::Cleanup {
        let opponent = game.to_move().opponent();
        let dead = dead_stones(game, &analysis.ownership);
        if dead.iter().any(|&p| game.board().get(p) == Some(opponent))
            && let Some(c) = analysis
                .candidates
                .iter()
                .find(|c| c.mv != Move::Pass && game.is_legal(c.mv))
        {
            return Decision::Move(c.mv);
        }
    }
    Decision::Move(best.mv)
}
