//! The engine's analyses of records under review, kept by position so
//! that a record analysed once is not searched again, by this server or
//! another. One SQL text for both stores ([`crate::statement`]).

use crate::{Store, StoreError};

const POSITIONS: &str = "SELECT data FROM analyses WHERE record = $1 ORDER BY position";

const STORE: &str = "INSERT INTO analyses (record, position, total, playouts, data)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (record, position) DO UPDATE SET total = excluded.total,
        playouts = excluded.playouts, data = excluded.data";

/// A count or a position as stored (the store's integers are signed).
fn int(v: impl TryInto<i64>) -> i64 {
    v.try_into().unwrap_or(i64::MAX)
}

impl Store {
    /// The positions of record `key` analysed so far, in order, as
    /// stored (JSON).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn analysis(&self, key: &str) -> Result<Vec<String>, StoreError> {
        self.rows(POSITIONS, vec![key.into()])
            .await?
            .iter()
            .map(|r| r[0].text())
            .collect()
    }

    /// Stores the analysis (JSON) of position `number` of record `key` (of
    /// `total` positions, searched for `playouts` simulations).
    ///
    /// # Errors
    /// A storage error on a database failure.
    pub async fn store_analysis(
        &self,
        key: &str,
        total: usize,
        playouts: u64,
        number: usize,
        data: &str,
    ) -> Result<(), StoreError> {
        let values = vec![
            key.into(),
            int(number).into(),
            int(total).into(),
            int(playouts).into(),
            data.into(),
        ];
        self.execute(STORE, values).await?;
        Ok(())
    }
}
