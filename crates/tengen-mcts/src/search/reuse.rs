//! The tree kept between moves: the subtree of the moves played since the
//! last search becomes the new root, its statistics intact, and with it the
//! ownership of the playouts that went through it where the search kept
//! one: the root's own for the same position, its move's for the position
//! one move on. The new search adds its playouts to them, so that its
//! territory rests on as many playouts as its win rate, not only on those
//! it ran itself (a review that searches each position to a number of
//! simulations in the tree may run few where the move played was read
//! deeply).
//!
//! Left out: trees of other positions (a transposition table), ownership
//! two moves on or deeper (the tree keeps it per move of the root only:
//! a table per node would cost a board of counts each), and the pruning of
//! the subtree kept ([`super::prune`]).

use super::GenMode;
use super::filter::Restrictions;
use super::worker::{Owners, move_slot};
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
    /// The ownership of the search's playouts.
    pub(super) owners: KeptOwners,
}

/// The ownership of a search's playouts: all of them, and those through
/// each move of the root (by [`move_slot`]).
#[derive(Debug)]
pub(super) struct KeptOwners {
    pub(super) all: Owners,
    pub(super) moves: Vec<Option<Owners>>,
}

impl Kept {
    /// The kept subtree for `game`, or a fresh root, and the ownership
    /// kept for it. A tree grown under restrictions has its statistics bent
    /// by them, so it is kept only for the same position under the same
    /// restrictions.
    pub(super) fn into_root(
        self,
        game: &Game,
        mode: GenMode,
        restrictions: &Restrictions,
    ) -> (Node, Option<KeptOwners>) {
        let fresh = || (Node::root(), None);
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
            return fresh();
        }
        let mut node = self.root;
        let mut to_move = self.game.to_move();
        let played = &game.turns()[before.len()..];
        for turn in played {
            if turn.color != to_move {
                return fresh();
            }
            match node.into_child(turn.mv) {
                Some(n) => node = n,
                None => return fresh(),
            }
            to_move = to_move.opponent();
        }
        // A node never expanded (the tree was full) keeps its statistics:
        // the search expands the root first. Only a node that ends the game
        // or settles it is no root to search from.
        if node.leaf != Leaf::Open {
            return fresh();
        }
        let cells = game.size().cells();
        let mut kept = self.owners;
        let owners = match played {
            [] => Some(kept),
            [turn] => kept
                .moves
                .get_mut(move_slot(turn.mv, cells))
                .and_then(Option::take)
                .map(|all| KeptOwners {
                    all,
                    moves: Vec::new(),
                }),
            _ => None,
        };
        (node, owners)
    }
}
