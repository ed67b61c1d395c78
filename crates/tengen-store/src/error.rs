//! What can go wrong in storage, apart from the server's other refusals:
//! the server turns these into its own answers (a conflict is retried, a
//! lost database is said to clients and to `/healthz`, the rest is the
//! server's failure, logged whole and told in a word).

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The SQLite database failed.
    #[error("storage: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The PostgreSQL database failed or cannot be reached.
    #[cfg(feature = "postgres")]
    #[error("storage: {}", postgres_text(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// A PostgreSQL database was given to a build without the feature
    /// `postgres`. There in every build, so that code matching it builds
    /// with the feature or without.
    #[error(
        "the database is a PostgreSQL one, but this build has no PostgreSQL support: build it with the cargo feature `postgres` (on by default), or give a SQLite file"
    )]
    NoPostgres,
    /// Another server stored an action at this position of the game's log
    /// first: the game has moved on, the request is read again.
    #[error("the game changed meanwhile: look again and retry")]
    Conflict,
    /// The database can be read but not written: every move would fail.
    #[error(
        "the database {0} is read-only: the server stores every move, so it needs a file it can write (choose another with --db, or change the file's permissions)"
    )]
    ReadOnly(String),
    /// The database file was removed or replaced while the server ran:
    /// nothing written now would be kept.
    #[error(
        "the database {path} was {what} while the server ran: nothing more is stored (put the file back, or restart the server)"
    )]
    DatabaseLost {
        /// The file.
        path: String,
        /// `removed` or `replaced by another file`.
        what: String,
    },
    /// The last write failed for the disk's sake (full, or failing).
    #[error("the database cannot be written: {0}")]
    DiskFailing(String),
    /// A database address or TLS setting the store cannot use.
    #[error("invalid {field}: {why}")]
    Invalid {
        /// The setting.
        field: &'static str,
        /// Why.
        why: String,
    },
    /// A file, a thread or the writer failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

impl StoreError {
    /// [`StoreError::Invalid`]: `field` cannot be `why`.
    pub fn invalid(field: &'static str, why: impl ToString) -> StoreError {
        StoreError::Invalid {
            field,
            why: why.to_string(),
        }
    }
}

/// What PostgreSQL said, or why it could not be reached: the driver's
/// own text is only its kind ("db error", "error performing TLS
/// handshake"), the reason is in its causes.
#[cfg(feature = "postgres")]
fn postgres_text(e: &tokio_postgres::Error) -> String {
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
