//! The lexicon of named moves: for each move of a game, the terms of the
//! glossary of the French Federation's rules (part II) that apply to it,
//! with a short sentence saying why, in every language of `tengen-words`'
//! catalogues (their `[lexicon]` and `[word]` tables): a term is named
//! once, as a [`Sentence`], and said in whichever language is asked.
//!
//! Identifiers are the romaji of the glossary, lowercase and hyphenated.
//! The shape terms follow the offsets and empty-point conditions of
//! ecosystem-study section 6.3 (the new stone N at (0,0), offsets under the
//! eight symmetries; "line" is 1 + the distance to the edge); the reading
//! terms ask `tengen-tactics`' readers; the flow terms look at the moves
//! around.
//!
//! | id | when | how |
//! |---|---|---|
//! | `nobi` | N touches exactly one friendly chain and captures nothing (an extension that also gives atari is still one) | shape |
//! | `tetchu` | such a nobi below or above a lone stone, the pair at right angles to the nearest edge on lines 2-3 or 3-4, no opposing stone touching (reported instead of `nobi`) | shape |
//! | `kosumi` | friendly stone at (1,1), (1,0) and (0,1) empty, no friendly neighbour | shape |
//! | `kosumi-tsuke` | such a kosumi that also touches an opposing stone (instead of `kosumi`, `tsuke`) | shape |
//! | `ikken-tobi`, `niken-tobi`, `sangen-tobi` | friendly stone at (2,0), (3,0), (4,0), the points between empty; N touches no stone and has no friendly diagonal (the glossary's `tobi` is reported by its three forms); of the extensions only the nearest is named: ikken-tobi, keima, niken-tobi, ogeima, sangen-tobi | shape |
//! | `keima` | friendly stone at (2,1), (1,0) and (1,1) empty, N as for tobi | shape |
//! | `kogeima` | an opposing stone at (2,1), the same points empty, and no extension or kakari named: the same small knight's move, played against the opponent (approach, attack); keima and kogeima name one shape, kept apart by whose stone it is measured from | shape |
//! | `ogeima` | friendly stone at (3,1), (1,0), (2,0), (1,1), (2,1) empty | shape |
//! | `saru-suberi`, `ozaru-suberi` | a keima / ogeima onto the first line from a friendly stone on the second, long side along the edge, an opposing stone within 3 / 4 points (instead of `keima` / `ogeima`) | shape |
//! | `tsuke` | touches an opposing stone, no friendly stone beside or diagonal | shape |
//! | `ate-komi` | touches two opposing chains at (1,0) and (0,1), the cutting point (1,1) empty | shape |
//! | `kiri-chigae` | the same with a friendly stone at (1,1): the crosscut | shape |
//! | `wari-komi` | opposing chains at (1,0) and (-1,0), (0,1) and (0,-1) empty | shape |
//! | `nozoki` | next to an empty point that touches two opposing chains sharing no other liberty (their cutting point; not one of the two equal points of a diagonal link) | shape |
//! | `boshi` | an opposing stone at (0,2) on line 4 or lower, (0,1) empty, N more central; not N on line 3-4 against a stone on a corner point (that approach is a kakari) | shape |
//! | `hasami` | line 3-4, 2 to 4 points along the side from a lone opposing stone on line 3-4 (nothing around it, no stone of its colour within 3 points) that approached a friendly stone beyond it | shape |
//! | `kakari` | 13x13 or more: an opposing stone alone in its corner on a 3-3 to 4-5 point, N on line 3-4 two or three points further along | shape |
//! | `wariuchi` | 13x13 or more: line 3-4 of a side, the nearest stones on both hands opposing and four points away or more | shape |
//! | `osae` | in front of an opposing chain crawling along line 4 or lower, a friendly stone above | shape |
//! | `shicho` | an atari on one chain (not a double atari) whose ladder works after a chase of five plies or more (run, atari, run, atari, run), the chain running in a staircase (its runs change both row and column) | [`read_ladder`](tengen_tactics::read_ladder) |
//! | `shicho-atari` | a friendly two-liberty chain three points or more away (king's move) that a ladder of five plies or more caught before the move and not after | ladder reading |
//! | `geta` | [`net`](tengen_tactics::net): the chain, left with two liberties, cannot escape by reading; the net stone touches not the chain, joins no two friendly chains, does not extend a friendly chain against an opposing stone (a block), captures nothing and gives no atari | reading |
//! | `utte-gaeshi` | the sacrifice ([`snapback`](tengen_tactics::snapback())), or the recapture of two stones or more where the opponent just captured | two-ply look-ahead |
//! | `semeai` | fills a liberty of an opposing chain (2+ stones, 3 liberties or fewer left) touching a friendly chain (2+ stones, 2-3 liberties), no two eyes, both shut in (no move on a chain's own liberties gains it a liberty), and the race was close before the move (whoever moved first captured): the race, counted and solved | [`semeai`](tengen_tactics::semeai()) |
//! | `dame-zumari` | [`dame_zumari`](tengen_tactics::dame_zumari) makes the own chain capturable, or the self-atari connects and dies | reading |
//! | `hori-komi` | a one-stone throw-in ([`self_atari`](tengen_tactics::self_atari) kind `ThrowIn`) | reading |
//! | `shibori` | a stone left in atari that ataris an opposing chain of two or more (not a snapback) | shape and atari |
//! | `te-suji` | a geta where no direct move on the chain's liberties captures it, or the snapback sacrifice: the move that does better than the obvious ones | reading |
//! | `te-nuki` | the opponent's last stone asked for an answer (a tsuke, a peep at a cutting point, or a chain within 2 points made capturable by reading), and the move is more than 4 points away | flow, move before, reading |
//! | `miai` | the opponent just took one of two points each joining the same two friendly chains, and the move takes the other | flow, move before |
//! | `kikashi` | an atari or peep answered at the threatened point, then the mover plays elsewhere | flow, moves after |
//! | `sente` | answered within 2 points, then the mover plays elsewhere | flow, moves after |
//! | `gote` | answers the move before (within 2 points), then the opponent plays elsewhere | flow, moves after |
//! | `joseki` | the moves so far in a 19x19 corner follow a sequence of the small dictionary in [`joseki`] (8 symmetries, both colours) | dictionary |
//!
//! The words of the rules texts (part I of the FFG text, the Strasbourg
//! and New Zealand texts) are named too:
//!
//! | id | when | how |
//! |---|---|---|
//! | `atari` | an opposing chain touching N is left with one liberty (FFG I.5: "lorsqu'une chaîne n'a plus qu'une liberté, on dit qu'elle est en atari") | board |
//! | `capture` | N removes opposing stones (FFG I.5, "capture"), unless it is a ko capture | board |
//! | `ko-capture` | N captures one stone and could be captured back at once by one stone (the board's simple-ko point is set: FFG I.7, the Strasbourg text's ko) (instead of `capture`) | board |
//! | `connect` | N joins two friendly chains or more into one (the New Zealand text's "connectées") | board |
//! | `cut` | N touches two opposing chains that keep no common liberty after it, both still on the board (the glossary's "coupe") | board |
//!
//! Not detected: **aji-keshi** (a move that wastes latent potential) is a
//! judgement of value, whether what the move gave away was worth more than
//! what it gained, which bounded tactical reading cannot make; any
//! detection would call every kikashi aji-keshi. **Tobi** itself is the
//! family name, reported by its forms.
//!
//! Sente, gote and kikashi need the moves after, so [`name_last`] leaves
//! them out; te-nuki and miai only need the move before and are kept.

