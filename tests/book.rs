//! The book (`docs/`) and the README stay true: every relative link resolves, every ```console
//! block's commands print what it shows, every ```rhai block compiles (and a complete script passes
//! `boardrules check`), the README stays short, and the generated reference matches the engine.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
};

use boardrules::script::reference;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every chapter of the book.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut chapters: Vec<PathBuf> = fs::read_dir(root().join("docs/src"))
        .expect("docs/src exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    pages.extend(chapters);
    pages
}

/// A fenced code block: its language and its lines, with the page line it starts on.
struct Block {
    lang: String,
    line: usize,
    body: Vec<String>,
}

/// The fenced blocks of a Markdown text, and its other lines (prose) with their numbers.
fn split(text: &str) -> (Vec<Block>, Vec<(usize, String)>) {
    let (mut blocks, mut prose) = (Vec::new(), Vec::new());
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) => {
                open = Some(Block {
                    lang: lang.trim().to_string(),
                    line: i + 1,
                    body: Vec::new(),
                })
            }
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some(b), _) => b.body.push(line.to_string()),
            (None, None) => prose.push((i + 1, line.to_string())),
        }
    }
    (blocks, prose)
}

/// The anchor GitHub and mdBook give a heading.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown page's headings.
fn anchors(text: &str) -> Vec<String> {
    split(text)
        .1
        .iter()
        .filter_map(|(_, l)| l.strip_prefix('#'))
        .map(|h| slug(h.trim_start_matches('#')))
        .collect()
}

/// The link targets `[text](target)` of a line outside inline code.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

#[test]
fn the_readme_is_short() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let n = readme.chars().count();
    assert!(
        n < 10_000,
        "README.md has {n} characters: move material into docs/src/"
    );
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (n, line) in split(&text).1 {
            for target in links(&line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
                let path = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                let here = format!("{}:{n}: {target}", page.display());
                if !path.exists() {
                    broken.push(format!("{here} (no such file)"));
                } else if !anchor.is_empty() && path.extension().is_some_and(|e| e == "md") {
                    let text = fs::read_to_string(&path).unwrap();
                    if !anchors(&text).iter().any(|a| a == anchor) {
                        broken.push(format!("{here} (no such heading)"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Splits a command line into words, honouring single and double quotes.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => (quote, any) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// The standard input and the arguments of `boardrules ARGS…` or `printf 'INPUT' | boardrules
/// ARGS…` (the only commands a console block runs).
fn command(line: &str) -> Option<(String, Vec<String>)> {
    let words = words(line);
    let (input, rest) = match words.as_slice() {
        [printf, input, pipe, rest @ ..] if printf == "printf" && pipe == "|" => {
            (input.replace("\\n", "\n"), rest)
        }
        rest => (String::new(), rest),
    };
    let (bin, args) = rest.split_first()?;
    (bin == "boardrules").then(|| (input, args.to_vec()))
}

/// Whether `actual` matches `expected`, where `[..]` matches any text within a line.
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the printed lines match the expected ones, where a line `...` matches any number of
/// lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(e, a.trim_end()) && output_matches(rest, more)),
    }
}

#[test]
fn console_blocks_print_what_they_show() {
    let mut failures = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for block in split(&text).0.into_iter().filter(|b| b.lang == "console") {
            let mut commands: Vec<(String, Vec<String>)> = Vec::new();
            for line in &block.body {
                match line.strip_prefix("$ ") {
                    Some(cmd) => commands.push((cmd.to_string(), Vec::new())),
                    None => match commands.last_mut() {
                        Some((_, out)) => out.push(line.trim_end().to_string()),
                        None => failures.push(format!(
                            "{}:{}: a console block must start with `$ boardrules …`",
                            page.display(),
                            block.line
                        )),
                    },
                }
            }
            for (cmd, expected) in commands {
                let Some((input, args)) = command(&cmd) else {
                    failures.push(format!(
                        "{}:{}: `{cmd}` is not `[printf 'INPUT' |] boardrules …`",
                        page.display(),
                        block.line
                    ));
                    continue;
                };
                let home = tempfile::tempdir().unwrap();
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let ran = common::run(&home, &args, &input);
                let printed = format!("{}{}", ran.stdout, ran.stderr);
                let actual: Vec<&str> = printed.lines().collect();
                if !output_matches(&expected, &actual) {
                    failures.push(format!(
                        "{}:{}: `{cmd}` printed:\n{printed}\nexpected:\n{}\n",
                        page.display(),
                        block.line,
                        expected.join("\n")
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs `boardrules check` briefly on a complete script.
fn check_script(path: &Path) -> Result<(), String> {
    let home = tempfile::tempdir().unwrap();
    let path = path.to_str().unwrap();
    let ran = common::run(
        &home,
        &[
            "check",
            path,
            "--games",
            "5",
            "--seconds",
            "2",
            "--seed",
            "1",
        ],
        "",
    );
    if ran.code == 0 {
        Ok(())
    } else {
        Err(format!("{}{}", ran.stdout, ran.stderr))
    }
}

#[test]
fn rhai_blocks_compile_and_complete_scripts_pass_check() {
    let mut failures = Vec::new();
    let engine = boardrules::script::sandbox::engine();
    let dir = tempfile::tempdir().unwrap();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for block in split(&text).0.into_iter().filter(|b| b.lang == "rhai") {
            let here = format!("{}:{}", page.display(), block.line);
            let script = block.body.join("\n");
            if let Err(e) = engine.compile(&script) {
                failures.push(format!("{here}: does not compile: {e}"));
            } else if script.contains("fn setup") {
                // Beside the repository's rules/, so `import "NAME"` finds the built-in scripts.
                let file = dir.path().join(format!("block_{}.rhai", block.line));
                fs::write(&file, &script).unwrap();
                if let Err(e) = check_script(&file) {
                    failures.push(format!("{here}: boardrules check fails:\n{e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_book_scripts_pass_check() {
    let dir = root().join("docs/scripts");
    for entry in fs::read_dir(&dir).expect("docs/scripts exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rhai") {
            if let Err(e) = check_script(&path) {
                panic!("{}: boardrules check fails:\n{e}", path.display());
            }
        }
    }
}

#[test]
fn every_registered_function_has_a_description() {
    let missing: Vec<String> = reference::entries()
        .into_iter()
        .filter(|e| e.doc.is_none())
        .map(|e| e.name)
        .collect();
    assert!(
        missing.is_empty(),
        "no description in src/script/reference/docs.rs for: {}",
        missing.join(", ")
    );
}

#[test]
fn the_committed_reference_is_the_generated_one() {
    let committed = fs::read_to_string(root().join("docs/src/reference.md")).unwrap_or_default();
    assert!(
        committed == reference::markdown(),
        "docs/src/reference.md is stale: run `boardrules doc --markdown > docs/src/reference.md`"
    );
}
