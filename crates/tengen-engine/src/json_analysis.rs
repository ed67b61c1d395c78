//! KataGo's JSON analysis engine over a byte stream (`tengen analysis`):
//! queries read as they come, each analysed turn a task in one queue,
//! highest priority first and then in the order they came, run by
//! [`JsonConfig::searches`] workers with a search each; answers written a
//! line each as they are ready, so answers of different queries
//! interleave, as KataGo's do. `terminate` stops a running turn (its answer
//! comes with the visits it has) and drops a queued one (answered
//! `noResults`). At the end of the input the queued turns still run,
//! unless [`JsonConfig::quit_without_waiting`].
//!
//! Left out: the wire itself (`tengen-gtp`'s [`json_analysis`]), and a
//! cache shared between searches (each worker keeps its own tree between
//! turns; `clear_cache` drops them).
//!
//! [`json_analysis`]: tengen_gtp::json_analysis

use crate::analyze::{report_of, restrictions};
use std::collections::{BinaryHeap, HashMap};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;
use tengen_core::{Color, Game, Move, Setup};
use tengen_gtp::args::move_text;
use tengen_gtp::json_analysis::{
    AnswerOf, Input, InputError, Perspective, Query, action_line, answer_line, error_line,
    no_results_line, read_input, warning_line,
};
use tengen_mcts::{Analysis, Limit, Request, Search, SearchConfig};

/// How the engine analyses, for the life of the process (KataGo's
/// configuration file and command line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JsonConfig {
    /// Turns analysed at once (`numAnalysisThreads`).
    pub searches: usize,
    /// How each turn is searched: its threads (`numSearchThreads`), the
    /// seed (each worker's its own), knowledge, judgement, memory (each
    /// worker's tree).
    pub search: SearchConfig,
    /// Simulations of a turn whose query names none (`maxVisits`).
    pub max_visits: u64,
    /// Time of a turn whose query names none (`maxTime`).
    pub max_time: Option<Duration>,
    /// Whose view the values take when a query does not say
    /// (`reportAnalysisWinratesAs`).
    pub perspective: Perspective,
    /// At the end of the input, stop at once rather than finish the turns
    /// queued (`-quit-without-waiting`).
    pub quit_without_waiting: bool,
}

impl Default for JsonConfig {
    fn default() -> JsonConfig {
        JsonConfig {
            searches: 1,
            // An analysis never resigns: each worker's search says so.
            search: SearchConfig {
                seed: 0,
                ..SearchConfig::default()
            },
            max_visits: 500,
            max_time: None,
            perspective: Perspective::Black,
            quit_without_waiting: false,
        }
    }
}

/// One turn of one query, waiting for a worker.
struct Task {
    priority: i64,
    /// Arrival order: among equal priorities the first comes first.
    seq: u64,
    query: Arc<Query>,
    turn: usize,
    game: Game,
}

impl PartialEq for Task {
    fn eq(&self, other: &Task) -> bool {
        (self.priority, self.seq) == (other.priority, other.seq)
    }
}

impl Eq for Task {}

impl PartialOrd for Task {
    fn partial_cmp(&self, other: &Task) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Task {
    /// The heap's greatest is the highest priority, then the earliest.
    fn cmp(&self, other: &Task) -> std::cmp::Ordering {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

/// The queue and the turns being searched, under one lock.
#[derive(Default)]
struct Queue {
    tasks: BinaryHeap<Task>,
    /// Query id, turn and stop flag of each turn being searched.
    running: Vec<(String, usize, Arc<AtomicBool>)>,
    /// No more input.
    closed: bool,
}

/// What the reader and the workers share.
struct Engine<'w> {
    queue: Mutex<Queue>,
    ready: Condvar,
    out: Mutex<&'w mut (dyn Write + Send)>,
    /// The first write that failed: nobody reads the answers any more.
    failed: Mutex<Option<io::Error>>,
    /// Raised by `clear_cache`: each worker drops its tree before its
    /// next turn.
    generation: AtomicU64,
}

impl Engine<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes one line and flushes it: a client waits for each.
    fn send(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
            failed.get_or_insert(e);
        }
    }

    fn has_failed(&self) -> bool {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }
}

