//! `tengen explain --judge FILE.tsv DATA`: the lexicon's precision per
//! term on a labelled set of real positions, so that every change to a
//! detector shows its effect.
//!
//! Each line of the file is `record<TAB>move<TAB>term<TAB>verdict<TAB>reason`:
//! the record's path under `DATA`, the directory the command line names
//! (the labelled set of the tests is under the shared records beside the
//! repository, `../shared/data`), the move number as `tengen explain`
//! prints it, a term of the lexicon, `right` when the term belongs to that
//! move by the glossary's definition and `wrong` when it does not, and why.
//! Blank lines and lines starting with `#` are comments.
//!
//! A term is *judged* at a labelled move when the lexicon names it there;
//! its precision is the share of those labelled `right`. A move labelled
//! `right` that the lexicon leaves unnamed is *missed*: the judged set's
//! measure of recall.

use super::explain::read;
use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use tengen_lexicon::{TERMS, name_moves};

/// One labelled position.
struct Label {
    line: usize,
    record: String,
    number: usize,
    term: &'static str,
    right: bool,
    reason: String,
}

/// The counts of one term.
#[derive(Default)]
struct Score {
    judged: usize,
    right: usize,
    labelled_right: usize,
    missed: usize,
}

/// Reads the labelled set; a malformed line is an error naming it.
fn labels(path: &Path) -> Result<Vec<Label>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('\t').collect();
        let [record, number, term, verdict, reason] = fields.as_slice() else {
            bail!(
                "{}:{line}: expected record, move, term, verdict, reason separated by tabs",
                path.display()
            );
        };
        let Some(&term) = TERMS.iter().find(|&&t| t == *term) else {
            bail!("{}:{line}: unknown term {term}", path.display());
        };
        let right = match *verdict {
            "right" => true,
            "wrong" => false,
            other => bail!(
                "{}:{line}: verdict {other} (right or wrong)",
                path.display()
            ),
        };
        let number = number
            .parse()
            .with_context(|| format!("{}:{line}: move number {number}", path.display()))?;
        if reason.trim().is_empty() {
            bail!("{}:{line}: a verdict needs its reason", path.display());
        }
        out.push(Label {
            line,
            record: (*record).to_string(),
            number,
            term,
            right,
            reason: (*reason).to_string(),
        });
    }
    Ok(out)
}

/// The terms the lexicon names at each move number of a record.
fn named(path: &Path) -> Result<BTreeMap<usize, Vec<&'static str>>, String> {
    let e = read(path).map_err(super::input::Refused::into_message)?;
    let names = name_moves(&e.game);
    Ok(names
        .iter()
        .enumerate()
        .map(|(i, n)| (e.first_number + i, n.iter().map(|n| n.id).collect()))
        .collect())
}

/// Prints, per term, `term judged right precision labelled-right missed`,
/// then the overall line, after one line for each disagreement.
pub fn run(tsv: &Path, data: &Path) -> Result<ExitCode> {
    let labels = labels(tsv)?;
    let mut records: Vec<&str> = labels.iter().map(|l| l.record.as_str()).collect();
    records.sort_unstable();
    records.dedup();
    let named: Vec<_> = records
        .par_iter()
        .map(|r| (*r, named(&data.join(r))))
        .collect();
    let mut by_record = BTreeMap::new();
    for (r, n) in named {
        match n {
            Ok(n) => {
                by_record.insert(r, n);
            }
            Err(message) => bail!("{message}"),
        }
    }
    let mut scores: BTreeMap<&'static str, Score> = BTreeMap::new();
    let mut out = std::io::stdout().lock();
    for l in &labels {
        let here = by_record
            .get(l.record.as_str())
            .and_then(|n| n.get(&l.number));
        let Some(here) = here else {
            bail!(
                "{}:{}: {} has no move {}",
                tsv.display(),
                l.line,
                l.record,
                l.number
            );
        };
        let s = scores.entry(l.term).or_default();
        let fires = here.contains(&l.term);
        if fires {
            s.judged += 1;
            s.right += usize::from(l.right);
        }
        if l.right {
            s.labelled_right += 1;
            s.missed += usize::from(!fires);
        }
        if fires != l.right {
            let what = if fires { "wrong" } else { "missed" };
            writeln!(
                out,
                "{what} {} {} {}: {}",
                l.term, l.record, l.number, l.reason
            )?;
        }
    }
    let percent = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            a as f64 * 100.0 / b as f64
        }
    };
    let mut total = Score::default();
    for (term, s) in &scores {
        writeln!(
            out,
            "{term} judged={} right={} precision={:.1}% labelled-right={} missed={}",
            s.judged,
            s.right,
            percent(s.right, s.judged),
            s.labelled_right,
            s.missed
        )?;
        total.judged += s.judged;
        total.right += s.right;
        total.labelled_right += s.labelled_right;
        total.missed += s.missed;
    }
    writeln!(
        out,
        "overall judged={} right={} precision={:.1}% labelled-right={} missed={}",
        total.judged,
        total.right,
        percent(total.right, total.judged),
        total.labelled_right,
        total.missed
    )?;
    Ok(ExitCode::SUCCESS)
}
