//! The services the state bag ([`crate::state::Services`]) holds. Each is a type that
//! imports nothing that reads the bag, so the bag depends on them and never the other
//! way: a new service goes here and becomes a field of `Services`.

pub mod account_events;
pub mod explorer_counts;
pub mod logins;
pub mod news;
pub mod pokes;
pub mod registry;
pub mod replay_gate;
pub mod reports;
