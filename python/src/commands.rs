//! `cardsim run`, `sprt` and `trace` from Python: the command line's own code
//! ([`cardsim::cli::run_captured_with`]) with the GIL released; `cardsim/commands.py`
//! builds the arguments and reads what the command printed and wrote.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Runs the command line `args` (`trace ...`, `run ...` or `sprt ...`, without the
/// program's name) with the GIL released and returns what it printed on standard
/// output; an error raises `ValueError` with the command line's one-line message.
/// `bots`: in-process Python bots ([`crate::strategy::peer`]), each named in `args` by
/// its label as a `--bot` text.
#[pyfunction]
#[pyo3(signature = (args, bots=Vec::new()))]
pub fn command<'py>(py: Python<'py>, args: Vec<String>, bots: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyBytes>> {
    let peers = bots.iter().map(crate::strategy::peer).collect::<PyResult<Vec<_>>>()?;
    let out = py.detach(|| cardsim::cli::run_captured_with(&args, &peers)).map_err(PyValueError::new_err)?;
    Ok(PyBytes::new(py, &out))
}
