//! The region map: what every point of a final position is at the count.
//!
//! A *region* is a maximal set of connected empty points once the dead
//! chains are removed; it *reaches* a colour when one of its points is
//! adjacent to a stone of that colour. The map is worked out once, per
//! point, and everything else is read from it: the totals every counting
//! method needs ([`Regions`]), the seki of GTP's `final_status_list`, the
//! territory a board draws. One map, so that what a page shows and what the
//! count counts cannot disagree.
//!
//! Seki is judged on the shape alone: a chain is in seki when it touches a
//! region reaching both colours that neither player can fill anywhere
//! without leaving his own chain in atari. Open dame between living walls
//! are not seki (filling them is safe). Life and death is not judged here:
//! the dead stones are given.

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::size::{BoardSize, Point};

/// What a point is at the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A living stone.
    Stone(Color),
    /// A stone of a chain in seki: it lives without territory.
    SekiStone(Color),
    /// An empty point of a region reaching only this colour.
    Territory(Color),
    /// An empty point of a region reaching only this colour and bordered by
    /// a chain in seki: an eye in seki, counted by area, not by territory.
    SekiEye(Color),
    /// An empty point of a region reaching both colours.
    Dame,
    /// An empty point of a region reaching no stone (an empty board).
    Neutral,
}

impl Mark {
    /// The colour whose area the point is in (a stone, territory, a stone
    /// or eye in seki), `None` for dame and neutral points: the owner an
    /// ownership map shows.
    pub fn owner(self) -> Option<Color> {
        match self {
            Mark::Stone(c) | Mark::SekiStone(c) | Mark::Territory(c) | Mark::SekiEye(c) => Some(c),
            Mark::Dame | Mark::Neutral => None,
        }
    }

    /// One letter for the mark, the notation of maps drawn as text: living
    /// stones `X`/`O`, stones in seki `x`/`o`, territory `b`/`w`, eyes in
    /// seki `B`/`W`, dame `d`, neutral `n`.
    pub fn letter(self) -> char {
        match self {
            Mark::Stone(Color::Black) => 'X',
            Mark::Stone(Color::White) => 'O',
            Mark::SekiStone(Color::Black) => 'x',
            Mark::SekiStone(Color::White) => 'o',
            Mark::Territory(Color::Black) => 'b',
            Mark::Territory(Color::White) => 'w',
            Mark::SekiEye(Color::Black) => 'B',
            Mark::SekiEye(Color::White) => 'W',
            Mark::Dame => 'd',
            Mark::Neutral => 'n',
        }
    }
}

/// Empty points by whom their region reaches: the totals of a
/// [`RegionMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Regions {
    /// Points of regions reaching only this colour (eyes in seki included).
    pub territory: ByColor<u32>,
    /// Points of regions reaching both colours.
    pub dame: u32,
    /// Points of regions reaching no stone (only on an empty board).
    pub neutral: u32,
    /// Of `territory`, the eyes in seki, which territory scoring does not
    /// count.
    pub seki: ByColor<u32>,
}

/// Every point of a position, once the dead chains are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionMap {
    size: BoardSize,
    /// Indexed by [`Point::index`].
    marks: Vec<Mark>,
    /// The colour of the dead stone each point held, by [`Point::index`].
    dead: Vec<Option<Color>>,
}

impl RegionMap {
    /// Maps `board` after removing the chains of the stones in `dead`.
    pub fn new(board: &Board, dead: &[Point]) -> RegionMap {
        let size = board.size();
        let mut alive = board.clone();
        let mut dead_marks = vec![None; size.cells()];
        for &p in dead {
            for q in board.chain(p) {
                if let Some(slot) = dead_marks.get_mut(q.index()) {
                    *slot = board.get(q);
                }
            }
        }
        alive.remove_chains(dead);
        RegionMap {
            size,
            marks: mark(&alive),
            dead: dead_marks,
        }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// What `p` is at the count.
    pub fn get(&self, p: Point) -> Mark {
        self.marks.get(p.index()).copied().unwrap_or(Mark::Neutral)
    }

    /// The colour of the dead stone that stood on `p`, if one did (the
    /// point itself is then part of a region).
    pub fn dead(&self, p: Point) -> Option<Color> {
        self.dead.get(p.index()).copied().flatten()
    }

    /// Every point with its mark, row by row from the top.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Mark)> + '_ {
        self.size.points().map(|p| (p, self.get(p)))
    }

    /// Living stones of each colour.
    pub fn stones(&self) -> ByColor<u32> {
        let mut n = ByColor::new(0, 0);
        for (_, m) in self.iter() {
            if let Mark::Stone(c) | Mark::SekiStone(c) = m {
                n[c] += 1;
            }
        }
        n
    }

