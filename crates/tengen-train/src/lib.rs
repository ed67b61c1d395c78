//! Learning Go from game records: the records as training and test data
//! ([`corpus`]), the pattern model's fit ([`mm`]), the playouts' shapes
//! ([`shapes`]), the policy network's training ([`net`]) on a
//! [`Schedule`] that both networks' runs share, the value network's
//! targets ([`outcome`]) and training ([`value`]) or export for an accelerator's trainer
//! ([`export`]), how well the judges judge real games
//! ([`judge`]), and how well a model predicts the moves of records
//! it never saw ([`predict`]).
//!
//! The models themselves live where the search reads them
//! (`tengen_mcts::model`, `tengen_mcts::net`); this crate only makes and
//! measures them.

#![warn(missing_docs)]

mod checkpoint;
pub mod corpus;
pub mod export;
pub mod judge;
pub mod mm;
pub mod net;
pub mod outcome;
pub mod predict;
pub mod schedule;
pub mod shapes;
pub mod threads;
pub mod value;

pub use corpus::{Record, Sample, Split, pick, read_records};
pub use mm::{FitConfig, Progress, fit};
pub use net::{TrainConfig, TrainError, TrainEvent, Trainer, train};
pub use outcome::{Counted, Ending, Komi, endings};
pub use predict::{
    Counts, NetPredictor, PatternPredictor, Predictor, SearchPredictor, Tally, evaluate,
};
pub use schedule::Schedule;
pub use shapes::{ShapeRound, fit_shapes, shape_log_likelihood};
pub use threads::map_on_threads;
pub use value::{Judged, Measures, ValueConfig, ValueEvent, ValueTrainer, train_value};
