//! Who is at a game: each seat's name (kept per browser by the page, told
//! to the server in `hello` or when changed, stored so that the opponent
//! sees it after a restart), whether its player has ever joined (an
//! invitation not yet taken), whether he is connected now, and how many
//! watch. Sent to everyone as a `presence` message whenever it changes.
//!
//! Several servers on one database: each counts its own connections and
//! tells the others ([`Here`], announced at every change, on request when
//! a server loads the game, and again every [`crate::Limits::presence_period`]
//! for the games it holds connections to), so that a player connected to
//! another server is shown connected. What a server says holds for the
//! lease it gives with it ([`LEASE_PERIODS`] of its periods): a server
//! killed outright says nothing more, and its players are shown gone once
//! that runs out.

use crate::chat::ChatError;
use crate::seat::Seat;
pub use crate::store::Here;
use crate::store::PlayerRow;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;
use tengen_core::Color;

/// Periods after which what another server said of a game, and has not
/// said again, is forgotten: two announcements may be missed (or late)
/// before its players are shown gone.
pub const LEASE_PERIODS: u32 = 3;

/// Longest name, in characters.
pub const MAX_NAME: usize = 40;

/// A name as kept: blanks trimmed, control characters dropped; `None` when
/// nothing is left.
///
/// # Errors
/// [`ChatError::NameTooLong`] beyond [`MAX_NAME`] characters.
pub fn clean_name(text: &str) -> Result<Option<String>, ChatError> {
    let clean: String = text.trim().chars().filter(|c| !c.is_control()).collect();
    let n = clean.chars().count();
    if n > MAX_NAME {
        return Err(ChatError::NameTooLong {
            sent: n,
            max: MAX_NAME,
        });
    }
    Ok((n > 0).then_some(clean))
}

/// One seat as everyone sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The player's name, if he gave one.
    pub name: Option<String>,
    /// Whether its player has ever opened the game.
    pub joined: bool,
    /// Whether he has it open now.
    pub online: bool,
}

/// The `presence` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PresenceView {
    /// Black's seat.
    pub black: SeatView,
    /// White's seat.
    pub white: SeatView,
    /// Connections without a seat.
    pub spectators: u32,
}

/// Who is at a game. See the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    names: [Option<String>; 2],
    joined: [bool; 2],
    connections: [u32; 2],
    spectators: u32,
    /// What the other servers on the database last said, by name, and
    /// until when it holds.
    elsewhere: HashMap<String, (Here, Instant)>,
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The colours a seat sits on.
fn colors(seat: Seat) -> &'static [Color] {
    match seat {
        Seat::Player(Color::Black) => &[Color::Black],
        Seat::Player(Color::White) => &[Color::White],
        Seat::Both => &[Color::Black, Color::White],
        Seat::Spectator => &[],
    }
}

impl Presence {
    /// The presence of a game loaded from the database: its stored seats,
    /// nobody connected.
    pub fn from_stored(rows: &[PlayerRow]) -> Presence {
        let mut p = Presence::default();
        for row in rows {
            let c = match row.color.as_str() {
                "black" => Color::Black,
                "white" => Color::White,
                _ => continue,
            };
            p.joined[index(c)] = true;
            p.names[index(c)].clone_from(&row.name);
        }
        p
    }

    /// The seats stored, as read again after another server changed them
    /// (names and seats taken there).
    pub fn merge_stored(&mut self, rows: &[PlayerRow]) {
        let stored = Presence::from_stored(rows);
        for i in 0..2 {
            if stored.joined[i] {
                self.joined[i] = true;
                if stored.names[i].is_some() {
                    self.names[i].clone_from(&stored.names[i]);
                }
            }
        }
    }

    /// The connections through this server, to tell the others.
    pub fn here(&self) -> Here {
        Here {
            players: self.connections,
            spectators: self.spectators,
            ask: false,
        }
    }

    /// What server `node` says is connected through it, holding `until`
    /// unless said again.
    pub fn heard(&mut self, node: &str, mut here: Here, until: Instant) {
        here.ask = false;
        if here == Here::default() {
            self.elsewhere.remove(node);
        } else {
            self.elsewhere.insert(node.to_string(), (here, until));
        }
    }

    /// Whether server `node` says again what it last said (its word then
    /// holds `until`); when it says something new, or was not heard, it is
    /// for [`Presence::heard`].
    pub fn renewed(&mut self, node: &str, here: Here, until: Instant) -> bool {
        match self.elsewhere.get_mut(node) {
            Some((known, held)) if !here.ask && *known == here => {
                *held = until;
                true
            }
            _ => false,
        }
    }

    /// Forgets what servers said and have not said again before it ran
    /// out at `now`; whether anything was forgotten (the view changed).
    pub fn forget_unheard(&mut self, now: Instant) -> bool {
        let before = self.elsewhere.len();
        self.elsewhere.retain(|_, (_, until)| *until >= now);
        self.elsewhere.len() != before
    }

    /// A connection of `seat` arrives, named `name`: the rows to store
    /// (a seat taken for the first time, or renamed).
    pub fn arrive(
        &mut self,
        game_id: &str,
        seat: Seat,
        name: Option<String>,
        now: i64,
    ) -> Vec<PlayerRow> {
        if seat == Seat::Spectator {
            self.spectators += 1;
            return Vec::new();
        }
        for &c in colors(seat) {
            self.connections[index(c)] += 1;
        }
        self.rename(game_id, seat, name, now)
    }

    /// A connection of `seat` leaves.
    pub fn leave(&mut self, seat: Seat) {
        if seat == Seat::Spectator {
            self.spectators = self.spectators.saturating_sub(1);
        }
        for &c in colors(seat) {
            let n = &mut self.connections[index(c)];
            *n = n.saturating_sub(1);
        }
    }

