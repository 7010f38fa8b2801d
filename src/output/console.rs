//! Printing for people on standard output (or standard error) that survives a reader
//! going away: `cardsim match ... --csv o.csv | head -2` must still write `o.csv`.
//!
//! A [`Console`] remembers the first write error and drops everything printed after it,
//! so the command carries on to write its files; [`Console::finish`] then reports the
//! error, except a closed pipe (the reader had enough), which ends the command quietly
//! with exit code 0, as `head`, `grep -q` and most command-line tools expect.

use std::io::{self, Write};

/// Standard output or error, remembering its first write error instead of failing.
pub struct Console {
    inner: Box<dyn Write + Send>,
    what: &'static str,
    error: Option<io::Error>,
}

impl Console {
    /// Standard output.
    pub fn stdout() -> Console {
        Console { inner: Box::new(io::stdout()), what: "standard output", error: None }
    }
    /// Standard error (for the summary when the CSV itself goes to standard output).
    pub fn stderr() -> Console {
        Console { inner: Box::new(io::stderr()), what: "standard error", error: None }
    }
    /// Any writer (tests).
    pub fn new(inner: Box<dyn Write + Send>) -> Console {
        Console { inner, what: "output", error: None }
    }
    /// True once a write failed (later output is dropped).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }
    /// Flushes and reports: `Ok` if everything was printed or the reader closed the
    /// pipe; otherwise a one-line error.
    pub fn finish(&mut self) -> Result<(), String> {
        let _ = self.flush();
        match self.error.take() {
            Some(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("{}: {e}", self.what)),
            _ => Ok(()),
        }
    }
}

impl Write for Console {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.is_none() {
            if let Err(e) = self.inner.write_all(buf) {
                self.error = Some(e);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        if self.error.is_none() {
            if let Err(e) = self.inner.flush() {
                self.error = Some(e);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_ends_quietly_other_errors_are_reported() {
        let mut c = Console::new(Box::new(Closed));
        writeln!(c, "one").unwrap();
        writeln!(c, "two").unwrap();
        assert!(c.failed());
        assert_eq!(c.finish(), Ok(()));
        let mut c = Console::new(Box::new(Full));
        writeln!(c, "one").unwrap();
        assert!(c.finish().unwrap_err().contains("no space left"));
    }
}
