//! An array's item at a literal or a variable's index assigned an integer in place
//! (`pits[i] = 0`, `state.pits[last] += 1`), before the chain's general machinery
//! ([`Runner::chain`]) is set up: the chain's index and its property looked at where they are,
//! nothing gathered, and the operations Rhai counts for the chain counted at once. Everything
//! is looked at before anything is counted or changed; where it does not fit, the assignment
//! is walked as before.

use rhai::{Array, Dynamic, Map, INT};

use super::{
    chain::{property, property_mut},
    int_op_assign, plain, Flow, Frame, Runner,
};
use crate::walker::{Chain, Expr, Gathering, OpAssign, Root, Step};

impl Runner<'_> {
    /// `x[k] op= v` or `x.p[k] op= v` (or `=`) on a variable's array (a map's property's),
    /// `k` a literal or a variable holding an index within it and `value`, `v`'s value
    /// (evaluated and counted already, with the statement), an integer: assigned to the item
    /// as the general walk assigns it (`Runner::assign`: an integer needs no size check),
    /// after counting what Rhai counts for the chain (as `Runner::gather` gathers it, then the
    /// variable, the property's look-up and the item's). `None`, with nothing counted or
    /// changed, where the variable or the array is shared or a constant, the map has no such
    /// property, the index is not within the array, the item is a constant or shared, or the
    /// operator does not give an integer from two (Rhai computes it, or words its error).
    #[inline(never)]
    pub(super) fn item_assigned(
        &mut self,
        frame: &mut Frame,
        chain: &Chain,
        op: Option<&OpAssign>,
        value: &Dynamic,
    ) -> Option<Flow<()>> {
        let Root::Local(slot) = chain.root else {
            return None;
        };
        let (prop, index, ops) = match (chain.steps.as_slice(), chain.args.as_slice()) {
            // The variable and the item's look-up (Rhai takes a literal index as written).
            ([Step::Index], [Expr::Value(k)]) if chain.gathering == Gathering::LiteralIndex => {
                (None, k, 2)
            }
            // The link and the index's expression, the variable, the item's look-up.
            ([Step::Index], [Expr::Local(at)]) if chain.gathering == Gathering::PerLink => {
                (None, &frame.values[frame.index(*at)], 4)
            }
            // The two links and the index's expression, the variable, the property's look-up
            // and the item's.
            ([Step::Prop { name, .. }, Step::Index], [index])
                if chain.gathering == Gathering::PerLink =>
            {
                let index = match index {
                    Expr::Value(k) => k,
                    Expr::Local(at) => &frame.values[frame.index(*at)],
                    _ => return None,
                };
                (Some(name.as_str()), index, 6)
            }
            _ => return None,
        };
        let k = usize::try_from(index.as_int().ok()?).ok()?;
        let b = plain::int(value)?;
        let i = frame.index(slot);
        let root = &frame.values[i];
        if root.is_shared() || root.is_read_only() {
            return None;
        }
        let assigned = |item: &Dynamic| -> Option<INT> {
            if item.is_shared() || item.is_read_only() {
                return None;
            }
            match op {
                None => Some(b),
                Some(op) => int_op_assign(op, plain::int(item)?, b),
            }
        };
        let n = match prop {
            None => assigned(root.read_lock::<Array>()?.get(k)?)?,
            Some(name) => {
                let map = root.read_lock::<Map>()?;
                let array = property(&map, name)?;
                if array.is_shared() {
                    return None;
                }
                let item = array.read_lock::<Array>()?.get(k).map(assigned)?;
                item?
            }
        };
        if let Err(err) = self.tick_n(ops) {
            return Some(Err(err.into()));
        }
        // Assigned as `Runner::assign` assigns: the value itself, or the operator's integer.
        let item = match op {
            None => plain::copy(value),
            Some(_) => Dynamic::from_int(n),
        };
        self.before_change(frame, i);
        frame.touch(i);
        let root = &mut frame.values[i];
        match prop {
            None => put_item(root, k, item),
            Some(name) => {
                if let Some(mut map) = root.write_lock::<Map>() {
                    if let Some(array) = property_mut(&mut map, name) {
                        put_item(array, k, item);
                    }
                }
            }
        }
        Some(Ok(()))
    }
}

/// Puts `item` at index `k` of the array `array` holds (both looked at already).
#[inline(always)]
fn put_item(array: &mut Dynamic, k: usize, item: Dynamic) {
    if let Some(slot) = array
        .write_lock::<Array>()
        .as_mut()
        .and_then(|a| a.get_mut(k))
    {
        plain::put(slot, item);
    }
}
