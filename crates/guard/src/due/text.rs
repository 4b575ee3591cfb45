//! The token stream every time-expression rule reads: lowercase, accents stripped, split into
//! words, numbers and single punctuation marks, each remembering where it came from in the
//! original text (in characters), so a found expression can be quoted exactly as written.
//!
//! Chat spellings that mix digits and letters ("2moro", "l8r", "b4") stay one word; any other
//! mix is split at the digit/letter boundary ("5pm" → `5` `pm`, "7h30" → `7` `h` `30`), so a
//! rule sees the same tokens however the agent spaced them.

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

/// What kind of token it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Letters (possibly with digits, for the chat words kept whole).
    Word,
    /// Digits only; the value is in [`Token::number`].
    Number,
    /// One character that is neither a letter, a digit nor a space.
    Punct,
}

/// One token of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// Folded text: lowercase, without accents.
    pub text: String,
    pub kind: Kind,
    /// The value of a [`Kind::Number`] of at most six digits.
    pub number: Option<u32>,
    /// Character offset of the first original character.
    pub start: usize,
    /// Character offset just past the last original character.
    pub end: usize,
    /// True when whitespace (or the start of the text) comes right before it.
    pub spaced: bool,
}

/// Chat words that hold digits and must not be split.
const WHOLE: &[&str] = &[
    "2moro", "2morro", "2morrow", "2morow", "2mrw", "2mro", "2moz", "2day", "2dy", "2nite", "2night", "2nyt",
    "l8r", "l8er", "l8ter", "b4", "w8",
];

/// Folds one character: lowercase, accents dropped, typographic marks made plain.
fn fold(ch: char, out: &mut Vec<char>) {
    decompose_canonical(ch, |part| {
        if !is_combining_mark(part) {
            for lower in part.to_lowercase() {
                out.push(match lower {
                    '\u{2018}' | '\u{2019}' | '\u{02bc}' | '`' | '\u{00b4}' => '\'',
                    '\u{2013}' | '\u{2014}' | '\u{2010}' | '\u{2011}' => '-',
                    '\u{00ba}' | '\u{00aa}' => 'o',
                    other => other,
                });
            }
        }
    });
}

/// Splits `message` into tokens.
pub(crate) fn tokenize(message: &str) -> Vec<Token> {
    // (folded char, original char index, original end): a mark that folds to nothing (a
    // decomposed accent) widens the character before it, so quotes keep their accents.
    let mut chars: Vec<(char, usize, usize)> = Vec::with_capacity(message.len());
    let mut folded = Vec::with_capacity(2);
    for (index, ch) in message.chars().enumerate() {
        folded.clear();
        fold(ch, &mut folded);
        if folded.is_empty() {
            if let Some(last) = chars.last_mut() {
                last.2 = index + 1;
            }
        }
        chars.extend(folded.iter().map(|&c| (c, index, index + 1)));
    }

    let mut tokens = Vec::new();
    let mut i = 0;
    let mut spaced = true;
    while i < chars.len() {
        let (ch, at, until) = chars[i];
        if ch.is_whitespace() {
            spaced = true;
            i += 1;
            continue;
        }
        if ch.is_alphanumeric() {
            let mut j = i;
            while j < chars.len() && chars[j].0.is_alphanumeric() {
                j += 1;
            }
            let run: String = chars[i..j].iter().map(|c| c.0).collect();
            if WHOLE.contains(&run.as_str()) {
                tokens.push(token(run, Kind::Word, at, chars[j - 1].2, spaced));
            } else {
                // Split at every digit/letter boundary.
                let mut k = i;
                let mut first = true;
                while k < j {
                    let digit = chars[k].0.is_ascii_digit();
                    let mut m = k;
                    while m < j && chars[m].0.is_ascii_digit() == digit {
                        m += 1;
                    }
                    let piece: String = chars[k..m].iter().map(|c| c.0).collect();
                    let kind = if digit { Kind::Number } else { Kind::Word };
                    tokens.push(token(piece, kind, chars[k].1, chars[m - 1].2, spaced && first));
                    first = false;
                    k = m;
                }
            }
            i = j;
        } else {
            tokens.push(token(ch.to_string(), Kind::Punct, at, until, spaced));
            i += 1;
        }
        spaced = false;
    }
    tokens
}

fn token(text: String, kind: Kind, start: usize, end: usize, spaced: bool) -> Token {
    let number = if kind == Kind::Number && text.len() <= 6 { text.parse().ok() } else { None };
    Token { text, kind, number, start, end, spaced }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(message: &str) -> Vec<String> {
        tokenize(message).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn accents_and_case_are_folded() {
        assert_eq!(texts("Amanhã À TARDE"), ["amanha", "a", "tarde"]);
    }

    #[test]
    fn digits_and_letters_split_except_chat_words() {
        assert_eq!(texts("by 5pm 2moro, 7h30"), ["by", "5", "pm", "2moro", ",", "7", "h", "30"]);
    }

    #[test]
    fn offsets_are_characters_of_the_original() {
        let tokens = tokenize("até às 12h");
        let last = &tokens[3];
        assert_eq!((last.text.as_str(), last.start, last.end), ("h", 9, 10));
        assert!(!last.spaced);
    }

    #[test]
    fn a_decomposed_accent_stays_inside_its_word() {
        let tokens = tokenize("amanha\u{0303}");
        assert_eq!((tokens.len(), tokens[0].text.as_str(), tokens[0].end), (1, "amanha", 7));
    }
}
