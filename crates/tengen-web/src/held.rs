//! What one client holds at once (its open game sockets, its
//! connections): counted per
//! client ([`crate::client::holder`]), each place given back when its
//! [`Place`] is dropped, so that one client holding many cannot take the
//! server's connections from everyone else.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Places per client, up to a cap.
#[derive(Debug)]
pub struct Held {
    cap: usize,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One place held; given back when dropped.
#[derive(Debug)]
pub struct Place {
    holder: IpAddr,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Held {
    /// At most `cap` places per client (0: no limit).
    pub fn new(cap: usize) -> Held {
        Held {
            cap,
            counts: Arc::default(),
        }
    }

    /// The cap (0: none).
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// A place for `client`, or `None` when it holds its cap already.
    pub fn take(&self, client: IpAddr) -> Option<Place> {
        let holder = crate::client::holder(client);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(holder).or_insert(0);
        if self.cap > 0 && *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Place {
            holder,
            counts: Arc::clone(&self.counts),
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.holder) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.holder);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_up_to_its_cap_and_gets_places_back_when_dropped() {
        let held = Held::new(2);
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let b: IpAddr = "203.0.113.2".parse().unwrap();
        let first = held.take(a).unwrap();
        let second = held.take(a).unwrap();
        assert!(held.take(a).is_none());
        let other = held.take(b);
        assert!(other.is_some(), "another client is not refused");
        drop(first);
        let third = held.take(a);
        assert!(third.is_some());
        // A client that holds nothing is not kept.
        drop((second, third, other));
        assert!(held.counts.lock().unwrap().is_empty());
    }
}
