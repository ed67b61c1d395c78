//! The search machinery every reader shares: the bounds, and a pool of
//! boards indexed by depth.
//!
//! Reading is clone-and-play: a node copies its parent's board (one
//! `memcpy`, no allocation once the pool has grown) and plays one stone on
//! the copy, so no move is ever undone; the ladder reader plays a node's
//! last option on the node's own board, which nobody needs afterwards. The boards live in a `Vec` owned by
//! the [`Reader`], not on the call stack, so a 300-ply ladder costs a few
//! hundred bytes of stack per ply, never a board per ply. Every search is
//! bounded twice: by [`Limits::max_depth`] (plies of one line) and by
//! [`Limits::max_nodes`] (stones played in the whole search); a search that
//! reaches either bound answers "unknown" instead of guessing.

use tengen_core::{Board, Point};

/// The bounds of one search.
///
/// The defaults suit the lexicon and the engine: they answer every ladder
/// of a real game (and the 150-move curiosities of the test tables) in well
/// under a millisecond, and a net or capture question within a few thousand
/// nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Stones played in the whole search before it answers "unknown".
    pub max_nodes: u32,
    /// Plies of the longest line before it answers "unknown". Ladders need
    /// this to be long (a ladder across a 19x19 board is about 70 plies).
    pub max_depth: u32,
    /// Plies within which the general reader tries every candidate (net
    /// moves, counter-ataris); deeper, it only follows ataris, as in a ladder.
    pub full_depth: u32,
    /// Liberties at which the general reader counts a chain as safe. Four
    /// by default: a chain that reaches three liberties can still be netted
    /// (on Lee Changho's net problems, counting three as safe recognises
    /// half as many nets). Three reads faster and shallower.
    pub safe_liberties: u32,
}

impl Limits {
    /// Bounds for ladder reading: long lines, few branches.
    pub const LADDER: Limits = Limits {
        max_nodes: 20_000,
        max_depth: 600,
        full_depth: 0,
        safe_liberties: 3,
    };

    /// Bounds for the general reader (nets, snapback captures, the attack
    /// and defence questions).
    pub const TACTICAL: Limits = Limits {
        max_nodes: 10_000,
        max_depth: 120,
        full_depth: 7,
        safe_liberties: 4,
    };
}

impl Limits {
    /// Bounds for life and death ([`crate::life`]): a small space read to
    /// the end, every move of it tried at every ply.
    pub const LIFE: Limits = Limits {
        max_nodes: 20_000,
        max_depth: 40,
        full_depth: 40,
        safe_liberties: 0,
    };

    /// Quick bounds for the checks inside other judgements (a throw-in, a
    /// shortage of liberties): three liberties count as safe, few nodes.
    pub const QUICK: Limits = Limits {
        max_nodes: 4_000,
        safe_liberties: 3,
        ..Limits::TACTICAL
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::TACTICAL
    }
}

/// A three-valued answer from the point of view of the side to move at a
/// node: it wins, it loses, or the bounds stopped the search first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tri {
    Win,
    Loss,
    Unknown,
}

impl Tri {
    /// The same answer from the other side's point of view.
    #[inline]
    pub(crate) fn flip(self) -> Tri {
        match self {
            Tri::Win => Tri::Loss,
            Tri::Loss => Tri::Win,
            Tri::Unknown => Tri::Unknown,
        }
    }
}

/// A reusable searcher: the pool of boards and the node count. Keep one
/// per thread and call its methods many times to avoid growing the pool for
/// every question; the free functions of this crate make a fresh one.
#[derive(Clone, Debug)]
pub struct Reader {
    pub(crate) pool: Vec<Board>,
    pub(crate) limits: Limits,
    pub(crate) nodes: u32,
    /// Points played during the last search, in the order first played
    /// (kept only when `tracing`, for the ladder-breaker search).
    pub(crate) trace: Vec<Point>,
    pub(crate) tracing: bool,
    traced: crate::util::PointSet,
    /// The deepest ply reached by the last search.
    pub(crate) deepest: u32,
    /// Hashes of the positions on the line being read (for the cycle
    /// check: kos can repeat a position).
    pub(crate) line: Vec<u64>,
    /// Positions found repeated on their line by the last search.
    pub(crate) repeats: u32,
}

