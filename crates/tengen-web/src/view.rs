//! The JSON every viewer of a game receives, built by hand from the core
//! types (which know nothing of JSON).

use crate::clock::{ClockSettings, SideView};
use crate::names::MoveName;
use crate::settings::{Opponent, Settings, phase_name};
use serde::Serialize;
use tengen_core::{
    Board, BoardSize, ByColor, Clock, Color, Game, Move, Outcome, PassStones, Phase, Point,
    RegionMap, Score, Scoring, Tax, Vertex, WinBy,
};

/// A pair of values by colour, as JSON `{"black":..,"white":..}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pair<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T> From<ByColor<T>> for Pair<T> {
    fn from(b: ByColor<T>) -> Pair<T> {
        Pair {
            black: b.black,
            white: b.white,
        }
    }
}

fn pair_text<T: ToString>(b: ByColor<T>) -> Pair<String> {
    Pair {
        black: b.black.to_string(),
        white: b.white.to_string(),
    }
}

/// The clocks as seen now.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// The control.
    pub control: ClockSettings,
    /// Each side's time at the start of its turn.
    pub sides: Pair<SideView>,
    /// Whose clock runs (none outside play).
    pub running: Option<&'static str>,
    /// Time left before the running player's flag falls, ms.
    pub left_ms: i64,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// SGF `RE` form.
    pub sgf: String,
    /// The winner, if any.
    pub winner: Option<&'static str>,
    /// `score`, `resignation`, `time`, `forfeit`, `captures`, `draw`, `void`.
    pub by: &'static str,
    /// The reason in English words.
    pub text: String,
}

/// A count with its breakdown and the map the board draws.
#[derive(Clone, Debug, Serialize)]
pub struct CountView {
    /// The method: `area_dame_both`, `area_dame_shared`, `area_dame_nobody`,
    /// `stones`, `territory`, `captures`.
    pub scoring: &'static str,
    /// One letter per point, row by row from the top: `b`/`w` territory,
    /// `B`/`W` eyes in seki, `d` dame (reaching both), `n` reaching no
    /// stone, `X`/`O` living stones, `x`/`o` stones in seki.
    pub map: String,
    /// Stones on the board after the dead ones are removed.
    pub stones: Pair<u32>,
    /// Empty points reaching only one colour.
    pub territory: Pair<u32>,
    /// Empty points reaching both.
    pub dame: u32,
    /// Eyes in seki (drawn apart from territory; `territory` includes
    /// them).
    pub seki: Pair<u32>,
    /// Whether the rules count the eyes in seki (no seki tax).
    pub seki_counted: bool,
    /// Captured during play, by the capturer.
    pub captures: Pair<u32>,
    /// Dead stones removed, by their colour.
    pub dead: Pair<u32>,
    /// White's komi.
    pub komi: String,
    /// Each side's total under the method.
    pub totals: Pair<String>,
    /// Black's total minus White's.
    pub margin: String,
    /// The area margin (stones + territory, komi).
    pub area_margin: String,
    /// The Chinese count: Black's stones and points against the threshold.
    pub chinese: ChineseView,
    /// The FFG quick count, where the rules count pass stones.
    pub quick: Option<QuickView>,
}

/// The Chinese count.
#[derive(Clone, Debug, Serialize)]
pub struct ChineseView {
    /// Black's count.
    pub black: String,
    /// What Black must exceed (184.25 on 19x19 with komi 7.5).
    pub threshold: String,
    /// The margin in stones.
    pub margin_stones: String,
}

/// The FFG quick count.
#[derive(Clone, Debug, Serialize)]
pub struct QuickView {
    /// Stones each holds to fill the other's territory.
    pub held: Pair<u32>,
    /// Of those, pass stones received.
    pub pass_stones: Pair<u32>,
    /// Territory left after filling (none where the opponent held more
    /// stones than it had points).
    pub remaining: Pair<u32>,
    /// The stones that did not fit in a player's territory: a point less
    /// each for its owner. A table saying "-15 territory left" puzzled.
    pub over: Pair<u32>,
    /// Komi of the quick count.
    pub komi: String,
    /// Black's margin.
    pub margin: String,
}

/// What the page needs to draw an empty board: its size and its star
/// points (where the rules put handicap stones), as `width`, `height` and
/// `star_points` beside the other fields of a view or a review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grid {
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The star points, as vertices.
    pub star_points: Vec<String>,
}

impl From<BoardSize> for Grid {
    fn from(size: BoardSize) -> Grid {
        Grid {
            width: size.width(),
            height: size.height(),
            star_points: tengen_core::handicap::star_points(size)
                .into_iter()
                .map(|p| Vertex::point_name(p, size))
                .collect(),
        }
    }
}

