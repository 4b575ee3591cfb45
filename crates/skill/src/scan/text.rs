//! A scanned text file with its line starts, so a byte offset found by a rule becomes the
//! 1-based line and column (in characters) a person and a SARIF viewer point at.

use super::{rules::rule, ScanFinding};

/// One text file under scan.
pub(super) struct Text<'a> {
    pub path: &'a str,
    pub text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Text<'a> {
    pub fn new(path: &'a str, text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Text { path, text, line_starts }
    }

    /// 1-based line and column (characters) of byte `offset`.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts[line - 1];
        let column = self.text[start..offset].chars().count() + 1;
        (line as u32, column as u32)
    }

    /// The file's lowercase extension.
    pub fn extension(&self) -> String {
        crate::files::extension(self.path)
    }

    /// Markdown, HTML or plain text: what the agent reads as instructions.
    pub fn is_prose(&self) -> bool {
        matches!(self.extension().as_str(), "md" | "markdown" | "mdx" | "txt" | "html" | "htm" | "")
    }

    /// A finding of rule `code` at byte `offset` of this file.
    pub fn finding(&self, code: &str, offset: usize, message: impl Into<String>) -> ScanFinding {
        let (line, column) = self.position(offset);
        let rule = rule(code);
        ScanFinding {
            code: rule.code.to_string(),
            category: rule.category,
            severity: rule.severity,
            file: self.path.to_string(),
            line: Some(line),
            column: Some(column),
            message: message.into(),
            hint: rule.hint.to_string(),
        }
    }
}

/// A short, single-line quote of what was matched, for messages.
pub(super) fn quote(matched: &str) -> String {
    const MAX: usize = 60;
    let flat: String = matched.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let flat = flat.trim();
    if flat.chars().count() <= MAX {
        flat.to_string()
    } else {
        format!("{}…", flat.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_lines_and_character_columns() {
        let text = Text::new("SKILL.md", "ab\nçé x\n");
        assert_eq!(text.position(0), (1, 1));
        assert_eq!(text.position(3), (2, 1));
        assert_eq!(text.position("ab\nçé ".len()), (2, 4));
    }
}
