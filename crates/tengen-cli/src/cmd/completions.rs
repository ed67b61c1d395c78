//! `tengen completions SHELL`: the shell's completion script, generated from
//! the command-line definitions by clap_complete, so that it cannot drift
//! from them. Options that take a name (`--rules`, `--knowledge`, `--lang`)
//! complete those names ([`super::names`]), not file names.

use anyhow::Result;
use clap_complete::Shell;
use std::process::ExitCode;

/// Arguments of `tengen completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let mut command = crate::cli();
    clap_complete::generate(
        args.shell,
        &mut command,
        "tengen",
        &mut std::io::stdout().lock(),
    );
    Ok(ExitCode::SUCCESS)
}
