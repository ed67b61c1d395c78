//! The names of the last move (keima, hane, shicho...) with why, in every
//! language of the catalogues, from the lexicon of `tengen-lexicon`; in
//! review, those of every move of a line.

use serde::Serialize;
use std::collections::BTreeMap;
use tengen_core::Game;
use tengen_lexicon::{Lang, Named};

/// One term that applies to a move: `{"id": .., "en": .., "fr": ..}`, one
/// sentence per language code, so that the page shows its own language
/// (`n[language()] || n.en`) without asking the server again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveName {
    /// The romaji identifier (`keima`, `shicho`...).
    pub id: &'static str,
    /// The sentence in each language, by code (`en`, `fr`...).
    #[serde(flatten)]
    pub said: BTreeMap<&'static str, String>,
}

impl From<Named> for MoveName {
    fn from(n: Named) -> MoveName {
        MoveName {
            id: n.id,
            said: Lang::all().map(|l| (l.code(), n.say(l))).collect(),
        }
    }
}

/// The terms for the game's last move.
pub fn last_move(game: &Game) -> Vec<MoveName> {
    tengen_lexicon::name_last(game)
        .into_iter()
        .map(MoveName::from)
        .collect()
}

/// The terms for every turn of the game, in order, with those judged
/// from the moves that follow (sente, gote, te-nuki...).
pub fn every_move(game: &Game) -> Vec<Vec<MoveName>> {
    tengen_lexicon::name_moves(game)
        .into_iter()
        .map(|names| names.into_iter().map(MoveName::from).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{BoardSize, Color, Move, Preset, Vertex};

    /// The page reads `n[language()] || n.en`: every language's code is a
    /// key beside the id.
    #[test]
    fn a_name_serializes_with_one_sentence_per_language() {
        let size = BoardSize::square(9).unwrap();
        let mut game = Game::new(Preset::Japanese.rules(), size);
        for (c, v) in [
            (Color::Black, "C3"),
            (Color::White, "G7"),
            (Color::Black, "E4"),
        ] {
            let Ok(Vertex::Point(p)) = Vertex::parse(v, size) else {
                panic!("{v}");
            };
            game.play_as(c, Move::Play(p)).unwrap();
        }
        let names = last_move(&game);
        let keima = names.iter().find(|n| n.id == "keima").unwrap();
        let v = serde_json::to_value(keima).unwrap();
        assert_eq!(v["id"], "keima");
        assert_eq!(v["en"], "keima from C3");
        assert_eq!(v["fr"], "keima depuis C3");
        let keys = v.as_object().unwrap().len();
        assert_eq!(keys, 1 + Lang::all().count(), "{v}");
    }
}
