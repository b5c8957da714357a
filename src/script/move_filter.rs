//! A variant's `moves()` that keeps some of its base's moves, recognised so that the base's
//! native form still serves: the native form plays the base's moves and asks a *move filter*
//! (a script function) about the cell a playout draws or a search considers (a placement
//! form), or once about each move a house could make (a sowing form: see
//! [`crate::script::ScriptedGame::sowing_narrowed`]). Verification
//! plays that native form with its filter against the script, so a shape recognised wrongly
//! is a disagreement (the native form is dropped), never a wrong game.
//!
//! The shapes, for `fn moves(state)` (any parameter name; `base` is any imported module):
//! - `base::moves(state).filter(|c| COND)` — the closure, which may use `state`;
//! - `base::moves(state).filter(helper)` — a script function `helper(c)`;
//! - `let list = base::moves(state); list.retain(|c| COND); list` (or `.retain(helper)`);
//! - `let list = []; for c in base::moves(state) { if COND { list.push(c); } } list`.
//!
//! The filter is asked with the state the native form was made from, however far a playout
//! or a search has gone from it: a condition on what changes during a game (the board, the
//! turn) is found out by verification, which asks it the same way.

use rhai::{ASTNode, Engine, Expr, FnPtr, Module, Position, Stmt, AST};

use super::host::Sources;
use crate::walker::body_of;

/// What the filter function is given, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterArg {
    /// The script's state the native form was made from.
    State,
    /// An empty array (the list a loop collects into, empty when its condition is asked).
    EmptyList,
    /// The move asked about: a cell for a placement form, a pit number for a sowing form.
    Move,
}

/// The script function that says whether a move of the base is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveFilter {
    /// The function's name (a closure's own, a helper's, or [`LOOP_FILTER`]).
    pub function: String,
    /// Its arguments.
    pub args: Vec<FilterArg>,
    /// Whether it reads the state it is given (so its answers belong to that state).
    pub reads_state: bool,
}

/// The name of the function made of a loop's condition (no script can define or call it).
pub const LOOP_FILTER: &str = "moves$keeps";

