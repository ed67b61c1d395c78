//! The PostgreSQL store: one database for any number of servers. Three
//! connections per server: one for reads and small writes (pipelined, so
//! that requests under way share it), one for the writer's group commits
//! ([`writer`]), one that listens for what the other servers store
//! ([`notify`]). The schema comes from [`super::migrations`], applied under
//! an advisory lock so that servers starting together migrate once.

mod connector;
mod notify;
mod tls;
mod writer;

use super::migrations::{self, LEDGER};
use super::{Event, GameRow, LobbyRow, OpenGames, PlayerRow, StoredAction, Taken, Write, lease_ms};
use crate::ChatLine;
use crate::environment::Environment;
use crate::error::StoreError;
use crate::now::now_ms;
use crate::statement::{self, Value};
use connector::Connector;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio_postgres::{Client, Row};

/// The database's clock in ms since the epoch: every server reads leases
/// against the same clock.
macro_rules! db_now {
    () => {
        "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    };
}

/// The key of the advisory lock held while migrating.
const MIGRATION_LOCK: i64 = 0x7465_6e67_656e;

/// A PostgreSQL database.
#[derive(Debug)]
pub struct Postgres {
    reads: Link,
    writer: UnboundedSender<writer::Job>,
    events: Mutex<Option<UnboundedReceiver<Event>>>,
}

/// One connection, made again when lost.
#[derive(Debug)]
struct Link {
    connector: Connector,
    client: Mutex<Option<Arc<Client>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // What the lock guards is replaced whole: never half-changed.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Link {
    /// The connection, made again if it was lost.
    async fn get(&self) -> Result<Arc<Client>, StoreError> {
        if let Some(c) = lock(&self.client).as_ref().filter(|c| !c.is_closed()) {
            return Ok(Arc::clone(c));
        }
        let client = Arc::new(self.connector.client().await?);
        *lock(&self.client) = Some(Arc::clone(&client));
        Ok(client)
    }
}

/// The URL or connection string without its password.
pub fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let (auth, host) = match rest.split_once('@') {
            Some(parts) => parts,
            None => return url.to_string(),
        };
        return match auth.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => url.to_string(),
        };
    }
    url.split_whitespace()
        .map(|kv| match kv.split_once('=') {
            Some(("password", _)) => "password=***".to_string(),
            _ => kv.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A stored small number (sizes, steps) as PostgreSQL's INTEGER.
fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A stored INTEGER back (a negative one, which the server never
/// writes, reads as 0).
fn uint(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// A log position as PostgreSQL's BIGINT.
fn big(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn game_row(r: &Row) -> Result<GameRow, tokio_postgres::Error> {
    Ok(GameRow {
        id: r.try_get(0)?,
        rules: r.try_get(1)?,
        width: uint(r.try_get(2)?),
        height: uint(r.try_get(3)?),
        komi: r.try_get(4)?,
        handicap: uint(r.try_get(5)?),
        handicap_stones: r.try_get(6)?,
        opponent: r.try_get(7)?,
        black_token: r.try_get(8)?,
        white_token: r.try_get(9)?,
        clock: r.try_get(10)?,
        lesson: r.try_get::<_, Option<i32>>(11)?.map(uint),
        learner: r.try_get(12)?,
        created: r.try_get(13)?,
        state: r.try_get(14)?,
        result: r.try_get(15)?,
    })
}

fn player_row(r: &Row) -> Result<PlayerRow, tokio_postgres::Error> {
    Ok(PlayerRow {
        game_id: r.try_get(0)?,
        color: r.try_get(1)?,
        name: r.try_get(2)?,
        joined: r.try_get(3)?,
    })
}

fn taken(r: &Row) -> Result<Taken, tokio_postgres::Error> {
    Ok(Taken {
        game_id: r.try_get(0)?,
        seq: u64::try_from(r.try_get::<_, i64>(1)?).unwrap_or(0),
    })
}

impl Postgres {
    /// Connects to `url` (a libpq URL or connection string, TLS as its
    /// `sslmode` says; the password, if not in it, from `PGPASSWORD`),
    /// creates or upgrades the schema, gives back the jobs a previous run
    /// of `node` held, and starts the writer and the listener.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] when the database cannot be reached (or its
    /// certificate is refused) or upgraded; [`StoreError::Invalid`] for a
    /// string libpq would not read or certificate files that cannot be.
    pub async fn open(
        url: &str,
        node: &str,
        environment: &Environment,
    ) -> Result<Postgres, StoreError> {
        let connector = Connector::new(url, node, environment)?;
        let mut client = connector.client().await?;
        migrate(&mut client).await?;
        client
            .execute(
                "UPDATE engine_jobs SET owner = NULL, lease_until = 0 WHERE owner = $1",
                &[&node],
            )
            .await?;
        Ok(Postgres {
            writer: writer::start(connector.clone(), node.to_string()),
            events: Mutex::new(Some(notify::start(connector.clone()))),
            reads: Link {
                connector,
                client: Mutex::new(Some(Arc::new(client))),
            },
        })
    }

    /// See [`super::Store::announce_presence`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn announce_presence(
        &self,
        node: &str,
        lease: Duration,
        games: &[(&str, crate::Here)],
    ) -> Result<(), StoreError> {
        let notes: Vec<String> = games
            .iter()
            .filter_map(|&(game, here)| notify::presence_note(node, game, here, lease))
            .collect();
        if notes.is_empty() {
            return Ok(());
        }
        self.reads
            .get()
            .await?
            .execute(
                "SELECT pg_notify('tengen_presence', n) FROM UNNEST($1::text[]) AS n",
                &[&notes],
            )
            .await?;
        Ok(())
    }

    /// See [`super::Store::events`].
    pub fn events(&self) -> Option<UnboundedReceiver<Event>> {
        lock(&self.events).take()
    }

    /// See [`super::Store::insert_game`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn insert_game(&self, g: &GameRow, creator: Option<&str>) -> Result<(), StoreError> {
        self.reads
            .get()
            .await?
            .execute(
                "INSERT INTO games (id, rules, width, height, komi, handicap, handicap_stones,
                    opponent, black_token, white_token, clock, lesson, learner, created, state,
                    result, creator)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                    $17)",
                &[
                    &g.id,
                    &g.rules,
                    &int(g.width),
                    &int(g.height),
                    &g.komi,
                    &int(g.handicap),
                    &g.handicap_stones,
                    &g.opponent,
                    &g.black_token,
                    &g.white_token,
                    &g.clock,
                    &g.lesson.map(int),
                    &g.learner,
                    &g.created,
                    &g.state,
                    &g.result,
                    &creator,
                ],
            )
            .await?;
        Ok(())
    }

    /// See [`super::Store::open_games`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn open_games(&self, creator: &str, since: i64) -> Result<OpenGames, StoreError> {
        let row = self
            .reads
            .get()
            .await?
            .query_one(open_games!("$1", "$2"), &[&creator, &since])
            .await?;
        let count = |i: usize| -> Result<u64, tokio_postgres::Error> {
            Ok(u64::try_from(row.try_get::<_, i64>(i)?).unwrap_or(0))
        };
        Ok(OpenGames {
            games: count(0)?,
            engine: count(1)?,
            listed: count(2)?,
        })
    }

    /// See [`super::Store::game`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .reads
            .get()
            .await?
            .query_opt(
                "SELECT id, rules, width, height, komi, handicap, handicap_stones, opponent,
                    black_token, white_token, clock, lesson, learner, created, state, result
                 FROM games WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(row.as_ref().map(game_row).transpose()?)
    }

    /// See [`super::Store::actions`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn actions(&self, id: &str, after: u64) -> Result<Vec<StoredAction>, StoreError> {
        let rows = self
            .reads
            .get()
            .await?
            .query(
                "SELECT seq, payload, at FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                &[&id, &big(after)],
            )
            .await?;
        let read = |r: &Row| -> Result<StoredAction, tokio_postgres::Error> {
            Ok(StoredAction {
                seq: u64::try_from(r.try_get::<_, i64>(0)?).unwrap_or(0),
                payload: r.try_get(1)?,
                at: r.try_get(2)?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<Vec<_>, _>>()?)
    }

    /// A write through the writer task's group commit, once committed.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for a position another server stored first;
    /// [`StoreError::Postgres`] on a database failure; [`StoreError::Io`] when
    /// the writer has stopped.
    pub(super) async fn write(&self, write: Write) -> Result<(), StoreError> {
        writer::submit(&self.writer, write).await
    }

    /// See [`super::Store::claim_seat`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn claim_seat(&self, p: &PlayerRow, token: &str) -> Result<bool, StoreError> {
        // One statement: the seat and its token are stored together.
        let column = super::token_column(&p.color);
        let sql = format!(
            "WITH claimed AS (
                 INSERT INTO players (game_id, color, name, joined) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, color) DO NOTHING RETURNING game_id)
             UPDATE games SET {column} = $5 WHERE id IN (SELECT game_id FROM claimed)"
        );
        let n = self
            .reads
            .get()
            .await?
            .execute(&sql, &[&p.game_id, &p.color, &p.name, &p.joined, &token])
            .await?;
        Ok(n == 1)
    }

    /// The last `limit` chat lines of game `id`, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn chat(&self, id: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        let rows = self
            .reads
            .get()
            .await?
            .query(
                "SELECT seq, seat, name, text, at FROM chat WHERE game_id = $1
                 ORDER BY seq DESC LIMIT $2",
                &[&id, &i64::try_from(limit).unwrap_or(i64::MAX)],
            )
            .await?;
        let read = |r: &Row| -> Result<ChatLine, tokio_postgres::Error> {
            Ok(ChatLine {
                game_id: id.to_string(),
                seq: u64::try_from(r.try_get::<_, i64>(0)?).unwrap_or(0),
                seat: r.try_get(1)?,
                name: r.try_get(2)?,
                text: r.try_get(3)?,
                at: r.try_get(4)?,
            })
        };
        let mut lines = rows.iter().map(read).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// See [`super::Store::players`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn players(&self, id: &str) -> Result<Vec<PlayerRow>, StoreError> {
        let rows = self
            .reads
            .get()
            .await?
            .query(
                "SELECT game_id, color, name, joined FROM players WHERE game_id = $1",
                &[&id],
            )
            .await?;
        Ok(rows.iter().map(player_row).collect::<Result<Vec<_>, _>>()?)
    }

    /// See [`super::Store::list`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn list(&self, id: &str, at: i64, seat: &str) -> Result<(), StoreError> {
        self.reads
            .get()
            .await?
            .execute(
                "INSERT INTO lobby (game_id, listed, seat) VALUES ($1, $2, $3)
                 ON CONFLICT (game_id) DO NOTHING",
                &[&id, &at, &seat],
            )
            .await?;
        Ok(())
    }

    /// See [`super::Store::start`]: the outage and the heartbeat in one
    /// statement (both read the heartbeats as they were before it), then
    /// the outages.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn start(
        &self,
        node: &str,
        now: i64,
        grace: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let client = self.reads.get().await?;
        client
            .execute(
                "WITH outage AS (
                     INSERT INTO outages (start_ms, end_ms)
                     SELECT alive, $1::bigint FROM (SELECT max(alive) AS alive FROM heartbeats) h
                     WHERE alive IS NOT NULL AND alive < $1::bigint - $2::bigint
                     ON CONFLICT (start_ms) DO NOTHING)
                 INSERT INTO heartbeats (node, alive) VALUES ($3, $1)
                 ON CONFLICT (node) DO UPDATE SET alive = excluded.alive",
                &[&now, &grace, &node],
            )
            .await?;
        let rows = client
            .query(
                "SELECT start_ms, end_ms FROM outages ORDER BY start_ms",
                &[],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// See [`super::Store::heartbeat`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn heartbeat(&self, node: &str, now: i64) -> Result<(), StoreError> {
        self.reads
            .get()
            .await?
            .execute(HEARTBEAT_POSTGRES, &[&node, &now])
            .await?;
        Ok(())
    }

    /// See [`super::Store::tokens`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn tokens(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = self
            .reads
            .get()
            .await?
            .query_opt(
                "SELECT black_token, white_token FROM games WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(row
            .map(|r| Ok::<_, tokio_postgres::Error>((r.try_get(0)?, r.try_get(1)?)))
            .transpose()?)
    }

    /// See [`super::Store::listed_seat`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn listed_seat(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .reads
            .get()
            .await?
            .query_opt("SELECT seat FROM lobby WHERE game_id = $1", &[&id])
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// See [`super::Store::lobby`]: the games and their seats in two
    /// queries.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn lobby(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        let client = self.reads.get().await?;
        let rows = client
            .query(
                "SELECT g.id, g.rules, g.width, g.height, g.komi, g.handicap, g.handicap_stones,
                    g.opponent, g.black_token, g.white_token, g.clock, g.lesson, g.learner,
                    g.created, g.state, g.result, l.listed, l.seat
                 FROM lobby l JOIN games g ON g.id = l.game_id
                 WHERE g.state != 'over' ORDER BY l.listed DESC LIMIT $1",
                &[&i64::try_from(limit).unwrap_or(i64::MAX)],
            )
            .await?;
        let mut listed = rows
            .iter()
            .map(|r| {
                Ok(LobbyRow {
                    game: game_row(r)?,
                    listed: r.try_get(16)?,
                    seat: r.try_get(17)?,
                    players: Vec::new(),
                })
            })
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
        let ids: Vec<&str> = listed.iter().map(|l| l.game.id.as_str()).collect();
        let seats = client
            .query(
                "SELECT game_id, color, name, joined FROM players WHERE game_id = ANY($1)",
                &[&ids],
            )
            .await?;
        for r in &seats {
            let p = player_row(r)?;
            if let Some(l) = listed.iter_mut().find(|l| l.game.id == p.game_id) {
                l.players.push(p);
            }
        }
        Ok(listed)
    }

    /// Runs one statement (the small tables of [`crate::statement`]);
    /// the rows changed.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub(crate) async fn execute(&self, sql: &str, values: &[Value]) -> Result<u64, StoreError> {
        let client = self.reads.get().await?;
        let params: Vec<_> = values.iter().map(Value::as_pg).collect();
        Ok(client.execute(sql, &params).await?)
    }

    /// The rows of one query.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub(crate) async fn rows(
        &self,
        sql: &str,
        values: &[Value],
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        let client = self.reads.get().await?;
        let params: Vec<_> = values.iter().map(Value::as_pg).collect();
        let rows = client.query(sql, &params).await?;
        Ok(rows
            .iter()
            .map(statement::postgres_row)
            .collect::<Result<_, _>>()?)
    }

    /// See [`super::Store::ensure_job`]: a job made is announced to every
    /// server.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn ensure_job(&self, id: &str, seq: u64) -> Result<(), StoreError> {
        self.reads
            .get()
            .await?
            .query(
                "WITH made AS (
                    INSERT INTO engine_jobs (game_id, seq, owner, lease_until, created)
                    VALUES ($1, $2, NULL, 0, $3) ON CONFLICT (game_id) DO NOTHING
                    RETURNING 1)
                 SELECT pg_notify('tengen_jobs', '') FROM made",
                &[&id, &big(seq), &now_ms()],
            )
            .await?;
        Ok(())
    }

    /// See [`super::Store::take_job`]: `FOR UPDATE SKIP LOCKED`, so that
    /// servers taking jobs at once each get a different one.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn take_job(&self, node: &str, lease: Duration) -> Result<Option<Taken>, StoreError> {
        let client = self.reads.get().await?;
        let row = client
            .query_opt(
                concat!(
                    "WITH taken AS (UPDATE engine_jobs SET owner = $1, lease_until = ",
                    db_now!(),
                    " + $2 WHERE game_id = (",
                    next_job!(db_now!()),
                    " FOR UPDATE OF j SKIP LOCKED) RETURNING game_id, seq),
                     served AS (INSERT INTO engine_served (client, served)
                        SELECT g.creator, ",
                    db_now!(),
                    " FROM taken JOIN games g ON g.id = taken.game_id
                        WHERE g.creator IS NOT NULL
                        ON CONFLICT (client) DO UPDATE SET served = excluded.served)
                     SELECT game_id, seq FROM taken"
                ),
                &[&node, &lease_ms(lease)],
            )
            .await?;
        if row.is_some() {
            client
                .execute(
                    concat!(
                        "DELETE FROM engine_served WHERE served < ",
                        db_now!(),
                        " - $1"
                    ),
                    &[&super::SERVED_KEPT_MS],
                )
                .await?;
        }
        Ok(row.as_ref().map(taken).transpose()?)
    }

    /// See [`super::Store::renew_job`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn renew_job(
        &self,
        job: &Taken,
        node: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let n = self
            .reads
            .get()
            .await?
            .execute(
                concat!(
                    "UPDATE engine_jobs SET lease_until = ",
                    db_now!(),
                    " + $4 WHERE game_id = $1 AND seq = $2 AND owner = $3"
                ),
                &[&job.game_id, &big(job.seq), &node, &lease_ms(lease)],
            )
            .await?;
        Ok(n == 1)
    }

    /// See [`super::Store::finish_job`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn finish_job(&self, job: &Taken, retry: bool) -> Result<(), StoreError> {
        let sql = if retry {
            "WITH back AS (UPDATE engine_jobs SET owner = NULL, lease_until = 0
                WHERE game_id = $1 AND seq = $2 RETURNING 1)
             SELECT pg_notify('tengen_jobs', '') FROM back"
        } else {
            "DELETE FROM engine_jobs WHERE game_id = $1 AND seq = $2"
        };
        self.reads
            .get()
            .await?
            .execute(sql, &[&job.game_id, &big(job.seq)])
            .await?;
        Ok(())
    }

    /// See [`super::Store::jobs_waiting`].
    ///
    /// # Errors
    /// [`StoreError::Postgres`] on a database failure.
    pub async fn jobs_waiting(&self) -> Result<u64, StoreError> {
        let row = self
            .reads
            .get()
            .await?
            .query_one(
                concat!(
                    "SELECT count(*) FROM engine_jobs WHERE lease_until < ",
                    db_now!()
                ),
                &[],
            )
            .await?;
        Ok(u64::try_from(row.try_get::<_, i64>(0)?).unwrap_or(0))
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] when it does not.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.reads.get().await?.simple_query("SELECT 1").await?;
        Ok(())
    }
}

