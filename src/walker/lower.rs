//! Lowering Rhai's syntax tree of each script function into the walker's tree.

use std::{
    cell::{Cell, RefCell},
    collections::BTreeSet,
    rc::Rc,
};

use foldhash::{HashMap, HashMapExt};

use rhai::{
    ASTFlags, ASTNode, BinaryExpr, Dynamic, Expr as RhaiExpr, FnCallExpr, ImmutableString,
    OpAssignment, Position, Scope, Shared, Span, Stmt as RhaiStmt, StmtBlock, Token, AST,
};

use crate::walker::{native_table::NativeTable, run::closures::takes_closure};

use super::syntax::any_node;
use super::{
    profile::Profiled, ArrayMethod, Block, Call, Callee, Chain, Expr, Fallback, ForLoop, Function,
    Gathering, HandedToRhai, ImportedCall, IntAssign, IntOp, IntOperand, Junction, MapLiteral,
    OpAssign, Operands, PointerCall, Program, Rest, Root, Shape, Site, Slot, Step, Stmt,
};

/// Names Rhai treats as syntax rather than as functions: calls of them are left to Rhai.
/// (`type_of`, `is_shared` and `is_def_fn` are answered by Rhai's native-call path, which the
/// walker uses.)
const KEYWORDS: [&str; 9] = [
    "print",
    "debug",
    "eval",
    "Fn",
    "call",
    "curry",
    "is_def_var",
    "this",
    "global",
];

/// A function the walker does not run (Rhai runs it).
struct Refused;

type Lowered<T> = Result<T, Refused>;

/// Lowers every function of `ast`; with `profile`, each statement is wrapped to record its cost
/// (see [`super::profile`]).
pub(super) fn program(
    ast: &AST,
    constants: &Scope,
    natives: &NativeTable,
    profile: bool,
    own_lib: bool,
) -> Program {
    let defs: Vec<Shared<rhai::ScriptFuncDef>> = ast.iter_fn_def().cloned().collect();
    // A name of one of the script's functions used as a value is a pointer to it, in a
    // function the host calls (see `Program::own_lib`), when the script has one function of
    // that name.
    let mut pointers: HashMap<ImmutableString, Option<Dynamic>> = HashMap::new();
    if own_lib {
        for def in defs.iter().filter(|def| !def.name.starts_with("anon$")) {
            pointers
                .entry(def.name.clone())
                .and_modify(|one| *one = None)
                .or_insert_with(|| Some(Dynamic::from(rhai::FnPtr::from(def.clone()))));
        }
    }
    let pointers: HashMap<ImmutableString, Dynamic> = pointers
        .into_iter()
        .filter_map(|(name, ptr)| Some((name, ptr?)))
        .collect();
    let index: HashMap<(ImmutableString, usize), usize> = defs
        .iter()
        .enumerate()
        .map(|(i, def)| ((def.name.clone(), def.params.len()), i))
        .collect();
    let constants: HashMap<&str, Dynamic> = constants
        .iter_raw()
        .map(|(name, _, value)| (name, value.clone()))
        .collect();
    let closure_writes = closure_writes(ast, &defs, &index, natives);
    // Lowers the function `def`, reading from the host's scope the constants in `from_host`:
    // gives the function (if lowered), what it leaves to Rhai, the constants on which something
    // Rhai runs may call a method, and the constants it reads.
    let lower_one = |def: &Shared<rhai::ScriptFuncDef>, from_host: &BTreeSet<ImmutableString>| {
        let mut changed = BTreeSet::new();
        let mut handed_to_rhai = Vec::new();
        let body = body_of(ast, &def.name, def.params.len());
        let mut lower = Lower {
            index: &index,
            constants: &constants,
            from_host,
            natives,
            names: def.params.iter().cloned().collect(),
            declared: vec![false; def.params.len()],
            most: def.params.len(),
            changed: BTreeSet::new(),
            read: BTreeSet::new(),
            profile: profile.then(|| def.name.clone()),
            handed_to_rhai: Vec::new(),
            closure_writes: &closure_writes,
            pointers: &pointers,
            by_name: !closure_params(def).is_empty(),
            closure_argument: false,
            closure_target: None,
            shares_handed_over: false,
            writes: Vec::new(),
            reads: Vec::new(),
            opaque: 0,
            shared_captures: Vec::new(),
        };
        let why_not = if def.this_type.is_some() {
            Some("it uses `this`")
        } else if !walkable(&body) {
            Some("it imports a module or uses custom syntax")
        } else if reads_free_variable(&body, &constants, &pointers, closure_params(def)) {
            Some("it reads a variable it does not define (a call in the caller's scope)")
        } else {
            None
        };
        let lowered = why_not
            .is_none()
            .then(|| lower.block(&body).ok())
            .flatten()
            .filter(|_| !lower.shares_handed_over)
            .map(|mut body| {
                let moves_out = super::mark_returned(&mut body);
                (body, moves_out)
            });
        match &lowered {
            Some(_) => {
                handed_to_rhai.extend(lower.handed_to_rhai.drain(..).map(|h| HandedToRhai {
                    function: def.name.to_string(),
                    ..h
                }))
            }
            None => handed_to_rhai.push(HandedToRhai {
                function: def.name.to_string(),
                line: body.first().and_then(|s| s.position().line()).unwrap_or(0),
                why: format!(
                    "Rhai runs the whole function: {}",
                    why_not.unwrap_or(if shares(&body) {
                        "a closure captures its variables other than as an argument of an \
                             array method (`filter`, `map`…: kept in a variable to be called \
                             with `call`, say), or changes one, or captures both locals and \
                             script constants"
                    } else {
                        "it holds a construct the walker does not model"
                    })
                ),
                whole_function: true,
            }),
        }
        // What Rhai runs may change a constant: a function left to it, or a node.
        match lowered {
            Some(_) => changed.append(&mut lower.changed),
            None => methods_on_constants(&body, &mut changed),
        }
        let Some((lowered_body, moves_out)) = lowered else {
            return (None, handed_to_rhai, changed, lower.read, body);
        };
        let changes = closure_writes.get(&def.name).map_or(Vec::new(), |written| {
            def.params.iter().map(|p| written.contains(p)).collect()
        });
        let function = Function {
            name: def.name.clone(),
            arity: def.params.len(),
            body: lowered_body,
            frame_size: lower.most,
            moves_out,
            changes,
            memo: Default::default(),
        };
        (Some(function), handed_to_rhai, changed, lower.read, body)
    };
    let mut lowered: Vec<_> = defs
        .iter()
        .map(|def| lower_one(def, &BTreeSet::new()))
        .collect();
    // The constants something Rhai runs may change are known once every function is lowered:
    // the functions reading them are lowered again, to read them from the host's scope.
    let from_host: BTreeSet<ImmutableString> = lowered
        .iter()
        .flat_map(|(_, _, changed, ..)| changed.iter().cloned())
        .collect();
    for (def, lowered) in defs.iter().zip(&mut lowered) {
        if !lowered.3.is_disjoint(&from_host) {
            *lowered = lower_one(def, &from_host);
        }
    }
    // Which functions' results may be reused (none while profiling, which records each
    // statement's cost as it runs).
    let pure = if profile {
        vec![false; defs.len()]
    } else {
        let bodies: Vec<_> = defs
            .iter()
            .zip(&lowered)
            .map(|(def, lowered)| (def.name.clone(), lowered.4.as_slice()))
            .collect();
        let eligible: Vec<bool> = lowered
            .iter()
            .map(|(function, _, _, read, _)| function.is_some() && read.is_disjoint(&from_host))
            .collect();
        super::memo::pure_functions(&bodies, &eligible, natives)
    };
    let mut functions = Vec::with_capacity(lowered.len());
    let mut handed_to_rhai = Vec::new();
    for (i, (mut function, handed, ..)) in lowered.into_iter().enumerate() {
        if let Some(function) = function.as_mut().filter(|_| pure[i]) {
            function.memo.set(Some(i));
        }
        functions.push(function);
        handed_to_rhai.extend(handed);
    }
    let mut by_name: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for (&(ref name, arity), &i) in &index {
        by_name
            .entry(name.to_string())
            .or_default()
            .push((arity, i));
    }
    Program {
        functions,
        by_name,
        source: ast.shared_lib().id().map(ImmutableString::from),
        handed_to_rhai,
        own_lib,
        native_names: Default::default(),
        memo: super::memo::Memo::new(defs.len()),
    }
}

