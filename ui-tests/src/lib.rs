//! Compile-fail tests of `layout!` and the typed layer; see `tests/ui.rs`.
