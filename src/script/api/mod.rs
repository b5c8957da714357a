//! The runtime's primitives as seen from rules scripts. Each submodule registers one family of
//! primitives; every function here is game-agnostic.

pub mod grid;
pub mod paths;
pub mod random;
pub mod rays;
pub mod regions;
pub mod track;
pub mod walks;
pub mod windows;

use std::{cell::RefCell, rc::Rc};

use rhai::{Dynamic, Engine, EvalAltResult};

use crate::{
    markup,
    script::sandbox,
    walker::native_table::{NativeTable, Natives},
};

/// What `emit` records: the event's text and, if given, the state just after it.
#[derive(Debug, Default)]
pub struct EventLog {
    /// Whether events are recorded at all (search and playouts turn this off).
    pub enabled: bool,
    /// The events of the call in progress.
    pub events: Vec<(String, Option<Dynamic>)>,
}

impl EventLog {
    /// Records an event if recording is on; an error past [`sandbox::limits::EVENTS`] in one
    /// call.
    fn record(&mut self, text: &str, state: Option<Dynamic>) -> Result<(), Box<EvalAltResult>> {
        if !self.enabled {
            return Ok(());
        }
        if self.events.len() >= sandbox::limits::EVENTS {
            return Err(sandbox::over_limit(format!(
                "emit: more than {} events in one call",
                sandbox::limits::EVENTS
            )));
        }
        self.events.push((text.to_string(), state));
        Ok(())
    }
}

/// Where `emit` puts the events of the call in progress.
pub type EventSink = Rc<RefCell<EventLog>>;

/// Registers every primitive, with `emit(text)` and `emit(text, state)` writing into `events`,
/// and `highlight(kind, text)` tagging rendered text for the REPL's colours; the table of them
/// lets compiled scripts call them directly.
pub fn register(engine: &mut Engine, events: EventSink) -> NativeTable {
    let mut natives = Natives::new(engine);
    // Registered through `natives`, which registers in the engine too.
    let engine = &mut natives;
    grid::register(engine);
    engine.register_fn("highlight", |kind: &str, text: &str| {
        markup::highlight(kind, text)
    });
    engine.register_fn("highlight", |kind: &str, c: char| {
        markup::highlight(kind, c.encode_utf8(&mut [0; 4]))
    });
    regions::register(engine);
    paths::register(engine);
    random::register(engine);
    walks::register(engine);
    track::register(engine);
    windows::register(engine);
    rays::register(engine);
    // `recording` reads a setting of the host's; `emit` records outside its arguments.
    engine.mark_effectful("recording").mark_effectful("emit");
    let log = Rc::clone(&events);
    engine.register_fn("recording", move || log.borrow().enabled);
    let sink = Rc::clone(&events);
    engine.register_fn("emit", move |text: &str| {
        sink.borrow_mut().record(text, None)
    });
    engine.register_fn("emit", move |text: &str, state: Dynamic| {
        events.borrow_mut().record(text, Some(state))
    });
    natives.into_table()
}

/// An engine with the grid primitives and those `register` adds: what the primitives' tests run
/// scripts in.
#[cfg(test)]
fn test_engine(register: fn(&mut Natives)) -> Engine {
    let mut engine = Engine::new();
    let mut natives = Natives::new(&mut engine);
    grid::register(&mut natives);
    register(&mut natives);
    engine
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{register, sandbox, EventSink};

    /// Rhai's own functions that share a name and a count of parameters with functions the
    /// runtime registers as only reading their first argument: each of them only reads it too
    /// (read in Rhai's packages: `get` and `contains` of arrays, maps, strings, BLOBs and
    /// ranges, a map's `values`, the `len` property), so a call of the name changes nothing
    /// whichever it reaches.
    const RHAI_READERS: &[(&str, usize)] =
        &[("contains", 2), ("get", 2), ("get$len", 1), ("values", 1)];

    #[test]
    fn rhai_functions_named_as_the_runtimes_readers_only_read() {
        let table = register(&mut sandbox::engine(), EventSink::default());
        let shared: BTreeSet<(String, usize)> = sandbox::engine()
            .collect_fn_metadata(
                None,
                |f| Some((f.metadata.name.to_string(), f.metadata.num_params)),
                true,
            )
            .into_iter()
            .filter(|(name, params)| table.only_reads(name, *params))
            .collect();
        let vetted: BTreeSet<(String, usize)> = RHAI_READERS
            .iter()
            .map(|&(name, params)| (name.to_string(), params))
            .collect();
        assert_eq!(shared, vetted);
    }
}
