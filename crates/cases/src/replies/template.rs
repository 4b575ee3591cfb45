//! The variables a saved reply may use and the one function that fills them in.
//!
//! A variable is written `{{name}}` (spaces inside the braces allowed). Its value comes from the
//! case the reply is inserted into, or from the person at this desktop. Bodies are checked when
//! saved, so an unknown variable is refused with its name then, never discovered while answering;
//! a known variable whose value is empty (a lead without a name) renders empty. `{{` without a
//! closing `}}` is plain text.

use super::super::error::CasesError;
use super::super::model::Case;

/// Every variable a body may use, in the order Settings lists them.
pub const VARIABLES: [&str; 9] = [
    "lead.name",
    "lead.contact",
    "lead.channel",
    "case.number",
    "case.title",
    "case.summary",
    "case.blocker",
    "person.name",
    "person.email",
];

/// The person at this desktop, as Settings → You names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Person {
    pub name: String,
    pub email: String,
}

/// Refuses the first variable of `body` that is not one of [`VARIABLES`] (`unknown_variable`).
pub fn check(body: &str) -> Result<(), CasesError> {
    for (_, name) in variables(body) {
        if !VARIABLES.contains(&name) {
            return Err(CasesError::UnknownVariable { name: name.to_string() });
        }
    }
    Ok(())
}

/// The body with each variable replaced by its value for `case` and `person`. A variable this
/// build does not know (a body stored before the check existed) stays as written.
pub fn render(body: &str, case: &Case, person: &Person) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = 0;
    for (span, name) in variables(body) {
        out.push_str(&body[rest..span.0]);
        match value(name, case, person) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&body[span.0..span.1]),
        }
        rest = span.1;
    }
    out.push_str(&body[rest..]);
    out
}

fn value(name: &str, case: &Case, person: &Person) -> Option<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    Some(match name {
        "lead.name" => text(&case.lead.name),
        "lead.contact" => text(&case.lead.contact),
        "lead.channel" => text(&case.lead.channel),
        "case.number" => case.number.to_string(),
        "case.title" => case.title.clone(),
        "case.summary" => case.summary.clone(),
        "case.blocker" => text(&case.blocker),
        "person.name" => person.name.clone(),
        "person.email" => person.email.clone(),
        _ => return None,
    })
}

/// Each `{{…}}` of `body`: its byte span (braces included) and its trimmed name.
fn variables(body: &str) -> impl Iterator<Item = ((usize, usize), &str)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let open = from + body[from..].find("{{")?;
        let close = open + 2 + body[open + 2..].find("}}")?;
        from = close + 2;
        Some(((open, close + 2), body[open + 2..close].trim()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_may_have_spaces_inside_its_braces() {
        let found: Vec<_> = variables("Hi {{ lead.name }}!").map(|(_, n)| n).collect();
        assert_eq!(found, ["lead.name"]);
    }

    #[test]
    fn braces_that_never_close_are_plain_text() {
        assert_eq!(variables("a {{ b").count(), 0);
    }
}
