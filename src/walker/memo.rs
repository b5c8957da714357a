//! Reusing a pure script function's result: a call of a function whose result depends only on
//! its arguments, made again with equal arguments, gives the result the walker computed before
//! (a copy), counting the operations that call counted.
//!
//! **Which functions** ([`pure_functions`], decided when lowered): a lowered function that
//! reads no script constant something Rhai runs may change, calls no function through a module
//! path (`base::f`), by a pointer (`call`, `f.call`, `Fn`) or by the caller's scope, calls no native function that acts
//! outside its arguments or gives what they do not decide (Rhai's `print`, `debug`, `eval`,
//! the clock's `timestamp`, `elapsed` and `sleep`, and what the host marked with
//! [`crate::walker::native_table::Natives::mark_effectful`]), and names only script functions
//! (as calls or values; closures included) that are pure in turn. A closure that changes a
//! variable it captures shares it with the function that made it: a local of that call,
//! which nothing outside it sees (a shared value is never among a reused call's arguments or
//! its result, below). Rhai passes a script function copies of its
//! arguments and the walker's script constants never change, so such a function gives the same
//! value, or the same error, from equal arguments; it may change its arguments' copies, which
//! no caller sees.
//!
//! **Which calls**: those whose arguments and result are plain data the walker compares exactly
//! ([`same`]): `()`, booleans, integers, floats (by their bits), characters, strings, arrays,
//! blobs and maps of them, and the native types the host registered with
//! [`crate::walker::native_table::Natives::register_compared`]; each value's tag and each
//! argument's access mode (a constant's is read-only) compared too. Nothing shared (a variable
//! a closure captured), no function pointer. Only calls that gave a value are kept.
//!
//! **Bounded and adaptive** ([`Memo`]): each function keeps at most [`ENTRIES`] results
//! (replaced in turn), a value over [`VALUE_BYTES`] is not kept, and all the functions together
//! keep at most [`TOTAL_BYTES`]; the table is allocated while a script call runs, so the
//! call's memory budget counts it as it counts the call's own values. A function is first on
//! probation for [`WINDOW`] look-ups: only its arguments' hashes are kept, to count how often
//! a call repeats one of the last [`ENTRIES`]. It is then looked up only where its repeats
//! would have saved more operations than its look-ups cost (see [`Table::pays`]: a look-up
//! hashes, copies and keeps values, about [`LOOKUP_COST`] operations and one per
//! [`BYTES_PER_OPERATION`] bytes of its arguments), and checked again every [`WINDOW`]
//! look-ups; a function whose calls rarely repeat, or are too cheap to be worth comparing
//! arguments, stops being looked up for good (on probation already after its first 4 calls,
//! if they were cheaper than a look-up, or its first [`WINDOW`]` / 4` look-ups, if none
//! repeated).
//!
//! How a reuse counts (see `Runner::counted_again` in `run/memoised.rs`), and what differs from
//! Rhai, is in the walker's module doc.

use std::{
    cell::{Cell, RefCell},
    hash::{BuildHasher, Hash, Hasher},
};

use foldhash::HashMap;
use rhai::{ASTNode, Dynamic, Expr as RhaiExpr, FnPtr, ImmutableString, Stmt as RhaiStmt};

use super::native_table::NativeTable;

/// Results one function keeps.
pub const ENTRIES: usize = 32;
/// Bytes (about) one kept call's arguments and result may hold.
pub const VALUE_BYTES: usize = 64 << 10;
/// Bytes (about) every function's kept calls may hold together.
pub const TOTAL_BYTES: usize = 1 << 20;
/// Look-ups between two looks at whether a function's reuse pays (the first ones on
/// probation).
pub const WINDOW: u32 = 32;
/// What a look-up costs, in operations, besides its arguments' bytes: a look-up that misses
/// hashes and copies the arguments and keeps the result (callgrind: some thousand instructions
/// for a small state, as many as a dozen operations).
pub const LOOKUP_COST: u64 = 16;
/// Bytes of arguments a look-up hashes and copies for the cost of one operation.
pub const BYTES_PER_OPERATION: u64 = 64;

