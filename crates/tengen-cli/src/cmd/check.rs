//! `tengen check PATH...`: replays every game of every file, all variations,
//! under its own rules, on all cores. An entry that cannot be read is a
//! problem of its own, and the walk goes on.

use super::{exit, input, progress};
use anyhow::Result;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tengen_core::Rules;
use tengen_sgf::record::{self, ReplayMode, ReplayOptions, Severity};
use tengen_sgf::{ParseOptions, parse, walk_sgf_files};

/// Arguments of `tengen check`.
#[derive(Debug, clap::Args)]
#[command(after_help = exit::HELP)]
pub struct Args {
    /// Files or directories (searched recursively for `.sgf`), `-` for
    /// standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Replay under these rules instead of each record's `RU`.
    #[arg(long)]
    rules: Option<Rules>,
    /// Play moves the rules forbid anyway and report each one (records
    /// played under other rules), instead of stopping at the first.
    #[arg(long)]
    tolerant: bool,
    /// Also report notes (komi read differently, unknown rules names...).
    #[arg(long)]
    notes: bool,
    /// One JSON object per problem instead of text lines.
    #[arg(long)]
    json: bool,
}

/// One line of the report.
struct Problem {
    file: String,
    game: usize,
    move_number: usize,
    severity: Severity,
    message: String,
    /// The path could not be read at all.
    unread: bool,
}

/// What one file gave.
#[derive(Default)]
struct FileReport {
    games: usize,
    moves: usize,
    problems: Vec<Problem>,
}

/// A path that could not be read.
fn unread(path: &Path, why: impl std::fmt::Display) -> Problem {
    Problem {
        file: path.display().to_string(),
        game: 0,
        move_number: 0,
        severity: Severity::Error,
        message: format!("cannot read: {why}"),
        unread: true,
    }
}

fn check_file(path: &Path, options: &ReplayOptions, notes: bool) -> FileReport {
    let file = path.display().to_string();
    let mut report = FileReport::default();
    let problem = |game, move_number, severity, message| Problem {
        file: file.clone(),
        game,
        move_number,
        severity,
        message,
        unread: false,
    };
    let bytes = match input::read(path) {
        Ok(b) => b,
        Err(e) => {
            report.problems.push(unread(path, e));
            return report;
        }
    };
    let parsed = match parse(&bytes, &ParseOptions::lenient()) {
        Ok(p) => p,
        Err(e) => {
            let message = match link_target(&bytes) {
                Some(target) => format!(
                    "not an SGF file: it holds only the path {target} (a symbolic link saved as a file)"
                ),
                None => format!("not a readable SGF file: {e}"),
            };
            report
                .problems
                .push(problem(0, 0, Severity::Error, message));
            return report;
        }
    };
    if notes {
        for w in &parsed.warnings {
            // A warning names its location itself.
            report
                .problems
                .push(problem(0, 0, Severity::Note, w.to_string()));
        }
    }
    if let Some(junk) = parsed.not_sgf() {
        report
            .problems
            .push(problem(0, 0, Severity::Error, junk.to_string()));
        return report;
    }
    for (i, tree) in parsed.collection.trees.iter().enumerate() {
        let game = i + 1;
        report.games += 1;
        match record::replay_all(tree, options) {
            Ok((_, findings, moves)) => {
                report.moves += moves;
                for f in findings {
                    if f.severity > Severity::Note || notes {
                        report
                            .problems
                            .push(problem(game, f.move_number, f.severity, f.message));
                    }
                }
            }
            Err(f) => report
                .problems
                .push(problem(game, 0, Severity::Error, f.message)),
        }
    }
    report
}

/// The path a file holds when it is a symbolic link that a copy saved as a
/// regular file: one short line naming an `.sgf` file.
fn link_target(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?.trim();
    (text.len() < 256
        && !text.contains(['\n', '(', ';'])
        && text.to_ascii_lowercase().ends_with(".sgf"))
    .then_some(text)
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let start = Instant::now();
    let (stdin, paths): (Vec<PathBuf>, Vec<PathBuf>) =
        args.paths.iter().cloned().partition(|p| input::is_stdin(p));
    let walk = walk_sgf_files(&paths);
    let mut files = walk.files;
    files.extend(stdin.into_iter().take(1));
    let options = ReplayOptions {
        mode: if args.tolerant {
            ReplayMode::Tolerant
        } else {
            ReplayMode::Strict
        },
        rules: args.rules,
        komi: None,
    };
    let bar = progress::bar(files.len() as u64, "files");
    let reports: Vec<FileReport> = files
        .par_iter()
        .map(|f| {
            let r = check_file(f, &options, args.notes);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let walked = FileReport {
        problems: walk
            .problems
            .iter()
            .map(|(p, why)| unread(p, why))
            .collect(),
        ..FileReport::default()
    };
    let mut out = std::io::stdout().lock();
    let (mut games, mut moves, mut errors, mut unreadable) = (0, 0, 0, 0);
    for r in std::iter::once(&walked).chain(&reports) {
        games += r.games;
        moves += r.moves;
        for p in &r.problems {
            if p.severity > Severity::Note {
                errors += 1;
            }
            if p.unread {
                unreadable += 1;
            }
            if args.json {
                let obj = serde_json::json!({
                    "file": p.file,
                    "game": p.game,
                    "move": p.move_number,
                    "severity": match p.severity {
                        Severity::Note => "note",
                        Severity::Deviation => "deviation",
                        Severity::Error => "error",
                    },
                    "message": p.message,
                });
                writeln!(out, "{obj}")?;
            } else {
                writeln!(
                    out,
                    "{}:{}:{}: {}",
                    p.file, p.game, p.move_number, p.message
                )?;
            }
        }
    }
    let summary = format!(
        "files={} games={games} moves={moves} errors={errors} seconds={:.2}",
        files.len() + walked.problems.len(),
        start.elapsed().as_secs_f64()
    );
    if args.json {
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}")?;
    }
    Ok(if unreadable > 0 {
        exit::failed()
    } else if errors > 0 {
        exit::errors_found()
    } else {
        ExitCode::SUCCESS
    })
}
