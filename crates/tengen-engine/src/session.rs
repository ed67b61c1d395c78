//! A GTP session: one game under a rule set, a search, clocks, and every
//! command of the engine. Usable without a process: [`Session::respond`]
//! answers one command, [`Session::execute`] also streams the analysis
//! commands to a writer until told to stop.

use crate::analyze::{AnalyzeOptions, Until};
use crate::clock::{self, Clocks};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tengen_core::{
    BoardSize, Color, Game, HandicapError, HandicapStones, Move, Phase, Point, Points, Preset,
    Rules, Setup,
};
use tengen_gtp::args::{self, arg, chain_lines, move_text, parse_color, parse_move, parse_number};
use tengen_gtp::{Command, GtpError, Response};
use tengen_mcts::Knowledge;
use tengen_mcts::time::{TimeControl, think_time};
use tengen_mcts::{Decision, ESTIMATE_PLAYOUTS, GenMode, Limit, Request, Search, SearchConfig};
use tengen_sgf::record::{self, RecordInfo, ReplayMode, ReplayOptions};

/// How the engine plays, fixed for the session.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// The rules of new games until `kgs-rules` or `kata-set-rules`.
    pub rules: Rules,
    /// Search threads.
    pub threads: usize,
    /// Playouts per move without a clock.
    pub playouts: Option<u64>,
    /// Seconds per move without a clock.
    pub time: Option<Duration>,
    /// Resign when the winning probability falls below this.
    pub resign_below: Option<f64>,
    /// The search's random seed.
    pub seed: u64,
    /// What the search knows before playing a move out.
    pub knowledge: Knowledge,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            rules: Preset::Chinese.rules(),
            threads: 1,
            playouts: None,
            time: None,
            resign_below: None,
            seed: 0,
            knowledge: Knowledge::default(),
        }
    }
}

/// Playouts per move when neither a budget nor a clock says otherwise.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Read the next command.
    Continue,
    /// `quit` was answered: stop.
    Quit,
}

/// Every command the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "get_komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "final_score",
    "final_status_list",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "kgs-rules",
    "kata-set-rules",
    "kata-get-rules",
    "loadsgf",
    "printsgf",
    "showboard",
    "cputime",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "tengen-explain",
];

/// One engine session. See the module docs.
#[derive(Debug)]
pub struct Session {
    pub(crate) config: EngineConfig,
    pub(crate) rules: Rules,
    /// Komi set by `komi`, kept across `clear_board` (else the rules' komi).
    komi: Option<Points>,
    pub(crate) game: Game,
    pub(crate) search: Search,
    clocks: Clocks,
    /// Time spent thinking, for `cputime`.
    pub(crate) thinking: Duration,
}

