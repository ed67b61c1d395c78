//! What the store keeps of a seat token: its digest, never the token (a
//! copy of the database, or a backup, gives nobody a seat).

use sha2::{Digest, Sha256};

/// The SHA-256 of `token`, as lowercase hex. A plain hash suffices: a
/// token is 128 random bits, so there is no dictionary to try, no need for
/// salt or a slow hash. PostgreSQL's `encode(sha256(..), 'hex')` gives the
/// same text (schema step 5).
pub fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_in_hex() {
        // FIPS 180-2's example "abc".
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
