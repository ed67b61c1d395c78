//! The policy network of a build without the `net` feature: a type with
//! no value, so that the search compiles unchanged and the compiler proves
//! no network is ever asked. Nothing is shipped and nothing loads
//! ([`NetError::Absent`]): the search keeps the pattern model's priors, and
//! the crate builds without burn (a few crates instead of about 160).

use super::{Encoded, NetError, Shape};
use crate::features::{Extractor, Position};
use crate::model::PatternModel;
use tengen_core::Point;

/// The policy network, absent from this build.
#[derive(Clone, Debug)]
pub enum Network {}

impl Network {
    /// Never read here.
    ///
    /// # Errors
    /// Always [`NetError::Absent`].
    pub fn from_bytes(_bytes: &[u8]) -> Result<Network, NetError> {
        Err(NetError::Absent)
    }

    /// None in this build.
    pub fn shipped() -> Option<&'static Network> {
        None
    }

    /// Its size.
    pub fn shape(&self) -> Shape {
        match *self {}
    }

    /// The move probabilities of each position.
    pub fn policy(&self, _positions: &[&Encoded]) -> Vec<Vec<f32>> {
        match *self {}
    }

    /// The move probabilities of one position of the search.
    pub fn position_policy(
        &self,
        _model: &PatternModel,
        _extractor: &mut Extractor,
        _position: &Position,
        _recent: &[Option<Point>],
        _moves: &[Point],
    ) -> Vec<f32> {
        match *self {}
    }
}
