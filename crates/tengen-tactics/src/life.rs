//! Life and death of an enclosed group (tsumego, *vie et mort*): can the
//! side to move kill the group, or make it live?
//!
//! The group is the defender's chains around one small enclosed space: the
//! empty points reachable from the target chain's liberties without
//! crossing a stone, with every defender chain that touches them, at most
//! [`MAX_SPACE`] empty points. A larger space, or one that runs into the
//! open board, is [`LifeAndDeath::Open`]: the group can run or make
//! territory, which local reading does not judge. The attacker's chains
//! around the space are its *wall*, those inside it (all their liberties
//! in the space) are inner stones the fight may capture.
//!
//! An and-or search over the space's points, the group's and the inner
//! stones' points once captured, and the liberties of wall chains short of
//! liberties (and of defender stones that attack them). A line ends when:
//! - the target chain is captured: the attacker has killed;
//! - the target chain is unconditionally alive (Benson's algorithm, 1976:
//!   it and the chains it needs each have two regions all of whose empty
//!   points are their liberties), or a wall chain is captured (the group
//!   breaks out): the defender has lived;
//! - the attacker has no move left: the group lives (two eyes, or a seki);
//! - a position comes back (a ko): the side that moved first fails, since
//!   only an unconditional result counts; a kill that needs a ko is not a
//!   kill here, nor life that needs one.
//!
//! The defender may pass (leave the group, *tenuki*) at any move; the
//! attacker never needs to, as the defender would pass back and keep the
//! group as it is. Positions already read are remembered (the board's hash,
//! its ko point and the side to move), except results that met a repeated
//! position, which depend on the line. Bounded by [`Limits::LIFE`].
//!
//! Left out: bent four in the corner and other results that rules, not
//! reading, decide; the defender's ataris on a wall chain of two liberties
//! (it may only capture a wall chain already in atari, while the attacker
//! may defend its chains of two liberties: reading both makes the search
//! too wide for its bounds), and wall chains of more liberties (taken as
//! solid); ko results (unknown here, the side to move fails). So Cho
//! Chikun's elementary problem 747 (kill at E17, where White's atari on
//! the corner stone A18 must be read) is not solved.

use crate::reader::{Limits, Reader, Tri};
use crate::util::{PointSet, legal};
use std::collections::HashMap;
use tengen_core::{Board, Color, Point};

/// The most empty points of a space the reader reads.
pub const MAX_SPACE: usize = 12;

/// The defender attacks wall chains of at most this many liberties, the
/// attacker defends those of at most `WALL_LIBS + 1` (their liberties are
/// candidate moves). Letting the defender atari walls of two liberties as
/// well made the search too wide for its bounds on real problems.
const WALL_LIBS: u32 = 1;

/// Regions larger than this are never counted as vital by Benson's test
/// (their empty points are not all liberties of one chain in practice);
/// the test then proves less, never more.
const MAX_REGION: usize = 24;

/// Defender chains the Benson test follows from the target before giving up.
const MAX_CHAINS: usize = 12;

/// What a life-and-death reading found, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifeAndDeath {
    /// The side to move reaches its goal (the attacker kills, the defender
    /// lives) by playing `first`; `None` when it needs no move at all.
    Succeeds {
        /// The first move, if one is needed.
        first: Option<Point>,
    },
    /// Whatever the side to move plays, the other side reaches its goal.
    Fails,
    /// The bounds stopped the reading before an answer.
    Unknown,
    /// The group's space is open or larger than [`MAX_SPACE`]: not read.
    Open,
}

/// Whether the group of the stone at `stone` can be killed, its opponent
/// moving first, with the default bounds ([`Limits::LIFE`]).
pub fn kill(board: &Board, stone: Point) -> LifeAndDeath {
    match board.get(stone) {
        Some(c) => Reader::new(Limits::LIFE).life_and_death(board, stone, c.opponent()),
        None => LifeAndDeath::Open,
    }
}

/// Whether the group of the stone at `stone` can live, its owner moving
/// first, with the default bounds.
pub fn live(board: &Board, stone: Point) -> LifeAndDeath {
    match board.get(stone) {
        Some(c) => Reader::new(Limits::LIFE).life_and_death(board, stone, c),
        None => LifeAndDeath::Open,
    }
}

/// A move that decides the life of a group: the side to move kills an
/// opposing group, or saves its own, that the other side, moving first,
/// would save or kill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VitalMove {
    /// The move.
    pub point: Point,
    /// A stone of the group (its largest chain).
    pub group: Point,
    /// The group's stones.
    pub stones: u32,
    /// Whether the move kills (an opposing group) or lives (an own one).
    pub kills: bool,
}

