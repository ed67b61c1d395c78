//! SQLite storage: one row per game, one row per action. An action is
//! stored (in a transaction with the game's new state) before the server
//! acknowledges or broadcasts it, and games are rebuilt by replaying their
//! actions, so a server killed at any moment loses nothing it answered.

use crate::analysis::PositionAnalysis;
use crate::chat::ChatLine;
use crate::error::WebError;
use rusqlite::{Connection, ErrorCode, MAIN_DB, OptionalExtension, params};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};

const SCHEMA: &str = "
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
);
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
);
";

/// A game's settings as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Public id (in the game's address).
    pub id: String,
    /// Preset name.
    pub rules: String,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Komi chosen, exact text (`None`: the rules' komi or compensation).
    pub komi: Option<String>,
    /// Handicap stones.
    pub handicap: u32,
    /// `fixed`, or the vertices of a free placement.
    pub handicap_stones: String,
    /// The opponent, as JSON.
    pub opponent: String,
    /// Black's seat token.
    pub black_token: String,
    /// White's seat token.
    pub white_token: String,
    /// The time control, as JSON.
    pub clock: Option<String>,
    /// Learning-path step (1-4), if the game is one.
    pub lesson: Option<u32>,
    /// The learner who plays the step.
    pub learner: Option<String>,
    /// Creation time, ms since the epoch.
    pub created: i64,
    /// `playing`, `marking` or `over`.
    pub state: String,
    /// The SGF `RE` value once over.
    pub result: Option<String>,
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// Position in the game's log, from 1.
    pub seq: u64,
    /// The action, as JSON.
    pub payload: String,
    /// When it was received, ms since the epoch.
    pub at: i64,
}

/// One action to store and what it changes besides the log. Owned, so
/// that it can wait in the writer's queue.
#[derive(Clone, Debug)]
pub struct Append {
    /// The game.
    pub game_id: String,
    /// Position in the log.
    pub seq: u64,
    /// Short kind (`play`, `pass`, `undo`, `dead`...), for people reading the
    /// database.
    pub kind: &'static str,
    /// The action as JSON.
    pub payload: String,
    /// When, ms since the epoch.
    pub at: i64,
    /// The game's state after it.
    pub state: &'static str,
    /// The result after it, if over.
    pub result: Option<String>,
    /// The learning-path step it opens, and to whom (the winning action of
    /// a lesson): written in the same transaction as the action, so that a
    /// crash cannot keep the win and lose the unlock.
    pub unlock: Option<(String, u32)>,
}

/// A seat taken: who sits there (a name, if given) and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The game.
    pub game_id: String,
    /// `black` or `white`.
    pub color: String,
    /// The name the player gave (none: keeps the one stored).
    pub name: Option<String>,
    /// When the seat was first taken, ms since the epoch.
    pub joined: i64,
}

/// A game listed in the lobby, with its seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    /// The game's settings and state.
    pub game: GameRow,
    /// When it was listed, ms since the epoch.
    pub listed: i64,
    /// The colour of the seat offered to anyone.
    pub seat: String,
    /// Its seats taken so far.
    pub players: Vec<PlayerRow>,
}

/// What the writer stores: every kind of write goes through the one
/// writer thread, in its group-committed transactions.
#[derive(Clone, Debug)]
enum Write {
    /// A game's actions.
    Actions(Vec<Append>),
    /// A chat line.
    Chat(ChatLine),
    /// A seat taken or renamed.
    Player(PlayerRow),
}

/// One write waiting for the writer, and who waits for it.
struct Job {
    write: Write,
    done: tokio::sync::oneshot::Sender<Result<(), WebError>>,
}

/// The database behind the server.
#[derive(Debug)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    writer: mpsc::Sender<Job>,
}

impl Store {
    /// Opens (creating if needed) the database at `path`. WAL journal with
    /// normal sync: a committed action survives the process being killed.
    ///
    /// # Errors
    /// [`WebError::Storage`] when the file cannot be opened or created;
    /// [`WebError::ReadOnly`] when it cannot be written (found now rather
    /// than at the first move).
    pub fn open(path: &Path) -> Result<Store, WebError> {
        let conn = Connection::open(path)?;
        check_writable(&conn, path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        let conn = Arc::new(Mutex::new(conn));
        let (writer, jobs) = mpsc::channel();
        let shared = Arc::clone(&conn);
        std::thread::Builder::new()
            .name("tengen-db-writer".into())
            .spawn(move || write_jobs(&shared, &jobs))?;
        Ok(Store { conn, writer })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn insert_game(&self, g: &GameRow) -> Result<(), WebError> {
        self.conn().execute(
            "INSERT INTO games (id, rules, width, height, komi, handicap, handicap_stones,
                opponent, black_token, white_token, clock, lesson, learner, created, state, result)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                g.id,
                g.rules,
                g.width,
                g.height,
                g.komi,
                g.handicap,
                g.handicap_stones,
                g.opponent,
                g.black_token,
                g.white_token,
                g.clock,
                g.lesson,
                g.learner,
                g.created,
                g.state,
                g.result
            ],
        )?;
        Ok(())
    }

