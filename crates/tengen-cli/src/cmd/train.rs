//! `tengen train patterns PATH...`: fits the pattern model to the training
//! games of the records, writes it, and measures it on test games.
//! `tengen train net PATH...`: trains the policy network on the same
//! split, from its checkpoint when there is one. `tengen train shapes
//! PATH...`: fits the playouts' 3x3 shapes. `tengen train value PATH...`:
//! trains the value network (win, score, ownership) on the records' ends. `tengen train book`: grows
//! the opening book from long searches of tengen's own.
//!
//! The shipped model and network are made by
//! `tengen train patterns ../shared/data/fox_pro --games 100000 --out crates/tengen-mcts/knowledge/patterns.tgpm`
//! and `tengen train net ../shared/data/fox_pro --out crates/tengen-mcts/knowledge/policy.safetensors`
//! (see `crates/tengen-mcts/knowledge/README.md`).

use super::predict::{print_tally, read_records};
use super::progress;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tengen_mcts::Knowledge;
use tengen_mcts::book::{Growth, grow};
use tengen_mcts::net::Shape;
use tengen_mcts::shape::ShapeModel;
use tengen_mcts::value::ValueShape;
use tengen_sgf::sgf_files;
use tengen_train::{
    Ending, FitConfig, Judged, Komi, Measures, PatternPredictor, Progress, Record, Schedule, Split,
    TrainConfig, TrainEvent, ValueConfig, ValueEvent, endings, evaluate, fit, fit_shapes, pick,
    shape_log_likelihood, train, train_value,
};

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
    /// The convolutional policy network, by Adam on the played moves.
    Net(NetArgs),
    /// The value network (win, score, ownership), by Adam on the records'
    /// results and counts.
    Value(ValueArgs),
    /// The playouts' 3x3 shapes around the last stone, and tenuki.
    Shapes(ShapeArgs),
    /// The opening book: the move of a long search for each position of
    /// the book's lines, either colour the book's.
    Book(BookArgs),
}

#[derive(Debug, clap::Args)]
struct BookArgs {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    size: u32,
    /// Moves from the empty board the book covers.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// The opponent's moves followed from each position (the most
    /// searched, distinct under the symmetries).
    #[arg(long, default_value_t = 8)]
    replies: usize,
    /// Playouts of each book move's search.
    #[arg(long, default_value_t = 100_000)]
    playouts: u64,
    /// Search threads (1 makes the book reproducible).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// What the searches know (`net`, `patterns`).
    #[arg(long, default_value = "net", value_parser = Knowledge::from_name)]
    knowledge: Knowledge,
    /// Where to write the book.
    #[arg(long, default_value = "book.txt")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ShapeArgs {
    /// SGF files or directories of 19x19 game records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where to write the shapes.
    #[arg(long, default_value = "shapes.tgsh")]
    out: PathBuf,
    /// Training games to use (drawn by a fixed hash of each game).
    #[arg(long, default_value_t = 100_000)]
    games: usize,
    /// Test games to measure the shapes on afterwards (0: none).
    #[arg(long, default_value_t = 500)]
    test_games: usize,
    /// Rounds of updates.
    #[arg(long, default_value_t = 8)]
    rounds: usize,
}

#[derive(Debug, clap::Args)]
struct NetArgs {
    /// SGF files or directories of 19x19 game records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where to write the network's weights (safetensors) at the end (the
    /// checkpoint holds them too, as `policy.safetensors`).
    #[arg(long, default_value = "policy.safetensors")]
    out: PathBuf,
    /// The run's checkpoint: resumed from when it is there.
    #[arg(long, default_value = "policy-checkpoint")]
    checkpoint: PathBuf,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Filters per layer (a new run only).
    #[arg(long, default_value_t = Shape::SHIPPED.channels)]
    channels: usize,
    /// Layers of convolution (a new run only).
    #[arg(long, default_value_t = Shape::SHIPPED.layers)]
    layers: usize,
    /// Training games to use (drawn by a fixed hash of each game).
    #[arg(long, default_value_t = 100_000)]
    games: usize,
    /// Test games the test positions are drawn from.
    #[arg(long, default_value_t = 300)]
    test_games: usize,
}

