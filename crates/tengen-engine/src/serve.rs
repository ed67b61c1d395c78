//! The GTP loop over a byte stream (stdin in the binary). A reader thread
//! forwards every input line and raises a stop flag, so a streaming
//! analysis ends as soon as the next line arrives, which is then executed.

use crate::session::{Control, Session};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::channel;
use std::thread;
use tengen_gtp::Command;

/// What the reader thread tells the loop.
#[derive(Debug, Default)]
struct Input {
    /// Lines read so far (counted before each is sent).
    read: AtomicU64,
    /// The input has ended.
    ended: AtomicBool,
    /// Raised by every new line and by the end: stops an analysis.
    stop: AtomicBool,
}

/// Serves GTP on `input` and `output` until `quit` or the end of input.
///
/// # Errors
/// The output's errors.
pub fn serve(
    session: &mut Session,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> io::Result<()> {
    let (tx, rx) = channel::<Vec<u8>>();
    let state = Arc::new(Input::default());
    let reader = Arc::clone(&state);
    thread::spawn(move || {
        let mut input = input;
        loop {
            let mut line = Vec::new();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Count and raise before sending: once the loop has
                    // taken this line, nothing of it may raise the flag.
                    reader.read.fetch_add(1, SeqCst);
                    reader.stop.store(true, SeqCst);
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
        reader.ended.store(true, SeqCst);
        reader.stop.store(true, SeqCst);
    });
    let mut taken = 0u64;
    while let Ok(line) = rx.recv() {
        taken += 1;
        // Lower the flag, then raise it again if more input is already
        // there: a line arriving in between raises it after this store.
        state.stop.store(false, SeqCst);
        if state.read.load(SeqCst) > taken || state.ended.load(SeqCst) {
            state.stop.store(true, SeqCst);
        }
        let Some(cmd) = Command::parse_bytes(&line) else {
            continue;
        };
        tracing::debug!("gtp < {}", cmd.text());
        if session.execute(&cmd, output, &state.stop)? == Control::Quit {
            break;
        }
    }
    Ok(())
}
