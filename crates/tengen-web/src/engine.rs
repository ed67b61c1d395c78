//! The engine opponent: tengen-mcts's search at the chosen strength, and its
//! dead-stone proposal when play stops. Runs on a blocking thread.

use crate::room::{Action, EngineJob};
use tengen_core::{Move, Vertex};
use tengen_mcts::{Decision, GenMode, Limit, Search, SearchConfig};

/// Playouts for the dead-stone estimate.
const DEAD_PLAYOUTS: u64 = 2_000;

/// The engine's actions for a job.
pub fn decide(job: EngineJob, seed: u64) -> Vec<Action> {
    match job {
        EngineJob::Move { game, strength, .. } => {
            let color = game.to_move();
            let mut search = Search::new(SearchConfig {
                threads: 1,
                seed,
                resign_below: Some(0.05),
            });
            let limit = Limit::playouts(strength.playouts());
            let (decision, _) = search.genmove(&game, limit, GenMode::Normal);
            vec![match decision {
                Decision::Move(Move::Play(p)) => Action::Play {
                    color,
                    vertex: Vertex::point_name(p, game.size()),
                },
                Decision::Move(Move::Pass) => Action::Pass { color },
                Decision::Resign => Action::Resign { color },
            }]
        }
        EngineJob::Dead { game, engine, .. } => {
            let size = game.size();
            let dead = tengen_mcts::estimate_dead(&game, DEAD_PLAYOUTS, seed);
            vec![Action::Dead {
                color: engine,
                stones: dead.iter().map(|&p| Vertex::point_name(p, size)).collect(),
            }]
        }
    }
}
