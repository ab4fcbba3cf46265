//! Fuzz target: see `kubeplay::fuzzing::scenario`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubeplay::fuzzing::scenario(data));
