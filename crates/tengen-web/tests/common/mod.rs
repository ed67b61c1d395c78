//! A real server on a loopback port with a fresh database (a SQLite file,
//! or a database on a PostgreSQL cluster of the tests' own), and small
//! HTTP and WebSocket clients to talk to it. The PostgreSQL parts are
//! there with the feature `postgres` only.

#![allow(dead_code)]

#[cfg(feature = "postgres")]
pub mod pg;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tengen_web::{Database, Limits, ServeConfig, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A fresh database path under the target directory's temp space.
pub fn temp_db(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tengen-web-test-{}-{}-{}",
        std::process::id(),
        name,
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("tengen.db")
}

/// `limits` without the per-client rate and count of new games: a test
/// creates games faster, and more, than a person (the tests of those
/// limits start their servers themselves).
fn unhurried(limits: Limits) -> Limits {
    Limits {
        games_per_minute: 0,
        games_per_client: 0,
        listed_per_client: 0,
        ..limits
    }
}

/// The two stores a test may run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    #[cfg(feature = "postgres")]
    Postgres,
}

impl Backend {
    /// A fresh, empty database of this kind.
    pub async fn fresh(self, name: &str) -> TestDb {
        match self {
            Backend::Sqlite => temp_db(name).into(),
            #[cfg(feature = "postgres")]
            Backend::Postgres => {
                let db = pg::fresh_db().await;
                TestDb {
                    db: Database::Postgres(db.url.clone()),
                    cluster: Some(db.cluster),
                }
            }
        }
    }
}

/// A test's database, and the PostgreSQL cluster it lives on (kept
/// running while the test holds it).
#[derive(Clone, Debug)]
pub struct TestDb {
    pub db: Database,
    #[cfg(feature = "postgres")]
    pub cluster: Option<std::sync::Arc<pg::Cluster>>,
}

impl TestDb {
    /// Runs `sql` on the database itself (same SQL on both stores) and
    /// returns the first column of its first row as a number, 0 without
    /// rows.
    #[allow(dead_code)] // not every test binary reads rows
    pub async fn sql(&self, sql: &str) -> i64 {
        match &self.db {
            Database::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).unwrap();
                let mut stmt = conn.prepare(sql).unwrap();
                let mut rows = stmt.query([]).unwrap();
                match rows.next().unwrap() {
                    Some(r) => r.get(0).unwrap_or(0),
                    None => 0,
                }
            }
            #[cfg(feature = "postgres")]
            Database::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                tokio::spawn(connection);
                let rows = client.query(sql, &[]).await.unwrap();
                rows.first().map_or(0, |r| r.try_get(0).unwrap_or(0))
            }
        }
    }
}

impl From<PathBuf> for TestDb {
    fn from(path: PathBuf) -> TestDb {
        TestDb {
            db: Database::Sqlite(path),
            #[cfg(feature = "postgres")]
            cluster: None,
        }
    }
}

#[cfg(feature = "postgres")]
impl From<pg::Db> for TestDb {
    fn from(db: pg::Db) -> TestDb {
        TestDb {
            db: Database::Postgres(db.url),
            cluster: Some(db.cluster),
        }
    }
}

/// A server running in the background on a free loopback port.
#[derive(Debug)]
pub struct Running {
    pub addr: SocketAddr,
    pub db: TestDb,
    pub node: String,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    pub async fn start(db: impl Into<TestDb>) -> Running {
        Running::start_with(db, Limits::default()).await
    }

    /// A server with these limits.
    pub async fn start_with(db: impl Into<TestDb>, limits: Limits) -> Running {
        Running::start_node(db, None, limits).await
    }

    /// A server named `node`, with these limits.
    pub async fn start_node(db: impl Into<TestDb>, node: Option<&str>, limits: Limits) -> Running {
        let db = db.into();
        let config = ServeConfig {
            limits: unhurried(limits),
            node: node.map(str::to_string),
            ..ServeConfig::new("127.0.0.1:0".parse().unwrap(), db.db.clone())
        };
        Running::from_config(db, config).await
    }

    /// A server of `config` as given (its limits too), on `db`.
    pub async fn from_config(db: TestDb, config: ServeConfig) -> Running {
        let config = ServeConfig {
            db: db.db.clone(),
            ..config
        };
        let server = Server::bind(&config).await.unwrap();
        let addr = server.local_addr();
        let node = server.node().to_string();
        let task = tokio::spawn(async move {
            let _ = server.run().await;
        });
        Running {
            addr,
            db,
            node,
            task,
        }
    }

