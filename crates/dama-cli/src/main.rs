//! The `dama` binary.
fn main() {}
