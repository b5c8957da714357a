//! The runtime's primitives as seen from rules scripts. Each submodule registers one family of
//! primitives; every function here is game-agnostic.

pub mod grid;

use std::{cell::RefCell, rc::Rc};

use rhai::Engine;

use crate::runtime::Event;

/// Where `emit` puts the events of the call in progress.
pub type EventSink = Rc<RefCell<Vec<Event>>>;

/// Registers every primitive, with `emit(text)` writing into `events`.
pub fn register(engine: &mut Engine, events: EventSink) {
    grid::register(engine);
    engine.register_fn("emit", move |text: &str| {
        events.borrow_mut().push(Event {
            text: text.to_string(),
        });
    });
}
