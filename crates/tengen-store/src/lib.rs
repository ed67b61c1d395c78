//! The web board's storage: one row per game, one row per action, and
//! the engine moves waiting for a worker. An action is stored (in a
//! transaction with the game's new state) before the server acknowledges
//! or broadcasts it, and games are rebuilt by replaying their actions, so a
//! server killed at any moment loses nothing it answered.
//!
//! Rows are plain text and numbers: what a game's opponent, clock or
//! analysis mean is the server's business, not the store's. Left out: the
//! game's rules (tengen-core) and anything of HTTP.
//!
//! Two stores keep one schema ([`migrations`]) and these guarantees: SQLite,
//! a file for one server, and PostgreSQL, one database for several. In
//! both a game's log position is a unique key, so two servers can never
//! both store move 57: the second is told [`StoreError::Conflict`] and reads
//! what the first stored. PostgreSQL is the feature `postgres`, on by
//! default: without it the store is SQLite alone, and a PostgreSQL
//! [`Database`] is refused ([`StoreError::NoPostgres`]).

#![warn(missing_docs)]

/// The engine job to take next, as a query giving its game's id (the
/// time now written as `$now`, each store's own way): among the jobs
/// nobody holds, one of the client whose engine move was taken least
/// recently, so that workers take turns between clients and one client's
/// many games never keep another's first move waiting behind them.
macro_rules! next_job {
    ($now:expr) => {
        concat!(
            "SELECT j.game_id FROM engine_jobs j JOIN games g ON g.id = j.game_id
             LEFT JOIN engine_served s ON s.client = g.creator
             WHERE j.lease_until < ",
            $now,
            " ORDER BY coalesce(s.served, 0), j.lease_until, j.created LIMIT 1"
        )
    };
}

/// A client's open games ([`Store::open_games`]) as one row of three
/// counts: all, those against the engine, those listed in the lobby; the
/// client and the time given as `$creator` and `$since`.
macro_rules! open_games {
    ($creator:expr, $since:expr) => {
        concat!(
            "SELECT count(*),
                coalesce(sum(CASE WHEN g.opponent LIKE '{\"kind\":\"engine\"%' THEN 1 ELSE 0 END), 0),
                count(l.game_id)
             FROM games g LEFT JOIN lobby l ON l.game_id = g.id
             WHERE g.creator = ",
            $creator,
            " AND g.state <> 'over' AND (g.created > ",
            $since,
            " OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.at > ",
            $since,
            "))"
        )
    };
}

/// A call on the SQLite store `s`, run on the blocking pool ([`blocking`])
/// with the named arguments made owned first, so that it may outlive
/// their borrow: `on_sqlite!(s, [id] => s.game(&id))`.
macro_rules! on_sqlite {
    ($s:ident, [$($owned:ident),*] => $call:expr) => {{
        $(let $owned = $owned.to_owned();)*
        blocking($s, move |$s| $call).await
    }};
}

mod analyses;
mod checkpoint;
pub mod classes;
pub mod environment;
pub mod error;
mod file_watch;
pub mod members;
pub mod migrations;
pub mod now;
#[cfg(feature = "postgres")]
mod postgres;
pub mod priority;
mod readers;
pub mod seat_token;
mod sqlite;
mod statement;

pub use classes::PupilRow;
pub use environment::Environment;
pub use error::StoreError;
pub use members::MemberRow;
pub use now::now_ms;
use serde::{Deserialize, Serialize};
use statement::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[cfg(feature = "postgres")]
pub use postgres::Postgres;
pub use sqlite::Sqlite;

/// Where the database is: a SQLite file, or a PostgreSQL URL (with the
/// feature `postgres`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, made if missing.
    Sqlite(PathBuf),
    /// A libpq connection string (`postgres://USER@HOST/DB` or
    /// `host=... dbname=...`).
    #[cfg(feature = "postgres")]
    Postgres(String),
}

