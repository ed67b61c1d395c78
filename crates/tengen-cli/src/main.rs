//! `tengen`: the rules of Go, exactly, from one binary. Thin glue over the
//! library crates, one module per subcommand.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A Go (baduk, weiqi) system: exact rules, every rule set of the texts.
#[derive(Debug, Parser)]
#[command(name = "tengen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the rule-set presets and every field of each, or one preset.
    Rules(cmd::rules::Args),
    /// Measure speed: light playouts, full-rules play.
    Bench(cmd::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(args) => cmd::rules::run(&args),
        Command::Bench(args) => cmd::bench::run(&args),
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
            ExitCode::from(2)
        }
    }
}
