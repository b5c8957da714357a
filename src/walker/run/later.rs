//! The variables (and properties of variables' maps) a script function call reads once its
//! arguments are evaluated, and lends to the callee rather than copying them (see
//! `Runner::call_script`).

use rhai::{Dynamic, Map};

use super::{chain::property_mut, plain, Frame};
use crate::walker::{Expr, Step};

/// How many variables one call lends at most (the others are copied).
const MOST: usize = 4;

/// The variables a call reads after evaluating its arguments, [`lendable`] when it evaluated
/// them, and the variables' properties it took out of their maps as it evaluated them
/// (`state.board`): the parameter each is passed as, its index in the caller's frame, whether
/// it is a property (the call's argument names it), and whether it was lent (a variable passed twice is lent once; a
/// property is lent as it is noted).
#[derive(Default)]
pub(super) struct Later {
    params: [u8; MOST],
    at: [u32; MOST],
    len: u8,
    /// Bit `k` for the `k`th value noted, lent.
    lent: u8,
    /// Bit `k` for the `k`th value noted, a property (the call's argument names it).
    props: u8,
}

impl Later {
    /// Notes that parameter `param` is the caller's variable at index `at`, read later; false,
    /// with nothing noted, where there is no room (the variable is to be read now).
    #[inline(always)]
    pub(super) fn add(&mut self, param: usize, at: usize) -> bool {
        let k = usize::from(self.len);
        match (u8::try_from(param), u32::try_from(at)) {
            (Ok(p), Ok(a)) if k < MOST && p < 64 => {
                self.params[k] = p;
                self.at[k] = a;
                self.len += 1;
                true
            }
            _ => false,
        }
    }

    /// Whether a property may be noted as lent to parameter `param` of the variable at `at`
    /// (see [`Self::add_lent`]).
    #[inline(always)]
    pub(super) fn has_room(&self, param: usize, at: usize) -> bool {
        usize::from(self.len) < MOST && param < 64 && u32::try_from(at).is_ok()
    }

    /// Notes that parameter `param` is a property of the caller's variable at index `at`,
    /// taken out of it and lent (where [`Self::has_room`]).
    #[inline(always)]
    pub(super) fn add_lent(&mut self, param: usize, at: usize) {
        let k = usize::from(self.len);
        if self.add(param, at) {
            self.props |= 1 << k;
            self.lent |= 1 << k;
        }
    }

    /// Whether no variable was noted.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Moves the variables noted out of `frame` into their parameters in `values`, lent; a
    /// variable lent already to another parameter is copied from there (a property lent is
    /// there already). The parameters lent (bit `i` for parameter `i`).
    #[inline]
    pub(super) fn lend(&mut self, frame: &mut Frame, values: &mut [Dynamic]) -> u64 {
        let mut lent = 0;
        for k in 0..usize::from(self.len) {
            let (param, at) = (usize::from(self.params[k]), self.at[k]);
            if self.props & (1 << k) != 0 {
                lent |= 1 << param;
                continue;
            }
            let lent_as = (0..k).find(|&j| {
                self.lent & (1 << j) != 0 && self.at[j] == at && self.props & (1 << j) == 0
            });
            let value = match lent_as {
                Some(j) => plain::copy(&values[usize::from(self.params[j])]),
                None => {
                    self.lent |= 1 << k;
                    lent |= 1 << param;
                    std::mem::take(&mut frame.values[at as usize])
                }
            };
            plain::put(&mut values[param], value);
        }
        lent
    }

    /// The values lent: (parameter, index in the caller's frame, whether a property).
    pub(super) fn lent(&self) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        (0..usize::from(self.len))
            .filter(|&k| self.lent & (1 << k) != 0)
            .map(|k| {
                let prop = self.props & (1 << k) != 0;
                (usize::from(self.params[k]), self.at[k] as usize, prop)
            })
    }
}

/// Puts `value`, lent by the caller's `variable` (where `prop`, the property `arg` reads:
/// see [`property_of`]), back.
#[inline(always)]
pub(super) fn put_back(variable: &mut Dynamic, prop: bool, arg: &Expr, value: Dynamic) {
    match property_of(arg).filter(|_| prop) {
        None => plain::put(variable, value),
        Some(name) => {
            if let Some(mut map) = variable.write_lock::<Map>() {
                if let Some(place) = property_mut(&mut map, name) {
                    plain::put(place, value);
                }
            }
        }
    }
}

