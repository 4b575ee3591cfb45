//! A fast path for the shape almost every frontmatter has — `key: plain text` lines, with at
//! most one level of indented `key: plain text` children — so listing thousands of skills does
//! not pay the full YAML parser's cost per file.
//!
//! It is not a second YAML parser: it accepts only a subset whose meaning is unambiguous and
//! returns `None` for anything else (quotes, comments, lists, block scalars, flow collections,
//! anchors, tags, continuation lines, duplicate keys, empty values, tabs, `: ` or ` #` inside a
//! value...), and then [`crate::yaml::parse_document`] runs the real parser. Whenever it
//! answers, the tree is identical to the real parser's — positions included — which the tests
//! check on every corpus skill and on edge cases (and a fuzz target can check on anything).

use crate::yaml::{Key, Node, Value};

/// First characters that give a plain scalar a special meaning in YAML, as a table indexed by a
/// value's first byte (they are all ASCII).
const INDICATORS: [bool; 256] = byte_set(b"-?:,[]{}#&*!|>'\"%@`");

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        set[bytes[i] as usize] = true;
        i += 1;
    }
    set
}

/// The tree for a simple document, or `None` when the real parser must decide.
pub fn parse_simple(yaml: &str, line_offset: u32) -> Option<Node> {
    let mut top: Vec<(Key, Node)> = Vec::new();
    let mut nested: Option<(usize, Vec<(Key, Node)>)> = None;
    let mut pending: Option<Key> = None;
    for (i, raw) in lines(yaml).enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let number = i as u32 + 1 + line_offset;
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        if indent == line.len() {
            if line.is_empty() {
                continue;
            }
            return None;
        }
        let (key, value) = entry(line, indent, number)?;
        if indent == 0 {
            close_nested(&mut top, &mut nested, &mut pending)?;
            match value {
                Some(v) => push(&mut top, key, v)?,
                None => pending = Some(key),
            }
            continue;
        }
        let v = value?;
        let (block_indent, children) = nested.get_or_insert_with(|| (indent, Vec::new()));
        if pending.is_none() && children.is_empty() || *block_indent != indent {
            return None;
        }
        push(children, key, v)?;
    }
    close_nested(&mut top, &mut nested, &mut pending)?;
    let (line, column) = map_position(&top)?;
    Some(Node { value: Value::Map(top), line, column })
}

/// The pieces of `text` between `\n`s, as `str::split('\n')` gives them, found with memchr
/// (the per-line cost of a `char` pattern showed when listing thousands of skills).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    ends.map(move |end| {
        let line = &text[start..end];
        start = end + 1;
        line
    })
}

/// Where the real parser places a block mapping: the line of its first key, the column just
/// after that key (where its `:` is).
fn map_position(entries: &[(Key, Node)]) -> Option<(u32, u32)> {
    let first = &entries.first()?.0;
    // Keys on the fast path are ASCII, so their length in bytes is their length in characters.
    Some((first.line, first.column + first.name.len() as u32))
}

/// Attaches a finished indented block to the key that opened it; a key with no block is an
/// empty value, which the real parser handles.
fn close_nested(
    top: &mut Vec<(Key, Node)>,
    nested: &mut Option<(usize, Vec<(Key, Node)>)>,
    pending: &mut Option<Key>,
) -> Option<()> {
    let Some(key) = pending.take() else {
        return nested.is_none().then_some(());
    };
    let (_, children) = nested.take()?;
    let (line, column) = map_position(&children)?;
    push(top, key, Node { value: Value::Map(children), line, column })
}

fn push(entries: &mut Vec<(Key, Node)>, key: Key, value: Node) -> Option<()> {
    if entries.iter().any(|(k, _)| k.name == key.name) {
        return None;
    }
    entries.push((key, value));
    Some(())
}

