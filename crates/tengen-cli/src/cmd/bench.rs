//! `tengen bench`: speed figures printed in a fixed form.

use anyhow::{Result, bail};
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tengen_core::{Board, BoardSize, Color, Game, Move, Point, Points, Preset};
use tengen_mcts::net::Encoded;
use tengen_mcts::{
    DEFAULT_NETWORK_BATCH, ESTIMATE_PLAYOUTS, Extractor, Knowledge, LightPlayout, Limit, Network,
    PatternModel, PlayoutStats, Position, Request, Rng, Search, SearchConfig, ValueInput,
    ValueSource, random,
};
use tengen_sgf::record::{self, ReplayOptions};

/// Arguments of `tengen bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Light random playouts on one thread, as the classic reference bot
    /// plays them; one line per size:
    /// `size=9 playouts=N playouts_per_s=X mean_moves=Y black_wins=Z komi=7.5`.
    Playouts {
        /// Board size (repeat for several); 9 and 19 when absent.
        #[arg(long = "size")]
        sizes: Vec<u32>,
        /// Seconds per size.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Run exactly this many playouts per size instead of a time budget.
        #[arg(long)]
        playouts: Option<u64>,
        /// Komi for the Black win rate.
        #[arg(long, default_value = "7.5")]
        komi: Points,
        /// Seed of the random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// SGF: parse + strict replay of every game of the files under PATH on
    /// one thread: `files=N games=N moves=N mb_per_s=X games_per_s=Y`.
    Sgf {
        /// A file or directory of SGF files.
        #[arg(default_value = "../shared/data")]
        path: std::path::PathBuf,
    },
    /// Search speed: simulations per second of the Monte-Carlo search from
    /// the empty board, one line per knowledge and thread count:
    /// `size=9 threads=1 knowledge=patterns value_weight=0 score_weight=0 last_good_reply=false playouts=N playouts_per_s=X`
    /// (`knowledge=net batch=8` with the network), so that the price of the
    /// learned priors is visible.
    Search {
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: u32,
        /// Simulations per run.
        #[arg(long, default_value_t = 20_000)]
        playouts: u64,
        /// Thread counts to measure (repeat for several); 1 and 2 when absent.
        #[arg(long = "threads")]
        threads: Vec<usize>,
        /// Knowledge to measure (repeat for several); every kind when absent.
        #[arg(long = "knowledge", value_parser = Knowledge::from_name)]
        knowledge: Vec<Knowledge>,
        /// The network's batch below the root (repeat for several; with
        /// `net` only); the search's default when absent.
        #[arg(long = "network-batch")]
        network_batches: Vec<usize>,
        /// The value network's weight (repeat for several); the search's
        /// default when absent.
        #[arg(long = "value-weight", value_parser = super::gtp::weight)]
        value_weights: Vec<f32>,
        /// Simulations through a node before the value network judges it.
        #[arg(long, default_value_t = tengen_mcts::DEFAULT_JUDGE_AT)]
        judge_at: u32,
        /// The score's weight in the descent (repeat for several); the
        /// board's default when absent.
        #[arg(long = "score-weight", value_parser = super::gtp::weight)]
        score_weights: Vec<f32>,
        /// Whether the playouts learn and try the last good replies
        /// (repeat for both); off when absent.
        #[arg(long = "last-good-reply", value_name = "BOOL", action = clap::ArgAction::Append)]
        last_good_reply: Vec<bool>,
    },
    /// The policy network's speed: evaluations per second of the shipped
    /// network on a position of a real opening, one line per thread count
    /// and batch size, the network alone and with the pattern model that
    /// feeds it computed for each position:
    /// `network size=19 threads=1 batch=1 evals_per_s=X with_patterns_per_s=Y`;
    /// then the value network's: `value size=19 threads=1 batch=1 evals_per_s=X`.
    Net {
        /// Board size.
        #[arg(long, default_value_t = 19)]
        size: u32,
        /// Thread counts to measure (repeat for several); 1 and 2 when absent.
        #[arg(long = "threads")]
        threads: Vec<usize>,
        /// Positions per evaluation (repeat for several); 1 and 16 when absent.
        #[arg(long = "batch")]
        batches: Vec<usize>,
        /// Seconds per line.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Value network weights to measure instead of the shipped ones.
        #[arg(long)]
        value: Option<std::path::PathBuf>,
    },
    /// Dead-stone estimate against recorded results: over the finished
    /// games under PATH with a points result under area scoring, estimates
    /// the dead stones of the final position, counts, and reports how often
    /// the winner agrees with `RE` and how often the margin is within one
    /// point.
    Dead {
        /// Files or directories of SGF files.
        #[arg(default_value = "../shared/data")]
        paths: Vec<std::path::PathBuf>,
        /// Playouts of each estimate.
        #[arg(long, default_value_t = ESTIMATE_PLAYOUTS)]
        playouts: u64,
        /// Print each game whose winner or margin disagrees.
        #[arg(long)]
        verbose: bool,
        /// The value network's share of the ownership (19x19).
        #[arg(long, default_value_t = tengen_mcts::ESTIMATE_VALUE_SHARE)]
        value_share: f32,
    },
    /// The review's analysis of a record: every position of its main line
    /// searched as the web board's background analysis does (the
    /// network's knowledge), timed:
    /// `analysis positions=N playouts=P threads=T seconds=S positions_per_s=X`.
    Analysis {
        /// The SGF record (its first game's main line).
        path: std::path::PathBuf,
        /// Simulations per position.
        #[arg(long, default_value_t = tengen_web::Limits::default().analysis_playouts)]
        playouts: u64,
        /// Threads of each position's search.
        #[arg(long, default_value_t = tengen_web::Limits::default().analysis_threads)]
        threads: usize,
    },
    /// Full-rules play: replays long random games through `Game::play` under
    /// each preset (repetition history included); one line per preset.
    Play {
        /// Board size.
        #[arg(long, default_value_t = 19)]
        size: u32,
        /// Games per preset.
        #[arg(long, default_value_t = 20)]
        games: usize,
    },
}

