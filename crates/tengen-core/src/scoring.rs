//! Counting a final position, by every method of the texts, with a
//! breakdown per colour. What each point is (stone, territory, dame, seki,
//! dead) is the [`RegionMap`]'s; this module only adds it up.

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::outcome::{Outcome, WinBy};
use crate::points::Points;
use crate::regions::{RegionMap, Regions};
use crate::rules::{Scoring, Tax};
use crate::size::Point;

/// The Chinese count (2002 art. 9): Black's stones and points, shared dame
/// halved, against half the board plus half the komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChineseCount {
    /// Black's count.
    pub black: Points,
    /// What Black must exceed: half the points plus half the komi
    /// (184.25 on 19x19 with komi 7.5; on an empty board, where no region
    /// reaches a stone, only half the komi).
    pub threshold: Points,
    /// Black's count minus the threshold, in stones (positive: Black wins).
    pub margin_stones: Points,
}

/// The FFG quick count ("méthode de décompte rapide"): prisoners, pass
/// stones and the extra stone fill the opponent's territory, and only the
/// empty points left are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QuickCount {
    /// Stones each player holds to put into the other's territory:
    /// captures + dead stones taken + the opponent's passes (+1 for Black
    /// when he made the last stone play).
    pub held: ByColor<u32>,
    /// Of those, the pass stones each player received.
    pub pass_stones: ByColor<u32>,
    /// The stone White hands over because Black made the last stone play
    /// (more where a record's turns do not alternate).
    pub last_play_stone: u32,
    /// Each player's territory after the opponent filled it (may go below
    /// zero when prisoners outnumber the territory).
    pub remaining: ByColor<i32>,
    /// Komi in the quick count: the game's komi less the stone balance the
    /// setup already gives (0.5 in a handicap game of FFG §9).
    pub komi: Points,
    /// Black's remaining points minus White's and komi.
    pub margin: Points,
}

/// A counted position with its breakdown.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Score {
    /// The method used.
    pub scoring: Scoring,
    /// Stones on the board after the dead ones are removed.
    pub stones: ByColor<u32>,
    /// Empty points by region.
    pub regions: Regions,
    /// Stones captured during play, by the capturer.
    pub captures: ByColor<u32>,
    /// Dead stones removed at the end, by their colour.
    pub dead: ByColor<u32>,
    /// Komi (or handicap compensation) for White.
    pub komi: Points,
    /// Each player's points under the method (komi in White's).
    pub totals: ByColor<Points>,
    /// Black's total minus White's.
    pub margin: Points,
    /// The same margin counted as the area rules count it (stones + regions
    /// reaching only the colour, komi, no tax): every area method without
    /// a tax must agree with it.
    pub area_margin: Points,
    /// The Chinese count of the same position.
    pub chinese: ChineseCount,
    /// The FFG quick count, when the game's turns allow it.
    pub quick: Option<QuickCount>,
}

