//! The Go meaning of records: reading game information, replaying strictly
//! and tolerantly, writing games back.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use proptest::prelude::*;
use tengen_core::{
    BoardSize, Color, Game, HandicapStones, Move, Outcome, Phase, Points, Preset, Rules, WinBy,
};
use tengen_sgf::record::{self, RecordInfo, RecordedResult, ReplayMode, ReplayOptions, Severity};
use tengen_sgf::{ParseOptions, parse, write_tree};

fn replay(sgf: &str, mode: ReplayMode) -> (RecordInfo, record::Replay) {
    let parsed = parse(sgf.as_bytes(), &ParseOptions::lenient()).unwrap();
    let options = ReplayOptions {
        mode,
        ..ReplayOptions::default()
    };
    record::replay_main_line(&parsed.collection.trees[0], &options).unwrap()
}

#[test]
fn recorded_results_are_read() {
    let win = |winner, by| RecordedResult::Outcome(Outcome::Win { winner, by });
    assert_eq!(
        RecordedResult::parse("B+3.5"),
        win(Color::Black, WinBy::Score(Points::halves(7)))
    );
    assert_eq!(
        RecordedResult::parse("W+R"),
        win(Color::White, WinBy::Resignation)
    );
    assert_eq!(
        RecordedResult::parse("W+Resign"),
        win(Color::White, WinBy::Resignation)
    );
    assert_eq!(
        RecordedResult::parse("B+Time"),
        win(Color::Black, WinBy::Time)
    );
    assert_eq!(
        RecordedResult::parse("B+F"),
        win(Color::Black, WinBy::Forfeit)
    );
    assert_eq!(
        RecordedResult::parse("W+3.25"),
        win(Color::White, WinBy::Score(Points::quarters(13)))
    );
    assert_eq!(
        RecordedResult::parse("0"),
        RecordedResult::Outcome(Outcome::Draw)
    );
    assert_eq!(
        RecordedResult::parse("Draw"),
        RecordedResult::Outcome(Outcome::Draw)
    );
    assert_eq!(
        RecordedResult::parse("Void"),
        RecordedResult::Outcome(Outcome::Void)
    );
    assert!(matches!(
        RecordedResult::parse("W+J"),
        RecordedResult::Winner(Color::White, _)
    ));
    assert!(matches!(
        RecordedResult::parse("B+0.03"),
        RecordedResult::Winner(Color::Black, _)
    ));
    assert!(matches!(
        RecordedResult::parse("?"),
        RecordedResult::Unknown(_)
    ));
}

/// Area margins plus komi are whole numbers (RULES.md, area counting);
/// Chinese records write results in stones (Chinese rules 2002, art. 9 and
/// note ***: Black's stones against 180.5 + 3.75 = 184.25).
#[test]
fn area_margins_are_read_in_points_or_stones_by_the_komi() {
    let margin = |re: &str, komi: Points| RecordedResult::parse(re).area_margin(komi);
    let k75 = Points::halves(15);
    // Points: 7.5 komi gives half-point margins.
    assert_eq!(margin("B+1.5", k75), Some(Points::halves(3)));
    assert_eq!(margin("W+0.5", k75), Some(-Points::halves(1)));
    // Stones (Fox): B+0.75 stones is 1.5 points.
    assert_eq!(margin("B+0.75", k75), Some(Points::halves(3)));
    assert_eq!(margin("W+2.25", k75), Some(-Points::halves(9)));
    // Whole komi: points first.
    assert_eq!(margin("B+3", Points::whole(7)), Some(Points::whole(3)));
    // W+1.25 cannot arise under komi 0 in either unit.
    assert_eq!(margin("W+1.25", Points::ZERO), None);
    assert_eq!(margin("B+R", k75), None);
    assert_eq!(margin("0", k75), None);
}