pub fn run(args: &Args) -> Result<ExitCode> {
    match &args.what {
        What::Playouts {
            sizes,
            seconds,
            playouts,
            komi,
            seed,
        } => {
            let sizes = if sizes.is_empty() {
                vec![9, 19]
            } else {
                sizes.clone()
            };
            for n in sizes {
                playouts_line(
                    n,
                    Duration::from_secs_f64(seconds.max(0.0)),
                    *playouts,
                    *komi,
                    *seed,
                )?;
            }
        }
        What::Play { size, games } => play_lines(*size, *games)?,
        What::Net {
            size,
            threads,
            batches,
            seconds,
            value,
        } => {
            let source = super::gtp::read_value(value.as_deref())?;
            let or =
                |v: &Vec<usize>, d: [usize; 2]| if v.is_empty() { d.to_vec() } else { v.clone() };
            for t in or(threads, [1, 2]) {
                for b in or(batches, [1, 16]) {
                    net_line(*size, t, b, Duration::from_secs_f64(seconds.max(0.1)))?;
                    value_line(
                        source,
                        *size,
                        t,
                        b,
                        Duration::from_secs_f64(seconds.max(0.1)),
                    )?;
                }
            }
        }
        What::Search {
            size,
            playouts,
            threads,
            knowledge,
            network_batches,
            value_weights,
            judge_at,
            score_weights,
            last_good_reply,
        } => {
            let replies: &[bool] = if last_good_reply.is_empty() {
                &[false]
            } else {
                last_good_reply
            };
            let value_weights = if value_weights.is_empty() {
                vec![tengen_mcts::DEFAULT_VALUE_WEIGHT]
            } else {
                value_weights.clone()
            };
            let score_weights = if score_weights.is_empty() {
                vec![tengen_mcts::default_score_weight(BoardSize::square(*size)?)]
            } else {
                score_weights.clone()
            };
            // Every value weight with every score weight.
            let weights: Vec<(f32, f32)> = value_weights
                .iter()
                .flat_map(|&v| score_weights.iter().map(move |&s| (v, s)))
                .collect();
            let threads = if threads.is_empty() {
                vec![1, 2]
            } else {
                threads.clone()
            };
            let knowledge = if knowledge.is_empty() {
                // `auto` is one of the others on any board.
                Knowledge::ALL
                    .iter()
                    .map(|&(_, k)| k)
                    .filter(|&k| k != Knowledge::Auto)
                    .collect()
            } else {
                knowledge.clone()
            };
            let batches = if network_batches.is_empty() {
                vec![DEFAULT_NETWORK_BATCH]
            } else {
                network_batches.clone()
            };
            for k in knowledge {
                let k = k.on(BoardSize::square(*size)?);
                // The batch matters only to the network.
                let batches = if k == Knowledge::Net {
                    &batches[..]
                } else {
                    &batches[..1]
                };
                for &t in &threads {
                    for &b in batches {
                        for &(w, s) in &weights {
                            for &replies in replies {
                                let config = SearchConfig {
                                    threads: t,
                                    knowledge: k,
                                    network_batch: b,
                                    value_weight: w,
                                    judge_at: *judge_at,
                                    score_weight: Some(s),
                                    last_good_reply: replies,
                                    ..SearchConfig::default()
                                };
                                search_line(*size, *playouts, config)?;
                            }
                        }
                    }
                }
            }
        }
        What::Dead {
            paths,
            playouts,
            verbose,
            value_share,
        } => dead_line(paths, *playouts, *value_share, *verbose)?,
        What::Sgf { path } => sgf_line(path)?,
        What::Analysis {
            path,
            playouts,
            threads,
        } => analysis_line(path, *playouts, *threads)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn playouts_line(
    size: u32,
    budget: Duration,
    count: Option<u64>,
    komi: Points,
    seed: u64,
) -> Result<()> {
    let board = Board::new(BoardSize::square(size)?);
    let mut rng = Rng::new(seed);
    let mut runner = LightPlayout::default();
    let mut stats = PlayoutStats::default();
    let start = Instant::now();
    loop {
        // Check the clock every 256 playouts.
        for _ in 0..256 {
            if count.is_some_and(|n| stats.playouts >= n) {
                break;
            }
            let mut b = board.clone();
            let end = runner.run(&mut b, Color::Black, &mut rng);
            stats.add(&end, komi);
        }
        let done = match count {
            Some(n) => stats.playouts >= n,
            None => start.elapsed() >= budget,
        };
        if done {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        std::io::stdout(),
        "size={size} playouts={} playouts_per_s={:.0} mean_moves={:.2} black_wins={:.4} komi={komi}",
        stats.playouts,
        stats.playouts as f64 / secs,
        stats.mean_moves(),
        stats.black_win_rate(),
    )?;
    Ok(())
}

fn play_lines(size: u32, games: usize) -> Result<()> {
    let size = BoardSize::square(size)?;
    let mut out = std::io::stdout();
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut rng = Rng::new(7);
        let records: Vec<_> = (0..games)
            .map(|_| random::random_game(rules, size, 4 * size.num_points(), &mut rng))
            .collect();
        let start = Instant::now();
        let mut moves = 0usize;
        for turns in &records {
            let mut game = Game::new(rules, size);
            for t in turns {
                if let Err(e) = game.play_as(t.color, t.mv) {
                    bail!("replay under {preset} failed: {e}");
                }
            }
            moves += turns.len();
        }
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "rules={} size={size} games={games} moves={moves} mean_moves={:.1} moves_per_s={:.0}",
            preset.name(),
            moves as f64 / games.max(1) as f64,
            moves as f64 / secs,
        )?;
    }
    Ok(())
}

/// Parse + strict replay of every game of the files under `path`, one
/// thread; files are read into memory first so the disk is not measured.
/// Then parsing alone and replay alone, each timed apart, so that each
/// target can be read off.
fn sgf_line(path: &std::path::Path) -> Result<()> {
    let files = tengen_sgf::sgf_files(&[path.to_path_buf()])?;
    let contents: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|f| tengen_sgf::read_file(f, tengen_sgf::MAX_FILE_BYTES).ok())
        .collect();
    let bytes: usize = contents.iter().map(Vec::len).sum();
    let options = ReplayOptions::default();
    let lenient = tengen_sgf::ParseOptions::lenient();
    let start = Instant::now();
    let (mut games, mut moves) = (0usize, 0usize);
    let mut trees = Vec::new();
    for c in &contents {
        let Ok(parsed) = tengen_sgf::parse(c, &lenient) else {
            continue;
        };
        for tree in &parsed.collection.trees {
            games += 1;
            if let Ok((_, replay)) = record::replay_main_line(tree, &options) {
                moves += replay.moves;
            }
        }
        trees.extend(parsed.collection.trees);
    }
    let both = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for c in &contents {
        std::hint::black_box(tengen_sgf::parse(c, &lenient).is_ok());
    }
    let parse = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for tree in &trees {
        std::hint::black_box(record::replay_main_line(tree, &options).is_ok());
    }
    let replay = start.elapsed().as_secs_f64();
    writeln!(
        std::io::stdout(),
        "files={} games={games} moves={moves} mb_per_s={:.1} games_per_s={:.0} parse_mb_per_s={:.1} replay_moves_per_s={:.0}",
        contents.len(),
        bytes as f64 / 1e6 / both,
        games as f64 / both,
        bytes as f64 / 1e6 / parse,
        moves as f64 / replay,
    )?;
    Ok(())
}

