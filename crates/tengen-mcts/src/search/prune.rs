//! Pruning of the subtree kept between moves (as Pachi's collection at
//! each move under `max_tree_size`): past [`KEPT_SHARE`] of the tree's
//! memory, its least-visited nodes become leaves again, their own
//! statistics kept.
//!
//! Left out: pruning during a search (a full tree stops growing and plays
//! out from its leaves, [`super::worker`]).

use crate::tree::Node;

/// The share of the tree's memory the kept subtree may take: the new
/// search needs room to grow, and a kept tree filling the budget would
/// leave it none to expand the new position's lines.
pub(super) const KEPT_SHARE: f64 = 0.5;

/// Prunes the tree under `root` to [`KEPT_SHARE`] of a tree of `bytes`;
/// returns the nodes left under it (the search's count starts there).
pub(super) fn prune_kept(root: &mut Node, bytes: usize) -> usize {
    let max_nodes = bytes / std::mem::size_of::<Node>();
    let room = (max_nodes as f64 * KEPT_SHARE) as usize;
    let (threshold, kept) = threshold(root, room);
    prune_below(root, threshold);
    kept
}

/// The smallest number of visits a node needs to keep its children for
/// the tree under `root` to hold at most `room` nodes (0 when it does
/// already), and the nodes then left under `root`. The root's children always stay, whatever the room: they are
/// the candidates shown. A node keeps its children only if every node
/// between it and the root does, so it counts with the fewest visits
/// along its line.
pub(super) fn threshold(root: &Node, room: usize) -> (u32, usize) {
    let mut expanded: Vec<(u32, usize)> = Vec::new();
    let mut total = root.kids().len();
    let mut waiting: Vec<(&Node, u32)> = root.kids().iter().map(|k| (k, u32::MAX)).collect();
    while let Some((node, line)) = waiting.pop() {
        let kids = node.kids();
        if kids.is_empty() {
            continue;
        }
        let line = line.min(node.visits());
        expanded.push((line, kids.len()));
        total += kids.len();
        waiting.extend(kids.iter().map(|k| (k, line)));
    }
    if total <= room {
        return (0, total);
    }
    expanded.sort_unstable_by_key(|&(line, _)| std::cmp::Reverse(line));
    let mut size = root.kids().len();
    for group in expanded.chunk_by(|a, b| a.0 == b.0) {
        let more = group.iter().map(|&(_, kids)| kids).sum::<usize>();
        if size + more > room {
            return (group[0].0.saturating_add(1), size);
        }
        size += more;
    }
    (0, size)
}

/// Makes a leaf of every node under `root` (its children themselves
/// kept) with fewer than `threshold` visits.
pub(super) fn prune_below(root: &mut Node, threshold: u32) {
    if threshold == 0 {
        return;
    }
    let mut waiting: Vec<&mut Node> = root
        .children
        .get_mut()
        .map_or_else(Vec::new, |kids| kids.iter_mut().collect());
    while let Some(node) = waiting.pop() {
        if node.visits() < threshold {
            node.forget_children();
        } else if let Some(kids) = node.children.get_mut() {
            waiting.extend(kids.iter_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Leaf;
    use tengen_core::{BoardSize, Move};

    fn board() -> BoardSize {
        BoardSize::square(19).unwrap()
    }

    /// A node of the move at column `x` of the first row, visited
    /// `visits` times, over `kids`.
    fn node(x: u32, visits: u32, kids: Vec<Node>) -> Node {
        let n = Node::new(
            Move::Play(board().point(x, 0).unwrap()),
            (0.0, 0.0),
            None,
            Leaf::Open,
        );
        for _ in 0..visits {
            n.enter();
        }
        if !kids.is_empty() {
            n.children.set(kids.into_boxed_slice()).unwrap();
        }
        n
    }

    fn leaves(n: u32) -> Vec<Node> {
        (0..n).map(|x| node(x, 1, vec![])).collect()
    }

    /// The root (100 visits) over a (60), b (10) and c (1); a over a1
    /// (30), a2 (20) and two leaves; a1 and a2 over five leaves each; b
    /// over b1 (40, more than b: the line counts b's 10) and three
    /// leaves, b1 over five. 26 nodes under the root.
    fn tree() -> Node {
        let a = node(
            1,
            60,
            [node(11, 30, leaves(5)), node(12, 20, leaves(5))]
                .into_iter()
                .chain(leaves(2))
                .collect(),
        );
        let b = node(
            2,
            10,
            [node(13, 40, leaves(5))]
                .into_iter()
                .chain(leaves(3))
                .collect(),
        );
        node(0, 100, vec![a, b, node(3, 1, vec![])])
    }

    /// Each node under the root by its column, with its visits and its
    /// number of children.
    fn shape(root: &Node) -> Vec<(u32, u32, usize)> {
        let mut seen = Vec::new();
        let mut waiting = vec![root];
        while let Some(n) = waiting.pop() {
            for k in n.kids() {
                if let Move::Play(p) = k.mv
                    && !k.kids().is_empty()
                {
                    seen.push((board().xy(p).0, k.visits(), k.kids().len()));
                }
                waiting.push(k);
            }
        }
        seen.sort_unstable();
        seen
    }

    #[test]
    fn the_least_visited_nodes_lose_their_children_down_to_the_room() {
        let full = tree();
        assert_eq!(full.size(), 26);
        assert_eq!(threshold(&full, 26), (0, 26));
        // Room for 20: b's line (10 visits) goes, 9 nodes; a's stays, 17.
        // Room for 16: a2 (20) goes too; 12 nodes.
        // Room for 3 or less: only the root's children are left.
        for (room, expected, size, kept) in [
            (20, 11, 17, vec![(1, 60, 4), (11, 30, 5), (12, 20, 5)]),
            (16, 21, 12, vec![(1, 60, 4), (11, 30, 5)]),
            (3, 61, 3, vec![]),
            (0, 61, 3, vec![]),
        ] {
            let mut root = tree();
            assert!(root.kids()[1].claim_network());
            let (t, left) = threshold(&root, room);
            assert_eq!(t, expected, "room {room}");
            prune_below(&mut root, t);
            assert_eq!(root.size(), size, "room {room}");
            assert_eq!(left, size, "room {room}");
            assert_eq!(shape(&root), kept, "room {room}");
            // One visit less would not have been enough.
            let mut again = tree();
            prune_below(&mut again, t - 1);
            assert!(again.size() > room, "room {room}");
            // The root's children and every node's own statistics stay.
            let visits: Vec<u32> = root.kids().iter().map(Node::visits).collect();
            assert_eq!(visits, [60, 10, 1]);
            assert_eq!(root.visits(), 100);
            // A node pruned is asked the network's priors again.
            assert!(root.kids()[1].kids().is_empty());
            assert!(root.kids()[1].claim_network());
        }
    }

    #[test]
    fn a_tree_within_its_room_is_left_whole() {
        let mut root = tree();
        assert_eq!(
            prune_kept(&mut root, 26 * std::mem::size_of::<Node>() * 2),
            26
        );
        assert_eq!(root.size(), 26);
        let mut root = tree();
        let left = prune_kept(&mut root, 16 * std::mem::size_of::<Node>() * 2);
        assert_eq!((left, root.size()), (12, 12));
        // Only a2's line (20 visits) went: a1's (30) stayed.
        assert_eq!(shape(&root), [(1, 60, 4), (11, 30, 5)]);
    }
}
