//! The engine opponent: tengen-mcts's search at the chosen strength, and its
//! dead-stone proposal when play stops. Runs on the engine pool's threads,
//! and a move's search stops early once the position it serves has changed.

use crate::action::Action;
use crate::room::EngineJob;
use crate::settings::Strength;
use std::sync::atomic::AtomicBool;
use tengen_core::{Move, Vertex};
use tengen_mcts::{
    Analysis, Decision, ESTIMATE_PLAYOUTS, Limit, Request, Rng, Search, SearchConfig,
};

/// The engine's actions for a job; `stop` set ends the search at once
/// (its answer is then stale and dropped by the caller).
pub fn decide(job: EngineJob, seed: u64, stop: &AtomicBool) -> Vec<Action> {
    match job {
        EngineJob::Move { game, strength, .. } => {
            let color = game.to_move();
            let mut search = Search::new(SearchConfig {
                threads: 1,
                seed,
                resign_below: Some(0.05),
                ..SearchConfig::default()
            });
            let limit = Limit::playouts(strength.playouts());
            let (decision, analysis) = search.genmove(
                &game,
                Request {
                    stop: Some(stop),
                    ..Request::new(limit)
                },
            );
            let decision = match decision {
                Decision::Move(_) if strength == Strength::Beginner => {
                    beginner_choice(&analysis, seed).map_or(decision, Decision::Move)
                }
                other => other,
            };
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
            let dead = tengen_mcts::estimate_dead(&game, ESTIMATE_PLAYOUTS, seed);
            vec![Action::Dead {
                color: engine,
                stones: dead.iter().map(|&p| Vertex::point_name(p, size)).collect(),
            }]
        }
    }
}

/// The beginner's move: drawn among the moves the search looked at, in
/// proportion to the probability the move model learned from human games
/// gives them, so that it plays moves a person would and errs as a
/// beginner does, instead of always finding the tactic.
fn beginner_choice(analysis: &Analysis, seed: u64) -> Option<Move> {
    /// Draws in parts per million.
    const SCALE: f64 = 1e6;
    let weights: Vec<u64> = analysis
        .candidates
        .iter()
        .map(|c| (c.prior * SCALE) as u64)
        .collect();
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut r = Rng::new(seed ^ 0x6265_6769_6e6e_6572).below(total as usize) as u64;
    for (c, &w) in analysis.candidates.iter().zip(&weights) {
        if r < w {
            return Some(c.mv);
        }
        r -= w;
    }
    None
}
