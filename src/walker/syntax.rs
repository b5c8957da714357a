//! Questions asked of Rhai's syntax tree before a function is lowered: whether any node of a
//! body is of a kind (used by the lowering and by the memo's purity analysis).

use rhai::{ASTNode, Stmt as RhaiStmt};

/// Whether any node of `body` (statements and expressions, nested ones included) is `wanted`.
pub(super) fn any_node(body: &[RhaiStmt], mut wanted: impl FnMut(&ASTNode) -> bool) -> bool {
    body.iter()
        .any(|stmt| found_in(ASTNode::Stmt(stmt), &mut wanted))
}

/// Whether `node` or a node inside it is `wanted`. Rhai's own walk does not enter the value of
/// a `break` (`break || v`): this one does.
fn found_in(node: ASTNode, wanted: &mut dyn FnMut(&ASTNode) -> bool) -> bool {
    let mut found = false;
    let mut on_node = |path: &[ASTNode]| {
        if let Some(node) = path.last() {
            found = wanted(node)
                || matches!(node, ASTNode::Stmt(RhaiStmt::BreakLoop(Some(value), ..))
                    if found_in(ASTNode::Expr(value), &mut *wanted));
        }
        !found
    };
    match node {
        ASTNode::Stmt(stmt) => stmt.walk(&mut Vec::new(), &mut on_node),
        ASTNode::Expr(expr) => expr.walk(&mut Vec::new(), &mut on_node),
        // A kind of node a later Rhai may add: taken as found (every question asked here is
        // whether the walker must leave something to Rhai).
        _ => return true,
    };
    found
}
