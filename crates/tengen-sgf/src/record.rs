//! From an SGF game tree to a [`Game`] and back: the Go meaning of the
//! properties (SZ, KM, HA, AB/AW/AE, PL, B/W, RU, RE), strict and tolerant
//! replay, loading a record's first game from a file or an upload
//! ([`load_main_line`]), and writing a game as FF\[4\]. Markup, comments
//! and the other game information stay in the tree: a [`Game`] holds none
//! of them.

use crate::{
    Collection, GameTree, Node, NodeId, NotSgf, ParseError, ParseOptions, Property, Value, Warning,
};
use std::fmt;
use std::path::Path;
use tengen_core::{
    BoardSize, Color, Game, Mark, Move, Outcome, Phase, Point, Points, Preset, Rules, Setup,
    TimeControl, WinBy,
};

/// How strictly moves are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// Every move must be legal under the record's rules; replay of a line
    /// stops at the first illegal move.
    Strict,
    /// Moves the rules forbid (suicide, repetition) are played anyway and
    /// reported, for records played under other rules.
    Tolerant,
}

/// What the caller imposes on the record.
#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions {
    /// Strict or tolerant.
    pub mode: ReplayMode,
    /// Rules replacing the record's `RU`.
    pub rules: Option<Rules>,
    /// Komi replacing the record's `KM`.
    pub komi: Option<Points>,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            mode: ReplayMode::Strict,
            rules: None,
            komi: None,
        }
    }
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something read differently from what is written, or worth knowing
    /// (a komi written x100, an unknown rules name).
    Note,
    /// A move the rules forbid, played anyway in tolerant replay.
    Deviation,
    /// A move the rules forbid (strict replay), or a record that cannot be
    /// replayed (a point off the board, a stone on a stone).
    Error,
}

/// One finding about a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How serious.
    pub severity: Severity,
    /// The move number it concerns (0 before the first move).
    pub move_number: usize,
    /// The node it concerns.
    pub node: NodeId,
    /// A short identifier of its kind, stable across versions and wordings
    /// (`record.komi`, `rules.illegal-move`...), for tools that sort
    /// problems.
    pub code: &'static str,
    /// The property it is about (`KM`, `B`, `AB`...), on its node or, for
    /// the game information, on the root.
    pub property: Option<&'static str>,
    /// What and why, in words.
    pub message: String,
    /// The message as a key of tengen's catalogues of words and the values
    /// of its placeholders (`record.komi-scaled`, `text` = `375`, `komi` =
    /// `7.5`), so that a page in another language says it in its own;
    /// none where only `message` exists (boxed: findings travel in
    /// `Result`s).
    pub wording: Option<Box<Wording>>,
}

/// A finding's message as a catalogue key and its placeholders' values:
/// `{text}` is the property's text as the record writes it, the numbers
/// are values the reader's language writes its own way (`7,5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wording {
    /// The key (`record.komi-scaled`).
    pub key: &'static str,
    /// The property's text, as written.
    pub text: String,
    /// The numbers by placeholder name (`komi`).
    pub numbers: Vec<(&'static str, String)>,
}

