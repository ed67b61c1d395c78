//! A real PostgreSQL for the tests: its own cluster in a temporary
//! directory (`initdb`, `pg_ctl`), listening on a Unix socket only, shared
//! by the tests running at the same time and stopped and removed when the
//! last of them lets it go. PostgreSQL refuses to run as root: as root the
//! cluster belongs to `nobody` (`setpriv`). The binaries are looked for on
//! the PATH, then in /usr/local/bin and /usr/lib/postgresql/*/bin (Debian's
//! `postgresql` package, which `.ci/run` installs).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// The user and group the cluster runs as when the tests run as root.
const NOBODY: &str = "65534";
/// The socket's port number (no TCP port is opened).
const PORT: u16 = 5432;

/// A running cluster; stopped and removed when dropped.
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    as_nobody: bool,
}

/// A fresh, empty database on the shared cluster (which lives as long as
/// one of these does).
#[derive(Debug, Clone)]
pub struct Db {
    pub url: String,
    pub cluster: Arc<Cluster>,
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

/// The directory holding `initdb` and `pg_ctl`.
fn find_bin() -> PathBuf {
    let mut places: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    places.push("/usr/local/bin".into());
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                .collect()
        })
        .unwrap_or_default();
    debian.sort();
    places.extend(debian.into_iter().rev());
    places
        .into_iter()
        .find(|p| p.join("initdb").is_file() && p.join("pg_ctl").is_file())
        .expect("initdb and pg_ctl: install Debian's postgresql package (.ci/run does)")
}

impl Cluster {
    /// Runs one of the cluster's programs, as `nobody` under root.
    fn run(&self, program: &str, args: &[&str]) -> std::process::Output {
        let path = self.bin.join(program);
        let mut cmd = if self.as_nobody {
            let mut c = Command::new("setpriv");
            c.args(["--reuid", NOBODY, "--regid", NOBODY, "--clear-groups", "--"])
                .arg(&path);
            c
        } else {
            Command::new(&path)
        };
        cmd.args(args)
            .env("LC_ALL", "C")
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"))
    }

    fn start() -> Cluster {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tengen-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let as_nobody = running_as_root();
        if as_nobody {
            let chown = Command::new("chown")
                .args([&format!("{NOBODY}:{NOBODY}"), dir.to_str().unwrap()])
                .status()
                .unwrap();
            assert!(chown.success(), "chown of {}", dir.display());
        }
        let cluster = Cluster {
            dir,
            bin: find_bin(),
            as_nobody,
        };
        let data = cluster.data();
        let out = cluster.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "tengen",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let options = format!(
            "-k {} -c listen_addresses='' -p {PORT} -c max_connections=200",
            cluster.dir.display()
        );
        let log = cluster.dir.join("log");
        let out = cluster.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                log.to_str().unwrap(),
                "-o",
                &options,
                "-w",
                "start",
            ],
        );
        assert!(
            out.status.success(),
            "pg_ctl start failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        cluster
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Where clients connect: the socket's directory.
    pub fn socket_dir(&self) -> &Path {
        &self.dir
    }

    /// A libpq URL for database `name`.
    pub fn url(&self, name: &str) -> String {
        // The socket directory, percent-encoded as the URL's host.
        let host = self.dir.display().to_string().replace('/', "%2F");
        format!("postgresql://tengen@{host}:{PORT}/{name}")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap_or(""),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The cluster the running tests share, started if none runs.
pub fn cluster() -> Arc<Cluster> {
    static SHARED: Mutex<Weak<Cluster>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = shared.upgrade() {
        return c;
    }
    let c = Arc::new(Cluster::start());
    *shared = Arc::downgrade(&c);
    c
}

/// A fresh database on the shared cluster.
pub async fn fresh_db() -> Db {
    static N: AtomicU32 = AtomicU32::new(0);
    let cluster = tokio::task::spawn_blocking(cluster).await.unwrap();
    let name = format!("t{}", N.fetch_add(1, Ordering::Relaxed));
    let (client, connection) =
        tokio_postgres::connect(&cluster.url("postgres"), tokio_postgres::NoTls)
            .await
            .unwrap();
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    Db {
        url: cluster.url(&name),
        cluster,
    }
}
