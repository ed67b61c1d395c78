//! A real PostgreSQL for the tests: its own cluster in a temporary
//! directory (`initdb`, `pg_ctl`), listening on a Unix socket only, shared
//! by the tests running at the same time and stopped and removed when the
//! last of them lets it go. PostgreSQL refuses to run as root: as root the
//! cluster belongs to `nobody` (`setpriv`). The binaries are looked for on
//! the PATH, then in /usr/local/bin and /usr/lib/postgresql/*/bin (Debian's
//! `postgresql` package, which `.ci/run` installs). A cluster of its own
//! may also listen on a loopback TCP port with TLS on ([`Tls`]), for the
//! tests of encrypted connections (PostgreSQL has no TLS on Unix sockets).

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
    /// The port: of the socket, and on loopback TCP for a cluster with TLS.
    port: u16,
}

/// TLS for a cluster: the server's certificate chain and key, and the CA
/// whose client certificates it takes (PEM). Its `pg_hba.conf` lets in
/// everyone on loopback, except: database `sslonly` over TLS only, and
/// database `certonly` with a client certificate naming the user only.
#[derive(Debug, Clone)]
pub struct Tls {
    pub cert: String,
    pub key: String,
    pub client_ca: String,
}

const TLS_HBA: &str = "local all all trust
hostnossl sslonly all 127.0.0.1/32 reject
hostnossl sslonly all ::1/128 reject
hostssl certonly all 127.0.0.1/32 cert
hostssl certonly all ::1/128 cert
hostnossl certonly all 127.0.0.1/32 reject
hostnossl certonly all ::1/128 reject
host all all 127.0.0.1/32 trust
host all all ::1/128 trust
";

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

/// Makes `nobody` the owner of `path`.
fn give_to_nobody(path: &Path) {
    let chown = Command::new("chown")
        .args([&format!("{NOBODY}:{NOBODY}"), path.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(chown.success(), "chown of {}", path.display());
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

    /// Writes `text` into the cluster's directory as file `name`, owned by
    /// the cluster's user and readable by it alone (as PostgreSQL wants
    /// of a key); returns its path.
    fn write_private(&self, name: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        if self.as_nobody {
            give_to_nobody(&path);
        }
        path
    }

    fn start() -> Cluster {
        Cluster::start_with(None)
    }

    /// A cluster of its own that also takes TLS on a free loopback port.
    pub fn start_tls(tls: &Tls) -> Cluster {
        Cluster::start_with(Some(tls))
    }

    fn start_with(tls: Option<&Tls>) -> Cluster {
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
            give_to_nobody(&dir);
        }
        let mut cluster = Cluster {
            dir,
            bin: find_bin(),
            as_nobody,
            port: PORT,
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
        let log = cluster.dir.join("log");
        let ctl = |cluster: &Cluster, port: u16, listen: &str, extra: &str| {
            let options = format!(
                "-k {} -c listen_addresses='{listen}' -p {port} -c max_connections=200 {extra}",
                cluster.dir.display()
            );
            cluster.run(
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
            )
        };
        let out = match tls {
            None => ctl(&cluster, PORT, "", ""),
            Some(tls) => {
                let cert = cluster.write_private("server.crt", &tls.cert);
                let key = cluster.write_private("server.key", &tls.key);
                let ca = cluster.write_private("client-ca.crt", &tls.client_ca);
                cluster.write_private("data/pg_hba.conf", TLS_HBA);
                let extra = format!(
                    "-c ssl=on -c ssl_cert_file={} -c ssl_key_file={} -c ssl_ca_file={}",
                    cert.display(),
                    key.display(),
                    ca.display()
                );
                // A free port may be taken by another process before the
                // server binds it: then another is tried.
                let mut tries = 0;
                loop {
                    cluster.port = free_port();
                    let out = ctl(&cluster, cluster.port, "127.0.0.1", &extra);
                    tries += 1;
                    if out.status.success() || tries == 5 {
                        break out;
                    }
                }
            }
        };
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

    /// A libpq URL for database `name`, through the Unix socket.
    pub fn url(&self, name: &str) -> String {
        // The socket directory, percent-encoded as the URL's host.
        let host = self.dir.display().to_string().replace('/', "%2F");
        format!("postgresql://tengen@{host}:{}/{name}", self.port)
    }

    /// A libpq URL for database `name` on loopback TCP (a cluster with
    /// TLS), host `host`, with these parameters (`key=value&...`).
    pub fn tcp_url(&self, host: &str, name: &str, params: &str) -> String {
        format!("postgresql://tengen@{host}:{}/{name}?{params}", self.port)
    }

    /// A fresh, empty database named `name` on this cluster.
    pub async fn create_db(self: &Arc<Cluster>, name: &str) -> Db {
        let (client, connection) =
            tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls)
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
            url: self.url(name),
            cluster: Arc::clone(self),
        }
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
    cluster.create_db(&name).await
}

/// A loopback TCP port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