#![warn(missing_docs)]

pub mod joseki;

mod flow;
mod geometry;
mod rules;
mod shape;
mod tactic;
mod words;

use flow::Threats;
use tactic::Readers;
use tengen_core::{Board, BoardSize, Color, Game, Move, Point, Turn, Vertex};
use words::{Play, Previous};

pub use tengen_words::{Lang, Sentence};

/// One term that applies to a move, with why, to be said in any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The romaji identifier: `keima`, `ikken-tobi`, `shicho`...
    pub id: &'static str,
    /// Why: a `lexicon.*` key of the catalogues and what fills it.
    pub sentence: Sentence,
}

impl Named {
    /// The sentence in `lang`.
    pub fn say(&self, lang: Lang) -> String {
        self.sentence.say(lang)
    }
}

/// Every identifier the lexicon reports, in the order of the glossary, then
/// the words of the rules texts.
pub const TERMS: [&str; 42] = [
    "keima",
    "kogeima",
    "kosumi",
    "kosumi-tsuke",
    "nobi",
    "ikken-tobi",
    "niken-tobi",
    "sangen-tobi",
    "ogeima",
    "saru-suberi",
    "ozaru-suberi",
    "ate-komi",
    "boshi",
    "hasami",
    "hori-komi",
    "kakari",
    "kiri-chigae",
    "nozoki",
    "shibori",
    "tsuke",
    "wari-komi",
    "wariuchi",
    "osae",
    "shicho-atari",
    "tetchu",
    "geta",
    "shicho",
    "semeai",
    "utte-gaeshi",
    "gote",
    "sente",
    "dame-zumari",
    "joseki",
    "kikashi",
    "miai",
    "te-nuki",
    "te-suji",
    "atari",
    "capture",
    "ko-capture",
    "connect",
    "cut",
];

