//! Characters a reader cannot see but a model and a shell read: bidirectional controls that
//! reorder what is shown (Trojan Source), tag characters and supplementary variation selectors
//! that carry hidden ASCII, and zero-width or invisible marks. A run of them is one finding.
//! Zero-width joiners inside emoji sequences and joiners in scripts that need them (Arabic,
//! Persian, the Indic scripts) are ordinary text and are not reported.

use std::collections::HashMap;

use super::text::{Hit, Text, MAX_PER_CODE};

fn code_of(c: char, prev: Option<char>, next: Option<char>) -> Option<&'static str> {
    match c {
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => Some("unicode_bidi_control"),
        '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}' => Some("unicode_tag_characters"),
        '\u{200C}' | '\u{200D}' if joins_legitimately(prev, next) => None,
        '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{061C}' | '\u{180E}' | '\u{FEFF}' => {
            Some("unicode_invisible")
        }
        _ => None,
    }
}

/// A joiner between emoji, or next to a letter of a script that uses joiners in ordinary words.
fn joins_legitimately(prev: Option<char>, next: Option<char>) -> bool {
    let emoji = |c: Option<char>| {
        c.is_some_and(|c| matches!(c, '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{FE0F}'))
    };
    let joining_script =
        |c: Option<char>| c.is_some_and(|c| matches!(c, '\u{0600}'..='\u{06FF}' | '\u{0900}'..='\u{0DFF}'));
    (emoji(prev) && emoji(next)) || joining_script(prev) || joining_script(next)
}

/// A run of hidden characters of one code: where it starts, how long it is, and its first
/// characters (enough for the message).
struct Run {
    code: &'static str,
    offset: usize,
    len: usize,
    shown: Vec<char>,
}

/// How many characters of a run a message can show (tag characters spell up to a quote's length).
const SHOWN: usize = 64;

impl Run {
    fn push(&mut self, c: char) {
        self.len += 1;
        if self.shown.len() < SHOWN {
            self.shown.push(c);
        }
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self.shown.iter().take(4).map(|c| format!("U+{:04X}", *c as u32)).collect();
        let more = if self.len > 4 { format!(" and {} more", self.len - 4) } else { String::new() };
        let what = match self.code {
            "unicode_bidi_control" => "bidirectional control",
            "unicode_tag_characters" => {
                let hidden: String = self
                    .shown
                    .iter()
                    .filter_map(|c| {
                        char::from_u32(*c as u32 - 0xE0000).filter(|h| h.is_ascii_graphic() || *h == ' ')
                    })
                    .collect();
                return format!(
                    "{} invisible tag characters spelling \"{}\"",
                    self.len,
                    super::text::quote(&hidden)
                );
            }
            _ => "invisible character",
        };
        format!("{what} {}{more}", names.join(" "))
    }
}

/// Reports the runs of hidden characters in `text` (the first [`MAX_PER_CODE`] of each code), in
/// one pass that keeps only the characters on either side of the current one.
pub(super) fn check(text: &Text<'_>, out: &mut Vec<Hit>) {
    let mut found: HashMap<&str, usize> = HashMap::new();
    let mut run: Option<Run> = None;
    let mut chars = text.text.char_indices().peekable();
    let mut prev = None;
    while let Some((offset, c)) = chars.next() {
        let next = chars.peek().map(|x| x.1);
        // A byte-order mark that opens the file is an encoding marker, not hidden text.
        let code = if offset == 0 && c == '\u{FEFF}' { None } else { code_of(c, prev, next) };
        prev = Some(c);
        match (&mut run, code) {
            (Some(current), Some(code)) if current.code == code => current.push(c),
            (_, code) => {
                if let Some(done) = run.take() {
                    report(text, done, &mut found, out);
                }
                run = code.map(|code| Run { code, offset, len: 1, shown: vec![c] });
            }
        }
    }
    if let Some(done) = run {
        report(text, done, &mut found, out);
    }
}

fn report(text: &Text<'_>, run: Run, found: &mut HashMap<&'static str, usize>, out: &mut Vec<Hit>) {
    let n = found.entry(run.code).or_default();
    if *n < MAX_PER_CODE {
        *n += 1;
        out.push(text.finding(run.code, run.offset, run.describe()));
    }
}