impl Score {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.margin.in_eighths() {
            0 => None,
            m if m > 0 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The result this count gives.
    pub fn outcome(&self) -> Outcome {
        match (self.winner(), self.scoring) {
            (None, _) => Outcome::Draw,
            (Some(w), Scoring::Captures) => Outcome::Win {
                winner: w,
                by: WinBy::Captures {
                    winner: self.captures[w],
                    loser: self.captures[w.opponent()],
                },
            },
            (Some(w), _) => Outcome::Win {
                winner: w,
                by: WinBy::Score(self.margin.abs()),
            },
        }
    }
}

/// What the counting needs besides the board.
#[derive(Clone, Copy, Debug)]
pub struct CountInput {
    /// The method.
    pub scoring: Scoring,
    /// White's komi or compensation.
    pub komi: Points,
    /// Stones captured during play, by the capturer.
    pub captures: ByColor<u32>,
    /// What the eyes in seki count.
    pub tax: Tax,
}

/// Counts `board` after removing the chains of `dead`.
pub fn count(board: &Board, dead: &[Point], input: CountInput) -> Score {
    count_map(&RegionMap::new(board, dead), input)
}

/// Adds up a region map by the method of `input`.
pub fn count_map(map: &RegionMap, input: CountInput) -> Score {
    let removed = map.removed();
    let stones = map.stones();
    let regions = map.regions();
    let prisoners = ByColor::from_fn(|c| input.captures[c] + removed[c.opponent()]);
    let komi = input.komi;
    let pts = |n: u32| Points::whole(n as i32);
    let area = ByColor::from_fn(|c| pts(stones[c] + regions.territory[c]));
    // The eyes in seki the rules' tax takes back from the regions counted.
    let taxed = ByColor::from_fn(|c| match input.tax {
        Tax::None => Points::ZERO,
        Tax::Seki => pts(regions.seki[c]),
    });
    let totals = match input.scoring {
        Scoring::AreaDameNobody => ByColor::from_fn(|c| area[c] - taxed[c]),
        Scoring::AreaDameBoth => ByColor::from_fn(|c| area[c] + pts(regions.dame) - taxed[c]),
        Scoring::AreaDameShared => {
            ByColor::from_fn(|c| area[c] + pts(regions.dame).half() - taxed[c])
        }
        Scoring::Stones => stones.map(pts),
        Scoring::Territory => {
            ByColor::from_fn(|c| pts(regions.territory[c] + prisoners[c]) - taxed[c])
        }
        Scoring::Captures => input.captures.map(pts),
    };
    let totals = ByColor::new(totals.black, totals.white + komi);
    let area_margin = area.black - area.white - komi;
    let chinese_black = area.black + pts(regions.dame).half();
    // Half the points the two counts share (all but regions reaching no
    // stone, which exist only on an empty board) plus half the komi.
    let threshold = pts(map.size().num_points() as u32 - regions.neutral).half() + komi.half();
    Score {
        scoring: input.scoring,
        stones,
        regions,
        captures: input.captures,
        dead: removed,
        komi,
        totals,
        margin: totals.black - totals.white,
        area_margin,
        chinese: ChineseCount {
            black: chinese_black,
            threshold,
            margin_stones: chinese_black - threshold,
        },
        quick: None,
    }
}

/// What the quick count needs from the game's turns.
#[derive(Clone, Copy, Debug)]
pub struct QuickInput {
    /// Passes made by each colour.
    pub passes: ByColor<u32>,
    /// Turns (stones and passes) made by each colour.
    pub turns: ByColor<u32>,
    /// Black stones minus White stones placed before play (handicap, setup).
    pub setup_balance: i32,
    /// Whether White made the first turn.
    pub white_first: bool,
}

impl Score {
    /// Adds the FFG quick count computed from the turns of the game.
    ///
    /// FFG §8 has White hand over one more stone when Black made the last
    /// stone play, so that both have put as many stones: with alternating
    /// turns and play ending on two passes, that is when Black made one turn
    /// more than White (or as many, White having started). The stone is
    /// decided by the turns themselves, so that passes a record adds after
    /// the two that stopped play keep the count equal to the area count;
    /// where turns do not alternate (a colour moving twice in a record),
    /// the side with fewer turns hands over the difference in the same way.
    pub fn with_quick_count(mut self, q: QuickInput) -> Score {
        let lead = i64::from(q.turns.black) - i64::from(q.turns.white) + i64::from(q.white_first);
        let to_black = u32::try_from(lead.max(0)).unwrap_or(u32::MAX);
        let to_white = u32::try_from((-lead).max(0)).unwrap_or(u32::MAX);
        let held = ByColor::new(
            self.captures.black + self.dead.white + q.passes.white + to_black,
            self.captures.white + self.dead.black + q.passes.black + to_white,
        );
        let remaining = ByColor::new(
            self.regions.territory.black as i32 - held.white as i32,
            self.regions.territory.white as i32 - held.black as i32,
        );
        let komi = self.komi - Points::whole(q.setup_balance - i32::from(q.white_first));
        self.quick = Some(QuickCount {
            held,
            pass_stones: ByColor::new(q.passes.white, q.passes.black),
            last_play_stone: to_black,
            remaining,
            komi,
            margin: Points::whole(remaining.black - remaining.white) - komi,
        });
        self
    }
}

/// Tromp-Taylor area of each colour (stones + regions reaching only that
/// colour), fast when nearly every region is a single point, as at the end
/// of a playout.
pub fn area(board: &Board) -> ByColor<u32> {
    let mut counts = board.stones();
    let mut slow = false;
    for &p in board.empty_points() {
        let mut seen = (false, false);
        for q in board.neighbours(p) {
            match board.get(q) {
                Some(Color::Black) => seen.0 = true,
                Some(Color::White) => seen.1 = true,
                None => slow = true,
            }
        }
        match seen {
            (true, false) => counts.black += 1,
            (false, true) => counts.white += 1,
            _ => {}
        }
        if slow {
            break;
        }
    }
    if slow {
        let territory = crate::regions::one_colour_points(board);
        counts = board.stones();
        counts.black += territory.black;
        counts.white += territory.white;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seki with one eye each (`.X.O.` over `XXXOO`): the rules' tax
    /// decides whether the eyes count.
    #[test]
    fn the_tax_takes_back_the_eyes_in_seki() {
        let board = Board::from_ascii(".X.O.\nXXXOO").unwrap();
        let total = |scoring, tax| {
            let input = CountInput {
                scoring,
                komi: Points::ZERO,
                captures: ByColor::new(0, 0),
                tax,
            };
            count(&board, &[], input).totals
        };
        let pts = |b, w| ByColor::new(Points::whole(b), Points::whole(w));
        assert_eq!(total(Scoring::Territory, Tax::Seki), pts(0, 0));
        assert_eq!(total(Scoring::Territory, Tax::None), pts(1, 1));
        assert_eq!(total(Scoring::AreaDameNobody, Tax::None), pts(5, 4));
        assert_eq!(total(Scoring::AreaDameNobody, Tax::Seki), pts(4, 3));
        // The area margin, untaxed, stays the reference of every area count.
        let input = CountInput {
            scoring: Scoring::AreaDameNobody,
            komi: Points::ZERO,
            captures: ByColor::new(0, 0),
            tax: Tax::Seki,
        };
        assert_eq!(count(&board, &[], input).area_margin, Points::whole(1));
    }
}
