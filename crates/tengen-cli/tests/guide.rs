//! The guide's command-line examples (`docs/src/*/*.md`, the ```console
//! blocks): each command is run with the built binary in
//! `docs/src/examples`, where the pages' records are, and its output must be
//! what the page shows, so that the guide cannot drift from the program.
//! After a deliberate change of output, `TRYCMD=overwrite cargo test
//! --release -p tengen-cli --test guide` rewrites the pages' outputs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::path::PathBuf;

#[test]
fn guide_console_examples() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/src");
    let docs = docs.canonicalize().unwrap();
    // The pages' commands name the records as a reader who downloaded them
    // would: from their directory.
    std::env::set_current_dir(docs.join("examples")).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("tengen", trycmd::cargo::cargo_bin!("tengen"));
    for lang in ["en", "fr"] {
        cases.case(docs.join(lang).join("*.md"));
    }
}
