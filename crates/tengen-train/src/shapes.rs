//! Fitting the playouts' shapes (`tengen_mcts::shape`): one Bradley-Terry
//! strength per 3x3 shape, and one for tenuki.
//!
//! Each position after a stone is one competition among the empty points
//! around that stone where a playout may play, plus tenuki; the winner is
//! the played point, or tenuki when the move was elsewhere (a pass is no
//! competition). With a single group of features the minorization-
//! maximization update of [`crate::mm`] is exact per feature:
//!
//! gamma_i <- (W_i + 1) / (C_i + 2 / (gamma_i + 1))
//!
//! with the same virtual win and loss against a strength of 1.

use crate::corpus::Record;
use rayon::prelude::*;
use tengen_mcts::shape::{CODES, ShapeModel, canonical, from_movers_side};

/// The feature of tenuki, after the 65,536 codes.
const TENUKI: u32 = CODES as u32;

/// One position: its candidates' features (tenuki last) and the winner's
/// index among them.
struct Competition {
    features: Vec<u32>,
    winner: usize,
}

/// The competitions of one record.
fn competitions(record: &Record) -> Vec<Competition> {
    let mut out = Vec::new();
    record.for_each_sample(|s| {
        let pos = &s.position;
        let Some(last) = pos.last else { return };
        let board = pos.board;
        let mut features = Vec::with_capacity(9);
        let mut winner = None;
        for q in board.around(last) {
            if board.is_empty(q) && board.is_playout_move(q, pos.to_move) {
                if q == s.played {
                    winner = Some(features.len());
                }
                let code = from_movers_side(board.neighbourhood_code(q), pos.to_move);
                features.push(u32::from(canonical(code)));
            }
        }
        let local = board.around(last).any(|q| q == s.played);
        if local && winner.is_none() {
            // Played around the last stone, but not where a playout may:
            // not evidence about the playout's choice.
            return;
        }
        features.push(TENUKI);
        let winner = winner.unwrap_or(features.len() - 1);
        out.push(Competition { features, winner });
    });
    out
}

/// Mean log-likelihood of the winners of `comps` under `gammas`.
fn log_likelihood(comps: &[Competition], gammas: &[f64]) -> f64 {
    let sum: f64 = comps
        .par_iter()
        .map(|c| {
            let total: f64 = c.features.iter().map(|&f| gammas[f as usize]).sum();
            (gammas[c.features[c.winner] as usize] / total).ln()
        })
        .sum();
    sum / comps.len().max(1) as f64
}

/// What a fit reports as it goes.
#[derive(Clone, Copy, Debug)]
pub struct ShapeRound {
    /// The round just done (1 for the first).
    pub round: usize,
    /// Mean log-likelihood of the training choices before the round.
    pub log_likelihood: f64,
}

/// Fits the shapes to the positions of `records`, in `rounds` rounds.
pub fn fit_shapes(
    records: &[&Record],
    rounds: usize,
    progress: &(dyn Fn(ShapeRound) + Sync),
) -> ShapeModel {
    let comps: Vec<Competition> = records.par_iter().flat_map(|r| competitions(r)).collect();
    let n = CODES + 1;
    let mut wins = vec![0.0f64; n];
    for c in &comps {
        wins[c.features[c.winner] as usize] += 1.0;
    }
    let mut gammas = vec![1.0f64; n];
    for round in 1..=rounds {
        progress(ShapeRound {
            round,
            log_likelihood: log_likelihood(&comps, &gammas),
        });
        let c = comps
            .par_iter()
            .fold(
                || vec![0.0f64; n],
                |mut acc, comp| {
                    let total: f64 = comp.features.iter().map(|&f| gammas[f as usize]).sum();
                    for &f in &comp.features {
                        acc[f as usize] += 1.0 / total;
                    }
                    acc
                },
            )
            .reduce(
                || vec![0.0f64; n],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        for (f, gamma) in gammas.iter_mut().enumerate() {
            if c[f] > 0.0 {
                *gamma = (wins[f] + 1.0) / (c[f] + 2.0 / (*gamma + 1.0));
            }
        }
    }
    let tenuki = gammas[TENUKI as usize] as f32;
    ShapeModel::new(
        (0..CODES)
            .filter(|&code| gammas[code] != 1.0)
            .map(|code| (code as u16, gammas[code] as f32)),
        tenuki,
    )
}

/// Mean log-likelihood of the local choices of `records` under `model`
/// (how well it predicts, on games it never saw, where the answer to a
/// stone is played, or that it is played elsewhere).
pub fn shape_log_likelihood(records: &[&Record], model: &ShapeModel) -> f64 {
    let comps: Vec<Competition> = records.par_iter().flat_map(|r| competitions(r)).collect();
    let mut gammas: Vec<f64> = (0..CODES)
        .map(|c| f64::from(model.gamma(c as u16, tengen_core::Color::Black)))
        .collect();
    gammas.push(f64::from(model.tenuki()));
    log_likelihood(&comps, &gammas)
}
