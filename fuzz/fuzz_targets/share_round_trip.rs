//! Fuzz target: see `kubeplay::fuzzing::share_round_trip`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubeplay::fuzzing::share_round_trip(data));
