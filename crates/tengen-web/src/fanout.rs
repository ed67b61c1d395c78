//! Several servers on one database: what the others store reaches this
//! one's watchers. Each server keeps its own copy of the games it has
//! loaded; when the database announces that a game's log grew (PostgreSQL
//! `NOTIFY`, sent at commit), the copy reads the actions past its position
//! and its watchers see the new view at once; a game loaded reads once
//! more, when held, what was stored while it was read. Chat lines come the
//! same way, in the order of their unique (game, position) key, and each
//! server says who is connected through it ([`crate::presence::Here`]),
//! again every period so that what a server killed outright said runs out.
//! On SQLite there is one server and nothing to hear.

use crate::chat::ChatLine;
use crate::error::WebError;
use crate::hub::{Hub, Slot, send_presence};
use crate::presence::Here;
use crate::store::{Event, StoredAction};
use std::sync::Arc;
use std::time::{Duration, Instant};

impl Hub {
    /// Follows what other servers store, until the store stops announcing
    /// it (at once on SQLite).
    pub async fn follow_others(self: Arc<Hub>) {
        let Some(events) = self.store().events() else {
            return;
        };
        tokio::select! {
            () = Arc::clone(&self).hear(events) => {}
            () = self.renew_presence() => {}
        }
    }

    /// Says again, every [`crate::Limits::presence_period`], who is
    /// connected through this server to the games it holds connections to
    /// (one round trip for all), and forgets what other servers said and
    /// have not said again within the lease they gave: a server killed
    /// outright says nothing more, and its players are shown gone.
    async fn renew_presence(&self) {
        let period = self.limits().presence_period.max(Duration::from_millis(10));
        let lease = self.limits().presence_lease();
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let slots: Vec<Arc<Slot>> = self.rooms().values().cloned().collect();
            let now = Instant::now();
            let mut held = Vec::new();
            for slot in &slots {
                let mut presence = slot.presence.lock().await;
                if presence.forget_unheard(now) {
                    send_presence(slot, &presence);
                }
                let here = presence.here();
                if here != Here::default() {
                    held.push((slot.id.as_str(), here));
                }
            }
            tracing::debug!(games = held.len(), "saying again who is connected here");
            if let Err(e) = self
                .store()
                .announce_presence(self.node(), lease, &held)
                .await
            {
                tracing::warn!("saying again who is connected here: {e}");
            }
        }
    }

    /// Takes in what the other servers announce.
    async fn hear(self: Arc<Hub>, mut events: tokio::sync::mpsc::UnboundedReceiver<Event>) {
        while let Some(event) = events.recv().await {
            match event {
                Event::Moved {
                    game_id,
                    seq,
                    node,
                    actions,
                } => {
                    if node == self.node() {
                        continue;
                    }
                    // A game not held has nothing to change: it is read
                    // whole when loaded, and read again once held
                    // (`catch_up_loaded`) if it was being loaded.
                    let slot = self.rooms().get(&game_id).cloned();
                    if let Some(slot) = slot {
                        self.spawn_catch_up(slot, Some(seq), actions);
                    }
                }
                Event::Chat { node, line } => {
                    let slot = self.rooms().get(&line.game_id).cloned();
                    if let Some(slot) = slot.filter(|_| node != self.node()) {
                        self.spawn_chat(slot, Some(line));
                    }
                }
                Event::Presence {
                    node,
                    game_id,
                    here,
                    lease,
                } => {
                    tracing::debug!(%node, %game_id, ?here, ?lease, "heard who is connected");
                    let slot = self.rooms().get(&game_id).cloned();
                    if let Some(slot) = slot.filter(|_| node != self.node()) {
                        // At most a day: a server's word, not for ever.
                        let lease = lease
                            .unwrap_or_else(|| self.limits().presence_lease())
                            .min(Duration::from_secs(86_400));
                        self.spawn_presence(slot, node, here, Instant::now() + lease);
                    }
                }
                Event::JobWaiting => self.job_made.notify_one(),
                Event::Reconnected => {
                    // Announcements may have been missed: every game
                    // loaded reads what it lacks.
                    let slots: Vec<Arc<Slot>> = self.rooms().values().cloned().collect();
                    for slot in slots {
                        self.spawn_catch_up(Arc::clone(&slot), None, Vec::new());
                        self.spawn_chat(slot, None);
                    }
                    self.job_made.notify_one();
                }
            }
        }
    }

    fn spawn_catch_up(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        seq: Option<u64>,
        heard: Vec<StoredAction>,
    ) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            if let Err(e) = hub.catch_up(&slot, seq, heard).await {
                tracing::warn!("reading what another server stored: {e}");
            }
        });
    }

    /// Shows a chat line another server stored: at once when it follows
    /// the lines shown, else (a line missed, or none given) after reading
    /// those past the last shown.
    fn spawn_chat(self: &Arc<Hub>, slot: Arc<Slot>, line: Option<ChatLine>) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let mut chat = slot.chat.lock().await;
            let next = chat.last_seq() + 1;
            match line {
                Some(l) if l.seq < next => {}
                Some(l) if l.seq == next => {
                    slot.watchers.send(crate::protocol::chat([&l]));
                    chat.stored(l);
                }
                _ => {
                    if let Err(e) = hub.read_chat(&slot, &mut chat).await {
                        tracing::warn!("reading the chat another server stored: {e}");
                    }
                }
            }
        });
    }

    /// Takes in who is connected to a game through server `node` (and the
    /// seats it may have stored), shows it, and answers a server that asks.
    /// A server saying again what it said only keeps its word alive:
    /// nothing to read or show.
    /// `until`: when its word runs out unless said again.
    fn spawn_presence(self: &Arc<Hub>, slot: Arc<Slot>, node: String, here: Here, until: Instant) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            if slot.presence.lock().await.renewed(&node, here, until) {
                return;
            }
            let players = hub.store().players(&slot.id).await;
            let mut presence = slot.presence.lock().await;
            match players {
                Ok(rows) => presence.merge_stored(&rows),
                Err(e) => tracing::warn!("reading the seats of {}: {e}", slot.id),
            }
            presence.heard(&node, here, until);
            if here.ask {
                hub.tell_presence(&slot, &presence).await;
            } else {
                send_presence(&slot, &presence);
            }
        });
    }

    /// Reads what other servers stored in a game just loaded, now held,
    /// since the actions it was loaded from were read: their announcements
    /// came before the game was in [`Hub::rooms`] and found nothing to
    /// change. (Later ones find it there.) On SQLite nobody else stores.
    pub(crate) async fn catch_up_loaded(self: &Arc<Hub>, slot: &Arc<Slot>) {
        if !self.store().shared() {
            return;
        }
        if let Err(e) = self.catch_up(slot, None, Vec::new()).await {
            tracing::warn!("reading what was stored as {} was loaded: {e}", slot.id);
        }
    }

    /// Brings a loaded game up to what is stored (to position `seq` at
    /// least, if given: nothing to read when it is there already), and
    /// shows its watchers the change. `heard`: actions announced, applied
    /// without reading the database when they follow the room's position.
    ///
    /// # Errors
    /// A storage error when the database cannot be read.
    pub(crate) async fn catch_up(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        seq: Option<u64>,
        heard: Vec<StoredAction>,
    ) -> Result<(), WebError> {
        let mut room = slot.room.lock().await;
        if seq.is_some_and(|s| room.seq() >= s) {
            return Ok(());
        }
        let follows = heard.first().is_some_and(|a| a.seq <= room.seq() + 1)
            && heard.last().map(|a| a.seq) == seq;
        let actions = if follows {
            heard
        } else {
            let id = room.settings().id.clone();
            self.store().actions(&id, room.seq()).await?
        };
        if actions.is_empty() {
            return Ok(());
        }
        if room.catch_up(&actions).is_err() {
            // Half applied: the whole log says what the game is.
            return self.reload(slot, &mut room).await;
        }
        slot.position_changed();
        self.publish(slot, &room);
        self.follow_up(slot, &room);
        Ok(())
    }
}
