//! An SGF record loaded for review: every node of every variation with the
//! stone it adds, the stones it captures and the lexicon's names for it, so
//! that the page steps forward and back through moves and variations
//! without knowing the rules; and the record's edits (a comment, a move
//! that starts a variation), written back with tengen-sgf's writer.

use crate::error::WebError;
use crate::names::{self, MoveName};
use crate::said::Said;
use crate::view::{Grid, board_text, move_vertex};
use serde::{Deserialize, Serialize};
use tengen_core::{Board, Color, Game, IllegalMove, Move, Phase, PlayError, Vertex};
use tengen_sgf::record::{self, LoadError, RecordInfo, ReplayMode, ReplayOptions, Source};
use tengen_sgf::{Collection, GameTree, Node, NodeId, ParseOptions, Value};
use tengen_words::Sentence;

/// Largest record accepted, bytes.
pub const MAX_SGF_BYTES: usize = 1 << 20;
/// Most nodes accepted.
pub const MAX_NODES: usize = 20_000;
/// Longest comment an edit may write, bytes.
pub const MAX_COMMENT_BYTES: usize = 16 << 10;
/// Moves the lexicon replays at most to name a record's moves (each line
/// is replayed from the start): beyond, the remaining nodes go unnamed, so
/// that a record of many long variations costs no more than this.
const NAMING_BUDGET: usize = 200_000;

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
    /// The lexicon's names for the move (keima, hane...), as in live play.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<MoveName>,
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
    /// The date played (`DT`).
    pub date: Option<String>,
    /// The name the record is downloaded as: its players and date when
    /// known.
    pub file_name: String,
    /// The board before the first move (setup and handicap stones).
    pub start: String,
    /// Who plays the first move.
    pub to_move: &'static str,
    /// Every node, root first, in preorder.
    pub nodes: Vec<ReviewNode>,
    /// Notes on what was read differently from what is written.
    pub notes: Vec<Said>,
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

/// A move played: its colour, the move, and the rule it broke if any.
type Played = (Color, Move, Option<IllegalMove>);

/// Plays node `id`'s move on `game` as a review reads it: a move after
/// play stopped resumes play, and a move these rules forbid (a ko the
/// record's own rules allowed) is played and the rule it broke returned.
/// `None`: the node has no move.
fn play_node(tree: &GameTree, id: NodeId, game: &mut Game) -> Option<Result<Played, PlayError>> {
    let (color, mv) = node_move(tree, id, game)?;
    Some(advance(game, color, mv).map(|broken| (color, mv, broken)))
}

fn captured(before: &Board, after: &Board) -> Vec<String> {
    let size = before.size();
    size.points()
        .filter(|&p| before.get(p).is_some() && after.get(p).is_none())
        .map(|p| Vertex::point_name(p, size))
        .collect()
}

/// A record read: its first game's tree, what its root says and the game
/// before the first move.
struct Record {
    collection: Collection,
    info: RecordInfo,
    start: Game,
    /// What the root alone says (size, rules, komi, setup, handicap).
    notes: Vec<Said>,
}

impl Record {
    /// Reads the first game of an SGF text.
    fn read(text: &str) -> Result<Record, WebError> {
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
        let Some(tree) = loaded.collection.trees.first() else {
            return Err(WebError::Sgf(LoadError::NoGame.to_string()));
        };
        let notes = loaded
            .replay
            .findings
            .iter()
            .filter(|f| f.node == tree.root())
            .map(Said::from)
            .collect();
        Ok(Record {
            info: loaded.info,
            start: loaded.replay.start,
            notes,
            collection: loaded.collection,
        })
    }

    fn tree(&self) -> Result<&GameTree, WebError> {
        self.collection
            .trees
            .first()
            .ok_or_else(|| WebError::Sgf(LoadError::NoGame.to_string()))
    }

