//! Training the policy network ([`tengen_mcts::net`]) on the positions of
//! the training games: the played move is the target of a cross-entropy
//! loss, Adam updates the weights, each position is seen under a random
//! one of the eight symmetries of the board (the network must learn Go,
//! not one orientation of it).
//!
//! The positions are visited in a shuffled order fixed by the seed, epoch
//! after epoch, so that a run is a function of its data, its seed and its
//! number of steps; the checkpoint (weights, optimizer moments, step)
//! lets a run stop and resume where it was, session after session.
//!
//! Left out: learning-rate schedules (the rate is an argument: lower it
//! when resuming late in a run), and positions of boards of another size
//! than the records' in one batch (each batch is one board size).

use crate::checkpoint::{Run, Trained};
use crate::corpus::Record;
use crate::predict::FLOOR;
use crate::schedule::Schedule;
use burn::nn::loss::CrossEntropyLossConfig;

use burn::prelude::*;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use tengen_core::zobrist::splitmix;
use tengen_core::{Move, Point};
use tengen_mcts::NetError;
use tengen_mcts::net::{Encoded, PolicyNet, Shape, row_index, symmetric};
use tengen_mcts::{Extractor, PatternModel, Position, Rng};

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("no position to train on")]
    /// The training data held no position.
    NoData,
    #[error("checkpoint {path}: {message}")]
    /// A checkpoint could not be read or written.
    Checkpoint {
        /// The checkpoint's directory.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// How a run trains.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The network's size (a resumed run keeps its own).
    pub shape: Shape,
    /// The run's settings (10,000 steps by default).
    pub schedule: Schedule,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            shape: Shape::SHIPPED,
            schedule: Schedule::default(),
        }
    }
}

/// What a run tells as it goes.
#[derive(Clone, Copy, Debug)]
pub enum TrainEvent {
    /// A step was taken; `loss` is its batch's mean cross-entropy.
    Step {
        /// Steps done in all.
        step: u64,
        /// The batch's mean cross-entropy.
        loss: f32,
    },
    /// The test positions were measured: share of played moves ranked
    /// first, and their mean log-likelihood.
    Tested {
        /// The step measured.
        step: u64,
        /// Share of the test positions whose played move ranked first.
        top1: f64,
        /// Mean log-likelihood of the played moves.
        log_likelihood: f64,
    },
    /// The checkpoint was written.
    Saved {
        /// The step saved.
        step: u64,
    },
}

/// A position of the data: a record and the turn about to be played.
#[derive(Clone, Copy, Debug)]
pub struct At {
    record: u32,
    turn: u32,
}

/// Every turn of `records` where a stone was played.
pub fn positions(records: &[&Record]) -> Vec<At> {
    let mut out = Vec::new();
    for (r, record) in records.iter().enumerate() {
        for (t, &(_, mv)) in record.moves.iter().enumerate() {
            if let (Move::Play(_), Ok(record), Ok(turn)) = (mv, u32::try_from(r), u32::try_from(t))
            {
                out.push(At { record, turn });
            }
        }
    }
    out
}

/// The network's input before turn `turn` (0 for the first) of `record`
/// and the row index of the point played then, or `None` when that move
/// is not a legal stone play on the fast board (a record replayed
/// tolerantly may hold one).
pub fn encode_turn(
    record: &Record,
    turn: usize,
    model: &PatternModel,
    extractor: &mut Extractor,
) -> Option<(Encoded, usize)> {
    let (color, Move::Play(played)) = *record.moves.get(turn)? else {
        return None;
    };
    let board = record.board_before(turn)?;
    if !board.is_legal_simple(played, color) {
        return None;
    }
    let recent = record.recent(turn);
    let position = Position::after(&board, color, &recent);
    let legal: Vec<Point> = board.simple_legal_moves(color).collect();
    let encoded = Encoded::with_patterns(model, extractor, &position, &recent, &legal);
    Some((encoded, row_index(board.size(), played)))
}

/// [`encode_turn`] at `at`.
fn example(
    records: &[&Record],
    at: At,
    model: &PatternModel,
    extractor: &mut Extractor,
) -> Option<(Encoded, usize)> {
    encode_turn(
        records.get(at.record as usize)?,
        at.turn as usize,
        model,
        extractor,
    )
}

