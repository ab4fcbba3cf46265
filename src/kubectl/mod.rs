//! The kubectl subset: one parser and kubectl's printers, shared by the CLI, scenarios and page.

use crate::sim::Simulation;

/// Runs one kubectl command line (without the leading `kubectl`) against the simulation and
/// returns what kubectl would print.
///
/// # Errors
/// kubectl's error text.
pub fn execute(_sim: &mut Simulation, cmd: &str) -> Result<String, String> {
    Err(format!("error: unknown command {cmd:?} for \"kubectl\""))
}

/// Like [`execute`], with text for `-f -`.
///
/// # Errors
/// kubectl's error text.
pub fn execute_with_input(
    sim: &mut Simulation,
    cmd: &str,
    _stdin: Option<&str>,
) -> Result<String, String> {
    execute(sim, cmd)
}
