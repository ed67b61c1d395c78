//! Data-driven rules tests: every case of every file of
//! `tests/data/rules/*.txt`, one file per preset (`nz.txt`, `chinese.txt`,
//! ...), each case citing the paragraph of the source text it comes from.
//!
//! # Format
//!
//! Lines starting with `#` are comments; blank lines are ignored. A case
//! starts with `case: <name>` and runs until the next `case:`. Then, in
//! this order:
//!
//! ```text
//! source: 003 FFG §8 diag. 12          the text and paragraph (required, non-empty)
//! rules: tromp-taylor suicide=multi-stone
//!                                      optional: a preset name (default: the file's
//!                                      preset) and overrides ko=simple|positional|
//!                                      situational|natural-situational,
//!                                      suicide=forbidden|multi-stone|allowed,
//!                                      end=two-passes|agreement
//! komi: 5.5                            optional: the rules' komi (even games)
//! size: 9  or  size: 7x5               the board, when there is no `board:` block
//! handicap: 3  or  handicap: 3 free C3 G7 C7
//!                                      with a board: the number of handicap stones
//!                                      among its black stones (`Setup::handicap`);
//!                                      without: `Game::with_handicap`, fixed or free
//! to_move: W                           with a board: who moves first (default B)
//! board:                               optional setup (`Game::from_setup`): indented rows
//!   X O . .                            of X (black), O (white), . (empty), top row first
//! ```
//!
//! Then the steps, run in order:
//!
//! ```text
//! moves: B D4, W pass, B C3 !ko, W A1 captures=2, B B1 suicided=3
//!     each move names the player to move. `!reason` says the move must be
//!     refused for exactly that reason (occupied, suicide, single-stone-suicide,
//!     ko, positional-superko, situational-superko, natural-situational-superko,
//!     game-over, wrong-phase) and leave the game unchanged (board, player to
//!     move, turns, captures, passes, phase); an unmarked move must be legal.
//!     `captures=N`: the mover's captures rose by N; `suicided=N`: N of the
//!     mover's own stones were removed (the opponent's captures rose by N).
//! dead: D4 E5   (or dead: none)       the player to move proposes these chains as
//!                                      dead and the opponent accepts
//! stop: B                              B proposes to stop play, W accepts
//! dispute: B                           B disputes the dead stones: play resumes
//! resign: B                            B resigns
//! undo                                 takes back the last turn
//! ```
//!
//! An end step may be followed by `!wrong-phase`, `!no-agreement`,
//! `!no-proposal`, `!not-a-stone` or `!nothing-to-undo`: it must fail so.
//!
//! Expectations (only the keys given are checked):
//!
//! ```text
//! expect board:                 indented rows, as `board:`
//! expect to_move: B
//! expect phase: playing | marking | over
//! expect captures: B=3 W=0      stones captured during play, by the capturer
//! expect passes: B=0 W=2
//! expect turns: 5
//! expect komi: 2.5              the game's komi (handicap compensation included)
//! expect handicap: 3
//! expect result: W+0.5          SGF RE form (B+R, B+C, 0, Void), or `none`
//! expect score: B=43 W=43.5     totals under the rules' method, komi included
//! expect margin: -0.5           Black's total minus White's
//! expect stones: B=33 W=27      stones on the board after dead ones are removed
//! expect territory: B=10 W=11   empty points of regions reaching only that colour
//! expect dame: 5                empty points of regions reaching both colours
//! expect seki: B=1 W=1          one-colour points counted as eyes in seki
//! expect removed: B=2 W=0       dead stones removed, by their colour
//! expect chinese: black=186 threshold=184.25 stones=1.75
//! expect quick: B=18 W=5 held-B=9 held-W=5 komi=7.5 margin=5.5   (or `none`)
//! ```
//!
//! In `quick`, B and W are the empty points left in each territory once the
//! opponent has filled it, held-B and held-W the stones each player puts in.
//! Score expectations read the score that ended the game when there is one,
//! else the count of the current position with nothing removed.
//!
//! The test also checks that every preset of [`Preset::ALL`] has its file,
//! named after [`Preset::name`], and that every case has a non-empty
//! `source:`; it reports every failing case (file, line, case, what
//! differed) before failing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::fs;
use std::path::{Path, PathBuf};
use tengen_core::{
    BoardSize, ByColor, Color, EndError, EndOfPlay, Game, HandicapStones, IllegalMove, KoRule,
    Move, Phase, Point, Points, Preset, Rules, Score, Setup, Suicide, Vertex,
};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules")
}