#[test]
fn scaled_komi_is_read_and_said() {
    for (km, ru, expected, noted) in [
        ("KM[375]", "Chinese", "7.5", true),
        ("KM[650]", "Japanese", "6.5", true),
        ("KM[325]", "Japanese", "6.5", true),
        ("KM[7.500000]", "Chinese", "7.5", false),
        ("KM[3.75]", "Chinese", "7.5", true),
        ("KM[3.75]", "NZ", "3.75", false),
        ("KM[-5]", "Japanese", "-5", false),
    ] {
        let (info, r) = replay(&format!("(;SZ[9]{km}RU[{ru}];B[ee])"), ReplayMode::Strict);
        assert_eq!(info.komi.to_string(), expected, "{km} {ru}");
        let said = r
            .findings
            .iter()
            .any(|f| f.severity == Severity::Note && f.message.contains(km));
        assert_eq!(said, noted, "{km}: {:?}", r.findings);
    }
}

#[test]
fn rules_come_from_ru_and_unknown_names_are_reported() {
    let (info, _) = replay("(;SZ[9]RU[NZ];B[ee])", ReplayMode::Strict);
    assert_eq!(info.rules, Preset::NewZealand.rules());
    let (info, _) = replay(
        "(;SZ[9]RU[koPOSITIONALscoreAREAtaxNONEsui1komi7];B[ee])",
        ReplayMode::Strict,
    );
    assert_eq!(info.komi, Points::whole(7));
    let (info, r) = replay("(;SZ[9]RU[Ing];B[ee])", ReplayMode::Strict);
    assert_eq!(info.rules_text.as_deref(), Some("Ing"));
    assert!(
        r.findings
            .iter()
            .any(|f| f.message.contains("unknown rules RU[Ing]"))
    );
}

#[test]
fn handicap_stones_in_the_second_node_and_rectangular_boards() {
    let (info, r) = replay(
        "(;SZ[19]HA[2]KM[0.5]RU[Chinese];AB[pd][dp];W[dd];B[pp])",
        ReplayMode::Strict,
    );
    assert!(r.complete, "{:?}", r.findings);
    assert_eq!(info.handicap, 2);
    assert_eq!(r.game.board().stones().black, 3);
    // Chinese rules add n to the recorded base komi.
    assert_eq!(r.game.komi().to_string(), "2.5");
    let (info, r) = replay("(;SZ[13:7];B[ma];W[ag];B[];W[tt])", ReplayMode::Strict);
    assert_eq!(info.size, BoardSize::new(13, 7).unwrap());
    assert_eq!(r.moves, 4);
    assert_eq!(r.game.passes(), tengen_core::ByColor::new(1, 1));
}

#[test]
fn strict_replay_stops_at_an_illegal_move_and_tolerant_goes_on() {
    // White's suicide at A1 (aa), legal under NZ rules, not under Chinese.
    let sgf = "(;SZ[5]RU[Chinese];B[ba];W[cc];B[ab];W[aa];B[dd])";
    let (_, strict) = replay(sgf, ReplayMode::Strict);
    assert!(!strict.complete);
    assert_eq!(strict.moves, 3);
    let err = strict
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error)
        .unwrap();
    assert_eq!(err.move_number, 4);
    assert_eq!(
        err.message,
        "illegal move W[aa] at move 4: suicide is forbidden under chinese"
    );
    let (_, tolerant) = replay(sgf, ReplayMode::Tolerant);
    assert!(tolerant.complete);
    assert_eq!(tolerant.moves, 5);
    assert!(
        tolerant
            .findings
            .iter()
            .any(|f| f.severity == Severity::Deviation && f.move_number == 4)
    );
    // The suicided stone is gone and counts as captured by Black.
    assert_eq!(tolerant.game.captures().black, 1);
    let (_, nz) = replay(&sgf.replace("Chinese", "NZ"), ReplayMode::Strict);
    assert!(nz.complete, "{:?}", nz.findings);
}

#[test]
fn moves_after_two_passes_resume_play() {
    let (_, r) = replay(
        "(;SZ[9]RU[French];B[ee];W[];B[];W[cc];B[gg])",
        ReplayMode::Strict,
    );
    assert!(r.complete, "{:?}", r.findings);
    assert_eq!(r.game.phase(), Phase::Playing);
    assert_eq!(r.game.turns().len(), 5);
}

#[test]
fn every_variation_is_replayed_once() {
    let sgf = "(;SZ[5]RU[Japanese];B[cc](;W[bb];B[dd])(;W[aa];B[cc])(;W[dd]))";
    let parsed = parse(sgf.as_bytes(), &ParseOptions::default()).unwrap();
    let (_, findings, moves) =
        record::replay_all(&parsed.collection.trees[0], &ReplayOptions::default()).unwrap();
    assert_eq!(moves, 1 + 2 + 1 + 1);
    assert_eq!(findings.len(), 1);
    assert_eq!(
        findings[0].message,
        "illegal move B[cc] at move 3: the point is occupied under japanese"
    );
}

