//! Every crate's modules import in layers: no import cycle joins more than
//! two of a crate's top-level modules (`crate::NAME` paths in code,
//! comments aside), so that each can be read, tested and moved with few
//! others; tengen-web's error sits at its bottom, and its store is a
//! crate that depends on no other of the workspace (ARCHITECTURE.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn crates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `text` without its comments (line and block; strings are kept, and a
/// `//` inside one cuts it short, which only loses names).
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn name(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The top-level modules that `code` names through `crate::`, grouped
/// imports (`crate::{a::X, b}`) included.
fn named(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        // `tengen_core::` and the like are other crates.
        if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let after = &code[i + 7..];
        if let Some(group) = after.trim_start().strip_prefix('{') {
            let mut depth = 0usize;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    _ if item_start && !c.is_whitespace() => {
                        names.insert(name(&group[j..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(name(after));
        }
    }
    names.retain(|n| !n.is_empty() && n.chars().next().is_some_and(|c| c.is_ascii_lowercase()));
    names
}

/// Each top-level module of crate `krate` and the modules its code names.
fn imports(krate: &str) -> Graph {
    let src = crates().join(krate).join("src");
    let mut graph = Graph::new();
    let mut waiting = vec![src.clone()];
    while let Some(dir) = waiting.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                waiting.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap();
            let module = first.as_os_str().to_str().unwrap();
            let module = module.trim_end_matches(".rs").to_string();
            if module == "lib" || module == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let uses = graph.entry(module.clone()).or_default();
            uses.extend(named(&code(&text)).into_iter().filter(|n| *n != module));
        }
    }
    // Names that are not modules (items of lib.rs) are no edges.
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for uses in graph.values_mut() {
        uses.retain(|n| modules.contains(n));
    }
    graph
}

/// The modules `start` reaches through its imports.
fn below(graph: &Graph, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut waiting: Vec<&String> = graph[start].iter().collect();
    while let Some(m) = waiting.pop() {
        if seen.insert(m.clone()) {
            waiting.extend(graph.get(m).into_iter().flatten());
        }
    }
    seen
}

fn workspace_crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(crates())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("tengen-") && crates().join(n).join("src").is_dir())
        .collect();
    names.sort();
    names
}

#[test]
fn the_reader_finds_plain_and_grouped_imports_and_skips_comments() {
    let text = "use crate::a::X;\nuse crate::{b::Y, c,\n  d::{e, f}};\n// crate::g\n/* crate::h */ tengen_core::i; crate::J";
    let found: Vec<String> = named(&code(text)).into_iter().collect();
    assert_eq!(found, ["a", "b", "c", "d"]);
}

#[test]
fn no_import_cycle_joins_more_than_two_modules_of_a_crate() {
    let names = workspace_crates();
    assert!(names.len() >= 9, "{names:?}");
    let web = imports("tengen-web");
    assert!(web["hub"].contains("room"), "imports are read: {web:?}");
    for krate in &names {
        let graph = imports(krate);
        for start in graph.keys() {
            let cycle: BTreeSet<String> = below(&graph, start)
                .into_iter()
                .filter(|m| below(&graph, m).contains(start))
                .collect();
            assert!(
                cycle.len() <= 2,
                "{krate}: {start} reaches itself through {cycle:?}"
            );
        }
    }
}

#[test]
fn the_web_error_sits_at_the_bottom_and_the_store_is_a_leaf() {
    let graph = imports("tengen-web");
    assert!(
        below(&graph, "error").is_empty(),
        "{:?}",
        below(&graph, "error")
    );
    let manifest = std::fs::read_to_string(crates().join("tengen-store/Cargo.toml")).unwrap();
    assert!(manifest.contains("rusqlite"), "the manifest is read");
    assert!(
        !manifest.lines().any(|l| l.starts_with("tengen-")),
        "the store depends on no crate of the workspace:\n{manifest}"
    );
}

/// The workspace crates a crate's manifest names as dependencies (normal,
/// dev or build).
fn depends_on(krate: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(crates().join(krate).join("Cargo.toml")).unwrap();
    manifest
        .lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|n| n.starts_with("tengen-") && *n != krate)
        .map(str::to_owned)
        .collect()
}

/// Every workspace crate `krate` builds on, itself excluded.
fn beneath(krate: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![krate.to_owned()];
    while let Some(k) = todo.pop() {
        for d in depends_on(&k) {
            if seen.insert(d.clone()) {
                todo.push(d);
            }
        }
    }
    seen
}

/// The words are a leaf; the lexicon sits over the reading, and neither
/// the reading nor the search builds the lexicon or the words.
#[test]
fn the_words_are_a_leaf_and_the_search_builds_no_lexicon() {
    assert!(depends_on("tengen-words").is_empty());
    assert!(beneath("tengen-lexicon").contains("tengen-tactics"));
    assert!(
        beneath("tengen-web").contains("tengen-lexicon"),
        "the graph is read"
    );
    for krate in ["tengen-core", "tengen-tactics", "tengen-mcts", "tengen-sgf"] {
        let below = beneath(krate);
        assert!(
            !below.contains("tengen-lexicon") && !below.contains("tengen-words"),
            "{krate} builds {below:?}"
        );
    }
}