impl Finding {
    /// The finding with its message's wording.
    #[must_use]
    fn worded(
        mut self,
        key: &'static str,
        text: &str,
        numbers: &[(&'static str, Points)],
    ) -> Finding {
        self.wording = Some(Box::new(Wording {
            key,
            text: text.to_owned(),
            numbers: numbers.iter().map(|(n, v)| (*n, v.to_string())).collect(),
        }));
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What the record says its result was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// A result tengen can compare exactly.
    Outcome(Outcome),
    /// The winner, with a reason tengen does not model (`B+`, `W+J`, `B+0.03`).
    Winner(Color, String),
    /// `?`, or unreadable.
    Unknown(String),
}

impl RecordedResult {
    /// Reads an `RE` value.
    pub fn parse(text: &str) -> RecordedResult {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        match lower.as_str() {
            "0" | "draw" | "jigo" | "d" => return RecordedResult::Outcome(Outcome::Draw),
            "void" => return RecordedResult::Outcome(Outcome::Void),
            _ => {}
        }
        let winner = match lower.as_bytes().first() {
            Some(b'b') => Color::Black,
            Some(b'w') => Color::White,
            _ => return RecordedResult::Unknown(t.to_string()),
        };
        let rest = lower[1..].trim_start_matches('+').trim();
        let by = match rest {
            "r" | "resign" | "resignation" => Some(WinBy::Resignation),
            "t" | "time" => Some(WinBy::Time),
            "f" | "forfeit" => Some(WinBy::Forfeit),
            "c" => Some(WinBy::CaptureGoal(0)),
            _ => rest
                .parse::<Points>()
                .ok()
                .filter(|p| *p > Points::ZERO)
                .map(WinBy::Score),
        };
        match by {
            Some(by) => RecordedResult::Outcome(Outcome::Win { winner, by }),
            None => RecordedResult::Winner(winner, t.to_string()),
        }
    }

    /// A win on points as a margin in points (Black's lead, negative when
    /// White wins), for an area count under `komi`. Chinese records (Fox,
    /// yenw) write area results in stones (`B+0.75` = 1.5 points). Black's
    /// area minus White's is a whole number, so a margin plus komi is whole:
    /// the unit is the one that makes it so, points first. `None` for other
    /// results and when neither unit fits (the result cannot arise under the
    /// recorded komi).
    pub fn area_margin(&self, komi: Points) -> Option<Points> {
        self.signed_margins()?
            .into_iter()
            .find(|m| (*m + komi).is_whole())
    }

    /// Black's lead (negative when White wins) for a win on points, as
    /// written and doubled: the two units a record's points may be in
    /// (Chinese results are written in stones). `None` for other results.
    pub fn signed_margins(&self) -> Option<[Points; 2]> {
        let RecordedResult::Outcome(Outcome::Win {
            winner,
            by: WinBy::Score(by),
        }) = self
        else {
            return None;
        };
        let signed = match winner {
            Color::Black => *by,
            Color::White => -*by,
        };
        Some([signed, signed.double()])
    }

    /// Whether `outcome` says the same thing (a capture win matches any
    /// capture win; a bare winner matches a win of that colour).
    pub fn agrees_with(&self, outcome: &Outcome) -> bool {
        match (self, outcome) {
            (
                RecordedResult::Outcome(Outcome::Win {
                    winner: a,
                    by: WinBy::CaptureGoal(_) | WinBy::Captures { .. },
                }),
                o,
            ) => o.winner() == Some(*a),
            (RecordedResult::Outcome(r), o) => r.to_sgf() == o.to_sgf(),
            (RecordedResult::Winner(c, _), o) => o.winner() == Some(*c),
            (RecordedResult::Unknown(_), _) => true,
        }
    }
}

/// The game information of a record's root, read into tengen's terms.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// Board size (`SZ`, default 19).
    pub size: BoardSize,
    /// The rules replayed under.
    pub rules: Rules,
    /// `RU` as written.
    pub rules_text: Option<String>,
    /// White's komi, handicap compensation included.
    pub komi: Points,
    /// Handicap stones (`HA`, 0 for an even game).
    pub handicap: u32,
    /// `RE` as written.
    pub result_text: Option<String>,
    /// `PB`, `PW`, `DT`, `GN`.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Date.
    pub date: Option<String>,
    /// The time control (`TM`, `OT`; [`TimeControl::None`] when the record
    /// states none that reads).
    pub time: TimeControl,
}

impl RecordInfo {
    /// The information a game carries itself (size, rules, komi,
    /// handicap), for writing it: no names, date or recorded result.
    pub fn of(game: &Game) -> RecordInfo {
        RecordInfo {
            size: game.size(),
            rules: *game.rules(),
            rules_text: None,
            komi: game.komi(),
            handicap: game.handicap(),
            result_text: None,
            black: None,
            white: None,
            date: None,
            time: TimeControl::None,
        }
    }

    /// `RE` read.
    pub fn recorded_result(&self) -> Option<RecordedResult> {
        self.result_text.as_deref().map(RecordedResult::parse)
    }
}

/// The outcome of replaying one line of a record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the root node (its setup, handicap and komi), before
    /// the line's first move: where every variation starts.
    pub start: Game,
    /// The game at the end of the line (or at the first illegal move in
    /// strict replay).
    pub game: Game,
    /// What was found on the way.
    pub findings: Vec<Finding>,
    /// Moves replayed.
    pub moves: usize,
    /// Whether the whole line was replayed.
    pub complete: bool,
    /// Moves the line records after the game ended (a third pass after the
    /// two that ended a game counted at once, moves after a capture goal or
    /// a void repetition): not replayed, `game` is where the game ended.
    pub after_end: Option<AfterEnd>,
}

/// The moves of a line that come after the end of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterEnd {
    /// The node of the first of them, which its finding names.
    pub node: NodeId,
    /// The number of the first.
    pub first: usize,
    /// How many moves follow the end in the line.
    pub moves: usize,
}

/// The `RU` text a preset is written as, in the spellings other programs read.
pub fn ru_name(rules: &Rules) -> String {
    match rules.preset() {
        Some(Preset::NewZealand) => "NZ".into(),
        Some(Preset::Chinese) => "Chinese".into(),
        Some(Preset::Ffg) => "French".into(),
        Some(Preset::Japanese) => "Japanese".into(),
        Some(Preset::Aga) => "AGA".into(),
        Some(Preset::TrompTaylor) => "Tromp-Taylor".into(),
        Some(p) => p.name().into(),
        None => rules.katago_string(),
    }
}

