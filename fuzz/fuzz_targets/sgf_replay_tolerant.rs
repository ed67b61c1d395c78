//! Any bytes read leniently replay tolerantly without panic, every
//! variation included; a replayed main line writes back as a record that
//! replays to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_sgf::record::{self, ReplayMode, ReplayOptions};
use tengen_sgf::{ParseOptions, parse, parse_str, write_tree};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = parse(data, &ParseOptions::lenient()) else {
        return;
    };
    let options = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    for tree in parsed.collection.trees.iter().take(4) {
        let _ = record::replay_all(tree, &options);
        let Ok((info, replay)) = record::replay_main_line(tree, &options) else {
            continue;
        };
        let text = write_tree(&record::write_game(&replay.game, &info));
        let again = parse_str(&text, &ParseOptions::strict()).expect("written records parse");
        let (_, back) = record::replay_main_line(&again.collection.trees[0], &options)
            .expect("written records replay");
        assert_eq!(back.game.turns(), replay.game.turns(), "{text}");
    }
});
