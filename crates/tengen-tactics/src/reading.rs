//! General tactical reading: can a chain be captured, can it be saved, and
//! nets (geta, filet).
//!
//! An and-or search over small sets of candidate moves, as tactical readers
//! in Go programs do (GNU Go's `attack`/`find_defense` are the model):
//!
//! - the attacker tries the chain's liberties and, within
//!   [`Limits::full_depth`], the empty points next to them when the chain
//!   has two liberties (that is where a net stone goes) and the liberties of
//!   its own chains in atari next to the target (saving a cutting stone);
//! - the defender tries capturing an attacking chain in atari next to it,
//!   running at its liberties and, within the full depth, ataris on the
//!   attacking chains next to it or next to its liberties;
//! - a chain with [`Limits::safe_liberties`] liberties or more is safe; a
//!   chain that has none left is captured. Beyond the full depth only ataris
//!   are followed, so ladders inside a net are read to the end.
//!
//! The defender may also pass when it has two liberties or more: if the
//! attacker cannot capture even with two moves in a row, nothing needs
//! defending. The simple-ko rule of the fast board applies; a capture only
//! possible through a ko counts as not possible (this reader does not
//! distinguish ko results).

use crate::reader::{Limits, Reader, Tri};
use crate::util::{PointSet, empty_neighbours, legal, liberty_list, within};
use tengen_core::{Board, Color, Point};

/// What an attack reading found (the attacker moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attack {
    /// Playing `first` captures the chain whatever the defender does.
    Captures {
        /// The attacker's first move.
        first: Point,
    },
    /// No attack works within the bounds: the chain lives tactically.
    Fails,
    /// The bounds stopped the reading before an answer.
    Unknown,
}

/// What a defence reading found (the defender moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defence {
    /// The chain lives: by playing `first`, or with no move at all when
    /// `first` is `None` (no attack works even if the defender passes).
    Saved {
        /// The defender's first move, if one is needed.
        first: Option<Point>,
    },
    /// Whatever the defender plays, the chain is captured.
    Fails,
    /// The bounds stopped the reading before an answer.
    Unknown,
}

/// A net (geta): after `color` plays the move, the opposing chain at `chain`
/// still has two liberties or more, yet cannot escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Net {
    /// A stone of the chain caught in the net.
    pub chain: Point,
    /// Its number of stones.
    pub stones: u32,
    /// Its liberties after the net move.
    pub liberties: u32,
}

/// Whether the chain at `chain` can be captured, the attacker (the other
/// colour) moving first, with the default bounds ([`Limits::TACTICAL`]).
/// An empty point gives [`Attack::Fails`].
pub fn attack(board: &Board, chain: Point) -> Attack {
    Reader::new(Limits::TACTICAL).attack(board, chain)
}

/// Whether the chain at `chain` can be saved, its owner moving first, with
/// the default bounds. An empty point gives [`Defence::Fails`].
pub fn defend(board: &Board, chain: Point) -> Defence {
    Reader::new(Limits::TACTICAL).defend(board, chain)
}

/// Whether `color` playing at `m` nets an opposing chain: after the move the
/// chain is not in atari (at least two liberties) but every defence fails
/// within the bounds, while before the move, with its owner to play, it
/// could have been saved (so the move is what catches it). Returns the
/// largest chain caught. An illegal move gives `None`.
pub fn net(board: &Board, m: Point, color: Color) -> Option<Net> {
    Reader::new(Limits::TACTICAL).net(board, m, color)
}

impl Reader {
    /// Whether the chain at `chain` can be captured; see [`attack`].
    pub fn attack(&mut self, board: &Board, chain: Point) -> Attack {
        let Some(defender) = board.get(chain) else {
            return Attack::Fails;
        };
        self.start(board);
        match self.attack_node(0, chain, defender) {
            (Tri::Win, Some(m)) => Attack::Captures { first: m },
            (Tri::Unknown, _) => Attack::Unknown,
            _ => Attack::Fails,
        }
    }