    /// Stops serving (the database stays).
    pub fn stop(self) -> TestDb {
        self.task.abort();
        self.db
    }

    pub async fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        http(self.addr, method, path, body).await
    }

    /// A GET answered with 200 and JSON: the JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        let (status, text) = self.http("GET", path, "").await;
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// A GET answered with the status, the head (lower case) and the body.
    pub async fn get_with_head(&self, path: &str) -> (u16, String, String) {
        http_with_head(self.addr, "GET", path, "").await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.http("POST", path, &body.to_string()).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Creates a game; returns the answer (id, token, seat, invite).
    pub async fn create(&self, form: Value) -> Value {
        let (status, body) = self.post_json("/api/games", &form).await;
        assert_eq!(status, 200, "create {form}: {body}");
        body
    }

    pub async fn view(&self, id: &str) -> Value {
        let (status, text) = self.http("GET", &format!("/api/games/{id}"), "").await;
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).unwrap()
    }

    pub async fn connect(&self, id: &str, token: Option<&str>) -> Client {
        Client::connect(self.addr, id, token).await
    }

    /// Connects saying `name` in `hello`.
    pub async fn connect_named(&self, id: &str, token: Option<&str>, name: &str) -> Client {
        Client::start(join_with(self.addr, id, token, Some(name)).await).await
    }
}

/// A server run as `tengen serve` runs it: on a runtime of its own whose
/// thread blocks on the server, so that the accept loop and the engine's
/// workers run beside the runtime's threads rather than on them (the
/// timing of the live game's races). Stopped when dropped.
#[derive(Debug)]
pub struct Served {
    pub addr: SocketAddr,
    pub db: TestDb,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Served {
    /// A server with these limits, on a runtime of two threads.
    pub async fn start(db: impl Into<TestDb>, limits: Limits) -> Served {
        let db = db.into();
        let config = ServeConfig {
            limits: unhurried(limits),
            ..ServeConfig::new("127.0.0.1:0".parse().unwrap(), db.db.clone())
        };
        let (ready, bound) = tokio::sync::oneshot::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let server = Server::bind(&config).await.unwrap();
                let _ = ready.send(server.local_addr());
                tokio::select! {
                    _ = server.run() => {}
                    _ = stopped => {}
                }
            });
        });
        Served {
            addr: bound.await.unwrap(),
            db,
            stop: Some(stop),
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A record of about 1 MB: one root and 19,999 sibling variations (the
/// 20,000 nodes a review reads at most), each a move with a comment.
pub fn heavy_record() -> String {
    let letters = b"abcdefghijklmnopqrs";
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19]KM[6.5]");
    for i in 0..19_999 {
        let x = letters[i % 19] as char;
        let y = letters[(i / 19) % 19] as char;
        sgf.push_str(&format!(
            "(;B[{x}{y}]C[variation {i:05} {}])",
            "z".repeat(24)
        ));
    }
    sgf.push(')');
    sgf
}

/// A minimal HTTP/1.1 request, answered with the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let (status, _, body) = http_with_head(addr, method, path, body).await;
    (status, body)
}

/// A minimal HTTP/1.1 request, answered with the status, the head (lower
/// case) and the body.
pub async fn http_with_head(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String, String) {
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    http_raw(addr, &req).await
}

/// A server of `config` as given (its limits untouched, for the settings
/// `Running` does not take: allowed hosts, trusted proxies), serving on
/// its own address until the test ends.
pub async fn serve(config: ServeConfig) -> SocketAddr {
    let db = TestDb {
        db: config.db.clone(),
        #[cfg(feature = "postgres")]
        cluster: None,
    };
    Running::from_config(db, config).await.addr
}

/// A server with `limits` as given (the per-client ones included),
/// behind a proxy on this machine that it trusts: [`post_for`] speaks for
/// any client.
pub async fn behind_proxy(db: impl Into<TestDb>, limits: Limits) -> Running {
    let db = db.into();
    let config = ServeConfig {
        limits,
        trusted_proxies: vec![tengen_web::client::parse_proxy("127.0.0.1").unwrap()],
        ..ServeConfig::new("127.0.0.1:0".parse().unwrap(), db.db.clone())
    };
    Running::from_config(db, config).await
}

