//! The fast board: stones, chains with exact liberty counts, captures and an
//! incremental Zobrist hash. It knows no turn order, passes, superko or komi
//! (those belong to [`Game`](crate::Game)); it is what playouts and reading
//! run on, so every operation is O(size of the chains involved).
//!
//! Layout: fixed arrays over the padded index (see [`crate::size`]), so a
//! copy is one `memcpy` and nothing allocates. Chains are circular lists
//! (`next`) with a head per stone; the head holds the stone count and the
//! exact number of distinct liberties. Empty points are kept in a list with an
//! index map, for O(1) updates and random choice.

use crate::color::{ByColor, Color};
use crate::size::{BoardSize, MAX_CELLS, MAX_POINTS, Point};
use crate::zobrist;
use std::fmt;

/// What a cell of the padded array holds; the values are the two bits of
/// [`Board::neighbourhood_code`] and of the packed arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Edge = 3,
}

impl Cell {
    #[inline]
    const fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    #[inline]
    const fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Whether a play that leaves its own chain without liberty is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Suicide {
    /// Never (Chinese 2002 art. 5, FFG §5, Strasbourg).
    Forbidden,
    /// Only when the chain removed has more than the stone just played
    /// (KataGo's `sui1`, GNU Go's `--allow-suicide`).
    MultiStone,
    /// Single- and multi-stone suicide (New Zealand, Tromp-Taylor): the
    /// chain is removed and counts as captured by the opponent.
    Allowed,
}

/// The rule a refused play breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The point is not on the board.
    #[error("the point is off the board")]
    OffBoard,
    /// A stone is already there.
    #[error("the point is occupied")]
    Occupied,
    /// The play would leave its own chain without liberty.
    #[error("suicide is forbidden")]
    Suicide,
    /// Single-stone suicide where only multi-stone suicide is allowed.
    #[error("single-stone suicide is forbidden")]
    SingleStoneSuicide,
    /// Immediate recapture of a ko.
    #[error("ko: the ko may not be retaken at once (simple ko rule)")]
    Ko,
    /// Positional superko.
    #[error("positional superko: the play would recreate an earlier board position")]
    PositionalSuperko,
    /// Situational superko.
    #[error(
        "situational superko: the play would recreate a board position that stood with the opponent to move"
    )]
    SituationalSuperko,
    /// Natural situational superko.
    #[error(
        "natural situational superko: the play would recreate a board position this player already made"
    )]
    NaturalSituationalSuperko,
    /// The game has a result.
    #[error("the game is over")]
    GameOver,
    /// Play has stopped for the dead-stone phase.
    #[error("play has stopped: dead stones are being agreed (dispute to resume play)")]
    WrongPhase,
}

/// What a stone play did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Opposing stones removed.
    pub captured: u32,
    /// The mover's own stones removed by a suicide.
    pub suicided: u32,
}

/// What a stone play would do, found without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preview {
    /// Opposing stones it would capture.
    pub captured: u32,
    /// Own stones it would remove as a suicide (0 when not a suicide).
    pub suicided: u32,
    /// Whether the suicide would remove only the stone played.
    pub single_stone_suicide: bool,
    /// The Zobrist hash of the arrangement after the play.
    pub hash_after: u64,
}

/// The fast board. See the module docs.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    cells: [Cell; MAX_CELLS],
    /// Head of the chain of each stone; index 0 (a border cell) elsewhere.
    head: [Point; MAX_CELLS],
    /// Next stone of the same chain (circular).
    next: [Point; MAX_CELLS],
    /// At a head: distinct liberties of its chain.
    libs: [u16; MAX_CELLS],
    /// At a head: stones of its chain.
    len: [u16; MAX_CELLS],
    empty: [Point; MAX_POINTS],
    empty_at: [u16; MAX_CELLS],
    num_empty: u16,
    stones: ByColor<u16>,
    hash: u64,
    ko: Option<Point>,
    /// The arrangement, 2 bits per cell of the padded array, kept as stones
    /// come and go so that a game's history copies it instead of scanning.
    packed: [u64; PACKED_WORDS],
}