    /// The game `id`, if stored.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, WebError> {
        let row = self
            .conn()
            .query_row(
                "SELECT id, rules, width, height, komi, handicap, handicap_stones, opponent,
                    black_token, white_token, clock, lesson, learner, created, state, result
                 FROM games WHERE id = ?1",
                [id],
                game_row,
            )
            .optional()?;
        Ok(row)
    }

    /// The actions of game `id`, in order.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn actions(&self, id: &str) -> Result<Vec<StoredAction>, WebError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT seq, payload, at FROM moves WHERE game_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map([id], |r| {
            Ok(StoredAction {
                seq: r.get(0)?,
                payload: r.get(1)?,
                at: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Stores a game's actions (in order, with its new state) in one
    /// transaction and returns once they are committed. Group commit: the
    /// actions of every game that arrive while a transaction is written go
    /// together in the next one, so the cost of a commit is shared.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure (none of `appends` is
    /// stored then); [`WebError::Io`] when the writer has stopped.
    pub async fn append(&self, appends: Vec<Append>) -> Result<(), WebError> {
        self.write(Write::Actions(appends)).await
    }

    /// Stores a chat line and returns once it is committed (with the
    /// actions of the same group commit).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure (a line already
    /// numbered so among them); [`WebError::Io`] when the writer has
    /// stopped.
    pub async fn say(&self, line: ChatLine) -> Result<(), WebError> {
        self.write(Write::Chat(line)).await
    }

    /// Records a seat taken (the first time) or renamed, once committed.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure; [`WebError::Io`] when
    /// the writer has stopped.
    pub async fn seat(&self, player: PlayerRow) -> Result<(), WebError> {
        self.write(Write::Player(player)).await
    }

    async fn write(&self, write: Write) -> Result<(), WebError> {
        let stopped = || WebError::Io(std::io::Error::other("the database writer has stopped"));
        let (done, answer) = tokio::sync::oneshot::channel();
        self.writer
            .send(Job { write, done })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// The last `limit` chat lines of game `id`, oldest first, and the
    /// highest position stored.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn chat(&self, id: &str, limit: usize) -> Result<(Vec<ChatLine>, u64), WebError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT seq, seat, name, text, at FROM chat WHERE game_id = ?1
             ORDER BY seq DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![id, limit as i64], |r| {
            Ok(ChatLine {
                game_id: id.to_string(),
                seq: r.get(0)?,
                seat: r.get(1)?,
                name: r.get(2)?,
                text: r.get(3)?,
                at: r.get(4)?,
            })
        })?;
        let mut lines = rows.collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        let last = lines.last().map_or(0, |l| l.seq);
        Ok((lines, last))
    }

    /// The seats of game `id` taken so far.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn players(&self, id: &str) -> Result<Vec<PlayerRow>, WebError> {
        players_of(&self.conn(), id)
    }

    /// Lists game `id` in the lobby from `at` (ms since the epoch), its
    /// seat of colour `seat` free for anyone to take.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn list(&self, id: &str, at: i64, seat: &str) -> Result<(), WebError> {
        self.conn().execute(
            "INSERT OR IGNORE INTO lobby (game_id, listed, seat) VALUES (?1, ?2, ?3)",
            params![id, at, seat],
        )?;
        Ok(())
    }

    /// The seat game `id` offers in the lobby, if it is listed.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn listed_seat(&self, id: &str) -> Result<Option<String>, WebError> {
        Ok(self
            .conn()
            .query_row("SELECT seat FROM lobby WHERE game_id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// The games listed in the lobby and not over, newest first, at most
    /// `limit`.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn lobby(&self, limit: usize) -> Result<Vec<LobbyRow>, WebError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT g.id, g.rules, g.width, g.height, g.komi, g.handicap, g.handicap_stones,
                g.opponent, g.black_token, g.white_token, g.clock, g.lesson, g.learner,
                g.created, g.state, g.result, l.listed, l.seat
             FROM lobby l JOIN games g ON g.id = l.game_id
             WHERE g.state != 'over' ORDER BY l.listed DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok((game_row(r)?, r.get::<_, i64>(16)?, r.get::<_, String>(17)?))
        })?;
        let listed = rows.collect::<Result<Vec<_>, _>>()?;
        listed
            .into_iter()
            .map(|(game, listed, seat)| {
                let players = players_of(&conn, &game.id)?;
                Ok(LobbyRow {
                    game,
                    listed,
                    seat,
                    players,
                })
            })
            .collect()
    }

    /// The highest learning-path step open to `learner` (1 for a newcomer).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn unlocked(&self, learner: &str) -> Result<u32, WebError> {
        let n: Option<u32> = self
            .conn()
            .query_row(
                "SELECT unlocked FROM learners WHERE id = ?1",
                [learner],
                |r| r.get(0),
            )
            .optional()?;
        Ok(n.unwrap_or(1))
    }
}

