//! Teachers' classes: a short code, the teacher's token (a digest), the
//! pupils by first name with the learner each plays as, and the problems
//! of the learning path each learner solved. The statements are written
//! once for both stores (SQLite reads `$1` as the first parameter, and
//! knows `ON CONFLICT ... DO NOTHING`).

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
pub(crate) const OPEN: &str = "INSERT INTO classes (code, teacher, created) VALUES ($1, $2, $3)
    ON CONFLICT (code) DO NOTHING";

/// The teacher's token digest of a class.
pub(crate) const TEACHER: &str = "SELECT teacher FROM classes WHERE code = $1";

/// A pupil joins under a first name; the same name again is the same pupil.
pub(crate) const JOIN: &str = "INSERT INTO pupils (class_code, name, learner, joined)
    VALUES ($1, $2, $3, $4) ON CONFLICT (class_code, name) DO NOTHING";

/// The learner of a pupil.
pub(crate) const LEARNER: &str = "SELECT learner FROM pupils WHERE class_code = $1 AND name = $2";

/// A problem solved by a learner, once.
pub(crate) const SOLVE: &str = "INSERT INTO solved (learner, screen, at) VALUES ($1, $2, $3)
    ON CONFLICT (learner, screen) DO NOTHING";

/// The pupils of a class with their progress, by name.
pub(crate) const PUPILS: &str = "SELECT p.name,
    COALESCE((SELECT unlocked FROM learners l WHERE l.id = p.learner), 1),
    (SELECT count(*) FROM solved s WHERE s.learner = p.learner),
    (SELECT count(*) FROM games g WHERE g.learner = p.learner AND g.result LIKE 'B+%'),
    (SELECT count(*) FROM games g WHERE g.learner = p.learner AND g.result LIKE 'W+%')
    FROM pupils p WHERE p.class_code = $1 ORDER BY p.name";
