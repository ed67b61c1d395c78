//! The writer: one connection and one task that store actions in group
//! commits. Every action waiting when a transaction starts goes into it,
//! as a handful of array statements sent at once (pipelined), so a commit
//! costs about three round trips and one WAL flush however many games it
//! carries. The transaction also announces each game's new position and
//! any engine job to every server (`NOTIFY`, delivered at commit).

use super::notify::note;
use super::{big, connect};
use crate::error::WebError;
use crate::store::{Append, JobChange, last_per_game};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, Statement};

/// Actions of one game waiting for the writer, and who waits for them.
#[derive(Debug)]
pub(super) struct Job {
    appends: Vec<Append>,
    done: oneshot::Sender<Result<(), WebError>>,
}

/// The writer's connection and its statements, prepared once.
struct Writer {
    client: Client,
    insert: Statement,
    update: Statement,
    open: Statement,
    close: Statement,
    notify: Statement,
}

/// Starts the writer task; it ends when the sender is dropped.
pub(super) fn start(config: Config, node: String) -> UnboundedSender<Job> {
    let (jobs, queue) = mpsc::unbounded_channel();
    tokio::spawn(run(config, node, queue));
    jobs
}

/// Hands actions to the writer and waits until they are committed.
pub(super) async fn submit(
    jobs: &UnboundedSender<Job>,
    appends: Vec<Append>,
) -> Result<(), WebError> {
    let stopped = || WebError::Io(std::io::Error::other("the database writer has stopped"));
    let (done, answer) = oneshot::channel();
    jobs.send(Job { appends, done }).map_err(|_| stopped())?;
    answer.await.map_err(|_| stopped())?
}

async fn prepare(config: &Config) -> Result<Writer, WebError> {
    let client = connect(config).await?;
    let insert = client
        .prepare(
            "INSERT INTO moves (game_id, seq, kind, payload, at)
             SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])",
        )
        .await?;
    let update = client
        .prepare(
            "UPDATE games SET state = u.state, result = u.result
             FROM UNNEST($1::text[], $2::text[], $3::text[]) AS u(id, state, result)
             WHERE games.id = u.id",
        )
        .await?;
    let open = client
        .prepare(
            "WITH opened AS (
                INSERT INTO engine_jobs (game_id, seq, owner, lease_until, created)
                SELECT g, s, NULL, 0, c FROM UNNEST($1::text[], $2::bigint[], $3::bigint[])
                    AS u(g, s, c)
                ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, owner = NULL,
                    lease_until = 0, created = excluded.created
                RETURNING 1)
             SELECT pg_notify('tengen_jobs', '') FROM opened",
        )
        .await?;
    let close = client
        .prepare("DELETE FROM engine_jobs WHERE game_id = ANY($1::text[])")
        .await?;
    let notify = client
        .prepare("SELECT pg_notify('tengen_moves', n) FROM UNNEST($1::text[]) AS n")
        .await?;
    Ok(Writer {
        client,
        insert,
        update,
        open,
        close,
        notify,
    })
}

/// Takes every job waiting, stores them in one transaction and answers
/// each once it is committed. When that transaction fails, each job is
/// stored alone, so that one refused job (a position another server
/// stored first) refuses no other. A lost connection is made again.
async fn run(config: Config, node: String, mut queue: UnboundedReceiver<Job>) {
    let mut writer: Option<Writer> = None;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while let Ok(job) = queue.try_recv() {
            batch.push(job);
        }
        if writer.as_ref().is_none_or(|w| w.client.is_closed()) {
            match prepare(&config).await {
                Ok(w) => writer = Some(w),
                Err(e) => {
                    tracing::error!("the database writer cannot connect: {e}");
                    for job in batch {
                        let _ = job
                            .done
                            .send(Err(WebError::Io(std::io::Error::other(format!(
                                "the database cannot be reached: {e}"
                            )))));
                    }
                    continue;
                }
            }
        }
        let Some(w) = writer.as_mut() else { continue };
        if write(w, &node, batch.iter().flat_map(|j| &j.appends))
            .await
            .is_ok()
        {
            for job in batch {
                // The requester may have gone: nothing to tell.
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in batch {
                let _ = job.done.send(write(w, &node, &job.appends).await);
            }
        }
    }
}

