//! tengen's web board: `tengen serve`.
//!
//! An axum server with one WebSocket per game, a database where every
//! action is stored before it is acknowledged (games are rebuilt by
//! replaying their actions, so a killed server loses nothing), and a static
//! page embedded in the binary that draws the board in SVG, in French and
//! English. The database is a SQLite file for one server, or PostgreSQL
//! for several serving the same games, whose engine moves any of them
//! computes (the `tengen-store` crate, [`store`] here). This is the only crate that knows HTTP and JSON. What one
//! client may take of the machine is bounded ([`Limits`]): connections,
//! slow requests, engine, review and analysis CPU, games kept in memory.
//!
//! ```no_run
//! # async fn start() -> Result<(), tengen_web::WebError> {
//! let config = tengen_web::ServeConfig::new(
//!     "127.0.0.1:8619".parse().unwrap(),
//!     std::path::PathBuf::from("tengen.db"),
//! );
//! let server = tengen_web::Server::bind(&config).await?;
//! println!("http://{}", server.local_addr());
//! server.run().await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod action;
pub mod allowance;
pub mod analysis;
mod analyst;
mod assets;
pub mod chat;
pub mod class;
pub mod client;
pub mod clock;
mod date;
mod engine;
pub mod error;
pub mod estimate;
mod fanout;
pub mod held;
pub mod hub;
pub mod lessons;
pub mod limits;
mod listen;
pub mod lobby;
pub mod member;
pub mod names;
pub mod origin;
pub mod pauses;
pub mod pool;
pub mod presence;
pub mod protocol;
mod record_name;
pub mod review;
pub mod room;
pub mod said;
pub mod seat;
mod security;
mod server;
pub mod settings;
pub mod token;
pub mod turns;
pub mod view;
pub mod watchers;
mod workers;

pub use error::{Refusal, WebError};
pub use limits::Limits;
pub use server::{DEFAULT_PORT, ServeConfig, Server};
/// The storage, its own crate: the modules here name it `store`.
pub use tengen_store as store;
pub use tengen_store::{Database, Environment};
use tengen_store::{environment, priority};