fn simple(node: &Node, ident: &str) -> Option<String> {
    node.value(ident)
        .map(Value::simple_text)
        .map(|s| s.trim().to_string())
}

/// Reads `KM`, with the fixes real files need: Fox writes komi x100
/// (`KM[650]`) or as Chinese stones x100 (`KM[375]` = 3.75 stones = 7.5
/// points); GoGoD writes Chinese komi in stones (`KM[3.75]`).
fn read_komi(
    text: &str,
    rules: &Rules,
    root: NodeId,
    findings: &mut Vec<Finding>,
) -> Option<Points> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let mut note = |m: String, key: &'static str, komi: &[(&'static str, Points)]| {
        let f = finding(Severity::Note, ("record.komi", Some("KM")), 0, root, m);
        findings.push(f.worded(key, t, komi));
    };
    // Long decimals (`7.500000`) read exactly; others are refused.
    let komi = match t.parse::<Points>() {
        Ok(k) => k,
        Err(_) => match t.parse::<f64>() {
            Ok(f) if f.is_finite() && f.abs() < 10_000.0 => {
                let q = (f * 4.0).round() as i32;
                note(
                    format!(
                        "KM[{t}] is not a whole number of quarter points: read as {}",
                        Points::quarters(q)
                    ),
                    "record.komi-quarters",
                    &[("komi", Points::quarters(q))],
                );
                Points::quarters(q)
            }
            _ => {
                note(
                    format!("KM[{t}] is not a number: komi of the rules used"),
                    "record.komi-unreadable",
                    &[],
                );
                return None;
            }
        },
    };
    let q = komi.in_quarters();
    if q.abs() >= 400 && q % 100 == 0 {
        // 100 points or more: a scaled komi.
        let hundredths = q / 4;
        let fixed = if hundredths.abs() <= 450 {
            Points::quarters(hundredths * 4 / 50)
        } else {
            Points::quarters(hundredths * 4 / 100)
        };
        note(
            format!("KM[{t}] read as komi {fixed} (komi written x100, or as Chinese stones x100)"),
            "record.komi-scaled",
            &[("komi", fixed)],
        );
        return Some(fixed);
    }
    if !komi.is_whole_halves() && rules.scoring == tengen_core::Scoring::AreaDameShared {
        let fixed = komi.double();
        note(
            format!("KM[{t}] read as {fixed} points (Chinese komi written in stones)"),
            "record.komi-stones",
            &[("komi", fixed)],
        );
        return Some(fixed);
    }
    Some(komi)
}

/// Reads the root's game information.
pub fn read_info(
    tree: &GameTree,
    options: &ReplayOptions,
) -> Result<(RecordInfo, Vec<Finding>), Finding> {
    let root = tree.node(tree.root());
    let mut findings = Vec::new();
    let error = |kind: Kind, m: String| finding(Severity::Error, kind, 0, tree.root(), m);
    // GM[1] is Go; other numbers are other games (SGFC refuses them too).
    if let Some(gm) = simple(root, "GM")
        && !gm.is_empty()
        && gm != "1"
    {
        return Err(error(
            ("record.not-go", Some("GM")),
            format!("GM[{gm}]: not a Go game (Go records are GM[1])"),
        ));
    }
    let size = match root.value("SZ") {
        None => BoardSize::STANDARD,
        Some(v) => {
            let (w, h) = match v.composed() {
                Some((a, b)) => (a, b),
                None => (v.simple_text(), v.simple_text()),
            };
            let (Ok(w), Ok(h)) = (w.trim().parse::<u32>(), h.trim().parse::<u32>()) else {
                return Err(error(SIZE, format!("SZ[{}] is not a board size", v.raw())));
            };
            BoardSize::new(w, h).map_err(|e| error(SIZE, format!("SZ[{}]: {e}", v.raw())))?
        }
    };
    let rules_text = simple(root, "RU").filter(|s| !s.is_empty());
    let rules = match (options.rules, &rules_text) {
        (Some(r), _) => r,
        (None, Some(text)) => match text.parse::<Rules>() {
            Ok(r) => r,
            Err(_) => {
                findings.push(
                    finding(
                        Severity::Note,
                        ("record.unknown-rules", Some("RU")),
                        0,
                        tree.root(),
                        format!("unknown rules RU[{text}]: replayed under japanese"),
                    )
                    .worded("record.unknown-rules", text, &[]),
                );
                Preset::Japanese.rules()
            }
        },
        (None, None) => Preset::Japanese.rules(),
    };
    let handicap = match simple(root, "HA") {
        None => 0,
        Some(t) => match t.parse::<u32>() {
            Ok(n) => n,
            Err(_) => {
                findings.push(
                    finding(
                        Severity::Note,
                        HANDICAP,
                        0,
                        tree.root(),
                        format!("HA[{t}] is not a number: read as an even game"),
                    )
                    .worded("record.handicap-unreadable", &t, &[]),
                );
                0
            }
        },
    };
    let recorded_komi = match options.komi {
        Some(k) => Some(k),
        None => simple(root, "KM").and_then(|t| read_komi(&t, &rules, tree.root(), &mut findings)),
    };
    // The game's own komi when the record states none; else the record's,
    // with the rules' compensation per handicap stone on top.
    let empty = Setup {
        size,
        black: Vec::new(),
        white: Vec::new(),
        to_move: Color::Black,
        handicap,
    };
    let mut start = Game::from_setup(rules, &empty).map_err(|e| error(HANDICAP, e.to_string()))?;
    if let Some(k) = recorded_komi {
        start.set_stated_komi(k);
    }
    let komi = start.komi();
    let info = RecordInfo {
        size,
        rules,
        rules_text,
        komi,
        handicap,
        result_text: simple(root, "RE").filter(|s| !s.is_empty()),
        black: simple(root, "PB"),
        white: simple(root, "PW"),
        date: simple(root, "DT"),
        time: crate::time::read_time_control(
            simple(root, "TM").as_deref(),
            simple(root, "OT").as_deref(),
        ),
    };
    Ok((info, findings))
}

