//! `tengen match`: games between two GTP engines with tengen's [`Game`] as
//! referee. Engine A plays Black in odd games and White in even ones. An
//! illegal or unreadable move, a crash, a refused legal move or a timeout
//! loses, and so does an engine that fails the setup of a game (it does
//! not speak GTP, it refuses the board); every command has a time limit
//! ([`MatchConfig::command_timeout`], [`MatchConfig::move_timeout`]);
//! `resign` ends the game; after two passes both engines are asked
//! for their dead stones (`final_status_list dead`).
//!
//! With a clock ([`MatchConfig::clock`]) the referee keeps each engine's
//! time as KGS does: it tells the control at the setup
//! (`kgs-time_settings`, else GTP's `time_settings`), the time left
//! before each move (`time_left`), and an engine whose move comes after
//! its flag fell loses on time. Without one, each move has
//! [`MatchConfig::move_timeout`]. Either way every game's line says how
//! long each engine thought.
//!
//! When they disagree, or one does not answer, the referee lends neither
//! player its judgement where the rules allow: under area counting, play
//! resumes as on KGS and in gogui-twogtp, each engine asked for
//! `kgs-genmove_cleanup` moves (plain `genmove` when it does not know the
//! command), until two passes or as many moves as the board has points;
//! then every stone on the board is alive. Under territory counting, where
//! play-on would change the count, the referee's own estimate decides, and
//! the game's reason says so. See [`Settlement`].

use crate::stats::Tally;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tengen_core::{
    BoardSize, ByColor, Clock, Color, Game, Outcome, Phase, Point, Points, Rules, TimeControl,
    Vertex,
};
use tengen_gtp::args::{move_text, parse_move};
use tengen_gtp::clock::{kgs_time_settings, time_left, time_settings};
use tengen_gtp::{Client, ClientError, EngineStderr};
use tengen_sgf::record::{self, RecordInfo};

/// Playouts of the referee's dead-stone estimate: twice the usual
/// ([`tengen_mcts::ESTIMATE_PLAYOUTS`]), since its count settles a disputed
/// game of a match, where a contested group's status is worth the time.
pub const REFEREE_PLAYOUTS: u64 = 2 * tengen_mcts::ESTIMATE_PLAYOUTS;

/// The default time allowed for a command other than a move: an engine
/// that loads a large network before it reads its input needs some.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// The default time allowed for one move: more than tengen's own longest
/// think ([`tengen_mcts::time::MAX_THINK_MS`]), so that no sane engine loses by
/// it, but a bound all the same.
pub const MOVE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A's command line (Black in game 1).
    pub a: String,
    /// Engine B's command line.
    pub b: String,
    /// Games to play.
    pub games: u32,
    /// The board.
    pub size: BoardSize,
    /// The referee's rules.
    pub rules: Rules,
    /// Komi (the rules' komi when not given).
    pub komi: Option<Points>,
    /// Where to write one SGF per game.
    pub sgf_dir: Option<PathBuf>,
    /// Longest wait for one move; the engine loses on time beyond it
    /// ([`MOVE_TIMEOUT`] when not given), its clock's time left sooner.
    pub move_timeout: Option<Duration>,
    /// Each engine's clock for a game ([`TimeControl::None`]: none).
    pub clock: TimeControl,
    /// Longest wait for any other command (setup, relaying a move, dead
    /// stones); an engine that does not answer its setup in time loses the
    /// game.
    pub command_timeout: Duration,
    /// Turns after which the game is stopped and counted as it stands
    /// (default: three times the points of the board).
    pub max_moves: Option<usize>,
    /// Where the engines' stderr goes.
    pub stderr: EngineStderr,
    /// Seed of the referee's dead-stone estimate.
    pub seed: u64,
}

