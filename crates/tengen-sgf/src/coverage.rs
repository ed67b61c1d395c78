//! How much of a file lenient reading took as SGF. Leniency recovers games
//! from damaged files, and so also finds a few "game trees" in any bytes
//! at all (100 KB of random bytes hold some `(;` or `(X[`): such trees are
//! mostly skipped characters, or hold no property SGF defines, and the
//! file is not a record, whatever was recovered.

use crate::GameTree;
use std::fmt;

/// Bytes of the decoded text skipped or dropped as not SGF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Outside game trees: text before, between and after them, stray `)`.
    pub outside: usize,
    /// Inside them: stray characters, letters without values, values
    /// without letters.
    pub inside: usize,
}

/// Game information a record's root holds: a tree with one of them was
/// written as a record. Random text makes such an identifier followed by
/// `[` too rarely to matter.
const GAME_INFO: [&str; 12] = [
    "GM", "FF", "SZ", "CA", "AP", "KM", "RU", "PB", "PW", "HA", "DT", "RE",
];

/// Properties whose values are points: one holding a point (or a pass)
/// is a move or a stone of a record.
const STONES: [&str; 5] = ["B", "W", "AB", "AW", "AE"];

/// A file whose text is not SGF, though leniency found game trees in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotSgf {
    /// Bytes skipped or dropped as not SGF.
    pub skipped: usize,
    /// Bytes of the decoded text.
    pub len: usize,
    /// Game trees recovered from the rest.
    pub trees: usize,
}

impl NotSgf {
    /// `Some` when the trees are mostly skipped characters, or when most of
    /// the text was skipped and no tree looks like a record (game
    /// information, a move or a stone on a point). A record with a long
    /// preface (a mail, a test file's explanation) is mostly text outside
    /// its trees, but its trees are records.
    pub fn judge(len: usize, skipped: Skipped, trees: &[GameTree]) -> Option<NotSgf> {
        let in_trees = len.saturating_sub(skipped.outside);
        let junk_trees = skipped.inside > in_trees / 2;
        let total = skipped.outside + skipped.inside;
        let only_text = total > len / 2 && !trees.iter().any(looks_like_a_record);
        (junk_trees || only_text).then_some(NotSgf {
            skipped: skipped.outside + skipped.inside,
            len,
            trees: trees.len(),
        })
    }
}

fn looks_like_a_record(tree: &GameTree) -> bool {
    tree.nodes().any(|id| {
        tree.node(id).properties().iter().any(|p| {
            let ident = p.ident();
            GAME_INFO.contains(&ident)
                || (STONES.contains(&ident)
                    && p.values().iter().any(|v| {
                        let raw = v.raw();
                        raw.is_empty() || crate::parse_point(raw).is_some()
                    }))
        })
    })
}

impl fmt::Display for NotSgf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let percent = self.skipped * 100 / self.len.max(1);
        write!(
            f,
            "not an SGF file: {percent}% of its text ({} of {} bytes once decoded) is not SGF \
             and was skipped; the {} game tree(s) recovered from the rest are not read",
            self.skipped, self.len, self.trees
        )
    }
}