/// Answers the queries of `input` on `out` until the input ends and every
/// turn queued is answered. Bad lines are answered with an error line and
/// the engine reads on.
///
/// # Errors
/// The input's read errors; the first write error, once the workers stop.
pub fn serve_json(
    config: &JsonConfig,
    input: impl BufRead,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    let engine = Engine {
        queue: Mutex::new(Queue::default()),
        ready: Condvar::new(),
        out: Mutex::new(out),
        failed: Mutex::new(None),
        generation: AtomicU64::new(0),
    };
    let read = std::thread::scope(|scope| {
        for worker in 0..config.searches.max(1) {
            let engine = &engine;
            scope.spawn(move || work(engine, config, worker as u64));
        }
        let read = read_all(&engine, input);
        let mut queue = engine.lock();
        queue.closed = true;
        if config.quit_without_waiting || engine.has_failed() {
            queue.tasks.clear();
            for (_, _, stop) in &queue.running {
                stop.store(true, Ordering::Relaxed);
            }
        }
        drop(queue);
        engine.ready.notify_all();
        read
    });
    read?;
    match engine
        .failed
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Reads lines until the input ends or nobody reads the answers.
fn read_all(engine: &Engine<'_>, input: impl BufRead) -> io::Result<()> {
    let mut seq = 0u64;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if engine.has_failed() {
            break;
        }
        match read_input(&line) {
            Err(e) => engine.send(&error_line(&e)),
            Ok(Input::Query(query)) => match positions(&query) {
                Err(e) => engine.send(&error_line(&e)),
                Ok(games) => {
                    for (field, why) in &query.unused {
                        engine.send(&warning_line(&query.id, field, why));
                    }
                    let query = Arc::new(*query);
                    let mut queue = engine.lock();
                    for (turn, game) in games {
                        seq += 1;
                        queue.tasks.push(Task {
                            priority: query.priority,
                            seq,
                            query: Arc::clone(&query),
                            turn,
                            game,
                        });
                    }
                    drop(queue);
                    engine.ready.notify_all();
                }
            },
            Ok(Input::Terminate {
                id,
                terminate_id,
                turns,
            }) => {
                terminate(engine, terminate_id.as_deref(), turns.as_deref());
                let action = if terminate_id.is_some() {
                    "terminate"
                } else {
                    "terminate_all"
                };
                let mut extra = Vec::new();
                if let Some(t) = &terminate_id {
                    extra.push(("terminateId", serde_json::json!(t)));
                }
                if let Some(t) = &turns {
                    extra.push(("turnNumbers", serde_json::json!(t)));
                }
                engine.send(&action_line(&id, action, &extra));
            }
            Ok(Input::QueryVersion { id }) => engine.send(&action_line(
                &id,
                "query_version",
                &[
                    ("version", serde_json::json!(env!("CARGO_PKG_VERSION"))),
                    // KataGo's field; tengen builds no commit into itself.
                    ("git_hash", serde_json::json!("")),
                ],
            )),
            Ok(Input::ClearCache { id }) => {
                engine.generation.fetch_add(1, Ordering::Relaxed);
                engine.send(&action_line(&id, "clear_cache", &[]));
            }
            Ok(Input::QueryModels { id }) => engine.send(&action_line(
                &id,
                "query_models",
                &[(
                    "models",
                    serde_json::json!([{
                        "name": "tengen",
                        "internalName": "patterns, policy and value networks learned from game records",
                        "maxBatchSize": 1,
                        "usesHumanSLProfile": false,
                        "version": env!("CARGO_PKG_VERSION"),
                    }]),
                )],
            )),
        }
    }
    Ok(())
}

/// Stops the turns of query `id` (every query when `None`), only `turns`
/// of it when given: queued ones are answered `noResults` now, running
/// ones answer with what they have.
fn terminate(engine: &Engine<'_>, id: Option<&str>, turns: Option<&[usize]>) {
    let hit =
        |q: &str, t: usize| id.is_none_or(|id| id == q) && turns.is_none_or(|ts| ts.contains(&t));
    let mut queue = engine.lock();
    let (dropped, kept): (Vec<Task>, Vec<Task>) = std::mem::take(&mut queue.tasks)
        .into_iter()
        .partition(|t| hit(&t.query.id, t.turn));
    queue.tasks = kept.into_iter().collect();
    for (q, t, stop) in &queue.running {
        if hit(q, *t) {
            stop.store(true, Ordering::Relaxed);
        }
    }
    drop(queue);
    let mut dropped = dropped;
    dropped.sort_by_key(|t| t.seq);
    for t in dropped {
        engine.send(&no_results_line(&t.query.id, t.turn));
    }
}

/// One worker: takes the best task until the queue is closed and empty.
fn work(engine: &Engine<'_>, config: &JsonConfig, worker: u64) {
    let mut search = Search::new(SearchConfig {
        threads: config.search.threads.max(1),
        seed: config.search.seed.wrapping_add(worker),
        // An analysis never resigns.
        resign_below: None,
        ..config.search
    });
    let mut generation = engine.generation.load(Ordering::Relaxed);
    loop {
        let mut queue = engine.lock();
        let task = loop {
            if let Some(task) = queue.tasks.pop() {
                break task;
            }
            if queue.closed {
                return;
            }
            queue = engine
                .ready
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        };
        let stop = Arc::new(AtomicBool::new(false));
        queue
            .running
            .push((task.query.id.clone(), task.turn, Arc::clone(&stop)));
        drop(queue);
        let now = engine.generation.load(Ordering::Relaxed);
        if now != generation {
            search.clear();
            generation = now;
        }
        analyse(engine, config, &mut search, &task, &stop);
        let mut queue = engine.lock();
        queue.running.retain(|(_, _, s)| !Arc::ptr_eq(s, &stop));
    }
}

