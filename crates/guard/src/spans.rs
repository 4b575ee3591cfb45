//! The spans that explain a promise: in the sentence the model found promising, who will act
//! (`actor`), what puts it later (`deferral`: "will", "vai", "amanhã", "as soon as"), and what
//! they will do (`action`: "call you", "te retornar").
//!
//! The spans are read off the sentence's structure with the same word classes the model's
//! structural features use. The *anchor* is the word that carries the commitment: a future
//! marker before a follow-up verb, a hand-over, a present-tense follow-up with a time, outside
//! any "when ..." clause and not negated or offered. The actor is the noun phrase just before
//! the anchor's verb group (with its apposition: "Dev, our street scene supervisor"), or for a
//! hand-over the people it goes to; the action is the verb phrase after the anchor.

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

/// Determiners and prepositions that may sit inside a noun phrase naming people ("Daniel on
/// our disputes team", "a analista de sinistros").
fn is_glue(form: &str) -> bool {
    matches!(
        form,
        "the"
            | "a"
            | "an"
            | "our"
            | "my"
            | "your"
            | "from"
            | "of"
            | "on"
            | "in"
            | "at"
            | "one"
            | "some"
            | "o"
            | "os"
            | "as"
            | "um"
            | "uma"
            | "nosso"
            | "nossa"
            | "nossos"
            | "nossas"
            | "da"
            | "do"
            | "de"
            | "dos"
            | "das"
            | "na"
            | "no"
            | "nas"
            | "sua"
            | "seu"
            | "meu"
            | "minha"
            | "senior"
            | "head"
    )
}

/// Words that open a phrase but never belong to its people: prepositions a phrase may follow.
fn is_leading_preposition(form: &str) -> bool {
    matches!(
        form,
        "from"
            | "of"
            | "on"
            | "in"
            | "at"
            | "to"
            | "with"
            | "by"
            | "de"
            | "da"
            | "do"
            | "dos"
            | "das"
            | "pro"
            | "pra"
            | "ao"
            | "aos"
            | "pros"
            | "pras"
            | "com"
            | "pelo"
            | "pela"
            | "para"
    )
}

/// Words between a subject and its verb: adverbs, clitics, auxiliaries ("will personally",
/// "também vai", "te liga", "is coming").
fn is_verb_group(t: &Token<'_>) -> bool {
    matches!(
        t.form,
        "also"
            | "just"
            | "personally"
            | "definitely"
            | "probably"
            | "then"
            | "still"
            | "really"
            | "directly"
            | "ja"
            | "tambem"
            | "logo"
            | "mesmo"
            | "pessoalmente"
            | "provavelmente"
            | "certamente"
            | "entao"
            | "te"
            | "lhe"
            | "me"
            | "se"
            | "is"
            | "are"
            | "am"
            | "be"
            | "will"
            | "shall"
            | "should"
            | "ainda"
            | "so"
            | "hoje"
            | "amanha"
            | "already"
            | "both"
    ) || t.tags & tag::FUT != 0
}

/// Words that end a subject noun phrase on its left: discourse markers and greetings.
fn is_discourse(form: &str) -> bool {
    matches!(
        form,
        "hi" | "hey"
            | "hiya"
            | "hello"
            | "ok"
            | "okay"
            | "yes"
            | "yeah"
            | "right"
            | "great"
            | "so"
            | "well"
            | "oi"
            | "ola"
            | "opa"
            | "entao"
            | "bom"
            | "sim"
            | "certo"
            | "pronto"
            | "that"
            | "que"
            | "who"
            | "which"
            | "thanks"
            | "obrigado"
            | "please"
            | "because"
            | "porque"
            | "good"
            | "news"
            | "aqui"
            | "here"
            | "now"
            | "agora"
            | "and"
            | "e"
            | "but"
            | "mas"
            | "or"
            | "ou"
            | "also"
            | "tambem"
            | "dear"
            | "prezado"
            | "prezada"
            | "meanwhile"
            | "anyway"
            | "alright"
            | "sure"
            | "claro"
            | "perfeito"
            | "otimo"
            | "beleza"
            | "poxa"
    )
}

