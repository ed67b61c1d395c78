//! Ladders (shicho, échelle): does chasing a chain with ataris capture it?
//!
//! The reading follows the definition of ecosystem-study section 6.3 and of
//! KataGo's ladder search. The defender, in atari, may extend at its
//! liberty or capture any attacking chain that is itself in atari next to
//! it (a counter-capture); it escapes as soon as it has three liberties.
//! The attacker, facing a chain with two liberties, tries an atari on each
//! of them; a chain that after the defender's move still has one liberty is
//! captured (unless the simple-ko rule forbids the capture at once, which
//! counts as an escape: a ladder that only works through a ko does not work;
//! for the same reason a line that comes back to a position already met,
//! kos being taken in turn, counts as an escape). An atari that lets the
//! defender run onto a point with three empty neighbours besides it is not
//! even played: running there gains three liberties.
//! Both sides try every option, so a ladder that the defender breaks by
//! capturing an attacker stone, or the attacker saves with a snapback, is
//! read correctly; running into the edge needs no special case, the edge
//! simply gives no liberty.
//!
//! When the chain escapes, [`read_ladder`] also names the ladder breaker: a
//! stone of the defender's colour, near the points the reading played, whose
//! removal makes the same ladder work (each candidate is checked by reading
//! the ladder again without it; the nearest to the start of the ladder that
//! works is named, at most twelve are tried).
//!
//! Cost: each node plays one stone; the last option of a node is played on
//! the node's own board, the others on a copy, so a plain ladder copies
//! almost no board. A 60-ply ladder across the 19x19 board reads in a few
//! tens of microseconds (see `benches/reading.rs`).

use crate::atari::in_atari_beside;
use crate::reader::{Limits, Reader, Tri};
use crate::util::{PointSet, empty_neighbours, legal, within, without_stone};
use tengen_core::{Board, Color, Point};

/// What a ladder reading found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LadderResult {
    /// The ladder works: whatever the defender tries (running, or capturing
    /// an attacking stone in atari), the chain is captured. `depth` is the
    /// number of plies of the longest line read (about twice the number of
    /// ataris of the ladder).
    Captured {
        /// Plies of the longest line the proof needed.
        depth: u32,
    },
    /// The chain gets out: it reaches three liberties or captures its way
    /// out. `breaker`, when found, is a stone of the defender's colour whose
    /// removal would make the ladder work (the ladder breaker).
    Escapes {
        /// The ladder breaker, if one stone is to blame.
        breaker: Option<Point>,
    },
    /// The bounds ([`Limits::LADDER`] by default) stopped the reading.
    Unknown,
    /// There is no ladder to read: no stone at the point, or its chain has
    /// three liberties or more.
    NotALadder,
}

impl LadderResult {
    /// Whether the ladder works for the attacker.
    pub fn works(self) -> bool {
        matches!(self, LadderResult::Captured { .. })
    }
}

/// Reads the ladder on the chain at `chain` with the default bounds.
///
/// With one liberty the defender moves first (it tries to run); with two the
/// attacker moves first (it must atari). Any other liberty count, or an
/// empty point, gives [`LadderResult::NotALadder`].
///
/// ```
/// use tengen_core::{Board, Vertex};
/// use tengen_tactics::{LadderResult, read_ladder};
///
/// let board = Board::from_ascii(
///     ". . . . . . .
///      . . . . . . .
///      . . . . . . .
///      . . O . . . .
///      . O X . . . .
///      . . O O . . .
///      . . . . . . .",
/// )
/// .unwrap();
/// let Vertex::Point(c3) = Vertex::parse("C3", board.size()).unwrap() else { unreachable!() };
/// assert!(read_ladder(&board, c3).works());
/// ```
pub fn read_ladder(board: &Board, chain: Point) -> LadderResult {
    Reader::new(Limits::LADDER).ladder(board, chain)
}

/// The ladders a move starts: after `color` plays `m`, each opposing chain
/// next to it left in atari (one stone of each) with the ladder reading on
/// it, the defender to move. Empty when the move is illegal or ataris
/// nothing. This is the question behind "shicho": does this atari work as a
/// ladder.
pub fn ladders_after(board: &Board, m: Point, color: Color) -> Vec<(Point, LadderResult)> {
    if !legal(board, m, color) {
        return Vec::new();
    }
    let mut after = board.clone();
    after.play_unchecked(m, color);
    let mut reader = Reader::new(Limits::LADDER);
    in_atari_beside(&after, m)
        .into_iter()
        .map(|q| (q, reader.ladder(&after, q)))
        .collect()
}

