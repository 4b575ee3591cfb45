//! Bytes that hide text. A NUL byte, or bytes that are not UTF-8, in a file read as text: editors
//! and diffs stop at them or show nothing, and a scanner that skips "binary" files looks away,
//! while the agent still reads the text around them (UTF-16 text, a NUL in every ASCII
//! character, is one such file). The scan itself reads through them (see `text`), so what they
//! hide is checked too; these rules report that they are there. And a file
//! the scan did not get whole: what it did not read, it did not check.

use super::text::{whole_file, Decoded, Hit, Text};
use super::ScanFinding;
use crate::package::PackageFile;

/// Reports NUL bytes and bytes that are not UTF-8 in a text file, each at its first place.
pub(super) fn check(text: &Text<'_>, decoded: &Decoded<'_>, out: &mut Vec<Hit>) {
    if !text.is_text_file() {
        return;
    }
    if let Some(at) = decoded.first_nul {
        let (n, s) = (decoded.nul_bytes, plural(decoded.nul_bytes));
        let message = if decoded.utf16 {
            format!(
                "{} is UTF-16 text ({n} NUL byte{s}), which tools that expect UTF-8 take for binary",
                text.path
            )
        } else {
            format!(
                "{} holds {n} NUL byte{s} (the first here), which hide text from editors and scanners",
                text.path
            )
        };
        out.push(text.finding("text_nul_byte", at, message));
    }
    if let Some(at) = decoded.first_invalid {
        let (n, s) = (decoded.invalid, plural(decoded.invalid));
        let encoding = if decoded.utf16 { "UTF-16" } else { "UTF-8" };
        let message = format!(
            "{} holds {n} byte sequence{s} that {} not {encoding} (the first here)",
            text.path,
            if n == 1 { "is" } else { "are" }
        );
        out.push(text.finding("text_not_utf8", at, message));
    }
}

/// A file of which the scan got only part: the rest was never checked.
pub(super) fn incomplete(file: &PackageFile) -> Option<ScanFinding> {
    (!file.is_complete()).then(|| {
        let message = format!(
            "only {} of the {} bytes of {} were there to scan; the rest was not checked",
            file.bytes.len(),
            file.size,
            file.path
        );
        whole_file(&file.path, "scan_incomplete", message)
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
