//! The spans that explain a promise: in the sentence the model found promising, who will act
//! (`actor`), what puts it later (`deferral`: "will", "vai", "amanhã", "as soon as"), and what
//! they will do (`action`: "call you", "te retornar").
//!
//! The spans are read off the sentence's structure with the word classes the model's structural
//! features use. The *anchor* is the word that carries the commitment: a future marker before a
//! follow-up verb, a hand-over, a verb right after its people subject, a follow-up verb with a
//! time; not the event a "when ..." clause waits for, and not negated or offered. The actor is
//! the subject of the anchor's verb group (a pronoun standing for people named before it is
//! replaced by them; English keeps an apposition, "Dev, our street scene supervisor", as the
//! corpus annotators did), or for a hand-over the people it goes to, or for a passive its agent
//! ("by an underwriter"); the action is the verb phrase after the anchor.

use crate::detect::Language;
use crate::features::{clause_of, gates, NEGATED, OFFERED};
use crate::text::{tag, Kind, Token};

/// What a span says about the promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Actor,
    Deferral,
    Action,
}

/// A span as byte offsets into the normalised text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    pub role: Role,
    pub start: usize,
    pub end: usize,
}

/// Articles and possessives that open a noun phrase.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "our", "my", "your", "one", "some", "o", "os", "as", "um", "uma", "nosso", "nossa",
    "nossos", "nossas", "sua", "seu", "meu", "minha", "seus", "suas", "this", "esse", "essa", "este",
];

/// Prepositions inside a people phrase ("Daniel on our disputes team", "a analista de sinistros").
const INNER_PREPOSITIONS: &[&str] =
    &["from", "of", "on", "in", "at", "for", "de", "da", "do", "dos", "das", "na", "no", "nas", "nos"];

/// Prepositions a people phrase may follow but never starts with ("passing this to", "pro").
const OUTER_PREPOSITIONS: &[&str] = &[
    "to", "with", "by", "pro", "pra", "ao", "aos", "pros", "pras", "com", "pelo", "pela", "para", "over",
    "onto",
];

/// Words between a subject and its verb: adverbs, clitics, auxiliaries.
#[rustfmt::skip]
const VERB_GROUP: &[&str] = &[
    "also", "just", "personally", "definitely", "probably", "then", "still", "really", "directly", "tambem",
    "logo", "mesmo", "pessoalmente", "provavelmente", "certamente", "entao", "te", "lhe", "me", "se", "is",
    "are", "am", "be", "ainda", "so", "hoje", "amanha", "both", "esta", "estao", "estou", "estamos", "ja",
];

/// Words that end a subject noun phrase on its left: discourse markers, greetings, conjunctions.
#[rustfmt::skip]
const DISCOURSE: &[&str] = &[
    "hi", "hey", "hiya", "hello", "ok", "okay", "yes", "yeah", "right", "great", "so", "well", "oi", "ola",
    "opa", "entao", "bom", "sim", "certo", "pronto", "that", "que", "who", "which", "thanks", "obrigado",
    "please", "because", "porque", "good", "news", "aqui", "here", "now", "agora", "and", "e", "but", "mas",
    "or", "ou", "also", "tambem", "dear", "prezado", "prezada", "meanwhile", "anyway", "alright", "sure",
    "claro", "perfeito", "otimo", "poxa", "relaxa", "vixe", "show", "beleza", "pois", "enquanto", "isso",
    "blz",
];

/// Relative pronouns standing for people named just before them.
const RELATIVES: &[&str] = &["who", "who's", "who'll", "which", "que", "quem"];

fn is(form: &str, list: &[&str]) -> bool {
    list.contains(&form)
}

fn is_people(t: &Token<'_>) -> bool {
    t.kind == Kind::Word && t.tags & (tag::PERSON | tag::NAME | tag::TITLE) != 0 && t.tags & tag::AUTO == 0
}

/// "à" (accented) is "to the", a preposition, unlike the article "a".
fn is_outer_preposition(t: &Token<'_>) -> bool {
    is(t.form, OUTER_PREPOSITIONS) || (t.form == "a" && t.accented_end)
}