/// The settings of a run that `train net` and `train value` share, read
/// into the trainers' one [`Schedule`]; the defaults are the library's.
#[derive(Debug, clap::Args)]
struct ScheduleArgs {
    /// Train until this many steps are done in all (default: 10,000 for
    /// the policy network, 20,000 for the value network).
    #[arg(long)]
    steps: Option<u64>,
    /// Positions per step.
    #[arg(long, default_value_t = Schedule::default().batch)]
    batch: usize,
    /// Adam's step size (lower it to resume more finely).
    #[arg(long, default_value_t = Schedule::default().learning_rate)]
    learning_rate: f64,
    /// Steps between checkpoints (and measures).
    #[arg(long, default_value_t = Schedule::default().checkpoint_every)]
    checkpoint_every: u64,
    /// Test positions measured at each checkpoint (the value network's
    /// also as many of the training games).
    #[arg(long, default_value_t = Schedule::default().test_positions)]
    test_positions: usize,
    /// Fixes the positions, their order and the first weights (a new run
    /// only).
    #[arg(long, default_value_t = Schedule::default().seed)]
    seed: u64,
    /// Start a new run from these weights (safetensors) instead of random ones.
    #[arg(long)]
    from: Option<PathBuf>,
}

impl ScheduleArgs {
    /// The schedule these settings give, `steps` unless `--steps` says
    /// otherwise (each trainer's own default).
    fn schedule(&self, steps: u64) -> Schedule {
        Schedule {
            batch: self.batch,
            learning_rate: self.learning_rate,
            steps: self.steps.unwrap_or(steps),
            checkpoint_every: self.checkpoint_every,
            test_positions: self.test_positions,
            seed: self.seed,
            from: self.from.clone(),
        }
    }
}

