//! Loading a rules script: compiling it and every script it imports, merging a variant over its
//! base, resolving imports to rules scripts only, and checking the contract.

use std::{
    cell::RefCell,
    collections::HashMap,
    path::{Path, PathBuf},
    rc::Rc,
};

use rhai::{
    Engine, EvalAltResult, Module, ModuleResolver, ParseError, Position, Scope, Shared, AST,
};

use super::{
    contract::CONTRACT,
    imported::Base,
    library::{is_name, Library, ScriptSource},
};
use crate::{
    diag::{offset_of, token_at, Diagnostic},
    runtime::ScriptSpot,
    walker::native_table::NativeTable,
};

/// Every script text loaded for a game, by label, so that errors can point into any of them.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    texts: Rc<RefCell<HashMap<String, String>>>,
    /// Which script each function comes from (a variant's definitions replace its base's).
    defined_in: Rc<RefCell<HashMap<String, String>>>,
    /// The most parameters a function of each name takes in the script it comes from (a
    /// variant's `fn f(a)` over its base's `fn f(a, b)` is the one the variant means).
    arity_in: Rc<RefCell<HashMap<String, usize>>>,
    /// Where each function is defined, by script and name: the byte offset and length of its
    /// `fn NAME` (or of its body's `{` when that cannot be found).
    defined_at: Rc<RefCell<HashMap<(String, String), Span>>>,
}

/// A byte offset and length in a script text.
type Span = (usize, usize);

/// The span of `fn NAME` just before the body that starts at byte `brace` of `text`.
fn fn_keyword(text: &str, brace: usize, name: &str) -> Span {
    let head = &text[..brace.min(text.len())];
    let needle = format!("fn {name}");
    match head.rfind(&needle) {
        Some(at) => (at, needle.len()),
        None => (brace, 1),
    }
}

impl Sources {
    /// Remembers `label`'s text.
    pub fn insert(&self, label: &str, text: &str) {
        self.texts
            .borrow_mut()
            .insert(label.to_string(), text.to_string());
    }

    /// The text loaded under `label`.
    pub fn get(&self, label: &str) -> Option<String> {
        self.texts.borrow().get(label).cloned()
    }

    /// Feeds every text (in label order) into `h`: scripts that hash equally are the same code.
    pub fn hash_into(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        let texts = self.texts.borrow();
        let mut labels: Vec<&String> = texts.keys().collect();
        labels.sort();
        for label in labels {
            (label, &texts[label]).hash(h);
        }
    }

    /// The names of the functions the scripts define.
    pub fn function_names(&self) -> Vec<String> {
        self.defined_in.borrow().keys().cloned().collect()
    }

    /// [`bare_message`] with what to say about a call of a function that does not exist (the
    /// closest name: `did you mean `cells_with`?`).
    pub fn message(&self, err: &EvalAltResult) -> String {
        let message = bare_message(err);
        match super::not_found::suggestion(err, &self.function_names()) {
            Some(hint) => format!("{message}: {hint}"),
            None => message,
        }
    }

    /// How many parameters function `name` takes in the script it comes from (the most, if that
    /// script defines several), if known.
    pub fn arity_of(&self, name: &str) -> Option<usize> {
        self.arity_in.borrow().get(name).copied()
    }

    /// The script that defines function `name`, if known.
    pub fn script_defining(&self, name: &str) -> Option<String> {
        self.defined_in.borrow().get(name).cloned()
    }

    /// Where `fn NAME` is defined in script `label` (found through the script's AST, so that
    /// `play` is never mistaken for `players`).
    pub fn definition_spot(&self, label: &str, name: &str) -> Option<ScriptSpot> {
        let (at, _) = self
            .defined_at
            .borrow()
            .get(&(label.to_string(), name.to_string()))
            .copied()?;
        let text = self.get(label)?;
        let line = text[..at].matches('\n').count() + 1;
        let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        Some(ScriptSpot {
            source: label.to_string(),
            line,
            column,
        })
    }

    /// Where function `name` is defined: the script, its text and the span of `fn NAME`
    /// (the script that defines it last, as a variant replaces its base's definitions).
    pub fn definition(&self, name: &str) -> Option<(String, String, std::ops::Range<usize>)> {
        let label = self.script_defining(name)?;
        let (at, len) = self
            .defined_at
            .borrow()
            .get(&(label.clone(), name.to_string()))
            .copied()?;
        Some((label.clone(), self.get(&label)?, at..at + len))
    }