    /// `seat` is now named `name` (none: keeps its name): the rows to
    /// store, for seats taken for the first time or renamed.
    pub fn rename(
        &mut self,
        game_id: &str,
        seat: Seat,
        name: Option<String>,
        now: i64,
    ) -> Vec<PlayerRow> {
        let mut rows = Vec::new();
        for &c in colors(seat) {
            let i = index(c);
            let renamed = name.is_some() && self.names[i] != name;
            if renamed {
                self.names[i].clone_from(&name);
            }
            if renamed || !self.joined[i] {
                self.joined[i] = true;
                rows.push(PlayerRow {
                    game_id: game_id.to_string(),
                    color: c.name().to_string(),
                    name: name.clone(),
                    joined: now,
                });
            }
        }
        rows
    }

    /// The name of the player of `c`.
    pub fn name(&self, c: Color) -> Option<&str> {
        self.names[index(c)].as_deref()
    }

    /// The name a line from `seat` is signed with.
    pub fn name_of(&self, seat: Seat) -> Option<String> {
        match seat {
            Seat::Player(c) => self.name(c).map(str::to_string),
            Seat::Both => self.name(Color::Black).map(str::to_string),
            Seat::Spectator => None,
        }
    }

    /// The seat of colour `c` as everyone sees it.
    pub fn view_of(&self, c: Color) -> SeatView {
        let i = index(c);
        let elsewhere = self.elsewhere.values().any(|(h, _)| h.players[i] > 0);
        SeatView {
            name: self.names[i].clone(),
            joined: self.joined[i],
            online: self.connections[i] > 0 || elsewhere,
        }
    }

    /// The `presence` message.
    pub fn view(&self) -> PresenceView {
        PresenceView {
            black: self.view_of(Color::Black),
            white: self.view_of(Color::White),
            spectators: self.spectators
                + self
                    .elsewhere
                    .values()
                    .map(|(h, _)| h.spectators)
                    .sum::<u32>(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_join_once_rename_and_go_away() {
        let mut p = Presence::default();
        let black = Seat::Player(Color::Black);
        let rows = p.arrive("g", black, Some("Ann".into()), 5);
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].color.as_str(), rows[0].joined), ("black", 5));
        // A second tab of the same player stores nothing new.
        assert!(p.arrive("g", black, Some("Ann".into()), 6).is_empty());
        assert!(p.arrive("g", Seat::Spectator, None, 7).is_empty());
        let v = p.view();
        assert!(v.black.online && v.black.joined && !v.white.joined);
        assert_eq!((v.black.name.as_deref(), v.spectators), (Some("Ann"), 1));
        assert_eq!(p.rename("g", black, Some("Bo".into()), 8).len(), 1);
        p.leave(black);
        assert!(p.view().black.online, "one tab still open");
        p.leave(black);
        assert!(!p.view().black.online);
        let back = Presence::from_stored(&[PlayerRow {
            game_id: "g".into(),
            color: "black".into(),
            name: Some("Bo".into()),
            joined: 5,
        }]);
        assert_eq!(back.view().black.name.as_deref(), Some("Bo"));
        assert!(back.view().black.joined && !back.view().black.online);
    }

    #[test]
    fn connections_through_other_servers_count() {
        let mut p = Presence::default();
        p.arrive("g", Seat::Spectator, None, 1);
        p.heard(
            "b",
            Here {
                players: [0, 1],
                spectators: 2,
                ask: true,
            },
            Instant::now(),
        );
        let v = p.view();
        assert!(v.white.online && !v.black.online);
        assert_eq!(v.spectators, 3);
        assert_eq!(p.here().players, [0, 0]);
        p.heard("b", Here::default(), Instant::now());
        assert!(!p.view().white.online);
        assert_eq!(p.view().spectators, 1);
        p.merge_stored(&[PlayerRow {
            game_id: "g".into(),
            color: "white".into(),
            name: Some("Wu".into()),
            joined: 2,
        }]);
        assert_eq!(p.view().white.name.as_deref(), Some("Wu"));
        assert!(p.view().white.joined);
    }

    #[test]
    fn what_a_server_has_not_said_again_within_its_lease_is_forgotten() {
        let mut p = Presence::default();
        let start = Instant::now();
        let at = |s: u64| start + std::time::Duration::from_secs(s);
        let white = Here {
            players: [0, 1],
            spectators: 0,
            ask: false,
        };
        // B and C each say theirs, holding three seconds.
        p.heard("b", white, at(3));
        let watchers = Here {
            spectators: 2,
            ..Here::default()
        };
        p.heard("c", watchers, at(3));
        assert!(!p.forget_unheard(at(3)), "within the lease");
        // B says it again; C, killed, says nothing more.
        assert!(p.renewed("b", white, at(5)));
        assert!(!p.renewed("d", white, at(5)), "not heard before: news");
        let more = Here {
            spectators: 1,
            ..white
        };
        assert!(!p.renewed("b", more, at(5)), "a change is news");
        assert!(p.forget_unheard(at(4)));
        let v = p.view();
        assert!(v.white.online, "B renewed its word");
        assert_eq!(v.spectators, 0, "C's spectators are gone");
        assert!(p.forget_unheard(at(6)));
        assert!(!p.view().white.online);
        assert!(!p.forget_unheard(at(9)));
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("  Ann\u{7} ").unwrap().as_deref(), Some("Ann"));
        assert_eq!(clean_name("   ").unwrap(), None);
        assert!(clean_name(&"x".repeat(MAX_NAME + 1)).is_err());
    }
}