impl Database {
    /// A `--db` value: a `postgres://` or `postgresql://` URL, or a
    /// `key=value` connection string naming a `dbname` or `host`, is
    /// PostgreSQL; anything else is a SQLite path.
    ///
    /// # Errors
    /// [`StoreError::NoPostgres`] for a PostgreSQL one in a build without
    /// the feature `postgres`: refused, rather than taken for the name of
    /// a SQLite file.
    pub fn parse(text: &str) -> Result<Database, StoreError> {
        let t = text.trim();
        let keywords = t.contains('=')
            && t.split_whitespace()
                .all(|kv| kv.split_once('=').is_some_and(|(k, _)| is_keyword(k)))
            && (t.contains("dbname=") || t.contains("host="));
        if t.starts_with("postgres://") || t.starts_with("postgresql://") || keywords {
            Database::postgres(t)
        } else {
            Ok(Database::Sqlite(PathBuf::from(text)))
        }
    }

    /// PostgreSQL database `url`.
    #[cfg(feature = "postgres")]
    fn postgres(url: &str) -> Result<Database, StoreError> {
        Ok(Database::Postgres(url.to_string()))
    }

    /// PostgreSQL database `url`, which this build cannot open.
    #[cfg(not(feature = "postgres"))]
    fn postgres(_url: &str) -> Result<Database, StoreError> {
        Err(StoreError::NoPostgres)
    }

    /// The database for people to read: the path, or the URL without its
    /// password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            #[cfg(feature = "postgres")]
            Database::Postgres(url) => postgres::without_password(url),
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

/// One line of a game's chat, as stored and as sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// The game.
    #[serde(skip)]
    pub game_id: String,
    /// Position in the game's chat, from 1.
    pub seq: u64,
    /// Who wrote: `black`, `white` or `both`.
    pub seat: String,
    /// The writer's name then, if he gave one.
    pub name: Option<String>,
    /// What he wrote (raw: the page escapes it).
    pub text: String,
    /// When, ms since the epoch.
    pub at: i64,
}

/// The connections to a game through one server, as it tells the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Here {
    /// Connections of Black's and White's seats.
    pub players: [u32; 2],
    /// Connections without a seat.
    pub spectators: u32,
    /// Whether the server asks the others to say theirs (it has just
    /// loaded the game).
    #[serde(default)]
    pub ask: bool,
}

/// A game's settings as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Public id (in the game's address).
    pub id: String,
    /// Preset name.
    pub rules: String,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Komi chosen, exact text (`None`: the rules' komi or compensation).
    pub komi: Option<String>,
    /// Handicap stones.
    pub handicap: u32,
    /// `fixed`, or the vertices of a free placement.
    pub handicap_stones: String,
    /// The opponent, as JSON.
    pub opponent: String,
    /// Black's seat token.
    pub black_token: String,
    /// White's seat token.
    pub white_token: String,
    /// The time control, as JSON.
    pub clock: Option<String>,
    /// Learning-path step (1-4), if the game is one.
    pub lesson: Option<u32>,
    /// The learner who plays the step.
    pub learner: Option<String>,
    /// Creation time, ms since the epoch.
    pub created: i64,
    /// `playing`, `marking` or `over`.
    pub state: String,
    /// The SGF `RE` value once over.
    pub result: Option<String>,
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// Position in the game's log, from 1.
    pub seq: u64,
    /// The action, as JSON.
    pub payload: String,
    /// When it was received, ms since the epoch.
    pub at: i64,
}

/// What an action does to the game's engine job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobChange {
    /// Not an engine game: no job to keep.
    Keep,
    /// The engine is to act after this action: the job now serves it.
    Open,
    /// The engine has nothing to do after it: any job is done.
    Close,
}

