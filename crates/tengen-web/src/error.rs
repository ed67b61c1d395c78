//! One error type for everything the server refuses, with a stable code the
//! page translates and a message in English words.

use axum::http::StatusCode;
use tengen_core::{EndError, IllegalMove, PlayError};
use tengen_store::StoreError;

/// Why a request or a message was refused.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// A move the rules forbid; the code names the rule.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// A step of the end of the game that is not possible now.
    #[error("{0}")]
    End(EndError),
    /// The body or message is not what the API expects.
    #[error("malformed request: {0}")]
    Malformed(String),
    /// The body or message is larger than the limit.
    #[error("message too large: {size} bytes, the limit is {limit}")]
    TooLarge {
        /// Bytes received.
        size: usize,
        /// Bytes allowed.
        limit: usize,
    },
    /// A field with a value the server cannot use.
    #[error("invalid {field}: {why}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// Why.
        why: String,
    },
    /// No game with this id.
    #[error("no game {0}")]
    NoGame(String),
    /// A spectator, a wrong token, or the opponent's turn.
    #[error("not allowed: {0}")]
    Forbidden(Refusal),
    /// A chat line refused.
    #[error("{0}")]
    Chat(#[from] ChatError),
    /// An SGF record that cannot be read.
    #[error("sgf: {0}")]
    Sgf(String),
    /// The database failed, or another server stored first
    /// ([`StoreError::Conflict`]).
    #[error("{0}")]
    Store(#[from] StoreError),
    /// Reading or writing stored JSON failed.
    #[error("stored data: {0}")]
    Stored(#[from] serde_json::Error),
    /// The listening socket or another I/O failure.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

impl From<PlayError> for WebError {
    fn from(e: PlayError) -> WebError {
        WebError::Illegal(e.reason)
    }
}

impl From<EndError> for WebError {
    fn from(e: EndError) -> WebError {
        WebError::End(e)
    }
}

impl WebError {
    /// [`WebError::Invalid`]: `field` cannot be `why`.
    pub fn invalid(field: &'static str, why: impl ToString) -> WebError {
        WebError::Invalid {
            field,
            why: why.to_string(),
        }
    }

    /// A stable key the page translates (`ko`, `suicide`, `not_your_turn`...).
    pub fn code(&self) -> &'static str {
        match self {
            WebError::Illegal(r) => match r {
                IllegalMove::OffBoard => "off_board",
                IllegalMove::Occupied => "occupied",
                IllegalMove::Suicide => "suicide",
                IllegalMove::SingleStoneSuicide => "single_stone_suicide",
                IllegalMove::Ko => "ko",
                IllegalMove::PositionalSuperko => "positional_superko",
                IllegalMove::SituationalSuperko => "situational_superko",
                IllegalMove::NaturalSituationalSuperko => "natural_situational_superko",
                IllegalMove::GameOver => "game_over",
                IllegalMove::WrongPhase => "wrong_phase",
            },
            WebError::End(e) => match e {
                EndError::WrongPhase(_) => "end_wrong_phase",
                EndError::NotAStone => "not_a_stone",
                EndError::NoProposal => "no_proposal",
                EndError::NoAgreement => "no_agreement",
                EndError::NothingToUndo => "nothing_to_undo",
            },
            WebError::Malformed(_) => "malformed",
            WebError::TooLarge { .. } => "too_large",
            WebError::Invalid { .. } => "invalid",
            WebError::NoGame(_) => "no_game",
            WebError::Forbidden(r) => r.code(),
            WebError::Chat(c) => c.code(),
            WebError::Sgf(_) => "sgf",
            WebError::Store(StoreError::Conflict) => "conflict",
            WebError::Store(StoreError::DatabaseLost { .. } | StoreError::DiskFailing(_)) => {
                "storage_lost"
            }
            WebError::Store(StoreError::Invalid { .. }) => "invalid",
            WebError::Store(_) | WebError::Stored(_) | WebError::Io(_) => "server",
        }
    }

    /// The HTTP status of the refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::NoGame(_) => StatusCode::NOT_FOUND,
            WebError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::Forbidden(
                Refusal::TooManyEngineGames(_)
                | Refusal::TooManyGames(_)
                | Refusal::TooManyListed(_)
                | Refusal::TooManyConnections(_)
                | Refusal::AnalysesBusy(_)
                | Refusal::GamesTooFast(_)
                | Refusal::LoginsTooFast(_)
                | Refusal::TooManySockets(_)
                | Refusal::TooManyAnalyses(_),
            ) => StatusCode::TOO_MANY_REQUESTS,
            WebError::Forbidden(Refusal::SeatTaken | Refusal::NameTaken) => StatusCode::CONFLICT,
            WebError::Forbidden(_) | WebError::Chat(ChatError::Spectator) => StatusCode::FORBIDDEN,
            WebError::Chat(ChatError::TooFast(_)) => StatusCode::TOO_MANY_REQUESTS,
            WebError::Illegal(_) | WebError::End(_) | WebError::Store(StoreError::Conflict) => {
                StatusCode::CONFLICT
            }
            WebError::Store(StoreError::DatabaseLost { .. } | StoreError::DiskFailing(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            WebError::Store(StoreError::Invalid { .. }) => StatusCode::BAD_REQUEST,
            WebError::Store(_) | WebError::Stored(_) | WebError::Io(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The code and the message a client reads (the page's error message,
    /// over HTTP and the socket alike: `protocol::Outgoing`). The
    /// server's own failures (code `server`) are logged here, whole, and
    /// the client reads only that the server failed: a storage error's
    /// chain names hosts, files and queries that are no client's business.
    pub fn reply(&self) -> (&'static str, String) {
        let message = match self.status() {
            StatusCode::INTERNAL_SERVER_ERROR => {
                tracing::error!("{self}");
                SERVER_FAILED.to_string()
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                tracing::error!("{self}");
                STORAGE_LOST.to_string()
            }
            _ => self.to_string(),
        };
        (self.code(), message)
    }
}

/// What a client reads of the server's own failures.
const SERVER_FAILED: &str = "the server could not do this (its log says why); try again";

/// What a client reads when the server can no longer store anything.
const STORAGE_LOST: &str = "the server cannot store anything now (its database is gone or its disk is failing): this was not kept";

/// Why a chat line or a player's name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Nothing to say once blanks are trimmed.
    #[error("the message is empty")]
    Empty,
    /// Longer than the chat allows (its `MAX_CHARS`).
    #[error("a message holds at most {max} characters ({sent} sent)")]
    TooLong {
        /// Characters sent.
        sent: usize,
        /// Characters allowed.
        max: usize,
    },
    /// The seat's burst is spent.
    #[error("you are sending messages too fast: wait {0} s")]
    TooFast(i64),
    /// Spectators read the chat; the players write it.
    #[error("spectators read the chat; only the players write in it")]
    Spectator,
    /// A name longer than allowed (presence's `MAX_NAME`).
    #[error("a name holds at most {max} characters ({sent} sent)")]
    NameTooLong {
        /// Characters sent.
        sent: usize,
        /// Characters allowed.
        max: usize,
    },
}

impl ChatError {
    /// The stable key the page translates.
    pub fn code(self) -> &'static str {
        match self {
            ChatError::Empty => "chat_empty",
            ChatError::TooLong { .. } => "chat_too_long",
            ChatError::TooFast(_) => "chat_too_fast",
            ChatError::Spectator => "chat_spectator",
            ChatError::NameTooLong { .. } => "name_too_long",
        }
    }
}

/// Why a connection may not do what it asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Spectators watch; only seat tokens play.
    #[error("spectators cannot play (a seat token is needed)")]
    Spectator,
    /// The other player moves now.
    #[error("it is not your turn")]
    NotYourTurn,
    /// Answering one's own request, or no request to answer.
    #[error("there is no request from the opponent to answer")]
    NoRequest,
    /// A request of the same kind is already waiting.
    #[error("a request is already waiting for an answer")]
    Pending,
    /// A page of another site asked (its `Origin` is not this server's).
    #[error("requests from another site's page are refused")]
    CrossOrigin,
    /// The request names a host this server does not answer for (a page
    /// whose name was made to point here, DNS rebinding).
    #[error(
        "this server does not answer for the host named in the request: its administrator allows a name with --allowed-host NAME"
    )]
    UnknownHost,
    /// This client created as many games as it may in a minute; the
    /// seconds until it may create one again.
    #[error("you have created many games in a short time: try again in {0} s")]
    GamesTooFast(u64),
    /// This client has as many records under analysis as it may.
    #[error("you have {0} records under analysis already: try again when it is done")]
    TooManyAnalyses(usize),
    /// This client holds as many game sockets open as it may.
    #[error("you have {0} games open already: close some first")]
    TooManySockets(usize),
    /// This client already has as many engine games going as allowed.
    #[error("you already have {0} games against the engine in progress: finish or leave one first")]
    TooManyEngineGames(usize),
    /// This client already has as many open games (not over, touched
    /// lately) as it may create.
    #[error("you already have {0} games going that you created: finish or leave one first")]
    TooManyGames(usize),
    /// This client already has as many open games listed in the lobby
    /// as allowed.
    #[error(
        "you already have {0} games waiting in the lobby: wait for a player or leave one first"
    )]
    TooManyListed(usize),
    /// This peer holds as many connections open as one may.
    #[error("you have {0} connections open to this server already: close some first")]
    TooManyConnections(usize),
    /// A WebSocket that did not begin with its `hello` message.
    #[error("the first message on a game's socket must be hello")]
    NoHello,
    /// A lobby seat someone else took first.
    #[error("this seat has been taken: choose another game")]
    SeatTaken,
    /// As many records as allowed are being analysed.
    #[error("the engine is analysing {0} records already: try again when one is done")]
    AnalysesBusy(usize),
    /// Accepting before the engine proposed its dead stones would count
    /// every stone alive.
    #[error("the engine is still marking the dead stones: accept once its proposal is shown")]
    EngineMarking,
    /// A class's pupils asked without its teacher's token.
    #[error("only the class's teacher sees its pupils (from the browser that opened it)")]
    NotTeacher,
    /// A member of that name exists already (in any case).
    #[error("this name is taken: choose another, or log in if it is yours")]
    NameTaken,
    /// An unknown name or a wrong password: one refusal for both, so that
    /// it tells nobody which names are members.
    #[error("wrong name or password")]
    WrongPassword,
    /// As many tries to log in as allowed, from this client or for this
    /// name; the seconds until the next.
    #[error("too many tries to log in: try again in {0} s")]
    LoginsTooFast(u64),
    /// A member's request without a valid session.
    #[error("log in first (or your session has ended)")]
    NotMember,
}