/// One line being replayed.
#[derive(Clone, Debug)]
struct Line {
    game: Game,
    moves: usize,
    stopped: bool,
}

/// A finding's code and property.
type Kind = (&'static str, Option<&'static str>);

/// The board size of the root.
const SIZE: Kind = ("record.board-size", Some("SZ"));
/// The handicap of the root.
const HANDICAP: Kind = ("record.handicap", Some("HA"));

fn finding(
    severity: Severity,
    (code, property): Kind,
    move_number: usize,
    node: NodeId,
    message: String,
) -> Finding {
    Finding {
        severity,
        move_number,
        node,
        code,
        property,
        message,
        wording: None,
    }
}

/// The first setup property of a node (`AB`, `AW`, `AE`), for a finding
/// about its setup.
fn setup_property(node: &Node) -> Option<&'static str> {
    ["AB", "AW", "AE"]
        .into_iter()
        .find(|i| node.get(i).is_some())
}

/// The move property of a colour.
fn move_property(color: Color) -> Option<&'static str> {
    Some(match color {
        Color::Black => "B",
        Color::White => "W",
    })
}

/// Points of a point-list property, checked against the board.
fn points_of(
    node: &Node,
    ident: &'static str,
    size: BoardSize,
    id: NodeId,
    out: &mut Vec<Finding>,
) -> Vec<Point> {
    let Some(prop) = node.get(ident) else {
        return Vec::new();
    };
    let mut points = Vec::new();
    for (x, y) in crate::expand_point_list(prop.values()) {
        match size.point(u32::from(x), u32::from(y)) {
            Some(p) => points.push(p),
            None => out.push(finding(
                Severity::Error,
                ("record.setup-off-board", Some(ident)),
                0,
                id,
                format!("{ident} point {} is off the {size} board", point_text(x, y)),
            )),
        }
    }
    points
}

fn point_text(x: u8, y: u8) -> String {
    let letter = |c: u8| {
        if c < 26 {
            (b'a' + c) as char
        } else {
            (b'A' + c - 26) as char
        }
    };
    format!("{}{}", letter(x), letter(y))
}

/// The move of a node (`B` or `W`), if any, with the property's raw value.
fn node_move(
    node: &Node,
    size: BoardSize,
    id: NodeId,
    move_number: usize,
) -> Result<Option<(Color, Move, &str)>, Finding> {
    let (color, prop): (Color, &Property) = match (node.get("B"), node.get("W")) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => {
            return Err(finding(
                Severity::Error,
                ("record.two-moves", Some("B")),
                move_number,
                id,
                "a node holds both a black and a white move".into(),
            ));
        }
        (Some(p), None) => (Color::Black, p),
        (None, Some(p)) => (Color::White, p),
    };
    let raw = prop.first().map(Value::raw).unwrap_or("").trim();
    if raw.is_empty() || (raw == "tt" && size.width() <= 19 && size.height() <= 19) {
        return Ok(Some((color, Move::Pass, raw)));
    }
    let point = crate::parse_point(raw).and_then(|(x, y)| size.point(u32::from(x), u32::from(y)));
    match point {
        Some(p) => Ok(Some((color, Move::Play(p), raw))),
        None => Err(finding(
            Severity::Error,
            ("record.move-off-board", move_property(color)),
            move_number,
            id,
            format!(
                "move {move_number} {}[{raw}] is not a point of the {size} board",
                color.letter()
            ),
        )),
    }
}

struct Replayer<'a> {
    tree: &'a GameTree,
    info: &'a RecordInfo,
    mode: ReplayMode,
    findings: Vec<Finding>,
    moves: usize,
    /// The first node met with a move after the end of its game, and that
    /// move's number.
    after_end: Option<(NodeId, usize)>,
}

