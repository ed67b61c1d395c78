//! `tengen serve`: the web board on a local address, its database in the
//! user's data directory unless told otherwise, or on PostgreSQL with
//! other servers. Logs (tracing, on stderr) name the server.

use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tengen_web::{DEFAULT_PORT, Database, Environment, Limits, ServeConfig, Server};
use tracing_subscriber::fmt::format::{Format, Writer};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// Arguments of `tengen serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address and port to listen on (loopback unless told otherwise).
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    addr: SocketAddr,
    /// The database: a SQLite file [default: $XDG_DATA_HOME/tengen/tengen.db
    /// or ~/.local/share/tengen/tengen.db], or a PostgreSQL URL
    /// (postgres://USER@HOST/DB, any libpq URL or connection string) shared
    /// by several servers. Its schema is created or upgraded on start. TLS
    /// as libpq: sslmode=disable, allow, prefer (the default: TLS when the
    /// server offers it), require, verify-ca or verify-full;
    /// sslrootcert=FILE (or system) to verify the server against;
    /// sslcert=FILE and sslkey=FILE for a client certificate (e.g.
    /// postgres://tengen@db.example.org/tengen?sslmode=verify-full&sslrootcert=/etc/tengen/ca.pem).
    #[arg(long)]
    db: Option<String>,
    /// This server's name in logs, engine leases and /healthz [default:
    /// the host's name and the port].
    #[arg(long)]
    node: Option<String>,
    /// Engine moves this server computes at once (0: a web-only server
    /// that leaves them to the others on the database) [default: the
    /// cores but one].
    #[arg(long)]
    engine_workers: Option<usize>,
    /// Seconds an engine job stays with a server that stopped renewing it
    /// (one that died) before another takes it.
    #[arg(long, default_value_t = 30.0)]
    engine_lease: f64,
    /// Seconds between the times a server on PostgreSQL says again who is
    /// connected through it; another server that has not heard it for
    /// three times this (one killed outright) shows its players gone.
    #[arg(long, default_value_t = 5.0)]
    presence_period: f64,
    /// Simulations in the engine's tree for each position of a record under
    /// analysis in the review, those read below the move played from the
    /// position before included (more: stronger and slower).
    #[arg(long, default_value_t = tengen_web::Limits::default().analysis_playouts)]
    analysis_playouts: u64,
    /// Threads of each position's search in the review's analysis.
    #[arg(long, value_name = "N", default_value_t = tengen_web::Limits::default().analysis_threads)]
    analysis_threads: usize,
    /// Another engine for the review's analysis: the command line of a
    /// program that speaks KataGo's JSON analysis protocol (`tengen
    /// analysis`, or a club's `katago analysis -model M -config C`).
    #[arg(long)]
    analysis_engine: Option<String>,
    /// A name the server answers for (repeatable): the public name behind
    /// a proxy that passes it on as `Host`, e.g. go.example.org. Addresses
    /// and localhost are always answered; a request naming any other host
    /// is refused, so that no other site's page can reach the server
    /// through a name it points here (DNS rebinding).
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
    /// A proxy in front of the server whose report of the client
    /// (X-Forwarded-For, or Forwarded) is believed for the per-client
    /// limits, as an address or a range (repeatable): e.g. 127.0.0.1 for
    /// nginx on the same machine. Off by default: a client could write
    /// any address in those headers.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_parser = tengen_web::client::parse_proxy)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// Games one client may create a minute, as many at once (0: no
    /// limit); past it a creation is refused with the seconds to wait.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_minute)]
    games_per_minute: u32,
    /// Tries to log in a member one client may make a minute, and tries
    /// at one member's name from all clients (0: no limit).
    #[arg(long, value_name = "N", default_value_t = Limits::default().logins_per_minute)]
    logins_per_minute: u32,
    /// Game sockets one client may hold open at once (0: no limit); past
    /// it a new one is refused. Sockets are pinged every 30 s and closed
    /// after 90 s without a word from the client.
    #[arg(long, value_name = "N", default_value_t = Limits::default().sockets_per_client)]
    sockets_per_client: usize,
    /// Open games (not over, played in within 10 minutes) one client may
    /// have created (0: no limit); of these, at most 8 against the engine
    /// and 4 listed in the lobby. On PostgreSQL they are counted over
    /// every server.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_per_client)]
    games_per_client: usize,
    /// Connections one address (an IPv6 /64) may hold open at once (0: no
    /// limit); a trusted proxy's are not counted. Past it a new one is
    /// answered 429 and closed.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections_per_peer)]
    connections_per_peer: usize,
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

