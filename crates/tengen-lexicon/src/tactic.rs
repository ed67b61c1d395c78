//! The terms that need reading: shicho and shicho-atari, geta,
//! utte-gaeshi, semeai, dame-zumari, hori-komi, shibori, te-suji. Each is
//! asked of `tengen-tactics`' readers, never re-read here.

use crate::Named;
use crate::geometry::{distance, touches};
use crate::words::{Play, Previous, named, player, stone};
use tengen_core::{Board, Color, Point};
use tengen_tactics::atari::{SelfAtariKind, dame_zumari, self_atari};
use tengen_tactics::ladder::LadderResult;
use tengen_tactics::local::liberties_after_up_to;
use tengen_tactics::reader::{Limits, Reader};
use tengen_tactics::reading::{Attack, Defence, Net};
use tengen_tactics::semeai::{RaceOutcome, semeai};
use tengen_tactics::snapback::snapback;
use tengen_tactics::util::{PointSet, chains_around, legal, liberty_list};
use tengen_words::Sentence;

/// Plies a ladder must last to be a ladder rather than a plain capture or
/// a chain that simply runs out: the chain runs, is put in atari again,
/// runs again, is put in atari a third time, and runs or dies.
const MIN_LADDER_PLIES: u32 = 5;

/// Bounds for the net question the lexicon asks of every move: 300
/// nodes, lines of 40 plies (every candidate tried in the first 5), three
/// liberties counted as safe. A net (geta) is a short forced sequence on a
/// chain of two liberties; a search that needs more nodes than this answers "unknown",
/// and the move is not called a net. Nets on chains of three liberties are
/// left to the general reader: asking it of every move would take the
/// naming of a 250-move game past its 50 ms budget.
const NET_LIMITS: Limits = Limits {
    max_nodes: 300,
    max_depth: 40,
    full_depth: 5,
    safe_liberties: 3,
};

/// The readers the lexicon keeps from move to move (their board pools are
/// reused).
pub(crate) struct Readers {
    ladder: Reader,
    tactical: Reader,
}

impl Readers {
    pub(crate) fn new() -> Readers {
        Readers {
            ladder: Reader::new(Limits::LADDER),
            tactical: Reader::new(NET_LIMITS),
        }
    }

    /// Whether the ladder on the chain at `chain` works and is a real chase
    /// (read without looking for a breaker).
    fn ladder_works(&mut self, board: &Board, chain: Point) -> bool {
        matches!(self.ladder.ladder_works(board, chain), LadderResult::Captured { depth } if depth >= MIN_LADDER_PLIES)
    }

    /// Geta, "capture d'une pierre ou d'un groupe par une formation
    /// laissant des espaces mais ne permettant pas l'évasion": the reader's
    /// net ([`Reader::net`]: after the move the chain has two liberties or
    /// more and no escape, before it its owner could save it), the net
    /// stone touching no stone of the chain, joining no two friendly chains,
    /// not both extending a friendly chain and touching an opposing one,
    /// capturing nothing and giving no atari. A stone in contact with the
    /// chain, or one that extends a wall against an opposing stone, is a
    /// block; one that joins is a connection; one that takes or ataris is a
    /// capture: not the formation with gaps the glossary names.
    fn net(&mut self, p: &Play<'_>) -> Option<Net> {
        let b = p.before;
        let block = touches(b, p.m, p.color) && touches(b, p.m, p.color.opponent());
        if p.captured > 0
            || !p.ataris.is_empty()
            || block
            || chains_around(b, p.m, p.color).len() >= 2
        {
            return None;
        }
        let n = self.tactical.net(p.before, p.m, p.color)?;
        let id = p.after.chain_id(n.chain);
        let on_chain = p.after.neighbours(p.m).any(|q| p.after.chain_id(q) == id);
        (!on_chain).then_some(n)
    }

    /// Whether the net on the chain at `chain` is the only way to catch it:
    /// after each direct move, on the chain's liberties before the move,
    /// the reader saves the chain. A net where a plain atari or block also
    /// captures (or may, when the reading cannot tell) is not the brilliant
    /// move of te-suji.
    fn only_the_net_captures(&mut self, p: &Play<'_>, chain: Point) -> bool {
        let b = p.before;
        liberty_list(b, chain).into_iter().all(|l| {
            if !legal(b, l, p.color) {
                return true;
            }
            let mut direct = b.clone();
            direct.play_unchecked(l, p.color);
            direct.get(chain) == Some(p.color.opponent())
                && matches!(self.tactical.defend(&direct, chain), Defence::Saved { .. })
        })
    }

    /// Whether the opponent of the chain at `chain`, moving first, captures
    /// it within the lexicon's reading bounds.
    pub(crate) fn capturable(&mut self, board: &Board, chain: Point) -> bool {
        matches!(self.tactical.attack(board, chain), Attack::Captures { .. })
    }
}