/// A game row from the first 16 columns of a query, in the order of the
/// `games` table.
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        rules: r.get(1)?,
        width: r.get(2)?,
        height: r.get(3)?,
        komi: r.get(4)?,
        handicap: r.get(5)?,
        handicap_stones: r.get(6)?,
        opponent: r.get(7)?,
        black_token: r.get(8)?,
        white_token: r.get(9)?,
        clock: r.get(10)?,
        lesson: r.get(11)?,
        learner: r.get(12)?,
        created: r.get(13)?,
        state: r.get(14)?,
        result: r.get(15)?,
    })
}

fn players_of(conn: &Connection, id: &str) -> Result<Vec<PlayerRow>, WebError> {
    let mut stmt =
        conn.prepare_cached("SELECT color, name, joined FROM players WHERE game_id = ?1")?;
    let rows = stmt.query_map([id], |r| {
        Ok(PlayerRow {
            game_id: id.to_string(),
            color: r.get(0)?,
            name: r.get(1)?,
            joined: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Opens step `step` to `learner` (never closes one already open); only
/// inside the transaction of the action that wins the step before.
const UNLOCK: &str = "INSERT INTO learners (id, unlocked) VALUES (?1, ?2)
     ON CONFLICT(id) DO UPDATE SET unlocked = MAX(unlocked, excluded.unlocked)";

/// The engine's analyses of records under review: one row per position,
/// stored as it is searched.
impl Store {
    /// The positions of record `key` analysed so far, in order.
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure; [`WebError::Stored`]
    /// for a row that is not an analysis.
    pub fn analysis(&self, key: &str) -> Result<Vec<PositionAnalysis>, WebError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached("SELECT data FROM analyses WHERE record = ?1 ORDER BY position")?;
        let rows = stmt.query_map([key], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(serde_json::from_str(&row?)?);
        }
        Ok(out)
    }

    /// Stores the analysis of one position of record `key` (of `total`
    /// positions, searched for `playouts` simulations).
    ///
    /// # Errors
    /// [`WebError::Storage`] on a database failure.
    pub fn store_analysis(
        &self,
        key: &str,
        total: usize,
        playouts: u64,
        position: &PositionAnalysis,
    ) -> Result<(), WebError> {
        let data = serde_json::to_string(position)?;
        self.conn().execute(
            "INSERT OR REPLACE INTO analyses (record, position, total, playouts, data)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, position.number, total, playouts, data],
        )?;
        Ok(())
    }
}

/// Refuses a database that can only be read: opened read-only (SQLite
/// falls back to that when the file or its file system cannot be written)
/// or refusing the write lock a move takes.
fn check_writable(conn: &Connection, path: &Path) -> Result<(), WebError> {
    let read_only = || WebError::ReadOnly(path.display().to_string());
    if conn.is_readonly(MAIN_DB)? {
        return Err(read_only());
    }
    match conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;") {
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::ReadOnly) => Err(read_only()),
        other => Ok(other?),
    }
}

fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    // A panic while holding the lock cannot leave SQLite inconsistent:
    // every write is one transaction.
    conn.lock().unwrap_or_else(|e| e.into_inner())
}

/// The writer thread: takes every job waiting, stores them in one
/// transaction and answers each once it is committed. When that
/// transaction fails, each job is stored alone, so that one bad job
/// refuses no other. Ends when the store is dropped.
fn write_jobs(conn: &Mutex<Connection>, jobs: &mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        batch.extend(jobs.try_iter());
        let mut conn = lock(conn);
        if insert_all(&mut conn, batch.iter().map(|j| &j.write)).is_ok() {
            for job in batch {
                // The requester may have gone: nothing to tell.
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in batch {
                let _ = job.done.send(insert_all(&mut conn, [&job.write]));
            }
        }
    }
}

/// Stores writes (actions with their games' new states and the steps they
/// open, chat lines, seats) in one transaction.
fn insert_all<'a>(
    conn: &mut Connection,
    writes: impl IntoIterator<Item = &'a Write>,
) -> Result<(), WebError> {
    let tx = conn.transaction()?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO moves (game_id, seq, kind, payload, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut update =
            tx.prepare_cached("UPDATE games SET state = ?2, result = ?3 WHERE id = ?1")?;
        let mut unlock = tx.prepare_cached(UNLOCK)?;
        for w in writes {
            match w {
                Write::Actions(appends) => {
                    for a in appends {
                        insert.execute(params![a.game_id, a.seq, a.kind, a.payload, a.at])?;
                        update.execute(params![a.game_id, a.state, a.result])?;
                        if let Some((learner, step)) = &a.unlock {
                            unlock.execute(params![learner, step])?;
                        }
                    }
                }
                Write::Chat(l) => {
                    tx.prepare_cached(
                        "INSERT INTO chat (game_id, seq, seat, name, text, at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![l.game_id, l.seq, l.seat, l.name, l.text, l.at])?;
                }
                Write::Player(p) => {
                    tx.prepare_cached(
                        "INSERT INTO players (game_id, color, name, joined) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT(game_id, color) DO UPDATE
                         SET name = COALESCE(excluded.name, name)",
                    )?
                    .execute(params![p.game_id, p.color, p.name, p.joined])?;
                }
            }
        }
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            rules: "ffg".into(),
            width: 9,
            height: 9,
            komi: None,
            handicap: 0,
            handicap_stones: "fixed".into(),
            opponent: r#"{"kind":"friend"}"#.into(),
            black_token: "b".into(),
            white_token: "w".into(),
            clock: None,
            lesson: None,
            learner: None,
            created: 0,
            state: "playing".into(),
            result: None,
        }
    }

    fn play(id: &str, seq: u64, vertex: &str) -> Append {
        Append {
            game_id: id.into(),
            seq,
            kind: "play",
            payload: format!(r#"{{"kind":"play","color":"black","vertex":"{vertex}"}}"#),
            at: 0,
            state: "playing",
            result: None,
            unlock: None,
        }
    }

    #[tokio::test]
    async fn a_refused_append_stores_nothing_and_spares_the_others() {
        let path = std::env::temp_dir().join(format!("tengen-store-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path).unwrap();
        store.insert_game(&game("a")).unwrap();
        store.insert_game(&game("b")).unwrap();
        store.append(vec![play("a", 1, "D4")]).await.unwrap();
        // Many games at once share transactions; a duplicate position in
        // one game's log must not cost the other games their moves.
        let (bad, good, other) = tokio::join!(
            store.append(vec![play("a", 2, "E5"), play("a", 1, "F6")]),
            store.append(vec![play("b", 1, "C3"), play("b", 2, "C4")]),
            store.append(vec![play("a", 2, "G7")]),
        );
        assert!(matches!(bad, Err(WebError::Storage(_))), "{bad:?}");
        good.unwrap();
        other.unwrap();
        let a: Vec<u64> = store.actions("a").unwrap().iter().map(|s| s.seq).collect();
        assert_eq!(a, [1, 2]);
        assert!(store.actions("a").unwrap()[1].payload.contains("G7"));
        assert_eq!(store.actions("b").unwrap().len(), 2);
        drop(store);
        for end in ["", "-wal", "-shm"] {
            let mut name = path.clone().into_os_string();
            name.push(end);
            let _ = std::fs::remove_file(name);
        }
    }

    fn remove_db(path: &Path) {
        for end in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(end);
            let _ = std::fs::remove_file(name);
        }
    }

    #[tokio::test]
    async fn the_unlock_is_stored_with_the_winning_action_or_not_at_all() {
        let path = std::env::temp_dir().join(format!("tengen-unlock-{}.db", std::process::id()));
        remove_db(&path);
        let store = Store::open(&path).unwrap();
        store.insert_game(&game("a")).unwrap();
        store.append(vec![play("a", 1, "D4")]).await.unwrap();
        let winning = |seq| Append {
            state: "over",
            result: Some("B+C".into()),
            unlock: Some(("learner1".into(), 2)),
            ..play("a", seq, "E5")
        };
        // A winning action that cannot be stored (its place in the log is
        // taken) opens nothing: the unlock is in its transaction.
        assert!(store.append(vec![winning(1)]).await.is_err());
        assert_eq!(store.unlocked("learner1").unwrap(), 1);
        assert_eq!(store.game("a").unwrap().unwrap().state, "playing");
        // Stored, it opens the step in the same commit.
        store.append(vec![winning(2)]).await.unwrap();
        assert_eq!(store.unlocked("learner1").unwrap(), 2);
        assert_eq!(store.game("a").unwrap().unwrap().state, "over");
        // A later win of an earlier step never closes a step.
        store.insert_game(&game("b")).unwrap();
        let earlier = Append {
            unlock: Some(("learner1".into(), 1)),
            ..play("b", 1, "C3")
        };
        store.append(vec![earlier]).await.unwrap();
        assert_eq!(store.unlocked("learner1").unwrap(), 2);
        // And it survives closing and reopening the database.
        drop(store);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.unlocked("learner1").unwrap(), 2);
        drop(store);
        remove_db(&path);
    }
}