/// The examples of `ats`, built on all cores, each turned by symmetry
/// `turn(i)` (`ats[i]`'s).
fn examples(
    records: &[&Record],
    ats: &[At],
    model: &PatternModel,
    turn: &(dyn Fn(usize) -> u8 + Sync),
) -> Vec<(Encoded, usize)> {
    ats.par_iter()
        .enumerate()
        .map_init(
            // The extractor adapts to the size of each position it loads.
            || Extractor::new(tengen_core::BoardSize::STANDARD),
            |ex, (i, &at)| {
                let (e, target) = example(records, at, model, ex)?;
                let k = turn(i);
                Some((e.turned(k), symmetric(target, k, e.width, e.height)))
            },
        )
        .flatten()
        .collect()
}

/// The batch's tensors and targets, positions of one board size (the
/// first's; others are left out).
fn tensors(
    examples: &[(Encoded, usize)],
    device: &Device,
) -> (Tensor<4>, Tensor<2>, Tensor<2>, Tensor<1, Int>) {
    let dims = examples.first().map(|(e, _)| (e.width, e.height));
    let same: Vec<&(Encoded, usize)> = examples
        .iter()
        .filter(|(e, _)| Some((e.width, e.height)) == dims)
        .collect();
    let encoded: Vec<&Encoded> = same.iter().map(|(e, _)| e).collect();
    let (planes, prior, mask) = tengen_mcts::net::batch(&encoded, device);
    let targets: Vec<i64> = same.iter().map(|&&(_, t)| t as i64).collect();
    let n = targets.len();
    let targets = Tensor::from_data(TensorData::new(targets, [n]), device);
    (planes, prior, mask, targets)
}

impl Trained for PolicyNet {
    type Shape = Shape;
    const WEIGHTS: &'static str = "policy.safetensors";
    fn fresh(shape: Shape, device: &Device) -> PolicyNet {
        PolicyNet::new(shape, device)
    }
    fn read(bytes: &[u8], device: &Device) -> Result<(PolicyNet, Shape), NetError> {
        PolicyNet::from_bytes(bytes, device)
    }
    fn weights(&self) -> Result<Vec<u8>, NetError> {
        self.to_bytes()
    }
    fn dims(shape: Shape) -> (usize, usize) {
        (shape.channels, shape.layers)
    }
    fn shape(channels: usize, layers: usize) -> Shape {
        Shape { channels, layers }
    }
}

/// A run in progress.
#[derive(Debug)]
pub struct Trainer {
    run: Run<PolicyNet>,
}

impl Trainer {
    /// The run saved in `dir`, or a new one of `config` when `dir` holds
    /// no checkpoint.
    ///
    /// # Errors
    /// A checkpoint that is there but cannot be read.
    pub fn open(dir: &Path, config: &TrainConfig) -> Result<Trainer, TrainError> {
        Run::open(dir, config.shape, &config.schedule).map(|run| Trainer { run })
    }

    /// Steps done.
    pub fn step(&self) -> u64 {
        self.run.step
    }

    /// The network as it is now.
    pub fn net(&self) -> &PolicyNet {
        &self.run.net
    }

