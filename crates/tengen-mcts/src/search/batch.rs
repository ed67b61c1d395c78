//! The network's evaluations in batches. A node that has earned the
//! network's priors (see [`super::worker::NETWORK_AT`]) is queued with its
//! position, read as the network reads it; the thread whose request fills
//! the batch evaluates the whole batch at once and sets the priors of every
//! queued node's children. Until then those children keep the pattern
//! model's priors, so no thread ever waits for another's evaluation.
//!
//! A batch costs less per position than single evaluations once burn can
//! spread its convolutions over several cores (`tengen bench net`); on one
//! thread the two cost the same, and a batch of one is the old behaviour.
//!
//! Left out: the root, whose priors are asked at once when it is expanded
//! (the first descent needs them), and the requests still queued when the
//! search stops: they are handed back ([`Node::release_network`]) so that
//! the next search of a kept tree asks again.

use crate::features::Extractor;
use crate::features::Position;
use crate::model::PatternModel;
use crate::net::{self, Encoded, Network};
use crate::tree::Node;
use std::sync::Mutex;
use tengen_core::{Game, Point};

/// One node waiting for the network.
pub(super) struct Pending<'a> {
    /// The node whose children get the priors.
    pub(super) node: &'a Node,
    /// The position at that node.
    pub(super) game: Game,
    encoded: Encoded,
}

impl<'a> Pending<'a> {
    /// A request for the children of `node` at `game` (their stone
    /// moves `moves`): the pattern model reads the position now, on the
    /// asking thread.
    pub(super) fn new(
        node: &'a Node,
        game: Game,
        moves: &[Point],
        extractor: &mut Extractor,
    ) -> Pending<'a> {
        let recent = net::recent(game.turns().iter().map(|t| t.mv));
        let position = Position::after(game.board(), game.to_move(), &recent);
        let encoded = Encoded::with_patterns(
            PatternModel::shipped(),
            extractor,
            &position,
            &recent,
            moves,
        );
        Pending {
            node,
            game,
            encoded,
        }
    }
}

/// The queue of one search.
pub(super) struct Batches<'a> {
    size: usize,
    queue: Mutex<Vec<Pending<'a>>>,
}

impl<'a> Batches<'a> {
    /// A queue evaluated `size` positions at a time (at least one).
    pub(super) fn new(size: usize) -> Batches<'a> {
        Batches {
            size: size.max(1),
            queue: Mutex::new(Vec::new()),
        }
    }

    /// Queues `request`; when it fills the batch, the batch is taken off
    /// the queue and returned for the caller to evaluate.
    pub(super) fn push(&self, request: Pending<'a>) -> Option<Vec<Pending<'a>>> {
        let mut queue = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        queue.push(request);
        (queue.len() >= self.size).then(|| std::mem::take(&mut *queue))
    }

    /// Hands back the requests left when the search stops.
    pub(super) fn release(&self) {
        let mut queue = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for p in queue.drain(..) {
            p.node.release_network();
        }
    }
}

/// The network's probabilities for each request of `batch`, by point index
/// (as the pattern model's); positions of one board size.
pub(super) fn evaluate(network: &Network, batch: &[Pending<'_>]) -> Vec<Vec<f32>> {
    let encoded: Vec<&Encoded> = batch.iter().map(|p| &p.encoded).collect();
    network
        .policy(&encoded)
        .into_iter()
        .zip(batch)
        .map(|(by_row, p)| net::by_point(p.game.size(), &by_row))
        .collect()
}
