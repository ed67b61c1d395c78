//! The score estimate a player asks for during play: the engine's
//! dead-stone estimate (the same one that proposes dead stones when play
//! stops), then the game's own count of that position, with the region
//! map the page draws as a territory preview. One map: what is drawn is
//! what is counted.

use crate::view::{self, CountView};
use serde::Serialize;
use tengen_core::{Game, Vertex};
use tengen_mcts::ESTIMATE_PLAYOUTS;

/// The `estimate` answer.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    /// Always `estimate`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The log position estimated.
    pub seq: u64,
    /// The stones the estimate takes as dead, as vertices.
    pub dead: Vec<String>,
    /// The count if play stopped here with those stones dead.
    pub count: CountView,
}

/// Estimates the game's position at log position `seq`.
pub fn estimate(game: &Game, seq: u64, seed: u64) -> Estimate {
    let size = game.size();
    let dead = tengen_mcts::estimate_dead(game, ESTIMATE_PLAYOUTS, seed);
    let map = game.region_map(&dead);
    let count = view::count_view(game, &map, &game.count(&map));
    Estimate {
        kind: "estimate",
        seq,
        dead: dead.iter().map(|&p| Vertex::point_name(p, size)).collect(),
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{Move, Preset};

    #[test]
    fn a_lone_stone_owns_the_small_board_and_the_map_is_the_count() {
        let size = tengen_core::BoardSize::square(5).unwrap();
        let mut game = Game::new(Preset::Ffg.rules(), size);
        game.play(Move::Play(size.point(2, 2).unwrap())).unwrap();
        let e = estimate(&game, 1, 7);
        assert!(e.dead.is_empty());
        let territory = e.count.map.chars().filter(|&c| c == 'b').count() as u32;
        assert_eq!(territory, 24);
        assert_eq!(e.count.territory.black, territory);
        assert_eq!(e.count.totals.black, "25");
    }
}