/// The names Rhai treats as calls through pointers or the caller's scope, and its native
/// functions that act outside their arguments or read the clock.
const IMPURE: [&str; 11] = [
    "print",
    "debug",
    "eval",
    "Fn",
    "call",
    "is_def_var",
    "is_def_fn",
    "is_shared",
    "timestamp",
    "elapsed",
    "sleep",
];

/// Which of the functions `defs` (each its name and body, in the program's order) are pure:
/// `eligible` says which may be (lowered, reading no constant that may change); a function is pure when it is eligible, its own nodes are (see the
/// module doc) and every script function it names is pure.
pub(super) fn pure_functions(
    defs: &[(ImmutableString, &[RhaiStmt])],
    eligible: &[bool],
    natives: &NativeTable,
) -> Vec<bool> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::default();
    for (i, (name, _)) in defs.iter().enumerate() {
        by_name.entry(name.as_str()).or_default().push(i);
    }
    let named: Vec<Option<Vec<usize>>> = defs
        .iter()
        .zip(eligible)
        .map(|((_, body), &eligible)| {
            let names = if eligible {
                names_if_pure(body, natives, &by_name)
            } else {
                None
            }?;
            let mut called: Vec<usize> = names
                .iter()
                .filter_map(|n| by_name.get(n.as_str()))
                .flatten()
                .copied()
                .collect();
            called.sort_unstable();
            called.dedup();
            Some(called)
        })
        .collect();
    let mut pure: Vec<bool> = named.iter().map(Option::is_some).collect();
    loop {
        let mut changed = false;
        for (i, called) in named.iter().enumerate() {
            if pure[i] && called.iter().flatten().any(|&j| !pure[j]) {
                pure[i] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

/// The names of script functions (those of `defined`) `body` calls or uses as values, unless
/// one of its own nodes makes it impure.
fn names_if_pure(
    body: &[RhaiStmt],
    natives: &NativeTable,
    defined: &HashMap<&str, Vec<usize>>,
) -> Option<Vec<ImmutableString>> {
    let mut names = Vec::new();
    let mut named = |name: &ImmutableString| {
        if defined.contains_key(name.as_str()) {
            names.push(name.clone());
        }
    };
    let impure = super::syntax::any_node(body, |node| match node {
        ASTNode::Stmt(RhaiStmt::FnCall(call, _))
        | ASTNode::Expr(RhaiExpr::FnCall(call, _) | RhaiExpr::MethodCall(call, _)) => {
            let impure = call.is_qualified()
                || call.capture_parent_scope
                || IMPURE.contains(&call.name.as_str())
                || natives.is_effectful(&call.name);
            named(&call.name);
            impure
        }
        // A function's name used as a value is a variable the parser did not find among the
        // locals.
        ASTNode::Expr(RhaiExpr::Variable(v, short, ..)) => {
            if v.0.is_none() && short.is_none() {
                named(&v.1);
            }
            false
        }
        ASTNode::Expr(RhaiExpr::DynamicConstant(value, _)) => match value.read_lock::<FnPtr>() {
            Some(ptr) => {
                named(&ptr.fn_name().into());
                ptr.is_curried()
            }
            None => false,
        },
        _ => false,
    });
    (!impure).then_some(names)
}

#[cfg(test)]
thread_local! {
    /// For tests on this thread: every pure function's calls are kept from the first, and
    /// it stays looked up.
    pub(super) static EAGER: Cell<bool> = const { Cell::new(false) };
}

/// Whether every pure function's calls are kept from the first (tests only).
fn eager() -> bool {
    #[cfg(test)]
    return EAGER.get();
    #[cfg(not(test))]
    false
}

/// The results kept for a program's pure functions.
#[derive(Default)]
pub(super) struct Memo {
    /// Each function's table, by its index in the program (`None` until first looked up).
    tables: RefCell<Vec<Option<Table>>>,
    /// Bytes (about) every table keeps.
    bytes: Cell<usize>,
}

/// The calls kept for one function, and how its look-ups went.
#[derive(Default)]
struct Table {
    entries: Vec<Entry>,
    /// While on probation (the first [`WINDOW`] look-ups): the hashes of the last calls'
    /// arguments, replaced in turn as `entries` are.
    probed: Vec<u64>,
    /// The entry (or hash) replaced next once the table is full.
    next: usize,
    lookups: u32,
    /// Look-ups that found a call kept (on probation: a hash among `probed`).
    hits: u32,
    /// Bytes of the arguments looked up.
    bytes: u64,
    /// Calls made (a look-up that missed), and the operations they took.
    made: u64,
    made_operations: u64,
    /// The function is past its probation: its calls are kept.
    kept: bool,
    /// The function is no longer looked up.
    off: bool,
}

/// One call kept.
struct Entry {
    hash: u64,
    args: Vec<Dynamic>,
    result: Dynamic,
    operations: u64,
    charged: u64,
    /// The call level it was made at: it is reused at that level or one nearer the host (its
    /// nested calls stayed within the depth limit there).
    level: usize,
    bytes: usize,
}

/// What a look-up found.
pub(super) enum Lookup {
    /// The function is no longer looked up.
    Off,
    /// The arguments are not plain data: the call is made.
    Run,
    /// The function is on probation: the call is to be made, and its operations told
    /// ([`Memo::made`]).
    Probe,
    /// A call with equal arguments, made before.
    Hit(Reuse),
    /// None: the call is to be made, and kept under `Key`.
    Miss(Key),
}

/// A kept call's result (a copy) and what its call counted.
pub(super) struct Reuse {
    pub result: Dynamic,
    /// Operations the call counted.
    pub operations: u64,
    /// Work the host's primitives charged in it (see [`crate::walker::Charges`]).
    pub charged: u64,
}

/// The arguments of a call that missed, copied before it runs.
pub(super) struct Key {
    hash: u64,
    args: Vec<Dynamic>,
    bytes: usize,
}

impl Memo {
    /// A memo for a program of `functions` functions.
    pub(super) fn new(functions: usize) -> Self {
        Memo {
            tables: RefCell::new((0..functions).map(|_| None).collect()),
            bytes: Cell::new(0),
        }
    }

    /// Looks up the call of function `function` with `args`, at call level `level`.
    pub(super) fn look_up(
        &self,
        function: usize,
        args: &[Dynamic],
        natives: &NativeTable,
        level: usize,
    ) -> Lookup {
        let mut tables = self.tables.borrow_mut();
        let Some(slot) = tables.get_mut(function) else {
            return Lookup::Off;
        };
        let table = slot.get_or_insert_with(Table::default);
        if table.off {
            return Lookup::Off;
        }
        if eager() {
            table.kept = true;
        } else if table.hopeless() {
            table.off = true;
            return Lookup::Off;
        } else if table.lookups.is_multiple_of(WINDOW) && table.lookups > 0 {
            if table.pays() {
                table.kept = true;
                table.probed = Vec::new();
            } else {
                table.off = true;
                let freed: usize = table.entries.drain(..).map(|e| e.bytes).sum();
                self.bytes.set(self.bytes.get() - freed);
                return Lookup::Off;
            }
        }
        table.lookups += 1;
        let mut hasher = foldhash::fast::FixedState::default().build_hasher();
        let mut bytes = 0;
        for arg in args {
            arg.is_read_only().hash(&mut hasher);
            if !digest(arg, natives, &mut hasher, &mut bytes) {
                return Lookup::Run;
            }
        }
        table.bytes += bytes as u64;
        let hash = hasher.finish();
        if !table.kept {
            // On probation: a repeat is counted, and the call made.
            if table.probed.contains(&hash) {
                table.hits += 1;
            } else if table.probed.len() < ENTRIES {
                table.probed.push(hash);
            } else {
                table.probed[table.next] = hash;
                table.next = (table.next + 1) % ENTRIES;
            }
            return Lookup::Probe;
        }
        let found = table.entries.iter().find(|e| {
            e.hash == hash
                && level <= e.level
                && e.args.len() == args.len()
                && e.args
                    .iter()
                    .zip(args)
                    .all(|(a, b)| a.is_read_only() == b.is_read_only() && same(a, b, natives))
        });
        match found {
            Some(entry) => {
                table.hits += 1;
                Lookup::Hit(Reuse {
                    result: entry.result.clone(),
                    operations: entry.operations,
                    charged: entry.charged,
                })
            }
            None => Lookup::Miss(Key {
                hash,
                args: args.to_vec(),
                bytes,
            }),
        }
    }

    /// Tells that a call of function `function` on probation counted `operations`.
    pub(super) fn made(&self, function: usize, operations: u64) {
        if let Some(Some(table)) = self.tables.borrow_mut().get_mut(function) {
            table.made += 1;
            table.made_operations += operations;
        }
    }

    /// Keeps the call `key` of function `function`, made at level `level`, which gave `result`
    /// counting `operations` and charging `charged`: unless the result is not plain data or
    /// too large.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn keep(
        &self,
        function: usize,
        key: Key,
        result: &Dynamic,
        operations: u64,
        charged: u64,
        level: usize,
        natives: &NativeTable,
    ) {
        let mut tables = self.tables.borrow_mut();
        let Some(Some(table)) = tables.get_mut(function) else {
            return;
        };
        table.made += 1;
        table.made_operations += operations;
        let mut bytes = key.bytes;
        if table.off || !weigh(result, natives, &mut bytes) {
            return;
        }
        let entry = Entry {
            hash: key.hash,
            args: key.args,
            result: result.clone(),
            operations,
            charged,
            level,
            bytes,
        };
        let replaced = if table.entries.len() < ENTRIES {
            None
        } else {
            Some(table.next)
        };
        let freed = replaced.map_or(0, |i| table.entries[i].bytes);
        let total = self.bytes.get() - freed + bytes;
        if total > TOTAL_BYTES {
            return;
        }
        self.bytes.set(total);
        match replaced {
            Some(i) => {
                table.entries[i] = entry;
                table.next = (i + 1) % ENTRIES;
            }
            None => table.entries.push(entry),
        }
    }

    /// How function `function`'s look-ups went: look-ups, hits, whether it is still looked up.
    #[cfg(test)]
    pub(super) fn counts(&self, function: usize) -> Option<(u32, u32, bool)> {
        let tables = self.tables.borrow();
        let table = tables.get(function)?.as_ref()?;
        Some((table.lookups, table.hits, !table.off))
    }

    /// The calls kept for every function, and the bytes they hold.
    #[cfg(test)]
    pub(super) fn kept(&self) -> (usize, usize) {
        let tables = self.tables.borrow();
        let entries = tables.iter().flatten().map(|t| t.entries.len()).sum();
        (entries, self.bytes.get())
    }
}

impl Table {
    /// Whether the function's probation may end early: its first calls were too cheap for a
    /// look-up to pay even were every call to repeat, or the first quarter of its probation
    /// found no repeat.
    fn hopeless(&self) -> bool {
        let probed = u64::from(self.lookups);
        !self.kept
            && ((probed == 4 && self.made_operations <= probed * LOOKUP_COST)
                || (self.lookups == WINDOW / 4 && self.hits == 0))
    }

    /// Whether the hits so far saved more operations than the look-ups cost (see
    /// [`LOOKUP_COST`]).
    fn pays(&self) -> bool {
        let per_call = self.made_operations / self.made.max(1);
        let cost = u64::from(self.lookups) * LOOKUP_COST + self.bytes / BYTES_PER_OPERATION;
        u64::from(self.hits) * per_call > cost
    }
}

/// Feeds `value` to `hasher` and adds about the bytes it holds to `bytes`: false if it is not
/// plain data (see the module doc) or holds more than [`VALUE_BYTES`]. (Each kind is asked
/// with `is_…` first: Rhai's `as_…` names the type in its error, which costs more.)
fn digest(
    value: &Dynamic,
    natives: &NativeTable,
    hasher: &mut impl Hasher,
    bytes: &mut usize,
) -> bool {
    *bytes += std::mem::size_of::<Dynamic>();
    if value.is_shared() || *bytes > VALUE_BYTES {
        return false;
    }
    value.tag().hash(hasher);
    if value.is_int() {
        value.as_int().ok().hash(hasher);
    } else if value.is_array() {
        let Ok(items) = value.as_array_ref() else {
            return false;
        };
        items.len().hash(hasher);
        return items
            .iter()
            .all(|item| digest(item, natives, hasher, bytes));
    } else if value.is_map() {
        let Ok(map) = value.as_map_ref() else {
            return false;
        };
        map.len().hash(hasher);
        return map.iter().all(|(k, v)| {
            *bytes += k.len();
            k.as_str().hash(hasher);
            digest(v, natives, hasher, bytes)
        });
    } else if value.is_string() {
        let Ok(s) = value.as_immutable_string_ref() else {
            return false;
        };
        *bytes += s.len();
        s.as_str().hash(hasher);
    } else if value.is_bool() {
        value.as_bool().ok().hash(hasher);
    } else if value.is_unit() {
        0u8.hash(hasher);
    } else if value.is_float() {
        value.as_float().ok().map(f64::to_bits).hash(hasher);
    } else if value.is_char() {
        value.as_char().ok().hash(hasher);
    } else if value.is_blob() {
        let Ok(blob) = value.as_blob_ref() else {
            return false;
        };
        *bytes += blob.len();
        blob.hash(hasher);
    } else {
        let Some(compared) = natives.compared(value.type_id()) else {
            return false;
        };
        value.type_id().hash(hasher);
        (compared.hash)(value).hash(hasher);
        *bytes += (compared.bytes)(value);
    }
    *bytes <= VALUE_BYTES
}

/// Adds about the bytes `value` holds to `bytes`: false if it is not plain data (see the
/// module doc) or holds more than [`VALUE_BYTES`]. ([`digest`] without the hash.)
fn weigh(value: &Dynamic, natives: &NativeTable, bytes: &mut usize) -> bool {
    *bytes += std::mem::size_of::<Dynamic>();
    if value.is_shared() || *bytes > VALUE_BYTES {
        return false;
    }
    if value.is_array() {
        return value
            .as_array_ref()
            .is_ok_and(|items| items.iter().all(|item| weigh(item, natives, bytes)));
    } else if value.is_map() {
        return value.as_map_ref().is_ok_and(|map| {
            map.iter().all(|(k, v)| {
                *bytes += k.len();
                weigh(v, natives, bytes)
            })
        });
    } else if value.is_string() {
        *bytes += value.as_immutable_string_ref().map_or(0, |s| s.len());
    } else if value.is_blob() {
        *bytes += value.as_blob_ref().map_or(0, |b| b.len());
    } else if !(value.is_int()
        || value.is_bool()
        || value.is_unit()
        || value.is_float()
        || value.is_char())
    {
        let Some(compared) = natives.compared(value.type_id()) else {
            return false;
        };
        *bytes += (compared.bytes)(value);
    }
    *bytes <= VALUE_BYTES
}

/// Whether `a` and `b`, plain data (see [`digest`]), are equal, tags included: floats by their
/// bits, native values by the equality registered for their type.
fn same(a: &Dynamic, b: &Dynamic, natives: &NativeTable) -> bool {
    if a.tag() != b.tag() || a.type_id() != b.type_id() {
        return false;
    }
    if a.is_int() {
        a.as_int().ok() == b.as_int().ok()
    } else if a.is_array() {
        match (a.as_array_ref(), b.as_array_ref()) {
            (Ok(x), Ok(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q, natives))
            }
            _ => false,
        }
    } else if a.is_map() {
        match (a.as_map_ref(), b.as_map_ref()) {
            (Ok(x), Ok(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|((k, p), (l, q))| k == l && same(p, q, natives))
            }
            _ => false,
        }
    } else if a.is_string() {
        match (a.as_immutable_string_ref(), b.as_immutable_string_ref()) {
            (Ok(x), Ok(y)) => x.as_str() == y.as_str(),
            _ => false,
        }
    } else if a.is_bool() {
        a.as_bool().ok() == b.as_bool().ok()
    } else if a.is_unit() {
        true
    } else if a.is_float() {
        a.as_float().ok().map(f64::to_bits) == b.as_float().ok().map(f64::to_bits)
    } else if a.is_char() {
        a.as_char().ok() == b.as_char().ok()
    } else if a.is_blob() {
        match (a.as_blob_ref(), b.as_blob_ref()) {
            (Ok(x), Ok(y)) => *x == *y,
            _ => false,
        }
    } else {
        natives
            .compared(a.type_id())
            .is_some_and(|compared| (compared.same)(a, b))
    }
}
