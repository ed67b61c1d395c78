//! Who sits where: the seat a connection holds, and the colours as every
//! JSON of the server names them. Below the game's settings, the wire and
//! the chat, which all speak of seats.

/// Serde for [`tengen_core::Color`] as `"black"` / `"white"`: requests, the
/// new-game form and the stored actions name colours alike.
pub(crate) mod side {
    use serde::{Deserialize, Deserializer, Serializer};
    use tengen_core::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(serde::de::Error::custom(format!(
                "{other:?} is not a colour (black or white)"
            ))),
        }
    }
}

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The player of one colour.
    Player(tengen_core::Color),
    /// Both players (same screen).
    Both,
    /// Anyone else: read only.
    Spectator,
}

impl Seat {
    /// The seat `token` proves, `black` and `white` being the digests of
    /// the seats' tokens (one token for both: a game on one screen).
    pub fn proven(token: Option<&str>, black: &str, white: &str) -> Seat {
        let Some(t) = token.filter(|t| !t.is_empty()) else {
            return Seat::Spectator;
        };
        match (
            crate::token::matches(t, black),
            crate::token::matches(t, white),
        ) {
            (true, true) => Seat::Both,
            (true, false) => Seat::Player(tengen_core::Color::Black),
            (false, true) => Seat::Player(tengen_core::Color::White),
            (false, false) => Seat::Spectator,
        }
    }

    /// The seat named `name` ([`Seat::name`]); anything else is a
    /// spectator's.
    pub fn named(name: &str) -> Seat {
        match name {
            "black" => Seat::Player(tengen_core::Color::Black),
            "white" => Seat::Player(tengen_core::Color::White),
            "both" => Seat::Both,
            _ => Seat::Spectator,
        }
    }

    /// `black`, `white`, `both` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Player(c) => c.name(),
            Seat::Both => "both",
            Seat::Spectator => "spectator",
        }
    }
}
