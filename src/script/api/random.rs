//! The seedable random generator as scripts see it: `rng(seed)`, `r.int(n)`, `r.pick(array)`.
//! A script keeps its generator in the game state, so undo and replay restore it.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, INT};

use crate::{runtime::Rng, walker::lists::NativeList};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers the `Rng` type with `rng(seed)`, `int(n)` and `pick(array)`.
pub fn register(engine: &mut Natives) {
    engine
        .register_type_with_name::<Rng>("Rng")
        .register_fn("rng", |seed: INT| Rng::new(seed as u64))
        .register_fn("int", |r: &mut Rng, n: INT| -> Fallible<INT> {
            r.below(n)
                .ok_or_else(|| format!("rng.int({n}): the bound must be positive").into())
        })
        .register_fn("pick", |r: &mut Rng, items: Array| -> Fallible<Dynamic> {
            let i = r
                .below(items.len() as INT)
                .ok_or("rng.pick: the array is empty")?;
            Ok(items[i as usize].clone())
        })
        .register_list_taker(
            "pick",
            |r: &mut Rng, items: NativeList| -> Fallible<Dynamic> {
                let i = r
                    .below(items.len() as INT)
                    .ok_or("rng.pick: the array is empty")?;
                Ok(items.item(i as usize))
            },
        )
        .register_fn("==", |a: Rng, b: Rng| a == b)
        .register_fn("to_debug", |_: &mut Rng| "rng".to_string());
}

#[cfg(test)]
mod tests {
    use rhai::{Dynamic, Engine, INT};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    #[test]
    fn a_copied_generator_draws_the_same() {
        let e = engine();
        let same: bool = e
            .eval("let r = rng(7); let s = r; r.int(1000) == s.int(1000) && r == s")
            .unwrap();
        assert!(same);
        let picked: INT = e.eval("rng(3).pick([4, 4, 4])").unwrap();
        assert_eq!(picked, 4);
        assert!(e.eval::<INT>("rng(1).int(0)").is_err());
        assert!(e.eval::<Dynamic>("rng(1).pick([])").is_err());
    }
}