/// Why the walker hands `expr` to Rhai, in words for `boardrules profile`.
fn why_rhai(expr: &RhaiExpr) -> String {
    match expr {
        RhaiExpr::InterpolatedString(..) => "string interpolation (`${…}`)".into(),
        RhaiExpr::FnCall(call, ..) if call.is_qualified() => format!(
            "a call through a path of modules, or with a closure capturing variables among its \
             arguments (`{}::{}`): Rhai makes the call (a plain `base::f(…)` is made by the \
             walker)",
            call.namespace, call.name
        ),
        RhaiExpr::FnCall(call, ..) if call.name == "curry" => CURRIED.into(),
        RhaiExpr::FnCall(call, ..) if KEYWORDS.contains(&call.name.as_str()) => {
            format!("`{}`, which Rhai treats as syntax", call.name)
        }
        RhaiExpr::FnCall(call, ..) => format!("the operator or call `{}`", call.name),
        RhaiExpr::Variable(var, ..) if !var.2.is_empty() => "a module's variable".into(),
        RhaiExpr::Variable(var, ..) => format!("the variable `{}`, not a local", var.1),
        RhaiExpr::Dot(x, ..) if links_call(&x.rhs, "curry") => CURRIED.into(),
        RhaiExpr::Dot(x, ..) if links_call(&x.rhs, "call") => {
            "a function pointer's call that is not on a variable (`m.f.call(…)`, \
             `Fn(\"f\").call(…)`), or whose arguments name that variable, or with a closure \
             capturing variables among them: Rhai makes it"
                .into()
        }
        RhaiExpr::Dot(..) | RhaiExpr::Index(..) => {
            "a chain the walker does not follow (a property or index of a value it does not \
             model, or a method of a script function called with `this`)"
                .into()
        }
        RhaiExpr::Coalesce(..) => "`??`".into(),
        RhaiExpr::Custom(..) => "custom syntax".into(),
        _ => "an expression the walker does not lower".into(),
    }
}

/// Why Rhai makes a curried pointer, in words for `boardrules profile`.
const CURRIED: &str = "`curry`: Rhai makes the pointer, and its calls too (the walker calls \
                       pointers without curried values)";

/// Whether a link of a chain's right side `rhs` calls the method `name`.
fn links_call(rhs: &RhaiExpr, name: &str) -> bool {
    match rhs {
        RhaiExpr::MethodCall(call, _) => call.name == name,
        RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..) => {
            links_call(&x.lhs, name) || links_call(&x.rhs, name)
        }
        _ => false,
    }
}

/// Why the walker hands `stmt` to Rhai, in words for `boardrules profile`.
fn why_rhai_stmt(stmt: &RhaiStmt) -> String {
    match stmt {
        RhaiStmt::Switch(..) => "`switch`".into(),
        RhaiStmt::TryCatch(..) => "`try`/`catch`".into(),
        RhaiStmt::Var(..) => "a `let` the walker does not model (a module-level name)".into(),
        RhaiStmt::Assignment(..) => {
            "an assignment the walker does not model (to a constant, a string's character or \
             a native value's property)"
                .into()
        }
        RhaiStmt::BreakLoop(..) | RhaiStmt::Return(..) => "a `break` or `return` form".into(),
        RhaiStmt::Expr(expr) => why_rhai(expr),
        _ => "a statement the walker does not lower".into(),
    }
}

/// The statements of the function `name` with `arity` parameters. (Rhai does not export the
/// type holding a function's body; walking an AST of that function alone gives its
/// statements. `AST::clone_functions_only_filtered` keeps every function in rhai 1.27, so the
/// copy is filtered afterwards.)
pub fn body_of(ast: &AST, name: &str, arity: usize) -> Vec<RhaiStmt> {
    let mut alone = ast.clone_functions_only();
    alone.retain_functions(|_, _, n, a| n == name && a == arity);
    let mut body = Vec::new();
    alone.walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(stmt)] = path {
            body.push((*stmt).clone());
        }
        true
    });
    body
}

/// Whether a function body holds nothing the walker cannot model anywhere in it: `this`,
/// imports, calls that see the caller's scope. (Variables shared with closures are looked at
/// where they are shared: see [`Lower::capture`].)
fn walkable(body: &[RhaiStmt]) -> bool {
    !any_node(body, |node| match node {
        ASTNode::Stmt(s) => match s {
            RhaiStmt::Import(..) | RhaiStmt::Export(..) => true,
            // A call as a statement (`f!()` last in a body) is a statement node.
            RhaiStmt::FnCall(call, ..) => call.capture_parent_scope || call.name == "is_shared",
            _ => false,
        },
        ASTNode::Expr(e) => match e {
            RhaiExpr::ThisPtr(..) | RhaiExpr::Custom(..) => true,
            // A variable shared with a closure is not shared in the walker (see
            // `Lower::capture`): `is_shared` would tell.
            RhaiExpr::FnCall(call, ..) | RhaiExpr::MethodCall(call, ..) => {
                call.capture_parent_scope || call.name == "is_shared"
            }
            _ => false,
        },
        _ => false,
    })
}

/// A variable a `share` statement shares, and where the parser found it among the locals.
type SharedVar = (rhai::Ident, Option<std::num::NonZeroUsize>);

/// The variables shared and the call making the closure, if `stmts` is a closure capturing
/// variables as Rhai's parser writes it: `{ share k, …; curry(closure, k, …) }`.
fn capture_of(stmts: &[RhaiStmt]) -> Option<(&[SharedVar], &FnCallExpr)> {
    let [RhaiStmt::Share(vars), made] = stmts else {
        return None;
    };
    let call = match made {
        RhaiStmt::FnCall(call, _) => &**call,
        RhaiStmt::Expr(expr) => match &**expr {
            RhaiExpr::FnCall(call, _) => &**call,
            _ => return None,
        },
        _ => return None,
    };
    (call.name == "curry" && !call.is_qualified() && call.args.len() == vars.len() + 1)
        .then_some((&***vars, call))
}

/// `exprs`, each as a statement (for the questions asked of statements).
fn as_stmts(exprs: &[RhaiExpr]) -> Vec<RhaiStmt> {
    exprs
        .iter()
        .map(|e| RhaiStmt::Expr(Box::new(e.clone())))
        .collect()
}

/// Whether `exprs` name the variable `name` anywhere, or make a closure capturing variables
/// (which Rhai's parser writes with `share`).
fn names_variable(exprs: &[RhaiExpr], name: &str) -> bool {
    any_node(&as_stmts(exprs), |node| match node {
        ASTNode::Expr(RhaiExpr::Variable(v, ..)) => v.1 == name,
        ASTNode::Stmt(RhaiStmt::Share(..)) => true,
        _ => false,
    })
}

/// Whether `expr` is a range, `a..b` or `a..=b`.
fn is_range(expr: &RhaiExpr) -> bool {
    match expr {
        RhaiExpr::FnCall(call, _) => matches!(
            call.op_token,
            Some(Token::ExclusiveRange | Token::InclusiveRange)
        ),
        _ => expr.get_literal_value(None).is_some_and(|value| {
            value.is::<std::ops::Range<rhai::INT>>()
                || value.is::<std::ops::RangeInclusive<rhai::INT>>()
        }),
    }
}

/// Whether `body` shares a variable with a closure.
fn shares(body: &[RhaiStmt]) -> bool {
    any_node(body, |node| {
        matches!(node, ASTNode::Stmt(RhaiStmt::Share(..)))
    })
}

