//! A teacher's class: the teacher opens it and gets a short code to write
//! on the board and a token kept by the teacher's browser; pupils join
//! with the code and a first name on any device, and play the learning
//! path as the learner of that name, so that the same name on another
//! device carries on where the pupil was. The teacher's page reads each
//! pupil's step, problems solved and step games won and lost.

use crate::error::WebError;

/// The letters of a class code: no 0/O, 1/I/L, so that a child copies it
/// from the board without a mistake.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Letters in a code: 31^6, about 900 million codes.
pub const CODE_LEN: usize = 6;

/// Characters in a pupil's first name, at most.
pub const MAX_NAME: usize = 40;

/// A fresh class code.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn new_code() -> Result<String, WebError> {
    let mut bytes = [0u8; CODE_LEN];
    getrandom::fill(&mut bytes).map_err(|e| WebError::Io(std::io::Error::other(e)))?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect())
}

/// A code as typed (any case, spaces around) in its stored form, or why
/// it is no code.
///
/// # Errors
/// [`WebError::Invalid`] for a code of other letters or length.
pub fn code(typed: &str) -> Result<String, WebError> {
    let code = typed.trim().to_ascii_uppercase();
    if code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b)) {
        Ok(code)
    } else {
        Err(WebError::invalid(
            "code",
            format!("a class code is {CODE_LEN} letters and digits, as the teacher wrote it"),
        ))
    }
}

/// A pupil's first name as given, trimmed, or why it cannot be one.
///
/// # Errors
/// [`WebError::Invalid`] for an empty or too long name.
pub fn pupil_name(given: &str) -> Result<String, WebError> {
    let name = given.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME {
        return Err(WebError::invalid(
            "name",
            format!("a first name of 1 to {MAX_NAME} characters"),
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly

    use super::*;

    #[test]
    fn codes_are_read_as_typed_and_odd_ones_refused() {
        let c = new_code().unwrap();
        assert_eq!(code(&format!(" {} ", c.to_lowercase())).unwrap(), c);
        for bad in ["", "ABC", "ABCDE0", "ABCDEFG", "ABCDE!"] {
            assert!(code(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_first_name_is_trimmed_and_bounded() {
        assert_eq!(pupil_name("  Léa ").unwrap(), "Léa");
        assert!(pupil_name("   ").is_err());
        assert!(pupil_name(&"x".repeat(MAX_NAME + 1)).is_err());
    }
}
