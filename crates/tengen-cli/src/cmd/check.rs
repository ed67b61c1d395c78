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
use tengen_sgf::record::{self, Finding, LoadError, ReplayMode, ReplayOptions, Severity};
use tengen_sgf::{GameTree, Location, ParseOptions, Parsed, parse, walk_sgf_files};

/// Arguments of `tengen check`.
#[derive(Debug, clap::Args)]
#[command(after_help = exit::HELP)]
pub struct Args {
    /// Files or directories (searched recursively for `.sgf`), `-` for
    /// standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Replay under these rules instead of each record's `RU` (a preset,
    /// one of its aliases, or a KataGo rule string).
    #[arg(long)]
    rules: Option<Rules>,
    /// Play moves the rules forbid anyway and report each one (records
    /// played under other rules), instead of stopping at the first.
    #[arg(long)]
    tolerant: bool,
    /// Also report notes (komi read differently, unknown rules names...).
    #[arg(long)]
    notes: bool,
    /// One JSON object per problem (with a stable `code`, `line`,
    /// `column` and `property`), then `{"summary": {...}}`, instead of
    /// text lines.
    #[arg(long)]
    json: bool,
}

/// One line of the report.
struct Problem {
    file: String,
    /// The game, from 1; `None` for a problem of the whole file.
    game: Option<usize>,
    /// The move (0 before the first); `None` for a problem of the whole
    /// file.
    move_number: Option<usize>,
    severity: Severity,
    /// What kind of problem, stable across versions and wordings (the
    /// list is in the reference): `file.unreadable`, `sgf.saved-link`,
    /// `sgf.not-sgf`, `sgf.no-game`, the parser's
    /// ([`tengen_sgf::ParseError::code`], [`tengen_sgf::Issue::code`]) and
    /// the replay's ([`tengen_sgf::record::Finding::code`]).
    code: &'static str,
    /// Line and column in the decoded text, where there is a place.
    at: Option<Location>,
    /// The SGF property involved, if any.
    property: Option<String>,
    message: String,
}

/// The code of a path that cannot be read: the one problem that makes the
/// status 2.
const UNREADABLE: &str = "file.unreadable";

/// The property and place of a replay finding of `tree`: the property
/// the finding names, on its node or else on the root (game information),
/// or the node itself.
fn locate(parsed: &Parsed, tree: &GameTree, f: &Finding) -> (Option<String>, Location) {
    let node = tree.node(f.node);
    let root = tree.node(tree.root());
    let property = f
        .property
        .and_then(|ident| node.get(ident).or_else(|| root.get(ident)));
    let span = property.map_or(node.span(), |p| p.span());
    (
        property.map(|p| p.ident().to_string()),
        parsed.location(span.start),
    )
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
        game: None,
        move_number: None,
        severity: Severity::Error,
        code: UNREADABLE,
        at: None,
        property: None,
        message: format!("cannot read: {why}"),
    }
}

