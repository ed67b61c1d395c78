//! Learners and teachers' classes: the step each learner reached; a
//! class's short code and its teacher's token (a digest); the pupils by
//! first name with the learner each plays as, and the problems of the
//! learning path each learner solved. Each statement is written once for
//! both stores (one statement method runs it on either; SQLite knows
//! `ON CONFLICT ... DO NOTHING` too).

use crate::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// One pupil of a class and how far along the learning path they are, as
/// the teacher's page shows them (the learner they play as stays here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PupilRow {
    /// The first name given on joining.
    pub name: String,
    /// The highest step open to the pupil's learner (1 for a newcomer).
    pub step: u32,
    /// Problems of the path solved.
    pub solved: u32,
    /// Step games won (the learner plays Black).
    pub won: u32,
    /// Step games lost.
    pub lost: u32,
}

/// Opens a class; a code already taken is left as it is.
const OPEN: &str = "INSERT INTO classes (code, teacher, created) VALUES ($1, $2, $3)
    ON CONFLICT (code) DO NOTHING";

/// The teacher's token digest of a class.
const TEACHER: &str = "SELECT teacher FROM classes WHERE code = $1";

/// A pupil joins under a first name; the same name again is the same pupil.
const JOIN: &str = "INSERT INTO pupils (class_code, name, learner, joined)
    VALUES ($1, $2, $3, $4) ON CONFLICT (class_code, name) DO NOTHING";

/// The learner of a pupil.
const LEARNER: &str = "SELECT learner FROM pupils WHERE class_code = $1 AND name = $2";

/// A problem solved by a learner, once.
const SOLVE: &str = "INSERT INTO solved (learner, screen, at) VALUES ($1, $2, $3)
    ON CONFLICT (learner, screen) DO NOTHING";

/// The highest learning-path step open to a learner.
pub(crate) const UNLOCKED: &str = "SELECT unlocked FROM learners WHERE id = $1";

/// The pupils of a class with their progress, by name.
const PUPILS: &str = "SELECT p.name,
    COALESCE((SELECT unlocked FROM learners l WHERE l.id = p.learner), 1),
    (SELECT count(*) FROM solved s WHERE s.learner = p.learner),
    (SELECT count(*) FROM games g WHERE g.learner = p.learner AND g.result LIKE 'B+%'),
    (SELECT count(*) FROM games g WHERE g.learner = p.learner AND g.result LIKE 'W+%')
    FROM pupils p WHERE p.class_code = $1 ORDER BY p.name";

impl Store {
    /// The highest learning-path step open to `learner` (1 for a newcomer).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn unlocked(&self, learner: &str) -> Result<u32, StoreError> {
        let rows = self.rows(UNLOCKED, vec![learner.into()]).await?;
        Ok(rows.first().map_or(1, |r| r[0].count()))
    }

    /// Opens class `code` for the teacher whose token has digest `teacher`:
    /// false when the code is taken.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn open_class(&self, code: &str, teacher: &str, at: i64) -> Result<bool, StoreError> {
        let n = self
            .execute(OPEN, vec![code.into(), teacher.into(), at.into()])
            .await?;
        Ok(n == 1)
    }

    /// The digest of the teacher's token of class `code`, if it exists.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn class_teacher(&self, code: &str) -> Result<Option<String>, StoreError> {
        let rows = self.rows(TEACHER, vec![code.into()]).await?;
        rows.first().map(|r| r[0].text()).transpose()
    }

    /// Pupil `name` joins class `code` as `learner` at `at`; the learner of
    /// the pupil of that name, the one given or the one who joined first.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn join_class(
        &self,
        code: &str,
        name: &str,
        learner: &str,
        at: i64,
    ) -> Result<String, StoreError> {
        self.execute(
            JOIN,
            vec![code.into(), name.into(), learner.into(), at.into()],
        )
        .await?;
        let rows = self.rows(LEARNER, vec![code.into(), name.into()]).await?;
        match rows.first() {
            Some(r) => r[0].text(),
            None => Ok(learner.to_string()),
        }
    }

    /// Records that `learner` solved the problem of screen `screen`.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn solve(&self, learner: &str, screen: &str, at: i64) -> Result<(), StoreError> {
        self.execute(SOLVE, vec![learner.into(), screen.into(), at.into()])
            .await?;
        Ok(())
    }

    /// The pupils of class `code` with their progress, by name.
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn pupils(&self, code: &str) -> Result<Vec<PupilRow>, StoreError> {
        self.rows(PUPILS, vec![code.into()])
            .await?
            .iter()
            .map(|r| {
                Ok(PupilRow {
                    name: r[0].text()?,
                    step: r[1].count(),
                    solved: r[2].count(),
                    won: r[3].count(),
                    lost: r[4].count(),
                })
            })
            .collect()
    }
}
