//! The features of a candidate move, as a Bradley-Terry model sees it
//! (Coulom 2007; Pachi's pattern features): one small value per tactical
//! group (capture, escape, self-atari, atari with its ladder, distance to
//! the last two moves, line) and the spatial pattern hashes of every
//! radius. A move is a "team" of these features; [`crate::model`] gives
//! each a strength.
//!
//! The same code serves the search's priors and the training of the model
//! from records, so that both see one definition of each feature.
//!
//! Left out: Pachi's Monte-Carlo ownership feature (hundreds of playouts
//! per position) and its joseki dictionary.

use crate::spatial::{RADII, Spatial, gridcular};
use tengen_core::{Board, BoardSize, Color, Point};
use tengen_tactics::{
    kills_as_nakade, ladders_after, liberties_after, liberties_after_up_to, runs_into_ladder,
};

/// The tactical groups, each one value per move (0: the feature is absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// 1 saves an own chain in atari, 2 takes a ko, 3 takes the last
    /// move's chain, 4 another single stone, 5 two stones or more.
    Capture,
    /// Extending an own chain out of atari: 1 to three liberties or more,
    /// 2 to two liberties that no ladder takes, 3 into a working ladder.
    Escape,
    /// A self-atari: 1 a lone stone, 2 joining own stones, 3 a throw-in
    /// that kills as a nakade.
    SelfAtari,
    /// An atari: 1 the ladder works, 2 it does not.
    Atari,
    /// Gridcular distance to the last move, 2 to 16, 17 beyond.
    LastDistance,
    /// Gridcular distance to the mover's own previous move.
    OwnDistance,
    /// Line from the edge: 1 to 4, 5 beyond.
    Line,
}

impl Group {
    /// The group's place in [`Team::tactics`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Every group, in the order of [`Team::tactics`].
    pub const ALL: [Group; 7] = [
        Group::Capture,
        Group::Escape,
        Group::SelfAtari,
        Group::Atari,
        Group::LastDistance,
        Group::OwnDistance,
        Group::Line,
    ];

    /// Values a group takes, 0 (absent) included.
    pub const fn values(self) -> usize {
        match self {
            Group::Capture => 6,
            Group::Escape => 4,
            Group::SelfAtari => 4,
            Group::Atari => 3,
            Group::LastDistance | Group::OwnDistance => 18,
            Group::Line => 6,
        }
    }

    /// The group's name in model files and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "selfatari",
            Group::Atari => "atari",
            Group::LastDistance => "dist-last",
            Group::OwnDistance => "dist-own",
            Group::Line => "line",
        }
    }
}

/// Number of tactical groups.
pub const GROUPS: usize = Group::ALL.len();

/// The features of one candidate move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Team {
    /// One value per group of [`Group::ALL`].
    pub tactics: [u8; GROUPS],
    /// The spatial pattern hash at each radius, smallest first.
    pub spatial: [u64; RADII],
}

/// A position to describe moves in: the board, who moves, and the last
/// two stone plays (the opponent's, then the mover's own).
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board before the move.
    pub board: &'a Board,
    /// Who moves.
    pub to_move: Color,
    /// The opponent's last stone play.
    pub last: Option<Point>,
    /// The mover's own last stone play.
    pub own_last: Option<Point>,
}

impl<'a> Position<'a> {
    /// The position of `board` with `to_move` to play after `recent`, the
    /// last moves, most recent first (`None` for a pass; see
    /// [`crate::net::recent`]).
    pub fn after(board: &'a Board, to_move: Color, recent: &[Option<Point>]) -> Position<'a> {
        Position {
            board,
            to_move,
            last: recent.first().copied().flatten(),
            own_last: recent.get(1).copied().flatten(),
        }
    }
}

/// Describes the candidate moves of one position after another; keeps the
/// tables of one board size, and makes new ones when a position of another
/// size is loaded.
#[derive(Clone, Debug)]
pub struct Extractor {
    size: BoardSize,
    spatial: Spatial,
}

impl Extractor {
    /// Tables for boards of `size`.
    pub fn new(size: BoardSize) -> Extractor {
        Extractor {
            size,
            spatial: Spatial::new(size.width() as usize, size.height() as usize),
        }
    }

    /// Prepares for the moves of `pos` (call before [`Extractor::team`]
    /// and [`Extractor::spatial`]).
    pub fn load(&mut self, pos: &Position) {
        if self.size != pos.board.size() {
            *self = Extractor::new(pos.board.size());
        }
        self.spatial.load(pos.board, pos.to_move);
    }

    /// The spatial pattern hashes around the empty point `p` of the loaded
    /// position, smallest radius first.
    pub fn spatial(&self, board: &Board, p: Point) -> [u64; RADII] {
        self.spatial.hashes(board, p)
    }

    /// The team of a stone at the empty point `p` of the loaded position.
    pub fn team(&self, pos: &Position, p: Point) -> Team {
        let mut tactics = [0u8; GROUPS];
        let board = pos.board;
        let color = pos.to_move;
        let captured = board.preview(p, color).captured;
        let own_in_atari = |q: Point| board.get(q) == Some(color) && board.liberties(q) == 1;
        let enemy = Some(color.opponent());
        if captured > 0 {
            tactics[Group::Capture.index()] = self.capture_kind(pos, p, captured);
        } else if board.neighbours(p).any(own_in_atari) {
            tactics[Group::Escape.index()] = match liberties_after_up_to::<3>(board, p, color) {
                0 | 1 => 0,
                2 if runs_into_ladder(board, p, color) => 3,
                2 => 2,
                _ => 1,
            };
        }
        let libs = liberties_after(board, p, color);
        if libs < 2 && captured == 0 {
            let joins = board.neighbours(p).any(|q| board.get(q) == Some(color));
            tactics[Group::SelfAtari.index()] = if joins && kills_as_nakade(board, p, color) {
                3
            } else if joins {
                2
            } else {
                1
            };
        } else if board
            .neighbours(p)
            .any(|q| board.get(q) == enemy && board.liberties(q) == 2)
        {
            let works = ladders_after(board, p, color)
                .iter()
                .any(|(_, r)| r.works());
            tactics[Group::Atari.index()] = if works { 1 } else { 2 };
        }
        tactics[Group::LastDistance.index()] = pos.last.map_or(0, |l| self.distance(p, l));
        tactics[Group::OwnDistance.index()] = pos.own_last.map_or(0, |l| self.distance(p, l));
        tactics[Group::Line.index()] = board.size().line(p).min(5) as u8;
        Team {
            tactics,
            spatial: self.spatial(board, p),
        }
    }

