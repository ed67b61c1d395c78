//! The search's playouts: the light playout's rules (simple ko, no suicide,
//! never fill one's own one-point eye) with the local knowledge of MoGo,
//! Pachi and Michi in front of the random choice, in this order:
//!
//! 1. answer an atari next to the last move: capture the chain that just
//!    put itself in atari, or save one's own chain in atari by capturing a
//!    neighbour or by extending (when the extension has two liberties);
//! 2. where the search learns them, the last good reply to the last two
//!    moves, then to the last move (`crate::replies`);
//! 3. the two-liberty fights and the nakade next to the last move (see
//!    [`tengen_tactics::local`]);
//! 4. a point next to the last move, drawn by the strengths of the 3x3
//!    shapes learned from professional records ([`crate::shape`]), or
//!    Michi's hand-set 3x3 patterns when the search is told to know
//!    nothing learned;
//! 5. a uniform choice among the remaining moves, refusing self-atari of
//!    two stones or more (of any stone in the capture games) and most
//!    self-atari of a lone stone; a self-atari of a few stones that fills
//!    the opponent's eye space so that the capture leaves one eye is
//!    treated as a lone stone's.
//!
//! Each heuristic fires with a fixed probability so that playouts stay
//! varied. The end is counted by the game's method: area (territory rules
//! approximated by area), stones on the board, or captures with the goal.
//!
//! The local answers themselves are `tengen-tactics`'s, shared with the
//! search's priors; this file only chooses among them. The light playouts
//! of the reference bot are [`crate::light_playout`]'s.

use crate::pattern::{PatternTable, table};
use crate::replies::Replies;
use crate::rng::Rng;
use crate::shape::ShapeModel;
use tengen_core::{Board, BoardSize, ByColor, Color, Game, Point, Scoring};
use tengen_tactics::{
    atari_answers, board_atari_answers, breaks_three_stone_seki, fills_own_eye_shape,
    kills_as_nakade, liberties_after, nakade_answer, two_liberty_answers,
};

/// How a finished playout is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    /// Stones and one-colour regions (area rules; territory rules by
    /// approximation, which differs by at most the parity of dame).
    Area,
    /// Stones on the board only.
    Stones,
    /// Captured stones.
    Captures,
}

/// Everything that decides who won a finished position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judge {
    pub(crate) count: Count,
    /// White's komi, in eighths of a point.
    pub(crate) komi: i32,
    /// Captures that win at once.
    pub(crate) goal: Option<u32>,
}

impl Judge {
    /// How `game`'s rules count a finished playout.
    pub(crate) fn of(game: &Game) -> Judge {
        let rules = game.rules();
        let count = match rules.scoring {
            Scoring::Stones => Count::Stones,
            Scoring::Captures => Count::Captures,
            _ => Count::Area,
        };
        Judge {
            count,
            komi: game.komi().in_eighths(),
            goal: rules.capture_goal,
        }
    }
}

/// A win in the tree's statistics: a draw is half of it, and a playout
/// mixed with the value network's judgement a fraction.
pub(crate) const WIN: u32 = 64;

/// How a simulation ended, from Black's side, as the tree records it: a
/// playout counted by the [`Judge`] (mixed with the value network's
/// judgement, [`PlayoutResult::mixed`]), or the known result of a terminal
/// node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlayoutResult {
    /// Black's share of a win in units of [`WIN`]: `WIN` a Black win,
    /// `WIN / 2` a draw, 0 a White win.
    pub(crate) black_wins: u32,
    /// Black's margin in eighths of a point (komi included).
    pub(crate) margin: i32,
}

impl PlayoutResult {
    pub(crate) fn from_margin(margin: i32) -> PlayoutResult {
        PlayoutResult {
            black_wins: match margin {
                m if m > 0 => WIN,
                0 => WIN / 2,
                _ => 0,
            },
            margin,
        }
    }