    fn record_functions(&self, ast: &AST, label: &str) {
        let text = self.get(label).unwrap_or_default();
        let mut map = self.defined_in.borrow_mut();
        let mut arities = self.arity_in.borrow_mut();
        let mut spots = self.defined_at.borrow_mut();
        for f in ast.iter_fn_def() {
            let before = map.insert(f.name.to_string(), label.to_string());
            let arity = arities.entry(f.name.to_string()).or_default();
            *arity = if before.as_deref() == Some(label) {
                (*arity).max(f.params.len())
            } else {
                f.params.len()
            };
            let brace = f.body.start_position();
            if let (Some(line), Some(column)) = (brace.line(), brace.position()) {
                let at = offset_of(&text, line, column);
                spots.insert(
                    (label.to_string(), f.name.to_string()),
                    fn_keyword(&text, at, &f.name),
                );
            }
        }
    }

    fn any_text(&self, pred: impl Fn(&str) -> bool) -> bool {
        self.texts.borrow().values().any(|t| pred(t))
    }

    /// An error at 1-based `line`/`column` of script `label`, or without a pointer if unknown.
    pub fn diagnostic(
        &self,
        message: &str,
        label: &str,
        line: usize,
        column: usize,
        what: &str,
    ) -> Diagnostic {
        match self.get(label) {
            Some(text) if line > 0 => {
                let span = token_at(&text, offset_of(&text, line, column));
                Diagnostic::new(message).at(label, text, span, what)
            }
            _ => Diagnostic::new(message),
        }
    }
}

/// Resolves `import "NAME"` to a rules script: beside the importing script, in `./rules/`, or
/// built in. Nothing else can be imported.
struct RulesResolver {
    library: Library,
    sources: Sources,
    cache: RefCell<HashMap<String, Shared<Module>>>,
    /// The imports being loaded, outermost first (an import of one of them is a cycle).
    loading: RefCell<Vec<String>>,
    /// Every script imported, for the host to link for the walker (see [`LoadedScript::link`]).
    bases: Rc<RefCell<Vec<Rc<Base>>>>,
}

impl ModuleResolver for RulesResolver {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        if !is_name(path) {
            return Err(format!(
                "import \"{path}\": imports name a rules script, like `import \"NAME\" as base;`"
            )
            .into());
        }
        let beside = source.and_then(dir_of_label);
        let key = format!(
            "{}|{path}",
            beside.as_deref().unwrap_or(Path::new("")).display()
        );
        if let Some(module) = self.cache.borrow().get(&key) {
            return Ok(module.clone());
        }
        self.check_room(path, &key, pos)?;
        self.loading.borrow_mut().push(key.clone());
        let module = self.load(engine, path, beside.as_deref(), pos);
        self.loading.borrow_mut().pop();
        let module = module?;
        self.cache.borrow_mut().insert(key, module.clone());
        Ok(module)
    }
}

impl RulesResolver {
    /// Refuses an import that is already being loaded (a cycle) or one more than
    /// [`limits::MODULES`](super::sandbox::limits::MODULES).
    fn check_room(&self, path: &str, key: &str, pos: Position) -> Result<(), Box<EvalAltResult>> {
        let loading = self.loading.borrow();
        if loading.iter().any(|k| k == key) {
            let names: Vec<&str> = loading
                .iter()
                .map(String::as_str)
                .chain([key])
                .map(|k| k.rsplit('|').next().unwrap_or(k))
                .collect();
            return Err(EvalAltResult::ErrorRuntime(
                format!(
                    "import \"{path}\": the imports go round in a circle ({})",
                    names.join(" → ")
                )
                .into(),
                pos,
            )
            .into());
        }
        let limit = super::sandbox::limits::MODULES;
        if self.cache.borrow().len() + loading.len() >= limit {
            return Err(EvalAltResult::ErrorRuntime(
                format!("import \"{path}\": a script may import at most {limit} modules, directly or not").into(),
                pos,
            )
            .into());
        }
        Ok(())
    }