/// Names a stone play on `before`; also returns the points where the
/// opponent must answer it.
fn name_play(
    before: &Board,
    turn: Turn,
    previous: Option<Previous<'_>>,
    readers: &mut Readers,
    corners: &mut joseki::Corners,
) -> (Vec<Named>, Threats) {
    let Move::Play(m) = turn.mv else {
        return (Vec::new(), Threats::default());
    };
    let mut after = before.clone();
    let played = after.play_unchecked(m, turn.color);
    let mut names = Vec::new();
    if after.get(m) != Some(turn.color) {
        // A suicide, played in a record of other rules: no shape remains.
        return (names, Threats::default());
    }
    let ataris = tengen_tactics::atari::in_atari_beside(&after, m);
    let p = Play {
        before,
        after: &after,
        m,
        color: turn.color,
        captured: played.captured,
        ataris,
    };
    tactic::tactics(&p, readers, previous, &mut names);
    shape::shapes(&p, &mut names);
    let peep = shape::nozoki(&p);
    names.extend(peep.clone());
    if let Some(prev) = previous {
        names.extend(flow::miai(&p, prev));
        names.extend(flow::te_nuki(&p, prev, readers));
    }
    names.extend(corners.play(before.size(), m, turn.color));
    rules::rules_words(&p, &mut names);
    let mut answers: Vec<Point> = p
        .ataris
        .iter()
        .filter_map(|&q| {
            tengen_tactics::util::liberty_list(&after, q)
                .first()
                .copied()
        })
        .collect();
    if peep.is_some()
        && let Some(cut) = shape::peeped_point(before, m, turn.color)
    {
        answers.push(cut);
    }
    let mut seen: Vec<&'static str> = Vec::new();
    names.retain(|n| {
        let new = !seen.contains(&n.id);
        seen.push(n.id);
        new
    });
    (names, Threats { answers })
}

/// Replays `game` from its first position, calling `f` with the index of
/// each turn, the position before it and the turn before it.
fn walk(game: &Game, mut f: impl FnMut(usize, &Board, Option<Previous<'_>>)) {
    let turns = game.turns();
    let mut board = game.initial_board().clone();
    let mut last: Option<Board> = None;
    for (i, &t) in turns.iter().enumerate() {
        let previous = match (i.checked_sub(1), last.as_ref()) {
            (Some(j), Some(b)) => Some(Previous {
                board: b,
                turn: turns[j],
            }),
            _ => None,
        };
        f(i, &board, previous);
        let mut next = board.clone();
        match t.mv {
            Move::Play(p) => {
                next.play_unchecked(p, t.color);
            }
            Move::Pass => next.pass(),
        }
        last = Some(std::mem::replace(&mut board, next));
    }
}

/// The terms for every turn of the game (index = turn index in
/// `game.turns()`); flow terms (sente, gote, te-nuki, kikashi, miai) judged
/// from the moves that follow.
pub fn name_moves(game: &Game) -> Vec<Vec<Named>> {
    let turns = game.turns();
    let mut readers = Readers::new();
    let mut corners = joseki::Corners::new();
    let mut names = Vec::with_capacity(turns.len());
    let mut threats = Vec::with_capacity(turns.len());
    walk(game, |i, before, previous| {
        let (n, t) = name_play(before, turns[i], previous, &mut readers, &mut corners);
        names.push(n);
        threats.push(t);
    });
    flow::after_moves(game.size(), turns, &threats, &mut names);
    names
}

/// The terms for the last move only (what a GUI shows live; flow terms
/// needing later moves are left out).
pub fn name_last(game: &Game) -> Vec<Named> {
    let turns = game.turns();
    let Some(last) = turns.len().checked_sub(1) else {
        return Vec::new();
    };
    let mut readers = Readers::new();
    let mut corners = joseki::Corners::new();
    let mut names = Vec::new();
    walk(game, |i, before, previous| {
        if i == last {
            names = name_play(before, turns[i], previous, &mut readers, &mut corners).0;
        } else if let Move::Play(m) = turns[i].mv {
            corners.play(before.size(), m, turns[i].color);
        }
    });
    names
}

/// The sentence for a move no term applies to.
fn plain(mv: Move) -> Sentence {
    Sentence::new(match mv {
        Move::Pass => "lexicon.plain.pass",
        Move::Play(_) => "lexicon.plain.move",
    })
}

/// The line `<move number> <B|W> <vertex> <comma-separated ids, or ->
/// <sentence>` (sentences of the terms joined with "; ", or a plain
/// sentence when none applies).
pub fn explain_line(
    number: usize,
    color: Color,
    mv: Move,
    size: BoardSize,
    names: &[Named],
    lang: Lang,
) -> String {
    let vertex = match mv {
        Move::Pass => Vertex::Pass,
        Move::Play(p) => Vertex::Point(p),
    };
    let (ids, sentence) = if names.is_empty() {
        ("-".to_string(), plain(mv).say(lang))
    } else {
        (
            names.iter().map(|n| n.id).collect::<Vec<_>>().join(","),
            names
                .iter()
                .map(|n| n.say(lang))
                .collect::<Vec<_>>()
                .join("; "),
        )
    };
    format!(
        "{number} {} {} {ids} {sentence}",
        color.letter(),
        vertex.display(size)
    )
}
