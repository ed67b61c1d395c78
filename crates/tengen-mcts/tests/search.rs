//! The Monte-Carlo player on positions with a clear answer: captures, atari,
//! eyes, repetition, the end of the game, cleanup, the capture games, seki
//! and dead stones. Searches run on one thread with a fixed seed, so every
//! asserted move is reproducible.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::sync::atomic::AtomicBool;
use tengen_core::{Board, Color, Game, Move, Point, Points, Preset, Rules, Setup, Vertex};
use tengen_mcts::{
    Decision, GenMode, Limit, Request, Rng, Search, SearchConfig, dead_stones, estimate_dead,
    random,
};

fn game_from(rows: &str, to_move: Color, rules: Rules) -> Game {
    let board = Board::from_ascii(rows).unwrap();
    Game::from_setup(rules, &Setup::of(&board, to_move)).unwrap()
}

fn at(game: &Game, v: &str) -> Point {
    match Vertex::parse(v, game.size()).unwrap() {
        Vertex::Point(p) => p,
        other => panic!("{v} is not a point: {other:?}"),
    }
}

fn search() -> Search {
    Search::new(SearchConfig {
        threads: 1,
        seed: 42,
        resign_below: Some(0.1),
        ..SearchConfig::default()
    })
}

fn genmove(game: &Game, playouts: u64, mode: GenMode) -> Decision {
    let request = Request {
        mode,
        ..Request::new(Limit::playouts(playouts))
    };
    search().genmove(game, request).0
}

#[test]
fn captures_to_win_a_capturing_race() {
    // Both chains have one liberty; Black to move captures at F4.
    let game = game_from(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . O O . . . .
        . . O X X X O . .
        . . X O O O X . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
        Preset::Chinese.rules(),
    );
    let f4 = at(&game, "F4");
    assert_eq!(
        genmove(&game, 2000, GenMode::Normal),
        Decision::Move(Move::Play(f4))
    );
}

#[test]
fn saves_its_own_chain_from_atari() {
    // The three black stones have one liberty, G6; extending there gives
    // them three.
    let game = game_from(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . O O O X . .
        . . O X X X . . .
        . . . O O O X . .
        . . . . . . . . .
        . . X . . . X . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
        Preset::Chinese.rules(),
    );
    let g6 = at(&game, "G6");
    assert_eq!(
        genmove(&game, 2000, GenMode::Normal),
        Decision::Move(Move::Play(g6))
    );
}

#[test]
fn never_fills_its_own_eye() {
    let game = game_from(
        "
        . X . X .
        X X X X X
        . . . . .
        O O O O O
        . O . O .",
        Color::Black,
        Preset::Chinese.rules(),
    );
    let eyes = [at(&game, "A5"), at(&game, "C5"), at(&game, "E5")];
    let mut s = search();
    let analysis = s.analyze(&game, Request::new(Limit::playouts(1500)));
    assert!(!analysis.candidates.is_empty());
    for c in &analysis.candidates {
        assert!(
            !matches!(c.mv, Move::Play(p) if eyes.contains(&p)),
            "{:?} fills an eye",
            c.mv
        );
    }
}

#[test]
fn never_retakes_a_ko_at_once() {
    // White takes the ko at B6, both play elsewhere, Black takes it back at
    // C6: the retake at B6 captures one stone, which the priors like, but
    // every repetition rule forbids it.
    for preset in Preset::ALL
        .into_iter()
        .filter(|p| p.rules().capture_goal.is_none())
    {
        let mut game = game_from(
            "
            . X O . . . .
            X . X O . . .
            . X O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
            Color::White,
            preset.rules(),
        );
        let b6 = at(&game, "B6");
        for v in ["B6", "F2", "F6", "C6"] {
            game.play(Move::Play(at(&game, v))).unwrap();
        }
        assert!(!game.is_legal(Move::Play(b6)), "{preset}");
        let d = genmove(&game, 600, GenMode::Normal);
        assert_ne!(d, Decision::Move(Move::Play(b6)), "{preset}");
        assert_ne!(d, Decision::Resign, "{preset}");
    }
}

