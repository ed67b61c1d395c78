//! What a record says of how its game ended, as targets for the value
//! network: the winner of every record with a result, the komi actually
//! played, and, where the game was counted, who owns each point and the
//! area margin.
//!
//! A counted record's final position is counted by tengen's own count
//! under the record's rules, with the dead stones estimated by playouts,
//! and its ownership kept only when that count comes within a few points
//! of the recorded result: a position whose dead stones were misjudged
//! teaches nothing true about ownership. The margin learned is the
//! recorded one (records stop before the last dame and half-point kos).
//!
//! The komi is the one played: Fox writes `KM[0]` on games played with a
//! komi, so an even game recorded without komi takes the komi that makes
//! its count give its result, or, when it was not counted, the komi most
//! often found that way ([`usual_komi`]).
//!
//! A game decided without a count (a resignation) has its final position's
//! ownership estimated by the playouts, kept when that estimate gives the
//! game to its winner: nobody counted it, but most of its points are
//! settled, and a network that learns only from the counted tenth of the
//! games sees too few boards to learn who owns what.
//!
//! Left out: results the board cannot show (time, forfeit: the winner is
//! still a target, the estimate is dropped when it disagrees).

use crate::corpus::Record;
use tengen_core::{Color, Outcome, Points};
use tengen_mcts::ownership::{dead_stones, final_ownership};
use tengen_sgf::record::RecordedResult;

/// How far tengen's count of a counted record's end may be from its
/// recorded result: records stop before the last dame and half-point kos
/// are filled (a few points), where misjudged dead stones cost ten or
/// more.
const TOLERANCE: Points = Points::whole(3);

/// Komi a game recorded with `KM[0]` may have been played with, in the
/// order they are tried (a tie goes to the first).
const USUAL_KOMI: [Points; 4] = [
    Points::halves(13),
    Points::halves(15),
    Points::halves(11),
    Points::halves(1),
];

/// A counted game's end.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// Black's ownership of each point at the count: 1 Black's (a stone or
    /// territory), -1 White's, 0 neither (dame), in the order of the
    /// board's points.
    pub owner: Vec<i8>,
    /// Black's margin before komi: the recorded lead plus the komi.
    pub black_area: f32,
}

/// How a record's game ended, as far as the targets need.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// White's komi, as played.
    pub komi: Points,
    /// The count, for a counted game whose count was confirmed.
    pub counted: Option<Counted>,
    /// For a game not counted, Black's ownership of each point of its
    /// final position as the playouts see it (-1 to 1, in the order of the
    /// board's points), when it gives the game to its winner.
    pub estimated: Option<Vec<f32>>,
}

/// How the komi of a record is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Komi {
    /// The record's own `KM` (handicap games and any non-zero komi).
    Recorded,
    /// Found by the count: the komi that makes it give the result.
    Counted,
    /// `KM[0]` on an even game that was not counted: the usual komi.
    Usual,
}

/// The winner a record gives, `Some(None)` for a draw, `None` when it
/// gives none.
fn winner_of(result: &RecordedResult) -> Option<Option<Color>> {
    match result {
        RecordedResult::Outcome(Outcome::Draw) => Some(None),
        RecordedResult::Outcome(o) => o.winner().map(Some),
        RecordedResult::Winner(c, _) => Some(Some(*c)),
        RecordedResult::Unknown(_) => None,
    }
}

/// Whether `record` was recorded without its komi: an even game with
/// `KM[0]`.
fn komi_unrecorded(record: &Record) -> bool {
    record.komi.is_zero() && record.handicap == 0
}

/// The end of `record` with the komi left to settle for an even game
/// recorded with `KM[0]` and not counted ([`Komi::Usual`]): its winner
/// and, for a counted game whose count, dead stones estimated by
/// `playouts` playouts, gives the recorded result, its count. `None` when
/// the record gives no winner.
fn ending(record: &Record, playouts: u64) -> Option<(Ending, Komi)> {
    let result = record.result.as_ref()?;
    let winner = winner_of(result)?;
    let counted = result
        .signed_margins()
        .and_then(|margins| count(record, margins, playouts));
    let estimated = match counted {
        None if winner.is_some() => record
            .game_after(record.moves.len())
            .map(|game| final_ownership(&game, playouts, record.key)),
        _ => None,
    };
    let (komi, source) = match (&counted, komi_unrecorded(record)) {
        (Some((_, komi)), true) => (*komi, Komi::Counted),
        (_, true) => (Points::ZERO, Komi::Usual),
        (_, false) => (record.komi, Komi::Recorded),
    };
    Some((
        Ending {
            winner,
            komi,
            counted: counted.map(|(c, _)| c),
            estimated,
        },
        source,
    ))
}

