//! The opening book: for the first moves of a game from the empty board,
//! the move a long search of tengen's own chose, read under the board's
//! eight symmetries. A move's search of a few thousand playouts trusts
//! the policy network's priors, and the network learned its openings from
//! 19x19 records: on 9x9, after Black's D4, 5,000 playouts answer F3 (the
//! network's favourite), where 55,000 find F6 better by six points of
//! winning rate. The book is grown by `tengen train book` ([`grow`]).
//!
//! Left out: positions the book's lines do not reach (after a pass, a
//! capture, setup or handicap stones), other komi than about 7 under
//! area or territory counting (the book's searches counted area with
//! komi 7), and the capture games.

use crate::prior::Knowledge;
use crate::search::{Decision, Limit, Request, Search, SearchConfig};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use tengen_core::{Board, BoardSize, Color, Game, Move, Point, Points, Preset, Scoring, Vertex};

/// The book grown for 9x9, shipped in the binary.
static SHIPPED: &str = include_str!("../knowledge/book.txt");

/// Why a book line does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The line is not `SIZE MOVE... -> REPLY`.
    #[error("line {line}: not `SIZE MOVE... -> REPLY`")]
    Syntax {
        /// The line's number, from 1.
        line: usize,
    },
    /// A size that is not a board's.
    #[error("line {line}: {size:?} is not a board size")]
    Size {
        /// The line's number, from 1.
        line: usize,
        /// What the line says.
        size: String,
    },
    /// A vertex that is not on the board, or a move the rules refuse.
    #[error("line {line}: {vertex:?} cannot be played there")]
    Move {
        /// The line's number, from 1.
        line: usize,
        /// What the line says.
        vertex: String,
    },
}

/// A position as the book knows it: the size, the player to move and
/// every point's colour, in the order of [`BoardSize::points`].
type Key = (BoardSize, Color, Vec<Option<Color>>);

/// The book: a move for each position it knows.
#[derive(Clone, Debug, Default)]
pub struct Book {
    moves: HashMap<Key, Point>,
    /// The lines as read or grown, for writing the book back.
    lines: Vec<String>,
}

/// `board` seen under `sym`: the colour of each point of the transformed
/// board, in the order of its points.
fn key(board: &Board, to_move: Color, sym: tengen_core::Symmetry) -> Key {
    let size = board.size();
    let width = size.width() as usize;
    let mut cells = vec![None; size.num_points()];
    for p in size.points() {
        if let Some(t) = size.transform(p, sym) {
            let (x, y) = size.xy(t);
            cells[y as usize * width + x as usize] = board.get(p);
        }
    }
    (size, to_move, cells)
}

