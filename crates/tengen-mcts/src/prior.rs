//! Prior knowledge: virtual simulations given to a new node's children
//! before any playout (Gelly and Silver 2007), so that the search looks at
//! good moves first and wastes nothing on self-atari or first-line moves
//! in an empty area.
//!
//! Two sources, chosen by [`Knowledge`]: hand-set rules (the values are
//! Michi's) or the pattern model learned from professional records, whose
//! probability p gives a move sqrt(p) times `PATTERN_WINS` won
//! simulations (Pachi's prior, uct/prior.c), over the same even prior.

use crate::pattern::{PatternTable, table};
use crate::urgent::Urgent;
use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::{
    atari_answers, ladders_after, liberties_after, nakade_answer, two_liberty_answers,
};

/// What the search knows before it plays out a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Knowledge {
    /// Hand-set rules only: captures, ataris, ladders, nakade, 3x3 shapes,
    /// nearness to the last move.
    None,
    /// The pattern model learned from the records (and the playouts'
    /// learned shapes, [`crate::shape`]).
    Patterns,
    /// The policy network over the pattern model (the pattern model where
    /// the network has not been asked).
    Net,
    /// The strongest of the two at equal time on the board played
    /// ([`Knowledge::on`]).
    #[default]
    Auto,
}

impl Knowledge {
    /// Every kind, by name.
    pub const ALL: [(&'static str, Knowledge); 4] = [
        ("none", Knowledge::None),
        ("patterns", Knowledge::Patterns),
        ("net", Knowledge::Net),
        ("auto", Knowledge::Auto),
    ];

    /// The knowledge a search of a board of `size` uses: [`Knowledge::Auto`]
    /// is the network on the boards it learned (19x19), where its priors
    /// are worth their price, and the pattern model elsewhere, where its
    /// faster simulations win (9x9 at 1 s a move: 12 games of 20 against
    /// the network); every other kind is itself.
    pub fn on(self, size: BoardSize) -> Knowledge {
        match self {
            Knowledge::Auto if crate::value::learned(size) => Knowledge::Net,
            Knowledge::Auto => Knowledge::Patterns,
            k => k,
        }
    }

    /// The kind called `name`.
    ///
    /// # Errors
    /// The known names, when `name` is none of them.
    pub fn from_name(name: &str) -> Result<Knowledge, String> {
        Knowledge::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, k)| k)
            .ok_or_else(|| {
                let names: Vec<&str> = Knowledge::ALL.iter().map(|(n, _)| *n).collect();
                format!("unknown knowledge {name:?}; known: {}", names.join(", "))
            })
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        Knowledge::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("none", |(n, _)| n)
    }
}

/// Won simulations of a move of probability 1 under the pattern model.
const PATTERN_WINS: f32 = 300.0;

/// Every move: this many simulations at an even result.
const EVEN: f32 = 10.0;
/// A capture: won simulations.
const CAPTURE: ByStones = ByStones {
    one: 15.0,
    more: 30.0,
};
/// Saving a chain from atari.
const SAVE: f32 = 20.0;
/// A move of the two-liberty fights next to the last move: won simulations.
const TWO_LIB: f32 = 10.0;
/// The vital point of a small eye space next to the last move.
const NAKADE: f32 = 20.0;
/// An atari that captures in a ladder: won simulations.
const LADDER_CAPTURE: f32 = 20.0;
/// A 3x3 shape pattern.
const PATTERN: f32 = 10.0;
/// Self-atari: lost simulations.
const SELF_ATARI: ByStones = ByStones {
    one: 10.0,
    more: 30.0,
};
/// Near the last move, by Manhattan distance 1, 2, 3: won simulations.
const NEAR: [f32; 3] = [24.0, 22.0, 8.0];
/// First and second line in an empty area: lost; third line: won.
const EMPTY_AREA: f32 = 10.0;

/// A move that decides a fight ([`crate::urgent`]): won simulations for
/// the fight, and for each stone at stake, up to a cap (a network's
/// favourite move of probability 0.1 has about 95).
const URGENT: f32 = 20.0;
const URGENT_PER_STONE: f32 = 10.0;
const URGENT_MAX: f32 = 120.0;

/// Simulations that grow with the stones at stake.
#[derive(Clone, Copy, Debug)]
struct ByStones {
    /// For a lone stone.
    one: f32,
    /// For more stones.
    more: f32,
}

impl ByStones {
    /// The simulations for more than one stone, or for one.
    #[inline]
    fn of(self, more: bool) -> f32 {
        if more { self.more } else { self.one }
    }
}

