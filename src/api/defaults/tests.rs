//! Defaulting tests.
