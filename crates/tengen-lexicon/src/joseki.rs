//! A small joseki dictionary: standard corner sequences of the 19x19 board,
//! for the term `joseki`.
//!
//! Each entry is written in SGF letters in the top right corner (`pd` is
//! the 4-4 point, `qd` the 3-4 point), the corner stone first, the two
//! colours taking turns. A game's moves are sorted by corner (the 10x10
//! points nearest to it; the middle lines belong to two corners), and a
//! move is named `joseki` when the moves of its corner so far, three or
//! more, are the start of an entry under one of the eight symmetries of
//! the board, with either colour first. A move elsewhere between them
//! (tenuki) does not matter; a move in the corner that leaves the book ends
//! the naming there.
//!
//! The entries are standard lines of the hoshi (4-4) and komoku (3-4)
//! corners; each one is a line of the joseki trees of the Pachi program
//! (Kogo's joseki dictionary in part), which the tests check. Their names
//! are the catalogues' (`[word.joseki]`), so that each language says them.

use crate::Named;
use crate::geometry::line_toward;
use crate::words::named;
use tengen_core::{BoardSize, Color, Point};
use tengen_words::{Lang, Sentence};

/// One dictionary entry: its name and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The catalogue key of its name (`word.joseki.hoshi-low-cap`), said
    /// in each language by [`Entry::say`].
    pub name: &'static str,
    /// The moves in SGF letters, top right corner, separated by spaces.
    pub moves: &'static str,
}

/// The dictionary.
pub const DICTIONARY: [Entry; 33] = [
    Entry {
        name: "word.joseki.hoshi-low-keima-slide-extension",
        moves: "pd qf nc rd qc qi",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-slide-extension",
        moves: "pd qf nd rd qc qi",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-slide-close-extension",
        moves: "pd qf nd rd qc qh",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-33",
        moves: "pd qf qh qc qd pc od rd re rc qe nc",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-33-hane",
        moves: "pd qf qh qc qd pc od rd re rc rf nc",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-jump-out",
        moves: "pd qf qh of nd qc qd rd re rc qe ob",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-jump-out-press",
        moves: "pd qf qh of nd pi ph oh",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-double-approach",
        moves: "pd qf qh nc pf pg qg qc qe pc",
    },
    Entry {
        name: "word.joseki.hoshi-low-pincer-33-block",
        moves: "pd qf qh qc pc qd pe rf og",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-33",
        moves: "pd qf nd qc qd rd re rc qe ob pf",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-33-hane",
        moves: "pd qf nd qc qd rd pc rb qb rc",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-attach-under",
        moves: "pd qf nd qd qc rc qe rd pe re qb",
    },
    Entry {
        name: "word.joseki.hoshi-low-jump-two-point-extension",
        moves: "pd qf nd qi qe re rd",
    },
    Entry {
        name: "word.joseki.hoshi-low-attach-extend",
        moves: "pd qf qe pf nd ph qi mg",
    },
    Entry {
        name: "word.joseki.hoshi-low-attach-extend-extension",
        moves: "pd qf qe pf nd qi qj",
    },
    Entry {
        name: "word.joseki.hoshi-low-cap",
        moves: "pd qf pf pg qe",
    },
    Entry {
        name: "word.joseki.hoshi-low-keima-attach-under",
        moves: "pd qf nc qd qc rc qe rd pe re qb qh",
    },
    Entry {
        name: "word.joseki.hoshi-low-keima-two-point-extension",
        moves: "pd qf nc qj qh",
    },
    Entry {
        name: "word.joseki.hoshi-other-pincer-jump",
        moves: "pd nc lc ne pf kd",
    },
    Entry {
        name: "word.joseki.hoshi-other-pincer-double-approach",
        moves: "pd nc lc qf qc ld kd md of kc",
    },
    Entry {
        name: "word.joseki.hoshi-other-pincer-attach",
        moves: "pd nc lc pf nd md mc qd oc qc",
    },
    Entry {
        name: "word.joseki.hoshi-other-jump",
        moves: "pd nc pf pb",
    },
    Entry {
        name: "word.joseki.hoshi-low-keima-slide-cap",
        moves: "pd qf nc rd qh qc qe re pf pg qg rf of",
    },
    Entry {
        name: "word.joseki.komoku-low-kosumi",
        moves: "qd oc pe lc pc od pg",
    },
    Entry {
        name: "word.joseki.komoku-low-high-pincer",
        moves: "qd oc pf qc rc pd qe qb",
    },
    Entry {
        name: "word.joseki.komoku-low-two-point-pincer-attach",
        moves: "qd oc mc pe qe pf qg",
    },
    Entry {
        name: "word.joseki.komoku-low-two-point-pincer-jump",
        moves: "qd oc mc oe pf ph of md pc nc mf",
    },
    Entry {
        name: "word.joseki.komoku-high-attach-under-extend",
        moves: "qd od oc nc pc nd qf jc",
    },
    Entry {
        name: "word.joseki.komoku-high-pincer-33",
        moves: "qd od mc qc pc pd oc",
    },
    Entry {
        name: "word.joseki.komoku-high-pincer-attach-inside",
        moves: "qd od mc qc rc pc re pf qg",
    },
    Entry {
        name: "word.joseki.komoku-high-pincer-33-wall",
        moves: "qd od mc qc qg pd rd ob jc rc qj",
    },
    Entry {
        name: "word.joseki.komoku-high-jump-extension",
        moves: "qd od pf qc rc pc re lc",
    },
    Entry {
        name: "word.joseki.komoku-ogeima-attach-hane",
        moves: "qd nc od pb ld nd oc ob qc mb ne kc",
    },
];

