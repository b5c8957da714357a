//! Registering the runtime's native functions: in the engine, as Rhai finds them, and in a
//! table by name and parameter types, so that the compiled evaluator can call them without
//! Rhai's search for a function (a tenth of a move's cost and more in most games). A
//! primitive that returns a list of cells may also register its list form, which gives the
//! same list as a compact [`NativeList`] (see [`crate::walker::lists`]). A hot primitive may
//! also register its plain form ([`Typed`]), which the walker calls without Rhai's casting of
//! arguments, and a value made of two integers (a cell) may be kept as the two integers where
//! it goes straight into a function that takes it ([`Pair`], [`PairTaker`]).

use std::{
    any::TypeId,
    collections::{HashMap, HashSet},
    hash::{BuildHasher, Hash},
    rc::Rc,
};

use rhai::{
    Dynamic, Engine, EvalAltResult, ImmutableString, RhaiFunc, RhaiNativeFunc, Variant, INT,
};

use super::lists::NativeList;

/// A function's name and parameter types.
type Key = (String, Vec<TypeId>);

/// What a native function gives: its value, or Rhai's error.
pub type Called = Result<Dynamic, Box<EvalAltResult>>;

/// The plain form of a registered function: the same value or error from the same arguments
/// (of the types it was registered for), reading them where they are. `None` where it cannot
/// read them (Rhai's form is then called). It must not change an argument the function takes
/// by value, nor any but the first.
pub type Typed = Rc<dyn Fn(&mut [&mut Dynamic]) -> Option<Called>>;

/// The form of a registered function whose second parameter is a [`Pair`]'s value, taking the
/// pair's two integers in its place: `args` are the function's other arguments, in order. The
/// same value or error as the function given the value the pair makes; `None` where it cannot
/// read its arguments.
pub type PairTaker = Rc<dyn Fn(&mut [&mut Dynamic], INT, INT) -> Option<Called>>;

/// The form of a registered function of two parameters that only reads its first and gives an
/// integer, its second a [`Pair`]'s value (`grid.get(cell)`): a plain function of the first
/// argument and the pair's two integers. The same integer or error as the function given the
/// value the pair makes; `None` where the first argument is not of the function's type. It makes
/// no value and is called without Rhai's function pointers.
pub type PairReader = fn(&Dynamic, INT, INT) -> Option<Result<INT, Box<EvalAltResult>>>;

/// The two integers a [`Pair`] makes a value of its type from (`c` is `cell(c.x, c.y)`): a plain
/// function of the value, giving integers from which the pair's function makes a value equal to
/// it, so that a [`PairReader`] reads at them what its function reads at the value. `None`
/// where the value is not of the type. It changes nothing and cannot fail.
pub type PairSplit = fn(&Dynamic) -> Option<(INT, INT)>;

/// The form of a registered getter of a native type giving an integer (`c.x`): a plain
/// function of the value, reading the integer where it is. The same integer as the getter;
/// `None` where the value is not of the getter's type. It changes nothing, cannot fail, and is
/// called without Rhai's function pointers.
pub type FieldReader = fn(&Dynamic) -> Option<INT>;

/// A function of two integers that makes a value without fail and has no other effect (`cell(x,
/// y)`): where its call is passed straight to a [`PairTaker`], the walker keeps the two
/// integers rather than making the value.
#[derive(Clone)]
pub struct Pair {
    /// The type of the value made.
    pub made: TypeId,
    /// Makes the value (as the function's call would).
    pub make: Rc<dyn Fn(INT, INT) -> Dynamic>,
}

/// Whether two values of one native type are equal.
pub type Equality = Rc<dyn Fn(&Dynamic, &Dynamic) -> bool>;

