//! A training run's checkpoint: the weights as burn stores them, Adam's
//! moments, a few numbers of state (the step, the shape, the seed) as
//! `key value` lines, and the weights alone as the search reads them. Each
//! file is written aside and renamed over the old one, the state last, so
//! that a run killed while saving resumes from the last whole checkpoint.
//!
//! One checkpoint format, and one run ([`Run`]), for every network
//! `tengen train` makes ([`Trained`]).

use crate::net::TrainError;
use crate::schedule::Schedule;
use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot};
use std::path::{Path, PathBuf};
use tengen_mcts::NetError;

/// The checkpoint's files in a directory.
pub(crate) struct Checkpoint {
    dir: PathBuf,
    model: PathBuf,
    optimizer: PathBuf,
    state: PathBuf,
    /// The weights alone, as the search reads them.
    weights: PathBuf,
}

/// The numbers of a checkpoint's state.
pub(crate) struct State(String);

impl State {
    /// The number written after `key`.
    ///
    /// # Errors
    /// When it is not there.
    pub(crate) fn get(&self, key: &str, checkpoint: &Checkpoint) -> Result<u64, TrainError> {
        self.0
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
            .ok_or_else(|| checkpoint.fail(&checkpoint.state, format!("no {key}")))
    }
}

impl Checkpoint {
    /// The checkpoint in `dir`, whose weights file is called `weights`.
    pub(crate) fn in_dir(dir: &Path, weights: &str) -> Checkpoint {
        Checkpoint {
            dir: dir.to_path_buf(),
            model: dir.join("model.bpk"),
            optimizer: dir.join("optimizer.bin"),
            state: dir.join("state.txt"),
            weights: dir.join(weights),
        }
    }

    fn fail(&self, path: &Path, message: String) -> TrainError {
        TrainError::Checkpoint {
            path: path.to_path_buf(),
            message,
        }
    }

    /// The error of a file that cannot be read.
    pub(crate) fn unreadable(&self, path: &Path, e: impl std::fmt::Display) -> TrainError {
        self.fail(path, e.to_string())
    }

    /// The saved state, `None` when nothing was saved yet.
    ///
    /// # Errors
    /// A state file that is there but cannot be read.
    pub(crate) fn state(&self) -> Result<Option<State>, TrainError> {
        if !self.state.exists() {
            return Ok(None);
        }
        std::fs::read_to_string(&self.state)
            .map(|s| Some(State(s)))
            .map_err(|e| self.fail(&self.state, e.to_string()))
    }

    /// Loads the saved weights into `net` and returns the saved optimizer.
    ///
    /// # Errors
    /// A file that cannot be read.
    pub(crate) fn load<M: ModuleSnapshot>(
        &self,
        net: &mut M,
    ) -> Result<ModuleOptimizer, TrainError> {
        let mut store = BurnpackStore::from_file(&self.model);
        net.load_from(&mut store)
            .map_err(|e| self.fail(&self.model, e.to_string()))?;
        AdamConfig::new()
            .init()
            .load(&self.optimizer)
            .map_err(|e| self.fail(&self.optimizer, e.to_string()))
    }

    /// Writes the checkpoint: `net`, `optimizer`, the `state` lines and
    /// `weights` (the safetensors file of `net`).
    ///
    /// # Errors
    /// A file that cannot be written.
    pub(crate) fn save<M: Module + ModuleSnapshot>(
        &self,
        net: &M,
        optimizer: &ModuleOptimizer,
        state: &str,
        weights: &[u8],
    ) -> Result<(), TrainError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| self.fail(&self.dir, e.to_string()))?;
        let aside = |p: &Path| p.with_extension("new");
        let model_aside = self.dir.join("model-new.bpk");
        let mut store = BurnpackStore::from_file(&model_aside).overwrite(true);
        net.save_into(&mut store)
            .map_err(|e| self.fail(&self.model, e.to_string()))?;
        optimizer
            .save(aside(&self.optimizer))
            .map_err(|e| self.fail(&self.optimizer, e.to_string()))?;
        std::fs::write(aside(&self.state), state)
            .map_err(|e| self.fail(&self.state, e.to_string()))?;
        std::fs::write(aside(&self.weights), weights)
            .map_err(|e| self.fail(&self.weights, e.to_string()))?;
        for (from, to) in [
            (aside(&self.weights), &self.weights),
            (model_aside, &self.model),
            (aside(&self.optimizer), &self.optimizer),
            (aside(&self.state), &self.state),
        ] {
            std::fs::rename(&from, to).map_err(|e| self.fail(to, e.to_string()))?;
        }
        Ok(())
    }
}