/// `key: value` or `key:` (value `None`) at `indent`.
fn entry(line: &str, indent: usize, number: u32) -> Option<(Key, Option<Node>)> {
    let rest = &line[indent..];
    // Keys are short: a plain loop finds the `:` sooner than a vectorised search starts.
    let colon = rest.bytes().position(|b| b == b':')?;
    let name = &rest[..colon];
    let simple_key = name.as_bytes().first()?.is_ascii_alphanumeric()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !simple_key {
        return None;
    }
    let key = Key { name: name.to_string(), line: number, column: indent as u32 + 1 };
    let after = &rest[colon + 1..];
    if after.is_empty() {
        return Some((key, None));
    }
    let text = after.strip_prefix(' ')?.trim_start_matches(' ');
    let value_start = line.len() - text.len();
    let text = safe_plain(text)?;
    // Before the value there are only spaces, the ASCII key and `:`, so bytes are characters.
    let column = value_start as u32 + 1;
    let node = Node { value: Value::Scalar { text: text.to_string(), plain: true }, line: number, column };
    Some((key, Some(node)))
}

/// The value of a one-line plain scalar that means exactly its text, trailing blanks dropped.
fn safe_plain(text: &str) -> Option<&str> {
    let text = text.trim_end_matches(' ');
    let bytes = text.as_bytes();
    let ordinary = !INDICATORS[usize::from(*bytes.first()?)]
        && !has_mapping_or_comment_mark(bytes)
        && !text.ends_with(':')
        && all_printable(text);
    ordinary.then_some(text)
}

/// True when the value holds `: ` (which would start a mapping) or ` #` (which would start a
/// comment): one memchr pass instead of two substring searches.
fn has_mapping_or_comment_mark(bytes: &[u8]) -> bool {
    memchr::memchr2_iter(b':', b'#', bytes).any(|i| match bytes[i] {
        b':' => bytes.get(i + 1) == Some(&b' '),
        _ => i > 0 && bytes[i - 1] == b' ',
    })
}

/// True when every character of `text` is in YAML's printable set, minus tab (tabs go to the
/// real parser). Decided on the bytes, eight at a time while they are printable ASCII (the usual
/// case); elsewhere byte by byte: besides the ASCII controls and DEL, only the C1 controls
/// (`C2 80`–`C2 9F`, except NEL `C2 85`) and U+FEFF, U+FFFE, U+FFFF (`EF BB BF`, `EF BF BE`,
/// `EF BF BF`) are outside the set, and a surrogate cannot occur in UTF-8. A test holds it to the
/// set as the YAML specification writes it, for every character, also across word edges.
fn all_printable(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if printable_ascii_word(word_at(bytes, i)) {
            i += 8;
        } else if printable_byte(bytes, i) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// The eight bytes from `i`, padded with spaces past the end (so a short value or the tail of
/// a long one is still checked as one word).
fn word_at(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..i + 8) {
        Some(word) => u64::from_le_bytes(word.try_into().expect("8 bytes")),
        None => {
            let mut word = [b' '; 8];
            let tail = &bytes[i..];
            word[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(word)
        }
    }
}

/// True when all eight bytes of `word` are printable ASCII (`0x20..=0x7e`). With no high bit
/// set, adding `0x60` to a byte sets its high bit exactly when it is at least a space, adding
/// `0x01` exactly when it is DEL, and neither carries into the next byte.
fn printable_ascii_word(word: u64) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let at_least_space = word.wrapping_add(0x6060_6060_6060_6060);
    let del = word.wrapping_add(0x0101_0101_0101_0101);
    word & HIGH == 0 && at_least_space & !del & HIGH == HIGH
}