/// One `key: value` line, with the indented rows that follow it.
#[derive(Debug)]
struct Line {
    no: usize,
    key: String,
    value: String,
    block: Vec<String>,
}

#[derive(Debug)]
struct Case {
    name: String,
    line: usize,
    lines: Vec<Line>,
}

fn parse_file(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if raw.starts_with(char::is_whitespace) {
            let line = cases
                .last_mut()
                .and_then(|c| c.lines.last_mut())
                .filter(|l| l.value.is_empty())
                .ok_or_else(|| format!("line {no}: indented row outside a block"))?;
            line.block.push(trimmed.to_string());
            continue;
        }
        let (key, value) = match trimmed.split_once(':') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => match trimmed.split_once(char::is_whitespace) {
                Some((k, v)) => (k.to_string(), v.trim().to_string()),
                None => (trimmed.to_string(), String::new()),
            },
        };
        if key == "case" {
            if value.is_empty() {
                return Err(format!("line {no}: a case needs a name"));
            }
            cases.push(Case {
                name: value,
                line: no,
                lines: Vec::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .ok_or_else(|| format!("line {no}: {key:?} before the first case"))?;
        case.lines.push(Line {
            no,
            key,
            value,
            block: Vec::new(),
        });
    }
    Ok(cases)
}

fn color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("{text:?} is not a colour (B or W)")),
    }
}

fn points(text: &str) -> Result<Points, String> {
    text.parse::<Points>().map_err(|e| e.to_string())
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse::<T>()
        .map_err(|_| format!("{text:?} is not a number"))
}

fn point(text: &str, size: BoardSize) -> Result<Point, String> {
    match Vertex::parse(text, size).map_err(|e| e.to_string())? {
        Vertex::Point(p) => Ok(p),
        Vertex::Pass => Err(format!("{text:?}: a point is needed, not a pass")),
    }
}

fn point_list(text: &str, size: BoardSize) -> Result<Vec<Point>, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| point(s, size))
        .collect()
}

/// `B=3 W=0 margin=5.5` as pairs.
fn pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("{kv:?} is not key=value"))
        })
        .collect()
}

/// Checks every pair of `text` against `actual(key)`.
fn check_pairs(
    what: &str,
    text: &str,
    actual: impl Fn(&str) -> Option<String>,
    parse: impl Fn(&str, &str) -> Result<String, String>,
) -> Result<(), String> {
    let mut diffs = Vec::new();
    for (k, v) in pairs(text)? {
        let got = actual(&k).ok_or_else(|| format!("{what}: unknown key {k:?}"))?;
        let want = parse(&k, &v)?;
        if got != want {
            diffs.push(format!("{k}: expected {want}, got {got}"));
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("{what}: {}", diffs.join("; ")))
    }
}

/// Normalises an expected number the way the actual one is written.
fn as_points(_: &str, v: &str) -> Result<String, String> {
    points(v).map(|p| p.to_string())
}

/// The rows of a diagram: size, black points, white points.
fn diagram(rows: &[String]) -> Result<(BoardSize, Vec<Point>, Vec<Point>), String> {
    let cells: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let height = cells.len() as u32;
    let width = cells.first().map_or(0, |r| r.len() as u32);
    if cells.iter().any(|r| r.len() as u32 != width) {
        return Err("diagram rows have different lengths".to_string());
    }
    let size = BoardSize::new(width, height).map_err(|e| e.to_string())?;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in cells.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let p = size
                .point(x as u32, y as u32)
                .ok_or("diagram point off the board")?;
            match c {
                'X' => black.push(p),
                'O' => white.push(p),
                '.' => {}
                other => return Err(format!("diagram: unexpected {other:?}")),
            }
        }
    }
    Ok((size, black, white))
}

