//! Training: logistic regression over sentences, by averaged stochastic gradient descent, with
//! the promising sentence of each promise found by the annotation (the sentence holding the
//! annotated actor or due time) or, when that cannot tell, by the model itself (multiple-instance
//! learning: the best-scoring sentence of a promise is its positive).
//!
//! Deterministic to the bit: data in file order, a fixed-seed SplitMix64 shuffle, features hashed
//! with FNV, IEEE arithmetic only (the sigmoid's exponential is computed here, not by the
//! platform's libm), and a threshold chosen on out-of-fold scores of fixed domain groups.

use crate::analysis::{prepare, Prepared, LEXICAL};
use crate::corpus::Example;
use crate::detect::Language;
use crate::features::FeatureSet;
use crate::model::Model;

/// Everything that decides a trained model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub set: FeatureSet,
    /// The weight table has `2^bits` buckets.
    pub bits: u8,
    pub epochs: u32,
    /// Learning rate of the stochastic gradient steps.
    pub rate: f32,
    /// L2 penalty, applied to the weights a step touches.
    pub l2: f32,
    /// Rounds of re-choosing each promise's positive sentence with the model of the round before.
    pub mil_rounds: u32,
    /// Domain groups for the out-of-fold scores the threshold is chosen on.
    pub threshold_folds: usize,
    /// How much a false alarm costs against a missed promise when choosing the threshold.
    pub false_alarm_cost: f64,
    /// One threshold per language (else one for both).
    pub per_language: bool,
    /// Weight of a promise's positive sentence against one clear sentence.
    pub positive_weight: f32,
    /// Probability of dropping each word or character n-gram from an instance at each step, so
    /// the model leans on the structure too.
    pub dropout: f32,
    /// Weight of the older phrase files (the first detector's behaviour specification) against
    /// one corpus message.
    pub phrase_weight: f32,
    /// Weight of a team's mark ([`crate::retrain`]) against one corpus message: a mark is the
    /// team's own phrasing, of which the corpus has none, so it counts for several.
    pub mark_weight: f32,
    pub seed: u64,
}

impl Config {
    /// The configuration `train-guard` ships.
    pub const SHIPPED: Config = Config {
        set: FeatureSet::ALL,
        bits: 16,
        epochs: 8,
        rate: 0.05,
        l2: 1e-5,
        mil_rounds: 1,
        threshold_folds: 3,
        false_alarm_cost: 1.0,
        per_language: false,
        positive_weight: 1.0,
        dropout: 0.0,
        phrase_weight: 1.0,
        mark_weight: 4.0,
        seed: 0x0002,
    };
}

/// The training messages, prepared once for every fit.
pub struct Data {
    pub examples: Vec<Example>,
    pub prepared: Vec<Prepared>,
    /// For a promise: the sentence the annotation points to, when it points to exactly one.
    pub hints: Vec<Option<usize>>,
}

impl Data {
    pub fn new(examples: Vec<Example>, set: FeatureSet, bits: u8) -> Data {
        let prepared: Vec<Prepared> = examples.iter().map(|e| prepare(&e.text, set, bits)).collect();
        let hints = examples
            .iter()
            .zip(&prepared)
            .map(|(e, p)| if e.promise { locate(e, p) } else { None })
            .collect();
        Data { examples, prepared, hints }
    }
}

/// Pronouns that appear in every sentence and so cannot point to one.
const VAGUE_ACTORS: &[&str] = &[
    "i", "ill", "i'll", "eu", "we", "nós", "nos", "a gente", "a gnt", "gente", "eles", "elas", "ele", "ela",
    "they",
];

/// The sentence of a promise that the annotated actor and due time point to.
fn locate(example: &Example, prepared: &Prepared) -> Option<usize> {
    if prepared.sentences.len() == 1 {
        return Some(0);
    }
    let holding = |needle: &str| -> Vec<usize> {
        if needle.is_empty() {
            return Vec::new();
        }
        prepared
            .ranges
            .iter()
            .enumerate()
            .filter(|(_, &(from, to))| example.text[from..to].contains(needle))
            .map(|(i, _)| i)
            .collect()
    };
    let actor =
        if VAGUE_ACTORS.contains(&example.actor.to_lowercase().as_str()) { "" } else { &example.actor };
    let by_actor = holding(actor);
    let by_due = holding(&example.due);
    let both: Vec<usize> = by_actor.iter().copied().filter(|i| by_due.contains(i)).collect();
    match (both.as_slice(), by_actor.as_slice(), by_due.as_slice()) {
        ([one], _, _) => Some(*one),
        (_, [one], _) => Some(*one),
        (_, [], [one]) => Some(*one),
        _ => None,
    }
}

