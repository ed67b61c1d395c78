//! Members: an optional account, so that a club member plays under one
//! name from any device and finds their games there. A name and a
//! password, hashed with Argon2id (OWASP's choice: memory-hard, so that a
//! stolen database is slow to guess from); a session is a cookie holding a
//! random token (HttpOnly, so no script reads it; SameSite=Strict, so no
//! other site's page sends it), the store keeping only its digest. Logins
//! are rate-limited per client and per name. Anonymous play stays: a
//! member is only a name that seat tokens are kept under.
//!
//! Left out: mail (an organiser with no mail server gives a new password
//! with `tengen member reset`), and the name's other forms (a member's
//! key is the name in lower case; no Unicode folding beyond that).

use crate::allowance::Allowance;
use crate::error::{Refusal, WebError};
use crate::token::{digest, random_hex};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::http::{HeaderMap, HeaderValue, header};
use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tengen_store::{MemberRow, Store};

/// The session cookie's name.
pub const COOKIE: &str = "tengen_member";

/// How long a session lasts: a year, as a club's regulars expect (the
/// cookie's age, and the store's: an older session is refused whatever
/// a cookie says).
const SESSION_SECONDS: u64 = 365 * 24 * 3600;
const SESSION_MS: i64 = SESSION_SECONDS as i64 * 1000;

/// Characters in a member's name.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=32;

/// Characters in a password: long enough to resist guessing at the
/// logins' rate, short enough that hashing one costs the same as any.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// A name as given, trimmed, and its key (lower case), or why it cannot
/// be one: letters, digits, spaces inside, `-`, `_` and `.`, so that it
/// reads the same wherever it is shown.
///
/// # Errors
/// [`WebError::Invalid`] for a name too short, too long or of other
/// characters.
pub fn name(given: &str) -> Result<(String, String), WebError> {
    let name = given.trim();
    let n = name.chars().count();
    let fits = name
        .chars()
        .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_' || c == '.');
    if !NAME_CHARS.contains(&n) || !fits {
        return Err(WebError::invalid(
            "name",
            format!(
                "a member's name is {} to {} letters, digits, spaces, '-', '_' or '.'",
                NAME_CHARS.start(),
                NAME_CHARS.end()
            ),
        ));
    }
    Ok((name.to_lowercase(), name.to_string()))
}

/// A new password, or why it cannot be one.
///
/// # Errors
/// [`WebError::Invalid`] for one too short or too long.
pub fn password(given: &str) -> Result<&str, WebError> {
    if PASSWORD_CHARS.contains(&given.chars().count()) {
        Ok(given)
    } else {
        Err(WebError::invalid(
            "password",
            format!(
                "a password of {} to {} characters",
                PASSWORD_CHARS.start(),
                PASSWORD_CHARS.end()
            ),
        ))
    }
}

/// Argon2id with OWASP's least parameters (19 MiB, two passes, one
/// lane): about 40 ms a hash on one core.
fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The password's hash, as a PHC string (its salt and parameters in it).
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn hash(password: &str) -> Result<String, WebError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| WebError::Io(std::io::Error::other(e)))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| WebError::Io(std::io::Error::other(e)))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| WebError::Io(std::io::Error::other(e)))
}

/// Whether `password` is the one hashed as `hash` (false for a hash that
/// does not read).
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash no password matches, verified when the name is unknown so that
/// a refusal takes as long whether the name exists or not.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash(&random_hex(2).unwrap_or_default()).unwrap_or_default())
}

/// The logins' allowance: per client and per member name.
#[derive(Debug)]
pub struct Logins {
    clients: Allowance,
    names: Allowance<String>,
}

impl Logins {
    /// `per_minute` tries a minute per client and per name (0: no limit).
    pub fn per_minute(per_minute: u32) -> Logins {
        Logins {
            clients: Allowance::per_minute(per_minute),
            names: Allowance::per_minute(per_minute),
        }
    }

    /// Takes one try for `key` from `client`.
    fn take(&self, client: Option<IpAddr>, key: &str) -> Result<(), WebError> {
        let now = Instant::now();
        let waited =
            |wait: Duration| WebError::Forbidden(Refusal::LoginsTooFast(wait.as_secs() + 1));
        if let Some(ip) = client {
            self.clients.take(ip, now).map_err(waited)?;
        }
        self.names.take_for(key.to_string(), now).map_err(waited)
    }
}

/// Hashes off the async threads (a hash takes tens of milliseconds of
/// CPU), as many at once as there are cores: each takes 19 MiB, and
/// logins from many addresses at once, each within its allowance, must
/// not take the memory of hundreds. The others wait their turn.
async fn off_thread<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, WebError> {
    static HASHING: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let places = HASHING.get_or_init(|| tokio::sync::Semaphore::new(cores));
    let _place = places
        .acquire()
        .await
        .map_err(|e| WebError::Io(std::io::Error::other(e)))?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| WebError::Io(std::io::Error::other(e)))
}

