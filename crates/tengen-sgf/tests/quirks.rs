//! One test per quirk of real files: what strict mode says, what lenient
//! mode reads and warns, and that the result writes back and reads the same.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use tengen_sgf::{
    GameTree, Issue, Node, ParseError, ParseOptions, Parsed, Span, Value, expand_point_list, parse,
    parse_str, write,
};

fn lenient(s: &[u8]) -> Parsed {
    let p = parse(s, &ParseOptions::lenient()).unwrap();
    roundtrip(&p);
    p
}

fn strict(s: &[u8]) -> Result<Parsed, ParseError> {
    parse(s, &ParseOptions::strict())
}

/// Strict mode refuses `src` with this message; the error, for more checks.
fn refused(src: &[u8], message: &str) -> ParseError {
    let e = strict(src).unwrap_err();
    assert_eq!(e.to_string(), message);
    e
}

/// Strict mode refuses `src`; lenient mode reads it.
fn lenient_only(src: &[u8]) -> Parsed {
    assert!(strict(src).is_err());
    lenient(src)
}

/// The source text under `span`.
fn spanned(p: &Parsed, span: Span) -> &str {
    &p.source[span.start..span.end]
}

/// The root node of game `tree`.
fn root(p: &Parsed, tree: usize) -> &Node {
    let t = &p.collection.trees[tree];
    t.node(t.root())
}

/// The identifiers of the first game's root properties, in order.
fn root_idents(p: &Parsed) -> Vec<&str> {
    root(p, 0).properties().iter().map(|p| p.ident()).collect()
}

fn issues(p: &Parsed) -> Vec<Issue> {
    p.warnings.iter().map(|w| w.issue.clone()).collect()
}

/// Written output is strict FF\[4\] and reads back as the same collection.
fn roundtrip(p: &Parsed) {
    if p.collection.is_empty() {
        assert_eq!(write(&p.collection), "");
        return;
    }
    let text = write(&p.collection);
    let again = parse_str(&text, &ParseOptions::strict())
        .unwrap_or_else(|e| panic!("written text does not parse: {e}\n{text}"));
    assert_eq!(again.collection, p.collection, "{text}");
    assert_eq!(write(&again.collection), text);
}

fn raw<'a>(p: &'a Parsed, tree: usize, ident: &str) -> Vec<&'a str> {
    let t = &p.collection.trees[tree];
    t.nodes()
        .filter_map(|id| t.node(id).get(ident))
        .flat_map(|pr| pr.values().iter().map(Value::raw))
        .collect()
}

#[test]
fn plain_file_with_variations() {
    let src = b"(;GM[1]FF[4]SZ[19]\n;B[pd];W[dd](;B[pq];W[dp])(;B[dp]))";
    let p = strict(src).unwrap();
    roundtrip(&p);
    assert!(p.warnings.is_empty());
    assert_eq!(p.charset, "UTF-8");
    let t = &p.collection.trees[0];
    assert_eq!(t.len(), 6);
    let main: Vec<_> = t
        .main_line()
        .map(|id| t.node(id).properties()[0].ident().to_owned())
        .collect();
    assert_eq!(main, ["GM", "B", "W", "B", "W"]);
    let w = t.main_line().nth(2).unwrap();
    assert_eq!(t.children(w).len(), 2);
    assert_eq!(t.parent(t.children(w)[1]), Some(w));
    // Spans: node from ';', property from its identifier, value with brackets.
    let root = t.node(t.root());
    assert_eq!(root.span().start, 1);
    let sz = root.get("SZ").unwrap();
    assert_eq!(spanned(&p, sz.span()), "SZ[19]");
    assert_eq!(spanned(&p, sz.values()[0].span()), "[19]");
    let b = t.node(t.children(t.root())[0]);
    assert_eq!(spanned(&p, b.span()), ";B[pd]");
    assert_eq!(b.value("B").unwrap().point(), Some((15, 3)));
}

#[test]
fn several_games_in_one_file() {
    let p = strict(b"(;GM[1];B[aa])\n(;GM[1];B[bb])(;GM[1])").unwrap();
    assert_eq!(p.collection.len(), 3);
    assert_eq!(raw(&p, 1, "B"), ["bb"]);
    roundtrip(&p);
}

