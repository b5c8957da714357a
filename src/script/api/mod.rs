//! The runtime's primitives as seen from rules scripts. Each submodule registers one family of
//! primitives; every function here is game-agnostic.

pub mod grid;
pub mod walks;

use std::{cell::RefCell, rc::Rc};

use rhai::{Dynamic, Engine};

/// What `emit` records: the event's text and, if given, the state just after it.
#[derive(Debug, Default)]
pub struct EventLog {
    /// Whether events are recorded at all (search and playouts turn this off).
    pub enabled: bool,
    /// The events of the call in progress.
    pub events: Vec<(String, Option<Dynamic>)>,
}

/// Where `emit` puts the events of the call in progress.
pub type EventSink = Rc<RefCell<EventLog>>;

/// Registers every primitive, with `emit(text)` and `emit(text, state)` writing into `events`.
pub fn register(engine: &mut Engine, events: EventSink) {
    grid::register(engine);
    walks::register(engine);
    let log = Rc::clone(&events);
    engine.register_fn("recording", move || log.borrow().enabled);
    let sink = Rc::clone(&events);
    engine.register_fn("emit", move |text: &str| {
        let mut log = sink.borrow_mut();
        if log.enabled {
            log.events.push((text.to_string(), None));
        }
    });
    engine.register_fn("emit", move |text: &str, state: Dynamic| {
        let mut log = events.borrow_mut();
        if log.enabled {
            log.events.push((text.to_string(), Some(state)));
        }
    });
}
