//! What the training tests share: finding and reading the shared game
//! records.
#![allow(dead_code)] // each test file uses its own part

use std::path::PathBuf;
use tengen_train::{Record, read_records};

/// The set `set` of the shared game records beside the repository; the
/// tests need them.
pub fn data(set: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(set);
    assert!(
        root.is_dir(),
        "the shared data is missing: {}",
        root.display()
    );
    root
}

/// The records of the SGF file, archive or directory `path`.
pub fn read(path: PathBuf) -> Vec<Record> {
    let files = tengen_sgf::sgf_files(&[path]).unwrap();
    read_records(&files, None, 20, &|| {})
}
