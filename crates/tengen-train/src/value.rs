//! Training the value network ([`tengen_mcts::value`]) on the positions of
//! the training games: the winner of every game, the ownership and area
//! margin of every counted game, and the ownership the playouts estimate
//! at the end of the others ([`crate::outcome`]), each position from its
//! mover's side and under a random one of the eight symmetries.
//!
//! A value network trained on whole games memorises them (AlphaGo's
//! value network overfitted until it took one position per game): each
//! pass over the data takes a few positions of every game, drawn afresh
//! by the seed, and the same measures are taken on training and test
//! positions, side by side, at every checkpoint.
//!
//! Left out: learning-rate schedules (an argument, as for the policy
//! network), and boards of several sizes in one batch.

use crate::checkpoint::{Run, Trained};
use crate::corpus::Record;
use crate::net::{TrainError, mix, order};
use crate::outcome::Ending;
use crate::schedule::Schedule;
use burn::prelude::*;
use burn::tensor::activation::{sigmoid, softplus};
use rayon::prelude::*;
use std::path::Path;
use tengen_mcts::net::symmetric;
use tengen_mcts::value::{Heads, ValueInput, ValueNet, ValueShape, value_batch};
use tengen_mcts::{NetError, Rng};

/// Weight of the ownership loss (mean squared error per point): the
/// dense target that teaches the trunk most, so it leads.
const OWNER_WEIGHT: f32 = 10.0;
/// The squared error of the margin is divided by twice this (a spread of
/// ten points).
const MARGIN_VARIANCE: f32 = 100.0;
/// Weight of the margin's loss: small, for an error of tens of points
/// early in a game is noise that would drown the ownership in the trunk.
const MARGIN_WEIGHT: f32 = 0.05;
/// Weight of the spread's Gaussian likelihood, as small for the same reason.
const SPREAD_WEIGHT: f32 = 0.02;
/// A counted game gives this many times more positions per pass: its
/// every point is a target, and about one game in ten was counted.
const COUNTED_BOOST: usize = 4;

/// A game to learn from: its record and its end.
#[derive(Clone, Copy, Debug)]
pub struct Judged<'a> {
    /// The record.
    pub record: &'a Record,
    /// How it ended.
    pub ending: &'a Ending,
}

/// How a run trains.
#[derive(Clone, Debug)]
pub struct ValueConfig {
    /// The network's size (a resumed run keeps its own).
    pub shape: ValueShape,
    /// The run's settings (20,000 steps by default); its test positions
    /// are measured of the test games and as many of the training games.
    pub schedule: Schedule,
    /// Positions of each game per pass over the games.
    pub per_game: usize,
}

impl Default for ValueConfig {
    fn default() -> ValueConfig {
        ValueConfig {
            shape: ValueShape::SHIPPED,
            schedule: Schedule {
                steps: 20_000,
                ..Schedule::default()
            },
            per_game: 4,
        }
    }
}

/// How well the network judges a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measures {
    /// Positions measured.
    pub positions: usize,
    /// Mean cross-entropy of the winner (draws count half each way).
    pub win_loss: f64,
    /// Share of positions of decided games where the eventual winner is
    /// given more than half.
    pub favoured: f64,
    /// Positions of counted games.
    pub counted: usize,
    /// Mean squared error of the ownership on counted games.
    pub owner_error: f64,
    /// Mean absolute error of the area margin on counted games, points.
    pub margin_error: f64,
}

/// What a run tells as it goes.
#[derive(Clone, Copy, Debug)]
pub enum ValueEvent {
    /// A step was taken; `loss` is its batch's total loss.
    Step {
        /// Steps done in all.
        step: u64,
        /// The batch's loss.
        loss: f32,
    },
    /// Training and test positions were measured.
    Measured {
        /// The step measured.
        step: u64,
        /// On positions of the training games.
        train: Measures,
        /// On positions of the test games.
        test: Measures,
    },
    /// The checkpoint was written.
    Saved {
        /// The step saved.
        step: u64,
    },
}

