//! Members: a name and a password hash (the server hashes, the store
//! keeps the text it is given), the sessions a member opened (the digest of
//! each cookie's token, never the token), and the seats a member holds, so
//! that a member plays and finds their games from any device. Written
//! once for both stores (one statement method runs it on either).
//!
//! A member's key is the name in lower case: "Ana" and "ana" are one
//! member, shown as first written. A session is valid while its
//! generation is its member's: a new password raises the generation and so
//! ends every session in the one statement that sets it.

use crate::statement::Value;
use crate::{Store, StoreError};

/// A member as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    /// The name in lower case: one member per name, whatever its case.
    pub key: String,
    /// The name as the member wrote it.
    pub name: String,
    /// The password's hash (a PHC string).
    pub hash: String,
}

/// The games a member's list shows at most, newest first.
pub const MAX_GAMES: usize = 100;

const ADD: &str = "INSERT INTO members (key, name, hash, created) VALUES ($1, $2, $3, $4)
    ON CONFLICT (key) DO NOTHING";

const RESET: &str = "UPDATE members SET hash = $2, generation = generation + 1 WHERE key = $1";

const MEMBER: &str = "SELECT key, name, hash FROM members WHERE key = $1";

const OPEN_SESSION: &str = "INSERT INTO member_sessions (digest, member, generation, created)
    SELECT CAST($1 AS TEXT), key, generation, CAST($3 AS BIGINT) FROM members WHERE key = $2";

const SESSION: &str = "SELECT m.key, m.name, m.hash FROM member_sessions s
    JOIN members m ON m.key = s.member
    WHERE s.digest = $1 AND s.generation = m.generation AND s.created > $2";

const CLOSE_SESSION: &str = "DELETE FROM member_sessions WHERE digest = $1";

/// The sessions a new password ended.
const DROP_OLD_SESSIONS: &str = "DELETE FROM member_sessions WHERE member = $1
    AND generation <> (SELECT generation FROM members WHERE key = $1)";

const KEEP_SEAT: &str =
    "INSERT INTO member_seats (member, game_id, seat, at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (member, game_id) DO NOTHING";

const SEAT: &str = "SELECT seat FROM member_seats WHERE member = $1 AND game_id = $2";

const GAMES: &str = "SELECT game_id FROM member_seats WHERE member = $1
    ORDER BY at DESC, game_id LIMIT 100";

fn member(row: &[Value]) -> Result<MemberRow, StoreError> {
    Ok(MemberRow {
        key: row[0].text()?,
        name: row[1].text()?,
        hash: row[2].text()?,
    })
}

impl Store {
    /// Adds `member` at `at`: false when the name is taken (in any case).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn add_member(&self, member: &MemberRow, at: i64) -> Result<bool, StoreError> {
        let values = vec![
            member.key.as_str().into(),
            member.name.as_str().into(),
            member.hash.as_str().into(),
            at.into(),
        ];
        Ok(self.execute(ADD, values).await? == 1)
    }

    /// Gives member `key` the password hash `hash` and ends every session
    /// they had: false when there is no such member.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn reset_member(&self, key: &str, hash: &str) -> Result<bool, StoreError> {
        let changed = self.execute(RESET, vec![key.into(), hash.into()]).await? == 1;
        // Already invalid: this only tidies them away.
        self.execute(DROP_OLD_SESSIONS, vec![key.into()]).await?;
        Ok(changed)
    }

    /// Member `key`, if there is one.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn member(&self, key: &str) -> Result<Option<MemberRow>, StoreError> {
        let rows = self.rows(MEMBER, vec![key.into()]).await?;
        rows.first().map(|r| member(r)).transpose()
    }

    /// Opens a session of member `key`, kept as the digest `digest` of its
    /// token.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn open_session(&self, digest: &str, key: &str, at: i64) -> Result<(), StoreError> {
        self.execute(OPEN_SESSION, vec![digest.into(), key.into(), at.into()])
            .await?;
        Ok(())
    }

    /// The member of the session whose token has digest `digest`, while
    /// it is valid: opened after `since` (ms since the epoch; older ones
    /// have run out, whatever a cookie says) and before the member's last
    /// new password.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn session(&self, digest: &str, since: i64) -> Result<Option<MemberRow>, StoreError> {
        let rows = self
            .rows(SESSION, vec![digest.into(), since.into()])
            .await?;
        rows.first().map(|r| member(r)).transpose()
    }

    /// Ends the session whose token has digest `digest`.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn close_session(&self, digest: &str) -> Result<(), StoreError> {
        self.execute(CLOSE_SESSION, vec![digest.into()]).await?;
        Ok(())
    }

    /// Member `key` holds `seat` (`black`, `white` or `both`) of game
    /// `game_id`; a seat of that game already held is kept.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn keep_seat(
        &self,
        key: &str,
        game_id: &str,
        seat: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        let values = vec![key.into(), game_id.into(), seat.into(), at.into()];
        self.execute(KEEP_SEAT, values).await?;
        Ok(())
    }

    /// The seat member `key` holds in game `game_id`, if any.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn member_seat(
        &self,
        key: &str,
        game_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let rows = self.rows(SEAT, vec![key.into(), game_id.into()]).await?;
        rows.first().map(|r| r[0].text()).transpose()
    }

    /// The games member `key` holds a seat of, newest first, at most
    /// [`MAX_GAMES`].
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn member_games(&self, key: &str) -> Result<Vec<String>, StoreError> {
        self.rows(GAMES, vec![key.into()])
            .await?
            .iter()
            .map(|r| r[0].text())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly

    use super::*;
    use crate::{Database, Environment};

    #[tokio::test]
    async fn a_session_holds_until_it_runs_out_or_the_password_changes() {
        let path = std::env::temp_dir().join(format!("tengen-members-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Database::Sqlite(path.clone());
        let store = Store::open(&db, "test", &Environment::default())
            .await
            .unwrap();
        let ana = MemberRow {
            key: "ana".into(),
            name: "Ana".into(),
            hash: "h1".into(),
        };
        assert!(store.add_member(&ana, 0).await.unwrap());
        assert!(!store.add_member(&ana, 1).await.unwrap(), "one Ana");
        store.open_session("d1", "ana", 1_000).await.unwrap();
        assert_eq!(store.session("d1", 999).await.unwrap(), Some(ana.clone()));
        assert_eq!(store.session("d1", 1_000).await.unwrap(), None, "run out");
        assert_eq!(store.session("d2", 0).await.unwrap(), None);
        assert!(store.reset_member("ana", "h2").await.unwrap());
        assert_eq!(
            store.session("d1", 0).await.unwrap(),
            None,
            "a new password"
        );
        store.open_session("d3", "ana", 2_000).await.unwrap();
        let now = store.session("d3", 0).await.unwrap().unwrap();
        assert_eq!(now.hash, "h2");
        store.close_session("d3").await.unwrap();
        assert_eq!(store.session("d3", 0).await.unwrap(), None);
        assert!(!store.reset_member("bo", "h").await.unwrap());
        store.keep_seat("ana", "g1", "black", 5).await.unwrap();
        store.keep_seat("ana", "g1", "white", 6).await.unwrap();
        store.keep_seat("ana", "g2", "both", 7).await.unwrap();
        assert_eq!(
            store.member_seat("ana", "g1").await.unwrap().as_deref(),
            Some("black")
        );
        assert_eq!(store.member_games("ana").await.unwrap(), ["g2", "g1"]);
        drop(store);
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
    }

    #[test]
    fn the_list_of_games_stops_where_it_says() {
        assert!(GAMES.ends_with(&format!("LIMIT {MAX_GAMES}")));
    }
}
