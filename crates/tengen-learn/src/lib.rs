//! Learning Go from game records: the records as training and test data
//! ([`corpus`]), the pattern model's fit ([`mm`]), the playouts' shapes
//! ([`shapes`]), the policy network's
//! training ([`net`]) and how well a model predicts the moves of records
//! it never saw ([`predict`]).
//!
//! The models themselves live where the search reads them
//! (`tengen_mcts::model`, `tengen_mcts::net`); this crate only makes and
//! measures them.

#![warn(missing_docs)]

pub mod corpus;
pub mod mm;
pub mod net;
pub mod predict;
pub mod shapes;

pub use corpus::{Record, Sample, Split, pick, read_records};
pub use mm::{FitConfig, Progress, fit};
pub use net::{TrainConfig, TrainError, TrainEvent, Trainer, train};
pub use predict::{
    Counts, NetPredictor, PatternPredictor, Predictor, SearchPredictor, Tally, evaluate,
};
pub use shapes::{ShapeRound, fit_shapes, shape_log_likelihood};