/// Evaluations per second of the shipped network on `threads` threads,
/// in batches of `batch` positions, alone and with the pattern model.
fn net_line(size: u32, threads: usize, batch: usize, time: Duration) -> Result<()> {
    let Some(network) = Network::shipped() else {
        bail!("the shipped network cannot be read");
    };
    let size = BoardSize::square(size)?;
    // A position of a real opening: the four corners and an approach.
    let mut board = Board::new(size);
    let n = size.width() - 1;
    let stones = [(3, 3), (n - 3, n - 2), (n - 3, 3), (2, n - 3), (5, 2)];
    let mut color = Color::Black;
    let mut recent = Vec::new();
    for (x, y) in stones {
        if let Some(p) = size.point(x.min(n), y.min(n))
            && board.is_legal_simple(p, color)
        {
            board.play_unchecked(p, color);
            recent.insert(0, Some(p));
            color = color.opponent();
        }
    }
    let moves: Vec<Point> = board.simple_legal_moves(color).collect();
    let position = Position::after(&board, color, &recent);
    let model = PatternModel::shipped();
    let mut extractor = Extractor::new(size);
    let batch = batch.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let (alone, with_patterns) = pool.install(|| {
        let mut encode =
            || Encoded::with_patterns(model, &mut extractor, &position, &recent, &moves);
        let encoded = encode();
        let inputs: Vec<&Encoded> = std::iter::repeat_n(&encoded, batch).collect();
        let rate = |f: &mut dyn FnMut() -> usize| {
            f();
            let start = Instant::now();
            let mut done = 0;
            while start.elapsed() < time {
                done += f();
            }
            done as f64 / start.elapsed().as_secs_f64()
        };
        let alone = rate(&mut || network.policy(&inputs).len());
        let with_patterns = rate(&mut || {
            let fresh: Vec<Encoded> = (0..batch).map(|_| encode()).collect();
            network.policy(&fresh.iter().collect::<Vec<_>>()).len()
        });
        (alone, with_patterns)
    });
    writeln!(
        std::io::stdout(),
        "network size={} threads={threads} batch={batch} evals_per_s={alone:.0} with_patterns_per_s={with_patterns:.0}",
        size.width(),
    )?;
    Ok(())
}

