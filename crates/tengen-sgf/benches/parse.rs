//! Parse speed on the shared corpus: tengen-sgf against the `sgf-parse`
//! crate (4.x), on one thread, files read into memory first.
//!
//! Only files that sgf-parse accepts are timed, for both. tengen-sgf gets
//! the raw bytes and does its charset detection and decoding inside the
//! timing; sgf-parse gets text already decoded (lossy UTF-8), so the
//! comparison leans in sgf-parse's favour. Both results are dropped inside
//! the timing. After criterion's figures, one line per parser gives MB/s
//! (10^6 bytes of input per second) and one line the ratio.
//!
//! The corpus is `$TENGEN_SGF_CORPUS`, `shared/data` in the repository or
//! `../shared/data` beside it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{corpus_root, sgf_files};
use criterion::{Criterion, Throughput};
use tengen_sgf::{ParseOptions, parse};

struct File {
    bytes: Vec<u8>,
    text: String,
}

fn corpus() -> Vec<File> {
    let Some(root) = corpus_root() else {
        eprintln!("no corpus found (set TENGEN_SGF_CORPUS)");
        return Vec::new();
    };
    let paths = sgf_files(&root);
    let total = paths.len();
    let opts = ParseOptions::lenient();
    let files: Vec<File> = paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|bytes| File {
            text: String::from_utf8_lossy(&bytes).into_owned(),
            bytes,
        })
        .filter(|f| sgf_parse::parse(&f.text).is_ok() && parse(&f.bytes, &opts).is_ok())
        .collect();
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    eprintln!(
        "corpus: {} of {total} files accepted by both parsers, {bytes} bytes",
        files.len()
    );
    files
}

fn run_tengen(files: &[File], opts: &ParseOptions) -> usize {
    let mut nodes = 0;
    for f in files {
        if let Ok(p) = parse(&f.bytes, opts) {
            nodes += p.collection.trees.len();
            black_box(p);
        }
    }
    nodes
}

fn run_sgf_parse(files: &[File]) -> usize {
    let mut trees = 0;
    for f in files {
        if let Ok(c) = sgf_parse::parse(&f.text) {
            trees += c.len();
            black_box(c);
        }
    }
    trees
}

/// MB/s of `f` over `bytes`, best of repeated runs for about `budget`.
fn rate(bytes: usize, budget: Duration, mut f: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut best = f64::MAX;
    while start.elapsed() < budget {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    bytes as f64 / best / 1e6
}

fn main() {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    let opts = ParseOptions::lenient();

    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .configure_from_args();
    let mut group = c.benchmark_group("parse_corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("tengen-sgf", |b| b.iter(|| run_tengen(&files, &opts)));
    group.bench_function("sgf-parse", |b| b.iter(|| run_sgf_parse(&files)));
    group.finish();
    c.final_summary();

    let budget = Duration::from_secs(3);
    let ours = rate(bytes, budget, || run_tengen(&files, &opts));
    let theirs = rate(bytes, budget, || run_sgf_parse(&files));
    println!("tengen-sgf: {ours:.1} MB/s");
    println!("sgf-parse:  {theirs:.1} MB/s");
    println!("ratio: {:.2}x", ours / theirs);
}
