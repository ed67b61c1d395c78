//! The shape terms: a new stone's relation to the stones near it, by the
//! offsets and empty-point conditions of ecosystem-study section 6.3, with
//! the edge and corner conditions measured in lines from the edge.

use crate::Named;
use crate::geometry::{
    DIRECTIONS, Offset, Relation, across, add, distance, holds, line_toward, scale, touches,
    touches_diagonally,
};
use crate::words::{Play, named, stone, stones};
use tengen_core::{Board, BoardSize, Color, Point, Symmetry};
use tengen_tactics::util::{chains_around, liberty_list, within};
use tengen_words::Sentence;

const KOSUMI: Relation = Relation {
    target: (1, 1),
    empty: &[(1, 0), (0, 1)],
};
const KEIMA: Relation = Relation {
    target: (2, 1),
    empty: &[(1, 0), (1, 1)],
};
const OGEIMA: Relation = Relation {
    target: (3, 1),
    empty: &[(1, 0), (2, 0), (1, 1), (2, 1)],
};
const IKKEN: Relation = Relation {
    target: (2, 0),
    empty: &[(1, 0)],
};
const NIKEN: Relation = Relation {
    target: (3, 0),
    empty: &[(1, 0), (2, 0)],
};
const SANGEN: Relation = Relation {
    target: (4, 0),
    empty: &[(1, 0), (2, 0), (3, 0)],
};

/// Appends the shape terms of the play.
pub(crate) fn shapes(p: &Play<'_>, out: &mut Vec<Named>) {
    let b = p.before;
    let me = p.color;
    let them = me.opponent();
    let friend_beside = touches(b, p.m, me);
    let enemy_beside = touches(b, p.m, them);
    let friend_diagonal = touches_diagonally(b, p.m, me);
    if p.captured == 0 {
        contact(p, friend_beside, enemy_beside, friend_diagonal, out);
        cuts(p, out);
    }
    if !friend_beside && !enemy_beside && !friend_diagonal {
        let extension = extensions(p, out);
        out.extend(boshi(p));
        out.extend(hasami(p));
        let approach = kakari(p);
        if !extension && approach.is_none() {
            out.extend(kogeima(p));
        }
        out.extend(approach);
        out.extend(wariuchi(p));
    }
}

/// Nobi, tetchu, kosumi, kosumi-tsuke, tsuke, osae: moves touching a stone
/// or diagonal to a friendly one.
fn contact(
    p: &Play<'_>,
    friend_beside: bool,
    enemy_beside: bool,
    friend_diagonal: bool,
    out: &mut Vec<Named>,
) {
    let b = p.before;
    let me = p.color;
    let them = me.opponent();
    let friends = chains_around(b, p.m, me);
    if friends.len() == 1 {
        let f = friends[0];
        match tetchu(p) {
            Some(n) => out.push(n),
            None => out.push(named(
                "nobi",
                Sentence::new("lexicon.nobi").text("from", p.name(f)),
            )),
        }
    }
    if !friend_beside && let Some(f) = KOSUMI.find(b, p.m, me) {
        let enemy = b.neighbours(p.m).find(|&q| b.get(q) == Some(them));
        match enemy {
            Some(e) => out.push(named(
                "kosumi-tsuke",
                Sentence::new("lexicon.kosumi-tsuke")
                    .text("from", p.name(f))
                    .word("stone", stone(them))
                    .text("at", p.name(e)),
            )),
            None => out.push(named(
                "kosumi",
                Sentence::new("lexicon.kosumi").text("from", p.name(f)),
            )),
        }
    }
    if enemy_beside
        && !friend_beside
        && !friend_diagonal
        && let Some(e) = b.neighbours(p.m).find(|&q| b.get(q) == Some(them))
    {
        out.push(named(
            "tsuke",
            Sentence::new("lexicon.tsuke")
                .word("stone", stone(them))
                .text("at", p.name(e)),
        ));
    }
    if let Some(e) = osae(b, p.m, me) {
        out.push(named(
            "osae",
            Sentence::new("lexicon.osae")
                .word("stones", stones(them))
                .text("at", p.name(e)),
        ));
    }
}

