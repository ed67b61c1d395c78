//! The names of the last move (keima, hane, shicho...) with why, in English
//! and French, from the lexicon of `tengen-tactics`.

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

/// The terms for the game's last move.
pub fn last_move(game: &Game) -> Vec<MoveName> {
    tengen_tactics::name_last(game)
        .into_iter()
        .map(|n| MoveName {
            id: n.id,
            en: n.en,
            fr: n.fr,
        })
        .collect()
}
