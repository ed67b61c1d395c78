//! GTP transcripts against the built binary: every command, every error
//! string, ids, comments, control characters and blank lines, as a
//! controller sees them on the pipe.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// One response: success or failure, the id echoed, the text.
#[derive(Debug, Clone, PartialEq)]
struct Reply {
    ok: bool,
    id: Option<u32>,
    text: String,
}

fn engine() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tengen"));
    c.args(["gtp", "--playouts", "300", "--threads", "1"]);
    c
}

/// A running `tengen gtp` with its pipes.
fn spawn() -> Child {
    spawn_with(&[])
}

/// `tengen gtp` with more arguments.
fn spawn_with(args: &[&str]) -> Child {
    engine()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tengen gtp starts")
}

/// Everything the engine writes for `input` (closed at its end); the
/// session must end cleanly.
fn raw(input: &[u8]) -> String {
    let mut child = spawn();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let mut out = String::new();
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_to_string(&mut out).unwrap();
    assert!(child.wait().unwrap().success());
    out
}

/// Runs a whole transcript and splits the output into responses.
fn transcript(input: &[u8]) -> Vec<Reply> {
    parse_replies(&raw(input))
}

fn parse_replies(out: &str) -> Vec<Reply> {
    assert!(
        out.is_empty() || out.ends_with("\n\n"),
        "unterminated: {out:?}"
    );
    out.split_terminator("\n\n")
        .map(|r| {
            let (status, rest) = r.split_at(1);
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            Reply {
                ok: match status {
                    "=" => true,
                    "?" => false,
                    _ => panic!("bad status in {r:?}"),
                },
                id: rest[..digits].parse().ok(),
                text: rest[digits..]
                    .strip_prefix(' ')
                    .unwrap_or(&rest[digits..])
                    .to_string(),
            }
        })
        .collect()
}

fn ok(text: &str) -> Reply {
    Reply {
        ok: true,
        id: None,
        text: text.to_string(),
    }
}

fn err(text: &str) -> Reply {
    Reply {
        ok: false,
        id: None,
        text: text.to_string(),
    }
}

/// The board of a `showboard` answer: rows of X, O and `.`, top first.
fn rows(showboard: &str) -> Vec<String> {
    showboard
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            l.split_whitespace()
                .filter(|w| matches!(*w, "X" | "O" | "."))
                .collect::<String>()
        })
        .collect()
}

#[test]
fn administrative_commands_ids_comments_and_control_characters() {
    let r = transcript(
        b"1 protocol_version\nname\n# a comment line\n\n   \n\t\n2 version # trailing comment\n\
          3 known_command play\nknown_command frobnicate\nknown_command\n\
          4 na\x01me\x7f\r\n5\tknown_command\tgenmove\n42\nfrobnicate\n6 frobnicate 1 2\n7 list_commands\n8 quit\nname\n",
    );
    assert_eq!(
        r[0],
        Reply {
            id: Some(1),
            ..ok("2")
        }
    );
    assert_eq!(r[1], ok("tengen"));
    assert_eq!(r[2].id, Some(2));
    assert_eq!(r[2].text, env!("CARGO_PKG_VERSION"));
    assert_eq!(
        r[3],
        Reply {
            id: Some(3),
            ..ok("true")
        }
    );
    assert_eq!(r[4], ok("false"));
    assert_eq!(r[5], err("syntax error"));
    assert_eq!(
        r[6],
        Reply {
            id: Some(4),
            ..ok("tengen")
        }
    );
    assert_eq!(
        r[7],
        Reply {
            id: Some(5),
            ..ok("true")
        }
    );
    assert_eq!(r[8], err("unknown command"));
    assert_eq!(
        r[9],
        Reply {
            id: Some(6),
            ..err("unknown command")
        }
    );
    let listed: Vec<&str> = r[10].text.lines().collect();
    assert_eq!(r[10].id, Some(7));
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "rectangular_boardsize",
        "clear_board",
        "komi",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
        "play",
        "genmove",
        "undo",
        "final_score",
        "final_status_list",
        "time_settings",
        "time_left",
        "kgs-time_settings",
        "kgs-rules",
        "kgs-genmove_cleanup",
        "loadsgf",
        "printsgf",
        "showboard",
        "reg_genmove",
        "cputime",
        "kata-set-rules",
        "kata-get-rules",
        "lz-analyze",
        "kata-analyze",
        "lz-genmove_analyze",
        "gogui-analyze_commands",
    ] {
        assert!(listed.contains(&c), "{c} not listed");
    }
    // quit answers and ends the session: the last `name` gets no answer.
    assert_eq!(
        r[11],
        Reply {
            id: Some(8),
            ..ok("")
        }
    );
    assert_eq!(r.len(), 12);
}

#[test]
fn the_wire_format_is_the_reference_one() {
    let out = raw(b"9 boardsize 9\nboardsize 0\nquit\n");
    assert_eq!(out, "=9 \n\n? unacceptable size\n\n= \n\n");
}

#[test]
fn board_sizes_and_their_limits() {
    let r = transcript(
        b"boardsize 1\nshowboard\nboardsize 25\nboardsize 0\nboardsize 26\nboardsize x\nboardsize\n\
          rectangular_boardsize 7 5\nshowboard\nrectangular_boardsize 7 26\nplay b G5\nplay b H5\nclear_board\nshowboard\n",
    );
    assert_eq!(r[0], ok(""));
    assert_eq!(rows(&r[1].text), ["."]);
    assert_eq!(r[2], ok(""));
    assert_eq!(r[3], err("unacceptable size"));
    assert_eq!(r[4], err("unacceptable size"));
    assert_eq!(r[5], err("syntax error"));
    assert_eq!(r[6], err("syntax error"));
    assert_eq!(r[7], ok(""));
    assert_eq!(rows(&r[8].text), vec![".......".to_string(); 5]);
    assert_eq!(r[9], err("unacceptable size"));
    assert_eq!(r[10], ok(""));
    assert_eq!(r[11], err("invalid coordinate"));
    assert_eq!(rows(&r[13].text), vec![".......".to_string(); 5]);
}

