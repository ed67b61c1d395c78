//! A GTP session: one game under a rule set, a search, clocks, and what
//! every request does to them. Usable without a process:
//! [`Session::respond`] answers one command, [`Session::execute`] also
//! streams the analysis commands to a writer until told to stop. Reading
//! the command's text is `tengen-gtp`'s ([`Request::read`]); the session
//! only ever sees typed requests.

use crate::analyze::{self, ANALYSIS_MAX_PLAYOUTS};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use tengen_core::{
    BoardSize, Clock, Color, Game, HandicapError, HandicapStones, Mark, Move, Phase, Point, Points,
    Preset, Rules, Setup, TimeControl, handicap,
};
use tengen_gtp::args::{self, chain_lines, move_text};
use tengen_gtp::response::{STREAM_END, stream_start};
use tengen_gtp::{
    AnalyzeRequest, Command, GtpError, LoadUntil, Request, Response, StoneStatus, request,
};
use tengen_mcts::Strength;
use tengen_mcts::time::think_time;
use tengen_mcts::{Decision, GenMode, Limit, Restrictions, Search, SearchConfig};
use tengen_sgf::ParseOptions;
use tengen_sgf::record::{self, RecordInfo, ReplayMode, ReplayOptions};

/// How the engine plays, fixed for the session.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    /// The rules of new games until `kgs-rules` or `kata-set-rules`.
    pub rules: Rules,
    /// How each move is searched: threads, seed, resignation, knowledge,
    /// judgement, memory.
    pub search: SearchConfig,
    /// Playouts per move without a clock.
    pub playouts: Option<u64>,
    /// Seconds per move without a clock.
    pub time: Option<Duration>,
    /// A level for people (its playouts, the beginner's draw) instead of
    /// `playouts`; a clock may still cut a move short.
    pub strength: Option<Strength>,
    /// The answer to `name`: `tengen`, or what a client needs to hear
    /// (Lizzie speaks KataGo's dialect only to a name starting `KataGo`).
    pub name: &'static str,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            rules: Preset::Chinese.rules(),
            search: SearchConfig {
                resign_below: None,
                seed: 0,
                ..SearchConfig::default()
            },
            playouts: None,
            time: None,
            strength: None,
            name: "tengen",
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

/// One engine session. See the module docs.
#[derive(Debug)]
pub struct Session {
    config: EngineConfig,
    rules: Rules,
    /// Komi set by `komi`, kept across `clear_board` (else the rules' komi).
    komi: Option<Points>,
    game: Game,
    search: Search,
    clock: Clock,
    /// Time spent thinking, for `cputime`.
    thinking: Duration,
}

