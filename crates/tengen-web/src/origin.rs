//! Requests that change something (a POST, a WebSocket upgrade) are
//! refused when a browser says they come from another site's page: a
//! browser sends `Origin` with them, and a page elsewhere could otherwise
//! create games (a `text/plain` POST needs no permission) or open a
//! player's socket. Same-origin pages and clients that send no `Origin`
//! (programs, not pages) pass. Hand-written because tower-http's CORS
//! layer only adds response headers: it does not refuse a request.

use crate::error::{Refusal, WebError};
use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The middleware: passes a request on, or refuses it with 403.
pub async fn same_origin(request: Request, next: Next) -> Response {
    if changes_state(&request) && !same_site(request.headers()) {
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

/// No `Origin`, or one whose host and port are those the request was sent
/// to (`Host`).
fn same_site(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let authority = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest);
    match (authority, host) {
        (Some(a), Some(h)) => !a.is_empty() && a.eq_ignore_ascii_case(h),
        _ => false,
    }
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
    fn only_the_server_s_own_origin_or_none_passes() {
        assert!(same_site(&headers(None, "127.0.0.1:8619")));
        assert!(same_site(&headers(
            Some("http://127.0.0.1:8619"),
            "127.0.0.1:8619"
        )));
        assert!(same_site(&headers(
            Some("https://Go.Example"),
            "go.example"
        )));
        for other in [
            "http://evil.example",
            "http://127.0.0.1:8620",
            "null",
            "http://127.0.0.1",
            "",
        ] {
            assert!(
                !same_site(&headers(Some(other), "127.0.0.1:8619")),
                "{other}"
            );
        }
    }
}
