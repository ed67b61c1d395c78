//! A bounded share of tokio's blocking pool for one kind of CPU-heavy work
//! (engine moves, record reviews): at most `workers` jobs run at once, the
//! others wait in line, and the counts are visible for the health route.
//! The async worker threads never run such work, so a request that only
//! reads a game is never stuck behind it. Every pool also draws on one
//! shared budget of cores ([`Pool::new`]'s `cores`), so that all kinds
//! together leave the async workers their share of the machine.

use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// One kind of blocking work and its limit.
#[derive(Debug)]
pub struct Pool {
    permits: Semaphore,
    cores: Arc<Semaphore>,
    workers: usize,
    queued: AtomicUsize,
    running: AtomicUsize,
}

/// A pool's counts at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PoolLoad {
    /// Jobs allowed at once.
    pub workers: usize,
    /// Jobs running.
    pub running: usize,
    /// Jobs waiting for a worker.
    pub queued: usize,
}

/// Decrements a counter when dropped, so that a cancelled wait (the
/// client gone) or a finished job is always counted out.
struct Counted<'a>(&'a AtomicUsize);

impl<'a> Counted<'a> {
    fn new(counter: &'a AtomicUsize) -> Counted<'a> {
        counter.fetch_add(1, Ordering::Relaxed);
        Counted(counter)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool running at most `workers` jobs at once (at least one), each
    /// also holding one of the `cores` shared with the other pools.
    pub fn new(workers: usize, cores: Arc<Semaphore>) -> Pool {
        let workers = workers.max(1);
        Pool {
            permits: Semaphore::new(workers),
            cores,
            workers,
            queued: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
        }
    }

    /// Waits for a worker, then runs `job` on the blocking pool unless
    /// `still_wanted` says, once the worker is free, that its answer is no
    /// longer needed. `None`: not run (unwanted, or the job panicked).
    pub async fn run<T: Send + 'static>(
        &self,
        still_wanted: impl FnOnce() -> bool,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let permit = {
            let _waiting = Counted::new(&self.queued);
            // The semaphores are never closed.
            let own = self.permits.acquire().await.ok()?;
            let core = self.cores.acquire().await.ok()?;
            (own, core)
        };
        if !still_wanted() {
            return None;
        }
        let _running = Counted::new(&self.running);
        let answer = tokio::task::spawn_blocking(job).await;
        drop(permit);
        match answer {
            Ok(value) => Some(value),
            Err(e) => {
                tracing::error!("a blocking job failed: {e}");
                None
            }
        }
    }

    /// The counts now.
    pub fn load(&self) -> PoolLoad {
        PoolLoad {
            workers: self.workers,
            running: self.running.load(Ordering::Relaxed),
            queued: self.queued.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn cores(n: usize) -> Arc<Semaphore> {
        Arc::new(Semaphore::new(n))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_workers_run_and_the_rest_wait_in_line() {
        let pool = Arc::new(Pool::new(2, cores(4)));
        let (release, gate) = mpsc::channel::<()>();
        let gate = Arc::new(std::sync::Mutex::new(gate));
        let mut jobs = Vec::new();
        for i in 0..5 {
            let pool = Arc::clone(&pool);
            let gate = Arc::clone(&gate);
            jobs.push(tokio::spawn(async move {
                pool.run(
                    || true,
                    move || {
                        let _ = gate.lock().unwrap().recv();
                        i
                    },
                )
                .await
            }));
        }
        let mut load = pool.load();
        for _ in 0..200 {
            if load.running == 2 && load.queued == 3 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            load = pool.load();
        }
        assert_eq!(
            load,
            PoolLoad {
                workers: 2,
                running: 2,
                queued: 3
            }
        );
        for _ in 0..5 {
            release.send(()).unwrap();
        }
        let mut answers = Vec::new();
        for j in jobs {
            answers.push(j.await.unwrap().unwrap());
        }
        answers.sort_unstable();
        assert_eq!(answers, [0, 1, 2, 3, 4]);
        assert_eq!(pool.load().running + pool.load().queued, 0);
    }

    #[tokio::test]
    async fn an_unwanted_job_is_not_run() {
        let pool = Pool::new(1, cores(1));
        let ran = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&ran);
        let answer = pool
            .run(|| false, move || r.fetch_add(1, Ordering::Relaxed))
            .await;
        assert_eq!(answer, None);
        assert_eq!(ran.load(Ordering::Relaxed), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pools_that_share_one_core_take_turns() {
        let shared = cores(1);
        let engine = Arc::new(Pool::new(1, Arc::clone(&shared)));
        let reviews = Arc::new(Pool::new(1, shared));
        let (release, gate) = mpsc::channel::<()>();
        let first = {
            let engine = Arc::clone(&engine);
            tokio::spawn(async move { engine.run(|| true, move || gate.recv().is_ok()).await })
        };
        while engine.load().running == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let second = {
            let reviews = Arc::clone(&reviews);
            tokio::spawn(async move { reviews.run(|| true, || 7).await })
        };
        for _ in 0..20 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            // The review has its own worker free but no core: it waits.
            assert_eq!(reviews.load().running, 0);
        }
        assert_eq!(reviews.load().queued, 1);
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Some(true));
        assert_eq!(second.await.unwrap(), Some(7));
    }
}