/// Writes each log line after `node=NAME`, so that the lines of several
/// servers gathered in one place say where they come from. The name is
/// known once the port is bound.
struct NodeFormat {
    node: Arc<OnceLock<String>>,
    inner: Format,
}

impl<S, N> FormatEvent<S, N> for NodeFormat
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let node = self.node.get().map_or("-", String::as_str);
        write!(writer, "node={node} ")?;
        self.inner.format_event(ctx, writer, event)
    }
}

/// Logs at `info` unless `RUST_LOG` says otherwise, in colour only on a
/// terminal (never into a file or the journal).
fn start_logs(node: Arc<OnceLock<String>>) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = super::logs::to_stderr()
        .with_env_filter(filter)
        .event_format(NodeFormat {
            node,
            inner: Format::default(),
        })
        .try_init();
}

/// The limits given on the command line.
fn limits(args: &Args) -> Result<Limits> {
    let seconds = |value: f64, name: &str| {
        if value.is_finite() && value > 0.0 && value < 1e9 {
            Ok(Duration::from_secs_f64(value))
        } else {
            Err(anyhow::anyhow!(
                "--{name} must be a positive number of seconds"
            ))
        }
    };
    let mut limits = Limits {
        engine_lease: seconds(args.engine_lease, "engine-lease")?,
        presence_period: seconds(args.presence_period, "presence-period")?,
        analysis_playouts: args.analysis_playouts.max(1),
        analysis_threads: args.analysis_threads.max(1),
        games_per_minute: args.games_per_minute,
        logins_per_minute: args.logins_per_minute,
        sockets_per_client: args.sockets_per_client,
        games_per_client: args.games_per_client,
        connections_per_peer: args.connections_per_peer,
        ..Limits::default()
    };
    if let Some(n) = args.engine_workers {
        limits.engine_workers = n;
        limits.heavy_workers = limits.heavy_workers.max(n);
    }
    Ok(limits)
}

/// The database of `--db` (none: the default SQLite file, its directory
/// made if missing).
pub fn database(arg: Option<&str>) -> Result<Database> {
    let db = match arg {
        Some(text) => Database::parse(text).context("--db")?,
        None => Database::Sqlite(default_db()),
    };
    if let Database::Sqlite(path) = &db
        && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the database directory {}", dir.display()))?;
    }
    Ok(db)
}

/// What the server reads of this process's environment: the library
/// reads none itself.
pub fn environment() -> Environment {
    Environment {
        hostname: std::env::var("HOSTNAME").ok(),
        libpq: Environment::LIBPQ
            .iter()
            .filter_map(|&name| Some((name.to_string(), std::env::var(name).ok()?)))
            .collect(),
        home: std::env::var_os("HOME").map(PathBuf::from),
    }
}

/// Runs the server until the process is stopped.
pub fn run(args: &Args) -> Result<ExitCode> {
    let node = Arc::new(OnceLock::new());
    if let Some(name) = &args.node {
        let _ = node.set(name.clone());
    }
    start_logs(Arc::clone(&node));
    let db = database(args.db.as_deref())?;
    let config = ServeConfig {
        node: args.node.clone(),
        limits: limits(args)?,
        environment: environment(),
        analysis_engine: args.analysis_engine.clone(),
        allowed_hosts: args.allowed_hosts.clone(),
        trusted_proxies: args.trusted_proxies.clone(),
        ..ServeConfig::new(args.addr, db.clone())
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let server = Server::bind(&config)
            .await
            .with_context(|| format!("starting the server on {}", config.addr))?;
        let addr = server.local_addr();
        let _ = node.set(server.node().to_string());
        println!("tengen: http://{addr}");
        println!("database: {}", db.describe());
        println!("node: {}", server.node());
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
