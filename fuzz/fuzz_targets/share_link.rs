//! Fuzz target: see `kubeplay::fuzzing::share_link`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubeplay::fuzzing::share_link(data));