fn check_file(path: &Path, options: &ReplayOptions, notes: bool) -> FileReport {
    let mut report = FileReport::default();
    let of_file = |severity, code, at, property: Option<&str>, message| Problem {
        file: path.display().to_string(),
        game: None,
        move_number: None,
        severity,
        code,
        at,
        property: property.map(str::to_string),
        message,
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
            let problem = match link_target(&bytes) {
                Some(target) => of_file(
                    Severity::Error,
                    "sgf.saved-link",
                    None,
                    None,
                    format!(
                        "not an SGF file: it holds only the path {target} (a symbolic link saved as a file)"
                    ),
                ),
                None => of_file(
                    Severity::Error,
                    e.code(),
                    e.location(),
                    e.property(),
                    format!("not a readable SGF file: {e}"),
                ),
            };
            report.problems.push(problem);
            return report;
        }
    };
    if notes {
        for w in &parsed.warnings {
            // A warning names its location itself.
            report.problems.push(of_file(
                Severity::Note,
                w.issue.code(),
                Some(w.location()),
                w.issue.property(),
                w.to_string(),
            ));
        }
    }
    if let Some(junk) = parsed.not_sgf() {
        report.problems.push(of_file(
            Severity::Error,
            "sgf.not-sgf",
            None,
            None,
            junk.to_string(),
        ));
        return report;
    }
    if parsed.collection.trees.is_empty() {
        // What `score` and `explain` refuse, in their words.
        report.problems.push(of_file(
            Severity::Error,
            "sgf.no-game",
            None,
            None,
            LoadError::NoGame.to_string(),
        ));
        return report;
    }
    for (i, tree) in parsed.collection.trees.iter().enumerate() {
        let game = i + 1;
        report.games += 1;
        let findings = match record::replay_all(tree, options) {
            Ok((_, findings, moves)) => {
                report.moves += moves;
                findings
            }
            Err(f) => vec![f],
        };
        for f in findings {
            if f.severity > Severity::Note || notes {
                let (property, at) = locate(&parsed, tree, &f);
                report.problems.push(Problem {
                    file: path.display().to_string(),
                    game: Some(game),
                    move_number: Some(f.move_number),
                    severity: f.severity,
                    code: f.code,
                    at: Some(at),
                    property,
                    message: f.message,
                });
            }
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

/// Checks every file the paths name: the problems and the summary on
/// stdout.
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
    let all: Vec<&FileReport> = std::iter::once(&walked).chain(&reports).collect();
    let problems = all.iter().flat_map(|r| &r.problems);
    let severity = |s: Severity| problems.clone().filter(|p| p.severity == s).count();
    let summary = Summary {
        files: files.len() + walked.problems.len(),
        games: all.iter().map(|r| r.games).sum(),
        moves: all.iter().map(|r| r.moves).sum(),
        problems: problems.clone().count(),
        errors: severity(Severity::Error) + severity(Severity::Deviation),
        deviations: severity(Severity::Deviation),
        notes: severity(Severity::Note),
        unreadable: problems.clone().filter(|p| p.code == UNREADABLE).count(),
        seconds: start.elapsed().as_secs_f64(),
    };
    let mut out = std::io::stdout().lock();
    for p in problems {
        if args.json {
            writeln!(out, "{}", p.json())?;
        } else {
            writeln!(
                out,
                "{}:{}:{}: {}",
                p.file,
                p.game.unwrap_or(0),
                p.move_number.unwrap_or(0),
                p.message
            )?;
        }
    }
    if args.json {
        writeln!(out, "{}", serde_json::json!({ "summary": summary.json() }))?;
    } else {
        writeln!(
            out,
            "files={} games={} moves={} errors={} seconds={:.2}",
            summary.files, summary.games, summary.moves, summary.errors, summary.seconds
        )?;
    }
    Ok(if summary.unreadable > 0 {
        exit::failed()
    } else if summary.errors > 0 {
        exit::errors_found()
    } else {
        ExitCode::SUCCESS
    })
}

/// What the whole check found: the last line of the report.
struct Summary {
    /// Files read, and entries that could not be.
    files: usize,
    games: usize,
    moves: usize,
    /// Problems reported (notes only with `--notes`).
    problems: usize,
    /// Problems of severity error or deviation.
    errors: usize,
    /// Of those, moves played anyway (`--tolerant`).
    deviations: usize,
    notes: usize,
    /// Paths that could not be read.
    unreadable: usize,
    seconds: f64,
}

impl Summary {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "files": self.files,
            "games": self.games,
            "moves": self.moves,
            "problems": self.problems,
            "errors": self.errors,
            "deviations": self.deviations,
            "notes": self.notes,
            "unreadable": self.unreadable,
            "seconds": (self.seconds * 100.0).round() / 100.0,
        })
    }
}

impl Problem {
    /// The `--json` object of the problem.
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "game": self.game,
            "move": self.move_number,
            "severity": match self.severity {
                Severity::Note => "note",
                Severity::Deviation => "deviation",
                Severity::Error => "error",
            },
            "code": self.code,
            "line": self.at.map(|a| a.line),
            "column": self.at.map(|a| a.column),
            "property": self.property,
            "message": self.message,
        })
    }
}
