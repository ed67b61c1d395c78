//! Fitting the pattern model: Bradley-Terry strengths by Coulom's
//! minorization-maximization (Coulom 2007, "Computing Elo Ratings of Move
//! Patterns in the Game of Go").
//!
//! Each position of a training game is one competition: the played move
//! wins against every other legal move. The spatial dictionary is every
//! pattern (at any radius) that was played at least `min_count` times;
//! each candidate then carries the largest one it matches. One group's
//! gammas are updated at a time, holding the others:
//!
//! gamma_i <- (W_i + 1) / (C_i + 2 / (gamma_i + 1))
//!
//! where W_i counts the wins of feature i and C_i sums, over positions,
//! the strength of the candidates holding i without gamma_i, divided by
//! the position's total strength. The `+1` and `+2 / (gamma + 1)` are one
//! virtual win and one virtual loss against a move of strength 1, which
//! keeps rare patterns near 1 (Coulom's prior).
//!
//! Left out: Coulom's choice of the group with the largest gain (every
//! group is updated in turn, which converges as well in a few rounds).

use crate::corpus::{Record, Sample};
use rayon::prelude::*;
use tengen_mcts::features::{GROUPS, Group};
use tengen_mcts::model::{HashKeyed, largest_known};
use tengen_mcts::{Extractor, ModelError, PatternModel};

/// No spatial pattern of the dictionary matches.
const NO_PATTERN: u32 = u32::MAX;

/// A candidate move, reduced to the indices of its features.
#[derive(Clone, Copy, Debug)]
struct Cand {
    spatial: u32,
    tactics: [u8; GROUPS],
}

/// How the fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// A spatial pattern enters the dictionary once played this often.
    pub min_count: u32,
    /// Rounds of updates (each updates every group once).
    pub rounds: usize,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            min_count: 5,
            rounds: 8,
        }
    }
}

/// What the fit tells as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// A game's positions were read (harvest, then extraction).
    Game,
    /// A round ended with this mean log-likelihood of the played moves.
    Round {
        /// The round's number, from 1.
        round: usize,
        /// Mean log-likelihood of the played moves.
        log_likelihood: f64,
    },
}

/// One game's candidates, and per position where its candidates start
/// and the winner's index among them.
type GameCompetitions = (Vec<Cand>, Vec<(usize, usize)>);

/// The competitions of the training positions.
struct Competitions {
    cands: Vec<Cand>,
    /// Per position: where its candidates start, and the winner's index.
    starts: Vec<usize>,
    winners: Vec<usize>,
}

/// Counts the spatial patterns of the played moves, at every radius.
fn harvest(records: &[&Record], progress: &(dyn Fn(Progress) + Sync)) -> HashKeyed<u32> {
    records
        .par_iter()
        .fold(HashKeyed::default, |mut counts: HashKeyed<u32>, r| {
            let mut ex = Extractor::new(r.initial.size());
            r.for_each_sample(|s: &Sample| {
                ex.load(&s.position);
                for h in ex.spatial(s.position.board, s.played) {
                    *counts.entry(h).or_insert(0) += 1;
                }
            });
            progress(Progress::Game);
            counts
        })
        .reduce(HashKeyed::default, |mut a, b| {
            for (h, n) in b {
                *a.entry(h).or_insert(0) += n;
            }
            a
        })
}

