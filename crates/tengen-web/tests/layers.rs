//! The crate's modules import downwards only: no module reaches itself
//! through the modules it uses (`crate::NAME` paths, comments aside), so
//! that each layer can be read, tested and moved without the ones above it
//! (ARCHITECTURE.md, tengen-web).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `src` and the modules its code names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
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
            let module = first
                .as_os_str()
                .to_str()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            if module == "lib" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let uses = graph.entry(module.clone()).or_default();
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, _) in line.match_indices("crate::") {
                    let name: String = line[i + 7..]
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        uses.insert(name);
                    }
                }
            }
        }
    }
    graph
}

#[test]
fn no_module_reaches_itself_through_its_imports() {
    let graph = imports();
    assert!(graph.len() > 20, "the modules were found: {graph:?}");
    assert!(graph["hub"].contains("store"), "imports are read");
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut waiting: Vec<&String> = graph[start].iter().collect();
        while let Some(m) = waiting.pop() {
            assert!(
                m != start,
                "{start} reaches itself through its imports: {:?}",
                graph[start]
            );
            if seen.insert(m) {
                waiting.extend(graph.get(m).into_iter().flatten());
            }
        }
    }
}

#[test]
fn the_store_and_the_error_sit_at_the_bottom() {
    let graph = imports();
    let below = |m: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut waiting = vec![m.to_string()];
        while let Some(m) = waiting.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    waiting.push(n.clone());
                }
            }
        }
        seen
    };
    let allowed: BTreeSet<String> = ["date", "environment", "error", "priority", "token"]
        .map(String::from)
        .into();
    assert!(below("store").is_subset(&allowed), "{:?}", below("store"));
    assert!(below("error").is_empty(), "{:?}", below("error"));
}