/// The move filter of `ast`'s `moves(state)` if it has one of the shapes above. For the loop,
/// the condition becomes the function [`LOOP_FILTER`], added to `ast` (compiled by `engine` from
/// its text in `sources`, at the same line and column).
pub fn recognise(engine: &Engine, ast: &mut AST, sources: &Sources) -> Option<MoveFilter> {
    let param = ast
        .iter_fn_def()
        .find(|def| def.name == "moves" && def.params.len() == 1)?
        .params[0]
        .to_string();
    let body = body_of(ast, "moves", 1);
    match body.as_slice() {
        [last] => {
            let (list, method, pred) = method_call(returned(last)?)?;
            (method == "filter" && is_base_moves(list, &param))
                .then(|| predicate(pred, &param, ast))
                .flatten()
        }
        [Stmt::Var(var, ..), middle, last] => {
            let list = var.0.name.as_str();
            if !returned(last).is_some_and(|e| is_var(e, list)) || list == param {
                return None;
            }
            if is_base_moves(&var.1, &param) {
                let Stmt::Expr(e) = middle else { return None };
                let (target, method, pred) = method_call(e)?;
                (method == "retain" && is_var(target, list))
                    .then(|| predicate(pred, &param, ast))
                    .flatten()
            } else if is_empty_array(&var.1) {
                let (at, reads_state) = loop_condition(middle, &param, list)?;
                let text = condition_text(at, sources)?;
                let Stmt::For(x, _) = middle else { return None };
                add_loop_filter(engine, ast, [&param, list, x.0.name.as_str()], &text).map(
                    |filter| MoveFilter {
                        reads_state,
                        ..filter
                    },
                )
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The value a function's last statement gives: its expression, or `return`'s.
fn returned(stmt: &Stmt) -> Option<&Expr> {
    match stmt {
        Stmt::Expr(e) => Some(e),
        Stmt::Return(Some(e), ..) => Some(e),
        _ => None,
    }
}

/// `target.method(arg)`: the target, the method's name and its one argument.
fn method_call(e: &Expr) -> Option<(&Expr, &str, &Expr)> {
    let Expr::Dot(x, ..) = e else { return None };
    let Expr::MethodCall(call, _) = &x.rhs else {
        return None;
    };
    match call.args.as_slice() {
        [arg] => Some((&x.lhs, call.name.as_str(), arg)),
        _ => None,
    }
}

/// Whether `e` is the variable `name` (not a module's).
fn is_var(e: &Expr, name: &str) -> bool {
    matches!(e, Expr::Variable(v, ..) if v.2.is_empty() && v.1 == name)
}

/// Whether `e` is `[]` (which Rhai's optimiser makes a constant).
fn is_empty_array(e: &Expr) -> bool {
    match e {
        Expr::Array(items, _) => items.is_empty(),
        Expr::DynamicConstant(value, _) => value
            .read_lock::<rhai::Array>()
            .is_some_and(|a| a.is_empty()),
        _ => false,
    }
}

/// Whether `e` is `module::moves(param)`.
fn is_base_moves(e: &Expr, param: &str) -> bool {
    matches!(e, Expr::FnCall(call, _)
        if call.is_qualified() && call.name == "moves"
            && matches!(call.args.as_slice(), [arg] if is_var(arg, param)))
}

/// The filter a predicate argument names: a closure (capturing nothing but `param`), or a
/// script function of one parameter named bare.
fn predicate(e: &Expr, param: &str, ast: &AST) -> Option<MoveFilter> {
    let (pointer, captured) = match e {
        Expr::DynamicConstant(value, _) => (value.as_ref(), 0),
        // A closure that captures: `{ share…; curry(Fn(anon), captured…) }`.
        Expr::Stmt(block) => {
            let (last, shares) = block.statements().split_last()?;
            if !shares.iter().all(|s| matches!(s, Stmt::Share(..))) {
                return None;
            }
            let call = match last {
                Stmt::Expr(e) => match e.as_ref() {
                    Expr::FnCall(call, _) => call,
                    _ => return None,
                },
                Stmt::FnCall(call, _) => call,
                _ => return None,
            };
            let (first, rest) = call.args.split_first()?;
            let Expr::DynamicConstant(value, _) = first else {
                return None;
            };
            if call.name != "curry" || !rest.iter().all(|a| is_var(a, param)) {
                return None;
            }
            (value.as_ref(), rest.len())
        }
        Expr::Variable(v, ..) if v.2.is_empty() && v.1 != param => {
            let name = v.1.to_string();
            return ast
                .shared_lib()
                .get_script_fn(&name, 1)
                .map(|_| MoveFilter {
                    function: name,
                    args: vec![FilterArg::Move],
                    reads_state: false,
                });
        }
        _ => return None,
    };
    let pointer = pointer.read_lock::<FnPtr>()?;
    let name = pointer.fn_name().to_string();
    if !pointer.curry().is_empty()
        || ast
            .shared_lib()
            .get_script_fn(&name, captured + 1)
            .is_none()
    {
        return None;
    }
    let mut args = vec![FilterArg::State; captured];
    args.push(FilterArg::Move);
    Some(MoveFilter {
        function: name,
        args,
        reads_state: captured > 0,
    })
}

/// Where the `if` of `for c in base::moves(param) { if COND { list.push(c); } }` is, and
/// whether `COND` reads `param`.
fn loop_condition(stmt: &Stmt, param: &str, list: &str) -> Option<(Position, bool)> {
    let Stmt::For(x, _) = stmt else { return None };
    let (var, counter, flow) = x.as_ref();
    if counter.is_some() || !is_base_moves(&flow.expr, param) || var.name == param {
        return None;
    }
    let [Stmt::If(test, at)] = flow.body.statements() else {
        return None;
    };
    let [Stmt::Expr(push)] = test.body.statements() else {
        return None;
    };
    let (target, method, item) = method_call(push)?;
    let pushes = method == "push" && is_var(target, list) && is_var(item, var.name.as_str());
    let mut reads_state = false;
    test.expr.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
        reads_state |= matches!(path.last(), Some(ASTNode::Expr(e)) if is_var(e, param));
        !reads_state
    });
    (pushes && test.branch.statements().is_empty()).then_some((*at, reads_state))
}

/// The condition of the `if` at `at` as its script spells it: `(line, column, text)`.
fn condition_text(at: Position, sources: &Sources) -> Option<(usize, usize, String)> {
    let (line, column) = (at.line()?, at.position()? + "if".len());
    let label = sources.script_defining("moves")?;
    let text = sources.get(&label)?;
    let rest: String = text
        .lines()
        .nth(line - 1)?
        .chars()
        .skip(column - 1)
        .collect();
    // The condition runs to the `{` of the `if`'s body: the first one outside brackets on the
    // line (a condition spanning lines is not recognised).
    let mut depth = 0i32;
    let mut end = None;
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    let condition = rest[..end?].trim_end();
    (!condition.trim().is_empty()).then(|| (line, column, condition.to_string()))
}

/// Compiles `fn LOOP_FILTER(params…) { condition }` (the condition at its own line and column)
/// and adds it to `ast`.
fn add_loop_filter(
    engine: &Engine,
    ast: &mut AST,
    params: [&str; 3],
    (line, column, condition): &(usize, usize, String),
) -> Option<MoveFilter> {
    if *line < 2 {
        return None;
    }
    let text = format!(
        "fn keeps({}) {{{}{}{condition}\n}}",
        params.join(", "),
        "\n".repeat(line - 1),
        " ".repeat(column - 1)
    );
    let compiled = engine.compile(&text).ok()?;
    let mut def = compiled.iter_fn_def().next()?.as_ref().clone();
    def.name = LOOP_FILTER.into();
    let mut module = Module::new();
    module.set_script_fn(def);
    ast.combine(AST::new_from_module(module));
    Some(MoveFilter {
        function: LOOP_FILTER.into(),
        args: vec![FilterArg::State, FilterArg::EmptyList, FilterArg::Move],
        reads_state: true,
    })
}
