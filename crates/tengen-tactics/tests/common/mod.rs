//! Helpers shared by the integration tests: finding the shared data,
//! reading Pachi's `.t` tables, points by name.

#![allow(dead_code)]

mod basics;
pub mod sgf;

#[allow(unused_imports)] // each test binary uses its own share of them
pub use basics::{board, color, data_root, pt_size};

use std::path::Path;
use tengen_core::{Board, BoardSize, Color, Point};

/// The point named `text` (`C3`, GTP style) on `board`.
pub fn pt(board: &Board, text: &str) -> Point {
    pt_size(board.size(), text)
}

/// One assertion of a Pachi `.t` table, with the board it applies to.
#[derive(Clone, Debug)]
pub struct TCase {
    /// The `%` title of the section.
    pub title: String,
    /// 1-based line of the assertion in its file.
    pub line: usize,
    /// The position (the last-move stone played last, a `ko` line applied).
    pub board: Board,
    /// The command (`ladder`, `bad_selfatari`, ...).
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// A `!` line: Pachi itself is allowed to fail it (the expectation
    /// stated is still the right answer).
    pub optional: bool,
}

/// Reads a Pachi `.t` table: `% title`, `boardsize N`, N rows of `X`, `O`,
/// `.` (a `)` after a stone marks the last move, played last so that a ko
/// is set as in Pachi), `ko C3` (the stone at C3 just took a ko), then
/// assertions until the next board. `#` starts a comment.
pub fn read_t(text: &str) -> Vec<TCase> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut title = String::new();
    let mut board: Option<Board> = None;
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let line = raw.split('#').next().unwrap_or("").trim_end();
        i += 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(t) = line.strip_prefix('%') {
            title = t.trim().to_string();
            continue;
        }
        let (optional, body) = match line.trim_start().strip_prefix('!') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, line.trim_start()),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        match words.first().copied() {
            Some("boardsize") => {
                let n: u32 = words[1].parse().unwrap();
                let mut rows = Vec::new();
                while rows.len() < n as usize {
                    let r = lines[i].split('#').next().unwrap_or("");
                    i += 1;
                    if r.trim().is_empty() || r.starts_with("komi") || r.starts_with("handicap") {
                        continue;
                    }
                    rows.push(r.to_string());
                }
                board = Some(build_board(n, &rows));
            }
            Some("ko") => {
                let b = board.as_mut().unwrap();
                set_ko(b, pt(b, words[1]));
            }
            Some(cmd) => {
                let b = board.clone().unwrap();
                out.push(TCase {
                    title: title.clone(),
                    line: i,
                    board: b,
                    cmd: cmd.to_string(),
                    args: words[1..].iter().map(|s| s.to_string()).collect(),
                    optional,
                });
            }
            None => {}
        }
    }
    out
}

fn build_board(n: u32, rows: &[String]) -> Board {
    let size = BoardSize::square(n).unwrap();
    let mut b = Board::new(size);
    let mut last = None;
    for (y, row) in rows.iter().enumerate() {
        let mut x = 0u32;
        let mut prev: Option<(Point, Color)> = None;
        for ch in row.chars() {
            let stone = match ch {
                'X' => Some(Some(Color::Black)),
                'O' => Some(Some(Color::White)),
                '.' => Some(None),
                ')' => {
                    last = prev;
                    None
                }
                _ => None,
            };
            if let Some(s) = stone {
                let p = size.point(x, y as u32).unwrap();
                prev = s.map(|c| (p, c));
                x += 1;
            }
        }
        assert_eq!(x, n, "row {y} of a {n}x{n} board: {row:?}");
    }
    for (y, row) in rows.iter().enumerate() {
        let mut x = 0u32;
        for ch in row.chars() {
            let c = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                '.' => None,
                _ => continue,
            };
            let p = size.point(x, y as u32).unwrap();
            if let Some(c) = c
                && last.map(|(l, _)| l) != Some(p)
            {
                b.play_unchecked(p, c);
            }
            x += 1;
        }
    }
    if let Some((p, c)) = last {
        b.play_unchecked(p, c);
    }
    let placed: usize = rows
        .iter()
        .map(|r| r.chars().filter(|&c| c == 'X' || c == 'O').count())
        .sum();
    assert_eq!(
        (b.stones().black + b.stones().white) as usize,
        placed,
        "a chain without liberty:\n{b}"
    );
    b
}

/// Makes the stone at `p` the one that just took a ko: its single liberty
/// becomes the simple-ko point for the other colour. Done by taking the
/// stone away, putting an opposing stone in the ko point, and playing the
/// stone again, which captures it.
pub fn set_ko(board: &mut Board, p: Point) {
    let c = board.get(p).unwrap();
    assert_eq!(board.chain_len(p), 1);
    let lib = board.neighbours(p).find(|&q| board.is_empty(q)).unwrap();
    board.remove_chains(&[p]);
    board.play_unchecked(lib, c.opponent());
    let played = board.play_unchecked(p, c);
    assert_eq!(played.captured, 1);
    assert_eq!(board.ko_point(), Some(lib));
}

/// Reads a `.t` file of Pachi's unit tables.
pub fn read_t_file(root: &Path, name: &str) -> Vec<TCase> {
    let path = root.join("pachi_tests/t-unit").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_t(&text)
}

/// A tally of a suite: passes, and the failures described.
#[derive(Default, Debug)]
pub struct Tally {
    pub total: usize,
    pub passed: usize,
    pub failures: Vec<String>,
}

impl Tally {
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.total += 1;
        if ok {
            self.passed += 1;
        } else {
            self.failures.push(what());
        }
    }

    pub fn report(&self, name: &str) {
        eprintln!("{name}: {} of {} pass", self.passed, self.total);
        for f in &self.failures {
            eprintln!("  FAIL {f}");
        }
    }
}