/// The candidates of every position of `records`.
fn extract(
    records: &[&Record],
    index: &HashKeyed<u32>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Competitions {
    let per_game: Vec<GameCompetitions> = records
        .par_iter()
        .map(|r| {
            let mut cands = Vec::new();
            let mut positions = Vec::new();
            let mut legal = Vec::new();
            let mut ex = Extractor::new(r.initial.size());
            r.for_each_sample(|s: &Sample| {
                s.candidates(&mut legal);
                let winner = legal.iter().position(|&p| p == s.played);
                // A forced or unrecognised move teaches nothing.
                let Some(winner) = winner.filter(|_| legal.len() > 1) else {
                    return;
                };
                ex.load(&s.position);
                positions.push((cands.len(), winner));
                cands.extend(legal.iter().map(|&p| {
                    let team = ex.team(&s.position, p);
                    Cand {
                        spatial: largest_known(index, &team.spatial).unwrap_or(NO_PATTERN),
                        tactics: team.tactics,
                    }
                }));
            });
            progress(Progress::Game);
            (cands, positions)
        })
        .collect();
    let mut all = Competitions {
        cands: Vec::new(),
        starts: Vec::new(),
        winners: Vec::new(),
    };
    for (cands, positions) in per_game {
        let base = all.cands.len();
        for (start, w) in positions {
            all.starts.push(base + start);
            all.winners.push(w);
        }
        all.cands.extend(cands);
    }
    all.starts.push(all.cands.len());
    all
}

/// The gammas being fitted.
struct Gammas {
    tactics: [Vec<f64>; GROUPS],
    spatial: Vec<f64>,
}

impl Gammas {
    #[inline]
    fn strength(&self, c: &Cand) -> f64 {
        let mut s = if c.spatial == NO_PATTERN {
            1.0
        } else {
            self.spatial[c.spatial as usize]
        };
        for (g, &v) in c.tactics.iter().enumerate() {
            if v != 0 {
                s *= self.tactics[g][usize::from(v)];
            }
        }
        s
    }

    /// The feature of group `g` (`GROUPS` for the spatial one) that `c`
    /// holds, and its gamma.
    #[inline]
    fn feature(&self, g: usize, c: &Cand) -> Option<(usize, f64)> {
        if g == GROUPS {
            (c.spatial != NO_PATTERN).then(|| {
                let i = c.spatial as usize;
                (i, self.spatial[i])
            })
        } else {
            let v = usize::from(c.tactics[g]);
            (v != 0).then(|| (v, self.tactics[g][v]))
        }
    }

    fn group_mut(&mut self, g: usize) -> &mut Vec<f64> {
        if g == GROUPS {
            &mut self.spatial
        } else {
            &mut self.tactics[g]
        }
    }
}

/// Counts each feature's wins.
fn wins(comp: &Competitions, gammas: &Gammas, g: usize, len: usize) -> Vec<f64> {
    let mut w = vec![0.0; len];
    for (i, &win) in comp.winners.iter().enumerate() {
        let c = &comp.cands[comp.starts[i] + win];
        if let Some((f, _)) = gammas.feature(g, c) {
            w[f] += 1.0;
        }
    }
    w
}

/// One MM update of group `g`; returns the mean log-likelihood of the
/// played moves before the update.
fn update(comp: &Competitions, gammas: &mut Gammas, g: usize, wins: &[f64]) -> f64 {
    let len = wins.len();
    let positions = comp.winners.len();
    let (c, ll) = (0..positions)
        .into_par_iter()
        .with_min_len(256)
        .fold(
            || (vec![0.0f64; len], 0.0f64),
            |(mut c, mut ll), i| {
                let cands = &comp.cands[comp.starts[i]..comp.starts[i + 1]];
                let total: f64 = cands.iter().map(|x| gammas.strength(x)).sum();
                if total > 0.0 {
                    ll += (gammas.strength(&cands[comp.winners[i]]) / total).ln();
                    for x in cands {
                        if let Some((f, gamma)) = gammas.feature(g, x) {
                            c[f] += gammas.strength(x) / gamma / total;
                        }
                    }
                }
                (c, ll)
            },
        )
        .reduce(
            || (vec![0.0f64; len], 0.0),
            |(mut a, la), (b, lb)| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                (a, la + lb)
            },
        );
    let group = gammas.group_mut(g);
    for (f, gamma) in group.iter_mut().enumerate() {
        if g != GROUPS && f == 0 {
            continue;
        }
        *gamma = (wins[f] + 1.0) / (c[f] + 2.0 / (*gamma + 1.0));
    }
    ll / positions.max(1) as f64
}

/// Fits a model to the training positions of `records`.
///
/// # Errors
/// Only if the fit produced an unusable gamma (it cannot, short of no
/// data at all).
pub fn fit(
    records: &[&Record],
    config: &FitConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<PatternModel, ModelError> {
    let counts = harvest(records, progress);
    let mut dictionary: Vec<u64> = counts
        .iter()
        .filter(|&(_, &n)| n >= config.min_count)
        .map(|(&h, _)| h)
        .collect();
    dictionary.sort_unstable();
    drop(counts);
    let index: HashKeyed<u32> = dictionary
        .iter()
        .enumerate()
        .map(|(i, &h)| (h, i as u32))
        .collect();
    let comp = extract(records, &index, progress);
    let mut gammas = Gammas {
        tactics: Group::ALL.map(|g| vec![1.0; g.values()]),
        spatial: vec![1.0; dictionary.len()],
    };
    let wins: Vec<Vec<f64>> = (0..=GROUPS)
        .map(|g| {
            let len = if g == GROUPS {
                dictionary.len()
            } else {
                Group::ALL[g].values()
            };
            self::wins(&comp, &gammas, g, len)
        })
        .collect();
    for round in 0..config.rounds {
        let mut ll = 0.0;
        // The spatial group first: it explains the most.
        for g in std::iter::once(GROUPS).chain(0..GROUPS) {
            let l = update(&comp, &mut gammas, g, &wins[g]);
            if g == GROUPS {
                ll = l;
            }
        }
        progress(Progress::Round {
            round: round + 1,
            log_likelihood: ll,
        });
    }
    let tactics = gammas
        .tactics
        .map(|v| v.into_iter().map(|g| g as f32).collect());
    let spatial = dictionary
        .into_iter()
        .zip(gammas.spatial)
        .map(|(h, g)| (h, g as f32));
    PatternModel::new(tactics, spatial)
}