/// The priors of one position's moves.
pub(crate) struct Prior<'a> {
    board: &'a Board,
    color: Color,
    last: Option<Point>,
    patterns: &'static PatternTable,
    urgent: Vec<Point>,
    /// The playouts' two-liberty answers and nakade point.
    fights: Vec<Point>,
    vital: Option<Point>,
    /// The pattern model's probability of each point (by index), when
    /// the search uses it.
    learned: Option<Vec<f32>>,
    /// The moves that decide a fight, read where the search asked.
    decisive: Vec<Urgent>,
}

impl<'a> Prior<'a> {
    pub(crate) fn new(
        board: &'a Board,
        color: Color,
        last: Option<Point>,
        learned: Option<Vec<f32>>,
    ) -> Prior<'a> {
        let mut urgent = Vec::new();
        let mut fights = Vec::new();
        let mut vital = None;
        // The hand-set rules are read only when no learned model speaks.
        if learned.is_none()
            && let Some(l) = last
        {
            vital = nakade_answer(board, color, l);
            // A run into a working ladder is no answer: the tree never
            // holds one (`tengen_tactics::ladder_runs`).
            atari_answers(board, color, l, &mut urgent);
            two_liberty_answers(board, color, l, &mut fights);
        }
        Prior {
            board,
            color,
            last,
            patterns: table(),
            urgent,
            fights,
            vital,
            learned,
            decisive: Vec::new(),
        }
    }

    /// The same, adding to the learned prior of each move that decides a
    /// fight ([`crate::urgent`]) won simulations by the stones at stake.
    pub(crate) fn with_urgent(self, decisive: Vec<Urgent>) -> Prior<'a> {
        Prior { decisive, ..self }
    }

    /// The probability the pattern model gives a stone at `p`, if used.
    pub(crate) fn policy(&self, p: Point) -> Option<f32> {
        self.learned
            .as_ref()
            .map(|v| v.get(p.index()).copied().unwrap_or(0.0))
    }

    /// Virtual (visits, wins) for a stone at the empty point `p`.
    pub(crate) fn of(&self, p: Point) -> (f32, f32) {
        match self.policy(p) {
            Some(prob) => {
                let stones: u32 = self
                    .decisive
                    .iter()
                    .filter(|u| u.point == p)
                    .map(|u| u.stones)
                    .sum();
                let fight = if stones > 0 {
                    (URGENT + URGENT_PER_STONE * stones as f32).min(URGENT_MAX)
                } else {
                    0.0
                };
                let won = PATTERN_WINS * prob.sqrt() + fight;
                (EVEN + won, EVEN / 2.0 + won)
            }
            None => self.of_by_hand(p),
        }
    }

    /// The hand-set priors of a stone at `p`.
    fn of_by_hand(&self, p: Point) -> (f32, f32) {
        let (mut n, mut w) = (EVEN, EVEN / 2.0);
        let mut add = |visits: f32, wins: f32| {
            n += visits;
            w += wins;
        };
        let board = self.board;
        let captured = board.preview(p, self.color).captured;
        if captured > 0 {
            let v = CAPTURE.of(captured > 1);
            add(v, v);
        }
        if self.urgent.contains(&p) {
            add(SAVE, SAVE);
        } else if self.ataris_two_liberty_chain(p)
            && ladders_after(board, p, self.color)
                .iter()
                .any(|(_, r)| r.works())
        {
            add(LADDER_CAPTURE, LADDER_CAPTURE);
        }
        if self.fights.contains(&p) {
            add(TWO_LIB, TWO_LIB);
        }
        if self.vital == Some(p) {
            add(NAKADE, NAKADE);
        }
        if liberties_after(board, p, self.color) < 2 && captured == 0 {
            let joins = board
                .neighbours(p)
                .any(|q| board.get(q) == Some(self.color));
            add(SELF_ATARI.of(joins), 0.0);
        } else if self.patterns.matches(board.neighbourhood_code(p)) {
            add(PATTERN, PATTERN);
        }
        if let Some(l) = self.last {
            let d = manhattan(board, p, l);
            if (1..=3).contains(&d) {
                let v = NEAR[(d - 1) as usize];
                add(v, v);
            }
        }
        let line = board.size().line(p);
        if line <= 3 && !stones_near(board, p, 3) {
            if line <= 2 {
                add(EMPTY_AREA, 0.0);
            } else {
                add(EMPTY_AREA, EMPTY_AREA);
            }
        }
        (n, w)
    }

    /// Whether `p` is next to an enemy chain with two liberties (a stone
    /// there puts it in atari).
    fn ataris_two_liberty_chain(&self, p: Point) -> bool {
        let enemy = Some(self.color.opponent());
        self.board
            .neighbours(p)
            .any(|q| self.board.get(q) == enemy && self.board.liberties(q) == 2)
    }

    /// Virtual (visits, wins) for a pass when `moves` stone plays are legal:
    /// unattractive while the board is open, even once it is settled. A
    /// pass that ends play (the opponent passed) is worth what the count
    /// as it stands gives the mover (`ends_play`: 1 a win, 0 a loss), so
    /// that a won count is weighed against playing on, and shown.
    pub(crate) fn of_pass(&self, moves: usize, ends_play: Option<f32>) -> (f32, f32) {
        if let Some(value) = ends_play {
            return (EVEN, EVEN * value);
        }
        let open = self.board.size().num_points() / 4;
        if moves > open {
            (EVEN, 0.0)
        } else {
            (EVEN, EVEN / 2.0)
        }
    }
}