    /// Whether the chain at `chain` can be saved; see [`defend`].
    pub fn defend(&mut self, board: &Board, chain: Point) -> Defence {
        let Some(defender) = board.get(chain) else {
            return Defence::Fails;
        };
        self.start(board);
        match self.defend_node(0, chain, defender) {
            (Tri::Win, first) => Defence::Saved { first },
            (Tri::Loss, _) => Defence::Fails,
            (Tri::Unknown, _) => Defence::Unknown,
        }
    }

    /// Whether `color` at `m` is a net; see [`net`].
    pub fn net(&mut self, board: &Board, m: Point, color: Color) -> Option<Net> {
        if !legal(board, m, color) {
            return None;
        }
        let mut after = board.clone();
        after.play_unchecked(m, color);
        let size = board.size();
        let them = color.opponent();
        // Opposing chains near the move, largest first.
        let mut ids = PointSet::new();
        let mut targets: Vec<Point> = Vec::new();
        for q in within(size, m, 3) {
            if after.get(q) == Some(them)
                && let Some(id) = after.chain_id(q)
                && ids.insert(id)
            {
                targets.push(q);
            }
        }
        targets.sort_by_key(|&t| std::cmp::Reverse(after.chain_len(t)));
        for t in targets {
            let libs = after.liberties(t);
            if libs < 2 || libs >= self.limits.safe_liberties {
                continue;
            }
            if self.defend(&after, t) != Defence::Fails {
                continue;
            }
            // Before the move, with its owner to play, could it live?
            if !matches!(self.defend(board, t), Defence::Saved { .. }) {
                continue;
            }
            return Some(Net {
                chain: t,
                stones: after.chain_len(t),
                liberties: libs,
            });
        }
        None
    }

    /// Attacker to move at depth `d`: `Win` with the capturing first move.
    fn attack_node(&mut self, d: usize, target: Point, defender: Color) -> (Tri, Option<Point>) {
        let attacker = defender.opponent();
        let b = self.at(d);
        if b.get(target) != Some(defender) {
            return (Tri::Win, None);
        }
        let libs = b.liberties(target);
        if libs >= self.limits.safe_liberties {
            return (Tri::Loss, None);
        }
        if libs == 1 {
            return match b.last_liberty(target) {
                Some(l) if legal(b, l, attacker) => (Tri::Win, Some(l)),
                _ => (Tri::Loss, None),
            };
        }
        if d as u32 >= self.limits.max_depth {
            return (Tri::Unknown, None);
        }
        let full = (d as u32) < self.limits.full_depth;
        let candidates = attack_candidates(b, target, libs, full);
        let mut unknown = false;
        for m in candidates {
            if !legal(self.at(d), m, attacker) {
                continue;
            }
            let Some(c) = self.play_child(d, m, attacker) else {
                return (Tri::Unknown, None);
            };
            let after = self.at(c);
            if after.get(target) != Some(defender) {
                return (Tri::Win, Some(m));
            }
            let nl = after.liberties(target);
            if nl >= self.limits.safe_liberties || (!full && nl >= 2) {
                continue;
            }
            match self.defend_node(c, target, defender).0 {
                Tri::Loss => return (Tri::Win, Some(m)),
                Tri::Unknown => unknown = true,
                Tri::Win => {}
            }
        }
        (if unknown { Tri::Unknown } else { Tri::Loss }, None)
    }