/// A word that may modify or head a people phrase: not a verb, time, negation, pronoun...
fn is_plain_word(t: &Token<'_>) -> bool {
    const BLOCKING: u32 = tag::FUT
        | tag::NEG
        | tag::CAN
        | tag::PAST
        | tag::OFFER
        | tag::LATER
        | tag::WHEN
        | tag::BREAK
        | tag::ASK
        | tag::NOW
        | tag::YOU
        | tag::SELF
        | tag::WE
        | tag::THIRD
        | tag::AUTO
        | tag::ACT
        | tag::HAND
        | tag::PROG;
    t.kind == Kind::Word
        && t.tags & BLOCKING == 0
        && !is(t.form, DISCOURSE)
        && !is_outer_preposition(t)
        && !is(t.form, INNER_PREPOSITIONS)
        && !is(t.form, DETERMINERS)
}

/// The people phrase around the people word `head`, within `lo..hi`: determiners, modifiers,
/// titles ("Ms."), names, and "X de Y" chains ("o pessoal do comercial", "Daniel on our
/// disputes team").
fn people_phrase(all: &[Token<'_>], head: usize, lo: usize, hi: usize) -> (usize, usize) {
    let mut start = head;
    while start > lo {
        let t = &all[start - 1];
        let title_dot = t.form == "." && start >= 2 && all[start - 2].tags & tag::TITLE != 0;
        let joined_by_preposition = is(t.form, INNER_PREPOSITIONS)
            && start >= lo + 2
            && (is_people(&all[start - 2]) || (is_plain_word(&all[start - 2]) && is_people(&all[start])));
        if is_people(t) || is(t.form, DETERMINERS) && !t.accented_end || title_dot || joined_by_preposition {
            start -= 1;
        } else if is_plain_word(t) && is_people(&all[start]) {
            // A modifier before a people word: "our *disputes* team", "the *night* manager".
            start -= 1;
        } else {
            break;
        }
    }
    while start < head && (is(all[start].form, INNER_PREPOSITIONS) || all[start].form == ".") {
        start += 1;
    }
    let mut end = head + 1;
    while end < hi {
        let t = &all[end];
        if is_people(t) && t.tags & (tag::ACT | tag::HAND) == 0 {
            end += 1;
        } else if is(t.form, INNER_PREPOSITIONS) && end + 1 < hi {
            // "da recepção", "on the international desk": a preposition and what follows, when
            // that names people too.
            let mut k = end + 1;
            while k < hi
                && k < end + 4
                && (is(all[k].form, DETERMINERS) || is_plain_word(&all[k]) || is_people(&all[k]))
            {
                k += 1;
            }
            if k == end + 1 || !all[end + 1..k].iter().any(is_people) {
                break;
            }
            end = k;
        } else {
            break;
        }
    }
    (start, end)
}

/// The subject noun phrase ending just before `end`: people words, names (also lowercase chat
/// names, "priya from billing"), determiners and modifiers, up to nine words.
fn noun_phrase_before(all: &[Token<'_>], lo: usize, end: usize) -> Option<(usize, usize)> {
    let mut start = end;
    while start > lo && end - start < 9 {
        let t = &all[start - 1];
        let title_dot = t.form == "." && start >= 2 && all[start - 2].tags & tag::TITLE != 0;
        let noun_after_determiner = t.tags & (tag::ACT | tag::HAND) != 0
            && t.tags & (tag::FUT | tag::NEG | tag::PAST) == 0
            && start >= 2
            && is(all[start - 2].form, DETERMINERS);
        let fits = is_people(t)
            || (is(t.form, DETERMINERS) && !t.accented_end)
            || is(t.form, INNER_PREPOSITIONS)
            || title_dot
            || is_plain_word(t)
            || noun_after_determiner;
        if !fits {
            break;
        }
        start -= 1;
    }
    while start < end && (is(all[start].form, INNER_PREPOSITIONS) || all[start].kind != Kind::Word) {
        start += 1;
    }
    let words: Vec<&Token<'_>> = all[start..end].iter().filter(|t| t.kind == Kind::Word).collect();
    let names_someone = words.iter().any(|t| is_people(t))
        || words.first().is_some_and(|t| is(t.form, DETERMINERS))
        // A lone chat name before its verb: "gaz is gonna", "jess will".
        || (words.len() == 1 && is_plain_word(words[0]))
        // "priya from billing".
        || (words.len() >= 2 && is_plain_word(words[0]));
    (start < end && names_someone && !(words.len() == 1 && is(words[0].form, DETERMINERS)))
        .then_some((start, end))
}

/// A pronoun standing alone as the subject: "I", "eu", "we", "nós", "a gente", "ele", "who".
fn pronoun_subject(all: &[Token<'_>], lo: usize, end: usize) -> Option<(usize, usize)> {
    let i = end.checked_sub(1).filter(|&i| i >= lo)?;
    let t = &all[i];
    if is(t.form, RELATIVES) {
        return Some((i, end));
    }
    if t.kind != Kind::Word || t.tags & (tag::SELF | tag::WE | tag::THIRD) == 0 {
        return None;
    }
    const OBJECTS: &[&str] = &[
        "me", "my", "our", "nossa", "nosso", "meu", "minha", "us", "them", "him", "her", "comigo", "mim",
        "their",
    ];
    if is(t.form, OBJECTS) {
        return None;
    }
    if t.form == "gente" && i > lo && all[i - 1].form == "a" {
        return Some((i - 1, end));
    }
    Some((i, end))
}

/// Where the verb group holding `anchor` starts (adverbs, clitics and auxiliaries before it).
fn verb_group_start(all: &[Token<'_>], lo: usize, anchor: usize) -> usize {
    let mut j = anchor;
    while j > lo {
        let t = &all[j - 1];
        let grouped = is(t.form, VERB_GROUP) || (t.tags & tag::FUT != 0 && !t.form.contains('\''));
        if !grouped || t.tags & (tag::SELF | tag::WE | tag::THIRD) != 0 {
            break;
        }
        j -= 1;
    }
    j
}

/// The subject of the verb group starting at `verb` (sentence from `lo`): a pronoun, a noun
/// phrase, a noun phrase with an apposition between commas ("Grace Mbeki, who's handling your
/// claim, will call"; "A Patrícia, da recepção, vai"), or, after "and", the subject of the verb
/// before ("o faturamento estorna ... e te manda").
fn subject(all: &[Token<'_>], lo: usize, verb: usize, language: Language) -> Option<(usize, usize)> {
    if let Some(p) = pronoun_subject(all, lo, verb) {
        return Some(p);
    }
    if let Some(np) = noun_phrase_before(all, lo, verb) {
        return Some(with_apposition(all, lo, np, language));
    }
    if verb > lo && is(all[verb - 1].form, &["and", "e", "n", "then", "depois"]) {
        let (cs, _) = clause_of(&all[lo..], verb - 1 - lo);
        let previous = (lo + cs..verb - 1).rev().find(|&k| is_verb(&all[k]))?;
        return subject(all, lo, verb_group_start(all, lo, previous), language);
    }
    // "X, who ..., will" and "X, our ..., will": the phrase before the commas.
    if verb >= lo + 2 && all[verb - 1].form == "," {
        let open = (lo..verb - 1).rev().find(|&k| all[k].form == ",")?;
        let first = all.get(open + 1)?;
        let head = noun_phrase_before(all, lo, open)?;
        if is(first.form, RELATIVES) {
            return Some(head);
        }
        let segment = &all[open + 1..verb - 1];
        if segment.iter().all(|t| t.kind == Kind::Word && t.tags & (tag::FUT | tag::NEG | tag::LATER) == 0) {
            return Some(if language == Language::PtBr { head } else { (head.0, verb - 1) });
        }
    }
    None
}

fn is_verb(t: &Token<'_>) -> bool {
    t.kind == Kind::Word && t.tags & (tag::FUT | tag::ACT | tag::HAND | tag::PROG) != 0 && !is_people(t)
}

/// "Dev, our street scene supervisor": a name, a comma and the phrase found (English only; the
/// Portuguese annotators kept the name alone).
fn with_apposition(
    all: &[Token<'_>],
    lo: usize,
    (start, end): (usize, usize),
    language: Language,
) -> (usize, usize) {
    if start < lo + 2 || all[start - 1].form != "," || !is(all[start].form, DETERMINERS) {
        return (start, end);
    }
    let Some(head) = noun_phrase_before(all, lo, start - 1) else { return (start, end) };
    let words = &all[head.0..head.1];
    let named = words.iter().any(|t| t.tags & (tag::NAME | tag::TITLE) != 0)
        && words.len() <= 5
        && words.iter().all(|t| is_people(t) || is(t.form, DETERMINERS) || t.form == ".");
    match (named, language) {
        (true, Language::PtBr) => head,
        (true, _) => (head.0, end),
        _ => (start, end),
    }
}

/// The token that carries the commitment, and how it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// A future marker: "will call", "vai te ligar", "I'll".
    Future(usize),
    /// A hand-over: "passing this to", "encaminhei pro".
    HandOver(usize),
    /// Any other verb: "te liga amanhã", "the technician is coming", "a gente leva".
    Verb(usize),
}

impl Anchor {
    fn at(self) -> usize {
        match self {
            Anchor::Future(i) | Anchor::HandOver(i) | Anchor::Verb(i) => i,
        }
    }
}

/// The anchor of `all[lo..hi]`: the best-rated candidate, the first one on a tie.
fn find_anchor(all: &[Token<'_>], lo: usize, hi: usize) -> Option<Anchor> {
    let tokens = &all[lo..hi];
    let gates = gates(tokens);
    let mut best: Option<(i32, Anchor)> = None;
    for i in 0..tokens.len() {
        let t = &tokens[i];
        if t.kind != Kind::Word {
            continue;
        }
        let (cs, ce) = clause_of(tokens, i);
        let ahead = &tokens[i + 1..ce.min(i + 5).max(i + 1)];
        let follow_up = ahead.iter().any(|t| t.tags & (tag::ACT | tag::HAND) != 0);
        let timed = tokens[cs..ce].iter().any(|t| t.tags & (tag::LATER | tag::WHEN) != 0);
        let after_determiner = i > 0 && is(tokens[i - 1].form, DETERMINERS) && !tokens[i - 1].accented_end;
        let after_subject = i > 0
            && {
                let p = &tokens[i - 1];
                (is_people(p) || (p.form == "gente" && i >= 2 && tokens[i - 2].form == "a") || p.tags & tag::THIRD != 0)
                && !is(p.form, &["them", "him", "her", "dele", "dela"])
                && p.tags & tag::FUT == 0
                // "O manobrista leva": an article and a noun opening the clause.
                || (is_plain_word(p) && i >= 2 && i - 2 == cs && is(tokens[i - 2].form, DETERMINERS))
            };
        let (mut rating, anchor) = if t.tags & tag::FUT != 0 && !matches!(t.form, "me" | "lemme") {
            (if follow_up { 6 } else { 5 }, Anchor::Future(i))
        } else if t.tags & tag::HAND != 0 && !after_determiner {
            let to_people = receiver(tokens, i, ce).is_some();
            let committed =
                tokens[cs..i].iter().rev().take(3).any(|t| t.tags & (tag::FUT | tag::SELF | tag::WE) != 0);
            (if to_people { 5 + 2 * i32::from(committed) } else { 1 }, Anchor::HandOver(i))
        } else if t.tags & tag::PROG != 0 {
            (5, Anchor::Verb(i))
        } else if after_subject && (is_plain_word(t) || t.tags & tag::ACT != 0) {
            // "o pintor volta na segunda", "a gente leva as cadeiras".
            (3 + i32::from(timed), Anchor::Verb(i))
        } else if t.tags & tag::ACT != 0 && !is_people(t) && !after_determiner {
            let to_you = ahead.iter().any(|t| t.tags & tag::YOU != 0)
                || (i > 0 && matches!(tokens[i - 1].form, "te" | "lhe"));
            (1 + 2 * i32::from(timed) + i32::from(to_you), Anchor::Verb(i))
        } else {
            continue;
        };
        // What the customer does is not the promise ("the questionnaire you sent").
        if i > 0 && matches!(tokens[i - 1].form, "you" | "voce") {
            rating -= 3;
        }
        // The first verb after "when" is the event waited for, not the promise.
        if let Some(w) = tokens[cs..i].iter().rposition(|t| t.tags & tag::WHEN != 0).map(|k| cs + k) {
            if !tokens[w + 1..i].iter().any(is_verb) && t.tags & tag::FUT == 0 {
                rating -= 3;
            }
        }
        if gates[i] & (NEGATED | OFFERED) != 0 || t.tags & (tag::NEG | tag::PAST) != 0 {
            rating -= 4;
        }
        if best.is_none_or(|(r, _)| rating > r) {
            best = Some((rating, anchor));
        }
    }
    best.map(|(_, a)| match a {
        Anchor::Future(i) => Anchor::Future(lo + i),
        Anchor::HandOver(i) => Anchor::HandOver(lo + i),
        Anchor::Verb(i) => Anchor::Verb(lo + i),
    })
}

/// The spans of the promising sentence `all[lo..hi]` (the whole message is there for the people
/// a pronoun stands for), in text order.
pub(crate) fn explain(all: &[Token<'_>], lo: usize, hi: usize, language: Language) -> Vec<Found> {
    let mut out = Vec::new();
    let span = |role: Role, (s, e): (usize, usize)| Found { role, start: all[s].start, end: all[e - 1].end };
    let anchor = find_anchor(all, lo, hi);
    if let Some(anchor) = anchor {
        let at = anchor.at();
        let t = &all[at];
        let (cs, ce) = clause_of(&all[lo..hi], at - lo);
        let clause = (lo + cs, lo + ce);
        // "I'll", "we'll", "someone'll": actor and deferral in one word.
        let contraction = t.form.ends_with("'ll") && t.tags & tag::FUT != 0;
        let written = t.end - t.start == t.form.len();
        if contraction {
            match t.form.find('\'').filter(|&a| written && a > 0) {
                Some(apostrophe) => {
                    out.push(Found { role: Role::Deferral, start: t.start + apostrophe, end: t.end })
                }
                // "ill", "theyll": the chat spelling is actor and deferral at once.
                None => out.push(span(Role::Deferral, (at, at + 1))),
            }
        } else if let Anchor::Future(_) = anchor {
            let end = if t.form == "going" && all.get(at + 1).is_some_and(|n| n.form == "to") {
                at + 2
            } else {
                at + 1
            };
            out.push(span(Role::Deferral, (at, end)));
        }
        let actor = if contraction {
            // "you'll get a call": the customer receives; who acts is not said.
            let pronoun = t.tags & (tag::SELF | tag::WE | tag::THIRD | tag::YOU) != 0;
            match (t.tags & tag::YOU != 0, pronoun) {
                (true, _) => None,
                (false, true) => Some((at, at + 1)),
                // "the housekeeping team'll": the phrase ending in the contraction.
                (false, false) => noun_phrase_before(all, lo, at + 1).or(Some((at, at + 1))),
            }
        } else if passive(all, at, hi) {
            agent(all, at, clause.1)
        } else {
            match anchor {
                Anchor::HandOver(i) => receiver(all, i, clause.1),
                _ => subject(all, lo, verb_group_start(all, lo, at), language),
            }
        };
        if let Some((s, e)) = actor {
            let pronoun = e == s + 1
                && (all[s].tags & tag::THIRD != 0 || is(all[s].form, RELATIVES))
                && !is_people(&all[s]);
            let (s, e) = pronoun.then(|| antecedent(all, s)).flatten().unwrap_or((s, e));
            let mut found = span(Role::Actor, (s, e));
            // "I'll", "I'm", "billing's gonna": the subject without its contraction.
            let last = &all[e - 1];
            let written = last.end - last.start == last.form.len();
            if let Some(apostrophe) = last.form.find('\'').filter(|&a| written && a > 0) {
                if ["'ll", "'s", "'m", "'re", "'ve", "'d"].contains(&&last.form[apostrophe..]) {
                    found.end = last.start + apostrophe;
                }
            }
            out.push(found);
        }
        if let Some(range) = action(all, anchor, clause.1) {
            out.push(span(Role::Action, range));
        }
    }
    out.extend(deferrals(&all[lo..hi], anchor.map(|a| a.at() - lo)));
    out.sort_by_key(|f| (f.start, f.end, f.role as u8));
    out.dedup();
    out
}

/// Time words and "when" clauses that put the action later: "tomorrow", "by Friday", "as soon
/// as", "assim que", "até sexta", "em até 10 dias úteis".
fn deferrals(tokens: &[Token<'_>], anchor: Option<usize>) -> Vec<Found> {
    const NOT_ALONE: &[&str] = &["back", "again", "mais", "volta", "after", "end", "as", "dentro", "e"];
    const OPENERS: &[&str] = &["by", "within", "em", "dentro", "end", "mais", "as", "in", "ate"];
    const JOINERS: &[&str] = &[
        "soon", "as", "que", "the", "of", "a", "o", "de", "do", "da", "this", "next", "day", "business",
        "working", "uteis", "dia", "possible", "possivel", "at", "in",
    ];
    const TRAILING: &[&str] = &["the", "of", "a", "o", "de", "do", "da", "at", "in"];
    const LONE: &[&str] = &[
        "week", "dias", "horas", "days", "hours", "semana", "minutes", "minutos", "ate", "by", "within", "em",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let later = t.kind != Kind::Punct
            && t.tags & (tag::LATER | tag::WHEN) != 0
            && t.tags & tag::FUT == 0
            && !is(t.form, NOT_ALONE)
            && Some(i) != anchor;
        let opens = is(t.form, OPENERS)
            && tokens.get(i + 1).is_some_and(|n| {
                n.tags & (tag::LATER | tag::NUMBER) != 0
                    || n.kind == Kind::Number
                    || (t.form == "as" && n.form == "soon")
            });
        if !(later || opens) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        while end < tokens.len() {
            let n = &tokens[end];
            let joins = (n.tags & (tag::LATER | tag::WHEN | tag::NUMBER) != 0 && n.tags & tag::FUT == 0)
                || n.kind == Kind::Number
                || is(n.form, JOINERS);
            if joins && n.kind != Kind::Punct {
                end += 1;
            } else {
                break;
            }
        }
        while end > start + 1 && is(tokens[end - 1].form, TRAILING) {
            end -= 1;
        }
        if !(end == start + 1 && is(t.form, LONE)) {
            out.push(Found { role: Role::Deferral, start: t.start, end: tokens[end - 1].end });
        }
        i = end;
    }
    out
}

/// Whether the commitment at `at` is passive: "will be reviewed", "gets checked", "vai ser
/// analisado", "será avaliado".
fn passive(all: &[Token<'_>], at: usize, hi: usize) -> bool {
    const IRREGULAR: &[&str] = &[
        "sent", "done", "seen", "given", "taken", "paid", "told", "sorted", "looked", "made", "held",
        "feito", "feita", "visto", "vista", "entregue", "pago", "paga", "aberto", "posto",
    ];
    const ENDINGS: &[&str] = &["ed", "ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas"];
    const BE: &[&str] =
        &["be", "get", "gets", "getting", "been", "being", "ser", "sera", "serao", "is", "are"];
    let participle = |t: &Token<'_>| {
        t.kind == Kind::Word
            && ((t.form.len() > 4 && ENDINGS.iter().any(|e| t.form.ends_with(e))) || is(t.form, IRREGULAR))
    };
    let be = |t: &Token<'_>| {
        is(t.form, BE) || (t.form.starts_with("se") && t.form.ends_with("ra") && t.accented_end)
    };
    let window = &all[at..hi.min(at + 4)];
    window.iter().enumerate().any(|(k, t)| be(t) && window.get(k + 1).is_some_and(participle))
}

/// The agent of a passive: the people after "by", "pelo", "pela" in the clause.
fn agent(all: &[Token<'_>], at: usize, end: usize) -> Option<(usize, usize)> {
    let by = (at + 1..end).find(|&i| is(all[i].form, &["by", "pelo", "pela", "pelos", "pelas"]))?;
    let head = (by + 1..end.min(by + 6)).find(|&i| is_people(&all[i]))?;
    Some(people_phrase(all, head, by + 1, end))
}

/// The people a pronoun at `all[pronoun]` stands for: the nearest people phrase before it, in its
/// sentence or the ones before.
fn antecedent(all: &[Token<'_>], pronoun: usize) -> Option<(usize, usize)> {
    let head = (pronoun.saturating_sub(40)..pronoun).rev().find(|&i| is_people(&all[i]))?;
    let lo = (0..head)
        .rev()
        .find(|&k| all[k].kind == Kind::Punct && matches!(all[k].form, "." | "!" | "?" | "\n"))
        .map_or(0, |k| k + 1);
    let (start, end) = people_phrase(all, head, lo, pronoun);
    Some((start, end))
}

/// The people a hand-over goes to: the phrase around the first people word after it.
fn receiver(all: &[Token<'_>], at: usize, end: usize) -> Option<(usize, usize)> {
    // The people after "to", "pro", "à" if there are any ("a cobrança ... à gerência"), else the
    // first people word.
    let after_to = (at + 1..end.min(at + 12)).find(|&k| is_outer_preposition(&all[k]));
    let head = after_to
        .and_then(|p| (p + 1..end.min(p + 6)).find(|&i| is_people(&all[i])))
        .or_else(|| (at + 1..end.min(at + 9)).find(|&i| is_people(&all[i])))?;
    let lo = (at + 1..head).rev().find(|&k| is_outer_preposition(&all[k])).map_or(at + 1, |k| k + 1);
    Some(people_phrase(all, head, lo, end))
}

/// The verb phrase after the anchor: from the first verb (with a clitic before it) to its
/// object, stopping at a time, a clause break or four words.
fn action(all: &[Token<'_>], anchor: Anchor, end: usize) -> Option<(usize, usize)> {
    const STOPS: &[&str] = &[
        "and", "e", "but", "mas", "so", "if", "se", "by", "within", "em", "ate", "on", "at", "in", "na",
        "no", "pelo", "pela", "por", "about", "sobre", "for", "pra", "with", "com", "n",
    ];
    let at = anchor.at();
    let start = match anchor {
        Anchor::Future(_) => {
            let from = if all[at].form == "going" { at + 2 } else { at + 1 };
            let verb = (from..end.min(from + 4))
                .find(|&i| all[i].tags & (tag::ACT | tag::HAND) != 0 && all[i].tags & tag::FUT == 0)
                .or_else(|| {
                    (from..end.min(from + 3)).find(|&i| {
                        all[i].kind == Kind::Word
                            && all[i].tags & (tag::YOU | tag::LATER) == 0
                            && !is(all[i].form, VERB_GROUP)
                    })
                });
            match verb {
                Some(v) if v > from && matches!(all[v - 1].form, "te" | "lhe" | "me" | "se") => v - 1,
                Some(v) => v,
                // "entrará em contato", "enviarei": the marker is the verb.
                None if all[at].tags & tag::ACT != 0 || all[at].form.len() > 5 => at,
                None => return None,
            }
        }
        _ if at > 0 && matches!(all[at - 1].form, "te" | "lhe") => at - 1,
        _ => at,
    };
    let mut stop = start + 1;
    let limit = end.min(start + 4);
    while stop < limit {
        let t = &all[stop];
        // A hand-over's action ends where the people it goes to begin ("passing this | to ...").
        let to_people = matches!(anchor, Anchor::HandOver(_)) && is_outer_preposition(t);
        if t.kind != Kind::Word
            || t.tags & (tag::LATER | tag::WHEN | tag::FUT) != 0
            || is(t.form, STOPS)
            || to_people
        {
            break;
        }
        stop += 1;
    }
    Some((start, stop))
}