    fn capture_kind(&self, pos: &Position, p: Point, captured: u32) -> u8 {
        let board = pos.board;
        let color = pos.to_move;
        let enemy = Some(color.opponent());
        let taken: Vec<Point> = board
            .neighbours(p)
            .filter(|&q| board.get(q) == enemy && board.liberties(q) == 1)
            .collect();
        let saves = taken.iter().any(|&q| {
            board.chain(q).any(|s| {
                board
                    .neighbours(s)
                    .any(|r| board.get(r) == Some(color) && board.liberties(r) == 1)
            })
        });
        let is_ko = captured == 1
            && board.neighbours(p).all(|q| board.get(q) == enemy || q == p)
            && taken.len() == 1;
        let takes_last = pos.last.is_some_and(|l| {
            taken
                .iter()
                .any(|&q| board.chain_id(q) == board.chain_id(l))
        });
        if saves {
            1
        } else if is_ko {
            2
        } else if takes_last {
            3
        } else if captured == 1 {
            4
        } else {
            5
        }
    }

    /// Gridcular distance, 2 to 17 (17 for anything farther).
    fn distance(&self, a: Point, b: Point) -> u8 {
        let (ax, ay) = self.size.xy(a);
        let (bx, by) = self.size.xy(b);
        gridcular(ax as i32 - bx as i32, ay as i32 - by as i32).clamp(2, 17) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team_at(text: &str, color: Color, at: (u32, u32), last: Option<(u32, u32)>) -> Team {
        let board = Board::from_ascii(text).unwrap();
        let point = |(x, y)| board.size().point(x, y).unwrap();
        let pos = Position {
            board: &board,
            to_move: color,
            last: last.map(point),
            own_last: None,
        };
        let mut ex = Extractor::new(board.size());
        ex.load(&pos);
        ex.team(&pos, point(at))
    }

    #[test]
    fn a_capture_that_saves_a_chain_in_atari() {
        // Black's X at (1,1) is in atari; capturing the white stone at
        // (2,1) by (3,1) saves it.
        let t = team_at(
            "\
. . . . .
. O X O .
. X O X .
. . . . .
. . . . .",
            Color::Black,
            (2, 3),
            Some((3, 1)),
        );
        assert_eq!(t.tactics[Group::Capture.index()], 1, "{t:?}");
    }

    #[test]
    fn taking_a_ko_and_running_into_a_ladder() {
        let ko = "\
. . . . .
. X O . .
X O . O .
. X O . .
. . . . .";
        let t = team_at(ko, Color::Black, (2, 2), Some((2, 3)));
        assert_eq!(t.tactics[Group::Capture.index()], 2, "{t:?}");
        let ladder = "\
. . . . . . .
. . . . . . .
. . . . . . .
. . O . . . .
. O X . . . .
. . O O . . .
. . . . . . .";
        let t = team_at(ladder, Color::Black, (3, 4), Some((3, 5)));
        assert_eq!(
            t.tactics[Group::Escape.index()],
            3,
            "running into a working ladder: {t:?}"
        );
        // White's atari on the stone after it runs is a ladder capture.
        let after = "\
. . . . . . .
. . . . . . .
. . . . . . .
. . O . . . .
. O X X . . .
. . O O . . .
. . . . . . .";
        // An atari from the wrong side: the chain runs out to three
        // liberties, no ladder.
        let t = team_at(after, Color::White, (3, 3), Some((3, 4)));
        assert_eq!(
            t.tactics[Group::Atari.index()],
            2,
            "an atari that does not ladder: {t:?}"
        );
        assert_eq!(
            t.tactics[Group::LastDistance.index()],
            2,
            "next to the last move: {t:?}"
        );
        let t = team_at(after, Color::White, (4, 5), Some((3, 4)));
        assert_eq!(t.tactics[Group::Atari.index()], 0, "no atari: {t:?}");
        assert_eq!(
            t.tactics[Group::LastDistance.index()],
            3,
            "diagonal to the last move: {t:?}"
        );
    }

    #[test]
    fn self_atari_of_a_lone_stone_and_the_line() {
        let t2 = team_at(
            "\
. O . . .
O . . . .
. . . . .
. . . . .
. . . . .",
            Color::Black,
            (1, 1),
            None,
        );
        assert_eq!(t2.tactics[Group::SelfAtari.index()], 0);
        assert_eq!(t2.tactics[Group::Line.index()], 2, "second line");
        let t3 = team_at(
            "\
. . O . .
. O . . .
. . . . .
. . . . .
. . . . .",
            Color::Black,
            (1, 0),
            None,
        );
        assert_eq!(
            t3.tactics[Group::SelfAtari.index()],
            1,
            "a lone stone with one liberty: {t3:?}"
        );
        assert_eq!(t3.tactics[Group::Line.index()], 1, "first line");
    }
}