type Pending<'a> = Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + Send + 'a>>;

/// Stores actions, their games' new states and engine jobs, and announces
/// them, in one transaction.
async fn write<'a>(
    w: &mut Writer,
    node: &str,
    appends: impl IntoIterator<Item = &'a Append>,
) -> Result<(), WebError> {
    let appends: Vec<&Append> = appends.into_iter().collect();
    let ids: Vec<&str> = appends.iter().map(|a| a.game_id.as_str()).collect();
    let seqs: Vec<i64> = appends.iter().map(|a| big(a.seq)).collect();
    let kinds: Vec<&str> = appends.iter().map(|a| a.kind).collect();
    let payloads: Vec<&str> = appends.iter().map(|a| a.payload.as_str()).collect();
    let ats: Vec<i64> = appends.iter().map(|a| a.at).collect();
    let last = last_per_game(appends.iter().copied());
    let games: Vec<&str> = last.iter().map(|a| a.game_id.as_str()).collect();
    let states: Vec<&str> = last.iter().map(|a| a.state).collect();
    let results: Vec<Option<&str>> = last.iter().map(|a| a.result.as_deref()).collect();
    let opened: Vec<&&Append> = last.iter().filter(|a| a.job == JobChange::Open).collect();
    let open_ids: Vec<&str> = opened.iter().map(|a| a.game_id.as_str()).collect();
    let open_seqs: Vec<i64> = opened.iter().map(|a| big(a.seq)).collect();
    let open_ats: Vec<i64> = opened.iter().map(|a| a.at).collect();
    let closed: Vec<&str> = last
        .iter()
        .filter(|a| a.job == JobChange::Close)
        .map(|a| a.game_id.as_str())
        .collect();
    let mut by_game: HashMap<&str, Vec<&Append>> = HashMap::new();
    for a in &appends {
        by_game.entry(a.game_id.as_str()).or_default().push(a);
    }
    let notes: Vec<String> = games
        .iter()
        .filter_map(|g| by_game.get(g).and_then(|a| note(node, a)))
        .collect();
    let tx = w.client.transaction().await?;
    // Sent together: the server runs them in order, each answer comes back
    // as it is ready.
    let moved: [&(dyn ToSql + Sync); 5] = [&ids, &seqs, &kinds, &payloads, &ats];
    let rows: [&(dyn ToSql + Sync); 3] = [&games, &states, &results];
    let notes: [&(dyn ToSql + Sync); 1] = [&notes];
    let opened: [&(dyn ToSql + Sync); 3] = [&open_ids, &open_seqs, &open_ats];
    let closed_ids: [&(dyn ToSql + Sync); 1] = [&closed];
    let mut statements: Vec<Pending<'_>> = vec![
        Box::pin(tx.execute(&w.insert, &moved)),
        Box::pin(tx.execute(&w.update, &rows)),
        Box::pin(tx.execute(&w.notify, &notes)),
    ];
    if !open_ids.is_empty() {
        statements.push(Box::pin(tx.execute(&w.open, &opened)));
    }
    if !closed.is_empty() {
        statements.push(Box::pin(tx.execute(&w.close, &closed_ids)));
    }
    futures_util::future::try_join_all(statements)
        .await
        .map_err(conflict)?;
    tx.commit().await?;
    Ok(())
}

/// A position already stored is a [`WebError::Conflict`].
fn conflict(e: tokio_postgres::Error) -> WebError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        WebError::Conflict
    } else {
        WebError::Postgres(e)
    }
}
