//! The live games: created, loaded from the database when someone opens
//! them (their actions replayed) and unloaded when nobody has watched them
//! for a while, changed by players, the engine and the clocks, and
//! broadcast to everyone watching. An action is stored before anyone hears
//! of it. Several servers may serve one game from one database: each keeps
//! its copy of the room and reads what the others stored when it hears of
//! it (`fanout.rs`), and a position stored first by another server
//! makes a request read again. The engine's moves are jobs in the database
//! that any server's workers take (`workers.rs`); a search stops as
//! soon as the position it serves changes.

use crate::action::Action;
use crate::allowance::Allowance;
use crate::analysis::{self, Progress};
use crate::chat::{self, ChatLog};
use crate::date::now_ms;
use crate::environment::Environment;
use crate::error::{Refusal, WebError};
use crate::held::{Held, Place};
use crate::lessons;
use crate::limits::Limits;
use crate::names;
use crate::pauses::Pauses;
use crate::pool::{Pool, PoolLoad};
use crate::presence::{Here, Presence};
use crate::protocol::{self, Request, Seat};
use crate::review::{self, MainLine};
use crate::room::Room;
use crate::settings::{NewGame, Settings};
use crate::store::{Append, Database, MemberRow, Store, StoreError};
use crate::token::random_hex;
use crate::turns::Client;
use crate::watchers::{Snapshot, Watchers};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// How many times a chat line takes the next place when other servers
/// store lines at its place first.
const CHAT_TRIES: u32 = 8;

/// A game created: its id and the creator's seat.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The creator's secret seat token.
    pub token: String,
    /// `black`, `white` or `both`.
    pub seat: &'static str,
    /// The friend's seat token, for the invitation link.
    pub invite: Option<String>,
}

/// A live game and the channel of its views.
#[derive(Debug)]
pub struct Slot {
    /// The game's id.
    pub id: String,
    /// The game.
    pub room: tokio::sync::Mutex<Room>,
    /// What every watcher is sent: views, who is there, chat, names.
    pub watchers: Watchers,
    /// Set when the position changes: stops the search of the engine
    /// move that served the old one. Replaced by a fresh flag each time.
    search: Mutex<Arc<AtomicBool>>,
    /// When it was last opened, changed or left (ms since the epoch).
    touched: AtomicI64,
    /// The chat: its recent lines and each seat's allowance. Apart from
    /// the room, so that talking never waits for a move.
    pub chat: tokio::sync::Mutex<ChatLog>,
    /// Who is at the game.
    pub presence: tokio::sync::Mutex<Presence>,
    /// The last score estimate and the log position it serves.
    estimate: Mutex<Option<(u64, Arc<str>)>>,
}

impl Slot {
    fn new(room: Room, chat: ChatLog, presence: Presence) -> Slot {
        Slot {
            id: room.settings().id.clone(),
            room: tokio::sync::Mutex::new(room),
            watchers: Watchers::default(),
            search: Mutex::new(Arc::new(AtomicBool::new(false))),
            touched: AtomicI64::new(now_ms()),
            chat: tokio::sync::Mutex::new(chat),
            presence: tokio::sync::Mutex::new(presence),
            estimate: Mutex::new(None),
        }
    }

    /// Notes that someone opened, changed or left the game now.
    pub fn touch(&self) {
        self.touched.store(now_ms(), Ordering::Relaxed);
    }

    pub(crate) fn search_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.search.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The position changed: the search serving the old one stops.
    pub(crate) fn position_changed(&self) {
        let fresh = Arc::new(AtomicBool::new(false));
        let old = std::mem::replace(
            &mut *self.search.lock().unwrap_or_else(|e| e.into_inner()),
            fresh,
        );
        old.store(true, Ordering::Relaxed);
        self.touch();
    }
}

/// Unloads, least recently touched first, games nobody holds (as
/// [`Hub::unload_idle`] but whatever their age) until an eighth of `cap`
/// is free, so that the next games do not each pay for a sort. Games
/// watched stay: their sockets are capped per client. Returns how many
/// left memory.
fn unload_oldest(rooms: &mut HashMap<String, Arc<Slot>>, cap: usize) -> usize {
    let target = cap - cap / 8;
    let mut idle: Vec<(i64, String)> = rooms
        .iter()
        .filter(|(_, slot)| nobody_holds(slot))
        .map(|(id, slot)| (slot.touched.load(Ordering::Relaxed), id.clone()))
        .collect();
    idle.sort_unstable();
    idle.truncate(rooms.len().saturating_sub(target));
    for (_, id) in &idle {
        rooms.remove(id);
    }
    idle.len()
}

/// Whether nobody but the map of loaded games holds `slot` (no watcher, no
/// engine move or clock waiting, no request under way): every other
/// holder got it from that map under its lock, or from another holder, so
/// a count of one, read under the lock, means none is left.
fn nobody_holds(slot: &Arc<Slot>) -> bool {
    Arc::strong_count(slot) == 1
}

/// Sends who is at the game to everyone watching it.
pub(crate) fn send_presence(slot: &Slot, presence: &Presence) {
    let text = protocol::Outgoing::Presence(&presence.view()).text();
    slot.watchers.send_snapshot(Snapshot::Presence, text);
}