/// One action to store and what it changes besides the log. Owned, so
/// that it can wait in the writer's queue.
#[derive(Clone, Debug)]
pub struct Append {
    /// The game.
    pub game_id: String,
    /// Position in the log.
    pub seq: u64,
    /// Short kind (`play`, `pass`, `undo`, `dead`...), for people reading the
    /// database.
    pub kind: &'static str,
    /// The action as JSON.
    pub payload: String,
    /// When, ms since the epoch.
    pub at: i64,
    /// The game's state after it.
    pub state: &'static str,
    /// The result after it, if over.
    pub result: Option<String>,
    /// The engine's job after it.
    pub job: JobChange,
    /// The learning-path step it opens, and to whom (the winning action of
    /// a lesson): written in the same transaction as the action, so that a
    /// crash cannot keep the win and lose the unlock.
    pub unlock: Option<(String, u32)>,
}

/// A seat taken: who sits there (a name, if given) and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The game.
    pub game_id: String,
    /// `black` or `white`.
    pub color: String,
    /// The name the player gave (none: keeps the one stored).
    pub name: Option<String>,
    /// When the seat was first taken, ms since the epoch.
    pub joined: i64,
}

/// A game listed in the lobby, with its seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    /// The game's settings and state.
    pub game: GameRow,
    /// When it was listed, ms since the epoch.
    pub listed: i64,
    /// The colour of the seat offered to anyone.
    pub seat: String,
    /// Its seats taken so far.
    pub players: Vec<PlayerRow>,
}

/// What the writer stores: every kind of write goes through the one
/// writer of each store, in its group-committed transactions.
#[derive(Clone, Debug)]
enum Write {
    /// A game's actions.
    Actions(Vec<Append>),
    /// A chat line.
    Chat(ChatLine),
    /// A seat taken or renamed.
    Player(PlayerRow),
}

/// The writes of a batch sorted by kind, in the order they came.
#[derive(Default)]
struct Batch<'a> {
    appends: Vec<&'a Append>,
    lines: Vec<&'a ChatLine>,
    players: Vec<&'a PlayerRow>,
}

impl<'a> Batch<'a> {
    fn of(writes: impl IntoIterator<Item = &'a Write>) -> Batch<'a> {
        let mut b = Batch::default();
        for w in writes {
            match w {
                Write::Actions(a) => b.appends.extend(a),
                Write::Chat(l) => b.lines.push(l),
                Write::Player(p) => b.players.push(p),
            }
        }
        b
    }
}

/// An engine job a worker has taken: the game, and the log position its
/// move answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The game.
    pub game_id: String,
    /// The position the engine is to answer.
    pub seq: u64,
}

/// How long a client's last engine move is remembered for taking turns
/// ([`Store::take_job`]): one not served for this long is as one never
/// served, so its row can go.
const SERVED_KEPT_MS: i64 = 3_600_000;

/// The games one client created that are open: not over, and created or
/// played in since a given time (a game left alone no longer counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenGames {
    /// All of them.
    pub games: u64,
    /// Those against the engine.
    pub engine: u64,
    /// Those listed in the lobby.
    pub listed: u64,
}

/// What other servers on the same database did, as this one hears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A game's log reached `seq` (stored by server `node`).
    Moved {
        /// The game.
        game_id: String,
        /// Its last position now.
        seq: u64,
        /// The server that stored it.
        node: String,
        /// The actions stored, in order, up to `seq`, when they fit in the
        /// announcement (empty: read them from the database).
        actions: Vec<StoredAction>,
    },
    /// A chat line stored by server `node`.
    Chat {
        /// The server that stored it.
        node: String,
        /// The line.
        line: ChatLine,
    },
    /// Who is connected to a game through server `node` (not stored: each
    /// server says it when it changes).
    Presence {
        /// The server.
        node: String,
        /// The game.
        game_id: String,
        /// Its connections there.
        here: Here,
        /// How long that holds unless said again (`None`: not said, by a
        /// server of an earlier version).
        lease: Option<Duration>,
    },
    /// An engine job is waiting for a worker.
    JobWaiting,
    /// The link that hears events was lost and is back: events may have
    /// been missed.
    Reconnected,
}

