//! The lobby: this server's games whose creator listed them, the
//! invitations nobody has taken yet (anyone may take the free seat) and
//! the games being played (anyone may watch), games against the engine
//! among them. Read from the database, so that it lists games nobody has
//! open; the page asks again every few seconds while it is shown.

use crate::clock::ClockSettings;
use crate::settings::{Opponent, Settings, engine_name};
use crate::store::{GameRow, LobbyRow, PlayerRow};
use serde::Serialize;
use tengen_core::Color;

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
    /// When it was listed (in a player's games: created), ms since the
    /// epoch.
    pub listed: i64,
    /// The result in SGF form (`B+R`), once over.
    pub result: Option<String>,
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
        let Some(mut game) = summary(row.game, &row.players) else {
            continue;
        };
        let free_taken = if row.seat == "black" {
            game.black.taken
        } else {
            game.white.taken
        };
        game.listed = row.listed;
        if free_taken {
            lobby.live.push(game);
        } else {
            game.free = Some(row.seat);
            lobby.open.push(game);
        }
    }
    lobby
}

/// A game in a line of a list (the lobby, a player's games): its board,
/// rules, clock and seats, the engine's named after its level; `listed` is
/// when it was created. `None` for a row that no longer reads.
pub fn summary(row: GameRow, players: &[PlayerRow]) -> Option<LobbyGame> {
    let settings = Settings::from_row(&row).ok()?;
    let seat = |color: Color| {
        if let Opponent::Engine { strength, engine } = settings.opponent
            && engine == color
        {
            return LobbySeat {
                name: Some(engine_name(strength)),
                taken: true,
            };
        }
        let p = players.iter().find(|p| p.color == color.name());
        LobbySeat {
            name: p.and_then(|p| p.name.clone()),
            taken: p.is_some(),
        }
    };
    Some(LobbyGame {
        black: seat(Color::Black),
        white: seat(Color::White),
        clock: settings.clock,
        free: None,
        listed: row.created,
        result: row.result,
        id: row.id,
        rules: row.rules,
        width: row.width,
        height: row.height,
        state: row.state,
    })
}