#[test]
fn escapes_are_kept_raw_and_decoded_on_demand() {
    let src =
        b"(;C[a \\] b \\\\ c \\: d\\\nsoft\nhard\ttab]LB[aa:x\\:y]AP[Sabaki\\:x:0.5]N[l1\r\nl2])";
    let p = strict(src).unwrap();
    roundtrip(&p);
    let root = root(&p, 0);
    let c = root.value("C").unwrap();
    assert_eq!(c.raw(), "a \\] b \\\\ c \\: d\\\nsoft\nhard\ttab");
    assert_eq!(c.text(), "a ] b \\ c : dsoft\nhard tab");
    assert_eq!(c.simple_text(), "a ] b \\ c : dsoft hard tab");
    let lb = root.value("LB").unwrap();
    assert_eq!(lb.composed(), Some(("aa".into(), "x:y".into())));
    assert_eq!(lb.composed_raw(), Some(("aa", "x\\:y")));
    let ap = root.value("AP").unwrap();
    assert_eq!(ap.composed(), Some(("Sabaki:x".into(), "0.5".into())));
    assert_eq!(root.value("N").unwrap().simple_text(), "l1 l2");
    assert_eq!(root.value("N").unwrap().text(), "l1\nl2");
    // Written back byte for byte.
    assert!(write(&p.collection).contains("C[a \\] b \\\\ c \\: d\\\nsoft\nhard\ttab]"));
}

#[test]
fn compressed_point_lists_stay_composed_values() {
    let p = strict(b"(;AB[aa:bb][dd]AW[cc:cd])").unwrap();
    assert_eq!(raw(&p, 0, "AB"), ["aa:bb", "dd"]);
    let ab = root(&p, 0).get("AB").unwrap();
    assert_eq!(
        expand_point_list(ab.values()),
        [(0, 0), (1, 0), (0, 1), (1, 1), (3, 3)]
    );
    roundtrip(&p);
}

#[test]
fn junk_before_between_and_after_trees() {
    let src = b"Downloaded from somewhere.\n(;GM[1]) junk ;B[aa] (;GM[1])\ntrailing text";
    refused(
        src,
        "byte 0 (line 1, column 1): 26 bytes of text outside any game tree",
    );
    let p = lenient(src);
    assert_eq!(p.collection.len(), 2);
    assert_eq!(
        issues(&p),
        [
            Issue::JunkOutsideTree { bytes: 26 },
            Issue::JunkOutsideTree { bytes: 11 },
            Issue::JunkOutsideTree { bytes: 13 },
        ]
    );
    assert_eq!(p.warnings[1].line, 2);
    assert_eq!(p.warnings[1].column, 10);
}

#[test]
fn file_without_opening_parenthesis() {
    // Fox: the file starts with ';' and may hold variations.
    let src = b";GM[1]FF[4]SZ[19];B[pd](;W[dd])(;W[dp]))";
    assert!(matches!(
        strict(src).unwrap_err().issue(),
        Some(Issue::MissingOpenParen)
    ));
    let p = lenient(src);
    assert_eq!(issues(&p), [Issue::MissingOpenParen]);
    assert_eq!(p.collection.trees[0].len(), 4);
    // Without the closing one either.
    let p = lenient(b"\n;GM[1];B[aa];W[bb]\n");
    assert_eq!(
        issues(&p),
        [Issue::MissingOpenParen, Issue::Unclosed { open: 1 }]
    );
    assert_eq!(p.collection.trees[0].main_line().count(), 3);
}

#[test]
fn missing_closing_parentheses_are_added() {
    let src = b"(;GM[1];B[aa](;W[bb](;B[cc]";
    refused(
        src,
        "byte 27 (line 1, column 28): end of input inside 3 unclosed game tree(s)",
    );
    let p = lenient(src);
    assert_eq!(issues(&p), [Issue::Unclosed { open: 3 }]);
    assert_eq!(p.collection.trees[0].len(), 4);
}