/// Every move that decides the life of an enclosed group, for `color` to
/// play, the largest group first: the groups read are those whose space
/// is at most [`MAX_SPACE`] empty points; a group dead or alive whoever
/// moves first asks for nothing.
pub fn vital_moves(board: &Board, color: Color) -> Vec<VitalMove> {
    let mut reader = Reader::new(Limits::LIFE);
    let mut out: Vec<VitalMove> = Vec::new();
    let mut done = PointSet::new();
    for p in board.size().points() {
        let Some(owner) = board.get(p) else { continue };
        if board.chain_id(p).is_none_or(|id| !done.insert(id)) {
            continue;
        }
        let Some(space) = Space::around(board, p) else {
            continue;
        };
        // One reading per group, from its largest chain.
        for &g in &space.group {
            if let Some(id) = board.chain_id(g) {
                done.insert(id);
            }
        }
        let Some(&target) = space.group.iter().max_by_key(|&&g| board.chain_len(g)) else {
            continue;
        };
        let stones = space.group.iter().map(|&g| board.chain_len(g)).sum();
        let kills = owner != color;
        let ours = reader.read_space(board, &space, target, color);
        let theirs = reader.read_space(board, &space, target, color.opponent());
        if let (LifeAndDeath::Succeeds { first: Some(m) }, LifeAndDeath::Succeeds { .. }) =
            (ours, theirs)
            && !out.iter().any(|v| v.point == m)
        {
            out.push(VitalMove {
                point: m,
                group: target,
                stones,
                kills,
            });
        }
    }
    out.sort_by_key(|v| std::cmp::Reverse(v.stones));
    out
}

/// The space of a group and the points its fight is read on.
struct Space {
    /// One stone of each defender chain of the group.
    group: Vec<Point>,
    /// Points a move may go: the space's empty points, the group's and the
    /// inner stones' points (empty once captured).
    zone: Vec<Point>,
    /// One stone of each attacker chain of the wall.
    wall: Vec<Point>,
    defender: Color,
}

impl Space {
    /// The space around the group of the stone at `stone`, or `None` when
    /// it is open or larger than [`MAX_SPACE`].
    fn around(board: &Board, stone: Point) -> Option<Space> {
        let defender = board.get(stone)?;
        let attacker = defender.opponent();
        let mut chains = PointSet::new();
        let mut group = vec![stone];
        chains.insert(board.chain_id(stone)?);
        let mut seen = PointSet::new();
        let mut empties: Vec<Point> = Vec::new();
        let mut zone: Vec<Point> = Vec::new();
        let mut others: Vec<Point> = Vec::new();
        let mut gi = 0;
        let mut ei = 0;
        while gi < group.len() || ei < empties.len() {
            // Each new chain: its stones, and its liberties into the space.
            let around: Vec<Point> = if gi < group.len() {
                let g = group[gi];
                gi += 1;
                let stones: Vec<Point> = board.chain(g).collect();
                zone.extend(&stones);
                stones
            } else {
                let e = empties[ei];
                ei += 1;
                vec![e]
            };
            for s in around {
                for n in board.neighbours(s) {
                    if !seen.insert(n) {
                        continue;
                    }
                    match board.get(n) {
                        None => {
                            empties.push(n);
                            zone.push(n);
                            if empties.len() > MAX_SPACE {
                                return None;
                            }
                        }
                        Some(c) if c == defender => {
                            if let Some(id) = board.chain_id(n)
                                && chains.insert(id)
                            {
                                group.push(n);
                            }
                        }
                        Some(_) => others.push(n),
                    }
                }
            }
        }
        let in_space = |p: Point| empties.contains(&p);
        let mut wall = Vec::new();
        let mut walled = PointSet::new();
        for o in others {
            let Some(id) = board.chain_id(o) else {
                continue;
            };
            if !walled.insert(id) {
                continue;
            }
            // Inner when every liberty is in the space.
            let inner = board
                .chain(o)
                .flat_map(|s| board.neighbours(s))
                .all(|q| board.get(q).is_some() || in_space(q));
            if inner {
                zone.extend(board.chain(o));
            } else {
                wall.push(o);
            }
        }
        debug_assert!(wall.iter().all(|&w| board.get(w) == Some(attacker)));
        Some(Space {
            group,
            zone,
            wall,
            defender,
        })
    }
}

