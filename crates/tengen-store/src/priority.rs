//! The OS priority of the threads that run heavy work (engine searches,
//! reviews, analyses, estimates). Bounding that work to fewer threads than
//! cores is not enough on a small machine: the OS shares a core between a
//! search and an async thread as equals, so a move's acknowledgement waits
//! behind a slice of search. A heavy thread therefore lowers its own
//! scheduling priority (its nice value) when it starts, as servers do for
//! background work: the async threads then come first whenever they have
//! something to do, and the heavy work still takes every idle moment.
//!
//! Linux keeps a nice value per thread, and `setpriority(PRIO_PROCESS, 0,
//! ..)` changes the calling thread's alone; threads it starts later (a
//! search's workers) inherit it. Elsewhere the value is the whole
//! process's, so heavy threads keep the normal priority there.

/// Nice steps a heavy thread goes below the thread that started it: its
/// share of a core against an async thread falls to about a tenth.
#[cfg(target_os = "linux")]
const STEPS: i32 = 10;

/// The highest nice value (the lowest priority) Linux knows.
#[cfg(target_os = "linux")]
const LOWEST: i32 = 19;

/// The nice value a heavy thread takes when started by a thread of nice
/// value `from`.
#[cfg(target_os = "linux")]
pub fn lowered(from: i32) -> i32 {
    from.saturating_add(STEPS).min(LOWEST)
}

/// The calling thread's nice value.
///
/// # Errors
/// The system's, if it cannot be read.
#[cfg(target_os = "linux")]
pub fn this_thread() -> std::io::Result<i32> {
    // `None` is pid 0: on Linux, the calling thread.
    Ok(rustix::process::getpriority_process(None)?)
}

/// Lowers the calling thread's priority by ten nice steps (Linux only;
/// a no-op elsewhere).
///
/// # Errors
/// The system's, if the priority cannot be read or changed (the thread
/// then keeps its priority).
pub fn lower_this_thread() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let to = lowered(this_thread()?);
        // Raising a nice value needs no privilege.
        rustix::process::setpriority_process(None, to)?;
    }
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_thread_lowers_its_own_priority_and_no_other() {
        let before = this_thread().unwrap();
        let inside = std::thread::spawn(|| {
            lower_this_thread().unwrap();
            this_thread().unwrap()
        })
        .join()
        .unwrap();
        assert_eq!(inside, lowered(before));
        assert_eq!(this_thread().unwrap(), before, "the caller's is unchanged");
    }

    #[test]
    fn the_lowered_value_stays_within_the_range() {
        assert_eq!(lowered(0), 10);
        assert_eq!(lowered(5), 15);
        assert_eq!(lowered(15), 19);
        assert_eq!(lowered(19), 19);
        assert_eq!(lowered(-20), -10);
    }
}