/// A POST of `body` to `path` as a proxy on this machine relays it for
/// `client` (in `X-Forwarded-For`); the status and the body.
pub async fn post_for(addr: SocketAddr, path: &str, client: &str, body: &str) -> (u16, String) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nX-Forwarded-For: {client}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (status, _, body) = http_raw(addr, &req).await;
    (status, body)
}

/// Limits with one engine worker and no limit on the rate of new games.
pub fn one_engine_worker() -> Limits {
    Limits {
        games_per_minute: 0,
        heavy_workers: 1,
        engine_workers: 1,
        ..Limits::default()
    }
}

/// Through a proxy on this machine (that the server at `addr` trusts),
/// one client creates five strong engine games where the engine moves
/// first, then another client one: how many of the first client's games
/// had their engine move when the second's came.
pub async fn greedy_moves_before_another(addr: SocketAddr) -> usize {
    const GREEDY: usize = 5;
    let form = json!({"rules": "chinese", "size": 9,
        "opponent": {"kind": "engine", "strength": "strong", "color": "white"}})
    .to_string();
    let create = |client| {
        let form = form.clone();
        async move {
            let (status, body) = post_for(addr, "/api/games", client, &form).await;
            assert_eq!(status, 200, "{body}");
            let v: Value = serde_json::from_str(&body).unwrap();
            v["id"].as_str().unwrap().to_string()
        }
    };
    let mut greedy = Vec::new();
    for _ in 0..GREEDY {
        greedy.push(create("203.0.113.1").await);
    }
    let other = create("203.0.113.2").await;
    let moved = |id: String| async move {
        let get =
            format!("GET /api/games/{id} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        let (_, _, body) = http_raw(addr, &get).await;
        let v: Value = serde_json::from_str(&body).unwrap();
        v["move_number"].as_u64().unwrap_or(0) > 0
    };
    let start = std::time::Instant::now();
    while !moved(other.clone()).await {
        assert!(start.elapsed() < Duration::from_secs(120), "never answered");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut before = 0;
    for id in greedy {
        before += usize::from(moved(id).await);
    }
    before
}

/// A request written as given, answered with the status, the head (lower
/// case) and the body, read until the server closes.
pub async fn http_raw(addr: SocketAddr, req: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    let text = String::from_utf8_lossy(&raw).to_string();
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, head, body)
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// Opens a WebSocket with small read buffers (each is zeroed per read).
pub async fn connect(url: &str) -> Socket {
    tokio_tungstenite::connect_async_with_config(url, Some(small_buffers()), false)
        .await
        .unwrap()
        .0
}

fn small_buffers() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4096)
}

/// Opens a WebSocket to `url` at `addr` from the loopback address `from`
/// (another peer as the server sees it); the handshake's error, if
/// refused.
pub async fn connect_from(
    addr: SocketAddr,
    url: &str,
    from: std::net::IpAddr,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let tcp = tcp_from(addr, from).await?;
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
    Ok(
        tokio_tungstenite::client_async_with_config(url, stream, Some(small_buffers()))
            .await?
            .0,
    )
}

/// A TCP connection to `addr` from the loopback address `from`.
pub async fn tcp_from(addr: SocketAddr, from: std::net::IpAddr) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// Opens a game's WebSocket and says `hello` with the seat token, if any.
pub async fn join(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    join_with(addr, id, token, None).await
}

/// Opens a game's WebSocket and says `hello` with the seat token and the
/// name, if any.
pub async fn join_with(
    addr: SocketAddr,
    id: &str,
    token: Option<&str>,
    name: Option<&str>,
) -> Socket {
    let ws = connect(&format!("ws://{addr}/ws/{id}")).await;
    hello(ws, token, name).await
}

/// Opens a game's WebSocket from the loopback address `from` and says
/// `hello` with the seat token.
pub async fn join_from(
    addr: SocketAddr,
    id: &str,
    token: Option<&str>,
    from: std::net::IpAddr,
) -> Socket {
    let ws = connect_from(addr, &format!("ws://{addr}/ws/{id}"), from)
        .await
        .unwrap();
    hello(ws, token, None).await
}

