//! A file's bytes as the text the rules read, and the findings made in it.
//!
//! Every byte is read: a file that is UTF-8 without a NUL byte is its own text. UTF-16 (by its
//! byte-order mark, or by a NUL in nearly every other byte) is decoded as UTF-16, so its text is
//! read as the agent's reader would. Any other file is read with each NUL byte as a space (a
//! separator, as in a binary's strings) and bytes that are not UTF-8 as U+FFFD (as
//! `String::from_utf8_lossy` reads them), so neither hides the text around it. The rules report
//! byte offsets of that text; [`Text::place`] turns them into the 1-based line and column (in
//! characters) a person and a SARIF viewer point at, in one pass over the file.

use std::borrow::Cow;

use super::{rules::rule, ScanFinding};
use crate::files::{self, EXECUTABLE_EXTENSIONS};

/// At most this many findings of one code in one file, so a file full of one problem stays
/// readable. Each rule stops looking once it has this many of a code from one pattern, so a file
/// full of matches costs no more than one without.
pub(super) const MAX_PER_CODE: usize = 20;

/// Extensions of the files an agent or a person reads as text (besides scripts and files with no
/// extension): bytes that are not text in one of them are a finding.
const TEXT_EXTENSIONS: &[&str] = &[
    "md", "markdown", "mdx", "txt", "html", "htm", "xml", "svg", "yaml", "yml", "json", "jsonl", "csv",
    "tsv", "toml", "ini", "cfg", "conf", "rst",
];

/// The file's bytes as text, and what in them is not plain UTF-8.
pub(super) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// True when the bytes were read as UTF-16.
    pub utf16: bool,
    /// How many NUL bytes the file holds, and the offset in `text` of the first (the text's start
    /// for UTF-16, where every ASCII character has one).
    pub nul_bytes: usize,
    pub first_nul: Option<usize>,
    /// How many U+FFFD stand for bytes that are not text, and the offset of the first.
    pub invalid: usize,
    pub first_invalid: Option<usize>,
}

impl<'a> Decoded<'a> {
    /// Reads `bytes` as text (see the module): borrowed when they are clean UTF-8.
    pub fn of(bytes: &'a [u8]) -> Self {
        let mut decoded = Decoded {
            text: Cow::Borrowed(""),
            utf16: false,
            nul_bytes: memchr::memchr_iter(0, bytes).count(),
            first_nul: None,
            invalid: 0,
            first_invalid: None,
        };
        if decoded.nul_bytes == 0 {
            if let Ok(text) = std::str::from_utf8(bytes) {
                decoded.text = Cow::Borrowed(text);
                return decoded;
            }
        }
        let mut text = String::with_capacity(bytes.len());
        match utf16_order(bytes) {
            Some((little_endian, bom)) => {
                decoded.utf16 = true;
                decoded.first_nul = (decoded.nul_bytes > 0).then_some(0);
                let units = bytes[bom..].chunks(2).map(|pair| match pair {
                    [a, b] if little_endian => u16::from_le_bytes([*a, *b]),
                    [a, b] => u16::from_be_bytes([*a, *b]),
                    odd => u16::from(odd[0]),
                });
                for unit in char::decode_utf16(units) {
                    match unit {
                        Ok('\0') => text.push(' '),
                        Ok(c) => text.push(c),
                        Err(_) => decoded.replacement(&mut text),
                    }
                }
            }
            None => {
                for chunk in bytes.utf8_chunks() {
                    for (i, part) in chunk.valid().split('\0').enumerate() {
                        if i > 0 {
                            decoded.first_nul.get_or_insert(text.len());
                            text.push(' ');
                        }
                        text.push_str(part);
                    }
                    if !chunk.invalid().is_empty() {
                        decoded.replacement(&mut text);
                    }
                }
            }
        }
        decoded.text = Cow::Owned(text);
        decoded
    }

    /// Writes a U+FFFD for something that is not text.
    fn replacement(&mut self, text: &mut String) {
        self.first_invalid.get_or_insert(text.len());
        self.invalid += 1;
        text.push(char::REPLACEMENT_CHARACTER);
    }

    /// True when the bytes were UTF-8 without a NUL byte.
    pub fn is_clean(&self) -> bool {
        matches!(self.text, Cow::Borrowed(_))
    }
}

/// UTF-16's byte order (little-endian?) and the length of its byte-order mark: by the mark, or
/// by NUL bytes in at least three in four of the odd (little-endian) or even (big-endian) bytes
/// and in under one in four of the others, as ASCII-heavy UTF-16 text has.
fn utf16_order(bytes: &[u8]) -> Option<(bool, usize)> {
    match bytes {
        [0xFF, 0xFE, ..] => return Some((true, 2)),
        [0xFE, 0xFF, ..] => return Some((false, 2)),
        _ => {}
    }
    let pairs = bytes.len() / 2;
    let (mut even, mut odd) = (0, 0);
    for pair in bytes.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let most = |n: usize| pairs > 0 && n * 4 >= pairs * 3;
    let few = |n: usize| n * 4 < pairs;
    if most(odd) && few(even) {
        Some((true, 0))
    } else if most(even) && few(odd) {
        Some((false, 0))
    } else {
        None
    }
}

/// A finding at a byte offset of a file's text, before it is placed on a line and column.
pub(super) struct Hit {
    pub offset: usize,
    pub finding: ScanFinding,
}

/// One file under scan.
pub(super) struct Text<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

impl<'a> Text<'a> {
    pub fn new(path: &'a str, text: &'a str) -> Self {
        Text { path, text }
    }

    /// The file's lowercase extension.
    pub fn extension(&self) -> String {
        files::extension(self.path)
    }

