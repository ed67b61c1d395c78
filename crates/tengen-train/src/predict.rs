//! How well a model predicts the moves of records: for every stone played,
//! the rank of the played move among the legal moves under the model and
//! the probability the model gave it; top-1, top-3 and top-5 accuracy and
//! the mean log-likelihood, overall and by game phase (moves 1-50, 51-150,
//! 151 and after), the measures of Coulom 2007 and of the network papers.
//!
//! Ties count against the model: a played move ranks behind every other
//! move of equal score.

use crate::corpus::{Record, Sample};
use crate::threads::map_on_threads;
use tengen_core::{BoardSize, Game, Move, Point};
use tengen_mcts::net::{Encoded, row_index};
use tengen_mcts::{Extractor, Limit, Network, PatternModel, Request, Search, SearchConfig};

/// The probability floor of a move a model gives nothing (so that one
/// such move does not make the log-likelihood infinite).
pub(crate) const FLOOR: f64 = 1e-6;

/// Counts of one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    /// Moves predicted.
    pub moves: u64,
    /// Moves ranked first, in the first three, in the first five.
    pub top1: u64,
    /// Moves ranked in the first three.
    pub top3: u64,
    /// Moves ranked in the first five.
    pub top5: u64,
    /// Sum of the log-probabilities of the played moves.
    pub log_likelihood: f64,
}

impl Counts {
    fn add(&mut self, rank: usize, probability: f64) {
        self.moves += 1;
        self.top1 += u64::from(rank == 1);
        self.top3 += u64::from(rank <= 3);
        self.top5 += u64::from(rank <= 5);
        self.log_likelihood += probability.max(FLOOR).ln();
    }

    fn merge(&mut self, o: &Counts) {
        self.moves += o.moves;
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.top5 += o.top5;
        self.log_likelihood += o.log_likelihood;
    }

    /// A share of the moves, 0 when there were none.
    pub fn rate(&self, hits: u64) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            hits as f64 / self.moves as f64
        }
    }

    /// The mean log-likelihood per move.
    pub fn mean_log_likelihood(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.log_likelihood / self.moves as f64
        }
    }
}

/// The phases of a game, by move number.
pub const PHASES: [(&str, usize, usize); 3] = [
    ("1-50", 1, 50),
    ("51-150", 51, 150),
    ("151+", 151, usize::MAX),
];

/// Results by phase and overall.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games read.
    pub games: u64,
    /// Moves 1-50, 51-150 and 151 on.
    pub phases: [Counts; 3],
}

impl Tally {
    fn add(&mut self, move_number: usize, rank: usize, probability: f64) {
        let phase = PHASES
            .iter()
            .position(|&(_, lo, hi)| (lo..=hi).contains(&move_number))
            .unwrap_or(2);
        self.phases[phase].add(rank, probability);
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        for (a, b) in self.phases.iter_mut().zip(o.phases.iter()) {
            a.merge(b);
        }
        self
    }

    /// Every phase together.
    pub fn overall(&self) -> Counts {
        let mut all = Counts::default();
        for p in &self.phases {
            all.merge(p);
        }
        all
    }
}

/// A model's opinion of the legal moves of a position.
pub trait Predictor {
    /// A score per point of `legal` (a probability, or anything that ranks
    /// the same and sums to 1), for the position of `sample` in `record`.
    fn scores(&mut self, record: &Record, sample: &Sample, legal: &[Point]) -> Vec<f64>;
}

/// The rank (1 = first) of `legal[played]` under `scores` and its share
/// of the total.
pub fn rank_of(scores: &[f64], played: usize) -> (usize, f64) {
    let mine = scores.get(played).copied().unwrap_or(0.0);
    let ahead = scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| i != played && s >= mine)
        .count();
    let total: f64 = scores.iter().sum();
    let p = if total > 0.0 { mine / total } else { 0.0 };
    (ahead + 1, p)
}

/// Predicts every stone play of `records` (on all cores, one predictor per
/// thread from `make`: [`map_on_threads`], for a predictor may search);
/// `progress` is told of each game done.
pub fn evaluate<P: Predictor>(
    records: &[&Record],
    make: impl Fn() -> P + Sync + Send,
    progress: &(dyn Fn() + Sync),
) -> Tally {
    map_on_threads(records, &make, |predictor, r| {
        let mut tally = Tally {
            games: 1,
            ..Tally::default()
        };
        let mut legal = Vec::new();
        r.for_each_sample(|s| {
            s.candidates(&mut legal);
            let Some(played) = legal.iter().position(|&p| p == s.played) else {
                return;
            };
            if legal.len() < 2 {
                return;
            }
            let scores = predictor.scores(r, s, &legal);
            let (rank, p) = rank_of(&scores, played);
            tally.add(s.move_number, rank, p);
        });
        progress();
        tally
    })
    .into_iter()
    .fold(Tally::default(), Tally::merge)
}

/// The pattern model's probabilities.
#[derive(Debug)]
pub struct PatternPredictor<'m> {
    model: &'m PatternModel,
    extractor: Extractor,
}

