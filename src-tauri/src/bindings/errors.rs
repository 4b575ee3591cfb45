//! `ErrorCode.ts`: the union of the documented error codes, and the codes the sources return.

use std::collections::BTreeSet;
use std::path::Path;

use super::{root, HEADER};

/// The codes listed in `docs/error-codes.md` (first column of its tables).
pub(super) fn documented_codes() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("docs/error-codes.md")).unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .filter(|code| code.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// Every string literal a `fn code(&self)` of the crates' sources returns.
pub(super) fn returned_codes() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    let mut stack = vec![root().join("crates")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("target") && !path.ends_with("tests") {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                codes.extend(codes_in(&path));
            }
        }
    }
    codes
}

fn codes_in(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for (at, _) in text.match_indices("fn code(&self) -> &'static str {") {
        let body = &text[at..];
        let end = body.find("\n    }\n").unwrap_or(body.len());
        for piece in body[..end].split("=> \"").skip(1) {
            if let Some(code) = piece.split('"').next() {
                out.push(code.to_string());
            }
        }
    }
    out
}

pub(super) fn error_code_ts(codes: &BTreeSet<String>) -> String {
    let union: Vec<String> = codes.iter().map(|c| format!("  | \"{c}\"")).collect();
    format!(
        "{HEADER}// The stable error codes of docs/error-codes.md.\n\n/** A code an `ErrorBody` can carry. */\nexport type ErrorCode =\n{};\n",
        union.join("\n")
    )
}
