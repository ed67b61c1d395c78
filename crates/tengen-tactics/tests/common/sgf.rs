//! A minimal SGF reader for the tests: the main line only (the first
//! variation at each branch), properties SZ, AB, AW, AE, B and W, point
//! lists with the `aa:cc` compression. No text decoding beyond skipping
//! escaped characters inside values. Enough to load GNU Go's regression
//! positions; not a general SGF parser (tengen-sgf is that, and this crate
//! does not depend on it).

use tengen_core::{Board, BoardSize, Color, Point};

/// One node of the main line: its setup stones and its move.
#[derive(Clone, Debug, Default)]
pub struct Node {
    pub add_black: Vec<(u32, u32)>,
    pub add_white: Vec<(u32, u32)>,
    pub add_empty: Vec<(u32, u32)>,
    /// `Some((color, None))` is a pass.
    pub play: Option<(Color, Option<(u32, u32)>)>,
}

/// A game: board size and main-line nodes.
#[derive(Clone, Debug)]
pub struct Game {
    pub size: u32,
    pub nodes: Vec<Node>,
}

/// Reads the main line of the first game tree of `text`.
pub fn parse(text: &str) -> Option<Game> {
    let bytes = text.as_bytes();
    let mut i = bytes.iter().position(|&b| b == b'(')? + 1;
    let mut nodes: Vec<Node> = Vec::new();
    let mut size = 19;
    let mut depth = 1usize;
    // Once the main line's first variation ends, skip the rest.
    let mut done = false;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                done = true;
                depth = depth.saturating_sub(1);
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            b';' => {
                i += 1;
                if !done {
                    nodes.push(Node::default());
                }
            }
            c if c.is_ascii_uppercase() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let ident: String = text[start..i]
                    .chars()
                    .filter(|c| c.is_ascii_uppercase())
                    .collect();
                let mut values = Vec::new();
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= bytes.len() || bytes[i] != b'[' {
                        break;
                    }
                    i += 1;
                    let mut v = Vec::new();
                    while i < bytes.len() && bytes[i] != b']' {
                        if bytes[i] == b'\\' && i + 1 < bytes.len() {
                            i += 1;
                        }
                        v.push(bytes[i]);
                        i += 1;
                    }
                    i += 1;
                    values.push(String::from_utf8_lossy(&v).into_owned());
                }
                if done {
                    continue;
                }
                let node = nodes.last_mut()?;
                match ident.as_str() {
                    "SZ" => {
                        let v = values.first()?;
                        size = v.split(':').next()?.trim().parse().ok()?;
                    }
                    "AB" => node.add_black.extend(values.iter().flat_map(|v| points(v))),
                    "AW" => node.add_white.extend(values.iter().flat_map(|v| points(v))),
                    "AE" => node.add_empty.extend(values.iter().flat_map(|v| points(v))),
                    "B" | "W" => {
                        let color = if ident == "B" {
                            Color::Black
                        } else {
                            Color::White
                        };
                        let v = values.first().map(|s| s.trim()).unwrap_or("");
                        let p = point(v)
                            .filter(|&(x, y)| !(v == "tt" && size <= 19) && x < size && y < size);
                        node.play = Some((color, p));
                    }
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    Some(Game { size, nodes })
}

fn point(v: &str) -> Option<(u32, u32)> {
    let b = v.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return None;
    }
    Some((u32::from(b[0] - b'a'), u32::from(b[1] - b'a')))
}

fn points(v: &str) -> Vec<(u32, u32)> {
    match v.split_once(':') {
        Some((a, b)) => match (point(a), point(b)) {
            (Some((x1, y1)), Some((x2, y2))) => {
                let mut out = Vec::new();
                for x in x1.min(x2)..=x1.max(x2) {
                    for y in y1.min(y2)..=y1.max(y2) {
                        out.push((x, y));
                    }
                }
                out
            }
            _ => Vec::new(),
        },
        None => point(v).into_iter().collect(),
    }
}

/// The position of `game` before move number `before` (1-based, as GNU Go's
/// `loadsgf FILE N` counts; `None` for after the whole main line), and the
/// colour to move next.
pub fn position(game: &Game, before: Option<usize>) -> Option<(Board, Color)> {
    let size = BoardSize::square(game.size).ok()?;
    let mut board = Board::new(size);
    let mut moves = 0usize;
    let mut to_move = Color::Black;
    let at = |x: u32, y: u32| size.point(x, y);
    for node in &game.nodes {
        if !node.add_empty.is_empty() {
            let pts: Vec<Point> = node
                .add_empty
                .iter()
                .filter_map(|&(x, y)| at(x, y))
                .collect();
            // Rebuild without those stones.
            let mut b = Board::new(size);
            for p in size.points() {
                if !pts.contains(&p)
                    && let Some(c) = board.get(p)
                {
                    b.play_unchecked(p, c);
                }
            }
            board = b;
        }
        for (list, color) in [
            (&node.add_black, Color::Black),
            (&node.add_white, Color::White),
        ] {
            for &(x, y) in list {
                if let Some(p) = at(x, y)
                    && board.is_empty(p)
                {
                    board.play_unchecked(p, color);
                }
            }
            if !list.is_empty() {
                to_move = if color == Color::Black && node.add_white.is_empty() {
                    Color::White
                } else {
                    to_move
                };
            }
        }
        if let Some((color, p)) = node.play {
            if before.is_some_and(|n| moves + 1 >= n) {
                break;
            }
            moves += 1;
            match p.and_then(|(x, y)| at(x, y)) {
                Some(p) if board.is_empty(p) => {
                    board.play_unchecked(p, color);
                }
                _ => board.pass(),
            }
            to_move = color.opponent();
        }
    }
    Some((board, to_move))
}
