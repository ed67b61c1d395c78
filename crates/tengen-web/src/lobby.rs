//! The lobby: this server's games with a friend whose creator listed them,
//! the invitations nobody has taken yet (anyone may take the free seat)
//! and the games being played (anyone may watch). Read from the database,
//! so that it lists games nobody has open.

use crate::store::LobbyRow;
use serde::Serialize;

/// Games listed at most.
pub const MAX_LISTED: usize = 100;

/// One seat of a listed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LobbySeat {
    /// The player's name, if he gave one.
    pub name: Option<String>,
    /// Whether someone sits there.
    pub taken: bool,
}

/// One listed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LobbyGame {
    /// Its id (its address is `/g/ID`).
    pub id: String,
    /// Preset name.
    pub rules: String,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `playing` or `marking`.
    pub state: String,
    /// Black's seat.
    pub black: LobbySeat,
    /// White's seat.
    pub white: LobbySeat,
    /// The colour offered to anyone, while free.
    pub free: Option<String>,
    /// When it was listed, ms since the epoch.
    pub listed: i64,
}

/// The lobby page's content.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Lobby {
    /// Invitations with a free seat, newest first.
    pub open: Vec<LobbyGame>,
    /// Games with both seats taken, newest first.
    pub live: Vec<LobbyGame>,
}

/// The lobby of the listed games.
pub fn lobby(rows: Vec<LobbyRow>) -> Lobby {
    let mut lobby = Lobby::default();
    for row in rows {
        let seat = |color: &str| {
            let p = row.players.iter().find(|p| p.color == color);
            LobbySeat {
                name: p.and_then(|p| p.name.clone()),
                taken: p.is_some(),
            }
        };
        let (black, white) = (seat("black"), seat("white"));
        let free_taken = if row.seat == "black" {
            black.taken
        } else {
            white.taken
        };
        let game = LobbyGame {
            id: row.game.id,
            rules: row.game.rules,
            width: row.game.width,
            height: row.game.height,
            state: row.game.state,
            black,
            white,
            free: (!free_taken).then_some(row.seat),
            listed: row.listed,
        };
        if free_taken {
            lobby.live.push(game);
        } else {
            lobby.open.push(game);
        }
    }
    lobby
}
