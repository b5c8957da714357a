//! Native forms of game families that scripts may declare, verified against the script: a rules
//! script that describes its position with `native(state)` (read by [`crate::script::native_form`],
//! checked by [`crate::script::verify`]) has its random playouts and search run here, natively.
//!
//! - [`placement`]: placement games with a line goal (the m,n,k family);
//! - [`sowing`]: sowing games on a ring of pits.

pub mod placement;
pub mod sowing;
