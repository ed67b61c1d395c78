//! A game under a rule set: turn order, history, legality under the
//! repetition rule, passes, the end of play, the dead-stone phase, handicap
//! and the result.
//!
//! Everything a user can input goes through [`Game::play`], which returns a
//! typed error naming the rule broken and leaves the game unchanged.

use crate::board::{Board, IllegalMove, Preview, Suicide};
use crate::color::{ByColor, Color};
use crate::handicap::{self, HandicapError};
use crate::history::{History, Maker, Repetition};
use crate::outcome::{Outcome, WinBy};
use crate::points::Points;
use crate::regions::RegionMap;
use crate::rules::{EndOfPlay, HandicapPlacement, KoRule, Rules};
use crate::scoring::{self, CountInput, QuickInput, Score};
use crate::size::{BoardSize, Point};

pub use crate::moves::Move;

/// One turn of the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Who moved.
    pub color: Color,
    /// What was played.
    pub mv: Move,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Players take turns.
    Playing,
    /// Play has stopped; the players agree on dead stones (or dispute, and
    /// play resumes).
    Marking,
    /// The game has a result.
    Over,
}

impl From<Repetition> for IllegalMove {
    fn from(r: Repetition) -> IllegalMove {
        match r {
            Repetition::Ko => IllegalMove::Ko,
            Repetition::Positional => IllegalMove::PositionalSuperko,
            Repetition::Situational => IllegalMove::SituationalSuperko,
            Repetition::NaturalSituational => IllegalMove::NaturalSituationalSuperko,
        }
    }
}

/// A refused play, with the move given back; its text names the vertex
/// (`illegal white move at E5: the point is occupied`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal {color} move {}: {reason}", where_(*.mv, *.size))]
pub struct PlayError {
    /// Who tried to move.
    pub color: Color,
    /// What was tried.
    pub mv: Move,
    /// The board, to name the move.
    pub size: BoardSize,
    /// The rule broken.
    pub reason: IllegalMove,
}

/// `at E5`, or `pass`.
fn where_(mv: Move, size: BoardSize) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => format!("at {}", p.name(size)),
    }
}

/// A refused step of the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndError {
    /// Not possible in the current phase.
    #[error("not possible now: the game is {0}")]
    WrongPhase(&'static str),
    /// A point of a dead-stone proposal holds no stone.
    #[error("a dead-stone proposal may only name stones")]
    NotAStone,
    /// Accepting one's own proposal, or no proposal to accept.
    #[error("there is no proposal from the opponent to accept")]
    NoProposal,
    /// Agreement does not stop play under these rules.
    #[error("under these rules play stops only after two consecutive passes")]
    NoAgreement,
    /// Nothing to undo.
    #[error("there is no move to undo")]
    NothingToUndo,
}

/// Stones to put on the board before play (SGF AB/AW, a problem, a
/// position edited by hand). Not necessarily a reachable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board.
    pub size: BoardSize,
    /// Black stones.
    pub black: Vec<Point>,
    /// White stones.
    pub white: Vec<Point>,
    /// Who moves first.
    pub to_move: Color,
    /// Handicap stones among the black ones (0: an even game, komi applies;
    /// otherwise the rules' compensation replaces komi).
    pub handicap: u32,
}

impl Setup {
    /// The stones of `board`, `to_move` to play, an even game (a handicap
    /// is set on the result).
    pub fn of(board: &Board, to_move: Color) -> Setup {
        let size = board.size();
        let stones = |c: Color| size.points().filter(|&p| board.get(p) == Some(c)).collect();
        Setup {
            size,
            black: stones(Color::Black),
            white: stones(Color::White),
            to_move,
            handicap: 0,
        }
    }
}

/// Why a setup was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A point off the board.
    #[error("a setup point is off the board")]
    OffBoard,
    /// A point given twice.
    #[error("a setup point is given twice")]
    Overlap,
    /// A chain of the setup has no liberty.
    #[error("a chain of the setup has no liberty")]
    NoLiberty,
    /// More handicap stones than the board has points.
    #[error("a handicap of {0} stones does not fit on the board")]
    Handicap(u32),
}

