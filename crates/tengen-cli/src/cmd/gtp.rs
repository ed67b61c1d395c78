//! `tengen gtp`: the engine over GTP on stdin and stdout; logs on stderr.

use anyhow::{Context, Result, bail};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tengen_core::Rules;
use tengen_engine::{EngineConfig, Session};
use tengen_mcts::{
    DEFAULT_JUDGE_AT, DEFAULT_TREE_MEMORY, DEFAULT_VALUE_WEIGHT, Knowledge, SearchConfig, Strength,
    ValueSource,
};

/// Arguments of `tengen gtp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules of the games (a preset, alias or KataGo string); GTP
    /// `kgs-rules` and `kata-set-rules` change them.
    #[arg(long, default_value = "chinese")]
    rules: Rules,
    /// Search threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Playouts per move when no clock is set.
    #[arg(long, conflicts_with = "time")]
    playouts: Option<u64>,
    /// Seconds per move when no clock is set.
    #[arg(long)]
    time: Option<f64>,
    /// A level for people, as on the web board: `beginner` (8 playouts, a
    /// move drawn among those a person would play), `easy` (100),
    /// `medium` (2,000) or `strong` (20,000). The guide's table measures
    /// them against GNU Go.
    #[arg(long, value_parser = Strength::from_name, conflicts_with_all = ["playouts", "time"])]
    strength: Option<Strength>,
    /// Resign when the best move's winning probability is below this
    /// (0 never resigns).
    #[arg(long, default_value_t = 0.1)]
    resign_below: f64,
    /// Seed of the search (default: drawn from the clock, so that games
    /// differ; give one, with --playouts and one thread, to replay a game
    /// move for move).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    search: SearchOptions,
    /// The answer to GTP `name`. Lizzie uses KataGo's analysis (scores,
    /// ownership) only with an engine whose name starts with `KataGo`:
    /// `--name KataGo-tengen` there.
    #[arg(long, default_value = "tengen")]
    name: String,
}

/// What the search knows, how it judges and how much memory its tree may
/// take: the options `gtp` and `analysis` share.
#[derive(Debug, clap::Args)]
pub struct SearchOptions {
    /// What the search knows of a move before playing it out: `auto` (the
    /// strongest at equal time on the board played: `net` on 19x19,
    /// `patterns` elsewhere), `net` (the policy network over the pattern
    /// model), `patterns` (the pattern model learned from professional
    /// records) or `none` (hand-set rules), to measure what the knowledge
    /// is worth.
    #[arg(long, default_value = "auto", value_parser = Knowledge::from_name)]
    pub knowledge: Knowledge,
    /// The weight of the value network's judgement in the search's results,
    /// 0 to 1 (0: the playouts alone), on the boards it learned (19x19).
    /// Default: 0, since at equal time its judgements cost more playouts
    /// than they are worth (see the README's "Judgement").
    #[arg(long, value_parser = weight, default_value_t = DEFAULT_VALUE_WEIGHT)]
    pub value_weight: f32,
    /// Simulations through a node before the value network judges it
    /// (with a value weight above 0).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JUDGE_AT)]
    pub judge_at: u32,
    /// Value network weights (safetensors, from `tengen train value`) to
    /// judge with instead of the shipped ones.
    #[arg(long)]
    pub value: Option<PathBuf>,
    /// Whether the search reads the fights where it asks the network (the
    /// moves that save a chain in danger or take one that could escape
    /// start with more won simulations).
    #[arg(long, value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub reading: bool,
    /// Whether the playouts learn, in each search, the replies that won
    /// and play them again where they can (last good reply with
    /// forgetting).
    #[arg(long, value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub last_good_reply: bool,
    /// The weight of the score beside the win rate in the search's choice
    /// of lines, 0 to 1 (0: the win rate alone), so that it keeps a lead
    /// whole and a loss small. Default: 0.05 on 19x19, where it measured
    /// stronger, 0 elsewhere.
    #[arg(long, value_name = "W", value_parser = weight)]
    pub score_weight: Option<f32>,
    /// Whether the value network looks at the moves the search ranks
    /// close to its best before one is played, on 19x19, and the move
    /// played is the best by both judgements.
    #[arg(long, value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub check_moves: bool,
    /// Mebibytes the search tree may take (the subtree kept from the last
    /// move included); once full the tree stops growing and the search
    /// goes on within it.
    #[arg(long, value_name = "MIB", default_value_t = (DEFAULT_TREE_MEMORY >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub tree_memory: u64,
}

impl SearchOptions {
    /// The search these options ask for, the rest as `base` has it.
    ///
    /// # Errors
    /// A `--value` file that cannot be read or is not a value network's.
    pub fn config(&self, base: SearchConfig) -> Result<SearchConfig> {
        Ok(SearchConfig {
            knowledge: self.knowledge,
            value_weight: self.value_weight,
            judge_at: self.judge_at,
            reading: self.reading,
            last_good_reply: self.last_good_reply,
            score_weight: self.score_weight,
            check_moves: self.check_moves,
            value: read_value(self.value.as_deref())?,
            tree_memory: usize::try_from(self.tree_memory << 20).unwrap_or(usize::MAX),
            ..base
        })
    }
}

/// A weight from 0 to 1.
pub fn weight(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("{text:?} is not a weight from 0 to 1")),
    }
}

/// The value network of `--value FILE`, or the shipped one.
///
/// # Errors
/// A file that cannot be read or is not a value network's.
pub fn read_value(path: Option<&Path>) -> Result<ValueSource> {
    let Some(path) = path else {
        return Ok(ValueSource::Shipped);
    };
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    ValueSource::load(&bytes).with_context(|| format!("{}: not a value network", path.display()))
}

/// A seed that differs from one start to the next.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let _ = super::logs::to_stderr()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .try_init();
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            bail!("--time must be a positive number of seconds")
        }
        t => t.map(Duration::from_secs_f64),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut session = Session::new(EngineConfig {
        rules: args.rules,
        search: args.search.config(SearchConfig {
            threads,
            resign_below: (args.resign_below > 0.0).then_some(args.resign_below),
            seed: args.seed.unwrap_or_else(clock_seed),
            ..SearchConfig::default()
        })?,
        playouts: args.playouts,
        time,
        strength: args.strength,
        // Read once for the life of the process.
        name: Box::leak(args.name.clone().into_boxed_str()),
    });
    let mut out = std::io::stdout().lock();
    tengen_engine::serve(&mut session, BufReader::new(std::io::stdin()), &mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
