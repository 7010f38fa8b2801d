//! What an [`super::ExternalBot`] talks to: a line channel, either a child process
//! ([`super::process::Process`]) or an in-process peer ([`Peer`], e.g. a Python object
//! of the Python package), which receives exactly the protocol's lines and answers the
//! ones that need an answer (`hello`, `decide`).

use super::process::{Process, ReadError};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

/// One connection to a bot: send a line, read a line with a timeout, close.
pub trait Channel: Send {
    /// Sends one line; `false` if the bot's input is closed.
    fn send(&mut self, line: &str) -> bool;
    /// The next line, waiting at most `timeout`.
    fn read(&mut self, timeout: Duration) -> Result<String, ReadError>;
    /// Ends the connection (with `quit`, that line is sent first).
    fn close(self: Box<Self>, quit: Option<&str>);
}

impl Channel for Process {
    fn send(&mut self, line: &str) -> bool {
        Process::send(self, line)
    }
    fn read(&mut self, timeout: Duration) -> Result<String, ReadError> {
        Process::read(self, timeout)
    }
    fn close(self: Box<Self>, quit: Option<&str>) {
        Process::close(*self, quit)
    }
}

/// An in-process bot: makes one [`PeerConn`] per connection (one per worker thread
/// that plays a match with it, as for processes).
pub trait Peer: Send + Sync {
    /// A new connection, or why none could be made.
    fn connect(&self) -> Result<Box<dyn PeerConn>, String>;
}

/// One connection of a [`Peer`]: it is handed each protocol line in turn.
pub trait PeerConn: Send {
    /// Handles `line`: `Ok(Some(answer))` for a line that needs one, `Ok(None)` for the
    /// others, `Err(text)` when the bot failed (an exception: the text says which).
    fn message(&mut self, line: &str) -> Result<Option<String>, String>;
}

/// A shared [`Peer`], comparable by identity (so that an [`super::ExternalSpec`]
/// holding one stays `Eq`).
#[derive(Clone)]
pub struct PeerRef(pub Arc<dyn Peer>);

impl PartialEq for PeerRef {
    fn eq(&self, other: &PeerRef) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for PeerRef {}

impl std::fmt::Debug for PeerRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PeerRef(in-process bot)")
    }
}

/// A [`PeerConn`] as a [`Channel`]: each line sent is handled at once and its answer
/// (or failure) queued for the next read. Reads never wait, so the timeout does not
/// apply to in-process bots.
pub struct InProcess {
    conn: Box<dyn PeerConn>,
    answers: VecDeque<Result<String, ReadError>>,
}

impl InProcess {
    /// A channel to `conn`.
    pub fn new(conn: Box<dyn PeerConn>) -> InProcess {
        InProcess { conn, answers: VecDeque::new() }
    }
}

impl Channel for InProcess {
    fn send(&mut self, line: &str) -> bool {
        match self.conn.message(line) {
            Ok(None) => {}
            Ok(Some(answer)) => self.answers.push_back(Ok(answer)),
            Err(text) => self.answers.push_back(Err(ReadError::Raised(text))),
        }
        true
    }
    fn read(&mut self, _timeout: Duration) -> Result<String, ReadError> {
        self.answers.pop_front().unwrap_or_else(|| Err(ReadError::Exited("gave no answer".into())))
    }
    fn close(mut self: Box<Self>, quit: Option<&str>) {
        if let Some(line) = quit {
            let _ = self.conn.message(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers `hello` and `decide` lines with their length; fails on `boom`.
    struct Echo;
    impl PeerConn for Echo {
        fn message(&mut self, line: &str) -> Result<Option<String>, String> {
            match line {
                "boom" => Err("ValueError: boom".into()),
                l if l.starts_with("hello") || l.starts_with("decide") => Ok(Some(l.len().to_string())),
                _ => Ok(None),
            }
        }
    }

    #[test]
    fn an_in_process_channel_answers_in_order_and_carries_failures() {
        let mut c = InProcess::new(Box::new(Echo));
        let t = Duration::from_millis(1);
        assert!(c.send("hello!"));
        assert!(c.send("match_start"));
        assert!(c.send("decide 12"));
        assert_eq!(c.read(t).unwrap(), "6");
        assert_eq!(c.read(t).unwrap(), "9", "match_start has no answer");
        assert!(matches!(c.read(t), Err(ReadError::Exited(_))), "nothing queued");
        c.send("boom");
        assert!(matches!(c.read(t), Err(ReadError::Raised(e)) if e == "ValueError: boom"));
        Box::new(c).close(Some("quit"));
    }
}
