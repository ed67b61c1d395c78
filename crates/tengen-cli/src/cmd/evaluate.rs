//! `tengen evaluate PATH...`: how well tengen judges real games. For every
//! position of every record with a winner, Black's win chance and score
//! lead from the value network alone (and from the search, with
//! `--playouts`); then how often each favours the eventual winner at a
//! quarter, half, three quarters of the game and at its final position,
//! and the mean error of the final score lead on records won on points.

use super::gtp::read_value;
use super::predict::{SplitArg, read_records};
use super::progress;
use super::train::judged;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tengen_mcts::{DEFAULT_VALUE_WEIGHT, Knowledge, SearchConfig};
use tengen_sgf::sgf_files;
use tengen_train::judge::{
    CHECKPOINTS, JudgeConfig, Judged, RecordJudged, Tally, Verdict, judge_record,
};
use tengen_train::{map_on_threads, pick};

/// Arguments of `tengen evaluate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// SGF files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Playouts of the search at each position searched (0: the network
    /// alone).
    #[arg(long, default_value_t = 0)]
    playouts: u64,
    /// Search every position, not only those of the summary (1/4, 1/2, 3/4
    /// and the final position).
    #[arg(long)]
    every: bool,
    /// What the search knows.
    #[arg(long, default_value = "auto", value_parser = Knowledge::from_name)]
    knowledge: Knowledge,
    /// The weight of the value network's judgement in the search.
    #[arg(long, default_value_t = DEFAULT_VALUE_WEIGHT)]
    value_weight: f32,
    /// Value network weights to judge with instead of the shipped ones
    /// (the network's column, and the search's at a weight above 0).
    #[arg(long)]
    value: Option<PathBuf>,
    /// Only the games of one part of the learning split (`test`: the games
    /// training never sees).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    split: SplitArg,
    /// At most this many games (drawn by a fixed hash of each game).
    #[arg(long)]
    games: Option<usize>,
    /// Playouts of the dead-stone estimate that finds the komi of a
    /// counted record written with `KM[0]`.
    #[arg(long, default_value_t = 400)]
    count_playouts: u64,
    /// One JSON object per position, then the summary as one object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let source = read_value(args.value.as_deref())?;
    let value = source
        .network()
        .context("the shipped value network cannot be read")?;
    let records = read_records(&sgf_files(&args.paths)?)?;
    let games = pick(&records, args.split.part(), args.games);
    let ends = judged(&games, args.count_playouts);
    let search = SearchConfig {
        threads: 1,
        resign_below: None,
        knowledge: args.knowledge,
        book: false,
        value_weight: args.value_weight,
        value: source,
        ..SearchConfig::default()
    };
    let config = JudgeConfig {
        value: Some(value),
        playouts: args.playouts,
        search: &search,
        search_every: args.every,
    };
    let bar = progress::bar(ends.len() as u64, "games");
    let judged: Vec<RecordJudged> = map_on_threads(
        &ends,
        || (),
        |(), (record, ending)| {
            let j = judge_record(record, ending, &config);
            bar.inc(1);
            j
        },
    );
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    let (mut net, mut searched) = (Tally::default(), Tally::default());
    for ((record, _), j) in ends.iter().zip(&judged) {
        net.add(j, |p| p.net);
        searched.add(j, |p| p.search);
        if args.json {
            for p in &j.positions {
                writeln!(out, "{}", position_json(record, p))?;
            }
        }
    }
    let judges: Vec<(&str, &Tally)> = std::iter::once(("network", &net))
        .chain((args.playouts > 0).then_some(("search", &searched)))
        .collect();
    if args.json {
        let summary: serde_json::Map<String, serde_json::Value> = judges
            .iter()
            .map(|(name, t)| ((*name).to_string(), tally_json(t)))
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "games": judged.len(), "summary": summary })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} games; winner favoured at each point of the game, mean error of the final lead",
        judged.len()
    )?;
    write!(out, "{:<8}", "judge")?;
    for (name, _) in CHECKPOINTS {
        write!(out, " {name:>7}")?;
    }
    writeln!(out, " {:>11}", "lead error")?;
    for (name, t) in judges {
        write!(out, "{name:<8}")?;
        for k in 0..CHECKPOINTS.len() {
            write!(out, " {:>6.1}%", 100.0 * t.share(k))?;
        }
        writeln!(
            out,
            " {:>7.2} pts (of {} counted)",
            t.mean_lead_error(),
            t.lead_error.0
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn verdict_json(v: Option<Verdict>) -> serde_json::Value {
    v.map_or(serde_json::Value::Null, |v| {
        serde_json::json!({
            "black_wins": v.black_wins,
            "black_lead": v.black_lead,
            "spread": v.spread,
        })
    })
}

fn position_json(record: &tengen_train::Record, p: &Judged) -> serde_json::Value {
    serde_json::json!({
        "file": record.path.display().to_string(),
        "game": record.game,
        "turn": p.turn,
        "to_move": p.to_move.name(),
        "network": verdict_json(p.net),
        "search": verdict_json(p.search),
    })
}

fn tally_json(t: &Tally) -> serde_json::Value {
    let favoured: serde_json::Map<String, serde_json::Value> = CHECKPOINTS
        .iter()
        .enumerate()
        .map(|(k, (name, _))| {
            (
                (*name).to_string(),
                serde_json::json!({ "games": t.favoured[k].0, "share": t.share(k) }),
            )
        })
        .collect();
    serde_json::json!({
        "favoured": favoured,
        "lead_error": { "games": t.lead_error.0, "mean": t.mean_lead_error() },
    })
}
