//! `tengen explain FILE.sgf`: the named moves of a record's main line, one
//! line per move; `--out` writes the record with the sentences as comments;
//! `--stats PATH...` counts how often each term occurs over many records;
//! `--json` gives either as one JSON object;
//! `--judge FILE.tsv` measures the lexicon on a labelled set ([`super::judge`]).

use super::exit;
use super::input::{self, Refused};
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tengen_core::Game;
use tengen_lexicon::{Lang, Named, TERMS, explain_line, name_moves};
use tengen_sgf::record::{RecordInfo, ReplayMode, ReplayOptions, Severity};
use tengen_sgf::sgf_files;
use tengen_sgf::{Collection, GameTree, ParseOptions};

/// Arguments of `tengen explain`.
#[derive(Debug, clap::Args)]
#[command(after_help = exit::HELP)]
pub struct Args {
    /// The SGF file (its first game), `-` for standard input; with
    /// `--stats`, files or directories; with `--judge`, the directory the
    /// labelled set's record paths start from.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The language of the sentences: the code of one of the catalogues of
    /// words.
    #[arg(long, default_value = "en")]
    lang: Lang,
    /// Write the record here with each move's sentences as its comment.
    #[arg(long, conflicts_with = "stats")]
    out: Option<PathBuf>,
    /// Print `term count per-1000-moves` over every game of the paths
    /// (directories searched for `.sgf`), most frequent first.
    #[arg(long)]
    stats: bool,
    /// Print each term's precision on a labelled set of positions (TSV:
    /// record, move, term, right or wrong, reason).
    #[arg(long, conflicts_with_all = ["stats", "out"])]
    judge: Option<PathBuf>,
    /// One JSON object (the game information and each move with its terms
    /// and sentence; with `--stats`, the counts) instead of the text.
    #[arg(long, conflicts_with = "judge")]
    json: bool,
}

/// A record read and replayed: the parsed collection, its main line's game,
/// the number of the game's first turn (1 unless setup stones came after
/// the first moves), and the replay error that stopped it, if any.
pub(super) struct Explained {
    collection: Collection,
    info: RecordInfo,
    pub(super) game: Game,
    pub(super) first_number: usize,
    error: Option<String>,
}

/// Reads the first game of `path` and replays its main line, tolerating
/// moves that the record's rules forbid (records of other rules).
pub(super) fn read(path: &Path) -> Result<Explained, Refused> {
    let shown = path.display();
    let options = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    let loaded = input::load(path, &ParseOptions::lenient(), &options)?;
    let replay = loaded.replay;
    let error = replay
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error)
        .map(|f| format!("{shown}: {}", f.message));
    let first_number = replay.moves.saturating_sub(replay.game.turns().len()) + 1;
    Ok(Explained {
        collection: loaded.collection,
        info: loaded.info,
        game: replay.game,
        first_number,
        error,
    })
}

/// Explains one record, or counts or judges the terms over many.
pub fn run(args: &Args) -> Result<ExitCode> {
    if let Some(tsv) = &args.judge {
        let [data] = args.paths.as_slice() else {
            bail!("--judge takes one directory: the one its records are under");
        };
        return super::judge::run(tsv, data);
    }
    if args.stats {
        return stats(args);
    }
    let [path] = args.paths.as_slice() else {
        bail!("explain takes one SGF file (or --stats with files and directories)");
    };
    let lang = args.lang;
    let explained = match read(path) {
        Ok(e) => e,
        Err(refused) => return Ok(refused.report()),
    };
    let game = &explained.game;
    let names = name_moves(game);
    let lines: Vec<String> = game
        .turns()
        .iter()
        .zip(&names)
        .enumerate()
        .map(|(i, (turn, names))| {
            explain_line(
                explained.first_number + i,
                turn.color,
                turn.mv,
                game.size(),
                names,
                lang,
            )
        })
        .collect();
    // The file first: a reader that stops reading stdout early (`| head`)
    // must not cost the output file.
    if let Some(target) = &args.out {
        let sentences: Vec<String> = lines.iter().map(|l| comment(l)).collect();
        let mut collection = explained.collection;
        if let Some(tree) = collection.trees.first_mut() {
            annotate(tree, explained.first_number, &sentences);
        }
        collection.set_charset_utf8();
        std::fs::write(target, tengen_sgf::write(&collection))
            .with_context(|| format!("cannot write {}", target.display()))?;
    }
    if let Some(message) = &explained.error {
        eprintln!("{message}");
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let moves: Vec<serde_json::Value> = game
            .turns()
            .iter()
            .zip(&names)
            .zip(&lines)
            .enumerate()
            .map(|(i, ((turn, names), line))| {
                let terms: Vec<serde_json::Value> = names
                    .iter()
                    .map(|n| json!({"id": n.id, "sentence": n.say(lang)}))
                    .collect();
                let [_, _, vertex, _, sentence] = fields(line);
                json!({
                    "number": explained.first_number + i,
                    "color": turn.color.letter().to_string(),
                    "vertex": vertex,
                    "terms": terms,
                    "sentence": sentence,
                })
            })
            .collect();
        let info = &explained.info;
        let json = json!({
            "file": path.display().to_string(),
            "lang": lang.code(),
            "game": {
                "size": info.size.to_string(),
                "rules": info.rules.name(),
                "komi": info.komi.to_f64(),
                "handicap": info.handicap,
                "black": info.black,
                "white": info.white,
                "date": info.date,
                "result": info.result_text,
            },
            "moves": moves,
            "error": explained.error,
        });
        writeln!(out, "{json}")?;
    } else {
        for line in &lines {
            writeln!(out, "{line}")?;
        }
    }
    Ok(if explained.error.is_some() {
        exit::errors_found()
    } else {
        ExitCode::SUCCESS
    })
}