/// What every viewer of a game sees.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The game id.
    pub id: String,
    /// The log position this view follows.
    pub seq: u64,
    /// The board's size and star points.
    #[serde(flatten)]
    pub grid: Grid,
    /// Preset name.
    pub rules: String,
    /// White's komi.
    pub komi: String,
    /// Handicap stones.
    pub handicap: u32,
    /// Who plays whom.
    pub opponent: Opponent,
    /// Learning-path step, if the game is one.
    pub lesson: Option<u32>,
    /// One letter per point, row by row from the top: `.` `X` `O`.
    pub board: String,
    /// The move number of each stone on the board (0: a setup stone or none).
    pub numbers: Vec<u32>,
    /// Who moves next.
    pub to_move: &'static str,
    /// `playing`, `marking` or `over`.
    pub phase: &'static str,
    /// Turns played.
    pub move_number: usize,
    /// The last turn: a vertex or `pass`.
    pub last: Option<String>,
    /// Who made it.
    pub last_color: Option<&'static str>,
    /// Stones captured by each colour.
    pub captures: Pair<u32>,
    /// Dead stones proposed, as vertices.
    pub dead: Vec<String>,
    /// Who proposed them.
    pub proposer: Option<&'static str>,
    /// Who asked to take back moves.
    pub undo_request: Option<&'static str>,
    /// The clocks, in a timed game.
    pub clock: Option<ClockView>,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// The count: provisional while dead stones are agreed, final after.
    pub count: Option<CountView>,
    /// The point the player to move may not take now by the ko rule, if
    /// any.
    pub ko: Option<String>,
    /// The stones of every chain with one liberty left (the beginner's
    /// aid marks them).
    pub atari: Vec<String>,
    /// Names of the last move (English and French), when asked for; live
    /// views leave them to a later `names` message, the lexicon's reading
    /// being slower than a move.
    pub names: Vec<MoveName>,
}

/// Everything [`build`] reads.
#[derive(Clone, Copy, Debug)]
pub struct Parts<'a> {
    /// The settings.
    pub settings: &'a Settings,
    /// The game.
    pub game: &'a Game,
    /// The clock.
    pub clock: Option<&'a Clock>,
    /// When the current turn started.
    pub turn_started: i64,
    /// A pending undo request.
    pub undo_request: Option<Color>,
    /// The dead stones accepted, once counted.
    pub final_dead: &'a [Point],
    /// The log position.
    pub seq: u64,
    /// Now, ms since the epoch.
    pub now: i64,
}