/// One position and its targets, from the mover's side.
#[derive(Clone, Debug)]
pub struct Example {
    input: ValueInput,
    /// 1 when the mover won, 0 when he lost, 0.5 for a draw.
    win: f32,
    /// The mover's ownership of each point (row order): counted or
    /// estimated.
    owner: Option<Vec<f32>>,
    /// The mover's area margin before komi: counted, or the estimated
    /// ownership's sum.
    margin: Option<f32>,
    /// Whether the ownership and margin are a confirmed count (the
    /// measures' subject) rather than the playouts' estimate.
    counted: bool,
}

/// How a training position is shown: under one of the eight symmetries,
/// and, one time in two, with the other player to move, as if the mover
/// had passed ([`ValueInput::passed`]): the targets are the same game's,
/// so the network learns that the player to move matters by the tempo
/// only, and cannot drift to favouring the mover or the other by points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The symmetry, 0-7 ([`symmetric`]).
    pub symmetry: u8,
    /// Whether the other player is to move.
    pub passed: bool,
}

impl View {
    /// The view numbered `n` (its low three bits the symmetry, the next
    /// one the pass).
    fn numbered(n: u64) -> View {
        View {
            symmetry: (n % 8) as u8,
            passed: (n / 8) % 2 == 1,
        }
    }
}

/// The position before turn `turn` of `game` (`turn` may be the number
/// of turns: the final position), shown as `view` says.
pub fn example(game: Judged, turn: usize, view: View) -> Option<Example> {
    let record = game.record;
    let board = record.board_before(turn)?;
    let mover = match record.moves.get(turn) {
        Some(&(c, _)) => c,
        None => record
            .moves
            .last()
            .map_or(record.first, |&(c, _)| c.opponent()),
    };
    let recent = record.recent(turn);
    let k = view.symmetry;
    let mut input = ValueInput::new(
        &board,
        mover,
        &recent,
        game.ending.komi,
        record.rules.scoring.counts_area(),
    )
    .turned(k);
    if view.passed {
        input = input.passed();
    }
    let mover = input.mover;
    let sign = mover.sign();
    let win = match game.ending.winner {
        None => 0.5,
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
    };
    let (w, h) = (input.width, input.height);
    let turned = |black: &mut dyn Iterator<Item = f32>| {
        let mut owner = vec![0.0f32; w * h];
        for (i, o) in black.enumerate() {
            if let Some(slot) = owner.get_mut(symmetric(i, k, w, h)) {
                *slot = o * sign;
            }
        }
        owner
    };
    let ending = game.ending;
    let (owner, margin) = match (&ending.counted, &ending.estimated) {
        (Some(c), _) => (
            Some(turned(&mut c.owner.iter().map(|&o| f32::from(o)))),
            Some(c.black_area * sign),
        ),
        (None, Some(e)) => (
            Some(turned(&mut e.iter().copied())),
            Some(e.iter().sum::<f32>() * sign),
        ),
        (None, None) => (None, None),
    };
    Some(Example {
        input,
        win,
        owner,
        margin,
        counted: ending.counted.is_some(),
    })
}

/// A position of the data: a game and a turn.
#[derive(Clone, Copy, Debug)]
struct At {
    game: u32,
    turn: u32,
}

/// The turns a position of `game` is drawn from: every position, but the
/// final one of a game not counted, whose player to move is the one who
/// resigned, which the board does not show and a network would learn all
/// the same.
fn turns_drawn(game: &Judged) -> usize {
    game.record.moves.len() + usize::from(game.ending.counted.is_some())
}

/// How many positions of `game` a pass takes: `per_game`, [`COUNTED_BOOST`]
/// times as many of a counted game, none of a game with no position.
fn draws(game: &Judged, per_game: usize) -> usize {
    match (turns_drawn(game), game.ending.counted.is_some()) {
        (0, _) => 0,
        (_, true) => per_game * COUNTED_BOOST,
        (_, false) => per_game,
    }
}

