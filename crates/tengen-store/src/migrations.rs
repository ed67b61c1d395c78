//! The schema, as numbered steps, each written for both stores side by
//! side so that they keep one schema. A database records the steps it has
//! (table `tengen_migrations`) and is brought up to date in place when a
//! server opens it. Adding a table is adding one step at the end; a step
//! once released is never changed.
//!
//! Step 1 is the schema of the databases made before steps were counted:
//! its `IF NOT EXISTS` makes it a no-op on them, so they upgrade like any
//! other. Step 3 likewise: such files may hold its tables already.

/// One step of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Its number, from 1, in order.
    pub version: u32,
    /// What it adds, for people reading the database.
    pub name: &'static str,
    /// The statements for SQLite.
    pub sqlite: &'static str,
    /// The statements for PostgreSQL.
    pub postgres: &'static str,
}

/// Every step, in order.
pub const STEPS: &[Step] = &[
    Step {
        version: 1,
        name: "games, their actions, learners",
        sqlite: "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    komi TEXT,
    handicap INTEGER NOT NULL,
    handicap_stones TEXT NOT NULL,
    opponent TEXT NOT NULL,
    black_token TEXT NOT NULL,
    white_token TEXT NOT NULL,
    clock TEXT,
    lesson INTEGER,
    learner TEXT,
    created INTEGER NOT NULL,
    state TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS learners (
    id TEXT PRIMARY KEY,
    unlocked INTEGER NOT NULL
);",
        postgres: "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    komi TEXT,
    handicap INTEGER NOT NULL,
    handicap_stones TEXT NOT NULL,
    opponent TEXT NOT NULL,
    black_token TEXT NOT NULL,
    white_token TEXT NOT NULL,
    clock TEXT,
    lesson INTEGER,
    learner TEXT,
    created BIGINT NOT NULL,
    state TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS learners (
    id TEXT PRIMARY KEY,
    unlocked INTEGER NOT NULL
);",
    },
    Step {
        version: 2,
        name: "engine moves waiting for a worker",
        // One row per game whose engine is to act at `seq`; `lease_until`
        // (ms since the epoch) is 0 while no node works on it, and a lease
        // run out means its node died: another takes the job.
        sqlite: "
CREATE TABLE engine_jobs (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seq INTEGER NOT NULL,
    owner TEXT,
    lease_until INTEGER NOT NULL,
    created INTEGER NOT NULL
);
CREATE INDEX engine_jobs_lease ON engine_jobs (lease_until, created);",
        postgres: "
CREATE TABLE engine_jobs (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seq BIGINT NOT NULL,
    owner TEXT,
    lease_until BIGINT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX engine_jobs_lease ON engine_jobs (lease_until, created);",
    },
    Step {
        version: 3,
        name: "chat, players' seats, the lobby, stored analyses",
        // `IF NOT EXISTS`: SQLite files made before steps were counted may
        // have these tables already (with this very schema).
        sqlite: "
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS players (
    game_id TEXT NOT NULL REFERENCES games(id),
    color TEXT NOT NULL,
    name TEXT,
    joined INTEGER NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE TABLE IF NOT EXISTS lobby (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    listed INTEGER NOT NULL,
    seat TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS analyses (
    record TEXT NOT NULL,
    position INTEGER NOT NULL,
    total INTEGER NOT NULL,
    playouts INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (record, position)
);",
        postgres: "
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    seat TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS players (
    game_id TEXT NOT NULL REFERENCES games(id),
    color TEXT NOT NULL,
    name TEXT,
    joined BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE TABLE IF NOT EXISTS lobby (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    listed BIGINT NOT NULL,
    seat TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS analyses (
    record TEXT NOT NULL,
    position INTEGER NOT NULL,
    total INTEGER NOT NULL,
    playouts BIGINT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (record, position)
);",
    },
    Step {
        version: 4,
        name: "who created each game, when each client's engine move was last taken",
        // `creator` is the client (its address, an IPv6 one as its /64) that created
        // the game, NULL for games made before: the per-client quotas count
        // its open games across every server. `engine_served` says when a
        // client's engine move was last taken, so that workers take turns
        // between clients (`Store::take_job`).
        sqlite: "
ALTER TABLE games ADD COLUMN creator TEXT;
CREATE INDEX games_creator ON games (creator, created);
CREATE TABLE engine_served (
    client TEXT PRIMARY KEY,
    served INTEGER NOT NULL
);",
        postgres: "
ALTER TABLE games ADD COLUMN creator TEXT;
CREATE INDEX games_creator ON games (creator, created);
CREATE TABLE engine_served (
    client TEXT PRIMARY KEY,
    served BIGINT NOT NULL
);",
    },
    Step {
        version: 5,
        name: "seat tokens kept as their digests",
        // Each token becomes its SHA-256 in hex (`token::digest`): SQLite
        // through the function the store gives its connection for this,
        // PostgreSQL through its own `sha256`.
        sqlite: "
UPDATE games SET black_token = tengen_digest(black_token),
    white_token = tengen_digest(white_token);",
        postgres: "
UPDATE games SET black_token = encode(sha256(convert_to(black_token, 'UTF8')), 'hex'),
    white_token = encode(sha256(convert_to(white_token, 'UTF8')), 'hex');",
    },
    Step {
        version: 6,
        name: "each server's heartbeat and the outages when none ran",
        // `heartbeats` says when each server was last alive; a server that
        // starts with none alive for a while records the span as an outage,
        // over which the games' clocks stand still (`Store::start`).
        sqlite: "
CREATE TABLE heartbeats (
    node TEXT PRIMARY KEY,
    alive INTEGER NOT NULL
);
CREATE TABLE outages (
    start_ms INTEGER PRIMARY KEY,
    end_ms INTEGER NOT NULL
);",
        postgres: "
CREATE TABLE heartbeats (
    node TEXT PRIMARY KEY,
    alive BIGINT NOT NULL
);
CREATE TABLE outages (
    start_ms BIGINT PRIMARY KEY,
    end_ms BIGINT NOT NULL
);",
    },
    Step {
        version: 7,
        name: "teachers' classes, their pupils and the problems each learner solved",
        // A class is a short code and its teacher's token (a digest); a
        // pupil is a first name in a class and the learner it plays as, so
        // that the same name on another device is the same learner.
        sqlite: "
CREATE TABLE classes (
    code TEXT PRIMARY KEY,
    teacher TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE pupils (
    class_code TEXT NOT NULL REFERENCES classes (code),
    name TEXT NOT NULL,
    learner TEXT NOT NULL,
    joined INTEGER NOT NULL,
    PRIMARY KEY (class_code, name)
);
CREATE TABLE solved (
    learner TEXT NOT NULL,
    screen TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (learner, screen)
);",
        postgres: "
CREATE TABLE classes (
    code TEXT PRIMARY KEY,
    teacher TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE pupils (
    class_code TEXT NOT NULL REFERENCES classes (code),
    name TEXT NOT NULL,
    learner TEXT NOT NULL,
    joined BIGINT NOT NULL,
    PRIMARY KEY (class_code, name)
);
CREATE TABLE solved (
    learner TEXT NOT NULL,
    screen TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (learner, screen)
);",
    },
    Step {
        version: 8,
        name: "members, their sessions and the seats they hold",
        // A member is a name (its key the name in lower case, so that "Ana"
        // and "ana" are one member) and an Argon2id hash; a session is the
        // digest of the cookie's token, valid while its generation is the
        // member's (a new password ends every session in one statement); a
        // seat held by a member is proven by the session from any device,
        // the seat token not needed.
        sqlite: "
CREATE TABLE members (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    generation BIGINT NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE TABLE member_sessions (
    digest TEXT PRIMARY KEY,
    member TEXT NOT NULL REFERENCES members (key),
    generation BIGINT NOT NULL,
    created INTEGER NOT NULL
);
CREATE INDEX member_sessions_by_member ON member_sessions (member);
CREATE TABLE member_seats (
    member TEXT NOT NULL REFERENCES members (key),
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (member, game_id)
);",
        postgres: "
CREATE TABLE members (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    generation BIGINT NOT NULL DEFAULT 0,
    created BIGINT NOT NULL
);
CREATE TABLE member_sessions (
    digest TEXT PRIMARY KEY,
    member TEXT NOT NULL REFERENCES members (key),
    generation BIGINT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX member_sessions_by_member ON member_sessions (member);
CREATE TABLE member_seats (
    member TEXT NOT NULL REFERENCES members (key),
    game_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (member, game_id)
);",
    },
];

/// The table that records the steps a database has.
pub const LEDGER: &str = "CREATE TABLE IF NOT EXISTS tengen_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied BIGINT NOT NULL
)";

/// The steps a database that has `done` still lacks, in order.
pub fn missing(done: &[u32]) -> impl Iterator<Item = &'static Step> + '_ {
    STEPS.iter().filter(move |s| !done.contains(&s.version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_numbered_in_order_and_written_for_both_stores() {
        for (i, step) in STEPS.iter().enumerate() {
            assert_eq!(step.version as usize, i + 1, "{}", step.name);
            assert!(!step.sqlite.trim().is_empty(), "{}", step.name);
            assert!(!step.postgres.trim().is_empty(), "{}", step.name);
            // The same tables in both.
            let tables = |sql: &str| {
                let mut t: Vec<String> = sql
                    .split("CREATE TABLE")
                    .skip(1)
                    .filter_map(|s| {
                        s.trim_start()
                            .trim_start_matches("IF NOT EXISTS")
                            .split_whitespace()
                            .next()
                            .map(str::to_string)
                    })
                    .collect();
                t.sort();
                t
            };
            assert_eq!(tables(step.sqlite), tables(step.postgres), "{}", step.name);
        }
        assert_eq!(
            missing(&[1, 3, 4, 5, 7, 8])
                .map(|s| s.version)
                .collect::<Vec<_>>(),
            [2, 6]
        );
    }
}
