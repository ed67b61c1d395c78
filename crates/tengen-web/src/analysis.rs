//! The engine's analysis of a record under review: each position of the
//! main line searched with the strongest knowledge the engine has (the
//! policy network over the pattern model), the win rate and score for
//! Black, the preferred move and its line, who owns each point; and the
//! moves that lost the most. Positions are searched one at a time on the
//! heavy-work pool and stored as they finish, so that the page shows
//! progress, live games keep their share of the cores, and a reload or a
//! restart never searches a position twice.

use crate::error::WebError;
use crate::review::MainLine;
use serde::{Deserialize, Serialize};
use tengen_core::{Color, Game, Move};
use tengen_mcts::{Knowledge, Limit, Request, Search, SearchConfig};

/// Moves of the expected line kept per position.
const PV_MOVES: usize = 12;
/// Mistakes listed per player.
pub const MISTAKES_PER_PLAYER: usize = 5;
/// A move losing fewer points than this is not listed as a mistake (the
/// noise of a short search).
const MISTAKE_POINTS: f64 = 1.0;
/// Positions of the longest main line analysed.
pub const MAX_POSITIONS: usize = 1_000;

/// What the engine thinks of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionAnalysis {
    /// Moves played before it (the review node's `number`).
    pub number: usize,
    /// Black's chance to win, 0..1.
    pub winrate: f64,
    /// Black's expected lead in points (negative: White leads).
    pub score: f64,
    /// Simulations searched.
    pub visits: u64,
    /// The engine's preferred move (a vertex or `pass`).
    pub best: Option<String>,
    /// The line it expects, the preferred move first.
    pub pv: Vec<String>,
    /// Who owns each point at the end, row by row from the top: one letter
    /// per point from `a` (White's surely) through `k` (nobody) to `u`
    /// (Black's surely).
    pub ownership: String,
}

/// A move that lost much of its player's chance to win.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mistake {
    /// Its move number.
    pub number: usize,
    /// Who played it.
    pub color: &'static str,
    /// Where (a vertex or `pass`).
    pub vertex: String,
    /// The chance to win it lost, 0..1.
    pub loss: f64,
    /// The points it lost.
    pub score_loss: f64,
    /// What the engine preferred there.
    pub best: Option<String>,
}

/// The analysis of a record as far as it has gone.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Positions to analyse.
    pub total: usize,
    /// Positions analysed.
    pub done: usize,
    /// Whether the analysis is under way.
    pub running: bool,
    /// Simulations per position.
    pub playouts: u64,
    /// The positions analysed, from the one asked (`since`).
    pub positions: Vec<PositionAnalysis>,
    /// The biggest mistakes of each player among the moves analysed on
    /// both sides, the biggest first.
    pub mistakes: Vec<Mistake>,
}

/// The vertex of a move.
fn vertex(mv: Move, game: &Game) -> String {
    crate::view::move_vertex(mv)
        .display(game.size())
        .to_string()
}

/// One letter per point for an ownership value in -1..1.
fn ownership_letter(value: f32) -> char {
    let step = ((value.clamp(-1.0, 1.0) + 1.0) * 10.0).round() as u8;
    char::from(b'a' + step.min(20))
}

/// The search of a review: the positions of a record searched in order,
/// each with the tree the last one grew under the move played (the
/// network's knowledge, no resignation).
pub fn review_search(threads: usize, seed: u64) -> Search {
    Search::new(SearchConfig {
        threads: threads.max(1),
        seed,
        resign_below: None,
        knowledge: Knowledge::Net,
        ..SearchConfig::default()
    })
}

/// Searches one position until its tree holds `playouts` simulations:
/// those `search` grew there while searching the position before count,
/// as in any engine that keeps its tree between moves, so a review spends
/// only what the move played left unread.
pub fn analyse(search: &mut Search, number: usize, game: &Game, playouts: u64) -> PositionAnalysis {
    let a = search.analyze(game, Request::new(Limit::visits(playouts.max(1))));
    let black = a.to_move == Color::Black;
    let best = a.candidates.first();
    position(
        number,
        game,
        if black { a.winrate } else { 1.0 - a.winrate },
        if black { a.score_lead } else { -a.score_lead },
        a.visits,
        best.map_or(&[], |c| c.pv.as_slice()),
        &a.ownership,
    )
}

/// One position's analysis from Black's view, whichever engine gave it:
/// the win chance, the lead, the visits, the expected line (its first move
/// the best) and the ownership (row by row from the top).
pub fn position(
    number: usize,
    game: &Game,
    winrate: f64,
    score: f64,
    visits: u64,
    pv: &[Move],
    ownership: &[f32],
) -> PositionAnalysis {
    PositionAnalysis {
        number,
        winrate: winrate.clamp(0.0, 1.0),
        score,
        visits,
        best: pv.first().map(|&mv| vertex(mv, game)),
        pv: pv
            .iter()
            .take(PV_MOVES)
            .map(|&mv| vertex(mv, game))
            .collect(),
        ownership: ownership.iter().map(|&v| ownership_letter(v)).collect(),
    }
}

