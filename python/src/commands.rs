//! `cardsim run`, `sprt` and `trace` from Python: the command line's own code
//! ([`cardsim::cli::run_captured`]) with the GIL released; `cardsim/commands.py` builds
//! the arguments and reads what the command printed and wrote.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Runs the command line `args` (`trace ...`, `run ...` or `sprt ...`, without the
/// program's name) with the GIL released and returns what it printed on standard
/// output; an error raises `ValueError` with the command line's one-line message.
#[pyfunction]
pub fn command(py: Python<'_>, args: Vec<String>) -> PyResult<Bound<'_, PyBytes>> {
    let out = py.detach(|| cardsim::cli::run_captured(&args)).map_err(PyValueError::new_err)?;
    Ok(PyBytes::new(py, &out))
}
