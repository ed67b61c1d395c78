//! TLS to PostgreSQL as libpq's `sslmode` says, against a cluster of the
//! test's own with `ssl = on` on a loopback port, its certificates made
//! here (a CA, the server's for `localhost`, a client's for user
//! `tengen`): `require` and the default `prefer` encrypt every connection
//! of a server and `disable` none (as PostgreSQL itself reports,
//! `pg_stat_ssl`); `verify-full` takes the right CA and refuses another or
//! a host name the certificate does not give, which `verify-ca` lets
//! pass; `allow` falls back to TLS where plain is refused; a client
//! certificate opens a database that demands one; an unknown mode is
//! refused with the known ones named; and a game is created and played
//! over TLS.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::pg::{Cluster, Tls};
use common::{Running, TestDb};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use serde_json::json;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tengen_web::{Database, Limits, ServeConfig, Server};

/// A certificate authority: what signs, and its certificate (PEM).
fn authority(name: &str) -> (Issuer<'static, KeyPair>, String) {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let key = KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    (Issuer::new(params, key), cert.pem())
}

/// A certificate signed by `issuer` for `names`, its subject `cn`: the
/// certificate and its key (PEM).
fn signed(issuer: &Issuer<'_, KeyPair>, names: &[&str], cn: &str) -> (String, String) {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut params = CertificateParams::new(names).unwrap();
    params.distinguished_name.push(DnType::CommonName, cn);
    let key = KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

/// The TLS cluster and the client's files.
#[derive(Debug)]
struct Site {
    cluster: Arc<Cluster>,
    ca: PathBuf,
    wrong_ca: PathBuf,
    client_cert: PathBuf,
    client_key: PathBuf,
}

/// The cluster the running tests share, started if none runs.
fn site() -> Arc<Site> {
    static SHARED: Mutex<Weak<Site>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = shared.upgrade() {
        return s;
    }
    let (ca, ca_pem) = authority("tengen test CA");
    let (_, wrong_pem) = authority("another CA");
    let (cert, key) = signed(&ca, &["localhost"], "localhost");
    let (client_cert, client_key) = signed(&ca, &[], "tengen");
    let cluster = Arc::new(Cluster::start_tls(&Tls {
        cert,
        key,
        client_ca: ca_pem.clone(),
    }));
    let file = |name: &str, text: &str| {
        let path = cluster.socket_dir().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let s = Arc::new(Site {
        ca: file("ca.pem", &ca_pem),
        wrong_ca: file("wrong-ca.pem", &wrong_pem),
        client_cert: file("client.crt", &client_cert),
        client_key: file("client.key", &client_key),
        cluster: Arc::clone(&cluster),
    });
    *shared = Arc::downgrade(&s);
    s
}

async fn shared_site() -> Arc<Site> {
    tokio::task::spawn_blocking(site).await.unwrap()
}

/// Database `name` on loopback TCP, host `host`, these parameters.
fn test_db(site: &Site, host: &str, name: &str, params: &str) -> TestDb {
    TestDb {
        db: Database::Postgres(site.cluster.tcp_url(host, name, params)),
        cluster: Some(Arc::clone(&site.cluster)),
    }
}

/// Whether each connection of server `node` is encrypted, as PostgreSQL
/// reports it (read through the Unix socket).
async fn encrypted(site: &Site, node: &str) -> Vec<bool> {
    let (client, connection) =
        tokio_postgres::connect(&site.cluster.url("postgres"), tokio_postgres::NoTls)
            .await
            .unwrap();
    let driver = tokio::spawn(connection);
    let rows = client
        .query(
            "SELECT s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s ON s.pid = a.pid
             WHERE a.application_name = $1",
            &[&format!("tengen {node}")],
        )
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    rows.iter().map(|r| r.get(0)).collect()
}

/// Asserts that server `node` has connections, each encrypted or not.
async fn assert_all(site: &Site, node: &str, tls: bool) {
    let seen = encrypted(site, node).await;
    assert!(
        !seen.is_empty() && seen.iter().all(|&e| e == tls),
        "{node}: {seen:?}"
    );
}

/// Starts server `node` on `db`, which must succeed.
async fn serve(db: TestDb, node: &str) -> Running {
    Running::start_node(db, Some(node), Limits::default()).await
}

/// Why server `node` cannot start on `db`.
async fn refused(db: &TestDb, node: &str) -> String {
    let config = ServeConfig {
        node: Some(node.to_string()),
        ..ServeConfig::new("127.0.0.1:0".parse().unwrap(), db.db.clone())
    };
    match Server::bind(&config).await {
        Ok(_) => panic!("{node}: connected though it should not"),
        Err(e) => {
            eprintln!("{node}: {e}");
            e.to_string()
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_sslmode_connects_as_libpq_does() {
    let site = shared_site().await;
    let ca = site.ca.display();
    for db in ["modes", "sslonly", "certonly"] {
        site.cluster.create_db(db).await;
    }

    // require, and prefer (libpq's default): encrypted.
    let s = serve(
        test_db(&site, "localhost", "modes", "sslmode=require"),
        "req",
    )
    .await;
    assert_all(&site, "req", true).await;
    s.stop();
    let s = serve(
        test_db(&site, "localhost", "modes", "connect_timeout=5"),
        "pref",
    )
    .await;
    assert_all(&site, "pref", true).await;
    s.stop();
    // disable: plain.
    let s = serve(
        test_db(&site, "localhost", "modes", "sslmode=disable"),
        "plain",
    )
    .await;
    assert_all(&site, "plain", false).await;
    s.stop();

    // verify-full with the server's CA: connects, encrypted.
    let full = format!("sslmode=verify-full&sslrootcert={ca}");
    let s = serve(test_db(&site, "localhost", "modes", &full), "full").await;
    assert_all(&site, "full", true).await;
    s.stop();
    // Another CA: refused, and said so.
    let wrong = format!(
        "sslmode=verify-full&sslrootcert={}",
        site.wrong_ca.display()
    );
    let e = refused(&test_db(&site, "localhost", "modes", &wrong), "wrong").await;
    assert!(e.contains("TLS") && e.contains("certificate"), "{e}");
    // The system's roots do not know the test's CA either.
    let e = refused(
        &test_db(&site, "localhost", "modes", "sslrootcert=system"),
        "system",
    )
    .await;
    assert!(e.contains("certificate"), "{e}");
    // The certificate names localhost, not 127.0.0.1: verify-full refuses
    // that host, verify-ca (no name check) takes it.
    let e = refused(&test_db(&site, "127.0.0.1", "modes", &full), "ip").await;
    assert!(e.contains("certificate"), "{e}");
    let by_ca = format!("sslmode=verify-ca&sslrootcert={ca}");
    let s = serve(test_db(&site, "127.0.0.1", "modes", &by_ca), "ca").await;
    assert_all(&site, "ca", true).await;
    s.stop();

    // allow: plain first; where plain is refused, TLS.
    let e = refused(
        &test_db(&site, "localhost", "sslonly", "sslmode=disable"),
        "no",
    )
    .await;
    assert!(e.contains("no encryption") || e.contains("rejects"), "{e}");
    let s = serve(
        test_db(&site, "localhost", "sslonly", "sslmode=allow"),
        "allow",
    )
    .await;
    assert_all(&site, "allow", true).await;
    s.stop();

    // A client certificate, where the database demands one.
    let e = refused(&test_db(&site, "localhost", "certonly", &full), "nocert").await;
    assert!(e.contains("certificate"), "{e}");
    let with_cert = format!(
        "{full}&sslcert={}&sslkey={}",
        site.client_cert.display(),
        site.client_key.display()
    );
    let s = serve(test_db(&site, "localhost", "certonly", &with_cert), "cert").await;
    assert_all(&site, "cert", true).await;
    s.stop();

    // An unknown mode: refused before connecting, the known ones named.
    let e = refused(
        &test_db(&site, "localhost", "modes", "sslmode=bogus"),
        "bogus",
    )
    .await;
    for known in [
        "bogus",
        "disable",
        "allow",
        "prefer",
        "require",
        "verify-ca",
        "verify-full",
    ] {
        assert!(e.contains(known), "{known}: {e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_created_and_played_over_tls() {
    let site = shared_site().await;
    site.cluster.create_db("game").await;
    let params = format!("sslmode=verify-full&sslrootcert={}", site.ca.display());
    let server = serve(test_db(&site, "localhost", "game", &params), "tls").await;
    let g = server
        .create(json!({"rules": "ffg", "size": 9,
            "opponent": {"kind": "friend", "color": "black"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let mut black = server.connect(id, g["token"].as_str()).await;
    let v = black.play("E5").await;
    assert_eq!(v["move_number"], 1, "{v}");
    let mut white = server.connect(id, g["invite"].as_str()).await;
    assert_eq!(white.play("C3").await["move_number"], 2);
    // Stored: read back from the database.
    let view = server.view(id).await;
    assert_eq!(
        (view["move_number"].as_u64(), view["last"].as_str()),
        (Some(2), Some("C3"))
    );
    let admin = TestDb {
        db: Database::Postgres(site.cluster.url("game")),
        cluster: Some(Arc::clone(&site.cluster)),
    };
    let stored = admin
        .sql(&format!(
            "SELECT count(*) FROM moves WHERE game_id = '{id}'"
        ))
        .await;
    assert_eq!(stored, 2);
    // Every connection of the server (reads, writer, listener) is
    // encrypted.
    let start = Instant::now();
    let seen = loop {
        let seen = encrypted(&site, "tls").await;
        if seen.len() >= 3 || start.elapsed() > Duration::from_secs(10) {
            break seen;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(seen.len() >= 3 && seen.iter().all(|&e| e), "{seen:?}");
}
