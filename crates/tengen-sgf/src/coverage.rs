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

/// The properties FF\[4\] defines, general and Go's (GM\[1\]): a game tree
/// holding none of them was not written as a record.
const DEFINED: [&str; 78] = [
    "AB", "AE", "AN", "AP", "AR", "AS", "AW", "B", "BL", "BM", "BR", "BT", "C", "CA", "CP", "CR",
    "DD", "DM", "DO", "DT", "EV", "FF", "FG", "GB", "GC", "GM", "GN", "GW", "HA", "HO", "IT", "KM",
    "KO", "LB", "LN", "MA", "MN", "N", "OB", "ON", "OT", "OW", "PB", "PC", "PL", "PM", "PW", "RE",
    "RO", "RU", "SE", "SL", "SO", "SQ", "ST", "SZ", "TB", "TE", "TM", "TR", "TW", "UC", "US", "V",
    "VW", "W", "WL", "WR", "WT", "ID", "L", "M", "EL", "EX", "LT", "OM", "OP", "OV",
];

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
    /// the text lies outside trees that hold no property SGF defines. A
    /// record with a long preface (a mail, a test file's explanation) is
    /// mostly text outside its trees, but its trees are SGF.
    pub fn judge(len: usize, skipped: Skipped, trees: &[GameTree]) -> Option<NotSgf> {
        let in_trees = len.saturating_sub(skipped.outside);
        let junk_trees = skipped.inside > in_trees / 2;
        let only_text = skipped.outside > len / 2 && !trees.iter().any(defines_something);
        (junk_trees || only_text).then_some(NotSgf {
            skipped: skipped.outside + skipped.inside,
            len,
            trees: trees.len(),
        })
    }
}

fn defines_something(tree: &GameTree) -> bool {
    tree.nodes().any(|id| {
        tree.node(id)
            .properties()
            .iter()
            .any(|p| DEFINED.contains(&p.ident()))
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
