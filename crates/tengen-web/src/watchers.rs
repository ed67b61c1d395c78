//! What a game's watchers are sent, and in which order. Each message is
//! built once and its bytes shared by every connection. Two kinds are
//! snapshots, each replacing the one before: the view and who is there. A
//! newcomer (or a watcher too slow to follow) is sent fresh snapshots
//! while older ones may still wait in its queue; without care it would
//! then show an old position or a player gone until the next change.
//! So every snapshot carries a stamp, taken under the lock that guards
//! what it shows (the room, the presence), and each connection skips a
//! queued snapshot no newer than the one of its kind it has sent.
//!
//! Left out: chat lines and move names are not replaced by later ones and
//! are always forwarded (the page keeps chat lines by number, move names
//! by position).

use axum::extract::ws::Utf8Bytes;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::broadcast::{self, error::RecvError};

/// Messages a watcher may fall behind by before it is sent fresh
/// snapshots instead.
const DEPTH: usize = 64;

/// A message that a later one of its kind replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snapshot {
    /// The game's view.
    View,
    /// Who is at the game.
    Presence,
}

impl Snapshot {
    fn index(self) -> usize {
        match self {
            Snapshot::View => 0,
            Snapshot::Presence => 1,
        }
    }
}

/// One message to every watcher.
#[derive(Clone, Debug)]
struct Sent {
    text: Utf8Bytes,
    /// For a snapshot, its kind and stamp.
    snapshot: Option<(Snapshot, u64)>,
}

/// The sending side, one per live game.
#[derive(Debug)]
pub struct Watchers {
    channel: broadcast::Sender<Sent>,
    /// The last stamp given to a snapshot.
    stamps: AtomicU64,
}

impl Default for Watchers {
    fn default() -> Watchers {
        Watchers {
            channel: broadcast::channel(DEPTH).0,
            stamps: AtomicU64::new(0),
        }
    }
}

impl Watchers {
    /// A new watcher: it hears everything sent from now on.
    pub fn follow(&self) -> Follower {
        Follower {
            queue: self.channel.subscribe(),
            sent: [0; 2],
        }
    }

    /// Sends a message that no later one replaces. Nobody watching is not
    /// an error.
    pub fn send(&self, text: impl Into<Utf8Bytes>) {
        let _ = self.channel.send(Sent {
            text: text.into(),
            snapshot: None,
        });
    }

    /// Sends a snapshot of `kind`; called under the lock that guards what
    /// it shows.
    pub fn send_snapshot(&self, kind: Snapshot, text: impl Into<Utf8Bytes>) {
        let stamp = self.stamps.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = self.channel.send(Sent {
            text: text.into(),
            snapshot: Some((kind, stamp)),
        });
    }

    /// The stamp of a snapshot taken now, under the lock that guards what
    /// it shows: every snapshot of its kind already queued is no newer,
    /// every one sent later is.
    pub fn stamp(&self) -> u64 {
        self.stamps.load(Ordering::SeqCst)
    }
}

/// The receiving side, one per connection.
#[derive(Debug)]
pub struct Follower {
    queue: broadcast::Receiver<Sent>,
    /// The stamp of the newest snapshot of each kind sent.
    sent: [u64; 2],
}

impl Follower {
    /// Notes that a snapshot of `kind` stamped `stamp` was sent directly.
    pub fn took(&mut self, kind: Snapshot, stamp: u64) {
        let sent = &mut self.sent[kind.index()];
        *sent = (*sent).max(stamp);
    }

    /// The next message to forward, skipping snapshots no newer than one
    /// already sent.
    ///
    /// # Errors
    /// [`RecvError::Lagged`] when the watcher fell too far behind (fresh
    /// snapshots are due), [`RecvError::Closed`] when the game is gone.
    pub async fn next(&mut self) -> Result<Utf8Bytes, RecvError> {
        loop {
            let sent = self.queue.recv().await?;
            match sent.snapshot {
                Some((kind, stamp)) if stamp <= self.sent[kind.index()] => {}
                Some((kind, stamp)) => {
                    self.took(kind, stamp);
                    return Ok(sent.text);
                }
                None => return Ok(sent.text),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_snapshot_queued_before_a_fresher_one_was_sent_is_skipped() {
        let w = Watchers::default();
        let mut f = w.follow();
        w.send_snapshot(Snapshot::Presence, "old presence");
        w.send_snapshot(Snapshot::View, "old view");
        w.send("chat line");
        // The newcomer is sent who is there now, directly.
        f.took(Snapshot::Presence, w.stamp());
        w.send_snapshot(Snapshot::Presence, "new presence");
        assert_eq!(f.next().await.unwrap().as_str(), "old view");
        assert_eq!(f.next().await.unwrap().as_str(), "chat line");
        assert_eq!(f.next().await.unwrap().as_str(), "new presence");
    }

    #[tokio::test]
    async fn a_watcher_too_slow_is_told_it_lagged() {
        let w = Watchers::default();
        let mut f = w.follow();
        for i in 0..=DEPTH {
            w.send(format!("line {i}"));
        }
        assert!(matches!(f.next().await, Err(RecvError::Lagged(_))));
    }
}