/// The points where a stone of `color` would extend one of its chains in
/// atari into a ladder that works: running there only adds stones to the
/// capture. The search never plays them; its playouts, which cannot
/// afford to read ladders, keep a running chain alive and would chase the
/// capture across the board otherwise.
pub fn ladder_runs(board: &Board, color: Color) -> Vec<Point> {
    board
        .size()
        .points()
        .filter(|&p| {
            board.is_empty(p)
                && board
                    .neighbours(p)
                    .any(|q| board.get(q) == Some(color) && board.liberties(q) == 1)
                && crate::runs_into_ladder(board, p, color)
        })
        .collect()
}

/// The main line of the ladder on the chain at `chain`: the moves both sides
/// play, the attacker choosing an atari that works (or the first it tries
/// when none does), the defender choosing a move that escapes (or running
/// when none does). Ends with the capture when the ladder works, and with the
/// defender's escaping move when it does not. Empty when there is no ladder.
pub fn ladder_line(board: &Board, chain: Point) -> Vec<(Color, Point)> {
    Reader::new(Limits::LADDER).ladder_line(board, chain)
}

impl Reader {
    /// Reads the ladder on the chain at `chain`; see [`read_ladder`].
    pub fn ladder(&mut self, board: &Board, chain: Point) -> LadderResult {
        let result = self.ladder_bare(board, chain, true);
        match result {
            LadderResult::Escapes { .. } => {
                let breaker = self.find_breaker(board, chain);
                LadderResult::Escapes { breaker }
            }
            other => other,
        }
    }

    /// Reads the ladder without looking for a breaker (an escape gives
    /// `Escapes { breaker: None }`): the cheap yes-or-no question, asked of
    /// every move when moves are named.
    pub fn ladder_works(&mut self, board: &Board, chain: Point) -> LadderResult {
        self.ladder_bare(board, chain, false)
    }

    /// Reads without looking for a breaker; `trace` keeps the points played.
    fn ladder_bare(&mut self, board: &Board, chain: Point, trace: bool) -> LadderResult {
        let Some(defender) = board.get(chain) else {
            return LadderResult::NotALadder;
        };
        let libs = board.liberties(chain);
        if libs == 0 || libs > 2 {
            return LadderResult::NotALadder;
        }
        self.tracing = trace;
        self.start(board);
        let chase = Chase { chain, defender };
        let attacker_wins = if libs == 1 {
            self.ladder_defend_at(0, 0, chase).flip()
        } else {
            self.ladder_attack_at(0, 0, chase)
        };
        self.tracing = false;
        match attacker_wins {
            Tri::Win => LadderResult::Captured {
                depth: self.deepest + 1,
            },
            Tri::Loss => LadderResult::Escapes { breaker: None },
            Tri::Unknown => LadderResult::Unknown,
        }
    }

    /// The defender's node on the board at pool index `slot`, at ply
    /// `depth` (they differ when a parent played its last option in place),
    /// its chain in atari: `Win` when it escapes.
    fn ladder_defend_at(&mut self, slot: usize, depth: usize, chase: Chase) -> Tri {
        // A position already met on this line with the defender to move
        // (kos cycling): the ladder does not work unconditionally.
        self.on_line(slot, depth, Tri::Win, |r| {
            r.ladder_defend_moves(slot, depth, chase)
        })
    }

    fn ladder_defend_moves(&mut self, slot: usize, depth: usize, chase: Chase) -> Tri {
        let Chase { chain, defender } = chase;
        let attacker = defender.opponent();
        let options = defender_options(self.at(slot), chain, defender);
        let mut legal_options = [None; 6];
        let mut n = 0;
        for &m in options.iter().flatten() {
            if legal(self.at(slot), m, defender) {
                legal_options[n] = Some(m);
                n += 1;
            }
        }
        self.ladder_children(slot, depth, &legal_options[..n], defender, |r, c| {
            let b = r.at(c);
            match b.liberties(chain) {
                0 => Tri::Loss,
                // Still in atari: captured, unless ko forbids it now.
                1 if capture_at(b, chain, attacker).is_some() => Tri::Loss,
                1 => Tri::Win,
                2 => r.ladder_attack_at(c, depth + 1, chase).flip(),
                _ => Tri::Win,
            }
        })
    }

