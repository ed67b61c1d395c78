//! A game's chat: the players' lines, stored beside the moves (committed
//! before anyone hears of them) and read by everyone watching. What a line
//! may hold ([`clean_text`]), how fast a seat may write ([`Bucket`]) and
//! the recent lines kept in memory for newcomers ([`ChatLog`]) are here;
//! storing is the store's, sending the hub's.

pub use crate::error::ChatError;
use crate::seat::Seat;
pub use crate::store::ChatLine;
use std::collections::{HashMap, VecDeque};

/// Longest line, in characters.
pub const MAX_CHARS: usize = 500;
/// Lines a seat may send at once before it must wait.
pub const BURST: u32 = 5;
/// One more line allowed every this many milliseconds.
pub const REFILL_MS: i64 = 2_000;
/// Lines kept in memory and sent to a newcomer (older ones stay stored).
pub const RECENT: usize = 200;

/// The text of a line as kept: blanks trimmed, control characters (line
/// breaks included) turned into spaces, within [`MAX_CHARS`].
///
/// # Errors
/// [`ChatError::Empty`] or [`ChatError::TooLong`].
pub fn clean_text(text: &str) -> Result<String, ChatError> {
    let clean: String = text
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let n = clean.chars().count();
    if n == 0 {
        return Err(ChatError::Empty);
    }
    if n > MAX_CHARS {
        return Err(ChatError::TooLong {
            sent: n,
            max: MAX_CHARS,
        });
    }
    Ok(clean)
}

/// A seat's allowance of lines: [`BURST`] at once, one more every
/// [`REFILL_MS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// Lines allowed now, in thousandths (refilled continuously).
    milli: i64,
    /// When last refilled, ms since the epoch.
    at: i64,
}

impl Bucket {
    fn full(now: i64) -> Bucket {
        Bucket {
            milli: i64::from(BURST) * 1000,
            at: now,
        }
    }

    /// Takes one line at `now`.
    ///
    /// # Errors
    /// [`ChatError::TooFast`] with the seconds to wait.
    pub fn take(&mut self, now: i64) -> Result<(), ChatError> {
        let cap = i64::from(BURST) * 1000;
        let gained = (now - self.at).max(0) * 1000 / REFILL_MS;
        self.milli = (self.milli + gained).min(cap);
        self.at = now;
        if self.milli < 1000 {
            let wait_ms = (1000 - self.milli) * REFILL_MS / 1000;
            return Err(ChatError::TooFast((wait_ms + 999) / 1000));
        }
        self.milli -= 1000;
        Ok(())
    }
}

/// A game's chat in memory: the recent lines, the next position and each
/// seat's allowance.
#[derive(Debug, Default)]
pub struct ChatLog {
    recent: VecDeque<ChatLine>,
    last_seq: u64,
    buckets: HashMap<&'static str, Bucket>,
}

impl ChatLog {
    /// The log of the stored lines (oldest first; only the last
    /// [`RECENT`] are kept).
    pub fn from_stored(lines: Vec<ChatLine>, last_seq: u64) -> ChatLog {
        let mut recent: VecDeque<ChatLine> = lines.into();
        while recent.len() > RECENT {
            recent.pop_front();
        }
        ChatLog {
            recent,
            last_seq,
            buckets: HashMap::new(),
        }
    }

    /// The line `seat` asks to write at `now`, numbered, not yet stored.
    ///
    /// # Errors
    /// [`ChatError`] for a spectator, a bad text or a spent allowance
    /// (checked in that order, so that a refused text costs nothing).
    pub fn draft(
        &mut self,
        game_id: &str,
        seat: Seat,
        name: Option<String>,
        text: &str,
        now: i64,
    ) -> Result<ChatLine, ChatError> {
        if seat == Seat::Spectator {
            return Err(ChatError::Spectator);
        }
        let text = clean_text(text)?;
        self.buckets
            .entry(seat.name())
            .or_insert_with(|| Bucket::full(now))
            .take(now)?;
        Ok(ChatLine {
            game_id: game_id.to_string(),
            seq: self.last_seq + 1,
            seat: seat.name().to_string(),
            name,
            text,
            at: now,
        })
    }

    /// The position of the last line stored.
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// Records a line once stored.
    pub fn stored(&mut self, line: ChatLine) {
        self.last_seq = self.last_seq.max(line.seq);
        self.recent.push_back(line);
        while self.recent.len() > RECENT {
            self.recent.pop_front();
        }
    }

    /// The recent lines, oldest first.
    pub fn recent(&self) -> impl Iterator<Item = &ChatLine> {
        self.recent.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Color;

    #[test]
    fn text_is_trimmed_flattened_and_bounded() {
        assert_eq!(clean_text("  hi\nthere\t ").unwrap(), "hi there");
        assert_eq!(clean_text(" \n "), Err(ChatError::Empty));
        assert_eq!(
            clean_text(&"é".repeat(MAX_CHARS)).unwrap().chars().count(),
            MAX_CHARS
        );
        assert_eq!(
            clean_text(&"é".repeat(MAX_CHARS + 1)),
            Err(ChatError::TooLong {
                sent: MAX_CHARS + 1,
                max: MAX_CHARS
            })
        );
        // Markup is kept as written: escaping is the page's.
        assert_eq!(clean_text("<b>x</b>").unwrap(), "<b>x</b>");
    }

    #[test]
    fn a_seat_gets_a_burst_then_one_line_per_refill() {
        let mut log = ChatLog::default();
        let black = Seat::Player(Color::Black);
        for _ in 0..BURST {
            let line = log.draft("g", black, None, "hi", 1_000).unwrap();
            log.stored(line);
        }
        assert_eq!(
            log.draft("g", black, None, "hi", 1_000),
            Err(ChatError::TooFast(2))
        );
        // The other seat has its own allowance.
        assert!(
            log.draft("g", Seat::Player(Color::White), None, "hi", 1_000)
                .is_ok()
        );
        assert!(log.draft("g", black, None, "hi", 1_000 + REFILL_MS).is_ok());
        assert_eq!(
            log.draft("g", Seat::Spectator, None, "hi", 99_000),
            Err(ChatError::Spectator)
        );
        assert_eq!(log.recent().count(), BURST as usize);
        assert_eq!(log.recent().last().map(|l| l.seq), Some(u64::from(BURST)));
    }
}
