//! Links that hide where they lead: to a raw IP address, through a URL shortener, to a punycode
//! (or non-ASCII) host that can imitate another name, or Markdown whose visible text shows one
//! address while the link goes to another host.

use std::sync::LazyLock;

use regex::Regex;
use url::{Host, Url};

use super::text::{quote, Hit, Text, MAX_PER_CODE};

static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)(?-u:\b)(?:https?|ftp)://[^\s<>()\[\]{}"'`|\\^]+"#).unwrap());

static MARKDOWN_LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\[([^\]\n]{1,200})\]\(\s*<?((?:https?|ftp)://[^\s)>]+)>?(?:\s+"[^"]*")?\s*\)"#).unwrap()
});

/// Link text that is itself an address: `https://a.com/x`, `www.a.com`, `a.com/path`.
static ADDRESS_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:(?:https?|ftp)://)?(?:www\.)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:[/?#]\S*)?$")
        .unwrap()
});

/// URL shorteners: a link through one names nothing about where it goes.
const SHORTENERS: &[&str] = &[
    "bit.ly",
    "bitly.com",
    "tinyurl.com",
    "t.co",
    "goo.gl",
    "is.gd",
    "v.gd",
    "ow.ly",
    "buff.ly",
    "rebrand.ly",
    "cutt.ly",
    "shorturl.at",
    "tiny.cc",
    "rb.gy",
    "t.ly",
    "s.id",
    "shorte.st",
    "adf.ly",
    "bl.ink",
    "lnkd.in",
    "soo.gd",
    "clck.ru",
    "qr.ae",
    "tr.im",
    "x.co",
    "u.to",
    "short.io",
];

/// Reports the suspicious links in `text` (the first [`MAX_PER_CODE`] of each kind).
pub(super) fn check(text: &Text<'_>, out: &mut Vec<Hit>) {
    let mut found = [0usize; HOST_CODES.len()];
    for m in URL.find_iter(text.text) {
        if found.iter().all(|n| *n >= MAX_PER_CODE) {
            break;
        }
        let raw = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_']);
        let Ok(url) = Url::parse(raw) else { continue };
        for (code, message) in host_findings(raw, &url) {
            let n = &mut found[HOST_CODES.iter().position(|c| *c == code).expect("a host code")];
            if *n < MAX_PER_CODE {
                *n += 1;
                out.push(text.finding(code, m.start(), message));
            }
        }
    }
    let mismatches = MARKDOWN_LINK.captures_iter(text.text).filter_map(|caps| {
        let label = caps.get(1).expect("group 1").as_str().trim().trim_matches(['`', '*', '_']);
        let target = caps.get(2).expect("group 2").as_str();
        let (Some(shown), Ok(url)) = (ADDRESS_TEXT.captures(label), Url::parse(target)) else { return None };
        let Some(Host::Domain(actual)) = url.host() else { return None };
        let shown = shown.get(1).expect("group 1").as_str().to_ascii_lowercase();
        let at = caps.get(0).expect("group 0").start();
        let message = format!("the link text shows `{}` but the link goes to `{actual}`", quote(label));
        (!same_site(&shown, actual)).then_some((at, message))
    });
    for (at, message) in mismatches.take(MAX_PER_CODE) {
        out.push(text.finding("link_text_mismatch", at, message));
    }
}

/// The codes a link's host can raise.
const HOST_CODES: [&str; 3] = ["link_raw_ip", "link_shortener", "link_punycode"];

/// What is suspicious about the host of `url` (written `raw`): codes with their messages.
fn host_findings(raw: &str, url: &Url) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    match url.host() {
        Some(Host::Ipv4(ip)) if !ip.is_loopback() && !ip.is_unspecified() => {
            out.push(("link_raw_ip", format!("a link to the raw IP address {ip}: `{}`", quote(raw))));
        }
        Some(Host::Ipv6(ip)) if !ip.is_loopback() && !ip.is_unspecified() => {
            out.push(("link_raw_ip", format!("a link to the raw IP address {ip}: `{}`", quote(raw))));
        }
        Some(Host::Domain(host)) => {
            let bare = host.strip_prefix("www.").unwrap_or(host);
            if SHORTENERS.contains(&bare) {
                out.push((
                    "link_shortener",
                    format!("a link through the shortener {bare}: `{}`", quote(raw)),
                ));
            }
            if host.split('.').any(|label| label.starts_with("xn--")) {
                let message =
                    format!("the host `{host}` is punycode (an internationalised name): `{}`", quote(raw));
                out.push(("link_punycode", message));
            }
        }
        _ => {}
    }
    out
}

/// The same site: equal once `www.` is dropped, or one a subdomain of the other.
fn same_site(shown: &str, actual: &str) -> bool {
    let shown = shown.strip_prefix("www.").unwrap_or(shown);
    let actual = actual.strip_prefix("www.").unwrap_or(actual);
    shown == actual || actual.ends_with(&format!(".{shown}")) || shown.ends_with(&format!(".{actual}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains_are_the_same_site_and_lookalikes_are_not() {
        assert!(same_site("docs.python.org", "python.org"));
        assert!(same_site("www.github.com", "github.com"));
        assert!(!same_site("github.com", "github.com.evil.io"));
        assert!(!same_site("paypal.com", "paypa1.com"));
    }
}
