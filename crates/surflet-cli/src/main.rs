//! The `surflet` command-line tool.
fn main() {}
