//! `cardsim._cardsim`: the compiled half of the Python package (the Python half,
//! `cardsim/__init__.py`, turns its answers into rows of typed values).
//!
//! Every function runs the same library code as the command line, with the GIL
//! released while matches play, so the bytes it returns are the bytes `cardsim match
//! --csv` writes for the same inputs.

use cardsim::games;
use cardsim::output::summary::{csv_bytes, summary_rows, MatchupLabels};
use cardsim::runner::{self, SeatingDesign};
use cardsim::table::Table;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Most matches one call plays (as `cardsim match --games`).
const MAX_GAMES: u64 = cardsim::cli::MAX_GAMES;

fn seating(name: &str) -> PyResult<SeatingDesign> {
    match name {
        "all" => Ok(SeatingDesign::All),
        "rotations" => Ok(SeatingDesign::Rotations),
        "one" => Ok(SeatingDesign::One),
        other => Err(PyValueError::new_err(format!("seating={other:?}: must be \"all\", \"rotations\" or \"one\""))),
    }
}

/// Plays `games` matches of `game` between `bots` (the `--bot` texts; empty: the game's
/// default bots) under the `--set` texts `sets`, and returns the summary CSV's bytes.
#[pyfunction]
#[pyo3(signature = (game, bots, games, seed, threads, sets, seating_name, bot_timeout=None))]
#[allow(clippy::too_many_arguments)]
fn match_csv<'py>(
    py: Python<'py>,
    game: &str,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    sets: Vec<String>,
    seating_name: &str,
    bot_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let err = |e: String| PyValueError::new_err(e);
    if games == 0 || games > MAX_GAMES {
        return Err(err(format!("games={games}: must be from 1 to {MAX_GAMES}")));
    }
    let mut table = Table::parse(game, &bots, &sets, seating(seating_name)?).map_err(err)?;
    table.set_bot_timeout(bot_timeout).map_err(err)?;
    let threads = match threads {
        Some(0) => return Err(err("threads=0: must be at least 1".into())),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let cfg = table.run_config(games, seed, true);
    let bytes = py
        .detach(|| -> Result<Vec<u8>, String> {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
            let game = table.build()?;
            let stats = pool.install(|| runner::run(game.as_match_game(), &cfg));
            stats.check_strategies(&table.labels(), cfg.seed, &table.trace_command(cfg.seed))?;
            let labels = table.labels();
            let flags = table.settings.non_default();
            let seating = format!("{:?}", cfg.seating).to_lowercase();
            let rows = summary_rows(&MatchupLabels { game: table.entry.name(), bots: &labels, flags: &flags, seed: cfg.seed, seating: &seating }, &stats, game.metrics());
            csv_bytes(&rows)
        })
        .map_err(err)?;
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
    m.add_function(wrap_pyfunction!(match_csv, m)?)?;
    m.add_function(wrap_pyfunction!(games_list, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
