//! The value network's second look at the search's best moves before one
//! is played ([`super::SearchConfig::check_moves`]): on 19x19 the
//! playouts see a group's fate late, the network early, and the moves the
//! search rates nearly alike can differ by points the network sees.
//!
//! Each move the search ranks close to its best (at least
//! [`CHECK_SHARE`] of the best's simulations, at most [`CHECK_MOST`]
//! moves) is judged one move on, and the move played is the one with the
//! best sum of the search's win rate, the network's and (weighing as the
//! search's score does) the network's lead over the best move's. The
//! search still picks the few moves worth a look: the network alone never
//! brings in a move the search did not read.
//!
//! Left out: passes (the count decides those, [`super::decide`]), the
//! boards the network did not learn, and the analysis reported (its
//! candidates stay ranked by the search).

use super::Analysis;
use super::analysis::Standing;
use crate::value::{ValueInput, ValueNetwork};
use tengen_core::{Game, Move};

/// The share of the best move's simulations a move needs to be looked at.
pub(super) const CHECK_SHARE: f64 = 0.3;

/// The most moves looked at (one judgement each, a batch).
pub(super) const CHECK_MOST: usize = 4;

/// The points of the lead's scale: as the search's score pull on 19x19.
const LEAD_SCALE: f64 = 14.0;

/// The move to play among the search's best in `analysis`, by the search's
/// and `network`'s judgement together; `None` where there is nothing to
/// choose (fewer than two moves close to the best).
pub(super) fn check(
    game: &Game,
    analysis: &Analysis,
    network: &ValueNetwork,
    score_weight: f32,
) -> Option<Move> {
    let best_visits = analysis.candidates.first()?.visits as f64;
    let looked: Vec<(Move, f64, ValueInput)> = analysis
        .candidates
        .iter()
        .filter(|c| matches!(c.mv, Move::Play(_)) && c.visits as f64 >= CHECK_SHARE * best_visits)
        .take(CHECK_MOST)
        .filter_map(|c| {
            let mut after = game.clone();
            after.play(c.mv).ok()?;
            Some((c.mv, c.winrate, ValueInput::of_game(&after)))
        })
        .collect();
    if looked.len() < 2 {
        return None;
    }
    let refs: Vec<&ValueInput> = looked.iter().map(|(_, _, input)| input).collect();
    let judged = network.judge(&refs);
    if judged.len() != looked.len() {
        return None;
    }
    let mover = game.to_move();
    let views: Vec<(f64, f64)> = judged
        .iter()
        .map(|j| Standing::of(j).for_mover(mover))
        .collect();
    let first_lead = views[0].1;
    let values: Vec<f64> = looked
        .iter()
        .zip(&views)
        .map(|((_, winrate, _), &(wins, lead))| {
            winrate
                + wins
                + f64::from(score_weight)
                    * std::f64::consts::FRAC_2_PI
                    * ((lead - first_lead) / LEAD_SCALE).atan()
        })
        .collect();
    // The first of the best: the search's order breaks a tie.
    let best = (1..values.len()).fold(0, |b, i| if values[i] > values[b] { i } else { b });
    Some(looked[best].0)
}

#[cfg(all(test, feature = "net"))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

    use super::*;
    use crate::search::Candidate;
    use tengen_core::{Board, Color, Preset, Setup};

    /// 19x19, Black to play: twelve white stones on the tenth line in
    /// atari, their last liberty at Q10 (x 15, y 9).
    fn big_atari() -> Game {
        let mut rows = vec![".".repeat(19); 19];
        rows[8] = format!("...{}....", "X".repeat(12));
        rows[9] = format!("..X{}....", "O".repeat(12));
        rows[10] = format!("...{}....", "X".repeat(12));
        let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
        let board = Board::from_ascii(&text).unwrap();
        Game::from_setup(Preset::Chinese.rules(), &Setup::of(&board, Color::Black)).unwrap()
    }

    fn candidate(mv: Move, visits: u64) -> Candidate {
        Candidate {
            mv,
            visits,
            winrate: 0.5,
            prior: 0.1,
            score_lead: 0.0,
            score_stdev: 0.0,
            lcb: 0.4,
            pv: vec![mv],
            pv_visits: vec![visits],
            ownership: None,
        }
    }

    fn analysis(game: &Game, candidates: Vec<Candidate>) -> Analysis {
        let n = game.size().num_points();
        Analysis {
            to_move: game.to_move(),
            visits: candidates.iter().map(|c| c.visits).sum(),
            winrate: 0.5,
            searched_winrate: 0.5,
            score_lead: 0.0,
            score_stdev: 0.0,
            candidates,
            ownership: vec![0.0; n],
            ownership_stdev: vec![0.0; n],
            policy: Vec::new(),
        }
    }

    #[test]
    fn the_network_picks_the_capture_of_twelve_stones_among_moves_the_search_rates_alike() {
        let game = big_atari();
        let play = |x, y| Move::Play(game.size().point(x, y).unwrap());
        let capture = play(15, 9);
        assert!(game.is_legal(capture));
        let network = ValueNetwork::shipped().unwrap();
        let far = play(2, 16);
        let alike = analysis(&game, vec![candidate(far, 1000), candidate(capture, 900)]);
        assert_eq!(check(&game, &alike, network, 0.05), Some(capture));
        // Below the share of the best's simulations, the capture is not
        // looked at: the search did not read it enough.
        let unread = analysis(&game, vec![candidate(far, 1000), candidate(capture, 200)]);
        assert_eq!(check(&game, &unread, network, 0.05), None);
        // A pass is never looked at, nor is a lone move.
        let passing = analysis(
            &game,
            vec![candidate(Move::Pass, 1000), candidate(far, 900)],
        );
        assert_eq!(check(&game, &passing, network, 0.05), None);
    }

    #[test]
    fn the_search_s_best_stays_where_the_network_agrees_with_it() {
        let game = big_atari();
        let play = |x, y| Move::Play(game.size().point(x, y).unwrap());
        let network = ValueNetwork::shipped().unwrap();
        // The capture, ranked first, stays first against two far moves.
        let capture = play(15, 9);
        let ranked = analysis(
            &game,
            vec![
                candidate(capture, 1000),
                candidate(play(2, 16), 900),
                candidate(play(16, 2), 900),
            ],
        );
        assert_eq!(check(&game, &ranked, network, 0.05), Some(capture));
    }
}
