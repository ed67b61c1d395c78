//! A training run's checkpoint: the weights as burn stores them, Adam's
//! moments, a few numbers of state (the step, the shape, the seed) as
//! `key value` lines, and the weights alone as the search reads them. Each
//! file is written aside and renamed over the old one, the state last, so
//! that a run killed while saving resumes from the last whole checkpoint.
//!
//! One checkpoint format for every network `tengen train` makes.

use crate::net::TrainError;
use burn::module::Module;
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn_store::{BurnpackStore, ModuleSnapshot};
use std::path::{Path, PathBuf};

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