/// `per_game` positions of every game of `games` (more of a counted game,
/// [`COUNTED_BOOST`]) for pass `pass`, in a shuffled order, all fixed by
/// `seed`.
fn draw(games: &[Judged], per_game: usize, seed: u64, pass: u64) -> Vec<At> {
    let mut rng = Rng::new(mix(seed ^ mix(pass ^ 0x5eed)));
    let mut ats = Vec::with_capacity(games.len() * per_game);
    for (g, judged) in games.iter().enumerate() {
        let turns = turns_drawn(judged);
        for _ in 0..draws(judged, per_game) {
            // Half the draws from the game's second half, where the
            // board shows who is winning and a judgement can be learned.
            let turn = if rng.below(2) == 0 {
                rng.below(turns)
            } else {
                turns / 2 + rng.below(turns - turns / 2)
            };
            if let (Ok(game), Ok(turn)) = (u32::try_from(g), u32::try_from(turn)) {
                ats.push(At { game, turn });
            }
        }
    }
    order(ats.len(), seed, pass)
        .into_iter()
        .filter_map(|i| ats.get(i as usize).copied())
        .collect()
}

/// The examples of `ats`, built on all cores, the `i`th shown as `view(i)`.
fn examples(games: &[Judged], ats: &[At], view: &(dyn Fn(usize) -> View + Sync)) -> Vec<Example> {
    ats.par_iter()
        .enumerate()
        .filter_map(|(i, at)| example(*games.get(at.game as usize)?, at.turn as usize, view(i)))
        .collect()
}

/// The targets of a batch as tensors: win [B], ownership [B, points] and
/// its mask [B], margin [B] and its mask [B] (counted or estimated); examples of
/// the first's size only.
struct Targets {
    win: Tensor<1>,
    owned: Tensor<1>,
    owner: Tensor<2>,
    margin: Tensor<1>,
    scored: Tensor<1>,
}

fn tensors(examples: &[&Example], device: &Device) -> (Tensor<4>, Tensor<1>, Targets) {
    let inputs: Vec<&ValueInput> = examples.iter().map(|e| &e.input).collect();
    let (planes, komi) = value_batch(&inputs, device);
    let b = examples.len();
    let n = inputs.first().map_or(1, |e| e.width * e.height);
    let mut owner = vec![0.0f32; b * n];
    let mut owned = vec![0.0f32; b];
    let mut margin = vec![0.0f32; b];
    let mut scored = vec![0.0f32; b];
    for (i, e) in examples.iter().enumerate() {
        if let Some(o) = &e.owner {
            owner[i * n..(i + 1) * n].copy_from_slice(o);
            owned[i] = 1.0;
        }
        if let Some(m) = e.margin {
            margin[i] = m;
            scored[i] = 1.0;
        }
    }
    let win: Vec<f32> = examples.iter().map(|e| e.win).collect();
    let t1 = |v: Vec<f32>| Tensor::from_data(TensorData::new(v, [b]), device);
    let targets = Targets {
        win: t1(win),
        owned: t1(owned),
        owner: Tensor::from_data(TensorData::new(owner, [b, n]), device),
        margin: t1(margin),
        scored: t1(scored),
    };
    (planes, komi, targets)
}

/// The batch's loss: the winner's cross-entropy, and where the end is
/// counted or estimated, the ownership's squared error and the margin's
/// and the spread's likelihood.
fn loss(heads: Heads, t: Targets) -> Tensor<1> {
    let z = heads.win_logit;
    let win = (softplus(z.clone(), 1.0) - z * t.win).mean();
    let owned = t.owned.clone().sum().clamp_min(1.0);
    let scored = t.scored.clone().sum().clamp_min(1.0);
    let owner = (heads.ownership - t.owner).powi_scalar(2).mean_dim(1);
    let [b, _] = owner.dims();
    let owner = (owner.reshape([b]) * t.owned).sum() / owned;
    let miss = heads.margin - t.margin;
    let margin = (miss.clone().powi_scalar(2) * t.scored.clone()).sum()
        / (scored.clone() * (2.0 * MARGIN_VARIANCE));
    let ls = heads.log_spread;
    let spread = ((ls.clone() + miss.detach().powi_scalar(2) / (ls * 2.0).exp().mul_scalar(2.0))
        * t.scored)
        .sum()
        / scored;
    win + owner * OWNER_WEIGHT + margin * MARGIN_WEIGHT + spread * SPREAD_WEIGHT
}

