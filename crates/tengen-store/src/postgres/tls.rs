//! TLS to PostgreSQL as libpq does it: `sslmode` (`disable`, `allow`,
//! `prefer`, `require`, `verify-ca`, `verify-full`), the root
//! certificates that verify the server (`sslrootcert`: a PEM file, or
//! `system`), and a client certificate (`sslcert`, `sslkey`). tokio-postgres
//! itself reads only `disable`, `prefer` and `require` and never verifies:
//! the rest is here, on rustls (see the workspace's Cargo.toml for why).

use crate::error::StoreError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// libpq's `sslmode`: whether to use TLS and how far to trust the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    /// Never.
    Disable,
    /// Plain first; TLS if the server refuses a plain session.
    Allow,
    /// TLS if the server offers it, else plain (libpq's default).
    Prefer,
    /// TLS always; the certificate verified only against a root
    /// certificate given (or in libpq's default file).
    Require,
    /// TLS, the certificate signed by a trusted root.
    VerifyCa,
    /// TLS, the certificate signed by a trusted root and naming the host.
    VerifyFull,
}

/// Every `sslmode` value, in libpq's order, as written.
const MODES: [(&str, SslMode); 6] = [
    ("disable", SslMode::Disable),
    ("allow", SslMode::Allow),
    ("prefer", SslMode::Prefer),
    ("require", SslMode::Require),
    ("verify-ca", SslMode::VerifyCa),
    ("verify-full", SslMode::VerifyFull),
];

impl SslMode {
    /// An `sslmode` value.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] naming the values known.
    pub fn parse(text: &str) -> Result<SslMode, StoreError> {
        MODES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|&(_, mode)| mode)
            .ok_or_else(|| {
                let known: Vec<&str> = MODES.iter().map(|(name, _)| *name).collect();
                StoreError::invalid(
                    "db",
                    format!(
                        "sslmode {text:?} is not one of {} (libpq's values)",
                        known.join(", ")
                    ),
                )
            })
    }

    /// What tokio-postgres is told: whether to ask for TLS, and whether a
    /// server without it is refused. `allow`'s second try is the
    /// caller's.
    pub fn driver(self) -> tokio_postgres::config::SslMode {
        use tokio_postgres::config::SslMode as Driver;
        match self {
            SslMode::Disable | SslMode::Allow => Driver::Disable,
            SslMode::Prefer => Driver::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Driver::Require,
        }
    }
}

/// Where the server's certificate is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The certificates of a PEM file.
    File(PathBuf),
    /// The system's trusted roots (`sslrootcert=system`).
    System,
}

/// The TLS parameters of a connection string, as libpq reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsSettings {
    /// `sslmode`.
    pub mode: SslMode,
    /// `sslrootcert`, or libpq's default file when it exists.
    pub roots: Option<Roots>,
    /// `sslcert` and `sslkey`: a client certificate and its key.
    pub client: Option<(PathBuf, PathBuf)>,
}

/// libpq's default files, in `.postgresql` in the home folder `home`:
/// used when they exist and no parameter names others.
fn default_file(home: Option<&Path>, name: &str) -> Option<PathBuf> {
    let path = home?.join(".postgresql").join(name);
    path.is_file().then_some(path)
}

impl TlsSettings {
    /// The settings of `sslmode`, `sslrootcert`, `sslcert` and `sslkey`
    /// (each `None` when not given), with libpq's defaults.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for an unknown `sslmode`, a mode weaker than
    /// `verify-full` with `sslrootcert=system` (libpq refuses it too), or
    /// a client certificate without its key.
    pub fn read(
        mode: Option<&str>,
        root: Option<&str>,
        cert: Option<&str>,
        key: Option<&str>,
        home: Option<&Path>,
    ) -> Result<TlsSettings, StoreError> {
        let roots = match root {
            Some("system") => Some(Roots::System),
            Some(path) => Some(Roots::File(path.into())),
            None => default_file(home, "root.crt").map(Roots::File),
        };
        let mode = match mode {
            Some(text) => SslMode::parse(text)?,
            // libpq: the system's roots are meant to check the name.
            None if roots == Some(Roots::System) => SslMode::VerifyFull,
            None => SslMode::Prefer,
        };
        if roots == Some(Roots::System) && mode != SslMode::VerifyFull {
            return Err(StoreError::invalid(
                "db",
                "sslrootcert=system needs sslmode=verify-full (a weaker mode would trust any host the system trusts)",
            ));
        }
        let client = match (cert, key) {
            (Some(c), Some(k)) => Some((c.into(), k.into())),
            (Some(_), None) | (None, Some(_)) => {
                return Err(StoreError::invalid(
                    "db",
                    "sslcert and sslkey go together: the certificate and its private key",
                ));
            }
            (None, None) => {
                default_file(home, "postgresql.crt").zip(default_file(home, "postgresql.key"))
            }
        };
        Ok(TlsSettings {
            mode,
            roots,
            client,
        })
    }

