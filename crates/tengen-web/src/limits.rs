//! The server's bounds, in one place: what one client, or many, may take
//! of the machine (connections, CPU for the engine, reviews and analyses,
//! memory for unwatched games) and how long a slow client is waited for.

use std::time::Duration;

/// How much the server gives. [`Limits::default`] suits a machine of the
/// cores found; tests and benchmarks change single fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at once (WebSockets included); further clients
    /// wait in the listen queue until one closes.
    pub connections: usize,
    /// Connections one peer (one address, or IPv6 /64) may hold open at
    /// once (0: no limit); a trusted proxy's are not counted. Past it, its
    /// new connection is refused at once, so that one peer never takes
    /// the places of `connections` from everyone else.
    pub connections_per_peer: usize,
    /// A request's head (and, between requests, an idle connection's next
    /// head) must arrive within this, or the connection is closed.
    pub header_read: Duration,
    /// A request's body must arrive within this.
    pub body_read: Duration,
    /// CPU-heavy jobs of every kind (engine moves and reviews together)
    /// at once: the share of the cores they may take, whatever each kind's
    /// own limit.
    pub heavy_workers: usize,
    /// Engine moves searched at once by this server; others wait in line
    /// (in the database, for any server's worker). 0: a server that never
    /// computes the engine's moves.
    pub engine_workers: usize,
    /// How long a worker holds an engine job without renewing it: a server
    /// that dies mid-thought gives its job to another after this.
    pub engine_lease: Duration,
    /// How often a server on a shared database says again who is connected
    /// through it (to the games it holds connections to): what a server
    /// said and has not said again within its lease
    /// ([`Limits::presence_lease`]) is forgotten, so that the players of
    /// a server killed outright are shown gone.
    pub presence_period: Duration,
    /// Open games (not over, and created or played in within
    /// [`Limits::open_for`]) one client may have created, of every kind
    /// (0: no limit). Counted by the database: on PostgreSQL, over every
    /// server.
    pub games_per_client: usize,
    /// Of those, games against the engine (0: no limit): each costs a
    /// search per move.
    pub engine_games_per_client: usize,
    /// Of those, games listed in the lobby (0: no limit): the lobby shows
    /// the newest hundred, which one client could otherwise fill.
    pub listed_per_client: usize,
    /// How long a game nobody plays in still counts as its creator's
    /// open game.
    pub open_for: Duration,
    /// Games one client may create a minute (as many at once); 0: no
    /// limit. A person creates a few; a flood of creations would fill the
    /// memory and the lobby.
    pub games_per_minute: u32,
    /// Tries to log in a minute, per client and per member name (as many
    /// at once); 0: no limit. Enough for a person who mistypes, too few
    /// to guess a password.
    pub logins_per_minute: u32,
    /// Records read for review at once; others wait in line.
    pub review_workers: usize,
    /// Positions of records under analysis searched at once (on the
    /// shared cores of `heavy_workers`); others wait in line.
    pub analysis_workers: usize,
    /// Simulations in the engine's tree for each position of a record under
    /// analysis, those read below the move played from the position before
    /// included: with the network, a 252-move 19x19 game in 45 s on two
    /// threads (`tengen bench analysis`).
    pub analysis_playouts: u64,
    /// Threads of each position's search: two share a search's tree, so
    /// that one record's review uses a two-core machine whole (at the
    /// heavy work's lower priority: moves are still acknowledged first).
    pub analysis_threads: usize,
    /// Records analysed at once; a further one is refused until one ends.
    pub analyses_at_once: usize,
    /// Records one client may have analysed at once (0: no limit), so
    /// that one client cannot take every place of `analyses_at_once`.
    pub analyses_per_client: usize,
    /// Games held in memory before the least recently touched of those
    /// nobody watches leave it early (a tenth of a megabyte or so each):
    /// a flood of new games cannot fill the memory.
    pub games_loaded: usize,
    /// A game nobody has watched or touched for this long leaves memory
    /// (it is replayed from the database when next opened).
    pub unload_after: Duration,
    /// A server that starts when no server has been alive for this long
    /// counts the time since the last one's heartbeat as an outage, over
    /// which the clocks stand still (a quicker restart keeps them running).
    pub outage_after: Duration,
    /// The first WebSocket message (the seat token) must arrive within
    /// this.
    pub hello: Duration,
    /// Game sockets one client may hold open at once (0: no limit): far
    /// more than a person's tabs, far fewer than the server's
    /// `connections`.
    pub sockets_per_client: usize,
    /// A game socket is pinged this often, and closed when nothing (not
    /// even the answer to a ping, which every browser sends) has come
    /// from it for three times this: a client that holds sockets without
    /// reading them, or one gone without a word, lets its place go.
    pub socket_ping: Duration,
}

impl Limits {
    /// How long what this server says of who is connected through it
    /// holds: [`crate::presence::LEASE_PERIODS`] periods (the others are
    /// told it with every word).
    pub fn presence_lease(&self) -> Duration {
        self.presence_period
            .max(Duration::from_millis(10))
            .saturating_mul(crate::presence::LEASE_PERIODS)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // The engine and reviews together leave the async workers a core
        // (`heavy_workers`), and run at a lower priority than they
        // (`crate::priority`), so that moves are acknowledged however busy
        // they are.
        let heavy = cores.saturating_sub(1).max(1);
        Limits {
            connections: 4096,
            connections_per_peer: 256,
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(30),
            heavy_workers: heavy,
            engine_workers: heavy,
            engine_lease: Duration::from_secs(30),
            presence_period: Duration::from_secs(5),
            games_per_client: 20,
            engine_games_per_client: 8,
            listed_per_client: 4,
            open_for: Duration::from_secs(600),
            games_per_minute: 30,
            logins_per_minute: 10,
            review_workers: (cores / 4).max(1),
            analysis_workers: (cores / 4).max(1),
            analysis_playouts: 1_000,
            analysis_threads: cores.clamp(1, 2),
            analyses_at_once: 4,
            analyses_per_client: 1,
            games_loaded: 10_000,
            unload_after: Duration::from_secs(600),
            outage_after: Duration::from_secs(15),
            hello: Duration::from_secs(10),
            sockets_per_client: 64,
            socket_ping: Duration::from_secs(30),
        }
    }
}