/// Which engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `--black`, Black in odd games.
    A,
    /// `--white`.
    B,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Why a match cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// An engine could not be started or refused the game's setup.
    #[error("engine {side}: {error}")]
    Engine {
        /// Which engine.
        side: Side,
        /// What went wrong.
        error: ClientError,
    },
    /// A record could not be written.
    #[error("cannot write {}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1 for the first game.
    pub number: u32,
    /// A's colour in this game.
    pub a_color: Color,
    /// The game as played, cleanup moves included (its outcome, if the
    /// referee ended it by the rules; a game stopped at a move cap has none).
    pub game: Game,
    /// The result.
    pub outcome: Outcome,
    /// How the result came about, in words.
    pub reason: String,
    /// The record written, if any.
    pub sgf: Option<PathBuf>,
    /// How long each colour thought, over all its moves.
    pub thought: ByColor<Duration>,
}

impl GameReport {
    /// The engine that won, if one did.
    pub fn winner(&self) -> Option<Side> {
        self.outcome
            .winner()
            .map(|c| if c == self.a_color { Side::A } else { Side::B })
    }

    /// The line printed for the game.
    pub fn line(&self) -> String {
        let winner = self.winner().map_or("none".to_string(), |s| s.to_string());
        format!(
            "game {}: A {} B {}: {} winner {} moves {} ({}) thinking B {:.1} s W {:.1} s",
            self.number,
            self.a_color,
            self.a_color.opponent(),
            self.outcome.to_sgf(),
            winner,
            self.game.turns().len(),
            self.reason,
            self.thought.black.as_secs_f64(),
            self.thought.white.as_secs_f64(),
        )
    }
}

/// What the referee reports as the match goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A game starts.
    Started {
        /// Its number.
        number: u32,
        /// A's colour.
        a_color: Color,
    },
    /// A move was played.
    Moved {
        /// The game so far.
        game: &'a Game,
    },
    /// A game is over.
    Finished(&'a GameReport),
}

/// An engine in a game, with its colour.
struct Player {
    client: Client,
    name: String,
    /// How the engine was told the clock.
    told: Told,
    /// How long it thought, over all its moves.
    thought: Duration,
}

/// How an engine was told its clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Told {
    /// By `kgs-time_settings`.
    Kgs,
    /// By GTP's `time_settings`.
    Standard,
    /// Not at all: no clock, or the engine refused both commands (it may
    /// still lose on time).
    Not,
}

