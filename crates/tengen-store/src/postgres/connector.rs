//! How every connection to the database is opened (the reads, the
//! writer's, the listener's, the migrations'): one [`Connector`], made once
//! from the libpq URL or connection string. The parameters tokio-postgres
//! does not read (libpq's TLS ones, [`super::tls`]) are taken out of the
//! string before it reads the rest, and libpq's environment variables
//! (`PGPASSWORD`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`),
//! as the caller's [`Environment`] gives them, fill what the string leaves
//! out.

use super::tls::{SslMode, TlsSettings};
use crate::environment::Environment;
use crate::error::StoreError;
use percent_encoding::percent_decode_str;
use std::time::Duration;
use tokio_postgres::config::Host;
use tokio_postgres::tls::MakeTlsConnect;
use tokio_postgres::{Client, Config, Connection, Socket};
use tokio_postgres_rustls::MakeRustlsConnect;

/// A connection as tokio-postgres drives it: over TLS or plain.
pub(super) type Driven = Connection<Socket, <MakeRustlsConnect as MakeTlsConnect<Socket>>::Stream>;

/// The parameters read here, and the environment variable of each.
const TAKEN: [(&str, &str); 4] = [
    ("sslmode", "PGSSLMODE"),
    ("sslrootcert", "PGSSLROOTCERT"),
    ("sslcert", "PGSSLCERT"),
    ("sslkey", "PGSSLKEY"),
];

/// Everything needed to open a connection to the database.
#[derive(Clone)]
pub(super) struct Connector {
    config: Config,
    tls: MakeRustlsConnect,
    mode: SslMode,
}

impl std::fmt::Debug for Connector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connector")
            .field("config", &self.config)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Connector {
    /// The connector of `url` (a libpq URL or connection string) for
    /// server `node`.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for a string libpq would not read, an unknown
    /// `sslmode`, or certificate files that cannot be read.
    pub(super) fn new(
        url: &str,
        node: &str,
        environment: &Environment,
    ) -> Result<Connector, StoreError> {
        let (rest, taken) = take_params(url)?;
        let param = |i: usize| {
            let (key, var) = TAKEN[i];
            taken
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .or_else(|| environment.libpq(var).map(str::to_string))
        };
        let (mode, root, cert, key) = (param(0), param(1), param(2), param(3));
        let settings = TlsSettings::read(
            mode.as_deref(),
            root.as_deref(),
            cert.as_deref(),
            key.as_deref(),
            environment.home.as_deref(),
        )?;
        let mut config: Config = rest
            .parse()
            .map_err(|e| StoreError::invalid("db", format!("{e}")))?;
        // libpq's way to keep the password off the command line.
        if config.get_password().is_none()
            && let Some(password) = environment.libpq("PGPASSWORD")
        {
            config.password(password);
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.application_name(format!("tengen {node}"));
        // With an address only, the address names the server to TLS.
        if config.get_hosts().is_empty() {
            let addrs: Vec<String> = config
                .get_hostaddrs()
                .iter()
                .map(ToString::to_string)
                .collect();
            for a in addrs {
                config.host(&a);
            }
        }
        // As libpq: no TLS over a Unix socket (the server offers none).
        let sockets_only = !config.get_hosts().is_empty()
            && config
                .get_hosts()
                .iter()
                .all(|h| !matches!(h, Host::Tcp(_)));
        let mode = if sockets_only {
            SslMode::Disable
        } else {
            settings.mode
        };
        config.ssl_mode(mode.driver());
        Ok(Connector {
            config,
            tls: MakeRustlsConnect::new(settings.client_config()?),
            mode,
        })
    }

    /// A new connection, not yet driven: the listener reads its messages
    /// itself. `allow` tries plain first, then TLS.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] when the server cannot be reached, refuses
    /// the session, or fails the TLS checks.
    pub(super) async fn open(&self) -> Result<(Client, Driven), StoreError> {
        match self.config.connect(self.tls.clone()).await {
            Err(_) if self.mode == SslMode::Allow => {
                let mut config = self.config.clone();
                config.ssl_mode(SslMode::Require.driver());
                Ok(config.connect(self.tls.clone()).await?)
            }
            other => Ok(other?),
        }
    }

    /// A new connection, driven on its own task until it closes.
    ///
    /// # Errors
    /// As [`Connector::open`].
    pub(super) async fn client(&self) -> Result<Client, StoreError> {
        let (client, connection) = self.open().await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("postgres connection lost: {e}");
            }
        });
        Ok(client)
    }
}

