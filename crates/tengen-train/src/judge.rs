//! How well tengen judges real games: at positions of records whose
//! result is known, Black's win chance and score lead from the value
//! network alone and from the search, and how often they favour the
//! eventual winner at a quarter, half, three quarters of the game and at
//! its final position (just before the resignation or the count); on
//! counted records (whose recorded result tengen's count confirms), how
//! far the final score lead is from the recorded one.
//!
//! The komi is the one played ([`crate::outcome`]): Fox writes `KM[0]` on
//! games played with komi, and a judge told the wrong komi is wrong by it.
//!
//! Left out: records without a winner, and the records' own comments.

use crate::corpus::Record;
use crate::outcome::Ending;
use tengen_core::{Color, Game, Move, Outcome, WinBy};
use tengen_mcts::value::ValueNetwork;
use tengen_mcts::{Limit, Request, Search, SearchConfig};
use tengen_sgf::record::RecordedResult;

/// The fractions of a game the summary looks at; 1 is the final position.
pub const CHECKPOINTS: [(&str, f64); 4] =
    [("1/4", 0.25), ("1/2", 0.5), ("3/4", 0.75), ("final", 1.0)];

/// One judge's view of a position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Black's chance to win.
    pub black_wins: f64,
    /// Black's lead in points, komi included.
    pub black_lead: f64,
    /// The spread of the lead (one standard deviation), points.
    pub spread: f64,
}

/// A position of a record, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Turns played before it (0: the first position).
    pub turn: usize,
    /// Who is to move.
    pub to_move: Color,
    /// The value network's view.
    pub net: Option<Verdict>,
    /// The search's view.
    pub search: Option<Verdict>,
}

/// A record, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordJudged {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Black's recorded lead, komi included, on a record won on points
    /// whose count tengen confirmed.
    pub recorded_lead: Option<f64>,
    /// The final position's turn (before trailing passes).
    pub last: usize,
    /// The positions judged, in order.
    pub positions: Vec<Judged>,
}

/// What judges, and where.
#[derive(Clone, Copy, Debug)]
pub struct JudgeConfig<'a> {
    /// The value network (none: the search alone).
    pub value: Option<&'a ValueNetwork>,
    /// Playouts of the search at each position searched (0: no search).
    pub playouts: u64,
    /// How the search runs.
    pub search: &'a SearchConfig,
    /// Search every position, not only the summary's.
    pub search_every: bool,
}

/// Black's recorded lead, komi `komi` included, for a record won on
/// points (area results in stones read as [`RecordedResult::area_margin`]
/// reads them).
pub fn recorded_lead(
    result: &RecordedResult,
    komi: tengen_core::Points,
    area: bool,
) -> Option<f64> {
    let points = tengen_core::Points::to_f64;
    if area {
        return result.area_margin(komi).map(points);
    }
    match result {
        RecordedResult::Outcome(Outcome::Win {
            winner,
            by: WinBy::Score(by),
        }) => Some(match winner {
            Color::Black => points(*by),
            Color::White => -points(*by),
        }),
        _ => None,
    }
}

/// The turns of the summary's positions in a game whose final position
/// is after `last` turns.
pub fn checkpoint_turns(last: usize) -> [usize; 4] {
    CHECKPOINTS.map(|(_, f)| ((last as f64) * f).round() as usize)
}

/// Judges the positions of `record` (which ended as `ending`): the value
/// network at every position, the search at the summary's or at every one.
pub fn judge_record(record: &Record, ending: &Ending, config: &JudgeConfig) -> RecordJudged {
    // The final position is the one before the passes that ended the game.
    let last = record
        .moves
        .iter()
        .rposition(|&(_, mv)| mv != Move::Pass)
        .map_or(0, |i| i + 1);
    let area = record.rules.scoring.counts_area();
    // Only a count tengen confirmed: Fox writes `W+0.0` on games that
    // were not counted, and a handicap game's `B+109` is no final score.
    let recorded = record
        .result
        .as_ref()
        .filter(|_| ending.counted.is_some())
        .and_then(|r| recorded_lead(r, ending.komi, area));
    let wanted = checkpoint_turns(last);
    let mut search = (config.playouts > 0).then(|| Search::new(*config.search));
    let mut positions = Vec::new();
    let mut game: Option<Game> = record.start().map(|mut g| {
        g.set_komi(ending.komi);
        g
    });
    for turn in 0..=last {
        let Some(g) = game.as_ref() else {
            break;
        };
        let net = config.value.map(|v| {
            let j = v.judge_game(g);
            Verdict {
                black_wins: f64::from(j.black_wins),
                black_lead: f64::from(j.black_lead),
                spread: f64::from(j.spread),
            }
        });
        let searched = search
            .as_mut()
            .filter(|_| config.search_every || wanted.contains(&turn))
            .map(|s| {
                s.clear();
                let a = s.analyze(g, Request::new(Limit::playouts(config.playouts)));
                Verdict {
                    black_wins: match a.to_move {
                        Color::Black => a.winrate,
                        Color::White => 1.0 - a.winrate,
                    },
                    black_lead: f64::from(a.to_move.sign()) * a.score_lead,
                    spread: a.score_stdev,
                }
            });
        positions.push(Judged {
            turn,
            to_move: g.to_move(),
            net,
            search: searched,
        });
        game = record.moves.get(turn).and_then(|&(_, mv)| {
            let mut next = game.take()?;
            next.play(mv).ok()?;
            Some(next)
        });
    }
    RecordJudged {
        winner: ending.winner,
        recorded_lead: recorded,
        last,
        positions,
    }
}

