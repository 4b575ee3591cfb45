//! English: the ways a support message promises that a person will follow up.
//!
//! Written against normalised text (lowercase, ASCII apostrophes): "I’ll" is `i'll` here.

use super::{gap, one_of, some_of};

/// Functions of a company: they name a team after a preposition or as a subject, but not as a
/// direct object ("let me check your billing" is about a bill, "check with billing" about people).
const FUNCTIONS: &[&str] = &[
    "billing",
    "sales",
    "support",
    "finance",
    "accounting",
    "logistics",
    "warehouse",
    "engineering",
    "legal",
    "accounts",
    "retention",
    "payments",
];

/// People and teams a customer can be promised contact from.
const PERSONS: &[&str] = &[
    "teams?",
    "departments?",
    "dept",
    "engineers?",
    "developers?",
    "managers?",
    "supervisors?",
    "specialists?",
    "experts?",
    "advis[oe]rs?",
    "consultants?",
    "agents?",
    "representatives?",
    "reps?",
    "colleagues?",
    "staff",
    "technicians?",
    "someone",
    "somebody",
    "person",
    "humans?",
    "members?",
    "associates?",
    "officers?",
    "coordinators?",
    "tier 2",
    "level 2",
    "second[- ]line",
    "customer (?:care|service)",
    "help ?desk",
    "service desk",
    "back office",
    "folks",
    "crew",
    "unit",
    "desk",
];

/// Other parties the assistant cannot reach from inside the chat.
const PARTIES: &[&str] =
    &["bank", "supplier", "manufacturer", "vendor", "store", "branch", "office", "partner"];

/// Words that may stand before a person or team ("one of our", "a member of the").
const DETERMINERS: &[&str] =
    &["a", "an", "the", "our", "my", "your", "one", "of", "member", "members", "some", "senior", "dedicated"];

/// Markers that turn the next verb into a commitment about later (with their leading space or
/// apostrophe, so that "they'll" and "will" both fit).
const FUTURE: &[&str] = &[
    " will",
    "'ll",
    " shall",
    " should",
    " is going to",
    " are going to",
    "'s going to",
    "'re going to",
    " is gonna",
    " are gonna",
    " is about to",
    " are about to",
    " is scheduled to",
    " is set to",
];

/// Adverbs and helpers that may sit between a marker and its verb ("will personally call").
const ADVERBS: &[&str] = &[
    "also",
    "then",
    "personally",
    "soon",
    "shortly",
    "directly",
    "promptly",
    "gladly",
    "definitely",
    "probably",
    "likely",
    "certainly",
    "quickly",
    "now",
    "today",
    "first",
    "just",
    "be able to",
    "be happy to",
    "be glad to",
    "need to",
    "want to",
    "try to",
];

/// What a person or team does when following up.
const FOLLOW_UP: &[&str] = &[
    "contact",
    "call",
    "phone",
    "ring",
    "text",
    "e-?mail",
    "message",
    "reach out",
    "reach you",
    "get in touch",
    "be in touch",
    "be in contact",
    "get in contact",
    "follow up",
    "get back",
    "reply",
    "respond",
    "answer you",
    "give you a (?:call|ring|buzz)",
    "drop you a",
    "look into",
    "take a look",
    "review",
    "investigate",
    "assess",
    "handle",
    "take over",
    "join",
    "assist",
    "help",
    "speak",
    "talk",
    "chat",
    "explain",
    "walk you",
    "sort",
    "resolve",
    "schedule",
    "arrange",
    "visit",
    "come",
    "confirm",
    "check",
    "pick (?:it|this) up",
    "take care",
    "be (?:contacting|reaching out|calling|following up|getting back|emailing|in touch)",
    "touch base",
    "update",
    "keep you",
    "take (?:it|this|over) from here",
    "take it over",
];

/// The follow-ups a pronoun may promise ("we'll email you the invoice" is not one of them).
const CONTACT: &[&str] = &[
    "contact",
    "call",
    "phone",
    "ring",
    "reach out",
    "reach you",
    "get in touch",
    "be in touch",
    "be in contact",
    "get in contact",
    "follow up",
    "get back",
    "reply",
    "respond",
    "give you a (?:call|ring|buzz)",
    "be (?:contacting|reaching out|calling|following up|getting back|in touch)",
    "touch base",
    "update you",
    "keep you",
    "let you know",
    "(?:e-?mail|text|message) you (?:back|once|when|as soon|within|tomorrow|later|shortly|soon)",
];

/// The assistant speaking of itself, about to do something.
const FIRST_PERSON: &[&str] = &[
    "i'll",
    "i will",
    "let me",
    "i'm going to",
    "i am going to",
    "i'm gonna",
    "i need to",
    "i have to",
    "i'll need to",
    "i'll have to",
    "i must",
    "we'll",
    "we will",
    "we need to",
    "we have to",
    "i'd like to",
    "i want to",
    "allow me to",
    "we're going to",
    "we are going to",
];

