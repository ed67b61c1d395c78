//! Whatever lenient parsing reads writes back as strict FF[4] that reads as
//! the same collection, and writing that again gives the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_sgf::{ParseOptions, parse, parse_str, write};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = parse(data, &ParseOptions::lenient()) else {
        return;
    };
    let text = write(&parsed.collection);
    if parsed.collection.is_empty() {
        assert!(text.is_empty());
        return;
    }
    let again = match parse_str(&text, &ParseOptions::strict()) {
        Ok(again) => again,
        Err(e) => panic!("written text does not parse: {e}\n{text}"),
    };
    assert!(
        again.collection == parsed.collection,
        "collection changed:\n{text}"
    );
    assert_eq!(write(&again.collection), text);
});
