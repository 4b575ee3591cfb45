//! `commands.ts`: one typed function per command, from the `ipc!` declarations.

use std::collections::BTreeSet;

use super::{bindings_dir, HEADER};
use crate::ipc::Signature;

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `import type` lines for every generated type a piece of TypeScript names.
fn imports(types: &[&str], from: &str) -> String {
    let mut names = BTreeSet::new();
    for ty in types {
        for word in ty.split(|c: char| !c.is_ascii_alphanumeric()) {
            if word.starts_with(|c: char| c.is_ascii_uppercase())
                && bindings_dir().join(format!("{word}.ts")).exists()
            {
                names.insert(word.to_string());
            }
        }
    }
    names.iter().map(|n| format!("import type {{ {n} }} from \"{from}{n}\";\n")).collect()
}

fn returns(ts: &str) -> &str {
    if ts == "null" {
        "void"
    } else {
        ts
    }
}

fn doc_comment(doc: &str) -> String {
    let lines: Vec<&str> = doc.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    match lines.as_slice() {
        [] => String::new(),
        lines => format!("/**\n{} */\n", lines.iter().map(|l| format!(" * {l}\n")).collect::<String>()),
    }
}

fn command(sig: &Signature) -> String {
    let ret = returns(&sig.returns);
    let call = if sig.args.is_empty() {
        format!(
            "export function {}(): Promise<{ret}> {{\n  return call<{ret}>(\"{}\");\n}}\n",
            camel(sig.name),
            sig.name
        )
    } else {
        let fields: Vec<String> =
            sig.args.iter().map(|(name, ty)| format!("{}: {ty}", camel(name))).collect();
        format!(
            "export function {}(args: {{ {} }}): Promise<{ret}> {{\n  return call<{ret}>(\"{}\", args);\n}}\n",
            camel(sig.name),
            fields.join("; "),
            sig.name
        )
    };
    format!("{}{call}", doc_comment(sig.doc))
}

pub(super) fn commands_ts(mut signatures: Vec<Signature>) -> String {
    signatures.sort_by_key(|s| s.name);
    let types: Vec<&str> = signatures
        .iter()
        .flat_map(|s| s.args.iter().map(|(_, t)| t.as_str()).chain([s.returns.as_str()]))
        .collect();
    let body: Vec<String> = signatures.iter().map(command).collect();
    format!(
        "{HEADER}// Every command of the desktop shell, typed from its Rust declaration.\n{}import {{ call }} from \"../backend/core\";\n\n{}",
        imports(&types, "./"),
        body.join("\n")
    )
}