    /// The attacker's node on the board at pool index `slot`, at ply
    /// `depth` (they differ when a parent played its last option in place),
    /// the chain at two liberties: `Win` when an atari captures it.
    fn ladder_attack_at(&mut self, slot: usize, depth: usize, chase: Chase) -> Tri {
        self.on_line(slot, depth, Tri::Loss, |r| {
            r.ladder_attack_moves(slot, depth, chase)
        })
    }

    fn ladder_attack_moves(&mut self, slot: usize, depth: usize, chase: Chase) -> Tri {
        let Chase { chain, defender } = chase;
        let attacker = defender.opponent();
        let b = self.at(slot);
        let order = attack_order(b, chain);
        // An atari at one liberty makes the defender run at the other; if
        // that point alone has three empty neighbours besides the atari,
        // running gains three liberties: the atari fails, no need to play it.
        let mut tries = [None; 2];
        let mut n = 0;
        for &m in order.iter().flatten() {
            if !legal(b, m, attacker) {
                continue;
            }
            let run = order.iter().flatten().copied().find(|&o| o != m);
            let hopeless = run
                .is_some_and(|o| b.neighbours(o).filter(|&q| q != m && b.is_empty(q)).count() >= 3);
            if !hopeless {
                tries[n] = Some(m);
                n += 1;
            }
        }
        self.ladder_children(slot, depth, &tries[..n], attacker, |r, c| {
            match r.at(c).liberties(chain) {
                0 => Tri::Win,
                1 => r.ladder_defend_at(c, depth + 1, chase).flip(),
                _ => Tri::Loss,
            }
        })
    }

    /// Plays each of `moves` for `color` from the node at `slot`, ply
    /// `depth`, and answers for the side to move there: `Win` as soon as
    /// `child` (the answer at the child's pool index, for the same side)
    /// finds a win, `Unknown` when none wins and one was unknown or the
    /// node bound ran out, else `Loss`. The last move is played on the
    /// node's own board, which nobody needs after it.
    #[inline]
    fn ladder_children(
        &mut self,
        slot: usize,
        depth: usize,
        moves: &[Option<Point>],
        color: Color,
        mut child: impl FnMut(&mut Self, usize) -> Tri,
    ) -> Tri {
        let n = moves.len();
        let mut unknown = false;
        for (i, &m) in moves.iter().flatten().enumerate() {
            let played = if i + 1 == n {
                self.play_here(slot, m, color)
            } else {
                self.play_child(slot, m, color)
            };
            let Some(c) = played else {
                return Tri::Unknown;
            };
            self.deepest = self.deepest.max(depth as u32 + 1);
            match child(self, c) {
                Tri::Win => return Tri::Win,
                Tri::Unknown => unknown = true,
                Tri::Loss => {}
            }
        }
        if unknown { Tri::Unknown } else { Tri::Loss }
    }

