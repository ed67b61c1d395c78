//! `tengen completions SHELL`: the shell's completion script, generated from
//! the command-line definitions by clap_complete, so that it cannot drift
//! from them.

use anyhow::Result;
use clap::CommandFactory;
use clap_complete::Shell;
use std::process::ExitCode;

/// Arguments of `tengen completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let mut command = crate::Cli::command();
    clap_complete::generate(
        args.shell,
        &mut command,
        "tengen",
        &mut std::io::stdout().lock(),
    );
    Ok(ExitCode::SUCCESS)
}