impl Refusal {
    /// The stable key of [`WebError::code`].
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Spectator => "spectator",
            Refusal::NotYourTurn => "not_your_turn",
            Refusal::NoRequest => "no_request",
            Refusal::Pending => "pending",
            Refusal::CrossOrigin => "cross_origin",
            Refusal::UnknownHost => "unknown_host",
            Refusal::TooManyEngineGames(_) => "too_many_engine_games",
            Refusal::TooManyGames(_) => "too_many_games",
            Refusal::TooManyListed(_) => "too_many_listed",
            Refusal::TooManyConnections(_) => "too_many_connections",
            Refusal::GamesTooFast(_) => "games_too_fast",
            Refusal::TooManySockets(_) => "too_many_sockets",
            Refusal::TooManyAnalyses(_) => "too_many_analyses",
            Refusal::NoHello => "no_hello",
            Refusal::SeatTaken => "seat_taken",
            Refusal::AnalysesBusy(_) => "analyses_busy",
            Refusal::EngineMarking => "engine_marking",
            Refusal::NotTeacher => "not_teacher",
            Refusal::NameTaken => "name_taken",
            Refusal::WrongPassword => "wrong_password",
            Refusal::LoginsTooFast(_) => "logins_too_fast",
            Refusal::NotMember => "not_member",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_is_explained_by_the_page_in_both_languages() {
        let all = [
            Refusal::Spectator,
            Refusal::NotYourTurn,
            Refusal::NoRequest,
            Refusal::Pending,
            Refusal::CrossOrigin,
            Refusal::UnknownHost,
            Refusal::GamesTooFast(1),
            Refusal::TooManyAnalyses(1),
            Refusal::TooManySockets(1),
            Refusal::TooManyEngineGames(1),
            Refusal::TooManyGames(1),
            Refusal::TooManyListed(1),
            Refusal::TooManyConnections(1),
            Refusal::NoHello,
            Refusal::SeatTaken,
            Refusal::AnalysesBusy(1),
            Refusal::EngineMarking,
            Refusal::NotTeacher,
            Refusal::NameTaken,
            Refusal::WrongPassword,
            Refusal::LoginsTooFast(1),
            Refusal::NotMember,
        ];
        for r in all {
            // A new refusal does not compile here until listed above.
            match r {
                Refusal::Spectator
                | Refusal::NotYourTurn
                | Refusal::NoRequest
                | Refusal::Pending
                | Refusal::CrossOrigin
                | Refusal::UnknownHost
                | Refusal::GamesTooFast(_)
                | Refusal::TooManyAnalyses(_)
                | Refusal::TooManySockets(_)
                | Refusal::TooManyEngineGames(_)
                | Refusal::TooManyGames(_)
                | Refusal::TooManyListed(_)
                | Refusal::TooManyConnections(_)
                | Refusal::NoHello
                | Refusal::SeatTaken
                | Refusal::AnalysesBusy(_)
                | Refusal::EngineMarking
                | Refusal::NotTeacher
                | Refusal::NameTaken
                | Refusal::WrongPassword
                | Refusal::LoginsTooFast(_)
                | Refusal::NotMember => {}
            }
        }
        for r in all {
            let key = format!("err_{}", r.code());
            for lang in tengen_words::Lang::all() {
                let own = tengen_words::texts(lang, "page.").any(|(k, _)| k == key);
                assert!(own, "page.{key} in the {lang} catalogue");
            }
        }
    }

    #[test]
    fn a_server_failure_reaches_the_client_without_its_details() {
        let failed = WebError::Io(std::io::Error::other("cannot open /srv/tengen/secret.db"));
        let (code, message) = failed.reply();
        assert_eq!(code, "server");
        assert_eq!(message, SERVER_FAILED);
        assert!(!message.contains("secret"));
        // A refusal still says why.
        let refused = WebError::invalid("size", "the board is 1x1 at least");
        assert_eq!(refused.reply().1, refused.to_string());
    }

    #[test]
    fn storage_errors_read_as_the_page_expects() {
        let lost = WebError::from(StoreError::DatabaseLost {
            path: "tengen.db".into(),
            what: "removed".into(),
        });
        assert_eq!(
            lost.code(),
            "storage_lost",
            "the page is told, in its words"
        );
        assert_eq!(lost.status(), StatusCode::SERVICE_UNAVAILABLE);
        let conflict = WebError::from(StoreError::Conflict);
        assert_eq!(
            (conflict.code(), conflict.status()),
            ("conflict", StatusCode::CONFLICT)
        );
        let read_only = WebError::from(StoreError::ReadOnly("tengen.db".into()));
        assert_eq!(read_only.code(), "server");
        assert_eq!(read_only.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