/// Appends the reading terms of the play.
pub(crate) fn tactics(
    p: &Play<'_>,
    readers: &mut Readers,
    previous: Option<Previous<'_>>,
    out: &mut Vec<Named>,
) {
    let them = p.color.opponent();
    shicho(p, readers, out);
    out.extend(shicho_atari(p, readers));
    let geta = readers.net(p);
    if let Some(n) = geta {
        out.push(named(
            "geta",
            Sentence::new("lexicon.geta")
                .word("stone", stone(them))
                .text("at", p.name(n.chain))
                .text("count", n.stones),
        ));
    }
    let sacrifice = snapback(p.before, p.m, p.color);
    if let Some(s) = sacrifice {
        out.push(named(
            "utte-gaeshi",
            Sentence::new("lexicon.utte-gaeshi.sacrifice")
                .word("opponent", player(them))
                .text("capture", p.name(s.capture_at))
                .word("player", player(p.color))
                .text("count", s.taken)
                .text("recapture", p.name(s.recapture_at)),
        ));
    } else if let Some(prev) = previous {
        out.extend(snapback_taken(p, prev));
    }
    out.extend(race(p));
    let throw_in = self_atari(p.before, p.m, p.color);
    let hori_komi = throw_in.is_some_and(|s| s.kind == SelfAtariKind::ThrowIn && s.stones == 1);
    if hori_komi {
        out.push(named("hori-komi", Sentence::new("lexicon.hori-komi")));
    }
    let short = dame_zumari(p.before, p.m, p.color).is_some_and(|d| d.capturable)
        || throw_in.is_some_and(|s| {
            matches!(
                s.kind,
                SelfAtariKind::ConnectAndDie | SelfAtariKind::ShortOfLiberties
            )
        });
    if short {
        out.push(named("dame-zumari", Sentence::new("lexicon.dame-zumari")));
    }
    if sacrifice.is_none() && p.captured == 0 && p.after.liberties(p.m) == 1 {
        out.extend(shibori(p));
    }
    let tesuji = if geta.is_some_and(|n| readers.only_the_net_captures(p, n.chain)) {
        Some("geta")
    } else if sacrifice.is_some() {
        Some("utte-gaeshi")
    } else {
        None
    };
    if let Some(why) = tesuji {
        out.push(named(
            "te-suji",
            Sentence::new("lexicon.te-suji").text("why", why),
        ));
    }
}

/// How far (king's move) a ladder breaker must stand from the chain: a
/// stone nearer is one the chain simply connects to or captures with, not
/// one the ladder runs into.
const MIN_BREAKER_DISTANCE: i32 = 3;

/// Shicho, "séquence de capture d'un groupe en ne lui laissant à chaque
/// tour qu'une seule liberté; donne souvent une forme en escalier": an
/// atari on one chain of two liberties (a double atari is a different
/// threat; a chain already in atari is not put there by the move) whose ladder
/// works after a chase of [`MIN_LADDER_PLIES`] plies or more, the chain
/// running in a staircase ([`zigzag`]). A failing ladder captures nothing,
/// and a chain driven straight along a line is not the staircase.
fn shicho(p: &Play<'_>, readers: &mut Readers, out: &mut Vec<Named>) {
    let [q] = p.ataris.as_slice() else {
        return;
    };
    if p.before.liberties(*q) == 2
        && readers.ladder_works(p.after, *q)
        && zigzag(p.after, &readers.ladder.ladder_line(p.after, *q))
    {
        out.push(named("shicho", Sentence::new("lexicon.shicho")));
    }
}

/// Whether the chased chain's runs along a ladder's line climb a staircase:
/// they change both row and column, as the zigzag of a ladder does, rather
/// than all standing on one line.
fn zigzag(board: &Board, line: &[(Color, Point)]) -> bool {
    let size = board.size();
    let Some(runner) = line.first().map(|&(c, _)| c) else {
        return false;
    };
    let runs: Vec<(u32, u32)> = line
        .iter()
        .filter(|&&(c, _)| c == runner)
        .map(|&(_, q)| size.xy(q))
        .collect();
    let varies = |f: fn(&(u32, u32)) -> u32| runs.iter().any(|r| f(r) != runs.first().map_or(0, f));
    varies(|r| r.0) && varies(|r| r.1)
}

/// Shicho-atari: a stone [`MIN_BREAKER_DISTANCE`] points or more from a
/// friendly chain of two liberties that the opponent could have caught in
/// a ladder before the move and cannot after it. Returns the term for the
/// first such chain.
fn shicho_atari(p: &Play<'_>, readers: &mut Readers) -> Option<Named> {
    let me = p.color;
    let size = p.before.size();
    let beside = chains_around(p.before, p.m, me);
    let mut seen = PointSet::new();
    for q in size.points() {
        if p.before.get(q) != Some(me) || p.before.liberties(q) != 2 {
            continue;
        }
        let Some(id) = p.before.chain_id(q) else {
            continue;
        };
        if !seen.insert(id) || beside.contains(&id) || p.after.liberties(q) != 2 {
            continue;
        }
        if p.before
            .chain(q)
            .any(|c| distance(size, c, p.m) < MIN_BREAKER_DISTANCE)
        {
            continue;
        }
        if readers.ladder_works(p.before, q)
            && matches!(
                readers.ladder.ladder_works(p.after, q),
                LadderResult::Escapes { .. }
            )
        {
            return Some(named(
                "shicho-atari",
                Sentence::new("lexicon.shicho-atari").text("at", p.name(q)),
            ));
        }
    }
    None
}

