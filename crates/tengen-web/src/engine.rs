//! The engine opponent: tengen-mcts's search at the chosen strength, and its
//! dead-stone proposal when play stops. Runs on the engine pool's threads,
//! and a move's search stops early once the position it serves has changed.

use crate::action::Action;
use crate::room::EngineJob;
use std::sync::atomic::AtomicBool;
use tengen_core::{Move, Vertex};
use tengen_mcts::{Decision, ESTIMATE_PLAYOUTS, Limit, Request, Search, SearchConfig};

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
            let decision = strength.choose(decision, &analysis, seed);
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

    use super::*;
    use crate::settings::Strength;
    use tengen_core::{BoardSize, Color, Game, Point, Preset};

    /// One point of each chain of `color`, in point order.
    fn chains(game: &Game, color: Color) -> Vec<Point> {
        let b = game.board();
        let mut heads: Vec<Point> = game
            .size()
            .points()
            .filter(|&p| b.get(p) == Some(color))
            .filter_map(|p| b.chain_id(p))
            .collect();
        heads.sort_by_key(|q| q.index());
        heads.dedup();
        heads
    }

    /// Black as a child plays the first-capture game after the lesson (the
    /// browser scenario's learner): capture, save a chain in atari, else
    /// press the white chain with the fewest liberties, never into atari.
    fn learner(game: &Game) -> Point {
        let b = game.board();
        let safe = |p: Point| {
            game.is_legal(Move::Play(p)) && {
                let mut after = b.clone();
                after.play_unchecked(p, Color::Black);
                after.liberties(p) >= 2
            }
        };
        let mut white = chains(game, Color::White);
        if let Some(p) = white.iter().find_map(|&h| b.last_liberty(h)) {
            return p;
        }
        for h in chains(game, Color::Black) {
            if let Some(p) = b.last_liberty(h).filter(|&p| safe(p)) {
                return p;
            }
        }
        white.sort_by_key(|&h| b.liberties(h));
        for h in white {
            let (libs, n) = b.liberties_up_to::<81>(h);
            if let Some(&p) = libs[..n].iter().find(|&&p| safe(p)) {
                return p;
            }
        }
        let points: Vec<Point> = game.size().points().collect();
        let n = points.len();
        (0..n)
            .map(|k| points[(n / 2 + k * 7) % n])
            .find(|&p| b.is_empty(p) && safe(p))
            .unwrap_or(points[n / 2])
    }

    /// The learning path's first game must be one a learner can win: a
    /// beginner that found every capture would lose it for them.
    #[test]
    fn a_learner_who_captures_beats_the_beginner_at_first_capture() {
        const GAMES: u64 = 100;
        let stop = AtomicBool::new(false);
        let mut won = 0;
        for g in 0..GAMES {
            let mut game = Game::new(Preset::FirstCapture.rules(), BoardSize::square(9).unwrap());
            let mut seed = g * 1000;
            while game.outcome().is_none() && game.move_number() < 160 {
                let p = if game.to_move() == Color::Black {
                    learner(&game)
                } else {
                    seed += 1;
                    let job = EngineJob::Move {
                        game: Box::new(game.clone()),
                        strength: Strength::Beginner,
                        seq: 0,
                    };
                    match &decide(job, seed, &stop)[..] {
                        [Action::Play { vertex, .. }] => match Vertex::parse(vertex, game.size()) {
                            Ok(Vertex::Point(p)) => p,
                            other => panic!("the beginner played {other:?}"),
                        },
                        other => panic!("the beginner answered {other:?}"),
                    }
                };
                game.play(Move::Play(p)).unwrap();
            }
            if game.outcome().and_then(|o| o.winner()) == Some(Color::Black) {
                won += 1;
            }
        }
        // 61 of these 100 at the time of writing.
        assert!(won * 2 >= GAMES, "the learner won {won} of {GAMES}");
    }
}
