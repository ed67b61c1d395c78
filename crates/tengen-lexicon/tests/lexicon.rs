//! The lexicon's data files: positions written from the definitions of
//! each term (tests/data/*.txt), every one named as expected.
//!
//! A file holds cases:
//!
//! ```text
//! # comments
//! case <title>
//! before B D4 W E5      moves played from the board before the move (optional)
//! play W C3             the move named
//! after B D5 W Q16      moves played after it (optional, for the flow terms)
//! expect keima tsuke    terms that must be named
//! absent kosumi         terms that must not be
//! says works            text the English sentences must contain (optional)
//! dit fonctionne        text the French sentences must contain (optional)
//! board
//! . . X
//! . O .
//! . . .
//! end
//! ```
//!
//! Each case builds a game from the board with the first mover to play,
//! plays the moves, and names them all with `name_moves`; `name_last` on
//! the game cut after the move must agree on every term that does not need
//! later moves.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tengen_core::{Color, Game, Move, Preset, Setup};
use tengen_lexicon::{Lang, Named, TERMS, name_last, name_moves};

/// One case of a data file.
#[derive(Debug, Default)]
struct Case {
    file: String,
    line: usize,
    title: String,
    before: Vec<(Color, String)>,
    play: Option<(Color, String)>,
    after: Vec<(Color, String)>,
    expect: Vec<String>,
    absent: Vec<String>,
    says: Vec<String>,
    dit: Vec<String>,
    board: String,
}

fn moves(words: &[&str]) -> Vec<(Color, String)> {
    words
        .chunks(2)
        .map(|c| {
            assert_eq!(c.len(), 2, "moves come as colour and vertex: {words:?}");
            (common::color(c[0]), c[1].to_string())
        })
        .collect()
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    let mut cur: Option<Case> = None;
    let mut in_board = false;
    for (n, raw) in text.lines().enumerate() {
        if in_board {
            if raw.trim() == "end" {
                in_board = false;
                out.push(cur.take().unwrap());
            } else {
                let c = cur.as_mut().unwrap();
                c.board.push_str(raw);
                c.board.push('\n');
            }
            continue;
        }
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        if key == "case" {
            assert!(cur.is_none(), "{file}:{}: case inside a case", n + 1);
            cur = Some(Case {
                file: file.clone(),
                line: n + 1,
                title: rest.to_string(),
                ..Case::default()
            });
            continue;
        }
        let c = cur
            .as_mut()
            .unwrap_or_else(|| panic!("{file}:{}: {key} outside a case", n + 1));
        match key {
            "before" => c.before = moves(&words),
            "play" => c.play = moves(&words).pop(),
            "after" => c.after = moves(&words),
            "expect" => c.expect.extend(words.iter().map(|w| w.to_string())),
            "absent" => c.absent.extend(words.iter().map(|w| w.to_string())),
            "says" => c.says.push(rest.to_string()),
            "dit" => c.dit.push(rest.to_string()),
            "board" => in_board = true,
            other => panic!("{file}:{}: unknown key {other}", n + 1),
        }
    }
    assert!(cur.is_none() && !in_board, "{file}: unfinished case");
    out
}

fn data_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no data files in {}", dir.display());
    files
}

/// Plays the case; returns the game up to and including the named move,
/// the whole game, and the index of the named move.
fn play(c: &Case) -> (Game, Game, usize) {
    let board = common::board(&c.board);
    let size = board.size();
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for p in size.points() {
        match board.get(p) {
            Some(Color::Black) => black.push(p),
            Some(Color::White) => white.push(p),
            None => {}
        }
    }
    let (color, _) = c
        .play
        .clone()
        .unwrap_or_else(|| panic!("{}:{}: no play line", c.file, c.line));
    let first = c.before.first().map_or(color, |m| m.0);
    let setup = Setup {
        size,
        black,
        white,
        to_move: first,
        handicap: 0,
    };
    let mut game = Game::from_setup(Preset::Japanese.rules(), &setup).unwrap();
    let to_play = |game: &mut Game, (color, text): &(Color, String)| {
        let mv = match text.as_str() {
            "pass" => Move::Pass,
            t => Move::Play(common::pt_size(size, t)),
        };
        game.play_as(*color, mv)
            .unwrap_or_else(|e| panic!("{}:{}: {color:?} {text}: {e}", c.file, c.line));
    };
    for m in &c.before {
        to_play(&mut game, m);
    }
    to_play(&mut game, c.play.as_ref().unwrap());
    let cut = game.clone();
    for m in &c.after {
        to_play(&mut game, m);
    }
    (cut, game, c.before.len())
}