    /// Dead stones removed, by their colour.
    pub fn removed(&self) -> ByColor<u32> {
        let mut n = ByColor::new(0, 0);
        for c in self.dead.iter().flatten() {
            n[*c] += 1;
        }
        n
    }

    /// The points of the largest region reaching both colours (0 when
    /// there is none): a border still open where it is wide, dame left
    /// unfilled where it is a point or two, so the size says whether the
    /// game's borders are all closed.
    pub fn widest_dame(&self) -> usize {
        let mut seen = vec![false; self.marks.len()];
        let mut widest = 0;
        for start in self.size.points() {
            if self.get(start) != Mark::Dame || seen[start.index()] {
                continue;
            }
            seen[start.index()] = true;
            let mut stack = vec![start];
            let mut points = 0;
            while let Some(p) = stack.pop() {
                points += 1;
                for q in self.size.neighbours(p) {
                    if self.get(q) == Mark::Dame && !seen[q.index()] {
                        seen[q.index()] = true;
                        stack.push(q);
                    }
                }
            }
            widest = widest.max(points);
        }
        widest
    }

    /// The empty points' totals.
    pub fn regions(&self) -> Regions {
        let mut r = Regions::default();
        for (_, m) in self.iter() {
            match m {
                Mark::Territory(c) => r.territory[c] += 1,
                Mark::SekiEye(c) => {
                    r.territory[c] += 1;
                    r.seki[c] += 1;
                }
                Mark::Dame => r.dame += 1,
                Mark::Neutral => r.neutral += 1,
                Mark::Stone(_) | Mark::SekiStone(_) => {}
            }
        }
        r
    }
}

/// A region: the colours it reaches (black, white), its points, and the
/// chains bordering it (by [`Board::chain_id`]).
struct Region {
    reach: (bool, bool),
    points: Vec<Point>,
    chains: Vec<Point>,
}

/// Every region of `board`, by one flood fill over the empty points.
fn flood(board: &Board) -> Vec<Region> {
    let size = board.size();
    let mut seen = vec![false; size.cells()];
    let mut regions: Vec<Region> = Vec::new();
    let mut stack = Vec::new();
    for start in size.points() {
        if !board.is_empty(start) || seen[start.index()] {
            continue;
        }
        let mut region = Region {
            reach: (false, false),
            points: Vec::new(),
            chains: Vec::new(),
        };
        seen[start.index()] = true;
        stack.push(start);
        while let Some(p) = stack.pop() {
            region.points.push(p);
            for q in board.neighbours(p) {
                match board.get(q) {
                    Some(c) => {
                        match c {
                            Color::Black => region.reach.0 = true,
                            Color::White => region.reach.1 = true,
                        }
                        if let Some(h) = board.chain_id(q)
                            && !region.chains.contains(&h)
                        {
                            region.chains.push(h);
                        }
                    }
                    None if !seen[q.index()] => {
                        seen[q.index()] = true;
                        stack.push(q);
                    }
                    None => {}
                }
            }
        }
        regions.push(region);
    }
    regions
}

/// Empty points of regions reaching only one colour, by that colour: the
/// territory of area counting, without the seki, which area counting does
/// not need (the playouts' count asks this).
pub(crate) fn one_colour_points(board: &Board) -> ByColor<u32> {
    let mut n = ByColor::new(0, 0);
    for r in flood(board) {
        match r.reach {
            (true, false) => n.black += r.points.len() as u32,
            (false, true) => n.white += r.points.len() as u32,
            _ => {}
        }
    }
    n
}

/// The marks of every point of `board`, indexed by [`Point::index`]: the
/// regions, then the seki.
fn mark(board: &Board) -> Vec<Mark> {
    let mut marks: Vec<Mark> = vec![Mark::Neutral; board.size().cells()];
    for p in board.size().points() {
        if let Some(c) = board.get(p) {
            marks[p.index()] = Mark::Stone(c);
        }
    }
    let regions = flood(board);
    // Chains in seki: those touching a region that reaches both colours and
    // that nobody can fill safely.
    let mut seki_chains: Vec<Point> = Vec::new();
    for r in &regions {
        let unfillable = r.reach == (true, true)
            && r.points
                .iter()
                .all(|&p| Color::ALL.into_iter().all(|c| !fills_safely(board, p, c)));
        if unfillable {
            seki_chains.extend(r.chains.iter().copied());
        }
    }
    // Every region's mark; the chains bordering an eye in seki belong to
    // the group in seki too.
    let mut eye_chains: Vec<Point> = Vec::new();
    for r in &regions {
        let m = match r.reach {
            (true, true) => Mark::Dame,
            (false, false) => Mark::Neutral,
            (b, _) => {
                let owner = if b { Color::Black } else { Color::White };
                if r.chains.iter().any(|h| seki_chains.contains(h)) {
                    eye_chains.extend(r.chains.iter().copied());
                    Mark::SekiEye(owner)
                } else {
                    Mark::Territory(owner)
                }
            }
        };
        for p in &r.points {
            marks[p.index()] = m;
        }
    }
    for h in seki_chains.iter().chain(&eye_chains) {
        for p in board.chain(*h) {
            if let Some(c) = board.get(p) {
                marks[p.index()] = Mark::SekiStone(c);
            }
        }
    }
    marks
}

