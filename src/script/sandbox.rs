//! The sandboxed Rhai engine rules scripts run in.

use rhai::{packages::Package, Engine};

/// Limits every script call runs under.
pub mod limits {
    /// Operations one call may take (about half a second): stops endless loops.
    pub const OPERATIONS: u64 = 5_000_000;
    /// Nested function calls.
    pub const CALL_DEPTH: usize = 64;
    /// Nesting of expressions (global level, inside functions).
    pub const EXPR_DEPTH: (usize, usize) = (64, 64);
    /// Characters in one string.
    pub const STRING_SIZE: usize = 1 << 20;
    /// Items in one array.
    pub const ARRAY_SIZE: usize = 100_000;
    /// Entries in one object map.
    pub const MAP_SIZE: usize = 10_000;
    /// Modules one script may import, directly or not.
    pub const MODULES: usize = 16;
}

/// An engine with the standard library (no file, process or network access exists in it),
/// `eval` disabled, and the [`limits`] applied. `print` and `debug` go nowhere.
pub fn engine() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(rhai::packages::StandardPackage::new().as_shared_module());
    engine
        .set_max_operations(limits::OPERATIONS)
        .set_max_call_levels(limits::CALL_DEPTH)
        .set_max_expr_depths(limits::EXPR_DEPTH.0, limits::EXPR_DEPTH.1)
        .set_max_string_size(limits::STRING_SIZE)
        .set_max_array_size(limits::ARRAY_SIZE)
        .set_max_map_size(limits::MAP_SIZE)
        .set_max_modules(limits::MODULES)
        .disable_symbol("eval");
    engine
}
