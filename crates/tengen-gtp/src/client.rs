//! The controller side: another engine's process, driven over its stdin
//! and stdout, for `tengen match`. A reader thread turns the engine's
//! output into lines on a channel, so every command can wait with a
//! timeout, and a crash shows as the channel closing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineStderr {
    /// To our stderr (to see an engine's complaints).
    Inherit,
    /// Nowhere (long runs with chatty engines).
    Discard,
}

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No program named.
    #[error("empty engine command line")]
    EmptyCommandLine,
    /// A quote opened and never closed.
    #[error("unbalanced quotes in the engine command line {0:?}")]
    Quoting(String),
    /// The program could not be started.
    #[error("cannot start {program:?}: {error}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// No complete answer in time.
    #[error("{engine}: no answer to {command:?} within {seconds:.1} s")]
    Timeout {
        /// The engine.
        engine: String,
        /// The command sent.
        command: String,
        /// The time allowed.
        seconds: f64,
    },
    /// No answer in time, and what the engine wrote instead is not GTP
    /// (a program that echoes its input, a shell).
    #[error(
        "{engine} does not speak GTP: no answer to {command:?} within {seconds:.1} s, it wrote {wrote:?}, which is not a GTP response (= or ?)"
    )]
    NotGtp {
        /// The engine.
        engine: String,
        /// The command sent.
        command: String,
        /// The time allowed.
        seconds: f64,
        /// The first line it wrote that is not a response.
        wrote: String,
    },
    /// The engine closed its output (exited or crashed).
    #[error("{engine} exited during {command:?}")]
    Exited {
        /// The engine.
        engine: String,
        /// The command sent.
        command: String,
    },
    /// The engine's input is closed.
    #[error("{engine}: cannot send {command:?}: {error}")]
    Write {
        /// The engine.
        engine: String,
        /// The command.
        command: String,
        /// Why.
        error: std::io::Error,
    },
    /// The engine answered with a failure (`? message`).
    #[error("{engine} refused {command:?}: {message}")]
    Refused {
        /// The engine.
        engine: String,
        /// The command.
        command: String,
        /// Its error text.
        message: String,
    },
}

/// A running engine.
#[derive(Debug)]
pub struct Client {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u32,
    /// The first line the engine wrote that is not part of a response, for
    /// the message when it never answers.
    noise: Option<String>,
}