#[test]
fn every_move_is_legal_under_every_preset_in_random_positions() {
    let size = tengen_core::BoardSize::square(7).unwrap();
    for preset in Preset::ALL {
        let mut rng = Rng::new(9);
        for seed in 0..6u64 {
            let turns =
                random::random_game(preset.rules(), size, 30 + 12 * seed as usize, &mut rng);
            let mut game = Game::new(preset.rules(), size);
            for t in &turns {
                if game.play_as(t.color, t.mv).is_err() {
                    break;
                }
            }
            if game.phase() != tengen_core::Phase::Playing {
                continue;
            }
            let mut s = Search::new(SearchConfig {
                threads: 1,
                seed,
                resign_below: None,
                ..SearchConfig::default()
            });
            let (d, _) = s.genmove(&game, Request::new(Limit::playouts(150)));
            let Decision::Move(mv) = d else {
                panic!("resigned with resignation off");
            };
            assert!(game.is_legal(mv), "{preset} seed {seed}: {mv:?}");
        }
    }
}

#[test]
fn passes_when_nothing_is_left_to_play() {
    let mut game = game_from(
        "
        X . X O .
        . X X O O
        X X X O .
        . X X O O
        X . X O .",
        Color::White,
        Preset::Chinese.rules(),
    );
    game.set_komi(Points::halves(1));
    game.play(Move::Pass).unwrap();
    assert_eq!(
        genmove(&game, 500, GenMode::Normal),
        Decision::Move(Move::Pass)
    );
}

#[test]
fn answers_a_pass_with_a_pass_when_the_count_wins() {
    // Walls settled, Black ahead by 45 to 36 + 7: after White's pass,
    // filling its own area gains Black nothing, under area or territory
    // counting.
    let rows = "
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .";
    for preset in [Preset::Chinese, Preset::Japanese] {
        let mut game = game_from(rows, Color::White, preset.rules());
        game.set_komi(Points::whole(7));
        game.play(Move::Pass).unwrap();
        assert_eq!(
            genmove(&game, 3000, GenMode::Normal),
            Decision::Move(Move::Pass),
            "{preset:?}"
        );
    }
}

#[test]
fn a_group_that_dies_in_a_capturing_race_is_no_reason_to_pass() {
    // The end of a 9x9 game against GNU Go (Chinese rules, komi 7), Black
    // has just passed. White's seven stones on the right share J9 and J7
    // with Black's J8 and have two outside liberties: Black fills these,
    // then throws in at J9 (or J7) and White's space is one eye. Playouts
    // that counted a capture as one liberty per stone next to the move,
    // and refused every self-atari of two stones, kept the group alive,
    // and White passed into a lost game.
    let rows = include_str!("../../tengen-tactics/tests/data/shared_liberties.txt");
    let mut game = game_from(rows, Color::Black, Preset::Chinese.rules());
    game.set_komi(Points::whole(7));
    game.play(Move::Pass).unwrap();
    let group = at(&game, "H9");
    assert!(estimate_dead(&game, 2000, 1).contains(&group));
    assert_ne!(
        genmove(&game, 3000, GenMode::Normal),
        Decision::Move(Move::Pass)
    );
}

#[test]
fn resigns_when_hopeless_and_not_otherwise() {
    let game = game_from(
        "
        . O . O . O .
        O O O O O O O
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O O O O
        . O . O . X X",
        Color::Black,
        Preset::Chinese.rules(),
    );
    assert_eq!(genmove(&game, 1500, GenMode::Normal), Decision::Resign);
    let mut s = Search::new(SearchConfig {
        resign_below: None,
        ..SearchConfig::default()
    });
    let (d, _) = s.genmove(&game, Request::new(Limit::playouts(600)));
    assert_ne!(d, Decision::Resign);
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    let mut game = game_from(
        "
        . . . . X O . . .
        . . . . X O . . .
        . . O . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .",
        Color::White,
        Preset::TrompTaylor.rules(),
    );
    game.set_komi(Points::halves(1));
    game.play(Move::Pass).unwrap();
    let d = genmove(&game, 3000, GenMode::Cleanup);
    assert_ne!(d, Decision::Move(Move::Pass));
    assert_ne!(d, Decision::Resign);
}