/// One life-and-death search: the space, who moved first, what is known.
struct Search<'s> {
    space: &'s Space,
    target: Point,
    first: Color,
    known: HashMap<(u64, bool), Tri>,
}

impl Reader {
    /// Whether `to_move` reaches its goal for the group of the stone at
    /// `stone` (kills it when it is the opponent's, lives when it is its
    /// own); see [`kill`] and [`live`].
    pub fn life_and_death(&mut self, board: &Board, stone: Point, to_move: Color) -> LifeAndDeath {
        match Space::around(board, stone) {
            Some(space) => self.read_space(board, &space, stone, to_move),
            None => LifeAndDeath::Open,
        }
    }

    fn read_space(
        &mut self,
        board: &Board,
        space: &Space,
        target: Point,
        to_move: Color,
    ) -> LifeAndDeath {
        self.start(board);
        let mut search = Search {
            space,
            target,
            first: to_move,
            known: HashMap::new(),
        };
        match self.life_node(0, 0, to_move, &mut search) {
            (Tri::Win, first) => LifeAndDeath::Succeeds { first },
            (Tri::Loss, _) => LifeAndDeath::Fails,
            (Tri::Unknown, _) => LifeAndDeath::Unknown,
        }
    }

    /// `to_move` at pool index `slot`, ply `depth`: its result, with its
    /// move (`None`: a pass, or the goal already reached).
    fn life_node(
        &mut self,
        slot: usize,
        depth: usize,
        to_move: Color,
        s: &mut Search<'_>,
    ) -> (Tri, Option<Point>) {
        let defender = s.space.defender;
        let defending = to_move == defender;
        let won = |defender_wins: bool| {
            if defender_wins == defending {
                Tri::Win
            } else {
                Tri::Loss
            }
        };
        let b = self.at(slot);
        if b.get(s.target) != Some(defender) {
            return (won(false), None);
        }
        if s.space
            .wall
            .iter()
            .any(|&w| b.get(w) != Some(defender.opponent()))
            || pass_alive(b, s.target)
        {
            return (won(true), None);
        }
        let key = (self.position_key(slot), defending);
        if let Some(&r) = s.known.get(&key) {
            return (r, None);
        }
        let repeats = self.repeats;
        // A position come back: the side that moved first fails.
        let repeated = if to_move == s.first {
            Tri::Loss
        } else {
            Tri::Win
        };
        let mut best = None;
        // Tries `to_move`'s moves (the defender's pass last).
        let r = self.on_line(slot, depth, repeated, |r| {
            // `None` is the pass, tried by the defender only.
            let pass = (to_move == s.space.defender).then_some(None);
            let moves = candidates(r.at(slot), s.space, to_move);
            let mut unknown = false;
            for m in moves.into_iter().map(Some).chain(pass) {
                let child = match m {
                    Some(p) => r.play_child(slot, p, to_move),
                    None => r.pass_child(slot),
                };
                let Some(c) = child else {
                    return Tri::Unknown;
                };
                match r.life_node(c, depth + 1, to_move.opponent(), s).0 {
                    Tri::Loss => {
                        best = m;
                        return Tri::Win;
                    }
                    Tri::Unknown => unknown = true,
                    Tri::Win => {}
                }
            }
            if unknown { Tri::Unknown } else { Tri::Loss }
        });
        if r != Tri::Unknown && self.repeats == repeats {
            s.known.insert(key, r);
        }
        (r, best)
    }
}

/// `color`'s legal moves in the fight: the zone's empty points, most empty
/// neighbours first (the middle of an eye space), then the liberties of
/// wall chains short of liberties (in atari for the defender, at two
/// liberties or fewer for the attacker; see the module docs) and of the
/// defender chains at two liberties or fewer that touch them.
fn candidates(board: &Board, space: &Space, color: Color) -> Vec<Point> {
    let mut seen = PointSet::new();
    let mut out: Vec<(usize, Point)> = Vec::new();
    let mut add = |p: Point, out: &mut Vec<(usize, Point)>| {
        if seen.insert(p) && legal(board, p, color) {
            let open = board.neighbours(p).filter(|&q| board.is_empty(q)).count();
            out.push((open, p));
        }
    };
    for &p in &space.zone {
        if board.is_empty(p) {
            add(p, &mut out);
        }
    }
    out.sort_by_key(|&(open, _)| std::cmp::Reverse(open));
    let wall_libs = if color == space.defender {
        WALL_LIBS
    } else {
        WALL_LIBS + 1
    };
    for &w in &space.wall {
        if board.get(w).is_none() || board.liberties(w) > wall_libs {
            continue;
        }
        let (libs, n) = board.liberties_up_to::<2>(w);
        for &l in &libs[..n] {
            add(l, &mut out);
        }
        for st in board.chain(w) {
            for q in board.neighbours(st) {
                if board.get(q) == Some(space.defender) && board.liberties(q) <= 2 {
                    let (libs, n) = board.liberties_up_to::<2>(q);
                    for &l in &libs[..n] {
                        add(l, &mut out);
                    }
                }
            }
        }
    }
    out.into_iter().map(|(_, p)| p).collect()
}