#[test]
fn nested_and_sibling_variations_each_replay_from_their_own_branch_depth_first() {
    let sgf = "(;SZ[5]RU[Japanese];B[cc](;W[bb](;B[bb])(;B[dd];W[cc]))(;W[cc])(;W[dd];B[dd]))";
    let parsed = parse(sgf.as_bytes(), &ParseOptions::default()).unwrap();
    let (_, findings, moves) =
        record::replay_all(&parsed.collection.trees[0], &ReplayOptions::default()).unwrap();
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "illegal move B[bb] at move 3: the point is occupied under japanese",
            "illegal move W[cc] at move 4: the point is occupied under japanese",
            "illegal move W[cc] at move 2: the point is occupied under japanese",
            "illegal move B[dd] at move 3: the point is occupied under japanese",
        ]
    );
    // B[cc], W[bb], B[dd] and W[dd]: each refused move ends its line only.
    assert_eq!(moves, 4);
    // Thousands of siblings: each from the branch's position, none
    // seeing another's stone.
    let wide: String = (0..5_000)
        .map(|i| {
            format!(
                "(;W[{}{}])",
                (b'a' + (i % 5) as u8) as char,
                (b'a' + (i / 5 % 5) as u8) as char
            )
        })
        .collect();
    let sgf = format!("(;SZ[5];B[cc]{wide})");
    let parsed = parse(sgf.as_bytes(), &ParseOptions::default()).unwrap();
    let (_, findings, moves) =
        record::replay_all(&parsed.collection.trees[0], &ReplayOptions::default()).unwrap();
    // One sibling in 25 is W[cc], on Black's stone.
    assert_eq!(findings.len(), 200, "{:?}", findings.first());
    assert_eq!(moves, 1 + 5_000 - 200);
}