impl Session {
    /// A session on an empty 19x19 board.
    pub fn new(config: EngineConfig) -> Session {
        let search = Search::new(SearchConfig {
            threads: config.threads.max(1),
            seed: config.seed,
            resign_below: config.resign_below,
            knowledge: config.knowledge,
        });
        Session {
            config,
            rules: config.rules,
            komi: None,
            game: Game::new(config.rules, BoardSize::STANDARD),
            search,
            clocks: Clocks::new(TimeControl::None),
            thinking: Duration::ZERO,
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one command. Streaming commands run for one move's budget
    /// here, their lines in the text; [`Session::execute`] streams them.
    pub fn respond(&mut self, cmd: &Command) -> Response {
        let result = match cmd.name.as_str() {
            "lz-analyze" | "kata-analyze" | "lz-genmove_analyze" | "kata-genmove_analyze" => {
                let options = match AnalyzeOptions::parse(&cmd.args, self.game.size()) {
                    Ok(o) => o,
                    Err(e) => return Response::failure(cmd.id, e),
                };
                let mut sink = Vec::new();
                let stop = AtomicBool::new(false);
                return match self.stream_lines(cmd, &options, &mut sink, &stop, Until::Budget) {
                    Ok(()) => Response::success(cmd.id, String::from_utf8_lossy(&sink)),
                    Err(e) => Response::failure(cmd.id, GtpError::Other(e.to_string())),
                };
            }
            _ => self.run(cmd),
        };
        Response { id: cmd.id, result }
    }

    /// Executes one command, writing its response (or its stream, which
    /// runs until `stop` is set) to `out`.
    ///
    /// # Errors
    /// Only the writer's errors.
    pub fn execute(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> io::Result<Control> {
        match cmd.name.as_str() {
            "lz-analyze" | "kata-analyze" | "lz-genmove_analyze" | "kata-genmove_analyze" => {
                self.stream(cmd, out, stop)?;
            }
            name => {
                let response = Response {
                    id: cmd.id,
                    result: self.run(cmd),
                };
                write!(out, "{response}")?;
                out.flush()?;
                if name == "quit" {
                    return Ok(Control::Quit);
                }
            }
        }
        Ok(Control::Continue)
    }

    /// The non-streaming commands.
    fn run(&mut self, cmd: &Command) -> Result<String, GtpError> {
        let a = &cmd.args;
        let done = |_| String::new();
        match cmd.name.as_str() {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("tengen".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(self.knows(arg(a, 0)?).to_string()),
            "list_commands" => Ok(self.commands().join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => {
                let n: u32 = parse_number(a, 0)?;
                self.resize(BoardSize::square(n)).map(done)
            }
            "rectangular_boardsize" => {
                let (w, h): (u32, u32) = (parse_number(a, 0)?, parse_number(a, 1)?);
                self.resize(BoardSize::new(w, h)).map(done)
            }
            "clear_board" => {
                self.clear(self.game.size());
                Ok(String::new())
            }
            "komi" => {
                let k = arg(a, 0)?
                    .parse::<Points>()
                    .map_err(|_| GtpError::Other("komi not a float".into()))?;
                self.komi = Some(k);
                self.apply_komi();
                Ok(String::new())
            }
            "get_komi" => Ok(self.game.komi().to_string()),
            "fixed_handicap" => {
                let n: u32 = parse_number(a, 0)?;
                self.handicap(n, HandicapStones::Fixed)
            }
            "place_free_handicap" => self.place_free_handicap(parse_number(a, 0)?),
            "set_free_handicap" => {
                let size = self.game.size();
                let points = a
                    .iter()
                    .map(|v| match parse_move(v, size) {
                        Ok(Move::Play(p)) => Ok(p),
                        _ => Err(GtpError::BadVertexList),
                    })
                    .collect::<Result<Vec<Point>, _>>()?;
                self.handicap(points.len() as u32, HandicapStones::Free(points))
                    .map(|_| String::new())
            }
            "play" => {
                let color = parse_color(arg(a, 0)?)?;
                let mv = parse_move(arg(a, 1)?, self.game.size())?;
                self.play(color, mv).map(done)
            }
            "genmove" => self.genmove(parse_color(arg(a, 0)?)?, GenMode::Normal, Commit::Play),
            "kgs-genmove_cleanup" => {
                self.genmove(parse_color(arg(a, 0)?)?, GenMode::Cleanup, Commit::Play)
            }
            "reg_genmove" => {
                self.genmove(parse_color(arg(a, 0)?)?, GenMode::Normal, Commit::Suggest)
            }
            "undo" => self.game.undo().map(done).map_err(|_| GtpError::CannotUndo),
            "final_score" => Ok(self.final_outcome()),
            "final_status_list" => self.status_list(arg(a, 0)?),
            "time_settings" => {
                self.clocks = Clocks::new(clock::time_settings(a)?);
                Ok(String::new())
            }
            "kgs-time_settings" => {
                self.clocks = Clocks::new(clock::kgs_time_settings(a)?);
                Ok(String::new())
            }
            "time_left" => self.clocks.time_left(a).map(done),
            "kgs-rules" | "kata-set-rules" => {
                let rules = a
                    .join(" ")
                    .parse::<Rules>()
                    .map_err(|e| GtpError::Other(e.to_string()))?;
                self.set_rules(rules).map(done)
            }
            "kata-get-rules" => Ok(match self.rules.preset() {
                Some(p) => p.name().to_string(),
                None => self.rules.katago_string(),
            }),
            "loadsgf" => self.load_sgf(a),
            "printsgf" => self.print_sgf(a),
            "showboard" => Ok(args::diagram(self.game.board(), self.game.captures())),
            "cputime" => Ok(format!("{:.3}", self.thinking.as_secs_f64())),
            "gogui-analyze_commands" => Ok([
                "string/Final score/final_score",
                "plist/Dead stones/final_status_list dead",
                "plist/Seki stones/final_status_list seki",
                "string/Explain the last move/tengen-explain %p",
            ]
            .join("\n")),
            "tengen-explain" => self.explain(arg(a, 0)?),
            _ => Err(GtpError::UnknownCommand),
        }
    }

    /// `tengen-explain <vertex>`: the lexicon's line for the last move,
    /// which `vertex` must name, in English.
    fn explain(&self, vertex: &str) -> Result<String, GtpError> {
        let size = self.game.size();
        let mv = parse_move(vertex, size)?;
        let last = self
            .game
            .turns()
            .last()
            .ok_or_else(|| GtpError::Other("no move to explain".into()))?;
        if last.mv != mv {
            return Err(GtpError::Other(
                "only the last move can be explained".into(),
            ));
        }
        let names = tengen_tactics::name_last(&self.game);
        Ok(tengen_tactics::explain_line(
            self.game.turns().len(),
            last.color,
            last.mv,
            size,
            &names,
            tengen_tactics::Lang::En,
        ))
    }

    fn commands(&self) -> Vec<&'static str> {
        COMMANDS.to_vec()
    }

    fn knows(&self, name: &str) -> bool {
        self.commands().contains(&name)
    }

    /// A new empty board of `size`, or `unacceptable size`.
    fn resize(&mut self, size: Result<BoardSize, tengen_core::SizeError>) -> Result<(), GtpError> {
        let size = size.map_err(|_| GtpError::UnacceptableSize)?;
        self.clear(size);
        Ok(())
    }

    /// An empty board: same rules, same komi, fresh clocks and search.
    fn clear(&mut self, size: BoardSize) {
        self.game = Game::new(self.rules, size);
        self.apply_komi();
        self.clocks = Clocks::new(self.clocks.control);
        self.search.clear();
    }

    /// Sets the GTP komi on the game; in a handicap game the rules' stone
    /// compensation stays on top of it.
    fn apply_komi(&mut self) {
        if let Some(k) = self.komi {
            let stones = self.game.komi() - record::komi_to_record(&self.game);
            self.game.set_komi(k + stones);
        }
    }

    /// `board not empty` unless the game has neither stones nor turns.
    fn ensure_empty(&self) -> Result<(), GtpError> {
        let board = self.game.board();
        if !self.game.turns().is_empty() || board.stones().black + board.stones().white > 0 {
            return Err(GtpError::BoardNotEmpty);
        }
        Ok(())
    }

    /// `place_free_handicap n`: the engine's own choice of `n` stones
    /// ([`free_handicap_points`]), between 2 and one less than the points
    /// of the board (GNU Go's checks and error strings).
    fn place_free_handicap(&mut self, n: u32) -> Result<String, GtpError> {
        self.ensure_empty()?;
        let size = self.game.size();
        if n < 2 || n as usize >= size.num_points() {
            return Err(GtpError::Other("invalid handicap".into()));
        }
        self.handicap(n, HandicapStones::Free(free_handicap_points(size, n)))
    }

    fn handicap(&mut self, n: u32, stones: HandicapStones) -> Result<String, GtpError> {
        let free = matches!(stones, HandicapStones::Free(_));
        self.ensure_empty()?;
        if n < 2 {
            return Err(if free {
                GtpError::BadVertexList
            } else {
                GtpError::InvalidStoneCount
            });
        }
        let game =
            Game::with_handicap(self.rules, self.game.size(), n, stones).map_err(|e| match e {
                HandicapError::NotFixed => GtpError::Other(e.to_string()),
                _ if free => GtpError::BadVertexList,
                _ => GtpError::InvalidStoneCount,
            })?;
        self.game = game;
        self.apply_komi();
        let size = self.game.size();
        let placed: Vec<Point> = size
            .points()
            .filter(|&p| self.game.board().get(p) == Some(Color::Black))
            .collect();
        Ok(args::point_list(&placed, size))
    }

    /// Plays `mv` for `color`; after two passes, a play resumes the game
    /// (the controller disputes the end, as KGS does before cleanup).
    pub(crate) fn play(&mut self, color: Color, mv: Move) -> Result<(), GtpError> {
        let mut game = self.game.clone();
        if game.phase() == Phase::Marking {
            game.dispute(color).map_err(|_| GtpError::IllegalMove)?;
        }
        game.play_as(color, mv).map_err(|e| {
            tracing::debug!("refused: {e}");
            GtpError::IllegalMove
        })?;
        self.game = game;
        Ok(())
    }

    /// The game with `color` to move: as it is, or with a pass for the
    /// other side (GTP lets either colour move), or, when that pass would
    /// end the game, the bare position.
    pub(crate) fn position_for(&self, color: Color) -> Game {
        let mut game = self.game.clone();
        if game.phase() == Phase::Marking {
            let _ = game.dispute(color);
        }
        if game.to_move() == color {
            return game;
        }
        let mut passed = game.clone();
        if passed.play_as(color.opponent(), Move::Pass).is_ok() && passed.phase() == Phase::Playing
        {
            return passed;
        }
        match Game::from_setup(self.rules, &setup_of(game.board(), color, 0)) {
            Ok(mut g) => {
                g.set_komi(game.komi());
                g
            }
            Err(_) => game,
        }
    }

    /// The search budget for `color`'s next move: the clock's share when a
    /// clock runs, else the configured playouts or seconds.
    pub(crate) fn limit_for(&self, color: Color, game: &Game) -> Limit {
        if self.clocks.control != TimeControl::None {
            let t = think_time(&self.clocks.control, &self.clocks.state[color], game);
            if !t.is_zero() {
                return Limit {
                    playouts: None,
                    time: Some(t),
                };
            }
        }
        match (self.config.playouts, self.config.time) {
            (None, None) => Limit {
                playouts: Some(DEFAULT_PLAYOUTS),
                time: None,
            },
            (playouts, time) => Limit { playouts, time },
        }
    }

    fn genmove(&mut self, color: Color, mode: GenMode, commit: Commit) -> Result<String, GtpError> {
        if self.game.phase() == Phase::Over {
            return Ok("pass".into());
        }
        let game = self.position_for(color);
        let limit = self.limit_for(color, &game);
        let started = Instant::now();
        let request = Request {
            mode,
            ..Request::new(limit)
        };
        let (decision, _) = self.search.genmove(&game, request);
        let used = started.elapsed();
        self.thinking += used;
        self.commit(color, decision, used, commit)
    }

    /// Plays the search's decision (unless only suggested) and says it.
    pub(crate) fn commit(
        &mut self,
        color: Color,
        decision: Decision,
        used: Duration,
        commit: Commit,
    ) -> Result<String, GtpError> {
        let mv = match decision {
            Decision::Resign => return Ok("resign".into()),
            Decision::Move(mv) => mv,
        };
        if commit == Commit::Play {
            self.clocks.spend(color, used);
            if self.play(color, mv).is_err() {
                tracing::warn!("the search chose an illegal move; passing instead");
                self.play(color, Move::Pass)?;
                return Ok("pass".into());
            }
        }
        Ok(move_text(mv, self.game.size()))
    }

    /// The dead stones as the estimate sees them (none once the game is
    /// over or where dead stones are never removed).
    fn dead_stones(&self) -> Vec<Point> {
        if self.game.phase() == Phase::Over || !self.rules.removes_dead_stones() {
            return Vec::new();
        }
        tengen_mcts::estimate_dead(&self.game, ESTIMATE_PLAYOUTS, self.config.seed)
    }

    /// `final_score`: the result in SGF `RE` form.
    fn final_outcome(&self) -> String {
        match self.game.outcome() {
            Some(o) => o.to_sgf(),
            None => self.game.score(&self.dead_stones()).outcome().to_sgf(),
        }
    }

    /// `final_status_list alive|dead|seki`: one chain per line. Seki
    /// chains are the living chains the count leaves in seki: a chain
    /// touching a region of dame that neither side can fill.
    fn status_list(&self, status: &str) -> Result<String, GtpError> {
        let board = self.game.board();
        let size = board.size();
        let dead = self.dead_stones();
        let seki = seki_stones(&self.game, &dead);
        let stones: Vec<Point> = size
            .points()
            .filter(|p| board.get(*p).is_some())
            .filter(|p| match status {
                "dead" => dead.contains(p),
                "seki" => seki.contains(p),
                _ => !dead.contains(p) && !seki.contains(p),
            })
            .collect();
        match status {
            "alive" | "dead" | "seki" => Ok(chain_lines(board, &stones)),
            _ => Err(GtpError::Other("invalid status".into())),
        }
    }

    /// Changes the rules, keeping the game: its moves are replayed under the
    /// new rules (refused if one of them is illegal there).
    fn set_rules(&mut self, rules: Rules) -> Result<(), GtpError> {
        let setup = setup_of(
            self.game.initial_board(),
            self.game.first_to_move(),
            self.game.handicap(),
        );
        let mut game =
            Game::from_setup(rules, &setup).map_err(|e| GtpError::Other(e.to_string()))?;
        for t in self.game.turns() {
            if game.phase() == Phase::Marking {
                let _ = game.dispute(t.color);
            }
            game.play_as(t.color, t.mv).map_err(|e| {
                GtpError::Other(format!(
                    "the game so far is not legal under these rules: {e}"
                ))
            })?;
        }
        self.rules = rules;
        self.game = game;
        self.apply_komi();
        self.search.clear();
        Ok(())
    }

    /// `loadsgf file [move_number]`: the record's main line (tolerantly
    /// replayed), up to the position before `move_number`. Answers the
    /// colour to move, as GNU Go does.
    fn load_sgf(&mut self, a: &[String]) -> Result<String, GtpError> {
        let path = arg(a, 0)?;
        let until: Option<usize> = match a.get(1) {
            Some(_) => Some(parse_number(a, 1)?),
            None => None,
        };
        let game = read_record(Path::new(path)).map_err(|e| {
            tracing::debug!("loadsgf {path}: {e}");
            GtpError::CannotLoadFile
        })?;
        let mut game = game;
        if let Some(n) = until {
            while game.turns().len() >= n.max(1) {
                if game.undo().is_err() {
                    break;
                }
            }
        }
        self.rules = *game.rules();
        self.komi = None;
        self.game = game;
        self.search.clear();
        Ok(self.game.to_move().to_string())
    }

    /// `printsgf [file]`: the game as SGF, answered or written to `file`.
    fn print_sgf(&self, a: &[String]) -> Result<String, GtpError> {
        let info = RecordInfo {
            size: self.game.size(),
            rules: self.rules,
            rules_text: None,
            komi: self.game.komi(),
            handicap: self.game.handicap(),
            result_text: None,
            black: None,
            white: None,
            date: None,
        };
        let text = tengen_sgf::write_tree(&record::write_game(&self.game, &info));
        match a.first() {
            Some(path) => std::fs::write(path, text)
                .map(|_| String::new())
                .map_err(|e| GtpError::Other(format!("cannot write {path}: {e}"))),
            None => Ok(text),
        }
    }
}

/// Whether a generated move is played or only suggested (`reg_genmove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Commit {
    /// Play it.
    Play,
    /// Say it only.
    Suggest,
}

/// The stones of `board` as a setup with `to_move` to play.
fn setup_of(board: &tengen_core::Board, to_move: Color, handicap: u32) -> Setup {
    let size = board.size();
    let of =
        |c: Color| -> Vec<Point> { size.points().filter(|&p| board.get(p) == Some(c)).collect() };
    Setup {
        size,
        black: of(Color::Black),
        white: of(Color::White),
        to_move,
        handicap,
    }
}

/// Where `place_free_handicap` puts `n` stones (fewer than the points of
/// the board): the standard fixed points when the board has a layout for
/// `n` (players expect them, and GNU Go does the same); else its largest
/// fixed layout, then, greedily, the points farthest from the stones
/// already chosen, two at a time through the centre's symmetry while two
/// or more are missing. Candidates are the 3rd line and inside (the 2nd on
/// boards of 7 lines or fewer); closer to the edge only once those are
/// full. Ties go to the higher line, then to the left and lower point, so
/// the choice is deterministic.
fn free_handicap_points(size: BoardSize, n: u32) -> Vec<Point> {
    type Xy = (u32, u32);
    let (w, h) = (size.width(), size.height());
    let base = tengen_core::handicap::max_fixed(size).min(n);
    let mut taken: Vec<Xy> = tengen_core::handicap::fixed_points(size, base)
        .unwrap_or_default()
        .into_iter()
        .map(|p| size.xy(p))
        .collect();
    let index = |(x, y): Xy| (y * w + x) as usize;
    let line = |(x, y): Xy| 1 + x.min(w - 1 - x).min(y).min(h - 1 - y);
    let mirror = |(x, y): Xy| (w - 1 - x, h - 1 - y);
    let dist2 = |a: Xy, b: Xy| a.0.abs_diff(b.0).pow(2) + a.1.abs_diff(b.1).pow(2);
    let coords: Vec<Xy> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    // The squared distance from each point to the nearest stone chosen
    // (0 on the stones themselves).
    let mut near: Vec<u32> = coords
        .iter()
        .map(|&c| taken.iter().map(|&t| dist2(c, t)).min().unwrap_or(u32::MAX))
        .collect();
    let rank = |c: Xy, spacing: u32| (spacing, line(c), std::cmp::Reverse(c.0), c.1);
    let mut lowest = if w.min(h) <= 7 { 2 } else { 3 };
    while (taken.len() as u32) < n {
        let band: Vec<Xy> = coords
            .iter()
            .copied()
            .filter(|&c| near[index(c)] > 0 && line(c) >= lowest)
            .collect();
        if band.is_empty() {
            if lowest <= 1 {
                break;
            }
            lowest -= 1;
            continue;
        }
        let pair = if n - taken.len() as u32 >= 2 {
            band.iter()
                .copied()
                .filter(|&c| mirror(c) != c && near[index(mirror(c))] > 0)
                .max_by_key(|&c| {
                    let m = mirror(c);
                    rank(c, near[index(c)].min(near[index(m)]).min(dist2(c, m)))
                })
        } else {
            None
        };
        let picks = match pair {
            Some(c) => vec![c, mirror(c)],
            None => band
                .iter()
                .copied()
                .max_by_key(|&c| rank(c, near[index(c)]))
                .into_iter()
                .collect(),
        };
        for c in picks {
            taken.push(c);
            for (d, &q) in near.iter_mut().zip(&coords) {
                *d = (*d).min(dist2(q, c));
            }
        }
    }
    taken
        .into_iter()
        .filter_map(|(x, y)| size.point(x, y))
        .collect()
}

/// Reads the first game of an SGF file and replays its main line.
fn read_record(path: &Path) -> Result<Game, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let parsed = tengen_sgf::parse(&bytes, &tengen_sgf::ParseOptions::lenient())
        .map_err(|e| e.to_string())?;
    let tree = parsed
        .collection
        .trees
        .first()
        .ok_or_else(|| "no game in the file".to_string())?;
    let options = ReplayOptions {
        mode: ReplayMode::Tolerant,
        ..ReplayOptions::default()
    };
    let (_, replay) = record::replay_main_line(tree, &options).map_err(|f| f.message)?;
    Ok(replay.game)
}

/// Stones of living chains in seki: with the dead removed, chains that
/// the count says border a seki region. The count only gives totals, so
/// each living chain is tested by whether removing it changes them.
fn seki_stones(game: &Game, dead: &[Point]) -> Vec<Point> {
    let mut board = game.board().clone();
    board.remove_chains(dead);
    let regions = tengen_core::scoring::regions(&board);
    if regions.seki.black + regions.seki.white == 0 {
        return Vec::new();
    }
    let size = board.size();
    let mut seki = Vec::new();
    for p in size.points() {
        if board.get(p).is_none() || seki.contains(&p) || board.chain_id(p) != Some(p) {
            continue;
        }
        let mut without = board.clone();
        without.remove_chains(&[p]);
        if tengen_core::scoring::regions(&without).seki != regions.seki {
            seki.extend(board.chain(p));
        }
    }
    seki
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new(EngineConfig {
            playouts: Some(200),
            ..EngineConfig::default()
        })
    }

    fn say(s: &mut Session, line: &str) -> Result<String, GtpError> {
        s.respond(&Command::parse(line).unwrap()).result
    }

    #[test]
    fn a_game_without_a_process() {
        let mut s = session();
        assert_eq!(say(&mut s, "boardsize 9"), Ok(String::new()));
        assert_eq!(say(&mut s, "play b E5"), Ok(String::new()));
        let w = say(&mut s, "genmove w").unwrap();
        assert_ne!(w, "E5");
        assert_eq!(s.game().turns().len(), 2);
        assert_eq!(say(&mut s, "frobnicate"), Err(GtpError::UnknownCommand));
        let r = s.respond(&Command::parse("5 name").unwrap());
        assert_eq!(r.to_string(), "=5 tengen\n\n");
    }

    #[test]
    fn analysis_without_a_process_runs_for_one_move() {
        let mut s = session();
        say(&mut s, "boardsize 9").unwrap();
        let text = say(&mut s, "lz-analyze b 1").unwrap();
        assert!(text.lines().count() >= 1);
        assert!(text.lines().all(|l| l.starts_with("info move ")), "{text}");
        let text = say(&mut s, "kata-genmove_analyze b").unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("play "), "{text}");
        assert_eq!(s.game().turns().len(), 1);
        assert_eq!(say(&mut s, "lz-analyze b 1 frob 2"), Err(GtpError::Syntax));
    }

