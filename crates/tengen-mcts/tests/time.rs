//! Time management: the budget never exceeds the clock, byo-yomi periods
//! are not lost, and the opening gets more than the settled endgame.

use std::time::Duration;
use tengen_core::{BoardSize, Game, Move, Preset};
use tengen_mcts::{ClockState, TimeControl, think_time};

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
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
        TimeControl::Absolute { main: secs(300.0) },
        TimeControl::ByoYomi {
            main: secs(600.0),
            period: secs(30.0),
            periods: 5,
        },
        TimeControl::Canadian {
            main: secs(600.0),
            period: secs(300.0),
            stones: 25,
        },
        TimeControl::Fischer {
            main: secs(120.0),
            increment: secs(5.0),
        },
    ]
}

#[test]
fn never_more_than_the_time_left() {
    for game in games() {
        for control in controls() {
            for left in [0.0, 0.01, 0.1, 0.5, 1.0, 3.0, 30.0, 300.0] {
                let clock = ClockState {
                    main_left: secs(left),
                    ..ClockState::start(&control)
                };
                let t = think_time(&control, &clock, &game);
                match control {
                    // In main time of byo-yomi the period is still to come.
                    TimeControl::ByoYomi { period, .. } => assert!(t <= secs(left) + period),
                    // Main time spent: the first overtime period starts.
                    TimeControl::Canadian { period, stones, .. } => {
                        assert!(t <= secs(left) + period / stones)
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
        main: secs(600.0),
        period: secs(30.0),
        periods: 5,
    };
    for game in games() {
        for periods_left in 1..=5 {
            let clock = ClockState {
                main_left: secs(30.0),
                periods_left,
                stones_left: 0,
                in_overtime: true,
            };
            let t = think_time(&control, &clock, &game);
            assert!(t < secs(30.0), "{t:?}");
            assert!(t >= secs(20.0), "a period should be used: {t:?}");
        }
    }
}

#[test]
fn canadian_overtime_shares_the_period_among_the_stones() {
    let control = TimeControl::Canadian {
        main: secs(0.0),
        period: secs(300.0),
        stones: 25,
    };
    let game = &games()[0];
    let clock = ClockState {
        main_left: secs(60.0),
        periods_left: 0,
        stones_left: 10,
        in_overtime: true,
    };
    let t = think_time(&control, &clock, game);
    assert!(t <= secs(6.0), "{t:?}");
    assert!(t >= secs(4.0), "{t:?}");
}

#[test]
fn the_middle_game_gets_more_than_the_opening_and_the_endgame() {
    let control = TimeControl::Absolute { main: secs(600.0) };
    let clock = ClockState::start(&control);
    let g = games();
    for pair in g.chunks(2) {
        let opening = think_time(&control, &clock, &pair[0]);
        let middle = think_time(&control, &clock, &pair[1]);
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
        let late = think_time(&control, &clock, &endgame);
        assert!(late > Duration::ZERO);
        // On a small board the few moves left do not make up for the
        // settled position's lower weight (on larger ones, with the same
        // clock, they do: the clock would have run down by then).
        if size.num_points() <= 81 {
            assert!(late < middle, "{late:?} against {middle:?}");
        }
    }
}

#[test]
fn no_clock_means_no_budget() {
    let control = TimeControl::None;
    let clock = ClockState::start(&control);
    assert_eq!(think_time(&control, &clock, &games()[0]), Duration::ZERO);
}