impl Reader {
    /// A reader with these bounds.
    pub fn new(limits: Limits) -> Reader {
        Reader {
            pool: Vec::new(),
            limits,
            nodes: 0,
            trace: Vec::new(),
            tracing: false,
            traced: crate::util::PointSet::new(),
            deepest: 0,
            line: Vec::new(),
            repeats: 0,
        }
    }

    /// The bounds in use.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Changes the bounds for the next searches.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Stones played by the last search (what the node bound counts).
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Starts a search from `board`: resets the counters and puts a copy of
    /// the board at depth 0.
    pub(crate) fn start(&mut self, board: &Board) {
        self.nodes = 0;
        self.deepest = 0;
        self.line.clear();
        self.repeats = 0;
        self.trace.clear();
        self.traced = crate::util::PointSet::new();
        if self.pool.is_empty() {
            self.pool.push(board.clone());
        } else {
            self.pool[0].clone_from(board);
        }
    }

    /// Copies the board at depth `d` to depth `d + 1` and plays `p` for
    /// `color` there. `None` when the node bound is spent. The caller has
    /// checked that the play is legal.
    pub(crate) fn play_child(
        &mut self,
        d: usize,
        p: Point,
        color: tengen_core::Color,
    ) -> Option<usize> {
        let c = self.copy_down(d)?;
        self.pool[c].play_unchecked(p, color);
        self.record(p);
        self.deepest = self.deepest.max(c as u32);
        Some(c)
    }

    /// Plays `p` for `color` on the board at depth `d` itself and returns
    /// `d`: for the last option of a node, whose board no one needs after
    /// it (each node owns the board at its depth; its parent has its own),
    /// this saves the copy. `None` when the node bound is spent.
    pub(crate) fn play_here(
        &mut self,
        d: usize,
        p: Point,
        color: tengen_core::Color,
    ) -> Option<usize> {
        self.count_node()?;
        self.pool[d].play_unchecked(p, color);
        self.record(p);
        Some(d)
    }

    /// Counts one node against the bound; `None` when it is spent.
    fn count_node(&mut self) -> Option<()> {
        if self.nodes >= self.limits.max_nodes {
            return None;
        }
        self.nodes += 1;
        Some(())
    }

    /// Counts a node and copies the board at depth `d` to depth `d + 1`
    /// (growing the pool the first time that depth is reached).
    fn copy_down(&mut self, d: usize) -> Option<usize> {
        self.count_node()?;
        let c = d + 1;
        if self.pool.len() <= c {
            let b = self.pool[d].clone();
            self.pool.push(b);
        } else {
            let (lo, hi) = self.pool.split_at_mut(c);
            hi[0].clone_from(&lo[d]);
        }
        Some(c)
    }

    /// Notes a point played, when the reading is traced.
    fn record(&mut self, p: Point) {
        if self.tracing && self.traced.insert(p) {
            self.trace.push(p);
        }
    }

    /// Copies the board at depth `d` to depth `d + 1` with a pass (which
    /// only clears the simple-ko point).
    pub(crate) fn pass_child(&mut self, d: usize) -> Option<usize> {
        let c = self.copy_down(d)?;
        self.pool[c].pass();
        Some(c)
    }

    /// `read` at the node on pool index `slot`, its position on the line
    /// while it reads: `Unknown` past the depth bound, `repeated` when the
    /// same position with the same side to move is already on the line
    /// (the position's hash and its simple-ko point, sides alternating).
    pub(crate) fn on_line(
        &mut self,
        slot: usize,
        depth: usize,
        repeated: Tri,
        read: impl FnOnce(&mut Self) -> Tri,
    ) -> Tri {
        if depth as u32 >= self.limits.max_depth {
            return Tri::Unknown;
        }
        let hash = self.position_key(slot);
        if self
            .line
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
        {
            self.repeats += 1;
            return repeated;
        }
        self.line.push(hash);
        let r = read(self);
        self.line.pop();
        r
    }

    /// The board at `slot`'s stones and simple-ko point, as one number.
    pub(crate) fn position_key(&self, slot: usize) -> u64 {
        let b = self.at(slot);
        let ko = b.ko_point().map_or(0, |k| k.index() as u64 + 1);
        b.hash() ^ ko.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The board at depth `d`.
    #[inline]
    pub(crate) fn at(&self, d: usize) -> &Board {
        &self.pool[d]
    }
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new(Limits::default())
    }
}
