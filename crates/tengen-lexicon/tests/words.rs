//! The lexicon's words are all in the catalogues: every `lexicon.*` and
//! `word.*` key the code names is an English key (and every such English
//! key is named by the code), and the moves of a real game are said in
//! every language with no placeholder left unfilled.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use tengen_core::{BoardSize, Color, Move};
use tengen_lexicon::{Lang, explain_line, name_moves};

/// The keys the code names: its string literals that start with
/// `lexicon.` or `word.`.
fn keys_in_code() -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut keys = BTreeSet::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for prefix in ["\"lexicon.", "\"word."] {
            for (i, _) in text.match_indices(prefix) {
                let rest = &text[i + 1..];
                let end = rest.find('"').unwrap();
                keys.insert(rest[..end].to_string());
            }
        }
    }
    keys
}

#[test]
fn every_key_the_code_names_is_in_the_english_catalogue_and_back() {
    let code = keys_in_code();
    assert!(code.len() > 50, "{} keys found in the code", code.len());
    let missing: Vec<&String> = code
        .iter()
        .filter(|k| tengen_words::text(Lang::EN, k).is_none())
        .collect();
    assert!(missing.is_empty(), "not in words/en.toml: {missing:?}");
    let unused: Vec<&str> = tengen_words::keys("lexicon.")
        .chain(tengen_words::keys("word."))
        .filter(|k| !code.contains(*k))
        .collect();
    assert!(unused.is_empty(), "named by no code: {unused:?}");
}

#[test]
fn a_real_game_is_said_in_every_language_with_every_placeholder_filled() {
    let game = common::pro_game();
    let names = name_moves(&game);
    let said: usize = names.iter().map(Vec::len).sum();
    assert!(said > 250, "{said} terms named");
    let mut ids = BTreeSet::new();
    for lang in Lang::all() {
        for (i, (turn, names)) in game.turns().iter().zip(&names).enumerate() {
            for n in names {
                ids.insert(n.id);
                let s = n.say(lang);
                assert!(
                    !s.is_empty() && !s.contains('{') && s != n.sentence.key,
                    "{lang}, move {}: {} said {s:?}",
                    i + 1,
                    n.id
                );
            }
            let line = explain_line(i + 1, turn.color, turn.mv, game.size(), names, lang);
            assert!(!line.contains('{') && !line.contains("lexicon."), "{line}");
        }
        // The sentences of moves no term names, a pass among them.
        for mv in [Move::Pass, game.turns()[0].mv] {
            let line = explain_line(1, game.turns()[0].color, mv, game.size(), &[], lang);
            assert!(!line.contains("lexicon."), "{line}");
        }
    }
    assert!(ids.len() >= 15, "only {ids:?} named");
}

#[test]
fn a_move_no_term_names_is_said_plainly_in_each_language() {
    let fr = Lang::parse("fr").unwrap();
    let size = BoardSize::square(19).unwrap();
    let line = |mv, lang| explain_line(7, Color::Black, mv, size, &[], lang);
    assert_eq!(line(Move::Pass, Lang::EN), "7 B pass - a pass");
    assert_eq!(line(Move::Pass, fr), "7 B pass - un passe");
    let d4 = Move::Play(common::pt_size(size, "D4"));
    assert_eq!(line(d4, Lang::EN), "7 B D4 - a move with no named shape");
    assert_eq!(line(d4, fr), "7 B D4 - un coup sans nom particulier");
}