/// A new member `given_name` with `given_password`: their row and a
/// session's token.
///
/// # Errors
/// [`WebError::Invalid`] for a name or password that cannot be;
/// [`Refusal::NameTaken`]; a storage error.
pub async fn sign_up(
    store: &Store,
    given_name: &str,
    given_password: &str,
    now: i64,
) -> Result<(MemberRow, String), WebError> {
    let member = add(store, given_name, given_password, now).await?;
    let token = open_session(store, &member.key, now).await?;
    Ok((member, token))
}

/// Adds member `given_name` with `given_password` (`tengen member add`,
/// or a sign-up): their row.
///
/// # Errors
/// [`WebError::Invalid`] for a name or password that cannot be;
/// [`Refusal::NameTaken`]; a storage error.
pub async fn add(
    store: &Store,
    given_name: &str,
    given_password: &str,
    now: i64,
) -> Result<MemberRow, WebError> {
    let (key, name) = name(given_name)?;
    let hash = hashed(given_password).await?;
    let member = MemberRow { key, name, hash };
    if !store.add_member(&member, now).await? {
        return Err(WebError::Forbidden(Refusal::NameTaken));
    }
    Ok(member)
}

/// Gives member `given_name` the password `given_password` and ends
/// their sessions on every device (`tengen member reset`: an organiser
/// with no mail server): their row.
///
/// # Errors
/// [`WebError::Invalid`] for an unknown member or a password that cannot
/// be; a storage error.
pub async fn reset(
    store: &Store,
    given_name: &str,
    given_password: &str,
) -> Result<MemberRow, WebError> {
    let key = given_name.trim().to_lowercase();
    let Some(member) = store.member(&key).await? else {
        return Err(WebError::invalid(
            "name",
            format!("no member {:?}", given_name.trim()),
        ));
    };
    set_password(store, member, given_password).await
}

/// A new password's hash, or why it cannot be one.
async fn hashed(given_password: &str) -> Result<String, WebError> {
    let password = password(given_password)?.to_string();
    off_thread(move || hash(&password)).await?
}

/// Gives `member` the password `given_password`, ending every session of
/// theirs: their row.
async fn set_password(
    store: &Store,
    mut member: MemberRow,
    given_password: &str,
) -> Result<MemberRow, WebError> {
    member.hash = hashed(given_password).await?;
    store.reset_member(&member.key, &member.hash).await?;
    Ok(member)
}

/// Letters of a password the server makes: no 0/O, 1/l/I, so that it is
/// read out or copied from paper without a mistake.
const PASSWORD_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A password for an organiser to hand over: four groups of four letters
/// and digits (about 79 bits), e.g. `k7mp-2xqa-9fzt-hw3c`.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn new_password() -> Result<String, WebError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| WebError::Io(std::io::Error::other(e)))?;
    let letters: Vec<char> = bytes
        .iter()
        .map(|b| PASSWORD_ALPHABET[usize::from(*b) % PASSWORD_ALPHABET.len()] as char)
        .collect();
    Ok(letters
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-"))
}

/// Member `given_name` logs in with `given_password`: their row and a
/// session's token.
///
/// # Errors
/// [`Refusal::LoginsTooFast`] past the allowance; [`Refusal::WrongPassword`]
/// for an unknown name or a wrong password (the same refusal, so that it
/// does not tell which names exist); a storage error.
pub async fn log_in(
    store: &Store,
    logins: &Logins,
    client: Option<IpAddr>,
    given_name: &str,
    given_password: &str,
    now: i64,
) -> Result<(MemberRow, String), WebError> {
    let member = check(store, logins, client, given_name, given_password).await?;
    let token = open_session(store, &member.key, now).await?;
    Ok((member, token))
}

/// The member `given_name` whose password `given_password` is, taking one
/// try of the logins' allowance.
async fn check(
    store: &Store,
    logins: &Logins,
    client: Option<IpAddr>,
    given_name: &str,
    given_password: &str,
) -> Result<MemberRow, WebError> {
    let key = given_name.trim().to_lowercase();
    logins.take(client, &key)?;
    let member = store.member(&key).await?;
    let hash = member.as_ref().map(|m| m.hash.clone());
    let password = given_password.to_string();
    // The decoy too is made off the async threads, the first time.
    let right = off_thread(move || match &hash {
        Some(h) => verify(&password, h),
        None => verify(&password, decoy()),
    })
    .await?;
    member
        .filter(|_| right)
        .ok_or(WebError::Forbidden(Refusal::WrongPassword))
}

