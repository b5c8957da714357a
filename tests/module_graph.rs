//! The shape of `src/`: no import cycles between top-level modules, nor between the submodules of
//! one parent, and every module's first line is a `//!` line saying its job.
//!
//! The graph is read from the text of `src/**/*.rs`: `use crate::…`, `use super::…` (and
//! `use self::…`) trees, and paths written inline (`crate::x::y`, `super::x`). A reference from
//! module `a::b::c` to `a::d::e` is an edge `b → d` between the children of `a`; references to an
//! ancestor or a descendant are not edges. Unit-test modules (`#[cfg(test)] mod … { … }` blocks,
//! and the files of `#[cfg(test)] mod …;`) are left out: they are not part of the structure the
//! program runs.

use std::{
    collections::{BTreeMap, BTreeSet, VecDeque},
    fs,
    path::Path,
};

/// Edges allowed to close a cycle, each with why: `(parent, from, to)`, where `parent` is
/// `crate` for top-level modules. Empty: every cycle found is a failure. An entry that no longer
/// closes a cycle (or no longer exists) fails too, so this list stays true.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// One `.rs` file: its module path and its text.
struct Module {
    path: Vec<String>,
    text: String,
}

/// Every module file under `src/` except the binary's `main.rs`.
fn modules() -> Vec<Module> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut todo = vec![root.clone()];
    while let Some(dir) = todo.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            if file.is_dir() {
                todo.push(file);
                continue;
            }
            if file.extension().is_none_or(|e| e != "rs") || file == root.join("main.rs") {
                continue;
            }
            let relative = file.strip_prefix(&root).unwrap().with_extension("");
            let mut path: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
                path.pop();
            }
            let text = fs::read_to_string(&file).unwrap();
            out.push(Module { path, text });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `text` without whole-line comments and without `#[cfg(test)] mod … { … }` blocks.
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let mut code = lines.join("\n");
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let Some(open) = rest.strip_prefix("mod ").and_then(|r| {
            let brace = r.find('{')?;
            let semicolon = r.find(';').unwrap_or(usize::MAX);
            (brace < semicolon).then_some(brace)
        }) else {
            // Not an inline test module (`#[cfg(test)] mod tests;` or a test-only item): keep it.
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let start = code.len() - rest.len() + "mod ".len() + open;
        let mut depth = 0usize;
        let mut end = code.len();
        for (i, c) in code[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
    }
    code
}

/// The paths a `use` tree names (`a::{b, c::{d, self}}` gives `a::b`, `a::c::d`, `a::c`).
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn parse(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let mut path = prefix.to_vec();
            path.extend(segments(&tree[..open]));
            let Some(close) = tree.rfind('}').filter(|&c| c > open) else {
                return; // not a use tree
            };
            let inner = &tree[open + 1..close];
            let mut depth = 0;
            let mut from = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parse(&path, &inner[from..i], out);
                        from = i + 1;
                    }
                    _ => {}
                }
            }
            parse(&path, &inner[from..], out);
        } else {
            let tree = tree.split(" as ").next().unwrap();
            let mut path = prefix.to_vec();
            path.extend(segments(tree));
            if path.last().is_some_and(|s| s == "self") {
                path.pop();
            }
            out.push(path);
        }
    }
    let mut out = Vec::new();
    parse(&[], tree, &mut out);
    out
}

/// The identifiers of `a::b::c` (`*` and empty parts left out).
fn segments(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "*")
        .map(str::to_string)
}

/// Whether `c` may be part of an identifier.
fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path starting with `crate`, `super` or `self` in `code`: in `use` trees and inline.
fn references(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let item = line.trim_start();
        let item = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|p| item.strip_prefix(p))
            .unwrap_or(item);
        if let Some(tree) = item.strip_prefix("use ") {
            let start = at + line.len() - tree.len();
            if let Some(end) = code[start..].find(';') {
                out.extend(use_paths(&code[start..start + end]));
            }
        }
        at += line.len();
    }
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            if code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| ident_char(c) || c == ':')
            {
                continue;
            }
            let chain: String = code[at..]
                .chars()
                .take_while(|&c| ident_char(c) || c == ':')
                .collect();
            out.push(segments(&chain).collect());
        }
    }
    out
}

/// `reference` made absolute from module `from`, or `None` when it is not a path into the crate.
fn resolve(from: &[String], reference: &[String]) -> Option<Vec<String>> {
    let mut base = from.to_vec();
    let mut rest = reference;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some("self") => rest = &rest[1..],
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Edges between siblings: parent (`crate` for the root) → from → set of to.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The modules declared `#[cfg(test)] mod name;` (in a file of their own) by one of `modules`.
fn test_files(modules: &[Module]) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for module in modules {
        for (at, _) in module.text.match_indices("#[cfg(test)]") {
            let rest = module.text[at + "#[cfg(test)]".len()..].trim_start();
            let Some(rest) = rest.strip_prefix("mod ") else {
                continue;
            };
            let name: String = rest.chars().take_while(|&c| ident_char(c)).collect();
            if rest[name.len()..].trim_start().starts_with(';') {
                let mut path = module.path.clone();
                path.push(name);
                out.insert(path);
            }
        }
    }
    out
}

