//! Tokens and sentences of a normalised message, with chat spellings folded to one form and
//! every word tagged with the closed word classes the detector reasons with (future markers,
//! pronouns, negations, offers, ...).
//!
//! The word classes are grammar, not promise phrases: they say that "vai" and "gonna" mark the
//! future and that "te" and "u" mean the customer, never that "vai te ligar" is a promise.

use crate::detect::Language;
use crate::normalize::Normalized;

/// What a token is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Word,
    Number,
    /// `.`, `,`, `!`, `?`, `;`, `:`, `(`, `)`, `"`, `-`, `/`, and a line break as `\n`.
    Punct,
    /// Anything else: emoji, currency signs, `#`, `@`.
    Symbol,
}

/// One token of normalised text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    /// The canonical form: chat spellings folded ("vc" is `voce`, "u" is `you`), digits as `0`
    /// for numbers (`0h`, `0:0`).
    pub form: &'a str,
    /// Byte range in the normalised text.
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
    /// Word classes (`tag::*` bits).
    pub tags: u32,
    /// Written with a capital letter in the original message.
    pub capital: bool,
    /// Followed by whitespace or the end of the text (for punctuation: a real sentence end).
    pub spaced: bool,
    /// Its last letter carries an accent in the original ("será", "entrará", "irão").
    pub accented_end: bool,
}

/// Word classes, as bits.
pub(crate) mod tag {
    /// Marks the future or a commitment: will, 'll, gonna, shall, vai, vou, irá, -rei, -rá.
    pub const FUT: u32 = 1 << 0;
    /// Puts an action later: tomorrow, later, soon, amanhã, depois, weekdays, until/até.
    pub const LATER: u32 = 1 << 1;
    /// Starts a clause about a future event: as soon as, once, when, assim que, quando.
    pub const WHEN: u32 = 1 << 2;
    /// The assistant itself: I, I'll, eu, me, my.
    pub const SELF: u32 = 1 << 3;
    /// The company: we, our, us, nós, a gente, nosso.
    pub const WE: u32 = 1 << 4;
    /// The customer: you, u, te, você, lhe.
    pub const YOU: u32 = 1 << 5;
    /// A third party already named: he, she, they, who, ele, ela, eles.
    pub const THIRD: u32 = 1 << 6;
    /// People and teams: team, manager, technician, someone, equipe, setor, alguém, ...
    pub const PERSON: u32 = 1 << 7;
    /// A title before a name: Dr, Ms, Sr, Sra, dona.
    pub const TITLE: u32 = 1 << 8;
    /// Verbs of follow-up: call, contact, reply, review, ligar, retornar, avisar, ...
    pub const ACT: u32 = 1 << 9;
    /// Negation: not, no, never, nobody, won't, não, ninguém, nunca, nem.
    pub const NEG: u32 = 1 << 10;
    /// Offer or condition on the customer's wish: if, would, could, want, se, caso, quer, posso.
    pub const OFFER: u32 = 1 << 11;
    /// The past: already, yesterday, ago, was, já, ontem, foi, and past verb endings.
    pub const PAST: u32 = 1 << 12;
    /// Machines: automatic, system, app, sistema, robô.
    pub const AUTO: u32 = 1 << 13;
    /// Ability or permission: can, may, pode, consegue.
    pub const CAN: u32 = 1 << 14;
    /// Passing to someone else: forward, pass, escalate, transfer, encaminhar, repassar.
    pub const HAND: u32 = 1 << 15;
    /// Now, in this message: now, here, below, attached, agora, aqui, segue.
    pub const NOW: u32 = 1 << 16;
    /// A question mark.
    pub const QUESTION: u32 = 1 << 17;
    /// A capitalised word inside a sentence: most likely a name.
    pub const NAME: u32 = 1 << 18;
    /// Ask the customer: please, could you, send me, me passa, informe.
    pub const ASK: u32 = 1 << 19;
    /// A clause break: comma, colon, dash, semicolon, and, but, e, mas.
    pub const BREAK: u32 = 1 << 20;
    /// An arrangement in the present progressive: "is coming", "'s visiting", "are sending".
    pub const PROG: u32 = 1 << 21;
    /// A number written as a word: "five", "a couple", "cinco" (before a unit of time).
    pub const NUMBER: u32 = 1 << 22;

    /// Every class with its feature name, in a fixed order.
    pub const NAMES: [(u32, &str); 23] = [
        (FUT, "FUT"),
        (LATER, "LATER"),
        (WHEN, "WHEN"),
        (SELF, "SELF"),
        (WE, "WE"),
        (YOU, "YOU"),
        (THIRD, "THIRD"),
        (PERSON, "PERSON"),
        (TITLE, "TITLE"),
        (ACT, "ACT"),
        (NEG, "NEG"),
        (OFFER, "OFFER"),
        (PAST, "PAST"),
        (AUTO, "AUTO"),
        (CAN, "CAN"),
        (HAND, "HAND"),
        (NOW, "NOW"),
        (QUESTION, "Q"),
        (NAME, "NAME"),
        (ASK, "ASK"),
        (BREAK, "BREAK"),
        (PROG, "PROG"),
        (NUMBER, "NUMBER"),
    ];
}

