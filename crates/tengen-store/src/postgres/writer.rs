//! The writer: one connection and one task that store actions in group
//! commits. Every action waiting when a transaction starts goes into it,
//! as a handful of array statements sent at once (pipelined), so a commit
//! costs about three round trips and one WAL flush however many games it
//! carries. Chat lines, seats and the learning-path steps that winning
//! actions open go in the same transactions. The transaction also
//! announces each game's new position, each chat line and any engine job
//! to every server (`NOTIFY`, delivered at commit).

use super::connector::Connector;
use super::notify::{chat_note, note};
use super::{big, int};
use crate::error::StoreError;
use crate::{Append, Batch, JobChange, PlayerRow, Write, last_per_game};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Statement};

/// One write waiting for the writer, and who waits for it.
#[derive(Debug)]
pub(super) struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The writer's connection and its statements, prepared once.
struct Writer {
    client: Client,
    insert: Statement,
    update: Statement,
    open: Statement,
    close: Statement,
    unlock: Statement,
    say: Statement,
    seat: Statement,
    notify: Statement,
}

/// Starts the writer task; it ends when the sender is dropped.
pub(super) fn start(connector: Connector, node: String) -> UnboundedSender<Job> {
    let (jobs, queue) = mpsc::unbounded_channel();
    tokio::spawn(run(connector, node, queue));
    jobs
}

/// Hands a write to the writer and waits until it is committed.
pub(super) async fn submit(jobs: &UnboundedSender<Job>, write: Write) -> Result<(), StoreError> {
    let stopped = || StoreError::Io(std::io::Error::other("the database writer has stopped"));
    let (done, answer) = oneshot::channel();
    jobs.send(Job { write, done }).map_err(|_| stopped())?;
    answer.await.map_err(|_| stopped())?
}

async fn prepare(connector: &Connector) -> Result<Writer, StoreError> {
    let client = connector.client().await?;
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
    let unlock = client
        .prepare(
            "INSERT INTO learners (id, unlocked)
             SELECT * FROM UNNEST($1::text[], $2::int[])
             ON CONFLICT (id) DO UPDATE
             SET unlocked = GREATEST(learners.unlocked, excluded.unlocked)",
        )
        .await?;
    let say = client
        .prepare(
            "INSERT INTO chat (game_id, seq, seat, name, text, at)
             SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[],
                $6::bigint[])",
        )
        .await?;
    let seat = client
        .prepare(
            "INSERT INTO players (game_id, color, name, joined)
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[])
             ON CONFLICT (game_id, color) DO UPDATE
             SET name = COALESCE(excluded.name, players.name)",
        )
        .await?;
    let notify = client
        .prepare("SELECT pg_notify(c, n) FROM UNNEST($1::text[], $2::text[]) AS u(c, n)")
        .await?;
    Ok(Writer {
        client,
        insert,
        update,
        open,
        close,
        unlock,
        say,
        seat,
        notify,
    })
}

/// Takes every job waiting, stores them in one transaction and answers
/// each once it is committed. When that transaction fails, each job is
/// stored alone, so that one refused job (a position another server
/// stored first) refuses no other. A lost connection is made again.
async fn run(connector: Connector, node: String, mut queue: UnboundedReceiver<Job>) {
    let mut writer: Option<Writer> = None;
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while let Ok(job) = queue.try_recv() {
            batch.push(job);
        }
        if writer.as_ref().is_none_or(|w| w.client.is_closed()) {
            match prepare(&connector).await {
                Ok(w) => writer = Some(w),
                Err(e) => {
                    tracing::error!("the database writer cannot connect: {e}");
                    for job in batch {
                        let _ = job
                            .done
                            .send(Err(StoreError::Io(std::io::Error::other(format!(
                                "the database cannot be reached: {e}"
                            )))));
                    }
                    continue;
                }
            }
        }
        let Some(w) = writer.as_mut() else { continue };
        if write(w, &node, Batch::of(batch.iter().map(|j| &j.write)))
            .await
            .is_ok()
        {
            for job in batch {
                // The requester may have gone: nothing to tell.
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in batch {
                let _ = job
                    .done
                    .send(write(w, &node, Batch::of([&job.write])).await);
            }
        }
    }
}

type Pending<'a> = Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + Send + 'a>>;

