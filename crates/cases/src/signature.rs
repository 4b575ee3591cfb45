//! Standard Webhooks signatures, so the agent can tell a reply really came from Skillcase.
//!
//! The signed content is `"{webhook-id}.{webhook-timestamp}.{body}"`, the MAC is HMAC-SHA256 and
//! the header is `v1,<base64 of the MAC>`. As in the Standard Webhooks libraries, a secret
//! written `whsec_<base64>` means the key is the decoded bytes after the prefix; any other
//! secret is used as its UTF-8 bytes, so a person can paste whatever their agent expects.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use hmac::Mac;
use sha2::Sha256;

use super::error::CasesError;

type HmacSha256 = hmac::Hmac<Sha256>;

/// The prefix that marks a base64-encoded Standard Webhooks secret.
pub const SECRET_PREFIX: &str = "whsec_";
/// The fewest key bytes accepted (Standard Webhooks recommends 24 to 64).
pub const MIN_KEY_BYTES: usize = 16;

/// The HMAC key a secret stands for; refuses secrets too short to be safe and `whsec_`
/// secrets that are not valid base64.
pub fn signing_key(secret: &str) -> Result<Vec<u8>, CasesError> {
    let key = match secret.strip_prefix(SECRET_PREFIX) {
        Some(encoded) => BASE64.decode(encoded).map_err(|e| CasesError::InvalidEndpointSetting {
            field: "secret",
            reason: format!("the part after {SECRET_PREFIX} is not valid base64 ({e})"),
        })?,
        None => secret.as_bytes().to_vec(),
    };
    if key.len() < MIN_KEY_BYTES {
        return Err(CasesError::InvalidEndpointSetting {
            field: "secret",
            reason: format!("is {} bytes long; at least {MIN_KEY_BYTES} are needed", key.len()),
        });
    }
    Ok(key)
}

/// A new random secret in Standard Webhooks form: `whsec_` and 32 random bytes in base64.
pub fn generate_secret() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system supplies random bytes");
    format!("{SECRET_PREFIX}{}", BASE64.encode(bytes))
}

/// The `webhook-signature` header value for one message.
pub fn sign(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    let mac = mac(key, id, timestamp, body).finalize().into_bytes();
    format!("v1,{}", BASE64.encode(mac))
}

/// True when any `v1` signature in a (space-separated) `webhook-signature` header matches,
/// compared in constant time. Receivers should also reject stale timestamps.
pub fn verify(key: &[u8], id: &str, timestamp: i64, body: &[u8], header: &str) -> bool {
    header.split_whitespace().filter_map(|sig| sig.strip_prefix("v1,")).any(|encoded| {
        BASE64
            .decode(encoded)
            .is_ok_and(|expected| mac(key, id, timestamp, body).verify_slice(&expected).is_ok())
    })
}

fn mac(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks specification and its reference libraries.
    #[test]
    fn matches_the_standard_webhooks_reference_example() {
        let key = signing_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let body = br#"{"test": 2432232314}"#;
        let header = sign(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
        assert_eq!(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assert!(verify(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body, &header));
    }

    #[test]
    fn a_changed_body_id_or_timestamp_does_not_verify() {
        let key = signing_key("a plain secret of enough bytes").unwrap();
        let header = sign(&key, "id-1", 100, b"{}");
        assert!(!verify(&key, "id-1", 100, b"{ }", &header));
        assert!(!verify(&key, "id-2", 100, b"{}", &header));
        assert!(!verify(&key, "id-1", 101, b"{}", &header));
        assert!(verify(&key, "id-1", 100, b"{}", &format!("v1,bm90LWl0 {header}")));
    }

    #[test]
    fn short_or_undecodable_secrets_are_refused() {
        let short = signing_key("too-short").unwrap_err();
        assert_eq!(skillcase_common::error::Coded::code(&short), "invalid_endpoint_setting");
        assert!(short.to_string().contains("9 bytes long"), "{short}");
        let bad = signing_key("whsec_not base64!").unwrap_err();
        assert!(bad.to_string().contains("not valid base64"), "{bad}");
    }

    #[test]
    fn generated_secrets_decode_to_32_bytes_and_differ() {
        let (a, b) = (generate_secret(), generate_secret());
        assert_ne!(a, b);
        assert_eq!(signing_key(&a).unwrap().len(), 32);
    }
}
