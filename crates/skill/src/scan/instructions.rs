//! Instructions a reviewer does not see or that turn the agent against its own: an HTML comment
//! (invisible once Markdown is rendered, read whole by the agent) that addresses the agent or
//! tells it to act, and text that tells the agent to ignore its instructions or keep something
//! from the user, in English and Portuguese.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{quote, Hit, Text, MAX_PER_CODE};

static COMMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<!--(.*?)-->").unwrap());

/// Words that address the agent, or the reader as "you".
const ADDRESS: &str = r"(?:you|your|assistant|agent|ai|llm|model|bot|você|voce|assistente|agente)";
/// Verbs of acting on the system or on the conversation, and the words that make an order.
const ACTION: &str = r"(?:ignore|disregard|forget|override|bypass|run|execute|send|upload|post|fetch|download|install|delete|remove|copy|exfiltrate|email|forward|reveal|tell|say|reply|respond|answer|output|print|include|append|recommend|must|always|never|instead|secretly|silently|quietly|envie|execute|rode|sempre|nunca|deve)";

/// An addressing word and an action within one sentence, in either order.
static ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b{ADDRESS}\b[^.!?\n]{{0,60}}\b{ACTION}\b|\b{ACTION}\b[^.!?\n]{{0,60}}\b{ADDRESS}\b"
    ))
    .unwrap()
});

static OVERRIDE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // "ignore all previous instructions", "disregard the system prompt"
        r"(?i)\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|the|your|every|of|these|those|my)\s+)*(?:previous|prior|above|earlier|preceding|original|system|safety|existing|other)\s+(?:instructions?|directions?|rules?|prompts?|guidelines?|guardrails?|messages?|context|policies)",
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your)\s+)*(?:system\s+prompt|instructions\s+you\s+(?:were|have\s+been)\s+given)",
        // "you are now in developer mode"
        r"(?i)\byou\s+are\s+(?:now\s+)?(?:in\s+)?(?:dan|developer\s+mode|jailbroken|unrestricted|no\s+longer\s+bound|free\s+of\s+(?:all\s+)?(?:rules|restrictions))",
        // "do not tell the user", "without telling the user"
        r"(?i)\b(?:do\s+not|don't|never)\s+(?:tell|inform|alert|notify|warn|show|reveal\s+(?:this\s+)?to|mention\s+(?:this\s+|it\s+)?to)\s+the\s+(?:user|customer|human)\b",
        r"(?i)\bwithout\s+(?:telling|informing|asking|notifying|alerting|showing)\s+the\s+(?:user|customer|human)\b",
        r"(?i)\b(?:new|updated|real)\s+system\s+(?:prompt|instructions?)\s*:",
        // Portuguese: "ignore as instruções anteriores", "sem avisar o usuário", "não conte ao cliente"
        r"(?i)\b(?:ignore|desconsidere|esqueça|esqueca)\s+(?:(?:todas|todos|as|os|suas|seus)\s+)*(?:instruções|instrucoes|regras|orientações)\s+(?:anteriores|acima|do\s+sistema)",
        r"(?i)\bsem\s+(?:avisar|informar|contar\s+a|contar\s+ao|perguntar\s+a|perguntar\s+ao)\s+(?:o\s+|a\s+)?(?:usuário|usuario|cliente)",
        r"(?i)\bnão\s+(?:conte|diga|avise|informe|mostre)\s+(?:nada\s+)?(?:ao|à|a)\s+(?:usuário|usuario|cliente)",
    ]
    .into_iter()
    .map(|re| Regex::new(re).expect("a valid override pattern"))
    .collect()
});

/// Reports hidden and overriding instructions in `text` (the first [`MAX_PER_CODE`] of each
/// pattern).
pub(super) fn check(text: &Text<'_>, out: &mut Vec<Hit>) {
    if text.is_prose() {
        let orders = COMMENT.captures_iter(text.text).filter(|caps| ORDER.is_match(&caps[1]));
        for caps in orders.take(MAX_PER_CODE) {
            let inner = caps.get(1).expect("group 1").as_str();
            let at = caps.get(0).expect("group 0").start();
            let message = format!("an HTML comment gives the agent instructions: \"{}\"", quote(inner));
            out.push(text.finding("html_comment_instruction", at, message));
        }
    }
    for re in OVERRIDE.iter() {
        let said = re.find_iter(text.text).filter(|m| !quoted(text.text, m.start(), m.end()));
        for m in said.take(MAX_PER_CODE) {
            let message = format!("text aimed at overriding the agent: \"{}\"", quote(m.as_str()));
            out.push(text.finding("agent_override_instruction", m.start(), message));
        }
    }
}

/// A phrase written inside quotation marks is being quoted (documentation about prompt
/// injection), not said to the agent.
fn quoted(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    matches!((before, after), (Some('"' | '“' | '\''), Some('"' | '”' | '\'')))
}