impl Session {
    /// A session on an empty 19x19 board.
    pub fn new(config: EngineConfig) -> Session {
        let search = Search::new(SearchConfig {
            threads: config.search.threads.max(1),
            ..config.search
        });
        Session {
            config,
            rules: config.rules,
            komi: None,
            game: Game::new(config.rules, BoardSize::STANDARD),
            search,
            clock: Clock::default(),
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
        let signals = Signals::default();
        let result = Request::read(cmd, self.game.size()).and_then(|r| self.answer(r, &signals));
        Response { id: cmd.id, result }
    }

    /// Executes one command, writing its response (or its stream, which
    /// runs until `signals.next_line` is raised) to `out`; a search stops
    /// early once `signals.quit` is raised.
    ///
    /// # Errors
    /// Only the writer's errors.
    pub fn execute(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
        signals: &Signals,
    ) -> io::Result<Control> {
        match Request::read(cmd, self.game.size()) {
            Ok(Request::Analyze(analysis)) => {
                out.write_all(stream_start(cmd.id).as_bytes())?;
                out.flush()?;
                self.analyze(&analysis, out, signals, Until::Stopped)?;
                out.write_all(STREAM_END.as_bytes())?;
                out.flush()?;
                Ok(Control::Continue)
            }
            request => {
                let control = match request {
                    Ok(Request::Quit) => Control::Quit,
                    _ => Control::Continue,
                };
                let response = Response {
                    id: cmd.id,
                    result: request.and_then(|r| self.answer(r, signals)),
                };
                write!(out, "{response}")?;
                out.flush()?;
                Ok(control)
            }
        }
    }

    /// What a request does, and its answer; an analysis runs for one
    /// move's budget, its lines in the answer.
    fn answer(&mut self, request: Request, signals: &Signals) -> Result<String, GtpError> {
        let done = |()| String::new();
        match request {
            Request::ProtocolVersion => Ok("2".into()),
            Request::Name => Ok(self.config.name.into()),
            Request::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Request::KnownCommand(name) => Ok(request::is_known(&name).to_string()),
            Request::ListCommands => Ok(request::names().collect::<Vec<_>>().join("\n")),
            Request::Quit => Ok(String::new()),
            Request::BoardSize(size) => {
                self.clear(size);
                Ok(String::new())
            }
            Request::ClearBoard => {
                self.clear(self.game.size());
                Ok(String::new())
            }
            Request::Komi(k) => {
                self.komi = Some(k);
                self.apply_komi();
                Ok(String::new())
            }
            Request::GetKomi => Ok(self.game.komi().to_string()),
            Request::FixedHandicap(n) => self.handicap(n, HandicapStones::Fixed),
            Request::PlaceFreeHandicap(n) => self.place_free_handicap(n),
            Request::SetFreeHandicap(points) => self
                .handicap(points.len() as u32, HandicapStones::Free(points))
                .map(|_placed| String::new()),
            Request::Play(color, mv) => self.play(color, mv).map(done),
            Request::Genmove(color) => {
                self.genmove(color, GenMode::Normal, Commit::Play, &signals.quit)
            }
            Request::GenmoveCleanup(color) => {
                self.genmove(color, GenMode::Cleanup, Commit::Play, &signals.quit)
            }
            Request::RegGenmove(color) => {
                self.genmove(color, GenMode::Normal, Commit::Suggest, &signals.quit)
            }
            Request::Undo => self.game.undo().map(done).map_err(|_| GtpError::CannotUndo),
            Request::FinalScore => Ok(self.final_outcome()),
            Request::FinalStatusList(status) => Ok(self.status_list(status)),
            Request::TimeSettings(control) => {
                self.clock = Clock::new(control);
                Ok(String::new())
            }
            Request::TimeLeft {
                color,
                time_ms,
                count,
            } => {
                self.clock.set_left(color, time_ms, count);
                Ok(String::new())
            }
            Request::SetRules(rules) => self.set_rules(rules).map(done),
            Request::GetRules => Ok(tengen_gtp::rules::to_json(
                &self.rules,
                self.game.stated_komi(),
            )),
            Request::LoadSgf { path, until } => self.load_sgf(&path, until),
            Request::PrintSgf(path) => self.print_sgf(path.as_deref()),
            Request::ShowBoard => Ok(args::diagram(self.game.board(), self.game.captures())),
            Request::CpuTime => Ok(format!("{:.3}", self.thinking.as_secs_f64())),
            Request::Analyze(analysis) => {
                let mut sink = Vec::new();
                self.analyze(&analysis, &mut sink, signals, Until::Budget)
                    .map(|()| String::from_utf8_lossy(&sink).into_owned())
                    .map_err(|e| GtpError::Other(e.to_string()))
            }
            Request::AnalyzeCommands => Ok([
                "string/Final score/final_score",
                "plist/Dead stones/final_status_list dead",
                "plist/Seki stones/final_status_list seki",
                "string/Explain the last move/tengen-explain %p",
            ]
            .join("\n")),
            Request::Explain(mv) => self.explain(mv),
            Request::Chat { private, from, .. } => {
                tracing::debug!("chat from {from}");
                // kgsGtp relays a success as the reply and nothing for a
                // failure: a private message gets a word, the game's chat
                // is left alone.
                if private {
                    Ok(format!(
                        "tengen {}, a Go engine: I do not read chat, but good game!",
                        env!("CARGO_PKG_VERSION")
                    ))
                } else {
                    Err(GtpError::Other("no reply in the game's chat".into()))
                }
            }
            Request::GameOver => {
                // Nothing runs between commands; the tree of the game
                // ended is of no further use.
                self.search.clear();
                Ok(String::new())
            }
        }
    }

    /// `tengen-explain <vertex>`: the lexicon's line for the last move,
    /// which `mv` must be, in English.
    fn explain(&self, mv: Move) -> Result<String, GtpError> {
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
        let names = tengen_lexicon::name_last(&self.game);
        Ok(tengen_lexicon::explain_line(
            self.game.turns().len(),
            last.color,
            last.mv,
            self.game.size(),
            &names,
            tengen_lexicon::Lang::EN,
        ))
    }

    /// An empty board: same rules, same komi, fresh clocks and search.
    fn clear(&mut self, size: BoardSize) {
        self.game = Game::new(self.rules, size);
        self.apply_komi();
        self.clock = Clock::new(self.clock.control());
        self.search.clear();
    }

    /// Sets the GTP komi on the game; in a handicap game the rules' stone
    /// compensation stays on top of it.
    fn apply_komi(&mut self) {
        if let Some(k) = self.komi {
            self.game.set_stated_komi(k);
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
    /// ([`handicap::free_points`]), between 2 and one less than the points
    /// of the board (GNU Go's checks and error strings).
    fn place_free_handicap(&mut self, n: u32) -> Result<String, GtpError> {
        self.ensure_empty()?;
        let size = self.game.size();
        if n < 2 || n as usize >= size.num_points() {
            return Err(GtpError::Other("invalid handicap".into()));
        }
        self.handicap(n, HandicapStones::Free(handicap::free_points(size, n)))
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
    fn play(&mut self, color: Color, mv: Move) -> Result<(), GtpError> {
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
    fn position_for(&self, color: Color) -> Game {
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
        match Game::from_setup(self.rules, &Setup::of(game.board(), color)) {
            Ok(mut g) => {
                g.set_komi(game.komi());
                g
            }
            Err(_) => game,
        }
    }

    /// The search budget for `color`'s next move: the clock's share when a
    /// clock runs, else the configured playouts or seconds.
    fn limit_for(&self, color: Color, game: &Game) -> Limit {
        let level = self.config.strength.map(Strength::playouts);
        if self.clock.control() != TimeControl::None {
            let t = think_time(self.clock.control(), &self.clock.side(color), game);
            if !t.is_zero() {
                return Limit {
                    playouts: level,
                    time: Some(t),
                    ..Limit::default()
                };
            }
        }
        match (level.or(self.config.playouts), self.config.time) {
            (None, None) => Limit::playouts(DEFAULT_PLAYOUTS),
            (playouts, time) => Limit {
                playouts,
                time,
                ..Limit::default()
            },
        }
    }

    /// Searches `color`'s move within the budget (or until `quit` is
    /// raised) and plays or suggests it.
    fn genmove(
        &mut self,
        color: Color,
        mode: GenMode,
        commit: Commit,
        quit: &AtomicBool,
    ) -> Result<String, GtpError> {
        if self.game.phase() == Phase::Over {
            return Ok("pass".into());
        }
        let game = self.position_for(color);
        let limit = self.limit_for(color, &game);
        let started = Instant::now();
        let (decision, analysis) = analyze::decide(
            &mut self.search,
            &game,
            limit,
            mode,
            &Restrictions::NONE,
            quit,
        );
        let decision = match self.config.strength {
            // The draw differs from move to move of one game.
            Some(level) => level.choose(
                decision,
                &analysis,
                self.config.search.seed ^ game.move_number() as u64,
            ),
            None => decision,
        };
        let used = started.elapsed();
        self.thinking += used;
        let reply = self.commit(color, decision, used, commit)?;
        // What a GTP engine writes after its move (as Pachi and Leela do):
        // shown with `RUST_LOG=info`, for a GUI's console or a match's log.
        tracing::info!(
            "{color:?} {reply} after {} simulations in {:.2} s: win {:.1}% (search {:.1}%), lead {:+.1}",
            analysis.visits,
            used.as_secs_f64(),
            100.0 * analysis.winrate,
            100.0 * analysis.searched_winrate,
            analysis.score_lead,
        );
        Ok(reply)
    }

    /// The lines of an analysis command for the colour it names (else the
    /// player to move): reports until `stop` is set (`Until::Stopped`) or
    /// for one move's budget; `genmove_analyze` then plays the search's
    /// choice and ends with `play <vertex>`.
    fn analyze(
        &mut self,
        request: &AnalyzeRequest,
        out: &mut dyn Write,
        signals: &Signals,
        until: Until,
    ) -> io::Result<()> {
        let options = &request.options;
        let color = options.color.unwrap_or(self.game.to_move());
        let game = self.position_for(color);
        let limit = match (request.genmove, until) {
            (true, _) | (false, Until::Budget) => self.limit_for(color, &game),
            (false, Until::Stopped) => Limit::playouts(ANALYSIS_MAX_PLAYOUTS),
        };
        // A genmove_analyze runs for its budget: the next line waits, only
        // `quit` or the end of input stops it.
        let stop_search = if request.genmove {
            &signals.quit
        } else {
            &signals.next_line
        };
        let playing = game.phase() == Phase::Playing;
        let started = Instant::now();
        let reported = if playing {
            analyze::report(
                &mut self.search,
                &game,
                limit,
                stop_search,
                request.format,
                options,
                out,
            )
        } else {
            Ok(())
        };
        self.thinking += started.elapsed();
        reported?;
        if request.genmove {
            let decision = if playing {
                // The tree just grown is reused: one more simulation, and
                // the decision (resignation, cleanup) is the search's own.
                let restrictions = analyze::restrictions(&options.clauses);
                let one = Limit::playouts(1);
                analyze::decide(
                    &mut self.search,
                    &game,
                    one,
                    GenMode::Normal,
                    &restrictions,
                    &signals.quit,
                )
                .0
            } else {
                Decision::Move(Move::Pass)
            };
            let played = self.commit(color, decision, started.elapsed(), Commit::Play);
            let text = played.unwrap_or_else(|e| e.to_string());
            writeln!(out, "play {text}")?;
        } else if until == Until::Stopped {
            while !signals.next_line.load(Ordering::Acquire) {
                thread::sleep(Duration::from_millis(5));
            }
        }
        out.flush()
    }

    /// Plays the search's decision (unless only suggested) and says it.
    fn commit(
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
            // The controller's next `time_left` corrects any drift, and
            // says whether the flag fell.
            let _ = self
                .clock
                .spend(color, i64::try_from(used.as_millis()).unwrap_or(i64::MAX));
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
        tengen_mcts::estimate_dead(
            &self.game,
            tengen_mcts::ESTIMATE_PLAYOUTS,
            self.config.search.seed,
        )
    }

    /// `final_score`: the result in SGF `RE` form.
    fn final_outcome(&self) -> String {
        match self.game.outcome() {
            Some(o) => o.to_sgf(),
            None => self.game.score(&self.dead_stones()).outcome().to_sgf(),
        }
    }

    /// `final_status_list alive|dead|seki`: one chain per line, as the
    /// count's region map sees the position with the estimated dead removed.
    fn status_list(&self, status: StoneStatus) -> String {
        let board = self.game.board();
        let map = self.game.region_map(&self.dead_stones());
        let stones: Vec<Point> = board
            .size()
            .points()
            .filter(|&p| match (status, map.get(p)) {
                (StoneStatus::Dead, _) => map.dead(p).is_some(),
                (StoneStatus::Seki, Mark::SekiStone(_)) | (StoneStatus::Alive, Mark::Stone(_)) => {
                    true
                }
                _ => false,
            })
            .collect();
        chain_lines(board, &stones)
    }

    /// Changes the rules, keeping the game: its moves are replayed under the
    /// new rules (refused if one of them is illegal there).
    fn set_rules(&mut self, rules: Rules) -> Result<(), GtpError> {
        let setup = Setup {
            handicap: self.game.handicap(),
            ..Setup::of(self.game.initial_board(), self.game.first_to_move())
        };
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

    /// `loadsgf file [move_number | vertex]`: the record's main line
    /// (tolerantly replayed), up to the position before `move_number` or
    /// before the first move at `vertex`. The record's komi is kept until
    /// an explicit `komi`, whatever rules follow. Answers the colour to
    /// move, as GNU Go does.
    fn load_sgf(&mut self, path: &str, until: Option<LoadUntil>) -> Result<String, GtpError> {
        let tolerant = ReplayOptions {
            mode: ReplayMode::Tolerant,
            ..ReplayOptions::default()
        };
        let source = record::Source::File(Path::new(path));
        let loaded =
            record::load_main_line(source, &ParseOptions::lenient(), &tolerant).map_err(|e| {
                tracing::debug!("loadsgf {path}: {e}");
                GtpError::CannotLoadFile
            })?;
        let mut game = loaded.replay.game;
        let keep = match until {
            None => game.turns().len(),
            Some(LoadUntil::MoveNumber(n)) => n.max(1) - 1,
            Some(LoadUntil::Vertex { column, row }) => {
                let size = game.size();
                let at = row
                    .checked_sub(1)
                    .and_then(|r| size.height().checked_sub(r + 1))
                    .and_then(|y| size.point(column, y))
                    .ok_or(GtpError::InvalidCoordinate)?;
                game.turns()
                    .iter()
                    .position(|t| t.mv == Move::Play(at))
                    .unwrap_or(game.turns().len())
            }
        };
        while game.turns().len() > keep {
            if game.undo().is_err() {
                break;
            }
        }
        self.rules = *game.rules();
        self.komi = Some(game.stated_komi());
        self.game = game;
        self.search.clear();
        Ok(self.game.to_move().to_string())
    }

    /// `printsgf [file]`: the game as SGF, answered or written to `file`.
    fn print_sgf(&self, path: Option<&str>) -> Result<String, GtpError> {
        let info = RecordInfo::of(&self.game);
        let text = tengen_sgf::write_tree(&record::write_game(&self.game, &info));
        match path {
            Some(path) => std::fs::write(path, text)
                .map(|_| String::new())
                .map_err(|e| GtpError::Other(format!("cannot write {path}: {e}"))),
            None => Ok(text),
        }
    }
}

/// What tells a running command to stop, raised by the thread that reads
/// ahead ([`crate::serve()`]); never raised for [`Session::respond`].
#[derive(Debug, Default)]
pub struct Signals {
    /// A new input line arrived: a streaming analysis ends.
    pub next_line: AtomicBool,
    /// `quit` or the end of input arrived: any search ends now, its
    /// command answered with what it found.
    pub quit: AtomicBool,
}

/// Whether an analysis runs until stopped or for the move's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    /// Until the stop flag is set (the next input line).
    Stopped,
    /// For the budget of one move.
    Budget,
}

/// Whether a generated move is played or only suggested (`reg_genmove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Commit {
    /// Play it.
    Play,
    /// Say it only.
    Suggest,
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

    /// Times far beyond any clock are accepted and saturate (they used to
    /// panic converting to a duration); non-finite ones are refused.
    #[test]
    fn extreme_times_are_held_not_panicked_on() {
        let mut s = session();
        for line in [
            "time_settings 1e20 0 0",
            "time_left b 1e20 0",
            "kgs-time_settings byoyomi 1e19 1e19 1",
            "time_left w 1e300 3",
            "kgs-time_settings canadian 1e30 1e30 4294967295",
        ] {
            assert_eq!(say(&mut s, line), Ok(String::new()), "{line}");
        }
        for line in [
            "time_settings inf 0 0",
            "time_left b nan 0",
            "time_settings -1 0 0",
        ] {
            assert_eq!(say(&mut s, line), Err(GtpError::Syntax), "{line}");
        }
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
        assert_eq!(
            say(&mut s, "lz-analyze b 1 frob 2"),
            Err(GtpError::Other("unknown analysis option \"frob\"".into()))
        );
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
        let rules = say(&mut s, "kata-get-rules").unwrap();
        assert!(rules.contains(r#""ko":"POSITIONAL""#), "{rules}");
        assert!(rules.contains(r#""suicide":true"#), "{rules}");
        assert_eq!(say(&mut s, "undo"), Ok(String::new()));
        assert_eq!(say(&mut s, "kgs-rules chinese"), Ok(String::new()));
        let rules = say(&mut s, "kata-get-rules").unwrap();
        assert!(rules.contains(r#""suicide":false"#), "{rules}");
        assert!(rules.contains(r#""whiteHandicapBonus":"N""#), "{rules}");
    }
}
