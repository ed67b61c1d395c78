//! `tengen explain --judge`: the lexicon measured on the labelled set of
//! real positions (tests/data/lexicon-judged.tsv, each verdict with its
//! reason against the glossary of the FFG rules, part II). Every term named
//! on the set is right nine times in ten or more, all terms together 95
//! times in a hundred, and no term misses more than a tenth of the moves
//! labelled right.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, stderr, stdout, tengen};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The labelled set.
fn judged_set() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/lexicon-judged.tsv")
}

/// One summary line: `term judged=J right=R precision=P% labelled-right=L missed=M`.
#[derive(Debug)]
struct Line {
    judged: usize,
    right: usize,
    labelled_right: usize,
    missed: usize,
}

/// The summary lines by term (`overall` included).
/// `tengen explain --judge TSV` over the shared records.
fn judge(tsv: &std::path::Path) -> std::process::Output {
    let data = data();
    tengen(&[
        "explain",
        "--judge",
        tsv.to_str().unwrap(),
        data.to_str().unwrap(),
    ])
}

fn summary(out: &str) -> BTreeMap<String, Line> {
    out.lines()
        .filter(|l| l.contains(" judged="))
        .map(|l| {
            let mut words = l.split(' ');
            let term = words.next().unwrap().to_string();
            let field: BTreeMap<&str, &str> = words.map(|w| w.split_once('=').unwrap()).collect();
            let n = |k: &str| field[k].parse::<usize>().unwrap();
            let line = Line {
                judged: n("judged"),
                right: n("right"),
                labelled_right: n("labelled-right"),
                missed: n("missed"),
            };
            (term, line)
        })
        .collect()
}

#[test]
fn every_term_is_right_nine_times_in_ten_on_the_labelled_set() {
    let tsv = judged_set();
    let o = judge(&tsv);
    let out = stdout(&o);
    assert!(o.status.success(), "{}{}", out, stderr(&o));
    let lines = summary(&out);
    let overall = &lines["overall"];
    assert!(overall.judged >= 100, "{out}");
    let mut failures = Vec::new();
    for (term, l) in &lines {
        if l.judged > 0 && l.right * 10 < l.judged * 9 {
            failures.push(format!("{term}: {} right of {} named", l.right, l.judged));
        }
        if l.missed * 10 > l.labelled_right {
            failures.push(format!(
                "{term}: {} of {} right moves no longer named",
                l.missed, l.labelled_right
            ));
        }
    }
    if overall.right * 100 < overall.judged * 95 {
        failures.push(format!(
            "overall: {} right of {} named",
            overall.right, overall.judged
        ));
    }
    assert!(failures.is_empty(), "{}\n{out}", failures.join("\n"));
}

#[test]
fn the_labelled_set_holds_the_wrong_names_of_every_term_it_corrects() {
    let text = std::fs::read_to_string(judged_set()).unwrap();
    let mut wrong: BTreeMap<&str, usize> = BTreeMap::new();
    let mut right: BTreeMap<&str, usize> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(!f[4].trim().is_empty(), "{line}: no reason");
        match f[3] {
            "right" => *right.entry(f[2]).or_default() += 1,
            "wrong" => *wrong.entry(f[2]).or_default() += 1,
            other => panic!("{line}: verdict {other}"),
        }
    }
    for term in [
        "semeai", "te-nuki", "hasami", "geta", "te-suji", "boshi", "shicho", "nozoki",
    ] {
        assert!(
            wrong.get(term).copied().unwrap_or(0) >= 3,
            "{term}: fewer than three wrong names in the set"
        );
    }
    for term in [
        "semeai", "te-nuki", "hasami", "boshi", "shicho", "nozoki", "nobi",
    ] {
        assert!(
            right.get(term).copied().unwrap_or(0) >= 2,
            "{term}: fewer than two right names in the set"
        );
    }
}

#[test]
fn a_label_the_lexicon_contradicts_lowers_the_precision() {
    // Move 5 of the first game of the set is a kakari; a label calling it
    // wrong must show as a wrong name and a precision of 0.
    let dir = std::env::temp_dir().join(format!("tengen-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tsv = dir.join("contradicted.tsv");
    let record = "fox_pro/Pro.7z/Pro/1p/1377954818019999562.sgf";
    std::fs::write(
        &tsv,
        format!("# a deliberately wrong verdict\n{record}\t5\tkakari\twrong\ttest\n"),
    )
    .unwrap();
    let o = judge(&tsv);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(
        out.contains(&format!("wrong kakari {record} 5: test")),
        "{out}"
    );
    assert!(
        out.contains("kakari judged=1 right=0 precision=0.0%"),
        "{out}"
    );
    // An unknown term is an error naming the line.
    std::fs::write(&tsv, format!("{record}\t5\tkeima-boshi\tright\ttest\n")).unwrap();
    let o = judge(&tsv);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown term keima-boshi"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
