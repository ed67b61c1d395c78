//! Any bytes, both modes: parsing never panics, and whatever it reads can be
//! walked, written and located.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_sgf::{ParseOptions, parse, write};

fuzz_target!(|data: &[u8]| {
    for options in [ParseOptions::strict(), ParseOptions::lenient()] {
        match parse(data, &options) {
            Ok(parsed) => {
                for tree in &parsed.collection.trees {
                    for id in tree.nodes() {
                        for prop in tree.node(id).properties() {
                            for value in prop.values() {
                                let _ = (value.text(), value.simple_text(), value.composed());
                            }
                            let _ = tengen_sgf::expand_point_list(prop.values());
                        }
                    }
                    let _ = tree.main_line().count();
                }
                for w in &parsed.warnings {
                    let _ = parsed.location(w.span.start);
                    let _ = w.to_string();
                }
                let _ = write(&parsed.collection);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