#[test]
fn play_errors_occupied_suicide_ko_and_superko() {
    let r = transcript(
        b"boardsize 9\nplay black\nplay purple A1\nplay b I5\nplay b Z9\nplay b K1\nplay B a1\n\
          play w A1\nplay w A2\nplay w B2\nplay w c1\nplay b B1\n\
          boardsize 5\nkgs-rules japanese\nplay b B4\nplay b A3\nplay b B2\nplay w C4\nplay w B3\nplay w C2\nplay w D3\n\
          play b C3\nplay w B3\nplay w E5\nplay b E4\nplay w B3\n\
          kgs-rules chinese\nboardsize 2\nplay b A2\nplay w B2\nplay b A1\nplay w pass\nplay b B1\nplay w B2\n\
          play b A2\nkgs-rules japanese\nplay b A2\n",
    );
    assert_eq!(r[0], ok(""));
    assert_eq!(r[1], err("syntax error"));
    assert_eq!(r[2], err("invalid color"));
    assert_eq!(r[3], err("invalid coordinate"), "the letter I is skipped");
    assert_eq!(r[4], err("invalid coordinate"));
    assert_eq!(r[5], err("invalid coordinate"), "K is the tenth column");
    assert_eq!(r[6], ok(""));
    assert_eq!(r[7], err("illegal move"), "occupied");
    assert_eq!(&r[8..11], [ok(""), ok(""), ok("")]);
    assert_eq!(r[11], err("illegal move"), "suicide");
    for reply in &r[12..21] {
        assert_eq!(*reply, ok(""));
    }
    // Black takes the ko; White may not retake at once...
    assert_eq!(r[21], ok(""));
    assert_eq!(r[22], err("illegal move"), "ko");
    // ...but may after an exchange elsewhere.
    assert_eq!(&r[23..26], [ok(""), ok(""), ok("")]);
    // 2x2 (RULES.md: a non-capturing play can break positional superko).
    for reply in &r[26..34] {
        assert_eq!(*reply, ok(""));
    }
    assert_eq!(r[34], err("illegal move"), "positional superko");
    // Under simple ko the same play is legal.
    assert_eq!(r[35], ok(""));
    assert_eq!(r[36], ok(""));
}

#[test]
fn komi_handicap_and_undo() {
    let r = transcript(
        b"boardsize 9\nkomi 6.5\nget_komi\nkomi seven\nkomi\nclear_board\nget_komi\n\
          fixed_handicap 4\nfixed_handicap 2\nclear_board\nfixed_handicap 1\nfixed_handicap 10\n\
          place_free_handicap 3\nshowboard\nclear_board\n\
          set_free_handicap D4\nset_free_handicap D4 D4\nset_free_handicap D4 pass\nset_free_handicap D4 Z1\n\
          set_free_handicap D4 F6\nshowboard\nundo\nundo\nplay b E5\nundo\nshowboard\nundo\n\
          boardsize 8\nfixed_handicap 5\nfixed_handicap 4\n",
    );
    assert_eq!(r[1], ok(""));
    assert_eq!(r[2], ok("6.5"));
    assert_eq!(r[3], err("komi not a float"));
    assert_eq!(r[4], err("syntax error"));
    assert_eq!(r[6], ok("6.5"), "komi is kept by clear_board");
    assert_eq!(r[7], ok("C7 G7 C3 G3"));
    assert_eq!(r[8], err("board not empty"));
    assert_eq!(r[10], err("invalid number of stones"));
    assert_eq!(r[11], err("invalid number of stones"));
    assert_eq!(r[12].text.split_whitespace().count(), 3, "{:?}", r[12]);
    assert_eq!(rows(&r[13].text).concat().matches('X').count(), 3);
    for reply in &r[15..19] {
        assert_eq!(*reply, err("bad vertex list"));
    }
    assert_eq!(r[19], ok(""));
    let board = rows(&r[20].text);
    assert_eq!(board[3], ".....X...");
    assert_eq!(board[5], "...X.....");
    // Nothing was played: the handicap stones are not a turn to undo.
    assert_eq!(r[21], err("cannot undo"));
    assert_eq!(r[22], err("cannot undo"));
    assert_eq!(r[23], ok(""));
    assert_eq!(r[24], ok(""));
    assert_eq!(rows(&r[25].text).concat().matches('X').count(), 2);
    assert_eq!(r[26], err("cannot undo"));
    assert_eq!(r[28], err("invalid number of stones"));
    assert_eq!(r[29], ok("C6 F6 C3 F3"));
}

#[test]
fn genmove_reg_genmove_and_cleanup_play_legal_moves() {
    let r = transcript(
        b"boardsize 9\nkomi 7\nplay b E5\ngenmove w\nreg_genmove b\nshowboard\ngenmove black\n\
          kgs-genmove_cleanup w\ngenmove x\ngenmove\ncputime\nshowboard\nundo\nshowboard\n",
    );
    let w = &r[3];
    assert!(w.ok);
    assert_ne!(w.text, "E5");
    let board = rows(&r[5].text).concat();
    assert_eq!(board.matches('X').count(), 1, "reg_genmove plays nothing");
    assert_eq!(board.matches('O').count(), 1);
    assert!(r[4].ok && !r[4].text.is_empty());
    assert!(r[6].ok && r[7].ok);
    assert_eq!(r[8], err("invalid color"));
    assert_eq!(r[9], err("syntax error"));
    let seconds: f64 = r[10].text.parse().unwrap();
    assert!(seconds > 0.0);
    let stones = |i: usize| rows(&r[i].text).concat().matches(['X', 'O']).count();
    assert_eq!(stones(11), 4);
    assert_eq!(r[12], ok(""));
    assert_eq!(stones(13), 3);
}

