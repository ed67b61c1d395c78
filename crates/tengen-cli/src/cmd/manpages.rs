//! `tengen manpages DIR`: the manual pages, `tengen.1` and one
//! `tengen-COMMAND.1` per subcommand, generated from the command-line
//! definitions by clap_mangen, so that they cannot drift from them. The
//! Debian package installs them.

use anyhow::{Context, Result};
use clap::CommandFactory;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `tengen manpages`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The directory to write them into (created if missing).
    dir: PathBuf,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("{}: cannot create the directory", args.dir.display()))?;
    let command = crate::Cli::command();
    write_page(&args.dir, &command)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        // The page of `tengen score` is `tengen-score(1)`, as git names its own.
        let name = format!("tengen-{}", sub.get_name());
        let bin_name = format!("tengen {}", sub.get_name());
        let sub = sub
            .clone()
            .name(name)
            .bin_name(bin_name)
            .version(env!("CARGO_PKG_VERSION"));
        write_page(&args.dir, &sub)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_page(dir: &Path, command: &clap::Command) -> Result<()> {
    let path = dir.join(format!("{}.1", command.get_name()));
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .with_context(|| format!("{}: cannot render the page", command.get_name()))?;
    std::fs::write(&path, page).with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(())
}
