//! The dead-stone estimate against the players' own marking. A KGS record
//! ends with the area each player agreed on (`TB`/`TW` of its last node,
//! dead stones included), so the stones inside the other colour's marks
//! are the dead ones both players accepted. `final_status_list dead`
//! after `loadsgf` must name exactly those.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tengen_core::{Color, Point, Vertex};
use tengen_sgf::record::{self, ReplayOptions};

/// The dead stones the record's final `TB`/`TW` marks, as GTP vertices.
fn marked_dead(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).expect("the record is readable");
    let parsed = tengen_sgf::parse(&bytes, &tengen_sgf::ParseOptions::lenient()).expect("parses");
    let tree = &parsed.collection.trees[0];
    let last = tree.main_line().last().expect("a main line");
    let (_, replay) = record::replay_main_line(tree, &ReplayOptions::default()).expect("replays");
    let game = &replay.game;
    let size = game.size();
    // SGF and board coordinates both count rows from the top.
    let marks = |ident: &str| -> Vec<Point> {
        let values = tree.node(last).get(ident).expect("marked").values();
        tengen_sgf::expand_point_list(values)
            .iter()
            .filter_map(|&(x, y)| size.point(u32::from(x), u32::from(y)))
            .collect()
    };
    let (black_area, white_area) = (marks("TB"), marks("TW"));
    let mut dead: Vec<String> = size
        .points()
        .filter(|p| match game.board().get(*p) {
            Some(Color::White) => black_area.contains(p),
            Some(Color::Black) => white_area.contains(p),
            None => false,
        })
        .map(|p| Vertex::point_name(p, size))
        .collect();
    dead.sort();
    dead
}

/// `final_status_list dead` of `tengen gtp` after `loadsgf`.
fn estimated_dead(path: &Path) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tengen gtp starts");
    let script = format!("loadsgf {}\nfinal_status_list dead\nquit\n", path.display());
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("tengen gtp ends");
    let text = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = text.split("\n\n").collect();
    assert!(replies[0].starts_with("= "), "{text}");
    let reply = replies[1].strip_prefix("=").expect("a success");
    let mut dead: Vec<String> = reply.split_whitespace().map(String::from).collect();
    dead.sort();
    dead
}

/// KGS, 2004-07-01, r08ert (B) against yagr (GNU Go 3.5.8, W), B+7.5: a
/// bottom-right capturing race that ends in a ko Black wins (after the
/// capture at T6, White's corner chain has two liberties and every try at
/// Black's leads to a ko that Black takes with atari). The playouts give
/// White's corner to Black a little more often than not; both players
/// marked it dead.
#[test]
fn a_corner_lost_to_a_ko_race_is_dead_as_the_players_marked_it() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/gnugo_regression/regression/games/kgs/yagr-r08ert.sgf");
    let marked = marked_dead(&path);
    for corner in ["Q2", "R2", "R3", "R4", "S4", "S5", "S6", "T5", "S1"] {
        assert!(marked.contains(&corner.to_string()), "{corner}: {marked:?}");
    }
    assert_eq!(estimated_dead(&path), marked);
}

/// tengen (B) against GNU Go 3.8 level 10 (W), 9x9, Chinese rules, komi 7:
/// Black passed at move 83 counting White's top-right group dead, and lost
/// by 21. White's chain E9-J4 and Black's H9-H8 share the liberties G8
/// and J9, and White's J8 joins them through the false eye J7: whoever
/// approaches is captured, a seki. Only when White fills J7 (two
/// liberties left) does Black's sacrifice at G8 kill as a nakade; the
/// playouts no longer fill such a false eye, so they see the seki.
const SEKI: &str = "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7];B[dd];W[cf];B[ee];W[ff];B[ef];W[gc];B[gd];W[hd];B[fd];W[fc];B[he];W[hc];B[bd];W[fg];B[ge];W[eg];B[eb];W[fb];B[dg];W[df];B[cg];W[ec];B[eh];W[bg];B[bh];W[fh];B[dh];W[bf];B[hg];W[ci];B[di];W[fi];B[hh];W[bb];B[ce];W[dc];B[ag];W[ei];B[ch];W[bi];B[ai];W[af];B[cb];W[ah];B[db];W[bi];B[cc];W[id];B[hb];W[ib];B[ha];W[fa];B[ed];W[ad];B[ac];W[ae];B[ab];W[hi];B[gi];W[gh];B[hf];W[ie];B[ba];W[ea];B[da];W[if];B[ig];W[ga];B[bc];W[ci];B[ch];W[dh];B[cg];W[de];B[be];W[fe];B[gf];W[gg];B[ih];W[gi];B[cd];W[ii])";

#[test]
fn a_seki_joined_through_a_false_eye_lives() {
    let path = std::env::temp_dir().join(format!("tengen-seki-{}.sgf", std::process::id()));
    std::fs::write(&path, SEKI).expect("written");
    // Only Black's two stones inside White's bottom left are dead.
    assert_eq!(estimated_dead(&path), vec!["C2", "C3"]);
    std::fs::remove_file(&path).ok();
}
