//! The words of the rules texts themselves, named on the moves that make
//! them: atari (the FFG text, part I section 5: "lorsqu'une chaîne n'a plus
//! qu'une liberté, on dit qu'elle est en atari"), capture (same section:
//! the last liberty of an opposing chain taken), ko capture (section 7 and
//! the Strasbourg text's ko: a capture of one stone that could be taken
//! back at once), connecting (the New Zealand text's "connectées": two
//! chains joined into one) and cutting (the FFG glossary's "coupe": two
//! opposing chains kept apart for good).

use crate::Named;
use crate::words::{Play, named, stone, stones};
use tengen_tactics::util::{chains_around, liberty_list};
use tengen_words::Sentence;

/// The atari sentence by the number of chains left in atari (a stone
/// touches four at most): each language joins the list with its own `and`.
const ATARI: [&str; 4] = [
    "lexicon.atari.one",
    "lexicon.atari.two",
    "lexicon.atari.three",
    "lexicon.atari.four",
];
/// The placeholders of those chains' points, one stone of each.
const AT: [&str; 4] = ["at1", "at2", "at3", "at4"];
/// The placeholders of their last liberties.
const LIBERTY: [&str; 4] = ["liberty1", "liberty2", "liberty3", "liberty4"];

/// The rules texts' terms that apply to the play.
pub(crate) fn rules_words(p: &Play<'_>, out: &mut Vec<Named>) {
    let (me, them) = (p.color, p.color.opponent());
    // Atari: an opposing chain next to the stone is left with one liberty
    // (it had two: the point played was one of them).
    let ataris: Vec<_> = chains_around(p.after, p.m, them)
        .into_iter()
        .filter(|&q| p.after.liberties(q) == 1)
        .collect();
    if !ataris.is_empty() {
        let key = ATARI[ataris.len().clamp(1, ATARI.len()) - 1];
        let mut sentence = Sentence::new(key).word("stone", stone(them));
        for (&q, name) in ataris.iter().zip(AT) {
            sentence = sentence.text(name, p.name(q));
        }
        let libs = ataris
            .iter()
            .filter_map(|&q| liberty_list(p.after, q).first().map(|&l| p.name(l)));
        for (l, name) in libs.zip(LIBERTY) {
            sentence = sentence.text(name, l);
        }
        out.push(named("atari", sentence));
    }
    // A capture; of a single stone that could be taken back at once, a ko
    // capture (the board's simple-ko point is set exactly then).
    if p.captured > 0 {
        let ko = p.captured == 1 && p.after.ko_point().is_some();
        if ko {
            out.push(named(
                "ko-capture",
                Sentence::new("lexicon.ko-capture").word("stone", stone(them)),
            ));
        } else {
            let sentence = if p.captured > 1 {
                Sentence::new("lexicon.capture.many").word("stones", stones(them))
            } else {
                Sentence::new("lexicon.capture.one").word("stone", stone(them))
            };
            out.push(named("capture", sentence.text("count", p.captured)));
        }
    }
    // Connecting: friendly chains that were apart are one chain now.
    let joined = chains_around(p.before, p.m, me).len();
    if joined >= 2 {
        out.push(named(
            "connect",
            Sentence::new("lexicon.connect")
                .text("count", joined)
                .word("stones", stones(me)),
        ));
    }
    // Cutting: two opposing chains the point would have joined are both
    // still on the board and share no liberty any more, and the cutting
    // stone is not taken at once (a stone pushed into a tiger's mouth
    // cuts nothing).
    let apart = chains_around(p.after, p.m, them);
    let cut = p.after.liberties(p.m) >= 2
        && apart.iter().enumerate().any(|(i, &a)| {
            let la = liberty_list(p.after, a);
            apart[i + 1..]
                .iter()
                .any(|&b| !liberty_list(p.after, b).iter().any(|l| la.contains(l)))
        });
    if cut {
        out.push(named(
            "cut",
            Sentence::new("lexicon.cut").word("stones", stones(them)),
        ));
    }
}