/// What the health route reports.
#[derive(Clone, Debug, Serialize)]
pub struct Health {
    /// This server's name among those on the database.
    pub node: String,
    /// `sqlite` or `postgres`.
    pub store: &'static str,
    /// Games in memory.
    pub games_loaded: usize,
    /// Connections open and their cap.
    pub connections: Connections,
    /// Engine moves running here, and waiting in the database for any
    /// server's worker.
    pub engine: PoolLoad,
    /// Reviews running and waiting.
    pub reviews: PoolLoad,
    /// Positions of records under analysis being searched and waiting.
    pub analyses: PoolLoad,
    /// Positions the engine has searched for analyses since start-up.
    pub positions_analysed: u64,
}

/// Connections open and their cap.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Connections {
    /// Open now.
    pub open: usize,
    /// The cap.
    pub limit: usize,
}

/// Every live game. See the module docs.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    /// This server's name, in logs, leases and notifications.
    node: String,
    /// Wakes this server's engine workers: a job was made.
    pub(crate) job_made: Notify,
    rooms: Mutex<HashMap<String, Arc<Slot>>>,
    pub(crate) seed: AtomicU64,
    /// One lexicon reading at a time: under load, names of positions
    /// already played over are skipped rather than queued.
    naming: tokio::sync::Semaphore,
    /// The engine's moves and dead-stone proposals.
    pub(crate) engine: Pool,
    /// Records read for review.
    reviews: Pool,
    /// Positions of records under analysis.
    analyses: Pool,
    /// The records being analysed (their keys).
    analysing: Mutex<HashSet<String>>,
    /// Another engine that analyses the review's positions, when the
    /// server was given one.
    analyst: Option<Arc<crate::analyst::Analyst>>,
    /// Positions searched for analyses since start-up.
    analysed: AtomicU64,
    /// Places for connections (the accept loop takes one per connection).
    connections: Arc<Semaphore>,
    /// Each client's allowance of new games.
    creations: Allowance,
    /// Each client's and each member name's tries to log in.
    logins: crate::member::Logins,
    /// Each client's open game sockets.
    sockets: Held,
    /// Each client's records under analysis.
    analysers: Held,
    /// The outages up to this server's start, over which clocks stand still.
    pauses: Arc<Pauses>,
    limits: Limits,
}

/// How often a server says it is alive ([`Hub::heartbeat_loop`]): an
/// outage is counted from at most this before the server stopped.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

