//! The terms of the flow of the game: te-nuki and miai from the move
//! before, sente, gote and kikashi from the moves after.
//!
//! "Near" is a king's-move distance of at most [`LOCAL`] points, "elsewhere"
//! more than [`ELSEWHERE`]: a local answer is played next to the move it
//! answers, a move elsewhere leaves the local fight. Sente, gote and
//! kikashi are judged from what the players did; te-nuki reads whether the
//! move ignored was a threat.

use crate::Named;
use crate::geometry::{distance, touches, touches_diagonally};
use crate::shape::peeped_point;
use crate::tactic::Readers;
use crate::words::{Play, Previous, named, player};
use tengen_core::{Board, BoardSize, Color, Move, Point, Turn, Vertex};
use tengen_tactics::util::{PointSet, chains_around, within};
use tengen_words::Sentence;

/// A king's-move distance within which a move answers another.
const LOCAL: i32 = 2;
/// A king's-move distance beyond which a move is played elsewhere.
const ELSEWHERE: i32 = 4;

/// What the naming of one turn leaves for the judgement of the moves after
/// it: the points where the opponent must answer it (the last liberty of a
/// chain it put in atari, the cutting point it peeped at).
#[derive(Clone, Debug, Default)]
pub(crate) struct Threats {
    pub(crate) answers: Vec<Point>,
}

/// Te-nuki, "coup ignorant la dernière pierre de l'adversaire pour jouer
/// ailleurs": the opponent's last stone asked for an answer ([`threatens`])
/// and the move is played elsewhere. After a move that closed a local
/// exchange, playing elsewhere ignores nothing.
pub(crate) fn te_nuki(p: &Play<'_>, prev: Previous<'_>, readers: &mut Readers) -> Option<Named> {
    let Move::Play(q) = prev.turn.mv else {
        return None;
    };
    let size = p.before.size();
    if prev.turn.color == p.color || distance(size, q, p.m) <= ELSEWHERE {
        return None;
    }
    threatens(prev.board, p.before, q, p.color, readers).then(|| {
        named(
            "te-nuki",
            Sentence::new("lexicon.te-nuki")
                .word("player", player(prev.turn.color))
                .text("at", p.name(q)),
        )
    })
}

/// How near (points along the lines) a chain must stand to the opponent's
/// stone for the stone to threaten it.
const THREAT_REACH: i64 = 2;

/// Whether the opponent's stone at `q`, played on `earlier` to give `now`,
/// asks `me` for an answer, by reading rather than by distance: it is a
/// tsuke (in contact with `me`'s stones and with none of its own, the
/// contact that asks how the stone will answer), it peeps at a cutting
/// point of `me`'s ([`peeped_point`]), it puts a chain of `me`'s near it in
/// atari, or a chain of `me`'s near it that could not be captured before
/// can be now if `me` plays elsewhere (a net, a ladder). A stone that
/// extends, connects or blocks beside its own closes an exchange and asks
/// nothing by itself.
fn threatens(earlier: &Board, now: &Board, q: Point, me: Color, readers: &mut Readers) -> bool {
    let them = me.opponent();
    let tsuke = touches(earlier, q, me)
        && !touches(earlier, q, them)
        && !touches_diagonally(earlier, q, them);
    if tsuke || peeped_point(earlier, q, them).is_some() {
        return true;
    }
    let mut seen = PointSet::new();
    within(now.size(), q, THREAT_REACH).any(|s| {
        now.get(s) == Some(me)
            && now.chain_id(s).is_some_and(|id| seen.insert(id))
            && ((now.liberties(s) == 1 && earlier.liberties(s) > 1)
                || (readers.capturable(now, s) && !readers.capturable(earlier, s)))
    })
}

/// Miai: the opponent has just played on one of two points that each
/// joined the same two friendly chains, and the move takes the other.
pub(crate) fn miai(p: &Play<'_>, prev: Previous<'_>) -> Option<Named> {
    let Move::Play(q) = prev.turn.mv else {
        return None;
    };
    let b = prev.board;
    if prev.turn.color == p.color || !b.is_empty(p.m) || !b.is_empty(q) {
        return None;
    }
    let here = chains_around(b, p.m, p.color);
    let there = chains_around(b, q, p.color);
    let shared = here
        .iter()
        .filter(|&&c| there.iter().any(|&d| b.chain_id(d) == b.chain_id(c)))
        .count();
    (shared >= 2).then(|| {
        named(
            "miai",
            Sentence::new("lexicon.miai")
                .text("taken", p.name(q))
                .text("at", p.name(p.m))
                .word("opponent", player(prev.turn.color))
                .word("player", player(p.color)),
        )
    })
}

/// The stone of a turn, if it is one.
fn stone(t: &Turn) -> Option<Point> {
    match t.mv {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    }
}

/// Whether `b` is elsewhere from `a` (a pass is elsewhere from anything).
fn elsewhere(size: BoardSize, a: Point, b: Option<Point>) -> bool {
    b.is_none_or(|b| distance(size, a, b) > ELSEWHERE)
}

/// Sente, gote and kikashi of every turn, from the two turns after it:
/// - kikashi: the move threatened (an atari, a peep), the opponent answered
///   at the threatened point, and the mover then played elsewhere;
/// - sente: otherwise, the opponent answered near the move and the mover
///   then played elsewhere (the mover kept the initiative);
/// - gote: the move answered the move before (near it), and the opponent
///   then played elsewhere (the mover lost the initiative).
pub(crate) fn after_moves(
    size: BoardSize,
    turns: &[Turn],
    threats: &[Threats],
    names: &mut [Vec<Named>],
) {
    for i in 0..turns.len() {
        let Some(m) = stone(&turns[i]) else {
            continue;
        };
        let color = turns[i].color;
        let reply = turns.get(i + 1).filter(|t| t.color != color);
        let next = turns.get(i + 2).filter(|t| t.color == color);
        let (Some(reply), Some(names_i)) = (reply, names.get_mut(i)) else {
            continue;
        };
        let r = stone(reply);
        let then = next.map(stone);
        let left = |r: Point| then.is_some_and(|n| elsewhere(size, m, n) && elsewhere(size, r, n));
        if let Some(r) = r {
            let answered = threats.get(i).is_some_and(|t| t.answers.contains(&r));
            if answered && left(r) {
                names_i.push(kikashi(size, color, r));
                continue;
            }
            if distance(size, m, r) <= LOCAL && left(r) {
                names_i.push(named(
                    "sente",
                    Sentence::new("lexicon.sente")
                        .word("opponent", player(color.opponent()))
                        .word("player", player(color)),
                ));
                continue;
            }
        }
        let before = i.checked_sub(1).and_then(|j| turns.get(j)).and_then(stone);
        if let Some(before) = before
            && distance(size, m, before) <= LOCAL
            && elsewhere(size, m, r)
            && elsewhere(size, before, r)
        {
            names_i.push(named(
                "gote",
                Sentence::new("lexicon.gote")
                    .word("opponent", player(color.opponent()))
                    .word("player", player(color)),
            ));
        }
    }
}

/// The kikashi sentence: `r` is the forced answer.
fn kikashi(size: BoardSize, color: Color, r: Point) -> Named {
    named(
        "kikashi",
        Sentence::new("lexicon.kikashi")
            .word("opponent", player(color.opponent()))
            .text("at", Vertex::point_name(r, size))
            .word("player", player(color)),
    )
}
