//! What one client may do per minute: an allowance that refills with
//! time (a token bucket), kept per client, so that a greedy or hostile
//! client is slowed to the rate of a person and others are not. One
//! client's allowance is its address ([`crate::client::holder`]: an IPv6
//! host holds its whole /64); the logins' allowance is kept per member
//! name as well, so that guesses at one password spread over many
//! addresses are slowed too.
//!
//! Memory stays bounded: past ten thousand clients kept, the allowances that
//! have refilled whole are forgotten (a full one says nothing), and if
//! that is not enough the oldest go.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Clients whose allowance is kept before the full ones are forgotten.
const MAX_CLIENTS: usize = 10_000;

/// An allowance of so many actions a minute for each holder: a client's
/// address, or another key.
#[derive(Debug)]
pub struct Allowance<K = IpAddr> {
    per_minute: u32,
    /// Each holder's actions left (fractional, refilling) and when that
    /// was counted.
    left: Mutex<HashMap<K, (f64, Instant)>>,
}

impl Allowance<IpAddr> {
    /// Takes one action of `client`'s allowance at `now`.
    ///
    /// # Errors
    /// How long until one is left again.
    pub fn take(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        self.take_for(crate::client::holder(client), now)
    }
}

impl<K: Eq + Hash> Allowance<K> {
    /// `per_minute` actions a minute, as many at once at most; 0: no limit.
    pub fn per_minute(per_minute: u32) -> Allowance<K> {
        Allowance {
            per_minute,
            left: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one action of `key`'s allowance at `now`.
    ///
    /// # Errors
    /// How long until one is left again.
    pub fn take_for(&self, key: K, now: Instant) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let full = f64::from(self.per_minute);
        let per_second = full / 60.0;
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        if left.len() >= MAX_CLIENTS {
            forget(&mut left, full, per_second, now);
        }
        let (tokens, at) = left.entry(key).or_insert((full, now));
        let refilled =
            (*tokens + now.saturating_duration_since(*at).as_secs_f64() * per_second).min(full);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            Ok(())
        } else {
            *tokens = refilled;
            Err(Duration::from_secs_f64((1.0 - refilled) / per_second))
        }
    }
}

/// Forgets the allowances refilled whole by `now`, then, if that is not
/// enough, the half counted longest ago.
fn forget<K>(left: &mut HashMap<K, (f64, Instant)>, full: f64, per_second: f64, now: Instant) {
    left.retain(|_, (tokens, at)| {
        *tokens + now.saturating_duration_since(*at).as_secs_f64() * per_second < full
    });
    if left.len() >= MAX_CLIENTS {
        let mut times: Vec<Instant> = left.values().map(|&(_, at)| at).collect();
        times.sort_unstable();
        let cut = times[times.len() / 2];
        left.retain(|_, (_, at)| *at > cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_allowance_at_once_then_at_the_rate_others_theirs() {
        let a = Allowance::per_minute(6);
        let t0 = Instant::now();
        let alice: IpAddr = "203.0.113.1".parse().unwrap();
        let bob: IpAddr = "203.0.113.2".parse().unwrap();
        for _ in 0..6 {
            a.take(alice, t0).unwrap();
        }
        let wait = a.take(alice, t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(10));
        a.take(bob, t0).unwrap();
        // Ten seconds later one more.
        a.take(alice, t0 + Duration::from_secs(10)).unwrap();
        assert!(a.take(alice, t0 + Duration::from_secs(11)).is_err());
        // No limit at 0.
        let none = Allowance::per_minute(0);
        for _ in 0..1000 {
            none.take(alice, t0).unwrap();
        }
    }

    #[test]
    fn an_ipv6_host_holds_its_whole_64_and_memory_stays_bounded() {
        let a = Allowance::per_minute(1);
        let t0 = Instant::now();
        a.take("2001:db8:1:2::1".parse().unwrap(), t0).unwrap();
        assert!(a.take("2001:db8:1:2:ffff::9".parse().unwrap(), t0).is_err());
        a.take("2001:db8:1:3::1".parse().unwrap(), t0).unwrap();
        // A flood of addresses: the map never holds more than its bound.
        for i in 0..(3 * MAX_CLIENTS as u32) {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            let _ = a.take(ip, t0 + Duration::from_millis(u64::from(i)));
        }
        assert!(a.left.lock().unwrap().len() <= MAX_CLIENTS);
    }
}
