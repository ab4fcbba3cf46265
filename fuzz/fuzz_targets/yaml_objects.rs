//! Fuzz target: see `kubeplay::fuzzing::yaml_objects`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubeplay::fuzzing::yaml_objects(data));
