//! SQLite storage: one row per game, one row per action. An action is
//! stored (in a transaction with the game's new state) before the server
//! acknowledges or broadcasts it, and games are rebuilt by replaying their
//! actions, so a server killed at any moment loses nothing it answered.

use crate::error::WebError;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    komi TEXT,
    handicap INTEGER NOT NULL,
    handicap_stones TEXT NOT NULL,
    opponent TEXT NOT NULL,
    black_token TEXT NOT NULL,
    white_token TEXT NOT NULL,
    clock TEXT,
    lesson INTEGER,
    learner TEXT,
    created INTEGER NOT NULL,
    state TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS learners (
    id TEXT PRIMARY KEY,
    unlocked INTEGER NOT NULL
);
";

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

/// What an appended action changes besides the log.
#[derive(Clone, Copy, Debug)]
pub struct Append<'a> {
    /// The game.
    pub game_id: &'a str,
    /// Position in the log.
    pub seq: u64,
    /// Short kind (`play`, `pass`, `undo`, `dead`...), for people reading the
    /// database.
    pub kind: &'a str,
    /// The action as JSON.
    pub payload: &'a str,
    /// When, ms since the epoch.
    pub at: i64,
    /// The game's state after it.
    pub state: &'a str,
    /// The result after it, if over.
    pub result: Option<&'a str>,
}

/// The database behind the server.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (creating if needed) the database at `path`. WAL journal with
    /// normal sync: a committed action survives the process being killed.
    ///
    /// # Errors
    /// [`WebError::Storage`] when the file cannot be opened or created.
    pub fn open(path: &Path) -> Result<Store, WebError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent:
        // every write is one transaction.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn insert_game(&self, g: &GameRow) -> Result<(), WebError> {
        self.conn().execute(
            "INSERT INTO games (id, rules, width, height, komi, handicap, handicap_stones,
                opponent, black_token, white_token, clock, lesson, learner, created, state, result)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                g.id,
                g.rules,
                g.width,
                g.height,
                g.komi,
                g.handicap,
                g.handicap_stones,
                g.opponent,
                g.black_token,
                g.white_token,
                g.clock,
                g.lesson,
                g.learner,
                g.created,
                g.state,
                g.result
            ],
        )?;
        Ok(())
    }

    /// The game `id`, if stored.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, WebError> {
        let row = self
            .conn()
            .query_row(
                "SELECT id, rules, width, height, komi, handicap, handicap_stones, opponent,
                    black_token, white_token, clock, lesson, learner, created, state, result
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        rules: r.get(1)?,
                        width: r.get(2)?,
                        height: r.get(3)?,
                        komi: r.get(4)?,
                        handicap: r.get(5)?,
                        handicap_stones: r.get(6)?,
                        opponent: r.get(7)?,
                        black_token: r.get(8)?,
                        white_token: r.get(9)?,
                        clock: r.get(10)?,
                        lesson: r.get(11)?,
                        learner: r.get(12)?,
                        created: r.get(13)?,
                        state: r.get(14)?,
                        result: r.get(15)?,
                    })
                },
            )
            .optional()?;
        Ok(row)
    }

    /// The actions of game `id`, in order.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn actions(&self, id: &str) -> Result<Vec<StoredAction>, WebError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT seq, payload, at FROM moves WHERE game_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map([id], |r| {
            Ok(StoredAction {
                seq: r.get(0)?,
                payload: r.get(1)?,
                at: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Appends an action and the game's new state in one transaction.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure (nothing is stored then).
    pub fn append(&self, a: &Append<'_>) -> Result<(), WebError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.prepare_cached(
            "INSERT INTO moves (game_id, seq, kind, payload, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![a.game_id, a.seq, a.kind, a.payload, a.at])?;
        tx.prepare_cached("UPDATE games SET state = ?2, result = ?3 WHERE id = ?1")?
            .execute(params![a.game_id, a.state, a.result])?;
        tx.commit()?;
        Ok(())
    }

    /// Ids of the games not over (to resume engines and clocks at start-up).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn unfinished(&self) -> Result<Vec<String>, WebError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT id FROM games WHERE state != 'over'")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The highest learning-path step open to `learner` (1 for a newcomer).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn unlocked(&self, learner: &str) -> Result<u32, WebError> {
        let n: Option<u32> = self
            .conn()
            .query_row(
                "SELECT unlocked FROM learners WHERE id = ?1",
                [learner],
                |r| r.get(0),
            )
            .optional()?;
        Ok(n.unwrap_or(1))
    }

    /// Opens step `step` to `learner` (never closes one already open).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn unlock(&self, learner: &str, step: u32) -> Result<(), WebError> {
        self.conn().execute(
            "INSERT INTO learners (id, unlocked) VALUES (?1, ?2)
             ON CONFLICT(id) DO UPDATE SET unlocked = MAX(unlocked, excluded.unlocked)",
            params![learner, step],
        )?;
        Ok(())
    }
}
