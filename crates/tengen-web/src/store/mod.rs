//! Storage: one row per game, one row per action, and the engine moves
//! waiting for a worker. An action is stored (in a transaction with the
//! game's new state) before the server acknowledges or broadcasts it, and
//! games are rebuilt by replaying their actions, so a server killed at any
//! moment loses nothing it answered.
//!
//! Two stores keep one schema ([`migrations`]) and these guarantees: SQLite,
//! a file for one server, and PostgreSQL, one database for several. In
//! both a game's log position is a unique key, so two servers can never
//! both store move 57: the second is told [`WebError::Conflict`] and reads
//! what the first stored.

pub mod migrations;
mod postgres;
mod sqlite;

use crate::error::WebError;
use std::path::PathBuf;
use std::time::Duration;

pub use postgres::Postgres;
pub use sqlite::Sqlite;

/// Where the database is: a SQLite file, or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, made if missing.
    Sqlite(PathBuf),
    /// A libpq connection string (`postgres://USER@HOST/DB` or
    /// `host=... dbname=...`).
    Postgres(String),
}

impl Database {
    /// A `--db` value: a `postgres://` or `postgresql://` URL, or a
    /// `key=value` connection string naming a `dbname` or `host`, is
    /// PostgreSQL; anything else is a SQLite path.
    pub fn parse(text: &str) -> Database {
        let t = text.trim();
        let keywords = t.contains('=')
            && t.split_whitespace()
                .all(|kv| kv.split_once('=').is_some_and(|(k, _)| is_keyword(k)))
            && (t.contains("dbname=") || t.contains("host="));
        if t.starts_with("postgres://") || t.starts_with("postgresql://") || keywords {
            Database::Postgres(t.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }

    /// The database for people to read: the path, or the URL without its
    /// password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => postgres::without_password(url),
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
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
    /// An engine job is waiting for a worker.
    JobWaiting,
    /// The link that hears events was lost and is back: events may have
    /// been missed.
    Reconnected,
}

/// The database behind the server: one of the two stores.
#[derive(Debug)]
pub enum Store {
    /// A SQLite file: one server.
    Sqlite(Sqlite),
    /// A PostgreSQL database: any number of servers (boxed: its
    /// connection settings are large).
    Postgres(Box<Postgres>),
}

impl Store {
    /// Opens `db`, creating or upgrading its schema, as server `node`
    /// (jobs a previous run of that node held are given back).
    ///
    /// # Errors
    /// [`WebError::Storage`] or [`WebError::Postgres`] when the database
    /// cannot be opened or upgraded; [`WebError::ReadOnly`] when a SQLite
    /// file cannot be written.
    pub async fn open(db: &Database, node: &str) -> Result<Store, WebError> {
        Ok(match db {
            Database::Sqlite(path) => Store::Sqlite(Sqlite::open(path)?),
            Database::Postgres(url) => Store::Postgres(Box::new(Postgres::open(url, node).await?)),
        })
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.insert_game(g),
            Store::Postgres(p) => p.insert_game(g).await,
        }
    }

    /// The game `id`, if stored.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, WebError> {
        match self {
            Store::Sqlite(s) => s.game(id),
            Store::Postgres(p) => p.game(id).await,
        }
    }

    /// The actions of game `id` after position `after`, in order (all of
    /// them for 0).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn actions(&self, id: &str, after: u64) -> Result<Vec<StoredAction>, WebError> {
        match self {
            Store::Sqlite(s) => s.actions(id, after),
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
    /// [`WebError::Conflict`] when another server stored one of these
    /// positions first; another storage error on a database failure (none
    /// of `appends` is stored then); [`WebError::Io`] when the writer has
    /// stopped.
    pub async fn append(&self, appends: Vec<Append>) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.append(appends).await,
            Store::Postgres(p) => p.append(appends).await,
        }
    }

    /// The highest learning-path step open to `learner` (1 for a newcomer).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn unlocked(&self, learner: &str) -> Result<u32, WebError> {
        match self {
            Store::Sqlite(s) => s.unlocked(learner),
            Store::Postgres(p) => p.unlocked(learner).await,
        }
    }

    /// Opens step `step` to `learner` (never closes one already open).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn unlock(&self, learner: &str, step: u32) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.unlock(learner, step),
            Store::Postgres(p) => p.unlock(learner, step).await,
        }
    }

    /// Makes sure the engine of game `id` has a job for position `seq`
    /// (for games stored before jobs were: their job is made when they are
    /// loaded). A job already there is left as it is.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn ensure_job(&self, id: &str, seq: u64) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.ensure_job(id, seq),
            Store::Postgres(p) => p.ensure_job(id, seq).await,
        }
    }

    /// Takes the oldest engine job nobody holds (or whose holder's lease
    /// ran out) for `node`, for `lease`; `None` when none waits. Two
    /// workers never take one job at once.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn take_job(&self, node: &str, lease: Duration) -> Result<Option<Taken>, WebError> {
        match self {
            Store::Sqlite(s) => s.take_job(node, lease),
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
    ) -> Result<bool, WebError> {
        match self {
            Store::Sqlite(s) => s.renew_job(job, node, lease),
            Store::Postgres(p) => p.renew_job(job, node, lease).await,
        }
    }

    /// Ends a job that has nothing to answer (its position is gone), or
    /// gives one back to the queue (`retry`: the work failed here).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn finish_job(&self, job: &Taken, retry: bool) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.finish_job(job, retry),
            Store::Postgres(p) => p.finish_job(job, retry).await,
        }
    }

    /// Engine jobs waiting for a worker (no holder, or a lease run out).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn jobs_waiting(&self) -> Result<u64, WebError> {
        match self {
            Store::Sqlite(s) => s.jobs_waiting(),
            Store::Postgres(p) => p.jobs_waiting().await,
        }
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// A storage error when it does not.
    pub async fn ping(&self) -> Result<(), WebError> {
        match self {
            Store::Sqlite(s) => s.ping(),
            Store::Postgres(p) => p.ping().await,
        }
    }

    /// What other servers do, once (later calls: `None`). SQLite has one
    /// server, so nothing to hear.
    pub fn events(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Event>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(p) => p.events(),
        }
    }
}

/// A libpq connection keyword (`host`, `dbname`, `sslmode`...).
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

    #[test]
    fn a_db_value_is_a_postgres_url_or_a_sqlite_path() {
        for url in [
            "postgres://tengen@db.example/tengen",
            "postgresql:///tengen?host=/run/postgresql",
            "host=/run/postgresql dbname=tengen user=tengen",
        ] {
            assert_eq!(Database::parse(url), Database::Postgres(url.into()));
        }
        for path in [
            "tengen.db",
            "/var/lib/tengen/tengen.db",
            "a=b.db",
            "./host=x",
        ] {
            assert_eq!(Database::parse(path), Database::Sqlite(path.into()));
        }
        assert_eq!(
            Database::parse("postgres://tengen:secret@db/tengen").describe(),
            "postgres://tengen:***@db/tengen"
        );
    }
}
