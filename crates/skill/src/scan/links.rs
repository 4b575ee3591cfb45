//! Links that hide where they lead: to a raw IP address, through a URL shortener, to a punycode
//! (or non-ASCII) host that can imitate another name, or Markdown whose visible text shows one
//! address while the link goes to another host.

use std::sync::LazyLock;

use regex::Regex;
use url::{Host, Url};

use super::text::{quote, Text};
use super::ScanFinding;

static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)\b(?:https?|ftp)://[^\s<>()\[\]{}"'`|\\^]+"#).unwrap());

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

/// Reports every suspicious link in `text`.
pub(super) fn check(text: &Text<'_>, out: &mut Vec<ScanFinding>) {
    for m in URL.find_iter(text.text) {
        let raw = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_']);
        let Ok(url) = Url::parse(raw) else { continue };
        host_findings(text, m.start(), raw, &url, out);
    }
    for caps in MARKDOWN_LINK.captures_iter(text.text) {
        let label = caps.get(1).expect("group 1").as_str().trim().trim_matches(['`', '*', '_']);
        let target = caps.get(2).expect("group 2").as_str();
        let (Some(shown), Ok(url)) = (ADDRESS_TEXT.captures(label), Url::parse(target)) else { continue };
        let Some(Host::Domain(actual)) = url.host() else { continue };
        let shown = shown.get(1).expect("group 1").as_str().to_ascii_lowercase();
        if !same_site(&shown, actual) {
            let at = caps.get(0).expect("group 0").start();
            let message = format!("the link text shows `{}` but the link goes to `{actual}`", quote(label));
            out.push(text.finding("link_text_mismatch", at, message));
        }
    }
}

fn host_findings(text: &Text<'_>, at: usize, raw: &str, url: &Url, out: &mut Vec<ScanFinding>) {
    match url.host() {
        Some(Host::Ipv4(ip)) if !ip.is_loopback() && !ip.is_unspecified() => {
            out.push(text.finding(
                "link_raw_ip",
                at,
                format!("a link to the raw IP address {ip}: `{}`", quote(raw)),
            ));
        }
        Some(Host::Ipv6(ip)) if !ip.is_loopback() && !ip.is_unspecified() => {
            out.push(text.finding(
                "link_raw_ip",
                at,
                format!("a link to the raw IP address {ip}: `{}`", quote(raw)),
            ));
        }
        Some(Host::Domain(host)) => {
            let bare = host.strip_prefix("www.").unwrap_or(host);
            if SHORTENERS.contains(&bare) {
                out.push(text.finding(
                    "link_shortener",
                    at,
                    format!("a link through the shortener {bare}: `{}`", quote(raw)),
                ));
            }
            if host.split('.').any(|label| label.starts_with("xn--")) {
                let message =
                    format!("the host `{host}` is punycode (an internationalised name): `{}`", quote(raw));
                out.push(text.finding("link_punycode", at, message));
            }
        }
        _ => {}
    }
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
