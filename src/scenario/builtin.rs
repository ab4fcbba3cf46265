//! The built-in scenarios shipped in `scenarios/`, compiled in.

/// (name, YAML) of every built-in scenario, in lesson order.
pub const BUILTIN: &[(&str, &str)] = &[];

/// A built-in scenario by name.
pub fn get(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, y)| *y)
}
