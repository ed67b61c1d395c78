//! The engine's workers: an engine move (or dead-stone proposal) is a job
//! in the database, made in the transaction of the action that gave the
//! engine its turn. Each server runs `engine_workers` workers (none on a
//! web-only server); a free worker takes the oldest job nobody holds, for
//! a lease it renews while it thinks. A server that dies stops renewing:
//! when the lease runs out another server's worker takes the job. The
//! answer is stored like a player's move, so a position already answered
//! elsewhere is refused by the database, never played twice.

use crate::date::now_ms;
use crate::engine;
use crate::error::WebError;
use crate::hub::Hub;
use crate::store::{StoreError, Taken};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Longest wait between looks for a job whose lease ran out (a job made
/// wakes the workers at once).
const POLL: Duration = Duration::from_secs(1);

impl Hub {
    /// Runs this server's engine workers for ever.
    pub async fn engine_workers(self: Arc<Hub>) {
        let workers = (0..self.limits().engine_workers).map(|_| Arc::clone(&self).work());
        futures_util::future::join_all(workers).await;
    }

    async fn work(self: Arc<Hub>) {
        let lease = self.limits().engine_lease;
        let poll = POLL.min(lease / 2).max(Duration::from_millis(10));
        loop {
            match self.store().take_job(self.node(), lease).await {
                Ok(Some(job)) => {
                    // Another job may wait: another free worker looks.
                    self.job_made.notify_one();
                    if let Err(e) = self.answer(&job).await {
                        tracing::error!("engine move in {}: {e}", job.game_id);
                        if let Err(e) = self.store().finish_job(&job, true).await {
                            tracing::error!("giving back the job of {}: {e}", job.game_id);
                        }
                    }
                }
                Ok(None) => {
                    tokio::select! {
                        () = self.job_made.notified() => {}
                        () = tokio::time::sleep(poll) => {}
                    }
                }
                Err(e) => {
                    tracing::warn!("looking for engine jobs: {e}");
                    tokio::time::sleep(poll).await;
                }
            }
        }
    }

    /// Thinks about a job taken and stores the answer, unless the position
    /// changed meanwhile or the lease was lost.
    async fn answer(self: &Arc<Hub>, job: &Taken) -> Result<(), WebError> {
        let slot = match self.slot(&job.game_id).await {
            Err(WebError::NoGame(_)) => return Ok(self.store().finish_job(job, false).await?),
            other => other?,
        };
        self.catch_up(&slot, None, Vec::new()).await?;
        let (work, stop) = {
            let room = slot.room.lock().await;
            match room.engine_job() {
                Some(work) if room.seq() == job.seq => (work, slot.search_flag()),
                // The position it served is gone: nothing to answer.
                _ => {
                    drop(room);
                    return Ok(self.store().finish_job(job, false).await?);
                }
            }
        };
        let keep = {
            let hub = Arc::clone(self);
            let job = job.clone();
            let stop = Arc::clone(&stop);
            let lease = self.limits().engine_lease;
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(lease / 3).await;
                    match hub.store().renew_job(&job, hub.node(), lease).await {
                        Ok(true) => {}
                        // Done, changed, or another server's now.
                        Ok(false) => break stop.store(true, Ordering::Relaxed),
                        Err(e) => tracing::warn!("renewing the engine's lease: {e}"),
                    }
                }
            })
        };
        let seed = self.seed.fetch_add(1, Ordering::Relaxed);
        let running = Arc::clone(&stop);
        let decided = self
            .engine
            .run(
                // The database took turns between clients already.
                None,
                || !stop.load(Ordering::Relaxed),
                move || engine::decide(work, seed, &running),
            )
            .await;
        keep.abort();
        let stopped = stop.load(Ordering::Relaxed);
        let actions = match decided {
            Some(actions) if !stopped => actions,
            // Stopped early: its answer serves a position gone.
            _ if stopped => return Ok(()),
            _ => return Err(WebError::Io(std::io::Error::other("the engine failed"))),
        };
        let mut room = slot.room.lock().await;
        if room.seq() != job.seq {
            return Ok(());
        }
        match self.commit(&slot, &mut room, &actions, now_ms()).await {
            Ok(()) => {
                self.publish(&slot, &room);
                self.follow_up(&slot, &room);
                Ok(())
            }
            // Answered by another server (this one's lease had run out).
            Err(WebError::Store(StoreError::Conflict)) => Ok(()),
            Err(e) => Err(e),
        }
    }
}
