//! Time management: how long to think for one move under a clock.
//!
//! The budget is a share of the time left, larger in the opening and middle
//! game and smaller once the board is settled, always leaving a safety
//! margin for the transport (GTP, network) so that the engine never loses on
//! time.

use std::time::Duration;
use tengen_core::Game;

/// A clock, as GTP `time_settings` and `kgs-time_settings` describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: think as the playout or time limit says.
    None,
    /// One period for the whole game, no overtime (sudden death).
    Absolute {
        /// Main time.
        main: Duration,
    },
    /// Japanese byo-yomi: after main time, `periods` periods of `period`
    /// each; a period is used up only when a move takes longer than it.
    ByoYomi {
        /// Main time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
    /// Canadian overtime: after main time, `stones` moves in each `period`.
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of one overtime period.
        period: Duration,
        /// Moves to make in each overtime period.
        stones: u32,
    },
    /// Fischer: `increment` added after each move.
    Fischer {
        /// Time at the start.
        main: Duration,
        /// Time added after each move.
        increment: Duration,
    },
}

/// Where one player's clock stands (GTP `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Main time left (or, in overtime, the time left in the current period).
    pub main_left: Duration,
    /// Byo-yomi periods left.
    pub periods_left: u32,
    /// Canadian overtime: moves still to make in the current period.
    pub stones_left: u32,
    /// Whether main time is spent.
    pub in_overtime: bool,
}

impl ClockState {
    /// The clock at the start of a game under `control`.
    pub fn start(control: &TimeControl) -> ClockState {
        let (main, periods, stones) = match *control {
            TimeControl::None => (Duration::ZERO, 0, 0),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => (main, 0, 0),
            TimeControl::ByoYomi { main, periods, .. } => (main, periods, 0),
            TimeControl::Canadian { main, stones, .. } => (main, 0, stones),
        };
        ClockState {
            main_left: main,
            periods_left: periods,
            stones_left: stones,
            in_overtime: false,
        }
    }
}

/// Kept back from every budget for the transport and the move's own
/// bookkeeping.
const LAG: Duration = Duration::from_millis(150);

/// The least a move is given, when the clock allows it at all.
const FLOOR: Duration = Duration::from_millis(20);

/// How long to think for the next move of `game` under `control`, with
/// `clock` the mover's clock. Never more than the time left minus a margin;
/// in byo-yomi, never more than one period (so that no period is lost) once
/// main time is spent; in Canadian overtime, the period shared among the
/// stones still to play. `TimeControl::None` gives `Duration::ZERO`: the
/// caller's own limit applies.
pub fn think_time(control: &TimeControl, clock: &ClockState, game: &Game) -> Duration {
    let (moves_left, weight) = game_stage(game);
    // A share of `left` for this move, weighted by the stage of the game,
    // never more than `left` less the margin.
    let share = |left: Duration, moves: f64, weight: f64| -> Duration {
        let usable = left.saturating_sub(LAG);
        usable.mul_f64(weight / moves.max(1.0)).min(usable)
    };
    let at_least_a_moment =
        |t: Duration, left: Duration| t.max(FLOOR.min(left.saturating_sub(LAG)));
    match *control {
        TimeControl::None => Duration::ZERO,
        TimeControl::Absolute { .. } => {
            at_least_a_moment(share(clock.main_left, moves_left, weight), clock.main_left)
        }
        TimeControl::Fischer { increment, .. } => {
            let usable = clock.main_left.saturating_sub(LAG);
            (share(clock.main_left, moves_left, weight) + increment.mul_f64(0.8)).min(usable)
        }
        TimeControl::ByoYomi { period, .. } => {
            let safe_period = period.saturating_sub(LAG).mul_f64(0.9);
            if clock.in_overtime || clock.main_left.is_zero() {
                // In byo-yomi: one period each move, less the margin.
                return safe_period.max(FLOOR.min(period));
            }
            // Main time: spread it, and never think less than a period would
            // allow (the period is there anyway).
            let from_main = share(clock.main_left, moves_left * 0.7, weight);
            let cap = clock.main_left.saturating_sub(LAG) + safe_period;
            from_main.max(safe_period).min(cap)
        }
        TimeControl::Canadian { period, stones, .. } => {
            if clock.in_overtime || clock.main_left.is_zero() {
                // The stones of the period share it evenly.
                let (left, stones_left) = if clock.in_overtime {
                    (clock.main_left, clock.stones_left)
                } else {
                    (period, stones)
                };
                return share(left, f64::from(stones_left.max(1)) + 0.5, 1.0);
            }
            at_least_a_moment(share(clock.main_left, moves_left, weight), clock.main_left)
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