#[test]
fn extra_closing_parentheses_are_skipped() {
    let src = b"(;GM[1];B[aa]))\n)";
    let p = lenient_only(src);
    assert_eq!(issues(&p), [Issue::UnmatchedClose]);
    assert_eq!(p.collection.trees[0].len(), 2);
}

#[test]
fn duplicate_properties_are_merged() {
    // Fox: AP twice in the root.
    let src = b"(;GM[1]AP[GNU Go:3.8]KM[375]AP[foxwq]AB[aa]AB[bb][cc])";
    let e = refused(
        src,
        "byte 28 (line 1, column 29): property AP appears twice in one node",
    );
    assert_eq!(e.property(), Some("AP"));
    let p = lenient(src);
    assert_eq!(
        issues(&p),
        [
            Issue::DuplicateProperty {
                property: "AP".into()
            },
            Issue::DuplicateProperty {
                property: "AB".into()
            },
        ]
    );
    assert_eq!(
        p.warnings[0].message,
        "property AP appears twice in one node; values merged into the first"
    );
    assert_eq!(raw(&p, 0, "AP"), ["GNU Go:3.8", "foxwq"]);
    assert_eq!(raw(&p, 0, "AB"), ["aa", "bb", "cc"]);
    assert_eq!(root_idents(&p), ["GM", "AP", "KM", "AB"]);
    // The value keeps its own span.
    let ap = root(&p, 0).get("AP").unwrap();
    assert_eq!(spanned(&p, ap.values()[1].span()), "[foxwq]");
}

#[test]
fn many_properties_in_one_node() {
    // Past the linear scan: duplicates still found.
    let mut src = String::from("(;");
    for i in 0..40u8 {
        src.push_str(&format!(
            "X{}{}[{i}]",
            char::from(b'A' + i / 26),
            char::from(b'A' + i % 26)
        ));
    }
    src.push_str("XAC[again]XBN[again])");
    let p = lenient(src.as_bytes());
    assert_eq!(p.warnings.len(), 2);
    assert_eq!(raw(&p, 0, "XAC"), ["2", "again"]);
    assert_eq!(raw(&p, 0, "XBN"), ["39", "again"]);
}

#[test]
fn ff1_long_identifiers() {
    let src = b"(;GaMe[1]SiZe[19]CoPyright[(c)]PlayerBlack[x]KoMi[6];Black[ff]WHITE[aa])";
    refused(
        src,
        "byte 2 (line 1, column 3): lower-case letters in property identifier GaMe (read as GM)",
    );
    let p = lenient(src);
    assert_eq!(root_idents(&p), ["GM", "SZ", "CP", "PB", "KM"]);
    assert_eq!(p.warnings.len(), 6);
    assert_eq!(
        p.warnings[2].issue,
        Issue::LowercaseIdent {
            found: "CoPyright".into(),
            ident: "CP".into()
        }
    );
    assert_eq!(raw(&p, 0, "B"), ["ff"]);
    assert_eq!(raw(&p, 0, "WHITE"), ["aa"]);
}

#[test]
fn identifiers_without_capitals_are_dropped() {
    let p = lenient(b"(;GM[1]xyz[1][2]SZ[9])");
    assert_eq!(
        issues(&p),
        [Issue::NoUppercaseIdent {
            found: "xyz".into()
        }]
    );
    assert_eq!(root(&p, 0).properties().len(), 2);
}

#[test]
fn unescaped_closing_brackets() {
    // Sabaki#687: a rank in brackets inside a name.
    let src = b"(;US[Matsuyama[3d]]PB[x];C[a]b]  GC[ok])";
    refused(
        src,
        "byte 17 (line 1, column 18): unescaped ']' in value of property US",
    );
    let p = lenient(src);
    assert_eq!(raw(&p, 0, "US"), ["Matsuyama[3d\\]"]);
    assert_eq!(root(&p, 0).value("US").unwrap().text(), "Matsuyama[3d]");
    assert_eq!(raw(&p, 0, "C"), ["a\\]b"]);
    assert_eq!(
        issues(&p),
        [
            Issue::UnescapedBracket {
                property: "US".into()
            },
            Issue::UnescapedBracket {
                property: "C".into()
            },
        ]
    );
    // Twice in one value, and after a duplicate merge.
    let p = lenient(b"(;C[x]C[a]b]c])");
    assert_eq!(raw(&p, 0, "C"), ["x", "a\\]b\\]c"]);
    // Not recoverable: a '[' comes first. The letters are dropped instead.
    let p = lenient(b"(;C[a]b W[cc])");
    assert_eq!(raw(&p, 0, "C"), ["a"]);
    assert_eq!(
        issues(&p),
        [Issue::MissingValue {
            property: "b".into()
        }]
    );
}