fn graph() -> Graph {
    let mut modules = modules();
    let tests = test_files(&modules);
    modules.retain(|m| !tests.iter().any(|t| m.path.starts_with(t)));
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let mut graph = Graph::new();
    for module in &modules {
        for reference in references(&code_of(&module.text)) {
            let Some(mut target) = resolve(&module.path, &reference) else {
                continue;
            };
            while !known.contains(&target) {
                target.pop();
            }
            let common = module
                .path
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.path.len() || common == target.len() {
                continue; // an ancestor or a descendant
            }
            let parent = match common {
                0 => "crate".to_string(),
                _ => target[..common].join("::"),
            };
            graph
                .entry(parent)
                .or_default()
                .entry(module.path[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    graph
}

/// A path `to → … → from` in `edges`, if there is one.
fn path(edges: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            let mut path = vec![to.to_string()];
            let mut at = to;
            while at != from {
                at = came_from[at];
                path.push(at.to_string());
            }
            path.reverse();
            return Some(path);
        }
        for next in edges.get(node).into_iter().flatten() {
            if next != from && !came_from.contains_key(next.as_str()) {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The cycles in `graph` (one per edge that closes one), as `parent: a → b → … → a`.
fn cycles(graph: &Graph) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (parent, edges) in graph {
        for (from, tos) in edges {
            for to in tos {
                if let Some(back) = path(edges, to, from) {
                    // `from → to → … → from`, turned to start at its first module by name
                    let mut cycle = vec![from.clone()];
                    cycle.extend(back);
                    cycle.pop();
                    let first = (0..cycle.len()).min_by_key(|&i| &cycle[i]).unwrap();
                    cycle.rotate_left(first);
                    cycle.push(cycle[0].clone());
                    found.insert(format!("{parent}: {}", cycle.join(" → ")));
                }
            }
        }
    }
    found
}

#[test]
fn the_graph_is_read() {
    let graph = graph();
    let has = |parent: &str, from: &str, to: &str| {
        graph
            .get(parent)
            .and_then(|e| e.get(from))
            .is_some_and(|t| t.contains(to))
    };
    // Edges known to exist: the reader must see them, or the cycle test below proves nothing.
    assert!(has("crate", "cli", "repl"), "{graph:#?}"); // cli/play.rs runs the REPL
    assert!(has("crate", "script", "runtime"), "{graph:#?}");
    assert!(has("repl", "replay", "session"), "{graph:#?}"); // replay adds commands to it
    assert!(has("trace", "runner", "syntax"), "{graph:#?}");
    // The walker's agreement tests (a `#[cfg(test)] mod tests;` file) call the script host,
    // which the walker itself must not.
    assert!(!has("crate", "walker", "script"), "{graph:#?}");
}

#[test]
fn no_import_cycles() {
    let mut graph = graph();
    let mut stale = Vec::new();
    for &(parent, from, to) in ALLOWED {
        let edges = graph.entry(parent.to_string()).or_default();
        let closes =
            edges.get(from).is_some_and(|t| t.contains(to)) && path(edges, to, from).is_some();
        if !closes {
            stale.push(format!("{parent}: {from} → {to}"));
        }
        if let Some(tos) = edges.get_mut(from) {
            tos.remove(to);
        }
    }
    assert!(
        stale.is_empty(),
        "allowed edges that close no cycle any more: {stale:?}"
    );
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "import cycles between sibling modules:\n{}",
        cycles.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_module_says_its_job_first() {
    let missing: Vec<String> = modules()
        .iter()
        .filter(|m| !m.text.starts_with("//!"))
        .map(|m| format!("crate::{}", m.path.join("::")))
        .collect();
    assert!(
        missing.is_empty(),
        "modules whose first line is not a `//!` doc line: {missing:?}"
    );
}

#[test]
fn a_cycle_is_found_and_named() {
    let mut graph = Graph::new();
    let edges = graph.entry("repl".to_string()).or_default();
    for (from, to) in [
        ("session", "replay"),
        ("replay", "save"),
        ("save", "session"),
        ("ui", "save"),
    ] {
        edges
            .entry(from.to_string())
            .or_default()
            .insert(to.to_string());
    }
    let found: Vec<String> = cycles(&graph).into_iter().collect();
    assert_eq!(found, ["repl: replay → save → session → replay"]);
}