/// The fields of an explain line: number, colour, vertex, term ids (or
/// `-`), sentences; `--out` and `--json` take theirs from the line printed.
fn fields(line: &str) -> [&str; 5] {
    let mut parts = line.splitn(5, ' ');
    std::array::from_fn(|_| parts.next().unwrap_or(""))
}

/// The comment for a move: the sentences of its explain line (the node
/// says the colour and vertex already).
fn comment(line: &str) -> String {
    fields(line)[4].to_string()
}

/// Adds each sentence as a comment (after any comment already there) to
/// the move nodes of the main line, the first annotated being move
/// `first_number`.
fn annotate(tree: &mut GameTree, first_number: usize, sentences: &[String]) {
    let moves: Vec<_> = tree
        .main_line()
        .filter(|&id| {
            let node = tree.node(id);
            node.get("B").is_some() || node.get("W").is_some()
        })
        .collect();
    for (id, sentence) in moves
        .into_iter()
        .skip(first_number.saturating_sub(1))
        .zip(sentences)
    {
        let Some(node) = tree.node_mut(id) else {
            continue;
        };
        let text = match node.value("C").map(|v| v.text()) {
            Some(old) if !old.trim().is_empty() => format!("{old}\n\n{sentence}"),
            _ => sentence.clone(),
        };
        // A text value always builds.
        let _ = node.set("C", [text]);
    }
}

/// What one file adds to the counts.
#[derive(Default)]
struct Tally {
    moves: usize,
    counts: BTreeMap<&'static str, usize>,
    failure: Option<String>,
    /// The failure is that the file could not be read.
    unread: bool,
}

fn tally(path: &Path) -> Tally {
    let mut t = Tally::default();
    match read(path) {
        Ok(e) => {
            let names: Vec<Vec<Named>> = name_moves(&e.game);
            t.moves = names.len();
            for n in names.iter().flatten() {
                *t.counts.entry(n.id).or_default() += 1;
            }
            t.failure = e.error;
        }
        Err(Refused::Unread(message)) => {
            t.failure = Some(message);
            t.unread = true;
        }
        Err(Refused::Bad(message)) => t.failure = Some(message),
    }
    t
}

/// `--stats`: every term with its count and rate per 1000 moves.
fn stats(args: &Args) -> Result<ExitCode> {
    let files = sgf_files(&args.paths)?;
    let tallies: Vec<Tally> = files.par_iter().map(|f| tally(f)).collect();
    let mut counts: BTreeMap<&'static str, usize> = TERMS.iter().map(|&t| (t, 0)).collect();
    let (mut moves, mut failures) = (0, 0);
    for t in &tallies {
        moves += t.moves;
        for (id, n) in &t.counts {
            *counts.entry(id).or_default() += n;
        }
        if let Some(f) = &t.failure {
            failures += 1;
            eprintln!("{f}");
        }
    }
    let mut rows: Vec<(&str, usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let rate = |n: usize| {
        if moves == 0 {
            0.0
        } else {
            n as f64 * 1000.0 / moves as f64
        }
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let terms: Vec<serde_json::Value> = rows
            .iter()
            .map(|&(id, n)| json!({"term": id, "count": n, "per_1000_moves": rate(n)}))
            .collect();
        let json = json!({
            "terms": terms,
            "files": files.len(),
            "moves": moves,
            "failures": failures,
        });
        writeln!(out, "{json}")?;
    } else {
        for (id, n) in rows {
            writeln!(out, "{id} {n} {:.2}", rate(n))?;
        }
        writeln!(
            out,
            "files={} moves={moves} failures={failures}",
            files.len()
        )?;
    }
    Ok(if tallies.iter().any(|t| t.unread) {
        exit::failed()
    } else if failures == 0 {
        ExitCode::SUCCESS
    } else {
        exit::errors_found()
    })
}