/// Whether `body` may change the variable `name`: assigns to it (or to a property or an item
/// of it), declares it again, calls a method on it (or on a part of it), or passes it first to
/// a function (which a native function may change; not one of the script's functions, `index`,
/// which Rhai finds first and hands a copy), or asks whether it is shared. A call of a name the
/// runtime's natives only read with ([`NativeTable::only_reads`]) and no script function has
/// changes nothing.
fn may_change(
    body: &[RhaiStmt],
    name: &str,
    index: &HashMap<(ImmutableString, usize), usize>,
    natives: &NativeTable,
) -> bool {
    let script_fn = |call: &FnCallExpr| {
        !call.is_qualified() && index.contains_key(&(call.name.clone(), call.args.len()))
    };
    let reads_only = |call: &FnCallExpr, params: usize| {
        !call.is_qualified()
            && natives.only_reads(&call.name, params)
            && !(call.args.len()..=params).any(|n| index.contains_key(&(call.name.clone(), n)))
    };
    let is_var = |e: &RhaiExpr| matches!(e, RhaiExpr::Variable(v, ..) if v.1 == name);
    let root_is_var = |e: &RhaiExpr| {
        let mut e = e;
        while let RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..) = e {
            e = &x.lhs;
        }
        is_var(e)
    };
    any_node(body, |node| match node {
        ASTNode::Stmt(RhaiStmt::Assignment(x)) => root_is_var(&x.1.lhs),
        ASTNode::Stmt(RhaiStmt::Var(x, ..)) => x.0.name == name,
        ASTNode::Stmt(RhaiStmt::FnCall(call, _)) | ASTNode::Expr(RhaiExpr::FnCall(call, _)) => {
            call.name == "is_shared"
                || (call.args.first().is_some_and(is_var)
                    && !script_fn(call)
                    && !reads_only(call, call.args.len()))
        }
        ASTNode::Expr(RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..)) => {
            root_is_var(&x.lhs)
                && chain_methods(&x.rhs).any(|call| !reads_only(call, call.args.len() + 1))
        }
        _ => false,
    })
}

/// Whether `body` names a variable that is neither one of its locals nor a script constant.
/// Called with `f!()`, the function sees its caller's variables; called otherwise, Rhai looks
/// the variable up where it would be used, in an order of its own (`max(nope, 1 / 0)` divides
/// by zero before it misses `nope`): Rhai runs such a function.
fn reads_free_variable(
    body: &[RhaiStmt],
    constants: &HashMap<&str, Dynamic>,
    pointers: &HashMap<ImmutableString, Dynamic>,
    params: &[ImmutableString],
) -> bool {
    any_node(body, |node| {
        matches!(node, ASTNode::Expr(e @ RhaiExpr::Variable(v, ..))
            if is_global(e) && v.2.is_empty() && !constants.contains_key(v.1.as_str())
                && !params.contains(&v.1) && !pointers.contains_key(&v.1))
    })
}

/// The parameters of `def` its body may name without the parser having numbered them: a
/// closure's captured variables (Rhai finds them by name), for a closure; else none.
fn closure_params(def: &rhai::ScriptFuncDef) -> &[ImmutableString] {
    if def.name.starts_with("anon$") {
        &def.params
    } else {
        &[]
    }
}

/// The captured parameters each closure (by its function's name) may change (see
/// [`Lower::capture`]): those its body may change, and those it captures in turn for a
/// closure of its own that may change them (Rhai shares the variable all the way down).
fn closure_writes(
    ast: &AST,
    defs: &[Shared<rhai::ScriptFuncDef>],
    index: &HashMap<(ImmutableString, usize), usize>,
    natives: &NativeTable,
) -> HashMap<ImmutableString, Vec<ImmutableString>> {
    let closures: Vec<_> = defs
        .iter()
        .filter(|def| def.name.starts_with("anon$"))
        .map(|def| (def, body_of(ast, &def.name, def.params.len())))
        .collect();
    let mut writes: HashMap<ImmutableString, Vec<ImmutableString>> = closures
        .iter()
        .map(|(def, body)| {
            let written = def
                .params
                .iter()
                .filter(|p| may_change(body, p, index, natives))
                .cloned()
                .collect();
            (def.name.clone(), written)
        })
        .collect();
    // Each closure's captures of its own parameters for inner closures: (inner, parameter).
    let passed: Vec<(ImmutableString, Vec<(ImmutableString, ImmutableString)>)> = closures
        .iter()
        .map(|(def, body)| {
            let mut captures = Vec::new();
            any_node(body, |node| {
                if let ASTNode::Expr(RhaiExpr::Stmt(block)) = node {
                    if let Some((vars, call)) = capture_of(block.statements()) {
                        if let Some(inner) = closure_name(call) {
                            captures.extend(
                                vars.iter()
                                    .filter(|(var, _)| def.params.contains(&var.name))
                                    .map(|(var, _)| (inner.clone(), var.name.clone())),
                            );
                        }
                    }
                }
                false
            });
            (def.name.clone(), captures)
        })
        .collect();
    loop {
        let mut more = Vec::new();
        for (outer, captures) in &passed {
            for (inner, param) in captures {
                let changes = writes.get(inner).is_some_and(|w| w.contains(param));
                if changes && !writes[outer].contains(param) {
                    more.push((outer.clone(), param.clone()));
                }
            }
        }
        if more.is_empty() {
            return writes;
        }
        for (outer, param) in more {
            let written = writes.entry(outer).or_default();
            if !written.contains(&param) {
                written.push(param);
            }
        }
    }
}

/// The name of the closure's function a capture's `curry(closure, …)` call makes.
fn closure_name(call: &FnCallExpr) -> Option<ImmutableString> {
    let closure = call.args.first()?.get_literal_value(None)?;
    let ptr = closure.read_lock::<rhai::FnPtr>()?;
    Some(ImmutableString::from(ptr.fn_name()))
}

/// Whether every use of the variable `name` in `expr` is a closure's capture of it (the
/// variable named by a capture's `curry`, as many as there are `share`s of it).
fn used_only_by_captures(expr: &RhaiExpr, name: &str) -> bool {
    let (mut uses, mut shares) = (0, 0);
    let stmt = RhaiStmt::Expr(Box::new(expr.clone()));
    any_node(std::slice::from_ref(&stmt), |node| {
        match node {
            ASTNode::Expr(RhaiExpr::Variable(v, ..)) if v.1 == name => uses += 1,
            ASTNode::Stmt(RhaiStmt::Share(vars)) => {
                shares += vars.iter().filter(|(var, _)| var.name == name).count()
            }
            _ => (),
        }
        false
    });
    uses == shares
}

/// Adds to `names` each variable that is not a local (a script constant) on which `body` calls
/// a method.
fn methods_on_constants(body: &[RhaiStmt], names: &mut BTreeSet<ImmutableString>) {
    any_node(body, |node| {
        if let ASTNode::Expr(RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..)) = node {
            if let RhaiExpr::Variable(v, ..) = &x.lhs {
                if is_global(&x.lhs) && chain_calls_method(&x.rhs) {
                    names.insert(v.1.clone());
                }
            }
        }
        false
    });
}

/// A variable the parser did not find among the locals.
fn is_global(expr: &RhaiExpr) -> bool {
    matches!(expr, RhaiExpr::Variable(v, short, ..) if short.is_none() && v.0.is_none())
}

/// The methods the rest of a chain calls, in order.
fn chain_methods(rhs: &RhaiExpr) -> impl Iterator<Item = &FnCallExpr> {
    let mut rest = Some(rhs);
    std::iter::from_fn(move || loop {
        let (step, next) = match rest? {
            RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..) => (&x.lhs, Some(&x.rhs)),
            last => (last, None),
        };
        rest = next;
        if let RhaiExpr::MethodCall(call, _) = step {
            return Some(&**call);
        }
    })
}

/// Whether the rest of a chain calls a method.
fn chain_calls_method(rhs: &RhaiExpr) -> bool {
    match rhs {
        RhaiExpr::MethodCall(..) => true,
        RhaiExpr::Dot(x, ..) | RhaiExpr::Index(x, ..) => {
            matches!(x.lhs, RhaiExpr::MethodCall(..)) || chain_calls_method(&x.rhs)
        }
        _ => false,
    }
}

