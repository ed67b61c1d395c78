//! Every `.sgf` / `.SGF` file of the shared corpus (`shared/data`: Fox,
//! KGS, GNU Go, yenw AI games, parser test suites...) read leniently, written
//! and read back strictly to the same collection. The files that fail are
//! listed below with their reason, so that the list cannot grow silently.
//!
//! The corpus is found at `$TENGEN_SGF_CORPUS`, `shared/data` in the
//! repository or `../shared/data` beside it; without it the tests say so and
//! pass.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{corpus_root, sgf_files};

use tengen_sgf::{Issue, ParseError, ParseOptions, Parsed, Value, parse, parse_str, write};

/// Files that lenient reading rejects, and why (relative to the corpus).
/// All are text with no game tree in it, which no reading can repair.
const NO_TREE: &str = "byte 0 (line 1, column 1): no game tree found (no '(')";
const LENIENT_FAILURES: &[(&str, &str)] = &[
    // A file that says it is not one (littlego tests this error).
    (
        "sgf_parser_tests/herzbube+littlego/sgf/Illegal games/not-an-sgf-file.sgf",
        NO_TREE,
    ),
    // Git symbolic links stored as files: one line naming the target,
    // `../games/<same name>.sgf`, which is not in the copied corpus.
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-06-05-Zen19-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-06-05-tazaki-pachi30s.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-06-09-botkiller2-pachi30s.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-06-10-pachi30s-samba-2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-06-18-dorabon-pachi2-4.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-07-28-pachi2-Novicer.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-falseeye/2011-08-12-xiaosugi-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ko/2011-06-09-jinen-pachi30s-2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-01-11-llopl-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-06-06-tyzef-pachi30s.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-06-13-pachi30s-Jep.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-07-28-pachi2-pkunzip-2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-08-08-Dallas-pachi2-2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-08-09-pachi2-BlueSpark.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-08-09-somrak-pachi2-2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-08-24-StoneGrid-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2011-09-04-pachi2-stv.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-ladder/2012-03-16-IMC-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-semeai/2011-01-15-pachi2-rollingon.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-semeai/2011-06-05-Zen19-pachi2.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-semeai/2011-06-05-tazaki-pachi30s.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-semeai/2011-06-18-dorabon-pachi2-4.sgf",
        NO_TREE,
    ),
    (
        "pachi_tests/t-regress/old/by-semeai/2012-03-15-pachi2-Leech.sgf",
        NO_TREE,
    ),
];

fn corpus() -> Option<PathBuf> {
    let found = corpus_root();
    if found.is_none() {
        eprintln!("tengen-sgf corpus tests: no shared/data directory found, nothing checked");
    }
    found
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

fn issue_name(issue: &Issue) -> String {
    let dbg = format!("{issue:?}");
    dbg.split([' ', '{']).next().unwrap_or_default().to_owned()
}

/// Written text is strict FF\[4\] and reads back as the same collection.
fn check_roundtrip(name: &str, p: &Parsed) {
    let text = write(&p.collection);
    if p.collection.is_empty() {
        assert_eq!(text, "", "{name}");
        return;
    }
    let again = match parse_str(&text, &ParseOptions::strict()) {
        Ok(a) => a,
        Err(e) => panic!("{name}: written text does not parse: {e}"),
    };
    for w in &again.warnings {
        assert!(
            matches!(w.issue, Issue::CharsetMismatch { .. }),
            "{name}: written text gives a warning: {w}"
        );
    }
    assert!(
        again.collection == p.collection,
        "{name}: collection changed by write -> parse"
    );
    assert_eq!(
        write(&again.collection),
        text,
        "{name}: writing is not stable"
    );
}

#[test]
fn every_corpus_file_round_trips() {
    let Some(root) = corpus() else { return };
    let files = sgf_files(&root);
    assert!(files.len() > 17_000, "only {} files", files.len());
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    let mut warned = 0;
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut charsets: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut trees, mut nodes, mut bytes) = (0, 0, 0);
    for path in &files {
        let name = rel(&root, path);
        let data = std::fs::read(path).unwrap();
        bytes += data.len();
        match parse(&data, &ParseOptions::lenient()) {
            Err(e) => {
                failures.insert(name, e.to_string());
            }
            Ok(p) => {
                check_roundtrip(&name, &p);
                *charsets.entry(p.charset).or_default() += 1;
                if !p.warnings.is_empty() {
                    warned += 1;
                }
                for w in &p.warnings {
                    *kinds.entry(issue_name(&w.issue)).or_default() += 1;
                }
                trees += p.collection.len();
                nodes += p.collection.trees.iter().map(|t| t.len()).sum::<usize>();
            }
        }
    }
    println!(
        "{} files, {bytes} bytes, {trees} game trees, {nodes} nodes; {warned} files with warnings",
        files.len()
    );
    println!("charsets: {charsets:?}");
    println!("warnings: {kinds:?}");
    let expected: BTreeMap<String, String> = LENIENT_FAILURES
        .iter()
        .map(|(f, e)| ((*f).to_owned(), (*e).to_owned()))
        .collect();
    assert_eq!(failures, expected, "lenient failures differ from the list");
}