impl<'a> Replayer<'a> {
    /// A replayer for `tree` and the empty line it starts from; `info` is
    /// what [`read_info`] gave (its notes become the first findings).
    fn start(
        tree: &'a GameTree,
        info: &'a (RecordInfo, Vec<Finding>),
        options: &ReplayOptions,
    ) -> Result<(Replayer<'a>, Line), Finding> {
        let r = Replayer {
            tree,
            info: &info.0,
            mode: options.mode,
            findings: info.1.clone(),
            moves: 0,
            after_end: None,
        };
        let game = r
            .start_game(&[], &[], Color::Black)
            .map_err(|e| finding(Severity::Error, HANDICAP, 0, tree.root(), e))?;
        let line = Line {
            game,
            moves: 0,
            stopped: false,
        };
        Ok((r, line))
    }

    fn start_game(&self, black: &[Point], white: &[Point], to_move: Color) -> Result<Game, String> {
        let setup = Setup {
            size: self.info.size,
            black: black.to_vec(),
            white: white.to_vec(),
            to_move,
            handicap: self.info.handicap,
        };
        let mut game = Game::from_setup(self.info.rules, &setup).map_err(|e| e.to_string())?;
        game.set_komi(self.info.komi);
        Ok(game)
    }

    /// Whether the main line from `from` on replays strictly from `game`
    /// (the same replay, on a copy, with its findings thrown away).
    fn main_line_fits(&self, game: Game, from: NodeId) -> bool {
        let mut probe = Replayer {
            tree: self.tree,
            info: self.info,
            mode: ReplayMode::Strict,
            findings: Vec::new(),
            moves: 0,
            after_end: None,
        };
        let mut line = Line {
            game,
            moves: 0,
            stopped: false,
        };
        let mut at = Some(from);
        while let Some(id) = at.filter(|_| !line.stopped) {
            probe.apply(&mut line, id);
            at = self.tree.children(id).first().copied();
        }
        !line.stopped
    }