/// Manhattan distance between two points of `board`.
fn manhattan(board: &Board, a: Point, b: Point) -> u32 {
    let size = board.size();
    let ((ax, ay), (bx, by)) = (size.xy(a), size.xy(b));
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// Whether any stone lies within Manhattan distance `d` of `p`.
fn stones_near(board: &Board, p: Point, d: i32) -> bool {
    let size = board.size();
    (-d..=d).any(|dy| {
        let r = d - dy.abs();
        (-r..=r).any(|dx| {
            size.shift(p, (dx, dy))
                .is_some_and(|q| board.get(q).is_some())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PatternModel;
    use crate::testing::{assert_top_eight_in_corners, opening_policy};

    #[test]
    fn the_learned_model_opens_in_the_corners() {
        let (policy, ranked) = opening_policy(|ex, position, moves| {
            let cells = position.board.size().cells();
            PatternModel::shipped().policy(ex, position, moves, cells)
        });
        assert_top_eight_in_corners(&ranked, 2..=3);
        let total: f32 = ranked.iter().map(|p| policy[p.index()]).sum();
        assert!((total - 1.0).abs() < 1e-3);
        // The 4-4 and 3-4 points take most of the probability.
        let top: f32 = ranked[..12].iter().map(|p| policy[p.index()]).sum();
        assert!(top > 0.6, "{top}");
    }

    #[test]
    fn a_move_that_decides_a_fight_gains_won_simulations_by_the_stones_at_stake() {
        use crate::urgent::Urgent;
        let board = Board::new(tengen_core::BoardSize::square(9).unwrap());
        let at = |name| Point::parse(name, board.size()).unwrap();
        let even = vec![1.0 / 81.0; 81];
        let plain = Prior::new(&board, Color::Black, None, Some(even.clone()));
        let read = Prior::new(&board, Color::Black, None, Some(even)).with_urgent(vec![
            Urgent {
                point: at("C3"),
                stones: 1,
            },
            Urgent {
                point: at("G7"),
                stones: 30,
            },
        ]);
        let gain = |p| read.of(at(p)).1 - plain.of(at(p)).1;
        let close = |a: f32, b: f32| (a - b).abs() < 1e-3;
        assert_eq!(gain("E5"), 0.0);
        assert!(
            close(gain("C3"), URGENT + URGENT_PER_STONE),
            "{}",
            gain("C3")
        );
        assert!(close(gain("G7"), URGENT_MAX), "{}", gain("G7"));
        // Won simulations: the visits grow by as much.
        let visits = read.of(at("C3")).0 - plain.of(at("C3")).0;
        assert!(close(visits, gain("C3")), "{visits}");
    }

    #[test]
    fn knowledge_names_round_trip_and_unknown_ones_list_the_known() {
        for (name, k) in Knowledge::ALL {
            assert_eq!(Knowledge::from_name(name), Ok(k));
            assert_eq!(k.name(), name);
        }
        let err = Knowledge::from_name("oracle").unwrap_err();
        assert!(err.contains("none, patterns"), "{err}");
    }

    #[test]
    fn the_default_knowledge_is_the_network_on_19x19_and_the_patterns_elsewhere() {
        let size = |n| tengen_core::BoardSize::square(n).unwrap();
        assert_eq!(Knowledge::default(), Knowledge::Auto);
        assert_eq!(Knowledge::Auto.on(size(19)), Knowledge::Net);
        for n in [9, 13] {
            assert_eq!(Knowledge::Auto.on(size(n)), Knowledge::Patterns);
        }
        for (_, k) in Knowledge::ALL
            .into_iter()
            .filter(|&(_, k)| k != Knowledge::Auto)
        {
            assert_eq!(k.on(size(9)), k);
            assert_eq!(k.on(size(19)), k);
        }
    }
}
