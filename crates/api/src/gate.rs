//! The checks every request passes before it reaches a route (SPEC B4), in this order:
//!
//! 1. `Host` is `127.0.0.1:<port>` or `localhost:<port>` — a page on another site that rebinds
//!    its DNS name to 127.0.0.1 still sends its own name, and is refused (`host_not_allowed`).
//!    There must be exactly one `Host` header and the target must be a path (`/v1/...`): a
//!    second `Host`, or an absolute-form target (`GET http://evil.example/...`, which overrides
//!    `Host` for a server that follows RFC 9112), would let whatever reads the other copy see a
//!    different name than the one checked here, so both are refused the same way.
//! 2. No `Origin` header — browsers attach one to every cross-origin and every non-GET request,
//!    and no legitimate agent sends one, so no web page can drive the API (`origin_not_allowed`).
//!    No CORS header is ever sent, so a browser never lets a page read an answer either.
//! 3. `Authorization: Bearer <token>`, compared in constant time (`unauthorized`).
//! 4. A request that carries a body says `Content-Type: application/json`
//!    (`unsupported_media_type`).
//!
//! The host and origin checks come before authentication so a refused page learns nothing, not
//! even whether its guess of a token was right. A refused request's connection is closed after
//! the answer, so an unauthenticated client cannot hold it open for the idle timeout.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use skillcase_application::token::TokenStore;

/// What the checks need to know: the port the server is bound to and the token in force.
#[derive(Debug)]
pub struct Gate {
    port: u16,
    tokens: Arc<TokenStore>,
}

impl Gate {
    /// A gate for a server bound to `port` that accepts the token of `tokens`.
    pub fn new(port: u16, tokens: Arc<TokenStore>) -> Self {
        Gate { port, tokens }
    }

    /// Admits the request (its method, target and headers) or says why not.
    pub fn admit(&self, method: &Method, target: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
        self.check_host(target, headers)?;
        check_no_origin(headers)?;
        self.check_token(headers)?;
        check_content_type(method, headers)
    }

    fn check_host(&self, target: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
        let mut hosts = headers.get_all(header::HOST).iter();
        let host = match (hosts.next(), hosts.next()) {
            (Some(only), None) => only.to_str().unwrap_or(""),
            _ => "",
        };
        let allowed = [format!("127.0.0.1:{}", self.port), format!("localhost:{}", self.port)];
        let origin_form = target.scheme().is_none() && target.authority().is_none();
        if origin_form && allowed.iter().any(|a| a.eq_ignore_ascii_case(host)) {
            return Ok(());
        }
        Err(ApiError::new(
            "host_not_allowed",
            format!(
                "send one Host header, 127.0.0.1:{0} or localhost:{0}, and a path as the request target",
                self.port
            ),
        ))
    }

    fn check_token(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim());
        let Some(presented) = presented else {
            return Err(ApiError::new(
                "unauthorized",
                "send Authorization: Bearer <token>; the token is in the api-token file of the Skillcase data directory",
            ));
        };
        if self.tokens.verify(presented).map_err(ApiError::coded)? {
            Ok(())
        } else {
            Err(ApiError::new("unauthorized", "the bearer token is not valid; it may have been rotated"))
        }
    }
}

fn check_no_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    if headers.contains_key(header::ORIGIN) {
        return Err(ApiError::new("origin_not_allowed", "requests from web pages are not accepted"));
    }
    Ok(())
}

fn check_content_type(method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    let declares_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|len| len.trim() != "0");
    let needs_json = declares_body || [Method::POST, Method::PUT, Method::PATCH].contains(method);
    if !needs_json {
        return Ok(());
    }
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mut parts = content_type.split(';').map(str::trim);
    let is_json = parts.next().is_some_and(|essence| essence.eq_ignore_ascii_case("application/json"));
    let charset_ok = parts.all(|param| match param.split_once('=') {
        Some((name, value)) if name.trim().eq_ignore_ascii_case("charset") => {
            value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
        }
        _ => true,
    });
    if is_json && charset_ok {
        return Ok(());
    }
    Err(ApiError::new(
        "unsupported_media_type",
        format!("request bodies must be Content-Type: application/json (got {content_type:?})"),
    ))
}