fn apply_override(rules: &mut Rules, kv: &str) -> Result<(), String> {
    let (k, v) = kv
        .split_once('=')
        .ok_or_else(|| format!("rules: {kv:?} is not key=value"))?;
    match (k, v) {
        ("ko", "simple") => rules.ko = KoRule::Simple,
        ("ko", "positional") => rules.ko = KoRule::Positional,
        ("ko", "situational") => rules.ko = KoRule::Situational,
        ("ko", "natural-situational") => rules.ko = KoRule::NaturalSituational,
        ("suicide", "forbidden") => rules.suicide = Suicide::Forbidden,
        ("suicide", "multi-stone") => rules.suicide = Suicide::MultiStone,
        ("suicide", "allowed") => rules.suicide = Suicide::Allowed,
        ("end", "two-passes") => rules.end = EndOfPlay::TwoPasses,
        ("end", "agreement") => rules.end = EndOfPlay::Agreement,
        _ => return Err(format!("rules: unknown override {kv:?}")),
    }
    Ok(())
}

fn illegal_name(r: IllegalMove) -> &'static str {
    match r {
        IllegalMove::OffBoard => "off-board",
        IllegalMove::Occupied => "occupied",
        IllegalMove::Suicide => "suicide",
        IllegalMove::SingleStoneSuicide => "single-stone-suicide",
        IllegalMove::Ko => "ko",
        IllegalMove::PositionalSuperko => "positional-superko",
        IllegalMove::SituationalSuperko => "situational-superko",
        IllegalMove::NaturalSituationalSuperko => "natural-situational-superko",
        IllegalMove::GameOver => "game-over",
        IllegalMove::WrongPhase => "wrong-phase",
    }
}

fn end_error_name(e: EndError) -> &'static str {
    match e {
        EndError::WrongPhase(_) => "wrong-phase",
        EndError::NotAStone => "not-a-stone",
        EndError::NoProposal => "no-proposal",
        EndError::NoAgreement => "no-agreement",
        EndError::NothingToUndo => "nothing-to-undo",
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Playing => "playing",
        Phase::Marking => "marking",
        Phase::Over => "over",
    }
}

/// Splits `text !reason` into the text and the expected failure, if any.
fn expected_failure(text: &str) -> (&str, Option<&str>) {
    match text.split_once('!') {
        Some((head, reason)) => (head.trim(), Some(reason.trim())),
        None => (text.trim(), None),
    }
}

fn end_step(result: Result<(), EndError>, expected: Option<&str>) -> Result<(), String> {
    match (result, expected) {
        (Ok(()), None) => Ok(()),
        (Ok(()), Some(want)) => Err(format!("expected !{want}, but it succeeded")),
        (Err(e), None) => Err(format!("refused: {e}")),
        (Err(e), Some(want)) if end_error_name(e) == want => Ok(()),
        (Err(e), Some(want)) => Err(format!(
            "expected !{want}, got !{} ({e})",
            end_error_name(e)
        )),
    }
}

/// What must not change when a move is refused.
#[derive(PartialEq)]
struct Snapshot {
    board: tengen_core::Board,
    to_move: Color,
    turns: usize,
    captures: ByColor<u32>,
    passes: ByColor<u32>,
    phase: Phase,
}

impl Snapshot {
    fn of(g: &Game) -> Snapshot {
        Snapshot {
            board: g.board().clone(),
            to_move: g.to_move(),
            turns: g.turns().len(),
            captures: g.captures(),
            passes: g.passes(),
            phase: g.phase(),
        }
    }
}