/// A network `tengen train` makes: how a run builds, reads and writes it.
pub(crate) trait Trained: Module + ModuleSnapshot + Sized {
    /// Its size.
    type Shape: Copy + std::fmt::Debug;
    /// The name of its weights file in a checkpoint's directory.
    const WEIGHTS: &'static str;
    /// A new network of `shape`.
    fn fresh(shape: Self::Shape, device: &Device) -> Self;
    /// The network of a safetensors file, and its shape.
    fn read(bytes: &[u8], device: &Device) -> Result<(Self, Self::Shape), NetError>;
    /// Its safetensors file.
    fn weights(&self) -> Result<Vec<u8>, NetError>;
    /// Filters per layer and layers of `shape`.
    fn dims(shape: Self::Shape) -> (usize, usize);
    /// The shape of `channels` filters in `layers` layers.
    fn shape(channels: usize, layers: usize) -> Self::Shape;
}

/// A run in progress: the network, Adam's state, the steps done, and what
/// fixes the run (its shape and seed), saved and resumed as one.
pub(crate) struct Run<N: Trained> {
    pub(crate) net: N,
    optimizer: ModuleOptimizer,
    pub(crate) step: u64,
    pub(crate) shape: N::Shape,
    pub(crate) seed: u64,
    pub(crate) device: Device,
}

impl<N: Trained> std::fmt::Debug for Run<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("step", &self.step)
            .field("shape", &self.shape)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<N: Trained> Run<N> {
    /// The run saved in `dir`, or a new one of `shape` and the schedule's
    /// seed (from the weights of its `from` when given) when `dir` holds no
    /// checkpoint.
    ///
    /// # Errors
    /// A checkpoint or a `from` file that is there but cannot be read.
    pub(crate) fn open(
        dir: &Path,
        shape: N::Shape,
        schedule: &Schedule,
    ) -> Result<Run<N>, TrainError> {
        let seed = schedule.seed;
        let device = Device::flex().autodiff();
        let checkpoint = Checkpoint::in_dir(dir, N::WEIGHTS);
        let Some(state) = checkpoint.state()? else {
            device.seed(seed);
            let (net, shape) = match &schedule.from {
                Some(path) => {
                    let bytes = std::fs::read(path).map_err(|e| checkpoint.unreadable(path, e))?;
                    N::read(&bytes, &device).map_err(|e| checkpoint.unreadable(path, e))?
                }
                None => (N::fresh(shape, &device), shape),
            };
            return Ok(Run {
                net,
                optimizer: AdamConfig::new().init(),
                step: 0,
                shape,
                seed,
                device,
            });
        };
        let shape = N::shape(
            state.get("channels", &checkpoint)? as usize,
            state.get("layers", &checkpoint)? as usize,
        );
        let mut net = N::fresh(shape, &device);
        let optimizer = checkpoint.load(&mut net)?;
        Ok(Run {
            net,
            optimizer,
            step: state.get("step", &checkpoint)?,
            shape,
            seed: state.get("seed", &checkpoint)?,
            device,
        })
    }

    /// Writes the checkpoint into `dir`.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub(crate) fn save(&self, dir: &Path) -> Result<(), TrainError> {
        let checkpoint = Checkpoint::in_dir(dir, N::WEIGHTS);
        let (channels, layers) = N::dims(self.shape);
        let state = format!(
            "step {}\nchannels {channels}\nlayers {layers}\nseed {}\n",
            self.step, self.seed
        );
        let weights = self
            .net
            .weights()
            .map_err(|e| checkpoint.unreadable(dir, e))?;
        checkpoint.save(&self.net, &self.optimizer, &state, &weights)
    }

    /// Whether the step just taken is one to save and measure at: every
    /// `checkpoint_every` steps of the schedule, and its last.
    pub(crate) fn due(&self, schedule: &Schedule) -> bool {
        self.step.is_multiple_of(schedule.checkpoint_every.max(1)) || self.step == schedule.steps
    }

    /// One step of Adam down `loss` at `learning_rate`; the loss.
    pub(crate) fn learn(&mut self, loss: Tensor<1>, learning_rate: f64) -> f32
    where
        N: Clone,
    {
        let value = loss.clone().into_scalar::<f32>();
        let grads = GradientsParams::from_grads(loss.backward(), &self.net);
        // A clone shares the weights' storage; the step returns the new ones.
        self.net = self.optimizer.step(learning_rate, self.net.clone(), grads);
        self.step += 1;
        value
    }
}