    /// Compiles and runs the rules script `path` names, as a module whose functions run it as
    /// written ([`super::imported`]).
    fn load(
        &self,
        engine: &Engine,
        path: &str,
        beside: Option<&Path>,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        let script = self
            .library
            .find_named(path, beside)
            .ok_or_else(|| EvalAltResult::ErrorModuleNotFound(path.to_string(), pos))?;
        self.sources.insert(&script.label, &script.text);
        let mut ast = engine
            .compile(&script.text)
            .map_err(|e| EvalAltResult::ErrorInModule(path.into(), e.into(), pos))?;
        if let Some(at) = assignment_into_constant(&ast) {
            let err = EvalAltResult::ErrorRuntime(CONSTANT_PART.into(), at);
            return Err(EvalAltResult::ErrorInModule(path.into(), err.into(), pos).into());
        }
        ast.set_source(script.label.as_str());
        let module = Module::eval_ast_as_new(Scope::new(), &ast, engine)?;
        let base = Rc::new(Base::new(&ast));
        self.bases.borrow_mut().push(base.clone());
        Ok(super::imported::with_own_resolutions(module.into(), &base).into())
    }
}

/// Why a script that assigns into a constant is refused.
const CONSTANT_PART: &str = "a constant cannot be changed, not even a part of it (`const C = #{ a: 1 }; C.a = 2`): declare it with `let`";

/// Where `ast` assigns to a part of a constant (`C.a = 2` for a `const C`), if anywhere. Rhai
/// puts the constant's value in place of its name, and its interpreter stops the whole program
/// on such an assignment instead of reporting an error, so the script is refused when loaded.
fn assignment_into_constant(ast: &AST) -> Option<Position> {
    let mut found = None;
    ast.walk(&mut |path: &[rhai::ASTNode]| {
        if let Some(rhai::ASTNode::Stmt(rhai::Stmt::Assignment(assignment))) = path.last() {
            let mut root = &assignment.1.lhs;
            while let rhai::Expr::Dot(x, ..) | rhai::Expr::Index(x, ..) = root {
                root = &x.lhs;
            }
            if !matches!(root, rhai::Expr::Variable(..) | rhai::Expr::ThisPtr(..)) {
                found = Some(root.position());
            }
        }
        found.is_none()
    });
    found
}

fn dir_of_label(label: &str) -> Option<PathBuf> {
    (!label.starts_with("builtin:"))
        .then(|| Path::new(label).parent().map(Path::to_path_buf))
        .flatten()
}

/// A compiled, checked rules script with the engine it runs in.
pub struct LoadedScript {
    /// The sandboxed engine, with the runtime's API and the rules resolver.
    pub engine: Engine,
    /// The script merged over its base (if it is a variant).
    pub ast: AST,
    /// The constants its top level defines.
    pub constants: Scope<'static>,
    /// Every script text loaded, for error reports.
    pub sources: Sources,
    /// The main script.
    pub source: ScriptSource,
    /// The scripts it imports (`base::f` runs them), for the walker once linked.
    pub bases: Vec<Rc<Base>>,
    /// The aliases its top level imports, each with the name of the module it stands for.
    pub aliases: Vec<(String, String)>,
}

impl LoadedScript {
    /// Lets `base::f(…)` calls run the imported scripts' functions in the walker, which calls
    /// `natives` directly (see [`super::imported`]).
    pub fn link(&self, natives: &NativeTable) {
        for base in &self.bases {
            base.link(&self.constants, natives);
        }
    }

    /// Runs the imported scripts' functions through the walker (`true`, the default) or all
    /// through Rhai's interpreter.
    pub fn set_compiled(&self, on: bool) {
        for base in &self.bases {
            base.set_compiled(on);
        }
    }

    /// The calls of `ALIAS::f(…)` the walker hands to the imported scripts' lowered functions
    /// (once linked), for a [`super::game::caller::Caller`] of this script.
    pub fn imported_calls(&self) -> Rc<super::imported::ImportedCalls> {
        Rc::new(super::imported::ImportedCalls::new(
            &self.aliases,
            &self.bases,
        ))
    }
}

