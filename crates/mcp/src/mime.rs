//! The MIME type a skill file is served with, from its extension (the extension's resource
//! metadata: `SKILL.md` is `text/markdown`, other files "the type appropriate to their content").

/// The MIME type of `path`: known extensions by name; otherwise `text/plain` for text and
/// `application/octet-stream` for anything else.
pub fn of(path: &str, is_text: bool) -> &'static str {
    let extension = path.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase());
    match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("txt") => "text/plain",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("csv") => "text/csv",
        Some("html" | "htm") => "text/html",
        Some("xml") => "application/xml",
        Some("py") => "text/x-python",
        Some("sh") => "application/x-sh",
        Some("js" | "mjs") => "text/javascript",
        Some("ts") => "text/x-typescript",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("svg") => "image/svg+xml",
        Some("pdf") => "application/pdf",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        _ if is_text => "text/plain",
        _ => "application/octet-stream",
    }
}

/// Directories are resources of this type (the Skills extension's directory resources).
pub const DIRECTORY: &str = "inode/directory";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_md_is_markdown_and_an_unknown_binary_is_octet_stream() {
        assert_eq!(of("SKILL.md", true), "text/markdown");
        assert_eq!(of("assets/logo.PNG", false), "image/png");
        assert_eq!(of("assets/data.bin", false), "application/octet-stream");
        assert_eq!(of("references/NOTES", true), "text/plain");
    }
}