/// Judgements per second of a value network (the shipped one unless
/// `--value` names another) on `threads`
/// threads, in batches of `batch` positions of a real opening, input
/// encoding included.
fn value_line(
    source: ValueSource,
    size: u32,
    threads: usize,
    batch: usize,
    time: Duration,
) -> Result<()> {
    let Some(value) = source.network() else {
        bail!("the shipped value network cannot be read");
    };
    let size = BoardSize::square(size)?;
    let mut game = Game::new(Preset::Chinese.rules(), size);
    let n = size.width() - 1;
    for (x, y) in [(3, 3), (n - 3, n - 2), (n - 3, 3), (2, n - 3), (5, 2)] {
        if let Some(p) = size.point(x.min(n), y.min(n)) {
            let _ = game.play(Move::Play(p));
        }
    }
    let batch = batch.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let rate = pool.install(|| {
        let judge = || {
            let inputs: Vec<ValueInput> = (0..batch).map(|_| ValueInput::of_game(&game)).collect();
            value.judge(&inputs.iter().collect::<Vec<_>>()).len()
        };
        judge();
        let start = Instant::now();
        let mut done = 0;
        while start.elapsed() < time {
            done += judge();
        }
        done as f64 / start.elapsed().as_secs_f64()
    });
    writeln!(
        std::io::stdout(),
        "value size={} threads={threads} batch={batch} evals_per_s={rate:.0}",
        size.width(),
    )?;
    Ok(())
}

/// Simulations per second of one search of `playouts` from the empty board.
fn search_line(size: u32, playouts: u64, config: SearchConfig) -> Result<()> {
    let game = Game::new(Preset::Chinese.rules(), BoardSize::square(size)?);
    let SearchConfig {
        threads,
        knowledge,
        network_batch,
        value_weight,
        judge_at,
        score_weight,
        last_good_reply,
        ..
    } = config;
    let mut search = Search::new(config);
    let start = Instant::now();
    let analysis = search.analyze(&game, Request::new(Limit::playouts(playouts)));
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        std::io::stdout(),
        "size={size} threads={threads} knowledge={}{} value_weight={}{} score_weight={} last_good_reply={last_good_reply} playouts={} playouts_per_s={:.0}",
        knowledge.name(),
        if knowledge == Knowledge::Net {
            format!(" batch={network_batch}")
        } else {
            String::new()
        },
        value_weight,
        if value_weight > 0.0 {
            format!(" judge_at={judge_at}")
        } else {
            String::new()
        },
        score_weight.unwrap_or_default(),
        analysis.visits,
        analysis.visits as f64 / secs,
    )?;
    Ok(())
}

