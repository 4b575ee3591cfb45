//! The labelled messages of `tests/data/guard/` (repository root), for training and measuring.
//!
//! The corpus files have the columns `label lang domain register kind text actor due`
//! (`tests/data/guard/FORMAT.md`); the older small files have `label phrase`.

use std::path::{Path, PathBuf};

use crate::detect::Language;

/// One labelled message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    pub promise: bool,
    pub language: Language,
    /// Business domain slug; the small files have none (`""`).
    pub domain: String,
    pub register: String,
    pub kind: String,
    /// The message, with `\n` turned into real line breaks.
    pub text: String,
    /// Who will act, as written in `text` (empty when implied or for clear rows).
    pub actor: String,
    /// When, as written in `text` (empty when not said).
    pub due: String,
}

/// `tests/data/guard/` of this repository.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/guard")
}

/// The rows of one labelled file with a header line naming its columns: `label`, `lang` and
/// `text` are required; `domain`, `register`, `kind`, `actor` and `due` are read when present
/// (the corpus and blind files have all eight, `label lang domain register kind text actor due`).
pub fn load_labelled(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_labelled(&text, &path.display().to_string())
}

/// [`load_labelled`] on the text of a file called `name` (for messages in a panic).
pub fn parse_labelled(text: &str, name: &str) -> Vec<Example> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().trim_end().split('\t').collect();
    let column = |wanted: &str| header.iter().position(|h| *h == wanted);
    let required = |wanted: &str| column(wanted).unwrap_or_else(|| panic!("{name}: no {wanted} column"));
    let (label_at, lang_at, text_at) = (required("label"), required("lang"), required("text"));
    let optional = ["domain", "register", "kind", "actor", "due"].map(column);
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), header.len(), "{name}: {} columns in {line:?}", cols.len());
            let get = |at: Option<usize>| at.map(|i| unescape(cols[i])).unwrap_or_default();
            Example {
                promise: label(cols[label_at], name),
                language: language(cols[lang_at], name),
                domain: get(optional[0]),
                register: get(optional[1]),
                kind: get(optional[2]),
                text: unescape(cols[text_at]),
                actor: get(optional[3]),
                due: get(optional[4]),
            }
        })
        .collect()
}

/// The rows of one older `label<TAB>phrase` file.
pub fn load_phrases(path: &Path, language: Language) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_phrases(&text, &path.display().to_string(), language)
}

/// [`load_phrases`] on the text of a file called `name`.
pub fn parse_phrases(text: &str, name: &str, language: Language) -> Vec<Example> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("label\tphrase"), "{name}: header");
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (l, phrase) = line.split_once('\t').unwrap_or_else(|| panic!("{name}: no tab in {line:?}"));
            Example {
                promise: label(l, name),
                language,
                domain: String::new(),
                register: String::new(),
                kind: String::new(),
                text: unescape(phrase),
                actor: String::new(),
                due: String::new(),
            }
        })
        .collect()
}

/// The training corpus: both corpus files, English first, in file order.
pub fn corpus() -> Vec<Example> {
    let dir = data_dir().join("corpus");
    let mut rows = load_labelled(&dir.join("en.tsv"));
    rows.extend(load_labelled(&dir.join("pt-BR.tsv")));
    rows
}

/// The older small files (`*-dev`, `*-holdout`, `*-stress`, `*-fresh`), in a fixed order.
pub fn phrases() -> Vec<Example> {
    let dir = data_dir();
    let mut rows = Vec::new();
    for (prefix, language) in [("en", Language::En), ("pt-BR", Language::PtBr)] {
        for split in ["dev", "holdout", "stress", "fresh"] {
            rows.extend(load_phrases(&dir.join(format!("{prefix}-{split}.tsv")), language));
        }
    }
    rows
}

fn label(s: &str, name: &str) -> bool {
    match s {
        "promise" => true,
        "clear" => false,
        other => panic!("{name}: unknown label {other:?}"),
    }
}

fn language(s: &str, name: &str) -> Language {
    match s {
        "en" => Language::En,
        "pt-BR" => Language::PtBr,
        other => panic!("{name}: unknown language {other:?}"),
    }
}

fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
}