/// The state of lowering one function.
struct Lower<'a> {
    index: &'a HashMap<(ImmutableString, usize), usize>,
    constants: &'a HashMap<&'a str, Dynamic>,
    /// The constants read from the host's scope when called from the host (see
    /// [`Expr::Constant`]).
    from_host: &'a BTreeSet<ImmutableString>,
    /// The runtime's natives (which of them take compact lists).
    natives: &'a NativeTable,
    /// The frame's variable names at the point being lowered, bottom first.
    names: Vec<ImmutableString>,
    /// For each of `names`, whether it is a variable declared by `let` (see
    /// [`IntAssign::writable`]).
    declared: Vec<bool>,
    /// The most names the frame has held so far.
    most: usize,
    /// The constants on which something left to Rhai may call a method, which (called from
    /// the host) changes the constant for the calls after.
    changed: BTreeSet<ImmutableString>,
    /// The constants the function reads (in nodes it runs itself).
    read: BTreeSet<ImmutableString>,
    /// The function's name when its statements are to be profiled.
    profile: Option<ImmutableString>,
    /// The nodes left to Rhai so far, and why.
    handed_to_rhai: Vec<HandedToRhai>,
    /// The captured parameters each closure (by its function's name) may change.
    closure_writes: &'a HashMap<ImmutableString, Vec<ImmutableString>>,
    /// The pointers a script function's name, used as a value, gives (as Rhai makes them:
    /// see `program`).
    pointers: &'a HashMap<ImmutableString, Dynamic>,
    /// The function is a closure: a variable the parser did not number may be one of its
    /// captured parameters, found by name (see [`closure_params`]).
    by_name: bool,
    /// The expression being lowered is an argument of an array method that takes a closure.
    closure_argument: bool,
    /// The variable (or constant) the chain with that method starts from, if any: a closure
    /// capturing it would meet it locked by Rhai (a data race).
    closure_target: Option<ImmutableString>,
    /// Something handed to Rhai shares variables with a closure: Rhai would make the frame's
    /// variables shared, which the walker does not model (the function is not lowered).
    shares_handed_over: bool,
    /// The frame's slots (counted from its bottom) that the statements lowered so far may
    /// change: assigned, declared again, passed by reference to a native function, or the
    /// root of a method call (see [`ForLoop::stable`]).
    writes: Vec<usize>,
    /// The frame's slots (counted from its bottom) that the expressions lowered so far read
    /// (see [`ForLoop::lend`]).
    reads: Vec<usize>,
    /// How many nodes left to Rhai were lowered so far (Rhai may change any variable there).
    opaque: usize,
    /// The frame's slots (counted from its bottom) that closures lowered so far share, as
    /// they change them, in the chain being lowered (see [`Lower::capture`]).
    shared_captures: Vec<usize>,
}

