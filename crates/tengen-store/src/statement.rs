//! One statement and its values, run the same way on both stores: the
//! small tables written outside the group commit (classes, members) are
//! each one SQL text for both, so that they need one method here rather than one per store and per
//! query. A row comes back as values, each read as the column holds it.
//!
//! Left out: the games' log and chat, whose writes go through the group
//! commit of each store's writer.

use crate::error::StoreError;

/// A value given to a statement or read from a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// SQL NULL.
    Null,
    /// An integer (SQLite's INTEGER, PostgreSQL's INTEGER or BIGINT).
    Int(i64),
    /// A text.
    Text(String),
}

impl Value {
    /// The text, if this is one.
    pub(crate) fn text(&self) -> Result<String, StoreError> {
        match self {
            Value::Text(t) => Ok(t.clone()),
            other => Err(StoreError::Io(std::io::Error::other(format!(
                "the database held {other:?} where a text was"
            )))),
        }
    }

    /// The integer as a count or a small number (NULL and a negative one,
    /// which the store never writes, read as 0).
    pub(crate) fn count(&self) -> u32 {
        match self {
            Value::Int(n) => u32::try_from(*n).unwrap_or(if *n < 0 { 0 } else { u32::MAX }),
            _ => 0,
        }
    }
}

impl From<&str> for Value {
    fn from(t: &str) -> Value {
        Value::Text(t.to_string())
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(n) => ValueRef::Integer(*n),
            Value::Text(t) => ValueRef::Text(t.as_bytes()),
        }))
    }
}

/// `$1`, `$2`... as SQLite's names of the values (eight at most: the small
/// tables take four): SQLite numbers `$N` parameters in the order they
/// first appear, not by `N`, so they are bound by name.
pub(crate) fn named(values: &[Value]) -> Vec<(&'static str, &dyn rusqlite::ToSql)> {
    const NAMES: [&str; 8] = ["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8"];
    NAMES
        .iter()
        .zip(values)
        .map(|(&n, v)| (n, v as &dyn rusqlite::ToSql))
        .collect()
}

/// A SQLite row's values.
pub(crate) fn sqlite_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Vec<Value>> {
    use rusqlite::types::ValueRef;
    (0..row.as_ref().column_count())
        .map(|i| {
            Ok(match row.get_ref(i)? {
                ValueRef::Integer(n) => Value::Int(n),
                ValueRef::Text(t) | ValueRef::Blob(t) => {
                    Value::Text(String::from_utf8_lossy(t).into_owned())
                }
                // Never written by the store: read as its nearest.
                ValueRef::Real(x) => Value::Int(x as i64),
                ValueRef::Null => Value::Null,
            })
        })
        .collect()
}

#[cfg(feature = "postgres")]
mod pg {
    use super::Value;
    use bytes::BytesMut;
    use tokio_postgres::Row;
    use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

    /// A value as PostgreSQL takes it: an integer as the column's width
    /// (INTEGER or BIGINT), so that one SQL text serves both stores.
    impl ToSql for Value {
        fn to_sql(
            &self,
            ty: &Type,
            out: &mut BytesMut,
        ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
            match self {
                Value::Null => Ok(IsNull::Yes),
                Value::Int(n) if *ty == Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
                Value::Int(n) => n.to_sql(ty, out),
                Value::Text(t) => t.to_sql(ty, out),
            }
        }

        fn accepts(ty: &Type) -> bool {
            [Type::INT4, Type::INT8, Type::TEXT, Type::VARCHAR].contains(ty)
        }

        to_sql_checked!();
    }

    impl Value {
        /// The value as PostgreSQL takes it.
        pub(crate) fn as_pg(&self) -> &(dyn ToSql + Sync) {
            self
        }
    }

    /// A PostgreSQL row's values, by each column's type.
    pub(crate) fn row(row: &Row) -> Result<Vec<Value>, tokio_postgres::Error> {
        (0..row.len())
            .map(|i| {
                let ty = row.columns()[i].type_();
                Ok(if *ty == Type::INT8 {
                    row.try_get::<_, Option<i64>>(i)?
                        .map_or(Value::Null, Value::Int)
                } else if *ty == Type::INT4 {
                    row.try_get::<_, Option<i32>>(i)?
                        .map_or(Value::Null, |n| Value::Int(i64::from(n)))
                } else {
                    row.try_get::<_, Option<String>>(i)?
                        .map_or(Value::Null, Value::Text)
                })
            })
            .collect()
    }
}

#[cfg(feature = "postgres")]
pub(crate) use pg::row as postgres_row;