    fn tree_mut(&mut self) -> Result<&mut GameTree, WebError> {
        self.collection
            .trees
            .first_mut()
            .ok_or_else(|| WebError::Sgf(LoadError::NoGame.to_string()))
    }

    /// The game at node `id`, its path replayed from the start.
    fn game_at(&self, id: NodeId) -> Result<Game, WebError> {
        let tree = self.tree()?;
        let mut path = vec![id];
        while let Some(p) = path.last().and_then(|&n| tree.parent(n)) {
            path.push(p);
        }
        let mut game = self.start.clone();
        for &n in path.iter().rev().skip(1) {
            // A move the review shows as nothing changes nothing here.
            let _ = play_node(tree, n, &mut game);
        }
        Ok(game)
    }

    /// The node at preorder index `index` (the index of [`Review::nodes`]).
    fn node_id(&self, index: usize) -> Result<NodeId, WebError> {
        self.tree()?
            .nodes()
            .nth(index)
            .ok_or_else(|| WebError::invalid("node", format!("the record has no node {index}")))
    }

    /// The record written back as SGF (UTF-8), its root restated as read
    /// ([`record::restate_root`]: the komi as read, tengen as `AP`).
    fn write(&mut self) -> String {
        self.collection.set_charset_utf8();
        if let Some(tree) = self.collection.trees.first_mut() {
            record::restate_root(tree, &self.start);
        }
        tengen_sgf::write(&self.collection)
    }
}

/// Reads an SGF record (the first game of the file) for review.
///
/// # Errors
/// [`WebError::Sgf`] when the text cannot be read as SGF or its root
/// cannot be replayed; [`WebError::TooLarge`] beyond the limits.
pub fn load(text: &str) -> Result<Review, WebError> {
    review_of(&Record::read(text)?)
}

/// One node waiting in [`review_of`]'s walk: the game before it and the
/// review nodes of the turns of that game.
struct Pending {
    id: NodeId,
    parent: usize,
    game: Game,
    turns: Vec<usize>,
}

fn review_of(record: &Record) -> Result<Review, WebError> {
    let tree = record.tree()?;
    let (info, start) = (&record.info, &record.start);
    let mut notes = record.notes.clone();
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
        names: Vec::new(),
    }];
    let mut naming = NAMING_BUDGET;
    // Depth first without recursion; a copy of the game only at branches.
    let mut stack: Vec<Pending> = tree
        .children(tree.root())
        .iter()
        .rev()
        .map(|&id| Pending {
            id,
            parent: 0,
            game: start.clone(),
            turns: Vec::new(),
        })
        .collect();
    while let Some(Pending {
        id,
        parent,
        mut game,
        mut turns,
    }) = stack.pop()
    {
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
            names: Vec::new(),
        };
        if ["AB", "AW", "AE"].iter().any(|i| node.get(i).is_some()) {
            notes.push(Said(
                Sentence::new("record.setup-not-shown").text("n", number),
            ));
        }
        let before = game.board().clone();
        match play_node(tree, id, &mut game) {
            Some(Ok((color, mv, broken))) => {
                entry.color = Some(color.name());
                entry.vertex = Some(move_vertex(mv).display(size).to_string());
                entry.captured = captured(&before, game.board());
                entry.number = number + 1;
                entry.error = broken.map(|r| r.to_string());
                turns.push(index);
            }
            Some(Err(e)) => entry.error = Some(e.to_string()),
            None => {}
        }
        if let Some(p) = nodes.get_mut(parent) {
            p.children.push(index);
        }
        nodes.push(entry);
        let kids = tree.children(id);
        if kids.is_empty() {
            name_line(&game, start, &turns, &mut nodes, &mut naming);
        }
        for &k in kids.iter().skip(1).rev() {
            stack.push(Pending {
                id: k,
                parent: index,
                game: game.clone(),
                turns: turns.clone(),
            });
        }
        if let Some(&first) = kids.first() {
            stack.push(Pending {
                id: first,
                parent: index,
                game,
                turns,
            });
        }
    }
    notes.dedup();
    Ok(Review {
        grid: size.into(),
        rules: info.rules.name(),
        rules_stated: tree.node(tree.root()).value("RU").is_some(),
        komi: info.komi.to_string(),
        black: info.black.clone(),
        white: info.white.clone(),
        result: info.result_text.clone(),
        date: info.date.clone(),
        file_name: crate::record_name::file_name(
            info.black.as_deref(),
            info.white.as_deref(),
            info.date.as_deref(),
        ),
        start: board_text(start.board()),
        to_move: start.to_move().name(),
        nodes,
        notes,
    })
}

