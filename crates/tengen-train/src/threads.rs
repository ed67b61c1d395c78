//! Searching many records at once, on plain threads, one per core, rather
//! than on rayon's pool: a search's own threads hand the networks' batches
//! to that pool and wait for them, which deadlocks when every thread of the
//! pool is itself waiting on a search.
//!
//! Left out: work stealing within a record (one record is one job).

use std::sync::atomic::{AtomicUsize, Ordering};

/// `work` on each of `items`, in their order, each thread with its own
/// `init()` (a predictor, a search).
pub fn map_on_threads<T: Sync, W, R: Send>(
    items: &[T],
    init: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.min(items.len().max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut state = init();
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, work(&mut state, item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_worked_once_and_comes_back_in_order() {
        let items: Vec<u32> = (0..100).collect();
        let inits = AtomicUsize::new(0);
        let out = map_on_threads(
            &items,
            || inits.fetch_add(1, Ordering::Relaxed),
            |_, &x| x * 2,
        );
        assert_eq!(out, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert!(inits.load(Ordering::Relaxed) >= 1);
        assert!(map_on_threads(&[] as &[u32], || (), |_, &x| x).is_empty());
    }
}
