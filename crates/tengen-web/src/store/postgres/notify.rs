//! The listener: one connection that `LISTEN`s to what every server on the
//! database stores (`tengen_moves`: `NODE SEQ GAME`, `tengen_jobs`: an
//! engine job waiting) and hands it on as [`Event`]s. PostgreSQL sends a
//! notification when its transaction commits, so an event always names
//! something stored. A lost connection is made again, and
//! [`Event::Reconnected`] says that events may have been missed meanwhile.

use crate::store::Event;
use std::time::Duration;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio_postgres::{AsyncMessage, Config, NoTls, Notification};

/// How long to wait before connecting again after a failure.
const RETRY: Duration = Duration::from_secs(1);

/// Starts listening; the task ends when the receiver is dropped.
pub(super) fn start(config: Config) -> UnboundedReceiver<Event> {
    let (events, heard) = mpsc::unbounded_channel();
    tokio::spawn(listen(config, events));
    heard
}

/// The event a notification carries, if it is one of ours.
fn event(n: &Notification) -> Option<Event> {
    match n.channel() {
        "tengen_moves" => {
            let mut parts = n.payload().splitn(3, ' ');
            let node = parts.next()?.to_string();
            let seq = parts.next()?.parse().ok()?;
            let game_id = parts.next()?.to_string();
            Some(Event::Moved { game_id, seq, node })
        }
        "tengen_jobs" => Some(Event::JobWaiting),
        _ => None,
    }
}

async fn listen(config: Config, events: UnboundedSender<Event>) {
    loop {
        match config.connect(NoTls).await {
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
                    .batch_execute("LISTEN tengen_moves; LISTEN tengen_jobs")
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