#[derive(Debug, clap::Args)]
struct ValueArgs {
    /// SGF files or directories of game records (19x19 is what the shipped
    /// network learned).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where to write the network's weights (safetensors) at the end (the
    /// checkpoint holds them too, as `value.safetensors`).
    #[arg(long, default_value = "value.safetensors")]
    out: PathBuf,
    /// The run's checkpoint: resumed from when it is there.
    #[arg(long, default_value = "value-checkpoint")]
    checkpoint: PathBuf,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Filters per layer (a new run only).
    #[arg(long, default_value_t = ValueShape::SHIPPED.channels)]
    channels: usize,
    /// Layers of convolution (a new run only).
    #[arg(long, default_value_t = ValueShape::SHIPPED.layers)]
    layers: usize,
    /// Positions of each game per pass over the games.
    #[arg(long, default_value_t = ValueConfig::default().per_game)]
    per_game: usize,
    /// Training games to use (drawn by a fixed hash of each game).
    #[arg(long, default_value_t = 100_000)]
    games: usize,
    /// Test games the measured test positions are drawn from.
    #[arg(long, default_value_t = 1000)]
    test_games: usize,
    /// Playouts of the dead-stone estimate of each counted game's end.
    #[arg(long, default_value_t = 400)]
    count_playouts: u64,
    /// Write the judged games to this file for a trainer on an accelerator
    /// (`crates/tengen-train/accelerator/value.py`) instead of training.
    #[arg(long)]
    export: Option<PathBuf>,
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

/// Up to `games` training games and `test_games` test games of `records`,
/// told on standard error.
fn split(records: &[Record], games: usize, test_games: usize) -> (Vec<&Record>, Vec<&Record>) {
    let train = pick(records, Some(Split::Train), Some(games));
    let test = pick(records, Some(Split::Test), Some(test_games));
    eprintln!(
        "{} games read, {} for training, {} for testing",
        records.len(),
        train.len(),
        test.len()
    );
    (train, test)
}

/// Writes a trained model to `path`.
fn write_out(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes a trained network's weights and tells how far its run has gone.
fn write_weights(path: &Path, weights: &[u8], steps: u64, start: Instant) -> Result<ExitCode> {
    write_out(path, weights)?;
    eprintln!(
        "{}: {steps} steps, {:.0} s",
        path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: &Args) -> Result<ExitCode> {
    match &args.model {
        Model::Patterns(a) => patterns(a),
        Model::Net(a) => net(a),
        Model::Value(a) => value(a),
        Model::Shapes(a) => shapes(a),
        Model::Book(a) => book(a),
    }
}

fn book(args: &BookArgs) -> Result<ExitCode> {
    let size = tengen_core::BoardSize::square(args.size)
        .map_err(|e| anyhow::anyhow!("--size {}: {e}", args.size))?;
    if args.knowledge == Knowledge::None {
        anyhow::bail!("--knowledge none: the book is for the learned knowledge");
    }
    let start = Instant::now();
    let growth = Growth {
        size,
        plies: args.plies,
        replies: args.replies,
        playouts: args.playouts,
        threads: args.threads,
        seed: 1,
        knowledge: args.knowledge,
    };
    let book = grow(&growth, |game, reply| {
        let moves: Vec<String> = game
            .turns()
            .iter()
            .map(|t| tengen_gtp::args::move_text(t.mv, size))
            .collect();
        let reply = reply.map_or("none".to_string(), |p| {
            tengen_gtp::args::move_text(tengen_core::Move::Play(p), size)
        });
        eprintln!(
            "{:>5.0} s  [{}] -> {reply}",
            start.elapsed().as_secs_f64(),
            moves.join(" ")
        );
    });
    write_out(&args.out, book.to_text().as_bytes())?;
    eprintln!("{}: {} positions", args.out.display(), book.len());
    Ok(ExitCode::SUCCESS)
}

fn shapes(args: &ShapeArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let records = read_records(&sgf_files(&args.paths)?)?;
    let (train, test) = split(&records, args.games, args.test_games);
    let model = fit_shapes(&train, args.rounds, &|r| {
        eprintln!(
            "round {}: mean log-likelihood {:.4}",
            r.round, r.log_likelihood
        );
    });
    write_out(&args.out, &model.to_bytes())?;
    eprintln!(
        "{}: tenuki {:.3}, {:.0} s",
        args.out.display(),
        model.tenuki(),
        start.elapsed().as_secs_f64()
    );
    if !test.is_empty() {
        let even = ShapeModel::new([], 1.0);
        println!(
            "local answers of {} test games: mean log-likelihood {:.4} (even shapes {:.4})",
            test.len(),
            shape_log_likelihood(&test, &model),
            shape_log_likelihood(&test, &even)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn net(args: &NetArgs) -> Result<ExitCode> {
    let records = read_records(&sgf_files(&args.paths)?)?;
    let (train_games, test_games) = split(&records, args.games, args.test_games);
    let config = TrainConfig {
        shape: Shape {
            channels: args.channels,
            layers: args.layers,
        },
        schedule: args
            .schedule
            .schedule(TrainConfig::default().schedule.steps),
    };
    let bar = progress::bar(config.schedule.steps, "steps");
    let start = Instant::now();
    let out = &args.out;
    let trainer = train(
        &train_games,
        &test_games,
        &config,
        &args.checkpoint,
        &|event| match event {
            TrainEvent::Step { step, loss } => {
                bar.set_position(step);
                bar.set_message(format!("loss {loss:.3}"));
            }
            TrainEvent::Tested {
                step,
                top1,
                log_likelihood,
            } => bar.suspend(|| {
                eprintln!(
                    "step {step}: test top-1 {:.2}%, log-likelihood {log_likelihood:.3} ({:.0} s)",
                    100.0 * top1,
                    start.elapsed().as_secs_f64()
                );
            }),
            TrainEvent::Saved { .. } => {}
        },
    )?;
    bar.finish_and_clear();
    write_weights(out, &trainer.net().to_bytes()?, trainer.step(), start)
}

/// The games of `games` with a winner, and their ends, told on standard
/// error (how many were counted, where their komi came from).
pub fn judged<'a>(games: &[&'a Record], playouts: u64) -> Vec<(&'a Record, Ending)> {
    let bar = progress::bar(games.len() as u64, "game ends");
    let ends = endings(games, playouts, &|| bar.inc(1));
    bar.finish_and_clear();
    let mut out = Vec::new();
    let (mut counted, mut estimated, mut found, mut usual) = (0, 0, 0, None);
    for (record, end) in games.iter().zip(ends) {
        let Some((ending, komi)) = end else {
            continue;
        };
        counted += usize::from(ending.counted.is_some());
        estimated += usize::from(ending.estimated.is_some());
        match komi {
            Komi::Counted => found += 1,
            Komi::Usual => usual = Some(ending.komi),
            Komi::Recorded => {}
        }
        out.push((*record, ending));
    }
    eprintln!(
        "{} of {} games with a winner, {counted} counted as recorded, {estimated} others estimated by the playouts for their winner, {found} komi found by the count{}",
        out.len(),
        games.len(),
        usual.map_or(String::new(), |k| format!(
            ", komi {k} taken for the others recorded with KM[0]"
        ))
    );
    out
}

/// The games of `ends` as the trainer takes them.
fn as_judged<'a>(ends: &'a [(&'a Record, Ending)]) -> Vec<Judged<'a>> {
    ends.iter()
        .map(|(record, ending)| Judged { record, ending })
        .collect()
}

fn value(args: &ValueArgs) -> Result<ExitCode> {
    let records = read_records(&sgf_files(&args.paths)?)?;
    let (train_games, test_games) = split(&records, args.games, args.test_games);
    let train_ends = judged(&train_games, args.count_playouts);
    let test_ends = judged(&test_games, args.count_playouts);
    let (train_set, test_set) = (as_judged(&train_ends), as_judged(&test_ends));
    if let Some(path) = &args.export {
        return export(path, &train_set, &test_set, args.schedule.seed);
    }
    let config = ValueConfig {
        shape: ValueShape {
            channels: args.channels,
            layers: args.layers,
        },
        schedule: args
            .schedule
            .schedule(ValueConfig::default().schedule.steps),
        per_game: args.per_game,
    };
    let bar = progress::bar(config.schedule.steps, "steps");
    let start = Instant::now();
    let first_step = std::cell::Cell::new(None::<u64>);
    let trainer = train_value(&train_set, &test_set, &config, &args.checkpoint, &|event| {
        match event {
            ValueEvent::Step { step, loss } => {
                let from = *first_step.get().get_or_insert(step);
                bar.set_position(step);
                let rate = (step - from + 1) as f64 * config.schedule.batch as f64
                    / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("loss {loss:.3}, {rate:.0} positions/s"));
            }
            ValueEvent::Measured { step, train, test } => bar.suspend(|| {
                let line = |m: &Measures| {
                    format!(
                        "win loss {:.4}, winner favoured {:.1}%, ownership error {:.4}, margin error {:.2} ({} positions, {} counted)",
                        m.win_loss,
                        100.0 * m.favoured,
                        m.owner_error,
                        m.margin_error,
                        m.positions,
                        m.counted
                    )
                };
                eprintln!(
                    "step {step} ({:.0} s)\n  train: {}\n  test:  {}",
                    start.elapsed().as_secs_f64(),
                    line(&train),
                    line(&test)
                );
            }),
            ValueEvent::Saved { .. } => {}
        }
    })?;
    bar.finish_and_clear();
    write_weights(&args.out, &trainer.net().to_bytes()?, trainer.step(), start)
}

/// Writes the judged games for an accelerator's trainer, with 2,000
/// positions as tengen reads them for it to check its replay against.
fn export(path: &Path, train: &[Judged], test: &[Judged], seed: u64) -> Result<ExitCode> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let games = tengen_train::export::write_games(train, test, 2000, seed, &mut out)
        .and_then(|n| std::io::Write::flush(&mut out).map(|()| n))
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("{}: {games} games", path.display());
    Ok(ExitCode::SUCCESS)
}

fn patterns(args: &PatternArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let records = read_records(&sgf_files(&args.paths)?)?;
    let (train, test) = split(&records, args.games, args.test_games);
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
    write_out(&args.out, &model.to_bytes())?;
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
