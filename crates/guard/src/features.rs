//! The features the model scores: hashed word and character n-grams of a sentence, n-grams of
//! its word classes, and structural features saying who does what when (an actor, a future or
//! deferral marker, a follow-up action toward the customer, and whatever undoes it: a negation,
//! an offer, a question, the past, a machine).
//!
//! Every feature is a 64-bit FNV-1a hash of a namespace byte and its parts, reduced to the
//! model's table size: no `HashMap`, no randomness, the same numbers on every machine.

use crate::text::{tag, Kind, Token};

/// Which families of features to extract (the alternatives measured in `MODEL.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureSet {
    /// Word unigrams, bigrams and trigrams of the folded forms.
    pub words: bool,
    /// Character 3- to 5-grams inside each word (typos, inflections, unseen names).
    pub chars: bool,
    /// Word classes and their n-grams.
    pub classes: bool,
    /// Actor / deferral / action structure with its negation, offer, question, past and machine cues.
    pub structure: bool,
    /// Every n-gram of a clause that is negated, offered, asked or done right now by the
    /// assistant lives in its own feature space, so "someone will call you" learns one weight
    /// plain and another after "nobody" or "if you'd like".
    pub gated: bool,
}

impl FeatureSet {
    pub const ALL: FeatureSet =
        FeatureSet { words: true, chars: true, classes: true, structure: true, gated: true };

    /// A stable number for the model file.
    pub fn bits(self) -> u8 {
        self.words as u8
            | (self.chars as u8) << 1
            | (self.classes as u8) << 2
            | (self.structure as u8) << 3
            | (self.gated as u8) << 4
    }

    pub fn from_bits(bits: u8) -> FeatureSet {
        FeatureSet {
            words: bits & 1 != 0,
            chars: bits & 2 != 0,
            classes: bits & 4 != 0,
            structure: bits & 8 != 0,
            gated: bits & 16 != 0,
        }
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// An FNV-1a hash being built.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new(namespace: u8) -> Fnv {
        Fnv(FNV_OFFSET).byte(namespace)
    }

    fn byte(self, b: u8) -> Fnv {
        Fnv((self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME))
    }

    fn str(self, s: &str) -> Fnv {
        s.bytes().fold(self.byte(0xff), Fnv::byte)
    }

    fn u32(self, v: u32) -> Fnv {
        v.to_le_bytes().into_iter().fold(self.byte(0xfe), Fnv::byte)
    }

    fn finish(self) -> u64 {
        // Fold the high bits in so that any table size gets all of them.
        self.0 ^ (self.0 >> 29) ^ (self.0 >> 47)
    }
}

/// The tag bits that matter for class n-grams.
const ROLE_TAGS: u32 = tag::FUT
    | tag::LATER
    | tag::WHEN
    | tag::SELF
    | tag::WE
    | tag::YOU
    | tag::THIRD
    | tag::PERSON
    | tag::TITLE
    | tag::ACT
    | tag::NEG
    | tag::OFFER
    | tag::PAST
    | tag::AUTO
    | tag::CAN
    | tag::HAND
    | tag::NOW
    | tag::NAME
    | tag::ASK
    | tag::PROG
    | tag::NUMBER;

/// What the sentence before this one says, for features that cross a sentence end
/// ("Quer que eu peça? Um técnico pode te ligar.").
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Context {
    pub previous_question: bool,
    pub previous_offer: bool,
    pub first: bool,
}