/// Whether byte `i` of valid UTF-8 leaves the text printable (a lead byte decides for its
/// whole character, so the continuation bytes pass).
fn printable_byte(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        0x20..=0x7e | 0x80..=0xc1 | 0xc3..=0xee | 0xf0..=0xff => true,
        0xc2 => bytes[i + 1] == 0x85 || !(0x80..=0x9f).contains(&bytes[i + 1]),
        0xef => !matches!((bytes[i + 1], bytes[i + 2]), (0xbb, 0xbf) | (0xbf, 0xbe) | (0xbf, 0xbf)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_full;

    /// The fast path either declines or agrees with the real parser exactly.
    fn agrees(yaml: &str) -> bool {
        let Some(fast) = parse_simple(yaml, 1) else { return false };
        let mut findings = Vec::new();
        let full = parse_full(yaml, "SKILL.md", 1, &mut findings).expect("fast path accepted invalid YAML");
        assert!(findings.is_empty(), "{yaml:?}: {findings:?}");
        assert_eq!(Some(fast), full, "{yaml:?}");
        true
    }

    /// YAML's printable set, minus tab, as the YAML 1.2 specification writes it.
    fn is_printable(c: char) -> bool {
        matches!(c, '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}')
            || c >= '\u{10000}'
    }

    #[test]
    fn the_byte_check_agrees_with_the_printable_set_for_every_character() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            assert_eq!(all_printable(c.encode_utf8(&mut buf)), is_printable(c), "U+{:04X}", c as u32);
            let among = format!("a{c}ç");
            assert_eq!(all_printable(&among), is_printable(c), "U+{:04X} among others", c as u32);
        }
    }

    #[test]
    fn the_byte_check_agrees_across_the_edges_of_its_8_byte_words() {
        for c in (0x7f..=0x10ffff).filter_map(char::from_u32) {
            for before in [5, 6, 7] {
                let text = format!("{}{c}{}", "a".repeat(before), "b".repeat(20));
                assert_eq!(all_printable(&text), is_printable(c), "U+{:04X} after {before} bytes", c as u32);
            }
        }
        for control in ['\u{0}', '\t', '\u{1f}', '\u{7f}'] {
            for at in [0, 7, 8, 15, 16, 39, 40] {
                let mut text: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789ABCDE".chars().collect();
                text[at] = control;
                assert!(!all_printable(&text.iter().collect::<String>()), "{control:?} at {at}");
            }
        }
    }

    #[test]
    fn simple_frontmatter_takes_the_fast_path_and_matches_the_parser() {
        assert!(agrees("name: demo\ndescription: Answers questions, politely. Use when asked.\n"));
        assert!(agrees("name: demo\ndescription: a---b ... ok\nlicense: MIT  \n"));
        assert!(agrees("name: navegação\ndescription: ünïcödé — text 😀\n"));
        assert!(agrees("name: demo\nmetadata:\n  author: Ana\n  version: 1.0\nlicense: MIT\n"));
        assert!(agrees("name: demo\r\ndescription: d\r\n"));
        assert!(agrees("name: demo\n\ndescription: d\n"));
        assert!(agrees("allowed-tools: Bash(jq:*) Bash(git:*)\nname: x\n"));
        assert!(agrees("name: demo\nmetadata:\n    deep: indent\n    other: v\n"));
        assert!(agrees("metadata:\n  a: 1\n"));
    }

    #[test]
    fn anything_unusual_goes_to_the_real_parser() {
        let declined = [
            "name: 'quoted'\n",
            "name: \"quoted\"\n",
            "name: demo # comment\n",
            "# comment\nname: demo\n",
            "description: Use when: asked\n",
            "description: |\n  block\n",
            "description: >\n  folded\n",
            "tags: [a, b]\n",
            "tags:\n  - a\n",
            "name: &a demo\n",
            "name: *a\n",
            "name: !!str demo\n",
            "name:\n",
            "name: demo\nname: again\n",
            "description: first line\n  continued\n",
            "name:\tdemo\n",
            "name: demo\n   \n",
            "metadata:\n  a: 1\n   b: 2\n",
            "key:value\n",
            "? complex\n",
            "- item\n",
            "\"quoted key\": v\n",
            "name: -dash\n",
            "name: ends:\n",
            "",
        ];
        for yaml in declined {
            assert!(parse_simple(yaml, 1).is_none(), "{yaml:?}");
        }
    }
}