/// Middleware: answers a refused request with its error (and closes its connection) and passes
/// the others on.
pub async fn admit(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    match gate.admit(request.method(), request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => {
            let mut response = refusal.into_response();
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> (tempfile::TempDir, Gate, String) {
        let dir = tempfile::tempdir().unwrap();
        let tokens = Arc::new(TokenStore::open(dir.path()).unwrap());
        let token = tokens.current().unwrap().as_str().to_string();
        (dir, Gate::new(7878, tokens), token)
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn path() -> Uri {
        Uri::from_static("/v1/openapi.json")
    }

    fn refusal(gate: &Gate, method: Method, pairs: &[(&'static str, &str)]) -> String {
        gate.admit(&method, &path(), &headers(pairs)).unwrap_err().0.code
    }

    #[test]
    fn a_loopback_host_with_the_token_is_admitted() {
        let (_dir, gate, token) = gate();
        let bearer = format!("Bearer {token}");
        for host in ["127.0.0.1:7878", "localhost:7878", "LOCALHOST:7878"] {
            gate.admit(&Method::GET, &path(), &headers(&[("host", host), ("authorization", &bearer)]))
                .unwrap();
        }
    }

    #[test]
    fn another_host_or_port_or_none_is_refused_before_the_token_is_looked_at() {
        let (_dir, gate, _) = gate();
        for host in ["evil.example:7878", "127.0.0.1:7879", "127.0.0.1", "localhost.evil.example:7878"] {
            assert_eq!(refusal(&gate, Method::GET, &[("host", host)]), "host_not_allowed", "{host}");
        }
        assert_eq!(refusal(&gate, Method::GET, &[]), "host_not_allowed");
    }

    #[test]
    fn a_second_host_header_is_refused_even_when_the_first_is_right() {
        let (_dir, gate, token) = gate();
        let bearer = format!("Bearer {token}");
        let pairs =
            [("host", "127.0.0.1:7878"), ("host", "evil.example"), ("authorization", bearer.as_str())];
        assert_eq!(refusal(&gate, Method::GET, &pairs), "host_not_allowed");
    }

    #[test]
    fn an_absolute_form_target_is_refused_even_with_a_right_host() {
        let (_dir, gate, token) = gate();
        let bearer = format!("Bearer {token}");
        let pairs = [("host", "127.0.0.1:7878"), ("authorization", bearer.as_str())];
        for target in ["http://evil.example/v1/openapi.json", "http://127.0.0.1:7878/v1/openapi.json"] {
            let refused = gate.admit(&Method::GET, &Uri::from_static(target), &headers(&pairs));
            assert_eq!(refused.unwrap_err().0.code, "host_not_allowed", "{target}");
        }
    }

    #[test]
    fn any_origin_is_refused_even_with_the_right_token() {
        let (_dir, gate, token) = gate();
        let bearer = format!("Bearer {token}");
        for origin in ["http://127.0.0.1:7878", "null", "https://evil.example"] {
            let pairs = [("host", "127.0.0.1:7878"), ("origin", origin), ("authorization", bearer.as_str())];
            assert_eq!(refusal(&gate, Method::GET, &pairs), "origin_not_allowed");
        }
    }

    #[test]
    fn a_missing_wrong_or_basic_credential_is_unauthorized() {
        let (_dir, gate, token) = gate();
        let basic = format!("Basic {token}");
        for auth in [None, Some("Bearer nope"), Some(basic.as_str()), Some("Bearer")] {
            let mut pairs = vec![("host", "127.0.0.1:7878")];
            pairs.extend(auth.map(|a| ("authorization", a)));
            assert_eq!(refusal(&gate, Method::GET, &pairs), "unauthorized", "{auth:?}");
        }
    }

    #[test]
    fn a_body_must_be_json_in_utf8() {
        let (_dir, gate, token) = gate();
        let bearer = format!("Bearer {token}");
        let with = |ct: Option<&'static str>| {
            let mut pairs = vec![("host", "127.0.0.1:7878"), ("authorization", bearer.as_str())];
            pairs.extend(ct.map(|c| ("content-type", c)));
            gate.admit(&Method::POST, &path(), &headers(&pairs)).map_err(|e| e.0.code)
        };
        assert_eq!(with(Some("application/json")), Ok(()));
        assert_eq!(with(Some("Application/JSON; charset=UTF-8")), Ok(()));
        for bad in [
            None,
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            Some("application/json; charset=latin1"),
        ] {
            assert_eq!(with(bad), Err("unsupported_media_type".to_string()), "{bad:?}");
        }
    }
}
