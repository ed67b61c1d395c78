//! The live games: created, loaded from the database on demand (their
//! actions replayed), changed by players, the engine and the clocks, and
//! broadcast to everyone watching. An action is stored before anyone hears
//! of it.

use crate::action::Action;
use crate::engine;
use crate::error::WebError;
use crate::learn;
use crate::names;
use crate::protocol::{self, Request, Seat};
use crate::room::{EngineJob, Room};
use crate::settings::{NewGame, Settings};
use crate::store::{Append, Store};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

/// Views queued per watcher before a slow one is sent a fresh view instead.
const BROADCAST_DEPTH: usize = 64;

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `words` x 64 random bits as hex, from the standard library's hash keys
/// (seeded by the operating system for each `RandomState`): seat tokens and
/// ids that cannot be guessed.
pub fn random_hex(words: usize) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    (0..words)
        .map(|_| {
            let mut h = RandomState::new().build_hasher();
            h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
            h.write_i64(now_ms());
            format!("{:016x}", h.finish())
        })
        .collect()
}

/// A game created: its id and the creator's seat.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The creator's secret seat token.
    pub token: String,
    /// `black`, `white` or `both`.
    pub seat: &'static str,
    /// The friend's seat token, for the invitation link.
    pub invite: Option<String>,
}

/// A live game and the channel of its views.
#[derive(Debug)]
pub struct Slot {
    /// The game.
    pub room: tokio::sync::Mutex<Room>,
    /// Views (JSON) broadcast to every watcher: one text built per change,
    /// its bytes shared by every receiver.
    pub views: broadcast::Sender<Utf8Bytes>,
}

/// Every live game. See the module docs.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    rooms: Mutex<HashMap<String, Arc<Slot>>>,
    seed: AtomicU64,
    /// One lexicon reading at a time: under load, names of positions
    /// already played over are skipped rather than queued.
    naming: tokio::sync::Semaphore,
}

impl Hub {
    /// The hub over the database at `db`.
    ///
    /// # Errors
    /// [`WebError::Storage`] when the database cannot be opened.
    pub fn open(db: &Path) -> Result<Arc<Hub>, WebError> {
        Ok(Arc::new(Hub {
            store: Store::open(db)?,
            rooms: Mutex::new(HashMap::new()),
            seed: AtomicU64::new(u64::from_str_radix(&random_hex(1), 16).unwrap_or(1)),
            naming: tokio::sync::Semaphore::new(1),
        }))
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every game not over and restarts its engine and clock.
    /// Returns how many were loaded.
    ///
    /// # Errors
    /// [`WebError`] when the database cannot be read.
    pub async fn resume(self: &Arc<Hub>) -> Result<usize, WebError> {
        let ids = self.store.unfinished()?;
        for id in &ids {
            let slot = self.slot(id)?;
            let room = slot.room.lock().await;
            self.follow_up(&slot, &room);
        }
        Ok(ids.len())
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The live game `id`, rebuilt from the database if needed.
    ///
    /// # Errors
    /// [`WebError::NoGame`] for an unknown id; [`WebError`] when the stored
    /// game cannot be replayed.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, WebError> {
        if let Some(s) = self.rooms().get(id) {
            return Ok(Arc::clone(s));
        }
        let row = self
            .store
            .game(id)?
            .ok_or_else(|| WebError::NoGame(id.to_string()))?;
        let actions = self.store.actions(id)?;
        let room = Room::replay(Settings::from_row(&row)?, &actions)?;
        let slot = Arc::new(Slot {
            room: tokio::sync::Mutex::new(room),
            views: broadcast::channel(BROADCAST_DEPTH).0,
        });
        Ok(Arc::clone(
            self.rooms().entry(id.to_string()).or_insert(slot),
        ))
    }

    /// Creates a game from the new-game form.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for settings the rules refuse, a learning step
    /// not yet open, or a bad time control.
    pub fn create(self: &Arc<Hub>, form: NewGame) -> Result<Created, WebError> {
        let form = match form.lesson {
            Some(step) => self.lesson_form(step, form.learner)?,
            None => form,
        };
        let token = random_hex(2);
        let seating = form.opponent.seating(token.clone(), random_hex(2));
        let settings = Settings::from_form(form, random_hex(1), seating.tokens, now_ms())?;
        let row = settings.to_row()?;
        let room = Room::create(settings)?;
        self.store.insert_game(&row)?;
        let slot = Arc::new(Slot {
            room: tokio::sync::Mutex::new(room),
            views: broadcast::channel(BROADCAST_DEPTH).0,
        });
        self.rooms().insert(row.id.clone(), Arc::clone(&slot));
        if let Ok(room) = slot.room.try_lock() {
            self.follow_up(&slot, &room);
        }
        Ok(Created {
            id: row.id,
            token,
            seat: seating.creator.name(),
            invite: seating.invite,
        })
    }

    /// The form of learning step `step` for `learner`.
    ///
    /// # Errors
    /// [`WebError::Invalid`] for an unknown step, a missing learner or a
    /// step not yet open to him.
    fn lesson_form(&self, step: u32, learner: Option<String>) -> Result<NewGame, WebError> {
        let lesson = learn::lesson(step)
            .ok_or_else(|| WebError::invalid("lesson", format!("no learning step {step}")))?;
        let learner = learner
            .filter(|s| !s.is_empty() && s.len() <= 64)
            .ok_or_else(|| WebError::invalid("learner", "a learning step needs a learner"))?;
        let open = self.store.unlocked(&learner)?;
        if step > open {
            return Err(WebError::invalid(
                "lesson",
                format!("step {step} opens when step {} is won", step - 1),
            ));
        }
        Ok(NewGame::lesson(lesson, learner))
    }

    /// Carries out a player's request.
    ///
    /// # Errors
    /// [`WebError`] naming why it was refused (a rule, the turn, the seat).
    pub async fn request(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        seat: Seat,
        request: &Request,
    ) -> Result<(), WebError> {
        let mut room = slot.room.lock().await;
        let now = now_ms();
        if let Some(c) = room.flag_fallen(now) {
            self.commit(&mut room, &[Action::Timeout { color: c }], now)
                .await?;
            self.publish(slot, &room);
            return Err(WebError::Illegal(tengen_core::IllegalMove::GameOver));
        }
        let actions = room.resolve(seat, request)?;
        self.commit(&mut room, &actions, now).await?;
        self.publish(slot, &room);
        self.follow_up(slot, &room);
        Ok(())
    }

    /// Applies actions in order and stores those applied, in one
    /// transaction, before returning. A storage failure rebuilds the room
    /// from the database, so the room never holds what is not stored; the
    /// room lock is held throughout, so no one sees an action before it is
    /// stored.
    async fn commit(&self, room: &mut Room, actions: &[Action], at: i64) -> Result<(), WebError> {
        let mut appends = Vec::with_capacity(actions.len());
        let mut refused = None;
        for action in actions {
            if let Err(e) = room.apply(action, at) {
                // Those applied before it are stored, as if played alone.
                refused = Some(e);
                break;
            }
            appends.push(Append {
                game_id: room.settings().id.clone(),
                seq: room.seq() + appends.len() as u64 + 1,
                kind: action.kind(),
                payload: action.payload()?,
                at,
                state: room.state(),
                result: room.game().outcome().map(|o| o.to_sgf()),
            });
        }
        let Some(last) = appends.last().map(|a| a.seq) else {
            return refused.map_or(Ok(()), Err);
        };
        if let Err(e) = self.store.append(appends).await {
            let settings = room.settings().clone();
            let actions = self.store.actions(&settings.id)?;
            *room = Room::replay(settings, &actions)?;
            return Err(e);
        }
        room.stored(last);
        if let Some((learner, step)) = room.lesson_won() {
            self.store.unlock(learner, step + 1)?;
        }
        refused.map_or(Ok(()), Err)
    }

    fn publish(self: &Arc<Hub>, slot: &Arc<Slot>, room: &Room) {
        match serde_json::to_string(&room.view(now_ms())) {
            Ok(text) => {
                // No watcher is not an error.
                let _ = slot.views.send(Utf8Bytes::from(text));
            }
            Err(e) => tracing::error!("view of {}: {e}", room.settings().id),
        }
        if !room.game().turns().is_empty() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let seq = room.seq();
            tokio::spawn(async move { hub.publish_names(slot, seq).await });
        }
    }