/// How handicap stones are given to [`Game::with_handicap`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandicapStones {
    /// On the fixed points of the GTP table.
    Fixed,
    /// On these points.
    Free(Vec<Point>),
}

#[derive(Clone, Debug)]
struct Start {
    board: Board,
    to_move: Color,
    setup_balance: i32,
}

/// A game. See the module docs.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Start,
    board: Board,
    to_move: Color,
    komi: Points,
    handicap: u32,
    captures: ByColor<u32>,
    passes: ByColor<u32>,
    consecutive_passes: u32,
    turns: Vec<Turn>,
    history: History,
    phase: Phase,
    stop_offer: Option<Color>,
    proposal: Option<(Color, Vec<Point>)>,
    outcome: Option<Outcome>,
    score: Option<Score>,
    /// The chains the final count removed as dead.
    dead: Vec<Point>,
}

impl Game {
    /// An even game on an empty board, Black to move, the rules' komi.
    pub fn new(rules: Rules, size: BoardSize) -> Game {
        Game::start(rules, Board::new(size), Color::Black, 0, 0)
    }

    fn start(
        rules: Rules,
        board: Board,
        to_move: Color,
        handicap: u32,
        setup_balance: i32,
    ) -> Game {
        let komi = if handicap == 0 {
            rules.komi
        } else {
            rules.handicap_compensation.points(handicap)
        };
        Game {
            rules,
            history: History::new(&board, to_move),
            start: Start {
                board: board.clone(),
                to_move,
                setup_balance,
            },
            board,
            to_move,
            komi,
            handicap,
            captures: ByColor::default(),
            passes: ByColor::default(),
            consecutive_passes: 0,
            turns: Vec::new(),
            phase: Phase::Playing,
            stop_offer: None,
            proposal: None,
            outcome: None,
            score: None,
            dead: Vec::new(),
        }
    }

    /// A game from a setup. Setup stones create no arrangement for anyone
    /// under natural situational superko; the setup is the first
    /// arrangement for the other repetition rules.
    ///
    /// # Errors
    /// [`SetupError`] for points off the board, given twice, a chain
    /// without liberty, or a handicap larger than the board.
    pub fn from_setup(rules: Rules, setup: &Setup) -> Result<Game, SetupError> {
        if setup.handicap as usize > setup.size.num_points() {
            return Err(SetupError::Handicap(setup.handicap));
        }
        let mut board = Board::new(setup.size);
        let stones = setup
            .black
            .iter()
            .map(|&p| (p, Color::Black))
            .chain(setup.white.iter().map(|&p| (p, Color::White)));
        let mut placed = 0;
        for (p, color) in stones {
            if !setup.size.contains(p) {
                return Err(SetupError::OffBoard);
            }
            if !board.is_empty(p) {
                return Err(SetupError::Overlap);
            }
            board.play_unchecked(p, color);
            placed += 1;
        }
        let s = board.stones();
        if s.black + s.white != placed {
            return Err(SetupError::NoLiberty);
        }
        board.pass();
        let balance = setup.black.len() as i32 - setup.white.len() as i32;
        Ok(Game::start(
            rules,
            board,
            setup.to_move,
            setup.handicap,
            balance,
        ))
    }

