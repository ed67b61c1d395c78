//! The value network of a build without the `net` feature: a type with no
//! value, so that the analysis and the dead-stone estimate compile
//! unchanged and nothing is judged but by the playouts
//! ([`NetError::Absent`]).

use super::{Judgement, ValueInput, ValueShape};
use crate::net::NetError;
use tengen_core::Game;

/// The value network, absent from this build.
#[derive(Clone, Debug)]
pub enum ValueNetwork {}

impl ValueNetwork {
    /// Never read here.
    ///
    /// # Errors
    /// Always [`NetError::Absent`].
    pub fn from_bytes(_bytes: &[u8]) -> Result<ValueNetwork, NetError> {
        Err(NetError::Absent)
    }

    /// None in this build.
    pub fn shipped() -> Option<&'static ValueNetwork> {
        None
    }

    /// Its size.
    pub fn shape(&self) -> ValueShape {
        match *self {}
    }

    /// The judgement of each position.
    pub fn judge(&self, _inputs: &[&ValueInput]) -> Vec<Judgement> {
        match *self {}
    }

    /// The judgement of `game` as it stands.
    pub fn judge_game(&self, _game: &Game) -> Judgement {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Network;
    use crate::{Knowledge, Limit, Request, Search, SearchConfig, ValueSource};
    use tengen_core::{BoardSize, Preset};

    #[test]
    fn without_networks_nothing_loads_and_the_search_asked_for_them_plays_on_patterns() {
        assert_eq!(Network::from_bytes(&[]).unwrap_err(), NetError::Absent);
        assert_eq!(ValueSource::load(&[]).unwrap_err(), NetError::Absent);
        assert!(ValueSource::Shipped.network().is_none());
        let game = Game::new(Preset::Chinese.rules(), BoardSize::square(19).unwrap());
        let mut search = Search::new(SearchConfig {
            threads: 1,
            knowledge: Knowledge::Net,
            value_weight: 0.5,
            judge_root: true,
            book: false,
            ..SearchConfig::default()
        });
        let analysis = search.analyze(&game, Request::new(Limit::playouts(400)));
        assert!(analysis.visits >= 400, "{} visits", analysis.visits);
        let best = analysis.candidates.first().expect("a move");
        assert!(game.is_legal(best.mv), "{:?}", best.mv);
        assert_eq!(analysis.ownership.len(), 361);
    }
}
