//! The node kinds' table as the call reader and writer take it (see
//! [`Registry`]), and the reader's and writer's entry points with it.

// Without `expr` or `serde` part of this is unused.
#![cfg_attr(not(all(feature = "expr", feature = "serde")), allow(dead_code))]

use crate::prelude_internal::*;

use super::ast::Graph;
use super::call::{self, Bad, Item, Registry, Writer};
use super::kinds;
use crate::error::Error;

/// Every node kind's reading, writing and parameters.
pub(super) static KINDS: Registry = Registry {
    params_of: kinds::params_of,
    function_names: kinds::function_names,
    read: kinds::read,
    check_table: kinds::stack::check_table,
    write: kinds::write,
};

/// Converts a description tree into a graph.
pub(super) fn to_graph(item: &Item) -> Result<Graph, Bad> {
    call::to_graph(item, &KINDS)
}

/// A writer of descriptions: stacks as stack tables (a config's form) if
/// `tables`, else as calls.
pub(super) fn writer(tables: bool) -> Writer {
    Writer {
        tables,
        kinds: &KINDS,
    }
}

/// The description tree of `g`, with arguments named except the leading
/// ones that each function prints positionally. Fails on a custom field.
pub(super) fn from_graph(g: &Graph) -> Result<Item, Error> {
    writer(false).graph(g)
}

/// A function's parameters (empty for an unknown name).
pub(super) fn params_for(name: &str) -> Vec<&'static str> {
    (KINDS.params_of)(name).unwrap_or_default()
}
