//! The joseki dictionary checked against an outside source: every entry
//! is a line of the joseki trees of the Pachi program
//! (shared/data/pachi_tests/joseki/*.sgf, drawn in part from Kogo's joseki
//! dictionary), black first, through no node that Pachi tags as a mistake
//! (`<bad>`, `<don't>`, `<avoid>`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use tengen_core::{BoardSize, Color, Game, Move, Preset};
use tengen_lexicon::joseki::DICTIONARY;
use tengen_lexicon::name_moves;

/// A node of a variation tree: its move (`"Bpd"`), whether Pachi tags it
/// as a mistake, its children.
#[derive(Default)]
struct Node {
    mv: Option<String>,
    tagged: bool,
    children: Vec<usize>,
}

/// Every node of every tree of an SGF file, node 0 a root above them all.
fn tree(text: &str) -> Vec<Node> {
    let b = text.as_bytes();
    let mut nodes = vec![Node::default()];
    // The node each open parenthesis continues from, and the last node.
    let mut stack: Vec<usize> = Vec::new();
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' => stack.push(last),
            b')' => last = stack.pop().unwrap_or(0),
            b';' => {
                nodes.push(Node::default());
                let id = nodes.len() - 1;
                nodes[last].children.push(id);
                last = id;
            }
            c if c.is_ascii_uppercase() => {
                let start = i;
                while b[i].is_ascii_uppercase() {
                    i += 1;
                }
                let ident = &text[start..i];
                while i < b.len() && b[i] == b'[' {
                    let vstart = i + 1;
                    i += 1;
                    while b[i] != b']' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    let value = &text[vstart..i];
                    match ident {
                        "B" | "W" if !value.is_empty() => {
                            nodes[last].mv = Some(format!("{ident}{value}"));
                        }
                        "C" => {
                            let first = value.lines().next().unwrap_or("");
                            nodes[last].tagged = ["<bad>", "<don't>", "<avoid>"]
                                .iter()
                                .any(|t| first.contains(t));
                        }
                        _ => {}
                    }
                    i += 1;
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    nodes
}

/// Whether `moves` is a line from node `at`, nodes without a move passed
/// through, no tagged node on the way.
fn has_line(nodes: &[Node], at: usize, moves: &[String]) -> bool {
    let n = &nodes[at];
    if n.tagged {
        return false;
    }
    let rest = match &n.mv {
        Some(m) if moves.first() == Some(m) => &moves[1..],
        Some(_) => return false,
        None => moves,
    };
    rest.is_empty() || n.children.iter().any(|&c| has_line(nodes, c, rest))
}

#[test]
fn every_dictionary_entry_is_a_line_of_pachis_joseki_trees() {
    let dir = common::data_root().unwrap().join("pachi_tests/joseki");
    let files = [
        "joseki_44.sgf",
        "joseki_34.sgf",
        "joseki_33.sgf",
        "joseki_54.sgf",
    ];
    let trees: Vec<Vec<Node>> = files
        .iter()
        .map(|f| {
            let path = dir.join(f);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            tree(&text)
        })
        .collect();
    assert!(DICTIONARY.len() >= 30, "{} entries", DICTIONARY.len());
    for e in &DICTIONARY {
        let moves: Vec<String> = e
            .moves
            .split_whitespace()
            .enumerate()
            .map(|(i, m)| format!("{}{m}", if i % 2 == 0 { 'B' } else { 'W' }))
            .collect();
        assert!(
            trees.iter().any(|t| has_line(t, 0, &moves)),
            "{}: {} is not a line of Pachi's joseki trees",
            e.name,
            e.moves
        );
    }
}

/// Plays an entry on a 19x19 board under symmetry `sym`, `first` moving
/// first; the names of its moves.
fn play_entry(moves: &str, sym: u8, first: Color) -> Vec<bool> {
    let size = BoardSize::square(19).unwrap();
    let mut game = Game::new(Preset::Japanese.rules(), size);
    let mut color = first;
    for m in moves.split_whitespace() {
        let b = m.as_bytes();
        let (mut x, mut y) = (u32::from(b[0] - b'a'), u32::from(b[1] - b'a'));
        if sym & 1 != 0 {
            x = 18 - x;
        }
        if sym & 2 != 0 {
            y = 18 - y;
        }
        if sym & 4 != 0 {
            std::mem::swap(&mut x, &mut y);
        }
        game.play_as(color, Move::Play(size.point(x, y).unwrap()))
            .unwrap();
        color = color.opponent();
    }
    name_moves(&game)
        .iter()
        .map(|names| names.iter().any(|n| n.id == "joseki"))
        .collect()
}

#[test]
fn every_entry_is_named_under_every_symmetry_and_either_colour() {
    for e in &DICTIONARY {
        for sym in 0..8 {
            for first in [Color::Black, Color::White] {
                let named = play_entry(e.moves, sym, first);
                let want: Vec<bool> = (0..named.len()).map(|i| i >= 2).collect();
                assert_eq!(
                    named, want,
                    "{} under symmetry {sym}, {first:?} first",
                    e.name
                );
            }
        }
    }
}
