//! The review's analysis by another engine: a process that speaks
//! KataGo's JSON analysis protocol (`tengen serve --analysis-engine CMD`,
//! a club's KataGo or `tengen analysis`). One process for the server,
//! started with it so that a wrong command fails at once; its answers are
//! sorted by query id, so that every analysis worker can wait on its own
//! position at the same time. A process that dies is started again at the
//! next position.
//!
//! Left out: the wire (`tengen-gtp`'s `json_analysis`), and what is done
//! with a position's analysis (`analysis.rs`, the same for both engines).

use crate::analysis::{PositionAnalysis, position};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tengen_core::{Game, Move};
use tengen_gtp::json_analysis::{Received, query_line, read_answer};

/// The longest wait for one position's answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);

/// Where each awaited answer goes (the engine's final line, or why none
/// will come), by query id.
type Waiting = Arc<Mutex<HashMap<String, Sender<Result<Received, String>>>>>;

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    waiting: Waiting,
}

impl Process {
    /// Whether the process still runs.
    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Another engine that analyses the review's positions.
pub struct Analyst {
    /// The program and its arguments.
    command: Vec<String>,
    process: Mutex<Option<Process>>,
    next_id: AtomicU64,
}

impl std::fmt::Debug for Analyst {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyst")
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl Analyst {
    /// Starts `command_line` (a program and its arguments, quoted as a
    /// shell quotes them).
    ///
    /// # Errors
    /// A command line that does not read, or a program that cannot start.
    pub fn start(command_line: &str) -> Result<Analyst, String> {
        let command = tengen_gtp::split_command_line(command_line)
            .map_err(|e| format!("the analysis engine's command {command_line:?}: {e}"))?;
        if command.is_empty() {
            return Err("the analysis engine's command is empty".to_string());
        }
        let analyst = Analyst {
            command,
            process: Mutex::new(None),
            next_id: AtomicU64::new(1),
        };
        let started = analyst.spawn()?;
        *analyst.lock() = Some(started);
        Ok(analyst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Process>> {
        self.process.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts the process and the thread that sorts its answers.
    fn spawn(&self) -> Result<Process, String> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!(
                    "the analysis engine {:?} cannot start: {e}",
                    self.command[0]
                )
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the analysis engine has no pipes".to_string());
        };
        let waiting: Waiting = Arc::default();
        let sorted = Arc::clone(&waiting);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let received = read_answer(&line);
                let id = match &received {
                    Received::Answer(a) => Some(a.id.clone()),
                    Received::Error { id, .. } => id.clone(),
                    Received::NoResults(id) => Some(id.clone()),
                    Received::Other => None,
                };
                let waiter = id.and_then(|id| {
                    sorted
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(&id)
                });
                if let Some(w) = waiter {
                    let _ = w.send(Ok(received));
                }
            }
            // The process ended: nobody will answer the others.
            for (_, w) in sorted
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .drain()
            {
                let _ = w.send(Err("the analysis engine stopped".to_string()));
            }
        });
        Ok(Process {
            child,
            stdin,
            waiting,
        })
    }

    /// Analyses the last position of `game` (review position `number`)
    /// with `playouts` visits; blocks until the engine answers.
    ///
    /// # Errors
    /// The engine's refusal, its death, or no answer in ten minutes.
    pub fn analyse(
        &self,
        number: usize,
        game: &Game,
        playouts: u64,
    ) -> Result<PositionAnalysis, String> {
        let id = format!("review-{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let answer = self.ask(&id, game, playouts)?;
        let received = answer.recv_timeout(ANSWER_TIMEOUT).map_err(|_| {
            format!("the analysis engine did not answer position {number} in time")
        })??;
        match received {
            Received::Answer(a) => {
                let pv: Vec<Move> =
                    a.pv.iter()
                        .map_while(|t| Move::parse(t, game.size()).ok())
                        .collect();
                Ok(position(
                    number,
                    game,
                    a.winrate,
                    a.score_lead,
                    a.visits,
                    &pv,
                    &a.ownership,
                ))
            }
            Received::Error { message, .. } => Err(format!(
                "the analysis engine refused position {number}: {message}"
            )),
            Received::NoResults(_) | Received::Other => {
                Err(format!("the analysis engine dropped position {number}"))
            }
        }
    }

    /// Sends the query (starting the process again if it died) and returns
    /// where its answer will come.
    fn ask(
        &self,
        id: &str,
        game: &Game,
        playouts: u64,
    ) -> Result<Receiver<Result<Received, String>>, String> {
        let mut process = self.lock();
        if !process.as_mut().is_some_and(Process::alive) {
            *process = None;
            *process = Some(self.spawn()?);
        }
        let Some(p) = process.as_mut() else {
            return Err("the analysis engine is not running".to_string());
        };
        let (tx, rx) = channel();
        p.waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_string(), tx);
        let line = query_line(id, game, playouts.max(1));
        if let Err(e) = writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush()) {
            p.waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(id);
            return Err(format!("the analysis engine does not read: {e}"));
        }
        Ok(rx)
    }
}
