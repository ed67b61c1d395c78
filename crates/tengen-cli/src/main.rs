//! `tengen`: the rules of Go, exactly, from one binary. Thin glue over the
//! library crates, one module per subcommand.

// No panics on input paths: every command returns its error (tests may
// unwrap).

mod cmd;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// tengen plays, counts and teaches Go (baduk, weiqi).
///
/// A web board to play, review, count and learn in the browser, in English
/// and French; a Monte-Carlo program that plays over the Go Text Protocol
/// (for Sabaki, GoGui, Lizzie) and analyses over KataGo's JSON analysis
/// protocol (for KaTrain); and exact rules for referees (New Zealand,
/// Chinese 2002, French Federation, the Strasbourg teaching progression,
/// Tromp-Taylor, AGA, Japanese), to check and count game records.
// `about` is the package's description; the text above is the long one
// (`--help`, the manual page).
// Every subcommand takes `--version` too, as the manual pages say.
#[derive(Debug, Parser)]
#[command(
    name = "tengen",
    version,
    propagate_version = true,
    about,
    after_help = cmd::exit::HELP
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the rule-set presets and every field of each, or one preset.
    Rules(cmd::rules::Args),
    /// Replay every game of SGF files under their own rules and report
    /// each problem as `file:game:move: what and why`.
    Check(cmd::check::Args),
    /// Count the final position of an SGF record's main line.
    Score(cmd::score::Args),
    /// Name the moves of an SGF record's main line (keima, tsuke, shicho...)
    /// with a sentence in English or French; or count the terms over many.
    Explain(cmd::explain::Args),
    /// Measure speed: light playouts, full-rules play.
    Bench(cmd::bench::Args),
    /// Serve the web board: play, count and learn in the browser.
    Serve(cmd::serve::Args),
    /// Add a member of the web board, or give one a new password.
    Member(cmd::member::Args),
    /// Play Go over GTP on stdin and stdout (for GUIs and servers).
    Gtp(cmd::gtp::Args),
    /// Analyse positions over KataGo's JSON analysis protocol on stdin
    /// and stdout (for KaTrain and scripts); takes KataGo's arguments.
    Analysis(cmd::analysis::Args),
    /// Referee games between two GTP engines and rate them.
    Match(cmd::r#match::Args),
    /// Learn a move model from game records.
    Train(cmd::train::Args),
    /// Measure how well a model predicts the moves of records.
    Predict(cmd::predict::Args),
    /// Measure how well tengen judges records: who is winning and by how
    /// much, at every position, against the recorded result.
    Evaluate(cmd::evaluate::Args),
    /// Print the completion script of a shell (bash, zsh, fish...).
    Completions(cmd::completions::Args),
    /// Write the manual pages (tengen.1, tengen-COMMAND.1) into a directory.
    Manpages(cmd::manpages::Args),
}

/// The command line as it is parsed, documented and completed: the derived
/// definitions, with the names of the options that take one listed.
pub fn cli() -> clap::Command {
    cmd::names::list(Cli::command())
}

fn main() -> ExitCode {
    let mut command = cli();
    let cli = command
        .try_get_matches_from_mut(cmd::analysis::katago_style(std::env::args_os()))
        .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches))
        .unwrap_or_else(|err| err.format(&mut command).exit());
    let result = match cli.command {
        Command::Rules(args) => cmd::rules::run(&args),
        Command::Check(args) => cmd::check::run(&args),
        Command::Score(args) => cmd::score::run(&args),
        Command::Explain(args) => cmd::explain::run(&args),
        Command::Bench(args) => cmd::bench::run(&args),
        Command::Serve(args) => cmd::serve::run(&args),
        Command::Member(args) => cmd::member::run(&args),
        Command::Gtp(args) => cmd::gtp::run(&args),
        Command::Analysis(args) => cmd::analysis::run(&args),
        Command::Match(args) => cmd::r#match::run(&args),
        Command::Train(args) => cmd::train::run(&args),
        Command::Predict(args) => cmd::predict::run(&args),
        Command::Evaluate(args) => cmd::evaluate::run(&args),
        Command::Completions(args) => cmd::completions::run(&args),
        Command::Manpages(args) => cmd::manpages::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if let Some(io) = err.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("tengen: {err:#}");
            cmd::exit::failed()
        }
    }
}
