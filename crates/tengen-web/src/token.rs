//! Secrets and ids that cannot be guessed: drawn from the operating
//! system's cryptographic generator, and compared in constant time so that
//! the time of a refusal tells nothing of how much of a token was right.

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

/// Whether a token given by a client is `secret` (its length may show,
/// its content does not).
pub fn same(given: &str, secret: &str) -> bool {
    !secret.is_empty() && bool::from(given.as_bytes().ct_eq(secret.as_bytes()))
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
    fn only_the_whole_token_matches() {
        assert!(same("abcd", "abcd"));
        assert!(!same("abce", "abcd"));
        assert!(!same("abc", "abcd"));
        assert!(!same("", ""));
    }
}