#[test]
fn properties_without_values_and_stray_characters() {
    let src = b"(;GM[1] B ;W[aa] 12 % AB[bb])";
    let p = lenient_only(src);
    assert_eq!(
        issues(&p),
        [
            Issue::MissingValue {
                property: "B".into()
            },
            Issue::UnexpectedChar {
                found: '1',
                property: Some("W".into())
            },
            Issue::UnexpectedChar {
                found: '%',
                property: None
            },
        ]
    );
    assert_eq!(raw(&p, 0, "AB"), ["bb"]);
    let p = lenient(b"(;[aa]B[bb])");
    assert_eq!(issues(&p), [Issue::ValueWithoutProperty]);
    assert_eq!(raw(&p, 0, "B"), ["bb"]);
}

#[test]
fn empty_input() {
    for src in [&b""[..], b"  \n\t ", b"\xEF\xBB\xBF\n"] {
        assert_eq!(strict(src).unwrap_err(), ParseError::Empty);
        let p = lenient(src);
        assert!(p.collection.is_empty());
        assert_eq!(issues(&p), [Issue::EmptyInput]);
    }
}

#[test]
fn text_that_is_not_sgf() {
    for opts in [ParseOptions::strict(), ParseOptions::lenient()] {
        let e = parse(b"this is not an .sgf file\n", &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            "byte 0 (line 1, column 1): no game tree found (no '(')"
        );
    }
}

#[test]
fn properties_before_the_first_node() {
    // littlego encoding-detection-fails.sgf
    let src = b"(CA[UTF-8])(;FF[4]CA[ISO-8859-3])";
    let p = lenient_only(src);
    assert!(issues(&p).contains(&Issue::PropertyOutsideNode {
        property: "CA".into()
    }));
    assert_eq!(p.collection.len(), 2);
    assert_eq!(raw(&p, 0, "CA"), ["UTF-8"]);
}

#[test]
fn empty_game_trees() {
    let src = b"()(;GM[1]()(;B[aa]))";
    let p = lenient_only(src);
    assert_eq!(issues(&p), [Issue::EmptyGameTree, Issue::EmptyGameTree]);
    assert_eq!(p.collection.len(), 1);
    assert_eq!(p.collection.trees[0].len(), 2);
}

#[test]
fn node_after_variations() {
    let src = b"(;GM[1](;B[aa])(;B[bb]);B[cc])";
    let p = lenient_only(src);
    assert_eq!(issues(&p), [Issue::NodeAfterVariation]);
    let t = &p.collection.trees[0];
    assert_eq!(t.children(t.root()).len(), 3);
}

#[test]
fn variation_at_root_and_several_roots() {
    let p = lenient(b"((;GM[1];B[aa]))");
    assert_eq!(issues(&p), [Issue::VariationAtRoot]);
    assert_eq!(p.collection.trees[0].len(), 2);
    let p = lenient(b"((;GM[1])(;GM[2]))");
    assert_eq!(
        issues(&p),
        [
            Issue::VariationAtRoot,
            Issue::VariationAtRoot,
            Issue::SeveralRoots
        ]
    );
    assert_eq!(p.collection.len(), 2);
    assert_eq!(raw(&p, 1, "GM"), ["2"]);
}

#[test]
fn unterminated_value() {
    let src = b"(;GM[1]\n;B[aa]C[never closed\\";
    let e = refused(
        src,
        "byte 15 (line 2, column 8): unterminated value of property C",
    );
    assert_eq!(e.property(), Some("C"));
    let p = lenient(src);
    assert_eq!(raw(&p, 0, "C"), ["never closed"]);
    assert_eq!(
        issues(&p),
        [
            Issue::UnterminatedValue {
                property: "C".into()
            },
            Issue::Unclosed { open: 1 }
        ]
    );
}

