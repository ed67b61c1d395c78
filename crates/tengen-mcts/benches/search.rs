//! The Monte-Carlo search: simulations from the empty 9x9 board on one
//! thread, and the dead-stone estimate of a finished game.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use criterion::{Criterion, black_box};
use tengen_core::{BoardSize, Game, Preset};
use tengen_mcts::{Limit, Request, Rng, Search, SearchConfig, estimate_dead, random};

fn search(c: &mut Criterion) {
    let game = Game::new(
        Preset::Chinese.rules(),
        BoardSize::square(9).unwrap_or(BoardSize::STANDARD),
    );
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("9x9 empty, 2000 simulations, 1 thread", |b| {
        b.iter(|| {
            let mut s = Search::new(SearchConfig::default());
            let a = s.analyze(&game, Request::new(Limit::playouts(2000)));
            black_box(a.visits)
        })
    });
    group.finish();
}

fn dead(c: &mut Criterion) {
    // The final position of a random 9x9 game played to two passes.
    let size = BoardSize::square(9).unwrap_or(BoardSize::STANDARD);
    let rules = Preset::Chinese.rules();
    let turns = random::random_game(rules, size, 400, &mut Rng::new(3));
    let mut game = Game::new(rules, size);
    for t in &turns {
        if game.play_as(t.color, t.mv).is_err() {
            break;
        }
    }
    let mut group = c.benchmark_group("dead");
    group.sample_size(10);
    group.bench_function("9x9 random final position, 1000 playouts", |b| {
        b.iter(|| black_box(estimate_dead(&game, 1000, 1).len()))
    });
    group.finish();
}

criterion::criterion_group!(benches, search, dead);
criterion::criterion_main!(benches);