/// Whether a stone of `color` at the empty point `p` is legal and leaves
/// its chain with at least two liberties (or captures).
fn fills_safely(board: &Board, p: Point, color: Color) -> bool {
    if board.is_suicide(p, color) {
        return false;
    }
    let mut after = board.clone();
    let played = after.play_unchecked(p, color);
    played.captured > 0 || after.liberties(p) >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_ascii(&rows.join("\n")).unwrap()
    }

    /// The map as rows of [`Mark::letter`].
    fn letters(map: &RegionMap) -> Vec<String> {
        let size = map.size();
        (0..size.height())
            .map(|y| {
                (0..size.width())
                    .map(|x| map.get(size.point(x, y).unwrap()).letter())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_widest_dame_says_whether_borders_are_closed() {
        // A column of dame between the walls: four points in one region.
        let closed = board(&["..X.O..", "..X.O..", "..X.O..", "..X.O.."]);
        assert_eq!(RegionMap::new(&closed, &[]).widest_dame(), 4);
        // The walls touch but for one point: one dame.
        let one = board(&["..XO...", "..XO...", "..X.O..", "..XO..."]);
        assert_eq!(RegionMap::new(&one, &[]).widest_dame(), 1);
        // An open middle reaching both: the whole region.
        let open = board(&["X.....O", ".......", ".......", "......."]);
        assert_eq!(RegionMap::new(&open, &[]).widest_dame(), 26);
        let empty = board(&[".....", ".....", "....."]);
        assert_eq!(RegionMap::new(&empty, &[]).widest_dame(), 0);
    }

    #[test]
    fn territory_dame_and_dead_stones() {
        let b = board(&["..X.O..", "..X.O.X", "..X.O..", "..X.O.."]);
        let size = b.size();
        let dead = size.point(6, 1).unwrap();
        let map = RegionMap::new(&b, &[dead]);
        assert_eq!(letters(&map), ["bbXdOww", "bbXdOww", "bbXdOww", "bbXdOww"]);
        assert_eq!(map.dead(dead), Some(Color::Black));
        assert_eq!(map.removed(), ByColor::new(1, 0));
        assert_eq!(map.stones(), ByColor::new(4, 4));
        let r = map.regions();
        assert_eq!(r.territory, ByColor::new(8, 8));
        assert_eq!((r.dame, r.neutral, r.seki), (4, 0, ByColor::new(0, 0)));
    }

    /// A seki with an eye each and one shared liberty that neither can
    /// fill: both chains and both eyes are marked seki.
    #[test]
    fn a_seki_marks_its_chains_and_their_eyes() {
        let map = RegionMap::new(&board(&[".X.O.", "XXXOO"]), &[]);
        assert_eq!(letters(&map), ["BxdoW", "xxxoo"]);
        let r = map.regions();
        assert_eq!(r.seki, ByColor::new(1, 1));
        assert_eq!(r.territory, ByColor::new(1, 1));
        assert_eq!(r.dame, 1);
        let in_seki = |(_, m): &(Point, Mark)| matches!(m, Mark::SekiStone(_));
        assert_eq!(map.iter().filter(in_seki).count(), 7);
    }

    /// Open dame between living walls: safe to fill, so no seki.
    #[test]
    fn open_dame_are_not_seki() {
        let map = RegionMap::new(&board(&["..X.O..", "..X.O..", "..X.O.."]), &[]);
        assert_eq!(letters(&map), ["bbXdOww", "bbXdOww", "bbXdOww"]);
        let in_seki = |(_, m): &(Point, Mark)| matches!(m, Mark::SekiStone(_));
        assert_eq!(map.iter().filter(in_seki).count(), 0);
    }

    #[test]
    fn an_empty_board_is_neutral() {
        let b = Board::new(BoardSize::square(5).unwrap());
        let r = RegionMap::new(&b, &[]).regions();
        assert_eq!(r.neutral, 25);
        assert_eq!(r.territory, ByColor::new(0, 0));
    }
}