impl Hub {
    /// The hub of server `node` over the database `db`, within `limits`;
    /// the review's positions go to `analyst` when there is one.
    ///
    /// # Errors
    /// A storage error when the database cannot be opened or upgraded;
    /// [`WebError::Store`] ([`StoreError::ReadOnly`]) when it cannot be written.
    pub async fn open(
        db: &Database,
        node: &str,
        limits: Limits,
        environment: &Environment,
        analyst: Option<Arc<crate::analyst::Analyst>>,
    ) -> Result<Arc<Hub>, WebError> {
        let seed = u64::from_str_radix(&random_hex(1)?, 16).unwrap_or(1);
        let heavy = Arc::new(Semaphore::new(limits.heavy_workers.max(1)));
        let store = Store::open(db, node, environment).await?;
        let grace = i64::try_from(limits.outage_after.as_millis()).unwrap_or(i64::MAX);
        let pauses = Arc::new(Pauses::new(store.start(node, now_ms(), grace).await?));
        Ok(Arc::new(Hub {
            store,
            node: node.to_string(),
            job_made: Notify::new(),
            rooms: Mutex::new(HashMap::new()),
            seed: AtomicU64::new(seed),
            naming: tokio::sync::Semaphore::new(1),
            engine: Pool::new(limits.engine_workers, Arc::clone(&heavy)),
            reviews: Pool::new(limits.review_workers, Arc::clone(&heavy)),
            analyses: Pool::new(limits.analysis_workers, heavy),
            analysing: Mutex::new(HashSet::new()),
            analyst,
            analysed: AtomicU64::new(0),
            connections: Arc::new(Semaphore::new(limits.connections)),
            creations: Allowance::per_minute(limits.games_per_minute),
            logins: crate::member::Logins::per_minute(limits.logins_per_minute),
            sockets: Held::new(limits.sockets_per_client),
            analysers: Held::new(limits.analyses_per_client),
            pauses,
            limits,
        }))
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The allowance of tries to log in.
    pub fn logins(&self) -> &crate::member::Logins {
        &self.logins
    }

    /// This server's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The bounds the server keeps.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The places for connections, one taken per open connection.
    pub fn connection_slots(&self) -> Arc<Semaphore> {
        Arc::clone(&self.connections)
    }

    /// The pool that reads records for review.
    pub fn reviews(&self) -> &Pool {
        &self.reviews
    }

    /// Games loaded, connections, and the work running and waiting.
    ///
    /// # Errors
    /// A storage error when the database does not answer.
    pub async fn health(&self) -> Result<Health, WebError> {
        self.store.ping().await?;
        let open = self
            .limits
            .connections
            .saturating_sub(self.connections.available_permits());
        let mut engine = self.engine.load();
        engine.workers = self.limits.engine_workers;
        engine.queued = usize::try_from(self.store.jobs_waiting().await?).unwrap_or(usize::MAX);
        Ok(Health {
            node: self.node.clone(),
            store: self.store.kind(),
            games_loaded: self.rooms().len(),
            connections: Connections {
                open,
                limit: self.limits.connections,
            },
            engine,
            reviews: self.reviews.load(),
            analyses: self.analyses.load(),
            positions_analysed: self.analysed.load(Ordering::Relaxed),
        })
    }

    /// A place for one more game socket of `client`.
    ///
    /// # Errors
    /// [`Refusal::TooManySockets`] when it holds as many as it may.
    pub fn open_socket(&self, client: IpAddr) -> Result<Place, WebError> {
        self.sockets
            .take(client)
            .ok_or(WebError::Forbidden(Refusal::TooManySockets(
                self.limits.sockets_per_client,
            )))
    }

    pub(crate) fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The live game `id`, loaded from the database if needed (its engine
    /// and clock then start again where they were).
    ///
    /// # Errors
    /// [`WebError::NoGame`] for an unknown id; [`WebError`] when the stored
    /// game cannot be replayed.
    pub async fn slot(self: &Arc<Hub>, id: &str) -> Result<Arc<Slot>, WebError> {
        if let Some(s) = self.rooms().get(id) {
            s.touch();
            return Ok(Arc::clone(s));
        }
        let row = self
            .store
            .game(id)
            .await?
            .ok_or_else(|| WebError::NoGame(id.to_string()))?;
        let actions = self.store.actions(id, 0).await?;
        let room = Room::replay(
            Settings::from_row(&row)?,
            &actions,
            Arc::clone(&self.pauses),
        )?;
        if room.engine_waiting() {
            // A game stored before engine moves were jobs, or whose job a
            // failure lost: its engine's turn gets one. (A worker that
            // takes it before the game is held loads it too, and both keep
            // the one copy `hold` gives.)
            self.store.ensure_job(id, room.seq()).await?;
            self.job_made.notify_one();
        }
        let read_at = room.seq();
        let (lines, last_line) = self.store.chat(id, chat::RECENT).await?;
        let players = self.store.players(id).await?;
        let loaded = Arc::new(Slot::new(
            room,
            ChatLog::from_stored(lines, last_line),
            Presence::from_stored(&players),
        ));
        let slot = self.hold(id, &loaded);
        if Arc::ptr_eq(&slot, &loaded) {
            let hub = Arc::clone(self);
            let slot = Arc::clone(&slot);
            tokio::spawn(async move {
                hub.catch_up_loaded(&slot).await;
                // The other servers say who is connected through them.
                let here = Here {
                    ask: true,
                    ..Here::default()
                };
                let asked = [(slot.id.as_str(), here)];
                let lease = hub.limits.presence_lease();
                if let Err(e) = hub.store.announce_presence(&hub.node, lease, &asked).await {
                    tracing::warn!("asking who is at {}: {e}", slot.id);
                }
                let room = slot.room.lock().await;
                // A change since the read started what it calls for.
                if room.seq() == read_at {
                    hub.follow_up(&slot, &room);
                }
            });
        }
        Ok(slot)
    }

    /// The copy of game `id` this server serves: `fresh`, now held in
    /// [`Hub::rooms`], unless a copy is held already. One copy per live
    /// game: a copy put over another would leave the one that workers and
    /// requests hold changing unseen.
    fn hold(&self, id: &str, fresh: &Arc<Slot>) -> Arc<Slot> {
        let mut rooms = self.rooms();
        let slot = Arc::clone(
            rooms
                .entry(id.to_string())
                .or_insert_with(|| Arc::clone(fresh)),
        );
        if rooms.len() > self.limits.games_loaded {
            let gone = unload_oldest(&mut rooms, self.limits.games_loaded);
            tracing::debug!("{gone} games unloaded early: {} held", rooms.len());
        }
        slot
    }

    /// Unloads the games nobody holds (no watcher, no engine move or clock
    /// waiting, no request under way) and nobody has touched for
    /// [`Limits::unload_after`]. Everything they hold is stored; they are
    /// replayed when next opened. Returns how many left memory.
    pub fn unload_idle(&self) -> usize {
        let horizon = i64::try_from(self.limits.unload_after.as_millis()).unwrap_or(i64::MAX);
        let now = now_ms();
        let mut rooms = self.rooms();
        let before = rooms.len();
        rooms.retain(|_, slot| {
            !nobody_holds(slot)
                || now.saturating_sub(slot.touched.load(Ordering::Relaxed)) < horizon
        });
        before - rooms.len()
    }

    /// Says every [`HEARTBEAT`] that this server is alive, for ever (a
    /// failed beat is logged and the next one tried). The first beat is the
    /// start's own ([`Hub::open`]), so the loop begins a period later.
    pub async fn heartbeat_loop(self: Arc<Hub>) {
        let first = tokio::time::Instant::now() + HEARTBEAT;
        let mut ticks = tokio::time::interval_at(first, HEARTBEAT);
        loop {
            ticks.tick().await;
            if let Err(e) = self.store.heartbeat(&self.node, now_ms()).await {
                tracing::warn!("heartbeat not stored: {e}");
            }
        }
    }

    /// Unloads idle games for ever, checking a few times per
    /// [`Limits::unload_after`].
    pub async fn unload_loop(self: Arc<Hub>) {
        let every = (self.limits.unload_after / 4).max(Duration::from_millis(10));
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            let gone = self.unload_idle();
            if gone > 0 {
                tracing::debug!("{gone} idle games unloaded");
            }
        }
    }

    /// Creates a game from the new-game form.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for settings the rules refuse, a learning step
    /// not yet open, or a bad time control.
    pub async fn create(
        self: &Arc<Hub>,
        form: NewGame,
        client: Option<IpAddr>,
    ) -> Result<Created, WebError> {
        self.take_creation(client)?;
        // A game on one screen has no seat to offer nor anyone to allow
        // watching it apart from its players.
        let listed = form.lobby
            && matches!(
                form.opponent,
                crate::settings::OpponentChoice::Friend { .. }
                    | crate::settings::OpponentChoice::Engine { .. }
            );
        let form = match form.lesson {
            Some(step) => self.lesson_form(step, form.learner).await?,
            None => form,
        };
        let token = random_hex(2)?;
        let seating = form.opponent.seating(token.clone(), random_hex(2)?);
        let settings = Settings::from_form(form, random_hex(1)?, seating.tokens, now_ms())?;
        let creator = client.map(|ip| crate::client::holder(ip).to_string());
        if let Some(who) = &creator {
            self.check_open_games(who, settings.engine().is_some(), listed)
                .await?;
        }
        let row = settings.to_row()?;
        let room = Room::create(settings)?;
        self.store.insert_game(&row, creator.as_deref()).await?;
        // The seat listed is the creator's opponent's: free in a game
        // with a friend, the engine's own in a game against it.
        if listed && let Seat::Player(c) = seating.creator {
            self.store
                .list(&row.id, now_ms(), c.opponent().name())
                .await?;
        }
        let engine_turn = room.engine_waiting().then(|| room.seq());
        let created = Arc::new(Slot::new(room, ChatLog::default(), Presence::default()));
        let creator = seating.creator;
        // Held before its engine's move is queued: the worker that takes
        // the move finds this copy and moves on it, in view of the players.
        let slot = self.hold(&row.id, &created);
        if Arc::ptr_eq(&slot, &created) {
            let room = slot.room.lock().await;
            self.follow_up(&slot, &room);
        }
        if let Some(seq) = engine_turn {
            self.store.ensure_job(&row.id, seq).await?;
            self.job_made.notify_one();
        }
        Ok(Created {
            id: row.id,
            token,
            seat: creator.name(),
            invite: seating.invite,
        })
    }

    /// Refuses a new game to a client who already has as many open games
    /// as it may create ([`Limits::games_per_client`]), of those against
    /// the engine ([`Limits::engine_games_per_client`]) when `engine`, or
    /// of those listed in the lobby ([`Limits::listed_per_client`]) when
    /// `listed`. Counted by the database: on PostgreSQL, over every server.
    async fn check_open_games(
        &self,
        creator: &str,
        engine: bool,
        listed: bool,
    ) -> Result<(), WebError> {
        let limits = &self.limits;
        let since =
            now_ms().saturating_sub(i64::try_from(limits.open_for.as_millis()).unwrap_or(i64::MAX));
        let open = self.store.open_games(creator, since).await?;
        let full = |cap: usize, n: u64| cap > 0 && n >= cap as u64;
        if full(limits.games_per_client, open.games) {
            return Err(WebError::Forbidden(Refusal::TooManyGames(
                limits.games_per_client,
            )));
        }
        if engine && full(limits.engine_games_per_client, open.engine) {
            return Err(WebError::Forbidden(Refusal::TooManyEngineGames(
                limits.engine_games_per_client,
            )));
        }
        if listed && full(limits.listed_per_client, open.listed) {
            return Err(WebError::Forbidden(Refusal::TooManyListed(
                limits.listed_per_client,
            )));
        }
        Ok(())
    }

    /// The form of learning step `step` for `learner`.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for an unknown step, a missing learner or a
    /// step not yet open to him.
    async fn lesson_form(&self, step: u32, learner: Option<String>) -> Result<NewGame, WebError> {
        let lesson = lessons::lesson(step)
            .ok_or_else(|| WebError::invalid("lesson", format!("no learning step {step}")))?;
        let learner = learner
            .filter(|s| !s.is_empty() && s.len() <= 64)
            .ok_or_else(|| WebError::invalid("learner", "a learning step needs a learner"))?;
        let open = self.store.unlocked(&learner).await?;
        if step > open {
            return Err(WebError::invalid(
                "lesson",
                format!("step {step} opens when step {} is won", step - 1),
            ));
        }
        Ok(lesson.form(learner))
    }

    /// Carries out a player's request. When another server stored an
    /// action of this game first, the request is read again against the
    /// game as it now is (and refused if it no longer fits it).
    ///
    /// # Errors
    /// [`WebError`] naming why it was refused (a rule, the turn, the seat).
    pub async fn request(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        seat: Seat,
        request: &Request,
    ) -> Result<(), WebError> {
        /// Readings of one request: the game changes under it once in a
        /// while, never for ever.
        const TRIES: usize = 4;
        for _ in 1..TRIES {
            match self.request_once(slot, seat, request).await {
                Err(WebError::Store(StoreError::Conflict)) => continue,
                done => return done,
            }
        }
        self.request_once(slot, seat, request).await
    }

    async fn request_once(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        seat: Seat,
        request: &Request,
    ) -> Result<(), WebError> {
        let mut room = slot.room.lock().await;
        let now = now_ms();
        if let Some(c) = room.flag_fallen(now) {
            self.commit(slot, &mut room, &[Action::Timeout { color: c }], now)
                .await?;
            self.publish(slot, &room);
            return Err(WebError::Illegal(tengen_core::IllegalMove::GameOver));
        }
        let actions = room.resolve(seat, request)?;
        self.commit(slot, &mut room, &actions, now).await?;
        self.publish(slot, &room);
        self.follow_up(slot, &room);
        Ok(())
    }

    /// Applies actions in order and stores those applied, in one
    /// transaction, before returning. A storage failure rebuilds the room
    /// from the database, so the room never holds what is not stored (and
    /// shows its watchers what another server stored first); the room lock
    /// is held throughout, so no one sees an action before it is stored. A
    /// position changed stops the engine's search of the old one.
    pub(crate) async fn commit(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        room: &mut Room,
        actions: &[Action],
        at: i64,
    ) -> Result<(), WebError> {
        let mut appends = Vec::with_capacity(actions.len());
        let mut refused = None;
        for action in actions {
            if let Err(e) = room.apply(action, at) {
                // Those applied before it are stored, as if played alone.
                refused = Some(e);
                break;
            }
            appends.push(Append {
                game_id: room.settings().id.clone(),
                seq: room.seq() + appends.len() as u64 + 1,
                kind: action.kind(),
                payload: action.payload()?,
                at,
                state: room.state(),
                result: room.game().outcome().map(|o| o.to_sgf()),
                job: room.job_change(),
                unlock: room
                    .lesson_won()
                    .map(|(learner, step)| (learner.to_string(), step + 1)),
            });
        }
        let Some(last) = appends.last().map(|a| a.seq) else {
            return refused.map_or(Ok(()), Err);
        };
        let opened = room.engine_waiting();
        if let Err(e) = self.store.append(appends).await {
            self.reload(slot, room).await?;
            return Err(e.into());
        }
        room.stored(last);
        slot.position_changed();
        if opened {
            self.job_made.notify_one();
        }
        refused.map_or(Ok(()), Err)
    }

    /// Rebuilds a room from the database after a failed store: what this
    /// server applied is dropped, what another stored is taken in, and the
    /// watchers see it.
    pub(crate) async fn reload(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        room: &mut Room,
    ) -> Result<(), WebError> {
        let settings = room.settings().clone();
        let actions = self.store.actions(&settings.id, 0).await?;
        let before = room.seq();
        *room = Room::replay(settings, &actions, Arc::clone(&self.pauses))?;
        if room.seq() != before {
            slot.position_changed();
            self.publish(slot, room);
            self.follow_up(slot, room);
        }
        Ok(())
    }

    pub(crate) fn publish(self: &Arc<Hub>, slot: &Arc<Slot>, room: &Room) {
        let text = protocol::Outgoing::View(&room.view(now_ms())).text();
        slot.watchers.send_snapshot(Snapshot::View, text);
        if !room.game().turns().is_empty() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let seq = room.seq();
            tokio::spawn(async move { hub.publish_names(slot, seq).await });
        }
    }