/// How the walker compares values of a registered native type, for reusing a pure script
/// function's result (see `walker/memo.rs`): registered with
/// [`Natives::register_compared`].
#[derive(Clone)]
pub struct Compared {
    /// Whether two values of the type (both of it) are equal.
    pub same: Equality,
    /// A hash of a value of the type, equal for equal values.
    pub hash: Rc<dyn Fn(&Dynamic) -> u64>,
    /// About how many bytes a value of the type holds (for bounding what is kept).
    pub bytes: Rc<dyn Fn(&Dynamic) -> usize>,
}

/// The parameter types of a function, as a tuple (`(Grid, Cell)`), for registering its other
/// forms ([`Natives::register_typed`], [`Natives::register_pair_taker`]).
pub trait Params {
    /// The types, in order.
    fn types() -> Vec<TypeId>;
}

macro_rules! params {
    ($($t:ident),+) => {
        impl<$($t: 'static),+> Params for ($($t,)+) {
            fn types() -> Vec<TypeId> {
                vec![$(TypeId::of::<$t>()),+]
            }
        }
    };
}
params!(A);
params!(A, B);
params!(A, B, C);
params!(A, B, C, D);

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
    /// The plain forms of functions (see [`Typed`]).
    typed: HashMap<Key, Typed>,
    /// The functions of two integers whose value may be kept as the integers (see [`Pair`]).
    pairs: HashMap<Key, Pair>,
    /// The forms of functions taking a pair's integers for their second argument.
    pair_takers: HashMap<Key, PairTaker>,
    /// The forms of functions reading an integer at a pair's integers (see [`PairReader`]).
    pair_readers: HashMap<Key, PairReader>,
    /// The forms of getters reading an integer field (see [`FieldReader`]).
    field_readers: HashMap<Key, FieldReader>,
    /// The integers of the values pairs make, by the values' type (see [`PairSplit`]).
    pair_splits: HashMap<TypeId, PairSplit>,
    /// The native types whose values may be compared (see [`Compared`]): a few, looked up in
    /// turn.
    compared: Vec<(TypeId, Compared)>,
    /// The functions that act outside their arguments or read what they are not given (see
    /// [`Natives::mark_effectful`]): a few, looked up in turn.
    effectful: Vec<String>,
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

    /// Whether a function `name` (or its list form) was registered with a first parameter of
    /// type `first`, for any others: a call on such a value may reach the runtime's function.
    pub fn has_on(&self, name: &str, first: TypeId) -> bool {
        let on = |(n, types): &Key| n == name && types.first() == Some(&first);
        self.functions.keys().any(on) || self.lists.keys().any(on)
    }

    /// Whether a function `name` has a form taking a [`NativeList`].
    pub fn takes_lists(&self, name: &str) -> bool {
        self.list_takers.contains(name)
    }

    /// Whether a function `name` has a plain form for some types (see [`Typed`]): a call of
    /// another never takes the walker's in-place calls, which call the plain form.
    pub fn has_typed(&self, name: &str) -> bool {
        self.typed.keys().any(|(typed, _)| typed == name)
    }

    /// The plain form of the function `name` taking exactly `types` (see [`Typed`]).
    pub fn get_typed(&self, name: &str, types: &[TypeId]) -> Option<Typed> {
        self.typed.get(&(name.to_string(), types.to_vec())).cloned()
    }

    /// The function `name` taking exactly `types` as a [`Pair`], if it was registered as one.
    pub fn get_pair(&self, name: &str, types: &[TypeId]) -> Option<&Pair> {
        self.pairs.get(&(name.to_string(), types.to_vec()))
    }

    /// The form of the function `name` taking exactly `types` that takes a pair's integers for
    /// its second argument (see [`PairTaker`]).
    pub fn get_pair_taker(&self, name: &str, types: &[TypeId]) -> Option<PairTaker> {
        self.pair_takers
            .get(&(name.to_string(), types.to_vec()))
            .cloned()
    }

    /// The form of the function `name` taking exactly `types` that reads an integer at a
    /// pair's integers (see [`PairReader`]).
    pub fn get_pair_reader(&self, name: &str, types: &[TypeId]) -> Option<PairReader> {
        self.pair_readers
            .get(&(name.to_string(), types.to_vec()))
            .copied()
    }

    /// The integers of a pair's value of the native type `type_id` (see [`PairSplit`]), if
    /// the type has them.
    pub fn get_pair_split(&self, type_id: TypeId) -> Option<PairSplit> {
        self.pair_splits.get(&type_id).copied()
    }

    /// The form of the getter `name` (`get$x`) taking exactly `types` that reads an integer
    /// field (see [`FieldReader`]).
    pub fn get_field_reader(&self, name: &str, types: &[TypeId]) -> Option<FieldReader> {
        // Only getters have field readers: other names are not looked up (no key is built).
        if !name.starts_with("get$") {
            return None;
        }
        self.field_readers
            .get(&(name.to_string(), types.to_vec()))
            .copied()
    }

    /// How values of the native type `type_id` are compared, if it was registered so.
    pub fn compared(&self, type_id: TypeId) -> Option<&Compared> {
        self.compared
            .iter()
            .find(|(t, _)| *t == type_id)
            .map(|(_, compared)| compared)
    }

    /// Whether a function `name` was marked as acting outside its arguments or reading what
    /// it is not given ([`Natives::mark_effectful`]).
    pub fn is_effectful(&self, name: &str) -> bool {
        self.effectful.iter().any(|e| e == name)
    }

    /// Whether the function `name` taking exactly `types` was registered as only reading its
    /// first argument ([`Natives::register_reader`], or a getter).
    pub fn is_reader(&self, name: &str, types: &[TypeId]) -> bool {
        self.readers.contains(&(name.to_string(), types.to_vec()))
    }

    /// Whether a call of `name` with `params` arguments never changes its first argument,
    /// whatever their types: the runtime registered at least one function `name` taking
    /// `params`, each only reading its first argument ([`Self::is_reader`]). (Rhai's own
    /// functions of that name and count, which a call may reach too, only read it: a test of
    /// `script::api` checks them.)
    pub fn only_reads(&self, name: &str, params: usize) -> bool {
        let mut found = false;
        for key in self.functions.keys() {
            if key.0 == name && key.1.len() == params {
                if !self.readers.contains(key) {
                    return false;
                }
                found = true;
            }
        }
        found
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

    /// Registers `typed`, the plain form of the function `name` taking `P` (registered before
    /// with [`Self::register_fn`] or its kin): see [`Typed`].
    ///
    /// # Panics
    /// If no function `name` takes `P`.
    pub fn register_typed<P: Params>(
        &mut self,
        name: &str,
        typed: impl Fn(&mut [&mut Dynamic]) -> Option<Called> + 'static,
    ) -> &mut Self {
        let key = self.registered::<P>(name);
        self.table.typed.insert(key, Rc::new(typed));
        self
    }

    /// `Engine::register_fn` for `make`, a function of two integers that makes a value without
    /// fail, which the walker may keep as the two integers (see [`Pair`]).
    pub fn register_pair<T: Variant + Clone>(
        &mut self,
        name: &str,
        make: fn(INT, INT) -> T,
    ) -> &mut Self {
        self.register_fn(name, make);
        self.register_typed::<(INT, INT)>(name, move |args| {
            let (a, b) = (args[0].as_int().ok()?, args[1].as_int().ok()?);
            Some(Ok(Dynamic::from(make(a, b))))
        });
        let pair = Pair {
            made: TypeId::of::<T>(),
            make: Rc::new(move |a, b| Dynamic::from(make(a, b))),
        };
        self.table
            .pairs
            .insert((name.to_string(), <(INT, INT)>::types()), pair);
        self
    }

    /// Registers `taker`, the form of the function `name` taking `P` (registered before, its
    /// second parameter the type a [`Pair`] makes) that takes the pair's integers instead.
    ///
    /// # Panics
    /// If no function `name` takes `P`.
    pub fn register_pair_taker<P: Params>(
        &mut self,
        name: &str,
        taker: impl Fn(&mut [&mut Dynamic], INT, INT) -> Option<Called> + 'static,
    ) -> &mut Self {
        let key = self.registered::<P>(name);
        self.table.pair_takers.insert(key, Rc::new(taker));
        self
    }

    /// Registers `reader`, the form of the function `name` taking `P` (registered before, its
    /// second parameter the type a [`Pair`] makes, and only reading its first) that reads the
    /// integer it gives at the pair's integers (see [`PairReader`]).
    ///
    /// # Panics
    /// If no function `name` takes `P`.
    pub fn register_pair_reader<P: Params>(&mut self, name: &str, reader: PairReader) -> &mut Self {
        let key = self.registered::<P>(name);
        self.table.pair_readers.insert(key, reader);
        self
    }

    /// Registers `split`, the integers of a value of the native type `T` that a [`Pair`]
    /// registered before makes (see [`PairSplit`]).
    ///
    /// # Panics
    /// If no pair makes values of `T`.
    pub fn register_pair_split<T: Variant>(&mut self, split: PairSplit) -> &mut Self {
        let made = TypeId::of::<T>();
        assert!(
            self.table.pairs.values().any(|pair| pair.made == made),
            "no pair makes {}",
            std::any::type_name::<T>()
        );
        self.table.pair_splits.insert(made, split);
        self
    }

    /// Registers `reader`, the form of the getter `name` (`get$x`, registered before for the
    /// native type `P`, giving an integer without fail) that reads the integer from the value
    /// where it is (see [`FieldReader`]).
    ///
    /// # Panics
    /// If `name` is not a getter's (`get$…`) or no getter `name` takes `P`.
    pub fn register_field_reader<P: Params>(
        &mut self,
        name: &str,
        reader: FieldReader,
    ) -> &mut Self {
        assert!(name.starts_with("get$"), "{name} is not a getter");
        let key = self.registered::<P>(name);
        self.table.field_readers.insert(key, reader);
        self
    }

    /// The key of the function `name` taking `P`, which must be registered.
    fn registered<P: Params>(&self, name: &str) -> Key {
        let key = (name.to_string(), P::types());
        assert!(
            self.table.functions.contains_key(&key),
            "{name}: register the function before its other forms"
        );
        key
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

    /// Registers how values of `T` are compared (its `Eq` and `Hash`), and about how many bytes
    /// one holds (`bytes`): arguments and results holding them may then be compared for
    /// reusing a pure script function's result (see `walker/memo.rs`).
    pub fn register_compared<T: Variant + Clone + Eq + Hash>(
        &mut self,
        bytes: fn(&T) -> usize,
    ) -> &mut Self {
        let compared = Compared {
            same: Rc::new(|a, b| match (a.read_lock::<T>(), b.read_lock::<T>()) {
                (Some(a), Some(b)) => *a == *b,
                _ => false,
            }),
            hash: Rc::new(|v| {
                v.read_lock::<T>()
                    .map_or(0, |v| foldhash::fast::FixedState::default().hash_one(&*v))
            }),
            bytes: Rc::new(move |v| {
                std::mem::size_of::<T>() + v.read_lock::<T>().map_or(0, |v| bytes(&v))
            }),
        };
        self.table.compared.retain(|(t, _)| *t != TypeId::of::<T>());
        self.table.compared.push((TypeId::of::<T>(), compared));
        self
    }

    /// Marks the functions `name` (registered with any parameters) as acting outside their
    /// arguments (recording something, say) or giving what their arguments do not decide (a
    /// setting of the host's): a script function calling one never has its result reused.
    pub fn mark_effectful(&mut self, name: &str) -> &mut Self {
        if !self.table.is_effectful(name) {
            self.table.effectful.push(name.to_string());
        }
        self
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