impl Lower<'_> {
    fn block(&mut self, stmts: &[RhaiStmt]) -> Lowered<Block> {
        let mark = self.names.len();
        let outer = std::mem::take(&mut self.shared_captures);
        let block = stmts
            .iter()
            .map(|s| {
                let stmt = self.stmt(s);
                // Variables shared with a closure outside a chain (an assignment's target):
                // nothing makes them plain again.
                if !self.shared_captures.is_empty() {
                    return Err(Refused);
                }
                self.most = self.most.max(self.names.len());
                match &self.profile {
                    Some(function) => stmt.map(|stmt| {
                        Stmt::Profiled(Box::new(Profiled {
                            function: function.clone(),
                            pos: s.position(),
                            stmt,
                        }))
                    }),
                    None => stmt,
                }
            })
            .collect();
        self.names.truncate(mark);
        self.declared.truncate(mark);
        self.shared_captures = outer;
        block
    }

    fn names(&self) -> Rc<[ImmutableString]> {
        self.names.iter().cloned().collect()
    }

    /// Notes that what is being lowered may change the variable in `slot`.
    fn writes(&mut self, slot: Slot) {
        self.writes.push(self.names.len() - slot.get());
    }

    /// A statement left to Rhai.
    fn rhai_stmt(&mut self, stmt: &RhaiStmt) -> Stmt {
        self.opaque += 1;
        self.handed_over(stmt.position(), why_rhai_stmt(stmt));
        Stmt::Rhai(self.fallback_stmt(stmt))
    }

    /// Notes that the node at `pos` is left to Rhai, and `why`.
    fn handed_over(&mut self, pos: Position, why: String) {
        self.handed_to_rhai.push(HandedToRhai {
            function: String::new(),
            line: pos.line().unwrap_or(0),
            why,
            whole_function: false,
        });
    }

    /// The constant `name`, noted as read.
    fn read(&mut self, name: &ImmutableString) -> ImmutableString {
        self.read.insert(name.clone());
        name.clone()
    }

    /// `stmt` as Rhai evaluates it in the walker's frame (a block of that one statement).
    fn fallback_stmt(&mut self, stmt: &RhaiStmt) -> Box<Fallback> {
        methods_on_constants(std::slice::from_ref(stmt), &mut self.changed);
        self.shares_handed_over |= shares(std::slice::from_ref(stmt));
        let pos = stmt.position();
        let block = StmtBlock::new_with_span([stmt.clone()], Span::new(pos, pos));
        Box::new(Fallback {
            expr: RhaiExpr::Stmt(Box::new(block)),
            names: self.names(),
        })
    }

    /// The assignment `stmt` to `lhs` as Rhai runs it in the walker's frame, always with the
    /// value already computed in place of its right side: a closure there is not made again
    /// by Rhai (it shares nothing).
    fn fallback_assignment(&mut self, stmt: &RhaiStmt, lhs: &RhaiExpr) -> Box<Fallback> {
        let before = self.shares_handed_over;
        let fallback = self.fallback_stmt(stmt);
        self.shares_handed_over = before || shares(&[RhaiStmt::Expr(Box::new(lhs.clone()))]);
        fallback
    }

    /// An expression left to Rhai.
    fn rhai_expr(&mut self, expr: &RhaiExpr) -> Expr {
        self.opaque += 1;
        self.handed_over(expr.position(), why_rhai(expr));
        let stmt = RhaiStmt::Expr(Box::new(expr.clone()));
        methods_on_constants(std::slice::from_ref(&stmt), &mut self.changed);
        self.shares_handed_over |= shares(std::slice::from_ref(&stmt));
        Expr::Rhai(Box::new(Fallback {
            expr: expr.clone(),
            names: self.names(),
        }))
    }

    fn stmt(&mut self, stmt: &RhaiStmt) -> Lowered<Stmt> {
        Ok(match stmt {
            RhaiStmt::Noop(..) => Stmt::Call(Expr::Value(Dynamic::UNIT)),
            RhaiStmt::Expr(expr) => Stmt::Expr(self.expr(expr)?),
            RhaiStmt::FnCall(call, pos) => match self.call(call, *pos)? {
                // Rhai runs the statement, as it would have.
                Expr::Rhai(_) => self.rhai_stmt(stmt),
                call => Stmt::Call(call),
            },
            RhaiStmt::Block(block) => Stmt::Block(self.block(block.statements())?),
            RhaiStmt::Var(var, flags, _) => {
                let (ident, init, reuse) = &**var;
                if flags.contains(ASTFlags::EXPORTED) {
                    return Err(Refused);
                }
                let value = self.expr(init)?;
                let declared = !flags.contains(ASTFlags::CONSTANT);
                match reuse {
                    None => {
                        self.names.push(ident.name.clone());
                        self.declared.push(declared);
                    }
                    Some(r) if r.get() > self.names.len() => return Err(Refused),
                    Some(r) => {
                        self.writes(*r);
                        let at = self.names.len() - r.get();
                        self.declared[at] = declared;
                    }
                }
                Stmt::Let {
                    value: made_anew(value),
                    constant: flags.contains(ASTFlags::CONSTANT),
                    reuse: *reuse,
                }
            }
            RhaiStmt::Assignment(assignment) => {
                let (op_info, BinaryExpr { lhs, rhs }) = &**assignment;
                let op = op_assign(op_info);
                match lhs {
                    RhaiExpr::Variable(var, ..) if var.2.is_empty() => match self.slot(lhs)? {
                        Some(slot) => {
                            self.writes(slot);
                            let mut value = self.expr(rhs)?;
                            // `x = f(x, …)`: the call's result replaces x, so x is handed to
                            // the script function rather than copied.
                            if let (None, Expr::Call(call)) = (&op, &mut value) {
                                call.take_first = call.first_local == Some(slot)
                                    && matches!(call.callee, Callee::Script(_));
                                // x, handed over, is not read again for another argument.
                                if call.take_first {
                                    call.late &= !super::passes(&call.args, slot);
                                }
                            }
                            let fast = op
                                .as_ref()
                                .and_then(|op| op.int)
                                .zip(IntOperand::of(&value));
                            let assign = Stmt::Assign {
                                slot,
                                name: var.1.clone(),
                                pos: lhs.position(),
                                stmt: op.is_some().then(|| self.fallback_assignment(stmt, lhs)),
                                op,
                                value,
                            };
                            match fast {
                                Some((op, by)) => Stmt::IntAssign(Box::new(IntAssign {
                                    slot,
                                    by,
                                    op,
                                    pos: lhs.position(),
                                    writable: self.declared[self.names.len() - slot.get()],
                                    assign,
                                })),
                                None => assign,
                            }
                        }
                        None => self.rhai_stmt(stmt),
                    },
                    RhaiExpr::Dot(..) | RhaiExpr::Index(..) => match self.chain(lhs)? {
                        // Rhai assigns through a method's result or to a constant its own way.
                        Some(chain)
                            if matches!(chain.root, Root::Local(_)) && !chain.calls_methods() =>
                        {
                            if let Root::Local(slot) = chain.root {
                                self.writes(slot);
                            }
                            Stmt::ChainAssign {
                                value: self.expr(rhs)?,
                                chain: Box::new(chain),
                                op,
                                stmt: self.fallback_assignment(stmt, lhs),
                                pos: op_info.position(),
                            }
                        }
                        _ => self.rhai_stmt(stmt),
                    },
                    _ => self.rhai_stmt(stmt),
                }
            }
            RhaiStmt::If(flow, ..) => Stmt::If {
                cond: self.expr(&flow.expr)?,
                cond_pos: flow.expr.position(),
                then: self.block(flow.body.statements())?,
                otherwise: self.block(flow.branch.statements())?,
            },
            RhaiStmt::While(flow, ..) => Stmt::While {
                cond: if matches!(
                    flow.expr,
                    RhaiExpr::Unit(..) | RhaiExpr::BoolConstant(true, ..)
                ) {
                    None
                } else {
                    Some((self.expr(&flow.expr)?, flow.expr.position()))
                },
                body: self.block(flow.body.statements())?,
            },
            RhaiStmt::Do(flow, flags, ..) => Stmt::Do {
                body: self.block(flow.body.statements())?,
                cond: self.expr(&flow.expr)?,
                cond_pos: flow.expr.position(),
                until: flags.contains(ASTFlags::NEGATED),
            },
            RhaiStmt::For(for_loop, ..) => {
                let (var, counter, flow) = &**for_loop;
                let iterable = self.expr(&flow.expr)?;
                let shares_before = self.shares_handed_over;
                let rhai = self.fallback_stmt(stmt);
                // Rhai runs the loop only over what the walker does not iterate (never over a
                // range of integers): the closures of its body share variables there as they
                // do in Rhai, and end with the loop, after which the walker makes the frame's
                // variables plain again. Whether a closure may share variables is looked at
                // where the body is lowered.
                self.shares_handed_over = shares_before;
                let loop_shares = !is_range(&flow.expr) && shares(std::slice::from_ref(stmt));
                let mark = self.names.len();
                let (writes, reads, opaque) = (self.writes.len(), self.reads.len(), self.opaque);
                if let Some(counter) = counter {
                    self.names.push(counter.name.clone());
                    self.declared.push(false);
                }
                self.names.push(var.name.clone());
                self.declared.push(false);
                let var_at = self.names.len() - 1;
                self.most = self.most.max(self.names.len());
                let body = self.block(flow.body.statements());
                self.names.truncate(mark);
                self.declared.truncate(mark);
                let seen = self.opaque == opaque;
                let written = |at| self.writes[writes..].contains(&at);
                // A variable's array the body never changes is iterated where it is.
                let (stable, lend) = match iterable {
                    Expr::Local(slot) => {
                        let at = mark - slot.get();
                        let stable = seen && !written(at);
                        let unread = !self.reads[reads..].contains(&at);
                        (stable, stable && unread && !written(var_at))
                    }
                    Expr::Constant(..) => (false, seen && !written(var_at)),
                    _ => (false, false),
                };
                let items = match &iterable {
                    Expr::Constant(_, value, _) if lend && !value.is_shared() => value
                        .read_lock::<rhai::Array>()
                        .map(|items| RefCell::new(items.clone())),
                    _ => None,
                };
                Stmt::For(Box::new(ForLoop {
                    shares: loop_shares,
                    counter: counter.is_some(),
                    iterable,
                    stable,
                    lend,
                    items,
                    body: body?,
                    rhai,
                }))
            }
            RhaiStmt::BreakLoop(value, flags, _) => Stmt::Break {
                value: value.as_deref().map(|v| self.expr(v)).transpose()?,
                is_break: flags.contains(ASTFlags::BREAK),
            },
            RhaiStmt::Return(value, flags, pos) => {
                let value = value.as_deref().map(|v| self.expr(v)).transpose()?;
                if flags.contains(ASTFlags::BREAK) {
                    Stmt::Throw { value, pos: *pos }
                } else {
                    Stmt::Return(value)
                }
            }
            RhaiStmt::Switch(..) | RhaiStmt::TryCatch(..) => self.rhai_stmt(stmt),
            _ => return Err(Refused),
        })
    }

    /// The slot of a variable the parser numbered; `None` for one it did not (not a local).
    fn slot(&mut self, var: &RhaiExpr) -> Lowered<Option<Slot>> {
        let slot = self.find_slot(var)?;
        if let Some(slot) = slot {
            self.reads.push(self.names.len() - slot.get());
        }
        Ok(slot)
    }

    /// [`Self::slot`], without noting the read.
    fn find_slot(&self, var: &RhaiExpr) -> Lowered<Option<Slot>> {
        let RhaiExpr::Variable(v, short, ..) = var else {
            return Ok(None);
        };
        let index = short.map_or(v.0.map_or(0, |i| i.get()), |i| usize::from(i.get()));
        match Slot::new(index) {
            Some(slot) if slot.get() <= self.names.len() => Ok(Some(slot)),
            // Not where the parser says it is: leave the function to Rhai.
            Some(_) => Err(Refused),
            // A closure's captured variable, which Rhai finds by name (the last of that name).
            None if self.by_name => match self.names.iter().rposition(|n| *n == v.1) {
                Some(p) => Ok(Slot::new(self.names.len() - p)),
                None => Ok(None),
            },
            // A name the parser did not find among the locals must not be one either.
            None if self.names.contains(&v.1) => Err(Refused),
            None => Ok(None),
        }
    }

    fn expr(&mut self, expr: &RhaiExpr) -> Lowered<Expr> {
        // Only the argument itself, not what is inside it.
        let closure_argument = std::mem::take(&mut self.closure_argument);
        if let RhaiExpr::Stmt(block) = expr {
            if let Some((vars, curry)) = capture_of(block.statements()) {
                if !closure_argument {
                    return Err(Refused);
                }
                return self.capture(block.statements(), vars, curry);
            }
        }
        if expr.is_constant() {
            if let Some(value) = expr.get_literal_value(None) {
                return Ok(Expr::Value(value));
            }
        }
        Ok(match expr {
            RhaiExpr::Variable(var, ..) if var.2.is_empty() => match self.slot(expr)? {
                Some(slot) => Expr::Local(slot),
                None => match self.constants.get(var.1.as_str()) {
                    Some(value) => Expr::Constant(
                        self.read(&var.1),
                        value.clone(),
                        self.from_host.contains(&var.1),
                    ),
                    // Not a variable: Rhai then looks for a script function of that name.
                    None => match self.pointers.get(&var.1) {
                        Some(pointer) => Expr::Value(pointer.clone()),
                        None => self.rhai_expr(expr),
                    },
                },
            },
            RhaiExpr::Array(items, ..) => Expr::Array(
                items
                    .iter()
                    .map(|item| Ok((self.expr(item)?, item.position())))
                    .collect::<Lowered<_>>()?,
            ),
            RhaiExpr::Map(map, ..) => {
                let entries = map
                    .0
                    .iter()
                    .map(|(key, value)| {
                        Ok((
                            key.name.as_str().into(),
                            self.expr(value)?,
                            value.position(),
                        ))
                    })
                    .collect::<Lowered<_>>()?;
                Expr::Map(Box::new(MapLiteral {
                    entries,
                    template: map.1.clone(),
                }))
            }
            RhaiExpr::And(list, ..) => Expr::And(Box::new(Junction::new(self.operands(list)?))),
            RhaiExpr::Or(list, ..) => Expr::Or(Box::new(Junction::new(self.operands(list)?))),
            RhaiExpr::Stmt(block) => Expr::Block(self.block(block.statements())?),
            RhaiExpr::FnCall(call, pos) => self.call(call, *pos)?,
            RhaiExpr::Dot(..) | RhaiExpr::Index(..) => {
                if let Some(call) = self.pointer_method(expr)? {
                    return Ok(call);
                }
                let outer = std::mem::take(&mut self.shared_captures);
                let chain = self.chain(expr);
                let shared = std::mem::replace(&mut self.shared_captures, outer);
                match chain? {
                    Some(chain) if shared.is_empty() => Expr::Chain(Box::new(chain)),
                    Some(chain) => self.unshared(expr, chain, shared)?,
                    None => self.rhai_expr(expr),
                }
            }
            _ => self.rhai_expr(expr),
        })
    }

    /// The chain `expr`, whose closures share the frame's slots `shared` (counted from its
    /// bottom) as they change them, followed by those slots made plain values again: the
    /// closures end with the chain, and Rhai's shared variable then behaves as a plain one
    /// (Rhai copies a shared value out of a variable wherever it uses one, and `is_shared`
    /// is not lowered). Only where the chain uses those variables for nothing but the
    /// closures' captures, which Rhai reads through the shared value the walker does not
    /// model elsewhere.
    fn unshared(&mut self, expr: &RhaiExpr, chain: Chain, mut shared: Vec<usize>) -> Lowered<Expr> {
        shared.sort_unstable();
        shared.dedup();
        let slots = shared
            .iter()
            .map(|&at| {
                let name = self.names.get(at).ok_or(Refused)?;
                if !used_only_by_captures(expr, name) {
                    return Err(Refused);
                }
                Slot::new(self.names.len() - at).ok_or(Refused)
            })
            .collect::<Lowered<_>>()?;
        Ok(Expr::Unshare(Box::new((
            Expr::Chain(Box::new(chain)),
            slots,
        ))))
    }

    /// A closure capturing variables, as Rhai's parser writes it (`{ share k; curry(f, k) }`),
    /// passed to an array method the walker runs closures of. Rhai makes each captured
    /// variable shared for the rest of the function and hands the closure the shared value.
    /// The walker shares only the variables the closure may change (`closure_writes`), as
    /// Rhai does, and makes them plain again when the chain holding the closure ends (see
    /// [`Self::unshared`]): the closure never outlives the method call. A variable it only
    /// reads is passed as a copy, the same while nothing changes it. The share counts Rhai's
    /// operation; the closure is made once per method call (`curry`, by the walker when every
    /// captured variable is in the frame, see [`Self::curry`]; else by Rhai). A closure
    /// capturing only script constants (not in the frame: Rhai shares the host's copy, or
    /// fails when there is none) and changing none is shared by Rhai.
    fn capture(
        &mut self,
        stmts: &[RhaiStmt],
        vars: &[SharedVar],
        call: &FnCallExpr,
    ) -> Lowered<Expr> {
        let (share, made) = (&stmts[0], &stmts[1]);
        let Some(closure) = call.args.first().and_then(|f| f.get_literal_value(None)) else {
            return Err(Refused);
        };
        let name = match closure.read_lock::<rhai::FnPtr>() {
            Some(ptr) => ImmutableString::from(ptr.fn_name()),
            None => return Err(Refused),
        };
        let written = self.closure_writes.get(&name).ok_or(Refused)?;
        let target = self.closure_target.as_ref();
        if vars.iter().any(|(var, _)| target == Some(&var.name)) {
            return Err(Refused);
        }
        let slots: Vec<Option<Slot>> = vars
            .iter()
            .map(|(var, index)| self.captured_slot(&var.name, *index))
            .collect();
        let changed: Vec<Slot> = vars
            .iter()
            .zip(&slots)
            .filter(|((var, _), _)| written.contains(&var.name))
            .filter_map(|(_, slot)| *slot)
            .collect();
        // The variables not in the frame are script constants: Rhai shares them where it
        // finds them (the host's scope), and the closure must not change them.
        let outside: Vec<&SharedVar> = vars
            .iter()
            .zip(&slots)
            .filter(|(_, slot)| slot.is_none())
            .map(|(var, _)| var)
            .collect();
        if outside
            .iter()
            .any(|(var, _)| self.names.contains(&var.name) || written.contains(&var.name))
        {
            return Err(Refused);
        }
        // The variables the closure may change are shared, until the chain ends (see
        // `unshared`).
        for &slot in &changed {
            self.writes(slot);
            self.shared_captures.push(self.names.len() - slot.get());
        }
        let constants = (!outside.is_empty()).then(|| {
            self.handed_over(
                share.position(),
                "a closure capturing script constants (Rhai shares them)".into(),
            );
            let mut share = share.clone();
            if let RhaiStmt::Share(vars) = &mut share {
                vars.retain(|(var, index)| self.captured_slot(&var.name, *index).is_none());
            }
            // Not `fallback_stmt`, which refuses a share handed to Rhai.
            let pos = share.position();
            Box::new(Fallback {
                expr: RhaiExpr::Stmt(Box::new(StmtBlock::new_with_span(
                    [share],
                    Span::new(pos, pos),
                ))),
                names: self.names(),
            })
        });
        // One operation, as Rhai counts for the statement.
        let shared = Stmt::Call(if changed.is_empty() && constants.is_none() {
            Expr::Value(Dynamic::UNIT)
        } else {
            Expr::Share(changed, constants)
        });
        Ok(Expr::Block(vec![shared, self.stmt(made)?]))
    }

    /// The slot of a captured variable the parser found at `index`, or (in a closure, where
    /// the parser does not number its own captured variables) found by name; `None` for one
    /// not in the frame (a script constant).
    fn captured_slot(&self, name: &str, index: Option<Slot>) -> Option<Slot> {
        match index {
            Some(i) if i.get() <= self.names.len() => Some(i),
            Some(_) => None,
            None if self.by_name => {
                let p = self.names.iter().rposition(|n| n == name)?;
                Slot::new(self.names.len() - p)
            }
            None => None,
        }
    }

    /// `curry(f, a, …)` with `f` a literal function pointer and the others local variables
    /// (what Rhai's parser writes for a closure capturing variables): made by the walker as
    /// Rhai's `curry` makes it. `None` for any other `curry`, and any other call.
    fn curry(&mut self, call: &FnCallExpr) -> Lowered<Option<Expr>> {
        let [first, rest @ ..] = &call.args[..] else {
            return Ok(None);
        };
        if call.name != "curry" || rest.is_empty() {
            return Ok(None);
        }
        let Some(ptr) = first.get_literal_value(None).filter(Dynamic::is_fnptr) else {
            return Ok(None);
        };
        let mut slots = Vec::with_capacity(rest.len());
        for arg in rest {
            let local = matches!(arg, RhaiExpr::Variable(v, ..) if v.2.is_empty());
            match self.find_slot(arg)? {
                Some(slot) if local => slots.push(slot),
                _ => return Ok(None),
            }
        }
        // Each variable is read.
        for arg in rest {
            self.slot(arg)?;
        }
        Ok(Some(Expr::Curry(Box::new((ptr, slots)))))
    }

    fn operands(&mut self, list: &[RhaiExpr]) -> Lowered<Vec<(Expr, Position)>> {
        list.iter()
            .map(|e| Ok((self.expr(e)?, e.position())))
            .collect()
    }

    /// A call by name: an operator, one of the script's functions, or a native function.
    fn call(&mut self, call: &FnCallExpr, pos: Position) -> Lowered<Expr> {
        let whole = || RhaiExpr::FnCall(Box::new(call.clone()), pos);
        if call.is_qualified() {
            return self.imported(call, whole(), pos);
        }
        if let Some(token) = &call.op_token {
            return Ok(match (token, &call.args[..], IntOp::of(token)) {
                (Token::Bang | Token::UnaryMinus | Token::UnaryPlus | Token::Minus, [arg], _) => {
                    Expr::Unary {
                        token: token.clone(),
                        name: call.name.clone(),
                        arg: Box::new(self.expr(arg)?),
                        pos,
                        site: Site::default(),
                    }
                }
                (token, [lhs, rhs], Some(op)) => Expr::Binary {
                    token: token.clone(),
                    op,
                    name: call.name.clone(),
                    args: Box::new(Operands::new(
                        op,
                        [self.expr(lhs)?, self.expr(rhs)?],
                        call.clone(),
                    )),
                    pos,
                    site: Site::default(),
                },
                _ => self.rhai_expr(&whole()),
            });
        }
        if call.name == "call" && !call.args.is_empty() {
            return self.pointer_function(call, whole(), pos);
        }
        if let Some(curry) = self.curry(call)? {
            return Ok(curry);
        }
        if KEYWORDS.contains(&call.name.as_str()) {
            return Ok(self.rhai_expr(&whole()));
        }
        let callee = match self.index.get(&(call.name.clone(), call.args.len())) {
            Some(&i) => Callee::Script(i),
            None => Callee::Native,
        };
        let first_local = match call.args.first() {
            Some(first @ RhaiExpr::Variable(..)) => self.slot(first)?,
            _ => None,
        };
        // A native function gets its first argument by reference (`x = f(x, …)` hands x to
        // a script function: see `Call::take_first`, set by the assignment, which notes it).
        if let (Some(slot), Callee::Native) = (first_local, callee) {
            self.writes(slot);
        }
        let args = call
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Lowered<Vec<_>>>()?;
        let pure_from = args
            .iter()
            .rposition(|a| !matches!(a, Expr::Local(_) | Expr::Value(_)))
            .map_or(0, |k| k + 1);
        Ok(Expr::Call(Box::new(Call {
            late: super::late_arguments(&args),
            name: call.name.clone(),
            args,
            first_local,
            callee,
            pos,
            site: Site::default(),
            returned: false,
            take_first: false,
            pure_from,
        })))
    }

    /// `call(f, args)`: a [`PointerCall`], its pointer evaluated first as Rhai does. Arguments
    /// making closures that capture variables are left to Rhai (with the call), as before.
    fn pointer_function(
        &mut self,
        call: &FnCallExpr,
        whole: RhaiExpr,
        pos: Position,
    ) -> Lowered<Expr> {
        if call.capture_parent_scope || shares(&as_stmts(&call.args)) {
            return Ok(self.rhai_expr(&whole));
        }
        let rhai = self.pointer_fallback(&whole);
        let pointer = self.expr(&call.args[0])?;
        let first_local = match call.args.get(1) {
            Some(first @ RhaiExpr::Variable(..)) => self.find_slot(first)?,
            _ => None,
        };
        // Called by its name, a native function gets that variable by reference.
        if let Some(slot) = first_local {
            self.writes(slot);
        }
        let args = call.args[1..]
            .iter()
            .map(|a| self.expr(a))
            .collect::<Lowered<_>>()?;
        Ok(Expr::PointerCall(Box::new(PointerCall {
            pointer,
            method: false,
            args,
            first_local,
            pos,
            rhai,
        })))
    }

    /// `f.call(args)` on a local variable `f` that the arguments do not name (so nothing
    /// changes it before Rhai reads it, after them), or on a script function's name: a
    /// [`PointerCall`]. `None` for any other chain.
    fn pointer_method(&mut self, expr: &RhaiExpr) -> Lowered<Option<Expr>> {
        let RhaiExpr::Dot(x, flags, _) = expr else {
            return Ok(None);
        };
        let (RhaiExpr::Variable(var, ..), RhaiExpr::MethodCall(call, pos)) = (&x.lhs, &x.rhs)
        else {
            return Ok(None);
        };
        if flags.contains(ASTFlags::NEGATED)
            || call.name != "call"
            || call.is_qualified()
            || !var.2.is_empty()
            || names_variable(&call.args, &var.1)
        {
            return Ok(None);
        }
        // A local variable, or a script function's name (a pointer to it).
        let pointer = match self.slot(&x.lhs)? {
            Some(slot) => Expr::Local(slot),
            None if self.constants.contains_key(var.1.as_str()) => return Ok(None),
            None => match self.pointers.get(&var.1) {
                Some(pointer) => Expr::Value(pointer.clone()),
                None => return Ok(None),
            },
        };
        let rhai = self.pointer_fallback(expr);
        let args = call
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Lowered<_>>()?;
        Ok(Some(Expr::PointerCall(Box::new(PointerCall {
            pointer,
            method: true,
            args,
            first_local: None,
            pos: *pos,
            rhai,
        }))))
    }

    /// A pointer's call `expr` as Rhai evaluates it in the frame, for a pointer the walker
    /// does not call (not noted as left to Rhai: it depends on the pointer).
    fn pointer_fallback(&mut self, expr: &RhaiExpr) -> Box<Fallback> {
        let stmt = RhaiStmt::Expr(Box::new(expr.clone()));
        methods_on_constants(std::slice::from_ref(&stmt), &mut self.changed);
        Box::new(Fallback {
            expr: expr.clone(),
            names: self.names(),
        })
    }

    /// A call of a module's function, `base::f(…)`: the walker evaluates the arguments and the
    /// host makes the call where it can (see [`super::Imports`]); else Rhai evaluates `whole`
    /// in the frame, as it does a node handed over. A call through a path of modules
    /// (`a::b::f`), or with arguments holding a closure that captures variables, is handed
    /// over as before.
    fn imported(&mut self, call: &FnCallExpr, whole: RhaiExpr, pos: Position) -> Lowered<Expr> {
        let args_as_stmts: Vec<RhaiStmt> = call
            .args
            .iter()
            .map(|a| RhaiStmt::Expr(Box::new(a.clone())))
            .collect();
        let root = call.namespace.root();
        if call.namespace.path.len() != 1 || root == "global" || shares(&args_as_stmts) {
            return Ok(self.rhai_expr(&whole));
        }
        // Rhai may evaluate the call (the host may not make it), changing what it likes.
        self.opaque += 1;
        let stmt = RhaiStmt::Expr(Box::new(whole.clone()));
        methods_on_constants(std::slice::from_ref(&stmt), &mut self.changed);
        let rhai = Box::new(Fallback {
            expr: whole,
            names: self.names(),
        });
        let first_variable = match call.args.first() {
            Some(first @ RhaiExpr::Variable(..)) => Some(first.position()),
            _ => None,
        };
        // The module's function gets copies of the arguments.
        let args = call
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Lowered<_>>()?;
        Ok(Expr::Imported(Box::new(ImportedCall {
            namespace: root.into(),
            name: call.name.clone(),
            args,
            first_variable,
            pos,
            rhai,
        })))
    }

    /// A chain from a variable, a constant or another expression's value; `None` for one left
    /// to Rhai.
    fn chain(&mut self, expr: &RhaiExpr) -> Lowered<Option<Chain>> {
        let (RhaiExpr::Dot(x, flags, _) | RhaiExpr::Index(x, flags, _)) = expr else {
            return Ok(None);
        };
        if flags.contains(ASTFlags::NEGATED) {
            return Ok(None);
        }
        let root = match &x.lhs {
            var @ RhaiExpr::Variable(v, ..) if v.2.is_empty() => match self.slot(var)? {
                Some(slot) => Root::Local(slot),
                None => match self.constants.get(v.1.as_str()) {
                    Some(value) => Root::Constant(
                        self.read(&v.1),
                        value.clone(),
                        self.from_host.contains(&v.1),
                    ),
                    None => return Ok(None),
                },
            },
            RhaiExpr::Variable(..) | RhaiExpr::ThisPtr(..) => return Ok(None),
            // Rhai evaluates the expression (after the chain's arguments) and walks the chain
            // on its value.
            value => Root::Value(Box::new(self.expr(value)?)),
        };
        let mut chain = Chain {
            root,
            steps: Vec::new(),
            args: Vec::new(),
            whole: expr.clone(),
            rests: Vec::new(),
            names: self.names(),
            returned: false,
            argument: false,
            gathering: gathering(expr, &x.rhs),
            array_method: None,
            shape: Cell::new(Shape::General),
            pair_plan: RefCell::new(None),
            field_plan: Cell::new(None),
        };
        if !self.links(expr, &x.rhs, &mut chain)? {
            return Ok(None);
        }
        chain.array_method = array_method(&chain, self.natives);
        chain.shape.set(Shape::of(&chain, self.natives));
        // A method may change the variable it is called on (but Rhai's `len` and `is_empty`).
        if let Root::Local(slot) = chain.root {
            let reads = matches!(
                chain.array_method,
                Some(ArrayMethod::Len | ArrayMethod::IsEmpty)
            );
            if chain.calls_methods() && !reads {
                self.writes(slot);
            }
        }
        if let Root::Constant(name, ..) = &chain.root {
            if chain.may_change_constant() {
                self.changed.insert(name.clone());
            }
        }
        Ok(Some(chain))
    }

    /// Adds the links of `rhs`, the right side of `parent` (a `Dot` or an `Index`), to
    /// `chain`, in Rhai's order; `false` for a chain left to Rhai.
    fn links(&mut self, parent: &RhaiExpr, rhs: &RhaiExpr, chain: &mut Chain) -> Lowered<bool> {
        let (dot, flags, op_pos) = match parent {
            RhaiExpr::Dot(_, flags, pos) => (true, *flags, *pos),
            RhaiExpr::Index(_, flags, pos) => (false, *flags, *pos),
            _ => return Ok(false),
        };
        chain.rests.push(Rest {
            dot,
            flags,
            pos: op_pos,
            rhs: rhs.clone(),
        });
        // The chain goes on past this link unless `rhs` is the last one (an index expression
        // that is itself a chain is marked so).
        let next = match rhs {
            RhaiExpr::Dot(x, f, _) | RhaiExpr::Index(x, f, _)
                if !flags.intersects(ASTFlags::BREAK) =>
            {
                if f.contains(ASTFlags::NEGATED) {
                    return Ok(false);
                }
                Some(x)
            }
            _ => None,
        };
        let link = next.map_or(rhs, |x| &x.lhs);
        let step = match (link, dot) {
            (RhaiExpr::Property(p, pos), true) => Step::Prop {
                name: p.2.clone(),
                getter: p.0 .0.clone(),
                pos: *pos,
                site: Site::default(),
            },
            (RhaiExpr::MethodCall(call, pos), true) => {
                if call.is_qualified() || KEYWORDS.contains(&call.name.as_str()) {
                    return Ok(false);
                }
                let script = self.index.keys().any(|(name, _)| *name == call.name);
                let takes_lists = !script && self.natives.takes_lists(&call.name);
                let takes_closure = !script && takes_closure(&call.name, call.args.len() + 1);
                self.closure_target = match &chain.root {
                    Root::Local(slot) => self.names.get(self.names.len() - slot.get()).cloned(),
                    Root::Constant(name, ..) => Some(name.clone()),
                    Root::Value(_) => None,
                };
                for arg in &call.args {
                    self.closure_argument = takes_closure;
                    let arg = self.expr(arg);
                    self.closure_argument = false;
                    let mut arg = arg?;
                    if let (true, Expr::Chain(inner)) = (takes_lists, &mut arg) {
                        if inner.ends_in_native_method() {
                            inner.mark_listed(false);
                        }
                    }
                    chain.args.push(arg);
                }
                Step::Method {
                    name: call.name.clone(),
                    args: call.args.len(),
                    script,
                    pos: *pos,
                    site: Site::default(),
                }
            }
            (_, true) => return Ok(false),
            (index, false) => {
                let arg = self.expr(index)?;
                chain.args.push(arg);
                Step::Index
            }
        };
        chain.steps.push(step);
        match next {
            Some(x) => self.links(rhs, &x.rhs, chain),
            None => Ok(true),
        }
    }
}

