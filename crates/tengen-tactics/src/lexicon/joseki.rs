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
//! (Kogo's joseki dictionary in part), which the tests check.

use super::Named;
use super::geometry::line_toward;
use super::words::named;
use tengen_core::{BoardSize, Color, Point};

/// One dictionary entry: its names and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// English name.
    pub en: &'static str,
    /// French name.
    pub fr: &'static str,
    /// The moves in SGF letters, top right corner, separated by spaces.
    pub moves: &'static str,
}

/// The dictionary.
pub const DICTIONARY: [Entry; 33] = [
    Entry {
        en: "4-4 point, low approach, knight's move answer, slide and extension",
        fr: "hoshi, approche basse, réponse en keima, glissade et extension",
        moves: "pd qf nc rd qc qi",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, slide and extension",
        fr: "hoshi, approche basse, ikken-tobi, glissade et extension",
        moves: "pd qf nd rd qc qi",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, slide and close extension",
        fr: "hoshi, approche basse, ikken-tobi, glissade et extension courte",
        moves: "pd qf nd rd qc qh",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, 3-3 invasion",
        fr: "hoshi, approche basse, pince basse à un intervalle, invasion au 3-3",
        moves: "pd qf qh qc qd pc od rd re rc qe nc",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, 3-3 invasion, hane",
        fr: "hoshi, approche basse, pince basse à un intervalle, invasion au 3-3, hane",
        moves: "pd qf qh qc qd pc od rd re rc rf nc",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, jump out",
        fr: "hoshi, approche basse, pince basse à un intervalle, sortie",
        moves: "pd qf qh of nd qc qd rd re rc qe ob",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, jump out and press",
        fr: "hoshi, approche basse, pince basse à un intervalle, sortie et pression",
        moves: "pd qf qh of nd pi ph oh",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, double approach",
        fr: "hoshi, approche basse, pince basse à un intervalle, double approche",
        moves: "pd qf qh nc pf pg qg qc qe pc",
    },
    Entry {
        en: "4-4 point, low approach, one-point low pincer, 3-3 and block",
        fr: "hoshi, approche basse, pince basse à un intervalle, 3-3 et blocage",
        moves: "pd qf qh qc pc qd pe rf og",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, 3-3 invasion",
        fr: "hoshi, approche basse, ikken-tobi, invasion au 3-3",
        moves: "pd qf nd qc qd rd re rc qe ob pf",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, 3-3 and hane",
        fr: "hoshi, approche basse, ikken-tobi, 3-3 et hane",
        moves: "pd qf nd qc qd rd pc rb qb rc",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, attach under",
        fr: "hoshi, approche basse, ikken-tobi, contact par dessous",
        moves: "pd qf nd qd qc rc qe rd pe re qb",
    },
    Entry {
        en: "4-4 point, low approach, one-point jump, two-point extension",
        fr: "hoshi, approche basse, ikken-tobi, extension de deux",
        moves: "pd qf nd qi qe re rd",
    },
    Entry {
        en: "4-4 point, low approach, attach and extend",
        fr: "hoshi, approche basse, tsuke-nobi",
        moves: "pd qf qe pf nd ph qi mg",
    },
    Entry {
        en: "4-4 point, low approach, attach and extend, extension",
        fr: "hoshi, approche basse, tsuke-nobi, extension",
        moves: "pd qf qe pf nd qi qj",
    },
    Entry {
        en: "4-4 point, low approach, cap",
        fr: "hoshi, approche basse, boshi",
        moves: "pd qf pf pg qe",
    },
    Entry {
        en: "4-4 point, low approach, knight's move answer, attach under",
        fr: "hoshi, approche basse, réponse en keima, contact par dessous",
        moves: "pd qf nc qd qc rc qe rd pe re qb qh",
    },
    Entry {
        en: "4-4 point, low approach, knight's move answer, two-point extension",
        fr: "hoshi, approche basse, réponse en keima, extension de deux",
        moves: "pd qf nc qj qh",
    },
    Entry {
        en: "4-4 point, low approach from the other side, pincer, jump",
        fr: "hoshi, approche basse de l'autre côté, pince, saut",
        moves: "pd nc lc ne pf kd",
    },
    Entry {
        en: "4-4 point, low approach from the other side, pincer, double approach",
        fr: "hoshi, approche basse de l'autre côté, pince, double approche",
        moves: "pd nc lc qf qc ld kd md of kc",
    },
    Entry {
        en: "4-4 point, low approach from the other side, pincer, attach",
        fr: "hoshi, approche basse de l'autre côté, pince, contact",
        moves: "pd nc lc pf nd md mc qd oc qc",
    },
    Entry {
        en: "4-4 point, low approach from the other side, one-point jump",
        fr: "hoshi, approche basse de l'autre côté, ikken-tobi",
        moves: "pd nc pf pb",
    },
    Entry {
        en: "4-4 point, low approach, knight's move answer, slide and cap",
        fr: "hoshi, approche basse, réponse en keima, glissade et boshi",
        moves: "pd qf nc rd qh qc qe re pf pg qg rf of",
    },
    Entry {
        en: "3-4 point, low approach, kosumi answer",
        fr: "komoku, approche basse, réponse en kosumi",
        moves: "qd oc pe lc pc od pg",
    },
    Entry {
        en: "3-4 point, low approach, one-point high pincer answer",
        fr: "komoku, approche basse, réponse en pince haute",
        moves: "qd oc pf qc rc pd qe qb",
    },
    Entry {
        en: "3-4 point, low approach, two-point low pincer, attach",
        fr: "komoku, approche basse, pince basse à deux intervalles, contact",
        moves: "qd oc mc pe qe pf qg",
    },
    Entry {
        en: "3-4 point, low approach, two-point low pincer, jump",
        fr: "komoku, approche basse, pince basse à deux intervalles, saut",
        moves: "qd oc mc oe pf ph of md pc nc mf",
    },
    Entry {
        en: "3-4 point, high approach, attach under and extend",
        fr: "komoku, approche haute, contact par dessous et extension",
        moves: "qd od oc nc pc nd qf jc",
    },
    Entry {
        en: "3-4 point, high approach, two-point low pincer, 3-3",
        fr: "komoku, approche haute, pince basse à deux intervalles, 3-3",
        moves: "qd od mc qc pc pd oc",
    },
    Entry {
        en: "3-4 point, high approach, two-point low pincer, attach inside",
        fr: "komoku, approche haute, pince basse à deux intervalles, contact intérieur",
        moves: "qd od mc qc rc pc re pf qg",
    },
    Entry {
        en: "3-4 point, high approach, two-point low pincer, 3-3 and wall",
        fr: "komoku, approche haute, pince basse à deux intervalles, 3-3 et mur",
        moves: "qd od mc qc qg pd rd ob jc rc qj",
    },
    Entry {
        en: "3-4 point, high approach, one-point jump, extension",
        fr: "komoku, approche haute, ikken-tobi, extension",
        moves: "qd od pf qc rc pc re lc",
    },
    Entry {
        en: "3-4 point, large knight's approach, attach and hane",
        fr: "komoku, approche en ogeima, contact et hane",
        moves: "qd nc od pb ld nd oc ob qc mb ne kc",
    },
];

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
            format!("joseki: move {number} of the {}", entry.en),
            format!("joseki : coup {number} de la séquence {}", entry.fr),
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
            assert_eq!(lines.len(), e.moves.split_whitespace().count(), "{}", e.en);
            assert!(lines.len() >= 3, "{}", e.en);
            assert!(
                lines.iter().all(|&(u, v)| u <= REACH && v <= REACH),
                "{}",
                e.en
            );
            let mut sorted = lines.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), lines.len(), "a point twice in {}", e.en);
        }
    }
}
