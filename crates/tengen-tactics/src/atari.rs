//! Atari, self-atari and shortage of liberties (dame-zumari).
//!
//! A move is a self-atari when, after it and its captures, the mover's own
//! chain has a single liberty. Most self-ataris give stones away for
//! nothing; some are the point of the move. [`self_atari`] tells them apart
//! by what happens when the opponent takes:
//!
//! - a ko capture, or a capture of two stones or more that is not taken
//!   back at once, is a capture, not a gift;
//! - a snapback sacrifice, a throw-in that makes an eye false, a nakade
//!   (playing inside the opponent's small eye space to leave one eye), and
//!   a sacrifice that puts an opposing chain short of liberties from inside
//!   (it ataris a chain whose other liberties are inside too) are useful;
//! - anything else, including a suicide, connecting into a chain that the
//!   opponent then captures, and a capture that is snapped back, is bad.
//!
//! This is a judgement by shapes and short look-ahead, in the spirit of
//! Pachi's `is_bad_selfatari` (whose table the tests measure it against),
//! written independently.

use crate::eyes::{EyeKind, classify_space, eye};
use crate::reader::{Limits, Reader};
use crate::reading::Attack;
use crate::snapback::{capture_is_snapped_back, snapback};
use crate::util::{
    PointSet, chains_around, empty_neighbours, flood, legal, liberty_list, on_board_neighbours,
};
use tengen_core::{Board, Color, Point};

/// The opposing chains that `color` playing at `m` leaves in atari (one
/// stone of each), in no particular order. Empty for an illegal move.
pub fn ataris(board: &Board, m: Point, color: Color) -> Vec<Point> {
    if !legal(board, m, color) {
        return Vec::new();
    }
    let mut b = board.clone();
    b.play_unchecked(m, color);
    in_atari_beside(&b, m)
}

/// The opposing chains next to the chain at `m` that have one liberty (one
/// stone of each), on the board after the move at `m`: what a move already
/// played puts in atari, without playing it again as [`ataris`] does.
pub fn in_atari_beside(after: &Board, m: Point) -> Vec<Point> {
    let Some(color) = after.get(m) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut ids = PointSet::new();
    for s in after.chain(m) {
        for q in after.neighbours(s) {
            if after.get(q) == Some(color.opponent())
                && after.liberties(q) == 1
                && let Some(id) = after.chain_id(q)
                && ids.insert(id)
            {
                out.push(q);
            }
        }
    }
    out
}

/// What kind of self-atari a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelfAtariKind {
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// Stones given away for nothing.
    Plain,
    /// Connecting into a chain that is then captured (often called
    /// connect-and-die, a shortage of liberties).
    ConnectAndDie,
    /// A capture the opponent takes back at once with more stones.
    SnappedBack,
    /// A ko capture: one stone taken, the taker left in atari.
    Ko,
    /// A capture of two stones or more that leaves the capturer in atari
    /// but is not taken back at once.
    Capture,
    /// A sacrifice that sets up a snapback.
    Snapback,
    /// A throw-in that makes an opposing eye false or shortens liberties.
    ThrowIn,
    /// A play inside the opponent's small eye space that leaves one eye.
    Nakade,
    /// Not an atari yet: the move fills a liberty of its own chain, leaving
    /// two, and the opponent can now capture it (a self-inflicted shortage
    /// of liberties, dame-zumari; Pachi's "three-liberty suicide").
    ShortOfLiberties,
}

/// A self-atari and the judgement on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelfAtari {
    /// What kind it is.
    pub kind: SelfAtariKind,
    /// The stones left in atari (the chain at the move).
    pub stones: u32,
    /// Whether it gives stones away for nothing.
    pub bad: bool,
}

/// The quick capture question the judgements below ask.
fn capturable(board: &Board, chain: Point) -> bool {
    matches!(
        Reader::new(Limits::QUICK).attack(board, chain),
        Attack::Captures { .. }
    )
}

