//! The grammar of time expressions, over the folded tokens of [`super::text`].
//!
//! Written by hand rather than as one large regex because the pieces combine freely and in any
//! order ("by 5 p.m. tomorrow", "amanhã, entre 8h e 12h", "on the morning of 19 April", "at 3 on
//! fri"): a *day phrase* is up to one day, one part of the day and one clock time, joined by small
//! connecting words. At every token the scanner tries every kind of expression and keeps the
//! longest, so "em até 3 dias úteis" wins over "até 3" and "tomorrow morning" over "tomorrow".
//!
//! Words that are also ordinary words are only read as time when the context says so: the
//! Portuguese weekdays that double as ordinals ("segunda via", "quinta parcela"), the
//! abbreviations that are words ("sat", "sun", "ter", "sex"), bare hours ("by 4" but not "4
//! items"), parts of the day in greetings ("boa tarde", "good morning") and "tarde" meaning late.

use super::meaning::{
    Day, DayTime, Meaning, NamedDay, Relation, Relative, TimeExpression, Unit, WeekOf, Weekday,
};
use super::text::{tokenize, Kind, Token};

/// Every time expression in `message`, in order, none overlapping.
pub(crate) fn find(message: &str) -> Vec<TimeExpression> {
    let tokens = tokenize(message);
    let parser = Parser { t: &tokens };
    let chars: Vec<char> = message.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match parser.expression(i) {
            Some((meaning, end)) if end > i => {
                let (start, stop) = (tokens[i].start, tokens[end - 1].end);
                let text: String = chars.get(start..stop).map(|c| c.iter().collect()).unwrap_or_default();
                out.push(TimeExpression { start, end: stop, text, meaning });
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

struct Parser<'a> {
    t: &'a [Token],
}

/// The hour and minute of a clock time, and whether it was written unmistakably as a time
/// ("5pm", "12h", "12:00", "noon") rather than as a bare number.
#[derive(Debug, Clone, Copy)]
struct Clock {
    hour: u8,
    minute: u8,
    explicit: bool,
}

const TODAY: &str = "today|2day|2dy|tday|hoje|hj|hje";
const TOMORROW: &str = "tomorrow|tomorow|tommorow|tommorrow|tomorrw|tmrw|tmr|tmrow|tomoz|2moro|2morro|2morrow|2morow|2mrw|2mro|2moz|amanha|amnh|amanh|amanah";

/// Leads that belong to a day, week or month phrase ("by Friday", "até sexta", "na segunda").
const LEADS: &[&str] = &[
    "by|until|till|til|untill|before|b4|on|from|within|thru|through",
    "by|until|till|til|untill|before|b4|on|from|within|thru|through the",
    "by|before no? later than",
    "no|not later than",
    "sometime|later|l8r|l8er|ainda",
    "ate o|a?",
    "ate no maximo",
    "no maximo ate",
    "no mais tardar",
    "na|no|nesta|neste",
    "antes de|do|da",
    "la pra|pela|pelo|pro",
    "a partir de|da|do",
];

/// Words that may sit between the parts of one day phrase.
const CONNECTORS: &str = ",|on|the|of|in|do|da|de|no|na|pela|pelo|em|a|at|-|(";

/// Nouns after which "segunda", "quinta"… are ordinals, not weekdays.
const ORDINAL_NOUNS: &[&str] = &[
    "via",
    "vez",
    "vezes",
    "opcao",
    "parcela",
    "parcelas",
    "etapa",
    "chamada",
    "tentativa",
    "mao",
    "fase",
    "visita",
    "consulta",
    "sessao",
    "dose",
    "prova",
    "linha",
    "pagina",
    "unidade",
    "edicao",
    "quinzena",
    "metade",
    "semana",
    "serie",
    "ano",
    "classe",
    "geracao",
    "instancia",
    "fatura",
    "cobranca",
    "aula",
    "avaliacao",
    "revisao",
    "remessa",
    "pessoa",
    "colocada",
    "colocado",
    "maior",
    "melhor",
    "opiniao",
    "parte",
    "fila",
    "conta",
    "camada",
    "hora",
    "andar",
    "porta",
    "feita",
    "feito",
    "mensalidade",
    "rodada",
    "turma",
    "cirurgia",
    "noite",
    "lista",
    "copia",
    "foto",
    "amostra",
    "entrevista",
    "reuniao",
    "proposta",
];

/// Words before a part of the day that make it a greeting ("boa tarde", "good morning").
const GREETINGS: &[&str] = &[
    "boa",
    "bom",
    "good",
    "otima",
    "otimo",
    "great",
    "nice",
    "lovely",
    "excelente",
    "wonderful",
    "lindo",
    "linda",
];

/// Words that may follow a bare hour ("by 4", "at 10 on thursday") without making it a count.
const AFTER_BARE_HOUR: &[&str] = &[
    "on", "tomorrow", "today", "tonight", "2moro", "tmrw", "amanha", "hoje", "hj", "or", "and", "n", "to",
    "o", "oclock", "ok", "okay", "pls", "please", "then", "if", "latest", "at", "sharp", "ish", "e", "ou",
    "ate", "so", "tops", "max", "mate", "hun", "x", "xx", "thx", "thanks", "cheers", "when", "with", "for",
    "today", "in", "this", "next", "de", "da", "do", "no", "na", "em", "pra", "blz", "ta", "certo", "but",
    "mas", "a",
];

impl<'a> Parser<'a> {
    // ---- token helpers ----

    fn text(&self, i: usize) -> Option<&'a str> {
        self.t.get(i).map(|t| t.text.as_str())
    }

    fn number(&self, i: usize) -> Option<u32> {
        self.t.get(i).and_then(|t| t.number)
    }

    /// Token `i` is glued to token `i - 1` (no space between).
    fn glued(&self, i: usize) -> bool {
        self.t.get(i).is_some_and(|t| !t.spaced)
    }

    /// Matches a small pattern: tokens separated by spaces, `a|b` alternatives, `x?` optional.
    /// Returns where the match ends (greedy, with backtracking).
    fn pat(&self, i: usize, pattern: &str) -> Option<usize> {
        let elements: Vec<&str> = pattern.split(' ').filter(|e| !e.is_empty()).collect();
        self.pat_from(i, &elements)
    }

    fn pat_from(&self, i: usize, elements: &[&str]) -> Option<usize> {
        let Some((first, rest)) = elements.split_first() else { return Some(i) };
        let (alternatives, optional) = match first.strip_suffix('?') {
            Some(a) if !a.is_empty() => (a, true),
            _ => (*first, false),
        };
        if let Some(text) = self.text(i) {
            if alternatives.split('|').any(|a| a == text) {
                if let Some(end) = self.pat_from(i + 1, rest) {
                    return Some(end);
                }
            }
        }
        if optional {
            return self.pat_from(i, rest);
        }
        None
    }

    /// The longest match among `patterns`.
    fn any(&self, i: usize, patterns: &[&str]) -> Option<usize> {
        patterns.iter().filter_map(|p| self.pat(i, p)).max()
    }

    /// Where a word or number starting at `i` would be cut from the previous token mid-word.
    fn starts_mid_word(&self, i: usize) -> bool {
        i > 0
            && self.glued(i)
            && self.t[i].kind != Kind::Punct
            && self.t.get(i - 1).is_some_and(|t| t.kind != Kind::Punct)
    }

    fn ends_mid_word(&self, end: usize) -> bool {
        end > 0
            && self.glued(end)
            && self.t.get(end).is_some_and(|t| t.kind != Kind::Punct)
            && self.t[end - 1].kind != Kind::Punct
    }

    // ---- the scanner's entry ----

    /// The longest expression starting at token `i`.
    fn expression(&self, i: usize) -> Option<(Meaning, usize)> {
        if self.starts_mid_word(i) {
            return None;
        }
        let mut best: Option<(Meaning, usize)> = None;
        let mut consider = |found: Option<(Meaning, usize)>| {
            if let Some((meaning, end)) = found {
                if !self.ends_mid_word(end) && best.as_ref().is_none_or(|b| end > b.1) {
                    best = Some((meaning, end));
                }
            }
        };
        consider(self.within(i));
        consider(self.soon(i));
        consider(self.named(i));
        let mut starts = vec![i];
        starts.extend(LEADS.iter().filter_map(|p| self.pat(i, p)).filter(|&e| e > i));
        for s in starts {
            let led = s > i;
            consider(self.later(s));
            consider(self.week(s));
            consider(self.month(s));
            consider(self.day_phrase(s, led));
        }
        best.map(|(meaning, end)| (meaning, self.trailing(end)))
    }

    /// Words after an expression that belong to it ("hoje ainda", "essa semana ainda").
    fn trailing(&self, end: usize) -> usize {
        self.pat(end, "ainda").unwrap_or(end)
    }

    // ---- soon and later ----

    fn soon(&self, i: usize) -> Option<(Meaning, usize)> {
        let end = self.any(
            i,
            &[
                "asap",
                "a . s . a . p .?",
                "as soon as possible|poss|practicable",
                "as soon as i|we can",
                "as quickly|fast as possible|i|we can?",
                "shortly",
                "right|straight away",
                "straightaway",
                "momentarily",
                "in|within a bit|sec|second|moment|min|minute|jiffy|tick|few",
                "in|within a few minutes|mins|min|moments",
                "in just a moment|minute|sec|second|bit",
                "in no time",
                "within minutes",
                "daqui a? pouco|pouquinho|poquinho|poco",
                "dqui a? pouco|pouquinho",
                "ja ja",
                "jaja",
                "ja - ja",
                "logo logo",
                "logo em seguida",
                "em instantes|breve|seguida|minutos",
                "em alguns|poucos|uns minutos|minutinhos|instantes",
                "em um|1 instante|minutinho|minuto",
                "num instante|minutinho",
                "o mais rapido|breve possivel",
                "o quanto antes",
                "assim que possivel",
            ],
        )?;
        Some((Meaning::Soon, end))
    }

    /// "later", "l8r", "mais tarde", "logo mais": later today, kept until today's close.
    fn later(&self, i: usize) -> Option<(Meaning, usize)> {
        let end = self
            .any(i, &["later on?", "l8r|l8er|l8ter", "mais tarde", "+ tarde", "logo mais", "later today"])?;
        if self.pat(end, "date|stage|time|than|point|version|dates").is_some() {
            return None;
        }
        if i > 0 && self.pat(i - 1, "a|no|at|the").is_some() && self.text(i) == Some("later") {
            return None;
        }
        Some((Meaning::Day { day: Day::Today, time: DayTime::Close }, end))
    }

    // ---- stretches of time ----

    /// "in 2 hours", "within 3 business days", "em até 48 horas", "daqui a 1h", "a day or two".
    fn within(&self, i: usize) -> Option<(Meaning, usize)> {
        let mut best: Option<(Meaning, usize)> = None;
        let mut keep = |found: Option<(Meaning, usize)>| {
            if let Some(f) = found {
                if best.as_ref().is_none_or(|b| f.1 > b.1) {
                    best = Some(f);
                }
            }
        };
        // "no dia útil seguinte".
        if let Some(e) = self.pat(i, "no|o? dia util seguinte|subsequente") {
            keep(Some((Meaning::Within { amount: 1, unit: Unit::BusinessDays }, e)));
        }
        for (lead, next) in self.duration_leads(i) {
            // "within the hour", "in the next few days", "nos próximos dias".
            if let Some(e) = self.pat(lead, "the hour") {
                keep(Some((Meaning::Within { amount: 1, unit: Unit::Hours }, e)));
            }
            if next {
                // "in the next hour" is one; "nos próximos dias" is a few.
                if let Some((unit, e)) = self.unit(lead) {
                    let singular = self
                        .any(
                            lead,
                            &[
                                "hour|hr|day|week|wk|month|hora|dia|semana|mes",
                                "business|working|work|biz day",
                            ],
                        )
                        .is_some();
                    keep(Some((
                        Meaning::Within { amount: if singular { 1 } else { 3 }, unit },
                        self.duration_tail(e),
                    )));
                }
            }
            if let Some((amount, unit, e)) = self.amount_unit(lead) {
                keep(Some((Meaning::Within { amount, unit }, self.duration_tail(e))));
            }
            // English "in 10" for minutes, when nothing follows that could be counted.
            if self.text(i) == Some("in") && lead == i + 1 {
                if let Some(n) = self.number(lead).filter(|n| (1..=60).contains(n)) {
                    let after = self.t.get(lead + 1);
                    let free = match after {
                        None => true,
                        Some(t) if t.kind == Kind::Punct => {
                            !matches!(t.text.as_str(), "/" | "%" | "$" | ":" | ".")
                        }
                        Some(t) if t.text == "to" => self.number(lead + 2).is_none(),
                        Some(t) => matches!(
                            t.text.as_str(),
                            "or" | "ok"
                                | "okay"
                                | "pls"
                                | "please"
                                | "tops"
                                | "max"
                                | "x"
                                | "xx"
                                | "thx"
                                | "and"
                                | "mins"
                                | "then"
                        ),
                    };
                    if free {
                        keep(Some((Meaning::Within { amount: n, unit: Unit::Minutes }, lead + 1)));
                    }
                }
            }
        }
        // Without a lead only a loose count: "a day or two", "a few days", "1 ou 2 dias".
        if let Some((amount, unit, e, loose)) = self.amount_unit_loose(i) {
            if loose && matches!(unit, Unit::Days | Unit::BusinessDays | Unit::Weeks | Unit::Hours) {
                keep(Some((Meaning::Within { amount, unit }, self.duration_tail(e))));
            }
        }
        best
    }

    /// Where each lead of a stretch of time ends, and whether it says "next" (so the amount may
    /// be left out: "nos próximos dias").
    fn duration_leads(&self, i: usize) -> Vec<(usize, bool)> {
        let mut out = Vec::new();
        let hedges = "about|around|approximately|approx|roughly|like|just|under|max|maybe|~";
        for p in [
            "in|within|inside",
            "in|within|inside less than",
            "allow? up to",
            "allow|takes|take",
            "allow|takes|take up to",
        ] {
            if let Some(e) = self.pat(i, p) {
                out.push((self.pat(e, hedges).unwrap_or(e), false));
            }
        }
        for p in ["in|within|inside the? next|coming", "over the next|coming", "the next|coming"] {
            if let Some(e) = self.pat(i, p) {
                out.push((self.pat(e, hedges).unwrap_or(e), true));
            }
        }
        let pt_hedges = [
            "uns|umas",
            "cerca de",
            "aproximadamente",
            "torno de",
            "media de",
            "no maximo",
            "menos de",
            "ate",
            "ate uns|umas",
        ];
        for p in [
            "em",
            "ate",
            "daqui a?",
            "dqui a?",
            "dentro de",
            "no|num|dentro|em do? prazo de",
            "em um prazo de",
            "prazo de",
            "e de",
            "no maximo em",
        ] {
            if let Some(e) = self.pat(i, p) {
                out.push((e, false));
                for h in pt_hedges {
                    if let Some(h) = self.pat(e, h) {
                        out.push((h, false));
                    }
                }
            }
        }
        if let Some(e) = self.any(i, &["nos|nas proximos|proximas", "dentro dos|das proximos|proximas"]) {
            out.push((e, true));
        }
        // "no próximo dia útil", "on the next business day", "the following working day".
        if let Some(e) = self.any(
            i,
            &[
                "no|o|ate o? proximo|prox",
                "proximo|prox",
                "on|by|until the? next|following|nxt",
                "the following",
                "next|nxt",
            ],
        ) {
            if self.any(e, &["dia util", "business|working|work|biz day"]).is_some() {
                out.push((e, true));
            }
        }
        out
    }

    /// "or so", "tops", "ou menos", "no máximo" after a stretch of time.
    fn duration_tail(&self, end: usize) -> usize {
        self.any(
            end,
            &[
                "or so|less",
                "ou menos",
                "tops|max",
                "no maximo",
                "at most",
                "at the latest",
                ",? contados|contando a partir de|da hoje|data",
                ",? contados|contando a partir de hoje",
                "from today|now",
            ],
        )
        .unwrap_or(end)
    }

    fn amount_unit(&self, i: usize) -> Option<(u32, Unit, usize)> {
        self.amount_unit_loose(i).map(|(a, u, e, _)| (a, u, e))
    }

    /// An amount and a unit; `loose` is true for a range or "a few" ("a day or two").
    fn amount_unit_loose(&self, i: usize) -> Option<(u32, Unit, usize, bool)> {
        // "meia hora", "half an hour", "an hour and a half".
        if let Some(e) = self.any(i, &["meia hora", "half an|a hour|hr", "1/2 hour|hr|h"]) {
            return Some((30, Unit::Minutes, e, false));
        }
        let (amount, after_amount, mut loose) = self.amount(i)?;
        let (unit, end) = self.unit(after_amount)?;
        if let Some(e) = self.any(end, &["and a half", "e meia"]) {
            if unit == Unit::Hours {
                return Some((amount * 60 + 30, Unit::Minutes, e, loose));
            }
        }
        // "a day or two", "1 ou 2 dias" (the second number after the unit).
        let mut end = end;
        let mut amount = amount;
        if let Some(e) = self.pat(end, "or|ou|to|-") {
            if let Some((second, e2, _)) = self.amount(e) {
                if second > amount && self.unit(e2).is_none() {
                    amount = second;
                    end = e2;
                    loose = true;
                }
            }
        }
        if amount == 0 {
            return None;
        }
        Some((amount, unit, end, loose))
    }

    /// A count: digits, number words, "a"/"an"/"um", "a couple", "a few", or a range of two.
    fn amount(&self, i: usize) -> Option<(u32, usize, bool)> {
        let (first, e, few) = self.single_amount(i)?;
        if let Some(sep) = self.pat(e, "-|to|or|ou|a|e") {
            if let Some((second, e2, _)) = self.single_amount(sep) {
                if second > first && self.unit(e2).is_some() {
                    return Some((second, e2, true));
                }
            }
        }
        Some((first, e, few))
    }

    fn single_amount(&self, i: usize) -> Option<(u32, usize, bool)> {
        if let Some(n) = self.number(i) {
            if self.glued(i + 1) && self.text(i + 1) == Some("/") {
                return None; // "24/7", a date or a fraction
            }
            return Some((n, i + 1, false));
        }
        if let Some(e) = self.any(i, &["a|an|one|um|uma", "a? single"]) {
            // "a few", "a couple" are counted below.
            if self.pat(e, "few|couple").is_none() {
                return Some((1, e, false));
            }
        }
        if let Some(e) = self.pat(i, "a? couple of?") {
            return Some((2, e, true));
        }
        if let Some(e) = self.any(i, &["a? few", "alguns|algumas|poucos|poucas|several|varios|varias"]) {
            return Some((3, e, true));
        }
        self.number_word(i).map(|(n, e)| (n, e, false))
    }

    /// Spelled numbers up to ninety-nine ("forty-eight", "quarenta e oito").
    fn number_word(&self, i: usize) -> Option<(u32, usize)> {
        let value = |text: &str| -> Option<u32> {
            Some(match text {
                "two" | "dois" | "duas" => 2,
                "three" | "tres" => 3,
                "four" | "quatro" => 4,
                "five" | "cinco" => 5,
                "six" | "seis" => 6,
                "seven" | "sete" => 7,
                "eight" | "oito" => 8,
                "nine" | "nove" => 9,
                "ten" | "dez" => 10,
                "eleven" | "onze" => 11,
                "twelve" | "doze" => 12,
                "thirteen" | "treze" => 13,
                "fourteen" | "quatorze" | "catorze" => 14,
                "fifteen" | "quinze" => 15,
                "sixteen" | "dezesseis" => 16,
                "seventeen" | "dezessete" => 17,
                "eighteen" | "dezoito" => 18,
                "nineteen" | "dezenove" => 19,
                "twenty" | "vinte" => 20,
                "thirty" | "trinta" => 30,
                "forty" | "quarenta" => 40,
                "fifty" | "cinquenta" => 50,
                "sixty" | "sessenta" => 60,
                "seventy" | "setenta" => 70,
                "eighty" | "oitenta" => 80,
                "ninety" | "noventa" => 90,
                _ => return None,
            })
        };
        let first = value(self.text(i)?)?;
        if first >= 20 && first % 10 == 0 {
            if let Some(sep) = self.pat(i + 1, "-|e") {
                if let Some(unit) = self.text(sep).and_then(value).filter(|u| *u < 10) {
                    return Some((first + unit, sep + 1));
                }
            }
            if let Some(unit) = self.text(i + 1).and_then(value).filter(|u| *u < 10) {
                return Some((first + unit, i + 2));
            }
        }
        Some((first, i + 1))
    }

    /// A unit of time, with its business qualifier ("working days", "dias úteis").
    fn unit(&self, i: usize) -> Option<(Unit, usize)> {
        if let Some(e) = self.pat(i, "business|working|work|school|banking|bank|wkg|biz days|day") {
            return Some((Unit::BusinessDays, e));
        }
        if let Some(e) = self.pat(i, "dia|dias uteis|util") {
            return Some((Unit::BusinessDays, e));
        }
        if let Some(e) = self.pat(i, "dia|dias corridos") {
            return Some((Unit::Days, e));
        }
        let single = |words: &str, unit: Unit| self.pat(i, words).map(|e| (unit, e));
        single("min|mins|minute|minutes|minuto|minutos|minutinho|minutinhos|mn|mns", Unit::Minutes)
            .or_else(|| single("h|hr|hrs|hour|hours|hora|horas|horinha|horinhas|hs|hrz|hors", Unit::Hours))
            .or_else(|| single("day|days|dia|dias|dys", Unit::Days))
            .or_else(|| single("week|weeks|wk|wks|semana|semanas", Unit::Weeks))
            .or_else(|| single("month|months|mes|meses", Unit::Months))
    }

    // ---- named days ----

    /// "antes do Natal", "before Christmas", "até o Ano Novo", "after Thanksgiving", "no
    /// Réveillon", "by the end of the year", "depois do Carnaval": a lead is required, so a
    /// holiday merely mentioned ("the Christmas sale") is not a due time.
    fn named(&self, i: usize) -> Option<(Meaning, usize)> {
        use Relation::*;
        let leads: &[(&str, Relation)] = &[
            ("before|b4|by|until|till|til|untill", Before),
            ("prior|previous to", Before),
            ("ahead of", Before),
            ("no|not later than", Before),
            ("antes|ate de|do|da|das|o|a|as", Before),
            ("ate no maximo o|a", Before),
            ("after|following", After),
            ("depois|dps|apos de|do|da|das|o|a|as", After),
            ("on|at", On),
            ("no|na|em|pro|pra", On),
        ];
        let mut best: Option<(Meaning, usize)> = None;
        for &(lead, relation) in leads {
            let Some(start) = self.pat(i, lead) else { continue };
            let Some((day, end)) = self.named_day(start, relation) else { continue };
            // "na Black Friday do ano passado", "after Christmas last year": gone by.
            if self.any(end, &["do|de ano passado|retrasado", "last year", "passado|passada"]).is_some() {
                continue;
            }
            if best.as_ref().is_none_or(|b| end > b.1) {
                best = Some((Meaning::Named { day, relation }, end));
            }
        }
        best
    }

    /// The name of a day of the year at `i`.
    fn named_day(&self, i: usize, relation: Relation) -> Option<(NamedDay, usize)> {
        use NamedDay::*;
        let names: &[(&str, NamedDay)] = &[
            ("the? christmas|xmas eve", ChristmasEve),
            ("the? eve of christmas|xmas", ChristmasEve),
            ("a? vespera de|do natal", ChristmasEve),
            ("the? christmas|xmas day?", Christmas),
            ("o? dia de natal", Christmas),
            ("o? natal", Christmas),
            ("the? new year|years '? s? eve", NewYearsEve),
            ("nye", NewYearsEve),
            ("o? reveillon|reveion", NewYearsEve),
            ("a? virada do ano", NewYearsEve),
            ("a? vespera de|do ano novo", NewYearsEve),
            ("the? new year|years '? s? day?", NewYear),
            ("o? ano novo", NewYear),
            ("o? primeiro dia do ano", NewYear),
            ("the? end of the? year", YearEnd),
            ("the? year -? end", YearEnd),
            ("eoy", YearEnd),
            ("o|a? fim|final do|de ano", YearEnd),
            ("o? encerramento do ano", YearEnd),
            ("thanksgiving day?", Thanksgiving),
            ("o? dia de acao de gracas", Thanksgiving),
            ("black friday", BlackFriday),
            ("o? carnaval", Carnival),
            ("carnival", Carnival),
            ("easter sunday?", Easter),
            ("a? pascoa", Easter),
            ("o? domingo de pascoa", Easter),
            ("good friday", GoodFriday),
            ("a? sexta -? feira santa", GoodFriday),
            ("a? sexta -? feira da paixao", GoodFriday),
            ("a? sexta santa", GoodFriday),
        ];
        // "the holidays" and "as festas" are Christmas only before or after them ("until the
        // holidays", "depois das festas"), not as a day to be on.
        let seasons: &[&str] =
            &["the holidays|hols", "the holiday season", "as? festas de fim|final de|do ano", "as? festas"];
        let mut best: Option<(NamedDay, usize)> = None;
        for &(pattern, day) in names {
            if let Some(e) = self.pat(i, pattern) {
                if best.is_none_or(|b| e > b.1) {
                    best = Some((day, e));
                }
            }
        }
        if relation != Relation::On {
            if let Some(e) = self.any(i, seasons) {
                if best.is_none_or(|b| e > b.1) {
                    best = Some((Christmas, e));
                }
            }
        }
        best
    }

    // ---- weeks and months ----

    /// "this week", "next wk", "semana que vem", "na próxima semana", "by the end of the week",
    /// "early next week".
    fn week(&self, k: usize) -> Option<(Meaning, usize)> {
        let mut j = k;
        let mut early = false;
        let mut end_of = false;
        if let Some(e) = self.pat(j, "the|o|a? end|fim|final of|da|do the|a?") {
            j = e;
            end_of = true;
        } else if let Some(e) = self.pat(j, "the|o|a? early|beginning|start|inicio|comeco of|da|do the|a?") {
            j = e;
            early = true;
        } else if let Some(e) = self.pat(j, "early") {
            j = e;
            early = true;
        }
        let mut which = None;
        if let Some(e) = self.pat(j, "this|esta|essa|nesta|nessa|desta|dessa") {
            which = Some(Relative::This);
            j = e;
        } else if let Some(e) = self.pat(j, "this? next|nxt|coming|proxima|prox") {
            which = Some(Relative::Next);
            j = e;
        } else if end_of && self.text(j) != Some("semana") {
            which = Some(Relative::This); // "the end of the week"
        }
        let e = self.pat(j, "week|wk|semana|sem")?;
        let mut end = e;
        if let Some(e2) = self.pat(end, "que|q vem") {
            which = Some(Relative::Next);
            end = e2;
        }
        if which.is_none() && end_of {
            which = Some(Relative::This); // "o fim da semana"
        }
        Some((Meaning::Week { week: which?, early }, end))
    }

    /// "this month", "next month", "by the end of the month", "até o fim do mês", "mês que vem".
    fn month(&self, k: usize) -> Option<(Meaning, usize)> {
        let mut j = k;
        let mut end_of = false;
        if let Some(e) = self.pat(j, "the|o? end|fim|final of|do the?") {
            j = e;
            end_of = true;
        }
        let mut which = None;
        if let Some(e) = self.pat(j, "this|este|esse|neste|nesse|deste|desse") {
            which = Some(Relative::This);
            j = e;
        } else if let Some(e) = self.pat(j, "next|coming|proximo") {
            which = Some(Relative::Next);
            j = e;
        }
        // "by month end", "at month-end", "EOM".
        if let Some(e) = self.any(j, &["month -? end", "eom"]) {
            return Some((Meaning::Month { month: which.unwrap_or(Relative::This) }, e));
        }
        // "before the month is out".
        if let Some(e) = self.pat(j, "the month is out|over|done") {
            return Some((Meaning::Month { month: Relative::This }, e));
        }
        let e = self.pat(j, "month|mes")?;
        let mut end = e;
        if let Some(e2) = self.pat(end, "que|q vem") {
            which = Some(Relative::Next);
            end = e2;
        }
        if which.is_none() && end_of {
            which = Some(Relative::This);
        }
        Some((Meaning::Month { month: which? }, end))
    }

    // ---- day phrases ----

    /// Up to one day, one part of the day and one clock time, in any order, joined by
    /// connectors; `led` says a lead word ("by", "até", "on") came right before.
    fn day_phrase(&self, k: usize, led: bool) -> Option<(Meaning, usize)> {
        let mut day: Option<Day> = None;
        // A day implied by a part ("tonight" is today) gives way to one that is named.
        let mut implied = false;
        let mut time: Option<DayTime> = None;
        let mut j = k;
        let mut end = None;
        loop {
            let mut progressed = false;
            let first = end.is_none();
            // Try the component right here, then after one or two connectors.
            let mut starts = vec![j];
            if !first {
                if let Some(e) = self.pat(j, CONNECTORS) {
                    starts.push(e);
                    if let Some(e2) = self.pat(e, CONNECTORS) {
                        starts.push(e2);
                    }
                }
            }
            for s in starts {
                // A date after a weekday wins: "quinta que vem, dia 10", "Friday the 10th".
                let weekday_so_far = !implied && matches!(day, Some(Day::Weekday { .. }));
                if day.is_none() || implied || weekday_so_far {
                    let found = self.day(s, led || !first).filter(|(d, _)| !weekday_so_far || is_date(d));
                    if let Some((d, e)) = found {
                        day = Some(d);
                        implied = false;
                        j = e;
                        progressed = true;
                        break;
                    }
                }
                if time.is_none() {
                    if let Some((t, d, e)) = self.time_of_day(s, first) {
                        time = Some(t);
                        if day.is_none() && d.is_some() {
                            day = d;
                            implied = true;
                        }
                        j = e;
                        progressed = true;
                        break;
                    }
                }
            }
            if !progressed {
                break;
            }
            end = Some(j);
        }
        let end = end?;
        let time = time.unwrap_or(DayTime::Close);
        let day = day.unwrap_or(Day::Today);
        Some((Meaning::Day { day, time }, end))
    }

    /// A day: today, tomorrow, a weekday, a date. `context` means something before it already
    /// says it is a time (a lead, or another part of the phrase).
    fn day(&self, i: usize, context: bool) -> Option<(Day, usize)> {
        let mut best: Option<(Day, usize)> = None;
        let mut keep = |found: Option<(Day, usize)>| {
            if let Some(f) = found {
                if best.as_ref().is_none_or(|b| f.1 > b.1) {
                    best = Some(f);
                }
            }
        };
        // "a compensação de hoje": a thing of today, not a time.
        let of_a_noun = i > 1
            && self.pat(i - 1, "de").is_some()
            && self
                .pat(i - 2, "antes|depois|dps|partir|apos|ate|fim|final|inicio|comeco|tarde|manha|noite")
                .is_none()
            && self.t[i - 2].kind == Kind::Word;
        if !of_a_noun {
            keep(self.pat(i, TODAY).map(|e| (Day::Today, e)));
        }
        keep(self.pat(i, TOMORROW).map(|e| (Day::Tomorrow, e)));
        keep(
            self.any(i, &[&format!("the? day after {TOMORROW}"), "depois|dps de amanha|amnh"])
                .map(|e| (Day::DayAfterTomorrow, e)),
        );
        keep(self.weekday(i, context));
        keep(self.date(i));
        best
    }

    fn weekday(&self, i: usize, context: bool) -> Option<(Day, usize)> {
        let mut j = i;
        let mut week = WeekOf::Coming;
        let mut modified = false;
        if let Some(e) = self.pat(i, "this? next|nxt") {
            week = WeekOf::Next;
            modified = true;
            j = e;
        } else if let Some(e) =
            self.any(i, &["this|the coming", "coming", "a|na|no|da|do? proxima|proximo|prox"])
        {
            modified = true;
            j = e;
        } else if let Some(e) = self.pat(i, "this|nesta|nessa|esta|essa|desta|dessa|neste|nesse|este|esse") {
            week = WeekOf::This;
            modified = true;
            j = e;
        }
        let (weekday, strength, mut end) = self.weekday_word(j)?;
        let mut feira = false;
        if let Some(e) = self.pat(end, "-? feira|fra|fr") {
            end = e;
            feira = true;
        }
        // Said of the past: "last Tuesday", "sexta passada", "Sunday's outage"; and days that are
        // names of their own: "Black Friday", "Cyber Monday".
        // "a reunião de sexta", "o voo de sábado": a weekday naming a thing, not a time.
        let of_a_noun = j > 1
            && self.pat(j - 1, "de").is_some()
            && self.pat(j - 2, "antes|depois|dps|partir|apos|ate|fim|final|inicio|comeco").is_none()
            && self.t[j - 2].kind == Kind::Word;
        if of_a_noun
            || (j > 0 && self.pat(j - 1, "last|past|passada|passado|ultima|ultimo|black|cyber").is_some())
            || self.pat(end, "passada|passado|retrasada|' s|last").is_some()
        {
            return None;
        }
        // "segunda-feira próxima": the coming one, like "na próxima segunda".
        if let Some(e) = self.pat(end, "proxima|proximo") {
            end = e;
            modified = true;
        }
        // Next week's: "sexta que vem", "Tuesday next week", "sexta da semana que vem", "na
        // sexta-feira da próxima semana".
        if let Some(e) = self.any(
            end,
            &[
                "que|q vem",
                ",? next|nxt week|wk",
                ",? of next week",
                "da|na|dessa semana|sem que|q vem",
                "da|na proxima|prox semana|sem",
            ],
        ) {
            end = e;
            modified = true;
            week = WeekOf::Next;
        }
        let before = if j > 0 { self.text(j - 1) } else { None };
        let temporal_before = before.is_some_and(|b| {
            matches!(
                b,
                "na" | "no"
                    | "ate"
                    | "pra"
                    | "pro"
                    | "para"
                    | "de"
                    | "on"
                    | "by"
                    | "til"
                    | "till"
                    | "until"
                    | "before"
                    | "b4"
                    | "from"
                    | "for"
                    | "antes"
                    | "depois"
                    | "dps"
                    | "hasta"
                    | "thru"
                    | "through"
                    | "probably"
                    | "hopefully"
                    | "maybe"
                    | "talvez"
                    | "provavelmente"
                    | "ou"
                    | "or"
                    | "e"
                    | "n"
                    | "and"
                    | "&"
            )
        });
        let after = self.text(end);
        let after_ok = match self.t.get(end) {
            None => true,
            Some(t) if t.kind == Kind::Punct => true,
            Some(_) => {
                after.is_some_and(|a| {
                    matches!(
                        a,
                        "morning"
                            | "afternoon"
                            | "evening"
                            | "night"
                            | "arvo"
                            | "am"
                            | "pm"
                            | "manha"
                            | "tarde"
                            | "noite"
                            | "cedo"
                            | "cedinho"
                            | "de"
                            | "a"
                            | "as"
                            | "at"
                            | "pela"
                            | "pelo"
                            | "dps"
                            | "depois"
                            | "apos"
                            | "entre"
                            | "between"
                            | "first"
                            | "lunchtime"
                            | "lunch"
                            | "noon"
                            | "midday"
                    )
                }) || self.number(end).is_some()
            }
        };
        let ok = match strength {
            Strength::Strong => true,
            Strength::Ordinal => {
                // "a segunda opção", "sua quinta parcela": an ordinal. "na segunda", "te ligo
                // segunda": a weekday.
                let noun_after = after.is_some_and(|a| ORDINAL_NOUNS.contains(&a));
                // "até a 6ª" is a lead and its article, not "a sexta parcela".
                let led_article = j > 1 && self.pat(j - 2, "ate|antes|depois|para|pra|dps").is_some();
                let article_before = !led_article
                    && before.is_some_and(|b| {
                        matches!(b, "a" | "uma" | "pela" | "sua" | "seu" | "minha" | "nossa" | "o")
                    });
                feira || (!noun_after && (modified || !article_before))
            }
            Strength::Weak => {
                feira
                    || modified
                    || temporal_before
                    || context
                    || (after_ok && self.t.get(end).is_some_and(|t| t.kind == Kind::Word))
            }
        };
        if !ok {
            return None;
        }
        Some((Day::Weekday { weekday, week }, end))
    }

    /// A weekday's name at `j` ("sexta", "fri", "sxta") or its Portuguese ordinal ("5ª", "6a"),
    /// with its strength and where it ends.
    fn weekday_word(&self, j: usize) -> Option<(Weekday, Strength, usize)> {
        if let Some(n) = self.number(j).filter(|_| self.t[j].text.len() == 1) {
            if self.glued(j + 1) && self.pat(j + 1, "o|a").is_some() {
                let weekday = match n {
                    2 => Weekday::Monday,
                    3 => Weekday::Tuesday,
                    4 => Weekday::Wednesday,
                    5 => Weekday::Thursday,
                    6 => Weekday::Friday,
                    _ => return None,
                };
                return Some((weekday, Strength::Ordinal, j + 2));
            }
            return None;
        }
        let (weekday, strength) = weekday_name(self.text(j)?)?;
        Some((weekday, strength, j + 1))
    }

    /// "dia 15", "15/12", "15/12/2025", "Dec 15", "December 15th", "20 May", "14 de novembro",
    /// "the 28th".
    fn date(&self, i: usize) -> Option<(Day, usize)> {
        // "dia 15", "dia 14 de novembro", "dia 15/12".
        if let Some(e) = self.pat(i, "dia") {
            // "o pedido do dia 2": a thing of that day, not a time.
            let of_a_noun = i > 1
                && self.pat(i - 1, "do|de").is_some()
                && self
                    .pat(i - 2, "antes|depois|dps|partir|apos|ate|fim|final|inicio|comeco|manha|tarde|noite")
                    .is_none()
                && self.t[i - 2].kind == Kind::Word;
            if of_a_noun {
                return None;
            }
            if let Some(found) = self.numeric_date(e).or_else(|| self.day_month(e)) {
                return Some(found);
            }
            let day = self.day_number(e)?;
            return Some((Day::DayOfMonth { day }, self.ordinal_suffix(e + 1)));
        }
        if let Some(found) = self.numeric_date(i) {
            return Some(found);
        }
        if let Some(found) = self.day_month(i) {
            return Some(found);
        }
        // "Dec 15", "December 15th, 2025".
        if let Some(month) = self.text(i).and_then(month_name).filter(|(_, weak)| !weak).map(|(m, _)| m) {
            // "Dec 15", "Dec. 15".
            let at = if self.glued(i + 1) && self.text(i + 1) == Some(".") { i + 2 } else { i + 1 };
            let day = self.day_number(at)?;
            let mut end = self.ordinal_suffix(at + 1);
            let mut year = None;
            if let Some(y) = self.pat(end, ",?").and_then(|e| self.year(e).map(|y| (y, e + 1))) {
                year = Some(y.0);
                end = y.1;
            }
            return valid_date(month, day, year).map(|d| (d, end));
        }
        // "the 28th".
        if let Some(e) = self.pat(i, "the") {
            let day = self.day_number(e)?;
            let end = self.ordinal_suffix(e + 1);
            if end > e + 1 {
                return Some((Day::DayOfMonth { day }, end));
            }
        }
        None
    }

    /// "15/12", "15/12/2025", "15-12" (day first; a first number over 12 or a second over 12
    /// settles which is which).
    fn numeric_date(&self, i: usize) -> Option<(Day, usize)> {
        let a = self.number(i)?;
        // "23/dez": a day and a month's name.
        if self.glued(i + 1) && self.text(i + 1) == Some("/") && self.glued(i + 2) {
            if let Some((month, _)) = self.text(i + 2).and_then(month_name) {
                let day = u8::try_from(a).ok()?;
                return valid_date(month, day, None).map(|d| (d, i + 3));
            }
        }
        // "até 30.11", "dia 10.12": a dotted date, only after a word that leads to a date.
        if self.glued(i + 1) && self.text(i + 1) == Some(".") && self.glued(i + 2) && i > 0 {
            let led = self.pat(i - 1, "ate|dia|em|no|by|on|until|till|before|antes").is_some();
            let b = self.number(i + 2).filter(|_| self.t[i + 2].text.len() == 2 && self.t[i].text.len() <= 2);
            if let (true, Some(b)) = (led, b) {
                if self.number(i + 4).is_none() || !self.glued(i + 3) {
                    let (day, month) = (u8::try_from(a).ok()?, u8::try_from(b).ok()?);
                    if let Some(date) = valid_date(month, day, None) {
                        return Some((date, i + 3));
                    }
                }
            }
        }
        if !(self.glued(i + 1) && self.text(i + 1) == Some("/") && self.glued(i + 2)) {
            return None;
        }
        let b = self.number(i + 2)?;
        if (a, b) == (24, 7) {
            return None;
        }
        let mut end = i + 3;
        let mut year = None;
        if self.glued(end) && self.text(end) == Some("/") && self.glued(end + 1) {
            year = Some(self.year(end + 1)?);
            end += 2;
        }
        if (1..=12).contains(&a) && (1..=12).contains(&b) && a != b {
            // Day first or month first: the calendar's country decides.
            let (first, second) = (u8::try_from(a).ok()?, u8::try_from(b).ok()?);
            return Some((Day::NumericDate { first, second, year }, end));
        }
        let (day, month) = if a <= 12 && b > 12 { (b, a) } else { (a, b) };
        let day = u8::try_from(day).ok()?;
        let month = u8::try_from(month).ok()?;
        valid_date(month, day, year).map(|d| (d, end))
    }

    /// "20 May", "19th of April", "14 de novembro de 2025".
    fn day_month(&self, i: usize) -> Option<(Day, usize)> {
        let day = self.day_number(i)?;
        let after_day = self.ordinal_suffix(i + 1);
        let (j, with_de) = match self.pat(after_day, "of|de") {
            Some(e) => (e, true),
            None => (after_day, false),
        };
        let (month, weak) = self.text(j).and_then(month_name)?;
        if weak && !with_de {
            return None;
        }
        let mut end = j + 1;
        let mut year = None;
        if let Some(e) = self.pat(end, "de|,?") {
            if let Some(y) = self.year(e) {
                year = Some(y);
                end = e + 1;
            }
        }
        valid_date(month, day, year).map(|d| (d, end))
    }

    fn day_number(&self, i: usize) -> Option<u8> {
        self.number(i).filter(|n| (1..=31).contains(n)).and_then(|n| u8::try_from(n).ok())
    }

    fn ordinal_suffix(&self, i: usize) -> usize {
        if self.glued(i) && self.pat(i, "st|nd|rd|th|o").is_some() {
            i + 1
        } else {
            i
        }
    }

    fn year(&self, i: usize) -> Option<i16> {
        let n = self.number(i)?;
        let digits = self.t.get(i)?.text.len();
        match (digits, n) {
            (4, 2000..=2100) => i16::try_from(n).ok(),
            (2, _) => i16::try_from(2000 + n).ok(),
            _ => None,
        }
    }

    // ---- parts of the day and clock times ----

    /// A part of the day or a clock time, with the day it implies ("tonight" is today). `first`
    /// is true when nothing of the phrase came before it.
    fn time_of_day(&self, i: usize, first: bool) -> Option<(DayTime, Option<Day>, usize)> {
        let mut best: Option<(DayTime, Option<Day>, usize)> = None;
        let mut keep = |found: Option<(DayTime, Option<Day>, usize)>| {
            if let Some(f) = found {
                if best.as_ref().is_none_or(|b| f.2 > b.2) {
                    best = Some(f);
                }
            }
        };
        keep(self.part_of_day(i, first));
        keep(self.clock_phrase(i).map(|(t, e)| (t, None, e)));
        best
    }

    fn part_of_day(&self, i: usize, first: bool) -> Option<(DayTime, Option<Day>, usize)> {
        if i > 0 && self.text(i - 1).is_some_and(|w| GREETINGS.contains(&w)) {
            return None;
        }
        let today = Some(Day::Today);
        let table: &[(&str, DayTime, Option<Day>, bool)] = &[
            // (pattern, part, implied day, allowed first)
            ("the? end of the? business|working? day", DayTime::Close, None, true),
            ("the? end|close of business|play", DayTime::Close, None, true),
            ("the? end of business|the? day? today", DayTime::Close, today, true),
            ("the? end of today", DayTime::Close, today, true),
            ("eod|cob|eob", DayTime::Close, None, true),
            ("e . o . d .?", DayTime::Close, None, true),
            ("c . o . b .?", DayTime::Close, None, true),
            ("o|a? fim|final do dia|expediente", DayTime::Close, None, true),
            ("o? encerramento do expediente", DayTime::Close, None, true),
            ("o? fim|final do dia de hoje", DayTime::Close, today, true),
            ("first thing in? the? morning?", DayTime::Morning, Some(Day::NextBusinessDay), true),
            ("this morning|mornin|am", DayTime::Morning, today, true),
            ("in the morning|mornin", DayTime::Morning, Some(Day::NextBusinessDay), true),
            ("the morning|mornin", DayTime::Morning, None, true),
            ("morning|mornin|morn", DayTime::Morning, None, false),
            ("de|pela|da manha|manhazinha", DayTime::Morning, Some(Day::NextBusinessDay), true),
            ("na|no parte|periodo da manha", DayTime::Morning, Some(Day::NextBusinessDay), true),
            ("periodo da manha", DayTime::Morning, None, false),
            ("manha|manhazinha", DayTime::Morning, None, false),
            ("logo|bem? cedo|cedinho", DayTime::Morning, None, false),
            ("logo pela manha", DayTime::Morning, Some(Day::NextBusinessDay), true),
            ("nesta|esta|essa|nessa manha", DayTime::Morning, today, true),
            ("this afternoon|arvo|aft|avo", DayTime::Afternoon, today, true),
            ("in the afternoon|arvo", DayTime::Afternoon, today, true),
            ("the afternoon", DayTime::Afternoon, None, true),
            ("afternoon|arvo", DayTime::Afternoon, None, false),
            ("after|post lunch|lunchtime", DayTime::Afternoon, None, true),
            ("lunchtime|lunch", DayTime::At { hour: 12, minute: 0 }, None, false),
            ("lunch time", DayTime::At { hour: 12, minute: 0 }, None, false),
            ("the following morning", DayTime::Morning, Some(Day::Tomorrow), true),
            ("a|de|pela|da tarde|tardinha", DayTime::Afternoon, today, true),
            ("na|no parte|periodo da tarde", DayTime::Afternoon, today, true),
            ("periodo da tarde", DayTime::Afternoon, None, false),
            ("tarde|tardinha", DayTime::Afternoon, None, false),
            ("o|a? fim|final da tarde", DayTime::Afternoon, today, true),
            ("nesta|esta|essa|nessa tarde", DayTime::Afternoon, today, true),
            ("depois|dps|apos do|o almoco", DayTime::Afternoon, None, true),
            ("this evening", DayTime::Evening, today, true),
            ("in the evening", DayTime::Evening, today, true),
            ("tonight|tonite|2nite|2night|tnite|2nyt", DayTime::Evening, today, true),
            ("evening|night|nite|eve", DayTime::Evening, None, false),
            ("a . m .?", DayTime::Morning, None, false),
            ("am", DayTime::Morning, None, false),
            ("p . m .?", DayTime::Afternoon, None, false),
            ("pm", DayTime::Afternoon, None, false),
            ("a|de|pela noite", DayTime::Evening, today, true),
            ("noite", DayTime::Evening, None, false),
            ("nesta|esta|essa|nessa noite", DayTime::Evening, today, true),
        ];
        let mut best: Option<(DayTime, Option<Day>, usize)> = None;
        for &(pattern, part, day, allowed_first) in table {
            if first && !allowed_first {
                continue;
            }
            if let Some(e) = self.pat(i, pattern) {
                if best.as_ref().is_none_or(|b| e > b.2) {
                    best = Some((part, day, e));
                }
            }
        }
        let (part, day, end) = best?;
        // "ontem à tarde", "yesterday afternoon": gone by.
        if i > 0 && self.pat(i - 1, "ontem|yesterday|anteontem").is_some() {
            return None;
        }
        // "tarde demais" is "too late"; "à tarde" after "mais" is "later".
        if self.pat(end, "demais").is_some() || (i > 0 && self.text(i - 1) == Some("mais")) {
            return None;
        }
        Some((part, day, end))
    }

    /// A clock time with its lead: "at 5pm", "até as 12h", "by noon", "between 10 and 12",
    /// "entre 14h e 18h", "a partir das 14h", "17h".
    fn clock_phrase(&self, i: usize) -> Option<(DayTime, usize)> {
        let deadline_leads = [
            "at|by|before|b4|around|round|about|until|till|til|untill|between|btwn|betw|approx|approximately|@",
            "by|before no? later than",
            "no|not later than",
            "as|ate|antes|pelas|entre|das",
            "ate|antes as|das|da|de|a",
            "ate no maximo as?",
            "umas",
            "la pelas|pela",
            "por volta das|da|de",
        ];
        let after_leads = ["from|after", "a partir das|da|de", "depois|dps|apos das|da|as"];
        let mut found: Option<(DayTime, usize)> = None;
        let mut keep = |f: Option<(DayTime, usize)>| {
            if let Some(f) = f {
                if found.as_ref().is_none_or(|b| f.1 > b.1) {
                    found = Some(f);
                }
            }
        };
        // Noon and midnight, and lunch with a lead.
        let noon = "noon|midday|meiodia|12noon";
        for (lead, is_after) in deadline_leads
            .iter()
            .map(|l| (*l, false))
            .chain(after_leads.iter().map(|l| (*l, true)))
            .chain([("", false)])
        {
            let start = if lead.is_empty() { Some(i) } else { self.pat(i, lead) };
            let Some(s) = start else { continue };
            let has_lead = s > i;
            let named = self
                .any(s, &[noon, "12 noon", "meio -? dia", "o meio -? dia"])
                .map(|e| (12, 0, e))
                .or_else(|| {
                    self.any(s, &["midnight", "meia -? noite", "a meia -? noite"]).map(|e| (23, 59, e))
                })
                .or_else(|| {
                    if has_lead {
                        self.any(s, &["the? lunch|lunchtime", "lunch time", "o? almoco", "a hora do almoco"])
                            .map(|e| (12, 0, e))
                    } else {
                        None
                    }
                });
            if let Some((hour, minute, e)) = named {
                // "between noon and 2": the range's end.
                let range_end = self
                    .pat(e, "-|to|and|n|&|e|a|ate")
                    .and_then(|sep| self.clock(sep, true))
                    .filter(|(c2, _)| c2.hour > hour && !is_after);
                if let Some((c2, e2)) = range_end {
                    keep(Some((DayTime::At { hour: c2.hour, minute: c2.minute }, e2)));
                    continue;
                }
                let t = if is_after { DayTime::After { hour, minute } } else { DayTime::At { hour, minute } };
                keep(Some((t, e)));
                continue;
            }
            // "Tue 2-4pm": a bare hour may start a range whose end is written as a time.
            let bare_range_start = || {
                let (c, e) = self.clock(s, true)?;
                let sep = self.pat(e, "-|to|a|ate")?;
                self.clock(sep, false).filter(|(end, _)| end.explicit).map(|_| (c, e))
            };
            let first = self.clock(s, has_lead).or_else(|| if has_lead { None } else { bare_range_start() });
            let Some((c1, e1)) = first else { continue };
            // A range: its end is the deadline.
            let range_end = self
                .any(
                    e1,
                    &["-|to|and|n|&|e|a|ate|as|till|until|til", "e|and as|at", "to|till|until|ate as|the"],
                )
                .and_then(|sep| self.clock(sep, true))
                .filter(|(c2, _)| c2.explicit || c1.explicit || has_lead);
            let t = match range_end {
                Some((c2, e2)) => {
                    let mut c2 = c2;
                    // "8-12": the later hour; "between 2 n 5" reads both in the afternoon.
                    if !c2.explicit && c2.hour < c1.hour && c2.hour + 12 < 24 {
                        c2.hour += 12;
                    }
                    (DayTime::At { hour: c2.hour, minute: c2.minute }, e2)
                }
                None if is_after => (DayTime::After { hour: c1.hour, minute: c1.minute }, e1),
                None => (DayTime::At { hour: c1.hour, minute: c1.minute }, e1),
            };
            keep(Some(t));
        }
        found
    }

    /// One clock time. Without a lead it must be unmistakable ("5pm", "17h", "12:30").
    fn clock(&self, i: usize, has_lead: bool) -> Option<(Clock, usize)> {
        if let Some(e) = self.any(i, &["noon|midday|meiodia", "12 noon|midday", "meio -? dia"]) {
            return Some((Clock { hour: 12, minute: 0, explicit: true }, e));
        }
        let hour = self.number(i)?;
        if hour > 24 || self.t.get(i)?.text.len() > 2 {
            return None;
        }
        let mut minute = 0u32;
        let mut end = i + 1;
        let mut explicit = false;
        // "12:30", "5.30pm", "7h30", "12h", "16hs".
        let mut minute_written = false;
        let mut meridiem_written = false;
        if self.glued(end) && self.text(end) == Some(":") && self.glued(end + 1) {
            if let Some(m) = self.number(end + 1).filter(|_| self.t[end + 1].text.len() == 2) {
                minute = m;
                end += 2;
                explicit = true;
                minute_written = true;
            }
        } else if self.pat(end, "h|hs").is_some() || (self.glued(end) && self.pat(end, "hrs|hr").is_some()) {
            end += 1;
            explicit = true;
            if self.glued(end) {
                if let Some(m) = self.number(end).filter(|_| self.t[end].text.len() == 2) {
                    minute = m;
                    end += 1;
                }
            }
        } else if self.glued(end) && self.text(end) == Some(".") && self.glued(end + 1) {
            if let Some(m) = self.number(end + 1).filter(|_| self.t[end + 1].text.len() == 2) {
                if self.meridiem(end + 2).is_some() {
                    minute = m;
                    end += 2;
                }
            }
        }
        if minute > 59 {
            return None;
        }
        let mut hour = hour;
        if let Some((pm, e)) = self.meridiem(end) {
            if hour > 12 || hour == 0 {
                return None;
            }
            hour = match (pm, hour) {
                (true, 12) => 12,
                (true, h) => h + 12,
                (false, 12) => 0,
                (false, h) => h,
            };
            end = e;
            explicit = true;
            meridiem_written = true;
        } else if let Some(e) = self.any(end, &["horas|hora|oclock", "o ' clock"]) {
            if !has_lead {
                return None;
            }
            end = e;
            explicit = true;
        } else if self.glued(end) && self.text(end) == Some("ish") && (1..=12).contains(&hour) {
            // "10ish", "3ish": a time of day, read in working hours.
            end += 1;
            explicit = true;
            minute_written = true;
        }
        // "4:30" with neither am nor pm is read in working hours, like a bare hour.
        if minute_written && !meridiem_written && (1..=7).contains(&hour) {
            hour += 12;
        }
        if !explicit {
            if !has_lead || !(1..=12).contains(&hour) || !self.bare_hour_may_end(end) {
                return None;
            }
            // A bare hour in working hours: 1 to 7 is the afternoon.
            if hour <= 7 {
                hour += 12;
            }
        }
        if hour == 24 && !has_lead {
            return None; // "atendimento 24h"
        }
        let (hour, minute) = if hour == 24 { (23, 59) } else { (hour, minute) };
        Some((Clock { hour: u8::try_from(hour).ok()?, minute: u8::try_from(minute).ok()?, explicit }, end))
    }

    fn bare_hour_may_end(&self, end: usize) -> bool {
        match self.t.get(end) {
            None => true,
            Some(t) if t.kind == Kind::Punct => {
                !matches!(t.text.as_str(), "/" | "%" | "$" | ":" | "." | "-" | "x" | "€" | "£")
                    || (t.text == "." && self.number(end + 1).is_none())
                    || (t.text == "-" && self.number(end + 1).is_some())
            }
            Some(t) => {
                AFTER_BARE_HOUR.contains(&t.text.as_str())
                    || weekday_name(&t.text).is_some()
                    || self.pat(end, TODAY).is_some()
                    || self.pat(end, TOMORROW).is_some()
            }
        }
    }

    /// "am"/"pm" in their spellings, and "da manhã" / "da tarde" / "da noite".
    fn meridiem(&self, i: usize) -> Option<(bool, usize)> {
        if let Some(e) = self.any(i, &["pm", "p . m .?", "p m"]) {
            return Some((true, e));
        }
        if let Some(e) = self.any(i, &["am", "a . m .?"]) {
            return Some((false, e));
        }
        if let Some(e) = self.pat(i, "da|de tarde|noite") {
            return Some((true, e));
        }
        if let Some(e) = self.pat(i, "da|de manha") {
            return Some((false, e));
        }
        None
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// Only ever a weekday ("Monday", "sábado", "fri").
    Strong,
    /// Also an ordinal in Portuguese ("segunda", "quinta").
    Ordinal,
    /// Also an ordinary word ("sat", "sun", "ter", "sex").
    Weak,
}

fn weekday_name(word: &str) -> Option<(Weekday, Strength)> {
    use Strength::*;
    use Weekday::*;
    Some(match word {
        "monday" | "mon" => (Monday, Strong),
        "tuesday" | "tue" | "tues" => (Tuesday, Strong),
        "wednesday" | "wed" | "weds" => (Wednesday, Strong),
        "thursday" | "thu" | "thur" | "thurs" | "thr" => (Thursday, Strong),
        "friday" | "fri" => (Friday, Strong),
        "saturday" => (Saturday, Strong),
        "sunday" => (Sunday, Strong),
        "sat" => (Saturday, Weak),
        "sun" => (Sunday, Weak),
        "segunda" => (Monday, Ordinal),
        "terca" => (Tuesday, Ordinal),
        "quarta" => (Wednesday, Ordinal),
        "quinta" => (Thursday, Ordinal),
        "sexta" => (Friday, Ordinal),
        "sabado" | "sab" => (Saturday, Strong),
        "domingo" => (Sunday, Strong),
        "seg" => (Monday, Strong),
        "ter" => (Tuesday, Weak),
        "qua" | "qrta" | "qrt" => (Wednesday, Strong),
        "qui" | "qnta" | "qnt" => (Thursday, Strong),
        "sxta" | "sxt" | "sext" => (Friday, Strong),
        "sex" => (Friday, Weak),
        "dom" => (Sunday, Weak),
        _ => return None,
    })
}

/// A month name and whether it is also a common word that needs "de" before it ("out", "set").
fn month_name(word: &str) -> Option<(u8, bool)> {
    Some(match word {
        "january" | "jan" | "janeiro" => (1, false),
        "february" | "feb" | "fevereiro" | "fev" => (2, false),
        "march" | "mar" | "marco" => (3, false),
        "april" | "apr" | "abril" | "abr" => (4, false),
        "may" | "maio" | "mai" => (5, false),
        "june" | "jun" | "junho" => (6, false),
        "july" | "jul" | "julho" => (7, false),
        "august" | "aug" | "agosto" | "ago" => (8, false),
        "september" | "sep" | "sept" | "setembro" => (9, false),
        "set" => (9, true),
        "october" | "oct" | "outubro" => (10, false),
        "out" => (10, true),
        "november" | "nov" | "novembro" => (11, false),
        "december" | "dec" | "dezembro" | "dez" => (12, false),
        _ => return None,
    })
}

/// A day named by its date rather than by a weekday or a word.
fn is_date(day: &Day) -> bool {
    matches!(day, Day::DayOfMonth { .. } | Day::Date { .. } | Day::NumericDate { .. })
}

/// A date that exists in some year (29 February included).
fn valid_date(month: u8, day: u8, year: Option<i16>) -> Option<Day> {
    let max = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 => 29,
        _ => return None,
    };
    if day == 0 || day > max {
        return None;
    }
    if let Some(y) = year {
        jiff::civil::Date::new(y, i8::try_from(month).ok()?, i8::try_from(day).ok()?).ok()?;
    }
    Some(Day::Date { month, day, year })
}
