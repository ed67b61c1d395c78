//! Every game under the shared data goes through `tengen check`: the legal
//! ones pass, and each record that is genuinely broken gets its specific
//! diagnosis. The broken records are listed in `data/broken-records.txt`,
//! so the list cannot grow silently.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn every_record_of_the_shared_data_is_legal_or_diagnosed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        root.is_dir(),
        "the shared data is missing: {}",
        root.display()
    );
    let listed = include_str!("data/broken-records.txt");
    let expected: BTreeMap<&str, &str> = listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("check")
        .arg(&root)
        .output()
        .expect("tengen runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let prefix = format!("{}/", root.display());
    let mut reported: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut summary = String::new();
    for line in text.lines() {
        if line.starts_with("files=") {
            summary = line.to_string();
            continue;
        }
        let rel = line.strip_prefix(&prefix).unwrap_or(line);
        // `file:game:move: message`; file names here hold no ':'.
        let (file, rest) = rel.split_once(':').unwrap_or((rel, ""));
        reported
            .entry(file.to_string())
            .or_default()
            .push(rest.to_string());
    }
    let mut wrong = Vec::new();
    for (file, problems) in &reported {
        match expected.get(file.as_str()) {
            Some(start) if problems.iter().any(|p| p.starts_with(start)) => {}
            Some(start) => wrong.push(format!("{file}: expected {start:?}, got {problems:?}")),
            None => wrong.push(format!(
                "{file}: not expected to be broken, got {problems:?}"
            )),
        }
    }
    for file in expected.keys() {
        if !reported.contains_key(*file) {
            wrong.push(format!("{file}: expected to be reported, it passed"));
        }
    }
    assert!(wrong.is_empty(), "{summary}\n{}", wrong.join("\n"));
    assert_eq!(out.status.code(), Some(1), "{summary}");
    let count = |key: &str| -> usize {
        summary
            .split(' ')
            .find_map(|f| f.strip_prefix(key))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    assert!(count("files=") > 17_000, "{summary}");
    assert!(count("moves=") > 3_000_000, "{summary}");
    assert_eq!(count("errors="), text.lines().count() - 1, "{summary}");
}
