//! The linear model: one quantised weight per hashed feature bucket, a scale and a threshold.
//!
//! A sentence's score is the scale times the sum of the weights of its distinct features; a
//! message promises when its best sentence scores at or above the threshold. The committed file
//! (`model/guard.bin`, written by `train-guard`) is embedded in the binary, so loading is a copy.
//!
//! File layout, little-endian: `b"SKGUARD1"`, feature-set bits (`u8`), table bits (`u8`), two
//! zero bytes, scale (`f32`), threshold for English, for Portuguese and for a message of unknown
//! language (`f32` each), then `2^bits` weights (`i16`).

use crate::detect::Language;
use crate::features::FeatureSet;

const MAGIC: &[u8; 8] = b"SKGUARD1";
const HEADER: usize = 8 + 4 + 4 + 3 * 4;

/// A trained detector model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub set: FeatureSet,
    /// The table has `2^bits` buckets.
    pub bits: u8,
    pub scale: f32,
    /// The thresholds for English, Portuguese and unknown-language messages.
    pub thresholds: [f32; 3],
    weights: Vec<i16>,
}

impl Model {
    /// Quantises float weights (one per bucket) to 16 bits.
    pub fn quantise(set: FeatureSet, bits: u8, weights: &[f32], thresholds: [f32; 3]) -> Model {
        assert_eq!(weights.len(), 1 << bits);
        let max = weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = if max > 0.0 { max / 32767.0 } else { 1.0 };
        let weights = weights.iter().map(|w| (w / scale).round().clamp(-32767.0, 32767.0) as i16).collect();
        Model { set, bits, scale, thresholds, weights }
    }

    /// The threshold for a message in `language`.
    pub fn threshold(&self, language: Language) -> f32 {
        match language {
            Language::En => self.thresholds[0],
            Language::PtBr => self.thresholds[1],
            Language::Unknown => self.thresholds[2],
        }
    }

    /// The bucket of a feature hash.
    pub fn bucket(&self, hash: u64) -> u32 {
        bucket(hash, self.bits)
    }

    /// The score of a sentence given its distinct buckets.
    pub fn score(&self, buckets: &[u32]) -> f32 {
        let sum: i64 =
            buckets.iter().map(|&b| i64::from(self.weights[(b & !crate::analysis::LEXICAL) as usize])).sum();
        sum as f32 * self.scale
    }

    /// How many buckets have a non-zero weight.
    pub fn nonzero(&self) -> usize {
        self.weights.iter().filter(|w| **w != 0).count()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[self.set.bits(), self.bits, 0, 0]);
        out.extend_from_slice(&self.scale.to_le_bytes());
        for t in &self.thresholds {
            out.extend_from_slice(&t.to_le_bytes());
        }
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Model, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a guard model (bad magic)".into());
        }
        let set = FeatureSet::from_bits(bytes[8]);
        let bits = bytes[9];
        if !(8..=24).contains(&bits) {
            return Err(format!("table bits {bits} out of range"));
        }
        let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let scale = f32_at(12);
        let thresholds = [f32_at(16), f32_at(20), f32_at(24)];
        let body = &bytes[HEADER..];
        if body.len() != 2 << bits {
            return Err(format!("{} weight bytes for 2^{bits} buckets", body.len()));
        }
        let weights = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        Ok(Model { set, bits, scale, thresholds, weights })
    }
}

/// The bucket of a feature hash in a table of `2^bits`.
pub fn bucket(hash: u64, bits: u8) -> u32 {
    (hash & ((1u64 << bits) - 1)) as u32
}
