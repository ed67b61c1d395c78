//! Light playouts (the classic reference bot's) with tengen's board, and the
//! same playouts with the `goban` crate, measured in the same run.
//!
//! Both sides play the same game: a uniform choice among legal moves
//! (simple ko, no suicide) that do not fill the mover's own one-point eye,
//! pass when none is left, two passes end, Tromp-Taylor area count. After
//! criterion's figures, one line per size gives the ratio measured here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use criterion::{BenchmarkId, Criterion, black_box};
use std::time::Instant;
use tengen_core::{Board, BoardSize, Color};
use tengen_mcts::{LightPlayout, Rng};

use goban::pieces::stones::Color as GColor;
use goban::rules::game::Game as GGame;
use goban::rules::{GobanSizes, IllegalRules, Move as GMove, Rule, ScoreRules};

fn tengen_playout(board: &Board, runner: &mut LightPlayout, rng: &mut Rng) -> u32 {
    let mut b = board.clone();
    let end = runner.run(&mut b, Color::Black, rng);
    assert!(end.area.black + end.area.white <= b.size().num_points() as u32);
    end.moves
}

/// The reference bot's one-point eye on the goban crate's board.
fn goban_is_eye(g: &GGame, (x, y): (u8, u8), color: GColor, n: u8) -> bool {
    let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < n as i32 && y < n as i32;
    let mut edge = false;
    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (a, b) = (x as i32 + dx, y as i32 + dy);
        if !on(a, b) {
            edge = true;
        } else if g.goban().get_color((a as u8, b as u8)) != Some(color) {
            return false;
        }
    }
    let mut enemies = 0;
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (a, b) = (x as i32 + dx, y as i32 + dy);
        if on(a, b) {
            let c = g.goban().get_color((a as u8, b as u8));
            if c.is_some() && c != Some(color) {
                enemies += 1;
            }
        }
    }
    enemies == 0 || (!edge && enemies == 1)
}

fn goban_rule() -> Rule {
    Rule {
        komi: 7.5,
        flag_illegal: IllegalRules::KO | IllegalRules::SUICIDE,
        flag_score: ScoreRules::KOMI | ScoreRules::STONES,
    }
}

fn goban_playout(n: u8, rng: &mut Rng) -> u32 {
    let size = match n {
        9 => GobanSizes::Nine,
        _ => GobanSizes::Nineteen,
    };
    let mut g = GGame::new(size, goban_rule());
    let mut moves = 0;
    let mut candidates = Vec::with_capacity(361);
    while !g.is_over() && moves < 4 * u32::from(n) * u32::from(n) {
        candidates.clear();
        candidates.extend(g.pseudo_legals());
        let color = g.turn();
        let mut chosen = GMove::Pass;
        let mut k = candidates.len();
        while k > 0 {
            let r = rng.below(k);
            let p = candidates[r];
            if !goban_is_eye(&g, p, color, n) && g.check_point(p).is_none() {
                chosen = GMove::Play(p.0, p.1);
                break;
            }
            k -= 1;
            candidates.swap(r, k);
        }
        g.play(chosen);
        moves += 1;
    }
    let (b, w) = g.calculate_score();
    assert!(b >= 0.0 && w >= 0.0);
    moves
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("light_playout");
    for n in [9u8, 19] {
        let board = Board::new(BoardSize::square(u32::from(n)).expect("valid size"));
        let mut runner = LightPlayout::default();
        let mut rng = Rng::new(1);
        group.bench_with_input(BenchmarkId::new("tengen", n), &n, |b, _| {
            b.iter(|| black_box(tengen_playout(&board, &mut runner, &mut rng)))
        });
        let mut rng = Rng::new(1);
        group.bench_with_input(BenchmarkId::new("goban", n), &n, |b, &n| {
            b.iter(|| black_box(goban_playout(n, &mut rng)))
        });
    }
    group.finish();
}

/// Playouts per second of each side over about a second, then the ratio.
fn ratios() {
    for n in [9u8, 19] {
        let board = Board::new(BoardSize::square(u32::from(n)).expect("valid size"));
        let mut runner = LightPlayout::default();
        let mut rng = Rng::new(2);
        let rate = |f: &mut dyn FnMut() -> u32| {
            let start = Instant::now();
            let mut count = 0u32;
            while start.elapsed().as_secs_f64() < 1.0 {
                black_box(f());
                count += 1;
            }
            f64::from(count) / start.elapsed().as_secs_f64()
        };
        let ours = rate(&mut || tengen_playout(&board, &mut runner, &mut rng));
        let mut rng = Rng::new(2);
        let theirs = rate(&mut || goban_playout(n, &mut rng));
        println!(
            "size={n} tengen_playouts_per_s={ours:.0} goban_playouts_per_s={theirs:.0} ratio={:.1}",
            ours / theirs
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    ratios();
}