/// Words of [`Board::packed`]: 2 bits for each of the padded slots.
const PACKED_WORDS: usize = MAX_CELLS * 2 / 64;

const NO_CHAIN: Point = Point::from_index(0);

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let mut b = Board {
            size,
            cells: [Cell::Edge; MAX_CELLS],
            head: [NO_CHAIN; MAX_CELLS],
            next: [NO_CHAIN; MAX_CELLS],
            libs: [0; MAX_CELLS],
            len: [0; MAX_CELLS],
            empty: [NO_CHAIN; MAX_POINTS],
            empty_at: [0; MAX_CELLS],
            num_empty: 0,
            stones: ByColor::default(),
            hash: 0,
            ko: None,
            packed: [0; PACKED_WORDS],
        };
        for p in size.points() {
            b.cells[p.index()] = Cell::Empty;
            b.push_empty(p);
        }
        b
    }

    /// The board's dimensions.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The stone at `p`, if any (`None` also for points off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells.get(p.index()).and_then(|c| c.color())
    }

    /// Whether `p` is an empty point of the board.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells.get(p.index()) == Some(&Cell::Empty)
    }

    /// The Zobrist hash of the arrangement (stones only).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of each colour on the board.
    pub fn stones(&self) -> ByColor<u32> {
        self.stones.map(u32::from)
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empty[..self.num_empty as usize]
    }

    /// The point the fast board forbids to the next player by simple ko
    /// (set by a single-stone capture that leaves a single stone in atari,
    /// cleared by any other play or a pass).
    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        self.ko
    }

    /// The distinct liberties of the chain at `p` (0 when `p` holds no stone).
    #[inline]
    pub fn liberties(&self, p: Point) -> u32 {
        match self.get(p) {
            Some(_) => u32::from(self.libs[self.head[p.index()].index()]),
            None => 0,
        }
    }

    /// The number of stones of the chain at `p` (0 when `p` holds no stone).
    pub fn chain_len(&self, p: Point) -> u32 {
        match self.get(p) {
            Some(_) => u32::from(self.len[self.head[p.index()].index()]),
            None => 0,
        }
    }

    /// A point that names the chain at `p` (the same for all its stones).
    pub fn chain_id(&self, p: Point) -> Option<Point> {
        self.get(p).map(|_| self.head[p.index()])
    }

    /// One stone of each chain on the board, the one [`Board::chain_id`]
    /// names it by, in point order: the walk for questions asked once a
    /// chain (every chain in atari, every short chain read), with no table
    /// of chains already seen.
    pub fn chains(&self) -> impl Iterator<Item = Point> + '_ {
        self.size
            .points()
            .filter(move |&p| self.get(p).is_some() && self.head[p.index()] == p)
    }

    /// The stones of the chain at `p` (empty when `p` holds no stone).
    pub fn chain(&self, p: Point) -> ChainIter<'_> {
        let start = self.get(p).map(|_| p);
        ChainIter {
            board: self,
            start,
            at: start,
        }
    }

    /// Up to `N` distinct liberties of the chain at `p`, in the order a walk
    /// of the chain meets them, and how many were found: fewer than `N`
    /// only when the chain has fewer (none for no stone at `p`). The walk
    /// stops once the chain's known count is reached, and reads the padded
    /// array directly: readers and playouts list liberties at every node.
    #[inline]
    pub fn liberties_up_to<const N: usize>(&self, p: Point) -> ([Point; N], usize) {
        let mut found = [p; N];
        let want = (self.liberties(p) as usize).min(N);
        let mut n = 0;
        if want == 0 {
            return (found, 0);
        }
        let adj = self.size.adjacent_offsets();
        let mut s = p;
        loop {
            for d in adj {
                let q = s.offset(d);
                if self.cells[q.index()] == Cell::Empty && !found[..n].contains(&q) {
                    found[n] = q;
                    n += 1;
                    if n == want {
                        return (found, n);
                    }
                }
            }
            s = self.next[s.index()];
            if s == p {
                return (found, n);
            }
        }
    }

    /// The liberty of the chain at `p` when it has exactly one (it is in
    /// atari): the point that captures it, or where it must extend.
    /// `None` for a chain with more, or no stone at `p`.
    #[inline]
    pub fn last_liberty(&self, p: Point) -> Option<Point> {
        if self.liberties(p) != 1 {
            return None;
        }
        match self.liberties_up_to::<1>(p) {
            ([l], 1) => Some(l),
            _ => None,
        }
    }

    /// The neighbours of `p` on the board, in the order of
    /// [`BoardSize::neighbours`]. The padded array's border tells the edge,
    /// so this costs no arithmetic on coordinates: it is the neighbour loop
    /// of the playouts and of the readers.
    #[inline]
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.on_board_at(p, self.size.adjacent_offsets())
    }

    /// The diagonal neighbours of `p` on the board: top left, top right,
    /// bottom left, bottom right.
    #[inline]
    pub fn diagonals(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.on_board_at(p, self.size.diagonal_offsets())
    }

    /// The eight points around `p` on the board, row by row from the top
    /// left (the order of [`Board::neighbourhood_code`]).
    #[inline]
    pub fn around(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.on_board_at(p, self.size.around_offsets())
    }

    /// The 3x3 square around `p` as 16 bits, two for each of the eight
    /// points in the order of [`Board::around`], the first in the lowest
    /// bits: 0 empty, 1 black, 2 white, 3 off the board. Shape patterns are
    /// looked up by it; one read per point, no table.
    #[inline]
    pub fn neighbourhood_code(&self, p: Point) -> u16 {
        let mut code = 0u16;
        for (k, d) in self.size.around_offsets().into_iter().enumerate() {
            code |= (self.cells[p.offset(d).index()] as u16) << (2 * k);
        }
        code
    }

    /// The points at offsets `ds` from `p` that are on the board.
    #[inline]
    fn on_board_at<const N: usize>(
        &self,
        p: Point,
        ds: [isize; N],
    ) -> impl Iterator<Item = Point> + use<'_, N> {
        ds.into_iter()
            .map(move |d| p.offset(d))
            .filter(move |q| self.cells[q.index()] != Cell::Edge)
    }

    #[inline]
    fn push_empty(&mut self, p: Point) {
        self.empty[self.num_empty as usize] = p;
        self.empty_at[p.index()] = self.num_empty;
        self.num_empty += 1;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_at[p.index()] as usize;
        self.num_empty -= 1;
        let last = self.empty[self.num_empty as usize];
        self.empty[i] = last;
        self.empty_at[last.index()] = i as u16;
    }

    /// Whether a stone of `color` at the empty point `p` would leave its
    /// chain without liberty (and capture nothing).
    #[inline]
    pub fn is_suicide(&self, p: Point, color: Color) -> bool {
        let me = Cell::of(color);
        for d in self.size.adjacent_offsets() {
            let q = p.offset(d).index();
            match self.cells[q] {
                Cell::Empty => return false,
                Cell::Edge => {}
                c => {
                    let libs = self.libs[self.head[q].index()];
                    if (c == me) == (libs > 1) {
                        // A friend with another liberty, or an enemy in atari.
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether `color` may play at `p` on the fast board: on the board,
    /// empty, not the simple ko point, not a suicide.
    #[inline]
    pub fn is_legal_simple(&self, p: Point, color: Color) -> bool {
        self.is_empty(p) && self.ko != Some(p) && !self.is_suicide(p, color)
    }

    /// Every point where `color` may play on the fast board
    /// ([`Board::is_legal_simple`]), in the order of the empty points.
    pub fn simple_legal_moves(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.empty_points()
            .iter()
            .copied()
            .filter(move |&p| self.is_legal_simple(p, color))
    }

    /// Whether `p` is a one-point eye of `color` as the classic reference
    /// playout defines it: the four neighbours are `color` or off the board;
    /// away from the edge at most one diagonal is an enemy stone, on the edge
    /// or in a corner none is.
    #[inline]
    pub fn is_one_point_eye(&self, p: Point, color: Color) -> bool {
        let me = Cell::of(color);
        let mut edge = false;
        for d in self.size.adjacent_offsets() {
            match self.cells[p.offset(d).index()] {
                Cell::Edge => edge = true,
                c if c == me => {}
                _ => return false,
            }
        }
        self.eye_diagonals_hold(p, color, edge)
    }

    /// The diagonal half of the one-point eye: at most one enemy diagonal
    /// away from the edge, none on the edge or in a corner.
    #[inline]
    fn eye_diagonals_hold(&self, p: Point, color: Color, edge: bool) -> bool {
        let enemy = Cell::of(color.opponent());
        let enemies = self
            .size
            .diagonal_offsets()
            .into_iter()
            .filter(|&d| self.cells[p.offset(d).index()] == enemy)
            .count();
        enemies == 0 || (!edge && enemies == 1)
    }

    /// Whether the empty point `p` is a move of the light playout for
    /// `color`: legal on the fast board (not the simple ko point, not a
    /// suicide) and not the mover's own one-point eye. One pass over the
    /// neighbours, since this is the playout's innermost test.
    #[inline]
    pub fn is_playout_move(&self, p: Point, color: Color) -> bool {
        let me = Cell::of(color);
        let mut own_or_edge = 0;
        let mut edge = false;
        let mut has_liberty = false;
        for d in self.size.adjacent_offsets() {
            let q = p.offset(d).index();
            match self.cells[q] {
                Cell::Empty => return true,
                Cell::Edge => {
                    edge = true;
                    own_or_edge += 1;
                }
                c => {
                    let libs = self.libs[self.head[q].index()];
                    if c == me {
                        own_or_edge += 1;
                        has_liberty |= libs > 1;
                    } else {
                        has_liberty |= libs == 1;
                    }
                }
            }
        }
        if own_or_edge == 4 && self.eye_diagonals_hold(p, color, edge) {
            return false;
        }
        has_liberty && self.ko != Some(p)
    }

    /// What a stone of `color` at the empty point `p` would do, without
    /// playing it.
    pub fn preview(&self, p: Point, color: Color) -> Preview {
        let me = Cell::of(color);
        let mut hash_after = self.hash ^ zobrist::stone(color, p.index());
        let mut has_liberty = false;
        let mut captured = 0u32;
        let mut seen = [NO_CHAIN; 4];
        let mut friends = [NO_CHAIN; 4];
        let mut n_seen = 0;
        let mut n_friends = 0;
        for d in self.size.adjacent_offsets() {
            let q = p.offset(d).index();
            match self.cells[q] {
                Cell::Empty => has_liberty = true,
                Cell::Edge => {}
                c => {
                    let h = self.head[q];
                    if seen[..n_seen].contains(&h) {
                        continue;
                    }
                    seen[n_seen] = h;
                    n_seen += 1;
                    let libs = self.libs[h.index()];
                    if c == me {
                        friends[n_friends] = h;
                        n_friends += 1;
                        has_liberty |= libs > 1;
                    } else if libs == 1 {
                        captured += u32::from(self.len[h.index()]);
                        hash_after ^= self.chain_key(h);
                        has_liberty = true;
                    }
                }
            }
        }
        let mut suicided = 0;
        if !has_liberty {
            suicided = 1;
            hash_after ^= zobrist::stone(color, p.index());
            for &h in &friends[..n_friends] {
                suicided += u32::from(self.len[h.index()]);
                hash_after ^= self.chain_key(h);
            }
        }
        Preview {
            captured,
            suicided,
            single_stone_suicide: suicided == 1,
            hash_after,
        }
    }

    fn chain_key(&self, h: Point) -> u64 {
        let color = self.cells[h.index()].color();
        self.chain(h).fold(0, |k, s| {
            k ^ color.map_or(0, |c| zobrist::stone(c, s.index()))
        })
    }

    /// Plays a stone if the bare board allows it: on the board, empty, and
    /// not a suicide unless `suicide` allows it. The fast board's simple ko
    /// point is *not* checked here (the game applies its own repetition rule).
    ///
    /// # Errors
    /// [`IllegalMove`] (off the board, occupied, suicide), and the board is
    /// unchanged.
    pub fn play(
        &mut self,
        p: Point,
        color: Color,
        suicide: Suicide,
    ) -> Result<Played, IllegalMove> {
        if !self.size.contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        if !self.is_empty(p) {
            return Err(IllegalMove::Occupied);
        }
        if self.is_suicide(p, color) {
            let single = self
                .size
                .adjacent_offsets()
                .into_iter()
                .all(|d| self.cells[p.offset(d).index()] != Cell::of(color));
            match suicide {
                Suicide::Forbidden => return Err(IllegalMove::Suicide),
                Suicide::MultiStone if single => return Err(IllegalMove::SingleStoneSuicide),
                _ => {}
            }
        }
        Ok(self.play_unchecked(p, color))
    }

    /// Records a pass on the fast board (clears its simple ko point).
    #[inline]
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays a stone without any check: captures, then removes the mover's
    /// own chain if it has no liberty left (a suicide).
    ///
    /// # Panics
    /// May panic, or corrupt the board, when `p` is not an empty point of
    /// this board. Check with [`Board::is_empty`] or use [`Board::play`].
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> Played {
        let me = Cell::of(color);
        let pi = p.index();
        self.cells[pi] = me;
        self.packed[pi >> 5] |= (me as u64) << ((pi & 31) * 2);
        self.hash ^= zobrist::stone(color, pi);
        self.remove_empty(p);
        self.stones[color] += 1;
        self.head[pi] = p;
        self.next[pi] = p;
        self.len[pi] = 1;

        let mut own_libs = 0;
        let mut seen = [NO_CHAIN; 4];
        let mut n_seen = 0;
        for d in self.size.adjacent_offsets() {
            let q = p.offset(d).index();
            match self.cells[q] {
                Cell::Empty => own_libs += 1,
                Cell::Edge => {}
                _ => {
                    let h = self.head[q];
                    if !seen[..n_seen].contains(&h) {
                        seen[n_seen] = h;
                        n_seen += 1;
                        self.libs[h.index()] -= 1;
                    }
                }
            }
        }
        self.libs[pi] = own_libs;

        let mut mine = p;
        for &h in &seen[..n_seen] {
            if self.cells[h.index()] == me {
                mine = self.merge(mine, h);
            }
        }

        let mut played = Played::default();
        let mut last_captured = p;
        for &h in &seen[..n_seen] {
            if self.cells[h.index()] != me && self.libs[h.index()] == 0 {
                last_captured = h;
                played.captured += self.remove_chain(h);
            }
        }

        self.ko = None;
        if self.libs[mine.index()] == 0 {
            played.suicided = self.remove_chain(mine);
        } else if played.captured == 1
            && self.len[mine.index()] == 1
            && self.libs[mine.index()] == 1
        {
            self.ko = Some(last_captured);
        }
        played
    }

    /// Joins two chains of the same colour; returns the head kept.
    fn merge(&mut self, a: Point, b: Point) -> Point {
        let (big, small) = if self.len[a.index()] >= self.len[b.index()] {
            (a, b)
        } else {
            (b, a)
        };
        let adj = self.size.adjacent_offsets();
        let mut s = small;
        loop {
            for d in adj {
                let e = s.offset(d);
                if self.cells[e.index()] == Cell::Empty
                    && !adj.iter().any(|&d2| self.head[e.offset(d2).index()] == big)
                {
                    self.libs[big.index()] += 1;
                }
            }
            self.head[s.index()] = big;
            s = self.next[s.index()];
            if s == small {
                break;
            }
        }
        self.next.swap(big.index(), small.index());
        self.len[big.index()] += self.len[small.index()];
        big
    }

    /// Removes a whole chain; every distinct neighbouring chain gains one
    /// liberty per removed stone it touches. Returns the stones removed.
    fn remove_chain(&mut self, h: Point) -> u32 {
        let cell = self.cells[h.index()];
        let Some(color) = cell.color() else {
            return 0;
        };
        let adj = self.size.adjacent_offsets();
        let mut count = 0;
        let mut s = h;
        loop {
            let nxt = self.next[s.index()];
            let si = s.index();
            self.cells[si] = Cell::Empty;
            self.packed[si >> 5] &= !(3u64 << ((si & 31) * 2));
            self.head[si] = NO_CHAIN;
            self.hash ^= zobrist::stone(color, si);
            self.push_empty(s);
            let mut seen = [NO_CHAIN; 4];
            let mut n_seen = 0;
            for d in adj {
                let q = s.offset(d).index();
                let c = self.cells[q];
                if c != cell && c.color().is_some() {
                    let g = self.head[q];
                    if !seen[..n_seen].contains(&g) {
                        seen[n_seen] = g;
                        n_seen += 1;
                        self.libs[g.index()] += 1;
                    }
                }
            }
            count += 1;
            s = nxt;
            if s == h {
                break;
            }
        }
        self.stones[color] -= count as u16;
        count
    }

    /// Removes every chain that has a stone in `points` (dead stones at the
    /// end of the game); returns the stones removed per colour.
    pub fn remove_chains(&mut self, points: &[Point]) -> ByColor<u32> {
        let mut removed = ByColor::default();
        for &p in points {
            if let Some(color) = self.get(p) {
                let h = self.head[p.index()];
                removed[color] += self.remove_chain(h);
            }
        }
        self.ko = None;
        removed
    }

    /// Whether two boards have the same size and the same stones.
    pub fn same_arrangement(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self
                .size
                .points()
                .all(|p| self.cells[p.index()] == other.cells[p.index()])
    }

    /// Appends the arrangement, 2 bits per cell, to `out` (for exact
    /// comparison of positions kept in a history): a copy, no scan.
    pub(crate) fn pack_into(&self, out: &mut Vec<u64>) {
        out.extend_from_slice(&self.packed[..Board::packed_words(self.size)]);
    }

    /// Words that [`Board::pack_into`] writes for this size.
    pub(crate) fn packed_words(size: BoardSize) -> usize {
        (size.cells() * 2).div_ceil(64).min(PACKED_WORDS)
    }

    /// Reads rows of `X` (black), `O` (white), `.` or `+` (empty); spaces
    /// between points and blank lines are ignored, so do row numbers and a
    /// line of column letters.
    ///
    /// # Errors
    /// A message naming the row that is wrong, or a chain without liberty.
    pub fn from_ascii(text: &str) -> Result<Board, AsciiBoardError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let body: String = line
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_ascii_digit())
                .collect();
            // Blank lines and lines of column letters are not rows.
            if body.is_empty()
                || body
                    .chars()
                    .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'X' | 'x' | 'O' | 'o'))
            {
                continue;
            }
            let mut row = Vec::new();
            for c in body.chars() {
                row.push(match c {
                    'X' | 'x' | '#' => Some(Color::Black),
                    'O' | 'o' => Some(Color::White),
                    '.' | '+' | ',' => None,
                    other => {
                        return Err(AsciiBoardError::BadChar {
                            line: n + 1,
                            found: other,
                        });
                    }
                });
            }
            rows.push(row);
        }
        let height = rows.len() as u32;
        let width = rows.first().map_or(0, |r| r.len() as u32);
        if rows.iter().any(|r| r.len() as u32 != width) {
            return Err(AsciiBoardError::Ragged);
        }
        let size = BoardSize::new(width, height).map_err(AsciiBoardError::Size)?;
        let mut board = Board::new(size);
        for (y, row) in rows.iter().enumerate() {
            for (x, stone) in row.iter().enumerate() {
                if let (Some(color), Some(p)) = (stone, size.point(x as u32, y as u32)) {
                    board.play_unchecked(p, *color);
                }
            }
        }
        let placed = rows.iter().flatten().filter(|s| s.is_some()).count() as u32;
        if board.stones().black + board.stones().white != placed {
            return Err(AsciiBoardError::NoLiberty);
        }
        board.ko = None;
        Ok(board)
    }
}

