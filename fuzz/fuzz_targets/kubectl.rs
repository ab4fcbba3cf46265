//! Fuzz target: see `kubeplay::fuzzing::kubectl`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubeplay::fuzzing::kubectl(data));