/// Plays the match, calling `report` as it goes, and returns the tally.
///
/// # Errors
/// [`RefereeError`] when an engine cannot start or set up a game, or a
/// record cannot be written.
pub fn play_match(
    config: &MatchConfig,
    report: &mut dyn FnMut(Event<'_>),
) -> Result<Tally, RefereeError> {
    let mut tally = Tally {
        games: 0,
        a_wins: 0,
        b_wins: 0,
        draws: 0,
    };
    if let Some(dir) = &config.sgf_dir {
        std::fs::create_dir_all(dir).map_err(|error| RefereeError::Write {
            path: dir.clone(),
            error,
        })?;
    }
    for number in 1..=config.games {
        let a_color = if number % 2 == 1 {
            Color::Black
        } else {
            Color::White
        };
        report(Event::Started { number, a_color });
        let result = play_game(config, number, a_color, report)?;
        tally.games += 1;
        match result.winner() {
            Some(Side::A) => tally.a_wins += 1,
            Some(Side::B) => tally.b_wins += 1,
            None => tally.draws += 1,
        }
        report(Event::Finished(&result));
    }
    Ok(tally)
}

/// Why an engine could not take its seat.
enum Unseated {
    /// It could not be started at all: the match cannot be played.
    Fatal(RefereeError),
    /// It started but failed the setup: it loses the game.
    Failed(String),
}

fn start(config: &MatchConfig, side: Side, game: &Game) -> Result<Player, Unseated> {
    let line = match side {
        Side::A => &config.a,
        Side::B => &config.b,
    };
    let mut client = Client::spawn(line, config.stderr)
        .map_err(|error| Unseated::Fatal(RefereeError::Engine { side, error }))?;
    let t = Some(config.command_timeout);
    let size = game.size();
    let name = match client.send("name", t) {
        Ok(name) => name,
        // An engine that does not know `name` may still play; one that
        // gives no answer at all is not a GTP engine.
        Err(ClientError::Refused { .. }) => client.name().to_string(),
        Err(e) => return Err(Unseated::Failed(format!("engine {side}: {e}"))),
    };
    let resize = if size.is_square() {
        format!("boardsize {}", size.width())
    } else {
        format!("rectangular_boardsize {} {}", size.width(), size.height())
    };
    let failed = |e: ClientError| Unseated::Failed(format!("engine {side}: {e}"));
    for cmd in [
        resize,
        "clear_board".into(),
        format!("komi {}", game.stated_komi()),
    ] {
        client.send(&cmd, t).map_err(failed)?;
    }
    let told = tell_clock(&mut client, config).map_err(failed)?;
    Ok(Player {
        client,
        name,
        told,
        thought: Duration::ZERO,
    })
}

/// Tells `client` the match's clock, by KGS's command where it knows it,
/// else by GTP's; refusing both is no fault (the engine plays on without
/// knowing its time).
fn tell_clock(client: &mut Client, config: &MatchConfig) -> Result<Told, ClientError> {
    if config.clock == TimeControl::None {
        return Ok(Told::Not);
    }
    let t = Some(config.command_timeout);
    for (told, command) in [
        (Told::Kgs, kgs_time_settings(config.clock)),
        (Told::Standard, time_settings(config.clock)),
    ] {
        let Some(command) = command else { continue };
        match client.send(&command, t) {
            Ok(_) => return Ok(told),
            Err(ClientError::Refused { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Told::Not)
}

/// The move limit in force.
fn move_limit(config: &MatchConfig) -> Option<Duration> {
    Some(config.move_timeout.unwrap_or(MOVE_TIMEOUT))
}

/// How a game ended before the count.
enum Stop {
    /// By the rules (resignation, forfeit, the count, a capture goal).
    Rules(String),
    /// At the move cap, counted as it stands.
    Cap,
}

fn play_game(
    config: &MatchConfig,
    number: u32,
    a_color: Color,
    report: &mut dyn FnMut(Event<'_>),
) -> Result<GameReport, RefereeError> {
    let mut game = Game::new(config.rules, config.size);
    if let Some(k) = config.komi {
        game.set_komi(k);
    }
    let (black_side, white_side) = match a_color {
        Color::Black => (Side::A, Side::B),
        Color::White => (Side::B, Side::A),
    };
    let seats = (
        start(config, black_side, &game),
        start(config, white_side, &game),
    );
    let mut players = match seats {
        (Ok(black), Ok(white)) => ByColor { black, white },
        (Err(Unseated::Fatal(e)), _) | (_, Err(Unseated::Fatal(e))) => return Err(e),
        (black, white) => {
            return unseated(config, number, a_color, game, black.err(), white.err());
        }
    };
    let cap = config.max_moves.unwrap_or(3 * config.size.num_points());
    let genmove = ByColor::new(GENMOVE, GENMOVE);
    let mut clock = Clock::new(config.clock);
    let table = &mut Table {
        players: &mut players,
        clock: &mut clock,
    };
    let stop = play_until_stop(config, table, &mut game, genmove, cap, report);
    let (outcome, reason) = match stop {
        Stop::Rules(_) if game.phase() == Phase::Marking => {
            settle_dead(config, table, &mut game, report)
        }
        Stop::Rules(reason) => (game_outcome(&game), rules_reason(reason)),
        Stop::Cap => {
            let (dead, why) = match ask_dead(config, &mut players, &game) {
                DeadLists::Agreed(dead) => agreed(dead),
                DeadLists::Disputed(why) => referee_estimate(config, &game, &why),
            };
            (
                game.score(&dead).outcome(),
                format!("stopped after {cap} moves; {why}"),
            )
        }
    };
    let names = ByColor::from_fn(|c| players[c].name.clone());
    let thought = ByColor::from_fn(|c| players[c].thought);
    players.black.client.quit();
    players.white.client.quit();
    let report = finished(config, number, a_color, game, outcome, reason, &names)?;
    Ok(GameReport { thought, ..report })
}

/// Both engines of a game and their clock.
struct Table<'p> {
    players: &'p mut ByColor<Player>,
    clock: &'p mut Clock,
}

/// A game's report, its record written where the match keeps them (no
/// thinking time yet).
fn finished(
    config: &MatchConfig,
    number: u32,
    a_color: Color,
    game: Game,
    outcome: Outcome,
    reason: String,
    names: &ByColor<String>,
) -> Result<GameReport, RefereeError> {
    let sgf = match &config.sgf_dir {
        Some(dir) => Some(write_record(
            dir,
            number,
            &game,
            &outcome,
            names,
            config.clock,
        )?),
        None => None,
    };
    Ok(GameReport {
        number,
        a_color,
        game,
        outcome,
        reason,
        sgf,
        thought: ByColor::new(Duration::ZERO, Duration::ZERO),
    })
}

/// The report of a game that could not start: the engine that failed its
/// setup loses by forfeit; when both failed, the game has no result.
fn unseated(
    config: &MatchConfig,
    number: u32,
    a_color: Color,
    mut game: Game,
    black: Option<Unseated>,
    white: Option<Unseated>,
) -> Result<GameReport, RefereeError> {
    let why = |u: Unseated| match u {
        Unseated::Failed(why) => why,
        Unseated::Fatal(e) => e.to_string(),
    };
    let (outcome, reason) = match (black, white) {
        (Some(b), Some(w)) => (Outcome::Void, format!("{}; {}", why(b), why(w))),
        (Some(b), None) => {
            let _ = game.forfeit(Color::Black);
            (game_outcome(&game), why(b))
        }
        (None, Some(w)) => {
            let _ = game.forfeit(Color::White);
            (game_outcome(&game), why(w))
        }
        (None, None) => (Outcome::Void, String::new()),
    };
    let names = ByColor::from_fn(|c| {
        let side = if c == a_color { Side::A } else { Side::B };
        match side {
            Side::A => config.a.clone(),
            Side::B => config.b.clone(),
        }
    });
    finished(config, number, a_color, game, outcome, reason, &names)
}

/// The command asking for an ordinary move.
const GENMOVE: &str = "genmove";

/// The command asking for a move that captures every dead stone before
/// passing (KGS).
const GENMOVE_CLEANUP: &str = "kgs-genmove_cleanup";

/// Asks for moves with `commands` (per colour), checks each against the
/// rules, relays it to the opponent, until play stops by the rules or
/// `cap` turns have been played in all. The one move exchange of the main
/// phase and of cleanup play.
fn play_until_stop(
    config: &MatchConfig,
    table: &mut Table<'_>,
    game: &mut Game,
    commands: ByColor<&str>,
    cap: usize,
    report: &mut dyn FnMut(Event<'_>),
) -> Stop {
    let size = game.size();
    let players = &mut *table.players;
    loop {
        if game.phase() != Phase::Playing {
            return Stop::Rules(String::new());
        }
        if game.turns().len() >= cap {
            return Stop::Cap;
        }
        let color = game.to_move();
        let limit = match tell_time_left(config, table.clock, &mut players[color], color) {
            Ok(limit) => limit,
            Err(e) => return concede(game, color, &e),
        };
        let started = Instant::now();
        let answer = players[color]
            .client
            .send(&format!("{} {}", commands[color], color.name()), limit);
        let elapsed = started.elapsed();
        players[color].thought += elapsed;
        // The flag first: a move that came late, or none within the time
        // left (a timeout), loses on time whatever it was.
        let allowed = table.clock.allowance(color).unwrap_or(0);
        let ms = i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX);
        if table.clock.spend(color, ms).is_err() {
            let _ = game.lose_on_time(color);
            return Stop::Rules(format!(
                "{color} lost on time: {:.1} s spent with {:.1} s left",
                elapsed.as_secs_f64(),
                allowed as f64 / 1000.0
            ));
        }
        let text = match answer {
            Ok(t) => t,
            Err(e) => return concede(game, color, &e),
        };
        if text.trim().eq_ignore_ascii_case("resign") {
            let _ = game.resign(color);
            return Stop::Rules(format!("{color} resigned"));
        }
        let Ok(mv) = parse_move(text.trim(), size) else {
            let _ = game.forfeit(color);
            return Stop::Rules(format!("{color} answered {:?}, not a move", text.trim()));
        };
        if let Err(e) = game.play(mv) {
            let _ = game.forfeit(color);
            return Stop::Rules(format!("{color} played {}: {e}", move_text(mv, size)));
        }
        report(Event::Moved { game });
        let other = color.opponent();
        let told = players[other].client.send(
            &format!("play {} {}", color.name(), move_text(mv, size)),
            Some(config.command_timeout),
        );
        if let Err(e) = told {
            return concede(game, other, &e);
        }
    }
}

/// How long `player` may take for his move: the time his clock leaves
/// him (told him first by `time_left`, where he knows his clock) and a
/// moment for the answer to travel, never more than the move limit.
fn tell_time_left(
    config: &MatchConfig,
    clock: &Clock,
    player: &mut Player,
    color: Color,
) -> Result<Option<Duration>, ClientError> {
    let limit = move_limit(config);
    let Some(allowed) = clock.allowance(color) else {
        return Ok(limit);
    };
    if player.told != Told::Not {
        let kgs = player.told == Told::Kgs;
        let command = time_left(color, &clock.side(color), clock.control(), kgs);
        match player.client.send(&command, Some(config.command_timeout)) {
            Ok(_) | Err(ClientError::Refused { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    let flag = Duration::from_millis(u64::try_from(allowed).unwrap_or(0)) + FLAG_GRACE;
    Ok(limit.map(|l| l.min(flag)))
}

/// How long past an engine's flag the referee waits for its move before
/// it stops waiting (the move is lost on time either way): the time an
/// answer takes to come through the pipe.
const FLAG_GRACE: Duration = Duration::from_millis(250);

/// The game's result as the rules gave it.
fn game_outcome(game: &Game) -> Outcome {
    game.outcome().copied().unwrap_or(Outcome::Void)
}

/// The words for a game the rules ended, the count when nothing else is said.
fn rules_reason(reason: String) -> String {
    if reason.is_empty() {
        "play stopped: counted as the rules say".to_string()
    } else {
        reason
    }
}

/// `color` loses for a failed exchange: on time for a timeout, by forfeit
/// for a crash, a closed pipe or a refused command.
fn concede(game: &mut Game, color: Color, error: &ClientError) -> Stop {
    match error {
        ClientError::Timeout { .. } => {
            let _ = game.lose_on_time(color);
        }
        _ => {
            let _ = game.forfeit(color);
        }
    }
    Stop::Rules(format!("{color}: {error}"))
}

/// How the referee settles dead stones the engines do not agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settlement {
    /// Play resumes with cleanup moves and every stone left when it stops
    /// again is alive (KGS, gogui-twogtp). Fair only where play-on cannot
    /// change the count.
    CleanupPlay,
    /// The referee's own estimate decides, since further moves would change
    /// the count.
    RefereeEstimate,
}

impl Settlement {
    /// How disputes are settled under `rules`. Under area counting a stone
    /// in one's own territory counts as the point did, and a dead stone
    /// captured would have been removed anyway, so play-on changes nothing.
    /// Pass stones (FFG, AGA) do not break this: the result is the area
    /// count and the quick count must equal it (RULES.md section 4). Under
    /// territory counting a move inside one's own territory costs a point.
    pub fn for_rules(rules: &Rules) -> Settlement {
        // Stone counting and the capture games never remove dead stones,
        // so they never reach a dispute.
        if rules.scoring.counts_area() {
            Settlement::CleanupPlay
        } else {
            Settlement::RefereeEstimate
        }
    }
}

/// What the engines said about the dead stones.
enum DeadLists {
    /// Both named the same chains.
    Agreed(Vec<Point>),
    /// They differ, or one gave no readable answer: what each said.
    Disputed(String),
}

/// Ends a game stopped for the count: the engines' common dead stones, or
/// the dispute settled as [`Settlement::for_rules`] says.
fn settle_dead(
    config: &MatchConfig,
    table: &mut Table<'_>,
    game: &mut Game,
    report: &mut dyn FnMut(Event<'_>),
) -> (Outcome, String) {
    let (dead, why) = match ask_dead(config, table.players, game) {
        DeadLists::Agreed(dead) => agreed(dead),
        DeadLists::Disputed(why) => match Settlement::for_rules(game.rules()) {
            Settlement::CleanupPlay => return cleanup_play(config, table, game, &why, report),
            Settlement::RefereeEstimate => {
                let (dead, why) = referee_estimate(config, game, &why);
                (
                    dead,
                    format!("{why} (play-on would change a territory count)"),
                )
            }
        },
    };
    (count_with(game, &dead), why)
}

/// Counts a game in the dead-stone phase with `dead` removed.
fn count_with(game: &mut Game, dead: &[Point]) -> Outcome {
    let _ = game.propose_dead(Color::Black, dead);
    let _ = game.accept_dead(Color::White);
    game_outcome(game)
}

/// Resumes play, each engine asked for cleanup moves, until two passes or
/// as many moves as the board has points; then every stone is alive.
/// Resignation, an illegal move or a failure ends the game as in play.
fn cleanup_play(
    config: &MatchConfig,
    table: &mut Table<'_>,
    game: &mut Game,
    disputed: &str,
    report: &mut dyn FnMut(Event<'_>),
) -> (Outcome, String) {
    let _ = game.dispute(game.to_move());
    let commands = ByColor::new(
        cleanup_command(config, &mut table.players.black),
        cleanup_command(config, &mut table.players.white),
    );
    let start = game.turns().len();
    let cap = start + game.size().num_points();
    let stop = play_until_stop(config, table, game, commands, cap, report);
    let moves = game.turns().len() - start;
    match stop {
        Stop::Rules(_) if game.phase() == Phase::Marking => (
            count_with(game, &[]),
            format!("{disputed}; settled by cleanup play ({moves} moves)"),
        ),
        Stop::Rules(reason) => (
            game_outcome(game),
            format!("{disputed}; in cleanup play: {}", rules_reason(reason)),
        ),
        Stop::Cap => (
            game.score(&[]).outcome(),
            format!("{disputed}; cleanup play stopped after {moves} moves, every stone alive"),
        ),
    }
}

/// `kgs-genmove_cleanup` where the engine says it knows it, else `genmove`.
fn cleanup_command(config: &MatchConfig, player: &mut Player) -> &'static str {
    let t = Some(config.command_timeout);
    let known = player
        .client
        .send(&format!("known_command {GENMOVE_CLEANUP}"), t);
    match known {
        Ok(answer) if answer.trim() == "true" => GENMOVE_CLEANUP,
        _ => GENMOVE,
    }
}

/// Both engines' `final_status_list dead`, compared as chains.
fn ask_dead(config: &MatchConfig, players: &mut ByColor<Player>, game: &Game) -> DeadLists {
    let t = Some(config.command_timeout);
    let mut ask = |c: Color| {
        let answer = players[c].client.send("final_status_list dead", t);
        answer.ok().and_then(|text| chains_of(game, &text))
    };
    let (black, white) = (ask(Color::Black), ask(Color::White));
    match (black, white) {
        (Some(b), Some(w)) if b == w => DeadLists::Agreed(b),
        (b, w) => {
            let said = |l: &Option<Vec<Point>>| {
                l.as_ref()
                    .map_or("no answer".to_string(), |l| stones(l.len()))
            };
            DeadLists::Disputed(format!(
                "engines disagreed on dead stones (black: {}, white: {})",
                said(&b),
                said(&w)
            ))
        }
    }
}

/// The engines' common dead stones, with the words saying so.
fn agreed(dead: Vec<Point>) -> (Vec<Point>, String) {
    let why = format!("both engines mark {} dead", stones(dead.len()));
    (dead, why)
}

/// The referee's own dead stones for a dispute, with the words saying so.
fn referee_estimate(config: &MatchConfig, game: &Game, disputed: &str) -> (Vec<Point>, String) {
    let dead = tengen_mcts::estimate_dead(game, REFEREE_PLAYOUTS, config.seed);
    let why = format!(
        "{disputed}; the referee's estimate marks {} dead",
        stones(dead.len())
    );
    (dead, why)
}

/// "1 stone", "3 stones".
fn stones(n: usize) -> String {
    if n == 1 {
        "1 stone".to_string()
    } else {
        format!("{n} stones")
    }
}

/// The stones of every chain named in a vertex list, sorted; `None` when
/// a vertex does not read or names no stone.
fn chains_of(game: &Game, text: &str) -> Option<Vec<Point>> {
    let board = game.board();
    let mut stones = Vec::new();
    for word in text.split_whitespace() {
        match Vertex::parse(word, game.size()).ok()? {
            Vertex::Point(p) if board.get(p).is_some() => stones.extend(board.chain(p)),
            _ => return None,
        }
    }
    stones.sort();
    stones.dedup();
    Some(stones)
}

fn write_record(
    dir: &Path,
    number: u32,
    game: &Game,
    outcome: &Outcome,
    names: &ByColor<String>,
    clock: TimeControl,
) -> Result<PathBuf, RefereeError> {
    let info = RecordInfo {
        result_text: Some(outcome.to_sgf()),
        black: Some(names.black.clone()),
        white: Some(names.white.clone()),
        time: clock,
        ..RecordInfo::of(game)
    };
    let path = dir.join(format!("game-{number:03}.sgf"));
    let text = tengen_sgf::write_tree(&record::write_game(game, &info));
    std::fs::write(&path, text).map_err(|error| RefereeError::Write {
        path: path.clone(),
        error,
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Preset;

    #[test]
    fn dead_lists_are_read_as_whole_chains() {
        let size = BoardSize::square(9).unwrap();
        let mut game = Game::new(Preset::Chinese.rules(), size);
        for v in ["C3", "G7", "D3"] {
            game.play(parse_move(v, size).unwrap()).unwrap();
        }
        assert_eq!(chains_of(&game, "C3").unwrap().len(), 2);
        assert_eq!(chains_of(&game, "D3\nG7").unwrap().len(), 3);
        assert_eq!(chains_of(&game, "").unwrap().len(), 0);
        assert!(chains_of(&game, "E5").is_none());
        assert!(chains_of(&game, "Z9").is_none());
    }

    #[test]
    fn disputes_are_played_out_only_where_play_on_keeps_the_count() {
        for preset in Preset::ALL {
            let expected = match preset {
                Preset::NewZealand
                | Preset::Chinese
                | Preset::Ffg
                | Preset::TrompTaylor
                | Preset::Aga => Settlement::CleanupPlay,
                Preset::Japanese
                | Preset::Strasbourg
                | Preset::FirstCapture
                | Preset::CaptureFive => Settlement::RefereeEstimate,
            };
            assert_eq!(
                Settlement::for_rules(&preset.rules()),
                expected,
                "{preset:?}"
            );
        }
    }
}
