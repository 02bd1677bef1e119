//! dama-train: making the evaluation that [`dama_engine`] plays with. Only the `dama`
//! binary's `selfplay` and `train` commands link it; the server does not.
//!
//! - [`selfplay`]: games the engine plays against itself at a fixed number of nodes;
//!   [`dataset`]: the file their positions are written to.
//! - [`train`]: pattern weights by logistic regression; [`train_net`]: a small network
//!   by back-propagation. Both run the same epoch loop ([`fit`]) on the same
//!   [`Sample`]s and report an [`Epoch`] at a time.

mod adam;
pub mod dataset;
pub mod fit;
pub mod selfplay;
pub mod train;
pub mod train_net;

pub use fit::{Epoch, Sample};
