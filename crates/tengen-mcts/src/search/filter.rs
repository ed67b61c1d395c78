//! The avoid/allow restrictions of analysis tools (GTP `avoid` and
//! `allow`, as Leela Zero and KataGo read them): what a caller asks
//! ([`Restrictions`]) and the masks the tree tests its children against
//! ([`Filter`]). Only the tree obeys them; the playouts do not.
//!
//! Left out: restrictions on the playouts, and any reason for them (the
//! caller's business).

use tengen_core::{Color, Move};

/// Whether a clause names the moves to leave out or the only moves to
/// consider (GTP `avoid` and `allow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RestrictionKind {
    /// The named moves are never chosen.
    Avoid,
    /// Only the named moves (and a pass) are chosen.
    Allow,
}

/// One `avoid`/`allow` clause: moves of `color` the tree may not choose
/// down to `until_depth` (1: the root's moves only, 2: also the replies to
/// them, and so on).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Restriction {
    /// Avoid the moves, or allow only them.
    pub kind: RestrictionKind,
    /// The player whose moves are restricted.
    pub color: Color,
    /// The moves named; a pass is restricted only when named here.
    pub moves: Vec<Move>,
    /// The deepest tree level the clause holds at (the root's moves are at 1).
    pub until_depth: u32,
}

/// Moves the tree may not choose, for analysis tools that ask for other
/// lines. Only the tree obeys them (playouts do not), as in Leela Zero
/// and KataGo: a forbidden move is never descended into, reported or
/// chosen. The default restricts nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Restrictions {
    /// The clauses; a move is forbidden when any avoid clause in force
    /// names it, or when an allow clause is in force and none names it.
    pub clauses: Vec<Restriction>,
}

impl Restrictions {
    /// No restriction.
    pub const NONE: Restrictions = Restrictions {
        clauses: Vec::new(),
    };

    /// Whether nothing is restricted.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }
}

/// [`Restrictions`] ready for the tree: one point mask per clause, so that
/// testing a child costs a lookup per clause in force.
#[derive(Debug)]
pub(super) struct Filter {
    bans: Vec<Ban>,
    /// The deepest level any clause holds at (0: none).
    until: u32,
}

/// One clause as a mask.
#[derive(Debug)]
struct Ban {
    kind: RestrictionKind,
    color: Color,
    until: u32,
    /// Indexed by [`Point::index`]; points past its end are not named.
    points: Vec<bool>,
    pass: bool,
}

impl Filter {
    pub(super) fn new(restrictions: &Restrictions) -> Filter {
        let bans: Vec<Ban> = restrictions
            .clauses
            .iter()
            .map(|c| {
                let cells = c
                    .moves
                    .iter()
                    .filter_map(|m| match m {
                        Move::Play(p) => Some(p.index() + 1),
                        Move::Pass => None,
                    })
                    .max()
                    .unwrap_or(0);
                let mut points = vec![false; cells];
                for m in &c.moves {
                    if let Move::Play(p) = m
                        && let Some(slot) = points.get_mut(p.index())
                    {
                        *slot = true;
                    }
                }
                Ban {
                    kind: c.kind,
                    color: c.color,
                    until: c.until_depth,
                    points,
                    pass: c.moves.contains(&Move::Pass),
                }
            })
            .collect();
        let until = bans.iter().map(|b| b.until).max().unwrap_or(0);
        Filter { bans, until }
    }

    /// Whether any clause holds at `depth`.
    #[inline]
    pub(super) fn active(&self, depth: u32) -> bool {
        depth <= self.until
    }

    /// Whether `color` may not play `mv` at `depth` of the tree.
    pub(super) fn forbids(&self, color: Color, mv: Move, depth: u32) -> bool {
        if !self.active(depth) {
            return false;
        }
        let named = |b: &Ban| match mv {
            Move::Pass => b.pass,
            Move::Play(p) => b.points.get(p.index()).copied().unwrap_or(false),
        };
        let live = || {
            self.bans
                .iter()
                .filter(move |b| b.color == color && depth <= b.until)
        };
        if live().any(|b| b.kind == RestrictionKind::Avoid && named(b)) {
            return true;
        }
        let mut allows = live()
            .filter(|b| b.kind == RestrictionKind::Allow)
            .peekable();
        mv != Move::Pass && allows.peek().is_some() && !allows.any(named)
    }
}
