//! `tengen analysis`: KataGo's JSON analysis engine on stdin and stdout,
//! started as KataGo is (`analysis -model M -config C -override-config
//! K=V,...`), so that KaTrain and scripts written for KataGo run it
//! unchanged. The configuration file is KataGo's: the settings tengen has
//! are read from it, the others are named once on stderr.

use super::gtp::{SearchOptions, clock_seed};
use anyhow::{Context, Result, bail};
use std::ffi::OsString;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tengen_engine::json_analysis::{JsonConfig, serve_json};
use tengen_gtp::json_analysis::Perspective;
use tengen_mcts::SearchConfig;

/// Arguments of `tengen analysis`. KataGo's one-dash spellings
/// (`-model`, `-config`...) are read as the two-dash ones.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A KataGo analysis configuration file (`key = value` lines): its
    /// `numAnalysisThreads`, `numSearchThreads`, `maxVisits`, `maxTime`,
    /// `maxPlayouts` and `reportAnalysisWinratesAs` are used.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Settings over the file's, `key=value` separated by commas
    /// (repeatable).
    #[arg(long = "override-config")]
    override_config: Vec<String>,
    /// A KataGo network: accepted so that KataGo's command line runs, not
    /// read (tengen judges with its own knowledge).
    #[arg(long)]
    model: Option<PathBuf>,
    /// KataGo's human-like network: accepted, not read.
    #[arg(long = "human-model")]
    human_model: Option<PathBuf>,
    /// Positions analysed at once (overrides `numAnalysisThreads`).
    #[arg(long = "analysis-threads")]
    analysis_threads: Option<usize>,
    /// At the end of the input, stop at once instead of answering the
    /// queries still queued.
    #[arg(long = "quit-without-waiting")]
    quit_without_waiting: bool,
    #[command(flatten)]
    search: SearchOptions,
    /// Seed of the searches (default: drawn from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

/// KataGo's one-dash options, as `tengen analysis` also takes them.
const KATAGO_OPTIONS: [&str; 6] = [
    "-model",
    "-config",
    "-override-config",
    "-human-model",
    "-analysis-threads",
    "-quit-without-waiting",
];

/// The command line with KataGo's one-dash options of the `analysis`
/// subcommand written with two dashes, for clap; anything else as it was.
pub fn katago_style(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let args: Vec<OsString> = args.into_iter().collect();
    let is_analysis = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .is_some_and(|a| a == "analysis");
    if !is_analysis {
        return args;
    }
    args.into_iter()
        .map(|a| match a.to_str() {
            Some(s) if KATAGO_OPTIONS.contains(&s) => OsString::from(format!("-{s}")),
            _ => a,
        })
        .collect()
}

/// The settings of a KataGo configuration text: `key = value` lines, `#`
/// comments.
fn settings(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The engine's configuration from KataGo's settings; those tengen does
/// not have are returned, to be named.
fn configure(
    config: &mut JsonConfig,
    settings: &[(String, String)],
    source: &str,
) -> Result<Vec<String>> {
    let mut unused = Vec::new();
    for (key, value) in settings {
        let number = || -> Result<f64> {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .with_context(|| format!("{source}: {key} = {value:?} is not a positive number"))
        };
        match key.as_str() {
            "numAnalysisThreads" => config.searches = number()? as usize,
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                config.search.threads = number()? as usize;
            }
            "maxVisits" | "maxPlayouts" => config.max_visits = number()? as u64,
            "maxTime" => config.max_time = Some(Duration::from_secs_f64(number()?)),
            "reportAnalysisWinratesAs" => {
                config.perspective = Perspective::from_name(value).with_context(|| {
                    format!("{source}: reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE")
                })?;
            }
            _ => unused.push(key.clone()),
        }
    }
    Ok(unused)
}

/// Reads the configuration file, then the overrides.
fn read_config(args: &Args, config: &mut JsonConfig) -> Result<Vec<String>> {
    let mut unused = Vec::new();
    if let Some(path) = &args.config {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the configuration {}", path.display()))?;
        unused.extend(configure(
            config,
            &settings(&text),
            &path.display().to_string(),
        )?);
    }
    for over in &args.override_config {
        let pairs: Vec<(String, String)> = over
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
                None => bail!("-override-config: {p:?} is not key=value"),
            })
            .collect::<Result<_>>()?;
        unused.extend(configure(config, &pairs, "-override-config")?);
    }
    Ok(unused)
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let defaults = JsonConfig::default();
    let mut config = JsonConfig {
        searches: cores,
        search: args.search.config(SearchConfig {
            seed: args.seed.unwrap_or_else(clock_seed),
            ..defaults.search
        })?,
        quit_without_waiting: args.quit_without_waiting,
        ..defaults
    };
    let unused = read_config(args, &mut config)?;
    if let Some(n) = args.analysis_threads {
        config.searches = n;
    }
    // More threads than cores only slow every answer down: KaTrain's file
    // asks for 12 positions of 8 threads each.
    config.searches = config.searches.clamp(1, cores);
    config.search.threads = config.search.threads.clamp(1, cores);
    let mut err = std::io::stderr().lock();
    for (what, path) in [("model", &args.model), ("human model", &args.human_model)] {
        if let Some(p) = path {
            writeln!(
                err,
                "tengen analysis: the {what} {} is not read: tengen judges with its own knowledge",
                p.display()
            )?;
        }
    }
    if !unused.is_empty() {
        writeln!(
            err,
            "tengen analysis: KataGo settings tengen does not have, left alone: {}",
            unused.join(", ")
        )?;
    }
    writeln!(
        err,
        "tengen analysis: {} position(s) at once, {} thread(s) each, {} visits by default; Started, waiting for queries",
        config.searches, config.search.threads, config.max_visits
    )?;
    drop(err);
    let mut out = std::io::stdout();
    serve_json(&config, BufReader::new(std::io::stdin()), &mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn katago_options_take_two_dashes_in_analysis_only() {
        let line = |s: &str| -> Vec<OsString> { s.split(' ').map(OsString::from).collect() };
        assert_eq!(
            katago_style(line(
                "tengen analysis -model m.bin.gz -config a.cfg -override-config homeDataDir=x"
            )),
            line("tengen analysis --model m.bin.gz --config a.cfg --override-config homeDataDir=x")
        );
        assert_eq!(
            katago_style(line("tengen gtp -model x")),
            line("tengen gtp -model x")
        );
    }

    #[test]
    fn katrains_configuration_reads() {
        let text = "# KaTrain\nreportAnalysisWinratesAs = BLACK\nmaxVisits = 500 # visits\nnumAnalysisThreads = 12\nnumSearchThreads = 8\nnnMaxBatchSize = 96\n";
        let mut config = JsonConfig::default();
        let unused = configure(&mut config, &settings(text), "a.cfg").unwrap();
        assert_eq!(unused, ["nnMaxBatchSize"]);
        assert_eq!(
            (config.searches, config.search.threads, config.max_visits),
            (12, 8, 500)
        );
        let bad = configure(
            &mut config,
            &[("maxVisits".to_string(), "many".to_string())],
            "-override-config",
        )
        .unwrap_err();
        assert!(bad.to_string().contains("maxVisits"), "{bad}");
    }
}
