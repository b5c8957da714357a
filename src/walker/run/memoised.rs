//! The walker's side of reusing pure functions' results (the table and which functions are in
//! `walker/memo.rs`): a call looked up, made and kept, or given again with its count.

use rhai::{Dynamic, Position};

use super::{Error, Frame, Runner};
use crate::walker::{
    memo::{Lookup, Reuse},
    Charges, Function, REPORT_EVERY,
};

impl Runner<'_> {
    /// Runs the pure function `function` (the program's function `index`) in `frame`, which
    /// holds its arguments: gives a kept result of a call with equal arguments where the budget
    /// allows its count (see [`Self::counted_again`]), else makes the call and keeps its result
    /// (on probation, only counts its operations).
    #[inline(never)]
    pub(super) fn memoised(
        &mut self,
        index: usize,
        function: &Function,
        frame: &mut Frame,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let Some(charges) = self.charges else {
            return self.run_function(function, frame, pos);
        };
        let memo = &self.program.memo;
        let level = self.global.level;
        let key = match memo.look_up(index, &frame.values, self.natives, level) {
            Lookup::Run => return self.run_function(function, frame, pos),
            Lookup::Off => {
                function.memo.set(None);
                return self.run_function(function, frame, pos);
            }
            Lookup::Probe => {
                let operations = self.global.num_operations;
                let result = self.run_function(function, frame, pos);
                memo.made(index, self.global.num_operations - operations);
                return result;
            }
            Lookup::Hit(reuse) => {
                if self.counted_again(&reuse, charges) {
                    return Ok(reuse.result);
                }
                return self.run_function(function, frame, pos);
            }
            Lookup::Miss(key) => key,
        };
        let (operations, charged) = (self.global.num_operations, (charges.charged)());
        let result = self.run_function(function, frame, pos);
        if let Ok(value) = &result {
            let operations = self.global.num_operations - operations;
            let charged = (charges.charged)().saturating_sub(charged);
            memo.keep(index, key, value, operations, charged, level, self.natives);
        }
        result
    }

    /// Counts a reused call's operations and charges its work, as its call did, unless that
    /// would pass the engine's limit on operations, or the budget would not allow the work,
    /// or the budget, asked at the last report the count crosses, stops the call: then
    /// nothing is counted (the call is made, and stopped where Rhai's would be). The reports
    /// before that last one are not made (see the walker's module doc).
    fn counted_again(&mut self, reuse: &Reuse, charges: Charges) -> bool {
        let start = self.global.num_operations;
        let end = start.saturating_add(reuse.operations);
        if end > self.max_operations {
            return false;
        }
        if reuse.charged > 0 && !(charges.recharge)(reuse.charged, end) {
            return false;
        }
        let report = end - end % REPORT_EVERY;
        if report > start && (self.progress)(report).is_some() {
            if reuse.charged > 0 {
                (charges.uncharge)(reuse.charged);
            }
            return false;
        }
        self.set_operations(end);
        true
    }
}