    /// Sends the names of the last move of position `seq`, unless the game
    /// has moved on by the time the lexicon is free.
    async fn publish_names(self: Arc<Hub>, slot: Arc<Slot>, seq: u64) {
        let Ok(_permit) = self.naming.acquire().await else {
            return;
        };
        let game = {
            let room = slot.room.lock().await;
            if room.seq() != seq {
                return;
            }
            room.game().clone()
        };
        let Ok(names) = tokio::task::spawn_blocking(move || names::last_move(&game)).await else {
            return;
        };
        slot.watchers
            .send(protocol::Outgoing::Names { seq, names: &names }.text());
    }

    /// The names of the game's last move, as a `names` message.
    pub async fn names_message(&self, slot: &Slot) -> String {
        let (game, seq) = {
            let room = slot.room.lock().await;
            (room.game().clone(), room.seq())
        };
        let names = tokio::task::spawn_blocking(move || names::last_move(&game))
            .await
            .unwrap_or_default();
        protocol::Outgoing::Names { seq, names: &names }.text()
    }

    /// Starts what the new state calls for: the watch on the running
    /// clock. (The engine's turn is a job in the database, made with the
    /// action that gave it the turn.)
    pub(crate) fn follow_up(self: &Arc<Hub>, slot: &Arc<Slot>, room: &Room) {
        if let Some(deadline) = room.flag_deadline() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let seq = room.seq();
            tokio::spawn(async move {
                let wait = u64::try_from(deadline - now_ms()).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let mut room = slot.room.lock().await;
                let now = now_ms();
                if room.seq() == seq
                    && let Some(c) = room.flag_fallen(now)
                {
                    match hub
                        .commit(&slot, &mut room, &[Action::Timeout { color: c }], now)
                        .await
                    {
                        Ok(()) => hub.publish(&slot, &room),
                        // Another server's clock fell first: already shown.
                        Err(WebError::Store(StoreError::Conflict)) => {}
                        Err(e) => tracing::error!("timeout in {}: {e}", room.settings().id),
                    }
                }
            });
        }
    }

    /// The seat a connection holds in the game: the one its token gives,
    /// else the one its member holds. A seat proven by a token on a
    /// member's connection is kept under the member (the first time), so
    /// that the game follows them to any device: every seat, created,
    /// taken in the lobby or by an invitation, is proven here.
    pub async fn seat_of(
        &self,
        slot: &Slot,
        token: Option<&str>,
        member: Option<&MemberRow>,
    ) -> Seat {
        let seat = self.seat_of_token(slot, token).await;
        let Some(m) = member else {
            return seat;
        };
        let kept = match self.store.member_seat(&m.key, &slot.id).await {
            Ok(Some(name)) if seat == Seat::Spectator => return Seat::named(&name),
            Ok(None) if seat != Seat::Spectator => {
                self.store
                    .keep_seat(&m.key, &slot.id, seat.name(), now_ms())
                    .await
            }
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = kept {
            tracing::error!("member's seat in {}: {e}", slot.id);
        }
        seat
    }

    /// The seat `token` gives in the game: by the room's token digests,
    /// or, when those give it none, by the store's (a seat taken from the
    /// lobby through another server has a token this one has not seen).
    async fn seat_of_token(&self, slot: &Slot, token: Option<&str>) -> Seat {
        let seat = slot.room.lock().await.seat(token);
        if !matches!(seat, Seat::Spectator) || token.is_none_or(str::is_empty) {
            return seat;
        }
        match self.store.tokens(&slot.id).await {
            Ok(Some((black, white))) => {
                let mut room = slot.room.lock().await;
                room.set_token(tengen_core::Color::Black, black);
                room.set_token(tengen_core::Color::White, white);
                room.seat(token)
            }
            Ok(None) => seat,
            Err(e) => {
                tracing::error!("tokens of {}: {e}", slot.id);
                seat
            }
        }
    }

    /// A connection of `seat` arrives, named `name`: a seat taken for the
    /// first time or renamed is stored, then everyone hears who is there.
    ///
    /// # Errors
    /// [`WebError::Store`] when the seat cannot be stored.
    pub async fn arrive(
        &self,
        slot: &Slot,
        seat: Seat,
        name: Option<String>,
    ) -> Result<(), WebError> {
        let mut presence = slot.presence.lock().await;
        let rows = presence.arrive(&slot.id, seat, name, now_ms());
        self.store_seats(slot, &presence, rows).await
    }

    /// `seat` is now named `name`.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for a name too long; [`WebError::Store`].
    pub async fn rename(&self, slot: &Slot, seat: Seat, name: &str) -> Result<(), WebError> {
        let name = crate::presence::clean_name(name)?;
        let mut presence = slot.presence.lock().await;
        let rows = presence.rename(&slot.id, seat, name, now_ms());
        self.store_seats(slot, &presence, rows).await
    }

    /// A connection of `seat` has left.
    pub async fn leave(&self, slot: &Slot, seat: Seat) {
        let mut presence = slot.presence.lock().await;
        presence.leave(seat);
        self.tell_presence(slot, &presence).await;
    }

    /// Stores seat rows, then tells everyone who is there (the lock on
    /// the presence is held throughout, so that the messages keep order).
    async fn store_seats(
        &self,
        slot: &Slot,
        presence: &Presence,
        rows: Vec<crate::store::PlayerRow>,
    ) -> Result<(), WebError> {
        for row in rows {
            self.store.seat(row).await?;
        }
        self.tell_presence(slot, presence).await;
        Ok(())
    }

    /// Tells this server's watchers who is at the game, and the other
    /// servers who is connected through this one.
    pub(crate) async fn tell_presence(&self, slot: &Slot, presence: &Presence) {
        send_presence(slot, presence);
        if let Err(e) = self
            .store
            .announce_presence(
                &self.node,
                self.limits.presence_lease(),
                &[(slot.id.as_str(), presence.here())],
            )
            .await
        {
            tracing::warn!("telling who is at {}: {e}", slot.id);
        }
    }

    /// A line of chat from `seat`: checked, stored, then sent to everyone
    /// at the game (in the order stored).
    ///
    /// # Errors
    /// [`WebError::Chat`] for a spectator, an empty or long line, or a
    /// seat writing too fast; [`WebError::Store`].
    pub async fn say(&self, slot: &Slot, seat: Seat, text: &str) -> Result<(), WebError> {
        let name = slot.presence.lock().await.name_of(seat);
        let mut chat = slot.chat.lock().await;
        let mut line = chat.draft(&slot.id, seat, name, text, now_ms())?;
        // Another server may have stored a line at this position first:
        // its lines are read and shown, and this one takes the next place.
        let mut tries = 0;
        loop {
            match self.store.say(line.clone()).await {
                Err(StoreError::Conflict) if tries < CHAT_TRIES => {
                    tries += 1;
                    self.read_chat(slot, &mut chat).await?;
                    line.seq = chat.last_seq() + 1;
                }
                other => break other?,
            }
        }
        let message = protocol::chat([&line]);
        chat.stored(line);
        slot.watchers.send(message);
        slot.touch();
        Ok(())
    }

    /// Reads the chat lines past those `chat` has (stored by other
    /// servers) and shows them, in order.
    ///
    /// # Errors
    /// A storage error when the database cannot be read.
    pub(crate) async fn read_chat(&self, slot: &Slot, chat: &mut ChatLog) -> Result<(), WebError> {
        let (lines, _) = self.store.chat(&slot.id, chat::RECENT).await?;
        let new: Vec<_> = lines
            .into_iter()
            .filter(|l| l.seq > chat.last_seq())
            .collect();
        if !new.is_empty() {
            slot.watchers.send(protocol::chat(&new));
            for l in new {
                chat.stored(l);
            }
        }
        Ok(())
    }

    /// The recent chat lines, as one `chat` message.
    pub async fn chat_message(&self, slot: &Slot) -> String {
        protocol::chat(slot.chat.lock().await.recent())
    }

    /// Who is at the game, as a `presence` message, and its stamp.
    pub async fn presence_message(&self, slot: &Slot) -> (String, u64) {
        let presence = slot.presence.lock().await;
        let text = protocol::Outgoing::Presence(&presence.view()).text();
        (text, slot.watchers.stamp())
    }

    /// The score estimate of the game's position (the engine's dead-stone
    /// estimate, counted by the game's rules), as JSON: computed on the
    /// review pool once per position and kept until the next change.
    ///
    /// # Errors
    /// [`WebError::Io`] if the estimate could not run.
    pub async fn estimate(&self, slot: &Slot, client: Client) -> Result<Arc<str>, WebError> {
        let (game, seq) = {
            let room = slot.room.lock().await;
            (room.game().clone(), room.seq())
        };
        let cached = slot
            .estimate
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some((_, text)) = cached.filter(|(at, _)| *at == seq) {
            return Ok(text);
        }
        let seed = self.seed.fetch_add(1, Ordering::Relaxed);
        let text: Arc<str> = self
            .reviews
            .run(
                client,
                || true,
                move || serde_json::to_string(&crate::estimate::estimate(&game, seq, seed)),
            )
            .await
            .ok_or_else(|| WebError::Io(std::io::Error::other("the estimate stopped")))??
            .into();
        *slot.estimate.lock().unwrap_or_else(|e| e.into_inner()) = Some((seq, Arc::clone(&text)));
        Ok(text)
    }

    /// One creation (a game, a class) of `client`'s allowance per minute.
    pub(crate) fn take_creation(&self, client: Option<IpAddr>) -> Result<(), WebError> {
        if let Some(ip) = client {
            self.creations
                .take(ip, std::time::Instant::now())
                .map_err(|wait| {
                    // Rounded up: "try again in 0 s" would be refused again.
                    WebError::Forbidden(Refusal::GamesTooFast(wait.as_secs() + 1))
                })?;
        }
        Ok(())
    }

    /// Opens a teacher's class: its code and the teacher's token (the store
    /// keeps its digest). Counts against the client's creations.
    ///
    /// # Errors
    /// [`Refusal::GamesTooFast`] past the allowance; a storage error.
    pub async fn open_class(&self, client: Option<IpAddr>) -> Result<(String, String), WebError> {
        self.take_creation(client)?;
        let token = random_hex(2)?;
        let digest = crate::token::digest(&token);
        // A code already taken (one in 900 million) is drawn again.
        for _ in 0..8 {
            let code = crate::class::new_code()?;
            if self.store.open_class(&code, &digest, now_ms()).await? {
                return Ok((code, token));
            }
        }
        Err(WebError::Io(std::io::Error::other("no free class code")))
    }

    /// Takes the free seat of a game listed in the lobby: its token, if
    /// nobody took it before.
    ///
    /// # Errors
    /// [`WebError::NoGame`] for a game not listed; [`WebError::Forbidden`]
    /// ([`Refusal::SeatTaken`]) once the seat is taken or the game over.
    pub async fn take_seat(self: &Arc<Hub>, id: &str) -> Result<Created, WebError> {
        let seat = self
            .store
            .listed_seat(id)
            .await?
            .ok_or_else(|| WebError::NoGame(id.to_string()))?;
        let color = match seat.as_str() {
            "black" => tengen_core::Color::Black,
            _ => tengen_core::Color::White,
        };
        let slot = self.slot(id).await?;
        let (over, engine) = {
            let room = slot.room.lock().await;
            (room.game().outcome().is_some(), room.settings().engine())
        };
        // A game against the engine is listed to be watched: its seat is
        // the engine's.
        if engine.is_some() {
            return Err(WebError::Forbidden(Refusal::SeatTaken));
        }
        let mut presence = slot.presence.lock().await;
        if over || presence.view_of(color).joined {
            return Err(WebError::Forbidden(Refusal::SeatTaken));
        }
        // The seat's token is minted for its taker: the store keeps only
        // digests, so the one made with the game was never known.
        let token = random_hex(2)?;
        let digest = crate::token::digest(&token);
        // The database decides between takers of every server: the seat's
        // row and its token are stored once.
        let mut rows = presence.rename(id, Seat::Player(color), None, now_ms());
        let claimed = match rows.pop() {
            Some(row) => self.store.claim_seat(&row, &digest).await?,
            None => false,
        };
        self.tell_presence(&slot, &presence).await;
        drop(presence);
        if !claimed {
            return Err(WebError::Forbidden(Refusal::SeatTaken));
        }
        slot.room.lock().await.set_token(color, digest);
        Ok(Created {
            id: id.to_string(),
            token,
            seat: color.name(),
            invite: None,
        })
    }
}