impl Entry {
    /// Its name in `lang` ("4-4 point, low approach, cap").
    pub fn say(&self, lang: Lang) -> String {
        tengen_words::fill(lang, self.name, &[])
    }
}

/// The points of a corner: lines up to this from both of its edges.
const REACH: i32 = 10;

/// The four corners, as the directions of their two edges (the first is
/// the edge the SGF letters' first coordinate counts from).
const CORNERS: [((i32, i32), (i32, i32)); 4] = [
    ((1, 0), (0, -1)),
    ((-1, 0), (0, -1)),
    ((1, 0), (0, 1)),
    ((-1, 0), (0, 1)),
];

/// `(u, v)` of an SGF point in the top right corner of the 19x19 board:
/// lines from the right and top edges.
fn corner_lines(text: &str) -> Option<(i32, i32)> {
    let b = text.as_bytes();
    let (&x, &y) = (b.first()?, b.get(1)?);
    let (x, y) = (
        i32::from(x) - i32::from(b'a'),
        i32::from(y) - i32::from(b'a'),
    );
    ((0..19).contains(&x) && (0..19).contains(&y)).then_some((19 - x, y + 1))
}

/// The moves of an entry as corner lines.
pub fn entry_lines(entry: &Entry) -> Vec<(i32, i32)> {
    entry
        .moves
        .split_whitespace()
        .filter_map(corner_lines)
        .collect()
}

/// The moves played so far in each corner of a 19x19 game.
#[derive(Clone, Debug, Default)]
pub struct Corners {
    moves: [Vec<((i32, i32), Color)>; 4],
    book: Vec<Vec<(i32, i32)>>,
}

impl Corners {
    /// No move yet.
    pub fn new() -> Corners {
        Corners {
            moves: Default::default(),
            book: DICTIONARY.iter().map(entry_lines).collect(),
        }
    }

    /// Records `color`'s stone at `m`; the joseki term when its corner is
    /// still in the book with three moves or more.
    pub fn play(&mut self, size: BoardSize, m: Point, color: Color) -> Option<Named> {
        if size.width() != 19 || size.height() != 19 {
            return None;
        }
        let mut found = None;
        for (k, (du, dv)) in CORNERS.iter().enumerate() {
            let uv = (line_toward(size, m, *du), line_toward(size, m, *dv));
            if uv.0 > REACH || uv.1 > REACH {
                continue;
            }
            self.moves[k].push((uv, color));
            if found.is_none() {
                found = self.in_book(k);
            }
        }
        let (number, entry) = found?;
        Some(named(
            "joseki",
            Sentence::new("lexicon.joseki")
                .text("number", number)
                .word("sequence", entry.name),
        ))
    }

    /// The entry the moves of corner `k` start, with their number.
    fn in_book(&self, k: usize) -> Option<(usize, &'static Entry)> {
        let seq = &self.moves[k];
        let first = seq.first()?.1;
        let alternate = seq
            .iter()
            .enumerate()
            .all(|(i, &(_, c))| (c == first) == (i % 2 == 0));
        if seq.len() < 3 || !alternate {
            return None;
        }
        let i = self.book.iter().position(|line| {
            line.len() >= seq.len()
                && [false, true].iter().any(|&swap| {
                    seq.iter().zip(line).all(|(&((u, v), _), &(a, b))| {
                        if swap {
                            (v, u) == (a, b)
                        } else {
                            (u, v) == (a, b)
                        }
                    })
                })
        })?;
        Some((seq.len(), DICTIONARY.get(i)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_reads_alternates_and_stays_in_its_corner() {
        for e in &DICTIONARY {
            let lines = entry_lines(e);
            assert_eq!(
                lines.len(),
                e.moves.split_whitespace().count(),
                "{}",
                e.name
            );
            assert!(lines.len() >= 3, "{}", e.name);
            assert!(
                lines.iter().all(|&(u, v)| u <= REACH && v <= REACH),
                "{}",
                e.name
            );
            let mut sorted = lines.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), lines.len(), "a point twice in {}", e.name);
        }
    }

    /// Every entry's name is its own and is in the English catalogue.
    #[test]
    fn every_entry_has_its_own_name_in_the_catalogue() {
        let mut names: Vec<&str> = DICTIONARY.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DICTIONARY.len(), "two entries share a name");
        for e in &DICTIONARY {
            assert!(
                tengen_words::text(Lang::EN, e.name).is_some(),
                "{} is not in words/en.toml",
                e.name
            );
        }
    }
}
