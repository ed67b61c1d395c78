//! The listener: one connection that `LISTEN`s to what every server on the
//! database stores (`tengen_moves`: a [`Note`] in JSON, the actions
//! themselves when they fit; `tengen_chat`: a chat line; `tengen_jobs`: an
//! engine job waiting) and to who is connected where (`tengen_presence`),
//! and hands it on as [`Event`]s. PostgreSQL sends a
//! notification when its transaction commits, so an event always names
//! something stored. A lost connection is made again, and
//! [`Event::Reconnected`] says that events may have been missed meanwhile.

use super::connector::Connector;
use crate::ChatLine;
use crate::Here;
use crate::{Append, Event, StoredAction};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::time::Duration;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio_postgres::{AsyncMessage, Notification};

/// How long to wait before connecting again after a failure.
const RETRY: Duration = Duration::from_secs(1);

/// Starts listening; the task ends when the receiver is dropped.
pub(super) fn start(connector: Connector) -> UnboundedReceiver<Event> {
    let (events, heard) = mpsc::unbounded_channel();
    tokio::spawn(listen(connector, events));
    heard
}

/// Longest announcement sent with its actions (PostgreSQL's limit is 8,000
/// bytes); a longer one names the position only.
const MAX_NOTE: usize = 7_000;

/// What a server announces when it stores actions of a game: enough for
/// the others to apply them without reading the database.
#[derive(Debug, Serialize, Deserialize)]
struct Note<'a> {
    node: Cow<'a, str>,
    game: Cow<'a, str>,
    seq: u64,
    /// `(seq, at, payload)` of each action stored.
    #[serde(default)]
    actions: Vec<(u64, i64, Cow<'a, str>)>,
}

/// The announcement of `appends` (one game's, in order) stored by `node`.
pub(super) fn note(node: &str, appends: &[&Append]) -> Option<String> {
    let last = appends.last()?;
    let mut note = Note {
        node: Cow::Borrowed(node),
        game: Cow::Borrowed(&last.game_id),
        seq: last.seq,
        actions: appends
            .iter()
            .map(|a| (a.seq, a.at, Cow::Borrowed(a.payload.as_str())))
            .collect(),
    };
    let text = serde_json::to_string(&note).ok()?;
    if text.len() <= MAX_NOTE {
        return Some(text);
    }
    note.actions.clear();
    serde_json::to_string(&note).ok()
}

/// A chat line as announced: the line and the server that stored it.
#[derive(Debug, Serialize, Deserialize)]
struct ChatNote<'a> {
    node: Cow<'a, str>,
    game: Cow<'a, str>,
    seq: u64,
    seat: Cow<'a, str>,
    name: Option<Cow<'a, str>>,
    text: Cow<'a, str>,
    at: i64,
}

/// The announcement of chat line `line` stored by `node` (a line is at
/// most 500 characters: it always fits).
pub(super) fn chat_note(node: &str, line: &ChatLine) -> Option<String> {
    serde_json::to_string(&ChatNote {
        node: Cow::Borrowed(node),
        game: Cow::Borrowed(&line.game_id),
        seq: line.seq,
        seat: Cow::Borrowed(&line.seat),
        name: line.name.as_deref().map(Cow::Borrowed),
        text: Cow::Borrowed(&line.text),
        at: line.at,
    })
    .ok()
}

/// Who is connected to a game through one server, as announced.
#[derive(Debug, Serialize, Deserialize)]
struct PresenceNote<'a> {
    node: Cow<'a, str>,
    game: Cow<'a, str>,
    here: Here,
    /// How long it holds unless said again, in ms (0: not said).
    #[serde(default)]
    lease_ms: u64,
}

/// The announcement that `here` is connected to game `game` through
/// `node`, for `lease` unless said again.
pub(super) fn presence_note(node: &str, game: &str, here: Here, lease: Duration) -> Option<String> {
    serde_json::to_string(&PresenceNote {
        node: Cow::Borrowed(node),
        game: Cow::Borrowed(game),
        here,
        lease_ms: u64::try_from(lease.as_millis()).unwrap_or(u64::MAX),
    })
    .ok()
}

