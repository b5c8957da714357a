//! The variables a script function call reads once its arguments are evaluated, and lends to
//! the callee rather than copying them (see `Runner::call_script`).

use rhai::Dynamic;

use super::{plain, Frame};

/// How many variables one call lends at most (the others are copied).
const MOST: usize = 4;

/// The variables a call reads after evaluating its arguments, [`lendable`] when it evaluated
/// them: the parameter each is passed as, its index in the caller's frame, and whether it was
/// lent (a variable passed twice is lent once).
#[derive(Default)]
pub(super) struct Later {
    params: [u8; MOST],
    at: [u32; MOST],
    len: u8,
    /// Bit `k` for the `k`th variable noted, lent.
    lent: u8,
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

    /// Whether no variable was noted.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Moves the variables noted out of `frame` into their parameters in `values`, lent; a
    /// variable lent already to another parameter is copied from there. The parameters lent
    /// (bit `i` for parameter `i`).
    #[inline]
    pub(super) fn lend(&mut self, frame: &mut Frame, values: &mut [Dynamic]) -> u64 {
        let mut lent = 0;
        for k in 0..usize::from(self.len) {
            let (param, at) = (usize::from(self.params[k]), self.at[k]);
            let lent_as = (0..k).find(|&j| self.lent & (1 << j) != 0 && self.at[j] == at);
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

    /// The variables lent: (parameter, index in the caller's frame).
    pub(super) fn lent(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..usize::from(self.len))
            .filter(|&k| self.lent & (1 << k) != 0)
            .map(|k| (usize::from(self.params[k]), self.at[k] as usize))
    }
}

/// Whether `value` is worth lending, and may be: an array (whose copy copies every item),
/// not shared (a copy is the same shared value) and not a constant's. Other values are not
/// lent: the copy of a native value or a string costs little more than the look the callee
/// takes at every method called on a lent value, whether it may change it (see
/// `Runner::chain`); a map (a game's state, most often) is read that way often.
#[inline(always)]
pub(super) fn lendable(value: &Dynamic) -> bool {
    value.is_array() && !value.is_shared() && !value.is_read_only()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::Array;

    #[test]
    fn a_variable_passed_twice_is_lent_once_and_copied_once() {
        let array = || Dynamic::from_array(Array::from([Dynamic::from_int(1)]));
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
        assert_eq!(later.lent().collect::<Vec<_>>(), [(2, 0)]);
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
        assert!(!lendable(&Dynamic::from_int(1)));
        assert!(!lendable(&Dynamic::from_map(rhai::Map::new())));
    }
}