    /// The ladder breaker of a ladder that fails: a defender stone near the
    /// points the reading played whose removal makes the ladder work.
    fn find_breaker(&mut self, board: &Board, chain: Point) -> Option<Point> {
        let defender = board.get(chain)?;
        let size = board.size();
        let mut in_chain = PointSet::new();
        for s in board.chain(chain) {
            in_chain.insert(s);
        }
        let trace = std::mem::take(&mut self.trace);
        let mut seen = PointSet::new();
        let mut candidates = Vec::new();
        'outer: for &p in &trace {
            for q in std::iter::once(p).chain(within(size, p, 2)) {
                if board.get(q) == Some(defender) && !in_chain.contains(q) && seen.insert(q) {
                    candidates.push(q);
                    if candidates.len() >= MAX_BREAKER_CANDIDATES {
                        break 'outer;
                    }
                }
            }
        }
        self.trace = trace;
        for s in candidates {
            let b = without_stone(board, s);
            if let LadderResult::Captured { .. } = self.ladder_bare(&b, chain, false) {
                return Some(s);
            }
        }
        None
    }

    /// The first of `moves` after which, `color` having played it, the
    /// ladder on `chain` works (`works`) or fails (`!works`).
    fn ladder_move_where(
        &mut self,
        board: &Board,
        chain: Point,
        moves: &[Point],
        color: Color,
        works: bool,
    ) -> Option<Point> {
        moves.iter().copied().find(|&m| {
            let mut after = board.clone();
            after.play_unchecked(m, color);
            self.ladder_bare(&after, chain, false).works() == works
        })
    }

    /// The main line; see [`ladder_line`].
    pub fn ladder_line(&mut self, board: &Board, chain: Point) -> Vec<(Color, Point)> {
        let mut line = Vec::new();
        let Some(defender) = board.get(chain) else {
            return line;
        };
        let attacker = defender.opponent();
        let mut b = board.clone();
        for _ in 0..self.limits.max_depth {
            if b.get(chain) != Some(defender) {
                break;
            }
            match b.liberties(chain) {
                1 => {
                    let options = defender_options(&b, chain, defender);
                    let legal_moves = legal_of(&b, &options, defender);
                    let Some(&last) = legal_moves.last() else {
                        if let Some(l) = capture_at(&b, chain, attacker) {
                            line.push((attacker, l));
                        }
                        break;
                    };
                    // Prefer a move that escapes; otherwise the last (running).
                    let chosen = self
                        .ladder_move_where(&b, chain, &legal_moves, defender, false)
                        .unwrap_or(last);
                    b.play_unchecked(chosen, defender);
                    line.push((defender, chosen));
                    if b.liberties(chain) == 1 {
                        if let Some(l) = capture_at(&b, chain, attacker) {
                            line.push((attacker, l));
                            b.play_unchecked(l, attacker);
                        }
                        break;
                    }
                }
                2 => {
                    let order = attack_order(&b, chain);
                    let legal_moves = legal_of(&b, &order, attacker);
                    let Some(&first) = legal_moves.first() else {
                        break;
                    };
                    let chosen = self
                        .ladder_move_where(&b, chain, &legal_moves, attacker, true)
                        .unwrap_or(first);
                    b.play_unchecked(chosen, attacker);
                    line.push((attacker, chosen));
                }
                _ => break,
            }
        }
        line
    }
}

/// The legal ones of `moves` for `color`, in order.
fn legal_of(board: &Board, moves: &[Option<Point>], color: Color) -> Vec<Point> {
    moves
        .iter()
        .flatten()
        .copied()
        .filter(|&m| legal(board, m, color))
        .collect()
}

/// The point where `attacker` captures the chain at `chain`, in atari,
/// when the capture is legal now.
#[inline]
fn capture_at(board: &Board, chain: Point, attacker: Color) -> Option<Point> {
    board
        .last_liberty(chain)
        .filter(|&l| legal(board, l, attacker))
}

/// The ladder being read: the chain chased (one stone of it) and its colour.
#[derive(Clone, Copy)]
struct Chase {
    chain: Point,
    defender: Color,
}

/// Candidates tested as ladder breakers, nearest the start of the ladder first.
const MAX_BREAKER_CANDIDATES: usize = 12;

/// The defender's tries, in order: capture each attacking chain in atari
/// that touches the chain (a counter-capture), then run at the liberty.
fn defender_options(board: &Board, chain: Point, defender: Color) -> [Option<Point>; 6] {
    let attacker = defender.opponent();
    let mut out = [None; 6];
    let mut n = 0;
    let mut ids: [Option<Point>; 5] = [None; 5];
    let mut n_ids = 0;
    'walk: for s in board.chain(chain) {
        for q in board.neighbours(s) {
            if board.get(q) == Some(attacker) && board.liberties(q) == 1 {
                let id = board.chain_id(q);
                if ids[..n_ids].contains(&id) {
                    continue;
                }
                if let Some(l) = board.last_liberty(q)
                    && !out[..n].contains(&Some(l))
                {
                    out[n] = Some(l);
                    n += 1;
                }
                ids[n_ids] = id;
                n_ids += 1;
                if n_ids == ids.len() || n == out.len() - 1 {
                    break 'walk;
                }
            }
        }
    }
    if let Some(l) = board.last_liberty(chain)
        && !out[..n].contains(&Some(l))
    {
        out[n] = Some(l);
    }
    out
}

/// The attacker's two ataris, the more promising first: the one that leaves
/// the defender running onto the point with fewer empty neighbours.
fn attack_order(board: &Board, chain: Point) -> [Option<Point>; 2] {
    match board.liberties_up_to::<2>(chain) {
        // Atari at `a` makes the defender run at `b`, and the reverse.
        ([a, b], 2) if empty_neighbours(board, a) < empty_neighbours(board, b) => {
            [Some(b), Some(a)]
        }
        ([a, b], 2) => [Some(a), Some(b)],
        ([a, _], 1) => [Some(a), None],
        _ => [None, None],
    }
}
