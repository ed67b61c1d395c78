//! The rules library's word on the learning path's problems: the position
//! of a diagram under its step's rules, whether a click reaches a goal,
//! whether a claim is true. The page never judges an answer itself.

use super::lesson;
use super::screens::{Claim, Diagram, Goal, Verdict};
use crate::error::WebError;
use tengen_core::{Board, BoardSize, Game, IllegalMove, Mark, Move, Point, Setup, Vertex};

fn bad(why: impl ToString) -> WebError {
    WebError::invalid("screen", why)
}

/// A point of a diagram's board by name.
///
/// # Errors
/// [`WebError::Invalid`] for a name off the board or a pass.
pub fn point(name: &str, size: BoardSize) -> Result<Point, WebError> {
    match Vertex::parse(name, size) {
        Ok(Vertex::Point(p)) => Ok(p),
        Ok(Vertex::Pass) => Err(WebError::invalid("vertex", "a pass is not a point")),
        Err(e) => Err(WebError::invalid("vertex", e)),
    }
}

/// The game of a diagram under the rules of `step`: its stones set up,
/// then its moves played.
///
/// # Errors
/// [`WebError::Invalid`] for an unknown step or a diagram the rules refuse
/// (rows of different lengths, a chain without liberty, an illegal move).
pub fn position(step: u32, d: &Diagram) -> Result<Game, WebError> {
    let rules = lesson(step)
        .ok_or_else(|| bad(format!("no learning step {step}")))?
        .preset
        .rules();
    let board = Board::from_ascii(&d.rows.join("\n")).map_err(bad)?;
    let size = board.size();
    let mut game = Game::from_setup(rules, &Setup::of(&board, d.to_move)).map_err(bad)?;
    for m in d.moves {
        game.play(Move::Play(point(m, size)?)).map_err(bad)?;
    }
    Ok(game)
}

/// What a click did.
#[derive(Clone, Debug)]
pub struct Judged {
    /// It reaches the goal.
    pub correct: bool,
    /// The rules refused it, and why.
    pub refusal: Option<IllegalMove>,
    /// The game after it, when the rules allowed it.
    pub after: Option<Game>,
}

/// Judges the side to move playing at `vertex` against `goal`.
///
/// # Errors
/// [`WebError::Invalid`] for a vertex off the board, or a stone named by
/// the goal that is not on it.
pub fn play(game: &Game, goal: Goal, vertex: &str) -> Result<Judged, WebError> {
    let size = game.size();
    let p = point(vertex, size)?;
    let color = game.to_move();
    if let Err(reason) = game.check(color, Move::Play(p)) {
        let forbidden = !matches!(reason, IllegalMove::Occupied | IllegalMove::OffBoard);
        return Ok(Judged {
            correct: goal == Goal::Forbidden && forbidden,
            refusal: Some(reason),
            after: None,
        });
    }
    let mut after = game.clone();
    after.play(Move::Play(p)).map_err(bad)?;
    let (b, a) = (game.board(), after.board());
    let captured = b.stones()[color.opponent()] - a.stones()[color.opponent()];
    let correct = match goal {
        Goal::Capture(n) => captured >= n,
        Goal::Atari => a
            .neighbours(p)
            .any(|q| a.get(q) == Some(color.opponent()) && a.liberties(q) == 1),
        Goal::Save(stone) => {
            let s = point(stone, size)?;
            a.get(s).is_some() && a.get(s) == b.get(s) && a.liberties(s) >= 2
        }
        Goal::Forbidden => false,
    };
    Ok(Judged {
        correct,
        refusal: None,
        after: Some(after),
    })
}

/// The verdict of the rules on the side to move playing at `p`.
fn verdict(game: &Game, p: Point) -> Option<Verdict> {
    match game.check(game.to_move(), Move::Play(p)) {
        Ok(()) => Some(Verdict::Allowed),
        Err(IllegalMove::Occupied) => Some(Verdict::Occupied),
        Err(IllegalMove::Suicide | IllegalMove::SingleStoneSuicide) => Some(Verdict::Suicide),
        Err(
            IllegalMove::Ko
            | IllegalMove::PositionalSuperko
            | IllegalMove::SituationalSuperko
            | IllegalMove::NaturalSituationalSuperko,
        ) => Some(Verdict::Repeat),
        Err(IllegalMove::OffBoard | IllegalMove::GameOver | IllegalMove::WrongPhase) => None,
    }
}

/// Whether `claim` is true of `game`.
///
/// # Errors
/// [`WebError::Invalid`] for a point off the board, or a liberty count
/// asked of an empty point.
pub fn holds(game: &Game, claim: Claim) -> Result<bool, WebError> {
    let size = game.size();
    let board = game.board();
    Ok(match claim {
        Claim::Move(at, v) => verdict(game, point(at, size)?) == Some(v),
        Claim::Liberties(stone, n) => {
            let p = point(stone, size)?;
            if board.get(p).is_none() {
                return Err(bad(format!("no stone at {stone}")));
            }
            board.liberties(p) == n
        }
        Claim::Winner(c) => game.score(&[]).winner() == Some(c),
        Claim::Territory(c, n) => {
            let map = game.region_map(&[]);
            map.iter().filter(|&(_, m)| m == Mark::Territory(c)).count() as u32 == n
        }
    })
}

/// The stones of every chain left with one liberty (what the page rings).
pub fn in_atari(board: &Board) -> Vec<Point> {
    board
        .size()
        .points()
        .filter(|&p| board.get(p).is_some() && board.liberties(p) == 1)
        .collect()
}

/// The liberties of the chain at `stone`.
///
/// # Errors
/// [`WebError::Invalid`] for a point off the board.
pub fn liberties(board: &Board, stone: &str) -> Result<Vec<Point>, WebError> {
    let p = point(stone, board.size())?;
    if board.get(p).is_none() {
        return Ok(Vec::new());
    }
    let mut libs: Vec<Point> = board
        .chain(p)
        .flat_map(|s| board.neighbours(s))
        .filter(|&q| board.is_empty(q))
        .collect();
    libs.sort();
    libs.dedup();
    Ok(libs)
}
