//! Finding the shared corpus of real files, for the tests and the bench.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus: `$TENGEN_SGF_CORPUS`, `shared/data` in the repository or
/// `../shared/data` beside it; `None` when none is a directory.
pub fn corpus_root() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("TENGEN_SGF_CORPUS").map(PathBuf::from),
        Some(manifest.join("../../shared/data")),
        Some(manifest.join("../../../shared/data")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_dir())
}

/// Every `.sgf` / `.SGF` file under `root`, at any depth, sorted (the
/// crate's own walk), panicking on an entry it cannot use.
pub fn sgf_files(root: &Path) -> Vec<PathBuf> {
    tengen_sgf::sgf_files(&[root.to_path_buf()])
        .unwrap_or_else(|e| panic!("walking {}: {e}", root.display()))
}
