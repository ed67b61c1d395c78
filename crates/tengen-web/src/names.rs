//! The names of the last move (keima, hane, shicho...) with why, in English
//! and French, from the lexicon of `tengen-tactics`; in review, those of
//! every move of a line.

use serde::Serialize;
use tengen_core::Game;

/// One term that applies to a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveName {
    /// The romaji identifier (`keima`, `shicho`...).
    pub id: &'static str,
    /// The English sentence.
    pub en: String,
    /// The French sentence.
    pub fr: String,
}

impl From<tengen_tactics::Named> for MoveName {
    fn from(n: tengen_tactics::Named) -> MoveName {
        MoveName {
            id: n.id,
            en: n.en,
            fr: n.fr,
        }
    }
}

/// The terms for the game's last move.
pub fn last_move(game: &Game) -> Vec<MoveName> {
    tengen_tactics::name_last(game)
        .into_iter()
        .map(MoveName::from)
        .collect()
}

/// The terms for every turn of the game, in order, with those judged
/// from the moves that follow (sente, gote, te-nuki...).
pub fn every_move(game: &Game) -> Vec<Vec<MoveName>> {
    tengen_tactics::name_moves(game)
        .into_iter()
        .map(|names| names.into_iter().map(MoveName::from).collect())
        .collect()
}