/// At `RUST_LOG=info`, each generated move is written to standard error
/// with what the search saw; standard output stays pure GTP.
#[test]
fn genmove_tells_its_search_on_stderr_at_info() {
    let mut child = engine()
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen gtp starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"boardsize 9\nplay b E5\ngenmove w\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let replies = parse_replies(&String::from_utf8(out.stdout).unwrap());
    let played = &replies[2].text;
    let err = String::from_utf8(out.stderr).unwrap();
    let line = err
        .lines()
        .find(|l| l.contains("White "))
        .unwrap_or_else(|| panic!("no line for the move in {err:?}"));
    assert!(line.contains(&format!("White {played} after ")), "{line}");
    assert!(
        line.contains("simulations") && line.contains("lead "),
        "{line}"
    );
}

#[test]
fn genmove_for_the_side_not_to_move_and_after_two_passes() {
    let r = transcript(
        b"boardsize 9\ngenmove w\ngenmove w\nplay b pass\nplay w pass\ngenmove b\nshowboard\n",
    );
    for reply in &r[1..6] {
        assert!(reply.ok, "{reply:?}");
    }
    let whites = rows(&r[6].text).concat().matches('O').count();
    assert!(whites >= 1, "{:?}", r[6]);
}

/// A 5x5 board: Black owns the two left columns, White the three right
/// ones, and a white stone sits dead on Black's edge.
const WALLS: &[u8] = b"boardsize 5\nkomi 0.5\n\
    play b B1\nplay b B2\nplay b B3\nplay b B4\nplay b B5\n\
    play w C1\nplay w C2\nplay w C3\nplay w C4\nplay w C5\nplay w A3\n";

#[test]
fn final_score_and_final_status_list() {
    let mut input = WALLS.to_vec();
    input.extend_from_slice(
        b"final_status_list dead\nfinal_status_list alive\nfinal_status_list seki\n\
          final_status_list nonsense\nfinal_status_list\nfinal_score\nplay b pass\nplay w pass\nfinal_score\n",
    );
    let r = transcript(&input);
    let n = 13;
    assert_eq!(r[n], ok("A3"));
    assert_eq!(r[n + 1], ok("B5 B4 B3 B2 B1\nC5 C4 C3 C2 C1"));
    assert_eq!(r[n + 2], ok(""));
    assert_eq!(r[n + 3], err("invalid status"));
    assert_eq!(r[n + 4], err("syntax error"));
    // Area: Black 10, White 15 + 0.5.
    assert_eq!(r[n + 5], ok("W+5.5"));
    assert_eq!(r[n + 8], ok("W+5.5"));
}

#[test]
fn time_settings_and_time_left() {
    let r = transcript(
        b"boardsize 9\ntime_settings 600 30 5\ntime_left b 100 0\ntime_left white 20 3\ntime_left b 1\n\
          time_left x 1 0\ntime_settings 1 2\nkgs-time_settings byoyomi 60 10 3\nkgs-time_settings none\n\
          kgs-time_settings absolute 30\nkgs-time_settings canadian 60 30 5\nkgs-time_settings fischer 1 2\n\
          kgs-time_settings\ntime_settings 10 0 0\ntime_left b 2 0\ngenmove b\n",
    );
    for i in [1, 2, 3, 7, 8, 9, 10, 13, 14] {
        assert_eq!(r[i], ok(""), "reply {i}");
    }
    for i in [4, 6, 11, 12] {
        assert_eq!(r[i], err("syntax error"), "reply {i}");
    }
    assert_eq!(r[5], err("invalid color"));
    assert!(r[15].ok);
}

