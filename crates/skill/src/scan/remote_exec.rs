//! Download-and-run: code fetched from the network and run in the same step, so what runs is
//! whatever the server sends that day and no reviewer ever read it. Looked for in every text file,
//! scripts and instructions alike (an instruction telling the agent to run such a line is as
//! dangerous as a script that does). Lines continued with a trailing `\` are read as one. Word
//! boundaries are ASCII (`(?-u:\b)`), as in `secrets`: the patterns are ASCII and the search stays
//! in the linear-time automaton whatever the text.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::text::{quote, Hit, Text, MAX_PER_CODE};

/// A shell or interpreter reading a script from standard input.
const RUNNER: &str = r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:/usr)?(?:/bin/|/local/bin/)?(?:(?:ba|z|k|da|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node|php|bun|deno)(?-u:\b)";

static PIPE_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?-u:\b)(?:curl|wget|fetch|aria2c)\s[^\n|;]*\|\s*{RUNNER}")).unwrap()
});

static BASE64_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"(?i)(?:(?-u:\b)base64\s+(?:-\w*d\w*|--decode)(?-u:\b)[^\n|;]*\|\s*{RUNNER}|(?-u:\b)(?:exec|eval)\s*\(\s*(?:base64\.)?(?:b64decode|decodebytes|atob)\s*\(|(?-u:\b)(?:exec|eval)\s*\(\s*Buffer\.from\([^)]*['"]base64['"]|(?-u:\b)powershell(?:\.exe)?(?-u:\b)[^\n]*\s-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{{20,}})"#
    ))
    .unwrap()
});

static EVAL_FETCHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:(?-u:\b)(?:eval|exec)\s+["']?\$\(\s*(?:curl|wget)(?-u:\b)|(?-u:\b)(?:ba|z|k)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)(?-u:\b)|(?:(?-u:\b)source|\.|(?-u:\b)(?:ba|z|k)?sh|(?-u:\b)python[0-9.]*)\s+<\(\s*(?:curl|wget)(?-u:\b)|(?-u:\b)(?:exec|eval)\s*\([^\n]*(?:requests\.get|urlopen|urllib\.request|httpx\.get|fetch\s*\(|axios))"#,
    )
    .unwrap()
});

static POWERSHELL_IEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)(?:iex|invoke-expression)(?-u:\b)").unwrap());
static POWERSHELL_DOWNLOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloaddata|net\.webclient|start-bitstransfer|curl|wget)(?-u:\b)").unwrap()
});

/// Reports the download-and-run lines in `text` (the first [`MAX_PER_CODE`] of each kind).
pub(super) fn check(text: &Text<'_>, out: &mut Vec<Hit>) {
    let rules: [(&str, &Regex, &str); 3] = [
        ("remote_exec_pipe_shell", &PIPE_SHELL, "a download is piped into a shell"),
        ("remote_exec_base64_shell", &BASE64_SHELL, "base64-decoded data is run as code"),
        ("remote_exec_eval_fetched", &EVAL_FETCHED, "fetched content is evaluated as code"),
    ];
    let mut found = [0usize; 4];
    for (start, first, line) in logical_lines(text.text) {
        if found.iter().all(|n| *n >= MAX_PER_CODE) {
            break;
        }
        // A match on a continuation is reported at the end of the first physical line.
        let at = |offset: usize| start + offset.min(first);
        for (i, (code, re, what)) in rules.iter().enumerate() {
            if found[i] >= MAX_PER_CODE {
                continue;
            }
            if let Some(m) = re.find(&line) {
                found[i] += 1;
                out.push(text.finding(code, at(m.start()), format!("{what}: `{}`", quote(m.as_str()))));
            }
        }
        if found[3] >= MAX_PER_CODE {
            continue;
        }
        if let (Some(iex), true) = (POWERSHELL_IEX.find(&line), POWERSHELL_DOWNLOAD.is_match(&line)) {
            found[3] += 1;
            out.push(text.finding(
                "remote_exec_powershell",
                at(iex.start()),
                format!("PowerShell runs a download: `{}`", quote(line.trim())),
            ));
        }
    }
}

/// Lines with `\`-continuations joined by a space, each with the byte offset it starts at and
/// the length of its first physical line (whose bytes the joined text keeps unchanged). A line
/// that is not continued is borrowed, not copied.
fn logical_lines(text: &str) -> impl Iterator<Item = (usize, usize, Cow<'_, str>)> {
    let mut raw_lines = text.split_inclusive('\n');
    let mut offset = 0;
    std::iter::from_fn(move || {
        let start = offset;
        let raw = raw_lines.next()?;
        offset += raw.len();
        let (mut continued, body) = continuation(raw);
        let first = body.len();
        let mut joined = Cow::Borrowed(body);
        while continued {
            let Some(raw) = raw_lines.next() else { break };
            offset += raw.len();
            let (more, body) = continuation(raw);
            let line = joined.to_mut();
            line.push(' ');
            line.push_str(body.trim_start());
            continued = more;
        }
        Some((start, first, joined))
    })
}

/// A physical line without its line break, and whether it ends in a `\` continuing it.
fn continuation(raw: &str) -> (bool, &str) {
    let line = raw.trim_end_matches(['\n', '\r']);
    match line.strip_suffix('\\') {
        Some(body) => (true, body),
        None => (false, line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continued_lines_are_read_as_one() {
        let lines: Vec<(usize, usize, Cow<'_, str>)> = logical_lines("a \\\n  b\nc\n").collect();
        assert_eq!(lines, vec![(0, 2, Cow::from("a  b")), (8, 1, Cow::from("c"))]);
    }
}
