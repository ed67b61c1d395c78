//! Who a request comes from, for the limits kept per client. It is the
//! TCP peer, except behind a proxy: there every request comes from the
//! proxy, and one client's games would count against everyone's. So for a
//! peer among the proxies the administrator trusts (`--trusted-proxy
//! CIDR`, none by default) the client is the address the proxy reports:
//! `X-Forwarded-For` (nginx, HAProxy), or else `Forwarded` (RFC 7239),
//! read from the right, past every trusted hop, to the first address no
//! trusted proxy stands for. Anyone else's header is ignored: a client
//! could write any address there.
//!
//! Left out: the proxy's word on the scheme and the host (`proto`, `host`).

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName};
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The client a request comes from, as the handlers see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The proxies whose report of the client is believed.
#[derive(Clone, Debug, Default)]
pub struct Proxies {
    nets: Arc<[IpNet]>,
}

/// One trusted proxy or range: `10.0.0.0/8`, `::1/128`, or an address
/// alone (`127.0.0.1`).
///
/// # Errors
/// The text, and what an address range looks like.
pub fn parse_proxy(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is not an address or a range such as 10.0.0.0/8"))
}

impl Proxies {
    /// These ranges trusted.
    pub fn new(nets: impl IntoIterator<Item = IpNet>) -> Proxies {
        Proxies {
            nets: nets.into_iter().collect(),
        }
    }

    /// Whether `ip` is a trusted proxy.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// The client of a request from `peer` with `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let hops = forwarded_for(headers);
        // From the nearest hop back: the first that no trusted proxy
        // stands for is the client; a hop that does not read stops there
        // (the proxy that wrote it is the client as far as is known).
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop {
                Some(ip) if self.trusts(*ip) => client = *ip,
                Some(ip) => return canonical(*ip),
                None => return client,
            }
        }
        client
    }
}

/// Whose share an address draws on in the per-client limits: itself, or
/// for IPv6 its /64 (a host is given a whole /64 and may use any address
/// of it).
pub fn holder(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            IpAddr::from(octets)
        }
        v4 => v4,
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) as the IPv4 one.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The addresses a proxy reports, oldest first (`None`: one that does
/// not read, `unknown` or an obfuscated name): `X-Forwarded-For`'s, or
/// else the `for=` of `Forwarded`.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &'static str| {
        headers
            .get_all(HeaderName::from_static(name))
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .collect::<Vec<_>>()
    };
    let xff = values("x-forwarded-for");
    if !xff.is_empty() {
        return xff.into_iter().map(address).collect();
    }
    values("forwarded")
        .into_iter()
        .map(|element| {
            element.split(';').find_map(|pair| {
                let (key, value) = pair.trim().split_once('=')?;
                key.trim()
                    .eq_ignore_ascii_case("for")
                    .then(|| address(value.trim().trim_matches('"')))
            })?
        })
        .collect()
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `::1`,
/// `[::1]` or `[::1]:5678`.
fn address(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sock) = text.parse::<SocketAddr>() {
        return Some(sock.ip());
    }
    text.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

/// The middleware: tells the handlers the request's client.
pub async fn identify(
    State(proxies): State<Proxies>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(a)| a.ip());
    if let Some(peer) = peer {
        let client = proxies.client(peer, request.headers());
        request.extensions_mut().insert(ClientIp(client));
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    #[test]
    fn only_a_trusted_proxy_s_report_is_believed_read_from_the_right() {
        let proxies = Proxies::new([
            parse_proxy("127.0.0.1").unwrap(),
            parse_proxy("10.0.0.0/8").unwrap(),
        ]);
        let xff = |v: &str| headers(&[("x-forwarded-for", v)]);
        // A client that writes its own header is not believed.
        assert_eq!(
            proxies.client(ip("203.0.113.9"), &xff("1.2.3.4")),
            ip("203.0.113.9")
        );
        // Behind the proxy: the address it appended.
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &xff("203.0.113.7")),
            ip("203.0.113.7")
        );
        // A forged entry on the left is passed over: the nearest untrusted
        // hop is the client.
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &xff("6.6.6.6, 203.0.113.7, 10.1.2.3")),
            ip("203.0.113.7")
        );
        // Several header lines are one list, in order.
        let two = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "198.51.100.4"),
        ]);
        assert_eq!(proxies.client(ip("127.0.0.1"), &two), ip("198.51.100.4"));
        // No header: the proxy itself; every hop trusted: the first.
        assert_eq!(
            proxies.client(ip("10.0.0.2"), &HeaderMap::new()),
            ip("10.0.0.2")
        );
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &xff("10.9.9.9")),
            ip("10.9.9.9")
        );
        // A hop that does not read: the proxy that wrote it.
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &xff("203.0.113.7, garbage")),
            ip("127.0.0.1")
        );
        // IPv4 written as IPv6 by a dual-stack socket.
        assert_eq!(
            proxies.client(ip("::ffff:127.0.0.1"), &xff("203.0.113.7")),
            ip("203.0.113.7")
        );
        // Nobody trusted: the peer, whatever it says.
        assert_eq!(
            Proxies::default().client(ip("127.0.0.1"), &xff("203.0.113.7")),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn forwarded_is_read_when_x_forwarded_for_is_absent() {
        let proxies = Proxies::new([parse_proxy("::1/128").unwrap()]);
        let fwd = |v: &str| headers(&[("forwarded", v)]);
        assert_eq!(
            proxies.client(ip("::1"), &fwd("for=192.0.2.60;proto=http;by=203.0.113.43")),
            ip("192.0.2.60")
        );
        assert_eq!(
            proxies.client(
                ip("::1"),
                &fwd(r#"for=6.6.6.6, For="[2001:db8:cafe::17]:4711""#)
            ),
            ip("2001:db8:cafe::17")
        );
        assert_eq!(proxies.client(ip("::1"), &fwd("for=unknown")), ip("::1"));
        assert_eq!(
            proxies.client(ip("::1"), &fwd("for=198.51.100.17:8080")),
            ip("198.51.100.17")
        );
    }

    #[test]
    fn proxies_are_ranges_or_addresses() {
        assert!(
            parse_proxy("10.0.0.0/8")
                .unwrap()
                .contains(&ip("10.200.3.4"))
        );
        assert_eq!(parse_proxy(" ::1 ").unwrap().prefix_len(), 128);
        let refused = parse_proxy("10.0.0.0/33").unwrap_err();
        assert!(refused.contains("10.0.0.0/33"), "{refused}");
        assert!(parse_proxy("proxy.example").is_err());
    }
}