/// Runs `f` on the SQLite store on the blocking pool: a query waits for
/// the disk, a write for the writer's group commit, and neither may hold
/// an async thread meanwhile.
async fn blocking<T, F>(s: &Arc<Sqlite>, f: F) -> Result<T, StoreError>
where
    T: Send + 'static,
    F: FnOnce(&Sqlite) -> Result<T, StoreError> + Send + 'static,
{
    let s = Arc::clone(s);
    tokio::task::spawn_blocking(move || f(&s).map_err(|e| s.explain(e)))
        .await
        .map_err(|e| StoreError::Io(std::io::Error::other(e)))?
}

/// The database behind the server: one of the two stores.
#[derive(Debug)]
pub enum Store {
    /// A SQLite file: one server. Its queries run on the blocking pool,
    /// never on an async thread.
    Sqlite(Arc<Sqlite>),
    /// A PostgreSQL database: any number of servers (boxed: its
    /// connection settings are large).
    #[cfg(feature = "postgres")]
    Postgres(Box<Postgres>),
}

impl Store {
    /// Opens `db`, creating or upgrading its schema, as server `node`
    /// (jobs a previous run of that node held are given back).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] or `StoreError::Postgres` when the database
    /// cannot be opened or upgraded; [`StoreError::ReadOnly`] when a SQLite
    /// file cannot be written.
    // The node and environment are PostgreSQL's: SQLite has one server.
    #[cfg_attr(not(feature = "postgres"), allow(unused_variables))]
    pub async fn open(
        db: &Database,
        node: &str,
        environment: &Environment,
    ) -> Result<Store, StoreError> {
        Ok(match db {
            Database::Sqlite(path) => Store::Sqlite(Arc::new(Sqlite::open(path)?)),
            #[cfg(feature = "postgres")]
            Database::Postgres(url) => {
                Store::Postgres(Box::new(Postgres::open(url, node, environment).await?))
            }
        })
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            #[cfg(feature = "postgres")]
            Store::Postgres(_) => "postgres",
        }
    }

    /// Whether other servers may store in this database (PostgreSQL): what
    /// this one read may then be behind what is stored.
    pub fn shared(&self) -> bool {
        !matches!(self, Store::Sqlite(_))
    }

    /// Stores a new game, created by `creator` (a client, as
    /// as the per-client limits key it).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn insert_game(&self, g: &GameRow, creator: Option<&str>) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                let creator = creator.map(str::to_string);
                on_sqlite!(s, [g] => s.insert_game(&g, creator.as_deref()))
            }
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.insert_game(g, creator).await,
        }
    }

    /// The games `creator` created that are open: not over, and created or
    /// played in after `since` (ms since the epoch). Counted in the
    /// database, so that on PostgreSQL they are the client's games on
    /// every server.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn open_games(&self, creator: &str, since: i64) -> Result<OpenGames, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [creator] => s.open_games(&creator, since)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.open_games(creator, since).await,
        }
    }

    /// The game `id`, if stored.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.game(&id)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.game(id).await,
        }
    }

    /// The actions of game `id` after position `after`, in order (all of
    /// them for 0).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn actions(&self, id: &str, after: u64) -> Result<Vec<StoredAction>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.actions(&id, after)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.actions(id, after).await,
        }
    }

    /// Stores a game's actions (in order, with its new state and engine
    /// job) in one transaction and returns once they are committed. Group
    /// commit: the actions of every game that arrive while a transaction is
    /// written go together in the next one, so the cost of a commit is
    /// shared.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when another server stored one of these
    /// positions first; another storage error on a database failure (none
    /// of `appends` is stored then); [`StoreError::Io`] when the writer has
    /// stopped.
    pub async fn append(&self, appends: Vec<Append>) -> Result<(), StoreError> {
        self.write(Write::Actions(appends)).await
    }

    /// Stores a chat line and returns once it is committed (with the
    /// actions of the same group commit; on PostgreSQL it is announced to
    /// the other servers at commit).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when a line is already stored at its
    /// position (another server's); another storage error on a database
    /// failure; [`StoreError::Io`] when the writer has stopped.
    pub async fn say(&self, line: ChatLine) -> Result<(), StoreError> {
        self.write(Write::Chat(line)).await
    }

    /// Records a seat taken (the first time) or renamed, once committed.
    ///
    /// # Errors
    /// A storage error on a database failure; [`StoreError::Io`] when the
    /// writer has stopped.
    pub async fn seat(&self, player: PlayerRow) -> Result<(), StoreError> {
        self.write(Write::Player(player)).await
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.write(write).await,
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.write(write).await,
        }
    }

    /// Takes a seat nobody has taken yet, with `token` the digest of the
    /// taker's new seat token: `true` for the one caller (of any server)
    /// whose row and token are stored, `false` when the seat was taken
    /// before. The database decides, by the seat's unique key.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn claim_seat(&self, player: &PlayerRow, token: &str) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [player, token] => s.claim_seat(&player, &token)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.claim_seat(player, token).await,
        }
    }

    /// The digests of game `id`'s seat tokens, black's then white's, as
    /// stored now (a seat taken from the lobby on another server has a
    /// new one).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn tokens(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.tokens(&id)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.tokens(id).await,
        }
    }

    /// The last `limit` chat lines of game `id`, oldest first, and the
    /// highest position stored.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn chat(&self, id: &str, limit: usize) -> Result<(Vec<ChatLine>, u64), StoreError> {
        let lines = match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.chat(&id, limit))?,
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.chat(id, limit).await?,
        };
        let last = lines.last().map_or(0, |l| l.seq);
        Ok((lines, last))
    }

    /// The seats of game `id` taken so far.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn players(&self, id: &str) -> Result<Vec<PlayerRow>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.players(&id)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.players(id).await,
        }
    }

    /// Lists game `id` in the lobby from `at` (ms since the epoch), its
    /// seat of colour `seat` free for anyone to take.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn list(&self, id: &str, at: i64, seat: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id, seat] => s.list(&id, at, &seat)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.list(id, at, seat).await,
        }
    }

    /// The seat game `id` offers in the lobby, if it is listed.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn listed_seat(&self, id: &str) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.listed_seat(&id)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.listed_seat(id).await,
        }
    }

    /// The games listed in the lobby and not over, newest first, at most
    /// `limit`.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn lobby(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [] => s.lobby(limit)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.lobby(limit).await,
        }
    }

    /// Runs one statement of the small tables ([`statement`]); the rows
    /// changed.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub(crate) async fn execute(
        &self,
        sql: &'static str,
        values: Vec<Value>,
    ) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => blocking(s, move |s| s.execute(sql, &values)).await,
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.execute(sql, &values).await,
        }
    }

    /// The rows of one query of the small tables ([`statement`]).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub(crate) async fn rows(
        &self,
        sql: &'static str,
        values: Vec<Value>,
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        match self {
            Store::Sqlite(s) => blocking(s, move |s| s.rows(sql, &values)).await,
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.rows(sql, &values).await,
        }
    }

    /// Makes sure the engine of game `id` has a job for position `seq`
    /// (for games stored before jobs were: their job is made when they are
    /// loaded). A job already there is left as it is.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn ensure_job(&self, id: &str, seq: u64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [id] => s.ensure_job(&id, seq)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.ensure_job(id, seq).await,
        }
    }

    /// Takes an engine job nobody holds (or whose holder's lease ran out)
    /// for `node`, for `lease`: the oldest of the client served least
    /// recently, whose turn it is (`next_job!`). `None` when none waits.
    /// Two workers never take one job at once.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn take_job(&self, node: &str, lease: Duration) -> Result<Option<Taken>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [node] => s.take_job(&node, lease)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.take_job(node, lease).await,
        }
    }

    /// Extends `node`'s lease on a job; `false` when the job is no longer
    /// its own (done, changed, or taken by another after the lease ran
    /// out).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn renew_job(
        &self,
        job: &Taken,
        node: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [job, node] => s.renew_job(&job, &node, lease)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.renew_job(job, node, lease).await,
        }
    }

    /// Ends a job that has nothing to answer (its position is gone), or
    /// gives one back to the queue (`retry`: the work failed here).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn finish_job(&self, job: &Taken, retry: bool) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [job] => s.finish_job(&job, retry)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.finish_job(job, retry).await,
        }
    }

    /// Engine jobs waiting for a worker (no holder, or a lease run out).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn jobs_waiting(&self) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [] => s.jobs_waiting()),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.jobs_waiting().await,
        }
    }

    /// Server `node` starts at `now`: when no server was alive within
    /// `grace` before it (by their heartbeats), the span since the last one
    /// is recorded as an outage; this server's heartbeat is set. Returns
    /// every outage, `(start, end)` in ms since the epoch.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn start(
        &self,
        node: &str,
        now: i64,
        grace: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [node] => s.start(&node, now, grace)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.start(node, now, grace).await,
        }
    }

    /// Server `node` is alive at `now`.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn heartbeat(&self, node: &str, now: i64) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [node] => s.heartbeat(&node, now)),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.heartbeat(node, now).await,
        }
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// A storage error when it does not.
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => on_sqlite!(s, [] => s.ping()),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.ping().await,
        }
    }

    /// Tells the other servers who is connected to each game of `games`
    /// through this one, `node`, and for how long that holds unless said
    /// again (`lease`), in one round trip (nothing to tell on SQLite).
    ///
    /// # Errors
    /// A storage error on a database failure.
    #[cfg_attr(not(feature = "postgres"), allow(unused_variables))]
    pub async fn announce_presence(
        &self,
        node: &str,
        lease: Duration,
        games: &[(&str, Here)],
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(_) => Ok(()),
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.announce_presence(node, lease, games).await,
        }
    }

    /// What other servers do, once (later calls: `None`). SQLite has one
    /// server, so nothing to hear.
    pub fn events(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Event>> {
        match self {
            Store::Sqlite(_) => None,
            #[cfg(feature = "postgres")]
            Store::Postgres(p) => p.events(),
        }
    }
}

