//! Search and playouts for tengen: the Monte-Carlo player.
//!
//! [`Search`] is UCT with RAVE and prior knowledge over heavy playouts
//! (atari answers, 3x3 patterns, no big self-atari), on all cores, keeping
//! its tree between moves; [`time`] decides how long to think under a
//! clock; [`estimate_dead`] finds the dead stones of a finished game. The
//! light playouts of the classic reference bot stay for benchmarks.

pub mod features;
mod geometry;
mod local;
pub mod model;
pub mod net;
mod pattern;
pub mod playout;
mod policy;
pub mod prior;
pub mod random;
pub mod rng;
pub mod search;
pub mod spatial;
pub mod time;
mod tree;

pub use features::{Extractor, Group, Position, Team};
pub use model::{ModelError, PatternModel};
pub use net::{Encoded, NetError, Network, PolicyNet};
pub use playout::{LightPlayout, PlayoutEnd, PlayoutStats};
pub use prior::Knowledge;
pub use rng::Rng;
pub use search::{
    Analysis, Candidate, Decision, GenMode, Limit, Reporter, Restriction, RestrictionKind,
    Restrictions, Search, SearchConfig, dead_stones, estimate_dead, final_ownership,
};
pub use time::think_time;
