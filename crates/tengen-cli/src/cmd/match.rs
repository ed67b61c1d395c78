//! `tengen match`: games between two GTP engines, refereed by tengen, one
//! line per game on stdout and a summary; progress on stderr.

use anyhow::{Result, bail};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tengen_core::{BoardSize, Points, Rules};
use tengen_engine::referee::{COMMAND_TIMEOUT, Event, MatchConfig, play_match};
use tengen_gtp::EngineStderr;

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
                Some(tengen_engine::referee::Side::A) => a += 1,
                Some(tengen_engine::referee::Side::B) => b += 1,
                None => {}
            }
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
        "A: {}\nB: {}\n{}",
        args.black,
        args.white,
        tally.summary()
    )?;
    Ok(ExitCode::SUCCESS)
}
