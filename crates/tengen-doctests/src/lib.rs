//! The README's and the guide's Rust examples, compiled and run as
//! doctests so that they cannot drift from the code. They live here, not
//! in the library crates, so that each published crate's doctests read
//! only its own files.

#![warn(missing_docs)]

/// The README's examples.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The guide's library examples in English.
#[doc = include_str!("../../../docs/src/en/library.md")]
#[cfg(doctest)]
pub struct GuideDoctestsEn;

/// The guide's library examples in French.
#[doc = include_str!("../../../docs/src/fr/library.md")]
#[cfg(doctest)]
pub struct GuideDoctestsFr;