/// Whether `color` playing at `m` leaves its own chain in atari (or
/// without liberty), and whether that is bad; see the module docs. `None`
/// when the point is occupied or off the board, or the move is not a
/// self-atari.
pub fn self_atari(board: &Board, m: Point, color: Color) -> Option<SelfAtari> {
    if !board.size().contains(m) || !board.is_empty(m) {
        return None;
    }
    let them = color.opponent();
    let preview = board.preview(m, color);
    if preview.suicided > 0 {
        return Some(SelfAtari {
            kind: SelfAtariKind::Suicide,
            stones: preview.suicided,
            bad: true,
        });
    }
    let mut b = board.clone();
    let played = b.play_unchecked(m, color);
    if b.liberties(m) == 2 && played.captured == 0 {
        return three_liberty_suicide(board, &b, m, color);
    }
    if b.liberties(m) != 1 {
        return None;
    }
    let stones = b.chain_len(m);
    let verdict = |kind, bad| Some(SelfAtari { kind, stones, bad });
    if played.captured > 0 {
        if capture_is_snapped_back(board, m, color).is_some() {
            return verdict(SelfAtariKind::SnappedBack, true);
        }
        if played.captured == 1 && stones == 1 {
            return verdict(SelfAtariKind::Ko, false);
        }
        return verdict(SelfAtariKind::Capture, false);
    }
    if snapback(board, m, color).is_some() {
        return verdict(SelfAtariKind::Snapback, false);
    }
    let Some(lib) = b.last_liberty(m) else {
        return verdict(SelfAtariKind::Plain, true);
    };
    let friends = chains_around(board, m, color);
    let friend_stones: u32 = friends.iter().map(|&f| board.chain_len(f)).sum();
    // Could the chains we join have escaped instead, by their other liberty?
    let can_escape_instead = friends.iter().any(|&f| {
        board.liberties(f) >= 2
            && liberty_list(board, f)
                .into_iter()
                .any(|l| l != m && empty_neighbours(board, l) >= 2)
    });
    let sacrifice = Sacrifice {
        board,
        after: &b,
        m,
        color,
        lib,
    };
    if let Some(kind) = sacrifice.useful() {
        let big_connect = friend_stones >= 2 && can_escape_instead;
        return verdict(kind, big_connect);
    }
    let _ = them;
    if friend_stones > 0 {
        return verdict(SelfAtariKind::ConnectAndDie, true);
    }
    verdict(SelfAtariKind::Plain, true)
}

/// The move took an own chain from three liberties to two without
/// capturing or threatening anything, and the opponent can now capture it
/// by reading where it could not before: a self-inflicted shortage of
/// liberties (Pachi's "three-liberty suicide").
fn three_liberty_suicide(
    board: &Board,
    after: &Board,
    m: Point,
    color: Color,
) -> Option<SelfAtari> {
    let friends = chains_around(board, m, color);
    if friends.is_empty() || !friends.iter().any(|&f| board.liberties(f) == 3) {
        return None;
    }
    let them = color.opponent();
    let threatens = after
        .chain(m)
        .flat_map(|s| chains_around(after, s, them))
        .any(|t| after.liberties(t) <= 2);
    if threatens {
        return None;
    }
    if !capturable(after, m) {
        return None;
    }
    if friends.iter().any(|&f| capturable(board, f)) {
        return None;
    }
    Some(SelfAtari {
        kind: SelfAtariKind::ShortOfLiberties,
        stones: after.chain_len(m),
        bad: true,
    })
}

/// Whether `color` at `m` is a bad self-atari (see [`self_atari`]); `false`
/// when it is not a self-atari at all.
pub fn is_bad_self_atari(board: &Board, m: Point, color: Color) -> bool {
    self_atari(board, m, color).is_some_and(|s| s.bad)
}

/// A sacrifice at `m` by `color`, already played on `after` (the board
/// before it is `board`), its chain in atari at `lib`, capturing nothing.
struct Sacrifice<'a> {
    board: &'a Board,
    after: &'a Board,
    m: Point,
    color: Color,
    lib: Point,
}