/// Compiles `source` (and its base, if it is a variant), runs its top level, and checks that it
/// defines the contract. `engine` must already have the runtime's API registered.
pub fn load(
    mut engine: Engine,
    library: &Library,
    source: ScriptSource,
) -> Result<LoadedScript, Vec<Diagnostic>> {
    let sources = Sources::default();
    let bases = Rc::new(RefCell::new(Vec::new()));
    let resolver = RulesResolver {
        library: library.clone(),
        sources: sources.clone(),
        cache: RefCell::default(),
        loading: RefCell::default(),
        bases: bases.clone(),
    };
    let ast = compile_chain(&engine, library, &source, &sources, 0).map_err(|d| vec![d])?;
    check_contract(&ast, &source, &sources).map_err(|problems| {
        let missing = problems
            .iter()
            .any(|d| d.message.contains("does not define"));
        match misnamed_base(&source, library) {
            Some(one) if missing => vec![one],
            _ => problems,
        }
    })?;
    let imports = sources.any_text(ast_imports);
    engine.set_module_resolver(resolver);
    let mut constants = Scope::new();
    let call = super::sandbox::begin();
    let ran = engine.run_ast_with_scope(&mut constants, &ast);
    let imported = match ran {
        Ok(()) if imports => top_level_imports(&engine, &ast),
        Ok(()) => Ok(Vec::new()),
        Err(e) => Err(e),
    };
    drop(call);
    let imported = imported.map_err(|e| vec![eval_diagnostic(&e, &sources, &source.label)])?;
    // The modules the top level imports stay where every call finds them (`base::moves(…)`),
    // so a call never runs the top level again.
    let mut aliases = Vec::new();
    for (alias, module) in imported {
        if let Some(id) = module.id() {
            aliases.push((alias.clone(), id.to_string()));
        }
        engine.register_static_module(alias, module);
    }
    // Functions do not see the top level's scope, but they do see a global module's variables:
    // publish the script's constants there.
    let mut globals = Module::new();
    for (name, _, value) in constants.iter() {
        globals.set_var(name, value);
    }
    engine.register_global_module(globals.into());
    Ok(LoadedScript {
        engine,
        ast: ast.clone_functions_only(),
        constants,
        sources,
        source,
        bases: bases.take(),
        aliases,
    })
}

/// The modules the top level of `ast` imports, by alias (evaluating it once more: the resolver
/// has them cached by now).
fn top_level_imports(
    engine: &Engine,
    ast: &AST,
) -> Result<Vec<(String, Shared<Module>)>, Box<EvalAltResult>> {
    let module = Module::eval_ast_as_new(Scope::new(), ast, engine)?;
    Ok(module
        .iter_sub_modules()
        .map(|(alias, module)| (alias.to_string(), module.clone()))
        .collect())
}

/// How many variants deep a script may be.
const MAX_VARIANT_DEPTH: usize = 8;

/// Compiles a script; a variant (`import "BASE" as base;`) is merged over its compiled base, so
/// the functions it defines replace the base's and the rest are inherited.
fn compile_chain(
    engine: &Engine,
    library: &Library,
    source: &ScriptSource,
    sources: &Sources,
    depth: usize,
) -> Result<AST, Diagnostic> {
    sources.insert(&source.label, &source.text);
    let mut ast = engine
        .compile(&source.text)
        .map_err(|e| parse_diagnostic(&e, source))?;
    if let Some(pos) = assignment_into_constant(&ast) {
        let (line, col) = (pos.line().unwrap_or(1), pos.position().unwrap_or(1));
        let span = token_at(&source.text, offset_of(&source.text, line, col));
        return Err(Diagnostic::new(format!(
            "the rules script does not compile: {CONSTANT_PART}"
        ))
        .at(&source.label, &source.text, span, "a constant"));
    }
    ast.set_source(source.label.as_str());
    let Some((base, span)) = base_import(&source.text) else {
        sources.record_functions(&ast, &source.label);
        return Ok(ast);
    };
    let at = |msg: String, label: &str| {
        Diagnostic::new(msg).at(&source.label, &source.text, span.clone(), label)
    };
    if depth >= MAX_VARIANT_DEPTH {
        return Err(at(
            format!("variants nest more than {MAX_VARIANT_DEPTH} deep"),
            "is this import circular?",
        ));
    }
    if !is_name(&base) {
        return Err(at(
            format!(
                "import \"{base}\": imports name a rules script, like `import \"NAME\" as base;`"
            ),
            "not a script name",
        ));
    }
    let base_source = library
        .find_named(&base, source.dir.as_deref())
        .ok_or_else(|| at(format!("no rules script named '{base}'"), "imported here"))?;
    let base_ast = compile_chain(engine, library, &base_source, sources, depth + 1)?;
    sources.record_functions(&ast, &source.label);
    Ok(base_ast.merge(&ast))
}

/// An `import "NAME" as ALIAS;` line of a script.
struct Import {
    name: String,
    /// The span of NAME.
    name_span: std::ops::Range<usize>,
    alias: String,
    /// The span of ALIAS.
    alias_span: std::ops::Range<usize>,
}