/// A libpq connection keyword (`host`, `dbname`, `sslmode`...).
/// The column that keeps the seat token's digest of `color` (as stored:
/// `black` or `white`).
fn token_column(color: &str) -> &'static str {
    if color == "black" {
        "black_token"
    } else {
        "white_token"
    }
}

fn is_keyword(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// Lease lengths in ms, for SQL.
fn lease_ms(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2)
}

/// The last append of each game in a batch, in first-seen order: what the
/// game's row and job become.
fn last_per_game<'a>(appends: impl IntoIterator<Item = &'a Append>) -> Vec<&'a Append> {
    let mut last: Vec<&Append> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for a in appends {
        match index.get(a.game_id.as_str()) {
            Some(&i) => last[i] = a,
            None => {
                index.insert(a.game_id.as_str(), last.len());
                last.push(a);
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    const URLS: [&str; 3] = [
        "postgres://tengen@db.example/tengen",
        "postgresql:///tengen?host=/run/postgresql",
        "host=/run/postgresql dbname=tengen user=tengen",
    ];

    #[test]
    fn a_db_value_is_a_postgres_url_or_a_sqlite_path() {
        #[cfg(feature = "postgres")]
        {
            for url in URLS {
                assert_eq!(
                    Database::parse(url).unwrap(),
                    Database::Postgres(url.into())
                );
            }
            assert_eq!(
                Database::parse("postgres://tengen:secret@db/tengen")
                    .unwrap()
                    .describe(),
                "postgres://tengen:***@db/tengen"
            );
        }
        for path in [
            "tengen.db",
            "/var/lib/tengen/tengen.db",
            "a=b.db",
            "./host=x",
        ] {
            assert_eq!(
                Database::parse(path).unwrap(),
                Database::Sqlite(path.into())
            );
        }
    }

    #[cfg(not(feature = "postgres"))]
    #[test]
    fn without_the_feature_a_postgres_url_is_refused_and_the_feature_named() {
        for url in URLS {
            let e = Database::parse(url).unwrap_err();
            assert!(matches!(e, StoreError::NoPostgres), "{url}: {e:?}");
            assert!(e.to_string().contains("`postgres`"), "{e}");
        }
    }
}