/// One judge's tally over many records.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// At each checkpoint: decided games judged there, and how many of
    /// them the judge favoured the eventual winner in.
    pub favoured: [(usize, usize); 4],
    /// Records won on points judged at their final position, and the sum
    /// of the absolute error of the final lead.
    pub lead_error: (usize, f64),
}

impl Tally {
    /// Adds one record, as `view` reads a judge's verdict.
    pub fn add(&mut self, record: &RecordJudged, view: impl Fn(&Judged) -> Option<Verdict>) {
        for (k, &turn) in checkpoint_turns(record.last).iter().enumerate() {
            let Some(v) = record.positions.get(turn).and_then(&view) else {
                continue;
            };
            if let Some(w) = record.winner {
                let black_favoured = v.black_wins > 0.5;
                self.favoured[k].0 += 1;
                self.favoured[k].1 += usize::from(black_favoured == (w == Color::Black));
            }
            if k == 3
                && let Some(lead) = record.recorded_lead
            {
                self.lead_error.0 += 1;
                self.lead_error.1 += (v.black_lead - lead).abs();
            }
        }
    }

    /// The share of decided games where the winner was favoured at
    /// checkpoint `k`.
    pub fn share(&self, k: usize) -> f64 {
        let (n, hits) = self.favoured.get(k).copied().unwrap_or_default();
        hits as f64 / n.max(1) as f64
    }

    /// The mean absolute error of the final lead on records won on points.
    pub fn mean_lead_error(&self) -> f64 {
        self.lead_error.1 / self.lead_error.0.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Points;

    #[test]
    fn a_recorded_lead_reads_area_results_in_stones_and_territory_as_written() {
        let komi = Points::halves(15);
        // Chinese area result in stones: B+1.75 stones is 3.5 points.
        let stones = RecordedResult::parse("B+1.75");
        assert_eq!(recorded_lead(&stones, komi, true), Some(3.5));
        // In points already: W+2.5 under 7.5 komi makes a whole margin.
        let points = RecordedResult::parse("W+2.5");
        assert_eq!(recorded_lead(&points, komi, true), Some(-2.5));
        assert_eq!(
            recorded_lead(&points, Points::halves(13), false),
            Some(-2.5)
        );
        assert_eq!(
            recorded_lead(&RecordedResult::parse("B+R"), komi, true),
            None
        );
    }

    fn verdict(black_wins: f64, black_lead: f64) -> Option<Verdict> {
        Some(Verdict {
            black_wins,
            black_lead,
            spread: 1.0,
        })
    }

    #[test]
    fn a_tally_counts_the_winner_favoured_at_each_point_and_the_final_lead() {
        // A game of 8 turns: positions 0..=8, checkpoints at 2, 4, 6, 8.
        let judged = |winner: Option<Color>, wins: [f64; 9], lead: Option<f64>| RecordJudged {
            winner,
            recorded_lead: lead,
            last: 8,
            positions: wins
                .iter()
                .enumerate()
                .map(|(turn, &w)| Judged {
                    turn,
                    to_move: Color::Black,
                    net: verdict(w, (w - 0.5) * 20.0),
                    search: None,
                })
                .collect(),
        };
        assert_eq!(checkpoint_turns(8), [2, 4, 6, 8]);
        let mut t = Tally::default();
        // Black won: favoured at 1/2, 3/4 and the end, not at 1/4.
        t.add(
            &judged(
                Some(Color::Black),
                [0.5, 0.5, 0.4, 0.5, 0.6, 0.5, 0.7, 0.5, 0.9],
                Some(4.5),
            ),
            |p| p.net,
        );
        // White won: favoured only at the end.
        t.add(
            &judged(
                Some(Color::White),
                [0.5, 0.5, 0.6, 0.5, 0.6, 0.5, 0.6, 0.5, 0.2],
                None,
            ),
            |p| p.net,
        );
        // A draw counts for no checkpoint's share; its lead counts.
        t.add(&judged(None, [0.5; 9], Some(0.0)), |p| p.net);
        assert_eq!(t.favoured, [(2, 0), (2, 1), (2, 1), (2, 2)]);
        assert_eq!(t.share(3), 1.0);
        assert_eq!(t.share(0), 0.0);
        // Final leads: 8 against 4.5, and 0 against 0.
        assert_eq!(t.lead_error.0, 2);
        assert!((t.mean_lead_error() - 1.75).abs() < 1e-9);
        // A judge that said nothing is not counted.
        let mut none = Tally::default();
        none.add(&judged(Some(Color::Black), [0.5; 9], Some(1.0)), |p| {
            p.search
        });
        assert_eq!(none, Tally::default());
    }
}