/// Tetchu (iron pillar): a second stone right above or below a lone
/// friendly stone, the pair at right angles to the nearest edge on lines
/// 2-3 or 3-4, with no opposing stone touching either.
fn tetchu(p: &Play<'_>) -> Option<Named> {
    let b = p.before;
    let size = b.size();
    let me = p.color;
    let them = me.opponent();
    let f = b.neighbours(p.m).find(|&q| b.get(q) == Some(me))?;
    if b.chain_len(f) != 1 || touches(b, p.m, them) || touches(b, f, them) {
        return None;
    }
    let (mx, my) = size.xy(p.m);
    let (fx, fy) = size.xy(f);
    let u: Offset = (fx as i32 - mx as i32, fy as i32 - my as i32);
    let fits = [u, scale(u, -1)].into_iter().any(|e| {
        let (ln, lf) = (line_toward(size, p.m, e), line_toward(size, f, e));
        let pair = (ln.min(lf), ln.max(lf));
        (pair == (2, 3) || pair == (3, 4))
            && ln.min(lf) == (size.line(p.m).min(size.line(f)) as i32)
    });
    fits.then(|| {
        named(
            "tetchu",
            Sentence::new("lexicon.tetchu").text("with", p.name(f)),
        )
    })
}

/// Osae: next to an opposing chain of two stones or more on the same line
/// near an edge (line 4 or lower), in front of it, with a friendly stone
/// above the new stone or above the blocked one (the wall that blocks).
/// Returns the blocked stone.
fn osae(b: &Board, m: Point, me: Color) -> Option<Point> {
    let size = b.size();
    let them = me.opponent();
    DIRECTIONS.iter().find_map(|&d| {
        if line_toward(size, m, d) > 4 {
            return None;
        }
        [across(d), scale(across(d), -1)].into_iter().find_map(|a| {
            let e = size.shift(m, a)?;
            let crawling = b.get(e) == Some(them)
                && (holds(b, e, a, Some(them)) || b.chain_len(e) >= 2)
                && line_toward(size, e, d) == line_toward(size, m, d);
            let up = scale(d, -1);
            let wall = holds(b, m, up, Some(me)) || holds(b, m, add(up, a), Some(me));
            (crawling && wall).then_some(e)
        })
    })
}

/// Ate-komi, kiri-chigae, wari-komi: moves between opposing stones.
fn cuts(p: &Play<'_>, out: &mut Vec<Named>) {
    let b = p.before;
    let size = b.size();
    let me = p.color;
    let them = me.opponent();
    let chain = |o: Offset| -> Option<(Point, Point)> {
        let q = size.shift(p.m, o)?;
        (b.get(q) == Some(them)).then_some((q, b.chain_id(q)?))
    };
    // The four turns of a corner: the symmetries that keep the axes.
    for k in &Symmetry::ALL[..4] {
        let (Some((e1, c1)), Some((e2, c2))) = (chain(k.offset((1, 0))), chain(k.offset((0, 1))))
        else {
            continue;
        };
        if c1 == c2 {
            continue;
        }
        let corner = k.offset((1, 1));
        let Some(cut) = size.shift(p.m, corner) else {
            continue;
        };
        if b.is_empty(cut) {
            out.push(named(
                "ate-komi",
                Sentence::new("lexicon.ate-komi")
                    .word("stones", stones(them))
                    .text("at1", p.name(e1))
                    .text("at2", p.name(e2))
                    .text("cut", p.name(cut)),
            ));
            return;
        }
        if b.get(cut) == Some(me) {
            out.push(named(
                "kiri-chigae",
                Sentence::new("lexicon.kiri-chigae")
                    .text("at1", p.name(e1))
                    .text("at2", p.name(e2)),
            ));
            return;
        }
    }
    for k in [Symmetry::IDENTITY, Symmetry::TRANSPOSE] {
        let (Some((e1, c1)), Some((e2, c2))) = (chain(k.offset((1, 0))), chain(k.offset((-1, 0))))
        else {
            continue;
        };
        if c1 != c2
            && holds(b, p.m, k.offset((0, 1)), None)
            && holds(b, p.m, k.offset((0, -1)), None)
        {
            out.push(named(
                "wari-komi",
                Sentence::new("lexicon.wari-komi")
                    .word("stones", stones(them))
                    .text("at1", p.name(e1))
                    .text("at2", p.name(e2)),
            ));
        }
    }
}

