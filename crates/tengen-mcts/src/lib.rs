//! Search and playouts for tengen.
//!
//! For now: light playouts (the classic reference bot's), random games under
//! full rules, and the small generator they draw from.

// No panics on input paths: library code returns errors (tests may unwrap).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod playout;
pub mod random;
pub mod rng;

pub use playout::{LightPlayout, PlayoutEnd, PlayoutStats};
pub use rng::Rng;
