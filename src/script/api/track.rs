//! Circular tracks of pits as scripts see them: `track(12, 5)`, `t.sow(pit, n, dir, skip)`.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, ImmutableString, StaticVec, INT};

use crate::{
    runtime::{Track, TrackError},
    script::sandbox,
    walker::lists::NativeList,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

fn err(e: TrackError) -> Box<EvalAltResult> {
    e.to_string().into()
}

fn pit(t: &Track, p: INT) -> Fallible<usize> {
    t.pit(p).map_err(err)
}

fn pits(iter: impl Iterator<Item = usize>) -> Array {
    iter.map(|p| Dynamic::from(p as INT)).collect()
}

/// The list form of `t.pits_with_seeds(owner, kind)`.
fn pits_with_seeds(t: &Track, owner: INT, kind: Option<ImmutableString>) -> NativeList {
    NativeList::PitsWithSeeds {
        len: t.pits_with_seeds(Some(owner), kind.as_deref()).count(),
        track: t.clone(),
        owner,
        kind,
    }
}

fn new_track(len: INT, fill: INT) -> Fallible<Track> {
    match usize::try_from(len) {
        Ok(n) if (1..=Track::MAX_LEN).contains(&n) => {
            sandbox::charge(n as u64)?;
            Ok(Track::new(n, fill))
        }
        _ => Err(format!(
            "a track of {len} pits is not allowed (1..{})",
            Track::MAX_LEN
        )
        .into()),
    }
}

fn sow(t: &mut Track, from: INT, n: INT, dir: INT, skip: &[INT]) -> Fallible<INT> {
    // A lap looks at every pit, and each pit at the pits skipped.
    sandbox::charge((t.len() * (1 + skip.len())) as u64)?;
    let from = pit(t, from)?;
    let skip = skip
        .iter()
        .map(|&p| pit(t, p))
        .collect::<Fallible<StaticVec<usize>>>()?;
    t.sow(from, n, dir, &skip).map(|p| p as INT).map_err(err)
}

/// The pit numbers of `sow`'s `skip` array.
fn skipped(skip: &Array) -> Fallible<StaticVec<INT>> {
    skip.iter()
        .map(|p| {
            p.as_int()
                .map_err(|ty| format!("sow: skip must hold pit numbers, not {ty}").into())
        })
        .collect()
}

/// Registers `Track` and its functions.
pub fn register(engine: &mut Natives) {
    engine
        .register_type_with_name::<Track>("Track")
        .register_compared::<Track>(|t| t.len() * 24)
        .register_fn("track", |len: INT| new_track(len, 0))
        .register_fn("track", new_track)
        .register_get("len", |t: &mut Track| t.len() as INT)
        .register_reader("get", |t: &mut Track, p: INT| pit(t, p).map(|p| t.get(p)))
        .register_fn("set", |t: &mut Track, p: INT, v: INT| {
            pit(t, p).map(|p| t.set(p, v))
        })
        .register_fn("add", |t: &mut Track, p: INT, v: INT| {
            pit(t, p).map(|p| t.add(p, v))
        })
        .register_fn("take", |t: &mut Track, p: INT| pit(t, p).map(|p| t.take(p)))
        .register_reader("owner", |t: &mut Track, p: INT| {
            pit(t, p).map(|p| t.owner(p))
        })
        .register_fn("set_owner", |t: &mut Track, p: INT, o: INT| {
            pit(t, p).map(|p| t.set_owner(p, o))
        })
        .register_reader("kind", |t: &mut Track, p: INT| {
            pit(t, p).map(|p| t.kind(p).to_string())
        })
        .register_fn("set_kind", |t: &mut Track, p: INT, k: &str| {
            pit(t, p).map(|p| t.set_kind(p, k))
        })
        .register_reader("values", |t: &mut Track| {
            t.values()
                .iter()
                .map(|&v| Dynamic::from(v))
                .collect::<Array>()
        })
        .register_reader("total", |t: &mut Track| t.total())
        .register_reader("pits", |t: &mut Track| pits(0..t.len()))
        .register_reader("pits", |t: &mut Track, o: INT| {
            pits(t.pits_where(Some(o), None))
        })
        .register_reader("pits", |t: &mut Track, o: INT, k: &str| {
            pits(t.pits_where(Some(o), Some(k)))
        })
        .register_reader("pits_with_seeds", |t: &mut Track, o: INT| {
            pits(t.pits_with_seeds(Some(o), None))
        })
        .register_list_fn("pits_with_seeds", |t: &mut Track, o: INT| {
            pits_with_seeds(t, o, None)
        })
        .register_reader("pits_with_seeds", |t: &mut Track, o: INT, k: &str| {
            pits(t.pits_with_seeds(Some(o), Some(k)))
        })
        .register_list_fn(
            "pits_with_seeds",
            |t: &mut Track, o: INT, k: ImmutableString| pits_with_seeds(t, o, Some(k)),
        )
        .register_reader("pits_of_kind", |t: &mut Track, k: &str| {
            pits(t.pits_where(None, Some(k)))
        })
        .register_reader("seeds", |t: &mut Track, o: INT| {
            t.seeds_where(Some(o), None)
        })
        .register_reader("seeds", |t: &mut Track, o: INT, k: &str| {
            t.seeds_where(Some(o), Some(k))
        })
        .register_reader("next", |t: &mut Track, p: INT, dir: INT| {
            let p = pit(t, p)?;
            t.step(p, dir, 1).map(|q| q as INT).map_err(err)
        })
        .register_reader("prev", |t: &mut Track, p: INT, dir: INT| {
            let p = pit(t, p)?;
            t.step(p, dir, -1).map(|q| q as INT).map_err(err)
        })
        .register_reader("step", |t: &mut Track, p: INT, dir: INT, k: INT| {
            let p = pit(t, p)?;
            t.step(p, dir, k).map(|q| q as INT).map_err(err)
        })
        .register_reader("distance", |t: &mut Track, a: INT, b: INT, dir: INT| {
            let (a, b) = (pit(t, a)?, pit(t, b)?);
            t.distance(a, b, dir).map_err(err)
        })
        .register_fn("sow", |t: &mut Track, from: INT, n: INT, dir: INT| {
            sow(t, from, n, dir, &[])
        })
        .register_fn(
            "sow",
            |t: &mut Track, from: INT, n: INT, dir: INT, skip: Array| {
                sow(t, from, n, dir, &skipped(&skip)?)
            },
        )
        .register_fn(
            "sow",
            |t: &mut Track, from: INT, n: INT, dir: INT, skip: INT| sow(t, from, n, dir, &[skip]),
        )
        .register_fn("==", |a: Track, b: Track| a == b)
        .register_fn("!=", |a: Track, b: Track| a != b)
        .register_fn("to_string", |t: &mut Track| t.to_string())
        .register_fn("to_debug", |t: &mut Track| t.to_string());
}

#[cfg(test)]
mod tests {
    use rhai::Engine;

    use crate::walker::native_table::Natives;

    fn eval<T: Clone + 'static>(script: &str) -> Result<T, String> {
        let mut engine = Engine::new();
        super::register(&mut Natives::new(&mut engine));
        engine.eval::<T>(script).map_err(|e| e.to_string())
    }

    #[test]
    fn scripts_sow_and_relay() {
        let last: rhai::INT = eval(
            "let t = track(12, 5);
             let n = t.take(2);
             let last = t.sow(2, n, 1, [2]);
             let n = t.take(t.next(last, 1));
             t.sow(8, n, 1)",
        )
        .unwrap();
        assert_eq!(last, 1);
        let values: rhai::Array = eval(
            "let t = track(4, 0); t.set(0, 9); let n = t.take(0); t.sow(0, n, -1, [0]); t.values()",
        )
        .unwrap();
        let values: Vec<i64> = values.into_iter().map(|v| v.as_int().unwrap()).collect();
        assert_eq!(values, [0, 3, 3, 3]);
        // One pit to skip may be given as a number.
        let same: bool = eval(
            "let a = track(6, 4); let b = a; a.sow(0, 9, 1, [3]) == b.sow(0, 9, 1, 3) && a == b",
        )
        .unwrap();
        assert!(same);
        let e = eval::<rhai::INT>("track(6).sow(0, 1, 1, 6)").unwrap_err();
        assert!(e.contains("pit 6 is not on the track"), "{e}");
    }

    #[test]
    fn owners_kinds_and_errors() {
        let picked: rhai::Array = eval(
            "let t = track(6, 1);
             for p in 3..6 { t.set_owner(p, 1); }
             t.set_kind(5, \"store\");
             t.pits(1, \"\") + t.pits_of_kind(\"store\") + [t.seeds(1), t.distance(5, 1, -1)]",
        )
        .unwrap();
        let picked: Vec<i64> = picked.into_iter().map(|v| v.as_int().unwrap()).collect();
        assert_eq!(picked, [3, 4, 5, 3, 4]);
        let sowable: rhai::Array = eval(
            "let t = track(6, 2);
             for p in 3..6 { t.set_owner(p, 1); }
             t.set_kind(5, \"store\");
             t.take(4);
             t.pits_with_seeds(1) + t.pits_with_seeds(1, \"\") + t.pits_with_seeds(0, \"store\")",
        )
        .unwrap();
        let sowable: Vec<i64> = sowable.into_iter().map(|v| v.as_int().unwrap()).collect();
        assert_eq!(sowable, [3, 5, 3]);
        let e = eval::<rhai::INT>("track(6).get(6)").unwrap_err();
        assert!(e.contains("pit 6 is not on the track"), "{e}");
        let e = eval::<rhai::INT>("track(6).next(0, 0)").unwrap_err();
        assert!(e.contains("direction 0"), "{e}");
        let e = eval::<rhai::INT>("track(6).sow(0, 1, 1, [\"x\"])").unwrap_err();
        assert!(e.contains("skip must hold pit numbers"), "{e}");
        assert!(eval::<rhai::INT>("track(0).len").is_err());
    }
}