    /// A win by reaching the capture goal.
    pub(crate) fn goal_won_by(winner: Color) -> PlayoutResult {
        let margin = match winner {
            Color::Black => 8,
            Color::White => -8,
        };
        PlayoutResult::from_margin(margin)
    }

    /// Who won more than half of this result, if anyone.
    pub(crate) fn winner(&self) -> Option<Color> {
        match self.black_wins.cmp(&(WIN / 2)) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The share of a win for `color`, in units of [`WIN`].
    #[inline]
    pub(crate) fn wins_for(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black_wins,
            Color::White => WIN - self.black_wins,
        }
    }

    /// This result mixed with a judgement (Black's chance to win, Black's
    /// lead in points), the judgement weighing `weight` (AlphaGo's lambda).
    pub(crate) fn mixed(self, black_wins: f32, black_lead: f32, weight: f32) -> PlayoutResult {
        let w = weight.clamp(0.0, 1.0);
        let wins = w * black_wins.clamp(0.0, 1.0) * WIN as f32 + (1.0 - w) * self.black_wins as f32;
        let margin = w * black_lead * 8.0 + (1.0 - w) * self.margin as f32;
        PlayoutResult {
            black_wins: (wins.round() as u32).min(WIN),
            margin: margin.round() as i32,
        }
    }
}

/// Where a playout starts, besides the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    /// The player to move.
    pub(crate) to_move: Color,
    /// The previous stone play, which the local answers look at.
    pub(crate) last: Option<Point>,
    /// The stone play before it, by the player to move (the last good
    /// reply to the pair).
    pub(crate) before: Option<Point>,
    /// Stones each side has taken so far (for the capture goal).
    pub(crate) captures: ByColor<u32>,
}

/// A probability in 1/256, drawn from the low byte of a random number:
/// one draw a rule, cheap enough for every move of a playout.
#[derive(Clone, Copy, Debug)]
struct Chance(u32);

impl Chance {
    /// Whether the event happens this time.
    #[inline]
    fn drawn(self, rng: &mut Rng) -> bool {
        rng.next_u32() & 255 < self.0
    }
}

/// Probability that the atari answers are tried.
const P_ATARI: Chance = Chance(230);
/// Probability that the two-liberty fights are looked at.
const P_TWO_LIB: Chance = Chance(128);
/// Probability that a nakade's vital point is looked for.
const P_NAKADE: Chance = Chance(154);
/// Probability that a lone stone's self-atari is refused.
const P_LONE_SELF_ATARI: Chance = Chance(230);
/// Probability that the 3x3 patterns are tried.
const P_PATTERN: Chance = Chance(243);
/// The share of the learned tenuki strength a playout keeps: its
/// alternative to a local answer is a random move, far worse than a
/// professional's tenuki, so it answers locally more often. Measured
/// against Pachi with the network (9x9, 5,000 playouts): the full
/// strength won 9 of 28, 0.3 won 51.6% of 96 games, the hand-set patterns
/// 45.2% of 52.
const TENUKI_SHARE: f32 = 0.3;

/// The search's playout runner, with its scratch lists.
pub(crate) struct HeavyPlayout {
    patterns: &'static PatternTable,
    /// The learned shapes, when the playouts use them.
    shapes: Option<&'static ShapeModel>,
    /// The strengths of `candidates`, for a drawn shape.
    weights: Vec<f32>,
    judge: Judge,
    candidates: Vec<Point>,
    pool: Vec<Point>,
    /// Region marks for the final count.
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Point>,
}

impl HeavyPlayout {
    /// A runner for boards of `size`, counting by `judge`, answering
    /// locally by the learned `shapes` (else by the hand-set patterns).
    pub(crate) fn new(
        size: BoardSize,
        judge: Judge,
        shapes: Option<&'static ShapeModel>,
    ) -> HeavyPlayout {
        let cells = size.cells();
        HeavyPlayout {
            patterns: table(),
            shapes,
            weights: Vec::with_capacity(8),
            judge,
            candidates: Vec::with_capacity(32),
            pool: Vec::with_capacity(cells),
            mark: vec![0; cells],
            stamp: 0,
            stack: Vec::with_capacity(cells),
        }
    }

