//! The `dama` binary's integration tests, in one test binary (one link instead of one
//! per file). Each module is one concern.

mod cli;
mod cluster;
mod dxp;
mod engine;