/// How Rhai gathers the arguments and indexes of the chain `parent` whose right side is `rhs`
/// (as `eval_dot_index_chain` decides).
fn gathering(parent: &RhaiExpr, rhs: &RhaiExpr) -> Gathering {
    let dot = matches!(parent, RhaiExpr::Dot(..));
    match rhs {
        RhaiExpr::Property(..) if dot => Gathering::Nothing,
        RhaiExpr::MethodCall(call, _) if dot && call.args.is_empty() => Gathering::Nothing,
        _ if !dot && rhs.get_literal_value(None).is_some() => Gathering::LiteralIndex,
        _ => Gathering::PerLink,
    }
}

/// A declared value: an empty array literal (`let line = [];`, a constant for Rhai's optimiser)
/// made as an array literal is made, which may reuse an array that ended (see
/// `Runner::spare_array`), rather than copied from the constant (an allocation each time).
/// Both count the same operation.
fn made_anew(value: Expr) -> Expr {
    match value {
        Expr::Value(array)
            if array.tag() == 0
                && !array.is_shared()
                && !array.is_read_only()
                && array.as_array_ref().is_ok_and(|items| items.is_empty()) =>
        {
            Expr::Array(Vec::new())
        }
        value => value,
    }
}

/// Which of Rhai's array methods `chain` calls, if it is one step on a variable calling one
/// that the runtime's `natives` have no function of the same name for on an array (theirs would
/// come first).
fn array_method(chain: &Chain, natives: &NativeTable) -> Option<ArrayMethod> {
    if !matches!(chain.root, Root::Local(_)) {
        return None;
    }
    let (name, method) = match chain.steps.as_slice() {
        [Step::Method {
            name,
            args,
            script: false,
            ..
        }] => (name, ArrayMethod::of(name, *args)?),
        [Step::Prop { getter, .. }] if getter == "get$len" => (getter, ArrayMethod::Len),
        [Step::Prop { getter, .. }] if getter == "get$is_empty" => (getter, ArrayMethod::IsEmpty),
        _ => return None,
    };
    let theirs = natives.has_on(name, std::any::TypeId::of::<rhai::Array>());
    (!theirs).then_some(method)
}

fn op_assign(op: &OpAssignment) -> Option<OpAssign> {
    op.get_op_assignment_info()
        .map(|(_, _, token, op_assign, _, op_name)| OpAssign {
            op_assign,
            op: op_name,
            int: match token {
                Token::PlusAssign => Some(IntOp::Add),
                Token::MinusAssign => Some(IntOp::Subtract),
                Token::MultiplyAssign => Some(IntOp::Multiply),
                Token::DivideAssign => Some(IntOp::Divide),
                Token::ModuloAssign => Some(IntOp::Modulo),
                _ => None,
            },
            token: token.clone(),
            pos: op.position(),
        })
}
