//! HTTP routes and the WebSocket of each game.
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /g/{id}`, `GET /learn/{step}` | the page |
//! | `GET /app.css`, `GET /app.js`, `GET /board.js`... | its style and its script's modules ([`assets::MODULES`]) |
//! | `GET /api/presets` | rule sets with their descriptions and komi |
//! | `GET /api/sizes` | the board sizes the new-game form offers |
//! | `GET /api/learn` | the learning path and the steps open to this browser |
//! | `GET /api/learn/{step}` | the screens of a step: sentences, positions, questions |
//! | `POST /api/learn/{step}/answer` | a problem's answer, judged by the rules library |
//! | `POST /api/games` | create a game (the new-game form, JSON) |
//! | `GET /api/games?ids=ID,ID` | the games of those ids in a line each (board, rules, clock, players, state, result): a browser's own games |
//! | `GET /api/games/{id}` | the game's view |
//! | `GET /api/games/{id}/sgf` | the game as SGF |
//! | `POST /api/review` | an SGF record read for review (on a bounded pool) |
//! | `GET /api/games/{id}/estimate` | a score estimate of the position (the engine's dead stones, the game's count, the map drawn) |
//! | `POST /api/classes` | a teacher opens a class: its code and the teacher's token |
//! | `POST /api/classes/{code}/join` | a pupil joins with a first name: this browser's learner becomes that pupil's |
//! | `GET /api/classes/{code}` | the pupils' progress, for the teacher (header `x-teacher-token`) |
//! | `POST /api/members` | a new member (name, password): the session cookie |
//! | `POST /api/session`, `GET /api/session`, `DELETE /api/session` | a member logs in (rate-limited), who is logged in here, logs out |
//! | `GET /api/member/games` | the games the member holds a seat of, from any device, in a line each |
//! | `POST /api/member/games` | seats this browser holds (ids and tokens) kept under the member |
//! | `POST /api/member/password` | a member's new password (the current one checked as a login): their other sessions end |
//! | `GET /api/lobby` | the games listed in the lobby: open invitations and games to watch |
//! | `POST /api/lobby/{id}/join` | takes the free seat of a listed game: its token, once |
//! | `POST /api/review/edit` | a comment or a move added to a record under review, written back as SGF |
//! | `POST /api/review/analysis?start=1&since=N` | the engine's analysis of a record's main line so far (started in the background with `start`) |
//! | `GET /api/health` | games loaded, connections, engine, review and analysis work running and waiting, positions analysed |
//! | `GET /healthz` | 200 when this server and its database answer, 503 when the database does not (for a proxy or an orchestrator) |
//! | `GET /ws/{id}` | the game's WebSocket: the client's first message is `hello` with its seat token (none: a member's seat, or a spectator) |
//!
//! Every response carries the page's security headers (`security`);
//! POSTs and socket upgrades from another site's page are refused
//! (`origin`); connections are capped and slow heads cut off (`listen`).

use crate::assets::{self, Asset};
use crate::client::{self, ClientIp};
use crate::date::now_ms;
use crate::environment::Environment;
use crate::error::{Refusal, WebError};
use crate::hub::Hub;
use crate::lessons::{self, LESSONS};
use crate::limits::Limits;
use crate::listen;
use crate::member;
use crate::protocol::{self, Hello, Incoming, Outgoing, Talk, read_hello, read_incoming};
use crate::review;
use crate::settings::{NewGame, SIZES};
use crate::store::Database;
use crate::token::random_hex;
use crate::watchers::{Follower, Snapshot};
use crate::{origin, security};
use axum::body::{Body, to_bytes};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tengen_core::{Color, Preset};
use tokio::net::TcpListener;
use tokio::sync::broadcast::error::RecvError;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// The port `tengen serve` listens on by default.
pub const DEFAULT_PORT: u16 = 8619;
/// Longest WebSocket frame read at all (the connection closes beyond).
const MAX_FRAME: usize = 64 << 10;
/// Bytes read from a socket at a time.
const READ_BUFFER: usize = 4 << 10;
/// Longest new-game form.
const MAX_FORM: usize = 16 << 10;
/// The learner cookie.
const LEARNER_COOKIE: &str = "tengen_trainer";
/// How long `/healthz` waits for the database.
const HEALTH_WAIT: Duration = Duration::from_secs(2);

/// Where to listen, where the database is, the server's name and bounds.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address and port.
    pub addr: SocketAddr,
    /// The SQLite file or the PostgreSQL database.
    pub db: Database,
    /// This server's name among those on one database (in logs, engine
    /// leases and `/healthz`); `None`: the host's name and the port.
    pub node: Option<String>,
    /// Connections, timeouts, workers, per-client limits.
    pub limits: Limits,
    /// What the process's environment says (the caller reads it).
    pub environment: Environment,
    /// Another engine's command line for the review's analysis, one that
    /// speaks KataGo's JSON analysis protocol (`tengen analysis`, a
    /// club's KataGo); `None`: tengen's own search.
    pub analysis_engine: Option<String>,
    /// The names the server answers for besides addresses and
    /// `localhost` (the public name behind a proxy): requests naming
    /// another host are refused ([`origin::Sites`]).
    pub allowed_hosts: Vec<String>,
    /// The proxies whose report of the client (`X-Forwarded-For`,
    /// `Forwarded`) is believed for the per-client limits
    /// ([`client::Proxies`]); none by default.
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl ServeConfig {
    /// `addr` and `db` with the default name and limits.
    pub fn new(addr: SocketAddr, db: impl Into<Database>) -> ServeConfig {
        ServeConfig {
            addr,
            db: db.into(),
            node: None,
            limits: Limits::default(),
            environment: Environment::default(),
            analysis_engine: None,
            allowed_hosts: Vec::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// The host's name and the port: stable across restarts (so that a
/// restarted server takes back its own engine jobs at once) and distinct
/// for servers sharing a host.
fn default_node(port: u16, environment: &Environment) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| environment.hostname.clone())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "tengen".into());
    format!("{host}:{port}")
}

/// A bound server, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    hub: Arc<Hub>,
    sites: origin::Sites,
    proxies: client::Proxies,
}

impl Server {
    /// Binds, then opens the database (creating or upgrading its schema,
    /// refusing one it cannot write). Games stay in the database until
    /// someone opens them, so starting takes the same time however many
    /// are stored.
    ///
    /// # Errors
    /// [`WebError`] when the database cannot be opened, upgraded or
    /// written, or the address bound.
    pub async fn bind(config: &ServeConfig) -> Result<Server, WebError> {
        let listener = TcpListener::bind(config.addr).await?;
        let port = listener.local_addr()?.port();
        let node = config
            .node
            .clone()
            .unwrap_or_else(|| default_node(port, &config.environment));
        let analyst = match &config.analysis_engine {
            Some(command) => Some(Arc::new(crate::analyst::Analyst::start(command).map_err(
                |why| WebError::Invalid {
                    field: "analysis engine",
                    why,
                },
            )?)),
            None => None,
        };
        let hub = Hub::open(
            &config.db,
            &node,
            config.limits.clone(),
            &config.environment,
            analyst,
        )
        .await?;
        Ok(Server {
            listener,
            hub,
            sites: origin::Sites::new(&config.allowed_hosts),
            proxies: client::Proxies::new(config.trusted_proxies.iter().copied()),
        })
    }

    /// This server's name among those on its database.
    pub fn node(&self) -> &str {
        self.hub.node()
    }

    /// The address bound (the port chosen when 0 was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Serves until the process ends: answers clients, unloads the games
    /// nobody watches, follows what other servers on the database store,
    /// and runs the engine's workers.
    ///
    /// # Errors
    /// None today: a failed accept is retried; the `Result` leaves room
    /// for a listener that can fail for good.
    pub async fn run(self) -> Result<(), WebError> {
        let header_read = self.hub.limits().header_read;
        let app = router(
            Arc::clone(&self.hub),
            self.sites.clone(),
            self.proxies.clone(),
        );
        tracing::info!(
            node = self.hub.node(),
            store = self.hub.store().kind(),
            engine_workers = self.hub.limits().engine_workers,
            "serving on {}",
            self.local_addr()
        );
        let door = listen::Door {
            listener: self.listener,
            slots: self.hub.connection_slots(),
            peers: crate::held::Held::new(self.hub.limits().connections_per_peer),
            proxies: self.proxies.clone(),
        };
        tokio::join!(
            listen::serve(door, app, header_read),
            Arc::clone(&self.hub).unload_loop(),
            Arc::clone(&self.hub).heartbeat_loop(),
            Arc::clone(&self.hub).follow_others(),
            Arc::clone(&self.hub).engine_workers(),
        );
        Ok(())
    }
}

/// The routes over a hub, with the security headers, the host and origin
/// checks for `sites`, each request's client (behind `proxies`), and the
/// body-read timeout.
pub fn router(hub: Arc<Hub>, sites: origin::Sites, proxies: client::Proxies) -> Router {
    let body_read = hub.limits().body_read;
    let files = assets::files().fold(Router::new(), |router, file| {
        router.route(file.path, get(move || async move { asset(file) }))
    });
    let routes = files
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/lobby", get(page))
        .route("/class/{code}", get(page))
        .route("/api/presets", get(presets))
        .route("/api/sizes", get(sizes))
        .route("/api/learn", get(learn))
        .route("/learn/{step}", get(page))
        .route("/api/learn/{step}", get(learn_step))
        .route("/api/learn/{step}/answer", post(learn_answer))
        .route("/api/games", get(games).post(create))
        .route("/api/games/{id}", get(game_view))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/games/{id}/estimate", get(estimate))
        .route("/api/classes", post(open_class))
        .route("/api/classes/{code}/join", post(join_class))
        .route("/api/classes/{code}", get(class_pupils))
        .route("/api/members", post(enter::<true>))
        .route(
            "/api/session",
            get(who).post(enter::<false>).delete(log_out),
        )
        .route("/api/member/games", get(member_games).post(keep_seats))
        .route("/api/member/password", post(change_password))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/{id}/join", post(join))
        .route("/api/review", post(review_sgf))
        .route("/api/review/edit", post(review_edit))
        .route("/api/review/analysis", post(review_analysis))
        .route("/api/health", get(health))
        .route("/healthz", get(healthz))
        .route("/ws/{id}", get(socket))
        .with_state(hub)
        .layer(axum::middleware::from_fn_with_state(sites, origin::guard))
        .layer(axum::middleware::from_fn_with_state(
            proxies,
            client::identify,
        ))
        .layer(RequestBodyTimeoutLayer::new(body_read));
    security::with_headers(routes)
}

/// An embedded file, revalidated on every load: the page and its modules
/// change together with the binary, and a module kept from an older one
/// would not fit the others.
fn asset(file: Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, file.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        file.body,
    )
        .into_response()
}

async fn page() -> Response {
    asset(assets::PAGE)
}

async fn presets() -> Response {
    let list: Vec<serde_json::Value> = Preset::ALL
        .iter()
        .map(|p| {
            let r = p.rules();
            serde_json::json!({
                "name": p.name(),
                "description": p.description(),
                "komi": r.komi.to_string(),
                "handicap": !matches!(r.scoring, tengen_core::Scoring::Captures),
                "free_placement": !matches!(r.handicap_placement, tengen_core::HandicapPlacement::Fixed),
            })
        })
        .collect();
    axum::Json(list).into_response()
}

async fn sizes() -> Response {
    axum::Json(SIZES).into_response()
}

fn learner_cookie(headers: &HeaderMap) -> Option<String> {
    member::cookie(headers, LEARNER_COOKIE)
}

async fn learn(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, WebError> {
    let (learner, fresh) = match learner_cookie(&headers) {
        Some(l) => (l, false),
        None => (random_hex(2)?, true),
    };
    let unlocked = hub.store().unlocked(&learner).await?;
    let body = serde_json::json!({
        "learner": learner,
        "unlocked": unlocked,
        "lessons": LESSONS,
    });
    let mut response = axum::Json(body).into_response();
    if fresh && let Some(v) = learner_set_cookie(&learner) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(response)
}

async fn learn_step(Path(step): Path<u32>) -> Result<Response, WebError> {
    Ok(axum::Json(lessons::show::step(step)?).into_response())
}

/// Longest answer to a problem.
const MAX_ANSWER: usize = 1 << 10;

async fn learn_answer(
    State(hub): State<Arc<Hub>>,
    Path(step): Path<u32>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let answer: lessons::show::Answer = read_json(&headers, body, MAX_ANSWER).await?;
    let verdict = lessons::show::answer(step, &answer)?;
    // A problem solved counts for the learner (a class's teacher sees it).
    if verdict.correct
        && let Some(learner) = learner_cookie(&headers)
    {
        hub.store()
            .solve(&learner, &answer.screen, now_ms())
            .await?;
    }
    Ok(axum::Json(verdict).into_response())
}

/// The learner cookie's header for `learner`, kept ten years.
fn learner_set_cookie(learner: &str) -> Option<HeaderValue> {
    let cookie =
        format!("{LEARNER_COOKIE}={learner}; Path=/; Max-Age=315360000; SameSite=Lax; HttpOnly");
    HeaderValue::from_str(&cookie).ok()
}

async fn open_class(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
) -> Result<Response, WebError> {
    let (code, token) = hub.open_class(client_of(client)).await?;
    Ok(axum::Json(serde_json::json!({ "code": code, "token": token })).into_response())
}

/// What a pupil sends to join a class.
#[derive(serde::Deserialize)]
struct Joining {
    /// The first name.
    name: String,
}

/// A pupil joins: the learner of that first name in the class (this
/// browser's own the first time) becomes this browser's.
async fn join_class(
    State(hub): State<Arc<Hub>>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let code = crate::class::code(&code)?;
    let joining: Joining = read_json(&headers, body, MAX_ANSWER).await?;
    let name = crate::class::pupil_name(&joining.name)?;
    if hub.store().class_teacher(&code).await?.is_none() {
        return Err(WebError::invalid(
            "code",
            format!("no class {code}: check the code"),
        ));
    }
    let mine = match learner_cookie(&headers) {
        Some(l) => l,
        None => random_hex(2)?,
    };
    let learner = hub
        .store()
        .join_class(&code, &name, &mine, now_ms())
        .await?;
    let unlocked = hub.store().unlocked(&learner).await?;
    let body = serde_json::json!({ "code": code, "name": name, "unlocked": unlocked });
    let mut response = axum::Json(body).into_response();
    if let Some(v) = learner_set_cookie(&learner) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// The pupils of a class, for its teacher alone.
async fn class_pupils(
    State(hub): State<Arc<Hub>>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let code = crate::class::code(&code)?;
    let given = headers
        .get("x-teacher-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let kept = hub.store().class_teacher(&code).await?.unwrap_or_default();
    if !crate::token::matches(given, &kept) {
        return Err(WebError::Forbidden(Refusal::NotTeacher));
    }
    let pupils = hub.store().pupils(&code).await?;
    Ok(axum::Json(serde_json::json!({ "code": code, "pupils": pupils })).into_response())
}

/// Reads a JSON body of at most `limit` bytes.
async fn read_json<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<T, WebError> {
    let bytes = read_body(headers, body, limit).await?;
    serde_json::from_slice(&bytes).map_err(|e| WebError::Malformed(e.to_string()))
}

/// Reads a body of at most `limit` bytes.
async fn read_body(headers: &HeaderMap, body: Body, limit: usize) -> Result<Vec<u8>, WebError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if let Some(size) = declared.filter(|&s| s > limit) {
        return Err(WebError::TooLarge { size, limit });
    }
    let bytes = to_bytes(body, limit)
        .await
        .map_err(|_| WebError::TooLarge {
            size: declared.unwrap_or(limit + 1),
            limit,
        })?;
    Ok(bytes.to_vec())
}

async fn create(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let mut form: NewGame = read_json(&headers, body, MAX_FORM).await?;
    if form.lesson.is_some() && form.learner.is_none() {
        form.learner = learner_cookie(&headers);
    }
    let created = hub.create(form, client_of(client)).await?;
    Ok(axum::Json(created).into_response())
}

async fn game_view(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let slot = hub.slot(&id).await?;
    let (mut view, game) = {
        let room = slot.room.lock().await;
        (room.view(now_ms()), room.game().clone())
    };
    view.names = tokio::task::spawn_blocking(move || crate::names::last_move(&game))
        .await
        .unwrap_or_default();
    Ok(axum::Json(Outgoing::View(&view)).into_response())
}

async fn sgf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, WebError> {
    let slot = hub.slot(&id).await?;
    let players = {
        let presence = slot.presence.lock().await;
        [Color::Black, Color::White].map(|c| presence.name(c).map(str::to_string))
    };
    let text = slot.room.lock().await.sgf(players);
    let disposition = format!("attachment; filename=\"tengen-{id}.sgf\"");
    let mut response = ([(header::CONTENT_TYPE, "application/x-go-sgf")], text).into_response();
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// The client of a request, as the `identify` layer found it (none in
/// a router used without it).
fn client_of(client: Option<Extension<ClientIp>>) -> Option<std::net::IpAddr> {
    client.map(|Extension(ClientIp(ip))| ip)
}

/// Reads a record on the review pool: parsing, replaying and writing out
/// a large one takes a second of CPU, which must not hold an async worker.
async fn review_sgf(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let bytes = read_body(&headers, body, review::MAX_SGF_BYTES).await?;
    let json = hub
        .reviews()
        .run(
            client_of(client),
            || true,
            move || -> Result<Vec<u8>, WebError> {
                let loaded = review::load(&String::from_utf8_lossy(&bytes))?;
                Ok(serde_json::to_vec(&loaded)?)
            },
        )
        .await
        .ok_or_else(|| WebError::Io(std::io::Error::other("the review stopped")))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn estimate(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let slot = hub.slot(&id).await?;
    let json = hub.estimate(&slot, client_of(client)).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        json.to_string(),
    )
        .into_response())
}

async fn lobby(State(hub): State<Arc<Hub>>) -> Result<Response, WebError> {
    let rows = hub.store().lobby(crate::lobby::MAX_LISTED).await?;
    Ok(axum::Json(crate::lobby::lobby(rows)).into_response())
}

/// The query of `GET /api/games`.
#[derive(serde::Deserialize)]
struct Ids {
    /// Game ids, comma-separated.
    ids: String,
}

/// The games a browser holds seats of (it keeps their tokens), each in a
/// line, in the order asked; ids unknown here are left out.
async fn games(State(hub): State<Arc<Hub>>, Query(q): Query<Ids>) -> Result<Response, WebError> {
    let ids: Vec<&str> = q.ids.split(',').filter(|id| !id.is_empty()).collect();
    if ids.len() > crate::lobby::MAX_LISTED {
        return Err(WebError::invalid(
            "ids",
            format!("at most {} games at once", crate::lobby::MAX_LISTED),
        ));
    }
    summaries(&hub, &ids).await
}

/// Games of `ids` in a line each, in that order; ids unknown are left out.
async fn summaries(hub: &Hub, ids: &[&str]) -> Result<Response, WebError> {
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        if let Some(row) = hub.store().game(id).await? {
            let players = hub.store().players(id).await?;
            out.extend(crate::lobby::summary(row, &players));
        }
    }
    Ok(axum::Json(out).into_response())
}

async fn join(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, WebError> {
    Ok(axum::Json(hub.take_seat(&id).await?).into_response())
}

/// A member's name and password, to sign up or log in.
#[derive(serde::Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

/// Longest body of credentials.
const MAX_CREDENTIALS: usize = 1 << 10;

/// The answer of who is logged in now (`name`, none after a logout), with
/// the cookie of their session (`token`; none: the cookie is cleared).
fn logged_in(headers: &HeaderMap, name: Option<&str>, token: Option<&str>) -> Response {
    let mut response = axum::Json(serde_json::json!({ "name": name })).into_response();
    if let Some(v) = member::set_cookie(headers, token) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// A member logs in, or (`NEW`) signs up: a new member counts against
/// the client's creations, a login against its tries.
async fn enter<const NEW: bool>(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let given: Credentials = read_json(&headers, body, MAX_CREDENTIALS).await?;
    let (name, password, client) = (&given.name, &given.password, client_of(client));
    let (m, token) = if NEW {
        hub.take_creation(client)?;
        member::sign_up(hub.store(), name, password, now_ms()).await?
    } else {
        member::log_in(hub.store(), hub.logins(), client, name, password, now_ms()).await?
    };
    Ok(logged_in(&headers, Some(&m.name), Some(&token)))
}

/// A member's current and new passwords.
#[derive(serde::Deserialize)]
struct NewPassword {
    password: String,
    new: String,
}

/// A member changes their password: logged out everywhere but here.
async fn change_password(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let m = member_of(&hub, &headers).await?;
    let given: NewPassword = read_json(&headers, body, MAX_CREDENTIALS).await?;
    let token = member::change_password(
        hub.store(),
        hub.logins(),
        client_of(client),
        &m,
        &given.password,
        &given.new,
        now_ms(),
    )
    .await?;
    Ok(logged_in(&headers, Some(&m.name), Some(&token)))
}

/// Who is logged in here: `{"name": null}` for nobody.
async fn who(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, WebError> {
    let name = member::of(hub.store(), &headers).await?.map(|m| m.name);
    Ok(axum::Json(serde_json::json!({ "name": name })).into_response())
}

async fn log_out(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, WebError> {
    if let Some(token) = member::token(&headers) {
        hub.store()
            .close_session(&crate::token::digest(&token))
            .await?;
    }
    Ok(logged_in(&headers, None, None))
}

/// The member of a request, or the refusal that none is logged in.
async fn member_of(hub: &Hub, headers: &HeaderMap) -> Result<tengen_store::MemberRow, WebError> {
    member::of(hub.store(), headers)
        .await?
        .ok_or(WebError::Forbidden(Refusal::NotMember))
}

async fn member_games(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let m = member_of(&hub, &headers).await?;
    let ids = hub.store().member_games(&m.key).await?;
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    summaries(&hub, &ids).await
}

/// A seat this browser holds, to keep under its member.
#[derive(serde::Deserialize)]
struct HeldSeat {
    id: String,
    token: String,
}

/// Keeps under the member the seats whose tokens this browser holds (the
/// games it played before logging in): those a token proves, at most
/// [`crate::lobby::MAX_LISTED`]; how many were kept.
async fn keep_seats(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let m = member_of(&hub, &headers).await?;
    let seats: Vec<HeldSeat> = read_json(&headers, body, 32 << 10).await?;
    let mut kept = 0;
    for held in seats.iter().take(crate::lobby::MAX_LISTED) {
        let Some((black, white)) = hub.store().tokens(&held.id).await? else {
            continue;
        };
        let seat = protocol::Seat::proven(Some(&held.token), &black, &white);
        if seat != protocol::Seat::Spectator {
            hub.store()
                .keep_seat(&m.key, &held.id, seat.name(), now_ms())
                .await?;
            kept += 1;
        }
    }
    Ok(axum::Json(serde_json::json!({ "kept": kept })).into_response())
}

/// Applies an edit to a record under review on the review pool (the
/// record is read, replayed and written again).
async fn review_edit(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    // The record as JSON text, escapes and all, and the edit.
    let bytes = read_body(&headers, body, 2 * review::MAX_SGF_BYTES + MAX_FORM).await?;
    let json = hub
        .reviews()
        .run(
            client_of(client),
            || true,
            move || -> Result<Vec<u8>, WebError> {
                let request: review::EditRequest = serde_json::from_slice(&bytes)
                    .map_err(|e| WebError::Malformed(e.to_string()))?;
                Ok(serde_json::to_vec(&review::edit(&request)?)?)
            },
        )
        .await
        .ok_or_else(|| WebError::Io(std::io::Error::other("the review stopped")))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

/// What `POST /api/review/analysis` is asked besides the record.
#[derive(Debug, serde::Deserialize)]
struct AnalysisQuery {
    /// Start the analysis unless it is complete or under way.
    #[serde(default)]
    start: u8,
    /// The first position to send (those before are with the page).
    #[serde(default)]
    since: usize,
}

async fn review_analysis(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<AnalysisQuery>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let bytes = read_body(&headers, body, review::MAX_SGF_BYTES).await?;
    let client = client_of(client);
    let progress = hub
        .analysis(bytes, query.since, query.start != 0, client)
        .await?;
    Ok(axum::Json(progress).into_response())
}

async fn health(State(hub): State<Arc<Hub>>) -> Result<Response, WebError> {
    Ok(axum::Json(hub.health().await?).into_response())
}

/// Whether this server can serve: it answers, and so does its database
/// (within [`HEALTH_WAIT`]). A proxy sends clients elsewhere on a 503.
async fn healthz(State(hub): State<Arc<Hub>>) -> Response {
    let failure = match tokio::time::timeout(HEALTH_WAIT, hub.store().ping()).await {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) => Some(format!(
            "the database did not answer within {} s",
            HEALTH_WAIT.as_secs()
        )),
    };
    let mut body = serde_json::json!({
        "status": if failure.is_none() { "ok" } else { "unavailable" },
        "node": hub.node(),
        "store": hub.store().kind(),
    });
    let status = match failure {
        None => axum::http::StatusCode::OK,
        Some(why) => {
            tracing::warn!("healthz: {why}");
            body["error"] = why.into();
            axum::http::StatusCode::SERVICE_UNAVAILABLE
        }
    };
    (status, axum::Json(body)).into_response()
}

async fn socket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, WebError> {
    // Counted from the upgrade to the close.
    let place = match client {
        Some(Extension(ClientIp(ip))) => Some(hub.open_socket(ip)?),
        None => None,
    };
    let slot = hub.slot(&id).await?;
    // The upgrade carries the member's cookie: their seats are theirs on
    // any device.
    let member = member::of(hub.store(), &headers).await?;
    // Small reads: the protocol's messages are short, and each read
    // buffer is zeroed before use.
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            session(hub, slot, member, socket).await;
            drop(place);
        }))
}

fn error_text(e: &WebError) -> Message {
    Message::Text(Outgoing::error(e).text().into())
}

/// The socket's first message, within [`Limits::hello`]. `None`: the
/// client said something else, or nothing in time, and has been told so
/// when it can hear it.
async fn hello(
    hub: &Hub,
    sink: &mut SplitSink<WebSocket, Message>,
    stream: &mut SplitStream<WebSocket>,
) -> Option<Hello> {
    let first = tokio::time::timeout(hub.limits().hello, stream.next()).await;
    let refused = match first {
        Ok(Some(Ok(Message::Text(text)))) => match read_hello(text.as_str()) {
            Ok(hello) => return Some(hello),
            Err(e) => e,
        },
        Ok(Some(Ok(_))) | Err(_) => WebError::Forbidden(Refusal::NoHello),
        Ok(Some(Err(_)) | None) => return None,
    };
    let _ = sink.send(error_text(&refused)).await;
    None
}

/// A game's socket, from its `hello` to its close; the game counts as
/// watched until then.
async fn session(
    hub: Arc<Hub>,
    slot: Arc<crate::hub::Slot>,
    member: Option<tengen_store::MemberRow>,
    socket: WebSocket,
) {
    let (mut sink, mut stream) = socket.split();
    if let Some(hello) = hello(&hub, &mut sink, &mut stream).await {
        follow(&hub, &slot, hello, member, sink, stream).await;
    }
    slot.touch();
}

/// Sends the seat, the view, the names and the chat, tells everyone who
/// arrived, then answers requests and forwards every change until either
/// side closes, and tells everyone who left.
async fn follow(
    hub: &Arc<Hub>,
    slot: &Arc<crate::hub::Slot>,
    hello: Hello,
    member: Option<tengen_store::MemberRow>,
    sink: SplitSink<WebSocket, Message>,
    stream: SplitStream<WebSocket>,
) {
    let seat = hub
        .seat_of(slot, hello.token.as_deref(), member.as_ref())
        .await;
    let mut follower = slot.watchers.follow();
    let first = {
        let room = slot.room.lock().await;
        follower.took(Snapshot::View, slot.watchers.stamp());
        Outgoing::View(&room.view(now_ms())).text()
    };
    // A member plays under their name; a name that does not read is left
    // out rather than refusing the seat.
    let name = match (&member, seat) {
        (Some(m), protocol::Seat::Player(_) | protocol::Seat::Both) => Some(m.name.as_str()),
        _ => hello.name.as_deref(),
    }
    .and_then(|n| crate::presence::clean_name(n).ok().flatten());
    if let Err(e) = hub.arrive(slot, seat, name).await {
        tracing::error!("seat in {}: {e}", slot.id);
    }
    answer(hub, slot, seat, first, follower, sink, stream).await;
    hub.leave(slot, seat).await;
}

/// The messages a newcomer, or a watcher too slow to follow, needs to be
/// up to date: the chat's recent lines and who is there.
async fn catch_up(
    hub: &Hub,
    slot: &crate::hub::Slot,
    follower: &mut Follower,
    sink: &mut SplitSink<WebSocket, Message>,
) -> bool {
    let chat = hub.chat_message(slot).await;
    let (presence, stamp) = hub.presence_message(slot).await;
    follower.took(Snapshot::Presence, stamp);
    for text in [chat, presence] {
        if sink.send(Message::Text(text.into())).await.is_err() {
            return false;
        }
    }
    true
}

/// What a player or spectator says and hears, until either side closes.
async fn answer(
    hub: &Arc<Hub>,
    slot: &Arc<crate::hub::Slot>,
    seat: protocol::Seat,
    first: String,
    mut follower: Follower,
    mut sink: SplitSink<WebSocket, Message>,
    mut stream: SplitStream<WebSocket>,
) {
    if sink
        .send(Message::Text(
            Outgoing::Welcome { seat: seat.name() }.text().into(),
        ))
        .await
        .is_err()
    {
        return;
    }
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let names = hub.names_message(slot).await;
    if sink.send(Message::Text(names.into())).await.is_err()
        || !catch_up(hub, slot, &mut follower, &mut sink).await
    {
        return;
    }
    // Pinged every period; closed when nothing has come for three.
    let period = hub.limits().socket_ping.max(Duration::from_millis(10));
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                let reply = match incoming {
                    Some(Ok(Message::Text(text))) => match read_incoming(text.as_str()) {
                        Ok(Incoming::Game(request)) => hub.request(slot, seat, &request).await.err(),
                        Ok(Incoming::Talk(Talk::Chat { text })) => hub.say(slot, seat, &text).await.err(),
                        Ok(Incoming::Talk(Talk::Name { name })) => hub.rename(slot, seat, &name).await.err(),
                        Err(e) => Some(e),
                    },
                    Some(Ok(Message::Binary(b))) => Some(WebError::Malformed(format!(
                        "a binary message of {} bytes: the API speaks JSON text",
                        b.len()
                    ))),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                if let Some(e) = reply
                    && sink.send(error_text(&e)).await.is_err()
                {
                    break;
                }
            }
            sent = follower.next() => {
                let text = match sent {
                    Ok(text) => text,
                    Err(RecvError::Lagged(_)) => {
                        // Too slow to follow: the latest view, the chat and
                        // who is there replace the queue.
                        if !catch_up(hub, slot, &mut follower, &mut sink).await {
                            break;
                        }
                        let room = slot.room.lock().await;
                        follower.took(Snapshot::View, slot.watchers.stamp());
                        Utf8Bytes::from(Outgoing::View(&room.view(now_ms())).text())
                    }
                    Err(RecvError::Closed) => break,
                };
                // A client that stops reading is not waited for past a
                // period: its place goes to others.
                if !matches!(
                    tokio::time::timeout(period, sink.send(Message::Text(text))).await,
                    Ok(Ok(()))
                ) {
                    break;
                }
            }
            _ = pings.tick() => {
                if heard.elapsed() >= 3 * period
                    || !matches!(
                        tokio::time::timeout(period, sink.send(Message::Ping(Default::default())))
                            .await,
                        Ok(Ok(()))
                    )
                {
                    break;
                }
            }
        }
    }
}
