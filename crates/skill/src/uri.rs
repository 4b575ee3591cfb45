//! `skill://` URIs (SPEC D3, the Skills extension's resource mapping), written by the MCP server
//! and read by the remote catalogs' client: a skill's files are
//! `skill://<name>/<path>` (`skill://shipping-policy/references/prazos.md`), its folders
//! `skill://<name>/<dir>` and its root `skill://<name>`, never with a trailing slash. Skill names
//! are one segment (the library has no organisational prefixes); each path segment is
//! percent-encoded where URI syntax needs it, so any file name the library accepts round-trips.

/// The scheme every skill resource uses.
pub const SCHEME: &str = "skill://";

/// What a `skill://` URI names: a skill and a path inside it (`""` for its root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillUri {
    pub name: String,
    pub path: String,
}

impl SkillUri {
    /// Parses `uri`; `None` when it is not a `skill://` URI of this form (a trailing slash, an
    /// empty, `.` or `..` segment, a bad escape).
    pub fn parse(uri: &str) -> Option<SkillUri> {
        let rest = uri.strip_prefix(SCHEME)?;
        let mut segments = rest.split('/').map(decode);
        let name = segments.next()??;
        let path: Vec<String> = segments.collect::<Option<_>>()?;
        let bad = |s: &str| s.is_empty() || s == "." || s == ".." || s.contains('/');
        if bad(&name) || path.iter().any(|s| bad(s)) {
            return None;
        }
        Some(SkillUri { name, path: path.join("/") })
    }
}

/// The URI of `path` in skill `name` (the root when `path` is empty).
pub fn of(name: &str, path: &str) -> String {
    let mut uri = String::with_capacity(SCHEME.len() + name.len() + path.len() + 1);
    uri.push_str(SCHEME);
    encode_into(&mut uri, name);
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        uri.push('/');
        encode_into(&mut uri, segment);
    }
    uri
}

/// Appends `segment`, percent-encoding every byte that is not an RFC 3986 `pchar`.
fn encode_into(out: &mut String, segment: &str) {
    for byte in segment.bytes() {
        let keep = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte);
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

fn decode(segment: &str) -> Option<String> {
    if !segment.contains('%') {
        return Some(segment.to_string());
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_uri_names_the_skill_and_the_path() {
        let uri = SkillUri::parse("skill://shipping-policy/references/prazos.md").unwrap();
        assert_eq!(uri, SkillUri { name: "shipping-policy".into(), path: "references/prazos.md".into() });
    }

    #[test]
    fn the_root_uri_has_an_empty_path() {
        assert_eq!(SkillUri::parse("skill://frete").unwrap().path, "");
    }

    #[test]
    fn a_path_with_spaces_and_accents_round_trips() {
        let uri = of("frete", "assets/tabela de preços.csv");
        assert_eq!(uri, "skill://frete/assets/tabela%20de%20pre%C3%A7os.csv");
        assert_eq!(SkillUri::parse(&uri).unwrap().path, "assets/tabela de preços.csv");
    }

    #[test]
    fn trailing_slashes_dot_segments_and_other_schemes_are_not_skill_uris() {
        for uri in [
            "skill://frete/",
            "skill://frete/../x",
            "skill://frete/./a",
            "skill://",
            "file:///etc/passwd",
            "skill://a//b",
            "skill://a/%2F",
        ] {
            assert_eq!(SkillUri::parse(uri), None, "{uri}");
        }
    }
}