impl Trained for ValueNet {
    type Shape = ValueShape;
    const WEIGHTS: &'static str = "value.safetensors";
    fn fresh(shape: ValueShape, device: &Device) -> ValueNet {
        ValueNet::new(shape, device)
    }
    fn read(bytes: &[u8], device: &Device) -> Result<(ValueNet, ValueShape), NetError> {
        ValueNet::from_bytes(bytes, device)
    }
    fn weights(&self) -> Result<Vec<u8>, NetError> {
        self.to_bytes()
    }
    fn dims(shape: ValueShape) -> (usize, usize) {
        (shape.channels, shape.layers)
    }
    fn shape(channels: usize, layers: usize) -> ValueShape {
        ValueShape { channels, layers }
    }
}

/// A run in progress.
#[derive(Debug)]
pub struct ValueTrainer {
    run: Run<ValueNet>,
}

impl ValueTrainer {
    /// The run saved in `dir`, or a new one of `config`.
    ///
    /// # Errors
    /// A checkpoint that is there but cannot be read.
    pub fn open(dir: &Path, config: &ValueConfig) -> Result<ValueTrainer, TrainError> {
        Run::open(dir, config.shape, &config.schedule).map(|run| ValueTrainer { run })
    }

    /// Steps done.
    pub fn step(&self) -> u64 {
        self.run.step
    }

    /// The network as it is now.
    pub fn net(&self) -> &ValueNet {
        &self.run.net
    }

    /// Writes the checkpoint into `dir`.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), TrainError> {
        self.run.save(dir)
    }

    /// One step on `examples` (of one board size); the batch's loss.
    fn learn(&mut self, examples: &[&Example], learning_rate: f64) -> f32 {
        let (planes, komi, targets) = tensors(examples, &self.run.device);
        let loss = loss(self.run.net.forward(planes, komi), targets);
        self.run.learn(loss, learning_rate)
    }

    /// How well the network as it is now judges `examples`.
    pub fn measure(&self, examples: &[Example]) -> Measures {
        measure(&self.run.net.valid(), examples)
    }
}

/// How well `net` judges `examples`.
pub fn measure(net: &ValueNet, examples: &[Example]) -> Measures {
    let device = Device::flex();
    let mut m = Measures::default();
    let (mut decided, mut favoured) = (0usize, 0usize);
    let (mut owner_sq, mut margin_abs) = (0f64, 0f64);
    let mut by_size: Vec<&Example> = examples.iter().collect();
    by_size.sort_by_key(|e| (e.input.width, e.input.height));
    for chunk in
        by_size.chunk_by(|a, b| (a.input.width, a.input.height) == (b.input.width, b.input.height))
    {
        for part in chunk.chunks(256) {
            let inputs: Vec<&ValueInput> = part.iter().map(|e| &e.input).collect();
            let (planes, komi) = value_batch(&inputs, &device);
            let heads = net.forward(planes, komi);
            let read = |t: Tensor<1>| t.into_data().try_to_vec::<f32>().unwrap_or_default();
            let wins = read(sigmoid(heads.win_logit));
            let margins = read(heads.margin);
            let owners = heads
                .ownership
                .into_data()
                .try_to_vec::<f32>()
                .unwrap_or_default();
            let n = inputs.first().map_or(1, |e| e.width * e.height);
            for (i, e) in part.iter().enumerate() {
                let p = f64::from(wins.get(i).copied().unwrap_or(0.5)).clamp(1e-6, 1.0 - 1e-6);
                let y = f64::from(e.win);
                m.win_loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
                if e.win != 0.5 {
                    decided += 1;
                    favoured += usize::from((p > 0.5) == (e.win > 0.5));
                }
                if let (Some(owner), Some(margin), true) = (&e.owner, e.margin, e.counted) {
                    m.counted += 1;
                    let row = owners.get(i * n..(i + 1) * n).unwrap_or(&[]);
                    let sq: f64 = row
                        .iter()
                        .zip(owner)
                        .map(|(a, b)| f64::from(a - b).powi(2))
                        .sum();
                    owner_sq += sq / n as f64;
                    margin_abs += f64::from(margins.get(i).copied().unwrap_or(0.0) - margin).abs();
                }
            }
        }
    }
    m.positions = examples.len();
    m.win_loss /= m.positions.max(1) as f64;
    m.favoured = favoured as f64 / decided.max(1) as f64;
    m.owner_error = owner_sq / m.counted.max(1) as f64;
    m.margin_error = margin_abs / m.counted.max(1) as f64;
    m
}

