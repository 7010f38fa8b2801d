//! What an [`super::ExternalBot`] talks to: a line channel, either a child process
//! ([`super::process::Process`]) or an in-process peer ([`Peer`], e.g. a Python object
//! of the Python package), which receives exactly the protocol's lines and answers the
//! ones that need an answer (`hello`, `decide`).

use super::process::{Process, ReadError};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// Whether `--bot-timeout` applies to its answers (default: yes). A peer that waits
    /// for someone on purpose (a learning environment's seat, answered by the caller of
    /// its `step()`) says no.
    fn timed(&self) -> bool {
        true
    }
}

/// One connection of a [`Peer`]: it is handed each protocol line in turn.
pub trait PeerConn: Send {
    /// Handles `line`: `Ok(Some(answer))` for a line that needs one, `Ok(None)` for the
    /// others, `Err(text)` when the bot failed (an exception: the text says which).
    fn message(&mut self, line: &str) -> Result<Option<String>, String>;
    /// [`PeerConn::message`] with the time the bot took to answer, which
    /// `--bot-timeout` is checked against. By default the whole call. A connection whose
    /// calls first wait for a lock that other bots' calls hold too (the Python package's
    /// global interpreter lock, which serialises the bots of parallel matches) starts
    /// the clock once it holds the lock, so that one bot's work is never charged to
    /// another's answer.
    fn timed_message(&mut self, line: &str) -> (Result<Option<String>, String>, Duration) {
        let start = Instant::now();
        let answer = self.message(line);
        (answer, start.elapsed())
    }
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
/// (or failure) queued for the next read, with the time the peer took to give it. A
/// call cannot be interrupted, so the timeout applies when the answer is read: one that
/// took longer is a time-out (unless the peer is not `timed`, [`Peer::timed`]).
pub struct InProcess {
    conn: Box<dyn PeerConn>,
    timed: bool,
    answers: VecDeque<(Result<String, ReadError>, Duration)>,
}

impl InProcess {
    /// A channel to `conn`; `timed`: the timeout of [`Channel::read`] applies.
    pub fn new(conn: Box<dyn PeerConn>, timed: bool) -> InProcess {
        InProcess { conn, timed, answers: VecDeque::new() }
    }
}

impl Channel for InProcess {
    fn send(&mut self, line: &str) -> bool {
        let (answer, took) = self.conn.timed_message(line);
        let answer = match answer {
            Ok(None) => return true,
            Ok(Some(answer)) => Ok(answer),
            Err(text) => Err(ReadError::Raised(text)),
        };
        self.answers.push_back((answer, took));
        true
    }
    fn read(&mut self, timeout: Duration) -> Result<String, ReadError> {
        match self.answers.pop_front() {
            None => Err(ReadError::Exited("gave no answer".into())),
            Some((Ok(_), took)) if self.timed && took > timeout => Err(ReadError::TimedOut),
            Some((answer, _)) => answer,
        }
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
        let mut c = InProcess::new(Box::new(Echo), true);
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

    /// Answers after `ms` milliseconds of work.
    struct Slow(u64);
    impl PeerConn for Slow {
        fn message(&mut self, _: &str) -> Result<Option<String>, String> {
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(self.0) {
                std::hint::spin_loop();
            }
            Ok(Some("late".into()))
        }
    }

    /// Waits `ms` milliseconds for a lock before answering at once, and says so: the
    /// wait is not its own time.
    struct Queued(u64);
    impl PeerConn for Queued {
        fn message(&mut self, _: &str) -> Result<Option<String>, String> {
            Ok(Some("prompt".into()))
        }
        fn timed_message(&mut self, line: &str) -> (Result<Option<String>, String>, Duration) {
            Slow(self.0).message(line).unwrap();
            let start = Instant::now();
            let answer = self.message(line);
            (answer, start.elapsed())
        }
    }

    #[test]
    fn the_timeout_applies_to_the_time_the_peer_says_it_took() {
        let mut queued = InProcess::new(Box::new(Queued(20)), true);
        queued.send("decide");
        assert_eq!(queued.read(Duration::from_millis(5)).unwrap(), "prompt", "20 ms in the queue, none of its own");
    }

    #[test]
    fn an_answer_that_took_longer_than_the_timeout_is_a_time_out_unless_the_peer_is_untimed() {
        let mut timed = InProcess::new(Box::new(Slow(20)), true);
        timed.send("decide");
        timed.send("decide");
        assert!(matches!(timed.read(Duration::from_millis(5)), Err(ReadError::TimedOut)));
        assert_eq!(timed.read(Duration::from_secs(60)).unwrap(), "late", "within a longer timeout");
        let mut untimed = InProcess::new(Box::new(Slow(20)), false);
        untimed.send("decide");
        assert_eq!(untimed.read(Duration::from_millis(5)).unwrap(), "late");
    }
}
