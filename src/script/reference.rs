//! The reference of the functions scripts can call: their signatures read from the engine's own
//! function metadata, their descriptions from [`docs`], as one entry per name.

mod docs;

use std::{cell::RefCell, collections::BTreeMap, rc::Rc};

use crate::{
    diag::Diagnostic,
    script::{api, sandbox},
    suggest,
};

/// One name scripts can call: a function (every overload), a method or a property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The name as the reference shows it: `ray`, or `Run.len` for a property of a type.
    pub name: String,
    /// The signatures the engine registered under this name, as Rhai writes them.
    pub signatures: Vec<String>,
    /// The description, or `None` when [`docs`] has none (a test forbids that).
    pub doc: Option<&'static str>,
}

/// Every function the runtime registers for scripts (not Rhai's standard library), sorted by
/// name, read from an engine set up exactly as a game's.
pub fn entries() -> Vec<Entry> {
    let mut engine = sandbox::engine();
    let _ = api::register(&mut engine, Rc::new(RefCell::new(api::EventLog::default())));
    let json = engine
        .gen_fn_metadata_to_json(false)
        .expect("the engine's metadata is JSON");
    let meta: serde_json::Value = serde_json::from_str(&json).expect("the engine's metadata");
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in meta["functions"].as_array().into_iter().flatten() {
        let name = f["name"].as_str().unwrap_or_default();
        let signature = f["signature"].as_str().unwrap_or_default();
        let key = match name.strip_prefix("get$") {
            Some(property) => {
                let owner = f["params"][0]["type"].as_str().unwrap_or("?");
                format!("{}.{property}", owner.trim_start_matches("&mut "))
            }
            None => name.to_string(),
        };
        by_name.entry(key).or_default().push(tidy(signature));
    }
    by_name
        .into_iter()
        .map(|(name, mut signatures)| {
            signatures.sort();
            let doc = docs::of(&name);
            Entry {
                name,
                signatures,
                doc,
            }
        })
        .collect()
}

/// A signature as a script author reads it: `ray(Grid, Cell, array, i64) -> array`, without
/// Rust's paths, `&mut`, error wrappers or `_` parameter names; a property as `Run.len -> i64`.
fn tidy(signature: &str) -> String {
    let mut s = signature.replace("&mut ", "").replace("_: ", "");
    for (rust, rhai) in [
        ("alloc::vec::Vec<rhai::types::dynamic::Dynamic>", "array"),
        ("rhai::types::dynamic::Dynamic", "Dynamic"),
        ("types::dynamic::Dynamic", "Dynamic"),
        ("alloc::string::String", "string"),
    ] {
        s = s.replace(rust, rhai);
    }
    if let Some((head, ret)) = s.split_once(" -> ") {
        let ret = ret
            .strip_prefix("core::result::Result<")
            .and_then(|r| r.strip_suffix(",alloc::boxed::Box<rhai::types::error::EvalAltResult>>"))
            .unwrap_or(ret);
        let ret = ret.rsplit("::").next().unwrap_or(ret);
        s = if ret == "()" {
            head.to_string()
        } else {
            format!("{head} -> {ret}")
        };
    }
    match s.strip_prefix("get$").and_then(|p| p.split_once('(')) {
        Some((property, rest)) => {
            let (owner, ret) = rest.split_once(')').unwrap_or((rest, ""));
            format!("{owner}.{property}{ret}")
        }
        None => s,
    }
}

/// The names of every entry, for completion and suggestions.
pub fn names() -> Vec<String> {
    entries().into_iter().map(|e| e.name).collect()
}

/// The entry called `name` (a property also answers to its bare name, `len` finding `Run.len`
/// and `Track.len`).
pub fn lookup(name: &str) -> Vec<Entry> {
    entries()
        .into_iter()
        .filter(|e| e.name == name || e.name.rsplit_once('.').is_some_and(|(_, p)| p == name))
        .collect()
}

/// What `boardrules doc [NAME]` and the REPL's `doc [NAME]` print: every name with the first
/// line of its description, or the entries called `name`; an error (with the closest name) for
/// a name nothing has.
pub fn describe(name: Option<&str>) -> Result<String, Diagnostic> {
    let Some(name) = name else {
        let lines: Vec<String> = entries()
            .into_iter()
            .map(|e| {
                let first = e.doc.and_then(|d| d.lines().next()).unwrap_or("");
                format!("{:<20} {first}", e.name)
            })
            .collect();
        return Ok(lines.join("\n") + "\n");
    };
    let found = lookup(name);
    if found.is_empty() {
        let names = names();
        let mut d = Diagnostic::new(format!("no function `{name}` in the reference"));
        if let Some(hint) = suggest::did_you_mean(name, names.iter().map(String::as_str)) {
            d = d.note(hint);
        }
        return Err(d.note("`doc` alone lists every name"));
    }
    let texts: Vec<String> = found
        .iter()
        .map(|e| match found.len() {
            1 => text(e),
            _ => format!("{}:\n{}", e.name, text(e)),
        })
        .collect();
    Ok(texts.join("\n"))
}

/// One entry as plain text: its signatures, then its description.
pub fn text(entry: &Entry) -> String {
    format!("{}\n{}\n", signature_lines(entry), description(entry))
}

/// An entry's signatures, one a line.
fn signature_lines(entry: &Entry) -> String {
    entry.signatures.iter().map(|s| format!("{s}\n")).collect()
}

/// An entry's description.
fn description(entry: &Entry) -> &'static str {
    entry.doc.unwrap_or("(no description)")
}

/// The whole reference as a Markdown chapter (`docs/src/reference.md`).
pub fn markdown() -> String {
    let mut out = String::from(
        "# Primitives reference\n\n\
         <!-- Generated by `boardrules doc --markdown > docs/src/reference.md`; do not edit: \
         the descriptions live in `src/script/reference/docs.rs`. -->\n\n\
         Every function the runtime registers for rules scripts, besides Rhai's standard \
         library, with the signatures the engine itself reports. `boardrules doc NAME` (or \
         `doc NAME` in the REPL) prints one entry. A property is written `Type.name` and read \
         as `value.name`.\n",
    );
    for e in entries() {
        out.push_str(&format!(
            "\n## `{}`\n\n```text\n{}```\n\n{}\n",
            e.name,
            signature_lines(&e),
            description(&e)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, rc::Rc};

    use crate::script::{api, sandbox};

    /// The ```` ```rhai ```` examples of the descriptions, with the name of their entry.
    fn examples() -> Vec<(String, String)> {
        let mut out = Vec::new();
        for entry in super::entries() {
            let mut rest = entry.doc.unwrap_or("");
            while let Some(start) = rest.find("```rhai\n") {
                let body = &rest[start + 8..];
                let end = body.find("```").expect("a closed example");
                out.push((entry.name.clone(), body[..end].to_string()));
                rest = &body[end + 3..];
            }
        }
        out
    }

    #[test]
    fn every_example_in_the_reference_holds() {
        let mut engine = sandbox::engine();
        let _ = api::register(&mut engine, Rc::new(RefCell::new(api::EventLog::default())));
        let examples = examples();
        assert!(examples.len() >= 3, "{examples:?}");
        for (name, script) in examples {
            let holds = engine.eval::<bool>(&script);
            assert!(matches!(holds, Ok(true)), "{name}: {script}\n{holds:?}");
        }
    }
}
