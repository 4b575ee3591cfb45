//! Rules about the package's files: the import limits of A8 and the executable-content policy
//! of A1 (`skillcase`), Anthropic's upload limits (`claude`).

use super::{Ctx, Profile};
use crate::files;
use crate::finding::Finding;
use crate::package::PackageFile;

/// Anthropic's upload limits (claude profile).
const CLAUDE_MAX_FILES: u64 = 200;
pub(crate) const CLAUDE_MAX_BYTES: u64 = 30 * 1024 * 1024;
/// Archive extensions Anthropic's upload refuses inside a skill zip ("cannot contain nested zip files").
const ARCHIVE_EXTENSIONS: &[&str] = &["zip", "skill", "tar", "gz", "tgz", "7z", "rar"];
/// How much of a file the executable check reads (`#!`).
pub(super) const SHEBANG_BYTES: usize = 2;

/// Checks file count, sizes, asset extensions, executable content and (claude) the layout.
pub(super) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    match ctx.profile {
        Profile::Standard | Profile::ClaudeCode | Profile::Codex => {}
        Profile::Claude => claude(ctx, out),
        Profile::Skillcase => skillcase(ctx, out),
    }
}

fn claude(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    counts(ctx, CLAUDE_MAX_FILES, CLAUDE_MAX_BYTES, "Anthropic's upload", out);
    if ctx.pkg.folder_name.is_none() {
        out.push(
            Finding::error(
                "zip_root_layout",
                ctx.file,
                "the files sit at the zip root, not in a folder named after the skill",
            )
            .hint("zip the skill folder itself, so the zip has exactly one top-level folder equal to `name`"),
        );
    }
    for file in &ctx.pkg.files {
        let ext = files::extension(&file.path);
        if ARCHIVE_EXTENSIONS.contains(&ext.as_str()) {
            out.push(
                Finding::error(
                    "nested_archive",
                    &file.path,
                    format!("{} is an archive; Anthropic's upload refuses a zip holding another", file.path),
                )
                .hint("unpack the archive into the skill's folders, or leave it out"),
            );
        }
    }
}

fn skillcase(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let limits = &ctx.policy.limits;
    counts(ctx, u64::from(limits.max_files), limits.max_total_bytes, "the workspace import", out);
    for file in &ctx.pkg.files {
        per_file(ctx, file, out);
    }
}

fn counts(ctx: &Ctx<'_>, max_files: u64, max_total: u64, whose: &str, out: &mut Vec<Finding>) {
    let n = ctx.pkg.files.len() as u64;
    if n > max_files {
        out.push(
            Finding::error(
                "too_many_files",
                ctx.file,
                format!("the skill has {n} files; {whose} limit is {max_files}"),
            )
            .hint("remove files the agent does not need, or merge small references"),
        );
    }
    let total = ctx.pkg.total_bytes();
    if total > max_total {
        out.push(
            Finding::error(
                "package_too_large",
                ctx.file,
                format!("the skill holds {} in total; {whose} limit is {}", size(total), size(max_total)),
            )
            .hint("remove or shrink large files (images, data sets)"),
        );
    }
}

fn per_file(ctx: &Ctx<'_>, file: &PackageFile, out: &mut Vec<Finding>) {
    let limits = &ctx.policy.limits;
    let bytes = file.size;
    if bytes > limits.max_file_bytes {
        out.push(
            Finding::error(
                "file_too_large",
                &file.path,
                format!(
                    "{} is {}; the per-file limit is {}",
                    file.path,
                    size(bytes),
                    size(limits.max_file_bytes)
                ),
            )
            .hint("split the file or shrink it"),
        );
    }
    let ext = files::extension(&file.path);
    if file.path.starts_with("assets/") && !limits.asset_extensions.contains(&ext) {
        out.push(
            Finding::error(
                "asset_extension_not_allowed",
                &file.path,
                format!("assets may not have the extension `.{ext}`"),
            )
            .hint(format!("allowed asset extensions: {}", limits.asset_extensions.join(" "))),
        );
    }
    let head = &file.bytes[..file.bytes.len().min(SHEBANG_BYTES)];
    if !ctx.policy.allow_executable && files::is_executable(&file.path, head, file.unix_mode) {
        out.push(
            Finding::error(
                "executable_content",
                &file.path,
                format!("{} is executable content (script, shebang or exec bit)", file.path),
            )
            .hint("remove it, or enable the workspace setting `allow_executable` to accept scripts"),
        );
    }
}

/// Human size: bytes, KB or MB (1024-based).
fn size(bytes: u64) -> String {
    const MB: u64 = 1024 * 1024;
    match bytes {
        b if b >= MB => format!("{:.1} MB", b as f64 / MB as f64),
        b if b >= 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}
