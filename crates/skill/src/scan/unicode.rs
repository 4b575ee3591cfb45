//! Characters a reader cannot see but a model and a shell read: bidirectional controls that
//! reorder what is shown (Trojan Source), tag characters and supplementary variation selectors
//! that carry hidden ASCII, and zero-width or invisible marks. A run of them is one finding.
//! Zero-width joiners inside emoji sequences and joiners in scripts that need them (Arabic,
//! Persian, the Indic scripts) are ordinary text and are not reported.

use super::text::Text;
use super::ScanFinding;

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

fn describe(code: &str, run: &[char]) -> String {
    let names: Vec<String> = run.iter().take(4).map(|c| format!("U+{:04X}", *c as u32)).collect();
    let more = if run.len() > 4 { format!(" and {} more", run.len() - 4) } else { String::new() };
    let what = match code {
        "unicode_bidi_control" => "bidirectional control",
        "unicode_tag_characters" => {
            let hidden: String = run
                .iter()
                .filter_map(|c| {
                    char::from_u32(*c as u32 - 0xE0000).filter(|h| h.is_ascii_graphic() || *h == ' ')
                })
                .collect();
            return format!(
                "{} invisible tag characters spelling \"{}\"",
                run.len(),
                super::text::quote(&hidden)
            );
        }
        _ => "invisible character",
    };
    format!("{what} {}{more}", names.join(" "))
}

/// Reports every run of hidden characters in `text`.
pub(super) fn check(text: &Text<'_>, out: &mut Vec<ScanFinding>) {
    let chars: Vec<(usize, char)> = text.text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (offset, c) = chars[i];
        let prev = i.checked_sub(1).map(|j| chars[j].1);
        let next = chars.get(i + 1).map(|x| x.1);
        // A byte-order mark that opens the file is an encoding marker, not hidden text.
        let code = if offset == 0 && c == '\u{FEFF}' { None } else { code_of(c, prev, next) };
        let Some(code) = code else {
            i += 1;
            continue;
        };
        let mut run = vec![c];
        let mut j = i + 1;
        while j < chars.len()
            && code_of(chars[j].1, Some(chars[j - 1].1), chars.get(j + 1).map(|x| x.1)) == Some(code)
        {
            run.push(chars[j].1);
            j += 1;
        }
        out.push(text.finding(code, offset, describe(code, &run)));
        i = j;
    }
}