#[test]
fn error_positions_count_lines_and_characters() {
    let src = "(;GM[1]\r\nPB[柯洁]\r\n;B[aa]\n%W[bb])";
    let e = strict(src.as_bytes()).unwrap_err();
    let at = e.location().unwrap();
    assert_eq!((at.line, at.column), (4, 1));
    assert_eq!(&src[at.offset..at.offset + 1], "%");
}

#[test]
fn declared_charsets() {
    let (gb, _, _) = encoding_rs::GBK.encode("(;CA[GB2312]PB[柯洁]C[黑中盘胜])");
    let p = strict(&gb).unwrap();
    assert_eq!(p.charset, "GBK");
    assert!(p.warnings.is_empty());
    assert_eq!(raw(&p, 0, "PB"), ["柯洁"]);
    // Shift_JIS and Big5 second bytes 0x5C ('\') and 0x5D (']').
    let (sj, _, _) = encoding_rs::SHIFT_JIS.encode("(;CA[Shift_JIS]PB[表能ソ]C[十]PW[x])");
    assert!(sj.windows(2).any(|w| w == [0x95, 0x5C]));
    let p = strict(&sj).unwrap();
    assert_eq!(p.charset, "Shift_JIS");
    assert_eq!(raw(&p, 0, "PB"), ["表能ソ"]);
    assert_eq!(raw(&p, 0, "PW"), ["x"]);
    let (b5, _, _) = encoding_rs::BIG5.encode("(;CA[Big5]PB[許功蓋]PW[y])");
    assert!(b5.windows(2).any(|w| w == [0xB3, 0x5C]));
    let p = strict(&b5).unwrap();
    assert_eq!(raw(&p, 0, "PB"), ["許功蓋"]);
    assert_eq!(raw(&p, 0, "PW"), ["y"]);
    let p = strict(b"(;CA[ISO-8859-1]C[cr\xe9\xe9])").unwrap();
    assert_eq!(raw(&p, 0, "C"), ["créé"]);
    assert_eq!(p.charset, "windows-1252");
}

#[test]
fn utf8_wins_over_a_wrong_legacy_ca() {
    let src = "(;CA[gb2312]PB[柯洁])";
    let p = strict(src.as_bytes()).unwrap();
    assert_eq!(p.charset, "UTF-8");
    assert_eq!(raw(&p, 0, "PB"), ["柯洁"]);
    assert_eq!(
        issues(&p),
        [Issue::CharsetOverridden {
            declared: "gb2312".into(),
            charset: "UTF-8"
        }]
    );
}

#[test]
fn unknown_charset() {
    // littlego encoding-unsupported.sgf (also unclosed).
    let src = b"(;FF[4]GM[1]CA[foo]\n";
    refused(
        src,
        "byte 12 (line 1, column 13): unknown charset \"foo\" in CA",
    );
    let p = lenient(src);
    assert_eq!(
        issues(&p),
        [
            Issue::UnknownCharset {
                label: "foo".into()
            },
            Issue::Unclosed { open: 1 }
        ]
    );
    assert_eq!(p.charset, "UTF-8");
}

