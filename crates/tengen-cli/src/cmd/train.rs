//! `tengen train patterns PATH...`: fits the pattern model to the training
//! games of the records, writes it, and measures it on test games.
//!
//! The shipped model is made by
//! `tengen train patterns ../shared/data/fox_pro --out crates/tengen-mcts/knowledge/patterns.tgpm`.

use super::predict::{print_tally, read_records};
use super::progress;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tengen_learn::{FitConfig, PatternPredictor, Progress, Split, evaluate, fit, pick};
use tengen_sgf::sgf_files;

/// Arguments of `tengen train`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    model: Model,
}

#[derive(Debug, clap::Subcommand)]
enum Model {
    /// Bradley-Terry pattern strengths, fitted by minorization-maximization.
    Patterns(PatternArgs),
}

#[derive(Debug, clap::Args)]
struct PatternArgs {
    /// SGF files or directories of 19x19 game records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(long, default_value = "patterns.tgpm")]
    out: PathBuf,
    /// Training games to use (drawn by a fixed hash of each game).
    #[arg(long, default_value_t = 3000)]
    games: usize,
    /// Test games to measure the model on afterwards (0: none).
    #[arg(long, default_value_t = 300)]
    test_games: usize,
    /// Times a spatial pattern must be played to enter the dictionary.
    #[arg(long, default_value_t = 5)]
    min_count: u32,
    /// Rounds of updates.
    #[arg(long, default_value_t = 8)]
    rounds: usize,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    match &args.model {
        Model::Patterns(a) => patterns(a),
    }
}

fn patterns(args: &PatternArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let files = sgf_files(&args.paths)?;
    let records = read_records(&files)?;
    let train = pick(&records, Some(Split::Train), Some(args.games));
    let test = pick(&records, Some(Split::Test), Some(args.test_games));
    eprintln!(
        "{} games read, {} for training, {} for testing",
        records.len(),
        train.len(),
        test.len()
    );
    let bar = progress::bar(2 * train.len() as u64, "games");
    let config = FitConfig {
        min_count: args.min_count,
        rounds: args.rounds,
    };
    let model = fit(&train, &config, &|p| match p {
        Progress::Game => bar.inc(1),
        Progress::Round {
            round,
            log_likelihood,
        } => bar.suspend(|| eprintln!("round {round}: mean log-likelihood {log_likelihood:.4}")),
    })?;
    bar.finish_and_clear();
    std::fs::write(&args.out, model.to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{}: {} spatial patterns, {:.0} s",
        args.out.display(),
        model.spatial_count(),
        start.elapsed().as_secs_f64()
    );
    if !test.is_empty() {
        let bar = progress::bar(test.len() as u64, "test games");
        let tally = evaluate(&test, || PatternPredictor::new(&model), &|| bar.inc(1));
        bar.finish_and_clear();
        print_tally("patterns", &tally, false)?;
    }
    Ok(ExitCode::SUCCESS)
}