/// Says `hello` on `ws` with the seat token and the name, if any.
async fn hello(mut ws: Socket, token: Option<&str>, name: Option<&str>) -> Socket {
    let mut hello = json!({"type": "hello"});
    if let Some(t) = token {
        hello["token"] = json!(t);
    }
    if let Some(n) = name {
        hello["name"] = json!(n);
    }
    ws.send(Message::Text(hello.to_string().into()))
        .await
        .unwrap();
    ws
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One WebSocket connection to a game.
#[derive(Debug)]
pub struct Client {
    ws: Socket,
    pub seat: String,
    pub last_view: Value,
    /// The latest `names` message (names of the last move).
    pub last_names: Value,
    /// Every chat line heard, once each, in order of arrival.
    pub chat: Vec<Value>,
    /// The latest `presence` message.
    pub presence: Value,
}

impl Client {
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        Client::start(join(addr, id, token).await).await
    }

    /// A client on a socket that has said `hello`: reads its welcome and
    /// first view.
    pub async fn start(ws: Socket) -> Client {
        let mut c = Client {
            ws,
            seat: String::new(),
            last_view: Value::Null,
            last_names: Value::Null,
            chat: Vec::new(),
            presence: Value::Null,
        };
        let welcome = c.next().await;
        assert_eq!(welcome["type"], "welcome");
        c.seat = welcome["seat"].as_str().unwrap().to_string();
        let view = c.next().await;
        assert_eq!(view["type"], "view");
        c.last_view = view;
        c
    }

    /// The next view or error, within ten seconds (`names`, `chat` and
    /// `presence` messages are kept aside).
    pub async fn next(&mut self) -> Value {
        loop {
            let v = self.next_any().await;
            if !self.keep_aside(&v) {
                return v;
            }
        }
    }

    /// Keeps a `names`, `chat` or `presence` message aside; false for
    /// any other.
    fn keep_aside(&mut self, v: &Value) -> bool {
        match v["type"].as_str() {
            Some("names") => self.last_names = v.clone(),
            // A line may come twice (in the catch-up of a new connection
            // and in the broadcast): kept once, by its number, as the page
            // does.
            Some("chat") => {
                for line in v["lines"].as_array().into_iter().flatten() {
                    if !self.chat.iter().any(|l| l["seq"] == line["seq"]) {
                        self.chat.push(line.clone());
                    }
                }
            }
            Some("presence") => self.presence = v.clone(),
            _ => return false,
        }
        true
    }

    /// Waits until `pred` holds of the chat lines and presence heard,
    /// reading messages (views and errors are kept as usual).
    pub async fn wait_talk(&mut self, pred: impl Fn(&Client) -> bool) {
        while !pred(self) {
            let v = self.next_any().await;
            self.keep_aside(&v);
        }
    }

    /// The next message of any kind, within ten seconds.
    pub async fn next_any(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s")
                .expect("the socket open")
                .unwrap();
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "view" {
                    self.last_view = v.clone();
                }
                return v;
            }
        }
    }

    pub async fn send_raw(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn send(&mut self, msg: Value) {
        self.send_raw(msg.to_string()).await;
    }

    /// Reads the messages already waiting (views of earlier changes).
    pub async fn drain(&mut self) {
        while let Ok(Some(Ok(msg))) =
            tokio::time::timeout(Duration::from_millis(30), self.ws.next()).await
        {
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "view" {
                    self.last_view = v;
                } else {
                    self.keep_aside(&v);
                }
            }
        }
    }

    /// Sends a request and returns the answer: the next view, or an error.
    pub async fn ask(&mut self, msg: Value) -> Value {
        self.drain().await;
        self.send(msg).await;
        self.next().await
    }

    pub async fn play(&mut self, vertex: &str) -> Value {
        self.ask(json!({"type": "play", "vertex": vertex})).await
    }

    /// Waits for a view satisfying `pred`.
    pub async fn wait_view(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if pred(&self.last_view) {
            return self.last_view.clone();
        }
        loop {
            let v = self.next().await;
            if v["type"] == "view" && pred(&v) {
                return v;
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Asserts an answer is an error with this code.
pub fn assert_error(answer: &Value, code: &str) {
    assert_eq!(
        answer["type"], "error",
        "expected error {code}, got {answer}"
    );
    assert_eq!(answer["code"], code, "{answer}");
    assert!(
        !answer["message"].as_str().unwrap_or("").is_empty(),
        "{answer}"
    );
}