    /// Applies a node's setup and move to the line.
    fn apply(&mut self, line: &mut Line, id: NodeId) {
        if line.stopped {
            return;
        }
        let node = self.tree.node(id);
        let size = self.info.size;
        let number = line.moves + 1;
        let has_setup = ["AB", "AW", "AE"].iter().any(|i| node.get(i).is_some());
        let pl = simple(node, "PL").and_then(|t| match t.to_ascii_uppercase().as_str() {
            "B" | "1" => Some(Color::Black),
            "W" | "2" => Some(Color::White),
            _ => None,
        });
        if has_setup || pl.is_some() {
            let mut f = Vec::new();
            let add_b = points_of(node, "AB", size, id, &mut f);
            let add_w = points_of(node, "AW", size, id, &mut f);
            let clear = points_of(node, "AE", size, id, &mut f);
            let broken = f.iter().any(|x| x.severity == Severity::Error);
            self.findings.extend(f.into_iter().map(|mut x| {
                x.move_number = line.moves;
                x
            }));
            if broken {
                line.stopped = true;
                return;
            }
            let board = line.game.board();
            let keep = |c: Color| -> Vec<Point> {
                size.points()
                    .filter(|&p| board.get(p) == Some(c))
                    .filter(|p| !clear.contains(p) && !add_b.contains(p) && !add_w.contains(p))
                    .collect()
            };
            let mut black = keep(Color::Black);
            let mut white = keep(Color::White);
            black.extend(add_b.iter().filter(|p| !add_w.contains(p)));
            white.extend(add_w.iter().copied());
            let to_move = pl.unwrap_or_else(|| {
                if line.moves == 0
                    && self.info.handicap >= 2
                    && white.is_empty()
                    && !black.is_empty()
                {
                    Color::White
                } else {
                    line.game.to_move()
                }
            });
            if line.moves > 0 && has_setup {
                self.findings.push(finding(
                    Severity::Note,
                    ("record.setup-after-moves", setup_property(node)),
                    line.moves,
                    id,
                    "setup stones after the first move: the repetition history starts again here"
                        .into(),
                ));
            }
            match self.start_game(&black, &white, to_move) {
                Ok(game) => line.game = game,
                Err(e) => {
                    self.findings.push(finding(
                        Severity::Error,
                        ("record.setup", setup_property(node)),
                        line.moves,
                        id,
                        format!("setup: {e}"),
                    ));
                    line.stopped = true;
                    return;
                }
            }
        }
        let (color, mv, raw) = match node_move(node, size, id, number) {
            Ok(Some(m)) => m,
            Ok(None) => return,
            Err(f) => {
                self.findings.push(f);
                line.stopped = true;
                return;
            }
        };
        if line.moves == 0
            && color == Color::White
            && self.info.handicap >= 2
            && line.game.board().stones() == tengen_core::ByColor::new(0, 0)
        {
            // Fox writes HA[n] without the stones and lets White start.
            // The stones stood on the fixed points when the moves fit them
            // (servers agree up to five stones); otherwise the record
            // cannot say where they were.
            let n = self.info.handicap;
            let assumed = tengen_core::handicap::fixed_points(size, n)
                .ok()
                .and_then(|points| self.start_game(&points, &[], Color::White).ok())
                .filter(|game| self.main_line_fits(game.clone(), id));
            match assumed {
                Some(game) => {
                    line.game = game;
                    self.findings.push(finding(
                        Severity::Note,
                        ("record.handicap-assumed", Some("HA")),
                        0,
                        id,
                        format!("HA[{n}] without handicap stones and White to play: the fixed handicap points are assumed (the moves fit them)"),
                    ));
                }
                None => {
                    self.findings.push(finding(
                        Severity::Error,
                        ("record.handicap-missing", Some("HA")),
                        0,
                        id,
                        format!(
                            "HA[{n}] without its handicap stones (no AB) and White to play: the moves do not fit the fixed points, and where the {n} stones stood is not recorded"
                        ),
                    ));
                    line.stopped = true;
                    return;
                }
            }
        }
        let text = || format!("{}[{raw}]", color.letter());
        let game = &mut line.game;
        if game.phase() == Phase::Marking {
            // Moves after play stopped: the players resumed.
            let _ = game.dispute(color);
        }
        if game.phase() == Phase::Over {
            let over = game
                .outcome()
                .map(|o| format!("{} ({o})", o.to_sgf()))
                .unwrap_or_default();
            let severity = match self.mode {
                ReplayMode::Strict => Severity::Error,
                ReplayMode::Tolerant => Severity::Deviation,
            };
            self.findings.push(finding(
                severity,
                ("rules.after-end", move_property(color)),
                number,
                id,
                format!(
                    "move {number} {} comes after the end of the game {over}",
                    text()
                ),
            ));
            self.after_end.get_or_insert((id, number));
            line.stopped = true;
            return;
        }
        let rules = |g: &Game| g.rules().name();
        let result = match self.mode {
            ReplayMode::Strict => game.play_as(color, mv).map(|()| None),
            ReplayMode::Tolerant => game.play_tolerant(color, mv),
        };
        match result {
            Ok(None) => {}
            Ok(Some(reason)) => self.findings.push(finding(
                Severity::Deviation,
                ("rules.illegal-move", move_property(color)),
                number,
                id,
                format!(
                    "move {number} {} breaks the rules ({}) under {}: played anyway",
                    text(),
                    reason,
                    rules(game)
                ),
            )),
            Err(e) => {
                self.findings.push(finding(
                    Severity::Error,
                    ("rules.illegal-move", move_property(color)),
                    number,
                    id,
                    format!(
                        "illegal move {} at move {number}: {} under {}",
                        text(),
                        e.reason,
                        rules(game)
                    ),
                ));
                line.stopped = true;
                return;
            }
        }
        line.moves = number;
        self.moves += 1;
    }
}

/// Replays the main line.
///
/// # Errors
/// A finding when the root cannot be read (board size).
pub fn replay_main_line(
    tree: &GameTree,
    options: &ReplayOptions,
) -> Result<(RecordInfo, Replay), Finding> {
    let info = read_info(tree, options)?;
    let (mut r, mut line) = Replayer::start(tree, &info, options)?;
    let mut ids = tree.main_line();
    if let Some(root) = ids.next() {
        r.apply(&mut line, root);
    }
    let start = line.game.clone();
    for id in ids {
        r.apply(&mut line, id);
    }
    let after_end = r.after_end.map(|(node, first)| AfterEnd {
        node,
        first,
        moves: tree
            .main_line()
            .skip_while(|&id| id != node)
            .filter(|&id| {
                let n = tree.node(id);
                n.get("B").is_some() || n.get("W").is_some()
            })
            .count(),
    });
    let replay = Replay {
        start,
        game: line.game,
        findings: r.findings,
        moves: line.moves,
        complete: !line.stopped,
        after_end,
    };
    Ok((info.0, replay))
}

