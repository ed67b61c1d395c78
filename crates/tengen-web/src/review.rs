//! An SGF record loaded for review: every node of every variation with the
//! stone it adds and the stones it captures, so that the page steps forward
//! and back through moves and variations without knowing the rules.

use crate::error::WebError;
use crate::view::{Grid, board_text, move_vertex};
use serde::Serialize;
use tengen_core::{Board, Color, Game, Move, Vertex};
use tengen_sgf::record::{self, LoadError, ReplayMode, ReplayOptions, Source};
use tengen_sgf::{GameTree, NodeId, ParseOptions, Value};

/// Largest record accepted, bytes.
pub const MAX_SGF_BYTES: usize = 1 << 20;
/// Most nodes accepted.
pub const MAX_NODES: usize = 20_000;

/// One node of the tree.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewNode {
    /// The parent's index (none for the root).
    pub parent: Option<usize>,
    /// The children's indexes, main line first.
    pub children: Vec<usize>,
    /// The colour of the node's move.
    pub color: Option<&'static str>,
    /// The move: a vertex or `pass`.
    pub vertex: Option<String>,
    /// Stones the move captured.
    pub captured: Vec<String>,
    /// Move number along its line.
    pub number: usize,
    /// The node's comment (`C`).
    pub comment: Option<String>,
    /// Why the move could not be played (it is then shown as nothing).
    pub error: Option<String>,
}

/// A record ready for review.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The board's size and star points.
    #[serde(flatten)]
    pub grid: Grid,
    /// The rules the record was replayed under.
    pub rules: String,
    /// Whether the record names them (`RU`); if not, `rules` is the
    /// reader's assumption, which the page says.
    pub rules_stated: bool,
    /// White's komi.
    pub komi: String,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The recorded result.
    pub result: Option<String>,
    /// The board before the first move (setup and handicap stones).
    pub start: String,
    /// Every node, root first, in preorder.
    pub nodes: Vec<ReviewNode>,
    /// Notes on what was read differently from what is written.
    pub notes: Vec<String>,
}

/// The move of a node, if any.
fn node_move(tree: &GameTree, id: NodeId, game: &Game) -> Option<(Color, Move)> {
    let node = tree.node(id);
    let (color, value) = match (node.value("B"), node.value("W")) {
        (Some(v), None) => (Color::Black, v),
        (None, Some(v)) => (Color::White, v),
        _ => return None,
    };
    let size = game.size();
    let raw = value.raw().trim();
    if raw.is_empty() || (raw == "tt" && size.width() <= 19 && size.height() <= 19) {
        return Some((color, Move::Pass));
    }
    let point = value
        .point()
        .and_then(|(x, y)| size.point(u32::from(x), u32::from(y)));
    Some((color, point.map_or(Move::Pass, Move::Play)))
}

fn captured(before: &Board, after: &Board) -> Vec<String> {
    let size = before.size();
    size.points()
        .filter(|&p| before.get(p).is_some() && after.get(p).is_none())
        .map(|p| Vertex::point_name(p, size))
        .collect()
}

/// Reads an SGF record (the first game of the file) for review.
///
/// # Errors
/// [`WebError::Sgf`] when the text cannot be read as SGF or its root
/// cannot be replayed; [`WebError::TooLarge`] beyond the limits.
pub fn load(text: &str) -> Result<Review, WebError> {
    if text.len() > MAX_SGF_BYTES {
        return Err(WebError::TooLarge {
            size: text.len(),
            limit: MAX_SGF_BYTES,
        });
    }
    let options = ParseOptions {
        max_bytes: MAX_SGF_BYTES,
        max_nodes: MAX_NODES,
        ..ParseOptions::lenient()
    };
    let replay = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    let loaded = record::load_main_line(Source::Text(text), &options, &replay)
        .map_err(|e| WebError::Sgf(e.to_string()))?;
    let (info, start) = (loaded.info, loaded.replay.start);
    let Some(tree) = loaded.collection.trees.first() else {
        return Err(WebError::Sgf(LoadError::NoGame.to_string()));
    };
    // What the root alone says (size, rules, komi, setup, handicap): the
    // moves are read below, every variation alike.
    let mut notes: Vec<String> = loaded
        .replay
        .findings
        .iter()
        .filter(|f| f.node == tree.root())
        .map(|f| f.message.clone())
        .collect();
    let size = info.size;
    let mut nodes = vec![ReviewNode {
        parent: None,
        children: Vec::new(),
        color: None,
        vertex: None,
        captured: Vec::new(),
        number: 0,
        comment: tree.node(tree.root()).value("C").map(Value::text),
        error: None,
    }];
    // Depth first without recursion; a copy of the game only at branches.
    let mut stack: Vec<(NodeId, usize, Game)> = tree
        .children(tree.root())
        .iter()
        .rev()
        .map(|&c| (c, 0, start.clone()))
        .collect();
    while let Some((id, parent, mut game)) = stack.pop() {
        let index = nodes.len();
        let number = nodes.get(parent).map_or(0, |p| p.number);
        let node = tree.node(id);
        let mut entry = ReviewNode {
            parent: Some(parent),
            children: Vec::new(),
            color: None,
            vertex: None,
            captured: Vec::new(),
            number,
            comment: node.value("C").map(Value::text),
            error: None,
        };
        if ["AB", "AW", "AE"].iter().any(|i| node.get(i).is_some()) {
            notes.push(format!(
                "setup stones after move {number} are not shown in review"
            ));
        }
        if let Some((color, mv)) = node_move(tree, id, &game) {
            let before = game.board().clone();
            if game.phase() == tengen_core::Phase::Marking {
                // Moves after play stopped: the players resumed.
                let _ = game.dispute(color);
            }
            match game.play_tolerant(color, mv) {
                Ok(broken) => {
                    entry.color = Some(color.name());
                    entry.vertex = Some(move_vertex(mv).display(size).to_string());
                    entry.captured = captured(&before, game.board());
                    entry.number = number + 1;
                    entry.error = broken.map(|r| r.to_string());
                }
                Err(e) => entry.error = Some(e.to_string()),
            }
        }
        if let Some(p) = nodes.get_mut(parent) {
            p.children.push(index);
        }
        nodes.push(entry);
        let kids = tree.children(id);
        for &k in kids.iter().skip(1).rev() {
            stack.push((k, index, game.clone()));
        }
        if let Some(&first) = kids.first() {
            stack.push((first, index, game));
        }
    }
    notes.dedup();
    Ok(Review {
        grid: size.into(),
        rules: info.rules.name(),
        rules_stated: tree.node(tree.root()).value("RU").is_some(),
        komi: info.komi.to_string(),
        black: info.black,
        white: info.white,
        result: info.result_text,
        start: board_text(start.board()),
        nodes,
        notes,
    })
}