/// The engine's analysis of records under review, in the background: one
/// job per record, one pool job per position, each stored as it ends.
impl Hub {
    /// The analysis of the record `sgf` as far as it has gone (positions
    /// from `since`), starting it when `start` is set and it is neither
    /// complete nor under way.
    ///
    /// # Errors
    /// What [`review::main_line`] refuses; a main line too long
    /// ([`analysis::check_length`]); [`Refusal::AnalysesBusy`] when as many
    /// records as [`Limits::analyses_at_once`] are being analysed.
    pub async fn analysis(
        self: &Arc<Hub>,
        sgf: Vec<u8>,
        since: usize,
        start: bool,
        client: Client,
    ) -> Result<Progress, WebError> {
        let read = self
            .reviews
            .run(
                client,
                || true,
                move || -> Result<_, WebError> {
                    let line = review::main_line(&String::from_utf8_lossy(&sgf))?;
                    analysis::check_length(&line)?;
                    Ok(line)
                },
            )
            .await
            .ok_or_else(|| WebError::Io(std::io::Error::other("the review stopped")))?;
        let line = read?;
        // Whether an analysis runs, asked before its results are read: a
        // run stores its last position before it lets go of the record,
        // so one seen stopped here has stored everything it will. Asked
        // after, a run that ends in between looks stopped with its last
        // position missing, and the record would be analysed again.
        let mut running = self.analysing().contains(&line.key);
        let stored = self
            .store
            .analysis(&line.key)
            .await?
            .iter()
            .map(|data| serde_json::from_str::<analysis::PositionAnalysis>(data))
            .collect::<Result<Vec<_>, _>>()?;
        let complete = stored.len() >= line.positions;
        if start && !complete && !running {
            // Held by the analysis while it runs: one client cannot take
            // every place.
            let place = match client {
                Some(ip) => Some(self.analysers.take(ip).ok_or(WebError::Forbidden(
                    Refusal::TooManyAnalyses(self.limits.analyses_per_client),
                ))?),
                None => None,
            };
            {
                let mut analysing = self.analysing();
                if analysing.len() >= self.limits.analyses_at_once {
                    return Err(WebError::Forbidden(Refusal::AnalysesBusy(
                        self.limits.analyses_at_once,
                    )));
                }
                running = analysing.insert(line.key.clone());
            }
            if running {
                let done: HashSet<usize> = stored.iter().map(|p| p.number).collect();
                let hub = Arc::clone(self);
                let line = line.clone();
                tokio::spawn(async move {
                    hub.analyse(line, done, client).await;
                    drop(place);
                });
            }
        }
        Ok(Progress {
            total: line.positions,
            done: stored.len(),
            running,
            playouts: self.limits.analysis_playouts,
            mistakes: analysis::mistakes(&line, &stored),
            positions: stored.into_iter().filter(|p| p.number >= since).collect(),
        })
    }

