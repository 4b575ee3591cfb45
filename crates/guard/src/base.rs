//! The labelled messages the shipped model is trained and measured on, embedded in the binary,
//! so an installed app can retrain the model with a team's marks ([`crate::retrain`]) without the
//! repository at hand. About 1.5 MB of text; read only when someone retrains.

use crate::corpus::{parse_labelled, parse_phrases, Example};
use crate::detect::Language;

macro_rules! data {
    ($path:literal) => {
        ($path, include_str!(concat!("../../../tests/data/guard/", $path)))
    };
}

macro_rules! phrase {
    ($path:literal, $language:ident) => {{
        let (name, text) = data!($path);
        (name, text, Language::$language)
    }};
}

/// Labelled files, in the order [`crate::train::training_examples`] reads them.
const LABELLED: [(&str, &str); 6] = [
    data!("corpus/en.tsv"),
    data!("corpus/pt-BR.tsv"),
    data!("blind1/en.tsv"),
    data!("blind1/pt-BR.tsv"),
    data!("blind2/en.tsv"),
    data!("blind2/pt-BR.tsv"),
];

/// The older phrase files, in the order [`crate::corpus::phrases`] reads them.
const PHRASES: [(&str, &str, Language); 8] = [
    phrase!("en-dev.tsv", En),
    phrase!("en-holdout.tsv", En),
    phrase!("en-stress.tsv", En),
    phrase!("en-fresh.tsv", En),
    phrase!("pt-BR-dev.tsv", PtBr),
    phrase!("pt-BR-holdout.tsv", PtBr),
    phrase!("pt-BR-stress.tsv", PtBr),
    phrase!("pt-BR-fresh.tsv", PtBr),
];

/// The current blind split (`blind3/`), never trained on: what a retrained model must not do
/// worse on.
const BLIND: [(&str, &str); 2] = [data!("blind3/en.tsv"), data!("blind3/pt-BR.tsv")];

/// The shipped model's training set: the corpus, the older phrase files and the blind splits
/// already measured, in the order and with the content of
/// [`crate::train::training_examples`].
pub fn training_examples() -> Vec<Example> {
    let mut rows: Vec<Example> =
        LABELLED[..2].iter().flat_map(|(name, text)| parse_labelled(text, name)).collect();
    rows.extend(PHRASES.iter().flat_map(|(name, text, language)| parse_phrases(text, name, *language)));
    rows.extend(LABELLED[2..].iter().flat_map(|(name, text)| parse_labelled(text, name)));
    rows
}

/// The current blind split, English then Portuguese.
pub fn blind_examples() -> Vec<Example> {
    BLIND.iter().flat_map(|(name, text)| parse_labelled(text, name)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_training_set_is_the_repository_s() {
        assert_eq!(training_examples(), crate::train::training_examples());
    }

    #[test]
    fn the_embedded_blind_split_is_the_repository_s() {
        assert_eq!(Some(blind_examples()), crate::eval::blind_examples());
    }
}
