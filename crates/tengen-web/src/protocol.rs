//! The game's WebSocket protocol, as the page speaks it: who a connection
//! is ([`Hello`], its first message, and the [`Seat`] it gives), what it
//! asks for ([`Request`]), and every message the server sends
//! ([`Outgoing`]: the view, who is there, the chat, the move's names, the
//! welcome and errors), each written by serde from one type. What a
//! request does to a game is the room's.

use crate::error::WebError;
use crate::names::MoveName;
use crate::presence::PresenceView;
pub use crate::seat::Seat;
use crate::store::ChatLine;
use crate::view::View;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Longest WebSocket message answered; longer ones get an error.
pub const MAX_MESSAGE: usize = 4 << 10;

/// What a player asks for over the socket.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Play a stone.
    Play {
        /// Where (GTP vertex, `D4`).
        vertex: String,
    },
    /// Pass.
    Pass,
    /// Resign.
    Resign,
    /// Take back (at once against the engine or on one screen; by request
    /// to a friend).
    Undo,
    /// Agree to the opponent's undo request.
    AcceptUndo,
    /// Refuse it.
    DeclineUndo,
    /// Mark or unmark the chain at `vertex` as dead.
    ToggleDead {
        /// A stone of the chain.
        vertex: String,
    },
    /// Accept the dead stones on the table.
    AcceptDead,
    /// Dispute them: play resumes.
    Dispute,
}

/// What a connection says besides the game: the chat and its name. Kept
/// apart from [`Request`], which only the room resolves.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Talk {
    /// A line of chat.
    Chat {
        /// What to say.
        text: String,
    },
    /// The player's name, changed.
    Name {
        /// The new name.
        name: String,
    },
}

/// A message read from a game's socket after `hello`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// Something for the game.
    Game(Request),
    /// Something for the people at it.
    Talk(Talk),
}

/// The first message on a game's socket: who is connecting. The seat
/// token travels here rather than in the socket's address, which proxies
/// and logs keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The seat token (none: a spectator).
    pub token: Option<String>,
    /// The name the player goes by, if he gave one.
    pub name: Option<String>,
}

/// The `hello` as read: a tagged enum, since serde refuses unknown
/// fields of a tagged struct by refusing its tag too.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum First {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
}

/// The `hello` read from the first text message, or why not.
///
/// # Errors
/// [`WebError::TooLarge`] beyond [`MAX_MESSAGE`]; [`WebError::Malformed`]
/// for anything that is not a `hello`.
pub fn read_hello(text: &str) -> Result<Hello, WebError> {
    let First::Hello { token, name } = read(text)?;
    Ok(Hello { token, name })
}

/// A request read from a text message, or why not.
///
/// # Errors
/// [`WebError::TooLarge`] beyond [`MAX_MESSAGE`]; [`WebError::Malformed`]
/// for anything that is not a request.
pub fn read_request(text: &str) -> Result<Request, WebError> {
    read(text)
}

/// A game request or a talk message read from a text message. A request
/// is tried first (the common case); when neither reads, the request's
/// reason is given.
///
/// # Errors
/// As [`read_request`].
pub fn read_incoming(text: &str) -> Result<Incoming, WebError> {
    match read_request(text) {
        Ok(r) => Ok(Incoming::Game(r)),
        Err(e) => read::<Talk>(text).map(Incoming::Talk).map_err(|_| e),
    }
}

/// One JSON message of at most [`MAX_MESSAGE`] bytes.
fn read<T: DeserializeOwned>(text: &str) -> Result<T, WebError> {
    if text.len() > MAX_MESSAGE {
        return Err(WebError::TooLarge {
            size: text.len(),
            limit: MAX_MESSAGE,
        });
    }
    serde_json::from_str(text).map_err(|e| WebError::Malformed(e.to_string()))
}