#[test]
fn the_first_capture_game_takes_the_capture() {
    let game = game_from(
        "
        . . . . . . .
        . . . . . . .
        . . X O X . .
        . . . X . . .
        . . . . . . .
        . . . . O . .
        . . . . . . .",
        Color::Black,
        Preset::FirstCapture.rules(),
    );
    assert_eq!(game.rules().capture_goal, Some(1));
    let d6 = at(&game, "D6");
    assert_eq!(
        genmove(&game, 800, GenMode::Normal),
        Decision::Move(Move::Play(d6))
    );
}

#[test]
fn the_capture_five_game_avoids_self_atari() {
    let game = game_from(
        "
        . . . . . . .
        . . O O . . .
        . O X . O . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        Color::Black,
        Preset::CaptureFive.rules(),
    );
    // D5 would join C5 and leave the pair with one liberty.
    let d5 = at(&game, "D5");
    let d = genmove(&game, 1500, GenMode::Normal);
    assert_ne!(d, Decision::Move(Move::Play(d5)));
}

#[test]
fn dead_stones_marks_lone_invaders_and_not_the_living() {
    let game = game_from(
        "
        . . X O . .
        . . X O . .
        . O X O . .
        . . X O . .
        . . X O X .
        . . X O . .
        . . X O . .",
        Color::Black,
        Preset::Chinese.rules(),
    );
    let mut invaders = vec![at(&game, "B5"), at(&game, "E3")];
    invaders.sort_by_key(|p| p.index());
    assert_eq!(estimate_dead(&game, 1000, 3), invaders);
    // The same from an ownership map given directly.
    let n = game.size().num_points();
    let mut ownership = vec![0.0f32; n];
    for (i, p) in game.size().points().enumerate() {
        let (x, _) = game.size().xy(p);
        ownership[i] = if x <= 2 { 1.0 } else { -1.0 };
    }
    assert_eq!(dead_stones(&game, &ownership), invaders);
    // Even ownership marks nothing; ownership leaning a fifth to one side
    // (its owner wins the points three times in five) kills every chain of
    // the other colour: the most likely status is the estimate.
    assert!(dead_stones(&game, &vec![0.0; n]).is_empty());
    for (lean, dead_colour) in [(-0.2, Color::Black), (0.2, Color::White)] {
        let dead = dead_stones(&game, &vec![lean; n]);
        let stones = game
            .size()
            .points()
            .filter(|&p| game.board().get(p) == Some(dead_colour))
            .count();
        assert_eq!(dead.len(), stones, "{lean}: {dead:?}");
        assert!(
            dead.iter()
                .all(|&p| game.board().get(p) == Some(dead_colour))
        );
    }
}

/// The seki positions of Pachi's unit tests (`moggy status V :` names a
/// stone in seki): no stone in seki may be marked dead.
#[test]
fn seki_is_not_marked_dead() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/pachi_tests/t-unit/seki.t"
    );
    let text = std::fs::read_to_string(path).expect("shared/data/pachi_tests must be present");
    let mut checked = 0;
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut game: Option<Game> = None;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(n) = line.strip_prefix("boardsize ") {
            let n: usize = n.trim().parse().unwrap();
            let rows = lines[i + 1..=i + n]
                .iter()
                .map(|r| r.replace(')', " "))
                .collect::<Vec<_>>()
                .join("\n");
            game = Some(game_from(&rows, Color::Black, Preset::Chinese.rules()));
            i += n + 1;
            continue;
        }
        if let (Some(rest), Some(g)) = (line.strip_prefix("moggy status "), game.as_ref()) {
            let rest = rest.split('#').next().unwrap_or("");
            let words: Vec<&str> = rest.split_whitespace().collect();
            let dead = estimate_dead(g, 600, 5);
            for pair in words.chunks(2) {
                let [v, status] = pair else { continue };
                if *status != ":" {
                    continue;
                }
                // A point in seki, or a liberty shared in seki: the chains
                // there and around it live.
                let p = at(g, v);
                let mut chains = vec![p];
                chains.extend(g.size().neighbours(p));
                for q in chains {
                    if g.board().get(q).is_some() {
                        checked += 1;
                        assert!(!dead.contains(&q), "{line}: {v} is in seki\n{}", g.board());
                    }
                }
            }
        }
        i += 1;
    }
    assert!(checked >= 3, "only {checked} seki stones checked");
}