/// The snapback itself: the opponent's last move captured stones at this
/// point, and this move takes back two stones or more there.
fn snapback_taken(p: &Play<'_>, prev: Previous<'_>) -> Option<Named> {
    let tengen_core::Move::Play(q) = prev.turn.mv else {
        return None;
    };
    let taken_here = prev.board.get(p.m) == Some(p.color) && prev.turn.color != p.color;
    (taken_here && p.captured >= 2 && p.after.is_empty(q)).then(|| {
        named(
            "utte-gaeshi",
            Sentence::new("lexicon.utte-gaeshi.taken").text("count", p.captured),
        )
    })
}

/// Semeai, "course de capture entre 2 groupes n'ayant pas de base de vie":
/// the move fills a liberty of an opposing chain of two stones or more,
/// left with three liberties or fewer, that touches a friendly chain of two
/// stones or more with two or three liberties, neither chain having two
/// eyes nor a way out ([`enclosed`]), in a race that was close before the
/// move (whoever moved first would capture): a capture race, counted and
/// solved by [`semeai`]. Two short chains side by side that can still run
/// or connect are a fight, not a race.
fn race(p: &Play<'_>) -> Option<Named> {
    let a = p.after;
    let me = p.color;
    let them = me.opponent();
    for e in chains_around(a, p.m, them) {
        if a.chain_len(e) < 2 || a.liberties(e) > 3 {
            continue;
        }
        let mut friends: Vec<Point> = Vec::new();
        for s in a.chain(e) {
            for f in chains_around(a, s, me) {
                let id = a.chain_id(f);
                if friends.iter().any(|&g| a.chain_id(g) == id) {
                    continue;
                }
                friends.push(f);
            }
        }
        for f in friends {
            if a.chain_len(f) < 2 || !(2..=3).contains(&a.liberties(f)) {
                continue;
            }
            let Some(s) = semeai(a, f, e) else {
                continue;
            };
            if s.black.eyes >= 2
                || s.white.eyes >= 2
                || !enclosed(a, f, e)
                || !enclosed(a, e, f)
                || !was_close(p, f, e)
            {
                continue;
            }
            let outcome = match them {
                Color::Black => s.black_first,
                Color::White => s.white_first,
            };
            let sentence = match outcome {
                RaceOutcome::Captures(c) => {
                    Sentence::new("lexicon.semeai.won").word("winner", player(c))
                }
                RaceOutcome::Seki => Sentence::new("lexicon.semeai.seki"),
            };
            return Some(named(
                "semeai",
                sentence
                    .word("player", player(me))
                    .text("liberties", a.liberties(f))
                    .word("opponent", player(them))
                    .text("their_liberties", a.liberties(e)),
            ));
        }
    }
    None
}

/// Whether the chain at `c` is shut in against the chain at `other`: no
/// move of its owner on one of its own liberties (those it does not share
/// with `other`) leaves it with more liberties than it has. A chain that
/// can gain liberties, by running into open points or joining a stronger
/// chain, escapes; only the race can then decide it.
fn enclosed(board: &Board, c: Point, other: Point) -> bool {
    let Some(owner) = board.get(c) else {
        return false;
    };
    let now = board.liberties(c);
    let theirs = liberty_list(board, other);
    liberty_list(board, c)
        .into_iter()
        .filter(|l| !theirs.contains(l))
        .all(|l| liberties_after_up_to::<8>(board, l, owner) <= now)
}

/// Whether the race between the friendly chain `f` and the opposing chain
/// `e` (points of the position after the move) was close before the move:
/// whoever moved first captured the other. Adjacent weak chains are
/// everywhere in a fight; only a race decided by the tempo is a semeai.
fn was_close(p: &Play<'_>, f: Point, e: Point) -> bool {
    let b = p.before;
    let Some(f) = p
        .after
        .chain(f)
        .find(|&q| q != p.m && b.get(q) == Some(p.color))
    else {
        return false;
    };
    let Some(s) = semeai(b, f, e) else {
        return false;
    };
    let first = |c: Color| match c {
        Color::Black => s.black_first,
        Color::White => s.white_first,
    };
    let them = p.color.opponent();
    first(p.color) == RaceOutcome::Captures(p.color) && first(them) == RaceOutcome::Captures(them)
}

/// Shibori: a stone left in atari that puts an opposing chain of two stones
/// or more in atari, to be taken so that the chain is squeezed into a heavy
/// shape.
fn shibori(p: &Play<'_>) -> Option<Named> {
    let them = p.color.opponent();
    let e = p.ataris.iter().find(|&&q| p.after.chain_len(q) >= 2)?;
    Some(named(
        "shibori",
        Sentence::new("lexicon.shibori")
            .word("stone", stone(them))
            .text("at", p.name(*e)),
    ))
}
