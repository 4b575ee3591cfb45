//! One message taken apart: normalised, tokenised, split into sentences, and each sentence
//! turned into the distinct feature buckets the model scores.

use crate::detect::Language;
use crate::features::{extract, Context, FeatureSet};
use crate::model::bucket;
use crate::normalize::{normalize, Normalized};
use crate::text::{guess_language, sentences, tag, tokenize, Kind, Token};

/// Runs `f` over the analysis of `message`: its normalised text, the language guessed (`None`
/// on a tie), its tokens and the token ranges of its sentences.
pub(crate) fn with_analysis<R>(
    message: &str,
    f: impl FnOnce(&Normalized, Option<Language>, &[Token<'_>], &[(usize, usize)]) -> R,
) -> R {
    let norm = normalize(message);
    let guessed = guess_language(&norm.text);
    let tokens = tokenize(&norm, message, guessed.unwrap_or(Language::En));
    let sentences = sentences(&tokens);
    f(&norm, guessed, &tokens, &sentences)
}

/// The distinct buckets of every sentence, in sentence order.
/// The top bit of a training bucket: the feature is lexical (dropout applies to it).
pub const LEXICAL: u32 = 1 << 31;

pub(crate) fn sentence_buckets(
    tokens: &[Token<'_>],
    sentences: &[(usize, usize)],
    set: FeatureSet,
    bits: u8,
    flag_lexical: bool,
) -> Vec<Vec<u32>> {
    let mut out = Vec::with_capacity(sentences.len());
    let mut previous: Option<&[Token<'_>]> = None;
    for (k, &(from, to)) in sentences.iter().enumerate() {
        let sentence = &tokens[from..to];
        let context = Context {
            previous_question: previous.is_some_and(ends_with_question),
            previous_offer: previous.is_some_and(|p| p.iter().any(|t| t.tags & tag::OFFER != 0)),
            first: k == 0,
        };
        let mut buckets = Vec::with_capacity(sentence.len() * 24);
        extract(sentence, context, set, &mut |h, lexical| {
            buckets.push(bucket(h, bits) | if lexical && flag_lexical { LEXICAL } else { 0 })
        });
        buckets.sort_unstable_by_key(|b| b & !LEXICAL);
        buckets.dedup_by_key(|b| *b & !LEXICAL);
        out.push(buckets);
        previous = Some(sentence);
    }
    out
}

pub(crate) fn ends_with_question(tokens: &[Token<'_>]) -> bool {
    tokens.iter().rev().find(|t| t.kind != Kind::Symbol).is_some_and(|t| t.form == "?")
}

/// A message ready for training: the buckets of its sentences (lexical ones flagged with
/// [`LEXICAL`]) and each sentence's byte range
/// in the original text.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub sentences: Vec<Vec<u32>>,
    pub ranges: Vec<(usize, usize)>,
}

/// Prepares `message` for training or measuring.
pub fn prepare(message: &str, set: FeatureSet, bits: u8) -> Prepared {
    with_analysis(message, |norm, _, tokens, sentences| {
        let ranges = sentences
            .iter()
            .map(|&(from, to)| {
                (norm.origin_start(tokens[from].start), norm.origin_end(tokens[to - 1].end - 1))
            })
            .collect();
        Prepared { sentences: sentence_buckets(tokens, sentences, set, bits, true), ranges }
    })
}
