//! The stored actions: every change to a game, as written to the `moves`
//! table (a short kind and a JSON payload) and read back when a game is
//! replayed. The payload's form is the database's format: existing
//! databases must keep loading, so a variant or field is never renamed.
//! What an action does to a game is the room's.

use crate::error::WebError;
use crate::seat::side;
use serde::{Deserialize, Serialize};
use tengen_core::Color;

/// A change to a game, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A stone.
    Play {
        /// Who.
        #[serde(with = "side")]
        color: Color,
        /// Where (GTP vertex).
        vertex: String,
    },
    /// A pass.
    Pass {
        /// Who.
        #[serde(with = "side")]
        color: Color,
    },
    /// A resignation.
    Resign {
        /// Who resigns.
        #[serde(with = "side")]
        color: Color,
    },
    /// A request to take back moves, waiting for the opponent.
    UndoRequest {
        /// Who asks.
        #[serde(with = "side")]
        color: Color,
    },
    /// The request refused.
    UndoDecline {
        /// Who refuses.
        #[serde(with = "side")]
        color: Color,
    },
    /// Turns taken back.
    Undo {
        /// Who agreed (or asked, where no agreement is needed).
        #[serde(with = "side")]
        color: Color,
        /// How many turns.
        turns: u32,
    },
    /// A dead-stone proposal (the whole chains of these stones).
    Dead {
        /// Who proposes.
        #[serde(with = "side")]
        color: Color,
        /// Stones, as vertices.
        stones: Vec<String>,
    },
    /// The opponent's dead-stone proposal accepted: the game is counted.
    Accept {
        /// Who accepts.
        #[serde(with = "side")]
        color: Color,
    },
    /// The dead stones disputed: play resumes.
    Dispute {
        /// Who disputes.
        #[serde(with = "side")]
        color: Color,
    },
    /// A flag fell.
    Timeout {
        /// Whose.
        #[serde(with = "side")]
        color: Color,
    },
}

impl Action {
    /// The short kind stored beside the payload, for people reading the
    /// database.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Play { .. } => "play",
            Action::Pass { .. } => "pass",
            Action::Resign { .. } => "resign",
            Action::UndoRequest { .. } => "undo_request",
            Action::UndoDecline { .. } => "undo_decline",
            Action::Undo { .. } => "undo",
            Action::Dead { .. } => "dead",
            Action::Accept { .. } => "accept",
            Action::Dispute { .. } => "dispute",
            Action::Timeout { .. } => "timeout",
        }
    }

    /// The payload stored.
    ///
    /// # Errors
    /// [`WebError::Stored`] if it cannot be written as JSON.
    pub fn payload(&self) -> Result<String, WebError> {
        Ok(serde_json::to_string(self)?)
    }

    /// The action of a stored payload.
    ///
    /// # Errors
    /// [`WebError::Stored`] for a payload that is not an action (a corrupt
    /// database).
    pub fn read(payload: &str) -> Result<Action, WebError> {
        Ok(serde_json::from_str(payload)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Payloads as databases already hold them.
    #[test]
    fn stored_payloads_read_and_write_unchanged() {
        let stored = [
            r#"{"kind":"play","color":"black","vertex":"D4"}"#,
            r#"{"kind":"pass","color":"white"}"#,
            r#"{"kind":"resign","color":"black"}"#,
            r#"{"kind":"undo_request","color":"white"}"#,
            r#"{"kind":"undo_decline","color":"black"}"#,
            r#"{"kind":"undo","color":"black","turns":2}"#,
            r#"{"kind":"dead","color":"white","stones":["J9","H9"]}"#,
            r#"{"kind":"accept","color":"black"}"#,
            r#"{"kind":"dispute","color":"white"}"#,
            r#"{"kind":"timeout","color":"white"}"#,
        ];
        for payload in stored {
            let action = Action::read(payload).unwrap();
            assert_eq!(action.payload().unwrap(), payload);
            assert!(payload.contains(&format!(r#""kind":"{}""#, action.kind())));
        }
        assert!(Action::read(r#"{"kind":"play","color":"red","vertex":"D4"}"#).is_err());
    }
}
