//! `cardsim._cardsim`: the compiled half of the Python package (the Python half,
//! `cardsim/__init__.py`, turns its answers into rows of typed values).
//!
//! Every function runs the same library code as the command line, with the GIL
//! released while matches play, so the bytes it returns are the bytes `cardsim match
//! --csv` writes for the same inputs.

use cardsim::api::{Match, Seating};
use cardsim::games;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod commands;
mod strategy;

fn seating(name: &str) -> PyResult<Seating> {
    match name {
        "all" => Ok(Seating::All),
        "rotations" => Ok(Seating::Rotations),
        "one" => Ok(Seating::One),
        other => Err(PyValueError::new_err(format!("seating={other:?}: must be \"all\", \"rotations\" or \"one\""))),
    }
}

/// Plays `games` matches of `game` between `bots` (the `--bot` texts or in-process
/// bots, see [`strategy::add_bot`]; empty: the game's default bots) under the `--set` texts `sets` through [`cardsim::api::Match`], with the
/// GIL released, and returns the summary CSV's bytes.
#[pyfunction]
#[pyo3(signature = (game, bots, games, seed, threads, sets, seating_name, bot_timeout=None))]
#[allow(clippy::too_many_arguments)]
fn match_csv<'py>(
    py: Python<'py>,
    game: &str,
    bots: Vec<Bound<'py, PyAny>>,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    sets: Vec<String>,
    seating_name: &str,
    bot_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut m = Match::new(game).games(games).seed(seed).seating(seating(seating_name)?);
    for b in &bots {
        m = strategy::add_bot(m, b)?;
    }
    for s in &sets {
        m = m.set(s);
    }
    if let Some(t) = threads {
        m = m.threads(t);
    }
    if let Some(s) = bot_timeout {
        m = m.bot_timeout(s);
    }
    let bytes = py.detach(|| m.run().and_then(|summary| summary.csv())).map_err(PyValueError::new_err)?;
    Ok(PyBytes::new(py, &bytes))
}

/// Every game with its players, strategies, default bots, flags and metrics, as
/// `cardsim list` shows them.
#[pyfunction]
fn games_list(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    use pyo3::types::PyDict;
    let mut out = Vec::new();
    for g in games::registry() {
        let d = PyDict::new(py);
        d.set_item("name", g.name())?;
        d.set_item("about", g.about())?;
        d.set_item("players", g.players())?;
        d.set_item("real_time", g.real_time())?;
        d.set_item("default_bots", g.default_bots().to_vec())?;
        let strategies = PyDict::new(py);
        for s in g.strategies() {
            strategies.set_item(s.name, s.about)?;
        }
        d.set_item("strategies", strategies)?;
        let flags = PyDict::new(py);
        for f in g.flags() {
            let fd = PyDict::new(py);
            fd.set_item("default", f.default)?;
            fd.set_item("accepted", f.accepted())?;
            fd.set_item("doc", f.doc)?;
            flags.set_item(f.key, fd)?;
        }
        d.set_item("flags", flags)?;
        d.set_item("metrics", g.metrics().iter().map(|m| m.name).collect::<Vec<_>>())?;
        out.push(d);
    }
    Ok(out)
}

/// The reaction presets of the real-time games.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    cardsim::reaction::presets::ALL_PRESETS.iter().map(|p| p.name()).collect()
}

#[pymodule]
fn _cardsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    cardsim::cpu::check().map_err(pyo3::exceptions::PyImportError::new_err)?;
    m.add_function(wrap_pyfunction!(match_csv, m)?)?;
    m.add_function(wrap_pyfunction!(games_list, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(commands::command, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