    #[test]
    fn analysis_without_a_process_honours_avoid() {
        let mut s = session();
        say(&mut s, "boardsize 5").unwrap();
        let block: Vec<String> = "BCD"
            .chars()
            .flat_map(|c| (2..=4).map(move |r| format!("{c}{r}")))
            .collect();
        let text = say(&mut s, "lz-genmove_analyze b avoid b B2:D4 1").unwrap();
        let reported: Vec<&str> = text
            .split("info move ")
            .skip(1)
            .filter_map(|seg| seg.split_whitespace().next())
            .collect();
        assert!(!reported.is_empty(), "{text}");
        let played = text.lines().last().unwrap().strip_prefix("play ").unwrap();
        for mv in reported.iter().chain([&played]) {
            assert!(!block.iter().any(|b| b == mv), "{mv} in {text}");
        }
        assert_eq!(s.game().turns().len(), 1);
    }

    #[test]
    fn handicap_compensation_stays_on_top_of_gtp_komi() {
        let mut s = session();
        say(&mut s, "boardsize 9").unwrap();
        say(&mut s, "komi 0.5").unwrap();
        assert_eq!(say(&mut s, "fixed_handicap 2"), Ok("G7 C3".into()));
        // Chinese rules: White receives one point per handicap stone.
        assert_eq!(say(&mut s, "get_komi"), Ok("2.5".into()));
        say(&mut s, "komi 6.5").unwrap();
        assert_eq!(say(&mut s, "get_komi"), Ok("8.5".into()));
    }