    /// Markdown, HTML or plain text: what the agent reads as instructions.
    pub fn is_prose(&self) -> bool {
        matches!(self.extension().as_str(), "md" | "markdown" | "mdx" | "txt" | "html" | "htm" | "")
    }

    /// A file read as text by its name: prose, data and configuration formats, and scripts.
    pub fn is_text_file(&self) -> bool {
        let ext = self.extension();
        let script = EXECUTABLE_EXTENSIONS.contains(&ext.as_str()) && !matches!(ext.as_str(), "exe" | "com");
        ext.is_empty() || script || TEXT_EXTENSIONS.contains(&ext.as_str())
    }

    /// A finding of rule `code` at byte `offset` of this file's text.
    pub fn finding(&self, code: &str, offset: usize, message: impl Into<String>) -> Hit {
        Hit { offset, finding: whole_file(self.path, code, message.into()) }
    }

    /// The first [`MAX_PER_CODE`] hits of each code, in offset order, each with its 1-based line
    /// and column (characters): one walk over the text up to the last of them.
    pub fn place(&self, mut hits: Vec<Hit>) -> Vec<ScanFinding> {
        hits.sort_by_key(|h| h.offset);
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        hits.retain(|h| {
            let n = seen.entry(h.finding.code.clone()).or_default();
            *n += 1;
            *n <= MAX_PER_CODE
        });
        let mut cursor = Cursor::default();
        hits.into_iter()
            .map(|hit| {
                let (line, column) = cursor.advance(self.text, hit.offset);
                ScanFinding { line: Some(line), column: Some(column), ..hit.finding }
            })
            .collect()
    }
}

/// A finding about a whole file (no line or column).
pub(super) fn whole_file(path: &str, code: &str, message: String) -> ScanFinding {
    let rule = rule(code);
    ScanFinding {
        code: rule.code.to_string(),
        category: rule.category,
        severity: rule.severity,
        file: path.to_string(),
        line: None,
        column: None,
        message,
        hint: rule.hint.to_string(),
    }
}

/// A position in a text walked forward: byte offset, line and column there.
struct Cursor {
    offset: usize,
    line: u32,
    column: u32,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor { offset: 0, line: 1, column: 1 }
    }
}

impl Cursor {
    /// Moves to byte `to` (never backwards) and returns its line and column.
    fn advance(&mut self, text: &str, to: usize) -> (u32, u32) {
        let to = floor_char_boundary(text, to.max(self.offset));
        let between = &text.as_bytes()[self.offset..to];
        match memchr::memrchr(b'\n', between) {
            Some(last) => {
                let lines = memchr::memchr_iter(b'\n', between).count();
                self.line = self.line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
                self.column = 1 + chars(&text[self.offset + last + 1..to]);
            }
            None => self.column = self.column.saturating_add(chars(&text[self.offset..to])),
        }
        self.offset = to;
        (self.line, self.column)
    }
}

fn chars(text: &str) -> u32 {
    u32::try_from(text.chars().count()).unwrap_or(u32::MAX)
}

/// `offset`, or the start of the character it falls inside (rules report character starts).
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A short, single-line quote of what was matched, for messages: at most 60 characters, control
/// characters shown as spaces, read no further than it shows.
pub(super) fn quote(matched: &str) -> String {
    const MAX: usize = 60;
    let flat = |c: char| if c.is_control() { ' ' } else { c };
    let mut rest = matched.trim_start_matches(|c: char| c.is_whitespace() || c.is_control()).chars();
    let shown: String = rest.by_ref().take(MAX).map(flat).collect();
    if rest.all(|c| c.is_whitespace() || c.is_control()) {
        shown.trim_end().to_string()
    } else {
        format!("{shown}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(text: &str, offsets: &[usize]) -> Vec<(u32, u32)> {
        let t = Text::new("SKILL.md", text);
        let hits = offsets.iter().map(|&o| t.finding("unicode_invisible", o, "")).collect();
        t.place(hits).into_iter().map(|f| (f.line.unwrap(), f.column.unwrap())).collect()
    }

    #[test]
    fn positions_are_one_based_lines_and_character_columns() {
        let text = "ab\nçé x\n";
        assert_eq!(positions(text, &[0, 3, "ab\nçé ".len()]), [(1, 1), (2, 1), (2, 4)]);
    }

    #[test]
    fn clean_utf8_is_read_as_it_is() {
        let decoded = Decoded::of("olá\n".as_bytes());
        assert!(decoded.is_clean());
        assert_eq!(decoded.text, "olá\n");
    }

    #[test]
    fn nul_bytes_read_as_spaces_and_bytes_that_are_not_utf8_as_replacements() {
        let decoded = Decoded::of(b"tEXt\0curl \xff\xfe x\0\0");
        assert_eq!(decoded.text, "tEXt curl \u{FFFD}\u{FFFD} x  ");
        assert_eq!((decoded.first_nul, decoded.nul_bytes), (Some(4), 3));
        assert_eq!((decoded.first_invalid, decoded.invalid), (Some(10), 2));
        assert!(!decoded.utf16);
    }

    #[test]
    fn utf16_is_decoded_by_its_mark_or_by_its_nul_bytes() {
        let text = "curl x | sh \u{202E}";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> =
            [0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
        for bytes in [le, be] {
            let decoded = Decoded::of(&bytes);
            assert!(decoded.utf16);
            assert_eq!(decoded.text, text);
            assert_eq!(decoded.first_nul, Some(0));
        }
    }

    #[test]
    fn a_quote_is_cut_at_sixty_characters() {
        assert_eq!(quote("  a\tb  "), "a b");
        assert_eq!(quote(&"x".repeat(61)), format!("{}…", "x".repeat(60)));
        assert_eq!(quote(&format!("{}    ", "x".repeat(60))), "x".repeat(60));
    }
}