/// Splits normalised text into tokens; `original` is the message as written (for capitals).
pub(crate) fn tokenize<'a>(norm: &'a Normalized, original: &str, language: Language) -> Vec<Token<'a>> {
    let text = norm.text.as_str();
    let bytes = text.as_bytes();
    let mut tokens: Vec<Token<'a>> = Vec::with_capacity(text.len() / 4);
    let mut chars = text.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        if ch == ' ' {
            continue;
        }
        if ch.is_alphanumeric() {
            let mut end = at + ch.len_utf8();
            let mut digits = ch.is_ascii_digit();
            let mut letters = !digits;
            while let Some(&(next_at, next)) = chars.peek() {
                let joins = matches!(next, '\'' | '-' | '.' | ':' | ',')
                    && text[next_at + 1..].chars().next().is_some_and(|c| {
                        c.is_alphanumeric() && (next == '\'' || next == '-' || (digits && c.is_ascii_digit()))
                    });
                if next.is_alphanumeric() || joins {
                    digits |= next.is_ascii_digit();
                    letters |= next.is_alphabetic();
                    end = next_at + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            // "c/" and "p/": Portuguese chat for "com" and "para".
            if end == at + 1 && matches!(ch, 'c' | 'p') && bytes.get(end) == Some(&b'/') {
                chars.next();
                end += 1;
            }
            let raw = &text[at..end];
            let (form, kind) = if digits && !letters {
                (number_shape(raw), Kind::Number)
            } else if digits {
                (mixed_shape(raw), Kind::Word)
            } else {
                (fold(raw, language), Kind::Word)
            };
            let capital = original_starts_upper(norm, original, at);
            let accented_end = original_ends_accented(norm, original, end);
            tokens.push(Token {
                form,
                start: at,
                end,
                kind,
                tags: 0,
                capital,
                spaced: spaced(bytes, end),
                accented_end,
            });
            continue;
        }
        let end = at + ch.len_utf8();
        let (form, kind) = match ch {
            '\n' => ("\n", Kind::Punct),
            '.' | '\u{2026}' => (".", Kind::Punct),
            ',' => (",", Kind::Punct),
            '!' => ("!", Kind::Punct),
            '?' => ("?", Kind::Punct),
            ';' => (";", Kind::Punct),
            ':' => (":", Kind::Punct),
            '(' | '[' => ("(", Kind::Punct),
            ')' | ']' => (")", Kind::Punct),
            '"' | '\'' => ("\"", Kind::Punct),
            '-' => ("-", Kind::Punct),
            '/' => ("/", Kind::Punct),
            '#' => ("#", Kind::Symbol),
            '$' | '\u{20ac}' | '\u{a3}' => ("$", Kind::Symbol),
            '%' => ("%", Kind::Symbol),
            '@' => ("@", Kind::Symbol),
            '+' | '&' | '*' | '=' | '>' | '<' | '_' | '~' | '^' | '|' | '\\' => ("+", Kind::Symbol),
            _ => ("<emo>", Kind::Symbol),
        };
        tokens.push(Token {
            form,
            start: at,
            end,
            kind,
            tags: 0,
            capital: false,
            spaced: spaced(bytes, end),
            accented_end: false,
        });
    }
    for i in 0..tokens.len() {
        tokens[i].tags = tags_of(&tokens, i, language);
    }
    tokens
}

fn spaced(bytes: &[u8], end: usize) -> bool {
    matches!(bytes.get(end), None | Some(b' ' | b'\n'))
}

fn original_ends_accented(norm: &Normalized, original: &str, end: usize) -> bool {
    let from = norm.origin_start(end - 1);
    original[from..].chars().next().is_some_and(|c| "áéíóúâêôãõàÁÉÍÓÚÂÊÔÃÕÀ".contains(c))
        || original[from..].chars().nth(1).is_some_and(|c| ('\u{300}'..='\u{36f}').contains(&c))
}

fn original_starts_upper(norm: &Normalized, original: &str, at: usize) -> bool {
    let from = norm.origin_start(at);
    original[from..].chars().next().is_some_and(char::is_uppercase)
}

/// Digits become `0`: "15h" and "9h" look alike, and so do "10:30" and "9:15".
fn number_shape(raw: &str) -> &'static str {
    if raw.contains(':') {
        "0:0"
    } else if raw.contains([',', '.']) {
        "0.0"
    } else if raw.len() >= 5 {
        "00000"
    } else {
        "0"
    }
}

fn mixed_shape(raw: &str) -> &'static str {
    match raw {
        "l8r" | "l8er" => "later",
        "2moro" | "2morrow" | "2mrw" | "2day" => {
            if raw == "2day" {
                "today"
            } else {
                "tomorrow"
            }
        }
        "some1" | "sum1" => "someone",
        "any1" => "anyone",
        "no1" => "nobody",
        "b4" => "before",
        "gr8" => "great",
        "2nite" => "tonight",
        _ => {
            let letters: String = raw.chars().filter(|c| c.is_alphabetic()).collect();
            match letters.as_str() {
                "h" | "hs" | "hrs" | "hr" => "0h",
                "am" | "pm" => "0am",
                "min" | "mins" => "0min",
                "st" | "nd" | "rd" | "th" | "o" | "a" => "0th",
                "k" => "0k",
                "x" => "0x",
                "gb" | "mb" | "mega" => "0gb",
                "kg" | "g" | "ml" | "mg" | "km" | "m" | "cm" => "0kg",
                _ => "0w",
            }
        }
    }
}