impl Book {
    /// The book grown for the shipped network, built into the binary.
    pub fn shipped() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        // A book that does not read (a test checks it) knows nothing.
        BOOK.get_or_init(|| Book::parse(SHIPPED).unwrap_or_default())
    }

    /// Reads a book: one line per position, `SIZE MOVE... -> REPLY` (the
    /// moves from the empty board, Black first), `#` starting a comment.
    ///
    /// # Errors
    /// The first line that does not read, and why.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let (before, reply) = content.split_once("->").ok_or(BookError::Syntax { line })?;
            let mut words = before.split_whitespace();
            let size_text = words.next().ok_or(BookError::Syntax { line })?;
            let size = size_text
                .parse::<u32>()
                .ok()
                .and_then(|n| BoardSize::square(n).ok())
                .ok_or_else(|| BookError::Size {
                    line,
                    size: size_text.to_string(),
                })?;
            let mut game = Game::new(Preset::Chinese.rules(), size);
            let bad = |word: &str| BookError::Move {
                line,
                vertex: word.to_string(),
            };
            let point = |word: &str| match Vertex::parse(word, size) {
                Ok(Vertex::Point(p)) => Ok(p),
                _ => Err(bad(word)),
            };
            for word in words {
                game.play(Move::Play(point(word)?)).map_err(|_| bad(word))?;
            }
            let reply = reply.trim();
            let p = point(reply)?;
            if !game.is_legal(Move::Play(p)) {
                return Err(bad(reply));
            }
            book.insert(&game, p);
        }
        Ok(book)
    }

    /// Records `reply` for `game`'s position (its line written from the
    /// game's moves).
    fn insert(&mut self, game: &Game, reply: Point) {
        let size = game.size();
        let mut line = size.width().to_string();
        for t in game.turns() {
            if let Move::Play(p) = t.mv {
                line.push(' ');
                line.push_str(&Vertex::point_name(p, size));
            }
        }
        line.push_str(" -> ");
        line.push_str(&Vertex::point_name(reply, size));
        let key = key(
            game.board(),
            game.to_move(),
            tengen_core::Symmetry::IDENTITY,
        );
        if self.moves.insert(key, reply).is_none() {
            self.lines.push(line);
        }
    }

    /// Positions known.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the book knows nothing.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book's text, one line per position, as [`Book::parse`] reads it.
    pub fn to_text(&self) -> String {
        let mut out = String::from("# tengen opening book: SIZE MOVE... -> REPLY\n");
        for l in &self.lines {
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    /// The book's move in `game`, when the book knows the position (under
    /// any symmetry) and its rules are the book's: a game from the empty
    /// board, counted by area or territory with a komi of 5 to 8 points,
    /// not yet past a pass.
    pub fn lookup(&self, game: &Game) -> Option<Point> {
        let rules = game.rules();
        let counted = rules.capture_goal.is_none()
            && (rules.scoring.counts_area() || rules.scoring == Scoring::Territory);
        let komi = game.komi();
        let usual_komi = komi >= Points::whole(5) && komi <= Points::whole(8);
        let setup = game.initial_board().stones();
        let from_empty = setup.black == 0 && setup.white == 0;
        let no_pass = game.turns().iter().all(|t| t.mv != Move::Pass);
        if !(counted && usual_komi && from_empty && no_pass) || self.is_empty() {
            return None;
        }
        let size = game.size();
        size.symmetries().iter().find_map(|&sym| {
            let reply = *self.moves.get(&key(game.board(), game.to_move(), sym))?;
            let p = size.transform(reply, sym.inverse())?;
            game.is_legal(Move::Play(p)).then_some(p)
        })
    }
}

/// How a book is grown.
#[derive(Clone, Debug)]
pub struct Growth {
    /// The board.
    pub size: BoardSize,
    /// Plies from the empty board: the book knows a move for each position
    /// of its lines before this many moves are played.
    pub plies: usize,
    /// The opponent's moves followed from each position where the book
    /// expects one: the most visited of a search of a quarter of the
    /// playouts, distinct under the symmetries.
    pub replies: usize,
    /// Playouts of the search that chooses each book move.
    pub playouts: u64,
    /// Search threads.
    pub threads: usize,
    /// The search's seed (with one thread, the book is reproducible).
    pub seed: u64,
    /// The knowledge of the searches.
    pub knowledge: Knowledge,
}

/// Grows a book: the book's move for the empty board and for every
/// position its lines reach, with either colour as the book's (Chinese
/// rules, komi 7). `progress` hears each position searched.
pub fn grow(growth: &Growth, mut progress: impl FnMut(&Game, Option<Point>)) -> Book {
    let mut rules = Preset::Chinese.rules();
    rules.komi = Points::whole(7);
    let empty = Game::new(rules, growth.size);
    let mut search = Search::new(SearchConfig {
        threads: growth.threads.max(1),
        seed: growth.seed,
        knowledge: growth.knowledge,
        ..SearchConfig::default()
    });
    let mut book = Book::default();
    // Positions where the book plays, and where the opponent does.
    let mut ours = vec![empty.clone()];
    let mut theirs = vec![empty];
    for _ in 0..growth.plies {
        let mut next_theirs = Vec::new();
        for game in distinct(ours) {
            search.clear();
            let (decision, _) =
                search.genmove(&game, Request::new(Limit::playouts(growth.playouts)));
            let reply = match decision {
                Decision::Move(Move::Play(p)) => Some(p),
                _ => None,
            };
            progress(&game, reply);
            if let Some(p) = reply {
                book.insert(&game, p);
                let mut after = game.clone();
                if after.play(Move::Play(p)).is_ok() {
                    next_theirs.push(after);
                }
            }
        }
        let mut next_ours = Vec::new();
        for game in distinct(theirs) {
            search.clear();
            let analysis =
                search.analyze(&game, Request::new(Limit::playouts(growth.playouts / 4)));
            let searched = analysis.candidates.iter().map(|c| c.mv);
            // The search from the empty board spreads its visits over
            // symmetric points and tries few shapes: every first move off
            // the first two lines is followed too.
            let size = game.size();
            let opening = game.turns().is_empty();
            let first_moves = size
                .points()
                .filter(|&p| opening && size.line(p) >= 3)
                .map(Move::Play);
            let mut seen = HashSet::new();
            for (i, mv) in searched.chain(first_moves).enumerate() {
                let mut after = game.clone();
                if matches!(mv, Move::Play(_))
                    && after.play(mv).is_ok()
                    && (seen.len() < growth.replies || i >= analysis.candidates.len())
                    && seen.insert(canonical(&after))
                {
                    next_ours.push(after);
                }
            }
        }
        ours = next_ours;
        theirs = next_theirs;
    }
    book
}

/// The position's key under the symmetry that makes it smallest, so that
/// symmetric positions share one.
fn canonical(game: &Game) -> Key {
    game.size()
        .symmetries()
        .iter()
        .map(|&s| key(game.board(), game.to_move(), s))
        .min_by(|a, b| a.2.cmp(&b.2))
        .unwrap_or_else(|| {
            key(
                game.board(),
                game.to_move(),
                tengen_core::Symmetry::IDENTITY,
            )
        })
}

/// The games of `games` whose positions differ under the symmetries.
fn distinct(games: Vec<Game>) -> Vec<Game> {
    let mut seen = HashSet::new();
    games
        .into_iter()
        .filter(|g| seen.insert(canonical(g)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_of(size: u32, moves: &[&str]) -> Game {
        let size = BoardSize::square(size).unwrap();
        let mut game = Game::new(Preset::Chinese.rules(), size);
        for m in moves {
            let Ok(Vertex::Point(p)) = Vertex::parse(m, size) else {
                panic!("{m}")
            };
            game.play(Move::Play(p)).unwrap();
        }
        game
    }

    fn name(game: &Game, p: Point) -> String {
        Vertex::point_name(p, game.size())
    }

    #[test]
    fn a_line_answers_its_position_under_every_symmetry() {
        let book = Book::parse("# comment\n9 D4 -> F6\n").unwrap();
        assert_eq!(book.len(), 1);
        // D4 seen in each corner, and mirrored: F6 follows it.
        for (black, white) in [("D4", "F6"), ("F4", "D6"), ("D6", "F4"), ("F6", "D4")] {
            let game = game_of(9, &[black]);
            let reply = book.lookup(&game).unwrap();
            assert_eq!(name(&game, reply), white, "after {black}");
        }
        // C4 is not D4 under any symmetry; nor is Black to move after D4.
        assert_eq!(book.lookup(&game_of(9, &["C4"])), None);
        assert_eq!(book.lookup(&game_of(9, &["D4", "E5"])), None);
        // Another size does not share 9x9's line.
        assert_eq!(book.lookup(&game_of(13, &["D4"])), None);
    }

    #[test]
    fn the_book_stays_out_of_other_games() {
        let book = Book::parse("9 D4 -> F6\n").unwrap();
        let mut capture = Preset::Chinese.rules();
        capture.capture_goal = Some(1);
        let size = BoardSize::square(9).unwrap();
        let Ok(Vertex::Point(p)) = Vertex::parse("D4", size) else {
            panic!("D4")
        };
        let d4 = Move::Play(p);
        let mut game = Game::new(capture, size);
        game.play(d4).unwrap();
        assert_eq!(book.lookup(&game), None, "capture game");
        let mut rules = Preset::Chinese.rules();
        rules.komi = Points::whole(0);
        let mut game = Game::new(rules, size);
        game.play(d4).unwrap();
        assert_eq!(book.lookup(&game), None, "no komi");
    }

    #[test]
    fn a_bad_line_is_named() {
        assert_eq!(
            Book::parse("9 D4 F6\n").unwrap_err(),
            BookError::Syntax { line: 1 }
        );
        assert_eq!(
            Book::parse("\n9 D4 -> D4\n").unwrap_err(),
            BookError::Move {
                line: 2,
                vertex: "D4".into()
            }
        );
        assert!(matches!(
            Book::parse("seven -> D4").unwrap_err(),
            BookError::Size { line: 1, .. }
        ));
        assert!(matches!(
            Book::parse("9 Z9 -> D4").unwrap_err(),
            BookError::Move { line: 1, .. }
        ));
    }

    #[test]
    fn the_shipped_book_reads_and_answers_the_empty_board() {
        let book = Book::parse(SHIPPED).unwrap();
        assert!(book.len() >= 10, "{}", book.len());
        assert!(book.lookup(&game_of(9, &[])).is_some());
        // Written back, it reads the same.
        assert_eq!(Book::parse(&book.to_text()).unwrap().len(), book.len());
    }

    #[test]
    fn a_small_book_grows_with_both_colours() {
        let growth = Growth {
            size: BoardSize::square(5).unwrap(),
            plies: 2,
            replies: 2,
            playouts: 200,
            threads: 1,
            seed: 7,
            knowledge: Knowledge::Patterns,
        };
        let mut searched = 0;
        let book = grow(&growth, |_, _| searched += 1);
        // The empty board (Black's move), then White's answers to the two
        // most searched first moves and to the centre.
        assert!((3..=4).contains(&searched), "{searched}");
        assert_eq!(book.len(), searched);
        assert!(book.lookup(&game_of(5, &[])).is_some());
        assert!(book.lookup(&game_of(5, &["C3"])).is_some());
        let again = Book::parse(&book.to_text()).unwrap();
        assert_eq!(again.len(), book.len());
    }
}
