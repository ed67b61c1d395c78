//! The words of the rules texts themselves, named on the moves that make
//! them: atari (the FFG text, part I section 5: "lorsqu'une chaîne n'a plus
//! qu'une liberté, on dit qu'elle est en atari"), capture (same section:
//! the last liberty of an opposing chain taken), ko capture (section 7 and
//! the Strasbourg text's ko: a capture of one stone that could be taken
//! back at once), connecting (the New Zealand text's "connectées": two
//! chains joined into one) and cutting (the FFG glossary's "coupe": two
//! opposing chains kept apart for good).

use super::Named;
use super::words::{Play, named, stone_en, stone_fr};
use crate::util::{chains_around, liberty_list};

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
        let at: Vec<String> = ataris.iter().map(|&q| p.name(q)).collect();
        let libs: Vec<String> = ataris
            .iter()
            .filter_map(|&q| liberty_list(p.after, q).first().map(|&l| p.name(l)))
            .collect();
        out.push(named(
            "atari",
            format!(
                "atari: the {} chain at {} has one liberty left, at {}",
                stone_en(them),
                at.join(" and "),
                libs.join(" and ")
            ),
            format!(
                "atari : la chaîne {} en {} n'a plus qu'une liberté, en {}",
                stone_fr(them),
                at.join(" et "),
                libs.join(" et ")
            ),
        ));
    }
    // A capture; of a single stone that could be taken back at once, a ko
    // capture (the board's simple-ko point is set exactly then).
    if p.captured > 0 {
        let ko = p.captured == 1 && p.after.ko_point().is_some();
        if ko {
            out.push(named(
                "ko-capture",
                format!(
                    "ko capture: takes one {} stone; taking back at once is forbidden",
                    stone_en(them)
                ),
                format!(
                    "prise de ko : prend une pierre {} ; la reprise immédiate est interdite",
                    stone_fr(them)
                ),
            ));
        } else {
            let s = if p.captured > 1 { "s" } else { "" };
            out.push(named(
                "capture",
                format!("capture: takes {} {} stone{s}", p.captured, stone_en(them)),
                format!(
                    "capture : prend {} pierre{s} {}{s}",
                    p.captured,
                    stone_fr(them)
                ),
            ));
        }
    }
    // Connecting: friendly chains that were apart are one chain now.
    let joined = chains_around(p.before, p.m, me).len();
    if joined >= 2 {
        out.push(named(
            "connect",
            format!("connects {joined} {} chains into one", stone_en(me)),
            format!("connecte {joined} chaînes {}s en une seule", stone_fr(me)),
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
            format!("cut: keeps the {} chains around it apart", stone_en(them)),
            format!(
                "coupe : sépare les chaînes {}s qui l'entourent",
                stone_fr(them)
            ),
        ));
    }
}