    /// A game with `n` handicap stones placed as the rules say: fixed or
    /// free stones set before White's first move, or, under New Zealand
    /// rules, played by Black while White passes its first n-1 turns. A
    /// handicap of 1 is an even game without komi; 0 is an even game.
    ///
    /// # Errors
    /// [`HandicapError`] when the count or the points do not fit the board
    /// or the placement rule.
    pub fn with_handicap(
        rules: Rules,
        size: BoardSize,
        n: u32,
        stones: HandicapStones,
    ) -> Result<Game, HandicapError> {
        if n == 0 {
            return Ok(Game::new(rules, size));
        }
        if n == 1 {
            return Ok(Game::start(rules, Board::new(size), Color::Black, 1, 0));
        }
        let points = match stones {
            HandicapStones::Fixed => handicap::fixed_points(size, n)?,
            HandicapStones::Free(points) => {
                if rules.handicap_placement == HandicapPlacement::Fixed {
                    let mut fixed =
                        handicap::fixed_points(size, n).map_err(|_| HandicapError::NotFixed)?;
                    let mut given = points.clone();
                    fixed.sort();
                    given.sort();
                    if fixed != given {
                        return Err(HandicapError::NotFixed);
                    }
                }
                let max = size.num_points() as u32 - 1;
                if points.len() as u32 != n || n > max {
                    return Err(HandicapError::Count {
                        asked: points.len() as u32,
                        min: n,
                        max: n.min(max),
                    });
                }
                let mut sorted = points.clone();
                sorted.sort();
                sorted.dedup();
                if sorted.len() != points.len() || !points.iter().all(|&p| size.contains(p)) {
                    return Err(HandicapError::BadPoint);
                }
                points
            }
        };
        if rules.handicap_placement == HandicapPlacement::WhitePasses {
            let mut game = Game::start(rules, Board::new(size), Color::Black, n, 0);
            for (i, &p) in points.iter().enumerate() {
                if i > 0 {
                    game.play(Move::Pass).map_err(|_| HandicapError::BadPoint)?;
                }
                game.play(Move::Play(p))
                    .map_err(|_| HandicapError::BadPoint)?;
            }
            return Ok(game);
        }
        let setup = Setup {
            size,
            black: points,
            white: Vec::new(),
            to_move: Color::White,
            handicap: n,
        };
        Game::from_setup(rules, &setup).map_err(|_| HandicapError::BadPoint)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    /// Who moves next.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// White's komi in this game (the compensation in a handicap game).
    pub fn komi(&self) -> Points {
        self.komi
    }

    /// Changes komi (a web form), exactly.
    pub fn set_komi(&mut self, komi: Points) {
        self.komi = komi;
    }

    /// Komi as GTP `komi` and SGF `KM` state it: White's komi less, in a
    /// handicap game, the part of the compensation the rules give per stone
    /// (so 0.5 in an FFG or AGA handicap game), which readers add back.
    pub fn stated_komi(&self) -> Points {
        self.komi - self.rules.handicap_compensation.per_stone(self.handicap)
    }

    /// Sets komi as GTP `komi` and SGF `KM` state it: the rules'
    /// compensation per handicap stone stays on top (see
    /// [`Game::stated_komi`]).
    pub fn set_stated_komi(&mut self, komi: Points) {
        self.komi = komi + self.rules.handicap_compensation.per_stone(self.handicap);
    }

    /// Handicap stones (0 in an even game).
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// Stones captured by each colour (suicided stones count for the
    /// opponent).
    pub fn captures(&self) -> ByColor<u32> {
        self.captures
    }

    /// Passes made by each colour.
    pub fn passes(&self) -> ByColor<u32> {
        self.passes
    }

    /// The turns played, in order.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The stones on the board before the first turn.
    pub fn initial_board(&self) -> &Board {
        &self.start.board
    }

    /// Who moved first.
    pub fn first_to_move(&self) -> Color {
        self.start.to_move
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The count that decided the game, when it ended by a count.
    pub fn final_score(&self) -> Option<&Score> {
        self.score.as_ref()
    }

    /// The stones the final count removed as dead (empty unless the game
    /// ended by a count): what a record's territory marks need beside the
    /// board.
    pub fn dead_stones(&self) -> &[Point] {
        &self.dead
    }

    /// The dead-stone proposal on the table: who made it and the stones.
    pub fn dead_proposal(&self) -> Option<(Color, &[Point])> {
        self.proposal.as_ref().map(|(c, v)| (*c, v.as_slice()))
    }

    /// Whether `color` may make this move now, and if not, why.
    ///
    /// # Errors
    /// The rule the move would break.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check_play(color, mv).map(|_| ())
    }

    /// Whether the player to move may make this move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(self.to_move, mv).is_ok()
    }

