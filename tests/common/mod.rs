//! Test-only helpers shared by the integration tests.

pub(crate) mod reference;