/// The `import "NAME" as ALIAS;` lines of a script, in order.
fn imports(text: &str) -> Vec<Import> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix("import") else {
            continue;
        };
        let mut parts = rest.split('"');
        let (Some(""), Some(name), Some(tail)) =
            (parts.next().map(str::trim), parts.next(), parts.next())
        else {
            continue;
        };
        let mut words = tail.split_whitespace();
        let (Some("as"), Some(alias)) = (words.next(), words.next()) else {
            continue;
        };
        let alias = alias.trim_end_matches(';');
        let name_start =
            start + (line.len() - trimmed.len()) + "import".len() + rest.find('"').unwrap_or(0) + 1;
        let tail_start = name_start + name.len() + 1;
        let alias_start = tail_start + tail.find(alias).unwrap_or(0);
        found.push(Import {
            name: name.to_string(),
            name_span: name_start..name_start + name.len(),
            alias: alias.to_string(),
            alias_span: alias_start..alias_start + alias.len(),
        });
    }
    found
}

/// The base a variant imports (`import "NAME" as base;`) and the span of its name.
pub fn base_import(text: &str) -> Option<(String, std::ops::Range<usize>)> {
    imports(text)
        .into_iter()
        .find(|i| i.alias == "base")
        .map(|i| (i.name, i.name_span))
}

/// One error for a script that misses contract functions because it imports a rules script
/// under another alias than `base` (so it is not a variant and inherits nothing).
fn misnamed_base(source: &ScriptSource, library: &Library) -> Option<Diagnostic> {
    let import = imports(&source.text).into_iter().find(|i| {
        i.alias != "base"
            && is_name(&i.name)
            && library.find_named(&i.name, source.dir.as_deref()).is_some()
    })?;
    Some(
        Diagnostic::new(format!(
            "`import \"{}\" as {}` does not make this script a variant of {}, so it inherits none of its functions",
            import.name, import.alias, import.name
        ))
        .at(
            &source.label,
            &source.text,
            import.alias_span,
            "a variant names its base `base`",
        )
        .note(format!(
            "write `import \"{}\" as base;` and call the base's functions as `base::moves(state)`",
            import.name
        )),
    )
}

fn ast_imports(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("import "))
}

fn parse_diagnostic(err: &ParseError, source: &ScriptSource) -> Diagnostic {
    let pos = err.position();
    let (line, col) = (pos.line().unwrap_or(1), pos.position().unwrap_or(1));
    let offset = offset_of(&source.text, line, col);
    if let Some(open) = super::unclosed::find(&source.text) {
        let missing_brace =
            matches!(err.err_type(), rhai::ParseErrorType::MissingToken(t, _) if t == "}");
        if missing_brace || offset >= open.noticed {
            return unclosed_diagnostic(err, source, open.brace, line);
        }
    }
    let span = token_at(&source.text, offset);
    Diagnostic::new(format!(
        "the rules script does not compile: {}",
        err.err_type()
    ))
    .at(
        &source.label,
        &source.text,
        span,
        err.err_type().to_string(),
    )
}

/// A parse error caused by a block never closed, pointing at the `{` that opens it (Rhai
/// noticed at `line`, the end of the script or the next function).
fn unclosed_diagnostic(
    err: &ParseError,
    source: &ScriptSource,
    brace: usize,
    line: usize,
) -> Diagnostic {
    let text = &source.text;
    let head = text[..brace].rsplit('\n').next().unwrap_or_default().trim();
    let what = match head
        .strip_prefix("private ")
        .unwrap_or(head)
        .strip_prefix("fn ")
    {
        Some(f) => format!("`fn {}`", f.split('(').next().unwrap_or(f).trim()),
        None => "this block".to_string(),
    };
    Diagnostic::new(format!(
        "the rules script does not compile: a `}}` is missing: {what} is never closed"
    ))
    .at(
        &source.label,
        text,
        brace..brace + 1,
        "this `{` is never closed",
    )
    .note(format!(
        "add the `}}` where {what} ends (Rhai noticed only at line {line}: {})",
        err.err_type()
    ))
}

/// An error from running a script, pointing at the innermost script position it names.
pub fn eval_diagnostic(err: &EvalAltResult, sources: &Sources, main_label: &str) -> Diagnostic {
    let Innermost {
        error: inner,
        label,
        pos,
        ..
    } = innermost(err, sources, main_label);
    sources.diagnostic(
        &format!("the rules script failed: {}", sources.message(inner)),
        &label,
        pos.line().unwrap_or(0),
        pos.position().unwrap_or(1),
        "here",
    )
}