/// The moves of `line` that lost the most points, [`MISTAKES_PER_PLAYER`]
/// per player, from the positions analysed (in order of `number`, some may
/// be missing). Points, as KaTrain ranks them: in a game already won or
/// lost the chance to win barely moves, but the points a move gave away
/// are still what a player learns from.
pub fn mistakes(line: &MainLine, positions: &[PositionAnalysis]) -> Vec<Mistake> {
    let mut by_number: Vec<Option<&PositionAnalysis>> = vec![None; line.positions];
    for p in positions {
        if let Some(slot) = by_number.get_mut(p.number) {
            *slot = Some(p);
        }
    }
    let mut found: Vec<Mistake> = Vec::new();
    for (i, (color, _, vertex)) in line.moves.iter().enumerate() {
        let (Some(Some(before)), Some(Some(after))) = (by_number.get(i), by_number.get(i + 1))
        else {
            continue;
        };
        if before.best.as_deref() == Some(vertex.as_str()) {
            // The engine's own choice: what it lost is the noise of two
            // searches, not a mistake.
            continue;
        }
        let sign = f64::from(color.sign());
        let score_loss = sign * (before.score - after.score);
        if score_loss >= MISTAKE_POINTS {
            found.push(Mistake {
                number: i + 1,
                color: color.name(),
                vertex: vertex.clone(),
                loss: sign * (before.winrate - after.winrate),
                score_loss,
                best: before.best.clone(),
            });
        }
    }
    found.sort_by(|a, b| b.score_loss.total_cmp(&a.score_loss));
    let mut kept = Vec::new();
    for color in [Color::Black, Color::White] {
        kept.extend(
            found
                .iter()
                .filter(|m| m.color == color.name())
                .take(MISTAKES_PER_PLAYER)
                .cloned(),
        );
    }
    kept.sort_by(|a, b| b.score_loss.total_cmp(&a.score_loss));
    kept
}

/// Refuses a main line too long to analyse.
///
/// # Errors
/// [`WebError::Invalid`] beyond [`MAX_POSITIONS`].
pub fn check_length(line: &MainLine) -> Result<(), WebError> {
    if line.positions > MAX_POSITIONS {
        return Err(WebError::invalid(
            "sgf",
            format!(
                "the main line has {} positions; the engine analyses {MAX_POSITIONS} at most",
                line.positions
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review;

    #[test]
    fn ownership_letters_run_from_white_to_black() {
        assert_eq!(ownership_letter(-1.0), 'a');
        assert_eq!(ownership_letter(0.0), 'k');
        assert_eq!(ownership_letter(1.0), 'u');
        assert_eq!(ownership_letter(7.0), 'u');
    }

    #[test]
    fn a_position_is_analysed_for_black_with_a_line_and_every_point_owned() {
        let line = review::main_line("(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[ce])").unwrap();
        assert_eq!(line.positions, 3);
        let mut search = review_search(1, 1);
        let seen: Vec<PositionAnalysis> = line
            .games()
            .map(|(n, game)| analyse(&mut search, n, &game, 64))
            .collect();
        assert_eq!(seen.len(), 3);
        for (n, a) in seen.iter().enumerate() {
            assert_eq!(a.number, n);
            assert!((0.0..=1.0).contains(&a.winrate), "{a:?}");
            assert_eq!(a.ownership.len(), 81);
            // The tree kept from the position before counts.
            assert_eq!(a.visits, 64);
            let best = a.best.as_deref().unwrap();
            assert_eq!(a.pv.first().map(String::as_str), Some(best));
        }
    }

    fn at(number: usize, winrate: f64) -> PositionAnalysis {
        PositionAnalysis {
            number,
            winrate,
            score: winrate * 10.0,
            visits: 1,
            best: Some("A1".into()),
            pv: Vec::new(),
            ownership: String::new(),
        }
    }

    #[test]
    fn mistakes_are_the_points_each_player_lost() {
        let line = review::main_line("(;GM[1]FF[4]SZ[9];B[ee];W[ce];B[gg];W[cc])").unwrap();
        // Black's chance: 0.5, 0.6 (B good), 0.9 (W lost 0.3), 0.5 (B
        // lost 0.4), 0.51 (W gained: no mistake).
        let positions = [at(0, 0.5), at(1, 0.6), at(2, 0.9), at(3, 0.5), at(4, 0.51)];
        let m = mistakes(&line, &positions);
        let summary: Vec<(usize, &str, String)> = m
            .iter()
            .map(|m| (m.number, m.color, format!("{:.2}", m.loss)))
            .collect();
        assert_eq!(
            summary,
            [
                (3, "black", "0.40".to_string()),
                (2, "white", "0.30".to_string())
            ]
        );
        assert_eq!(m[0].vertex, "G3");
        // The engine's own choice is no mistake, whatever the searches say.
        let mut chosen = positions.clone();
        chosen[2].best = Some("G3".into());
        let m = mistakes(&line, &chosen);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].color, "white");
        // A position missing: the moves next to it are not judged.
        let m = mistakes(&line, &[at(0, 0.5), at(1, 0.6), at(3, 0.5)]);
        assert!(m.is_empty(), "{m:?}");
        // In a game won already, the chance barely moves but the points
        // do: the move that gave away the most points comes first.
        let mut won = [
            at(0, 0.97),
            at(1, 0.97),
            at(2, 0.98),
            at(3, 0.96),
            at(4, 0.96),
        ];
        for (p, score) in won.iter_mut().zip([30.0, 30.0, 30.5, 18.0, 17.5]) {
            p.score = score;
        }
        let m = mistakes(&line, &won);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!((m[0].number, m[0].color), (3, "black"));
        assert!((m[0].score_loss - 12.5).abs() < 1e-9);
    }
}
