//! The rules of Go, exactly.
//!
//! `tengen-core` is the rules library under everything tengen does: a fast
//! [`Board`] (chains with exact liberties, captures, Zobrist hash), rule sets
//! as data ([`Rules`], with the named [`Preset`]s of the source texts), a
//! [`Game`] that owns everything that depends on history (repetition rules,
//! passes, the end of play, dead stones, handicap, the result), and exact
//! [`scoring`] by every method. It does no I/O, uses no threads or
//! randomness, and never panics on input.
//!
//! ```
//! use tengen_core::{BoardSize, Game, Move, Preset, Vertex};
//!
//! let size = BoardSize::square(9).unwrap();
//! let mut game = Game::new(Preset::Ffg.rules(), size);
//! let Vertex::Point(e5) = Vertex::parse("E5", size).unwrap() else { unreachable!() };
//! game.play(Move::Play(e5)).unwrap();
//! // The point is taken now: the error names the rule.
//! let err = game.play(Move::Play(e5)).unwrap_err();
//! assert_eq!(err.to_string(), "illegal white move at E5: the point is occupied");
//! game.play(Move::Pass).unwrap();
//! game.play(Move::Pass).unwrap();
//! // Play has stopped; both agree that nothing is dead.
//! game.propose_dead(tengen_core::Color::Black, &[]).unwrap();
//! game.accept_dead(tengen_core::Color::White).unwrap();
//! assert_eq!(game.outcome().unwrap().to_sgf(), "B+73.5");
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod clock;
pub mod color;
pub mod game;
pub mod handicap;
mod history;
pub mod moves;
pub mod outcome;
pub mod points;
pub mod regions;
pub mod rules;
pub mod scoring;
pub mod size;
pub mod vertex;
pub mod zobrist;

pub use board::{Board, IllegalMove, Played, Preview, Suicide};
pub use clock::{Clock, Flagged, SideClock, TimeControl, seconds_to_ms, whole_seconds};
pub use color::{ByColor, Color, ParseColorError};
pub use game::{EndError, Game, HandicapStones, Move, Phase, PlayError, Setup, SetupError, Turn};
pub use handicap::HandicapError;
pub use history::Repetition;
pub use outcome::{Outcome, WinBy};
pub use points::{ParsePointsError, Points};
pub use regions::{Mark, RegionMap, Regions};
pub use rules::{
    EndOfPlay, HandicapCompensation, HandicapPlacement, KataGoRules, KoRule, ParseRulesError,
    PassStones, Preset, Rules, Scoring, Tax,
};
pub use scoring::{ChineseCount, QuickCount, Score};
pub use size::{BoardSize, Point, SizeError, Symmetry};
pub use vertex::{ParseVertexError, Vertex};