fn random_game(rules: Rules, size: BoardSize, handicap: u32, seed: u64, turns: usize) -> Game {
    let mut game = Game::with_handicap(rules, size, handicap, HandicapStones::Fixed)
        .unwrap_or_else(|_| Game::new(rules, size));
    let mut s = seed | 1;
    for _ in 0..turns {
        if game.phase() != Phase::Playing {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let pts: Vec<_> = game.legal_points().collect();
        let mv = if pts.is_empty() || s.is_multiple_of(23) {
            Move::Pass
        } else {
            Move::Play(pts[(s >> 8) as usize % pts.len()])
        };
        game.play(mv).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// A random game -> SGF -> game gives the same game.
    #[test]
    fn random_games_survive_sgf(seed in any::<u64>(), preset in 0..9usize, w in 2u32..=19, h in 2u32..=19, handicap in 0u32..=9, turns in 0usize..300) {
        let preset = Preset::ALL[preset];
        let size = BoardSize::new(w, h).unwrap();
        let game = random_game(preset.rules(), size, handicap, seed, turns);
        let info = RecordInfo {
            black: Some("B ] \\ : x".into()),
            time: tengen_core::TimeControl::ByoYomi { main_ms: 600_000, periods: 5, period_ms: 30_000 },
            ..RecordInfo::of(&game)
        };
        let text = write_tree(&record::write_game(&game, &info));
        let parsed = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let tree = &parsed.collection.trees[0];
        let (back, r) = record::replay_main_line(tree, &ReplayOptions::default()).unwrap();
        prop_assert!(r.complete, "{:?}\n{}", r.findings, text);
        prop_assert_eq!(back.rules, *game.rules());
        prop_assert_eq!(back.black.as_deref(), Some("B ] \\ : x"));
        prop_assert_eq!(back.time, info.time);
        prop_assert_eq!(r.game.komi(), game.komi());
        prop_assert_eq!(r.game.turns(), game.turns());
        prop_assert_eq!(r.game.initial_board(), game.initial_board());
        prop_assert_eq!(r.game.board(), game.board());
        prop_assert_eq!(r.game.first_to_move(), game.first_to_move());
        prop_assert_eq!(r.game.captures(), game.captures());
        prop_assert_eq!(r.game.phase(), game.phase());
    }
}

#[test]
fn variations_branch_where_the_lines_part() {
    let size = BoardSize::square(9).unwrap();
    let rules = Preset::Ffg.rules();
    let line = |moves: &[&str]| {
        let mut g = Game::new(rules, size);
        for m in moves {
            let mv = match tengen_core::Vertex::parse(m, size).unwrap() {
                tengen_core::Vertex::Point(p) => Move::Play(p),
                tengen_core::Vertex::Pass => Move::Pass,
            };
            g.play(mv).unwrap();
        }
        g
    };
    let main = line(&["E5", "C3", "G7"]);
    let a = line(&["E5", "C3", "C7"]);
    let b = line(&["E5", "G3"]);
    let other_start = Game::with_handicap(rules, size, 2, HandicapStones::Fixed).unwrap();
    let info = RecordInfo::of(&main);
    let (tree, skipped) =
        record::write_game_with_variations(&main, &[a, b, main.clone(), other_start], &info);
    assert_eq!(skipped, 1);
    let text = write_tree(&tree);
    let body = &text[text.find(";B[ee]").unwrap()..];
    let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(compact, ";B[ee](;W[cg](;B[gc])(;B[cc]))(;W[gg]))");
    // Every line replays.
    let parsed = parse(text.as_bytes(), &ParseOptions::default()).unwrap();
    let (_, findings, moves) =
        record::replay_all(&parsed.collection.trees[0], &ReplayOptions::default()).unwrap();
    assert!(
        findings.iter().all(|f| f.severity == Severity::Note),
        "{findings:?}"
    );
    assert_eq!(moves, 5);
}

#[test]
fn a_records_first_game_loads_from_a_file_or_from_text() {
    let sgf = "(;GM[1]SZ[9]RU[Chinese]HA[2]KM[0.5]AB[cg][gc]PB[Noir];W[ee];B[dd])(;SZ[5])";
    let tolerant = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    let lenient = ParseOptions::lenient();
    let from_text = record::load_main_line(record::Source::Text(sgf), &lenient, &tolerant).unwrap();
    let path = std::env::temp_dir().join(format!("tengen-load-{}.sgf", std::process::id()));
    std::fs::write(&path, sgf).unwrap();
    let from_file = record::load_main_line(record::Source::File(&path), &lenient, &tolerant);
    std::fs::remove_file(&path).unwrap();
    let from_file = from_file.unwrap();
    for loaded in [&from_text, &from_file] {
        assert_eq!(loaded.collection.trees.len(), 2);
        assert_eq!(loaded.info.black.as_deref(), Some("Noir"));
        // Chinese rules: 0.5 stated, one point per stone on top.
        assert_eq!(loaded.info.komi, Points::halves(5));
        assert_eq!(loaded.replay.game.komi(), Points::halves(5));
        assert_eq!(loaded.replay.game.stated_komi(), Points::halves(1));
        assert_eq!(loaded.replay.moves, 2);
        // The start is the position before the first move.
        assert!(loaded.replay.start.turns().is_empty());
        assert_eq!(loaded.replay.start.board().stones().black, 2);
        assert_eq!(loaded.replay.start.to_move(), Color::White);
    }
    let load = |text: &str| record::load_main_line(record::Source::Text(text), &lenient, &tolerant);
    assert!(matches!(load(""), Err(record::LoadError::NoGame)));
    assert!(matches!(
        load("no tree here"),
        Err(record::LoadError::Parse(_))
    ));
    let Err(record::LoadError::Replay(f)) = load("(;SZ[0])") else {
        panic!("SZ[0] cannot be replayed");
    };
    assert_eq!(f.severity, Severity::Error);
    let missing = std::path::Path::new("/nonexistent/tengen.sgf");
    let Err(e) = record::load_main_line(record::Source::File(missing), &lenient, &tolerant) else {
        panic!("no such file");
    };
    assert!(e.to_string().starts_with("cannot read the file: "), "{e}");
}

#[test]
fn record_info_of_a_game_is_what_the_game_carries() {
    let size = BoardSize::square(9).unwrap();
    let game = Game::with_handicap(Preset::Aga.rules(), size, 3, HandicapStones::Fixed).unwrap();
    let info = RecordInfo::of(&game);
    assert_eq!(info.size, size);
    assert_eq!(info.rules, *game.rules());
    assert_eq!((info.komi, info.handicap), (game.komi(), 3));
    assert_eq!(info.black, None);
    assert_eq!(info.result_text, None);
    // KM holds the komi less the compensation per stone: 0.5 under AGA.
    let text = write_tree(&record::write_game(&game, &info));
    assert!(text.contains("KM[0.5]"), "{text}");
}

/// A Fox record written back: its komi as read and one application, so
/// that other programs read komi 7.5, not 375 (the SGF specification: `AP`
/// is one composed value, `KM` a real number of points).
#[test]
fn a_restated_root_says_the_komi_as_read_and_one_application() {
    let text = "(;GM[1]FF[4]SZ[19]KM[375]RU[Chinese]AP[GNU Go:3.8][foxwq]PB[a]C[kept];B[pd])";
    let parsed = parse(text.as_bytes(), &ParseOptions::lenient()).unwrap();
    let mut tree = parsed.collection.trees[0].clone();
    let (_, replay) = record::replay_main_line(&tree, &ReplayOptions::default()).unwrap();
    record::restate_root(&mut tree, &replay.start);
    let written = write_tree(&tree);
    assert!(
        written.contains("KM[7.5]") && !written.contains("375"),
        "{written}"
    );
    let ap: Vec<&str> = written.matches("AP[").collect();
    assert_eq!(ap.len(), 1, "{written}");
    assert!(
        written.contains("AP[tengen:") && !written.contains("foxwq"),
        "{written}"
    );
    assert!(written.contains("PB[a]") && written.contains("C[kept]") && written.contains("B[pd]"));
}

/// A counted game's record marks each side's territory on its last node,
/// the dead stones' points in their captor's (FF[4] `TB`/`TW`, as the usual
/// editors write the end of a counted game); a resigned game's has none.
#[test]
fn a_counted_game_is_written_with_its_territory_and_dead_stones() {
    let size = BoardSize::square(5).unwrap();
    let mut game = Game::new(Preset::Chinese.rules(), size);
    let pt = |v: &str| match tengen_core::Vertex::parse(v, size).unwrap() {
        tengen_core::Vertex::Point(p) => p,
        tengen_core::Vertex::Pass => unreachable!(),
    };
    // Black walls the B column, White the D column; a white stone dies at A1.
    for (b, w) in [
        ("B1", "D1"),
        ("B2", "D2"),
        ("B3", "D3"),
        ("B4", "D4"),
        ("B5", "D5"),
    ] {
        game.play(Move::Play(pt(b))).unwrap();
        game.play(Move::Play(pt(w))).unwrap();
    }
    game.play(Move::Pass).unwrap();
    game.play(Move::Play(pt("A1"))).unwrap();
    game.play(Move::Pass).unwrap();
    game.play(Move::Pass).unwrap();
    assert_eq!(game.phase(), Phase::Marking);
    game.propose_dead(Color::Black, &[pt("A1")]).unwrap();
    game.accept_dead(Color::White).unwrap();
    assert_eq!(game.dead_stones(), [pt("A1")]);
    let text = write_tree(&record::write_game(&game, &RecordInfo::of(&game)));
    // A1 (dead white stone) is Black's with A2..A5; E1..E5 White's.
    let tb = text.split("TB").nth(1).unwrap();
    for p in ["[ae]", "[ad]", "[ac]", "[ab]", "[aa]"] {
        assert!(
            tb.split("TW").next().unwrap().contains(p),
            "TB lacks {p}: {text}"
        );
    }
    let tw = text.split("TW").nth(1).unwrap();
    for p in ["[ee]", "[ed]", "[ec]", "[eb]", "[ea]"] {
        assert!(tw.contains(p), "TW lacks {p}: {text}");
    }
    let mut resigned = Game::new(Preset::Chinese.rules(), size);
    resigned.play(Move::Play(pt("C3"))).unwrap();
    resigned.resign(Color::White).unwrap();
    let text = write_tree(&record::write_game(&resigned, &RecordInfo::of(&resigned)));
    assert!(!text.contains("TB") && !text.contains("TW"), "{text}");
}