    fn names(size: BoardSize, points: &[Point]) -> Vec<String> {
        let mut names: Vec<String> = points
            .iter()
            .map(|&p| tengen_core::Vertex::point_name(p, size))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn free_handicap_keeps_the_fixed_layouts() {
        let s19 = BoardSize::STANDARD;
        assert_eq!(
            names(s19, &free_handicap_points(s19, 9)),
            ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
        );
        assert_eq!(names(s19, &free_handicap_points(s19, 2)), ["D4", "Q16"]);
        // 7x7 has four fixed points; a fifth stone goes to the centre.
        let s7 = BoardSize::square(7).unwrap();
        assert_eq!(
            names(s7, &free_handicap_points(s7, 5)),
            ["C3", "C5", "D4", "E3", "E5"]
        );
        // Beyond nine on 9x9, the nine stay.
        let s9 = BoardSize::square(9).unwrap();
        let ten = free_handicap_points(s9, 10);
        for p in tengen_core::handicap::fixed_points(s9, 9).unwrap() {
            assert!(ten.contains(&p));
        }
    }

    #[test]
    fn free_handicap_places_distinct_stones_on_any_board() {
        for (w, h, n) in [
            (9, 9, 12),
            (9, 9, 80),
            (7, 7, 6),
            (7, 7, 48),
            (6, 6, 4),
            (5, 5, 3),
            (5, 5, 24),
            (19, 5, 7),
            (13, 9, 11),
            (1, 5, 4),
            (2, 2, 3),
            (25, 25, 40),
        ] {
            let size = BoardSize::new(w, h).unwrap();
            let points = free_handicap_points(size, n);
            assert_eq!(points.len() as u32, n, "{w}x{h} {n}");
            let mut distinct = points.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), points.len(), "{w}x{h} {n}");
            assert!(points.iter().all(|&p| size.contains(p)));
            assert_eq!(free_handicap_points(size, n), points, "deterministic");
        }
        // An even count away from the fixed layouts is symmetric through
        // the centre.
        let size = BoardSize::new(19, 5).unwrap();
        let points = free_handicap_points(size, 6);
        for &p in &points {
            let (x, y) = size.xy(p);
            let mirror = size.point(18 - x, 4 - y).unwrap();
            assert!(
                points.contains(&mirror),
                "{}",
                names(size, &points).join(" ")
            );
        }
        // Small boards keep off the edge while they can.
        let s6 = BoardSize::square(6).unwrap();
        for p in free_handicap_points(s6, 4) {
            let (x, y) = s6.xy(p);
            assert!(x.min(5 - x).min(y).min(5 - y) >= 1);
        }
    }

    #[test]
    fn place_free_handicap_checks_its_count_and_the_board() {
        let mut s = session();
        say(&mut s, "boardsize 5").unwrap();
        let invalid = Err(GtpError::Other("invalid handicap".into()));
        assert_eq!(say(&mut s, "place_free_handicap 1"), invalid);
        assert_eq!(say(&mut s, "place_free_handicap 25"), invalid);
        let placed = say(&mut s, "place_free_handicap 24").unwrap();
        assert_eq!(placed.split_whitespace().count(), 24);
        assert_eq!(s.game().to_move(), Color::White);
        assert_eq!(
            say(&mut s, "place_free_handicap 2"),
            Err(GtpError::BoardNotEmpty)
        );
        say(&mut s, "clear_board").unwrap();
        say(&mut s, "play b C3").unwrap();
        assert_eq!(
            say(&mut s, "place_free_handicap 2"),
            Err(GtpError::BoardNotEmpty)
        );
    }

    #[test]
    fn rules_change_only_if_the_game_is_legal_under_them() {
        let mut s = session();
        say(&mut s, "kata-set-rules tromp-taylor").unwrap();
        say(&mut s, "boardsize 3").unwrap();
        for v in [
            "play b A1",
            "play b A2",
            "play w B1",
            "play w B2",
            "play w B3",
            "play b A3",
        ] {
            assert_eq!(say(&mut s, v), Ok(String::new()), "{v}");
        }
        // A3 was a suicide of three stones: Tromp-Taylor allows it, the
        // Chinese rules do not.
        let err = say(&mut s, "kgs-rules chinese").unwrap_err();
        assert!(
            err.to_string().contains("not legal under these rules"),
            "{err}"
        );
        assert_eq!(say(&mut s, "kata-get-rules"), Ok("tromp-taylor".into()));
        assert_eq!(say(&mut s, "undo"), Ok(String::new()));
        assert_eq!(say(&mut s, "kgs-rules chinese"), Ok(String::new()));
        assert_eq!(say(&mut s, "kata-get-rules"), Ok("chinese".into()));
    }
}
