//! The spans of time when no server ran: the clocks stand still over them,
//! as KGS and OGS give back the time of an outage. A turn is charged what
//! passed while a server was up; the store records each outage when a
//! server starts after one (the last heartbeat to the start).

/// The outages, each `[start, end)` in ms since the epoch, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pauses {
    spans: Vec<(i64, i64)>,
}

impl Pauses {
    /// The outages given, sorted, overlapping ones joined (two servers
    /// that start at once may each record one); empty and reversed spans
    /// are dropped.
    pub fn new(mut given: Vec<(i64, i64)>) -> Pauses {
        given.retain(|(s, e)| e > s);
        given.sort_unstable();
        let mut spans: Vec<(i64, i64)> = Vec::with_capacity(given.len());
        for (s, e) in given {
            match spans.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => spans.push((s, e)),
            }
        }
        Pauses { spans }
    }

    /// How much of `[from, to)` fell in an outage, ms.
    pub fn within(&self, from: i64, to: i64) -> i64 {
        self.spans
            .iter()
            .map(|&(s, e)| (e.min(to) - s.max(from)).max(0))
            .sum()
    }

    /// The time a turn begun at `from` has run by `to`: what passed while
    /// a server was up.
    pub fn running(&self, from: i64, to: i64) -> i64 {
        to - from - self.within(from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_time_a_server_ran_is_charged() {
        let p = Pauses::new(vec![(200, 100), (50, 60), (10, 20), (30, 30)]);
        assert_eq!(p, Pauses::new(vec![(10, 20), (50, 60)]));
        assert_eq!(p.within(0, 100), 20);
        assert_eq!(p.within(15, 55), 10);
        assert_eq!(p.within(60, 100), 0);
        assert_eq!(p.running(0, 100), 80);
        assert_eq!(Pauses::default().running(5, 9), 4);
        assert_eq!(Pauses::new(vec![(0, 10), (5, 20)]).within(0, 100), 20);
    }
}
