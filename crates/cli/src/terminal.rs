//! Text for a terminal: what the CLI prints in `--format text` carries words from outside — a
//! case's title and the customer's messages, a lock's paths, a skill's findings — and a terminal
//! obeys control sequences hidden in them (OSC 52 writes the clipboard, OSC 8 hides a link behind
//! other text, `ESC [ 2 J` clears the screen, a carriage return overwrites a line). [`escape`] is
//! the one function that makes them visible instead, and every text printer writes through it:
//! through [`stdout`] / [`stderr`], or by calling it on each field where a printer adds styling of
//! its own. JSON output is left alone (serde_json already escapes control characters in strings).
//! The byte-exact skill content of `read`, `read-file` and `prompt` is not text output of the CLI
//! but what the agent is served, and is written as it is.

use std::borrow::Cow;
use std::io::{self, Write};

/// `text` with every control character but the line break and the tab written as a visible
/// escape (`\x1b`, `\x0d`, `\x7f`, `\u{9b}`), so nothing in it reaches the terminal as a command.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&shown(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A control character a terminal could act on: C0 (but `\n` and `\t`), DEL and C1.
fn is_hidden(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

fn shown(c: char) -> String {
    let code = u32::from(c);
    if code < 0x80 {
        format!("\\x{code:02x}")
    } else {
        format!("\\u{{{code:x}}}")
    }
}

/// A writer that passes everything through [`escape`]. Text arrives as whole `str` pieces
/// (`write!` writes each formatted piece at once); a character split across two writes is held
/// until the rest arrives, and bytes that are not UTF-8 are written as `\x..` escapes.
pub struct Escaping<W: Write> {
    inner: W,
    /// The start of a character whose remaining bytes have not been written yet.
    pending: Vec<u8>,
}

impl<W: Write> Escaping<W> {
    pub fn new(inner: W) -> Self {
        Escaping { inner, pending: Vec::new() }
    }
}

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    self.inner.write_all(escape(text).as_bytes())?;
                    rest = &[];
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    self.inner.write_all(escape(std::str::from_utf8(good).expect("valid")).as_bytes())?;
                    match e.error_len() {
                        None => {
                            self.pending = bad.to_vec();
                            rest = &[];
                        }
                        Some(len) => {
                            for b in &bad[..len] {
                                write!(self.inner, "\\x{b:02x}")?;
                            }
                            rest = &bad[len..];
                        }
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        for b in std::mem::take(&mut self.pending) {
            write!(self.inner, "\\x{b:02x}")?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Escaping<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Standard output for a subcommand's result: escaped when it prints `text`, as it is for JSON.
pub fn output(text: bool) -> Output {
    if text {
        Output::Text(stdout())
    } else {
        Output::Raw(io::stdout().lock())
    }
}

/// Standard output, escaped or not (see [`output`]).
pub enum Output {
    Text(Escaping<io::StdoutLock<'static>>),
    Raw(io::StdoutLock<'static>),
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Text(out) => out.write(buf),
            Output::Raw(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Text(out) => out.flush(),
            Output::Raw(out) => out.flush(),
        }
    }
}

/// Standard output for text, escaped.
pub fn stdout() -> Escaping<io::StdoutLock<'static>> {
    Escaping::new(io::stdout().lock())
}

/// Standard error for text, escaped.
pub fn stderr() -> Escaping<io::StderrLock<'static>> {
    Escaping::new(io::stderr().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_commands_in_text_are_made_visible_and_lines_and_tabs_kept() {
        let osc52 = "Refund\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07 please";
        assert_eq!(escape(osc52), "Refund\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07 please");
        assert_eq!(escape("a\r\x1b[2Jb\u{9b}31m\x7f"), "a\\x0d\\x1b[2Jb\\u{9b}31m\\x7f");
        assert_eq!(escape("line one\n\tline two — café"), "line one\n\tline two — café");
    }

    #[test]
    fn a_character_split_between_two_writes_is_written_whole() {
        let mut out = Escaping::new(Vec::new());
        let text = "é\x1b".as_bytes();
        out.write_all(&text[..1]).unwrap();
        out.write_all(&text[1..]).unwrap();
        out.write_all(b"\xff").unwrap();
        out.flush().unwrap();
        assert_eq!(String::from_utf8(std::mem::take(&mut out.inner)).unwrap(), "é\\x1b\\xff");
    }
}