/// The end of each of `records` (`None` for a record with no winner), on
/// all cores, `progress` told of each: the counted games first give the
/// usual komi ([`usual_komi`]), which then goes to the even games
/// recorded with `KM[0]` that were not counted.
pub fn endings(
    records: &[&Record],
    playouts: u64,
    progress: &(dyn Fn() + Sync),
) -> Vec<Option<(Ending, Komi)>> {
    use rayon::prelude::*;
    let mut out: Vec<Option<(Ending, Komi)>> = records
        .par_iter()
        .map(|r| {
            let e = ending(r, playouts);
            progress();
            e
        })
        .collect();
    let usual = usual_komi(out.iter().flatten());
    for (ending, source) in out.iter_mut().flatten() {
        if *source == Komi::Usual {
            ending.komi = usual;
        }
        if !ending.estimate_agrees() {
            ending.estimated = None;
        }
    }
    out
}

impl Ending {
    /// Whether the estimated ownership, counted by area against the komi,
    /// gives the game to its winner (true when there is none to check).
    fn estimate_agrees(&self) -> bool {
        let (Some(owner), Some(winner)) = (&self.estimated, self.winner) else {
            return true;
        };
        let lead = f64::from(owner.iter().sum::<f32>()) - self.komi.to_f64();
        match winner {
            Color::Black => lead > 0.0,
            Color::White => lead < 0.0,
        }
    }
}

/// The count of `record`'s final position when it gives one of `margins`
/// under a komi it could have been played with, within [`TOLERANCE`], and
/// that komi.
fn count(record: &Record, margins: [Points; 2], playouts: u64) -> Option<(Counted, Points)> {
    let mut game = record.game_after(record.moves.len())?;
    // The playouts alone: the targets of a value network must not come
    // from the network.
    let dead = dead_stones(&game, &final_ownership(&game, playouts, record.key));
    game.set_komi(Points::ZERO);
    let score = game.score(&dead);
    let komis: &[Points] = if komi_unrecorded(record) {
        &USUAL_KOMI
    } else {
        std::slice::from_ref(&record.komi)
    };
    // Black's lead before komi minus the recorded lead is the komi: the
    // komi, unit and count that come closest, if close enough.
    let (miss, komi, margin) = komis
        .iter()
        .flat_map(|&k| margins.iter().map(move |&m| (k, m)))
        .flat_map(|(k, m)| {
            [score.margin, score.area_margin].map(|c| ((c - m - k).abs().in_quarters(), k, m))
        })
        .min_by_key(|&(miss, _, _)| miss)?;
    if miss > TOLERANCE.in_quarters() {
        return None;
    }
    let map = game.region_map(&dead);
    let owner: Vec<i8> = map
        .iter()
        .map(|(_, mark)| match mark.owner() {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        })
        .collect();
    let black_area = (margin + komi).to_f64() as f32;
    Some((Counted { owner, black_area }, komi))
}

/// The komi most often found by the count among `endings` (6.5 when none
/// was): the komi of the even games recorded with `KM[0]` and not counted.
pub fn usual_komi<'a>(endings: impl IntoIterator<Item = &'a (Ending, Komi)>) -> Points {
    let mut tally: Vec<(Points, usize)> = Vec::new();
    for (ending, source) in endings {
        if *source != Komi::Counted {
            continue;
        }
        match tally.iter_mut().find(|(k, _)| *k == ending.komi) {
            Some((_, n)) => *n += 1,
            None => tally.push((ending.komi, 1)),
        }
    }
    tally
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map_or(USUAL_KOMI[0], |(k, _)| k)
}
