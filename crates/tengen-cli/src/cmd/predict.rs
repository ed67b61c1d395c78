//! `tengen predict PATH...`: for every move of every record, the rank of the
//! played move under a model; top-1, top-3, top-5 accuracy and the mean
//! log-likelihood, overall and by game phase.

use super::progress;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tengen_mcts::{Network, PatternModel, SearchConfig};
use tengen_sgf::sgf_files;
use tengen_train::predict::PHASES;
use tengen_train::{
    NetPredictor, PatternPredictor, Record, SearchPredictor, Split, Tally, evaluate, pick,
};

/// Arguments of `tengen predict`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// SGF files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The model that ranks the moves.
    #[arg(long, value_enum, default_value_t = ModelKind::Patterns)]
    model: ModelKind,
    /// A model file instead of the shipped one (a pattern model for
    /// `patterns`, safetensors weights for `net`).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Playouts per move for `--model search`.
    #[arg(long, default_value_t = 1000)]
    playouts: u64,
    /// Only the games of one part of the learning split (`test`: the games
    /// training never sees).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    split: SplitArg,
    /// At most this many games (drawn by a fixed hash of each game).
    #[arg(long)]
    games: Option<usize>,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ModelKind {
    /// The Bradley-Terry pattern model.
    Patterns,
    /// The policy network (over the pattern model).
    Net,
    /// The search's visits (with its default knowledge).
    Search,
}

/// Which games of the learning split a command reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitArg {
    /// Every game.
    All,
    /// The training games.
    Train,
    /// The test games, which training never sees.
    Test,
}

impl SplitArg {
    /// The part of the split, `None` for every game.
    pub fn part(self) -> Option<Split> {
        match self {
            SplitArg::All => None,
            SplitArg::Train => Some(Split::Train),
            SplitArg::Test => Some(Split::Test),
        }
    }
}

/// Every game of `files`, read on all cores with a progress bar.
pub fn read_records(files: &[PathBuf]) -> Result<Vec<Record>> {
    let bar = progress::bar(files.len() as u64, "files");
    let records = tengen_train::read_records(files, None, 1, &|| bar.inc(1));
    bar.finish_and_clear();
    Ok(records)
}

/// Reads a network's weights, or takes the shipped network.
pub fn load_network(path: Option<&Path>) -> Result<std::borrow::Cow<'static, Network>> {
    match path {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let network =
                Network::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
            Ok(std::borrow::Cow::Owned(network))
        }
        None => Network::shipped()
            .map(std::borrow::Cow::Borrowed)
            .context("the shipped network cannot be read"),
    }
}

/// Reads a pattern model file.
pub fn load_patterns(path: &Path) -> Result<PatternModel> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    PatternModel::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let files = sgf_files(&args.paths)?;
    let records = read_records(&files)?;
    let games = pick(&records, args.split.part(), args.games);
    let bar = progress::bar(games.len() as u64, "games");
    let tally = match args.model {
        ModelKind::Patterns => {
            let own;
            let model = match &args.weights {
                Some(path) => {
                    own = load_patterns(path)?;
                    &own
                }
                None => PatternModel::shipped(),
            };
            evaluate(&games, || PatternPredictor::new(model), &|| bar.inc(1))
        }
        ModelKind::Net => {
            let network = load_network(args.weights.as_deref())?;
            evaluate(&games, || NetPredictor::new(&network), &|| bar.inc(1))
        }
        ModelKind::Search => evaluate(
            &games,
            || SearchPredictor::new(SearchConfig::default(), args.playouts),
            &|| bar.inc(1),
        ),
    };
    bar.finish_and_clear();
    let name = match args.model {
        ModelKind::Patterns => "patterns",
        ModelKind::Net => "net",
        ModelKind::Search => "search",
    };
    print_tally(name, &tally, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a tally as a table (or one JSON object): one line per phase,
/// then all moves.
pub fn print_tally(model: &str, tally: &Tally, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let rows: Vec<(&str, tengen_train::Counts)> = PHASES
        .iter()
        .zip(tally.phases.iter())
        .map(|(&(name, _, _), c)| (name, *c))
        .chain(std::iter::once(("all", tally.overall())))
        .collect();
    if json {
        let phases: serde_json::Map<String, serde_json::Value> = rows
            .iter()
            .map(|(name, c)| {
                let v = serde_json::json!({
                    "moves": c.moves,
                    "top1": c.rate(c.top1),
                    "top3": c.rate(c.top3),
                    "top5": c.rate(c.top5),
                    "log_likelihood": c.mean_log_likelihood(),
                });
                ((*name).to_string(), v)
            })
            .collect();
        let obj = serde_json::json!({ "model": model, "games": tally.games, "phases": phases });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(out, "model {model}: {} games", tally.games)?;
    writeln!(
        out,
        "{:<8} {:>9} {:>7} {:>7} {:>7} {:>8}",
        "moves", "count", "top-1", "top-3", "top-5", "log-lik"
    )?;
    for (name, c) in rows {
        writeln!(
            out,
            "{:<8} {:>9} {:>6.1}% {:>6.1}% {:>6.1}% {:>8.3}",
            name,
            c.moves,
            100.0 * c.rate(c.top1),
            100.0 * c.rate(c.top3),
            100.0 * c.rate(c.top5),
            c.mean_log_likelihood()
        )?;
    }
    Ok(())
}