/// Searches one turn, answering during the search when asked and at its
/// end.
fn analyse(
    engine: &Engine<'_>,
    config: &JsonConfig,
    search: &mut Search,
    task: &Task,
    stop: &AtomicBool,
) {
    let q = &task.query;
    // Visits count the tree kept from the turn before, as KataGo's do.
    let limit = Limit {
        visits: Some(q.max_visits.unwrap_or(config.max_visits)),
        time: q.max_time.or(config.max_time),
        ..Limit::default()
    };
    let restrictions = restrictions(&q.clauses);
    let answer = |a: &Analysis, during_search: bool| {
        let policy = q.policy.then(|| policy_of(&task.game, a));
        let of = AnswerOf {
            query: q,
            turn: task.turn,
            to_move: a.to_move,
            during_search,
            perspective: config.perspective,
            policy: policy.as_deref(),
        };
        answer_line(&of, &report_of(a, None))
    };
    let mut during = |a: &Analysis| {
        if !a.candidates.is_empty() {
            engine.send(&answer(a, true));
        }
    };
    let request = Request {
        restrictions: &restrictions,
        stop: Some(stop),
        report: q
            .report_every
            .map(|every| (every, &mut during as &mut dyn FnMut(&Analysis))),
        moves_ownership: q.moves_ownership || q.moves_ownership_stdev,
        ..Request::new(limit)
    };
    let last = search.analyze(&task.game, request);
    engine.send(&answer(&last, false));
}

/// KataGo's policy array: one value per point in the order of
/// `size.points()`, then the pass; -1 where the move is illegal.
fn policy_of(game: &Game, a: &Analysis) -> Vec<f32> {
    let size = game.size();
    let priors: HashMap<Move, f64> = a.policy.iter().copied().collect();
    let value = |mv: Move| {
        if game.is_legal(mv) {
            priors.get(&mv).copied().unwrap_or(0.0) as f32
        } else {
            -1.0
        }
    };
    size.points()
        .map(|p| value(Move::Play(p)))
        .chain(std::iter::once(value(Move::Pass)))
        .collect()
}

/// The games at the turns a query analyses, every move checked: an
/// illegal move refuses the whole query, naming the move and the rule.
fn positions(q: &Query) -> Result<Vec<(usize, Game)>, InputError> {
    let fault = |field: &str, message: String| InputError {
        id: Some(q.id.clone()),
        field: Some(field.to_string()),
        message,
    };
    let stones = |c: Color| -> Vec<_> {
        q.initial_stones
            .iter()
            .filter(|(s, _)| *s == c)
            .map(|(_, p)| *p)
            .collect()
    };
    let setup = Setup {
        size: q.size,
        black: stones(Color::Black),
        white: stones(Color::White),
        to_move: q
            .initial_player
            .or_else(|| q.moves.first().map(|(c, _)| *c))
            .unwrap_or(Color::Black),
        handicap: 0,
    };
    let mut game = Game::from_setup(q.rules, &setup)
        .map_err(|e| fault("initialStones", format!("initialStones: {e}")))?;
    if let Some(komi) = q.komi {
        game.set_komi(komi);
    }
    let mut out = Vec::new();
    let mut wanted: Vec<usize> = q.analyze_turns.clone();
    wanted.sort_unstable();
    wanted.dedup();
    for turn in 0..=q.moves.len() {
        if wanted.binary_search(&turn).is_ok() {
            out.push((turn, game.clone()));
        }
        let Some(&(color, mv)) = q.moves.get(turn) else {
            break;
        };
        game.play_as(color, mv).map_err(|e| {
            let who = if color == Color::Black { "B" } else { "W" };
            fault(
                "moves",
                format!(
                    "Illegal move {}: {who} {} ({})",
                    turn + 1,
                    move_text(mv, q.size),
                    e.reason
                ),
            )
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(config: &JsonConfig, input: &str) -> Vec<serde_json::Value> {
        let mut out: Vec<u8> = Vec::new();
        serve_json(config, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn higher_priority_runs_first_and_illegal_moves_are_named() {
        let config = JsonConfig {
            max_visits: 30,
            ..JsonConfig::default()
        };
        // One worker: the queue decides the order of the answers.
        let input = r#"{"id":"low","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["B","E5"]],"analyzeTurns":[0,1],"priority":-1}
{"id":"bad","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["B","E5"],["W","E5"]]}
{"id":"high","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[],"priority":5}
"#;
        let lines = run(&config, input);
        let error = lines.iter().find(|l| l["id"] == "bad").unwrap();
        assert_eq!(error["field"], "moves");
        let message = error["error"].as_str().unwrap();
        assert!(message.starts_with("Illegal move 2: W E5"), "{message}");
        let order: Vec<(String, u64)> = lines
            .iter()
            .filter(|l| l.get("moveInfos").is_some())
            .map(|l| {
                (
                    l["id"].as_str().unwrap().to_string(),
                    l["turnNumber"].as_u64().unwrap(),
                )
            })
            .collect();
        // The first "low" turn may have started before "high" came.
        assert_eq!(order.len(), 3);
        let high = order.iter().position(|(id, _)| id == "high").unwrap();
        let low1 = order
            .iter()
            .position(|(id, t)| id == "low" && *t == 1)
            .unwrap();
        assert!(high < low1, "{order:?}");
    }
}