/// Every message the server sends on a game's socket, tagged by `type`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Outgoing<'a> {
    /// The first message of a connection: the seat it holds.
    Welcome {
        /// `black`, `white`, `both` or `spectator`.
        seat: &'static str,
    },
    /// The game as everyone sees it.
    View(&'a View),
    /// Who is at the game.
    Presence(&'a PresenceView),
    /// The names of the last move of log position `seq`, sent after its
    /// view (the lexicon's reading being slower than a move).
    Names {
        /// The log position named.
        seq: u64,
        /// The names.
        names: &'a [MoveName],
    },
    /// Chat lines: the recent ones to a newcomer, each new one to
    /// everyone. A newcomer listens before it reads the recent lines, so
    /// that none is lost between the two; a line said in that moment comes
    /// twice, and clients keep each `seq` once.
    Chat {
        /// The lines, oldest first.
        lines: Vec<&'a ChatLine>,
    },
    /// A request refused: the code the page translates, and a message.
    Error {
        /// [`WebError::code`].
        code: &'static str,
        /// What the client may read of it ([`WebError::reply`]).
        message: String,
    },
}

/// A refusal over HTTP: its status, and the error message the socket
/// would send.
impl axum::response::IntoResponse for WebError {
    fn into_response(self) -> axum::response::Response {
        (self.status(), axum::Json(Outgoing::error(&self))).into_response()
    }
}

impl Outgoing<'_> {
    /// A refusal as the client reads it.
    pub fn error(e: &WebError) -> Outgoing<'static> {
        let (code, message) = e.reply();
        Outgoing::Error { code, message }
    }

    /// The message's JSON text.
    pub fn text(&self) -> String {
        // Every field serialises (no map with non-string keys, no float
        // that is not finite: the views' numbers are counts and halves).
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The chat message of `lines`.
pub fn chat<'a>(lines: impl IntoIterator<Item = &'a ChatLine>) -> String {
    Outgoing::Chat {
        lines: lines.into_iter().collect(),
    }
    .text()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreError;

    #[tokio::test]
    async fn every_message_out_names_its_type_and_an_error_hides_the_servers_details() {
        let presence = crate::presence::Presence::default().view();
        let failed = WebError::Io(std::io::Error::other("cannot open /srv/secret.db"));
        let samples = [
            (Outgoing::Welcome { seat: "black" }, "welcome"),
            (Outgoing::Presence(&presence), "presence"),
            (Outgoing::Names { seq: 3, names: &[] }, "names"),
            (Outgoing::Chat { lines: Vec::new() }, "chat"),
            (
                Outgoing::error(&WebError::Store(StoreError::Conflict)),
                "error",
            ),
            (Outgoing::error(&failed), "error"),
        ];
        for (message, kind) in samples {
            let v: serde_json::Value = serde_json::from_str(&message.text()).unwrap();
            assert_eq!(v["type"], kind, "{v}");
        }
        let v: serde_json::Value = serde_json::from_str(&Outgoing::error(&failed).text()).unwrap();
        assert_eq!(v["code"], "server");
        assert!(!v.to_string().contains("secret"), "{v}");
        // The socket's refusal reads as the HTTP one.
        let response = axum::response::IntoResponse::into_response(failed);
        assert_eq!(response.status(), 500);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(
            v,
            serde_json::from_slice::<serde_json::Value>(&body).unwrap()
        );
    }

    #[test]
    fn hello_carries_an_optional_token_and_nothing_else() {
        assert_eq!(
            read_hello(r#"{"type":"hello","token":"ab12"}"#).unwrap(),
            Hello {
                token: Some("ab12".into()),
                name: None
            }
        );
        assert_eq!(
            read_hello(r#"{"type":"hello","name":"Ann"}"#).unwrap(),
            Hello {
                token: None,
                name: Some("Ann".into())
            }
        );
        for other in [
            r#"{"type":"play","vertex":"D4"}"#,
            r#"{"type":"hello","seat":"black"}"#,
            "hello",
        ] {
            assert!(
                matches!(read_hello(other), Err(WebError::Malformed(_))),
                "{other}"
            );
        }
    }

    #[test]
    fn requests_and_talk_read_apart() {
        assert_eq!(
            read_incoming(r#"{"type":"pass"}"#).unwrap(),
            Incoming::Game(Request::Pass)
        );
        assert_eq!(
            read_incoming(r#"{"type":"chat","text":"hi"}"#).unwrap(),
            Incoming::Talk(Talk::Chat { text: "hi".into() })
        );
        let e = read_incoming(r#"{"type":"chat","text":"hi","x":1}"#).unwrap_err();
        assert!(matches!(e, WebError::Malformed(_)), "{e}");
    }
}