fn stone_letter(c: Option<Color>) -> char {
    match c {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// The board as one letter per point, row by row from the top.
pub fn board_text(board: &Board) -> String {
    board
        .size()
        .points()
        .map(|p| stone_letter(board.get(p)))
        .collect()
}

/// The move number of the stone standing on each point.
fn stone_numbers(game: &Game) -> Vec<u32> {
    let size = game.size();
    let mut last = vec![0u32; size.num_points()];
    let index: Vec<Point> = size.points().collect();
    for (i, t) in game.turns().iter().enumerate() {
        if let Move::Play(p) = t.mv
            && let Some(k) = index.iter().position(|&q| q == p)
            && let Some(slot) = last.get_mut(k)
        {
            *slot = i as u32 + 1;
        }
    }
    let board = game.board();
    index
        .iter()
        .zip(last)
        .map(|(&p, n)| if board.get(p).is_some() { n } else { 0 })
        .collect()
}

fn scoring_name(s: Scoring) -> &'static str {
    match s {
        Scoring::AreaDameBoth => "area_dame_both",
        Scoring::AreaDameShared => "area_dame_shared",
        Scoring::AreaDameNobody => "area_dame_nobody",
        Scoring::Stones => "stones",
        Scoring::Territory => "territory",
        Scoring::Captures => "captures",
    }
}

/// The count's region map as one letter per point
/// ([`tengen_core::Mark::letter`]), row by row from the top. Dead stones
/// show as the region they leave; the view lists them apart.
fn count_map(map: &RegionMap) -> String {
    map.iter().map(|(_, m)| m.letter()).collect()
}

/// The count of `score`, read from `map`, the region map it was added up
/// from, with the quick count where the rules of `game` call for it.
pub(crate) fn count_view(game: &Game, map: &RegionMap, score: &Score) -> CountView {
    let quick_counted = game.rules().pass_stones == PassStones::Counted;
    CountView {
        scoring: scoring_name(score.scoring),
        map: count_map(map),
        stones: score.stones.into(),
        territory: score.regions.territory.into(),
        dame: score.regions.dame,
        seki: score.regions.seki.into(),
        seki_counted: game.rules().tax == Tax::None,
        captures: score.captures.into(),
        dead: score.dead.into(),
        komi: score.komi.to_string(),
        totals: pair_text(score.totals),
        margin: score.margin.to_string(),
        area_margin: score.area_margin.to_string(),
        chinese: ChineseView {
            black: score.chinese.black.to_string(),
            threshold: score.chinese.threshold.to_string(),
            margin_stones: score.chinese.margin_stones.to_string(),
        },
        quick: score.quick.filter(|_| quick_counted).map(|q| QuickView {
            held: q.held.into(),
            pass_stones: q.pass_stones.into(),
            remaining: q.remaining.map(|r| r.max(0).unsigned_abs()).into(),
            over: q.remaining.map(|r| r.min(0).unsigned_abs()).into(),
            komi: q.komi.to_string(),
            margin: q.margin.to_string(),
        }),
    }
}

fn result_view(o: &Outcome) -> ResultView {
    let by = match o {
        Outcome::Draw => "draw",
        Outcome::Void => "void",
        Outcome::Win { by, .. } => match by {
            WinBy::Score(_) => "score",
            WinBy::Resignation => "resignation",
            WinBy::Time => "time",
            WinBy::Forfeit => "forfeit",
            WinBy::CaptureGoal(_) | WinBy::Captures { .. } => "captures",
        },
    };
    ResultView {
        sgf: o.to_sgf(),
        winner: o.winner().map(Color::name),
        by,
        text: o.to_string(),
    }
}

/// The view of a game.
pub fn build(parts: Parts<'_>) -> View {
    let Parts {
        settings,
        game,
        clock,
        turn_started,
        undo_request,
        final_dead,
        seq,
        now,
    } = parts;
    let size = game.size();
    let phase = game.phase();
    let last = game.turns().last();
    let proposal = game.dead_proposal();
    let dead: Vec<Point> = match proposal {
        Some((_, d)) => d.to_vec(),
        None => final_dead.to_vec(),
    };
    // One region map: the board draws it and the count adds it up.
    let count = match phase {
        Phase::Over if game.final_score().is_none() => None,
        Phase::Over | Phase::Marking => {
            let map = game.region_map(&dead);
            Some(count_view(game, &map, &game.count(&map)))
        }
        Phase::Playing => None,
    };
    let running = (phase == Phase::Playing).then(|| game.to_move());
    View {
        id: settings.id.clone(),
        seq,
        grid: size.into(),
        rules: settings.preset.name().into(),
        komi: game.komi().to_string(),
        handicap: game.handicap(),
        opponent: settings.opponent,
        lesson: settings.learning.as_ref().map(|l| l.step),
        board: board_text(game.board()),
        numbers: stone_numbers(game),
        to_move: game.to_move().name(),
        phase: phase_name(phase),
        move_number: game.turns().len(),
        last: last.map(|t| move_vertex(t.mv).display(size).to_string()),
        last_color: last.map(|t| t.color.name()),
        captures: game.captures().into(),
        dead: dead.iter().map(|&p| Vertex::point_name(p, size)).collect(),
        proposer: proposal.map(|(c, _)| c.name()),
        undo_request: undo_request.map(Color::name),
        clock: clock.zip(settings.clock).map(|(c, control)| ClockView {
            control,
            sides: c.sides().map(SideView::from).into(),
            running: running.map(Color::name),
            left_ms: running
                .and_then(|r| c.allowance(r))
                .map_or(0, |a| a - (now - turn_started)),
        }),
        result: game.outcome().map(result_view),
        count,
        ko: ko_point(game).map(|p| Vertex::point_name(p, size)),
        atari: game
            .board()
            .size()
            .points()
            .filter(|&p| game.board().liberties(p) == 1)
            .map(|p| Vertex::point_name(p, size))
            .collect(),
        names: Vec::new(),
    }
}

/// The point the player to move may not retake by the ko rule, during play.
fn ko_point(game: &Game) -> Option<Point> {
    let p = game.board().ko_point()?;
    (game.phase() == Phase::Playing && game.check(game.to_move(), Move::Play(p)).is_err())
        .then_some(p)
}

/// The vertex of a move (a point or a pass).
pub fn move_vertex(mv: Move) -> Vertex {
    match mv {
        Move::Play(p) => Vertex::Point(p),
        Move::Pass => Vertex::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page draws what the count counts: a seki's eyes are marked
    /// apart from territory, in the same map the totals come from.
    #[test]
    fn the_count_map_marks_seki_eyes_apart_from_territory() {
        let board = Board::from_ascii(".X.O.\nXXXOO\n").unwrap();
        assert_eq!(count_map(&RegionMap::new(&board, &[])), "BxdoWxxxoo");
        let board = Board::from_ascii("..X.O.\n..X.O.\n").unwrap();
        assert_eq!(count_map(&RegionMap::new(&board, &[])), "bbXdOwbbXdOw");
    }
}