/// Trains on positions of `train` until the schedule's steps are done in
/// all, measuring training and test positions and saving into `dir` every
/// `checkpoint_every` steps and at the end.
///
/// # Errors
/// No training game, or a checkpoint that cannot be read or written.
pub fn train_value(
    train: &[Judged],
    test: &[Judged],
    config: &ValueConfig,
    dir: &Path,
    progress: &dyn Fn(ValueEvent),
) -> Result<ValueTrainer, TrainError> {
    if train.is_empty() {
        return Err(TrainError::NoData);
    }
    let mut trainer = ValueTrainer::open(dir, config)?;
    let fixed = |games: &[Judged], salt: u64| {
        let ats: Vec<At> = draw(games, 1, trainer.run.seed ^ salt, 0)
            .into_iter()
            .take(config.schedule.test_positions)
            .collect();
        examples(games, &ats, &|_| View::default())
    };
    let train_sample = fixed(train, 0x7a1);
    let test_sample = fixed(test, 0x7e57);
    let measured = |trainer: &ValueTrainer| {
        progress(ValueEvent::Measured {
            step: trainer.run.step,
            train: trainer.measure(&train_sample),
            test: trainer.measure(&test_sample),
        });
    };
    if trainer.run.step == 0 {
        measured(&trainer);
    }
    let per_game = config.per_game.max(1);
    let batch = config.schedule.batch.max(1) as u64;
    let pass_len: u64 = train.iter().map(|g| draws(g, per_game) as u64).sum();
    let mut pass: Option<(u64, Vec<At>)> = None;
    while trainer.run.step < config.schedule.steps {
        let first = trainer.run.step * batch;
        let mut ats = Vec::with_capacity(batch as usize);
        for g in first..first + batch {
            let p = g / pass_len.max(1);
            if pass.as_ref().is_none_or(|(q, _)| *q != p) {
                pass = Some((p, draw(train, per_game, trainer.run.seed, p)));
            }
            if let Some((_, drawn)) = &pass
                && let Some(&at) = drawn.get((g % pass_len.max(1)) as usize)
            {
                ats.push(at);
            }
        }
        let seed = trainer.run.seed;
        let view = move |i: usize| View::numbered(mix(seed ^ (first + i as u64) ^ 0x5e));
        let batch_examples = examples(train, &ats, &view);
        let size = batch_examples
            .first()
            .map(|e| (e.input.width, e.input.height));
        let same: Vec<&Example> = batch_examples
            .iter()
            .filter(|e| Some((e.input.width, e.input.height)) == size)
            .collect();
        if same.is_empty() {
            trainer.run.step += 1;
            continue;
        }
        let loss = trainer.learn(&same, config.schedule.learning_rate);
        progress(ValueEvent::Step {
            step: trainer.run.step,
            loss,
        });
        if trainer.run.due(&config.schedule) {
            trainer.save(dir)?;
            progress(ValueEvent::Saved {
                step: trainer.run.step,
            });
            measured(&trainer);
        }
    }
    Ok(trainer)
}
