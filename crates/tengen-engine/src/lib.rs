//! The engine behind tengen's GTP front end, its KataGo-style JSON
//! analysis engine ([`json_analysis`]) and its match referee: a
//! [`Session`] holding the game, the search and the clock, which answers
//! every GTP command; [`serve()`] runs it over a byte stream; [`referee`]
//! plays matches between two GTP engines.

#![warn(missing_docs)]

pub mod analyze;
pub mod json_analysis;
pub mod referee;
pub mod serve;
pub mod session;
pub mod stats;

pub use serve::serve;
pub use session::{Control, EngineConfig, Session, Signals};
