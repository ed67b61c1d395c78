//! `tengen match`: games between two GTP engines, refereed by tengen, one
//! line per game on stdout and a summary; progress on stderr.

use anyhow::{Result, bail};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tengen_core::{BoardSize, Points, Rules, TimeControl};
use tengen_engine::referee::{COMMAND_TIMEOUT, Event, MatchConfig, Side, play_match};
use tengen_gtp::EngineStderr;

/// `--clock`: the words of `kgs-time_settings`.
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    tengen_gtp::clock::parse_kgs_time_settings(&words).map_err(|_| {
        format!(
            "{text:?} is not a clock: give `absolute MAIN`, `byoyomi MAIN PERIOD PERIODS`, \
             `canadian MAIN PERIOD STONES` (seconds) or `none`"
        )
    })
}

/// Arguments of `tengen match`.
#[derive(Debug, clap::Args)]
#[command(after_help = DEAD_STONES)]
pub struct Args {
    /// Engine A's command line (Black in odd games, White in even ones).
    #[arg(long)]
    black: String,
    /// Engine B's command line.
    #[arg(long)]
    white: String,
    /// Games to play.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: u32,
    /// The referee's rules.
    #[arg(long, default_value = "chinese")]
    rules: Rules,
    /// Komi (default: the rules' komi).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<Points>,
    /// Directory for one SGF per game.
    #[arg(long)]
    sgf_dir: Option<PathBuf>,
    /// Seconds an engine may take for one move before it loses on time
    /// (default 900).
    #[arg(long)]
    move_timeout: Option<f64>,
    /// Each engine's clock, in the words of KGS's `kgs-time_settings`:
    /// `absolute MAIN`, `byoyomi MAIN PERIOD PERIODS`, `canadian MAIN
    /// PERIOD STONES` (seconds) or `none`. Each engine is told it, and its
    /// time left before each move; a move after the flag fell loses on
    /// time.
    #[arg(long, value_parser = parse_clock, default_value = "none")]
    clock: TimeControl,
    /// Seconds an engine may take to answer any other command (setup,
    /// a move relayed, dead stones). An engine that does not answer its
    /// setup in time, or does not speak GTP, loses the game.
    #[arg(long, default_value_t = COMMAND_TIMEOUT.as_secs_f64())]
    command_timeout: f64,
    /// Stop a game after this many moves and count it as it stands
    /// (default: three times the points of the board).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Show the engines' stderr.
    #[arg(long)]
    engine_stderr: bool,
}

/// How the end of a game is settled, for the help.
const DEAD_STONES: &str = "Dead stones: after two passes both engines are asked for \
`final_status_list dead`. When they disagree or one does not answer, under area counting \
play resumes: each engine is asked for `kgs-genmove_cleanup` moves (`genmove` if it does not \
know the command) until two passes or as many moves as the board has points, and every stone \
left is counted alive (as on KGS). Under territory counting, where play-on would change the \
count, the referee's own estimate decides. Each game's line says which happened.";

pub fn run(args: &Args) -> Result<ExitCode> {
    let size = BoardSize::square(args.size)?;
    let seconds = |t: f64, flag: &str| {
        if t.is_finite() && t > 0.0 && t < 1e9 {
            Ok(Duration::from_secs_f64(t))
        } else {
            bail!("--{flag} must be a positive number of seconds")
        }
    };
    let move_timeout = match args.move_timeout {
        Some(t) => Some(seconds(t, "move-timeout")?),
        None => None,
    };
    let command_timeout = seconds(args.command_timeout, "command-timeout")?;
    let config = MatchConfig {
        a: args.black.clone(),
        b: args.white.clone(),
        games: args.games,
        size,
        rules: args.rules,
        komi: args.komi,
        sgf_dir: args.sgf_dir.clone(),
        move_timeout,
        clock: args.clock,
        command_timeout,
        max_moves: args.max_moves,
        stderr: if args.engine_stderr {
            EngineStderr::Inherit
        } else {
            EngineStderr::Discard
        },
        seed: 0,
    };
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    let (mut a, mut b) = (0u32, 0u32);
    let mut thinking = Thinking::default();
    let tally = play_match(&config, &mut |event| match event {
        Event::Started { number, a_color } => {
            eprintln!("game {number}/{}: A plays {a_color}", args.games);
        }
        Event::Moved { game } => {
            if game.turns().len() % 50 == 0 {
                eprintln!("  move {}", game.turns().len());
            }
        }
        Event::Finished(report) => {
            match report.winner() {
                Some(Side::A) => a += 1,
                Some(Side::B) => b += 1,
                None => {}
            }
            thinking.add(report);
            eprintln!("  {} (A {a} B {b})", report.outcome.to_sgf());
            if let Err(e) = writeln!(out, "{}", report.line()) {
                failed.get_or_insert(e);
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    writeln!(
        out,
        "A: {}\nB: {}\n{}\n{}",
        args.black,
        args.white,
        tally.summary(),
        thinking.line()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Each engine's thinking over the match, so that a claim of equal time
/// can be read off the summary.
#[derive(Default)]
struct Thinking {
    seconds: [f64; 2],
    moves: [usize; 2],
}

impl Thinking {
    fn add(&mut self, report: &tengen_engine::referee::GameReport) {
        for color in [tengen_core::Color::Black, tengen_core::Color::White] {
            let side = usize::from(color != report.a_color);
            self.seconds[side] += report.thought[color].as_secs_f64();
            self.moves[side] += report
                .game
                .turns()
                .iter()
                .filter(|t| t.color == color)
                .count();
        }
    }

    /// `thinking: A 4.61 s a move (512 moves), B 0.55 s a move (508 moves)`.
    fn line(&self) -> String {
        let each = |i: usize| {
            let per = self.seconds[i] / self.moves[i].max(1) as f64;
            format!("{per:.2} s a move ({} moves)", self.moves[i])
        };
        format!("thinking: A {}, B {}", each(0), each(1))
    }
}