/// Member `member` changes their password from `given_password` (checked
/// as a login is, within the same allowance) to `new_password`: every
/// session of theirs ends, and this device gets a new one's token.
///
/// # Errors
/// [`Refusal::LoginsTooFast`]; [`Refusal::WrongPassword`];
/// [`WebError::Invalid`] for a new password that cannot be; a storage
/// error.
pub async fn change_password(
    store: &Store,
    logins: &Logins,
    client: Option<IpAddr>,
    member: &MemberRow,
    given_password: &str,
    new_password: &str,
    now: i64,
) -> Result<String, WebError> {
    let member = check(store, logins, client, &member.key, given_password).await?;
    let member = set_password(store, member, new_password).await?;
    open_session(store, &member.key, now).await
}

async fn open_session(store: &Store, key: &str, now: i64) -> Result<String, WebError> {
    let token = random_hex(2)?;
    store.open_session(&digest(&token), key, now).await?;
    Ok(token)
}

/// The session token a request's cookie carries, if any.
pub fn token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, COOKIE)
}

/// The value of cookie `name` in a request (at most 64 characters).
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    let cookies = headers.get(header::COOKIE)?.to_str().ok()?;
    cookies.split(';').find_map(|c| {
        let (k, v) = c.trim().split_once('=')?;
        (k == name && !v.is_empty() && v.len() <= 64).then(|| v.to_string())
    })
}

/// The member whose session a request's cookie holds, while it is valid.
///
/// # Errors
/// A storage error.
pub async fn of(store: &Store, headers: &HeaderMap) -> Result<Option<MemberRow>, WebError> {
    let since = crate::date::now_ms().saturating_sub(SESSION_MS);
    match token(headers) {
        Some(t) => Ok(store.session(&digest(&t), since).await?),
        None => Ok(None),
    }
}

/// The header that sets the session cookie (`token`: `None` ends it).
/// Secure when the page was reached over HTTPS, as its `Origin` or the
/// proxy's `X-Forwarded-Proto` says.
pub fn set_cookie(headers: &HeaderMap, token: Option<&str>) -> Option<HeaderValue> {
    let https = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|o| o.starts_with("https://"))
        || headers
            .get("x-forwarded-proto")
            .is_some_and(|v| v.as_bytes() == b"https");
    let secure = if https { "; Secure" } else { "" };
    let (value, age) = match token {
        Some(t) => (t, SESSION_SECONDS),
        None => ("", 0),
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests fail loudly

    use super::*;

    #[test]
    fn a_name_is_trimmed_keyed_in_lower_case_and_bounded() {
        assert_eq!(
            name("  Ana Lúcia ").unwrap(),
            ("ana lúcia".into(), "Ana Lúcia".into())
        );
        assert_eq!(name("Go_Club-2.0").unwrap().0, "go_club-2.0");
        for bad in ["", "a", "<b>x</b>", "ana\u{0}", &"x".repeat(33)] {
            assert!(name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_are_bounded_and_those_made_here_fit() {
        let made = new_password().unwrap();
        assert_eq!(made.len(), 19);
        assert!(password(&made).is_ok());
        assert_ne!(made, new_password().unwrap());
        assert!(password("short").is_err());
        assert!(password("long enough").is_ok());
        assert!(password(&"x".repeat(129)).is_err());
    }

    #[test]
    fn a_hash_is_argon2id_salted_and_checks_only_its_password() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse", &h));
        assert!(!verify("correct hors", &h));
        assert_ne!(h, hash("correct horse").unwrap(), "salted");
        assert!(!verify("anything", "not a hash"));
        assert!(!verify("", decoy()));
    }

    #[test]
    fn the_cookie_is_http_only_strict_and_secure_over_https() {
        let mut plain = HeaderMap::new();
        let set = set_cookie(&plain, Some("abc")).unwrap();
        let set = set.to_str().unwrap();
        assert!(set.starts_with("tengen_member=abc; Path=/;"), "{set}");
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"));
        assert!(!set.contains("Secure"));
        plain.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://go.example.org"),
        );
        let gone = set_cookie(&plain, None).unwrap();
        assert!(gone.to_str().unwrap().contains("Max-Age=0"));
        assert!(gone.to_str().unwrap().ends_with("; Secure"));
        plain.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; tengen_member=tok"),
        );
        assert_eq!(token(&plain).as_deref(), Some("tok"));
    }

    #[test]
    fn logins_are_limited_per_client_and_per_name() {
        let logins = Logins::per_minute(2);
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let b: IpAddr = "203.0.113.2".parse().unwrap();
        let c: IpAddr = "203.0.113.3".parse().unwrap();
        logins.take(Some(a), "ana").unwrap();
        logins.take(Some(a), "bo").unwrap();
        // The client's tries are spent, on any name.
        assert!(logins.take(Some(a), "cy").is_err());
        // From another address, "ana" has one try left, then none.
        logins.take(Some(b), "ana").unwrap();
        let refused = logins.take(Some(c), "ana").unwrap_err();
        assert_eq!(refused.code(), "logins_too_fast");
    }
}