/// Names the moves of one line (ended at `game`) that no earlier line
/// named: a node on several lines is named on the first, the main line
/// before its variations, with the moves that follow it there (sente,
/// gote...). `turns` are the review nodes of `game`'s turns past `start`.
fn name_line(
    game: &Game,
    start: &Game,
    turns: &[usize],
    nodes: &mut [ReviewNode],
    budget: &mut usize,
) {
    let unnamed = turns
        .iter()
        .any(|&i| nodes.get(i).is_some_and(|n| n.names.is_empty()));
    let cost = game.turns().len();
    if !unnamed || cost > *budget {
        return;
    }
    *budget -= cost;
    let skip = start.turns().len();
    for (names, &i) in names::every_move(game).into_iter().skip(skip).zip(turns) {
        if let Some(n) = nodes.get_mut(i).filter(|n| n.names.is_empty()) {
            n.names = names;
        }
    }
}

/// A change to a record under review.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Edit {
    /// A move at `vertex` (or `pass`) after node `node`, by the player to
    /// move there: a new variation, unless a child of the node is that move.
    Play {
        /// The node's index in [`Review::nodes`].
        node: usize,
        /// The vertex (`D4`) or `pass`.
        vertex: String,
    },
    /// Node `node`'s comment replaced; an empty text removes it.
    Comment {
        /// The node's index in [`Review::nodes`].
        node: usize,
        /// The new comment.
        text: String,
    },
}

/// What an edit asks: the record as the page holds it and the change.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditRequest {
    /// The SGF text.
    pub sgf: String,
    /// The change.
    pub edit: Edit,
}

/// A record after an edit.
#[derive(Clone, Debug, Serialize)]
pub struct Edited {
    /// The record read again.
    #[serde(flatten)]
    pub review: Review,
    /// The record written back by tengen-sgf's writer: what the page keeps
    /// and downloads.
    pub sgf: String,
    /// The node the edit made or changed.
    pub at: usize,
}

/// Applies an edit to an SGF record and writes it back.
///
/// # Errors
/// What [`load`] refuses; [`WebError::Invalid`] for a node the record does
/// not have, a vertex off the board or a comment too long;
/// [`WebError::Illegal`] for a move the record's rules forbid there.
pub fn edit(request: &EditRequest) -> Result<Edited, WebError> {
    let mut record = Record::read(&request.sgf)?;
    let (target, at_node) = match &request.edit {
        Edit::Comment { node, text } => {
            if text.len() > MAX_COMMENT_BYTES {
                return Err(WebError::TooLarge {
                    size: text.len(),
                    limit: MAX_COMMENT_BYTES,
                });
            }
            let id = record.node_id(*node)?;
            if let Some(n) = record.tree_mut()?.node_mut(id) {
                if text.trim().is_empty() {
                    n.remove("C");
                } else {
                    n.set("C", [text])
                        .map_err(|e| WebError::invalid("comment", e))?;
                }
            }
            (id, *node)
        }
        Edit::Play { node, vertex } => {
            let parent = record.node_id(*node)?;
            let mut game = record.game_at(parent)?;
            let size = game.size();
            let mv =
                match Vertex::parse(vertex, size).map_err(|e| WebError::invalid("vertex", e))? {
                    Vertex::Pass => Move::Pass,
                    Vertex::Point(p) => Move::Play(p),
                };
            let color = game.to_move();
            if game.phase() == Phase::Marking {
                // Play resumed after it stopped, as in the record's moves.
                let _ = game.dispute(color);
            }
            game.play_as(color, mv)?;
            let tree = record.tree_mut()?;
            let existing = tree
                .children(parent)
                .iter()
                .copied()
                .find(|&c| node_move(tree, c, &game) == Some((color, mv)));
            let id = match existing {
                Some(id) => id,
                None => {
                    let mut child = Node::new();
                    let value = match mv {
                        Move::Pass => String::new(),
                        Move::Play(p) => record::sgf_point(p, size),
                    };
                    child.push(&color.letter().to_string(), [value]);
                    tree.add_child(parent, child)
                }
            };
            (id, *node)
        }
    };
    let sgf = record.write();
    let review = review_of(&record)?;
    let tree = record.tree()?;
    let at = tree.nodes().position(|id| id == target).unwrap_or(at_node);
    Ok(Edited { review, sgf, at })
}

