//! Every scan rule in one table: its stable code, category, severity, what it finds and how to
//! fix it. The SARIF output lists these as the tool's rules and `docs/finding-codes.md` has a row
//! for each (a test keeps the two in step).

use super::{Category, ScanSeverity};

/// One rule of the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub code: &'static str,
    pub category: Category,
    pub severity: ScanSeverity,
    /// What the rule finds, in one sentence.
    pub summary: &'static str,
    /// How to fix what it finds.
    pub hint: &'static str,
}

use Category::*;
use ScanSeverity::*;

/// Every rule, in the order of `docs/finding-codes.md`.
pub const RULES: &[Rule] = &[
    Rule {
        code: "secret_private_key",
        category: Secrets,
        severity: Error,
        summary: "A private key block (`-----BEGIN … PRIVATE KEY-----`) is written into a file.",
        hint: "remove the key, revoke it, and have the skill read keys from the environment or a secret store",
    },
    Rule {
        code: "secret_api_key",
        category: Secrets,
        severity: Error,
        summary: "An API key of a known provider (AWS, GitHub, GitLab, Slack, Stripe, Anthropic, OpenAI, Google, Hugging Face, npm, SendGrid, ...) is written into a file.",
        hint: "remove the key and revoke it; read it from an environment variable the user sets",
    },
    Rule {
        code: "secret_token",
        category: Secrets,
        severity: Error,
        summary: "A token or password is written into a file: a JWT, a bearer token, or a high-entropy value assigned to a key, secret, token or password.",
        hint: "remove the value and rotate it; use a placeholder such as `$API_TOKEN` in examples",
    },
    Rule {
        code: "remote_exec_pipe_shell",
        category: RemoteExec,
        severity: Critical,
        summary: "A download piped straight into a shell or interpreter (`curl … | sh`, `wget -O- … | bash`, `| python`).",
        hint: "ship the script inside the skill, or download it, verify its checksum, and let the user run it",
    },
    Rule {
        code: "remote_exec_base64_shell",
        category: RemoteExec,
        severity: Critical,
        summary: "Base64-decoded data run as code (`base64 -d | sh`, `exec(b64decode(…))`, `powershell -EncodedCommand`).",
        hint: "write the commands out in plain text so a reviewer can read what runs",
    },
    Rule {
        code: "remote_exec_eval_fetched",
        category: RemoteExec,
        severity: Critical,
        summary: "Fetched content evaluated as code (`eval \"$(curl …)\"`, `bash <(curl …)`, `exec(requests.get(…).text)`).",
        hint: "ship the code inside the skill instead of fetching and evaluating it at run time",
    },
    Rule {
        code: "remote_exec_powershell",
        category: RemoteExec,
        severity: Critical,
        summary: "PowerShell runs a download (`iex (iwr …)`, `Invoke-Expression` of `DownloadString`).",
        hint: "ship the script inside the skill, or download it, verify its signature, and let the user run it",
    },
    Rule {
        code: "unicode_bidi_control",
        category: HiddenUnicode,
        severity: Critical,
        summary: "A bidirectional control character (U+202A–U+202E, U+2066–U+2069) that makes text read differently from how it runs (Trojan Source).",
        hint: "delete the control character; write right-to-left text without embedding or override marks",
    },
    Rule {
        code: "unicode_tag_characters",
        category: HiddenUnicode,
        severity: Critical,
        summary: "Invisible tag characters (U+E0000–U+E007F) or supplementary variation selectors that smuggle text a model reads but a person cannot see.",
        hint: "delete the invisible characters; a skill's text should be what a reviewer sees",
    },
    Rule {
        code: "unicode_invisible",
        category: HiddenUnicode,
        severity: Error,
        summary: "A zero-width or invisible character (zero-width space, joiner outside emoji and scripts that need it, word joiner, a byte-order mark inside the text, bidi marks).",
        hint: "delete the invisible character, or write it as an escape where it is needed",
    },
    Rule {
        code: "text_nul_byte",
        category: HiddenBytes,
        severity: Critical,
        summary: "A text file (Markdown, plain text, HTML, code, YAML, JSON, CSV, no extension) holds NUL bytes: editors and diffs stop at them or hide what follows, and scanners that skip binary files look away, while the agent still reads the text. The scan reads through them: UTF-16 (by its byte-order mark or its NUL bytes) is decoded as UTF-16, any other NUL byte is read as a space.",
        hint: "remove the NUL bytes and save the file as UTF-8 text",
    },
    Rule {
        code: "text_not_utf8",
        category: HiddenBytes,
        severity: Error,
        summary: "A text file holds bytes that are not UTF-8 (another encoding, or binary data), which tools show differently or not at all; the scan reads the text around them.",
        hint: "save the file as UTF-8, or move binary data to `assets/` under a binary extension",
    },
    Rule {
        code: "scan_incomplete",
        category: HiddenBytes,
        severity: Critical,
        summary: "The scan was given only part of a file (a package read just to be validated), so the rest was never checked; an import refuses it.",
        hint: "scan the package read whole, as it is imported or stored",
    },
    Rule {
        code: "html_comment_instruction",
        category: HiddenInstructions,
        severity: Critical,
        summary: "An HTML comment, invisible when the Markdown is rendered but read by the agent, that gives the agent instructions.",
        hint: "move instructions into visible text where reviewers can read them, or delete the comment",
    },
    Rule {
        code: "agent_override_instruction",
        category: HiddenInstructions,
        severity: Critical,
        summary: "Text aimed at overriding the agent's own instructions or at hiding what it does from the user (\"ignore previous instructions\", \"do not tell the user\").",
        hint: "remove the instruction; a skill adds to the agent's instructions and never asks it to deceive the user",
    },
    Rule {
        code: "link_raw_ip",
        category: SuspiciousLinks,
        severity: Warning,
        summary: "A link to a raw IP address instead of a name (loopback addresses are not reported).",
        hint: "link to the service's domain name so readers can see where it goes",
    },
    Rule {
        code: "link_shortener",
        category: SuspiciousLinks,
        severity: Warning,
        summary: "A link through a URL shortener (bit.ly, tinyurl.com, t.co, ...), which hides where it leads.",
        hint: "replace the short link with the address it leads to",
    },
    Rule {
        code: "link_punycode",
        category: SuspiciousLinks,
        severity: Error,
        summary: "A link whose host is punycode or non-ASCII (`xn--`), which can imitate another site's name.",
        hint: "check the domain; link to the ASCII domain of the real site",
    },
    Rule {
        code: "link_text_mismatch",
        category: SuspiciousLinks,
        severity: Error,
        summary: "A Markdown link whose text shows one address while the link goes to another host.",
        hint: "make the link text and the link target name the same site",
    },
    Rule {
        code: "exec_bit_non_script",
        category: ExecBits,
        severity: Warning,
        summary: "A file that is not a script (no script extension, no `#!`) has an executable bit.",
        hint: "clear the bit (`chmod -x FILE`); only scripts need to be executable",
    },
    Rule {
        code: "executable_binary",
        category: ExecBits,
        severity: Error,
        summary: "A native executable (ELF, PE or Mach-O) is in the skill, where no reviewer can read what it does.",
        hint: "ship source scripts instead of compiled programs",
    },
];

/// The rule with `code`. Panics on a code no rule has: rules name their codes as literals.
pub fn rule(code: &str) -> &'static Rule {
    RULES.iter().find(|r| r.code == code).unwrap_or_else(|| panic!("no scan rule `{code}`"))
}

/// Every scan code, in table order.
pub fn all_codes() -> Vec<&'static str> {
    RULES.iter().map(|r| r.code).collect()
}
