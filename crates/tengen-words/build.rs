//! Lists the catalogues: every `words/*.toml` is one language, English
//! first (the words any other catalogue lacks), so that a language is added
//! by adding its file.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("words");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut codes: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    name.strip_suffix(".toml").map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default();
    codes.sort_by_key(|c| (c != "en", c.clone()));
    let mut out = String::from("/// Every catalogue: its code and its text, English first.\n");
    out.push_str("const CATALOGUES: &[(&str, &str)] = &[\n");
    for code in &codes {
        let _ = writeln!(
            out,
            "    ({code:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/words/{code}.toml\"))),"
        );
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("catalogues.rs");
    if let Err(e) = std::fs::write(&target, out) {
        println!("cargo::error=cannot write {}: {e}", target.display());
    }
}