/// Replays every variation (depth first, without recursion; each node is
/// replayed once). Returns the findings and the number of moves replayed.
///
/// Memory stays bounded by the depth of the tree, not by its width: the
/// variations waiting at a branch share one copy of the line there, and
/// each gets its own only when its turn comes (a record of 100,000
/// sibling variations held 100,000 copies of the game at once).
///
/// # Errors
/// A finding when the root cannot be read (board size).
pub fn replay_all(
    tree: &GameTree,
    options: &ReplayOptions,
) -> Result<(RecordInfo, Vec<Finding>, usize), Finding> {
    /// The variations of a branch still to replay, and the line at it.
    struct Fork<'t> {
        line: std::rc::Rc<Line>,
        waiting: std::slice::Iter<'t, NodeId>,
    }
    let info = read_info(tree, options)?;
    let (mut r, line) = Replayer::start(tree, &info, options)?;
    let mut next = Some((tree.root(), line));
    let mut forks: Vec<Fork<'_>> = Vec::new();
    loop {
        let (id, mut line) = match next.take() {
            Some(step) => step,
            None => {
                let Some(fork) = forks.last_mut() else {
                    break;
                };
                match fork.waiting.next() {
                    // The last to wait takes the shared line itself.
                    Some(&k) if fork.waiting.len() == 0 => {
                        let line = std::rc::Rc::clone(&fork.line);
                        forks.pop();
                        (k, std::rc::Rc::unwrap_or_clone(line))
                    }
                    Some(&k) => (k, Line::clone(&fork.line)),
                    None => {
                        forks.pop();
                        continue;
                    }
                }
            }
        };
        r.apply(&mut line, id);
        if line.stopped {
            continue;
        }
        // The main line goes on with the line itself.
        if let [first, rest @ ..] = tree.children(id) {
            if !rest.is_empty() {
                forks.push(Fork {
                    line: std::rc::Rc::new(line.clone()),
                    waiting: rest.iter(),
                });
            }
            next = Some((*first, line));
        }
    }
    let (findings, moves) = (r.findings, r.moves);
    Ok((info.0, findings, moves))
}

/// Where a record comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A file: its bytes, decoded in the charset `CA` names or the bytes
    /// suggest.
    File(&'a Path),
    /// Text already decoded (an upload): `CA` is not consulted.
    Text(&'a str),
    /// The bytes of a file already read (standard input), decoded as a
    /// file's are.
    Bytes(&'a [u8]),
}

/// A record's first game with its main line replayed.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Every game of the source; the first is the one replayed.
    pub collection: Collection,
    /// The first game's information.
    pub info: RecordInfo,
    /// Its main line replayed.
    pub replay: Replay,
    /// What the parse repaired or noticed.
    pub warnings: Vec<Warning>,
    /// Set when most of the text was not SGF: the games are junk that
    /// leniency recovered, and readers should refuse the file.
    pub not_sgf: Option<NotSgf>,
}

/// Why a record could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (or is longer than
    /// [`ParseOptions::max_bytes`], which stops the reading).
    #[error("cannot read the file: {0}")]
    Read(std::io::Error),
    /// The text is not SGF under the parse options.
    #[error(transparent)]
    Parse(ParseError),
    /// The text holds no game.
    #[error("no game in the file")]
    NoGame,
    /// The first game's root cannot be replayed (its board size, its
    /// handicap).
    #[error("{}", .0.message)]
    Replay(Finding),
}

/// Reads a record's first game and replays its main line: what every
/// reader of a single record (a command line's file, GTP `loadsgf`, an
/// upload) starts from. `parse` is lenient for records from the wild;
/// findings of the replay are in [`Replay::findings`], not errors.
///
/// # Errors
/// [`LoadError`] when the file cannot be read, the text does not parse,
/// it holds no game, or the game's root cannot be replayed.
pub fn load_main_line(
    source: Source<'_>,
    parse: &ParseOptions,
    replay: &ReplayOptions,
) -> Result<Loaded, LoadError> {
    let parsed = match source {
        Source::File(path) => {
            let bytes = crate::read_file(path, parse.max_bytes).map_err(LoadError::Read)?;
            crate::parse(&bytes, parse)
        }
        Source::Bytes(bytes) => crate::parse(bytes, parse),
        Source::Text(text) => crate::parse_str(text, parse),
    }
    .map_err(LoadError::Parse)?;
    let not_sgf = parsed.not_sgf();
    let tree = parsed.collection.trees.first().ok_or(LoadError::NoGame)?;
    let (info, replay) = replay_main_line(tree, replay).map_err(LoadError::Replay)?;
    Ok(Loaded {
        collection: parsed.collection,
        info,
        replay,
        warnings: parsed.warnings,
        not_sgf,
    })
}