/// The cutting point a move peeps at (nozoki): an empty neighbour of the
/// new stone next to two opposing chains, which a stone there would keep
/// apart, because they have no other liberty in common. The two points of
/// a diagonal link are equal: a stone on one is answered on the other, the
/// cut never works, and a move beside one of them peeps at nothing.
pub(crate) fn peeped_point(b: &Board, m: Point, me: Color) -> Option<Point> {
    let them = me.opponent();
    b.neighbours(m).find(|&q| {
        if !b.is_empty(q) {
            return false;
        }
        let chains = chains_around(b, q, them);
        chains.iter().enumerate().any(|(i, &a)| {
            let la = liberty_list(b, a);
            chains[i + 1..].iter().any(|&c| {
                liberty_list(b, c)
                    .into_iter()
                    .all(|l| l == q || !la.contains(&l))
            })
        })
    })
}

/// Nozoki (peep), "coup joué en face d'un trou entre 2 pierres et
/// constituant une menace de coupe": next to a cutting point
/// ([`peeped_point`]).
pub(crate) fn nozoki(p: &Play<'_>) -> Option<Named> {
    if p.captured > 0 {
        return None;
    }
    let cut = peeped_point(p.before, p.m, p.color)?;
    Some(named(
        "nozoki",
        Sentence::new("lexicon.nozoki").text("cut", p.name(cut)),
    ))
}

/// The nearest extension from a friendly stone: ikken-tobi, keima,
/// niken-tobi, ogeima or sangen-tobi, nearest first, and on the first line
/// with opposing stones near, saru-suberi and ozaru-suberi instead of keima
/// and ogeima. Whether one was found.
fn extensions(p: &Play<'_>, out: &mut Vec<Named>) -> bool {
    let b = p.before;
    let me = p.color;
    let name = |f: Point, id: &'static str, key: &'static str| {
        named(id, Sentence::new(key).text("from", p.name(f)))
    };
    let found = if let Some(f) = IKKEN.find(b, p.m, me) {
        name(f, "ikken-tobi", "lexicon.ikken-tobi")
    } else if let Some(f) = slide(p, 2) {
        name(f, "saru-suberi", "lexicon.saru-suberi")
    } else if let Some(f) = KEIMA.find(b, p.m, me) {
        name(f, "keima", "lexicon.keima")
    } else if let Some(f) = NIKEN.find(b, p.m, me) {
        name(f, "niken-tobi", "lexicon.niken-tobi")
    } else if let Some(f) = slide(p, 3) {
        name(f, "ozaru-suberi", "lexicon.ozaru-suberi")
    } else if let Some(f) = OGEIMA.find(b, p.m, me) {
        name(f, "ogeima", "lexicon.ogeima")
    } else if let Some(f) = SANGEN.find(b, p.m, me) {
        name(f, "sangen-tobi", "lexicon.sangen-tobi")
    } else {
        return false;
    };
    out.push(found);
    true
}

/// A knight's move (`long` 2) or large knight's move (`long` 3) onto the
/// first line from a friendly stone on the second, the long side along the
/// edge, with an opposing stone within `long + 1` points: the slide into
/// the opponent's side. Returns the friendly stone.
fn slide(p: &Play<'_>, long: i32) -> Option<Point> {
    let b = p.before;
    let size = b.size();
    let me = p.color;
    DIRECTIONS.iter().find_map(|&d| {
        if line_toward(size, p.m, d) != 1 {
            return None;
        }
        let up = scale(d, -1);
        [across(d), scale(across(d), -1)].into_iter().find_map(|a| {
            let f = size.shift(p.m, add(scale(a, long), up))?;
            let clear = (1..long).all(|i| {
                holds(b, p.m, scale(a, i), None) && holds(b, p.m, add(scale(a, i), up), None)
            });
            let near_enemy = size
                .points()
                .any(|q| b.get(q) == Some(me.opponent()) && distance(size, q, p.m) <= long + 1);
            (b.get(f) == Some(me) && line_toward(size, f, d) == 2 && clear && near_enemy)
                .then_some(f)
        })
    })
}

/// Kogeima: the small knight's move against an opposing stone (the keima
/// attack or approach), the points between empty.
fn kogeima(p: &Play<'_>) -> Option<Named> {
    let them = p.color.opponent();
    let e = KEIMA.find(p.before, p.m, them)?;
    Some(named(
        "kogeima",
        Sentence::new("lexicon.kogeima")
            .text("at", p.name(e))
            .word("stone", stone(them)),
    ))
}

