//! The tree kept between moves: the subtree of the moves played since the
//! last search becomes the new root, its statistics intact.
//!
//! Left out: trees of other positions (a transposition table), and the
//! pruning of the subtree kept ([`super::prune`]).

use super::GenMode;
use super::filter::Restrictions;
use crate::tree::{Leaf, Node};
use tengen_core::{Game, Phase};

/// The tree of the last search and the position it was for.
#[derive(Debug)]
pub(super) struct Kept {
    pub(super) game: Game,
    pub(super) mode: GenMode,
    /// The restrictions the tree was grown under.
    pub(super) restrictions: Restrictions,
    pub(super) root: Node,
}

impl Kept {
    /// The kept subtree for `game`, or a fresh root. A tree grown under
    /// restrictions has its statistics bent by them, so it is kept only
    /// for the same position under the same restrictions.
    pub(super) fn into_root(self, game: &Game, mode: GenMode, restrictions: &Restrictions) -> Node {
        let before = self.game.turns();
        let bent = !self.restrictions.is_empty()
            && (self.restrictions != *restrictions || game.turns().len() != before.len());
        let same_start = !bent
            && self.mode == mode
            && self.game.rules() == game.rules()
            && self.game.komi() == game.komi()
            && self.game.first_to_move() == game.first_to_move()
            && self.game.initial_board() == game.initial_board()
            && self.game.phase() == Phase::Playing
            && game.turns().starts_with(before);
        if !same_start {
            return Node::root();
        }
        let mut node = self.root;
        let mut to_move = self.game.to_move();
        for turn in &game.turns()[before.len()..] {
            if turn.color != to_move {
                return Node::root();
            }
            match node.into_child(turn.mv) {
                Some(n) => node = n,
                None => return Node::root(),
            }
            to_move = to_move.opponent();
        }
        // A node never expanded (the tree was full) keeps its statistics:
        // the search expands the root first. Only a node that ends the game
        // or settles it is no root to search from.
        if node.leaf != Leaf::Open {
            return Node::root();
        }
        node
    }
}
