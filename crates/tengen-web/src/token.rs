//! Secrets and ids that cannot be guessed: drawn from the operating
//! system's cryptographic generator, kept by the store only as digests (a
//! copy of the database, or a backup, gives nobody a seat), and compared
//! in constant time so that the time of a refusal tells nothing of how much
//! of a token was right.

use subtle::ConstantTimeEq;

/// `words` x 64 random bits as hex, from the OS generator (seat tokens,
/// game and learner ids).
///
/// # Errors
/// [`std::io::Error`] when the operating system has no randomness to give.
pub fn random_hex(words: usize) -> Result<String, std::io::Error> {
    let mut bytes = vec![0u8; words * 8];
    getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

pub use tengen_store::seat_token::digest;

/// Whether a token given by a client is the one whose digest is `kept`.
pub fn matches(given: &str, kept: &str) -> bool {
    !kept.is_empty() && bool::from(digest(given).as_bytes().ct_eq(kept.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_hex_of_the_asked_length_and_differ() {
        let a = random_hex(2).unwrap();
        let b = random_hex(2).unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_whole_token_matches_its_digest() {
        let kept = digest("abcd");
        assert!(matches("abcd", &kept));
        assert!(!matches("abce", &kept));
        assert!(!matches("abc", &kept));
        // The digest itself is no token.
        assert!(!matches(&kept, &kept));
        assert!(!matches("", ""));
    }
}