    fn analysing(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.analysing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches the positions of `line` not in `done`, one pool job each
    /// in `client`'s turn, storing each as it ends; then lets the record be
    /// analysed again.
    async fn analyse(self: Arc<Hub>, line: MainLine, done: HashSet<usize>, client: Client) {
        let key = line.key.clone();
        let seed = self.seed.fetch_add(1, Ordering::Relaxed);
        // Handed from one position's job to the next, with its tree.
        let mut search = analysis::review_search(self.limits.analysis_threads, seed);
        for (n, game) in line.games().filter(|(n, _)| !done.contains(n)) {
            let hub = Arc::clone(&self);
            let (total, playouts) = (line.positions, self.limits.analysis_playouts);
            let analyst = self.analyst.clone();
            let mut own = search;
            let Some((searched, own)) = self
                .analyses
                .run(
                    client,
                    || true,
                    move || {
                        let position = match analyst {
                            Some(a) => a.analyse(n, &game, playouts),
                            None => Ok(analysis::analyse(&mut own, n, &game, playouts)),
                        };
                        hub.analysed.fetch_add(1, Ordering::Relaxed);
                        (position, own)
                    },
                )
                .await
            else {
                break;
            };
            search = own;
            let stored = match searched {
                Ok(position) => match serde_json::to_string(&position) {
                    Ok(data) => self
                        .store
                        .store_analysis(&key, total, playouts, position.number, &data)
                        .await
                        .map_err(WebError::from),
                    Err(e) => Err(e.into()),
                },
                Err(why) => {
                    tracing::error!("analysis of position {n}: {why}");
                    break;
                }
            };
            if let Err(e) = stored {
                tracing::error!("analysis of position {n}: {e}");
                break;
            }
        }
        self.analysing().remove(&line.key);
    }
}
