//! Turns between clients for one kind of heavy work: a pool's places are
//! handed out round-robin by client ([`crate::client::holder`]) rather than
//! first come, first served, so that a client who queued many jobs delays
//! another's first job by one of its jobs at most, not by its whole queue.
//! Within one client, jobs keep their order.
//!
//! Jobs with no client (the server's own) share one turn, as one client.
//! The engine's moves are not served here: they wait in the database, which
//! takes turns between clients itself (`Store::take_job`).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// Whose turn a job waits for.
pub type Client = Option<IpAddr>;

/// A number of places, given in turn to the clients waiting.
#[derive(Debug)]
pub struct Turns {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Places nobody holds.
    free: usize,
    /// Each waiting client's callers, oldest first.
    waiting: HashMap<Client, VecDeque<oneshot::Sender<()>>>,
    /// The clients waiting, the next to be served first.
    order: VecDeque<Client>,
}

/// A place held; given to the next client in turn when dropped.
#[derive(Debug)]
pub struct Place {
    turns: Arc<Turns>,
}

/// A caller waiting for a place: if it goes away once given one (its
/// client gone), the place is handed on rather than lost.
struct Waiting {
    answer: oneshot::Receiver<()>,
    turns: Arc<Turns>,
}

impl Turns {
    /// `places` places (at least one).
    pub fn new(places: usize) -> Arc<Turns> {
        Arc::new(Turns {
            state: Mutex::new(State {
                free: places.max(1),
                ..State::default()
            }),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a job of `client`, once it is its turn.
    pub async fn take(self: &Arc<Turns>, client: Client) -> Place {
        let client = client.map(crate::client::holder);
        let answer = {
            let mut state = self.state();
            if state.free > 0 && state.order.is_empty() {
                state.free -= 1;
                return Place {
                    turns: Arc::clone(self),
                };
            }
            let (given, answer) = oneshot::channel();
            let queue = state.waiting.entry(client).or_default();
            queue.push_back(given);
            if queue.len() == 1 {
                state.order.push_back(client);
            }
            answer
        };
        let mut waiting = Waiting {
            answer,
            turns: Arc::clone(self),
        };
        // The sender is dropped only after sending: a place is given.
        let _ = (&mut waiting.answer).await;
        // Taken: the guard must not hand it on.
        waiting.answer = oneshot::channel().1;
        Place {
            turns: Arc::clone(self),
        }
    }

    /// Gives a place back: to the next client in turn, or to the free ones.
    fn give_back(&self) {
        let mut state = self.state();
        while let Some(client) = state.order.pop_front() {
            let Some(queue) = state.waiting.get_mut(&client) else {
                continue;
            };
            let next = queue.pop_front();
            if queue.is_empty() {
                state.waiting.remove(&client);
            } else {
                // Its next job waits for the others' turns.
                state.order.push_back(client);
            }
            // A caller gone before its turn is skipped.
            if next.is_some_and(|given| given.send(()).is_ok()) {
                return;
            }
        }
        state.free += 1;
    }

    /// Callers waiting for a place.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.state().waiting.values().map(VecDeque::len).sum()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.turns.give_back();
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.answer.close();
        // Given a place, then gone before taking it: it goes on.
        if self.answer.try_recv().is_ok() {
            self.turns.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(last: u8) -> Client {
        Some(IpAddr::from([192, 0, 2, last]))
    }

    /// Starts a caller that takes a place for `client` and reports
    /// `label` once it has it, holding it until the test lets go.
    fn caller(
        turns: &Arc<Turns>,
        client: Client,
        label: &'static str,
        served: &tokio::sync::mpsc::UnboundedSender<(&'static str, Place)>,
    ) -> tokio::task::JoinHandle<()> {
        let turns = Arc::clone(turns);
        let served = served.clone();
        tokio::spawn(async move {
            let place = turns.take(client).await;
            let _ = served.send((label, place));
        })
    }

    async fn settle(turns: &Turns, waiting: usize) {
        for _ in 0..200 {
            if turns.waiting() == waiting {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("{} waiting, not {waiting}", turns.waiting());
    }

    #[tokio::test]
    async fn clients_take_turns_and_each_keeps_its_own_order() {
        let turns = Turns::new(1);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let first = turns.take(ip(1)).await;
        // One client queues four jobs, then another one.
        for label in ["a1", "a2", "a3", "a4"] {
            caller(&turns, ip(1), label, &tx);
            settle(&turns, label[1..].parse().unwrap()).await;
        }
        caller(&turns, ip(2), "b1", &tx);
        settle(&turns, 5).await;
        drop(first);
        let mut order = Vec::new();
        while order.len() < 5 {
            let (label, place) = rx.recv().await.unwrap();
            order.push(label);
            drop(place);
        }
        assert_eq!(order, ["a1", "b1", "a2", "a3", "a4"]);
    }

    #[tokio::test]
    async fn a_caller_gone_before_its_turn_loses_no_place() {
        let turns = Turns::new(1);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let first = turns.take(ip(1)).await;
        let gone = caller(&turns, ip(2), "gone", &tx);
        settle(&turns, 1).await;
        caller(&turns, ip(3), "next", &tx);
        settle(&turns, 2).await;
        gone.abort();
        let _ = gone.await;
        drop(first);
        let (label, place) = rx.recv().await.unwrap();
        assert_eq!(label, "next");
        drop(place);
        // Every place is free again.
        let _a = turns.take(ip(4)).await;
        assert_eq!(turns.state().free, 0);
    }

    #[tokio::test]
    async fn the_addresses_of_one_ipv6_64_take_one_turn() {
        let turns = Turns::new(1);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let v6 = |text: &str| Some(text.parse::<IpAddr>().unwrap());
        let first = turns.take(ip(1)).await;
        caller(&turns, v6("2001:db8::1"), "x", &tx);
        settle(&turns, 1).await;
        caller(&turns, v6("2001:db8::2"), "y", &tx);
        settle(&turns, 2).await;
        caller(&turns, v6("2001:db8:1::1"), "z", &tx);
        settle(&turns, 3).await;
        drop(first);
        let mut order = Vec::new();
        while order.len() < 3 {
            let (label, place) = rx.recv().await.unwrap();
            order.push(label);
            drop(place);
        }
        // x and y are one client: z's turn comes between them.
        assert_eq!(order, ["x", "z", "y"]);
    }

    #[tokio::test]
    async fn places_are_taken_at_once_while_some_are_free() {
        let turns = Turns::new(2);
        let a = turns.take(ip(1)).await;
        let b = turns.take(ip(1)).await;
        assert_eq!(turns.state().free, 0);
        drop((a, b));
        assert_eq!(turns.state().free, 2);
    }
}