impl Client {
    /// Starts the engine of `command_line` (split as a shell would split
    /// it: quotes and backslashes, no variables or globs).
    ///
    /// # Errors
    /// [`ClientError`] when the line is empty or the program does not start.
    pub fn spawn(command_line: &str, stderr: EngineStderr) -> Result<Client, ClientError> {
        let words = split_command_line(command_line)?;
        let (program, args) = words.split_first().ok_or(ClientError::EmptyCommandLine)?;
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                EngineStderr::Inherit => Stdio::inherit(),
                EngineStderr::Discard => Stdio::null(),
            })
            .spawn()
            .map_err(|error| ClientError::Spawn {
                program: program.clone(),
                error,
            })?;
        let spawn_error = |what: &str| ClientError::Spawn {
            program: program.clone(),
            error: std::io::Error::other(format!("no {what} pipe")),
        };
        let stdin = child.stdin.take().ok_or_else(|| spawn_error("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| spawn_error("stdout"))?;
        let (tx, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        if tx
                            .send(line.trim_end_matches(['\n', '\r']).to_string())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Client {
            name: program.clone(),
            child,
            stdin,
            lines,
            next_id: 1,
            noise: None,
        })
    }

    /// The program's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one command and waits for its answer, at most `timeout` when
    /// one is given. Returns the text of a success (lines joined by `\n`).
    ///
    /// # Errors
    /// [`ClientError::Refused`] for a `?` answer; timeouts, exits and
    /// closed pipes as their own variants.
    pub fn send(
        &mut self,
        command: &str,
        timeout: Option<Duration>,
    ) -> Result<String, ClientError> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let write_error = |error| ClientError::Write {
            engine: self.name.clone(),
            command: command.to_string(),
            error,
        };
        writeln!(self.stdin, "{id} {command}").map_err(write_error)?;
        self.stdin.flush().map_err(write_error)?;
        let deadline = timeout.map(|t| Instant::now() + t);
        self.noise = None;
        let mut answer: Option<(bool, Vec<String>)> = None;
        loop {
            let line = self.next_line(command, deadline, timeout)?;
            match &mut answer {
                None => {
                    let (ok, rest) = match line.strip_prefix('=') {
                        Some(rest) => (true, rest),
                        None => match line.strip_prefix('?') {
                            Some(rest) => (false, rest),
                            // Anything before a status line is not an
                            // answer: skipped, and kept for the message
                            // should no answer come.
                            None => {
                                if !line.trim().is_empty() {
                                    self.noise.get_or_insert(line);
                                }
                                continue;
                            }
                        },
                    };
                    let digits =
                        rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    if rest[..digits].parse::<u32>().ok().is_some_and(|n| n != id) {
                        // A late answer to an earlier command: skip it whole.
                        while !self
                            .next_line(command, deadline, timeout)?
                            .trim()
                            .is_empty()
                        {}
                        continue;
                    }
                    answer = Some((ok, vec![rest[digits..].trim().to_string()]));
                }
                Some((ok, lines)) => {
                    if line.trim().is_empty() {
                        let text = lines.join("\n");
                        return if *ok {
                            Ok(text)
                        } else {
                            Err(ClientError::Refused {
                                engine: self.name.clone(),
                                command: command.to_string(),
                                message: text,
                            })
                        };
                    }
                    lines.push(line);
                }
            }
        }
    }

    fn next_line(
        &self,
        command: &str,
        deadline: Option<Instant>,
        timeout: Option<Duration>,
    ) -> Result<String, ClientError> {
        let exited = || ClientError::Exited {
            engine: self.name.clone(),
            command: command.to_string(),
        };
        match deadline {
            None => self.lines.recv().map_err(|_| exited()),
            Some(d) => match self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now()))
            {
                Ok(line) => Ok(line),
                Err(RecvTimeoutError::Disconnected) => Err(exited()),
                Err(RecvTimeoutError::Timeout) => {
                    let engine = self.name.clone();
                    let command = command.to_string();
                    let seconds = timeout.map_or(0.0, |t| t.as_secs_f64());
                    Err(match self.noise.clone() {
                        Some(wrote) => ClientError::NotGtp {
                            engine,
                            command,
                            seconds,
                            wrote,
                        },
                        None => ClientError::Timeout {
                            engine,
                            command,
                            seconds,
                        },
                    })
                }
            },
        }
    }

    /// Sends `quit`, waits briefly for the process to end, and kills it if
    /// it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit", Some(Duration::from_secs(2)));
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    /// Never leaves a process behind.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Splits a command line as a POSIX shell splits words: spaces separate,
/// `'...'` keeps everything, `"..."` keeps everything but `\"` and `\\`,
/// a backslash outside quotes escapes the next character.
///
/// # Errors
/// [`ClientError::Quoting`] when a quote is not closed.
pub fn split_command_line(line: &str) -> Result<Vec<String>, ClientError> {
    #[derive(PartialEq)]
    enum Quote {
        None,
        Single,
        Double,
    }
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = Quote::None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match quote {
            Quote::Single => {
                if c == '\'' {
                    quote = Quote::None;
                } else {
                    word.push(c);
                }
            }
            Quote::Double => match c {
                '"' => quote = Quote::None,
                '\\' => match chars.next() {
                    Some(n @ ('"' | '\\' | '$' | '`')) => word.push(n),
                    Some(n) => {
                        word.push('\\');
                        word.push(n);
                    }
                    None => return Err(ClientError::Quoting(line.to_string())),
                },
                _ => word.push(c),
            },
            Quote::None => match c {
                '\'' => {
                    quote = Quote::Single;
                    in_word = true;
                }
                '"' => {
                    quote = Quote::Double;
                    in_word = true;
                }
                '\\' => {
                    if let Some(n) = chars.next() {
                        word.push(n);
                    }
                    in_word = true;
                }
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                c => {
                    word.push(c);
                    in_word = true;
                }
            },
        }
    }
    if quote != Quote::None {
        return Err(ClientError::Quoting(line.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command_line("/usr/games/gnugo --mode gtp  --level 1").unwrap(),
            ["/usr/games/gnugo", "--mode", "gtp", "--level", "1"]
        );
        assert_eq!(
            split_command_line(r#"'my engine' "a \"b\" c" d\ e '' x"#).unwrap(),
            ["my engine", "a \"b\" c", "d e", "", "x"]
        );
        assert!(matches!(
            split_command_line("gnugo 'open"),
            Err(ClientError::Quoting(_))
        ));
        assert!(split_command_line("   ").unwrap().is_empty());
        assert!(matches!(
            Client::spawn(" ", EngineStderr::Discard),
            Err(ClientError::EmptyCommandLine)
        ));
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let err = Client::spawn("/nonexistent/engine --gtp", EngineStderr::Discard).unwrap_err();
        assert!(matches!(err, ClientError::Spawn { .. }), "{err}");
    }

    /// A tiny GTP engine in shell: answers `name`, fails `boom`, exits on
    /// `die`, never answers `sleep`.
    const SCRIPT: &str = r#"sh -c 'while read id cmd rest; do case $cmd in name) printf "=%s fake\n\n" $id;; boom) printf "?%s no way\nat all\n\n" $id;; list) printf "=%s a\nb\n\n" $id;; die) exit 3;; sleep) ;; quit) printf "=%s\n\n" $id; exit 0;; esac; done'"#;

    #[test]
    fn answers_failures_timeouts_and_crashes() {
        let mut c = Client::spawn(SCRIPT, EngineStderr::Discard).unwrap();
        let t = Some(Duration::from_secs(5));
        assert_eq!(c.name(), "sh");
        assert_eq!(c.send("name", t).unwrap(), "fake");
        assert_eq!(c.send("list", t).unwrap(), "a\nb");
        match c.send("boom", t) {
            Err(ClientError::Refused { message, .. }) => assert_eq!(message, "no way\nat all"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            c.send("sleep", Some(Duration::from_millis(100))),
            Err(ClientError::Timeout { .. })
        ));
        assert!(matches!(c.send("die", t), Err(ClientError::Exited { .. })));
        let c = Client::spawn(SCRIPT, EngineStderr::Discard).unwrap();
        c.quit();
    }

    #[test]
    fn a_program_that_echoes_does_not_speak_gtp() {
        let mut c = Client::spawn("cat", EngineStderr::Discard).unwrap();
        match c.send("name", Some(Duration::from_millis(300))) {
            Err(e @ ClientError::NotGtp { .. }) => {
                let text = e.to_string();
                assert!(text.contains("cat does not speak GTP"), "{text}");
                assert!(text.contains("\"1 name\""), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
}