    /// Plays `board` out from `start`, trying the last good `replies`
    /// first where given. Appends each stone play to `moves` (for AMAF),
    /// fills `owner` (one per point, in the order of
    /// [`BoardSize::points`]: +1 Black, -1 White, 0 neither) and returns
    /// the result.
    pub(crate) fn run(
        &mut self,
        board: &mut Board,
        start: Start,
        rng: &mut Rng,
        replies: Option<&Replies>,
        moves: &mut Vec<(Point, Color)>,
        owner: &mut [i8],
    ) -> PlayoutResult {
        let Start {
            to_move,
            mut last,
            mut before,
            mut captures,
        } = start;
        let mut color = to_move;
        let mut passes = 0;
        let max = 3 * board.size().num_points() + 20;
        for _ in 0..max {
            match self.choose(board, color, (before, last), replies, rng) {
                Some(p) => {
                    let played = board.play_unchecked(p, color);
                    moves.push((p, color));
                    before = last;
                    last = Some(p);
                    passes = 0;
                    if played.captured > 0 {
                        captures[color] += played.captured;
                        if let Some(goal) = self.judge.goal
                            && captures[color] >= goal
                        {
                            self.owner(board, owner);
                            return PlayoutResult::goal_won_by(color);
                        }
                    }
                }
                None => {
                    board.pass();
                    before = None;
                    last = None;
                    passes += 1;
                    if passes == 2 {
                        break;
                    }
                }
            }
            color = color.opponent();
        }
        self.count(board, captures, owner)
    }

    /// Counts a finished board by the judge's method, filling `owner`.
    pub(crate) fn count(
        &mut self,
        board: &Board,
        captures: ByColor<u32>,
        owner: &mut [i8],
    ) -> PlayoutResult {
        let area = self.owner(board, owner);
        let margin = match self.judge.count {
            Count::Area => (area.black as i32 - area.white as i32) * 8 - self.judge.komi,
            Count::Stones => {
                let s = board.stones();
                (s.black as i32 - s.white as i32) * 8 - self.judge.komi
            }
            Count::Captures => (captures.black as i32 - captures.white as i32) * 8,
        };
        PlayoutResult::from_margin(margin)
    }

    /// Who owns each point (Tromp-Taylor: a stone, or an empty region that
    /// reaches one colour only); returns the area of each colour.
    fn owner(&mut self, board: &Board, owner: &mut [i8]) -> ByColor<u32> {
        let mut area = ByColor::default();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        for (i, p) in board.size().points().enumerate() {
            let v = match board.get(p) {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => self.region_owner(board, p),
            };
            owner[i] = v;
            match v {
                1 => area.black += 1,
                -1 => area.white += 1,
                _ => {}
            }
        }
        area
    }

    /// The owner of the empty region at `p` (+1, -1, 0), by a flood fill
    /// only when the point has an empty neighbour.
    fn region_owner(&mut self, board: &Board, p: Point) -> i8 {
        let mut reach = (false, false);
        let mut alone = true;
        for q in board.neighbours(p) {
            match board.get(q) {
                Some(Color::Black) => reach.0 = true,
                Some(Color::White) => reach.1 = true,
                None => alone = false,
            }
        }
        if !alone {
            reach = (false, false);
            self.stack.clear();
            self.stack.push(p);
            let stamp = self.stamp;
            // Points of one region share a stamp; a point already reached
            // from an earlier region of this count is filled again, which
            // is rare (large regions only).
            self.mark[p.index()] = stamp;
            while let Some(a) = self.stack.pop() {
                for q in board.neighbours(a) {
                    match board.get(q) {
                        Some(Color::Black) => reach.0 = true,
                        Some(Color::White) => reach.1 = true,
                        None if self.mark[q.index()] != stamp => {
                            self.mark[q.index()] = stamp;
                            self.stack.push(q);
                        }
                        None => {}
                    }
                }
            }
            self.stamp = self.stamp.wrapping_add(1).max(1);
        }
        match reach {
            (true, false) => 1,
            (false, true) => -1,
            _ => 0,
        }
    }

