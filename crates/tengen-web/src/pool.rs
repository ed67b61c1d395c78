//! A bounded share of the machine for one kind of CPU-heavy work (engine
//! moves, record reviews, analyses, estimates): at most `workers` jobs run
//! at once, on the pool's own threads, the others wait in line, served in
//! turn by client ([`crate::turns`]), and the counts are visible for the
//! health route. The async worker threads never
//! run such work, so a request that only reads a game is never stuck
//! behind it; and the pool's threads run at a lowered OS priority
//! (the `priority` module), so that on a busy machine the async threads are
//! scheduled first. Every pool also draws on one shared budget of cores
//! ([`Pool::new`]'s `cores`), so that all kinds together leave the async
//! workers their share of the machine.
//!
//! A job holds its worker and its core until it ends, even when its caller
//! has stopped waiting (a client gone): the limits count the work that runs.

use crate::turns::{Client, Turns};
use serde::Serialize;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use tokio::sync::{Semaphore, oneshot};

/// One kind of blocking work and its limit.
#[derive(Debug)]
pub struct Pool {
    turns: Arc<Turns>,
    cores: Arc<Semaphore>,
    workers: usize,
    queued: Arc<AtomicUsize>,
    running: Arc<AtomicUsize>,
    threads: Threads,
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
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(counter: &Arc<AtomicUsize>) -> Counted {
        counter.fetch_add(1, Ordering::Relaxed);
        Counted(Arc::clone(counter))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A job as the pool's threads take it.
type Job = Box<dyn FnOnce() + Send>;

/// The pool's own threads, started as jobs need them (never more than the
/// pool's workers, since a job runs only with a worker's permit) and kept
/// until the pool is dropped. Not tokio's blocking pool: its threads are
/// shared with every other blocking call, at normal priority.
#[derive(Debug)]
struct Threads {
    jobs: mpsc::Sender<Job>,
    inbox: Arc<Mutex<mpsc::Receiver<Job>>>,
    /// Threads started.
    started: Mutex<usize>,
    /// Jobs handed over and not yet ended.
    busy: Arc<AtomicUsize>,
}

impl Threads {
    fn new() -> Threads {
        let (jobs, inbox) = mpsc::channel();
        Threads {
            jobs,
            inbox: Arc::new(Mutex::new(inbox)),
            started: Mutex::new(0),
            busy: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Gives `job` to a free thread, starting one if every thread is busy
    /// and fewer than `most` are started.
    fn hand_over(&self, job: Job, most: usize) -> std::io::Result<()> {
        let busy = self.busy.fetch_add(1, Ordering::Relaxed) + 1;
        let started = {
            let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
            if *started < busy.min(most) {
                let inbox = Arc::clone(&self.inbox);
                let busy = Arc::clone(&self.busy);
                match std::thread::Builder::new()
                    .name("tengen-heavy".to_string())
                    .spawn(move || serve(&inbox, &busy))
                {
                    Ok(_) => *started += 1,
                    Err(e) => tracing::warn!("starting a thread for heavy work: {e}"),
                }
            }
            *started
        };
        let sent = if started == 0 {
            Err(std::io::Error::other("no thread could be started"))
        } else {
            // The receiver lives as long as `self`.
            self.jobs
                .send(job)
                .map_err(|_| std::io::Error::other("the pool's threads are gone"))
        };
        if sent.is_err() {
            self.busy.fetch_sub(1, Ordering::Relaxed);
        }
        sent
    }
}

/// A pool thread: lowers its priority, then runs the jobs it is given
/// until the pool is dropped.
fn serve(inbox: &Mutex<mpsc::Receiver<Job>>, busy: &AtomicUsize) {
    if let Err(e) = crate::priority::lower_this_thread() {
        tracing::warn!("heavy work runs at normal priority: {e}");
    }
    loop {
        let next = inbox.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = next else {
            return;
        };
        // A job that panics has dropped its answer's sender (its caller
        // hears of it); the thread goes on with the next.
        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
        busy.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool running at most `workers` jobs at once (at least one), each
    /// also holding one of the `cores` shared with the other pools.
    pub fn new(workers: usize, cores: Arc<Semaphore>) -> Pool {
        let workers = workers.max(1);
        Pool {
            turns: Turns::new(workers),
            cores,
            workers,
            queued: Arc::new(AtomicUsize::new(0)),
            running: Arc::new(AtomicUsize::new(0)),
            threads: Threads::new(),
        }
    }

    /// Waits for a worker, in `client`'s turn, then runs `job` on one of
    /// the pool's threads unless `still_wanted` says, once the worker is
    /// free, that its answer is no longer needed. `None`: not run
    /// (unwanted, no thread, or the job panicked).
    pub async fn run<T: Send + 'static>(
        &self,
        client: Client,
        still_wanted: impl FnOnce() -> bool,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let permits = {
            let _waiting = Counted::new(&self.queued);
            let own = self.turns.take(client).await;
            // The semaphore is never closed.
            let core = Arc::clone(&self.cores).acquire_owned().await.ok()?;
            (own, core)
        };
        if !still_wanted() {
            return None;
        }
        let running = Counted::new(&self.running);
        let (answer, answered) = oneshot::channel();
        let task: Job = Box::new(move || {
            let value = job();
            // Counted out before the caller hears the answer.
            drop((permits, running));
            let _ = answer.send(value);
        });
        if let Err(e) = self.threads.hand_over(task, self.workers) {
            tracing::error!("a heavy job could not start: {e}");
            return None;
        }
        match answered.await {
            Ok(value) => Some(value),
            Err(_) => {
                tracing::error!("a heavy job failed");
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
                    None,
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
            .run(None, || false, move || r.fetch_add(1, Ordering::Relaxed))
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
            tokio::spawn(
                async move { engine.run(None, || true, move || gate.recv().is_ok()).await },
            )
        };
        while engine.load().running == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let second = {
            let reviews = Arc::clone(&reviews);
            tokio::spawn(async move { reviews.run(None, || true, || 7).await })
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

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_heavy_job_runs_at_a_lowered_priority_and_the_caller_does_not() {
        use crate::priority::{lowered, this_thread};
        let pool = Pool::new(2, cores(2));
        let outside = this_thread().unwrap();
        for _ in 0..3 {
            let inside = pool.run(None, || true, || this_thread().unwrap()).await;
            assert_eq!(inside, Some(lowered(outside)));
        }
        // A job's own threads (a search's workers) inherit it.
        let spawned = pool
            .run(
                None,
                || true,
                || {
                    std::thread::spawn(|| this_thread().unwrap())
                        .join()
                        .unwrap()
                },
            )
            .await;
        assert_eq!(spawned, Some(lowered(outside)));
        if outside < 19 {
            assert!(lowered(outside) > outside);
        }
        assert_eq!(this_thread().unwrap(), outside);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_whose_caller_left_keeps_its_worker_until_it_ends() {
        let pool = Arc::new(Pool::new(1, cores(1)));
        let (release, gate) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel::<()>();
        let caller = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(
                    None,
                    || true,
                    move || {
                        started.send(()).unwrap();
                        gate.recv().is_ok()
                    },
                )
                .await
            })
        };
        tokio::task::spawn_blocking(move || running.recv().unwrap())
            .await
            .unwrap();
        // The client is gone; the search it asked for still runs.
        caller.abort();
        assert!(caller.await.unwrap_err().is_cancelled());
        assert_eq!(pool.load().running, 1);
        let next = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move { pool.run(None, || true, || 9).await })
        };
        for _ in 0..20 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            assert_eq!(pool.load().queued, 1, "the next job waits for the worker");
        }
        release.send(()).unwrap();
        assert_eq!(next.await.unwrap(), Some(9));
        assert_eq!(pool.load().running + pool.load().queued, 0);
    }

    #[tokio::test]
    async fn a_job_that_panics_answers_none_and_the_pool_goes_on() {
        let pool = Pool::new(1, cores(1));
        let failed: Option<u8> = pool.run(None, || true, || panic!("a failing job")).await;
        assert_eq!(failed, None);
        assert_eq!(pool.run(None, || true, || 5).await, Some(5));
        assert_eq!(pool.load().running, 0);
    }
}