/// A region of Benson's test: connected points without a stone of the
/// tested colour.
struct Region {
    empties: Vec<Point>,
    /// Its size is at most [`MAX_REGION`].
    small: bool,
    /// The chains of the tested colour around it (their ids).
    chains: Vec<Point>,
}

/// Whether the chain at `target` is unconditionally alive: alive even if
/// its owner never plays again (Benson's algorithm over the chains reached
/// from it through small regions; see the module docs).
pub fn pass_alive(board: &Board, target: Point) -> bool {
    let Some(color) = board.get(target) else {
        return false;
    };
    let Some(first) = board.chain_id(target) else {
        return false;
    };
    let mut chains = vec![first];
    let mut regions: Vec<Region> = Vec::new();
    let mut in_region = PointSet::new();
    let mut i = 0;
    while i < chains.len() {
        if chains.len() > MAX_CHAINS {
            return false;
        }
        let c = chains[i];
        i += 1;
        let around: Vec<Point> = board
            .chain(c)
            .flat_map(|s| board.neighbours(s))
            .filter(|&n| board.get(n) != Some(color))
            .collect();
        for n in around {
            if in_region.contains(n) {
                continue;
            }
            let region = flood(board, n, color, &mut in_region);
            if region.small {
                for &id in &region.chains {
                    if !chains.contains(&id) {
                        chains.push(id);
                    }
                }
            }
            regions.push(region);
        }
    }
    let mut alive = vec![true; chains.len()];
    let mut vital_region: Vec<bool> = regions.iter().map(|r| r.small).collect();
    loop {
        let mut changed = false;
        for (ci, &c) in chains.iter().enumerate() {
            if !alive[ci] {
                continue;
            }
            let vital = regions
                .iter()
                .zip(&vital_region)
                .filter(|&(r, &v)| {
                    v && r.chains.contains(&c)
                        && r.empties
                            .iter()
                            .all(|&e| board.neighbours(e).any(|q| board.chain_id(q) == Some(c)))
                })
                .take(2)
                .count();
            if vital < 2 {
                alive[ci] = false;
                changed = true;
            }
        }
        for (r, v) in regions.iter().zip(vital_region.iter_mut()) {
            if *v
                && r.chains.iter().any(|id| {
                    chains
                        .iter()
                        .position(|c| c == id)
                        .is_none_or(|k| !alive[k])
                })
            {
                *v = false;
                changed = true;
            }
        }
        if !changed {
            return alive[0];
        }
    }
}

/// The region of points without a `color` stone containing `start`, marked
/// in `in_region`. A large region is never vital, so its walk stops past
/// [`MAX_REGION`] points (the open board would otherwise be walked at every
/// node of a reading) and it is left empty; a later walk that meets one of
/// its marked points is part of it, and stops there too.
fn flood(board: &Board, start: Point, color: Color, in_region: &mut PointSet) -> Region {
    let mut own = PointSet::new();
    own.insert(start);
    let mut points = vec![start];
    let mut chains: Vec<Point> = Vec::new();
    let mut i = 0;
    let mut large = false;
    'walk: while i < points.len() {
        let p = points[i];
        i += 1;
        for n in board.neighbours(p) {
            if board.get(n) == Some(color) {
                if let Some(id) = board.chain_id(n)
                    && !chains.contains(&id)
                {
                    chains.push(id);
                }
            } else if own.insert(n) {
                if in_region.contains(n) || points.len() >= MAX_REGION {
                    large = true;
                    break 'walk;
                }
                points.push(n);
            }
        }
    }
    for &p in &points {
        in_region.insert(p);
    }
    if large {
        return Region {
            empties: Vec::new(),
            small: false,
            chains: Vec::new(),
        };
    }
    Region {
        small: true,
        empties: points.into_iter().filter(|&p| board.is_empty(p)).collect(),
        chains,
    }
}
