//! Secrets written into a skill's files: provider API keys by their documented shapes, private
//! key blocks, and tokens (JWTs, bearer headers, high-entropy values assigned to a secret's name).
//! Documentation's placeholders (`AKIAIOSFODNN7EXAMPLE`, `sk-...xxxx`, `<your-key>`) are not secrets.
//! Word boundaries are ASCII (`(?-u:\b)`): every pattern is ASCII, and an ASCII boundary keeps
//! the search in the regex crate's linear-time automaton on any text (a Unicode `\b` leaves it
//! for a slower engine as soon as the text holds a non-ASCII letter).

use std::sync::LazyLock;

use regex::Regex;

use super::text::{quote, Hit, Text, MAX_PER_CODE};

/// Provider key shapes: (provider, pattern).
static PROVIDER_KEYS: LazyLock<Vec<(&str, Regex)>> = LazyLock::new(|| {
    [
        ("AWS access key ID", r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)"),
        ("GitHub token", r"(?-u:\b)gh[pousr]_[A-Za-z0-9]{36,}(?-u:\b)"),
        ("GitHub fine-grained token", r"(?-u:\b)github_pat_[A-Za-z0-9_]{50,}"),
        ("GitLab token", r"(?-u:\b)glpat-[A-Za-z0-9_-]{20,}"),
        ("Slack token", r"(?-u:\b)xox[abprs]-[A-Za-z0-9-]{10,}"),
        ("Slack webhook", r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}"),
        ("Stripe secret key", r"(?-u:\b)[sr]k_live_[0-9A-Za-z]{20,}"),
        ("Anthropic API key", r"(?-u:\b)sk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{20,}"),
        (
            "OpenAI API key",
            r"(?-u:\b)sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{30,}|(?-u:\b)sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}(?-u:\b)",
        ),
        ("Google API key", r"(?-u:\b)AIza[0-9A-Za-z_-]{35}"),
        ("Hugging Face token", r"(?-u:\b)hf_[A-Za-z]{30,}(?-u:\b)"),
        ("npm token", r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)"),
        ("PyPI token", r"(?-u:\b)pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
        ("SendGrid key", r"(?-u:\b)SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
        ("Twilio key", r"(?-u:\b)SK[0-9a-f]{32}(?-u:\b)"),
        ("DigitalOcean token", r"(?-u:\b)do[por]_v1_[a-f0-9]{64}(?-u:\b)"),
    ]
    .into_iter()
    .map(|(name, re)| (name, Regex::new(re).expect("a valid key pattern")))
    .collect()
});

static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----").unwrap()
});

static JWT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}").unwrap()
});

static BEARER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)bearer\s+([A-Za-z0-9_\-.~+/]{24,}=*)").unwrap());

/// `api_key = "…"`, `"client_secret": "…"`, `PASSWORD=…`.
static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?-u:\b)[a-z0-9_]*(?:api[_-]?key|api[_-]?token|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|private[_-]?token|password|passwd)["']?\s*[:=]\s*["']?([A-Za-z0-9_\-+/=.!@#$%^*]{12,})"#,
    )
    .unwrap()
});

/// Reports the secrets in `text` (the first [`MAX_PER_CODE`] of each pattern).
pub(super) fn check(text: &Text<'_>, out: &mut Vec<Hit>) {
    for (provider, re) in PROVIDER_KEYS.iter() {
        let keys = re.find_iter(text.text).filter(|m| !is_placeholder(m.as_str()));
        for m in keys.take(MAX_PER_CODE) {
            let message = format!("{provider} `{}`", redact(m.as_str()));
            out.push(text.finding("secret_api_key", m.start(), message));
        }
    }
    for m in PRIVATE_KEY.find_iter(text.text).take(MAX_PER_CODE) {
        let message = format!("a private key block: {}", m.as_str());
        out.push(text.finding("secret_private_key", m.start(), message));
    }
    for m in JWT.find_iter(text.text).take(MAX_PER_CODE) {
        let message = format!("a JSON Web Token `{}`", redact(m.as_str()));
        out.push(text.finding("secret_token", m.start(), message));
    }
    let bearers = BEARER
        .captures_iter(text.text)
        .map(|caps| caps.get(1).expect("group 1"))
        .filter(|value| looks_random(value.as_str()) && !JWT.is_match(value.as_str()));
    for value in bearers.take(MAX_PER_CODE) {
        let message = format!("a bearer token `{}`", redact(value.as_str()));
        out.push(text.finding("secret_token", value.start(), message));
    }
    let assigned = ASSIGNED.captures_iter(text.text).filter(|caps| {
        let value = caps.get(1).expect("group 1").as_str();
        let known = PROVIDER_KEYS.iter().any(|(_, re)| re.is_match(value)) || JWT.is_match(value);
        !known && looks_random(value)
    });
    for caps in assigned.take(MAX_PER_CODE) {
        let value = caps.get(1).expect("group 1");
        let whole = caps.get(0).expect("group 0").as_str();
        let name = whole.split(['=', ':']).next().unwrap_or(whole).trim_matches(['"', '\'', ' ']);
        let message =
            format!("`{}` is assigned the secret-looking value `{}`", quote(name), redact(value.as_str()));
        out.push(text.finding("secret_token", value.start(), message));
    }
}

/// Words documentation writes into a placeholder where a real key would go.
const PLACEHOLDER_WORDS: &[&str] = &[
    "EXAMPLE",
    "XXXX",
    "YOUR",
    "DEMO",
    "TEST",
    "SAMPLE",
    "DUMMY",
    "FAKE",
    "PLACEHOLDER",
    "CHANGEME",
    "REPLACE",
    "HERE",
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
];

/// Placeholders documentation uses in place of a key.
fn is_placeholder(value: &str) -> bool {
    let upper = value.to_ascii_uppercase();
    PLACEHOLDER_WORDS.iter().any(|w| upper.contains(w)) || has_long_run(value, 6)
}

fn has_long_run(value: &str, n: usize) -> bool {
    let bytes = value.as_bytes();
    bytes.windows(n).any(|w| w.iter().all(|b| *b == w[0]))
}

/// A value that looks generated rather than written: long, mixing letters and digits, with
/// enough Shannon entropy, and not a placeholder or a variable reference.
fn looks_random(value: &str) -> bool {
    let value = value.trim_end_matches('=');
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let has_letter = value.bytes().any(|b| b.is_ascii_alphabetic());
    let reference = value.starts_with('$') || value.contains("${") || value.starts_with('<');
    value.len() >= 16
        && has_digit
        && has_letter
        && !reference
        && !is_placeholder(value)
        && entropy(value) >= 3.5
}

/// Shannon entropy in bits per character.
fn entropy(value: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in value.bytes() {
        counts[b as usize] += 1;
    }
    let n = value.len() as f64;
    counts.iter().filter(|c| **c > 0).map(|&c| -(c as f64 / n) * (c as f64 / n).log2()).sum()
}

/// The first characters of a secret and its length, never the whole of it.
fn redact(secret: &str) -> String {
    let shown: String = secret.chars().take(8).collect();
    format!("{shown}… ({} characters)", secret.chars().count())
}
