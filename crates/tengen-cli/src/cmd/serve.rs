//! `tengen serve`: the web board on a local address, its database in the
//! user's data directory unless told otherwise.

use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use tengen_web::{DEFAULT_PORT, ServeConfig, Server};

/// Arguments of `tengen serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address and port to listen on (loopback unless told otherwise).
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    addr: SocketAddr,
    /// The SQLite database [default: $XDG_DATA_HOME/tengen/tengen.db or
    /// ~/.local/share/tengen/tengen.db].
    #[arg(long)]
    db: Option<PathBuf>,
    /// Simulations the engine spends on each position of a record under
    /// analysis in the review (more: stronger and slower).
    #[arg(long, default_value_t = tengen_web::Limits::default().analysis_playouts)]
    analysis_playouts: u64,
}

/// The database path when none is given: the user's data directory.
fn default_db() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("tengen").join("tengen.db")
}

/// Runs the server until the process is stopped.
pub fn run(args: &Args) -> Result<ExitCode> {
    let db = args.db.clone().unwrap_or_else(default_db);
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the database directory {}", dir.display()))?;
    }
    let mut config = ServeConfig::new(args.addr, db.clone());
    config.limits.analysis_playouts = args.analysis_playouts.max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let server = Server::bind(&config)
            .await
            .with_context(|| format!("starting the server on {}", config.addr))?;
        let addr = server.local_addr();
        println!("tengen: http://{addr}");
        println!("database: {}", db.display());
        if !addr.ip().is_loopback() {
            eprintln!(
                "warning: listening on {addr}, reachable from other machines: anyone who can reach it can create games and watch them"
            );
        }
        std::io::stdout().flush()?;
        server.run().await?;
        Ok(ExitCode::SUCCESS)
    })
}