impl Sacrifice<'_> {
    /// Whether the sacrifice is useful: a nakade or a throw-in.
    fn useful(&self) -> Option<SelfAtariKind> {
        self.nakade().or_else(|| self.throw_in())
    }

    /// The board once the opponent has captured the sacrifice; `None` when
    /// it may not.
    fn taken(&self) -> Option<Board> {
        let them = self.color.opponent();
        if !legal(self.after, self.lib, them) {
            return None;
        }
        let mut taken = self.after.clone();
        taken.play_unchecked(self.lib, them);
        Some(taken)
    }

    /// A nakade: the sacrifice is inside a small space enclosed by the
    /// opponent, and once the opponent has captured, what is left of the space
    /// is one killable eye and the opponent has no other. Either the sacrifice
    /// forces the capture (it ataris an opposing chain: capturing from inside),
    /// or the space was one the opponent could have made two eyes in.
    fn nakade(&self) -> Option<SelfAtariKind> {
        let Sacrifice {
            board,
            after,
            m,
            color,
            ..
        } = *self;
        let them = color.opponent();
        let size = board.size();
        // The space: points reachable from `m` without crossing an opposing
        // stone, at most seven.
        let region = flood(board, m, |p| board.get(p) != Some(them), 7)?;
        let forcing = chains_around(after, m, them)
            .iter()
            .chain(
                after
                    .chain(m)
                    .flat_map(|s| chains_around(after, s, them))
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .any(|&t| after.liberties(t) == 1);
        // Two points or fewer is one eye already: nothing to spoil unless forced.
        let unsettled = region.len() >= 3;
        if !forcing && !unsettled {
            return None;
        }
        let taken = self.taken()?;
        // What is left of the space after the capture: its points not now
        // holding an opposing stone, in connected parts.
        let mut left = PointSet::new();
        for &p in &region {
            if taken.get(p) != Some(them) {
                left.insert(p);
            }
        }
        let start = region.iter().copied().find(|&p| left.contains(p))?;
        let part = flood(&taken, start, |p| left.contains(p), 7)?;
        let total = region.iter().filter(|&&p| left.contains(p)).count();
        if part.len() != total {
            // Two separate spaces: two eyes.
            return None;
        }
        if !classify_space(size, part.clone()).killable {
            return None;
        }
        // No other eye for the chains around it.
        let mut inside = PointSet::new();
        for &p in &part {
            inside.insert(p);
        }
        let mut ids = PointSet::new();
        for &p in &part {
            for n in taken.neighbours(p) {
                if taken.get(n) == Some(them)
                    && let Some(id) = taken.chain_id(n)
                    && ids.insert(id)
                    && has_eye_outside(&taken, n, &inside)
                {
                    return None;
                }
            }
        }
        Some(SelfAtariKind::Nakade)
    }

    /// A throw-in: a single stone on a point that is the opponent's but for
    /// one empty neighbour, not in the corner, that neighbour hemmed in by the
    /// opponent (or the edge) on two sides; when the opponent captures, the
    /// point is a false eye, or the capturing chain is left short of liberties
    /// and can be captured.
    fn throw_in(&self) -> Option<SelfAtariKind> {
        let Sacrifice {
            board,
            after,
            m,
            color,
            lib,
        } = *self;
        let them = color.opponent();
        if after.chain_len(m) != 1 {
            return None;
        }
        let neighbours = on_board_neighbours(board, m);
        let theirs = board
            .neighbours(m)
            .filter(|&n| board.get(n) == Some(them))
            .count();
        if neighbours < 3 || theirs + 1 != neighbours {
            return None;
        }
        let hem = board
            .neighbours(lib)
            .filter(|&n| board.get(n) == Some(them))
            .count()
            + (4 - on_board_neighbours(board, lib));
        if hem < 2 {
            return None;
        }
        let taken = self.taken()?;
        if eye(&taken, m, them) == Some(EyeKind::False) {
            return Some(SelfAtariKind::ThrowIn);
        }
        if taken.liberties(lib) <= 2 && capturable(&taken, lib) {
            return Some(SelfAtariKind::ThrowIn);
        }
        None
    }
}

/// Whether the chain at `chain` has a one-point real eye, or an enclosed
/// space of two or three points of its colour, among its liberties outside
/// `exclude` (larger spaces on small boards are usually open areas).
fn has_eye_outside(board: &Board, chain: Point, exclude: &PointSet) -> bool {
    let Some(color) = board.get(chain) else {
        return false;
    };
    for l in liberty_list(board, chain) {
        if exclude.contains(l) {
            continue;
        }
        if eye(board, l, color) == Some(EyeKind::Real) {
            return true;
        }
        if let Some(space) = crate::eyes::eye_space(board, l, color)
            && space
                .points
                .iter()
                .all(|&p| board.is_empty(p) && !exclude.contains(p))
            && (2..=3).contains(&space.points.len())
        {
            return true;
        }
    }
    false
}

/// A shortage of liberties (dame-zumari) a move causes to its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DameZumari {
    /// A stone of the chain whose liberties the move fills.
    pub chain: Point,
    /// Its liberties before the move (the most of the chains joined).
    pub before: u32,
    /// Its liberties after the move.
    pub after: u32,
    /// Whether the opponent can now capture it (and could not before).
    pub capturable: bool,
}

/// Whether `color` playing at `m` fills a liberty of its own chain without
/// giving it new ones, leaving it with two liberties or fewer: a shortage of
/// liberties (dame-zumari) it inflicts on itself. `capturable` says whether
/// the opponent can now capture the chain by reading when it could not
/// before. `None` for an illegal move, a capture, or a move that does not
/// shorten an own chain.
pub fn dame_zumari(board: &Board, m: Point, color: Color) -> Option<DameZumari> {
    if !legal(board, m, color) {
        return None;
    }
    let friends = chains_around(board, m, color);
    if friends.is_empty() {
        return None;
    }
    let before = friends
        .iter()
        .map(|&f| board.liberties(f))
        .max()
        .unwrap_or(0);
    let mut b = board.clone();
    let played = b.play_unchecked(m, color);
    if played.captured > 0 {
        return None;
    }
    let after = b.liberties(m);
    if after >= before || after > 2 {
        return None;
    }
    let was_safe = friends.iter().all(|&f| !capturable(board, f));
    let now_capturable = capturable(&b, m);
    Some(DameZumari {
        chain: m,
        before,
        after,
        capturable: was_safe && now_capturable,
    })
}
