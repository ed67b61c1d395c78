//! Full-rules play: replaying long random 19x19 games through `Game::play`
//! under each preset, repetition history included.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use criterion::{BenchmarkId, Criterion, Throughput, black_box};
use tengen_core::{BoardSize, Game, Preset};
use tengen_mcts::{Rng, random};

fn bench(c: &mut Criterion) {
    let size = BoardSize::square(19).expect("valid size");
    let mut group = c.benchmark_group("replay_19x19");
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut rng = Rng::new(11);
        let games: Vec<_> = (0..4)
            .map(|_| random::random_game(rules, size, 4 * size.num_points(), &mut rng))
            .collect();
        let moves: usize = games.iter().map(Vec::len).sum();
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(preset.name()),
            &games,
            |b, games| {
                b.iter(|| {
                    for turns in games {
                        let mut game = Game::new(rules, size);
                        for t in turns {
                            game.play_as(t.color, t.mv).expect("a recorded legal move");
                        }
                        assert_eq!(game.turns().len(), turns.len());
                        black_box(&game);
                    }
                })
            },
        );
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
