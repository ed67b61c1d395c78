//! The SQLite store: one file, one server. Reads share one connection;
//! a writer thread stores actions in group commits.

use super::checkpoint::{Checkpoints, WRITER_BACKSTOP_PAGES};
use super::file_watch::FileWatch;
use super::migrations::{self, LEDGER};
use super::readers::Readers;
use super::{
    Batch, GameRow, JobChange, LobbyRow, OpenGames, PlayerRow, StoredAction, Taken, Write,
    last_per_game, lease_ms,
};
use crate::ChatLine;
use crate::error::StoreError;
use crate::now::now_ms;
use crate::statement::{self, Value};
use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, ErrorCode, MAIN_DB, OptionalExtension, params};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Read-only connections beside the writer's: reads at once, each on the
/// blocking pool.
const READERS: usize = 4;

/// One write waiting for the writer, and who waits for it.
struct Job {
    write: Write,
    done: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

/// A SQLite database.
#[derive(Debug)]
pub struct Sqlite {
    conn: Arc<Mutex<Connection>>,
    readers: Readers,
    writer: mpsc::Sender<Job>,
    /// The file, checked before every write.
    file: Arc<FileWatch>,
    _checkpoints: Checkpoints,
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path` and brings its
    /// schema up to date. WAL journal with normal sync: a committed action
    /// survives the process being killed. Jobs held when it was last
    /// closed are given back: one server uses the file.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the file cannot be opened or created;
    /// [`StoreError::ReadOnly`] when it cannot be written (found now rather
    /// than at the first move).
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let mut conn = Connection::open(path)?;
        check_writable(&conn, path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "wal_autocheckpoint", WRITER_BACKSTOP_PAGES)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
        conn.execute("UPDATE engine_jobs SET owner = NULL, lease_until = 0", [])?;
        let conn = Arc::new(Mutex::new(conn));
        let file = Arc::new(FileWatch::of(path)?);
        let (writer, jobs) = mpsc::channel();
        let (shared, watched) = (Arc::clone(&conn), Arc::clone(&file));
        std::thread::Builder::new()
            .name("tengen-db-writer".into())
            .spawn(move || write_jobs(&shared, &watched, &jobs))?;
        Ok(Sqlite {
            conn,
            readers: Readers::open(path, READERS)?,
            writer,
            file,
            _checkpoints: Checkpoints::start(path)?,
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// A connection to read on ([`Readers`]).
    fn read(&self) -> MutexGuard<'_, Connection> {
        self.readers.get()
    }

    /// `e`, or, when SQLite failed because the file was removed or
    /// replaced meanwhile (a reader's connection then fails where the
    /// writer's would not), that.
    pub(crate) fn explain(&self, e: StoreError) -> StoreError {
        match (&e, self.file.check()) {
            (StoreError::Sqlite(_), Err(lost)) => lost,
            _ => e,
        }
    }

    /// The connection, to write, once the file is known to be the one
    /// opened.
    fn to_write(&self) -> Result<MutexGuard<'_, Connection>, StoreError> {
        self.file.check()?;
        Ok(self.conn())
    }

    /// Notes how a write ended (see [`FileWatch::wrote`]), passing the
    /// result on.
    fn wrote<T>(&self, result: rusqlite::Result<T>) -> Result<T, StoreError> {
        self.file.wrote(result.as_ref().err());
        Ok(result?)
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn insert_game(&self, g: &GameRow, creator: Option<&str>) -> Result<(), StoreError> {
        self.wrote(self.to_write()?.execute(
            "INSERT INTO games (id, rules, width, height, komi, handicap, handicap_stones,
                opponent, black_token, white_token, clock, lesson, learner, created, state, result,
                creator)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
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
                g.result,
                creator
            ],
        ))?;
        Ok(())
    }

    /// See [`super::Store::open_games`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn open_games(&self, creator: &str, since: i64) -> Result<OpenGames, StoreError> {
        Ok(self
            .read()
            .query_row(open_games!("?1", "?2"), params![creator, since], |r| {
                Ok(OpenGames {
                    games: r.get(0)?,
                    engine: r.get(1)?,
                    listed: r.get(2)?,
                })
            })?)
    }

    /// The game `id`, if stored.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .read()
            .query_row(
                "SELECT id, rules, width, height, komi, handicap, handicap_stones, opponent,
                    black_token, white_token, clock, lesson, learner, created, state, result
                 FROM games WHERE id = ?1",
                [id],
                game_row,
            )
            .optional()?;
        Ok(row)
    }

    /// The actions of game `id` after position `after`, in order.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn actions(&self, id: &str, after: u64) -> Result<Vec<StoredAction>, StoreError> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(
            "SELECT seq, payload, at FROM moves WHERE game_id = ?1 AND seq > ?2 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![id, after], |r| {
            Ok(StoredAction {
                seq: r.get(0)?,
                payload: r.get(1)?,
                at: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// A write through the writer thread's group commit, once committed.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for a position already stored;
    /// [`StoreError::Sqlite`] on a database failure (nothing of `write` is
    /// stored then); [`StoreError::Io`] when the writer has stopped.
    pub(super) async fn write(&self, write: Write) -> Result<(), StoreError> {
        let stopped = || StoreError::Io(std::io::Error::other("the database writer has stopped"));
        let (done, answer) = tokio::sync::oneshot::channel();
        self.writer
            .send(Job { write, done })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// See [`super::Store::claim_seat`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn claim_seat(&self, p: &PlayerRow, token: &str) -> Result<bool, StoreError> {
        let mut conn = self.to_write()?;
        let claim = |conn: &mut Connection| {
            let tx = conn.transaction()?;
            let claimed = tx.execute(
                "INSERT INTO players (game_id, color, name, joined) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(game_id, color) DO NOTHING",
                params![p.game_id, p.color, p.name, p.joined],
            )? == 1;
            if claimed {
                let column = super::token_column(&p.color);
                tx.execute(
                    &format!("UPDATE games SET {column} = ?1 WHERE id = ?2"),
                    params![token, p.game_id],
                )?;
            }
            tx.commit()?;
            Ok(claimed)
        };
        let result = claim(&mut conn);
        self.wrote(result)
    }

    /// The last `limit` chat lines of game `id`, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn chat(&self, id: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(
            "SELECT seq, seat, name, text, at FROM chat WHERE game_id = ?1
             ORDER BY seq DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![id, limit as i64], |r| {
            Ok(ChatLine {
                game_id: id.to_string(),
                seq: r.get(0)?,
                seat: r.get(1)?,
                name: r.get(2)?,
                text: r.get(3)?,
                at: r.get(4)?,
            })
        })?;
        let mut lines = rows.collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// The seats of game `id` taken so far.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn players(&self, id: &str) -> Result<Vec<PlayerRow>, StoreError> {
        players_of(&self.read(), id)
    }

    /// See [`super::Store::list`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn list(&self, id: &str, at: i64, seat: &str) -> Result<(), StoreError> {
        self.wrote(self.to_write()?.execute(
            "INSERT OR IGNORE INTO lobby (game_id, listed, seat) VALUES (?1, ?2, ?3)",
            params![id, at, seat],
        ))?;
        Ok(())
    }

    /// See [`super::Store::start`]: in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn start(&self, node: &str, now: i64, grace: i64) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut conn = self.to_write()?;
        let tx = self.wrote(conn.transaction())?;
        self.wrote(tx.execute(
            "INSERT OR IGNORE INTO outages (start_ms, end_ms)
             SELECT alive, ?1 FROM (SELECT max(alive) AS alive FROM heartbeats)
             WHERE alive IS NOT NULL AND alive < ?1 - ?2",
            params![now, grace],
        ))?;
        self.wrote(tx.execute(HEARTBEAT_SQLITE, params![node, now]))?;
        let spans = {
            let mut stmt = tx.prepare("SELECT start_ms, end_ms FROM outages ORDER BY start_ms")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<Vec<_>, _>>()?
        };
        self.wrote(tx.commit())?;
        Ok(spans)
    }

    /// See [`super::Store::heartbeat`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn heartbeat(&self, node: &str, now: i64) -> Result<(), StoreError> {
        self.wrote(
            self.to_write()?
                .execute(HEARTBEAT_SQLITE, params![node, now]),
        )?;
        Ok(())
    }

    /// See [`super::Store::tokens`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn tokens(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(self
            .read()
            .query_row(
                "SELECT black_token, white_token FROM games WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// See [`super::Store::listed_seat`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn listed_seat(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .read()
            .query_row("SELECT seat FROM lobby WHERE game_id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// See [`super::Store::lobby`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn lobby(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        let conn = self.read();
        let mut stmt = conn.prepare(
            "SELECT g.id, g.rules, g.width, g.height, g.komi, g.handicap, g.handicap_stones,
                g.opponent, g.black_token, g.white_token, g.clock, g.lesson, g.learner,
                g.created, g.state, g.result, l.listed, l.seat
             FROM lobby l JOIN games g ON g.id = l.game_id
             WHERE g.state != 'over' ORDER BY l.listed DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok((game_row(r)?, r.get::<_, i64>(16)?, r.get::<_, String>(17)?))
        })?;
        let listed = rows.collect::<Result<Vec<_>, _>>()?;
        listed
            .into_iter()
            .map(|(game, listed, seat)| {
                let players = players_of(&conn, &game.id)?;
                Ok(LobbyRow {
                    game,
                    listed,
                    seat,
                    players,
                })
            })
            .collect()
    }

    /// Runs one statement on the writer's connection (outside the group
    /// commit: the small tables of [`crate::statement`]); the rows changed.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub(crate) fn execute(&self, sql: &str, values: &[Value]) -> Result<u64, StoreError> {
        let conn = self.to_write()?;
        let n = self.wrote(
            conn.prepare_cached(sql)
                .and_then(|mut stmt| stmt.execute(&*statement::named(values))),
        )?;
        Ok(n as u64)
    }

    /// The rows of one query, read on a reader's connection.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub(crate) fn rows(&self, sql: &str, values: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        let conn = self.read();
        let mut stmt = conn.prepare_cached(sql)?;
        let rows = stmt.query_map(&*statement::named(values), statement::sqlite_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// See [`super::Store::ensure_job`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn ensure_job(&self, id: &str, seq: u64) -> Result<(), StoreError> {
        self.wrote(self.to_write()?.execute(
            "INSERT INTO engine_jobs (game_id, seq, owner, lease_until, created)
             VALUES (?1, ?2, NULL, 0, ?3) ON CONFLICT(game_id) DO NOTHING",
            params![id, seq, now_ms()],
        ))?;
        Ok(())
    }

    /// See [`super::Store::take_job`]: one connection, so one statement
    /// takes a job whole.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn take_job(&self, node: &str, lease: Duration) -> Result<Option<Taken>, StoreError> {
        let now = now_ms();
        let mut conn = self.to_write()?;
        let taken = self.wrote((|| {
            let tx = conn.transaction()?;
            let taken = tx
                .query_row(
                    concat!(
                        "UPDATE engine_jobs SET owner = ?1, lease_until = ?2 + ?3
                         WHERE game_id = (",
                        next_job!("?2"),
                        ") RETURNING game_id, seq"
                    ),
                    params![node, now, lease_ms(lease)],
                    |r| {
                        Ok(Taken {
                            game_id: r.get(0)?,
                            seq: r.get(1)?,
                        })
                    },
                )
                .optional()?;
            if let Some(job) = &taken {
                tx.execute(
                    "INSERT INTO engine_served (client, served)
                     SELECT creator, ?2 FROM games WHERE id = ?1 AND creator IS NOT NULL
                     ON CONFLICT (client) DO UPDATE SET served = excluded.served",
                    params![job.game_id, now],
                )?;
                tx.execute(
                    "DELETE FROM engine_served WHERE served < ?1",
                    [now - super::SERVED_KEPT_MS],
                )?;
            }
            tx.commit()?;
            Ok(taken)
        })())?;
        Ok(taken)
    }

    /// See [`super::Store::renew_job`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn renew_job(&self, job: &Taken, node: &str, lease: Duration) -> Result<bool, StoreError> {
        let n = self.wrote(self.to_write()?.execute(
            "UPDATE engine_jobs SET lease_until = ?4
             WHERE game_id = ?1 AND seq = ?2 AND owner = ?3",
            params![job.game_id, job.seq, node, now_ms() + lease_ms(lease)],
        ))?;
        Ok(n == 1)
    }

    /// See [`super::Store::finish_job`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn finish_job(&self, job: &Taken, retry: bool) -> Result<(), StoreError> {
        let sql = if retry {
            "UPDATE engine_jobs SET owner = NULL, lease_until = 0 WHERE game_id = ?1 AND seq = ?2"
        } else {
            "DELETE FROM engine_jobs WHERE game_id = ?1 AND seq = ?2"
        };
        self.wrote(self.to_write()?.execute(sql, params![job.game_id, job.seq]))?;
        Ok(())
    }

    /// See [`super::Store::jobs_waiting`].
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] on a database failure.
    pub fn jobs_waiting(&self) -> Result<u64, StoreError> {
        let n: u64 = self.read().query_row(
            "SELECT count(*) FROM engine_jobs WHERE lease_until < ?1",
            [now_ms()],
            |r| r.get(0),
        )?;
        Ok(n)
    }

    /// Checks that the database answers and keeps what it is given.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when it does not answer;
    /// [`StoreError::DatabaseLost`] when its file was removed or replaced;
    /// [`StoreError::DiskFailing`] when the last write failed for want of
    /// room or of the disk.
    pub fn ping(&self) -> Result<(), StoreError> {
        self.file.health()?;
        self.read().query_row("SELECT 1", [], |_| Ok(()))?;
        Ok(())
    }
}

/// Sets a server's heartbeat.
const HEARTBEAT_SQLITE: &str = "INSERT INTO heartbeats (node, alive) VALUES (?1, ?2)
     ON CONFLICT (node) DO UPDATE SET alive = excluded.alive";

/// A game row from the first 16 columns of a query, in the order of the
/// `games` table.
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
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
}

fn players_of(conn: &Connection, id: &str) -> Result<Vec<PlayerRow>, StoreError> {
    let mut stmt =
        conn.prepare_cached("SELECT color, name, joined FROM players WHERE game_id = ?1")?;
    let rows = stmt.query_map([id], |r| {
        Ok(PlayerRow {
            game_id: id.to_string(),
            color: r.get(0)?,
            name: r.get(1)?,
            joined: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Opens step `step` to `learner` (never closes one already open); only
/// inside the transaction of the action that wins the step before.
const UNLOCK: &str = "INSERT INTO learners (id, unlocked) VALUES (?1, ?2)
     ON CONFLICT(id) DO UPDATE SET unlocked = MAX(unlocked, excluded.unlocked)";

/// Brings the schema up to date, in one transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    // Step 5's digest of the seat tokens, the server's own.
    conn.create_scalar_function(
        "tengen_digest",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| Ok(crate::seat_token::digest(&ctx.get::<String>(0)?)),
    )?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch(LEDGER)?;
    let done = {
        let mut stmt = tx.prepare("SELECT version FROM tengen_migrations")?;
        stmt.query_map([], |r| r.get(0))?
            .collect::<Result<Vec<u32>, _>>()?
    };
    for step in migrations::missing(&done) {
        tx.execute_batch(step.sqlite)?;
        tx.execute(
            "INSERT INTO tengen_migrations (version, name, applied) VALUES (?1, ?2, ?3)",
            params![step.version, step.name, now_ms()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// Refuses a database that can only be read: opened read-only (SQLite
/// falls back to that when the file or its file system cannot be written)
/// or refusing the write lock a move takes.
fn check_writable(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let read_only = || StoreError::ReadOnly(path.display().to_string());
    if conn.is_readonly(MAIN_DB)? {
        return Err(read_only());
    }
    match conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;") {
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::ReadOnly) => Err(read_only()),
        other => Ok(other?),
    }
}

fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    // A panic while holding the lock cannot leave SQLite inconsistent:
    // every write is one transaction.
    conn.lock().unwrap_or_else(|e| e.into_inner())
}

/// The writer thread: takes every job waiting, stores them in one
/// transaction and answers each once it is committed. When that
/// transaction fails, each job is stored alone, so that one bad job
/// refuses no other. Ends when the store is dropped.
fn write_jobs(conn: &Mutex<Connection>, file: &FileWatch, jobs: &mpsc::Receiver<Job>) {
    // What a write's result says of the disk.
    let note = |result: &Result<(), StoreError>| {
        file.wrote(match result {
            Err(StoreError::Sqlite(e)) => Some(e),
            _ => None,
        });
    };
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        batch.extend(jobs.try_iter());
        if file.check().is_err() {
            // Written now, nothing would be kept: nothing is acknowledged.
            for job in batch {
                let _ = job.done.send(file.check());
            }
            continue;
        }
        let mut conn = lock(conn);
        let together = insert_all(&mut conn, Batch::of(batch.iter().map(|j| &j.write)));
        note(&together);
        if together.is_ok() {
            for job in batch {
                // The requester may have gone: nothing to tell.
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in batch {
                let alone = insert_all(&mut conn, Batch::of([&job.write]));
                note(&alone);
                let _ = job.done.send(alone);
            }
        }
    }
}

/// Stores writes (actions with their games' new states, engine jobs and
/// the steps they open; chat lines; seats) in one transaction.
fn insert_all(conn: &mut Connection, batch: Batch<'_>) -> Result<(), StoreError> {
    let Batch {
        appends,
        lines,
        players,
    } = batch;
    let tx = conn.transaction()?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO moves (game_id, seq, kind, payload, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut unlock = tx.prepare_cached(UNLOCK)?;
        for a in &appends {
            insert
                .execute(params![a.game_id, a.seq, a.kind, a.payload, a.at])
                .map_err(conflict)?;
            if let Some((learner, step)) = &a.unlock {
                unlock.execute(params![learner, step])?;
            }
        }
        let mut say = tx.prepare_cached(
            "INSERT INTO chat (game_id, seq, seat, name, text, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for l in lines {
            say.execute(params![l.game_id, l.seq, l.seat, l.name, l.text, l.at])
                .map_err(conflict)?;
        }
        let mut seat = tx.prepare_cached(
            "INSERT INTO players (game_id, color, name, joined) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(game_id, color) DO UPDATE SET name = COALESCE(excluded.name, name)",
        )?;
        for p in players {
            seat.execute(params![p.game_id, p.color, p.name, p.joined])?;
        }
        let mut update =
            tx.prepare_cached("UPDATE games SET state = ?2, result = ?3 WHERE id = ?1")?;
        let mut open = tx.prepare_cached(
            "INSERT INTO engine_jobs (game_id, seq, owner, lease_until, created)
             VALUES (?1, ?2, NULL, 0, ?3)
             ON CONFLICT(game_id) DO UPDATE SET seq = excluded.seq, owner = NULL,
                lease_until = 0, created = excluded.created",
        )?;
        let mut close = tx.prepare_cached("DELETE FROM engine_jobs WHERE game_id = ?1")?;
        for a in last_per_game(appends.iter().copied()) {
            update.execute(params![a.game_id, a.state, a.result])?;
            match a.job {
                JobChange::Keep => 0,
                JobChange::Open => open.execute(params![a.game_id, a.seq, a.at])?,
                JobChange::Close => close.execute([&a.game_id])?,
            };
        }
    }
    tx.commit()?;
    Ok(())
}

/// A position already stored is a [`StoreError::Conflict`].
fn conflict(e: rusqlite::Error) -> StoreError {
    if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation)
        && let rusqlite::Error::SqliteFailure(f, _) = &e
        && f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    {
        return StoreError::Conflict;
    }
    StoreError::Sqlite(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Append;

    /// The step open to `learner`, as the store reads it.
    fn unlocked(store: &Sqlite, learner: &str) -> u32 {
        let rows = store
            .rows(crate::classes::UNLOCKED, &[learner.into()])
            .unwrap();
        rows.first().map_or(1, |r| r[0].count())
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            rules: "ffg".into(),
            width: 9,
            height: 9,
            komi: None,
            handicap: 0,
            handicap_stones: "fixed".into(),
            opponent: r#"{"kind":"friend"}"#.into(),
            black_token: "b".into(),
            white_token: "w".into(),
            clock: None,
            lesson: None,
            learner: None,
            created: 0,
            state: "playing".into(),
            result: None,
        }
    }

    fn play(id: &str, seq: u64, vertex: &str) -> Append {
        Append {
            game_id: id.into(),
            seq,
            kind: "play",
            payload: format!(r#"{{"kind":"play","color":"black","vertex":"{vertex}"}}"#),
            at: 0,
            state: "playing",
            result: None,
            job: JobChange::Keep,
            unlock: None,
        }
    }

    impl Sqlite {
        async fn append(&self, appends: Vec<Append>) -> Result<(), StoreError> {
            self.write(Write::Actions(appends)).await
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("tengen-store-{name}-{}.db", std::process::id()));
        remove(&path);
        path
    }

    fn remove(path: &std::path::Path) {
        for end in ["", "-wal", "-shm"] {
            let mut name = path.to_path_buf().into_os_string();
            name.push(end);
            let _ = std::fs::remove_file(name);
        }
    }

    #[tokio::test]
    async fn a_refused_append_stores_nothing_and_spares_the_others() {
        let path = temp("refused");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("a"), None).unwrap();
        store.insert_game(&game("b"), None).unwrap();
        store.append(vec![play("a", 1, "D4")]).await.unwrap();
        // Many games at once share transactions; a duplicate position in
        // one game's log must not cost the other games their moves.
        let (bad, good, other) = tokio::join!(
            store.append(vec![play("a", 2, "E5"), play("a", 1, "F6")]),
            store.append(vec![play("b", 1, "C3"), play("b", 2, "C4")]),
            store.append(vec![play("a", 2, "G7")]),
        );
        assert!(matches!(bad, Err(StoreError::Conflict)), "{bad:?}");
        good.unwrap();
        other.unwrap();
        let a: Vec<u64> = store
            .actions("a", 0)
            .unwrap()
            .iter()
            .map(|s| s.seq)
            .collect();
        assert_eq!(a, [1, 2]);
        assert!(store.actions("a", 0).unwrap()[1].payload.contains("G7"));
        assert_eq!(store.actions("b", 0).unwrap().len(), 2);
        assert_eq!(store.actions("a", 1).unwrap().len(), 1);
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn a_database_file_removed_or_replaced_while_serving_stores_nothing_more_and_says_so() {
        let path = temp("lost");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("a"), None).unwrap();
        store.append(vec![play("a", 1, "D4")]).await.unwrap();
        store.ping().unwrap();
        // Removed: SQLite would go on writing to a file no name reaches.
        remove(&path);
        let lost = |r: Result<(), StoreError>, what: &str| match r {
            Err(StoreError::DatabaseLost { what: w, .. }) => assert_eq!(w, what),
            other => panic!("{other:?}"),
        };
        lost(store.ping(), "removed");
        lost(store.append(vec![play("a", 2, "E5")]).await, "removed");
        lost(store.insert_game(&game("b"), None), "removed");
        // Replaced by another database at the same path.
        drop(Sqlite::open(&path).unwrap());
        lost(store.ping(), "replaced by another file");
        lost(
            store.append(vec![play("a", 2, "E5")]).await,
            "replaced by another file",
        );
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn a_write_refused_for_want_of_room_shows_in_the_health_until_one_is_kept() {
        let path = temp("full");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("a"), None).unwrap();
        // The file may grow no more: the next pages a write needs are
        // refused as on a full disk.
        let pages: u64 = store
            .conn()
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        store
            .conn()
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))
            .unwrap();
        let big = "x".repeat(64 * 1024);
        let mut refused = None;
        for seq in 1..=4 {
            let mut a = play("a", seq, "D4");
            a.payload = big.clone();
            if let Err(e) = store.append(vec![a]).await {
                refused = Some(e);
                break;
            }
        }
        assert!(refused.is_some(), "the file grew past its limit");
        match store.ping() {
            Err(StoreError::DiskFailing(why)) => assert!(why.contains("full"), "{why}"),
            other => panic!("{other:?}"),
        }
        // Room again: the next write is kept, and health with it.
        store
            .conn()
            .query_row("PRAGMA max_page_count = 1000000", [], |_| Ok(()))
            .unwrap();
        let seq = store.actions("a", 0).unwrap().len() as u64 + 1;
        store.append(vec![play("a", seq, "E5")]).await.unwrap();
        store.ping().unwrap();
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn the_log_is_copied_into_the_database_file_by_the_checkpoint_thread() {
        let path = temp("checkpoint");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("a"), None).unwrap();
        let size = || std::fs::metadata(&path).unwrap().len();
        let before = size();
        for seq in 1..=1_000 {
            store.append(vec![play("a", seq, "D4")]).await.unwrap();
        }
        // Far below the writer's own threshold: only the checkpoint
        // thread moves these pages from the log into the file.
        let wal = std::fs::metadata(format!("{}-wal", path.display()))
            .unwrap()
            .len();
        assert!(wal < u64::from(WRITER_BACKSTOP_PAGES) * 4096 / 4, "{wal}");
        let mut waited = 0;
        while size() <= before && waited < 200 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            waited += 1;
        }
        assert!(size() > before, "{} > {before}", size());
        assert_eq!(store.actions("a", 0).unwrap().len(), 1_000);
        drop(store);
        remove(&path);
    }

    /// The schema of the databases made before the schema had steps.
    const FIRST_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, width INTEGER NOT NULL,
    height INTEGER NOT NULL, komi TEXT, handicap INTEGER NOT NULL,
    handicap_stones TEXT NOT NULL, opponent TEXT NOT NULL,
    black_token TEXT NOT NULL, white_token TEXT NOT NULL, clock TEXT,
    lesson INTEGER, learner TEXT, created INTEGER NOT NULL,
    state TEXT NOT NULL, result TEXT);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL, payload TEXT NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS learners (id TEXT PRIMARY KEY, unlocked INTEGER NOT NULL);
INSERT INTO games VALUES ('old', 'ffg', 9, 9, NULL, 0, 'fixed',
    '{\"kind\":\"same_screen\"}', 't', 't', NULL, NULL, NULL, 0, 'playing', NULL);
INSERT INTO moves VALUES ('old', 1, 'play', '{\"kind\":\"play\",\"color\":\"black\",\"vertex\":\"D4\"}', 5);
INSERT INTO learners VALUES ('l', 3);
";

    #[tokio::test]
    async fn a_database_of_the_first_schema_is_upgraded_in_place() {
        let path = temp("upgrade");
        Connection::open(&path)
            .unwrap()
            .execute_batch(FIRST_SCHEMA)
            .unwrap();
        let store = Sqlite::open(&path).unwrap();
        assert_eq!(store.game("old").unwrap().unwrap().rules, "ffg");
        assert_eq!(store.actions("old", 0).unwrap()[0].at, 5);
        assert_eq!(unlocked(&store, "l"), 3);
        // Step 5: the seat tokens, kept in clear before, are digests now.
        let kept = crate::seat_token::digest("t");
        assert_eq!(
            store.tokens("old").unwrap(),
            Some((kept.clone(), kept.clone()))
        );
        store.append(vec![play("old", 2, "E5")]).await.unwrap();
        let versions: Vec<u32> = {
            let conn = store.conn();
            let mut stmt = conn
                .prepare("SELECT version FROM tengen_migrations ORDER BY version")
                .unwrap();
            stmt.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let all: Vec<u32> = migrations::STEPS.iter().map(|s| s.version).collect();
        assert_eq!(versions, all);
        drop(store);
        // Opened again: nothing left to do, nothing lost.
        let store = Sqlite::open(&path).unwrap();
        assert_eq!(store.actions("old", 0).unwrap().len(), 2);
        assert_eq!(store.tokens("old").unwrap(), Some((kept.clone(), kept)));
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn an_engine_job_is_taken_once_renewed_and_closed_with_its_move() {
        let path = temp("jobs");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("e"), None).unwrap();
        let lease = Duration::from_secs(60);
        assert_eq!(store.take_job("n1", lease).unwrap(), None);
        let mut open = play("e", 1, "D4");
        open.job = JobChange::Open;
        store.append(vec![open]).await.unwrap();
        assert_eq!(store.jobs_waiting().unwrap(), 1);
        let job = store.take_job("n1", lease).unwrap().unwrap();
        assert_eq!(
            job,
            Taken {
                game_id: "e".into(),
                seq: 1
            }
        );
        // Held: nobody else takes it, and only its holder renews it.
        assert_eq!(store.take_job("n2", lease).unwrap(), None);
        assert_eq!(store.jobs_waiting().unwrap(), 0);
        assert!(store.renew_job(&job, "n1", lease).unwrap());
        assert!(!store.renew_job(&job, "n2", lease).unwrap());
        // A lease run out: another takes it.
        assert!(store.renew_job(&job, "n1", Duration::ZERO).unwrap());
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(store.take_job("n2", lease).unwrap(), Some(job.clone()));
        // The engine's move closes it.
        let mut answer = play("e", 2, "E5");
        answer.job = JobChange::Close;
        store.append(vec![answer]).await.unwrap();
        assert!(!store.renew_job(&job, "n2", lease).unwrap());
        assert_eq!(store.take_job("n2", lease).unwrap(), None);
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn workers_take_turns_between_clients_whatever_their_queues() {
        let path = temp("turns");
        let store = Sqlite::open(&path).unwrap();
        let lease = Duration::from_secs(60);
        // A greedy client's four games wait, then another's one.
        let queue = |id: &str, creator: &str, created: i64| {
            store.insert_game(&game(id), Some(creator)).unwrap();
            store
                .to_write()
                .unwrap()
                .execute(
                    "INSERT INTO engine_jobs (game_id, seq, owner, lease_until, created)
                     VALUES (?1, 0, NULL, 0, ?2)",
                    params![id, created],
                )
                .unwrap();
        };
        for (i, id) in ["g1", "g2", "g3", "g4"].iter().enumerate() {
            queue(id, "198.51.100.1", i as i64);
        }
        let mut order = Vec::new();
        let take = |order: &mut Vec<String>| {
            let job = store.take_job("n", lease).unwrap().unwrap();
            store.finish_job(&job, false).unwrap();
            order.push(job.game_id);
        };
        take(&mut order);
        queue("other", "198.51.100.2", 10);
        for _ in 0..4 {
            take(&mut order);
        }
        // The other client's first job comes right after the one running
        // when it came, not after the greedy client's whole queue.
        assert_eq!(order, ["g1", "other", "g2", "g3", "g4"]);
        assert_eq!(store.take_job("n", lease).unwrap(), None);
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn a_clients_open_games_are_those_not_over_and_lately_touched() {
        let path = temp("open");
        let store = Sqlite::open(&path).unwrap();
        let me = "198.51.100.7";
        let mut engine = game("e");
        engine.opponent = r#"{"kind":"engine","strength":"easy","engine":"white"}"#.into();
        engine.created = 1_000;
        store.insert_game(&engine, Some(me)).unwrap();
        let mut listed = game("l");
        listed.created = 1_000;
        store.insert_game(&listed, Some(me)).unwrap();
        store.list("l", 1_000, "white").unwrap();
        let mut over = game("o");
        over.created = 1_000;
        over.state = "over".into();
        store.insert_game(&over, Some(me)).unwrap();
        let mut old = game("x");
        old.created = 10;
        store.insert_game(&old, Some(me)).unwrap();
        store
            .insert_game(&game("someone"), Some("198.51.100.8"))
            .unwrap();
        assert_eq!(
            store.open_games(me, 500).unwrap(),
            OpenGames {
                games: 2,
                engine: 1,
                listed: 1
            }
        );
        // An old game played in lately is open again.
        let mut moved = play("x", 1, "D4");
        moved.at = 2_000;
        store.append(vec![moved]).await.unwrap();
        assert_eq!(store.open_games(me, 500).unwrap().games, 3);
        assert_eq!(store.open_games(me, 5_000).unwrap(), OpenGames::default());
        drop(store);
        remove(&path);
    }

    #[tokio::test]
    async fn the_unlock_is_stored_with_the_winning_action_or_not_at_all() {
        let path = temp("unlock");
        let store = Sqlite::open(&path).unwrap();
        store.insert_game(&game("a"), None).unwrap();
        store.append(vec![play("a", 1, "D4")]).await.unwrap();
        let winning = |seq| Append {
            state: "over",
            result: Some("B+C".into()),
            unlock: Some(("learner1".into(), 2)),
            ..play("a", seq, "E5")
        };
        // A winning action that cannot be stored (its place in the log is
        // taken) opens nothing: the unlock is in its transaction.
        assert!(store.append(vec![winning(1)]).await.is_err());
        assert_eq!(unlocked(&store, "learner1"), 1);
        assert_eq!(store.game("a").unwrap().unwrap().state, "playing");
        // Stored, it opens the step in the same commit.
        store.append(vec![winning(2)]).await.unwrap();
        assert_eq!(unlocked(&store, "learner1"), 2);
        assert_eq!(store.game("a").unwrap().unwrap().state, "over");
        // A later win of an earlier step never closes a step.
        store.insert_game(&game("b"), None).unwrap();
        let earlier = Append {
            unlock: Some(("learner1".into(), 1)),
            ..play("b", 1, "C3")
        };
        store.append(vec![earlier]).await.unwrap();
        assert_eq!(unlocked(&store, "learner1"), 2);
        // And it survives closing and reopening the database.
        drop(store);
        let store = Sqlite::open(&path).unwrap();
        assert_eq!(unlocked(&store, "learner1"), 2);
        drop(store);
        remove(&path);
    }

    /// The tables main's schema made with `IF NOT EXISTS` before the
    /// schema had steps: step 3 finds them and keeps their rows.
    #[tokio::test]
    async fn a_database_with_chat_seats_and_lobby_but_no_steps_is_upgraded() {
        let path = temp("upgrade3");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(FIRST_SCHEMA).unwrap();
        conn.execute_batch(migrations::STEPS[2].sqlite).unwrap();
        conn.execute_batch(
            "INSERT INTO chat VALUES ('old', 1, 'black', 'Ann', 'hello', 9);
             INSERT INTO players VALUES ('old', 'black', 'Ann', 3);
             INSERT INTO lobby VALUES ('old', 4, 'white');",
        )
        .unwrap();
        drop(conn);
        let store = Sqlite::open(&path).unwrap();
        assert_eq!(store.chat("old", 10).unwrap()[0].text, "hello");
        assert_eq!(
            store.players("old").unwrap()[0].name.as_deref(),
            Some("Ann")
        );
        assert_eq!(store.listed_seat("old").unwrap().as_deref(), Some("white"));
        let seat = PlayerRow {
            game_id: "old".into(),
            color: "white".into(),
            name: None,
            joined: 5,
        };
        // The lobby's seat is taken once, and its new token with it.
        let kept = crate::seat_token::digest("t");
        assert!(store.claim_seat(&seat, "taker").unwrap());
        assert!(!store.claim_seat(&seat, "late").unwrap());
        assert_eq!(store.tokens("old").unwrap(), Some((kept, "taker".into())));
        drop(store);
        remove(&path);
    }
}