/// The parser test suites of other libraries, in both modes: each file
/// meant to be malformed fails strictly for its reason and is repaired
/// leniently with the matching warning; each well-formed one passes both.
#[test]
fn parser_test_suites() {
    let Some(root) = corpus() else { return };
    let dir = root.join("sgf_parser_tests");
    // File (under sgf_parser_tests) -> the strict error (None: accepted).
    let strict_expect: &[(&str, &str)] = &[
        (
            "Remi-Coulom+gogui/history-c06c09d6/test/junit/src/net/sf/gogui/sgf/duplicate-property.sgf",
            "byte 7 (line 1, column 8): property GM appears twice in one node",
        ),
        (
            "Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/verbose-property-names.sgf",
            "lower-case letters in property identifier",
        ),
        (
            "SabakiHQ+sgf/tests/sgf/encoding/nihon-kiin.sgf",
            "byte 3 (line 2, column 1): property TE outside a node (missing ';')",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/compressed-point-list.sgf",
            "byte 0 (line 1, column 1)",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/escaping.sgf",
            "byte 0 (line 1, column 1): 171 bytes of text outside any game tree",
        ),
        (
            "herzbube+littlego/sgf/19x19/Fuego vs. Fuego.sgf",
            "byte 2210 (line 40, column 1): end of input inside 1 unclosed game tree(s)",
        ),
        (
            "herzbube+littlego/sgf/Illegal games/encoding-detection-fails.sgf",
            "byte 1 (line 1, column 2): property CA outside a node (missing ';')",
        ),
        (
            "herzbube+littlego/sgf/Illegal games/encoding-unsupported.sgf",
            "byte 12 (line 1, column 13): unknown charset \"foo\" in CA",
        ),
        (
            "herzbube+littlego/sgf/Illegal games/not-an-sgf-file.sgf",
            "byte 0 (line 1, column 1): no game tree found (no '(')",
        ),
        (
            "sanderland+katrain/tests/data/fox sgf error.sgf",
            "byte 160 (line 1, column 157): property AP appears twice in one node",
        ),
        (
            "sanderland+katrain/tests/data/fox sgf works.sgf",
            "byte 162 (line 1, column 151): property AP appears twice in one node",
        ),
        (
            "sanderland+katrain/tests/data/panda1.sgf",
            "lower-case letters in property identifier CoPyright (read as CP)",
        ),
        (
            "sanderland+katrain/tests/data/xmgt97.sgf",
            "lower-case letters in property identifier",
        ),
    ];
    let mut strict_failures = BTreeMap::new();
    for path in sgf_files(&dir) {
        let name = rel(&dir, &path);
        let data = std::fs::read(&path).unwrap();
        if let Err(e) = parse(&data, &ParseOptions::strict()) {
            strict_failures.insert(name.clone(), e.to_string());
        }
        if let Ok(p) = parse(&data, &ParseOptions::lenient()) {
            check_roundtrip(&name, &p);
        }
    }
    for (file, why) in strict_expect {
        match strict_failures.remove(*file) {
            Some(e) => assert!(e.contains(why), "{file}: {e}"),
            None => panic!("{file} should fail strictly ({why})"),
        }
    }
    assert!(
        strict_failures.is_empty(),
        "unexpected strict failures: {strict_failures:#?}"
    );
}

fn read(rel_path: &str, lenient: bool) -> Option<Result<Parsed, ParseError>> {
    let root = corpus()?;
    let data = std::fs::read(root.join(rel_path)).unwrap();
    let opts = if lenient {
        ParseOptions::lenient()
    } else {
        ParseOptions::strict()
    };
    Some(parse(&data, &opts))
}

fn root_value(p: &Parsed, tree: usize, ident: &str) -> String {
    let t = &p.collection.trees[tree];
    t.node(t.root())
        .value(ident)
        .map(Value::simple_text)
        .unwrap_or_default()
}