/// Boshi (cap), "coup recouvrant une pierre à distance": two points from an
/// opposing stone near an edge (line 4 or lower), on the centre side of it,
/// the point between empty. A stone on a corner point approached from line
/// 3 or 4 (the one-space high approach to a 3-4 stone) is being approached
/// along the side, a kakari, not covered.
fn boshi(p: &Play<'_>) -> Option<Named> {
    let b = p.before;
    let size = b.size();
    let them = p.color.opponent();
    let e = DIRECTIONS.iter().find_map(|&d| {
        let e = size.shift(p.m, scale(d, 2))?;
        let ok = b.get(e) == Some(them)
            && holds(b, p.m, d, None)
            && line_toward(size, e, d) <= 4
            && size.line(p.m) > size.line(e)
            && !(size.line(p.m) <= 4 && on_corner_point(size, e));
        ok.then_some(e)
    })?;
    Some(named(
        "boshi",
        Sentence::new("lexicon.boshi")
            .word("stone", stone(them))
            .text("at", p.name(e)),
    ))
}

/// Hasami (pincer, "coup prenant en tenaille une pierre adverse"): on line
/// 3 or 4 of a side, two to four points along the edge from a lone opposing
/// stone on line 3 or 4 ([`lone`]) that lies between the new stone and a
/// friendly stone it approached (within four points beyond it, lines 2 to
/// 5). A stone of a settled group, or one link of a chain, is not caught
/// between two sides: it is no pincer's target.
fn hasami(p: &Play<'_>) -> Option<Named> {
    let b = p.before;
    let size = b.size();
    let me = p.color;
    let them = me.opponent();
    for &d in &DIRECTIONS {
        let ln = line_toward(size, p.m, d);
        if !(3..=4).contains(&ln) {
            continue;
        }
        for a in [across(d), scale(across(d), -1)] {
            for s in 2..=4 {
                if !(1..s).all(|i| holds(b, p.m, scale(a, i), None)) {
                    continue;
                }
                for le in 3..=4 {
                    let Some(e) = size.shift(p.m, add(scale(a, s), scale(d, ln - le))) else {
                        continue;
                    };
                    if b.get(e) != Some(them) || !lone(b, e) {
                        continue;
                    }
                    let approached = (1..=4).any(|t| {
                        (2..=5).any(|lf| {
                            size.shift(e, add(scale(a, t), scale(d, le - lf)))
                                .is_some_and(|f| b.get(f) == Some(me))
                        })
                    });
                    if approached {
                        return Some(named(
                            "hasami",
                            Sentence::new("lexicon.hasami")
                                .word("stone", stone(them))
                                .text("at", p.name(e)),
                        ));
                    }
                }
            }
        }
    }
    None
}

/// How far (points along the lines) a pincered stone stands from any other
/// stone of its colour: far enough to be alone on its side, with room to
/// extend both ways.
const LONE_DISTANCE: i32 = 3;

/// Whether the stone at `e` stands alone: nothing touches it, even
/// diagonally, and no stone of its colour is within [`LONE_DISTANCE`].
fn lone(b: &Board, e: Point) -> bool {
    let size = b.size();
    let Some(c) = b.get(e) else {
        return false;
    };
    b.around(e).all(|q| b.is_empty(q))
        && !within(size, e, i64::from(LONE_DISTANCE)).any(|q| q != e && b.get(q) == Some(c))
}

/// The point at lines `(u, v)` from the corner whose edges lie in
/// directions `cx` and `cy`.
fn corner_point(size: BoardSize, (cx, cy): (Offset, Offset), u: i32, v: i32) -> Option<Point> {
    let (w, h) = (size.width() as i32, size.height() as i32);
    let x = if cx.0 < 0 { u - 1 } else { w - u };
    let y = if cy.1 < 0 { v - 1 } else { h - v };
    if x < 0 || y < 0 || x >= w || y >= h {
        return None;
    }
    size.point(x as u32, y as u32)
}

/// The four corners, as the directions of their two edges.
const CORNERS: [(Offset, Offset); 4] = [
    ((-1, 0), (0, -1)),
    ((1, 0), (0, -1)),
    ((-1, 0), (0, 1)),
    ((1, 0), (0, 1)),
];

