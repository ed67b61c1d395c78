//! How a network's run goes, whichever network it trains: the batch, the
//! step size, how far, how often it is saved and measured, what fixes it.
//! The policy and the value trainers share it, so that `tengen train net`
//! and `tengen train value` read the same settings the same way.
//!
//! Left out: what belongs to one network only (its shape, the value
//! network's positions per game), which stays in that trainer's config.

use std::path::PathBuf;

/// The settings of a run that both trainers take.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size (lower it to resume more finely).
    pub learning_rate: f64,
    /// Train until this many steps are done in all (resumed steps count).
    pub steps: u64,
    /// Save a checkpoint and measure every this many steps.
    pub checkpoint_every: u64,
    /// Positions measured at each checkpoint.
    pub test_positions: usize,
    /// Fixes the positions drawn, their order, the symmetries, the first
    /// weights.
    pub seed: u64,
    /// A new run's first weights (a safetensors file), instead of random
    /// ones: to go on from the shipped network when its checkpoint is gone
    /// (with another seed, so that the positions come in a new order).
    pub from: Option<PathBuf>,
}

impl Default for Schedule {
    fn default() -> Schedule {
        Schedule {
            batch: 64,
            learning_rate: 1e-3,
            steps: 10_000,
            checkpoint_every: 500,
            test_positions: 2048,
            seed: 1,
            from: None,
        }
    }
}