fn french() -> Lang {
    Lang::parse("fr").unwrap()
}

/// The terms that need the moves after the move named.
const FLOW_AFTER: [&str; 3] = ["sente", "gote", "kikashi"];

fn ids(names: &[Named]) -> Vec<&'static str> {
    names.iter().map(|n| n.id).collect()
}

#[test]
fn every_case_of_every_data_file_is_named_as_expected() {
    let mut positive: BTreeMap<String, usize> = BTreeMap::new();
    let mut negative: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in data_files() {
        for c in read_cases(&path) {
            total += 1;
            let (cut, whole, index) = play(&c);
            let all = name_moves(&whole);
            let names = &all[index];
            let got = ids(names);
            let en: String = names
                .iter()
                .map(|n| n.say(Lang::EN))
                .collect::<Vec<_>>()
                .join("; ");
            let fr: String = names
                .iter()
                .map(|n| n.say(french()))
                .collect::<Vec<_>>()
                .join("; ");
            let mut wrong = Vec::new();
            for (lang, said) in [("English", &en), ("French", &fr)] {
                if said.contains('{') {
                    wrong.push(format!("{lang} leaves a placeholder: {said:?}"));
                }
            }
            for e in &c.expect {
                assert!(
                    TERMS.contains(&e.as_str()),
                    "{}:{}: unknown term {e}",
                    c.file,
                    c.line
                );
                *positive.entry(e.clone()).or_default() += 1;
                if !got.contains(&e.as_str()) {
                    wrong.push(format!("missing {e}"));
                }
            }
            for a in &c.absent {
                assert!(
                    TERMS.contains(&a.as_str()),
                    "{}:{}: unknown term {a}",
                    c.file,
                    c.line
                );
                *negative.entry(a.clone()).or_default() += 1;
                if got.contains(&a.as_str()) {
                    wrong.push(format!("unexpected {a}"));
                }
            }
            for s in &c.says {
                if !en.contains(s.as_str()) {
                    wrong.push(format!("English lacks {s:?}"));
                }
            }
            for s in &c.dit {
                if !fr.contains(s.as_str()) {
                    wrong.push(format!("French lacks {s:?}"));
                }
            }
            // The live view of the move agrees on what it can know.
            let last = ids(&name_last(&cut));
            let lasting: Vec<&str> = got
                .iter()
                .copied()
                .filter(|id| !FLOW_AFTER.contains(id))
                .collect();
            if last != lasting {
                wrong.push(format!("name_last gives {last:?}, name_moves {lasting:?}"));
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{}:{}: {}: {} (named {got:?}: {en})",
                    c.file,
                    c.line,
                    c.title,
                    wrong.join(", ")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every term the lexicon reports has five positions of each kind.
    let thin: Vec<String> = TERMS
        .iter()
        .filter_map(|t| {
            let (p, n) = (
                positive.get(*t).copied().unwrap_or(0),
                negative.get(*t).copied().unwrap_or(0),
            );
            (p < 5 || n < 5).then(|| format!("{t}: {p} positive, {n} negative"))
        })
        .collect();
    assert!(thin.is_empty(), "too few cases:\n{}", thin.join("\n"));
}

#[test]
fn ladders_with_known_outcome_are_all_read_right() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shicho.txt");
    let cases = read_cases(&path);
    // Each case states by construction whether the atari starts a working
    // ladder (expected) or not (absent: it fails, or runs on one line).
    let known = cases
        .iter()
        .filter(|c| {
            c.expect.iter().any(|e| e == "shicho") || c.absent.iter().any(|e| e == "shicho")
        })
        .count();
    assert!(known >= 30, "{known} ladders with a known outcome");
    let working = cases
        .iter()
        .filter(|c| c.expect.iter().any(|e| e == "shicho") && !c.says.is_empty())
        .count();
    assert!(
        working >= 10,
        "{working} working ladders with their sentence"
    );
}