fn play_move(game: &mut Game, item: &str) -> Result<(), String> {
    let mut words = item.split_whitespace();
    let who = color(words.next().ok_or("empty move")?)?;
    let where_ = words.next().ok_or_else(|| format!("{item:?}: no vertex"))?;
    let mv = match Vertex::parse(where_, game.size()).map_err(|e| e.to_string())? {
        Vertex::Pass => Move::Pass,
        Vertex::Point(p) => Move::Play(p),
    };
    let (mut refused, mut captures, mut suicided) = (None, None, None);
    for w in words {
        if let Some(r) = w.strip_prefix('!') {
            refused = Some(r);
        } else if let Some(n) = w.strip_prefix("captures=") {
            captures = Some(number::<u32>(n)?);
        } else if let Some(n) = w.strip_prefix("suicided=") {
            suicided = Some(number::<u32>(n)?);
        } else {
            return Err(format!("{item:?}: unknown annotation {w:?}"));
        }
    }
    if game.to_move() != who {
        return Err(format!(
            "{item:?}: it is {}'s turn, not {who}'s",
            game.to_move()
        ));
    }
    let before = Snapshot::of(game);
    let result = game.play(mv);
    match (result, refused) {
        (Ok(()), Some(want)) => Err(format!("{item:?}: expected !{want}, but it was played")),
        (Err(e), None) => Err(format!("{item:?}: refused as !{}", illegal_name(e.reason))),
        (Err(e), Some(want)) => {
            if illegal_name(e.reason) != want {
                return Err(format!(
                    "{item:?}: expected !{want}, refused as !{}",
                    illegal_name(e.reason)
                ));
            }
            if Snapshot::of(game) != before {
                return Err(format!("{item:?}: refused, but the game changed"));
            }
            Ok(())
        }
        (Ok(()), None) => {
            let gained = |c: Color| game.captures()[c] - before.captures[c];
            if let Some(n) = captures {
                let got = gained(who);
                if got != n {
                    return Err(format!("{item:?}: expected captures={n}, got {got}"));
                }
            }
            if let Some(n) = suicided {
                let got = gained(who.opponent());
                if got != n {
                    return Err(format!("{item:?}: expected suicided={n}, got {got}"));
                }
            }
            Ok(())
        }
    }
}

fn by_color_pairs<T: ToString + Copy>(v: ByColor<T>) -> impl Fn(&str) -> Option<String> {
    move |k| match k {
        "B" => Some(v.black.to_string()),
        "W" => Some(v.white.to_string()),
        _ => None,
    }
}

fn exact<T: std::str::FromStr + ToString>(_: &str, v: &str) -> Result<String, String> {
    number::<T>(v).map(|n| n.to_string())
}

/// One expected value against the one found.
fn one(what: &str, got: String, want: String) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: expected {want}, got {got}"))
    }
}

fn check_score(game: &Game, key: &str, value: &str) -> Result<(), String> {
    let score: Score = game
        .final_score()
        .cloned()
        .unwrap_or_else(|| game.score(&[]));
    match key {
        "score" => check_pairs("score", value, by_color_pairs(score.totals), as_points),
        "margin" => one(
            "margin",
            score.margin.to_string(),
            points(value)?.to_string(),
        ),
        "stones" => check_pairs("stones", value, by_color_pairs(score.stones), exact::<u32>),
        "territory" => check_pairs(
            "territory",
            value,
            by_color_pairs(score.regions.territory),
            exact::<u32>,
        ),
        "seki" => check_pairs(
            "seki",
            value,
            by_color_pairs(score.regions.seki),
            exact::<u32>,
        ),
        "dame" => one(
            "dame",
            score.regions.dame.to_string(),
            number::<u32>(value)?.to_string(),
        ),
        "removed" => check_pairs("removed", value, by_color_pairs(score.dead), exact::<u32>),
        "chinese" => {
            let c = score.chinese;
            check_pairs(
                "chinese",
                value,
                |k| match k {
                    "black" => Some(c.black.to_string()),
                    "threshold" => Some(c.threshold.to_string()),
                    "stones" => Some(c.margin_stones.to_string()),
                    _ => None,
                },
                as_points,
            )
        }
        "quick" => match (score.quick, value) {
            (None, "none") => Ok(()),
            (Some(q), "none") => Err(format!("quick: expected none, got {q:?}")),
            (None, _) => Err("quick: expected a quick count, got none".to_string()),
            (Some(q), _) => check_pairs(
                "quick",
                value,
                |k| match k {
                    "B" => Some(q.remaining.black.to_string()),
                    "W" => Some(q.remaining.white.to_string()),
                    "held-B" => Some(q.held.black.to_string()),
                    "held-W" => Some(q.held.white.to_string()),
                    "komi" => Some(q.komi.to_string()),
                    "margin" => Some(q.margin.to_string()),
                    _ => None,
                },
                |k, v| match k {
                    "komi" | "margin" => as_points(k, v),
                    _ => exact::<i32>(k, v),
                },
            ),
        },
        _ => Err(format!("unknown expectation {key:?}")),
    }
}