/// Takes the parameters of [`TAKEN`] out of a libpq URL
/// (`postgres://...?sslmode=...`) or connection string (`key=value ...`):
/// the rest, as written, and the parameters taken, decoded.
fn take_params(url: &str) -> Result<(String, Vec<(String, String)>), StoreError> {
    let ours = |k: &str| TAKEN.iter().any(|(key, _)| *key == k);
    let text = url.trim();
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        let Some((base, query)) = text.split_once('?') else {
            return Ok((text.to_string(), Vec::new()));
        };
        let decode = |s: &str| {
            percent_decode_str(s)
                .decode_utf8()
                .map(|c| c.into_owned())
                .map_err(|e| StoreError::invalid("db", format!("{s}: {e}")))
        };
        let mut kept = Vec::new();
        let mut taken = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let k = decode(k)?;
            if ours(&k) {
                taken.push((k, decode(v)?));
            } else {
                kept.push(pair);
            }
        }
        let rest = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        return Ok((rest, taken));
    }
    let mut kept = Vec::new();
    let mut taken = Vec::new();
    for (key, value, raw) in pairs(text)? {
        if ours(&key) {
            taken.push((key, value));
        } else {
            kept.push(raw);
        }
    }
    Ok((kept.join(" "), taken))
}

/// The `key = value` pairs of a connection string, each with its text as
/// written. A value is bare (up to a blank) or in single quotes; a
/// backslash keeps the next character.
fn pairs(text: &str) -> Result<Vec<(String, String, &str)>, StoreError> {
    let bad = |why: &str| StoreError::invalid("db", format!("connection string: {why}"));
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    let skip_blanks = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    loop {
        i = skip_blanks(i);
        if i >= bytes.len() {
            return Ok(found);
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b'=' && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = text[start..i].to_string();
        i = skip_blanks(i);
        if bytes.get(i) != Some(&b'=') {
            return Err(bad(&format!("{key} has no value")));
        }
        i = skip_blanks(i + 1);
        let quoted = bytes.get(i) == Some(&b'\'');
        if quoted {
            i += 1;
        }
        let mut value = String::new();
        let mut closed = !quoted;
        while let Some(c) = text[i..].chars().next() {
            if quoted && c == '\'' {
                i += 1;
                closed = true;
                break;
            }
            if !quoted && c.is_ascii_whitespace() {
                break;
            }
            i += c.len_utf8();
            if c == '\\' {
                match text[i..].chars().next() {
                    Some(next) => {
                        value.push(next);
                        i += next.len_utf8();
                    }
                    None => return Err(bad("a backslash ends it")),
                }
            } else {
                value.push(c);
            }
        }
        if !closed {
            return Err(bad(&format!("the quoted value of {key} is not closed")));
        }
        found.push((key, value, &text[start..i]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(url: &str) -> (String, Vec<(String, String)>) {
        take_params(url).unwrap()
    }

    #[test]
    fn tls_parameters_leave_a_url_and_the_rest_stays_as_written() {
        let (rest, params) = taken(
            "postgres://u@h/db?sslmode=verify-full&connect_timeout=5&sslrootcert=%2Fetc%2Fca%20x.pem",
        );
        assert_eq!(rest, "postgres://u@h/db?connect_timeout=5");
        assert_eq!(
            params,
            [
                ("sslmode".to_string(), "verify-full".to_string()),
                ("sslrootcert".to_string(), "/etc/ca x.pem".to_string()),
            ]
        );
        assert_eq!(
            taken("postgres://u@h/db?sslmode=require").0,
            "postgres://u@h/db"
        );
        assert_eq!(taken("postgresql://h/db").0, "postgresql://h/db");
    }

    #[test]
    fn tls_parameters_leave_a_connection_string() {
        let (rest, params) =
            taken("host=h sslmode = verify-ca dbname='my db' sslrootcert='/a b/c\\'s.pem' user=u");
        assert_eq!(rest, "host=h dbname='my db' user=u");
        assert_eq!(params[0], ("sslmode".into(), "verify-ca".into()));
        assert_eq!(params[1], ("sslrootcert".into(), "/a b/c's.pem".into()));
        assert!(take_params("host=h dbname='open").is_err());
        assert!(take_params("host").is_err());
    }

    #[test]
    fn a_connector_reads_every_mode_and_names_the_known_ones() {
        let c = Connector::new(
            "postgres://u@localhost/db?sslmode=require",
            "n",
            &Environment::default(),
        )
        .unwrap();
        assert_eq!(c.mode, SslMode::Require);
        assert_eq!(
            c.config.get_ssl_mode(),
            tokio_postgres::config::SslMode::Require
        );
        // A Unix socket: no TLS, whatever the mode (as libpq).
        let c = Connector::new(
            "host=/run/postgresql dbname=d sslmode=require",
            "n",
            &Environment::default(),
        )
        .unwrap();
        assert_eq!(c.mode, SslMode::Disable);
        let e = Connector::new(
            "postgres://u@h/db?sslmode=bogus",
            "n",
            &Environment::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("verify-full") && e.contains("bogus"), "{e}");
    }
}