    /// Writes the checkpoint into `dir` (each file whole: written aside,
    /// then renamed over the old one).
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), TrainError> {
        self.run.save(dir)
    }

    /// One step on `examples`; the batch's loss.
    fn learn(&mut self, examples: &[(Encoded, usize)], learning_rate: f64) -> f32 {
        let device = self.run.device.clone();
        let (planes, prior, mask, targets) = tensors(examples, &device);
        let logits = self.run.net.forward(planes, prior, mask);
        let loss = CrossEntropyLossConfig::new()
            .init(&device)
            .forward(logits, targets);
        self.run.learn(loss, learning_rate)
    }

    /// Top-1 share and mean log-likelihood of the played moves of
    /// `examples` under the network as it is now.
    pub fn test(&self, examples: &[(Encoded, usize)]) -> (f64, f64) {
        let net = self.run.net.valid();
        let device = Device::flex();
        let (mut hits, mut ll, mut n) = (0u64, 0f64, 0u64);
        for chunk in examples.chunks(256) {
            let (planes, prior, mask, _) = tensors(chunk, &device);
            let logp = burn::tensor::activation::log_softmax(net.forward(planes, prior, mask), 1);
            let rows: Vec<f32> = logp.into_data().try_to_vec::<f32>().unwrap_or_default();
            let width = rows.len() / chunk.len().max(1);
            for ((_, target), row) in chunk.iter().zip(rows.chunks(width.max(1))) {
                let mine = row.get(*target).copied().unwrap_or(f32::NEG_INFINITY);
                let ahead = row
                    .iter()
                    .enumerate()
                    .filter(|&(i, &v)| i != *target && v >= mine)
                    .count();
                hits += u64::from(ahead == 0);
                ll += f64::from(mine).max(FLOOR.ln());
                n += 1;
            }
        }
        let n = n.max(1) as f64;
        (hits as f64 / n, ll / n)
    }
}

/// A well-mixed value of `x`.
pub(crate) fn mix(x: u64) -> u64 {
    splitmix(x).1
}

/// The order of the positions in epoch `epoch`: a shuffle fixed by the seed.
pub(crate) fn order(len: usize, seed: u64, epoch: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    let mut rng = Rng::new(mix(seed ^ mix(epoch)));
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// Trains on the positions of `train` until the schedule's steps are done
/// in all, measuring on `test` and saving into `dir` every
/// `checkpoint_every` steps and at the end; returns the trainer.
///
/// # Errors
/// No training position, or a checkpoint that cannot be read or written.
pub fn train(
    train: &[&Record],
    test: &[&Record],
    config: &TrainConfig,
    dir: &Path,
    progress: &dyn Fn(TrainEvent),
) -> Result<Trainer, TrainError> {
    let model = PatternModel::shipped();
    let mut trainer = Trainer::open(dir, config)?;
    let data = positions(train);
    if data.is_empty() {
        return Err(TrainError::NoData);
    }
    let test_examples = {
        let all = positions(test);
        let chosen: Vec<At> = order(all.len(), config.schedule.seed ^ 0x7e57, 0)
            .iter()
            .take(config.schedule.test_positions)
            .filter_map(|&i| all.get(i as usize).copied())
            .collect();
        examples(test, &chosen, model, &|_| 0)
    };
    let tested = |trainer: &Trainer| {
        if !test_examples.is_empty() {
            let (top1, log_likelihood) = trainer.test(&test_examples);
            progress(TrainEvent::Tested {
                step: trainer.run.step,
                top1,
                log_likelihood,
            });
        }
    };
    if trainer.run.step == 0 {
        tested(&trainer);
    }
    let batch = config.schedule.batch.max(1) as u64;
    let len = data.len() as u64;
    let mut epoch_order: Option<(u64, Vec<u32>)> = None;
    while trainer.run.step < config.schedule.steps {
        let first = trainer.run.step * batch;
        let mut ats = Vec::with_capacity(batch as usize);
        for g in first..first + batch {
            let epoch = g / len;
            if epoch_order.as_ref().is_none_or(|(e, _)| *e != epoch) {
                epoch_order = Some((epoch, order(data.len(), trainer.run.seed, epoch)));
            }
            if let Some((_, o)) = &epoch_order
                && let Some(&at) = o
                    .get((g % len) as usize)
                    .and_then(|&i| data.get(i as usize))
            {
                ats.push(at);
            }
        }
        let seed = trainer.run.seed;
        let turn = move |i: usize| (mix(seed ^ (first + i as u64)) % 8) as u8;
        let batch_examples = examples(train, &ats, model, &turn);
        if batch_examples.is_empty() {
            trainer.run.step += 1;
            continue;
        }
        let loss = trainer.learn(&batch_examples, config.schedule.learning_rate);
        progress(TrainEvent::Step {
            step: trainer.run.step,
            loss,
        });
        if trainer.run.due(&config.schedule) {
            trainer.save(dir)?;
            progress(TrainEvent::Saved {
                step: trainer.run.step,
            });
            tested(&trainer);
        }
    }
    Ok(trainer)
}