    /// The rustls configuration these settings ask for.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] when a certificate or key file cannot be read,
    /// or when the system has no root certificates to verify against.
    pub fn client_config(&self) -> Result<ClientConfig, StoreError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verify = matches!(self.mode, SslMode::VerifyCa | SslMode::VerifyFull);
        let roots = match (&self.roots, verify) {
            (Some(Roots::File(path)), _) => Some(file_roots(path)?),
            // verify-ca or -full with no file: the system's roots.
            (Some(Roots::System), _) | (None, true) => Some(system_roots()?),
            (None, false) => None,
        };
        let verifier = Verifier {
            roots: roots.map(Arc::new),
            names: self.mode == SslMode::VerifyFull,
            provider: Arc::clone(&provider),
        };
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| StoreError::invalid("db", format!("TLS: {e}")))?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier));
        let mut config = match &self.client {
            Some((cert, key)) => {
                let chain = certificates(cert, "sslcert")?;
                let key = PrivateKeyDer::from_pem_file(key).map_err(|e| {
                    StoreError::invalid("db", format!("sslkey {}: {e}", key.display()))
                })?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|e| StoreError::invalid("db", format!("sslcert: {e}")))?
            }
            None => builder.with_no_client_auth(),
        };
        // What libpq 17 sends: PostgreSQL 17 checks it, and
        // `sslnegotiation=direct` needs it.
        config.alpn_protocols = vec![b"postgresql".to_vec()];
        Ok(config)
    }
}

/// The certificates of PEM file `path` (parameter `what`).
fn certificates(path: &Path, what: &str) -> Result<Vec<CertificateDer<'static>>, StoreError> {
    let unreadable = |e: &dyn std::fmt::Display| {
        StoreError::invalid("db", format!("{what} {}: {e}", path.display()))
    };
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| unreadable(&e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unreadable(&e))?;
    if certs.is_empty() {
        return Err(unreadable(&"no PEM certificate in it"));
    }
    Ok(certs)
}

fn file_roots(path: &Path) -> Result<RootCertStore, StoreError> {
    let mut roots = RootCertStore::empty();
    for cert in certificates(path, "sslrootcert")? {
        roots.add(cert).map_err(|e| {
            StoreError::invalid("db", format!("sslrootcert {}: {e}", path.display()))
        })?;
    }
    Ok(roots)
}

/// The system's trusted roots (`/etc/ssl/certs` on Debian, or where
/// `SSL_CERT_FILE` and `SSL_CERT_DIR` say).
fn system_roots() -> Result<RootCertStore, StoreError> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        return Err(StoreError::invalid(
            "db",
            format!(
                "no system root certificate to verify the server with ({}): give sslrootcert=FILE",
                if why.is_empty() {
                    "none found".to_string()
                } else {
                    why.join("; ")
                }
            ),
        ));
    }
    Ok(roots)
}

/// Checks the server's certificate as the mode asks: signed by one of
/// `roots` when there are roots (else any), naming the host when `names`.
/// The handshake's own signatures are always checked, so that the session
/// is with the holder of the certificate's key.
#[derive(Debug)]
struct Verifier {
    roots: Option<Arc<RootCertStore>>,
    names: bool,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(roots) = &self.roots {
            let cert = ParsedCertificate::try_from(end_entity)?;
            verify_server_cert_signed_by_trust_anchor(
                &cert,
                roots,
                intermediates,
                now,
                self.provider.signature_verification_algorithms.all,
            )?;
            if self.names {
                verify_server_name(&cert, server_name)?;
            }
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_libpq_mode_is_read_and_others_are_refused_by_name() {
        for (name, mode) in MODES {
            assert_eq!(SslMode::parse(name).unwrap(), mode);
        }
        let e = SslMode::parse("bogus").unwrap_err().to_string();
        assert!(e.contains("\"bogus\""), "{e}");
        for (name, _) in MODES {
            assert!(e.contains(name), "{e}");
        }
    }

    #[test]
    fn the_system_roots_mean_verify_full() {
        let s = TlsSettings::read(None, Some("system"), None, None, None).unwrap();
        assert_eq!(
            (s.mode, s.roots),
            (SslMode::VerifyFull, Some(Roots::System))
        );
        assert!(TlsSettings::read(Some("require"), Some("system"), None, None, None).is_err());
        assert!(TlsSettings::read(None, None, Some("c.pem"), None, None).is_err());
        let s = TlsSettings::read(Some("verify-ca"), Some("/ca.pem"), None, None, None).unwrap();
        assert_eq!(s.roots, Some(Roots::File("/ca.pem".into())));
    }

    #[test]
    fn a_missing_root_file_is_named() {
        let s = TlsSettings::read(
            Some("verify-full"),
            Some("/no/such/ca.pem"),
            None,
            None,
            None,
        );
        let e = s.unwrap().client_config().unwrap_err().to_string();
        assert!(e.contains("sslrootcert /no/such/ca.pem"), "{e}");
    }
}