/// The property `arg` reads, `state.board`, if it is one.
#[inline(always)]
pub(super) fn property_of(arg: &Expr) -> Option<&str> {
    match arg {
        Expr::Chain(chain) => match chain.steps.as_slice() {
            [Step::Prop { name, .. }] => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `value` is worth lending, and may be: an array (whose copy copies every item),
/// not shared (a copy is the same shared value) and not a constant's. Other values are not
/// lent: the copy of a native value or a string costs little more than the look the callee
/// takes at every method called on a lent value, whether it may change it (see
/// `Runner::chain`; measured: a grid lent to a flood fill called through chains costs more
/// than its copies); a map (a game's state, most often) is read that way often.
#[inline(always)]
pub(super) fn lendable(value: &Dynamic) -> bool {
    value.is_array() && !value.is_shared() && !value.is_read_only()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::Array;

    fn array() -> Dynamic {
        Dynamic::from_array(Array::from([Dynamic::from_int(1)]))
    }

    #[test]
    fn a_variable_passed_twice_is_lent_once_and_copied_once() {
        let mut frame = Frame::new(vec![array(), Dynamic::from_int(3)], false, 0);
        let mut values = vec![Dynamic::UNIT, Dynamic::UNIT, Dynamic::UNIT];
        let mut later = Later::default();
        assert!(later.is_empty());
        assert!(later.add(2, 0));
        assert!(later.add(0, 0));
        assert_eq!(later.lend(&mut frame, &mut values), 1 << 2);
        assert!(frame.values[0].is_unit());
        assert_eq!(values[2].clone().into_array().unwrap().len(), 1);
        assert_eq!(values[0].clone().into_array().unwrap().len(), 1);
        assert_eq!(later.lent().collect::<Vec<_>>(), [(2, 0, false)]);
    }

    #[test]
    fn at_most_four_variables_and_sixty_four_parameters_are_noted() {
        let mut later = Later::default();
        assert!(!later.add(64, 0));
        for k in 0..MOST {
            assert!(later.add(k, k));
        }
        assert!(!later.add(5, 5));
    }

    #[test]
    fn only_arrays_of_variables_are_lent() {
        let array = Dynamic::from_array(Array::new());
        assert!(lendable(&array));
        assert!(!lendable(&array.clone().into_read_only()));
        assert!(!lendable(&array.into_shared()));
        assert!(!lendable(&Dynamic::from(std::time::Duration::ZERO)));
        assert!(!lendable(&Dynamic::from_int(1)));
        assert!(!lendable(&Dynamic::from_map(rhai::Map::new())));
    }

    #[test]
    fn a_property_is_lent_as_noted_and_put_back() {
        let mut map = rhai::Map::new();
        map.insert("a".into(), Dynamic::from_int(1));
        map.insert("b".into(), Dynamic::from_int(2));
        let mut frame = Frame::new(vec![Dynamic::from_map(map), array()], false, 0);
        let mut values = vec![Dynamic::from_int(5), Dynamic::UNIT];
        let mut later = Later::default();
        assert!(later.has_room(0, 0));
        later.add_lent(0, 0);
        assert!(later.add(1, 1));
        assert_eq!(later.lend(&mut frame, &mut values), 0b11);
        assert_eq!(values[0].as_int(), Ok(5));
        assert!(frame.values[1].is_unit());
        let lent: Vec<_> = later.lent().collect();
        assert_eq!(lent, [(0, 0, true), (1, 1, false)]);
        let engine = rhai::Engine::new();
        let ast = engine.compile("fn f(s, a) { f(s.b, a) }").unwrap();
        let program = crate::walker::Program::new(&ast, &rhai::Scope::new(), &Default::default());
        let f = program.function("f", 2).unwrap();
        let Some(
            crate::walker::Stmt::Expr(Expr::Call(call))
            | crate::walker::Stmt::Call(Expr::Call(call)),
        ) = f.body.last()
        else {
            panic!("f ends in a call");
        };
        assert_eq!(property_of(&call.args[0]), Some("b"));
        assert_eq!(property_of(&call.args[1]), None);
        for (p, at, prop) in lent {
            put_back(
                &mut frame.values[at],
                prop,
                &call.args[p],
                std::mem::take(&mut values[p]),
            );
        }
        let map = frame.values[0]
            .read_lock::<rhai::Map>()
            .map(|m| m["b"].as_int());
        assert_eq!(map, Some(Ok(5)));
        assert!(frame.values[1].is_array());
        for k in 2..MOST {
            assert!(later.add(k, k));
        }
        assert!(!later.has_room(0, 0));
    }
}