/// Brings the schema up to date in one transaction, under an advisory
/// lock: a second server starting at the same moment waits, then finds
/// nothing to do.
async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(LEDGER).await?;
    let done: Vec<u32> = tx
        .query("SELECT version FROM tengen_migrations", &[])
        .await?
        .iter()
        .map(|r| r.try_get::<_, i32>(0).map(uint))
        .collect::<Result<_, _>>()?;
    for step in migrations::missing(&done) {
        tx.batch_execute(step.postgres).await?;
        tx.execute(
            "INSERT INTO tengen_migrations (version, name, applied) VALUES ($1, $2, $3)",
            &[&int(step.version), &step.name, &now_ms()],
        )
        .await?;
        tracing::info!("database schema step {}: {}", step.version, step.name);
    }
    tx.commit().await?;
    Ok(())
}

/// Sets a server's heartbeat.
const HEARTBEAT_POSTGRES: &str = "INSERT INTO heartbeats (node, alive) VALUES ($1, $2)
     ON CONFLICT (node) DO UPDATE SET alive = excluded.alive";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_left_out_of_what_is_shown() {
        assert_eq!(
            without_password("postgres://u:p@h/db"),
            "postgres://u:***@h/db"
        );
        assert_eq!(without_password("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(
            without_password("host=h password=p dbname=d"),
            "host=h password=*** dbname=d"
        );
    }
}