/// What one game of the dead-stone benchmark gave.
enum DeadCheck {
    /// Not a finished game with a points result under area scoring.
    Skipped,
    /// A points result that cannot arise under the record's komi in points
    /// or in stones (`KM[0]` with `RE[W+1.25]`): nothing to compare with.
    Inconsistent,
    /// Counted: whether the winner and the margin agree with `RE`.
    Counted {
        winner: bool,
        margin: bool,
        line: String,
    },
}

fn analysis_line(path: &std::path::Path, playouts: u64, threads: usize) -> Result<()> {
    // The moves are ASCII: a record in another charset (Fox's GB2312)
    // loses only its names and comments to the replacement character.
    let bytes = tengen_sgf::read_file(path, tengen_sgf::MAX_FILE_BYTES)?;
    let line = tengen_web::review::main_line(&String::from_utf8_lossy(&bytes))?;
    let start = Instant::now();
    let mut positions = 0usize;
    let mut search = tengen_web::analysis::review_search(threads, 1);
    for (n, game) in line.games() {
        tengen_web::analysis::analyse(&mut search, n, &game, playouts);
        positions += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "analysis positions={positions} playouts={playouts} threads={threads} seconds={seconds:.1} positions_per_s={:.2}",
        positions as f64 / seconds.max(1e-9)
    );
    std::io::stdout().flush()?;
    Ok(())
}

fn dead_line(paths: &[std::path::PathBuf], playouts: u64, share: f32, verbose: bool) -> Result<()> {
    use rayon::prelude::*;
    let files = tengen_sgf::sgf_files(paths)?;
    let checks: Vec<DeadCheck> = files
        .par_iter()
        .map(|f| dead_check(f, playouts, share))
        .collect();
    let (mut games, mut winners, mut margins, mut inconsistent) = (0usize, 0usize, 0usize, 0usize);
    let mut out = std::io::stdout();
    for c in &checks {
        match c {
            DeadCheck::Counted {
                winner,
                margin,
                line,
            } => {
                games += 1;
                winners += usize::from(*winner);
                margins += usize::from(*margin);
                if verbose && !(*winner && *margin) {
                    let what = if *winner { "margin" } else { "winner" };
                    writeln!(out, "{what}: {line}")?;
                }
            }
            DeadCheck::Inconsistent => inconsistent += 1,
            DeadCheck::Skipped => {}
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / games.max(1) as f64;
    writeln!(
        out,
        "files={} games={games} winner_agrees={winners} ({:.1}%) margin_within_1={margins} ({:.1}%) re_impossible_under_km={inconsistent} playouts={playouts} value_share={share}",
        files.len(),
        pct(winners),
        pct(margins),
    )?;
    Ok(())
}

/// Estimates, counts and compares one file's first game.
fn dead_check(file: &std::path::Path, playouts: u64, share: f32) -> DeadCheck {
    use tengen_core::{Outcome, WinBy};
    use tengen_sgf::record::RecordedResult;
    let source = record::Source::File(file);
    let lenient = tengen_sgf::ParseOptions::lenient();
    let Ok(record::Loaded { info, replay, .. }) =
        record::load_main_line(source, &lenient, &ReplayOptions::default())
    else {
        return DeadCheck::Skipped;
    };
    let area = info.rules.scoring.counts_area();
    let Some(result) = info.recorded_result() else {
        return DeadCheck::Skipped;
    };
    let RecordedResult::Outcome(Outcome::Win {
        winner,
        by: WinBy::Score(_),
    }) = result
    else {
        return DeadCheck::Skipped;
    };
    let errors = replay
        .findings
        .iter()
        .any(|f| f.severity == record::Severity::Error);
    if !area || errors {
        return DeadCheck::Skipped;
    }
    let game = &replay.game;
    let Some(recorded_margin) = result.area_margin(game.komi()) else {
        return DeadCheck::Inconsistent;
    };
    let dead = tengen_mcts::estimate_dead_with(game, playouts, super::score::DEAD_SEED, share);
    let score = game.score(&dead);
    let diff = (score.margin - recorded_margin).abs();
    DeadCheck::Counted {
        winner: score.winner() == Some(winner),
        margin: diff <= Points::whole(1),
        line: format!(
            "{}: RE {} counted {} ({} dead)",
            file.display(),
            info.result_text.as_deref().unwrap_or("?"),
            score.outcome().to_sgf(),
            dead.len()
        ),
    }
}
