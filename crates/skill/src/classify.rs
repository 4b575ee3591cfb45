//! SPEC A5: a skill's type follows from its contents — `compute-entry` when it declares an
//! `interface`, `compute-toolkit` when it has `scripts/`, `prompt` otherwise. An explicit `type`
//! must agree, and non-prompt types carry a warning naming the tool the agent needs.

use crate::finding::Finding;
use crate::model::{SkillConfig, SkillType};

/// Where the explicit `type:` was written (file, line, column), for positioned findings.
pub type TypeLocation<'a> = (&'a str, u32, u32);

/// The type the contents imply.
pub fn derive(has_interface: bool, has_scripts: bool) -> SkillType {
    if has_interface {
        SkillType::ComputeEntry
    } else if has_scripts {
        SkillType::ComputeToolkit
    } else {
        SkillType::Prompt
    }
}

/// The derived type plus the findings: a disagreeing explicit `type` (error) and the tool
/// warning for non-prompt types.
pub fn classify(
    config: &SkillConfig,
    has_scripts: bool,
    type_at: Option<TypeLocation<'_>>,
) -> (SkillType, Vec<Finding>) {
    let derived = derive(config.interface.is_some(), has_scripts);
    let mut findings = Vec::new();
    if let Some(explicit) = config.type_.filter(|t| *t != derived) {
        findings.push(disagreement(explicit, derived, type_at));
    }
    findings.extend(tool_warning(derived));
    (derived, findings)
}

fn disagreement(explicit: SkillType, derived: SkillType, at: Option<TypeLocation<'_>>) -> Finding {
    let (file, line, column) = at.unwrap_or(("SKILL.md", 0, 0));
    let finding = if explicit == SkillType::ComputeEntry {
        Finding::error(
            "interface_missing",
            file,
            "`type: compute-entry` but the skill declares no `interface`",
        )
        .hint("add `interface: { input: { ... } }` describing the inputs, or remove `type`")
    } else {
        Finding::error(
            "type_mismatch",
            file,
            format!("`type: {}` but the contents make it `{}`", explicit.as_str(), derived.as_str()),
        )
        .hint(mismatch_hint(derived))
    };
    if line > 0 {
        finding.at(line, column)
    } else {
        finding
    }
}

fn mismatch_hint(derived: SkillType) -> &'static str {
    match derived {
        SkillType::ComputeEntry => {
            "a skill with an `interface` is `compute-entry`; change `type` or remove it"
        }
        SkillType::ComputeToolkit => {
            "a skill with a `scripts/` folder is `compute-toolkit`; change `type` or remove it"
        }
        SkillType::Prompt => {
            "a skill without `interface` or `scripts/` is `prompt`; change `type` or remove it"
        }
    }
}

fn tool_warning(derived: SkillType) -> Option<Finding> {
    let (tool, why) = match derived {
        SkillType::Prompt => return None,
        SkillType::ComputeEntry => ("execute_skill", "it declares an `interface`"),
        SkillType::ComputeToolkit => ("bash", "it ships `scripts/`"),
    };
    Some(
        Finding::warning(
            "agent_tool_required",
            "SKILL.md",
            format!("this is a `{}` skill ({why}): the agent needs the `{tool}` tool", derived.as_str()),
        )
        .hint(format!("make sure the agent is given the `{tool}` tool, or the skill cannot run")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Interface;

    fn config(type_: Option<SkillType>, interface: bool) -> SkillConfig {
        SkillConfig { type_, interface: interface.then(Interface::default), ..SkillConfig::default() }
    }

    fn codes(findings: &[Finding]) -> Vec<&str> {
        findings.iter().map(|f| f.code.as_str()).collect()
    }

    #[test]
    fn contents_decide_the_type() {
        assert_eq!(derive(true, true), SkillType::ComputeEntry);
        assert_eq!(derive(false, true), SkillType::ComputeToolkit);
        assert_eq!(derive(false, false), SkillType::Prompt);
    }

    #[test]
    fn a_prompt_skill_has_no_findings() {
        let (t, findings) = classify(&config(Some(SkillType::Prompt), false), false, None);
        assert_eq!(t, SkillType::Prompt);
        assert!(findings.is_empty());
    }

    #[test]
    fn a_toolkit_warns_that_the_agent_needs_bash() {
        let (t, findings) = classify(&config(None, false), true, None);
        assert_eq!(t, SkillType::ComputeToolkit);
        assert_eq!(codes(&findings), ["agent_tool_required"]);
        assert!(findings[0].message.contains("`bash`"));
    }

    #[test]
    fn an_entry_warns_that_the_agent_needs_execute_skill() {
        let (_, findings) = classify(&config(None, true), false, None);
        assert!(findings[0].message.contains("`execute_skill`"));
    }

    #[test]
    fn an_explicit_type_that_disagrees_is_an_error() {
        let (t, findings) =
            classify(&config(Some(SkillType::Prompt), false), true, Some(("skill.config.yaml", 1, 7)));
        assert_eq!(t, SkillType::ComputeToolkit);
        assert_eq!(codes(&findings), ["type_mismatch", "agent_tool_required"]);
        assert_eq!(findings[0].location(), "skill.config.yaml:1:7");
    }

    #[test]
    fn compute_entry_without_interface_is_reported_as_missing_interface() {
        let (_, findings) = classify(&config(Some(SkillType::ComputeEntry), false), false, None);
        assert_eq!(codes(&findings), ["interface_missing"]);
    }
}
