//! Python strategies in-process: a Python bot is an in-process peer of the bot protocol
//! ([`cardsim::api::Peer`]). Each connection (one per worker thread that plays a match
//! with it) is a Python object made by a factory, with a method `handle(line)` that is
//! handed each protocol line (JSON text) and returns the answer line or `None`
//! (`cardsim/bots.py` makes these objects from strategies and botlib bots). The calls
//! take the GIL, which serialises them; the simulation around them runs without it.
//! `bot_timeout` is checked against the time a call took once it held the GIL.

use cardsim::api::{Match, Peer, PeerConn};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A Python factory of connections: `make()` returns an object with `handle(line)`;
/// `timed`: `bot_timeout` applies to its answers (not to a learning environment's seat,
/// which waits for the caller of `step()`).
struct PyPeer {
    make: Py<PyAny>,
    timed: bool,
}

/// One connection: the object `make()` returned.
struct PyConn {
    conn: Py<PyAny>,
}

/// A Python error as one line: a `cardsim.BotError`'s message (which already names the
/// exception and the decision), or `Type: message` for any other.
fn error_text(py: Python<'_>, e: PyErr) -> String {
    let is_bot_error = e.get_type(py).name().is_ok_and(|n| n == "BotError");
    let text = if is_bot_error { e.value(py).to_string() } else { e.to_string() };
    text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

impl Peer for PyPeer {
    fn connect(&self) -> Result<Box<dyn PeerConn>, String> {
        Python::attach(|py| self.make.call0(py).map(|conn| Box::new(PyConn { conn }) as Box<dyn PeerConn>).map_err(|e| error_text(py, e)))
    }
    fn timed(&self) -> bool {
        self.timed
    }
}

impl PeerConn for PyConn {
    fn message(&mut self, line: &str) -> Result<Option<String>, String> {
        self.timed_message(line).0
    }
    /// The time from when this call holds the GIL: waiting for it while another
    /// thread's bot runs is not this bot's time.
    fn timed_message(&mut self, line: &str) -> (Result<Option<String>, String>, Duration) {
        Python::attach(|py| {
            let start = Instant::now();
            let answer = self.conn.call_method1(py, "handle", (line,)).and_then(|a| a.extract::<Option<String>>(py)).map_err(|e| error_text(py, e));
            (answer, start.elapsed())
        })
    }
}

/// Adds bot `bot` to `m`: a `--bot` text (`str`), or an in-process Python bot
/// ([`peer`]).
pub fn add_bot(m: Match, bot: &Bound<'_, PyAny>) -> PyResult<Match> {
    if let Ok(text) = bot.extract::<String>() {
        return Ok(m.bot(&text));
    }
    let (label, peer) = peer(bot)?;
    Ok(m.peer(&label, peer))
}

/// An in-process Python bot as its label and peer: a `(label, factory)` pair, or
/// `(label, factory, timed)` (`timed` false: `bot_timeout` does not apply).
pub fn peer(bot: &Bound<'_, PyAny>) -> PyResult<(String, Arc<dyn Peer>)> {
    let (label, make, timed) = match bot.extract::<(String, Py<PyAny>, bool)>() {
        Ok(triple) => triple,
        Err(_) => {
            let (label, make): (String, Py<PyAny>) = bot.extract()?;
            (label, make, true)
        }
    };
    Ok((label, Arc::new(PyPeer { make, timed })))
}