/// Calls `sink` with the hash of every feature of `tokens` (one sentence) and whether it is
/// lexical (a word or character n-gram) rather than structural.
pub(crate) fn extract(
    tokens: &[Token<'_>],
    context: Context,
    set: FeatureSet,
    sink_both: &mut impl FnMut(u64, bool),
) {
    let sink = &mut |h: u64| sink_both(h, false);
    sink(Fnv::new(b'B').finish());
    let gates = if set.gated { gates(tokens) } else { vec![0; tokens.len()] };
    if set.gated {
        let mut all = 0u8;
        for &g in &gates {
            all |= g;
        }
        for bit in [NEGATED, OFFERED, ASKED, RIGHT_NOW, MACHINE] {
            if all & bit != 0 {
                sink(Fnv::new(b'x').byte(bit).finish());
            }
        }
    }
    if set.words {
        words(tokens, &gates, &mut |h| sink_both(h, true));
    }
    if set.chars {
        chars(tokens, &gates, &mut |h| sink_both(h, true));
    }
    let sink = &mut |h: u64| sink_both(h, false);
    if set.classes {
        classes(tokens, &gates, sink);
    }
    if set.structure {
        structure(tokens, context, sink);
    }
}

fn is_content(t: &Token<'_>) -> bool {
    t.kind != Kind::Symbol
}

fn words(tokens: &[Token<'_>], gates: &[u8], sink: &mut impl FnMut(u64)) {
    let forms: Vec<(&str, u8)> =
        tokens.iter().zip(gates).filter(|(t, _)| is_content(t)).map(|(t, &g)| (t.form, g)).collect();
    for (i, &(w, g)) in forms.iter().enumerate() {
        sink(Fnv::new(b'w').byte(g).str(w).finish());
        if let Some(&(next, _)) = forms.get(i + 1) {
            sink(Fnv::new(b'b').byte(g).str(w).str(next).finish());
            if let Some(&(third, _)) = forms.get(i + 2) {
                sink(Fnv::new(b't').byte(g).str(w).str(next).str(third).finish());
            }
        }
    }
    if let Some(&(first, g)) = forms.first() {
        sink(Fnv::new(b'^').byte(g).str(first).finish());
        if let Some(&(second, _)) = forms.get(1) {
            sink(Fnv::new(b'^').byte(g).str(first).str(second).finish());
        }
    }
}

fn chars(tokens: &[Token<'_>], gates: &[u8], sink: &mut impl FnMut(u64)) {
    for (t, &g) in tokens.iter().zip(gates).filter(|(t, _)| t.kind == Kind::Word) {
        let bytes = t.form.as_bytes();
        if bytes.len() < 2 {
            continue;
        }
        // "<word>" with boundary marks, in bytes (forms are ASCII once accents are stripped;
        // the rare non-ASCII letter only splits a gram).
        let mut padded = Vec::with_capacity(bytes.len() + 2);
        padded.push(b'<');
        padded.extend_from_slice(bytes);
        padded.push(b'>');
        for n in 3..=5 {
            if padded.len() < n {
                break;
            }
            for gram in padded.windows(n) {
                sink(gram.iter().fold(Fnv::new(b'c').byte(g), |h, &b| h.byte(b)).finish());
            }
        }
    }
}

fn classes(tokens: &[Token<'_>], gates: &[u8], sink: &mut impl FnMut(u64)) {
    // The sentence as a sequence of classes: punctuation as itself, untagged words collapsed
    // into one `_` per run.
    let mut seq: Vec<(u32, u8)> = Vec::with_capacity(tokens.len());
    for (t, &g) in tokens.iter().zip(gates).filter(|(t, _)| is_content(t)) {
        let sym = match t.kind {
            Kind::Punct => 0x8000_0000 | u32::from(t.form.as_bytes()[0]),
            _ => t.tags & ROLE_TAGS,
        };
        if sym == 0 && seq.last().is_some_and(|&(s, _)| s == 0) {
            continue;
        }
        seq.push((sym, g));
        for &(bit, _) in tag::NAMES.iter() {
            if t.tags & bit != 0 {
                sink(Fnv::new(b'g').byte(g).u32(bit).str(t.form).finish());
            }
        }
    }
    for i in 0..seq.len() {
        let g = seq[i].1;
        sink(Fnv::new(b'1').byte(g).u32(seq[i].0).finish());
        for n in 2..=4 {
            if i + n > seq.len() {
                break;
            }
            let h = seq[i..i + n].iter().fold(Fnv::new(b'0' + n as u8).byte(g), |h, &(s, _)| h.u32(s));
            sink(h.finish());
        }
    }
}

/// Gate bits: what undoes a clause.
pub(crate) const NEGATED: u8 = 1;
pub(crate) const OFFERED: u8 = 2;
pub(crate) const ASKED: u8 = 4;
pub(crate) const RIGHT_NOW: u8 = 8;
pub(crate) const MACHINE: u8 = 16;

/// A clause about a machine: "automatic", "automated", "auto", or a system or app as the subject
/// of its verb ("the system will send you a reminder", "o app te avisa").
fn automated(tokens: &[Token<'_>], from: usize, to: usize) -> bool {
    #[rustfmt::skip]
    const MESSAGES: &[&str] = &[
        "email", "sms", "text", "msg", "message", "notification", "notificacao", "aviso", "reminder",
        "lembrete", "confirmation", "confirmacao", "receipt", "recibo", "alert", "alerta", "update",
        "statement", "mensagem", "notice", "letter", "call",
    ];
    // "automatically", "an automatic email", "um sms automático", "o app te avisa sozinho" — but
    // not "upgrade you to an automatic" (a car) or "automation": the adjective must qualify a
    // message next to it.
    let message = |t: &Token<'_>| MESSAGES.contains(&t.form);
    let automatic = (from..to).any(|i| {
        let w = tokens[i].form;
        let adverb = matches!(w, "automatically" | "automaticamente" | "sozinho" | "sozinha");
        let adjective = matches!(
            w,
            "automated" | "automatic" | "auto" | "automatico" | "automatica" | "automaticos" | "automaticas"
        );
        adverb
            || (adjective
                && (tokens[i + 1..to.min(i + 3)].iter().any(message)
                    || (i > from && message(&tokens[i - 1]))))
    });
    if automatic {
        return true;
    }
    (from..to).any(|i| {
        tokens[i].tags & (tag::FUT | tag::ACT) != 0
            && matches!(subject_before(tokens, from, i), (Subject::Machine, Some(j)) if i - j <= 3)
    })
}

/// "..., ok?", "... te ligo amanhã blz?": a question tag after a statement does not make it a
/// question.
fn tag_question(tokens: &[Token<'_>], from: usize, to: usize) -> bool {
    let words: Vec<&str> = tokens[from..to].iter().filter(|t| t.kind == Kind::Word).map(|t| t.form).collect();
    let tail = |n: usize| words.len() > n && words.len() >= 3;
    let last = words.last().copied().unwrap_or("");
    let last2 = if words.len() >= 2 { words[words.len() - 2] } else { "" };
    tail(1)
        && (matches!(last, "ok" | "right" | "alright" | "certo" | "ne" | "esta" | "combinado" | "pode")
            || (last2 == "tudo" && last == "bem")
            || (last2 == "pode" && last == "ser"))
}

fn is_clause_break(t: &Token<'_>) -> bool {
    t.kind == Kind::Punct && matches!(t.form, "," | ":" | ";" | "-" | "(" | ")" | "?" | "!")
}

/// The clauses of a sentence as token ranges (split at commas, colons, dashes, brackets).
pub(crate) fn clauses(tokens: &[Token<'_>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        if is_clause_break(t) {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < tokens.len() {
        out.push((start, tokens.len()));
    }
    out
}

/// Reassurance is not negation: "don't worry", "não se preocupe", "no problem".
fn reassures(tokens: &[Token<'_>], i: usize) -> bool {
    #[rustfmt::skip]
    const REASSURANCE: &[&str] = &[
        "worry", "worries", "worried", "problem", "preocupe", "preocupa", "preocupar", "problema",
        "esquenta", "stress", "hesitate", "hesite",
    ];
    tokens[i + 1..tokens.len().min(i + 3)].iter().any(|t| REASSURANCE.contains(&t.form))
}

/// Whether the clause `tokens[from..to]` is negated: a negation before a future, follow-up
/// or hand-over word of the clause ("nobody will call", "ninguém vai te ligar", "no need for
/// anyone to visit").
pub(crate) fn negated(tokens: &[Token<'_>], from: usize, to: usize) -> bool {
    (from..to).any(|i| {
        tokens[i].tags & tag::NEG != 0
            && !reassures(tokens, i)
            // "sem custo", "without charge": a negated noun, not a negated verb.
            && !(matches!(tokens[i].form, "sem" | "without")
                && tokens.get(i + 1).is_none_or(|t| t.tags & (tag::FUT | tag::ACT | tag::HAND) == 0))
            && tokens[i + 1..to.min(i + 6)]
                .iter()
                .any(|t| t.tags & (tag::FUT | tag::ACT | tag::HAND | tag::PROG) != 0)
    })
}

/// Whether the words at `i` open an offer or a wish of the customer: "if you'd like", "would
/// you like", "want me to", "I can", "se preferir", "quer que", "posso".
fn offer_at(tokens: &[Token<'_>], i: usize, to: usize) -> bool {
    #[rustfmt::skip]
    const WISHES: &[&str] = &[
        "like", "want", "prefer", "wish", "rather", "need", "quiser", "preferir", "desejar", "queira",
        "prefira", "deseje", "precisar", "precise", "interessar", "tiver",
    ];
    let w = |k: usize| if k < to { tokens[k].form } else { "" };
    let wish = |f: &str| WISHES.contains(&f);
    match w(i) {
        "if" | "se" | "caso" => (i + 1..to.min(i + 5)).any(|k| wish(tokens[k].form)),
        "would" | "do" | "did" => matches!(w(i + 1), "you" | "it") && (wish(w(i + 2)) || w(i + 2) == "help"),
        "want" | "quer" | "gostaria" | "deseja" | "prefere" | "queria" => {
            matches!(w(i + 1), "me" | "que" | "q" | "us") || (w(i + 1) == "eu" || w(i + 2) == "que")
        }
        "shall" | "should" | "can" | "may" | "could" => matches!(w(i + 1), "i" | "we"),
        "i" | "we" => matches!(w(i + 1), "can" | "could" | "may"),
        "i'd" | "we'd" => matches!(w(i + 1), "be") && w(i + 2) == "happy",
        "happy" => w(i + 1) == "to",
        "how" => w(i + 1) == "about",
        "posso" | "podemos" | "poderia" | "poderiamos" | "consigo" | "conseguimos" => true,
        "que" => w(i + 1) == "tal",
        _ => false,
    }
}

/// The gate of every token: the bits of what undoes its clause.
pub(crate) fn gates(tokens: &[Token<'_>]) -> Vec<u8> {
    let mut out = vec![0u8; tokens.len()];
    let clauses = clauses(tokens);
    let question = tokens.iter().rev().find(|t| t.kind != Kind::Symbol).is_some_and(|t| t.form == "?");
    let later = tokens.iter().any(|t| t.tags & (tag::LATER | tag::WHEN) != 0);
    let people =
        tokens.iter().any(|t| t.tags & (tag::PERSON | tag::NAME | tag::THIRD | tag::TITLE | tag::HAND) != 0);
    let mut condition_before = false;
    for (k, &(from, to)) in clauses.iter().enumerate() {
        let mut g = 0;
        if negated(tokens, from, to) {
            g |= NEGATED;
        }
        let offer = (from..to).any(|i| offer_at(tokens, i, to));
        if offer || condition_before {
            g |= OFFERED;
        }
        // A clause that only states the customer's wish ("if you'd like,") conditions the next.
        condition_before = offer
            && matches!(tokens[from].form, "if" | "se" | "caso")
            && !tokens[from..to].iter().any(|t| t.tags & (tag::FUT | tag::HAND) != 0);
        if question && k + 1 == clauses.len() && !tag_question(tokens, from, to) {
            g |= ASKED;
        }
        if automated(tokens, from, to) {
            g |= MACHINE;
        }
        if !later && !people && !reports_back(tokens, from, to) {
            let own = (from..to).any(|i| {
                let t = &tokens[i];
                t.tags & tag::FUT != 0
                    && (t.tags & tag::SELF != 0
                        || matches!(t.form, "vou" | "irei")
                        || (i > from && tokens[i - 1].tags & tag::SELF != 0))
            });
            if own {
                g |= RIGHT_NOW;
            }
        }
        for slot in &mut out[from..to] {
            *slot = g;
        }
    }
    out
}

/// A second action that reports back to the customer: "... and get back to you", "... and let
/// you know", "... e te falo", "... e te aviso". Doing something first and then coming back puts
/// the coming back after this message.
fn reports_back(tokens: &[Token<'_>], from: usize, to: usize) -> bool {
    (from..to).any(|i| {
        matches!(tokens[i].form, "and" | "e" | "then" | "depois" | "entao")
            && (i + 1..to.min(i + 4)).any(|j| {
                let t = &tokens[j];
                let next = tokens.get(j + 1).map_or("", |n| n.form);
                t.tags & tag::ACT != 0
                    && (next == "you"
                        || next == "back"
                        || (j > 0 && matches!(tokens[j - 1].form, "te" | "lhe"))
                        || matches!(t.form, "respond" | "reply" | "revert" | "update" | "retorno" | "aviso"))
            })
    })
}

/// Who acts in a clause, as far as the structure tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subject {
    Me,
    We,
    You,
    Third,
    Person,
    Name,
    Machine,
    None,
}

impl Subject {
    fn code(self) -> u8 {
        self as u8
    }

    fn of(t: &Token<'_>) -> Option<Subject> {
        let tags = t.tags;
        if tags & tag::AUTO != 0 {
            Some(Subject::Machine)
        } else if tags & tag::PERSON != 0 {
            Some(Subject::Person)
        } else if tags & (tag::NAME | tag::TITLE) != 0 {
            Some(Subject::Name)
        } else if tags & tag::THIRD != 0 {
            Some(Subject::Third)
        } else if tags & tag::SELF != 0 {
            Some(Subject::Me)
        } else if tags & tag::WE != 0 {
            Some(Subject::We)
        } else if tags & tag::YOU != 0 {
            Some(Subject::You)
        } else {
            None
        }
    }
}

/// The clause (between punctuation breaks) holding token `at`: `(start, end)` indices (used by
/// the structural features, which look across `?` and `!`).
pub(crate) fn clause_of(tokens: &[Token<'_>], at: usize) -> (usize, usize) {
    let is_break =
        |t: &Token<'_>| t.kind == Kind::Punct && matches!(t.form, "," | ":" | ";" | "-" | "(" | ")");
    let start = tokens[..at].iter().rposition(is_break).map_or(0, |i| i + 1);
    let end = tokens[at..].iter().position(is_break).map_or(tokens.len(), |i| at + i);
    (start, end)
}

/// The nearest subject before `at` inside its clause (up to eight tokens back).
pub(crate) fn subject_before(
    tokens: &[Token<'_>],
    clause_start: usize,
    at: usize,
) -> (Subject, Option<usize>) {
    let from = clause_start.max(at.saturating_sub(8));
    for j in (from..at).rev() {
        if let Some(s) = Subject::of(&tokens[j]) {
            // "you" after a verb is its object, not its subject: keep looking.
            if s == Subject::You && j + 1 < at && tokens[j].form != "you" && tokens[j].form != "voce" {
                continue;
            }
            return (s, Some(j));
        }
    }
    (Subject::None, None)
}

fn any_tag(tokens: &[Token<'_>], tag: u32) -> bool {
    tokens.iter().any(|t| t.tags & tag != 0)
}

fn structure(tokens: &[Token<'_>], context: Context, sink: &mut impl FnMut(u64)) {
    if present_for_future(tokens) {
        sink(Fnv::new(b'r').finish());
    }
    let question = tokens.iter().rev().find(|t| t.kind != Kind::Symbol).is_some_and(|t| t.form == "?");
    let sentence_offer = any_tag(tokens, tag::OFFER);
    let past = any_tag(tokens, tag::PAST);
    let later = any_tag(tokens, tag::LATER);
    let when = any_tag(tokens, tag::WHEN);
    let flags = [
        (question, "q"),
        (sentence_offer, "offer"),
        (past, "past"),
        (later, "later"),
        (when, "when"),
        (any_tag(tokens, tag::AUTO), "auto"),
        (any_tag(tokens, tag::NEG), "neg"),
        (any_tag(tokens, tag::NOW), "now"),
        (any_tag(tokens, tag::ASK), "ask"),
        (context.previous_question, "prevq"),
        (context.previous_offer, "prevoffer"),
        (context.first, "first"),
    ];
    for (on, name) in flags {
        if on {
            sink(Fnv::new(b'f').str(name).finish());
        }
    }
    for (i, t) in tokens.iter().enumerate() {
        let kind = if t.tags & tag::FUT != 0 {
            b'F'
        } else if t.tags & tag::PROG != 0 {
            b'G'
        } else if t.tags & tag::HAND != 0 {
            b'H'
        } else if t.tags & tag::ACT != 0 {
            b'A'
        } else {
            continue;
        };
        let (cs, ce) = clause_of(tokens, i);
        let own = Subject::of(t).filter(|_| kind == b'F' && t.form.contains('\''));
        let (subject, _) = match own {
            Some(s) => (s, Some(i)),
            None => subject_before(tokens, cs, i),
        };
        let ahead = &tokens[i + 1..ce.min(i + 6)];
        let act = ahead.iter().any(|t| t.tags & (tag::ACT | tag::HAND) != 0);
        let you = ahead.iter().any(|t| t.tags & tag::YOU != 0)
            || tokens[cs..i].last().is_some_and(|t| matches!(t.form, "te" | "lhe" | "you" | "me"));
        let before = &tokens[cs.max(i.saturating_sub(4))..i];
        let neg = before.iter().chain(ahead.iter().take(2)).any(|t| t.tags & tag::NEG != 0);
        let offer = tokens[cs..i].iter().any(|t| t.tags & (tag::OFFER | tag::CAN) != 0)
            || tokens[..cs].iter().any(|t| t.tags & tag::OFFER != 0);
        let clause_later = tokens[cs..ce].iter().any(|t| t.tags & (tag::LATER | tag::WHEN) != 0);
        let past_near = t.tags & tag::PAST != 0
            || before.iter().chain(ahead.iter().take(2)).any(|t| t.tags & tag::PAST != 0);
        let people_in_sentence = tokens.iter().any(|t| t.tags & (tag::PERSON | tag::NAME | tag::THIRD) != 0);
        if kind == b'F'
            && matches!(subject, Subject::Me | Subject::None)
            && !clause_later
            && !people_in_sentence
        {
            // The assistant doing something itself with nothing putting it later ("vou te mandar o link").
            sink(Fnv::new(b'm').byte(act as u8).byte(you as u8).byte(when as u8).finish());
        }
        let base = Fnv::new(b's').byte(kind).byte(subject.code());
        sink(base.finish());
        sink(base.byte(act as u8).byte(you as u8).finish());
        sink(base.byte(neg as u8).byte(offer as u8).byte(question as u8).finish());
        sink(
            base.byte(act as u8)
                .byte(you as u8)
                .byte(neg as u8)
                .byte(offer as u8)
                .byte(question as u8)
                .byte(past_near as u8)
                .byte(clause_later as u8)
                .finish(),
        );
        sink(
            Fnv::new(b'k')
                .byte(kind)
                .byte(neg as u8)
                .byte(offer as u8)
                .byte(question as u8)
                .byte(past_near as u8)
                .finish(),
        );
        if kind != b'F' || act {
            // Checking with or handing to people: "check with billing", "vou consultar o setor
            // financeiro", "passing this to our claims team".
            let to_people = (i + 1..ce.min(i + 7)).any(|j| {
                tokens[j].tags & (tag::PERSON | tag::NAME) != 0
                    && tokens[j].tags & tag::AUTO == 0
                    && tokens[i + 1..j].iter().all(|t| t.tags & (tag::FUT | tag::NEG) == 0)
            });
            if to_people {
                let with = tokens[i + 1..ce.min(i + 4)].iter().any(|t| {
                    matches!(
                        t.form,
                        "with" | "com" | "junto" | "to" | "pro" | "pra" | "ao" | "a" | "pros" | "aos"
                    )
                });
                sink(
                    Fnv::new(b'c')
                        .byte(kind)
                        .byte(subject.code())
                        .byte(with as u8)
                        .byte(neg as u8)
                        .byte(offer as u8)
                        .finish(),
                );
            }
        }
        if kind == b'A' {
            sink(
                Fnv::new(b'p')
                    .byte(subject.code())
                    .byte(clause_later as u8)
                    .byte(neg as u8)
                    .byte(past_near as u8)
                    .finish(),
            );
        }
    }
}

/// Copulas and habitual verbs: "é", "fica", "abre", "funciona", "covers", "opens" say how
/// things are, not what someone will do.
fn is_state_verb(w: &str) -> bool {
    matches!(
        w,
        "e" | "esta"
            | "estao"
            | "fica"
            | "ficam"
            | "funciona"
            | "funcionam"
            | "abre"
            | "abrem"
            | "fecha"
            | "fecham"
            | "trabalha"
            | "trabalham"
            | "atende"
            | "atendem"
            | "cobre"
            | "cobrem"
            | "custa"
            | "custam"
            | "tem"
            | "tém"
            | "vale"
            | "valem"
            | "precisa"
            | "precisam"
            | "pode"
            | "podem"
            | "deve"
            | "devem"
            | "sabe"
            | "acha"
            | "is"
            | "are"
            | "has"
            | "have"
            | "works"
            | "work"
            | "opens"
            | "open"
            | "closes"
            | "close"
            | "covers"
            | "cover"
            | "costs"
            | "cost"
            | "needs"
            | "need"
            | "can"
            | "may"
            | "knows"
            | "thinks"
            | "says"
            | "said"
            | "usually"
            | "always"
            | "normally"
            | "was"
            | "were"
            | "had"
            | "did"
            | "does"
            | "do"
            | "gets"
            | "get"
            | "sao"
            | "era"
            | "foi"
            | "faz"
            | "inclui"
            | "includes"
            | "include"
            | "serve"
            | "serves"
            | "oferece"
            | "offers"
            | "recomenda"
            | "recommends"
            | "cuida"
            | "handles"
            | "looks"
            | "seems"
            | "parece"
    )
}

/// A deictic time that puts something in the future: tomorrow, a weekday, "at 3pm", "in 10",
/// "amanhã", "na segunda", "às 15h", "em 30 min", "daqui a pouco", "this afternoon".
fn future_time(tokens: &[Token<'_>], i: usize) -> bool {
    let w = tokens[i].form;
    let prev = if i > 0 { tokens[i - 1].form } else { "" };
    let next = tokens.get(i + 1).map_or("", |t| t.form);
    match w {
        "tomorrow" | "tonight" | "later" | "amanha" | "daqui" | "jaja" | "asap" | "shortly" | "soon" => true,
        "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday" | "segunda"
        | "terca" | "quarta" | "quinta" | "sexta" | "sabado" | "domingo" => {
            !matches!(prev, "de" | "every" | "todo" | "toda" | "from" | "to" | "a" | "till")
        }
        "0h" | "0:0" | "0am" => {
            matches!(prev, "as" | "at" | "by" | "ate" | "pelas" | "umas" | "around" | "about")
        }
        "afternoon" | "evening" | "morning" => matches!(prev, "this" | "tomorrow"),
        "tarde" | "noite" => {
            matches!(prev, "a" | "mais") && i >= 2 && matches!(tokens[i - 2].form, "hoje" | "mais" | "de")
        }
        "week" | "semana" => matches!(prev, "next" | "this") || next == "que",
        "0" | "0min" => matches!(prev, "in" | "em" | "uns" | "umas"),
        _ => tokens[i].tags & tag::NUMBER != 0 && matches!(prev, "in" | "em" | "within" | "uns" | "umas"),
    }
}

fn recurrent(tokens: &[Token<'_>], from: usize, to: usize) -> bool {
    #[rustfmt::skip]
    const RECURRENT: &[&str] = &[
        "todo", "toda", "todos", "todas", "cada", "every", "each", "sempre", "always", "usually",
        "normalmente", "geralmente", "das", "per", "daily", "weekly", "diariamente",
    ];
    tokens[from..to].iter().any(|t| RECURRENT.contains(&t.form))
}

/// People (or "we") with a present-tense verb and a future time in one clause: "o pintor volta
/// na segunda", "a gente leva as cadeiras no sábado", "the technician comes by Thursday".
pub(crate) fn present_for_future(tokens: &[Token<'_>]) -> bool {
    let gates = gates(tokens);
    (0..tokens.len()).any(|i| {
        let t = &tokens[i];
        let subject = t.kind == Kind::Word
            && (t.tags & (tag::PERSON | tag::NAME | tag::THIRD) != 0
                || matches!(t.form, "we" | "nos" | "gente"))
            && t.tags & (tag::AUTO | tag::YOU) == 0
            && !matches!(t.form, "who" | "quem" | "them" | "him" | "her" | "dele" | "dela" | "deles");
        if !subject || gates[i] & (NEGATED | OFFERED | ASKED | MACHINE) != 0 {
            return false;
        }
        let mut v = i + 1;
        while v < tokens.len() && matches!(tokens[v].form, "te" | "lhe" | "t" | "also" | "tambem" | "just") {
            v += 1;
        }
        let Some(verb) = tokens.get(v) else { return false };
        let verbish = verb.kind == Kind::Word
            && verb.tags
                & (tag::PERSON
                    | tag::NAME
                    | tag::LATER
                    | tag::WHEN
                    | tag::BREAK
                    | tag::FUT
                    | tag::CAN
                    | tag::OFFER
                    | tag::PAST
                    | tag::NEG
                    | tag::YOU
                    | tag::SELF
                    | tag::WE
                    | tag::THIRD)
                == 0
            && !is_state_verb(verb.form)
            && !matches!(
                verb.form,
                "de" | "do"
                    | "da"
                    | "dos"
                    | "das"
                    | "of"
                    | "from"
                    | "on"
                    | "in"
                    | "at"
                    | "the"
                    | "o"
                    | "a"
                    | "os"
                    | "que"
                    | "who"
                    | "and"
                    | "e"
                    | "pra"
                    | "pro"
                    | "com"
                    | "with"
                    | "for"
                    | "to"
            );
        if !verbish {
            return false;
        }
        let (_, ce) = clause_of(tokens, v);
        let end = ce.max(v + 1);
        let past = tokens[i.saturating_sub(3)..end].iter().any(|t| t.tags & tag::PAST != 0);
        !past && (v + 1..end).any(|k| future_time(tokens, k)) && !recurrent(tokens, v, end)
    })
}