/// The main line of a record as the engine analyses it: the start, the
/// moves, and the key under which its analysis is stored. The positions
/// are replayed one after the other as they are analysed ([`Self::games`]),
/// never held all at once.
#[derive(Clone, Debug)]
pub struct MainLine {
    /// The record's identity for the analysis table: the size, rules,
    /// komi, start and moves, written out (two records with the same key
    /// are the same game to the engine).
    pub key: String,
    /// The game before the first move.
    pub start: Game,
    /// The moves played, in order (those the review shows as nothing left
    /// out), each with its vertex.
    pub moves: Vec<(Color, Move, String)>,
    /// Positions where play goes on, from the start: the `n`th is the one
    /// after `n` moves (the review node's `number`).
    pub positions: usize,
}

impl MainLine {
    /// Each position where play goes on with its number, in order, the
    /// moves replayed once and one copy of the game made per position.
    pub fn games(&self) -> impl Iterator<Item = (usize, Game)> + '_ {
        let mut game = self.start.clone();
        let mut n = 0;
        std::iter::from_fn(move || {
            if n >= self.positions {
                return None;
            }
            if n > 0 {
                let &(color, mv, _) = self.moves.get(n - 1)?;
                advance(&mut game, color, mv).ok()?;
            }
            n += 1;
            Some((n - 1, game.clone()))
        })
    }
}

/// A move played as a review reads it (see [`play_node`]).
fn advance(game: &mut Game, color: Color, mv: Move) -> Result<Option<IllegalMove>, PlayError> {
    if game.phase() == Phase::Marking {
        // Moves after play stopped: the players resumed.
        let _ = game.dispute(color);
    }
    game.play_tolerant(color, mv)
}

/// The main line of an SGF record, for analysis.
///
/// # Errors
/// What [`load`] refuses.
pub fn main_line(text: &str) -> Result<MainLine, WebError> {
    let record = Record::read(text)?;
    let tree = record.tree()?;
    let size = record.info.size;
    let mut game = record.start.clone();
    let mut positions = usize::from(game.phase() == Phase::Playing);
    let mut moves = Vec::new();
    let mut key = format!(
        "{}x{} {} {} {} {}",
        size.width(),
        size.height(),
        record.info.rules.name(),
        record.info.komi,
        board_text(game.board()),
        game.to_move().letter()
    );
    for id in tree.main_line().skip(1) {
        if positions != moves.len() + 1 {
            break;
        }
        if let Some(Ok((color, mv, _))) = play_node(tree, id, &mut game) {
            let vertex = move_vertex(mv).display(size).to_string();
            key.push(' ');
            key.push(color.letter());
            key.push_str(&vertex);
            moves.push((color, mv, vertex));
            if game.phase() == Phase::Playing {
                positions += 1;
            }
        }
    }
    Ok(MainLine {
        key,
        start: record.start,
        moves,
        positions,
    })
}