/// Checking something with someone ("check with the team", "run this by my manager").
const CONSULT: &[&str] = &[
    "check",
    "confirm",
    "verify",
    "consult",
    "talk",
    "speak",
    "ask",
    "double-check",
    "clarify",
    "discuss",
    "run (?:this|it|that)",
    "raise (?:this|it|that)",
    "bring (?:this|it) up",
    "coordinate",
    "touch base",
    "liaise",
    "check in",
    "find out",
    "confer",
    "see",
    "sort (?:this|it) out",
    "look into (?:this|it)",
    "follow up",
];

/// Checking something by going to someone directly ("ask billing", "chase the warehouse").
const CONSULT_DIRECT: &[&str] =
    &["ask", "consult", "chase", "contact", "ping", "page", "call", "e-?mail", "message", "notify", "alert"];

/// Prepositions joining a check to the people it is checked with.
const WITH: &[&str] = &["with", "to", "by", "from"];

/// Handing the conversation or the request to someone else, in every tense the assistant uses.
const FORWARD: &[&str] = &[
    "forward(?:ed|ing)?",
    "transfer(?:red|ring)?",
    "pass(?:ed|ing)?(?: (?:it|this|that))?(?: on| along| over)?",
    "hand(?:ed|ing)?(?: (?:it|this|that))?(?: over| off)?",
    "refer(?:red|ring)?",
    "rout(?:e|ed|ing)",
    "connect(?:ed|ing)?",
    "rais(?:e|ed|ing)",
    "flag(?:ged|ging)?",
    "assign(?:ed|ing)?",
    "put you through",
    "open(?:ed|ing)? a (?:support )?(?:ticket|case|request)",
    "submit(?:ted|ting)? (?:a|your|the) (?:ticket|request)",
    "log(?:ged|ging)?",
];

/// Subjects and auxiliaries in front of a forwarding verb ("I've", "I'm", "we have just").
const FORWARDER: &[&str] = &[
    "i'm",
    "i am",
    "we're",
    "we are",
    "i've",
    "i have",
    "we've",
    "we have",
    "i",
    "we",
    "i just",
    "i've just",
    "i have just",
    "i've already",
    "i already",
];

/// Where a forwarded request goes.
const TO: &[&str] =
    &["to", "with", "for", "over to", "along to", "on to", "through to", "in with", "onto", "into"];

/// Passive hand-overs ("has been passed to").
const PASSIVE: &[&str] = &[
    "has been",
    "have been",
    "had been",
    "was",
    "were",
    "is being",
    "are being",
    "'s been",
    "will be",
    "'ll be",
];

/// Bringing someone in directly ("I'll get someone from sales to call", "I'll have a technician call you").
const INVOLVE: &[&str] = &[
    "get",
    "have",
    "ask",
    "notify",
    "alert",
    "loop in",
    "bring in",
    "ping",
    "page",
    "contact",
    "call in",
    "connect you (?:with|to)",
    "transfer you to",
    "put you in touch with",
    "getting",
    "having",
    "asking",
    "notifying",
    "alerting",
    "looping in",
    "bringing in",
    "pinging",
    "paging",
    "contacting",
    "calling in",
    "connecting you (?:with|to)",
    "transferring you to",
    "putting you in touch with",
];

/// Inherently human contact the lead will receive ("you'll receive a call").
const HUMAN_CONTACT: &[&str] = &["call", "phone call", "call ?back", "follow-up", "visit", "ring"];

/// Contact that may be automatic, human only when a person sends it ("an email from billing").
const MEDIA: &[&str] =
    &["e-?mail", "message", "reply", "response", "answer", "text", "update", "quote", "proposal", "note"];

/// A person or team as a subject ("one of our agents"); the words between it and its verb are
/// left to the rule's gap ("our billing specialists are going to").
fn people() -> String {
    format!("{}{}", some_of(DETERMINERS, 3), any_people())
}

fn any_people() -> String {
    format!("(?:{}|{})", one_of(PERSONS), one_of(FUNCTIONS))
}

/// A person or team after a preposition, with up to two modifiers ("from our claims team").
fn named_people() -> String {
    format!(r"{}(?:[a-z-]+ ){{0,2}}{}", some_of(DETERMINERS, 3), any_people())
}

fn first_person() -> String {
    format!("{}(?: {})?", one_of(FIRST_PERSON), one_of(ADVERBS))
}

/// A person or team, then a future follow-up: "someone from billing will call you".
fn person_will_follow_up() -> String {
    format!(
        r"\b{people}{gap}{future}(?: {adverb}){{0,2}} {follow}\b",
        people = people(),
        gap = gap(6),
        future = one_of(FUTURE),
        adverb = one_of(ADVERBS),
        follow = one_of(FOLLOW_UP),
    )
}

/// "they'll be in touch", "we will call you back".
fn pronoun_will_contact() -> String {
    format!(
        r"\b(?:they|he|she|we|who){future}(?: {adverb}){{0,2}} {contact}\b",
        future = one_of(FUTURE),
        adverb = one_of(ADVERBS),
        contact = one_of(CONTACT),
    )
}

