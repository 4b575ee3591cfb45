//! Entry names are checked, never rewritten (SPEC A8): a name that could escape the skill
//! folder, mean something else on another system or be cut short by a C API is refused with a
//! code of its own, and the author is told which entry and how to fix it.

use unicode_normalization::UnicodeNormalization;

use crate::archive::codes;

/// Longest accepted entry name, in bytes (the common file-name limit of file systems).
pub const MAX_NAME_BYTES: usize = 255;

/// Why a name is refused: the code, what is wrong and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRefusal {
    pub code: &'static str,
    pub message: &'static str,
    pub hint: &'static str,
}

const fn refusal(code: &'static str, message: &'static str, hint: &'static str) -> NameRefusal {
    NameRefusal { code, message, hint }
}

/// Decodes and checks a raw entry name. Directory entries end with `/`, which is allowed once
/// at the end. Returns the name without that trailing `/`.
pub fn check(raw: &[u8]) -> Result<String, NameRefusal> {
    if raw.contains(&0) {
        return Err(refusal(
            codes::NUL_IN_NAME,
            "the entry name contains a NUL byte",
            "rename the file without control characters and zip it again",
        ));
    }
    let name = std::str::from_utf8(raw).map_err(|_| {
        refusal(
            codes::NAME_NOT_UTF8,
            "the entry name is not UTF-8",
            "zip the package with a tool that stores UTF-8 names",
        )
    })?;
    if raw.len() > MAX_NAME_BYTES {
        return Err(refusal(
            codes::NAME_TOO_LONG,
            "the entry name is longer than 255 bytes",
            "use shorter folder and file names",
        ));
    }
    if name.starts_with('/') {
        return Err(refusal(
            codes::ABSOLUTE_PATH,
            "the entry name is an absolute path",
            "zip the skill folder with relative paths (zip -r skill.zip my-skill)",
        ));
    }
    if has_drive_prefix(name) {
        return Err(refusal(
            codes::DRIVE_PATH,
            "the entry name starts with a drive letter",
            "zip the skill folder with relative paths, not from a drive root",
        ));
    }
    if name.contains('\\') {
        return Err(refusal(
            codes::BACKSLASH_PATH,
            "the entry name contains a backslash",
            "use a zip tool that writes `/` as the path separator",
        ));
    }
    let trimmed = name.strip_suffix('/').unwrap_or(name);
    if trimmed.split('/').any(|seg| seg == "..") {
        return Err(refusal(
            codes::PATH_TRAVERSAL,
            "the entry name has a `..` segment that points outside the skill folder",
            "zip only the files inside the skill folder",
        ));
    }
    if trimmed.split('/').any(|seg| seg.is_empty() || seg == ".")
        || name.chars().any(|c| c.is_control() || c == ':')
    {
        return Err(refusal(
            codes::INVALID_NAME,
            "the entry name has an empty or `.` segment, a control character or a `:`",
            "rename the file with plain characters and zip it again",
        ));
    }
    Ok(trimmed.to_string())
}

fn has_drive_prefix(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// The key under which two names land on the same file on a case-insensitive or normalising
/// file system (macOS, Windows): Unicode NFC, then lowercase, then each segment without its
/// trailing dots and spaces, which Windows drops when it creates a file (`a.md.` and `a.md ` are
/// the file `a.md` there, so extracting both would write one over the other).
pub fn fold(name: &str) -> String {
    let folded = name.nfc().collect::<String>().to_lowercase();
    folded.split('/').map(|segment| segment.trim_end_matches(['.', ' '])).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(raw: &[u8]) -> &'static str {
        check(raw).unwrap_err().code
    }

    #[test]
    fn plain_relative_names_pass_and_lose_the_trailing_slash_of_folders() {
        assert_eq!(check(b"my-skill/SKILL.md").unwrap(), "my-skill/SKILL.md");
        assert_eq!(check(b"references/").unwrap(), "references");
        assert_eq!(check("references/preço.md".as_bytes()).unwrap(), "references/preço.md");
    }

    #[test]
    fn each_dangerous_name_has_its_own_code() {
        assert_eq!(code(b"../evil.md"), codes::PATH_TRAVERSAL);
        assert_eq!(code(b"a/../../evil.md"), codes::PATH_TRAVERSAL);
        assert_eq!(code(b"/etc/passwd"), codes::ABSOLUTE_PATH);
        assert_eq!(code(b"C:/Windows/evil.md"), codes::DRIVE_PATH);
        assert_eq!(code(b"references\\a.md"), codes::BACKSLASH_PATH);
        assert_eq!(code(b"a\0b.md"), codes::NUL_IN_NAME);
        assert_eq!(code(b"\xff\xfe.md"), codes::NAME_NOT_UTF8);
        assert_eq!(code("a".repeat(256).as_bytes()), codes::NAME_TOO_LONG);
        assert_eq!(code(b"a//b.md"), codes::INVALID_NAME);
        assert_eq!(code(b"./a.md"), codes::INVALID_NAME);
        assert_eq!(code(b"notes.md:stream"), codes::INVALID_NAME);
        assert_eq!(code(b"a\x07.md"), codes::INVALID_NAME);
    }

    #[test]
    fn folding_joins_case_and_normalisation_variants() {
        assert_eq!(fold("References/A.md"), fold("references/a.md"));
        assert_eq!(fold("cafe\u{301}.md"), fold("café.md"));
        assert_ne!(fold("a.md"), fold("b.md"));
    }

    #[test]
    fn folding_drops_the_trailing_dots_and_spaces_windows_drops() {
        assert_eq!(fold("a.md."), fold("a.md"));
        assert_eq!(fold("a.md "), fold("a.md"));
        assert_eq!(fold("a.md. . "), fold("a.md"));
        assert_eq!(fold("references./a.md"), fold("references/a.md"));
        assert_ne!(fold("a.md"), fold("a.mdx"));
        assert_ne!(fold(".env"), fold("env"), "a leading dot is part of the name");
    }
}
