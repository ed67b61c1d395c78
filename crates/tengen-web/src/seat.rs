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
    /// `black`, `white`, `both` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Player(c) => c.name(),
            Seat::Both => "both",
            Seat::Spectator => "spectator",
        }
    }
}