/// The event a notification carries, if it is one of ours.
fn event(n: &Notification) -> Option<Event> {
    match n.channel() {
        "tengen_moves" => {
            let note: Note<'_> = serde_json::from_str(n.payload()).ok()?;
            Some(Event::Moved {
                game_id: note.game.into_owned(),
                seq: note.seq,
                node: note.node.into_owned(),
                actions: note
                    .actions
                    .into_iter()
                    .map(|(seq, at, payload)| StoredAction {
                        seq,
                        at,
                        payload: payload.into_owned(),
                    })
                    .collect(),
            })
        }
        "tengen_chat" => {
            let note: ChatNote<'_> = serde_json::from_str(n.payload()).ok()?;
            Some(Event::Chat {
                node: note.node.into_owned(),
                line: ChatLine {
                    game_id: note.game.into_owned(),
                    seq: note.seq,
                    seat: note.seat.into_owned(),
                    name: note.name.map(Cow::into_owned),
                    text: note.text.into_owned(),
                    at: note.at,
                },
            })
        }
        "tengen_presence" => {
            let note: PresenceNote<'_> = serde_json::from_str(n.payload()).ok()?;
            Some(Event::Presence {
                node: note.node.into_owned(),
                game_id: note.game.into_owned(),
                here: note.here,
                lease: (note.lease_ms > 0).then(|| Duration::from_millis(note.lease_ms)),
            })
        }
        "tengen_jobs" => Some(Event::JobWaiting),
        _ => None,
    }
}

async fn listen(connector: Connector, events: UnboundedSender<Event>) {
    loop {
        match connector.open().await {
            Ok((client, mut connection)) => {
                let (heard, mut notes) = mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    loop {
                        match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                            Some(Ok(AsyncMessage::Notification(n))) => {
                                if heard.send(n).is_err() {
                                    return;
                                }
                            }
                            Some(Ok(_)) => {}
                            Some(Err(e)) => {
                                tracing::warn!("postgres listener lost: {e}");
                                return;
                            }
                            None => return,
                        }
                    }
                });
                match client
                    .batch_execute(
                        "LISTEN tengen_moves; LISTEN tengen_chat; LISTEN tengen_presence;
                         LISTEN tengen_jobs",
                    )
                    .await
                {
                    Ok(()) => {
                        if events.send(Event::Reconnected).is_err() {
                            return;
                        }
                        loop {
                            tokio::select! {
                                note = notes.recv() => match note {
                                    Some(n) => {
                                        if let Some(e) = event(&n) && events.send(e).is_err() {
                                            return;
                                        }
                                    }
                                    None => break,
                                },
                                () = events.closed() => return,
                            }
                        }
                    }
                    Err(e) => tracing::warn!("postgres listener: {e}"),
                }
                driver.abort();
            }
            Err(e) => tracing::warn!("postgres listener cannot connect: {e}"),
        }
        tokio::select! {
            () = tokio::time::sleep(RETRY) => {}
            () = events.closed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::JobChange;

    #[test]
    fn an_announcement_carries_the_actions_when_they_fit() {
        let append = |seq, payload: &str| Append {
            game_id: "g".into(),
            seq,
            kind: "play",
            payload: payload.into(),
            at: 7,
            state: "playing",
            result: None,
            job: JobChange::Keep,
            unlock: None,
        };
        let small = [
            append(4, r#"{"kind":"pass","color":"black"}"#),
            append(5, "{}"),
        ];
        let text = note("n1", &small.iter().collect::<Vec<_>>()).unwrap();
        let read: Note<'_> = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (read.node.as_ref(), read.game.as_ref(), read.seq),
            ("n1", "g", 5)
        );
        assert_eq!(read.actions.len(), 2);
        assert_eq!(read.actions[0].2, small[0].payload);
        // Too long for a notification: the position only.
        let big = [append(6, &"x".repeat(MAX_NOTE))];
        let text = note("n1", &big.iter().collect::<Vec<_>>()).unwrap();
        let read: Note<'_> = serde_json::from_str(&text).unwrap();
        assert_eq!((read.seq, read.actions.len()), (6, 0));
    }
}