/// Why an ASCII diagram could not be read as a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AsciiBoardError {
    /// A character that is not a stone or an empty point.
    #[error("line {line}: unexpected {found:?} (use X, O, . or +)")]
    BadChar {
        /// 1-based line of the text.
        line: usize,
        /// The character found.
        found: char,
    },
    /// Rows of different lengths.
    #[error("rows of the diagram have different lengths")]
    Ragged,
    /// No rows, or too many.
    #[error(transparent)]
    Size(crate::size::SizeError),
    /// A chain of the diagram has no liberty.
    #[error("a chain of the diagram has no liberty")]
    NoLiberty,
}

/// The stones of one chain, see [`Board::chain`].
#[derive(Debug)]
pub struct ChainIter<'a> {
    board: &'a Board,
    start: Option<Point>,
    at: Option<Point>,
}

impl Iterator for ChainIter<'_> {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        let p = self.at?;
        let n = self.board.next[p.index()];
        self.at = (Some(n) != self.start).then_some(n);
        Some(p)
    }
}

impl PartialEq for Board {
    /// Same size, same stones (chain bookkeeping and ko point aside).
    fn eq(&self, other: &Board) -> bool {
        self.same_arrangement(other)
    }
}

impl Eq for Board {}

impl fmt::Display for Board {
    /// Rows of `X`, `O` and `.`, top row first, separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size.height() {
            let row: Vec<&str> = (0..self.size.width())
                .map(|x| match self.size.point(x, y).and_then(|p| self.get(p)) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}\n{}", self.size, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &str) -> Board {
        Board::from_ascii(rows).unwrap()
    }

    fn at(b: &Board, x: u32, y: u32) -> Point {
        b.size().point(x, y).unwrap()
    }

    #[test]
    fn the_last_liberty_is_that_of_a_chain_in_atari_only() {
        let b = board(
            ". X O .
             X O . .
             O . X .
             . . . .",
        );
        // White's B3 has two liberties, C3 and B2.
        assert_eq!(b.liberties(at(&b, 1, 1)), 2);
        assert_eq!(b.last_liberty(at(&b, 1, 1)), None);
        // Black's B4 and A3 are in atari at the same point.
        assert_eq!(b.last_liberty(at(&b, 1, 0)), Some(at(&b, 0, 0)));
        assert_eq!(b.last_liberty(at(&b, 0, 1)), Some(at(&b, 0, 0)));
        assert_eq!(b.last_liberty(at(&b, 3, 3)), None, "an empty point");
        // A chain of two: the liberty is found from either stone.
        let b = board(
            ". X X O
             . O O .
             . . . .",
        );
        assert_eq!(b.last_liberty(at(&b, 2, 0)), Some(at(&b, 0, 0)));
        assert_eq!(b.last_liberty(at(&b, 1, 0)), Some(at(&b, 0, 0)));
    }

    #[test]
    fn chains_name_each_chain_once_also_after_merges_and_captures() {
        let mut b = board(
            "X X . O
             . O . O
             X . O .
             X . . .",
        );
        // Five chains: A4-B4, B3, D4-D3, A2-A1 and C2.
        let of = |b: &Board, c: Color| {
            b.chains()
                .filter(|&p| b.get(p) == Some(c))
                .collect::<Vec<_>>()
        };
        assert_eq!(b.chains().count(), 5);
        for p in b.chains() {
            assert_eq!(b.chain_id(p), Some(p), "a chain's own naming stone");
        }
        // White C3 joins B3, C2 and the D chain into one.
        b.play_unchecked(at(&b, 2, 1), Color::White);
        let white = of(&b, Color::White);
        assert_eq!(white.len(), 1, "one white chain after C3");
        assert_eq!(b.chain_len(white[0]), 5);
        // White C4 and A3 take the last liberties of Black's A4-B4.
        b.play_unchecked(at(&b, 2, 0), Color::White);
        b.play_unchecked(at(&b, 0, 1), Color::White);
        assert_eq!(b.get(at(&b, 0, 0)), None, "A4 captured");
        let black = of(&b, Color::Black);
        assert_eq!(black.len(), 1, "only Black's lower chain remains");
        assert_eq!(b.chain_len(black[0]), 2);
    }

    #[test]
    fn liberties_are_listed_in_the_order_of_the_chain_up_to_the_bound() {
        let b = board(
            ". . . .
             . X X .
             . O . .
             . . . .",
        );
        let c3 = at(&b, 1, 1);
        assert_eq!(b.liberties(c3), 5);
        let (two, n) = b.liberties_up_to::<2>(c3);
        assert_eq!((two, n), ([at(&b, 1, 0), at(&b, 0, 1)], 2));
        let (all, n) = b.liberties_up_to::<8>(c3);
        assert_eq!(n, 5);
        let mut sorted = all[..n].to_vec();
        sorted.sort_unstable();
        let mut expected: Vec<Point> = [(1, 0), (0, 1), (2, 0), (3, 1), (2, 2)]
            .iter()
            .map(|&(x, y)| at(&b, x, y))
            .collect();
        expected.sort_unstable();
        assert_eq!(sorted, expected);
        assert_eq!(b.liberties_up_to::<2>(at(&b, 0, 0)).1, 0, "an empty point");
    }

    #[test]
    fn neighbours_diagonals_and_around_stop_at_the_edge() {
        let b = Board::new(BoardSize::new(5, 4).unwrap());
        let corner = at(&b, 0, 0);
        assert_eq!(
            b.neighbours(corner).collect::<Vec<_>>(),
            vec![at(&b, 1, 0), at(&b, 0, 1)]
        );
        assert_eq!(b.diagonals(corner).collect::<Vec<_>>(), vec![at(&b, 1, 1)]);
        let mid = at(&b, 2, 1);
        let around: Vec<Point> = b.around(mid).collect();
        let expected: Vec<Point> = [
            (1, 0),
            (2, 0),
            (3, 0),
            (1, 1),
            (3, 1),
            (1, 2),
            (2, 2),
            (3, 2),
        ]
        .iter()
        .map(|&(x, y)| at(&b, x, y))
        .collect();
        assert_eq!(around, expected);
        // The same points as the size's own neighbours, everywhere.
        for p in b.size().points() {
            assert!(b.neighbours(p).eq(b.size().neighbours(p)));
            assert_eq!(
                b.around(p).count(),
                b.neighbours(p).count() + b.diagonals(p).count()
            );
        }
    }

    #[test]
    fn the_neighbourhood_code_reads_two_bits_a_point() {
        let b = board(
            "X O .
             . . X
             . O .",
        );
        // Around the centre: X O . / . X / . O .
        let code = b.neighbourhood_code(at(&b, 1, 1));
        let values = [1, 2, 0, 0, 1, 0, 2, 0];
        let expected = values
            .iter()
            .enumerate()
            .fold(0u16, |c, (k, v)| c | (v << (2 * k)));
        assert_eq!(code, expected);
        // In the corner five of the eight points are off the board.
        let corner = b.neighbourhood_code(at(&b, 0, 0));
        let off = (0..8).filter(|k| (corner >> (2 * k)) & 3 == 3).count();
        assert_eq!(off, 5);
    }
}