/// The one spelling of a word the detector uses: chat abbreviations and contractions without
/// apostrophes folded to their full form ("vc" → `voce`, "ill" → `i'll`, "u" → `you`).
pub(crate) fn fold(raw: &str, language: Language) -> &str {
    let shared = match raw {
        "pls" | "plz" | "pfv" | "pf" => Some("please"),
        "msg" | "msgs" | "mensagem" => Some("msg"),
        "ok" | "okay" | "okey" | "okk" | "oki" | "blz" | "beleza" => Some("ok"),
        "whats" | "zap" | "wpp" | "wapp" | "whatsapp" | "wa" => Some("whatsapp"),
        "email" | "e-mail" | "emails" | "e-mails" | "mail" => Some("email"),
        "dr" | "dra" | "doctor" | "doutor" | "doutora" => Some("dr"),
        _ => None,
    };
    if let Some(form) = shared {
        return form;
    }
    match language {
        Language::PtBr => match raw {
            "vc" | "vcs" | "ce" | "oce" | "voces" | "vcê" => "voce",
            "t" => "te",
            "q" | "oq" => "que",
            "pq" | "pk" | "porq" => "porque",
            "tb" | "tbm" | "tmb" => "tambem",
            "hj" | "hje" => "hoje",
            "amanha" | "amnh" | "amn" | "amh" => "amanha",
            "vo" | "vô" => "vou",
            "ta" | "tah" | "tá" => "esta",
            "to" | "tou" => "estou",
            "tao" => "estao",
            "c/" => "com",
            "p/" | "para" | "pra" | "pa" => "pra",
            "qdo" | "qndo" | "qnd" | "qd" | "qto" => "quando",
            "msm" => "mesmo",
            "td" => "tudo",
            "tds" => "todos",
            "mto" | "mt" | "mtu" | "mta" | "mtos" => "muito",
            "dps" | "dpois" | "dpss" | "dp" => "depois",
            "gnt" => "gente",
            "ngm" | "ningm" => "ninguem",
            "nd" => "nada",
            "vlw" => "valeu",
            "obg" | "obgd" | "obgda" | "obrigada" | "brigado" | "brigada" => "obrigado",
            "cmg" => "comigo",
            "ctg" => "contigo",
            "n" | "ñ" | "naum" | "nn" => "nao",
            "eh" => "e",
            "aki" => "aqui",
            "agr" => "agora",
            "hr" | "hrs" => "horas",
            "min" | "mins" => "minutos",
            "vamo" | "bora" => "vamos",
            "fds" => "fimdesemana",
            "num" => "nao",
            "cel" => "celular",
            "tel" => "telefone",
            "info" | "infos" => "informacao",
            "sr" | "seu" => raw,
            _ => raw,
        },
        _ => match raw {
            "u" | "ya" | "yu" => "you",
            "ur" | "yr" | "youre" | "ure" => "your",
            "r" => "are",
            "im" | "i'm" => "i'm",
            "ive" => "i've",
            "ill" => "i'll",
            "youll" => "you'll",
            "theyll" => "they'll",
            "itll" => "it'll",
            "someonell" => "someone'll",
            "dont" | "dnt" => "don't",
            "wont" => "won't",
            "cant" => "can't",
            "didnt" => "didn't",
            "doesnt" => "doesn't",
            "isnt" => "isn't",
            "wasnt" => "wasn't",
            "arent" => "aren't",
            "havent" => "haven't",
            "hasnt" => "hasn't",
            "wouldnt" => "wouldn't",
            "couldnt" => "couldn't",
            "shouldnt" => "shouldn't",
            "thats" => "that's",
            "whats" => "what's",
            "lets" => "let's",
            "tmrw" | "tmr" | "tmrrw" | "tmoro" | "tomoz" | "tomo" | "tmw" => "tomorrow",
            "thx" | "thks" | "thanx" | "thnx" | "ty" | "tnx" => "thanks",
            "bout" | "abt" | "abit" => "about",
            "n" | "&" | "nd" => "and",
            "w" | "wiv" => "with",
            "wk" | "wks" => "week",
            "hr" | "hrs" => "hours",
            "min" | "mins" => "minutes",
            "ppl" => "people",
            "cuz" | "coz" | "bc" | "bcos" | "cos" => "because",
            "txt" => "text",
            "appt" | "appts" => "appointment",
            "dept" | "depts" => "department",
            "mgr" => "manager",
            "tech" | "techs" => "technician",
            "thru" => "through",
            "tonite" => "tonight",
            "nite" => "night",
            "tues" | "tue" => "tuesday",
            "thurs" | "thu" | "thur" => "thursday",
            "mon" => "monday",
            "fri" => "friday",
            "wed" => "wednesday",
            "asap" => "asap",
            "k" | "kk" => "ok",
            "info" => "information",
            "gonna" | "gunna" => "gonna",
            "prob" | "probs" | "prolly" => "probably",
            "def" => "definitely",
            "rn" => "now",
            "sec" | "secs" => "second",
            "bk" => "back",
            "2" => "to",
            _ => raw,
        },
    }
}

