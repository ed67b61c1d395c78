//! Finding SGF files under paths, without recursion: what every command
//! and test that reads collections of records starts from.

use std::path::{Path, PathBuf};

/// Every `.sgf` file (any case) under `paths`, directories walked
/// iteratively, sorted for a stable report.
pub fn sgf_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(p) = stack.pop() {
        let meta = std::fs::metadata(&p)?;
        if meta.is_dir() {
            for entry in std::fs::read_dir(&p)? {
                stack.push(entry?.path());
            }
        } else if is_sgf(&p) || paths.contains(&p) {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

fn is_sgf(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}
