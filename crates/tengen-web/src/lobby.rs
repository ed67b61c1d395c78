//! The lobby: this server's games whose creator listed them, the
//! invitations nobody has taken yet (anyone may take the free seat) and
//! the games being played (anyone may watch), games against the engine
//! among them. Read from the database, so that it lists games nobody has
//! open; the page asks again every few seconds while it is shown.

use crate::clock::ClockSettings;
use crate::settings::{Opponent, Settings};
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
    /// The clock, if the game has one.
    pub clock: Option<ClockSettings>,
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
        // A row that no longer reads is left out rather than failing the
        // whole list.
        let Ok(settings) = Settings::from_row(&row.game) else {
            continue;
        };
        let seat = |color: &str| {
            if let Opponent::Engine { strength, engine } = settings.opponent
                && engine.name() == color
            {
                return LobbySeat {
                    name: Some(format!("tengen ({})", strength.name())),
                    taken: true,
                };
            }
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
            clock: settings.clock,
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