    /// The next move of `color` after the stone plays (`before`, `last`),
    /// or `None` to pass.
    fn choose(
        &mut self,
        board: &Board,
        color: Color,
        (before, last): (Option<Point>, Option<Point>),
        replies: Option<&Replies>,
        rng: &mut Rng,
    ) -> Option<Point> {
        if let Some(last) = last {
            if P_ATARI.drawn(rng) {
                self.candidates.clear();
                atari_answers(board, color, last, &mut self.candidates);
                if let Some(p) = self.pick(board, color, rng) {
                    return Some(p);
                }
            }
            // After the atari answers, which no learned reply overrides.
            if let Some(replies) = replies {
                for p in replies.to(color, before, last).into_iter().flatten() {
                    if board.is_empty(p) && self.acceptable(board, p, color, rng) {
                        return Some(p);
                    }
                }
            }
            if P_TWO_LIB.drawn(rng) {
                self.candidates.clear();
                two_liberty_answers(board, color, last, &mut self.candidates);
                if let Some(p) = self.pick(board, color, rng) {
                    return Some(p);
                }
            }
            if P_NAKADE.drawn(rng)
                && let Some(p) = nakade_answer(board, color, last)
                && self.acceptable(board, p, color, rng)
            {
                return Some(p);
            }
            if P_PATTERN.drawn(rng) {
                if let Some(shapes) = self.shapes {
                    if let Some(p) = self.shape_answer(board, color, last, shapes, rng) {
                        return Some(p);
                    }
                } else {
                    self.candidates.clear();
                    for q in board.around(last) {
                        if board.is_empty(q) && self.patterns.matches(board.neighbourhood_code(q)) {
                            self.candidates.push(q);
                        }
                    }
                    if let Some(p) = self.pick(board, color, rng) {
                        return Some(p);
                    }
                }
            }
        } else {
            // No last move to answer (the start, or after a pass): every
            // atari on the board is urgent.
            self.candidates.clear();
            board_atari_answers(board, color, &mut self.candidates);
            if let Some(p) = self.pick(board, color, rng) {
                return Some(p);
            }
        }
        self.random(board, color, rng)
    }

    /// A point next to `last` drawn by the strength of its shape, or
    /// `None` when tenuki is drawn (or nothing there is acceptable).
    fn shape_answer(
        &mut self,
        board: &Board,
        color: Color,
        last: Point,
        shapes: &ShapeModel,
        rng: &mut Rng,
    ) -> Option<Point> {
        self.candidates.clear();
        self.weights.clear();
        let mut total = shapes.tenuki() * TENUKI_SHARE;
        for q in board.around(last) {
            if board.is_empty(q) && board.is_playout_move(q, color) {
                let g = shapes.gamma(board.neighbourhood_code(q), color);
                self.candidates.push(q);
                self.weights.push(g);
                total += g;
            }
        }
        while !self.candidates.is_empty() {
            let mut r = rng.unit() * total;
            // Past every point: tenuki was drawn.
            let i = self.weights.iter().position(|&g| {
                r -= g;
                r < 0.0
            })?;
            // Every candidate is a playout move already.
            let p = self.candidates[i];
            if self.not_refused(board, p, color, rng) {
                return Some(p);
            }
            total -= self.weights[i];
            self.candidates.swap_remove(i);
            self.weights.swap_remove(i);
        }
        None
    }

    /// A random acceptable move among the candidates.
    fn pick(&mut self, board: &Board, color: Color, rng: &mut Rng) -> Option<Point> {
        let mut k = self.candidates.len();
        while k > 0 {
            let r = rng.below(k);
            let p = self.candidates[r];
            if self.acceptable(board, p, color, rng) {
                return Some(p);
            }
            k -= 1;
            self.candidates.swap(r, k);
        }
        None
    }

