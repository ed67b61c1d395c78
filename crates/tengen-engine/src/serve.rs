//! The GTP loop over a byte stream (stdin in the binary). A reader thread
//! reads ahead while a command runs: every new line raises the signal that
//! ends a streaming analysis, and `quit` or the end of input arriving
//! during a command raises the one that ends its search, so that a
//! `genmove` under a long clock answers at once and the session exits. Lines are read with a bound
//! ([`MAX_LINE_BYTES`]) and only a few wait in the queue, so memory stays
//! bounded whatever the input.

use crate::session::{Control, Session, Signals};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::mpsc::sync_channel;
use std::thread;
use tengen_gtp::{Command, GtpError, Line, MAX_LINE_BYTES, Response, read_line};

/// Lines read ahead of the one running, at most.
const QUEUED_LINES: usize = 16;

/// What the reader thread tells the loop.
#[derive(Debug, Default)]
struct Input {
    /// Lines read so far (counted before each is sent).
    read: AtomicU64,
    /// The input has ended.
    ended: AtomicBool,
    /// The signals of the running command.
    signals: Signals,
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
    let (tx, rx) = sync_channel::<Line>(QUEUED_LINES);
    let state = Arc::new(Input::default());
    let reader = Arc::clone(&state);
    thread::spawn(move || {
        let mut input = input;
        loop {
            let line = match read_line(&mut input, MAX_LINE_BYTES) {
                Ok(Line::End) | Err(_) => break,
                Ok(line) => line,
            };
            if let Line::Complete(bytes) = &line
                && Command::parse_bytes(bytes).is_some_and(|c| c.name == "quit")
            {
                reader.signals.quit.store(true, SeqCst);
            }
            // Count and raise before sending: once the loop has taken
            // this line, nothing of it may raise the flag.
            reader.read.fetch_add(1, SeqCst);
            reader.signals.next_line.store(true, SeqCst);
            if tx.send(line).is_err() {
                break;
            }
        }
        reader.ended.store(true, SeqCst);
        reader.signals.quit.store(true, SeqCst);
        reader.signals.next_line.store(true, SeqCst);
    });
    let mut taken = 0u64;
    while let Ok(line) = rx.recv() {
        taken += 1;
        // Lower the flag, then raise it again if more input is already
        // there: a line arriving in between raises it after this store.
        let next_line = &state.signals.next_line;
        next_line.store(false, SeqCst);
        if state.read.load(SeqCst) > taken || state.ended.load(SeqCst) {
            next_line.store(true, SeqCst);
        }
        // `quit` and the end of input stop the search running when they
        // arrive; one read earlier, as in a script piped in whole, lets the
        // commands before it run in full.
        state.signals.quit.store(false, SeqCst);
        let bytes = match line {
            Line::Complete(bytes) => bytes,
            Line::TooLong(start) => {
                let id = Command::parse_bytes(&start).and_then(|c| c.id);
                tracing::debug!("gtp < a line over {MAX_LINE_BYTES} bytes");
                write!(output, "{}", Response::failure(id, GtpError::LineTooLong))?;
                output.flush()?;
                continue;
            }
            Line::End => break,
        };
        let Some(cmd) = Command::parse_bytes(&bytes) else {
            continue;
        };
        tracing::debug!("gtp < {}", cmd.text());
        if session.execute(&cmd, output, &state.signals)? == Control::Quit {
            break;
        }
    }
    Ok(())
}
