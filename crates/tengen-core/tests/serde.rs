//! The `serde` feature: rules, sizes, points and scores go to JSON and come
//! back equal; a size off the limits or a malformed number is refused on
//! the way in. Run with `--features serde` (`.ci/run` does).

#![cfg(feature = "serde")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use tengen_core::{BoardSize, Color, Game, Move, Point, Points, Preset, Rules, Score};

#[test]
fn every_preset_goes_to_json_and_back() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        let text = serde_json::to_string(&rules).unwrap();
        let back: Rules = serde_json::from_str(&text).unwrap();
        assert_eq!(back, rules, "{text}");
    }
    let preset: Preset =
        serde_json::from_str(&serde_json::to_string(&Preset::Ffg).unwrap()).unwrap();
    assert_eq!(preset, Preset::Ffg);
}

#[test]
fn points_are_exact_text_and_sizes_are_checked() {
    assert_eq!(
        serde_json::to_string(&Points::quarters(15)).unwrap(),
        "\"3.75\""
    );
    let komi: Points = serde_json::from_str("\"7.5\"").unwrap();
    assert_eq!(komi, Points::halves(15));
    assert!(serde_json::from_str::<Points>("\"seven\"").is_err());
    let size = BoardSize::new(13, 9).unwrap();
    let text = serde_json::to_string(&size).unwrap();
    assert_eq!(text, r#"{"width":13,"height":9}"#);
    assert_eq!(serde_json::from_str::<BoardSize>(&text).unwrap(), size);
    let err = serde_json::from_str::<BoardSize>(r#"{"width":40,"height":9}"#).unwrap_err();
    assert!(err.to_string().contains("40x9"), "{err}");
    assert_eq!(serde_json::to_string(&Color::White).unwrap(), "\"White\"");
}

#[test]
fn a_count_goes_to_json_and_back() {
    let size = BoardSize::square(9).unwrap();
    let mut game = Game::new(Preset::Chinese.rules(), size);
    game.play(Move::Play(Point::parse("E5", size).unwrap()))
        .unwrap();
    let score = game.score(&[]);
    let back: Score = serde_json::from_str(&serde_json::to_string(&score).unwrap()).unwrap();
    assert_eq!(back, score);
}