    /// A playout move that is no bad self-atari.
    #[inline]
    fn acceptable(&self, board: &Board, p: Point, color: Color, rng: &mut Rng) -> bool {
        board.is_playout_move(p, color) && self.not_refused(board, p, color, rng)
    }

    /// Whether a playout move is let through the self-atari rules.
    #[inline]
    fn not_refused(&self, board: &Board, p: Point, color: Color, rng: &mut Rng) -> bool {
        match self.refusal(board, p, color) {
            Refusal::Never => true,
            Refusal::Mostly => !P_LONE_SELF_ATARI.drawn(rng),
            Refusal::Always => false,
        }
    }

    /// How a playout treats a move as self-atari: always refused for any
    /// stone when captures decide the game, and for two stones or more
    /// (a seki stays a seki) unless the capture leaves one eye; mostly
    /// refused for a lone stone and for that nakade (the rest leaves room
    /// for throw-ins and nakade).
    fn refusal(&self, board: &Board, p: Point, color: Color) -> Refusal {
        if liberties_after(board, p, color) >= 2 {
            if breaks_three_stone_seki(board, p, color) || fills_own_eye_shape(board, p, color) {
                Refusal::Always
            } else {
                Refusal::Never
            }
        } else if self.judge.goal.is_some() || self.judge.count == Count::Captures {
            Refusal::Always
        } else if !board.neighbours(p).any(|q| board.get(q) == Some(color))
            || kills_as_nakade(board, p, color)
        {
            Refusal::Mostly
        } else {
            Refusal::Always
        }
    }

    /// A uniform choice among the acceptable moves: draw without
    /// replacement from the empty points until one fits.
    fn random(&mut self, board: &Board, color: Color, rng: &mut Rng) -> Option<Point> {
        let empty = board.empty_points();
        let mut k = empty.len();
        if k == 0 {
            return None;
        }
        let first = rng.below(k);
        if self.acceptable(board, empty[first], color, rng) {
            return Some(empty[first]);
        }
        self.pool.clear();
        self.pool.extend_from_slice(empty);
        k -= 1;
        self.pool.swap(first, k);
        while k > 0 {
            let r = rng.below(k);
            let p = self.pool[r];
            if self.acceptable(board, p, color, rng) {
                return Some(p);
            }
            k -= 1;
            self.pool.swap(r, k);
        }
        // Only refused moves are left: a lone stone's self-atari is played
        // rather than passing, so that dead chains still get captured.
        self.pool.iter().copied().find(|&p| {
            board.is_playout_move(p, color) && self.refusal(board, p, color) != Refusal::Always
        })
    }
}

