//! A raw HTTP/1.1 client whose every header the test chooses (a browser's `Origin`, a
//! rebinding page's `Host`, no `Host` at all), and a check of JSON values against the OpenAPI
//! document's schemas.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A request being written by hand.
#[derive(Clone)]
pub struct Req {
    port: u16,
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Req {
    /// A request with no headers at all (not even `Host`).
    pub fn new(port: u16, method: &str, path: &str) -> Req {
        Req { port, method: method.into(), path: path.into(), headers: Vec::new(), body: Vec::new() }
    }

    /// Sets a header, replacing an earlier one of the same name.
    pub fn header(mut self, name: &str, value: &str) -> Req {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Adds a header after any of the same name (a request with two `Host` headers).
    pub fn extra_header(mut self, name: &str, value: &str) -> Req {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Removes a header.
    pub fn without(mut self, name: &str) -> Req {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }

    /// Sets `Authorization: Bearer <token>`.
    pub fn bearer(self, token: &str) -> Req {
        self.header("Authorization", &format!("Bearer {token}"))
    }

    /// A JSON body with its content type.
    pub fn json(self, body: &Value) -> Req {
        self.raw_body("application/json", body.to_string().into_bytes())
    }

    /// A body of any type.
    pub fn raw_body(mut self, content_type: &str, body: Vec<u8>) -> Req {
        self.body = body;
        self.header("Content-Type", content_type)
    }

    fn head(&self, content_length: Option<usize>) -> String {
        let mut head = format!("{} {} HTTP/1.1\r\n", self.method, self.path);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(len) = content_length {
            head.push_str(&format!("Content-Length: {len}\r\n"));
        }
        head.push_str("Connection: close\r\n\r\n");
        head
    }

    /// Sends the request with a `Content-Length` and reads the whole answer.
    pub async fn send(&self) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let length = (!self.body.is_empty() || self.method != "GET").then_some(self.body.len());
        stream.write_all(self.head(length).as_bytes()).await.unwrap();
        let _ = stream.write_all(&self.body).await;
        read_reply(stream).await
    }

    /// Sends the body in chunks (`Transfer-Encoding: chunked`), so the server cannot know its
    /// size in advance.
    pub async fn send_chunked(&self) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let with_te = self.clone().header("Transfer-Encoding", "chunked");
        stream.write_all(with_te.head(None).as_bytes()).await.unwrap();
        for chunk in self.body.chunks(16 * 1024) {
            let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
            framed.extend_from_slice(chunk);
            framed.extend_from_slice(b"\r\n");
            if stream.write_all(&framed).await.is_err() {
                break;
            }
        }
        let _ = stream.write_all(b"0\r\n\r\n").await;
        read_reply(stream).await
    }

    /// Declares `declared` body bytes, sends only `sent` of them, then waits: a client too slow
    /// to finish its request.
    pub async fn send_stalled(&self, declared: usize, sent: &[u8], stall: Duration) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        stream.write_all(self.head(Some(declared)).as_bytes()).await.unwrap();
        stream.write_all(sent).await.unwrap();
        tokio::time::timeout(stall, read_reply(stream)).await.expect("the server answered within the stall")
    }
}

/// An answer as read off the wire.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The `error.code` of an error answer.
    pub fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// Every `access-control-*` header (there must never be one).
    pub fn cors_headers(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.to_ascii_lowercase().starts_with("access-control-"))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

async fn read_reply(mut stream: TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked =
        headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply { status, headers, body }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[eol + 2 + size + 2..];
    }
    out
}

/// Checks `value` against an OpenAPI schema of this document: objects have every required
/// property and no property the schema does not list; `$ref`, arrays and `oneOf` are followed.
pub fn conforms(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        return conforms(doc, &doc["components"]["schemas"][name], value, at);
    }
    if let Some(options) = schema["oneOf"].as_array() {
        return if options.iter().any(|o| conforms(doc, o, value, at).is_ok()) {
            Ok(())
        } else {
            Err(format!("{at}: matches no oneOf option"))
        };
    }
    if let (Some(properties), Some(object)) = (schema["properties"].as_object(), value.as_object()) {
        for required in schema["required"].as_array().into_iter().flatten() {
            let name = required.as_str().unwrap();
            if !object.contains_key(name) {
                return Err(format!("{at}: required `{name}` is missing"));
            }
        }
        for (key, field) in object {
            let Some(property) = properties.get(key) else {
                return Err(format!("{at}: `{key}` is not in the schema"));
            };
            conforms(doc, property, field, &format!("{at}.{key}"))?;
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (i, item) in array.iter().enumerate() {
            conforms(doc, items, item, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}
