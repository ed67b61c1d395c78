//! Tactical reading for tengen: the short, bounded reading behind the names
//! Go players give to moves.
//!
//! The lexicon of named moves (`tengen-lexicon`: shicho, geta,
//! utte-gaeshi, semeai, dame-zumari...) and the engine both ask the same
//! few questions about a position; this crate answers them, from
//! `tengen-core`'s fast board only:
//!
//! | question | function | answer |
//! |---|---|---|
//! | does this ladder work, what breaks it, which runs into one only lose | [`read_ladder`], [`ladders_after`], [`ladder_line`], [`ladder_runs`] | [`LadderResult`], points |
//! | can this chain be captured / saved | [`attack`], [`defend`] | [`Attack`], [`Defence`] |
//! | is this move a net (geta) | [`net`] | [`Net`] |
//! | is this move a snapback (utte-gaeshi) | [`snapback()`], [`capture_is_snapped_back`] | [`Snapback`] |
//! | who wins this capture race (semeai) | [`semeai()`], [`race`] | [`Semeai`], [`RaceOutcome`] |
//! | ataris, self-atari, good or bad | [`ataris`], [`self_atari`], [`is_bad_self_atari`] | [`SelfAtari`] |
//! | shortage of liberties (dame-zumari) | [`dame_zumari`] | [`DameZumari`] |
//! | eye or false eye, eye-space shape | [`eye`], [`eye_space`], [`classify_space`] | [`EyeKind`], [`EyeSpace`] |
//! | can this enclosed group be killed, can it live; which moves decide it | [`kill`], [`live`], [`vital_moves`], [`pass_alive`] | [`LifeAndDeath`], [`VitalMove`] |
//! | would this move break a nakade seki | [`breaks_nakade_seki`] | `bool` |
//! | liberties a stone would have, counted up to a bound | [`liberties_after`], [`liberties_after_up_to`] | count |
//! | which moves answer an atari, without reading | [`atari_answers`], [`board_atari_answers`], [`save_chain`], [`runs_into_ladder`] | points, `bool` |
//! | which moves play the two-liberty fights next to the last move | [`two_liberty_answers`] | points |
//! | where is the vital point of a small eye space; does this throw-in kill as a nakade | [`nakade_answer`], [`nakade_point`], [`kills_as_nakade`] | point, `bool` |
//! | would this playout move break a seki | [`breaks_three_stone_seki`], [`fills_own_eye_shape`] | `bool` |
//!
//! The [`local`] answers read nothing: they are the playouts' own, by
//! liberty counts and shapes next to the last move, and allocate nothing.
//! Every search is bounded in nodes and in depth ([`Limits`]), hence in
//! time; it is deterministic (no randomness, no threads, no clocks) and says
//! "unknown" rather than guess when a bound stops it. Reading is
//! clone-and-play on the fast [`Board`](tengen_core::Board): a node copies
//! its parent's board (a fixed-size copy) and plays one stone, never undoing
//! a move, with the boards kept in a pool indexed by depth inside a
//! [`Reader`], not on the call stack, so even a 300-ply ladder needs little
//! stack. The free functions make a fresh [`Reader`]; keep one to ask many
//! questions without growing its pool each time.
//!
//! ```
//! use tengen_core::{Board, Color, Vertex};
//! use tengen_tactics::{LadderResult, ladders_after};
//!
//! // White's D3 ataris the black stone; it runs to C2, C1 and dies on
//! // the edge.
//! let board = Board::from_ascii(
//!     ". . . . .
//!      . . O . .
//!      . O X . .
//!      . . . O .
//!      . . . . .",
//! )
//! .unwrap();
//! let Vertex::Point(d3) = Vertex::parse("D3", board.size()).unwrap() else { unreachable!() };
//! let ladders = ladders_after(&board, d3, Color::White);
//! assert_eq!(ladders.len(), 1);
//! assert!(matches!(ladders[0].1, LadderResult::Captured { .. }));
//! ```

#![warn(missing_docs)]

pub mod atari;
pub mod eyes;
pub mod ladder;
pub mod life;
pub mod local;
pub mod reader;
pub mod reading;
pub mod semeai;
pub mod snapback;
pub mod util;

pub use atari::{
    DameZumari, SelfAtari, SelfAtariKind, ataris, dame_zumari, is_bad_self_atari, self_atari,
};
pub use eyes::{EyeKind, EyeShape, EyeSpace, breaks_nakade_seki, classify_space, eye, eye_space};
pub use ladder::{LadderResult, ladder_line, ladder_runs, ladders_after, read_ladder};
pub use life::{LifeAndDeath, VitalMove, kill, live, pass_alive, vital_moves};
pub use local::{
    atari_answers, board_atari_answers, breaks_three_stone_seki, fills_own_eye_shape,
    kills_as_nakade, liberties_after, liberties_after_up_to, nakade_answer, nakade_point,
    runs_into_ladder, save_chain, two_liberty_answers,
};
pub use reader::{Limits, Reader};
pub use reading::{Attack, Defence, Net, attack, defend, net};
pub use semeai::{RaceLiberties, RaceOutcome, Semeai, race, semeai};
pub use snapback::{Snapback, capture_is_snapped_back, snapback};