#[test]
fn one_thread_with_a_seed_is_reproducible() {
    let game = Game::new(
        Preset::Japanese.rules(),
        tengen_core::BoardSize::square(9).unwrap(),
    );
    let a = search().analyze(&game, Request::new(Limit::playouts(800)));
    let b = search().analyze(&game, Request::new(Limit::playouts(800)));
    assert_eq!(a, b);
}

#[test]
fn the_tree_is_kept_for_the_next_move() {
    let mut game = Game::new(
        Preset::Chinese.rules(),
        tengen_core::BoardSize::square(9).unwrap(),
    );
    let mut s = search();
    // The search's own line (the opening book may play another move).
    let (_, first) = s.genmove(&game, Request::new(Limit::playouts(3000)));
    let best = &first.candidates[0];
    game.play(best.mv).unwrap();
    let reply = best.pv.get(1).copied().unwrap_or(Move::Pass);
    game.play(reply).unwrap();
    let (_, second) = s.genmove(&game, Request::new(Limit::playouts(100)));
    assert!(second.visits > 100, "visits {}", second.visits);
}

#[test]
fn analysis_reports_and_stops() {
    let game = Game::new(
        Preset::Chinese.rules(),
        tengen_core::BoardSize::square(9).unwrap(),
    );
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    let mut on_report = |a: &tengen_mcts::Analysis| {
        reports += 1;
        assert_eq!(a.to_move, Color::Black);
        if reports >= 2 && a.visits > 0 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let request = Request {
        stop: Some(&stop),
        report: Some((std::time::Duration::from_millis(20), &mut on_report)),
        ..Request::new(Limit::playouts(u64::MAX / 2))
    };
    let a = search().analyze(&game, request);
    assert!(reports >= 2);
    assert!(a.visits > 0);
    let total: f64 = a.candidates.iter().map(|c| c.prior).sum();
    assert!(total <= 1.0 + 1e-6);
    assert!(a.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
}

/// Reports taken while two threads flush their ownership counts: every
/// point's mean owner stays in -1..=1 and its spread in 0..=1 (a report
/// that read a point's new playouts before the count once gave a spread
/// above 1).
#[test]
fn ownership_reported_during_the_search_stays_within_its_bounds() {
    let game = Game::new(
        Preset::Chinese.rules(),
        tengen_core::BoardSize::square(9).unwrap(),
    );
    let mut reports = 0;
    let mut on_report = |a: &tengen_mcts::Analysis| {
        reports += 1;
        assert!(
            a.ownership.iter().all(|v| (-1.0..=1.0).contains(v)),
            "{:?}",
            a.ownership
        );
        assert!(
            a.ownership_stdev.iter().all(|v| (0.0..=1.0).contains(v)),
            "{:?}",
            a.ownership_stdev
        );
    };
    let request = Request {
        report: Some((std::time::Duration::ZERO, &mut on_report)),
        ..Request::new(Limit::playouts(30_000))
    };
    let mut s = Search::new(SearchConfig {
        threads: 2,
        seed: 7,
        ..SearchConfig::default()
    });
    let a = s.analyze(&game, request);
    assert!(reports >= 10, "{reports}");
    assert!(a.visits > 0);
}
