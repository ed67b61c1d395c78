//! Which sites may use this server. Two checks, in one middleware:
//!
//! - **The host.** A page on another site can make its own name point at
//!   this server's address (DNS rebinding) and then read and write as if
//!   it were this site; its requests still name its own host. So a request
//!   whose `Host` is a name is answered only when the name is `localhost`
//!   (or under it) or one the administrator allowed (`--allowed-host`);
//!   an address (`192.168.1.5:8619`, `[::1]`) always passes, since no name
//!   was turned into it, and so does a request with no `Host` (a program
//!   speaking HTTP/1.0).
//! - **The origin.** Requests that change something (a POST, a WebSocket
//!   upgrade) are refused when a browser says they come from another
//!   site's page: a browser sends `Origin` with them, and a page elsewhere
//!   could otherwise create games (a `text/plain` POST needs no
//!   permission) or open a player's socket. An `Origin` passes when it is
//!   the host asked (`Host`) or an allowed name; clients that send none
//!   (programs, not pages) pass.
//!
//! Hand-written because tower-http's CORS layer only adds response
//! headers: it does not refuse a request.

use crate::error::{Refusal, WebError};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The names this server answers for, besides addresses and `localhost`.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    /// Lower case, without a port or a final dot.
    names: Arc<[String]>,
}

impl Sites {
    /// The names given (`go.example.org`; a port or a final dot is
    /// ignored, case too).
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Sites {
        Sites {
            names: names
                .into_iter()
                .map(|n| normal(host_of(n.as_ref())))
                .filter(|n| !n.is_empty())
                .collect(),
        }
    }

    /// Whether a request for `authority` (a `Host` header) is answered.
    fn answers(&self, authority: &str) -> bool {
        let host = normal(host_of(authority));
        host.parse::<IpAddr>().is_ok()
            || host == "localhost"
            || host.ends_with(".localhost")
            || self.names.contains(&host)
    }

    /// Whether a page of `origin` (an `Origin` header) may change
    /// something on a request sent to `host` (its `Host`).
    fn trusts(&self, origin: &str, host: Option<&str>) -> bool {
        let Some((_, authority)) = origin.split_once("://") else {
            return false;
        };
        if authority.is_empty() {
            return false;
        }
        host.is_some_and(|h| authority.eq_ignore_ascii_case(h))
            || self.names.contains(&normal(host_of(authority)))
    }
}

/// The host of an authority (`name:port`, `[v6]:port`, `name`).
fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    }
}

/// A host name as compared: lower case, no final dot.
fn normal(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// The middleware: passes a request on, or refuses it with 403.
pub async fn guard(State(sites): State<Sites>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if let Some(h) = host
        && !sites.answers(h)
    {
        tracing::debug!(host = h, "a request for a host not allowed refused");
        return WebError::Forbidden(Refusal::UnknownHost).into_response();
    }
    if changes_state(&request) && !same_site(&sites, headers) {
        return WebError::Forbidden(Refusal::CrossOrigin).into_response();
    }
    next.run(request).await
}

/// A method other than a read, or the upgrade of a game's socket.
fn changes_state(request: &Request) -> bool {
    let read = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    !read || request.headers().contains_key(header::UPGRADE)
}

/// No `Origin`, or one `sites` trusts for the host asked.
fn same_site(sites: &Sites, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    origin.to_str().is_ok_and(|o| sites.trusts(o, host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn only_the_server_s_own_origin_an_allowed_one_or_none_passes() {
        let sites = Sites::new(["go.example.org"]);
        let ok = |origin: Option<&str>, host: &str| same_site(&sites, &headers(origin, host));
        assert!(ok(None, "127.0.0.1:8619"));
        assert!(ok(Some("http://127.0.0.1:8619"), "127.0.0.1:8619"));
        assert!(ok(Some("https://Go.Example"), "go.example"));
        // Behind a proxy that sends its own Host upstream.
        assert!(ok(Some("https://go.example.org"), "127.0.0.1:8619"));
        for other in [
            "http://evil.example",
            "http://127.0.0.1:8620",
            "null",
            "http://127.0.0.1",
            "",
            "https://",
        ] {
            assert!(!ok(Some(other), "127.0.0.1:8619"), "{other}");
        }
    }

    #[test]
    fn addresses_localhost_and_allowed_names_are_answered_other_names_not() {
        let sites = Sites::new(["Go.Example.org.", "club.example:443"]);
        for host in [
            "127.0.0.1:8619",
            "192.168.1.5",
            "[::1]:8619",
            "[fe80::1]",
            "localhost:8619",
            "LOCALHOST",
            "app.localhost",
            "go.example.org",
            "GO.EXAMPLE.ORG:8619",
            "go.example.org.",
            "club.example",
        ] {
            assert!(sites.answers(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8619",
            "localhost.evil.example",
            "go.example.org.evil.example",
            "127.0.0.1.nip.io",
            "",
        ] {
            assert!(!sites.answers(host), "{host}");
        }
        assert!(!Sites::default().answers("go.example.org"));
    }
}
