//! Download-and-run: code fetched from the network and run in the same step, so what runs is
//! whatever the server sends that day and no reviewer ever read it. Looked for in every text file,
//! scripts and instructions alike (an instruction telling the agent to run such a line is as
//! dangerous as a script that does). Lines continued with a trailing `\` are read as one.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{quote, Text};
use super::ScanFinding;

/// A shell or interpreter reading a script from standard input.
const RUNNER: &str = r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:/usr)?(?:/bin/|/local/bin/)?(?:(?:ba|z|k|da|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node|php|bun|deno)\b";

static PIPE_SHELL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"\b(?:curl|wget|fetch|aria2c)\s[^\n|;]*\|\s*{RUNNER}")).unwrap());

static BASE64_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"(?i)(?:\bbase64\s+(?:-\w*d\w*|--decode)\b[^\n|;]*\|\s*{RUNNER}|\b(?:exec|eval)\s*\(\s*(?:base64\.)?(?:b64decode|decodebytes|atob)\s*\(|\b(?:exec|eval)\s*\(\s*Buffer\.from\([^)]*['"]base64['"]|\bpowershell(?:\.exe)?\b[^\n]*\s-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{{20,}})"#
    ))
    .unwrap()
});

static EVAL_FETCHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:\b(?:eval|exec)\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:ba|z|k)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|(?:\bsource|\.|\b(?:ba|z|k)?sh|\bpython[0-9.]*)\s+<\(\s*(?:curl|wget)\b|\b(?:exec|eval)\s*\([^\n]*(?:requests\.get|urlopen|urllib\.request|httpx\.get|fetch\s*\(|axios))"#,
    )
    .unwrap()
});

static POWERSHELL_IEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:iex|invoke-expression)\b").unwrap());
static POWERSHELL_DOWNLOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloaddata|net\.webclient|start-bitstransfer|curl|wget)\b").unwrap()
});

/// Reports every download-and-run line in `text`.
pub(super) fn check(text: &Text<'_>, out: &mut Vec<ScanFinding>) {
    for (start, first, line) in logical_lines(text.text) {
        // A match on a continuation is reported at the end of the first physical line.
        let at = |offset: usize| start + offset.min(first);
        let rules: [(&str, &Regex, &str); 3] = [
            ("remote_exec_pipe_shell", &PIPE_SHELL, "a download is piped into a shell"),
            ("remote_exec_base64_shell", &BASE64_SHELL, "base64-decoded data is run as code"),
            ("remote_exec_eval_fetched", &EVAL_FETCHED, "fetched content is evaluated as code"),
        ];
        for (code, re, what) in rules {
            if let Some(m) = re.find(&line) {
                out.push(text.finding(code, at(m.start()), format!("{what}: `{}`", quote(m.as_str()))));
            }
        }
        if let (Some(iex), true) = (POWERSHELL_IEX.find(&line), POWERSHELL_DOWNLOAD.is_match(&line)) {
            out.push(text.finding(
                "remote_exec_powershell",
                at(iex.start()),
                format!("PowerShell runs a download: `{}`", quote(line.trim())),
            ));
        }
    }
}

/// Lines with `\`-continuations joined by a space, each with the byte offset it starts at and
/// the length of its first physical line (whose bytes the joined text keeps unchanged).
fn logical_lines(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, usize, String)> = None;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let (continued, body) = match line.strip_suffix('\\') {
            Some(body) => (true, body),
            None => (false, line),
        };
        match current.as_mut() {
            Some((_, _, joined)) => {
                joined.push(' ');
                joined.push_str(body.trim_start());
            }
            None => current = Some((offset, body.len(), body.to_string())),
        }
        if !continued {
            out.extend(current.take());
        }
        offset += raw.len();
    }
    out.extend(current);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continued_lines_are_read_as_one() {
        let lines = logical_lines("a \\\n  b\nc\n");
        assert_eq!(lines, vec![(0, 2, "a  b".to_string()), (8, 1, "c".to_string())]);
    }
}