/// Stores writes (actions with their games' new states, engine jobs and
/// the steps they open; chat lines; seats) and announces them, in one
/// transaction.
async fn write(w: &mut Writer, node: &str, batch: Batch<'_>) -> Result<(), StoreError> {
    let Batch {
        appends,
        lines,
        players,
    } = batch;
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
    let mut channels: Vec<&str> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for text in games
        .iter()
        .filter_map(|g| by_game.get(g).and_then(|a| note(node, a)))
    {
        channels.push("tengen_moves");
        texts.push(text);
    }
    for text in lines.iter().filter_map(|l| chat_note(node, l)) {
        channels.push("tengen_chat");
        texts.push(text);
    }
    let (learners, steps) = unlocks(&appends);
    let said_games: Vec<&str> = lines.iter().map(|l| l.game_id.as_str()).collect();
    let said_seats: Vec<&str> = lines.iter().map(|l| l.seat.as_str()).collect();
    let said_texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let said_seqs: Vec<i64> = lines.iter().map(|l| big(l.seq)).collect();
    let said_names: Vec<Option<&str>> = lines.iter().map(|l| l.name.as_deref()).collect();
    let said_ats: Vec<i64> = lines.iter().map(|l| l.at).collect();
    let seats = merged_seats(&players);
    let seat_games: Vec<&str> = seats.iter().map(|p| p.game_id.as_str()).collect();
    let seat_colors: Vec<&str> = seats.iter().map(|p| p.color.as_str()).collect();
    let seat_names: Vec<Option<&str>> = seats.iter().map(|p| p.name.as_deref()).collect();
    let seat_joined: Vec<i64> = seats.iter().map(|p| p.joined).collect();
    let tx = w.client.transaction().await?;
    // Sent together: the server runs them in order, each answer comes back
    // as it is ready.
    let moved: [&(dyn ToSql + Sync); 5] = [&ids, &seqs, &kinds, &payloads, &ats];
    let rows: [&(dyn ToSql + Sync); 3] = [&games, &states, &results];
    let notes: [&(dyn ToSql + Sync); 2] = [&channels, &texts];
    let unlocked: [&(dyn ToSql + Sync); 2] = [&learners, &steps];
    let chat: [&(dyn ToSql + Sync); 6] = [
        &said_games,
        &said_seqs,
        &said_seats,
        &said_names,
        &said_texts,
        &said_ats,
    ];
    let seated: [&(dyn ToSql + Sync); 4] = [&seat_games, &seat_colors, &seat_names, &seat_joined];
    let opened: [&(dyn ToSql + Sync); 3] = [&open_ids, &open_seqs, &open_ats];
    let closed_ids: [&(dyn ToSql + Sync); 1] = [&closed];
    let mut statements: Vec<Pending<'_>> = Vec::new();
    if !appends.is_empty() {
        statements.push(Box::pin(tx.execute(&w.insert, &moved)));
        statements.push(Box::pin(tx.execute(&w.update, &rows)));
    }
    if !learners.is_empty() {
        statements.push(Box::pin(tx.execute(&w.unlock, &unlocked)));
    }
    if !lines.is_empty() {
        statements.push(Box::pin(tx.execute(&w.say, &chat)));
    }
    if !seats.is_empty() {
        statements.push(Box::pin(tx.execute(&w.seat, &seated)));
    }
    if !texts.is_empty() {
        statements.push(Box::pin(tx.execute(&w.notify, &notes)));
    }
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

/// The steps a batch opens, one per learner (the highest): one statement
/// may not change a row twice.
fn unlocks(appends: &[&Append]) -> (Vec<String>, Vec<i32>) {
    let mut best: HashMap<&str, u32> = HashMap::new();
    for (learner, step) in appends.iter().filter_map(|a| a.unlock.as_ref()) {
        let e = best.entry(learner.as_str()).or_insert(*step);
        *e = (*e).max(*step);
    }
    best.into_iter()
        .map(|(l, s)| (l.to_string(), int(s)))
        .unzip()
}

/// The seats of a batch, one row per seat (its first time, its last name
/// given): one statement may not change a row twice.
fn merged_seats(players: &[&PlayerRow]) -> Vec<PlayerRow> {
    let mut seats: Vec<PlayerRow> = Vec::new();
    for p in players {
        match seats
            .iter_mut()
            .find(|s| s.game_id == p.game_id && s.color == p.color)
        {
            Some(s) => {
                if p.name.is_some() {
                    s.name.clone_from(&p.name);
                }
            }
            None => seats.push((*p).clone()),
        }
    }
    seats
}

/// A position already stored is a [`StoreError::Conflict`].
fn conflict(e: tokio_postgres::Error) -> StoreError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict
    } else {
        StoreError::Postgres(e)
    }
}
