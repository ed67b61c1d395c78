//! The learning path's screens as the page receives them, and the answer
//! to a click or a choice. The expected answers stay on the server: the
//! page sends what the learner did and hears whether the rules agree.

use super::judge::{self, Judged};
use super::screens::{Ask, Diagram, SCREENS, Screen, Task, Words};
use crate::error::WebError;
use crate::view::board_text;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tengen_core::{Game, Move, Vertex};

/// A position as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct Position {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// One letter per point (`.`, `X`, `O`), row by row from the top.
    pub board: String,
    /// `black` or `white`: who plays the problem's move.
    pub to_move: &'static str,
    /// The last move played, if the diagram has moves.
    pub last: Option<String>,
    /// Letters on points, by vertex.
    pub labels: BTreeMap<String, &'static str>,
    /// Liberties marked, by vertex.
    pub liberties: Vec<String>,
    /// Stones of chains in atari, by vertex.
    pub atari: Vec<String>,
}

/// A question without its answer.
#[derive(Clone, Debug, Serialize)]
pub struct Question {
    /// `play` (click a point) or `choose` (pick an option).
    pub kind: &'static str,
    /// The question.
    pub words: Words,
    /// The options of a `choose`.
    pub options: Vec<Words>,
}

/// One screen as the page receives it.
#[derive(Clone, Debug, Serialize)]
pub struct ScreenView {
    /// The screen's id.
    pub id: &'static str,
    /// Its sentences.
    pub text: &'static [Words],
    /// The position, if any.
    pub position: Option<Position>,
    /// The question, if any.
    pub question: Option<Question>,
    /// The text and diagram it follows (the catalogue's
    /// `lessons.ID.source`).
    pub source: Words,
}

/// What the learner did on a screen.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The screen's id.
    pub screen: String,
    /// The point clicked (a `play` question).
    pub vertex: Option<String>,
    /// The option picked (a `choose` question).
    pub choice: Option<usize>,
    /// Asks to be shown the answer instead (after wrong tries).
    #[serde(default)]
    pub show: bool,
}

/// An answer shown to a learner who asked: a point to play, or the option
/// that is true.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shown {
    /// Play here.
    Vertex(&'static str),
    /// Pick this option.
    Choice(usize),
}

/// The server's word on an answer.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The answer is right.
    pub correct: bool,
    /// The error code of the rule that refused the move, if one did.
    pub refusal: Option<&'static str>,
    /// The hint (wrong) or the conclusion (right).
    pub words: Words,
    /// The position after a move the rules allowed.
    pub position: Option<Position>,
    /// The answer, when the learner asked to be shown it: the learner then
    /// plays or picks it, and the screen is solved as any other.
    pub shown: Option<Shown>,
}

fn position_of(game: &Game, d: Option<&Diagram>) -> Result<Position, WebError> {
    let board = game.board();
    let size = board.size();
    let name = |p| Vertex::point_name(p, size);
    let liberties = match d.and_then(|d| d.liberties_of) {
        Some(stone) => judge::liberties(board, stone)?
            .into_iter()
            .map(name)
            .collect(),
        None => Vec::new(),
    };
    let last = game.turns().last().and_then(|t| match t.mv {
        Move::Play(p) => Some(name(p)),
        Move::Pass => None,
    });
    Ok(Position {
        width: size.width(),
        height: size.height(),
        board: board_text(board),
        to_move: game.to_move().name(),
        last,
        labels: d
            .map(|d| d.labels.iter().map(|&(v, l)| (v.to_string(), l)).collect())
            .unwrap_or_default(),
        liberties,
        atari: judge::in_atari(board).into_iter().map(name).collect(),
    })
}

fn screen_view(s: &Screen) -> Result<ScreenView, WebError> {
    let position = match &s.diagram {
        Some(d) => Some(position_of(&judge::position(s.step, d)?, Some(d))?),
        None => None,
    };
    let question = s.ask.map(|a| match a.task {
        Task::Play { .. } => Question {
            kind: "play",
            words: a.question,
            options: Vec::new(),
        },
        Task::Choose { options, .. } => Question {
            kind: "choose",
            words: a.question,
            options: options.iter().map(|o| o.words).collect(),
        },
    });
    Ok(ScreenView {
        id: s.id,
        text: s.text,
        position,
        question,
        source: Words::source(s.id),
    })
}

/// The screens of `step`, in order.
///
/// # Errors
/// [`WebError::Invalid`] for a step without screens, or a diagram the rules
/// refuse (the tests keep every diagram valid).
pub fn step(step: u32) -> Result<Vec<ScreenView>, WebError> {
    let views = SCREENS
        .iter()
        .filter(|s| s.step == step)
        .map(screen_view)
        .collect::<Result<Vec<_>, _>>()?;
    if views.is_empty() {
        return Err(WebError::invalid(
            "step",
            format!("no learning step {step}"),
        ));
    }
    Ok(views)
}

/// Judges what the learner did on a screen of `step`.
///
/// # Errors
/// [`WebError::Invalid`] for an unknown screen, one of another step or
/// without a question, or an answer of the wrong kind or out of range.
pub fn answer(step: u32, a: &Answer) -> Result<Verdict, WebError> {
    let screen = SCREENS
        .iter()
        .find(|s| s.id == a.screen && s.step == step)
        .ok_or_else(|| {
            WebError::invalid("screen", format!("no screen {} in step {step}", a.screen))
        })?;
    let (Some(d), Some(ask)) = (&screen.diagram, screen.ask) else {
        return Err(WebError::invalid("screen", "this screen asks nothing"));
    };
    let game = judge::position(step, d)?;
    let words = |correct: bool, ask: &Ask| if correct { ask.done } else { ask.hint };
    if a.show {
        let shown = match ask.task {
            Task::Play { answers, .. } => answers.first().map(|&v| Shown::Vertex(v)),
            Task::Choose { answer, .. } => Some(Shown::Choice(answer)),
        };
        return Ok(Verdict {
            correct: false,
            refusal: None,
            words: ask.hint,
            position: None,
            shown,
        });
    }
    match (ask.task, a.vertex.as_deref(), a.choice) {
        (Task::Play { goal, .. }, Some(vertex), None) => {
            let Judged {
                correct,
                refusal,
                after,
            } = judge::play(&game, goal, vertex)?;
            Ok(Verdict {
                correct,
                refusal: refusal.map(|r| WebError::Illegal(r).code()),
                words: words(correct, &ask),
                position: after.map(|g| position_of(&g, Some(d))).transpose()?,
                shown: None,
            })
        }
        (Task::Choose { options, .. }, None, Some(i)) => {
            let option = options
                .get(i)
                .ok_or_else(|| WebError::invalid("choice", format!("no option {i}")))?;
            let correct = judge::holds(&game, option.claim)?;
            Ok(Verdict {
                correct,
                refusal: None,
                words: words(correct, &ask),
                position: None,
                shown: None,
            })
        }
        _ => Err(WebError::invalid(
            "answer",
            "a play question takes a vertex, a choice question a choice",
        )),
    }
}