/// SplitMix64: a tiny fixed-seed generator for the epoch shuffles.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `e^x` from IEEE additions and multiplications only, so every platform agrees to the bit.
fn exp(x: f64) -> f64 {
    let x = x.clamp(-60.0, 60.0);
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = x - k * std::f64::consts::LN_2;
    // Taylor series of e^r for |r| <= ln2/2: 13 terms are below one ulp.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=13 {
        term = term * r / f64::from(n);
        sum += term;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + exp(-z))
    } else {
        let e = exp(z);
        e / (1.0 + e)
    }
}

/// One training instance: a sentence, its label and its weight.
struct Instance<'a> {
    buckets: &'a [u32],
    positive: bool,
    weight: f32,
    /// From a team's mark ([`crate::retrain`]): placed among the others without changing their
    /// order, so adding a mark changes the model by what the mark teaches, not by a new shuffle.
    mark: bool,
}

/// The order of one epoch: the other instances shuffled in place (the same draws whatever the
/// marks), the marks inserted at positions drawn from their own generator.
fn epoch_order(
    order: &mut [usize],
    marks: &[usize],
    rng: &mut SplitMix,
    mark_rng: &mut SplitMix,
) -> Vec<usize> {
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    if marks.is_empty() {
        return order.to_vec();
    }
    let mut placed: Vec<(usize, usize)> =
        marks.iter().map(|&m| (mark_rng.below(order.len() + 1), m)).collect();
    placed.sort_unstable();
    let mut out = Vec::with_capacity(order.len() + marks.len());
    let mut next = placed.iter().peekable();
    for (at, &k) in order.iter().enumerate() {
        while let Some(&&(_, m)) = next.peek().filter(|(p, _)| *p == at) {
            out.push(m);
            next.next();
        }
        out.push(k);
    }
    out.extend(next.map(|&(_, m)| m));
    out
}