#[test]
fn rules_by_kgs_and_katago_names() {
    let r = transcript(
        b"kata-get-rules\nkgs-rules japanese\nkata-get-rules\nkgs-rules new_zealand\nkata-get-rules\n\
          kgs-rules aga\nkata-get-rules\nkata-set-rules tromp-taylor\nkata-get-rules\n\
          kata-set-rules koSIMPLEscoreAREAtaxNONEsui0whbNkomi6\nkata-get-rules\nkata-set-rules ing-goe\nkgs-rules\n\
          kata-set-rules capture-five\nboardsize 5\nplay b C3\nplay w pass\nplay b pass\nfinal_score\n",
    );
    // KataGo's JSON, which clients read (fields in KataGo's order).
    assert_eq!(
        r[0],
        ok(
            r#"{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","komi":7.5,"scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}"#
        )
    );
    assert!(r[2].text.contains(r#""scoring":"TERRITORY""#), "{:?}", r[2]);
    assert!(r[2].text.contains(r#""tax":"SEKI""#), "{:?}", r[2]);
    assert!(r[4].text.contains(r#""ko":"SITUATIONAL""#), "{:?}", r[4]);
    assert!(r[4].text.contains(r#""suicide":true"#), "{:?}", r[4]);
    assert!(
        r[6].text.contains(r#""whiteHandicapBonus":"N-1""#),
        "{:?}",
        r[6]
    );
    assert!(
        r[8].text.contains(r#""whiteHandicapBonus":"0""#),
        "{:?}",
        r[8]
    );
    assert_eq!(r[9], ok(""));
    assert!(r[10].text.contains(r#""komi":6"#), "{:?}", r[10]);
    assert!(
        !r[11].ok && r[11].text.starts_with("unknown rules"),
        "{:?}",
        r[11]
    );
    assert!(!r[12].ok);
    // A capture game ends at two passes with equal captures: a draw.
    assert_eq!(r[18], ok("0"));
}

/// KataGo's JSON rules are read, their unknown fields named, and the tax
/// is kept (the count honours it, see core's scoring) or refused, never
/// ignored.
#[test]
fn katago_json_rules_and_the_tax() {
    let r = transcript(
        b"kata-set-rules {\"ko\":\"SIMPLE\",\"scoring\":\"TERRITORY\",\"tax\":\"NONE\",\"suicide\":false,\"hasButton\":false,\"whiteHandicapBonus\":\"0\"}\n\
          kata-get-rules\nkata-set-rules {\"ko\":\"SIMPLE\",\"colour\":\"red\"}\n\
          kata-set-rules {\"tax\":\"ALL\"}\nkata-set-rules koSIMPLEscoreAREAtaxALL\n\
          kata-set-rules {\"ko\":\"SIMPLE\"\n",
    );
    assert_eq!(r[0], ok(""));
    assert!(r[1].text.contains(r#""tax":"NONE""#), "{:?}", r[1]);
    assert!(r[1].text.contains(r#""scoring":"TERRITORY""#), "{:?}", r[1]);
    assert!(!r[2].ok && r[2].text.contains("\"colour\""), "{:?}", r[2]);
    assert!(!r[3].ok && r[3].text.contains("taxALL"), "{:?}", r[3]);
    assert!(!r[4].ok && r[4].text.contains("taxALL"), "{:?}", r[4]);
    assert!(!r[5].ok && r[5].text.contains("JSON"), "{:?}", r[5]);
}

/// A real record: a KGS 9-stone handicap game, Japanese rules.
fn kgs_record() -> PathBuf {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        data.is_dir(),
        "the shared data is required: {}",
        data.display()
    );
    let path = data.join("kgs_6d/KGS_6d_190000/KGS-2001-19-2298-.tar.gz/KGS2001/2000-10-10-1.sgf");
    assert!(path.is_file(), "{} missing", path.display());
    path
}

#[test]
fn loadsgf_a_real_record_and_printsgf_reads_back() {
    let record = kgs_record();
    let dir = std::env::temp_dir().join(format!("tengen-gtp-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let printed = dir.join("printed.sgf");
    let input = format!(
        "loadsgf {rec} 3\nshowboard\nkata-get-rules\nloadsgf {rec}\nprintsgf {out}\nprintsgf\n\
         loadsgf /nonexistent/game.sgf\nloadsgf\nloadsgf {rec} x\nboardsize 9\nplay b C3\nplay w pass\nprintsgf\n",
        rec = record.display(),
        out = printed.display()
    );
    let r = transcript(input.as_bytes());
    // Handicap: White's mp, Black's pn, then White to move.
    assert_eq!(r[0], ok("white"));
    let board = rows(&r[1].text).concat();
    assert_eq!(board.matches('X').count(), 10);
    assert_eq!(board.matches('O').count(), 1);
    assert!(r[2].text.contains(r#""scoring":"TERRITORY""#), "{:?}", r[2]);
    assert!(r[2].text.contains(r#""komi":0.5"#), "{:?}", r[2]);
    assert!(r[3].ok);
    assert_eq!(r[4], ok(""));
    let text = std::fs::read_to_string(&printed).unwrap();
    assert_eq!(text.trim(), r[5].text.trim());
    let original = tengen_sgf::parse(
        &std::fs::read(&record).unwrap(),
        &tengen_sgf::ParseOptions::lenient(),
    )
    .unwrap();
    let back = tengen_sgf::parse_str(&text, &tengen_sgf::ParseOptions::strict()).unwrap();
    let options = tengen_sgf::record::ReplayOptions {
        mode: tengen_sgf::record::ReplayMode::Tolerant,
        ..Default::default()
    };
    let (_, a) =
        tengen_sgf::record::replay_main_line(&original.collection.trees[0], &options).unwrap();
    let (_, b) = tengen_sgf::record::replay_main_line(&back.collection.trees[0], &options).unwrap();
    assert_eq!(a.game.turns(), b.game.turns());
    assert_eq!(a.game.board(), b.game.board());
    assert_eq!(a.game.handicap(), 9);
    assert_eq!(b.game.handicap(), 9);
    assert_eq!(r[6], err("cannot load file"));
    assert_eq!(r[7], err("syntax error"));
    assert_eq!(r[8], err("syntax error"));
    assert!(r[12].text.contains(";B[cg]"), "{}", r[12].text);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn showboard_and_gogui_analyze_commands() {
    let r = transcript(b"boardsize 3\nplay b A1\nplay w C3\nshowboard\ngogui-analyze_commands\n");
    assert_eq!(
        r[3].text,
        "\n    A B C\n 3  . . O  3\n 2  . . .  2\n 1  X . .  1\n    A B C\ncaptures: black 0 white 0"
    );
    for line in r[4].text.lines() {
        assert_eq!(line.split('/').count(), 3, "{line}");
    }
}

/// A running engine for the streaming commands.
struct Live {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Live {
    fn start() -> Live {
        Live::start_with(&[])
    }

    fn start_with(args: &[&str]) -> Live {
        let mut child = spawn_with(args);
        let out = BufReader::new(child.stdout.take().unwrap());
        Live { child, out }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, without its newline.
    fn line(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.out.read_line(&mut line).unwrap() > 0,
            "the engine stopped"
        );
        line.trim_end_matches('\n').to_string()
    }

    /// Lines up to the empty line that ends a response.
    fn response(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the engine stopped"
            );
            let line = line.trim_end_matches('\n').to_string();
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The fields of one `info` segment, as Sabaki splits them.
fn segments(line: &str) -> Vec<Vec<&str>> {
    line.split("info ")
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.split_whitespace().collect())
        .collect()
}

/// The value after `key` in a segment.
fn field<'a>(segment: &[&'a str], key: &str) -> &'a str {
    let at = segment.iter().position(|w| *w == key).unwrap();
    segment[at + 1]
}

#[test]
fn lz_analyze_streams_until_the_next_line() {
    let mut e = Live::start();
    e.send("boardsize 9");
    assert_eq!(e.response(), ["= "]);
    e.send("play b E5");
    e.response();
    e.send("7 lz-analyze w 5");
    // Let it report a few times, then interrupt with any command.
    assert_eq!(e.line(), "=7");
    let line = e.line();
    e.send("name");
    let mut lines = vec![line];
    lines.extend(e.response());
    assert_eq!(e.response(), ["= tengen"]);
    for line in &lines {
        let segs = segments(line);
        assert!(!segs.is_empty());
        for (order, s) in segs.iter().enumerate() {
            assert_eq!(s[0], "move");
            let field = |k: &str| field(s, k);
            let visits: u64 = field("visits").parse().unwrap();
            let winrate: u32 = field("winrate").parse().unwrap();
            let prior: u32 = field("prior").parse().unwrap();
            assert!(visits > 0 && winrate <= 10000 && prior <= 10000);
            assert_eq!(field("order"), order.to_string());
            let pv = s.iter().position(|w| *w == "pv").unwrap();
            assert_eq!(s[pv + 1], s[1], "the pv starts with the move");
            assert!(
                s[pv + 1..].iter().all(|v| v.len() <= 3),
                "pv is last: {s:?}"
            );
            assert_ne!(s[1], "E5");
        }
    }
}

#[test]
fn kata_analyze_gives_ownership_and_genmove_analyze_plays() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.response();
    e.send("kata-analyze b interval 5 ownership true");
    assert_eq!(e.line(), "=");
    let line = e.line();
    e.send("protocol_version");
    e.response();
    assert_eq!(e.response(), ["= 2"]);
    let (infos, own) = line.split_once(" ownership ").unwrap();
    assert_eq!(own.split_whitespace().count(), 81);
    for v in own.split_whitespace() {
        let v: f64 = v.parse().unwrap();
        assert!((-1.0..=1.0).contains(&v));
    }
    for s in segments(infos) {
        let field = |k: &str| field(&s, k);
        let w: f64 = field("winrate").parse().unwrap();
        assert!((0.0..=1.0).contains(&w));
        field("scoreLead").parse::<f64>().unwrap();
        field("utility").parse::<f64>().unwrap();
    }
    e.send("3 lz-genmove_analyze b 5");
    let lines = e.response();
    assert_eq!(lines[0], "=3");
    let last = lines.last().unwrap();
    let played = last.strip_prefix("play ").unwrap();
    e.send("showboard");
    let board = rows(&e.response().join("\n")).concat();
    assert_eq!(board.matches('X').count(), 1, "{played} was played");
    e.send("lz-analyze b 5 avoid b D4");
    assert_eq!(e.response(), ["? syntax error"]);
    e.send("kata-genmove_analyze w");
    let lines = e.response();
    assert!(lines.last().unwrap().starts_with("play "));
}

#[test]
fn the_end_of_input_ends_an_analysis_and_the_session() {
    let out = raw(b"boardsize 9\nlz-analyze b 10\n");
    assert!(out.starts_with("= \n\n=\n"), "{out:?}");
    assert!(out.ends_with("\n\n"));
}

#[test]
fn tengen_explain_names_the_last_move() {
    let r = transcript(
        b"boardsize 19\nplay b D4\nplay w Q16\nplay b F3\ntengen-explain F3\ntengen-explain D4\n\
          tengen-explain\ntengen-explain Z1\nclear_board\ntengen-explain D4\nplay b pass\ntengen-explain pass\n",
    );
    assert_eq!(r[4], ok("3 B F3 keima keima from D4"));
    assert_eq!(r[5], err("only the last move can be explained"));
    assert_eq!(r[6], err("syntax error"));
    assert_eq!(r[7], err("invalid coordinate"));
    assert_eq!(r[9], err("no move to explain"));
    assert_eq!(r[11], ok("1 B pass - a pass"));
}

#[test]
fn seki_is_listed_as_seki_not_dead() {
    // RULES.md's seki: one eye each and a shared liberty at D2.
    let r = transcript(
        b"rectangular_boardsize 7 2\nplay b B2\nplay b C2\nplay b A1\nplay b B1\nplay b C1\nplay b D1\n\
          play w E2\nplay w F2\nplay w E1\nplay w F1\nplay w G1\n\
          final_status_list seki\nfinal_status_list dead\nfinal_status_list alive\nkgs-rules japanese\nfinal_score\n",
    );
    assert_eq!(r[12], ok("B2 C2 A1 B1 C1 D1\nE2 F2 E1 F1 G1"));
    assert_eq!(r[13], ok(""));
    assert_eq!(r[14], ok(""));
    // Territory scoring counts nothing in seki: komi decides.
    assert_eq!(r[16], ok("W+6.5"));
}

/// The moves of every `info` segment of the lines of an analysis.
fn info_moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .flat_map(|l| {
            let infos = l.split(" ownership ").next().unwrap_or(l);
            segments(infos)
                .into_iter()
                .map(|s| field(&s, "move").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The lines of an analysis started with `command`, after a few reports,
/// interrupted by `name`.
fn analysis_lines(e: &mut Live, command: &str) -> Vec<String> {
    e.send(command);
    assert!(e.line().starts_with('='));
    let mut lines = vec![e.line(), e.line()];
    e.send("name");
    lines.extend(e.response());
    assert_eq!(e.response(), ["= tengen"]);
    lines
}

/// The 25 points from C3 to G7 of a 9x9 board.
fn centre_block() -> Vec<String> {
    "CDEFG"
        .chars()
        .flat_map(|c| (3..=7).map(move |r| format!("{c}{r}")))
        .collect()
}

#[test]
fn avoid_keeps_moves_out_of_the_analysis_and_the_move_played() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.response();
    let avoided = centre_block();
    let list = avoided.join(",");
    for command in [
        format!("lz-analyze b 5 avoid b {list} 1"),
        "kata-analyze b interval 5 avoid b C3:G7 1 ownership true".to_string(),
    ] {
        let moves = info_moves(&analysis_lines(&mut e, &command));
        assert!(!moves.is_empty(), "{command}");
        for m in &moves {
            assert!(!avoided.contains(m), "{command}: {m}");
        }
    }
    e.send("lz-genmove_analyze b 5 avoid b C3:G7 1");
    let lines = e.response();
    assert_eq!(lines[0], "=");
    for m in info_moves(&lines) {
        assert!(!avoided.contains(&m), "{m}");
    }
    let played = lines.last().unwrap().strip_prefix("play ").unwrap();
    assert!(!avoided.iter().any(|v| v == played), "{played}");
    e.send("showboard");
    let board = rows(&e.response().join("\n")).concat();
    assert_eq!(board.matches('X').count(), 1, "{played} was played");
}

#[test]
fn allow_restricts_the_root_to_its_vertices_for_its_colour_only() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.response();
    let allowed = ["A1", "J9", "E5", "pass"];
    let moves = info_moves(&analysis_lines(&mut e, "lz-analyze b 5 allow b A1,J9,E5 1"));
    assert!(!moves.is_empty());
    for m in &moves {
        assert!(allowed.contains(&m.as_str()), "{m}");
    }
    // A restriction of White leaves Black's root moves alone.
    let moves = info_moves(&analysis_lines(&mut e, "lz-analyze b 5 allow w A1 1"));
    assert!(moves.iter().any(|m| m != "A1" && m != "pass"), "{moves:?}");
    // And does not outlive its command.
    let moves = info_moves(&analysis_lines(&mut e, "lz-analyze b 5"));
    assert!(
        moves.iter().any(|m| !allowed.contains(&m.as_str())),
        "{moves:?}"
    );
}

#[test]
fn malformed_avoid_and_allow_clauses_are_syntax_errors() {
    let r = transcript(
        b"boardsize 9\n1 lz-analyze b 5 avoid b D4\n2 kata-analyze b 5 avoid x D4 1\n\
          3 lz-analyze b 5 avoid b Z9 1\n4 lz-analyze b 5 avoid b D4 0\n\
          5 kata-analyze b allow b D4 1 allow b E5 1\n6 lz-genmove_analyze b allow b D4 1 avoid b E5 1\n\
          7 kata-genmove_analyze b avoid b D4,,E5 1\nshowboard\n",
    );
    for (i, reply) in r[1..8].iter().enumerate() {
        assert_eq!(
            *reply,
            Reply {
                ok: false,
                id: Some(i as u32 + 1),
                text: "syntax error".into(),
            }
        );
    }
    assert!(
        !rows(&r[8].text).concat().contains('X'),
        "nothing was played"
    );
}

#[test]
fn place_free_handicap_keeps_star_points_and_chooses_elsewhere() {
    let r = transcript(
        b"boardsize 19\nplace_free_handicap 9\nplace_free_handicap 2\nclear_board\n\
          place_free_handicap 1\nplace_free_handicap 361\n\
          boardsize 9\nplace_free_handicap 12\ngenmove w\nshowboard\n\
          boardsize 7\nplace_free_handicap 6\ngenmove w\nshowboard\n\
          rectangular_boardsize 19 5\nplace_free_handicap 7\ngenmove w\nshowboard\n",
    );
    let mut stars: Vec<&str> = r[1].text.split_whitespace().collect();
    stars.sort();
    assert_eq!(
        stars,
        ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
    );
    assert_eq!(r[2], err("board not empty"));
    assert_eq!(r[4], err("invalid handicap"));
    assert_eq!(r[5], err("invalid handicap"));
    for (at, n) in [(7, 12), (11, 6), (15, 7)] {
        let mut placed: Vec<&str> = r[at].text.split_whitespace().collect();
        placed.sort();
        placed.dedup();
        assert_eq!(placed.len(), n, "{:?}", r[at]);
        assert!(r[at + 1].ok, "{:?}", r[at + 1]);
        let board = rows(&r[at + 2].text).concat();
        assert_eq!(board.matches('X').count(), n);
        let white = board.matches('O').count();
        let stone = !matches!(r[at + 1].text.as_str(), "pass" | "resign");
        assert_eq!(white, usize::from(stone), "genmove plays White");
    }
}

#[test]
fn analysis_priors_are_the_learned_model_which_opens_in_the_corners() {
    for knowledge in ["patterns", "net"] {
        learned_priors_open_in_the_corners(knowledge);
    }
}

fn learned_priors_open_in_the_corners(knowledge: &str) {
    let mut e = Live::start_with(&["--knowledge", knowledge]);
    e.send("boardsize 19");
    e.response();
    e.send("lz-genmove_analyze b 5");
    let lines = e.response();
    let mut best = (0u32, String::new());
    for line in lines.iter().filter(|l| l.starts_with("info ")) {
        for s in segments(line) {
            let prior: u32 = field(&s, "prior").parse().unwrap();
            if prior > best.0 {
                best = (prior, field(&s, "move").to_string());
            }
        }
    }
    // A 4-4 point holds about a seventh of the model's probability.
    assert!(best.0 > 1000, "{knowledge}: {best:?}");
    let corner = |v: &str| {
        let (col, row) = v.split_at(1);
        let row: u32 = row.parse().unwrap();
        "CDQR".contains(col) && [3, 4, 16, 17].contains(&row)
    };
    assert!(corner(&best.1), "{knowledge}: {best:?}");
    let played = lines.last().unwrap().strip_prefix("play ").unwrap();
    assert!(corner(played), "{knowledge}: {played}");
}

/// The komi of a loaded record stays when rules follow; only `komi`
/// changes it.
#[test]
fn a_loaded_komi_outlives_a_change_of_rules() {
    let record = kgs_record();
    let input = format!(
        "loadsgf {rec} 3\nget_komi\nkgs-rules japanese\nget_komi\n\
         kata-set-rules {{\"ko\":\"SIMPLE\",\"scoring\":\"AREA\"}}\nget_komi\nkomi 3\nkgs-rules japanese\nget_komi\n",
        rec = record.display()
    );
    let r = transcript(input.as_bytes());
    assert_eq!(r[0], ok("white"));
    assert_eq!(r[1], ok("0.5"));
    assert_eq!(r[2], ok(""));
    assert_eq!(r[3], ok("0.5"));
    assert_eq!(r[4], ok(""));
    assert_eq!(r[5], ok("0.5"));
    assert_eq!(r[8], ok("3"));
}

/// GNU Go's `loadsgf FILE VERTEX`: up to the first move at the vertex.
#[test]
fn loadsgf_up_to_the_first_move_at_a_vertex() {
    let record = kgs_record();
    // The fourth move is Black's K6 (`jn`).
    let input = format!(
        "boardsize 9\nloadsgf {rec} K6\nshowboard\nloadsgf {rec} k6\nloadsgf {rec} pass\nloadsgf {rec} Z99\n",
        rec = record.display()
    );
    let r = transcript(input.as_bytes());
    assert_eq!(r[1], ok("black"));
    let board = rows(&r[2].text).concat();
    assert_eq!(board.len(), 361);
    assert_eq!(board.matches('X').count(), 10);
    assert_eq!(board.matches('O').count(), 2);
    assert_eq!(r[3], ok("black"));
    assert_eq!(r[4], err("syntax error"));
    assert_eq!(r[5], err("syntax error"));
}

/// KataGo's rectangular `boardsize W:H`.
#[test]
fn boardsize_width_colon_height() {
    let r = transcript(
        b"boardsize 19:13\nshowboard\nplay b T13\nplay b T14\nboardsize 7:0\nboardsize 7:x\n",
    );
    assert_eq!(r[0], ok(""));
    assert_eq!(rows(&r[1].text), vec![".".repeat(19); 13]);
    assert_eq!(r[2], ok(""));
    assert_eq!(r[3], err("invalid coordinate"));
    assert_eq!(r[4], err("unacceptable size"));
    assert_eq!(r[5], err("syntax error"));
}

/// kgsGtp's commands: a private chat gets a reply, the game's chat none
/// (a failure, which kgsGtp does not relay), and the end of the game is
/// acknowledged.
#[test]
fn kgs_chat_and_game_over() {
    let r = transcript(
        b"known_command kgs-chat\nkgs-chat private alice hello tengen\nkgs-chat game bob gg\n\
          kgs-chat lobby carol hi\nkgs-game_over\nknown_command kgs-game_over\n",
    );
    assert_eq!(r[0], ok("true"));
    assert!(r[1].ok && r[1].text.contains("tengen"), "{:?}", r[1]);
    assert!(!r[2].ok, "{:?}", r[2]);
    assert_eq!(r[3], err("syntax error"));
    assert_eq!(r[4], ok(""));
    assert_eq!(r[5], ok("true"));
}

/// The peak resident memory of a process, in KiB (Linux).
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A line past the limit is answered `? line too long` and the session goes
/// on; hundreds of megabytes without a newline cost no more memory than
/// the limit.
#[test]
fn an_endless_line_is_refused_in_bounded_memory() {
    let mut e = Live::start();
    let mut long = b"5 name ".to_vec();
    long.resize(3 << 20, b'x');
    long.push(b'\n');
    e.child.stdin.as_mut().unwrap().write_all(&long).unwrap();
    assert_eq!(e.response(), ["?5 line too long"]);
    e.send("name");
    assert_eq!(e.response(), ["= tengen"]);
    let before = peak_kib(e.child.id());
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..300 {
        e.child.stdin.as_mut().unwrap().write_all(&chunk).unwrap();
    }
    e.send("");
    assert_eq!(e.response(), ["? line too long"]);
    e.send("protocol_version");
    assert_eq!(e.response(), ["= 2"]);
    let after = peak_kib(e.child.id());
    assert!(
        after < before + 64 * 1024,
        "300 MB of one line grew the engine from {before} KiB to {after} KiB"
    );
}

/// Waits for the engine to exit, at most `limit` (a liveness bound, not a
/// timing).
fn exits_within(child: &mut Child, limit: std::time::Duration) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

/// `quit` while `genmove` thinks under an absurd clock stops the search:
/// the move is answered, then `quit`, and the process exits.
#[test]
fn quit_stops_a_long_genmove() {
    let mut e = Live::start();
    e.send("time_settings 100000000 0 0");
    e.send("genmove b");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("quit");
    assert_eq!(e.response(), ["= "]);
    let played = e.response();
    assert!(played[0].starts_with("= "), "{played:?}");
    assert_eq!(e.response(), ["= "]);
    assert!(
        exits_within(&mut e.child, std::time::Duration::from_secs(60)),
        "the engine still runs after quit"
    );
}

/// The end of input stops a long `genmove` too.
#[test]
fn the_end_of_input_stops_a_long_genmove() {
    let mut e = Live::start();
    e.send("time_settings 100000000 0 0");
    e.send("genmove w");
    std::thread::sleep(std::time::Duration::from_millis(300));
    drop(e.child.stdin.take());
    assert_eq!(e.response(), ["= "]);
    assert!(e.response()[0].starts_with("= "));
    assert!(
        exits_within(&mut e.child, std::time::Duration::from_secs(60)),
        "the engine still runs after the end of its input"
    );
}

/// KataGo's `kata-analyze` options, each with KataGo's output; an unknown
/// option is named.
#[test]
fn kata_analyze_takes_katagos_options() {
    let mut e = Live::start();
    e.send("boardsize 9");
    e.response();
    e.send(
        "kata-analyze b interval 5 pvVisits true pvEdgeVisits true rootInfo true \
         ownershipStdev true movesOwnership true maxmoves 2",
    );
    assert_eq!(e.line(), "=");
    let line = e.line();
    e.send("name");
    e.response();
    assert_eq!(e.response(), ["= tengen"]);
    let (infos, rest) = line.split_once(" rootInfo ").unwrap();
    let (root, stdev) = rest.split_once(" ownershipStdev ").unwrap();
    let root: Vec<&str> = root.split_whitespace().collect();
    assert!(field(&root, "visits").parse::<u64>().unwrap() > 0);
    field(&root, "scoreStdev").parse::<f64>().unwrap();
    let stdev: Vec<f64> = stdev
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(stdev.len(), 81);
    assert!(stdev.iter().all(|v| (0.0..=1.0).contains(v)));
    for s in segments(infos) {
        let lcb: f64 = field(&s, "lcb").parse().unwrap();
        let winrate: f64 = field(&s, "winrate").parse().unwrap();
        assert!(lcb <= winrate);
        assert!(field(&s, "scoreStdev").parse::<f64>().unwrap() >= 0.0);
        let at = |key: &str| s.iter().position(|w| *w == key).unwrap();
        let (pv, visits, edges, owned) = (
            at("pv"),
            at("pvVisits"),
            at("pvEdgeVisits"),
            at("movesOwnership"),
        );
        assert_eq!(visits - pv, edges - visits, "one count per pv move: {s:?}");
        assert_eq!(s[visits + 1], field(&s, "visits"));
        assert_eq!(s.len() - owned - 1, 81);
    }
    e.send("kata-analyze b 5 frobnicate true");
    assert_eq!(e.response(), ["? unknown analysis option \"frobnicate\""]);
    e.send("kata-analyze b 5 pvVisits maybe");
    assert_eq!(
        e.response(),
        ["? analysis option \"pvVisits\" takes true or false, not \"maybe\""]
    );
}

/// After the opponent's pass, a pass (which ends play) is weighed and
/// listed.
#[test]
fn pass_is_a_candidate_once_the_opponent_passed() {
    let mut e = Live::start();
    for line in ["boardsize 5", "play b C3", "play w pass"] {
        e.send(line);
        e.response();
    }
    e.send("lz-analyze b 5");
    assert_eq!(e.line(), "=");
    let mut seen = false;
    for _ in 0..200 {
        let line = e.line();
        if segments(&line).iter().any(|s| s[1] == "pass") {
            seen = true;
            break;
        }
    }
    e.send("name");
    assert!(seen, "pass never listed");
}

/// `--name` answers what a client needs to hear (Lizzie: `KataGo...`).
#[test]
fn the_name_a_client_needs() {
    let mut e = Live::start_with(&["--name", "KataGo-tengen"]);
    e.send("name");
    assert_eq!(e.response(), ["= KataGo-tengen"]);
}

#[test]
fn checked_moves_stay_among_those_the_search_read() {
    // With the value network's check (19x19), the move played is one the
    // search ranked close to its best: at least 30% of its simulations.
    let record = kgs_record();
    let mut e = Live::start_with(&["--check-moves", "true", "--seed", "7"]);
    for turn in [60, 100, 140] {
        e.send(&format!("loadsgf {} {turn}", record.display()));
        let color = e.response()[0].trim_start_matches("= ").to_string();
        e.send(&format!("kata-genmove_analyze {color}"));
        let lines = e.response();
        let played = lines
            .last()
            .unwrap()
            .strip_prefix("play ")
            .unwrap()
            .to_string();
        let last = lines.iter().rev().find(|l| l.starts_with("info ")).unwrap();
        let infos = last.split(" ownership ").next().unwrap();
        let visits: Vec<(String, u64)> = segments(infos)
            .iter()
            .map(|s| {
                (
                    field(s, "move").to_string(),
                    field(s, "visits").parse().unwrap(),
                )
            })
            .collect();
        let best = visits.iter().map(|(_, v)| *v).max().unwrap();
        let (_, n) = visits
            .iter()
            .find(|(mv, _)| *mv == played)
            .unwrap_or_else(|| panic!("{played} not among {visits:?}"));
        assert!(*n as f64 >= 0.3 * best as f64, "{played}: {n} of {best}");
    }
}