    /// The points where the player to move may play a stone.
    pub fn legal_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.size()
            .points()
            .filter(|&p| self.is_legal(Move::Play(p)))
    }

    fn check_play(&self, color: Color, mv: Move) -> Result<Option<Preview>, IllegalMove> {
        match self.phase {
            Phase::Over => return Err(IllegalMove::GameOver),
            Phase::Marking => return Err(IllegalMove::WrongPhase),
            Phase::Playing => {}
        }
        let Move::Play(p) = mv else {
            return Ok(None);
        };
        if !self.size().contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        if !self.board.is_empty(p) {
            return Err(IllegalMove::Occupied);
        }
        let preview = self.board.preview(p, color);
        if preview.suicided > 0 {
            match self.rules.suicide {
                Suicide::Forbidden => return Err(IllegalMove::Suicide),
                Suicide::MultiStone if preview.single_stone_suicide => {
                    return Err(IllegalMove::SingleStoneSuicide);
                }
                _ => {}
            }
        }
        let after = || {
            let mut b = self.board.clone();
            b.play_unchecked(p, color);
            b
        };
        if let Some(r) = self
            .history
            .violation(self.rules.ko, color, preview.hash_after, after)
        {
            return Err(r.into());
        }
        Ok(Some(preview))
    }

    /// Plays a move for the player to move.
    ///
    /// # Errors
    /// [`PlayError`] naming the rule broken; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_as(self.to_move, mv)
    }

    /// Plays a move for `color`, whoever is to move (as GTP `play` allows);
    /// the opponent of `color` moves next.
    ///
    /// # Errors
    /// [`PlayError`] naming the rule broken; the game is unchanged.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        self.check_play(color, mv).map_err(|reason| PlayError {
            color,
            mv,
            size: self.board.size(),
            reason,
        })?;
        self.apply(color, mv);
        Ok(())
    }

    /// Plays a move even where these rules forbid it, for records played
    /// under other rules: a suicide is carried out (the chain is removed, as
    /// SGF requires), a repetition is allowed. Returns the rule the move
    /// broke, if any, so that the caller can report it.
    ///
    /// # Errors
    /// [`PlayError`] for a move that cannot be made at all: off the board, on
    /// a stone, or outside play.
    pub fn play_tolerant(
        &mut self,
        color: Color,
        mv: Move,
    ) -> Result<Option<IllegalMove>, PlayError> {
        match self.check_play(color, mv) {
            Ok(_) => {
                self.apply(color, mv);
                Ok(None)
            }
            Err(
                reason @ (IllegalMove::Suicide
                | IllegalMove::SingleStoneSuicide
                | IllegalMove::Ko
                | IllegalMove::PositionalSuperko
                | IllegalMove::SituationalSuperko
                | IllegalMove::NaturalSituationalSuperko),
            ) => {
                self.apply(color, mv);
                Ok(Some(reason))
            }
            Err(reason) => Err(PlayError {
                color,
                mv,
                size: self.board.size(),
                reason,
            }),
        }
    }

    /// Plays a move already checked (or forced by [`Game::play_tolerant`]).
    fn apply(&mut self, color: Color, mv: Move) {
        let opponent = color.opponent();
        match mv {
            Move::Pass => {
                self.board.pass();
                self.passes[color] += 1;
                self.consecutive_passes += 1;
                self.history.push(&self.board, opponent, Maker::Pass(color));
            }
            Move::Play(p) => {
                let played = self.board.play_unchecked(p, color);
                self.captures[color] += played.captured;
                self.captures[opponent] += played.suicided;
                self.consecutive_passes = 0;
                self.history
                    .push(&self.board, opponent, Maker::Stone(color));
            }
        }
        self.turns.push(Turn { color, mv });
        self.to_move = opponent;
        self.stop_offer = None;

        if let Some(goal) = self.rules.capture_goal {
            for c in [color, opponent] {
                if self.captures[c] >= goal {
                    self.finish(Outcome::Win {
                        winner: c,
                        by: WinBy::CaptureGoal(self.captures[c]),
                    });
                    return;
                }
            }
        }
        if self.rules.ko == KoRule::Simple && self.history.latest_situation_count() >= 4 {
            self.finish(Outcome::Void);
            return;
        }
        if self.consecutive_passes >= 2 {
            self.stop_play();
        }
    }

    /// Play stops: the dead-stone phase, or the count at once where no
    /// stone is ever removed (stone counting, capture games).
    fn stop_play(&mut self) {
        self.stop_offer = None;
        if self.rules.removes_dead_stones() {
            self.phase = Phase::Marking;
            self.proposal = None;
        } else {
            self.count_and_finish(&[]);
        }
    }

    fn count_and_finish(&mut self, dead: &[Point]) {
        let score = self.score(dead);
        let outcome = score.outcome();
        self.score = Some(score);
        self.dead = dead.to_vec();
        self.finish(outcome);
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.proposal = None;
        self.stop_offer = None;
    }

    /// Counts the current position with the chains of `dead` removed, by the
    /// rules' method, with the area, Chinese and quick counts beside it.
    pub fn score(&self, dead: &[Point]) -> Score {
        self.count(&self.region_map(dead))
    }

    /// What every point of the current position is once the chains of
    /// `dead` are removed: the map [`Game::count`] adds up.
    pub fn region_map(&self, dead: &[Point]) -> RegionMap {
        RegionMap::new(&self.board, dead)
    }

    /// Counts a map of the current position (from [`Game::region_map`]).
    pub fn count(&self, map: &RegionMap) -> Score {
        let input = CountInput {
            scoring: self.rules.scoring,
            komi: self.komi,
            captures: self.captures,
            tax: self.rules.tax,
        };
        let white_first = self.start.to_move == Color::White;
        let turns = ByColor::from_fn(|c| {
            let made = self.turns.iter().filter(|t| t.color == c).count();
            u32::try_from(made).unwrap_or(u32::MAX)
        });
        scoring::count_map(map, input).with_quick_count(QuickInput {
            passes: self.passes,
            turns,
            setup_balance: self.start.setup_balance,
            white_first,
        })
    }

    /// `by` resigns: the opponent wins.
    ///
    /// # Errors
    /// [`EndError::WrongPhase`] when the game is already over.
    pub fn resign(&mut self, by: Color) -> Result<(), EndError> {
        self.concede(by, WinBy::Resignation)
    }

    /// `by` ran out of time: the opponent wins.
    ///
    /// # Errors
    /// [`EndError::WrongPhase`] when the game is already over.
    pub fn lose_on_time(&mut self, by: Color) -> Result<(), EndError> {
        self.concede(by, WinBy::Time)
    }

    /// `by` forfeits (an illegal move in a match, a crash): the opponent wins.
    ///
    /// # Errors
    /// [`EndError::WrongPhase`] when the game is already over.
    pub fn forfeit(&mut self, by: Color) -> Result<(), EndError> {
        self.concede(by, WinBy::Forfeit)
    }

    fn concede(&mut self, by: Color, how: WinBy) -> Result<(), EndError> {
        if self.phase == Phase::Over {
            return Err(EndError::WrongPhase("over"));
        }
        self.finish(Outcome::Win {
            winner: by.opponent(),
            by: how,
        });
        Ok(())
    }

    /// `by` proposes to stop play (rules ending by agreement).
    ///
    /// # Errors
    /// [`EndError`] when play is not going on or the rules end play only by
    /// two passes.
    pub fn propose_stop(&mut self, by: Color) -> Result<(), EndError> {
        self.expect_phase(Phase::Playing)?;
        if self.rules.end != EndOfPlay::Agreement {
            return Err(EndError::NoAgreement);
        }
        self.stop_offer = Some(by);
        Ok(())
    }

    /// `by` accepts the opponent's proposal to stop: play stops.
    ///
    /// # Errors
    /// [`EndError::NoProposal`] without a proposal from the opponent.
    pub fn accept_stop(&mut self, by: Color) -> Result<(), EndError> {
        self.expect_phase(Phase::Playing)?;
        if self.stop_offer != Some(by.opponent()) {
            return Err(EndError::NoProposal);
        }
        self.stop_play();
        Ok(())
    }

    /// `by` proposes the chains of `dead` as dead (any stone of a chain
    /// names the whole chain; an empty list says none are dead).
    ///
    /// # Errors
    /// [`EndError`] outside the dead-stone phase or for a point without a stone.
    pub fn propose_dead(&mut self, by: Color, dead: &[Point]) -> Result<(), EndError> {
        self.expect_phase(Phase::Marking)?;
        let mut chains = Vec::new();
        for &p in dead {
            if self.board.get(p).is_none() {
                return Err(EndError::NotAStone);
            }
            chains.extend(self.board.chain(p));
        }
        chains.sort();
        chains.dedup();
        self.proposal = Some((by, chains));
        Ok(())
    }

    /// `by` accepts the opponent's dead-stone proposal: the game is counted.
    ///
    /// # Errors
    /// [`EndError`] outside the dead-stone phase or without an opponent's proposal.
    pub fn accept_dead(&mut self, by: Color) -> Result<(), EndError> {
        self.expect_phase(Phase::Marking)?;
        match self.proposal.take() {
            Some((proposer, dead)) if proposer != by => {
                self.count_and_finish(&dead);
                Ok(())
            }
            other => {
                self.proposal = other;
                Err(EndError::NoProposal)
            }
        }
    }

    /// `by` disputes the dead stones: play resumes, the turn passing as if it
    /// had never stopped; the next stop starts a new marking (NZ: "le jeu
    /// reprend"; FFG §8: "continuer à jouer").
    ///
    /// # Errors
    /// [`EndError::WrongPhase`] outside the dead-stone phase.
    pub fn dispute(&mut self, _by: Color) -> Result<(), EndError> {
        self.expect_phase(Phase::Marking)?;
        self.phase = Phase::Playing;
        self.proposal = None;
        self.consecutive_passes = 0;
        Ok(())
    }

    fn expect_phase(&self, phase: Phase) -> Result<(), EndError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(EndError::WrongPhase(match self.phase {
                Phase::Playing => "in play",
                Phase::Marking => "in the dead-stone phase",
                Phase::Over => "over",
            }))
        }
    }

    /// Takes back the last turn (and any stop or result that followed it):
    /// the game is replayed from its start without that turn.
    ///
    /// # Errors
    /// [`EndError::NothingToUndo`] before the first turn.
    pub fn undo(&mut self) -> Result<(), EndError> {
        let keep = self
            .turns
            .len()
            .checked_sub(1)
            .ok_or(EndError::NothingToUndo)?;
        let mut game = Game::start(
            self.rules,
            self.start.board.clone(),
            self.start.to_move,
            self.handicap,
            self.start.setup_balance,
        );
        game.komi = self.komi;
        for t in &self.turns[..keep] {
            if game.phase == Phase::Marking {
                game.phase = Phase::Playing;
                game.consecutive_passes = 0;
            }
            game.apply(t.color, t.mv);
        }
        *self = game;
        Ok(())
    }

    /// The number of turns played.
    pub fn move_number(&self) -> usize {
        self.history.turns()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn stated_komi_leaves_out_the_compensation_per_stone() {
        let size = BoardSize::square(9).unwrap();
        for (preset, n, full, stated) in [
            // Chinese: n points; FFG and AGA: 0.5 + (n-1); Japanese: none.
            (Preset::Chinese, 2, Points::whole(2), Points::ZERO),
            (Preset::Ffg, 3, Points::halves(5), Points::halves(1)),
            (Preset::Aga, 4, Points::halves(7), Points::halves(1)),
            (Preset::Japanese, 2, Points::ZERO, Points::ZERO),
        ] {
            let mut game =
                Game::with_handicap(preset.rules(), size, n, HandicapStones::Fixed).unwrap();
            assert_eq!(game.komi(), full, "{preset:?}");
            assert_eq!(game.stated_komi(), stated, "{preset:?}");
            game.set_stated_komi(Points::halves(13));
            assert_eq!(game.stated_komi(), Points::halves(13), "{preset:?}");
            assert_eq!(
                game.komi(),
                Points::halves(13) + full - stated,
                "{preset:?}"
            );
        }
        // An even game states its komi as it is.
        let mut even = Game::new(Preset::Chinese.rules(), size);
        assert_eq!(even.stated_komi(), even.komi());
        even.set_stated_komi(Points::halves(1));
        assert_eq!(even.komi(), Points::halves(1));
    }
}