/// The word classes of `tokens[i]`, from its form and its neighbours.
fn tags_of(tokens: &[Token<'_>], i: usize, language: Language) -> u32 {
    use tag::*;
    let t = &tokens[i];
    let w = t.form;
    let prev = i.checked_sub(1).map(|j| tokens[j].form).unwrap_or("");
    let next = tokens.get(i + 1).map(|t| t.form).unwrap_or("");
    let mut tags = 0;
    if t.kind == Kind::Punct {
        return match w {
            "?" => QUESTION | BREAK,
            "," | ":" | ";" | "-" | "(" | ")" | "\n" | "." | "!" => BREAK,
            _ => 0,
        };
    }
    if t.kind != Kind::Word {
        // "15h", "10:30", "3pm"; and "in 10", "em 30": a number after "in" counts time to come.
        let after_in = i > 0 && matches!(tokens[i - 1].form, "in" | "em" | "within" | "daqui");
        return if w == "0h" || w == "0:0" || w == "0am" || (after_in && t.kind == Kind::Number) {
            LATER
        } else {
            0
        };
    }
    if t.capital
        && i > 0
        && !starts_sentence(tokens, i)
        && !matches!(w, "i" | "i'll" | "i'm" | "i've" | "i'd")
    {
        tags |= NAME;
    }
    let lexical = |w: &str, prev: &str, next: &str, accented: bool| match language {
        Language::PtBr => pt_tags(w, prev, next, accented),
        _ => en_tags(w, prev, next),
    };
    let mut word_tags = lexical(w, prev, next, t.accented_end);
    // A company function names people only when it stands as one ("billing will call",
    // "check with billing", "our billing team"); before another noun it names a thing ("our
    // sales promotion", "your billing address"), and so it does as what "your" owns.
    // "seu Jorge", "dona Maria": a title before a capitalised name only ("seu pedido" is yours).
    if language == Language::PtBr
        && matches!(w, "seu" | "dona")
        && tokens.get(i + 1).is_some_and(|n| n.capital)
    {
        word_tags |= TITLE;
    }
    if word_tags & PERSON != 0 && is_function(w) {
        let owned = matches!(prev, "your" | "seu" | "sua" | "teu" | "tua");
        let modifier = tokens.get(i + 1).is_some_and(|n| {
            n.kind == Kind::Word && {
                let after = tokens.get(i + 2).map(|t| t.form).unwrap_or("");
                let n_tags = lexical(n.form, w, after, n.accented_end);
                n_tags & (PERSON | FUT | ACT | HAND | PAST | CAN | NEG | BREAK | LATER | WHEN) == 0
                    && !is_function_word(n.form)
            }
        });
        if owned || modifier {
            word_tags &= !PERSON;
        }
    }
    tags | word_tags
}

/// Company functions that also name things: "billing" is a team and a bill.
fn is_function(w: &str) -> bool {
    #[rustfmt::skip]
    const FUNCTIONS: &[&str] = &[
        "billing", "sales", "support", "finance", "accounts", "accounting", "claims", "legal", "logistics",
        "dispatch", "operations", "compliance", "fraud", "disputes", "retention", "admissions",
        "housekeeping", "kitchen", "warehouse", "financeiro", "comercial", "juridico", "suporte", "cobranca",
        "faturamento", "sinistros", "credito", "cadastro", "qualidade", "manutencao", "vendas", "marketing",
        "eventos", "compras", "logistica", "expedicao", "estoque", "retencao",
    ];
    FUNCTIONS.contains(&w)
}

/// Prepositions, articles, pronouns and other words that never make a following noun phrase.
fn is_function_word(w: &str) -> bool {
    #[rustfmt::skip]
    const FUNCTION_WORDS: &[&str] = &[
        "the", "a", "an", "to", "for", "of", "on", "in", "at", "about", "by", "with", "from", "and", "or",
        "is", "are", "was", "has", "have", "team", "who", "that", "this", "it", "as", "o", "os", "um", "uma",
        "pra", "pro", "de", "do", "da", "dos", "das", "com", "sobre", "no", "na", "e", "ou", "que", "ja",
        "esta", "aqui", "hoje", "ainda", "so", "tambem", "mesmo", "se", "isso", "sera", "vai", "precisa",
    ];
    FUNCTION_WORDS.contains(&w)
}

fn starts_sentence(tokens: &[Token<'_>], i: usize) -> bool {
    let mut j = i;
    while j > 0 {
        j -= 1;
        match tokens[j].kind {
            Kind::Symbol => continue,
            Kind::Punct => return matches!(tokens[j].form, "." | "!" | "?" | "\n" | ":" | "\"" | "(" | "-"),
            _ => return false,
        }
    }
    true
}

fn en_tags(w: &str, prev: &str, next: &str) -> u32 {
    #[rustfmt::skip]
    const NUMBER_WORDS: &[&str] = &[
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "couple", "few",
    ];
    use tag::*;
    let mut tags = match w {
        "will" | "shall" | "gonna" | "wil" => FUT,
        "going" if next == "to" => FUT,
        "i'll" | "lemme" => FUT | SELF,
        "we'll" => FUT | WE,
        "you'll" => FUT | YOU,
        "he'll" | "she'll" | "they'll" | "who'll" => FUT | THIRD,
        "someone'll" | "somebody'll" => FUT | PERSON,
        "i" | "i'm" | "i've" | "i'd" | "me" | "my" | "myself" => SELF,
        "we" | "we're" | "we've" | "we'd" | "us" | "our" | "ours" => WE,
        "you" | "your" | "you're" | "you've" | "yours" | "yourself" => YOU,
        "he" | "she" | "they" | "them" | "him" | "her" | "who" | "he's" | "she's" | "they're" | "their" => {
            THIRD
        }
        "later" | "tomorrow" | "soon" | "shortly" | "asap" | "tonight" | "next" | "afternoon" | "evening"
        | "morning" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"
        | "within" | "until" | "eod" | "end" | "week" | "weeks" | "hours" | "days" | "minutes"
        | "weekend" | "back" | "again" | "hour" | "minute" => LATER,
        "once" | "when" | "whenever" | "after" | "as" if w != "as" || next == "soon" => WHEN,
        "not" | "no" | "never" | "nobody" | "noone" | "none" | "won't" | "don't" | "doesn't" | "didn't"
        | "can't" | "cannot" | "isn't" | "aren't" | "wasn't" | "weren't" | "wouldn't" | "shouldn't"
        | "haven't" | "hasn't" | "nothing" | "neither" | "nor" | "without" | "needn't" => NEG,
        "should" => FUT,
        "scheduled" | "booked" | "due" | "set" | "expected" | "planned" | "planning" | "aiming"
            if next == "to" =>
        {
            FUT
        }
        "if" | "would" | "could" | "want" | "wanna" | "like" | "prefer" | "wish" | "happy" | "might"
        | "unless" | "whether" | "maybe" | "perhaps" | "interested" => OFFER,
        "already" | "yesterday" | "ago" | "last" | "was" | "were" | "had" | "did" | "earlier"
        | "previously" | "has" | "have" | "been" | "spoke" | "met" | "went" | "came" | "rang" | "left"
        | "took" | "gave" | "told" | "said" | "made" | "saw" | "got" | "brought" | "paid" | "ran"
        | "found" | "thought" | "wrote" | "sent" | "sold" | "kept" | "held" | "dealt" | "gone" | "done"
        | "seen" | "spoken" | "written" | "taken" | "given" => PAST,
        "automatic" | "automatically" | "automated" | "auto" | "system" | "systems" | "app" | "bot"
        | "portal" | "website" | "online" | "sms" | "no-reply" | "noreply" | "reminder" | "reminders" => AUTO,
        "can" | "may" | "able" | "free" | "welcome" => CAN,
        "now" | "here" | "below" | "attached" | "here's" | "herewith" | "enclosed" | "right" | "today" => NOW,
        "please" | "kindly" => ASK,
        "and" | "but" | "so" | "then" | "also" | "or" | "while" | "meanwhile" => BREAK,
        "mr" | "mrs" | "ms" | "miss" | "dr" | "prof" | "sir" | "madam" => TITLE,
        _ => 0,
    };
    if w.ends_with("'ll") && tags & FUT == 0 {
        tags |= FUT;
    }
    // "the driver's gonna", "who's handling": the word before "'s" keeps its classes.
    if let Some(base) =
        w.strip_suffix("'s").filter(|b| !matches!(*b, "let" | "it" | "that" | "what" | "here" | "there"))
    {
        if tags == 0 {
            tags |= en_tags(base, prev, next) & (PERSON | THIRD | TITLE | NEG | WE | SELF);
            if is_en_person(base) {
                tags |= PERSON;
            }
        }
    }
    if NUMBER_WORDS.contains(&w) {
        tags |= NUMBER;
    }
    if is_en_person(w) {
        tags |= PERSON;
    }
    if is_en_act(w) {
        tags |= ACT;
    }
    if is_en_hand(w) {
        tags |= HAND;
    }
    if w.len() > 4 && w.ends_with("ed") && !matches!(w, "need" | "indeed" | "speed" | "feed" | "seed") {
        tags |= PAST;
    }
    if prev == "let" && w == "me" {
        tags |= FUT;
    }
    let after_be =
        matches!(prev, "is" | "are" | "am" | "i'm" | "we're" | "they're" | "he's" | "she's" | "you're")
            || (prev.ends_with("'s") && prev.len() > 2);
    if after_be && w.len() > 4 && w.ends_with("ing") && w != "going" {
        tags |= PROG;
    }
    tags
}

fn is_en_person(w: &str) -> bool {
    #[rustfmt::skip]
    const PEOPLE: &[&str] = &[
        "someone", "somebody", "anyone", "team", "teams", "department", "manager", "managers", "supervisor",
        "technician", "technicians", "engineer", "engineers", "specialist", "specialists", "agent", "agents",
        "advisor", "adviser", "advisors", "advisers", "consultant", "representative", "rep", "colleague",
        "colleagues", "staff", "person", "human", "member", "officer", "coordinator", "desk", "office",
        "billing", "sales", "support", "finance", "accounts", "accounting", "dr", "doctor", "nurse", "vet",
        "surgeon", "dentist", "hygienist", "reception", "receptionist", "driver", "courier", "rider",
        "inspector", "assessor", "adjuster", "underwriter", "underwriters", "solicitor", "lawyer",
        "attorney", "paralegal", "teacher", "tutor", "lecturer", "tutor", "registrar", "admissions", "chef",
        "kitchen", "waiter", "host", "concierge", "housekeeping", "crew", "pilot", "planner", "planners",
        "agent", "pharmacist", "trainer", "instructor", "coach", "stylist", "therapist", "mechanic",
        "mechanics", "workshop", "electrician", "plumber", "fitter", "installer", "surveyor", "caseworker",
        "handler", "recruiter", "recruiters", "hiring", "landlord", "lettings", "leasing", "agency",
        "partner", "partners", "clinician", "physio", "physiotherapist", "optician", "pharmacy", "lab",
        "laboratory", "warehouse", "logistics", "dispatch", "operations", "ops", "claims", "legal",
        "compliance", "fraud", "disputes", "retention", "helpdesk", "lead", "head", "director", "owner",
        "boss", "supplier", "manufacturer", "vendor", "provider", "bank", "store", "branch", "shop",
        "clinic", "practice", "firm", "council", "panel", "committee", "board", "tech", "guys", "lads",
        "folks", "people", "somebody's", "someone's", "porter", "guide", "operator", "auditor", "controller",
        "estimator", "valuer", "agent's", "duty", "movers", "packers", "foreman", "supervisors", "tenant",
        "concierge's", "secretary", "assistant", "registry", "headteacher", "principal", "dean", "faculty",
        "examiner", "midwife", "gp", "physician", "radiologist", "anaesthetist", "orthodontist", "groomer",
        "beautician", "barber", "therapists",
    ];
    PEOPLE.contains(&w)
}

fn is_en_act(w: &str) -> bool {
    #[rustfmt::skip]
    const ACTS: &[&str] = &[
        "call", "ring", "phone", "telephone", "text", "email", "msg", "contact", "reach", "reply", "respond",
        "update", "inform", "notify", "confirm", "send", "get", "touch", "follow", "check", "look", "review",
        "visit", "come", "pop", "drop", "stop", "arrange", "sort", "fix", "repair", "decide", "approve",
        "assess", "process", "handle", "investigate", "chase", "let", "advise", "message", "ping", "write",
        "revert", "discuss", "talk", "speak", "explain", "organise", "organize", "schedule", "book",
        "collect", "deliver", "bring", "prepare", "issue", "refund", "credit", "waive", "pick", "take",
        "keep", "be", "give", "examine", "inspect", "evaluate", "verify", "ask", "raise", "escalate",
        "assign", "contact", "reschedule", "rebook", "replace", "deal", "help", "sit", "meet", "go", "come",
        "return", "post", "mail", "courier", "ship", "dispatch", "install", "attend", "see", "provide",
        "draft", "put", "set", "work", "run", "test", "calculate", "quote", "price", "amend", "correct",
        "adjust", "cancel", "release", "unlock", "activate", "reconnect", "restore", "reset", "reach",
        "liaise", "coordinate", "find", "source", "order", "hold", "reserve", "finalise", "finalize",
        "share", "forward", "pass", "transfer", "reissue",
    ];
    ACTS.contains(&w)
        || [
            "call", "ring", "phon", "text", "email", "contact", "repl", "respond", "updat", "notif",
            "confirm",
        ]
        .iter()
        .any(|stem| w.starts_with(stem))
}

fn is_en_hand(w: &str) -> bool {
    #[rustfmt::skip]
    const HAND_OVERS: &[&str] = &[
        "forward", "forwarded", "forwarding", "pass", "passed", "passing", "escalate", "escalated",
        "escalating", "transfer", "transferred", "transferring", "refer", "referred", "referring", "hand",
        "handed", "handing", "flag", "flagged", "flagging", "raise", "raised", "raising", "sent", "logged",
        "log", "logging", "loop", "looped", "assigned", "assign",
    ];
    HAND_OVERS.contains(&w)
}

fn pt_tags(w: &str, prev: &str, next: &str, accented_end: bool) -> u32 {
    use tag::*;
    let mut tags = match w {
        "vai" | "vao" | "vou" | "ira" | "irao" | "irei" | "iremos" | "vamos" | "va" | "deve" | "devem"
        | "devera" | "deverao" => FUT,
        "ficou" | "ficaram" | "fica" | "ficamos" if next == "de" => FUT,
        "eu" | "me" | "meu" | "minha" | "comigo" | "mim" => SELF,
        "nos" | "nossa" | "nosso" | "nossas" | "nossos" | "conosco" => WE,
        "gente" if prev == "a" => WE,
        "voce" | "te" | "lhe" | "contigo" | "ti" | "senhor" | "senhora" | "sr" | "sra" | "seu" | "sua"
        | "seus" | "suas" => YOU,
        "ele" | "ela" | "eles" | "elas" | "quem" | "dele" | "dela" | "deles" => THIRD,
        "amanha" | "depois" | "breve" | "logo" | "tarde" | "noite" | "manha" | "semana" | "segunda"
        | "terca" | "quarta" | "quinta" | "sexta" | "sabado" | "domingo" | "proxima" | "proximo"
        | "proximos" | "proximas" | "ate" | "dias" | "horas" | "minutos" | "prazo" | "fimdesemana"
        | "mais" | "dentro" | "cedo" | "volta" | "novamente" | "daqui" | "jaja" => LATER,
        "assim" | "quando" | "apos" | "enquanto" => WHEN,
        "nao" | "nunca" | "ninguem" | "nenhum" | "nenhuma" | "nem" | "jamais" | "nada" | "sem" => NEG,
        "se" | "caso" | "quer" | "queira" | "quiser" | "gostaria" | "prefere" | "preferir" | "prefira"
        | "deseja" | "desejar" | "talvez" | "interesse" | "poderiamos" | "poderia" | "podemos" => OFFER,
        "ja" | "ontem" | "passado" | "passada" | "foi" | "fomos" | "foram" | "era" | "estava" | "tinha"
        | "teve" | "anteontem" | "antes" | "esteve" | "estiveram" | "fez" | "fizeram" | "veio" | "vieram"
        | "deu" | "deram" | "trouxe" | "disse" | "viu" | "pos" | "quis" | "soube" | "houve" | "tiveram" => {
            PAST
        }
        "automatico" | "automatica" | "automaticamente" | "automaticos" | "automaticas" | "sistema"
        | "app" | "aplicativo" | "robo" | "bot" | "portal" | "site" | "online" | "sms" | "lembrete"
        | "notificacao" => AUTO,
        "pode" | "podem" | "consegue" | "conseguem" | "basta" | "posso" | "livre" | "fique" => CAN,
        "agora" | "aqui" | "segue" | "seguem" | "abaixo" | "anexo" | "anexa" | "hoje" => NOW,
        "favor" | "informe" | "envie" | "passa" | "manda" | "preciso" => ASK,
        "e" | "mas" | "entao" | "porem" | "ou" | "tambem" => BREAK,
        "dr" | "dona" | "prof" | "profa" => TITLE,
        _ => 0,
    };
    if w == "sr" || w == "sra" {
        tags |= TITLE;
    }
    if w == "a" && next == "gente" {
        tags |= WE;
    }
    if matches!(
        w,
        "um" | "uma"
            | "dois"
            | "duas"
            | "tres"
            | "quatro"
            | "cinco"
            | "seis"
            | "sete"
            | "oito"
            | "dez"
            | "quinze"
            | "trinta"
    ) && matches!(
        next,
        "dias" | "horas" | "minutos" | "semanas" | "hora" | "dia" | "semana" | "mes" | "meses" | "uteis"
    ) {
        tags |= NUMBER;
    }
    if is_pt_person(w) {
        tags |= PERSON;
    }
    if is_pt_act(w) {
        tags |= ACT;
    }
    if is_pt_hand(w) {
        tags |= HAND;
    }
    // Synthetic future and first person plural future ("entrara", "enviarei", "ligaremos").
    if w.len() > 5 && (w.ends_with("rei") || w.ends_with("remos") || w.ends_with("rao")) {
        tags |= FUT;
    }
    // "a equipe está investigando", "o entregador tá saindo": an arrangement under way.
    if w.len() > 4 && w.ends_with("ndo") && matches!(prev, "esta" | "estao" | "estou" | "estamos") {
        tags |= PROG;
    }
    // "será", "entrará", "fará": the accent tells the future from the past perfect.
    if w.len() >= 4 && w.ends_with("ra") && accented_end {
        tags |= FUT;
    }
    // Past of the third person singular and first person plural ("ligou", "passou", "enviamos").
    if w.len() > 4
        && (w.ends_with("ou") || w.ends_with("eu") || w.ends_with("iu"))
        && !matches!(w, "estou" | "vou" | "sou" | "dou" | "meu" | "seu" | "ceu" | "eu" | "ou")
    {
        tags |= PAST;
    }
    tags
}

fn is_pt_person(w: &str) -> bool {
    #[rustfmt::skip]
    const PEOPLE: &[&str] = &[
        "alguem", "equipe", "equipes", "time", "setor", "departamento", "area", "pessoal", "atendente",
        "atendentes", "especialista", "especialistas", "consultor", "consultora", "analista", "analistas",
        "tecnico", "tecnica", "tecnicos", "responsavel", "responsaveis", "gerente", "gerencia", "supervisor",
        "supervisora", "coordenador", "coordenadora", "coordenacao", "gestor", "gestora", "colega",
        "representante", "vendedor", "vendedora", "financeiro", "comercial", "juridico", "suporte", "sac",
        "ouvidoria", "diretoria", "diretor", "diretora", "dr", "medico", "medica", "enfermeira",
        "enfermeiro", "veterinario", "veterinaria", "vet", "dentista", "recepcao", "recepcionista",
        "motorista", "entregador", "entregadora", "motoboy", "vistoriador", "vistoriadora", "perito",
        "corretor", "corretora", "advogado", "advogada", "professor", "professora", "coordenadora",
        "secretaria", "tutor", "tutora", "chef", "cozinha", "garcom", "garcon", "maitre", "guia", "piloto",
        "farmaceutico", "farmaceutica", "instrutor", "instrutora", "personal", "cabeleireiro",
        "cabeleireira", "manicure", "esteticista", "mecanico", "mecanicos", "oficina", "eletricista",
        "encanador", "instalador", "instaladora", "montador", "montadores", "engenheiro", "engenheira",
        "recrutador", "recrutadora", "rh", "imobiliaria", "proprietario", "proprietaria", "locador",
        "sindico", "portaria", "porteiro", "laboratorio", "clinica", "farmacia", "loja", "estoque",
        "logistica", "expedicao", "fornecedor", "fabricante", "banco", "parceiro", "parceira", "escritorio",
        "central", "cobranca", "faturamento", "sinistros", "sinistro", "regulador", "reguladora",
        "auditoria", "compras", "operacao", "operacoes", "transportadora", "seguradora", "agencia",
        "unidade", "filial", "chefe", "lider", "encarregado", "encarregada", "plantao", "nutricionista",
        "fisioterapeuta", "psicologo", "psicologa", "treinador", "treinadora", "coordenacao", "banca",
        "comissao", "conselho", "despachante", "assistente", "agente", "atendimento", "credito", "cadastro",
        "qualidade", "manutencao", "pessoas", "moca", "moco", "rapaz", "galera", "povo", "dono", "dona",
        "donos", "anestesista", "cirurgiao", "cirurgia", "ortodontista", "protetico", "higienista",
        "groomer", "tosador", "tosadora", "banhista", "caixa", "seguranca", "guarda", "fiscal", "auditor",
        "perita", "avaliador", "avaliadora", "analise", "backoffice", "retencao", "vendas", "marketing",
        "eventos", "cerimonial", "cerimonialista", "decoradora", "decorador", "buffet", "fotografo",
        "fotografa", "organizador", "organizadora",
    ];
    PEOPLE.contains(&w)
}

fn is_pt_act(w: &str) -> bool {
    // Stems of four letters or more: any word they start.
    #[rustfmt::skip]
    const STEMS: &[&str] = &[
        "retorn", "avis", "respond", "contat", "contact", "mand", "envi", "cham", "confirm", "inform", "passa",
        "visit", "verific", "revis", "revist", "analis", "aprov", "resolv", "agend", "remarc", "atualiz", "explic",
        "orient", "acompanh", "comparec", "vist", "cheg", "traz", "busc", "recolh", "entreg", "instal", "consert",
        "arrum", "troc", "corrig", "ajust", "liber", "estorn", "reembols", "devolv", "cancel", "emit", "prepar",
        "mont", "organiz", "marc", "conferi", "confer", "checa", "cheq", "decid", "avali", "examin", "procur",
        "tent", "cuid", "faz", "process", "escrev", "mostr", "apresent", "negoci", "calcul", "simul", "atend",
        "receb", "solicit", "pedi", "apur", "investig", "consult", "encaminh", "repass", "transfer", "acion",
        "escal", "entr", "ligu", "ligar", "ligam", "falar", "falam", "levar", "levam", "olhar", "olham",
    ];
    // Short stems: only their short conjugations ("liga", "ligo", "fala", "leva", "olho").
    const SHORT: &[&str] = &["lig", "fal", "lev", "olh", "vej", "orc"];
    const VERBS: &[&str] = &["ver", "ve", "vejo", "vemos", "dou", "dar", "damos"];
    if w.len() < 2 || matches!(w, "entre" | "entrada") {
        return false;
    }
    VERBS.contains(&w)
        || STEMS.iter().any(|stem| w.starts_with(stem))
        || SHORT.iter().any(|stem| w.starts_with(stem) && w.len() <= stem.len() + 3)
}

fn is_pt_hand(w: &str) -> bool {
    [
        "encaminh",
        "repass",
        "transfer",
        "escal",
        "acion",
        "direcion",
        "redirecion",
        "registr",
        "abri",
        "passei",
    ]
    .iter()
    .any(|stem| w.starts_with(stem))
        || matches!(w, "passar" | "passando" | "passo" | "passamos" | "passei")
}

/// Token ranges `(start, end)` of the sentences: a sentence ends at `.`, `!`, `?` or `;` before
/// a space (not after a title such as "Dr." or an initial), and at a line break.
pub(crate) fn sentences(tokens: &[Token<'_>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        let ends = match (t.kind, t.form) {
            (Kind::Punct, "\n") => true,
            (Kind::Punct, "." | "!" | "?" | ";") => {
                let next_continues = tokens
                    .get(i + 1)
                    .is_some_and(|n| !t.spaced && n.kind != Kind::Punct && n.kind != Kind::Symbol);
                let after_title = t.form == "."
                    && i > 0
                    && (tokens[i - 1].tags & tag::TITLE != 0
                        || (tokens[i - 1].capital && tokens[i - 1].end - tokens[i - 1].start == 1)
                        || matches!(
                            tokens[i - 1].form,
                            "st" | "no" | "av" | "n" | "vs" | "approx" | "aprox" | "tel"
                        ));
                !next_continues && !after_title
            }
            _ => false,
        };
        if ends {
            // Keep runs of closing punctuation ("?!", "...") with the sentence they close.
            if tokens
                .get(i + 1)
                .is_some_and(|n| n.kind == Kind::Punct && matches!(n.form, "." | "!" | "?" | ")" | "\""))
            {
                continue;
            }
            push_sentence(&mut out, tokens, start, i + 1);
            start = i + 1;
        }
    }
    push_sentence(&mut out, tokens, start, tokens.len());
    out
}

fn push_sentence(out: &mut Vec<(usize, usize)>, tokens: &[Token<'_>], start: usize, end: usize) {
    if tokens[start..end].iter().any(|t| matches!(t.kind, Kind::Word | Kind::Number)) {
        out.push((start, end));
    }
}

/// The language whose common words are more frequent in normalised `text`; `None` on a tie.
pub(crate) fn guess_language(text: &str) -> Option<Language> {
    const PT: &[&str] = &[
        "voce", "vc", "nao", "que", "de", "da", "dos", "um", "uma", "para", "pra", "com", "seu", "sua",
        "vou", "esta", "isso", "na", "os", "por", "mais", "te", "obrigado", "obrigada", "e", "o", "em", "ja",
        "vai", "ta", "aqui", "se", "ou", "mas", "ele", "ela", "eles", "nos", "hoje", "amanha", "oi", "ola",
        "tudo", "bem", "sim", "q", "pq", "tb", "hj", "gente", "dia", "dias", "sobre", "ate", "quando",
    ];
    const EN: &[&str] = &[
        "you", "your", "the", "to", "of", "and", "is", "are", "will", "i", "i'll", "we", "this", "that",
        "it", "for", "with", "be", "our", "my", "let", "me", "thanks", "u", "ur", "on", "in", "can", "have",
        "has", "we'll", "it's", "i'm", "im", "ill", "if", "at", "from", "by", "hi", "hello", "please", "pls",
        "thx", "yes", "so", "they", "he", "she", "was", "just", "what", "when", "back", "get", "know",
    ];
    let (mut pt, mut en) = (0usize, 0usize);
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        if word.is_empty() {
            continue;
        }
        pt += PT.contains(&word) as usize;
        en += EN.contains(&word) as usize;
    }
    match pt.cmp(&en) {
        std::cmp::Ordering::Greater => Some(Language::PtBr),
        std::cmp::Ordering::Less => Some(Language::En),
        std::cmp::Ordering::Equal => None,
    }
}