/// The corner points a lone stone stands on to be approached.
const CORNER_POINTS: [(i32, i32); 8] = [
    (3, 3),
    (3, 4),
    (4, 3),
    (4, 4),
    (3, 5),
    (5, 3),
    (4, 5),
    (5, 4),
];

/// Whether `p` stands on one of the [`CORNER_POINTS`] of a corner of a
/// board of 13 lines or more.
fn on_corner_point(size: BoardSize, p: Point) -> bool {
    size.width() >= 13
        && size.height() >= 13
        && CORNERS.iter().any(|&(cx, cy)| {
            let uv = (line_toward(size, p, cx), line_toward(size, p, cy));
            CORNER_POINTS.contains(&uv)
        })
}

/// Kakari (approach): on a board of 13 lines or more, an opposing stone
/// alone in its corner (no other stone within the corner's 7x7 points) on
/// the 3-3, 3-4, 4-4, 3-5 or 4-5 point, and the new stone on line 3 or 4,
/// two or three points further from the corner along the other axis.
fn kakari(p: &Play<'_>) -> Option<Named> {
    let b = p.before;
    let size = b.size();
    if size.width() < 13 || size.height() < 13 {
        return None;
    }
    let them = p.color.opponent();
    for corner in CORNERS {
        let (un, vn) = (
            line_toward(size, p.m, corner.0),
            line_toward(size, p.m, corner.1),
        );
        for (ue, ve) in CORNER_POINTS {
            let Some(e) = corner_point(size, corner, ue, ve) else {
                continue;
            };
            if b.get(e) != Some(them) {
                continue;
            }
            let along_u = (2..=3).contains(&(un - ue)) && (3..=4).contains(&vn);
            let along_v = (2..=3).contains(&(vn - ve)) && (3..=4).contains(&un);
            if !(along_u || along_v) {
                continue;
            }
            let alone = (1..=7).all(|u| {
                (1..=7).all(|v| {
                    corner_point(size, corner, u, v).is_none_or(|q| q == e || b.is_empty(q))
                })
            });
            if alone {
                return Some(named(
                    "kakari",
                    Sentence::new("lexicon.kakari")
                        .word("stone", stone(them))
                        .text("at", p.name(e)),
                ));
            }
        }
    }
    None
}

/// Wariuchi: on a board of 13 lines or more, on line 3 or 4 of a side (six
/// lines or more from the other edges), alone in its band of the first five
/// lines, with the nearest stones along the side on each hand opposing and
/// four points away or more (room for a two-point extension both ways).
fn wariuchi(p: &Play<'_>) -> Option<Named> {
    let b = p.before;
    let size = b.size();
    if size.width() < 13 || size.height() < 13 {
        return None;
    }
    let me = p.color;
    let them = me.opponent();
    for &d in &DIRECTIONS {
        let ln = line_toward(size, p.m, d);
        if ln != size.line(p.m) as i32 || !(3..=4).contains(&ln) {
            continue;
        }
        let a = across(d);
        if line_toward(size, p.m, a) < 6 || line_toward(size, p.m, scale(a, -1)) < 6 {
            continue;
        }
        // The stones of the band (lines 1 to 5) `s` points along `a`.
        let column = |a: Offset, s: i32| -> Vec<Color> {
            (1..=5)
                .filter_map(|l| size.shift(p.m, add(scale(a, s), scale(d, ln - l))))
                .filter_map(|q| b.get(q))
                .collect()
        };
        if !column(a, 0).is_empty() {
            continue;
        }
        let side = |a: Offset| -> Option<(i32, Point)> {
            for s in 1.. {
                let q = size.shift(p.m, scale(a, s))?;
                let stones = column(a, s);
                if stones.is_empty() {
                    continue;
                }
                return (stones.iter().all(|&c| c == them)).then_some((s, q));
            }
            None
        };
        if let (Some((s1, q1)), Some((s2, q2))) = (side(a), side(scale(a, -1)))
            && s1 >= 4
            && s2 >= 4
        {
            return Some(named(
                "wariuchi",
                Sentence::new("lexicon.wariuchi")
                    .word("stones", stones(them))
                    .text("at1", p.name(q1))
                    .text("at2", p.name(q2)),
            ));
        }
    }
    None
}