#[test]
fn missing_ca_is_guessed() {
    // Shift_JIS without CA, with 0x5C second bytes (nihon-kiin.sgf).
    let (sj, _, _) = encoding_rs::SHIFT_JIS.encode("(;PB[本因坊秀策]PW[表]C[黒の勝ちです])");
    let p = strict(&sj).unwrap();
    assert_eq!(p.charset, "Shift_JIS");
    assert_eq!(
        issues(&p),
        [Issue::CharsetGuessed {
            charset: "Shift_JIS"
        }]
    );
    assert_eq!(raw(&p, 0, "PW"), ["表"]);
    let (gb, _, _) = encoding_rs::GBK.encode("(;PW[白]PB[GNU Go])");
    assert_eq!(strict(&gb).unwrap().charset, "gb18030");
    // Plain UTF-8 without CA: no note.
    assert!(
        strict("(;PB[柯洁])".as_bytes())
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn damaged_utf8_without_ca() {
    // Fox: UTF-8 with some bytes replaced by '?'.
    let src = b"(;GN[\xe7\xac\xac4\xe5\xb1\x8a\xe6\xa2\xa6\xe7\x99\xbe\xe5?\x88]PB[\xe6\x9f\xaf\xe6\xb4\x81])";
    refused(
        src,
        "byte 18 (line 1, column 11): bytes not valid in charset UTF-8",
    );
    let p = lenient(src);
    assert_eq!(p.charset, "UTF-8");
    assert_eq!(
        issues(&p),
        [
            Issue::CharsetGuessed { charset: "UTF-8" },
            Issue::Replaced {
                count: 2,
                charset: "UTF-8"
            },
        ]
    );
    assert_eq!(raw(&p, 0, "PB"), ["柯洁"]);
    assert_eq!(raw(&p, 0, "GN"), ["第4届梦百\u{FFFD}?\u{FFFD}"]);
}

#[test]
fn byte_order_marks_and_utf16() {
    let p = strict(b"\xEF\xBB\xBF(;C[x])").unwrap();
    assert_eq!(p.charset, "UTF-8");
    assert_eq!(root(&p, 0).span().start, 1);
    let le: Vec<u8> = "\u{FEFF}(;CA[UTF-16LE]C[漢字])"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let p = strict(&le).unwrap();
    assert_eq!(p.charset, "UTF-16LE");
    assert_eq!(raw(&p, 0, "C"), ["漢字"]);
    let be: Vec<u8> = "(;CA[UTF-16BE]C[漢字])"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let p = strict(&be).unwrap();
    assert_eq!(p.charset, "UTF-16BE");
    assert_eq!(raw(&p, 0, "C"), ["漢字"]);
}

#[test]
fn later_games_with_another_charset() {
    // littlego encoding-multiple.sgf: each game in its own charset, nothing
    // to say.
    let p = strict(b"(;FF[4]GM[1]CA[UTF-8])\n(;FF[4]GM[1]CA[ISO-8859-1])").unwrap();
    assert_eq!(issues(&p), []);
    // A GB18030 game then a Shift_JIS one whose comment holds 0x5C ('\\')
    // as the second byte of its characters.
    let (g1, _, _) = encoding_rs::GB18030.encode("(;CA[GB18030]PB[古力]C[黑棋胜])");
    let (g2, _, _) = encoding_rs::SHIFT_JIS.encode("\n(;CA[Shift_JIS]PB[井山裕太]C[ソ表示];B[aa])");
    assert!(g2.contains(&0x5C));
    let p = lenient(&[g1.as_ref(), g2.as_ref()].concat());
    assert_eq!(issues(&p), []);
    assert_eq!(p.charset, "gb18030");
    let value =
        |tree: usize, ident: &str| root(&p, tree).get(ident).unwrap().first().unwrap().text();
    assert_eq!(value(0, "PB"), "古力");
    assert_eq!(value(0, "C"), "黑棋胜");
    assert_eq!(value(1, "PB"), "井山裕太");
    assert_eq!(value(1, "C"), "ソ表示");
    assert_eq!(p.collection.trees[1].main_line().count(), 2);
    // A byte order mark fixes one charset for the file: the later CA is
    // noted, not followed.
    let p = strict(b"\xEF\xBB\xBF(;CA[UTF-8])\n(;CA[ISO-8859-1])").unwrap();
    assert_eq!(
        issues(&p),
        [Issue::CharsetMismatch {
            declared: "ISO-8859-1".into(),
            charset: "UTF-8"
        }]
    );
}

#[test]
fn limits() {
    let opts = ParseOptions {
        max_bytes: 10,
        ..ParseOptions::lenient()
    };
    assert_eq!(
        parse(b"(;GM[1]C[long])", &opts).unwrap_err(),
        ParseError::TooLarge {
            size: 15,
            limit: 10
        }
    );
    let opts = ParseOptions {
        max_nodes: 3,
        ..ParseOptions::lenient()
    };
    let e = parse(b"(;a[];b[];B[];C[])", &opts).unwrap_err();
    assert!(
        matches!(e, ParseError::TooManyNodes { limit: 3, .. }),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "byte 13 (line 1, column 14): more than 3 nodes"
    );
    // Warnings are capped.
    let junk = "(;GM[1])".to_string() + &" x (;)".repeat(3000);
    let p = lenient(junk.as_bytes());
    assert_eq!(p.warnings.len(), tengen_sgf::MAX_WARNINGS + 1);
    assert!(matches!(
        p.warnings.last().unwrap().issue,
        Issue::TooManyWarnings { suppressed: 2000 }
    ));
}

#[test]
fn writer_layout() {
    let mut src = String::from("(;GM[1]FF[4]SZ[19]");
    for i in 0..300 {
        let c = char::from(b'a' + (i % 19) as u8);
        src.push_str(&format!(";{}[{c}{c}]", if i % 2 == 0 { 'B' } else { 'W' }));
    }
    src.push_str("(;B[aa])(;B[bb](;W[cc])(;W[dd])))");
    let p = strict(src.as_bytes()).unwrap();
    let text = write(&p.collection);
    assert!(
        text.lines().all(|l| l.len() <= tengen_sgf::LINE_WIDTH + 8),
        "{text}"
    );
    assert!(text.starts_with("(;GM[1]FF[4]SZ[19]\n;B[aa];W[bb]"));
    assert!(
        text.contains("\n(;B[aa])\n(;B[bb]\n(;W[cc])\n(;W[dd])))\n"),
        "{text}"
    );
    roundtrip(&p);
}

#[test]
fn ogs_one_variation_per_move_writes_as_a_main_line() {
    let p = strict(b"(;GM[1](;B[aa](;W[bb](;B[cc]))))").unwrap();
    assert_eq!(write(&p.collection), "(;GM[1]\n;B[aa];W[bb];B[cc])\n");
    roundtrip(&p);
}

#[test]
fn built_trees_escape_what_they_must() {
    let mut root = Node::new();
    root.push("GM", ["1"])
        .push("C", ["brackets ] and \\ backslashes: kept"])
        .push("PB", ["柯洁"]);
    root.push_values("LB", [Value::from_composed("aa", "a:b]")])
        .unwrap();
    root.push_values("AB", [Value::from_raw("aa:cc").unwrap()])
        .unwrap();
    let mut tree = GameTree::with_root(root);
    let mut b = Node::new();
    b.push("B", ["pd"]);
    let b = tree.add_child(tree.root(), b);
    let mut w1 = Node::new();
    w1.push("W", ["dd"]);
    let mut w2 = Node::new();
    w2.push("W", ["dp"]).push("TE", [""; 0]);
    tree.add_child(b, w1);
    tree.add_child(b, w2);
    let collection = tengen_sgf::Collection { trees: vec![tree] };
    let text = write(&collection);
    assert_eq!(
        text,
        "(;GM[1]C[brackets \\] and \\\\ backslashes: kept]PB[柯洁]LB[aa:a\\:b\\]]AB[aa:cc]\n\
         ;B[pd]\n(;W[dd])\n(;W[dp]TE[]))\n"
    );
    let p = strict(text.as_bytes()).unwrap();
    assert_eq!(p.collection, collection);
    let t = &p.collection.trees[0];
    let root = t.node(t.root());
    assert_eq!(
        root.value("C").unwrap().text(),
        "brackets ] and \\ backslashes: kept"
    );
    assert_eq!(
        root.value("LB").unwrap().composed(),
        Some(("aa".into(), "a:b]".into()))
    );
}

#[test]
fn charset_of_written_text() {
    // A GB2312 file written out and saved as UTF-8 says so.
    let (gb, _, _) = encoding_rs::GBK.encode("(;CA[GB2312]PB[柯洁])");
    let mut p = strict(&gb).unwrap();
    p.collection.set_charset_utf8();
    let text = write(&p.collection);
    let again = strict(text.as_bytes()).unwrap();
    assert_eq!(again.charset, "UTF-8");
    assert!(again.warnings.is_empty());
    assert_eq!(raw(&again, 0, "PB"), ["柯洁"]);
    assert_eq!(raw(&again, 0, "CA"), ["UTF-8"]);
}