impl<'m> PatternPredictor<'m> {
    /// A predictor over `model`.
    pub fn new(model: &'m PatternModel) -> PatternPredictor<'m> {
        PatternPredictor {
            model,
            extractor: Extractor::new(BoardSize::STANDARD),
        }
    }
}

impl Predictor for PatternPredictor<'_> {
    fn scores(&mut self, _record: &Record, sample: &Sample, legal: &[Point]) -> Vec<f64> {
        let pos = &sample.position;
        self.extractor.load(pos);
        legal
            .iter()
            .map(|&p| f64::from(self.model.strength(&self.extractor.team(pos, p))))
            .collect()
    }
}

/// The policy network's probabilities.
#[derive(Debug)]
pub struct NetPredictor<'n> {
    network: &'n Network,
    extractor: Extractor,
}

impl<'n> NetPredictor<'n> {
    /// A predictor over `network`.
    pub fn new(network: &'n Network) -> NetPredictor<'n> {
        NetPredictor {
            network,
            extractor: Extractor::new(BoardSize::STANDARD),
        }
    }
}

impl Predictor for NetPredictor<'_> {
    fn scores(&mut self, record: &Record, sample: &Sample, legal: &[Point]) -> Vec<f64> {
        let recent = record.recent(sample.move_number - 1);
        let encoded = Encoded::with_patterns(
            PatternModel::shipped(),
            &mut self.extractor,
            &sample.position,
            &recent,
            legal,
        );
        let by_row = self.network.policy(&[&encoded]).pop().unwrap_or_default();
        let size = sample.position.board.size();
        legal
            .iter()
            .map(|&p| {
                by_row
                    .get(row_index(size, p))
                    .map_or(0.0, |&v| f64::from(v))
            })
            .collect()
    }
}

/// The search's visits after a fixed number of playouts on one thread.
#[derive(Debug)]
pub struct SearchPredictor {
    search: Search,
    playouts: u64,
    /// The game of the record being predicted (by key) and how many of
    /// its turns it holds, advanced move by move.
    game: Option<(u64, usize, Game)>,
}

impl SearchPredictor {
    /// A predictor that runs `playouts` simulations of a search per move.
    pub fn new(config: SearchConfig, playouts: u64) -> SearchPredictor {
        SearchPredictor {
            search: Search::new(SearchConfig {
                threads: 1,
                resign_below: None,
                // Only the moves' order is read: no judgement of the root.
                judge_root: false,
                ..config
            }),
            playouts,
            game: None,
        }
    }

    /// Brings the kept game to just before `sample`'s move: moved on when
    /// it is the same record at an earlier turn, else replayed. `None`
    /// when the record cannot be replayed there.
    fn advance(&mut self, record: &Record, sample: &Sample) -> Option<()> {
        let turns = sample.move_number - 1;
        let (key, done, mut game) = match self.game.take() {
            Some((key, done, game)) if key == record.key && done <= turns => (key, done, game),
            _ => (record.key, 0, record.start()?),
        };
        for &(color, mv) in record.moves.get(done..turns)? {
            game.play_tolerant(color, mv).ok()?;
        }
        let (_, _, game) = self.game.insert((key, turns, game));
        (game.to_move() == sample.position.to_move).then_some(())
    }
}

impl Predictor for SearchPredictor {
    fn scores(&mut self, record: &Record, sample: &Sample, legal: &[Point]) -> Vec<f64> {
        let game = match (self.advance(record, sample), &self.game) {
            (Some(()), Some((_, _, game))) => game,
            _ => return vec![0.0; legal.len()],
        };
        self.search.clear();
        let analysis = self
            .search
            .analyze(game, Request::new(Limit::playouts(self.playouts)));
        let total = analysis.visits.max(1) as f64;
        legal
            .iter()
            .map(|&p| {
                analysis
                    .candidates
                    .iter()
                    .find(|c| c.mv == Move::Play(p))
                    .map_or(0.0, |c| c.visits as f64 / total)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_count_against_the_model() {
        assert_eq!(rank_of(&[0.5, 0.25, 0.25], 0), (1, 0.5));
        assert_eq!(rank_of(&[0.5, 0.25, 0.25], 1), (3, 0.25));
        assert_eq!(rank_of(&[0.0, 0.0], 0), (2, 0.0));
    }

    #[test]
    fn phases_split_by_move_number() {
        let mut t = Tally::default();
        t.add(1, 1, 0.5);
        t.add(50, 4, 0.1);
        t.add(51, 2, 0.2);
        t.add(400, 9, 0.01);
        assert_eq!(t.phases[0].moves, 2);
        assert_eq!(t.phases[0].top1, 1);
        assert_eq!(t.phases[0].top5, 2);
        assert_eq!(t.phases[1].top3, 1);
        assert_eq!(t.phases[2].top5, 0);
        let all = t.overall();
        assert_eq!(all.moves, 4);
        assert!((all.mean_log_likelihood() - (0.5f64 * 0.1 * 0.2 * 0.01).ln() / 4.0).abs() < 1e-9);
    }
}
