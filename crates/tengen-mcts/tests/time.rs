//! Time management: the budget never exceeds the clock, byo-yomi periods
//! are not lost, and the opening gets more than the settled endgame.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::time::Duration;
use tengen_core::{BoardSize, Clock, Color, Game, Move, Preset, SideClock, TimeControl};
use tengen_mcts::think_time;

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

fn ms(s: f64) -> i64 {
    (s * 1000.0) as i64
}

/// A player's clock at the start of a game under `control`.
fn start(control: TimeControl) -> SideClock {
    Clock::new(control).side(Color::Black)
}

fn games() -> Vec<Game> {
    let mut out = Vec::new();
    for n in [9, 13, 19] {
        let size = BoardSize::square(n).unwrap();
        let mut game = Game::new(Preset::Chinese.rules(), size);
        out.push(game.clone());
        // A board half full, by stones on every other point of every
        // other row.
        for p in size.points() {
            let (x, y) = size.xy(p);
            if (x + y) % 2 == 0 && y % 2 == 0 {
                game.play(Move::Play(p)).unwrap();
                game.play(Move::Pass).unwrap();
            }
        }
        out.push(game);
    }
    out
}

fn controls() -> Vec<TimeControl> {
    vec![
        TimeControl::Absolute { main_ms: ms(300.0) },
        TimeControl::ByoYomi {
            main_ms: ms(600.0),
            period_ms: ms(30.0),
            periods: 5,
        },
        TimeControl::Canadian {
            main_ms: ms(600.0),
            period_ms: ms(300.0),
            stones: 25,
        },
        TimeControl::Fischer {
            main_ms: ms(120.0),
            increment_ms: ms(5.0),
            max_ms: 0,
        },
    ]
}

#[test]
fn never_more_than_the_time_left() {
    for game in games() {
        for control in controls() {
            for left in [0.0, 0.01, 0.1, 0.5, 1.0, 3.0, 30.0, 300.0] {
                let clock = SideClock {
                    main_ms: ms(left),
                    ..start(control)
                };
                let t = think_time(control, &clock, &game);
                match control {
                    // In main time of byo-yomi the period is still to come.
                    TimeControl::ByoYomi { period_ms, .. } => {
                        assert!(t <= secs(left) + Duration::from_millis(period_ms as u64))
                    }
                    // Main time spent: the first overtime period starts.
                    TimeControl::Canadian {
                        period_ms, stones, ..
                    } => {
                        assert!(t <= secs(left) + Duration::from_millis(period_ms as u64) / stones)
                    }
                    _ => assert!(t <= secs(left), "{control:?} left {left}: {t:?}"),
                }
            }
        }
    }
}

#[test]
fn byo_yomi_keeps_inside_the_period() {
    let control = TimeControl::ByoYomi {
        main_ms: ms(600.0),
        period_ms: ms(30.0),
        periods: 5,
    };
    for game in games() {
        for periods in 1..=5 {
            let clock = SideClock {
                main_ms: 0,
                periods,
                period_ms: ms(30.0),
                stones: 0,
            };
            let t = think_time(control, &clock, &game);
            assert!(t < secs(30.0), "{t:?}");
            assert!(t >= secs(20.0), "a period should be used: {t:?}");
        }
    }
}

#[test]
fn canadian_overtime_shares_the_period_among_the_stones() {
    let control = TimeControl::Canadian {
        main_ms: 0,
        period_ms: ms(300.0),
        stones: 25,
    };
    let game = &games()[0];
    let clock = SideClock {
        main_ms: 0,
        periods: 0,
        period_ms: ms(60.0),
        stones: 10,
    };
    let t = think_time(control, &clock, game);
    assert!(t <= secs(6.0), "{t:?}");
    assert!(t >= secs(4.0), "{t:?}");
}

#[test]
fn the_middle_game_gets_more_than_the_opening_and_the_endgame() {
    let control = TimeControl::Absolute { main_ms: ms(600.0) };
    let clock = start(control);
    let g = games();
    for pair in g.chunks(2) {
        let opening = think_time(control, &clock, &pair[0]);
        let middle = think_time(control, &clock, &pair[1]);
        assert!(opening > Duration::ZERO);
        assert!(opening < secs(600.0) / 10);
        assert!(middle > opening, "{middle:?} against {opening:?}");
        let mut endgame = pair[1].clone();
        let size = endgame.size();
        for p in size.points() {
            if endgame.board().empty_points().len() * 10 < size.num_points() {
                break;
            }
            if endgame.is_legal(Move::Play(p)) {
                endgame.play(Move::Play(p)).unwrap();
                endgame.play(Move::Pass).unwrap();
            }
        }
        let late = think_time(control, &clock, &endgame);
        assert!(late > Duration::ZERO);
        // On a small board the few moves left do not make up for the
        // settled position's lower weight (on larger ones, with the same
        // clock, they do: the clock would have run down by then).
        if size.num_points() <= 81 {
            assert!(late < middle, "{late:?} against {middle:?}");
        }
    }
}

/// An absurd but accepted clock gives one move ten minutes at most.
#[test]
fn an_absurd_clock_is_capped() {
    for control in [
        TimeControl::Absolute { main_ms: i64::MAX },
        TimeControl::ByoYomi {
            main_ms: i64::MAX,
            periods: 1,
            period_ms: i64::MAX,
        },
        TimeControl::Fischer {
            main_ms: 100_000_000_000,
            increment_ms: i64::MAX,
            max_ms: 0,
        },
    ] {
        for game in games() {
            let t = think_time(control, &start(control), &game);
            assert!(t <= Duration::from_secs(600), "{control:?}: {t:?}");
            assert!(t >= Duration::from_secs(60), "{control:?}: {t:?}");
        }
    }
}

#[test]
fn no_clock_means_no_budget() {
    let control = TimeControl::None;
    let clock = start(control);
    assert_eq!(think_time(control, &clock, &games()[0]), Duration::ZERO);
}

proptest::proptest! {
    /// Whatever the clock says (main time, or a period begun with its
    /// periods or stones, as a controller reports it), thinking for the
    /// budget never makes the flag fall.
    #[test]
    fn thinking_the_budget_never_flags(
        which in 0usize..4,
        left in 0i64..10_000_000,
        count in 0u32..30,
        position in 0usize..6,
    ) {
        let control = controls()[which];
        let game = &games()[position];
        let mut clock = Clock::new(control);
        clock.set_left(Color::Black, left, count);
        let t = think_time(control, &clock.side(Color::Black), game);
        let t_ms = i64::try_from(t.as_millis()).unwrap();
        proptest::prop_assert!(t_ms <= clock.allowance(Color::Black).unwrap());
        proptest::prop_assert!(clock.spend(Color::Black, t_ms).is_ok());
    }
}