fn check(game: &Game, line: &Line) -> Result<(), String> {
    let key = line.key.trim_start_matches("expect").trim();
    let value = line.value.as_str();
    match key {
        "board" => {
            let (size, black, white) = diagram(&line.block)?;
            if size != game.size() {
                return Err(format!("board: expected size {size}, got {}", game.size()));
            }
            let want: Vec<Option<Color>> = size
                .points()
                .map(|p| {
                    if black.contains(&p) {
                        Some(Color::Black)
                    } else if white.contains(&p) {
                        Some(Color::White)
                    } else {
                        None
                    }
                })
                .collect();
            let got: Vec<Option<Color>> = size.points().map(|p| game.board().get(p)).collect();
            if got != want {
                return Err(format!(
                    "board: expected\n{}got\n{}",
                    line.block.join("\n") + "\n",
                    game.board()
                ));
            }
            Ok(())
        }
        "to_move" => one(
            "to_move",
            game.to_move().to_string(),
            color(value)?.to_string(),
        ),
        "phase" => one(
            "phase",
            phase_name(game.phase()).to_string(),
            value.to_string(),
        ),
        "captures" => check_pairs(
            "captures",
            value,
            by_color_pairs(game.captures()),
            exact::<u32>,
        ),
        "passes" => check_pairs("passes", value, by_color_pairs(game.passes()), exact::<u32>),
        "turns" => one(
            "turns",
            game.turns().len().to_string(),
            number::<usize>(value)?.to_string(),
        ),
        "komi" => one("komi", game.komi().to_string(), points(value)?.to_string()),
        "handicap" => one(
            "handicap",
            game.handicap().to_string(),
            number::<u32>(value)?.to_string(),
        ),
        "result" => one(
            "result",
            game.outcome()
                .map_or_else(|| "none".to_string(), |o| o.to_sgf()),
            value.to_string(),
        ),
        _ => check_score(game, key, value),
    }
}

/// Builds the game from the header lines; returns it and the index of the
/// first step.
fn build(preset: Preset, case: &Case) -> Result<(Game, usize), String> {
    let mut rules = preset.rules();
    let (mut size, mut komi, mut handicap, mut to_move, mut board) = (None, None, None, None, None);
    let mut first_step = case.lines.len();
    for (i, l) in case.lines.iter().enumerate() {
        let at = |e: String| format!("line {}: {e}", l.no);
        match l.key.as_str() {
            "source" => {}
            "rules" => {
                let mut words = l.value.split_whitespace();
                let name = words.next().ok_or_else(|| at("rules: empty".into()))?;
                rules = Preset::from_name(name)
                    .ok_or_else(|| at(format!("unknown preset {name:?}")))?
                    .rules();
                for kv in words {
                    apply_override(&mut rules, kv).map_err(at)?;
                }
            }
            "komi" => komi = Some(points(&l.value).map_err(at)?),
            "size" => {
                let (w, h) = l.value.split_once('x').unwrap_or((&l.value, &l.value));
                let s = BoardSize::new(number(w).map_err(at)?, number(h).map_err(at)?)
                    .map_err(|e| at(e.to_string()))?;
                size = Some(s);
            }
            "handicap" => handicap = Some(l.value.clone()),
            "to_move" => to_move = Some(color(&l.value).map_err(at)?),
            "board" => board = Some(diagram(&l.block).map_err(at)?),
            _ => {
                first_step = i;
                break;
            }
        }
    }
    if let Some(k) = komi {
        rules.komi = k;
    }
    let game = match board {
        Some((size, black, white)) => {
            let n = match &handicap {
                Some(h) => number::<u32>(h)?,
                None => 0,
            };
            let setup = Setup {
                size,
                black,
                white,
                to_move: to_move.unwrap_or(Color::Black),
                handicap: n,
            };
            Game::from_setup(rules, &setup).map_err(|e| format!("setup refused: {e}"))?
        }
        None => {
            let size = size.ok_or("a case needs `size:` or `board:`")?;
            if to_move.is_some() {
                return Err("`to_move:` needs a `board:`".to_string());
            }
            match &handicap {
                None => Game::new(rules, size),
                Some(h) => {
                    let mut words = h.split_whitespace();
                    let n = number::<u32>(words.next().ok_or("handicap: empty")?)?;
                    let stones = match words.next() {
                        None | Some("fixed") => HandicapStones::Fixed,
                        Some("free") => HandicapStones::Free(point_list(
                            &words.collect::<Vec<_>>().join(" "),
                            size,
                        )?),
                        Some(other) => return Err(format!("handicap: unknown {other:?}")),
                    };
                    Game::with_handicap(rules, size, n, stones)
                        .map_err(|e| format!("handicap refused: {e}"))?
                }
            }
        }
    };
    Ok((game, first_step))
}