/// Writes a game as an FF\[4\] record: the root's game information, the
/// setup stones, then one node per turn (passes as `B[]`).
pub fn write_game(game: &Game, info: &RecordInfo) -> GameTree {
    let size = game.size();
    let mut root = Node::new();
    root.push("GM", ["1"]);
    root.push("FF", ["4"]);
    root.push("CA", ["UTF-8"]);
    root.push("AP", [application()]);
    if size.is_square() {
        root.push("SZ", [size.width().to_string()]);
    } else {
        root.push("SZ", [format!("{}:{}", size.width(), size.height())]);
    }
    root.push("RU", [ru_name(game.rules())]);
    root.push("KM", [game.stated_komi().to_string()]);
    if game.handicap() >= 2 {
        root.push("HA", [game.handicap().to_string()]);
    }
    for (who, ident) in [(&info.black, "PB"), (&info.white, "PW"), (&info.date, "DT")] {
        if let Some(v) = who {
            root.push(ident, [v]);
        }
    }
    let (tm, ot) = crate::time::time_properties(info.time);
    for (value, ident) in [(tm, "TM"), (ot, "OT")] {
        if let Some(v) = value {
            root.push(ident, [v]);
        }
    }
    if let Some(o) = game.outcome() {
        root.push("RE", [o.to_sgf()]);
    } else if let Some(r) = &info.result_text {
        root.push("RE", [r]);
    }
    let start = game.initial_board();
    for (c, ident) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let pts: Vec<String> = size
            .points()
            .filter(|&p| start.get(p) == Some(c))
            .map(|p| sgf_point(p, size))
            .collect();
        if !pts.is_empty() {
            root.push(ident, pts);
        }
    }
    if game.first_to_move() == Color::White {
        root.push("PL", [game.first_to_move().letter().to_string()]);
    }
    let mut tree = GameTree::with_root(root);
    add_line(&mut tree, game);
    mark_territory(&mut tree, game);
    tree
}

/// The application a record tengen writes names (`AP`).
fn application() -> String {
    format!("tengen:{}", env!("CARGO_PKG_VERSION"))
}

/// On the last node of a game that ended by a count, each side's territory
/// as the count saw it (`TB`, `TW`), the dead stones' points included, as
/// the usual editors mark the end of a counted game.
fn mark_territory(tree: &mut GameTree, game: &Game) {
    if game.final_score().is_none() {
        return;
    }
    let size = game.size();
    let map = game.region_map(game.dead_stones());
    let Some(last) = tree.main_line().last() else {
        return;
    };
    let Some(node) = tree.node_mut(last) else {
        return;
    };
    for (c, ident) in [(Color::Black, "TB"), (Color::White, "TW")] {
        let pts: Vec<String> = map
            .iter()
            .filter(|&(_, m)| m == Mark::Territory(c))
            .map(|(p, _)| sgf_point(p, size))
            .collect();
        if !pts.is_empty() {
            node.push(ident, pts);
        }
    }
}

/// Restates a read record's root as tengen writes one, before it is written
/// back: `KM` as the komi it was read as (Fox's `KM[375]` is written
/// `KM[7.5]`, which other programs read alike) and `AP` naming tengen, the
/// application writing the file (the property holds one value; Fox writes
/// two). The rest of the record stays as it was.
pub fn restate_root(tree: &mut GameTree, start: &Game) {
    let root = tree.root();
    if let Some(node) = tree.node_mut(root) {
        // Both are one plain text value: `set` cannot refuse them.
        let _ = node.set("KM", [start.stated_komi().to_string()]);
        let _ = node.set("AP", [application()]);
    }
}

/// Writes a game and its variations: every game of `variations` is a line
/// from the same start as `main` (the same setup), and branches off where
/// its turns leave the lines already written. Variations from another start
/// are skipped and counted in the return value.
pub fn write_game_with_variations(
    main: &Game,
    variations: &[Game],
    info: &RecordInfo,
) -> (GameTree, usize) {
    let mut tree = write_game(main, info);
    let mut skipped = 0;
    for v in variations {
        if v.initial_board() == main.initial_board() && v.size() == main.size() {
            add_line(&mut tree, v);
        } else {
            skipped += 1;
        }
    }
    (tree, skipped)
}

/// The node of one turn.
fn turn_node(t: &tengen_core::Turn, size: BoardSize) -> Node {
    let mut node = Node::new();
    let value = match t.mv {
        Move::Pass => String::new(),
        Move::Play(p) => sgf_point(p, size),
    };
    node.push(&t.color.letter().to_string(), [value]);
    node
}

/// Follows the game's turns down the tree as far as they are written, then
/// adds the rest as a new branch (the main line when the tree is bare).
fn add_line(tree: &mut GameTree, game: &Game) {
    let size = game.size();
    let mut at = tree.root();
    let mut turns = game.turns().iter();
    let mut pending = None;
    for t in turns.by_ref() {
        let node = turn_node(t, size);
        match tree
            .children(at)
            .iter()
            .copied()
            .find(|&c| *tree.node(c) == node)
        {
            Some(child) => at = child,
            None => {
                pending = Some(node);
                break;
            }
        }
    }
    if let Some(node) = pending {
        at = tree.add_child(at, node);
        for t in turns {
            at = tree.add_child(at, turn_node(t, size));
        }
    }
}

/// The two SGF letters of a point.
pub fn sgf_point(p: Point, size: BoardSize) -> String {
    let (x, y) = size.xy(p);
    point_text(x as u8, y as u8)
}