/// Averaged SGD on logistic loss over `instances`; returns one weight per bucket.
fn sgd(instances: &[Instance<'_>], config: &Config) -> Vec<f32> {
    let size = 1usize << config.bits;
    let mut w = vec![0f64; size];
    let mut u = vec![0f64; size];
    let (marks, mut order): (Vec<usize>, Vec<usize>) = (0..instances.len()).partition(|&k| instances[k].mark);
    let mut rng = SplitMix(config.seed);
    let mut mark_rng = SplitMix(config.seed ^ 0x6d61_726b);
    let mut step = 1f64;
    let rate = f64::from(config.rate);
    let l2 = f64::from(config.l2);
    // Inverted dropout of lexical features: a kept one counts 1/(1-p).
    let keep_threshold = ((1.0 - f64::from(config.dropout)) * (u32::MAX as f64)) as u64;
    let boost = 1.0 / (1.0 - f64::from(config.dropout));
    let mut kept: Vec<(usize, f64)> = Vec::with_capacity(1024);
    for _ in 0..config.epochs {
        for k in epoch_order(&mut order, &marks, &mut rng, &mut mark_rng) {
            let inst = &instances[k];
            kept.clear();
            for &b in inst.buckets {
                if b & LEXICAL == 0 {
                    kept.push((b as usize, 1.0));
                } else if config.dropout == 0.0 {
                    kept.push(((b & !LEXICAL) as usize, 1.0));
                } else if (rng.next() & 0xffff_ffff) < keep_threshold {
                    kept.push(((b & !LEXICAL) as usize, boost));
                }
            }
            let z: f64 = kept.iter().map(|&(b, x)| w[b] * x).sum();
            let y = if inst.positive { 1.0 } else { 0.0 };
            let g = (sigmoid(z) - y) * f64::from(inst.weight);
            for &(b, x) in &kept {
                let d = -rate * (g * x + l2 * w[b]);
                w[b] += d;
                u[b] += step * d;
            }
            step += 1.0;
        }
    }
    w.iter().zip(&u).map(|(w, u)| (w - u / step) as f32).collect()
}

fn dot(weights: &[f32], buckets: &[u32]) -> f32 {
    buckets.iter().map(|&b| weights[(b & !LEXICAL) as usize]).sum()
}

/// Fits float weights on the messages `members` of `data`.
pub fn fit(data: &Data, members: &[usize], config: &Config) -> Vec<f32> {
    let mut chosen: Vec<Option<usize>> = members.iter().map(|&m| data.hints[m]).collect();
    let mut weights = Vec::new();
    for round in 0..=config.mil_rounds {
        if round > 0 {
            for (slot, &m) in chosen.iter_mut().zip(members) {
                if data.examples[m].promise && data.hints[m].is_none() {
                    let sentences = &data.prepared[m].sentences;
                    *slot = (0..sentences.len()).max_by(|&a, &b| {
                        dot(&weights, &sentences[a]).total_cmp(&dot(&weights, &sentences[b]))
                    });
                }
            }
        }
        let mut instances = Vec::new();
        for (slot, &m) in chosen.iter().zip(members) {
            let sentences = &data.prepared[m].sentences;
            let example = &data.examples[m];
            let mark = example.kind == crate::retrain::MARK_KIND;
            let weight = if mark {
                config.mark_weight
            } else if example.domain.is_empty() {
                config.phrase_weight
            } else {
                1.0
            };
            if data.examples[m].promise {
                if let Some(s) = slot {
                    instances.push(Instance {
                        buckets: &sentences[*s],
                        positive: true,
                        weight: weight * config.positive_weight,
                        mark,
                    });
                }
            } else {
                instances.extend(sentences.iter().map(|s| Instance {
                    buckets: s,
                    positive: false,
                    weight,
                    mark,
                }));
            }
        }
        weights = sgd(&instances, config);
    }
    weights
}

/// The message score under `weights`: its best sentence's (minus infinity without sentences).
pub fn message_score(weights: &[f32], prepared: &Prepared) -> f32 {
    prepared.sentences.iter().map(|s| dot(weights, s)).fold(f32::NEG_INFINITY, f32::max)
}

/// The message score under a quantised model.
pub fn model_score(model: &Model, prepared: &Prepared) -> f32 {
    prepared.sentences.iter().map(|s| model.score(s)).fold(f32::NEG_INFINITY, f32::max)
}

/// The threshold that minimises missed promises plus `cost` times false alarms (as rates) over
/// `(score, promise)` pairs: the midpoint between the two scores where the best cut falls.
pub fn choose_threshold(scored: &[(f32, bool)], cost: f64) -> f32 {
    let mut sorted: Vec<(f32, bool)> = scored.iter().copied().filter(|(s, _)| s.is_finite()).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let positives = sorted.iter().filter(|(_, p)| *p).count().max(1) as f64;
    let negatives = sorted.iter().filter(|(_, p)| !*p).count().max(1) as f64;
    // Cut before index i: everything from i on is called a promise.
    let (mut missed, mut alarms) = (0f64, negatives);
    let mut best = (missed / positives + cost * alarms / negatives, 0usize);
    for (i, (_, promise)) in sorted.iter().enumerate() {
        if *promise {
            missed += 1.0;
        } else {
            alarms -= 1.0;
        }
        let at = i + 1;
        let tied = at < sorted.len() && sorted[at].0 == sorted[i].0;
        let loss = missed / positives + cost * alarms / negatives;
        if !tied && loss < best.0 {
            best = (loss, at);
        }
    }
    match best.1 {
        0 => sorted.first().map_or(0.0, |s| s.0 - 1.0),
        i if i >= sorted.len() => sorted.last().map_or(0.0, |s| s.0 + 1.0),
        i => (sorted[i - 1].0 + sorted[i].0) / 2.0,
    }
}

/// Trains on `members` of `data`: the threshold from out-of-fold scores over domain groups of
/// the members, the weights from all of them. Members without a domain (the small phrase files)
/// train every fold and are never scored for the threshold.
pub fn train_on(data: &Data, members: &[usize], config: &Config) -> Model {
    let mut domains: Vec<&str> =
        members.iter().map(|&m| data.examples[m].domain.as_str()).filter(|d| !d.is_empty()).collect();
    domains.sort_unstable();
    domains.dedup();
    let group = |m: usize| -> Option<usize> {
        let d = data.examples[m].domain.as_str();
        domains.binary_search(&d).ok().map(|i| i % config.threshold_folds)
    };
    let mut scored = Vec::new();
    for fold in 0..config.threshold_folds {
        let (held, kept): (Vec<usize>, Vec<usize>) = members.iter().partition(|&&m| group(m) == Some(fold));
        if held.is_empty() {
            continue;
        }
        let weights = fit(data, &kept, config);
        let model = Model::quantise(config.set, config.bits, &weights, [0.0; 3]);
        scored.extend(held.iter().map(|&m| {
            (model_score(&model, &data.prepared[m]), data.examples[m].promise, data.examples[m].language)
        }));
    }
    let pooled: Vec<(f32, bool)> = scored.iter().map(|&(s, p, _)| (s, p)).collect();
    let both = choose_threshold(&pooled, config.false_alarm_cost);
    let of = |language: Language| -> f32 {
        let mine: Vec<(f32, bool)> =
            scored.iter().filter(|s| s.2 == language).map(|&(s, p, _)| (s, p)).collect();
        if config.per_language && !mine.is_empty() {
            choose_threshold(&mine, config.false_alarm_cost)
        } else {
            both
        }
    };
    let thresholds = [of(Language::En), of(Language::PtBr), both];
    let weights = fit(data, members, config);
    Model::quantise(config.set, config.bits, &weights, thresholds)
}

/// The training set of the shipped model: the corpus, the older phrase files and the blind
/// splits already measured ([`crate::eval::MEASURED_SPLITS`]).
pub fn training_examples() -> Vec<Example> {
    let mut examples = crate::corpus::corpus();
    examples.extend(crate::corpus::phrases());
    for split in crate::eval::MEASURED_SPLITS {
        examples.extend(crate::eval::measured_split(split));
    }
    examples
}

/// Trains the shipped model from the repository's data: what `train-guard` writes.
pub fn train_shipped() -> Model {
    let config = Config::SHIPPED;
    let data = Data::new(training_examples(), config.set, config.bits);
    let all: Vec<usize> = (0..data.examples.len()).collect();
    train_on(&data, &all, &config)
}

/// The language of an example, for reports.
pub fn language_name(language: Language) -> &'static str {
    match language {
        Language::En => "en",
        Language::PtBr => "pt-BR",
        Language::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_join_an_epoch_without_changing_the_order_of_the_rest() {
        let order_of = |marks: &[usize]| {
            let mut order: Vec<usize> = (0..50).collect();
            let (mut rng, mut mark_rng) = (SplitMix(7), SplitMix(9));
            let epoch = epoch_order(&mut order, marks, &mut rng, &mut mark_rng);
            epoch_order(&mut order, marks, &mut rng, &mut mark_rng)
                .into_iter()
                .chain(epoch)
                .collect::<Vec<_>>()
        };
        let plain = order_of(&[]);
        let with_marks = order_of(&[50, 51, 52]);
        assert_eq!(with_marks.len(), plain.len() + 6);
        assert_eq!(with_marks.iter().copied().filter(|&k| k < 50).collect::<Vec<_>>(), plain);
    }

    #[test]
    fn the_exponential_matches_the_platform_one_closely() {
        for x in [-30.0, -5.5, -1.0, -0.1, 0.0, 0.3, 1.0, 2.5, 10.0, 30.0] {
            let ours = exp(x);
            let std = f64::exp(x);
            assert!(((ours - std) / std).abs() < 1e-14, "{x}: {ours} vs {std}");
        }
    }

    #[test]
    fn the_threshold_separates_separable_scores_at_the_midpoint() {
        let scored = [(-2.0, false), (-1.0, false), (1.0, true), (3.0, true)];
        assert_eq!(choose_threshold(&scored, 1.0), 0.0);
    }
}