/// How a playout treats a self-atari.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// Not a self-atari.
    Never,
    /// A lone stone's self-atari: refused most of the time.
    Mostly,
    /// A self-atari that is never played.
    Always,
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_playout_mixed_with_a_judgement_weighs_each_as_told() {
        let won = super::PlayoutResult::from_margin(8 * 5);
        assert_eq!(won.wins_for(tengen_core::Color::Black), super::WIN);
        assert_eq!(won.wins_for(tengen_core::Color::White), 0);
        // Half the weight on a judgement of 25%: 62.5% of a win.
        let mixed = won.mixed(0.25, -3.0, 0.5);
        assert_eq!(mixed.black_wins, 40);
        assert_eq!(mixed.margin, 8);
        assert_eq!(won.mixed(0.25, -3.0, 0.0), won);
        assert_eq!(won.mixed(0.25, -3.0, 1.0).black_wins, 16);
        // Out of range values are bounded.
        assert_eq!(won.mixed(2.0, 0.0, 7.0).black_wins, super::WIN);
    }

    use super::*;
    use crate::shape::canonical;
    use tengen_core::Board;

    /// A white stone at (4, 4) just played beside a black one at (3, 4).
    fn position() -> (Board, Point, Point) {
        let size = BoardSize::square(9).unwrap();
        let mut board = Board::new(size);
        board.play_unchecked(size.point(3, 4).unwrap(), Color::Black);
        let last = size.point(4, 4).unwrap();
        board.play_unchecked(last, Color::White);
        (board, last, size.point(4, 3).unwrap())
    }

    fn answers(model: ShapeModel, draws: usize) -> (usize, usize) {
        let (board, last, hane) = position();
        let model: &'static ShapeModel = Box::leak(Box::new(model));
        let judge = Judge {
            count: Count::Area,
            komi: 56,
            goal: None,
        };
        let mut playout = HeavyPlayout::new(board.size(), judge, Some(model));
        let mut rng = Rng::new(7);
        let (mut at_hane, mut tenuki) = (0, 0);
        let shape = canonical(board.neighbourhood_code(hane));
        for _ in 0..draws {
            match playout.shape_answer(&board, Color::Black, last, model, &mut rng) {
                // The hane, or its mirror image on the other side.
                Some(p) if canonical(board.neighbourhood_code(p)) == shape => at_hane += 1,
                Some(p) => assert!(board.around(last).any(|q| q == p)),
                None => tenuki += 1,
            }
        }
        (at_hane, tenuki)
    }

    #[test]
    fn a_last_good_reply_is_played_where_it_can_be_and_passed_over_where_not() {
        let (mut board, last, _) = position();
        let size = board.size();
        let judge = Judge {
            count: Count::Area,
            komi: 56,
            goal: None,
        };
        let mut playout = HeavyPlayout::new(size, judge, None);
        let mut rng = Rng::new(11);
        // Far from the last stone, where no local answer would go.
        let far = size.point(0, 8).unwrap();
        let pair = size.point(8, 0).unwrap();
        let replies = Replies::new(size);
        replies.learn(
            &[(last, Color::White), (far, Color::Black)],
            Some(Color::Black),
        );
        let before = size.point(3, 4);
        let mut choose = |board: &Board, replies: Option<&Replies>| {
            playout.choose(board, Color::Black, (before, Some(last)), replies, &mut rng)
        };
        for _ in 0..20 {
            assert_eq!(choose(&board, Some(&replies)), Some(far));
        }
        // Without the table, the playout answers as before: never there.
        assert!((0..50).all(|_| choose(&board, None) != Some(far)));
        // The reply to the pair comes first (learned with it as the reply
        // to the last stone too, then that one learned again).
        replies.learn(
            &[
                (before.unwrap(), Color::Black),
                (last, Color::White),
                (pair, Color::Black),
            ],
            Some(Color::Black),
        );
        replies.learn(
            &[(last, Color::White), (far, Color::Black)],
            Some(Color::Black),
        );
        assert_eq!(choose(&board, Some(&replies)), Some(pair));
        // Taken points are passed over: the single reply, then the rest.
        board.play_unchecked(pair, Color::White);
        assert_eq!(choose(&board, Some(&replies)), Some(far));
        board.play_unchecked(far, Color::White);
        let next = choose(&board, Some(&replies));
        assert!(next.is_some_and(|p| p != far && p != pair && board.is_empty(p)));
    }

    #[test]
    fn local_answers_follow_the_learned_strengths() {
        let (board, _, hane) = position();
        let code = canonical(board.neighbourhood_code(hane));
        // A strong shape and a weak tenuki: nearly always the shape.
        let (at, away) = answers(ShapeModel::new([(code, 1000.0)], 0.01), 200);
        assert!(at >= 190 && away < 5, "{at} {away}");
        // Even shapes, tenuki as strong as the seven points together
        // (once shared): about half local, two sevenths of it the hane
        // and its mirror image.
        let (at, away) = answers(ShapeModel::new([], 7.0 / TENUKI_SHARE), 2000);
        assert!((850..1150).contains(&away), "{away}");
        assert!((200..380).contains(&at), "{at}");
    }
}
