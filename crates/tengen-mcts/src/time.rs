//! Time management: how long to think for one move under a clock.
//!
//! The budget is a share of the time left, larger in the opening and middle
//! game and smaller once the board is settled, always leaving a safety
//! margin for the transport (GTP, network) so that the engine never loses on
//! time. The clock itself is core's [`tengen_core::Clock`]: this module only
//! reads it.

use std::time::Duration;
use tengen_core::{Game, SideClock, TimeControl};

/// Kept back from every budget for the transport and the move's own
/// bookkeeping, ms.
const LAG: i64 = 150;

/// The least a move is given when the clock allows it at all, ms.
const FLOOR: i64 = 20;

/// How long to think for the next move of `game` under `control`, with
/// `side` the mover's clock. Never more than the time left minus a margin;
/// in byo-yomi, never more than the current period (so that no period is
/// lost) once main time is spent; in Canadian overtime, the period shared
/// among the stones still to play; never more than [`MAX_THINK_MS`].
/// `TimeControl::None` gives `Duration::ZERO`: the caller's own limit
/// applies.
pub fn think_time(control: TimeControl, side: &SideClock, game: &Game) -> Duration {
    let ms = think_ms(control, side, game).min(MAX_THINK_MS);
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The longest one move is given, whatever the clock: ten minutes, more
/// than a share of the longest real main times (eight hours spread over a
/// game's moves), so that an absurd clock (`time_settings 100000000 0 0`)
/// cannot make one move last for hours.
pub const MAX_THINK_MS: i64 = 10 * 60 * 1000;

fn think_ms(control: TimeControl, side: &SideClock, game: &Game) -> i64 {
    let (moves_left, weight) = game_stage(game);
    let usable = |left: i64| left.saturating_sub(LAG).max(0);
    // A share of `left` for this move, weighted by the stage of the game,
    // never more than `left` less the margin.
    let share = |left: i64, moves: f64, weight: f64| -> i64 {
        let u = usable(left);
        ((u as f64 * weight / moves.max(1.0)) as i64).min(u)
    };
    let at_least_a_moment = |t: i64, left: i64| t.max(FLOOR.min(usable(left)));
    let main = side.main_ms;
    let overtime = side.in_overtime(control);
    match control {
        TimeControl::None => 0,
        TimeControl::Absolute { .. } => at_least_a_moment(share(main, moves_left, weight), main),
        TimeControl::Fischer { increment_ms, .. } => share(main, moves_left, weight)
            .saturating_add((increment_ms.max(0) as f64 * 0.8) as i64)
            .min(usable(main)),
        TimeControl::ByoYomi { period_ms, .. } => {
            // Once in overtime, the current period (perhaps begun, as a
            // controller reports it); in main time, a full one is to come.
            let period = if overtime { side.period_ms } else { period_ms };
            let safe_period = (usable(period) as f64 * 0.9) as i64;
            if overtime {
                // In byo-yomi: one period each move, less the margin.
                return safe_period.max(FLOOR.min(period));
            }
            // Main time: spread it, and never think less than a period would
            // allow (the period is there anyway).
            let from_main = share(main, moves_left * 0.7, weight);
            let cap = usable(main).saturating_add(safe_period);
            from_main.max(safe_period).min(cap)
        }
        TimeControl::Canadian { .. } => {
            if overtime {
                // The stones of the period share what is left of it.
                return share(side.period_ms, f64::from(side.stones.max(1)) + 0.5, 1.0);
            }
            at_least_a_moment(share(main, moves_left, weight), main)
        }
    }
}

/// The moves the mover may still have to make (half the empty points, at
/// least [`MIN_MOVES_LEFT`] so that the end keeps some time) and the weight
/// of this stage: the middle game, where the fights are, weighs more than
/// the opening, and the settled endgame less.
fn game_stage(game: &Game) -> (f64, f64) {
    let points = game.size().num_points() as f64;
    let empty = game.board().empty_points().len() as f64;
    let fill = 1.0 - empty / points.max(1.0);
    let weight = match fill {
        f if f < 0.12 => 1.0,
        f if f < 0.55 => 1.4,
        _ => 0.6,
    };
    ((empty * 0.5).max(MIN_MOVES_LEFT), weight)
}

/// The fewest moves left a budget plans for.
const MIN_MOVES_LEFT: f64 = 20.0;