#[test]
fn charsets_of_the_test_suites() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // file, charset, property, expected start of its text
        ("SabakiHQ+sgf/tests/sgf/chinese.sgf", "GBK", "PW", "柯洁"),
        (
            "SabakiHQ+sgf/tests/sgf/japanese.sgf",
            "Shift_JIS",
            "PB",
            "井山 裕太",
        ),
        (
            "SabakiHQ+sgf/tests/sgf/korean.sgf",
            "EUC-KR",
            "PB",
            "이세돌",
        ),
        ("SabakiHQ+sgf/tests/sgf/no-ca.sgf", "gb18030", "", ""),
        (
            "SabakiHQ+sgf/tests/sgf/utf16le.sgf",
            "UTF-16LE",
            "PW",
            "Go Seigen",
        ),
        ("SabakiHQ+sgf/tests/sgf/utf8bom.sgf", "UTF-8", "", ""),
        (
            "SabakiHQ+sgf/tests/sgf/encoding/nihon-kiin.sgf",
            "Shift_JIS",
            "PB",
            "申眞ソ",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-chinese-gb18030.sgf",
            "gb18030",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-chinese-gbk.sgf",
            "GBK",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-simplifiedchinese-gb2312.sgf",
            "GBK",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-traditionalchinese-big5.sgf",
            "Big5",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-japanese-shiftjis.sgf",
            "Shift_JIS",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-japanese-iso2022jp.sgf",
            "ISO-2022-JP",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-korean-macos.sgf",
            "EUC-KR",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-cyrillic-windows.sgf",
            "windows-1251",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-western-isolatin1.sgf",
            "windows-1252",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-western-macosroman.sgf",
            "macintosh",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-utf16-withbom.sgf",
            "UTF-16BE",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-utf16-nobom.sgf",
            "UTF-16BE",
            "",
            "",
        ),
        (
            "herzbube+libsgfcplusplus/test/test-files/encoding-utf8-withbom.sgf",
            "UTF-8",
            "",
            "",
        ),
    ];
    for (file, charset, ident, start) in cases {
        let Some(p) = read(&format!("sgf_parser_tests/{file}"), true) else {
            return;
        };
        let p = p.unwrap();
        assert_eq!(p.charset, *charset, "{file}");
        assert!(
            !p.warnings
                .iter()
                .any(|w| matches!(w.issue, Issue::Replaced { .. })),
            "{file}: {:?}",
            p.warnings
        );
        if !ident.is_empty() {
            let v = root_value(&p, 0, ident);
            assert!(v.starts_with(start), "{file}: {ident} is {v:?}");
        }
    }
}

#[test]
fn structures_of_the_test_suites() {
    let Some(deep) = read(
        "sgf_parser_tests/herzbube+libsgfcplusplus/test/test-files/deep-game-tree.sgf",
        false,
    ) else {
        return;
    };
    let deep = deep.unwrap();
    assert_eq!(deep.collection.len(), 5);
    let longest = deep
        .collection
        .trees
        .iter()
        .map(|t| t.main_line().count())
        .max();
    assert!(longest.unwrap() >= 5000, "{longest:?}");
    let ff4 = read(
        "sgf_parser_tests/julianandrews+sgf-parse/resources/test/ff4_ex.sgf",
        false,
    )
    .unwrap()
    .unwrap();
    assert_eq!(ff4.collection.len(), 2);
    let points = read(
        "sgf_parser_tests/herzbube+libsgfcplusplus/test/test-files/compressed-point-list.sgf",
        true,
    )
    .unwrap()
    .unwrap();
    // Two games after free text that mentions "(MA property)": the
    // parentheses in the text start no game tree.
    assert_eq!(points.collection.len(), 2);
    assert_eq!(
        points.warnings.iter().map(|w| &w.issue).collect::<Vec<_>>(),
        [&Issue::JunkOutsideTree { bytes: 1110 }]
    );
    let t = &points.collection.trees[1];
    let ab = t.node(t.main_line().nth(2).unwrap()).get("AB").unwrap();
    assert_eq!(tengen_sgf::expand_point_list(ab.values()).len(), 4);
    let verbose = read(
        "sgf_parser_tests/Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/verbose-property-names.sgf",
        true,
    )
    .unwrap()
    .unwrap();
    assert_eq!(root_value(&verbose, 0, "SZ"), "19");
    assert_eq!(root_value(&verbose, 0, "KM"), "6");
    let dup = read(
        "sgf_parser_tests/Remi-Coulom+gogui/history-c06c09d6/test/junit/src/net/sf/gogui/sgf/duplicate-property.sgf",
        true,
    )
    .unwrap()
    .unwrap();
    let t = &dup.collection.trees[0];
    assert_eq!(t.node(t.root()).get("GM").unwrap().values().len(), 2);
    let multiple = read(
        "sgf_parser_tests/herzbube+littlego/sgf/Illegal games/encoding-multiple.sgf",
        false,
    )
    .unwrap()
    .unwrap();
    // Each game is read in the charset its own CA names: nothing to say.
    assert_eq!(multiple.collection.len(), 2);
    assert!(multiple.warnings.is_empty(), "{:?}", multiple.warnings);
}

#[test]
fn fox_quirks() {
    let Some(root) = corpus() else { return };
    // The 19 files without '(' (plus any others) read with the warning.
    let dir = root.join("fox_pro/Pro2.7z/Pro/9p");
    let mut no_paren = 0;
    for path in sgf_files(&dir) {
        let data = std::fs::read(&path).unwrap();
        let p = parse(&data, &ParseOptions::lenient()).unwrap();
        if p.warnings
            .iter()
            .any(|w| w.issue == Issue::MissingOpenParen)
        {
            no_paren += 1;
            assert!(p.collection.trees[0].len() > 10);
        }
    }
    assert_eq!(no_paren, 19);
}
