//! Search and playouts for tengen: the Monte-Carlo player.
//!
//! [`Search`] is UCT with RAVE and prior knowledge over heavy playouts
//! (atari answers, learned 3x3 shapes ([`shape`]), no big self-atari), on
//! all cores, keeping its tree between moves (the playouts may learn the
//! search's last good replies); one [`Request`] says what a
//! search is asked; in the opening it plays the [`book`]'s move.
//! [`value`] judges a position (win, score, ownership) where the search is
//! asked to mix its judgement in; [`time`] decides how long to think under
//! a clock; [`strength`] is the levels people play against; [`estimate_dead`]
//! ([`ownership`]) finds the dead stones of a finished game. The light
//! playouts of the classic reference bot ([`light_playout`]) stay for
//! benchmarks. The local answers of the playouts are `tengen-tactics`'s.
//!
//! The networks run on burn, behind the `net` feature (on by default).
//! Without it (`default-features = false`) the crate still searches,
//! analyses and estimates dead stones, by patterns and playouts alone,
//! and needs no burn.

#![warn(missing_docs)]

pub mod book;
pub mod features;
mod heavy_playout;
pub mod light_playout;
pub mod model;
pub mod net;
pub mod ownership;
mod pattern;
pub mod prior;
pub mod random;
mod replies;
pub mod rng;
pub mod search;
pub mod shape;
pub mod spatial;
pub mod strength;
#[cfg(test)]
mod testing;
pub mod time;
mod tree;
mod urgent;
pub mod value;

pub use features::{Extractor, Group, Position, Team};
pub use light_playout::{LightPlayout, PlayoutEnd, PlayoutStats};
pub use model::{ModelError, PatternModel};
#[cfg(feature = "net")]
pub use net::PolicyNet;
pub use net::{Encoded, NetError, Network};
pub use ownership::{
    ESTIMATE_PLAYOUTS, ESTIMATE_VALUE_SHARE, dead_stones, estimate_dead, estimate_dead_with,
    final_ownership, judged_ownership,
};
pub use prior::Knowledge;
pub use rng::Rng;
pub use search::{
    Analysis, Candidate, DEFAULT_JUDGE_AT, DEFAULT_NETWORK_BATCH, DEFAULT_SCORE_WEIGHT,
    DEFAULT_TREE_MEMORY, DEFAULT_VALUE_WEIGHT, Decision, GenMode, Limit, Ownership, Reporter,
    Request, Restriction, RestrictionKind, Restrictions, Search, SearchConfig,
    default_score_weight,
};
pub use strength::Strength;
pub use time::think_time;
#[cfg(feature = "net")]
pub use value::ValueNet;
pub use value::{Judgement, ValueInput, ValueNetwork, ValueShape, ValueSource};