    /// Defender to move at depth `d`: `Win` with the saving move (`None`
    /// when passing is enough).
    fn defend_node(&mut self, d: usize, target: Point, defender: Color) -> (Tri, Option<Point>) {
        let b = self.at(d);
        if b.get(target) != Some(defender) {
            return (Tri::Loss, None);
        }
        let libs = b.liberties(target);
        if libs >= self.limits.safe_liberties {
            return (Tri::Win, None);
        }
        if d as u32 >= self.limits.max_depth {
            return (Tri::Unknown, None);
        }
        let full = (d as u32) < self.limits.full_depth;
        let mut unknown = false;
        if libs >= 2 {
            // Is there a threat at all? Let the attacker move twice.
            let Some(c) = self.pass_child(d) else {
                return (Tri::Unknown, None);
            };
            match self.attack_node(c, target, defender).0 {
                Tri::Loss => return (Tri::Win, None),
                Tri::Unknown => unknown = true,
                Tri::Win => {}
            }
        }
        let candidates = defence_candidates(self.at(d), target, libs, full);
        for m in candidates {
            if !legal(self.at(d), m, defender) {
                continue;
            }
            let Some(c) = self.play_child(d, m, defender) else {
                return (Tri::Unknown, None);
            };
            if self.at(c).liberties(target) >= self.limits.safe_liberties {
                return (Tri::Win, Some(m));
            }
            match self.attack_node(c, target, defender).0 {
                Tri::Loss => return (Tri::Win, Some(m)),
                Tri::Unknown => unknown = true,
                Tri::Win => {}
            }
        }
        (if unknown { Tri::Unknown } else { Tri::Loss }, None)
    }
}

/// Pushes `p` when new.
fn push(out: &mut Vec<Point>, p: Point) {
    if !out.contains(&p) {
        out.push(p);
    }
}

/// The attacker's candidates against a chain with `libs` liberties (two or
/// more): its liberties, the one with most empty neighbours first (taking
/// the defender's best way out), then within the full depth the points next
/// to the liberties (net moves) and the liberties of the attacker's own
/// chains in atari that touch the target.
fn attack_candidates(board: &Board, target: Point, libs: u32, full: bool) -> Vec<Point> {
    let defender = board.get(target);
    let mut lib_list = liberty_list(board, target);
    lib_list.sort_by_key(|&l| std::cmp::Reverse(empty_neighbours(board, l)));
    let mut out = Vec::with_capacity(12);
    for &l in &lib_list {
        push(&mut out, l);
    }
    if full {
        if libs == 2 {
            for &l in &lib_list {
                for q in board.neighbours(l) {
                    if board.is_empty(q) {
                        push(&mut out, q);
                    }
                }
            }
        }
        if let Some(def) = defender {
            for s in board.chain(target) {
                for q in board.neighbours(s) {
                    if board.get(q) == Some(def.opponent())
                        && let Some(l) = board.last_liberty(q)
                    {
                        push(&mut out, l);
                    }
                }
            }
        }
    }
    out
}

/// The defender's candidates: captures of attacking chains in atari next to
/// the target, its liberties (most empty neighbours first), then within the
/// full depth the liberties of attacking chains with two liberties that
/// touch the target or its liberties (counter-ataris).
fn defence_candidates(board: &Board, target: Point, libs: u32, full: bool) -> Vec<Point> {
    let Some(defender) = board.get(target) else {
        return Vec::new();
    };
    let attacker = defender.opponent();
    let mut out = Vec::with_capacity(12);
    let mut seen = PointSet::new();
    let mut weak: Vec<Point> = Vec::new();
    for s in board.chain(target) {
        for q in board.neighbours(s) {
            if board.get(q) == Some(attacker)
                && let Some(id) = board.chain_id(q)
                && seen.insert(id)
            {
                weak.push(q);
            }
        }
    }
    let mut lib_list = liberty_list(board, target);
    lib_list.sort_by_key(|&l| std::cmp::Reverse(empty_neighbours(board, l)));
    if full && libs >= 2 {
        for &l in &lib_list {
            for q in board.neighbours(l) {
                if board.get(q) == Some(attacker)
                    && let Some(id) = board.chain_id(q)
                    && seen.insert(id)
                {
                    weak.push(q);
                }
            }
        }
    }
    for &w in &weak {
        if let Some(l) = board.last_liberty(w) {
            push(&mut out, l);
        }
    }
    for &l in &lib_list {
        push(&mut out, l);
    }
    if full {
        for &w in &weak {
            if board.liberties(w) == 2 {
                for l in liberty_list(board, w) {
                    push(&mut out, l);
                }
            }
        }
        // Second-order liberties: running wider against a net.
        if libs >= 2 {
            for &l in &lib_list {
                for q in board.neighbours(l) {
                    if board.is_empty(q) {
                        push(&mut out, q);
                    }
                }
            }
        }
    }
    out
}