fn run_case(preset: Preset, case: &Case) -> Result<(), String> {
    let (mut game, first) = build(preset, case)?;
    for l in &case.lines[first..] {
        let at = |e: String| format!("line {}: {e}", l.no);
        let (value, refused) = expected_failure(&l.value);
        let result = match l.key.as_str() {
            "moves" => l
                .value
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .try_for_each(|m| play_move(&mut game, m)),
            "dead" => {
                let dead = point_list(value, game.size());
                match dead {
                    Err(e) => Err(e),
                    Ok(dead) => {
                        let by = game.to_move();
                        let r = game
                            .propose_dead(by, &dead)
                            .and_then(|()| game.accept_dead(by.opponent()));
                        end_step(r, refused)
                    }
                }
            }
            "stop" => color(value).and_then(|by| {
                let r = game
                    .propose_stop(by)
                    .and_then(|()| game.accept_stop(by.opponent()));
                end_step(r, refused)
            }),
            "dispute" => color(value).and_then(|by| end_step(game.dispute(by), refused)),
            "resign" => color(value).and_then(|by| end_step(game.resign(by), refused)),
            "undo" => end_step(game.undo(), refused),
            k if k.starts_with("expect") => check(&game, l),
            "source" | "rules" | "komi" | "size" | "handicap" | "to_move" | "board" => {
                Err(format!("{:?} must come before the first step", l.key))
            }
            other => Err(format!("unknown line {other:?}")),
        };
        result.map_err(at)?;
    }
    Ok(())
}

fn source_of(case: &Case) -> Option<&str> {
    case.lines
        .iter()
        .find(|l| l.key == "source")
        .map(|l| l.value.as_str())
        .filter(|s| !s.is_empty())
}

#[test]
fn every_rules_case_holds() {
    let dir = data_dir();
    let mut failures = Vec::new();
    let mut files = Vec::new();
    for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "txt") {
            files.push(path);
        }
    }
    files.sort();
    for preset in Preset::ALL {
        if !files
            .iter()
            .any(|f| f.file_stem().is_some_and(|s| s == preset.name()))
        {
            failures.push(format!(
                "{}.txt: missing (preset {preset:?})",
                preset.name()
            ));
        }
    }
    let mut total = 0;
    for path in &files {
        let file = path
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let Some(preset) = Preset::ALL.into_iter().find(|p| p.name() == stem) else {
            failures.push(format!("{file}: not the name of a preset"));
            continue;
        };
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let cases = match parse_file(&text) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        if cases.is_empty() {
            failures.push(format!("{file}: no case"));
        }
        let mut names = Vec::new();
        for case in &cases {
            total += 1;
            let here = format!("{file}:{} case {:?}", case.line, case.name);
            if names.contains(&case.name) {
                failures.push(format!("{here}: a second case of this name"));
            }
            names.push(case.name.clone());
            if source_of(case).is_none() {
                failures.push(format!("{here}: no citation (`source:`)"));
            }
            if let Err(e) = run_case(preset, case) {
                failures.push(format!("{here}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} rules cases failed:\n\n{}\n",
        failures.len(),
        failures.join("\n\n")
    );
}
