//! Registering the runtime's native functions: in the engine, as Rhai finds them, and in a
//! table by name and parameter types, so that the compiled evaluator can call them without
//! Rhai's search for a function (a tenth of a move's cost and more in most games). A
//! primitive that returns a list of cells may also register its list form, which gives the
//! same list as a compact [`NativeList`] (see [`crate::walker::lists`]).

use std::{
    any::TypeId,
    collections::{HashMap, HashSet},
};

use rhai::{Engine, ImmutableString, RhaiFunc, RhaiNativeFunc, Variant};

use super::lists::NativeList;

/// A function's name and parameter types.
type Key = (String, Vec<TypeId>);

/// The native functions registered through [`Natives`], by name and parameter types.
#[derive(Default, Clone)]
pub struct NativeTable {
    functions: HashMap<Key, RhaiFunc>,
    /// The list forms of functions that return lists of cells.
    lists: HashMap<Key, RhaiFunc>,
    /// The functions that only read their first argument.
    readers: HashSet<Key>,
    /// The names of functions with a form taking a [`NativeList`] (an argument that is a
    /// primitive's list is then made compact: see [`Natives::register_list_taker`]).
    list_takers: HashSet<String>,
}

impl NativeTable {
    /// The function `name` taking exactly `types`, if one was registered.
    pub fn get(&self, name: &str, types: &[TypeId]) -> Option<&RhaiFunc> {
        self.functions.get(&(name.to_string(), types.to_vec()))
    }

    /// The list form of the function `name` taking exactly `types`: it gives a [`NativeList`]
    /// of what the function's array holds.
    pub fn get_list(&self, name: &str, types: &[TypeId]) -> Option<&RhaiFunc> {
        self.lists.get(&(name.to_string(), types.to_vec()))
    }

    /// Whether a function `name` has a form taking a [`NativeList`].
    pub fn takes_lists(&self, name: &str) -> bool {
        self.list_takers.contains(name)
    }

    /// Whether the function `name` taking exactly `types` was registered as only reading its
    /// first argument ([`Natives::register_reader`], or a getter).
    pub fn is_reader(&self, name: &str, types: &[TypeId]) -> bool {
        self.readers.contains(&(name.to_string(), types.to_vec()))
    }
}

/// Registers functions in an engine the way `Engine::register_fn` does, keeping a
/// [`NativeTable`] of them.
pub struct Natives<'e> {
    engine: &'e mut Engine,
    table: NativeTable,
}

impl<'e> Natives<'e> {
    /// Registers into `engine`.
    pub fn new(engine: &'e mut Engine) -> Self {
        Natives {
            engine,
            table: NativeTable::default(),
        }
    }

    /// The table of what was registered.
    pub fn into_table(self) -> NativeTable {
        self.table
    }

    /// `Engine::register_fn`.
    pub fn register_fn<A: 'static, const N: usize, const X: bool, R, const F: bool, Func>(
        &mut self,
        name: &str,
        func: Func,
    ) -> &mut Self
    where
        R: Variant + Clone,
        Func: RhaiNativeFunc<A, N, X, R, F> + Clone + 'static,
    {
        let types = param_types::<A, N, X, R, F, Func>();
        // The purity `Engine::register_fn` gives: a setter or an index setter changes its
        // first argument, every other function is pure.
        let setter = (N == 2 && name.starts_with("set$")) || (N == 3 && name == "index$set$");
        let native = func.clone().into_rhai_function(!setter, false);
        self.table
            .functions
            .insert((name.to_string(), types.to_vec()), native);
        self.engine.register_fn(name, func);
        self
    }

    /// Registers `list`, the list form of the function `name` (registered with
    /// [`Self::register_fn`] with the same parameters): the same items as its array, as a
    /// [`NativeList`]. Scripts never see it: the walker calls it where a host call's result is
    /// the function's list.
    pub fn register_list_fn<A: 'static, const N: usize, const X: bool, const F: bool, Func>(
        &mut self,
        name: &str,
        list: Func,
    ) -> &mut Self
    where
        Func: RhaiNativeFunc<A, N, X, NativeList, F> + Clone + 'static,
    {
        let types = param_types::<A, N, X, NativeList, F, Func>();
        debug_assert!(
            self.table
                .functions
                .contains_key(&(name.to_string(), types.to_vec())),
            "{name}: register the function before its list form"
        );
        self.table.lists.insert(
            (name.to_string(), types.to_vec()),
            list.into_rhai_function(true, false),
        );
        self
    }

    /// Registers `taker`, a form of the function `name` (registered with [`Self::register_fn`]
    /// with an array in place of the [`NativeList`]) that takes a primitive's list as it is. A
    /// primitive's call passed straight to `name` (`r.pick(g.cells_with(0))`) then gives its
    /// list form, and `taker` gets the compact list rather than an array of every item. Scripts
    /// never see it; where the call turns out to reach another function, the list is made an
    /// array first.
    pub fn register_list_taker<A: 'static, const N: usize, const X: bool, R, const F: bool, Func>(
        &mut self,
        name: &str,
        taker: Func,
    ) -> &mut Self
    where
        R: Variant + Clone,
        Func: RhaiNativeFunc<A, N, X, R, F> + Clone + 'static,
    {
        let types = param_types::<A, N, X, R, F, Func>();
        debug_assert!(
            types.contains(&TypeId::of::<NativeList>()),
            "{name}: a list taker takes a NativeList"
        );
        self.table.functions.insert(
            (name.to_string(), types.to_vec()),
            taker.into_rhai_function(true, false),
        );
        self.table.list_takers.insert(name.to_string());
        self
    }

    /// [`Self::register_fn`] for a function that never changes its first argument (a method
    /// that only reads its value). The walker then runs it on a state the host lent rather
    /// than on a copy. Its first parameter is `&mut` only because Rhai passes methods their
    /// value so; a function registered here must only read it.
    pub fn register_reader<A: 'static, const N: usize, const X: bool, R, const F: bool, Func>(
        &mut self,
        name: &str,
        func: Func,
    ) -> &mut Self
    where
        R: Variant + Clone,
        Func: RhaiNativeFunc<A, N, X, R, F> + Clone + 'static,
    {
        let types = param_types::<A, N, X, R, F, Func>();
        self.table
            .readers
            .insert((name.to_string(), types.to_vec()));
        self.register_fn(name, func)
    }

    /// `Engine::register_get`: the getter of property `name`, which only reads its value
    /// (see [`Self::register_reader`]).
    pub fn register_get<A: 'static, const X: bool, R, const F: bool, Func>(
        &mut self,
        name: &str,
        get: Func,
    ) -> &mut Self
    where
        R: Variant + Clone,
        Func: RhaiNativeFunc<A, 1, X, R, F> + Clone + 'static,
    {
        self.register_reader(&format!("get${name}"), get)
    }

    /// `Engine::register_type_with_name`.
    pub fn register_type_with_name<T: Variant + Clone>(&mut self, name: &str) -> &mut Self {
        self.engine.register_type_with_name::<T>(name);
        self
    }
}

/// The parameter types of `Func` as Rhai matches them: it passes `&str` and `String`
/// parameters from its own strings.
fn param_types<A: 'static, const N: usize, const X: bool, R, const F: bool, Func>() -> [TypeId; N]
where
    R: Variant + Clone,
    Func: RhaiNativeFunc<A, N, X, R, F>,
{
    Func::param_types().map(|t| {
        if t == TypeId::of::<&str>() || t == TypeId::of::<String>() {
            TypeId::of::<ImmutableString>()
        } else {
            t
        }
    })
}