/// The assistant will check with people it cannot reach in the chat: "I'll check with the team".
fn consult_people() -> String {
    format!(
        r"\b(?:{me}|i'm|i am) (?:{consult}(?:ing)?{gap} {with}|{direct}(?:ing)?) {dets}(?:[a-z-]+ ){{0,2}}(?:{people}|{parties})\b",
        me = first_person(),
        consult = one_of(CONSULT),
        direct = one_of(CONSULT_DIRECT),
        gap = gap(4),
        with = one_of(WITH),
        dets = some_of(DETERMINERS, 3),
        people = any_people(),
        parties = one_of(PARTIES),
    )
}

/// The assistant will come back later by itself: "I'll get back to you", "I'll keep you posted".
fn come_back_later() -> String {
    let returns = [
        "get back (?:to|with) you", "follow up(?: with you| by| via| on| once| when| as soon| tomorrow| later|\\s*[.,;!]|$)",
        "be in touch", "reach out (?:to you|again|once|when|as soon|tomorrow|later)", "circle back", "come back to you",
        "update you", "keep you (?:posted|updated|informed|in the loop)",
        "let you know (?:as soon as|once|when|what|if|whether|how)", "call you", "ring you", "phone you",
        "give you a (?:call|ring)", "contact you", "(?:e-?mail|text|message) you (?:back|once|when|as soon|later|tomorrow|with (?:an update|the outcome|the answer|news))",
        "touch base", "check back (?:with you|in)", "be back (?:in touch|with)",
    ];
    let returns = one_of(&returns);
    let subject = one_of(&[
        "i'll",
        "i will",
        "we'll",
        "we will",
        "i'm going to",
        "i am going to",
        "we're going to",
        "we are going to",
        "i shall",
        "we shall",
        "i'm gonna",
    ]);
    format!(
        r"\b(?:{subject}(?: {adverb}){{0,2}} {returns}|and (?:then )?(?:get back to you|follow up with you|circle back|be in touch|come back to you|update you|reach out to you|let you know (?:as soon as|once|when|what)))",
        adverb = one_of(ADVERBS),
    )
}

/// The request goes to someone else: "I'll forward your request to our returns department".
/// Sending goes *to* someone; "send the link for our sales promotion" sends nothing to people.
fn forward_to_people() -> String {
    format!(
        r"\b(?:(?:{me}|{forwarder}) (?:{forward})|{passive} (?:{forward})){gap} {to} {people}\b|\b(?:{me}|{forwarder}|{passive}) (?:send(?:ing)?|sent){gap} (?:over |along |on )?to {people}\b",
        me = first_person(),
        forwarder = one_of(FORWARDER),
        forward = one_of(FORWARD),
        passive = one_of(PASSIVE),
        gap = gap(5),
        to = one_of(TO),
        people = named_people(),
    )
}

/// Someone is brought in directly: "I'll have a technician call you", "let me transfer you to a human agent".
fn involve_people() -> String {
    format!(
        r"\b(?:{me}|{forwarder}) {involve} {people}\b",
        me = first_person(),
        forwarder = one_of(&["i'm", "i am", "i've", "i have"]),
        involve = one_of(INVOLVE),
        people = named_people(),
    )
}

/// Escalating is a hand-over to people by definition: "let me escalate this".
fn escalate() -> String {
    format!(
        r"\b(?:(?:{me}|{forwarder}) escalat(?:e|ed|ing)|{passive} escalated)\b",
        me = first_person(),
        forwarder = one_of(FORWARDER),
        passive = one_of(PASSIVE),
    )
}

/// The lead is told they will hear from a person: "you'll hear from our claims team".
fn lead_will_hear() -> String {
    format!(
        r"\byou(?:'ll| will| should|'re going to| are going to)(?: {adverb}){{0,2}} (?:hear (?:back )?from (?:{people}|us|them)|(?:receive|get|be getting|be receiving|have) (?:a |an |the |your )?(?:{human}|{media}{gap} (?:from|by) (?:{people}|us|them))|be (?:contacted|called|phoned|reached|visited))\b",
        adverb = one_of(ADVERBS),
        people = named_people(),
        human = one_of(HUMAN_CONTACT),
        media = one_of(MEDIA),
        gap = gap(3),
    )
}

/// The lead is asked to wait for a person: "please wait for a call from our support team".
fn wait_for_contact() -> String {
    format!(
        r"\b(?:wait for|expect|look out for|keep an eye out for|watch for|await|stand by for) (?:a |an |the |their |our |your )?(?:{human}|{media}{gap} from (?:{people}|us|them))\b",
        human = one_of(HUMAN_CONTACT),
        media = one_of(MEDIA),
        gap = gap(3),
        people = named_people(),
    )
}

/// The English rules, named.
pub(super) fn rules() -> Vec<(&'static str, String)> {
    vec![
        ("en.person_will_follow_up", person_will_follow_up()),
        ("en.pronoun_will_contact", pronoun_will_contact()),
        ("en.consult_people", consult_people()),
        ("en.come_back_later", come_back_later()),
        ("en.forward_to_people", forward_to_people()),
        ("en.involve_people", involve_people()),
        ("en.escalate", escalate()),
        ("en.lead_will_hear", lead_will_hear()),
        ("en.wait_for_contact", wait_for_contact()),
    ]
}
