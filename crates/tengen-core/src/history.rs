//! The arrangements of a game, for the repetition rules.
//!
//! Every arrangement `S0, S1, ...` is kept with who is to move and how it was
//! made. Lookups go through a hash map from Zobrist key to the latest entry
//! with that key, and entries with equal keys are chained, so a check costs
//! one map lookup plus the (rare) entries with the same key; on a key match
//! the packed arrangements are compared exactly, so a hash collision can never
//! make a legal play illegal.

use crate::board::Board;
use crate::color::Color;
use crate::rules::KoRule;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How an arrangement came to stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Maker {
    /// The start of the game, after setup and placed handicap stones.
    Start,
    /// A pass by this colour.
    Pass(Color),
    /// A stone play by this colour.
    Stone(Color),
}

/// Which repetition a play would break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// Retaking a ko at once (simple ko rule).
    Ko,
    /// Recreating an earlier arrangement (positional superko).
    Positional,
    /// Recreating an arrangement that stood with the opponent to move.
    Situational,
    /// Recreating an arrangement the player made by an earlier stone play.
    NaturalSituational,
}

#[derive(Clone, Debug)]
struct Entry {
    hash: u64,
    to_move: Color,
    maker: Maker,
    /// The previous entry with the same hash, or `NONE`.
    prev_same: u32,
}

const NONE: u32 = u32::MAX;

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// See the module docs.
#[derive(Clone, Debug)]
pub(crate) struct History {
    entries: Vec<Entry>,
    packed: Vec<u64>,
    words: usize,
    latest: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl std::fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyHasher")
    }
}

impl History {
    /// A history whose first arrangement is `board`.
    pub(crate) fn new(board: &Board, to_move: Color) -> History {
        let mut h = History {
            entries: Vec::new(),
            packed: Vec::new(),
            words: Board::packed_words(board.size()),
            latest: HashMap::default(),
        };
        h.push(board, to_move, Maker::Start);
        h
    }

    /// Records the arrangement after a turn.
    pub(crate) fn push(&mut self, board: &Board, to_move: Color, maker: Maker) {
        let index = self.entries.len() as u32;
        let hash = board.hash();
        let prev_same = self.latest.insert(hash, index).unwrap_or(NONE);
        self.entries.push(Entry {
            hash,
            to_move,
            maker,
            prev_same,
        });
        board.pack_into(&mut self.packed);
    }

    /// Turns recorded (arrangements minus the start).
    pub(crate) fn turns(&self) -> usize {
        self.entries.len() - 1
    }

    fn arrangement(&self, i: u32) -> &[u64] {
        let start = i as usize * self.words;
        self.packed.get(start..start + self.words).unwrap_or(&[])
    }

    /// Entries with this hash, latest first.
    fn same_hash(&self, hash: u64) -> impl Iterator<Item = (u32, &Entry)> {
        let mut at = self.latest.get(&hash).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            let e = self.entries.get(at as usize)?;
            let i = at;
            at = e.prev_same;
            Some((i, e))
        })
    }

    /// The repetition that `mover` would break by a stone play leading to
    /// an arrangement with key `hash_after`; `after` builds that arrangement
    /// (called only when some entry has the same key).
    pub(crate) fn violation(
        &self,
        rule: KoRule,
        mover: Color,
        hash_after: u64,
        after: impl FnOnce() -> Board,
    ) -> Option<Repetition> {
        let mut candidate: Option<Vec<u64>> = None;
        let mut after = Some(after);
        let mut equal = |i: u32| {
            let packed = candidate.get_or_insert_with(|| {
                let mut v = Vec::with_capacity(self.words);
                if let Some(f) = after.take() {
                    f().pack_into(&mut v);
                }
                v
            });
            self.arrangement(i) == packed.as_slice()
        };
        match rule {
            KoRule::Simple => {
                // The arrangement just before the opponent's last turn.
                let opponent = mover.opponent();
                let last = self.entries.iter().rposition(
                    |e| matches!(e.maker, Maker::Pass(c) | Maker::Stone(c) if c == opponent),
                )?;
                let i = last.checked_sub(1)? as u32;
                let e = self.entries.get(i as usize)?;
                (e.hash == hash_after && equal(i)).then_some(Repetition::Ko)
            }
            KoRule::Positional => self
                .same_hash(hash_after)
                .any(|(i, _)| equal(i))
                .then_some(Repetition::Positional),
            KoRule::Situational => self
                .same_hash(hash_after)
                .any(|(i, e)| e.to_move == mover.opponent() && equal(i))
                .then_some(Repetition::Situational),
            KoRule::NaturalSituational => self
                .same_hash(hash_after)
                .any(|(i, e)| e.maker == Maker::Stone(mover) && equal(i))
                .then_some(Repetition::NaturalSituational),
        }
    }

    /// How many times the latest situation (arrangement and player to move)
    /// has occurred, itself included.
    pub(crate) fn latest_situation_count(&self) -> usize {
        let Some(last) = self.entries.len().checked_sub(1) else {
            return 0;
        };
        let last = last as u32;
        let e = &self.entries[last as usize];
        let mine = self.arrangement(last);
        self.same_hash(e.hash)
            .filter(|(i, o)| o.to_move == e.to_move && self.arrangement(*i) == mine)
            .count()
    }
}