/// The innermost error of a chain of function calls, and where it happened.
pub struct Innermost<'e> {
    /// The error itself.
    pub error: &'e EvalAltResult,
    /// The script it happened in.
    pub label: String,
    /// Its position there (may be none, e.g. for the operations limit).
    pub pos: Position,
    /// The innermost script function it happened in, if any.
    pub function: Option<String>,
}

/// Unwraps a chain of function-call errors down to the error that started it.
pub fn innermost<'e>(err: &'e EvalAltResult, sources: &Sources, main_label: &str) -> Innermost<'e> {
    let mut found = Innermost {
        error: err,
        label: main_label.to_string(),
        pos: err.position(),
        function: None,
    };
    loop {
        match found.error {
            EvalAltResult::ErrorInFunctionCall(name, src, inner, at) => {
                if let Some(defining) = sources.script_defining(name) {
                    found.label = defining;
                } else if !src.is_empty() {
                    found.label = src.clone();
                }
                found.function = Some(name.clone());
                found.pos = if inner.position().is_none() {
                    *at
                } else {
                    inner.position()
                };
                found.error = inner;
            }
            EvalAltResult::ErrorInModule(_, inner, at) => {
                found.pos = if inner.position().is_none() {
                    *at
                } else {
                    inner.position()
                };
                found.error = inner;
            }
            _ => return found,
        }
    }
}

/// The message of an error without Rhai's "(line 3, position 5)" suffix.
pub fn bare_message(err: &EvalAltResult) -> String {
    match err {
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => format!(
            "the script ran more than {} operations in one call (an endless loop?)",
            super::sandbox::limits::OPERATIONS
        ),
        EvalAltResult::ErrorStackOverflow(_) => "the script's calls nest too deep".to_string(),
        EvalAltResult::ErrorTerminated(message, _) => message.to_string(),
        EvalAltResult::ErrorDataRace(what, _) => {
            format!(
            "data race on {}: a closure (`|c| …`) captured a variable that this same call also \
             uses, and Rhai cannot lend one variable twice at once. Copy what the closure needs \
             into a new variable first (`let n = list.len(); list.filter(|c| n > 0)`), or write \
             a `for` loop instead",
            if what.is_empty() { "a captured variable" } else { what }
        )
        }
        other => {
            let text = other.to_string();
            match text.rfind(" (line ") {
                Some(i) if text.ends_with(')') => text[..i].to_string(),
                _ => text,
            }
        }
    }
}

fn check_contract(
    ast: &AST,
    source: &ScriptSource,
    sources: &Sources,
) -> Result<(), Vec<Diagnostic>> {
    let defined: Vec<(String, usize)> = ast
        .iter_functions()
        .map(|f| (f.name.to_string(), f.params.len()))
        .collect();
    let mut problems = Vec::new();
    for f in CONTRACT {
        let arities: Vec<usize> = defined
            .iter()
            .filter(|(n, _)| n == f.name)
            .map(|&(_, a)| a)
            .collect();
        if arities.contains(&f.params.len()) {
            continue;
        }
        if let Some(&found) = arities.first() {
            let (label, text, at) = find_definition(f.name, source, sources);
            problems.push(
                Diagnostic::new(format!(
                    "`{}` takes {} parameter(s) here; the contract is `{}`",
                    f.name,
                    found,
                    f.signature()
                ))
                .at(label, text, at, format!("should be `{}`", f.signature()))
                .note(format!("{}: {}", f.name, f.purpose)),
            );
        } else if f.required {
            let end = source.text.trim_end().len();
            problems.push(
                Diagnostic::new(format!(
                    "the rules script does not define `{}`",
                    f.signature()
                ))
                .at(
                    &source.label,
                    &source.text,
                    end.saturating_sub(1)..end,
                    format!("add `{}` to this script", f.signature()),
                )
                .note(format!("{}: {}", f.name, f.purpose)),
            );
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Where `fn NAME` is defined (through the AST), or else the end of the main script.
fn find_definition(
    name: &str,
    source: &ScriptSource,
    sources: &Sources,
) -> (String, String, std::ops::Range<usize>) {
    sources
        .definition(name)
        .unwrap_or_else(|| (source.label.clone(), source.text.clone(), 0..0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_base_of_a_variant() {
        let text = "// a variant\nimport \"base_game\" as base;\nfn x() {}";
        let (name, span) = base_import(text).unwrap();
        assert_eq!(name, "base_game");
        assert_eq!(&text[span], "base_game");
        assert_eq!(base_import("import \"base_game\" as c;"), None);
    }
}