/// Whether `tokens[i]` can be part of a noun phrase naming people.
fn is_np(tokens: &[Token<'_>], i: usize) -> bool {
    let t = &tokens[i];
    if t.kind != Kind::Word || is_discourse(t.form) {
        return t.form == "." && !t.spaced && i > 0 && tokens[i - 1].tags & tag::TITLE != 0
            || (t.form == "." && i > 0 && tokens[i - 1].tags & tag::TITLE != 0);
    }
    if is_glue(t.form) || t.tags & (tag::PERSON | tag::NAME | tag::TITLE) != 0 {
        return true;
    }
    let blocking = tag::FUT
        | tag::NEG
        | tag::CAN
        | tag::PAST
        | tag::OFFER
        | tag::LATER
        | tag::WHEN
        | tag::BREAK
        | tag::ASK
        | tag::NOW
        | tag::QUESTION
        | tag::YOU
        | tag::SELF
        | tag::WE
        | tag::THIRD
        | tag::AUTO;
    if t.tags & blocking != 0 {
        return false;
    }
    // A verb-looking word right after a determiner or preposition is a noun ("o setor de entregas").
    if t.tags & (tag::ACT | tag::HAND) != 0 {
        return i > 0 && is_glue(tokens[i - 1].form);
    }
    true
}

/// The subject noun phrase ending just before `end` (exclusive), as a token range.
fn noun_phrase_before(tokens: &[Token<'_>], end: usize) -> Option<(usize, usize)> {
    let mut start = end;
    while start > 0 && end - start < 9 && is_np(tokens, start - 1) {
        start -= 1;
    }
    while start < end && (is_leading_preposition(tokens[start].form) || tokens[start].form == ".") {
        start += 1;
    }
    (start < end && tokens[start..end].iter().any(|t| t.kind == Kind::Word)).then_some((start, end))
}

/// The people a noun phrase names must include a word that could be one: a people word, a name,
/// or a noun after a determiner ("our sommelier"), not a lone preposition or article.
fn names_people(tokens: &[Token<'_>], (start, end): (usize, usize)) -> bool {
    let words: Vec<&Token<'_>> = tokens[start..end].iter().filter(|t| t.kind == Kind::Word).collect();
    !words.is_empty() && !(words.len() == 1 && is_glue(words[0].form))
}

/// A pronoun standing alone as a subject: "I", "eu", "we", "nós", "a gente", "ele".
fn pronoun_subject(tokens: &[Token<'_>], end: usize) -> Option<(usize, usize)> {
    let i = end.checked_sub(1)?;
    let t = &tokens[i];
    if matches!(t.form, "who" | "who's" | "which" | "que" | "quem") {
        return Some((i, end));
    }
    if t.kind != Kind::Word || t.tags & (tag::SELF | tag::WE | tag::THIRD) == 0 {
        return None;
    }
    if matches!(
        t.form,
        "me" | "my"
            | "our"
            | "nossa"
            | "nosso"
            | "meu"
            | "minha"
            | "us"
            | "them"
            | "him"
            | "her"
            | "comigo"
            | "mim"
    ) {
        return None;
    }
    if t.form == "gente" && i > 0 && tokens[i - 1].form == "a" {
        return Some((i - 1, end));
    }
    Some((i, end))
}

/// The subject of the verb group starting at `verb`: a pronoun, a noun phrase, or a noun phrase
/// with an apposition or relative clause between commas ("Grace Mbeki, who's handling your
/// claim, will call").
fn subject(tokens: &[Token<'_>], verb: usize) -> Option<(usize, usize)> {
    if let Some(p) = pronoun_subject(tokens, verb) {
        return Some(p);
    }
    if let Some(np) = noun_phrase_before(tokens, verb).filter(|np| names_people(tokens, *np)) {
        // "A Patrícia, da recepção, vai": the apposition is the end of a longer phrase.
        return Some(with_apposition(tokens, np).unwrap_or(np));
    }
    // "X, who ..., will": skip the comma-delimited segment.
    if verb >= 2 && tokens[verb - 1].form == "," {
        let open = tokens[..verb - 1].iter().rposition(|t| t.form == ",")?;
        let segment = &tokens[open + 1..verb - 1];
        let first = segment.first()?.form;
        let head = noun_phrase_before(tokens, open).filter(|np| names_people(tokens, *np))?;
        if matches!(first, "who" | "who's" | "que" | "which" | "quem") {
            return Some(head);
        }
        if is_glue(first) || segment.iter().all(|t| t.kind == Kind::Word && is_np_like(t)) {
            return Some((head.0, verb - 1));
        }
    }
    None
}

fn is_np_like(t: &Token<'_>) -> bool {
    t.tags & (tag::FUT | tag::NEG | tag::LATER | tag::WHEN | tag::BREAK) == 0
}

/// "Dev, our street scene supervisor" when the phrase found is the apposition after a name.
fn with_apposition(tokens: &[Token<'_>], (start, end): (usize, usize)) -> Option<(usize, usize)> {
    if start < 2 || tokens[start - 1].form != "," || !is_glue(tokens[start].form) {
        return None;
    }
    let head = noun_phrase_before(tokens, start - 1)?;
    let is_name = tokens[head.0..head.1].iter().any(|t| t.tags & (tag::NAME | tag::TITLE) != 0);
    is_name.then_some((head.0, end))
}

/// Where the verb group that holds `anchor` starts (adverbs, clitics and auxiliaries before it).
fn verb_group_start(tokens: &[Token<'_>], anchor: usize) -> usize {
    let mut j = anchor;
    while j > 0
        && is_verb_group(&tokens[j - 1])
        && tokens[j - 1].tags & (tag::SELF | tag::WE | tag::THIRD) == 0
    {
        j -= 1;
    }
    j
}

/// The token that carries the commitment, and how it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// A future marker before a follow-up verb: "will call", "vai te ligar".
    Future(usize),
    /// A hand-over: "passing this to", "encaminhei pro".
    HandOver(usize),
    /// Any other follow-up verb: "te liga amanhã", "the technician comes by".
    Verb(usize),
}

impl Anchor {
    fn at(self) -> usize {
        match self {
            Anchor::Future(i) | Anchor::HandOver(i) | Anchor::Verb(i) => i,
        }
    }
}

/// The anchor: the best-rated candidate, the first one on a tie.
fn find_anchor(tokens: &[Token<'_>]) -> Option<Anchor> {
    let gates = gates(tokens);
    let mut best: Option<(i32, Anchor)> = None;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Word {
            continue;
        }
        let (cs, ce) = clause_of(tokens, i);
        let ahead = &tokens[i + 1..ce.min(i + 5).max(i + 1)];
        let follow_up = ahead.iter().any(|t| t.tags & (tag::ACT | tag::HAND) != 0);
        let (mut rating, anchor) = if t.tags & tag::FUT != 0 && t.form != "me" {
            (if follow_up { 6 } else { 4 }, Anchor::Future(i))
        } else if t.tags & tag::HAND != 0 {
            let to_people = receiver(tokens, i, ce).is_some();
            let committed =
                tokens[cs..i].iter().rev().take(3).any(|t| t.tags & (tag::FUT | tag::SELF | tag::WE) != 0);
            (if to_people { 5 + 2 * i32::from(committed) } else { 1 }, Anchor::HandOver(i))
        } else if t.tags & tag::PROG != 0 {
            (5, Anchor::Verb(i))
        } else if t.tags & tag::ACT != 0 && t.tags & (tag::PERSON | tag::NAME) == 0 {
            let timed = tokens[cs..ce].iter().any(|t| t.tags & (tag::LATER | tag::WHEN) != 0);
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
        // A verb inside a "when ..." clause is the event waited for, not the promise.
        if tokens[cs..i].iter().any(|t| t.tags & tag::WHEN != 0) && t.tags & tag::FUT == 0 {
            rating -= 3;
        }
        if gates[i] & (NEGATED | OFFERED) != 0 || t.tags & (tag::NEG | tag::PAST) != 0 {
            rating -= 4;
        }
        if best.is_none_or(|(r, _)| rating > r) {
            best = Some((rating, anchor));
        }
    }
    best.map(|(_, a)| a)
}

/// The spans of the promising sentence `all[from..to]` (the whole message is there for the
/// people a pronoun stands for), in text order.
pub(crate) fn explain(all: &[Token<'_>], from: usize, to: usize) -> Vec<Found> {
    let tokens = &all[from..to];
    let mut out = Vec::new();
    let span =
        |role: Role, (s, e): (usize, usize)| Found { role, start: tokens[s].start, end: tokens[e - 1].end };
    let anchor = find_anchor(tokens);
    if let Some(anchor) = anchor {
        let at = anchor.at();
        let t = &tokens[at];
        let clause = clause_of(tokens, at);
        // "I'll", "we'll", "someone'll": actor and deferral in one word.
        let contraction = t.form.ends_with("'ll") && t.tags & tag::FUT != 0;
        let written_with_apostrophe = t.end - t.start == t.form.len();
        if contraction {
            match t.form.find('\'').filter(|&a| written_with_apostrophe && a > 0) {
                Some(apostrophe) => {
                    out.push(Found { role: Role::Deferral, start: t.start + apostrophe, end: t.end })
                }
                // "ill", "youll": the chat spelling is both actor and deferral.
                None => out.push(span(Role::Deferral, (at, at + 1))),
            }
        } else if let Anchor::Future(_) = anchor {
            let end = if t.form == "going" && tokens.get(at + 1).is_some_and(|n| n.form == "to") {
                at + 2
            } else {
                at + 1
            };
            out.push(span(Role::Deferral, (at, end)));
        }
        let actor = if contraction {
            Some((at, at + 1))
        } else if passive(tokens, at) {
            agent(tokens, at, clause.1)
        } else {
            match anchor {
                Anchor::HandOver(i) => receiver(tokens, i, clause.1),
                _ => subject(tokens, verb_group_start(tokens, at)),
            }
        };
        if let Some((s, e)) = actor {
            // A pronoun stands for the people named before it ("passing this to the night manager,
            // she'll call you").
            let relative = matches!(tokens[s].form, "who" | "who's" | "who'll" | "que" | "quem" | "which");
            let resolved = if e == s + 1
                && (tokens[s].tags & tag::THIRD != 0 || relative)
                && tokens[s].tags & tag::PERSON == 0
            {
                antecedent(all, from + s)
                    .map(|(a, b)| (a as isize - from as isize, b as isize - from as isize))
            } else {
                None
            };
            let mut found = match resolved {
                Some((a, b)) => Found {
                    role: Role::Actor,
                    start: all[(from as isize + a) as usize].start,
                    end: all[(from as isize + b) as usize - 1].end,
                },
                None => span(Role::Actor, (s, e)),
            };
            let last = if resolved.is_some() { None } else { Some(&tokens[e - 1]) };
            if let Some(last) = last {
                let written = last.end - last.start == last.form.len();
                if contraction && written {
                    // "I'll" → "I".
                    found.end = last.start + last.form.find('\'').unwrap_or(last.form.len());
                } else if last.form.ends_with("'s") && written {
                    // "billing's gonna": the subject without its "'s".
                    found.end -= 2;
                }
            }
            out.push(found);
        }
        if let Some(range) = action(tokens, anchor, clause.1) {
            out.push(span(Role::Action, range));
        }
    }
    out.extend(deferrals(tokens, anchor.map(Anchor::at)));
    out.sort_by_key(|f| (f.start, f.end, f.role as u8));
    out.dedup();
    out
}

/// Time words and "when" clauses that put the action later: "tomorrow", "by Friday", "as soon
/// as", "assim que", "até sexta", "em até 10 dias úteis".
fn deferrals(tokens: &[Token<'_>], anchor: Option<usize>) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let later = t.kind != Kind::Punct
            && t.tags & (tag::LATER | tag::WHEN) != 0
            && t.tags & tag::FUT == 0
            && !matches!(t.form, "back" | "again" | "mais" | "volta" | "after" | "end" | "as" | "dentro")
            && Some(i) != anchor;
        let opens =
            matches!(t.form, "by" | "within" | "em" | "dentro" | "end" | "mais" | "as" | "in" | "ate")
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
                || matches!(
                    n.form,
                    "soon"
                        | "as"
                        | "que"
                        | "the"
                        | "of"
                        | "a"
                        | "o"
                        | "de"
                        | "do"
                        | "da"
                        | "this"
                        | "next"
                        | "day"
                        | "business"
                        | "working"
                        | "uteis"
                        | "dia"
                        | "possible"
                        | "possivel"
                        | "at"
                        | "in"
                );
            if joins && n.kind != Kind::Punct {
                end += 1;
            } else {
                break;
            }
        }
        while end > start + 1
            && matches!(tokens[end - 1].form, "the" | "of" | "a" | "o" | "de" | "do" | "da" | "at" | "in")
        {
            end -= 1;
        }
        let lone = end == start + 1
            && matches!(
                t.form,
                "when"
                    | "quando"
                    | "week"
                    | "dias"
                    | "horas"
                    | "days"
                    | "hours"
                    | "semana"
                    | "minutes"
                    | "minutos"
                    | "ate"
                    | "by"
                    | "within"
                    | "em"
            );
        if !lone {
            out.push(Found { role: Role::Deferral, start: t.start, end: tokens[end - 1].end });
        }
        i = end;
    }
    out
}

/// Whether the commitment at `at` is passive: "will be reviewed", "gets checked", "vai ser
/// analisado", "será avaliado".
fn passive(tokens: &[Token<'_>], at: usize) -> bool {
    let participle = |t: &Token<'_>| {
        let w = t.form;
        t.kind == Kind::Word
            && (w.len() > 4
                && (w.ends_with("ed")
                    || w.ends_with("ado")
                    || w.ends_with("ada")
                    || w.ends_with("ados")
                    || w.ends_with("adas")
                    || w.ends_with("ido")
                    || w.ends_with("ida")
                    || w.ends_with("idos")
                    || w.ends_with("idas"))
                || matches!(
                    w,
                    "sent"
                        | "done"
                        | "seen"
                        | "given"
                        | "taken"
                        | "paid"
                        | "told"
                        | "sorted"
                        | "looked"
                        | "made"
                        | "held"
                        | "feito"
                        | "feita"
                        | "visto"
                        | "vista"
                        | "entregue"
                        | "pago"
                        | "paga"
                        | "aberto"
                        | "posto"
                ))
    };
    let be = |t: &Token<'_>| {
        matches!(
            t.form,
            "be" | "get" | "gets" | "getting" | "been" | "being" | "ser" | "sera" | "serao" | "is" | "are"
        ) || (t.form.ends_with("ra") && t.accented_end && t.form.starts_with("se"))
    };
    let window = &tokens[at..tokens.len().min(at + 4)];
    window.iter().enumerate().any(|(k, t)| be(t) && window.get(k + 1).is_some_and(participle))
}

/// The agent of a passive: the people after "by", "pelo", "pela" in the clause.
fn agent(tokens: &[Token<'_>], at: usize, end: usize) -> Option<(usize, usize)> {
    let by = (at + 1..end).find(|&i| matches!(tokens[i].form, "by" | "pelo" | "pela" | "pelos" | "pelas"))?;
    let mut stop = by + 1;
    while stop < end && stop < by + 8 && is_np(tokens, stop) {
        stop += 1;
    }
    let range = (by + 1, stop);
    (stop > by + 1 && names_people(tokens, range)).then_some(range)
}

/// The people a pronoun at `all[pronoun]` stands for: the nearest people phrase before it, in
/// its sentence or the one before.
fn antecedent(all: &[Token<'_>], pronoun: usize) -> Option<(usize, usize)> {
    let head = (pronoun.saturating_sub(40)..pronoun).rev().find(|&i| {
        let t = &all[i];
        t.kind == Kind::Word
            && t.tags & (tag::PERSON | tag::NAME) != 0
            && t.tags & tag::AUTO == 0
            && is_np(all, i)
    })?;
    let mut start = head;
    while start > 0
        && head - start < 6
        && is_np(all, start - 1)
        && !is_leading_preposition(all[start - 1].form)
    {
        start -= 1;
    }
    if all[start].form == "a" && all[start].accented_end && start < head {
        start += 1;
    }
    let mut stop = head + 1;
    while stop < pronoun && stop < head + 5 {
        let t = &all[stop];
        let glued =
            is_glue(t.form) && stop + 1 < pronoun && is_np(all, stop + 1) && all[stop + 1].kind == Kind::Word;
        if t.tags & (tag::PERSON | tag::NAME) != 0 && is_np(all, stop) {
            stop += 1;
        } else if glued {
            stop += 2;
        } else {
            break;
        }
    }
    Some((start, stop))
}

/// The people a hand-over goes to: the noun phrase after the first people word that follows it.
fn receiver(tokens: &[Token<'_>], at: usize, end: usize) -> Option<(usize, usize)> {
    let head = (at + 1..end.min(at + 9))
        .find(|&i| tokens[i].tags & (tag::PERSON | tag::NAME) != 0 && tokens[i].tags & tag::AUTO == 0)?;
    let mut stop = head + 1;
    while stop < end && stop < head + 5 {
        let t = &tokens[stop];
        let people = t.tags & (tag::PERSON | tag::NAME) != 0;
        let glued = is_glue(t.form)
            && tokens.get(stop + 1).is_some_and(|n| n.kind == Kind::Word && is_np(tokens, stop + 1));
        if people
            || glued
            || (t.kind == Kind::Word
                && is_np(tokens, stop)
                && t.tags & (tag::ACT | tag::HAND) == 0
                && stop > head
                && is_glue(tokens[stop - 1].form))
        {
            stop += 1;
        } else {
            break;
        }
    }
    let mut start = head;
    while start > at + 1 && is_np(tokens, start - 1) && !is_leading_preposition(tokens[start - 1].form) {
        start -= 1;
    }
    // "à Ouvidoria" (accented) is "to the", not part of the name.
    if tokens[start].form == "a" && tokens[start].accented_end && start < head {
        start += 1;
    }
    Some((start, stop))
}

/// The verb phrase after the anchor: from the first verb (with a clitic before it) to its object,
/// stopping at a time, a clause break or four words.
fn action(tokens: &[Token<'_>], anchor: Anchor, end: usize) -> Option<(usize, usize)> {
    let at = anchor.at();
    let start = match anchor {
        Anchor::Future(_) => {
            let from = if tokens[at].form == "going" { at + 2 } else { at + 1 };
            let verb = (from..end.min(from + 4))
                .find(|&i| tokens[i].tags & (tag::ACT | tag::HAND) != 0 && tokens[i].tags & tag::FUT == 0)
                .or_else(|| {
                    (from..end.min(from + 3)).find(|&i| {
                        tokens[i].kind == Kind::Word
                            && tokens[i].tags & (tag::YOU | tag::LATER) == 0
                            && !is_verb_group(&tokens[i])
                    })
                });
            match verb {
                Some(v) if v > from && matches!(tokens[v - 1].form, "te" | "lhe" | "me" | "se") => v - 1,
                Some(v) => v,
                // "entrará em contato", "I'll": the marker is the verb.
                None if tokens[at].tags & tag::ACT != 0 || tokens[at].form.len() > 5 => at,
                None => return None,
            }
        }
        _ if at > 0 && matches!(tokens[at - 1].form, "te" | "lhe") => at - 1,
        _ => at,
    };
    let mut stop = start + 1;
    let limit = end.min(start + 4);
    while stop < limit {
        let t = &tokens[stop];
        if t.kind != Kind::Word
            || t.tags & (tag::LATER | tag::WHEN | tag::FUT) != 0
            || matches!(
                t.form,
                "and"
                    | "e"
                    | "but"
                    | "mas"
                    | "so"
                    | "if"
                    | "se"
                    | "by"
                    | "within"
                    | "em"
                    | "ate"
                    | "on"
                    | "at"
                    | "in"
                    | "na"
                    | "no"
                    | "pelo"
                    | "pela"
                    | "por"
                    | "about"
                    | "sobre"
                    | "for"
                    | "pra"
                    | "with"
                    | "com"
            )
        {
            break;
        }
        stop += 1;
    }
    Some((start, stop))
}
