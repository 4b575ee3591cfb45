//! Token counts, so a reviewer sees what each disclosure level costs the agent's context and not
//! only its characters. Counted with OpenAI's `o200k_base` encoding (GPT-4o and later, the
//! models Codex runs) through `tiktoken-rs`; other models' tokenizers differ by some percent, so
//! the figure is named with its encoding wherever it is shown.

/// The encoding every count uses, as it is shown beside the figure.
pub const ENCODING: &str = "o200k_base";

/// Tokens of `text` under [`ENCODING`] (special-token text counted as ordinary text: a skill
/// cannot smuggle control tokens into the count).
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_text_costs_no_tokens() {
        assert_eq!(count(""), 0);
    }

    #[test]
    fn a_common_english_sentence_costs_about_a_token_per_word() {
        assert_eq!(count("Refund a duplicated charge."), 5);
    }

    #[test]
    fn special_token_text_is_counted_as_plain_text() {
        assert!(count("<|endoftext|>") > 1);
    }
}
