//! The one text form every guard rule is written against: lowercase, accents stripped,
//! typographic quotes folded, whitespace collapsed (a run holding a line break becomes one `\n`,
//! because a line break ends a chat sentence; any other run becomes one space) — with a map back to the original text so
//! the evidence a rule reports is what the agent actually wrote.

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

/// Normalised text plus, for every byte of it, the span of the original character it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    /// Lowercase, accent-free, single-spaced, trimmed.
    pub text: String,
    /// `origin[i]` is the `(start, end)` byte span, in the original, of the character that
    /// produced byte `i` of `text`.
    origin: Vec<(usize, usize)>,
}

impl Normalized {
    /// The slice of the original text that produced `text[start..end]` (`end > start`).
    #[cfg(test)]
    pub fn original<'a>(&self, original: &'a str, start: usize, end: usize) -> &'a str {
        &original[self.origin_start(start)..self.origin_end(end - 1)]
    }

    /// Byte offset, in the original, where the character that produced byte `at` starts.
    pub fn origin_start(&self, at: usize) -> usize {
        self.origin[at].0
    }

    /// Byte offset, in the original, where the character that produced byte `at` ends.
    pub fn origin_end(&self, at: usize) -> usize {
        self.origin[at].1
    }
}

/// Normalises `raw` for matching: "Você VAI  receber" and "voce vai receber" become equal.
pub fn normalize(raw: &str) -> Normalized {
    let mut out =
        Normalized { text: String::with_capacity(raw.len()), origin: Vec::with_capacity(raw.len()) };
    let mut pending_space: Option<(char, (usize, usize))> = None;
    for (at, ch) in raw.char_indices() {
        let span = (at, at + ch.len_utf8());
        if ch.is_whitespace() {
            let kind = if ch == '\n' { '\n' } else { ' ' };
            match &mut pending_space {
                Some((seen, seen_span)) if kind == '\n' && *seen == ' ' => (*seen, *seen_span) = ('\n', span),
                Some(_) => {}
                None => pending_space = Some((kind, span)),
            }
            continue;
        }
        if let Some((space, space_span)) = pending_space.take() {
            if !out.text.is_empty() {
                push(&mut out, space, space_span);
            }
        }
        decompose_canonical(ch, |part| {
            if !is_combining_mark(part) {
                for lower in part.to_lowercase() {
                    push(&mut out, fold(lower), span);
                }
            }
        });
    }
    out
}

fn fold(ch: char) -> char {
    match ch {
        '\u{2018}' | '\u{2019}' | '\u{02bc}' | '`' | '\u{00b4}' => '\'',
        '\u{201c}' | '\u{201d}' => '"',
        '\u{2013}' | '\u{2014}' => '-',
        other => other,
    }
}

fn push(out: &mut Normalized, ch: char, span: (usize, usize)) {
    out.text.push(ch);
    out.origin.extend(std::iter::repeat_n(span, ch.len_utf8()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_case_and_spaces_are_folded() {
        assert_eq!(normalize("  Você VAI \t receber   uma LIGAÇÃO ").text, "voce vai receber uma ligacao");
    }

    #[test]
    fn a_whitespace_run_with_a_line_break_collapses_to_one_line_break() {
        assert_eq!(normalize("Ok  \n\n  vou ver").text, "ok\nvou ver");
    }

    #[test]
    fn typographic_apostrophes_become_ascii() {
        assert_eq!(normalize("I\u{2019}ll call").text, "i'll call");
    }

    #[test]
    fn a_normalised_span_maps_back_to_the_original_words() {
        let raw = "Olá!  Nossa Equipe vai te ligar.";
        let n = normalize(raw);
        let start = n.text.find("nossa equipe").unwrap();
        assert_eq!(n.original(raw, start, start + "nossa equipe".len()), "Nossa Equipe");
    }

    #[test]
    fn precomposed_and_decomposed_accents_normalise_alike() {
        assert_eq!(normalize("ligac\u{0327}a\u{0303}o").text, normalize("ligação").text);
    }
}