    /// Sends the names of the last move of position `seq`, unless the game
    /// has moved on by the time the lexicon is free.
    async fn publish_names(self: Arc<Hub>, slot: Arc<Slot>, seq: u64) {
        let Ok(_permit) = self.naming.acquire().await else {
            return;
        };
        let game = {
            let room = slot.room.lock().await;
            if room.seq() != seq {
                return;
            }
            room.game().clone()
        };
        let Ok(names) = tokio::task::spawn_blocking(move || names::last_move(&game)).await else {
            return;
        };
        let _ = slot
            .views
            .send(Utf8Bytes::from(protocol::names(seq, &names)));
    }

    /// The names of the game's last move, as a `names` message.
    pub async fn names_message(&self, slot: &Slot) -> String {
        let (game, seq) = {
            let room = slot.room.lock().await;
            (room.game().clone(), room.seq())
        };
        let names = tokio::task::spawn_blocking(move || names::last_move(&game))
            .await
            .unwrap_or_default();
        protocol::names(seq, &names)
    }

    /// Starts what the new state calls for: the engine's move or dead-stone
    /// proposal, and the watch on the running clock.
    fn follow_up(self: &Arc<Hub>, slot: &Arc<Slot>, room: &Room) {
        if let Some(job) = room.engine_job() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let seed = self.seed.fetch_add(1, Ordering::Relaxed);
            tokio::spawn(async move { hub.run_engine(slot, job, seed).await });
        }
        if let Some(deadline) = room.flag_deadline() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let seq = room.seq();
            tokio::spawn(async move {
                let wait = u64::try_from(deadline - now_ms()).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let mut room = slot.room.lock().await;
                let now = now_ms();
                if room.seq() == seq
                    && let Some(c) = room.flag_fallen(now)
                {
                    match hub
                        .commit(&mut room, &[Action::Timeout { color: c }], now)
                        .await
                    {
                        Ok(()) => hub.publish(&slot, &room),
                        Err(e) => tracing::error!("timeout in {}: {e}", room.settings().id),
                    }
                }
            });
        }
    }

    async fn run_engine(self: Arc<Hub>, slot: Arc<Slot>, job: EngineJob, seed: u64) {
        let seq = match &job {
            EngineJob::Move { seq, .. } | EngineJob::Dead { seq, .. } => *seq,
        };
        let decided = tokio::task::spawn_blocking(move || engine::decide(job, seed)).await;
        let actions = match decided {
            Ok(actions) => actions,
            Err(e) => {
                tracing::error!("engine: {e}");
                return;
            }
        };
        let mut room = slot.room.lock().await;
        if room.seq() != seq {
            // The game moved on (an undo, a resignation): the answer is stale.
            return;
        }
        let now = now_ms();
        match self.commit(&mut room, &actions, now).await {
            Ok(()) => {
                self.publish(&slot, &room);
                self.follow_up(&slot, &room);
            }
            Err(e) => tracing::error!("engine move in {}: {e}", room.settings().id),
        }
    }
}
