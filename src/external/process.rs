//! One external bot process: started in its own process group with piped standard input
//! and output, read line by line on a helper thread so that every read can time out,
//! and always reaped when closed.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line read from a bot (1 MiB); a longer one is a fault.
pub const MAX_LINE: usize = 1 << 20;

/// How long a bot may take to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);

/// What reading a line from a bot gave instead of a line.
#[derive(Debug)]
pub enum ReadError {
    /// No full line within the time allowed.
    TimedOut,
    /// Its output ended; the text says how it exited, if it did.
    Exited(String),
    /// A line longer than [`MAX_LINE`]; its start.
    TooLong(String),
    /// An in-process bot failed (raised an exception); the text says how.
    Raised(String),
}

/// A running bot process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, ReadError>>,
}

impl Process {
    /// Starts `command` (program and arguments) with piped standard input and output;
    /// standard error passes through, or is appended to the file `stderr`. The child gets its own process group (a Ctrl-C at
    /// the terminal reaches only cardsim, which then stops it) and, on Linux, is killed
    /// by the kernel when the thread that started it ends (cardsim killed, or a worker
    /// pool dropped before the game that owns the process: drop the game first).
    pub fn start(command: &[String], stderr: Option<&std::path::Path>) -> std::io::Result<Process> {
        use std::os::unix::process::CommandExt;
        let (program, args) = command.split_first().ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut cmd = Command::new(program);
        let errors = match stderr {
            None => Stdio::inherit(),
            Some(path) => Stdio::from(std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(|e| std::io::Error::new(e.kind(), format!("stderr file {}: {e}", path.display())))?),
        };
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(errors).process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let got = (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf);
                let item = match got {
                    Ok(0) | Err(_) => Err(ReadError::Exited(String::new())),
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE => Err(ReadError::TooLong(String::from_utf8_lossy(&buf[..200]).into_owned())),
                    Ok(_) if buf.last() != Some(&b'\n') => Err(ReadError::Exited(String::from_utf8_lossy(&buf).into_owned())),
                    Ok(_) => Ok(String::from_utf8_lossy(&buf[..buf.len() - 1]).trim_end_matches('\r').to_string()),
                };
                let last = item.is_err();
                if tx.send(item).is_err() || last {
                    return;
                }
            }
        });
        Ok(Process { child, stdin, lines })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line (a newline is added) and flushes; `false` if the bot's input is
    /// closed (it exited).
    pub fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush()).is_ok()
    }

    /// The next line, waiting at most `timeout`.
    pub fn read(&mut self, timeout: Duration) -> Result<String, ReadError> {
        match self.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(ReadError::Exited(_))) | Err(RecvTimeoutError::Disconnected) => Err(ReadError::Exited(self.exit_text())),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::TimedOut),
        }
    }

    /// How the process ended, as far as it is known within a short wait ("exit status 1",
    /// "killed by signal 9"), or "closed its output" if it still runs.
    fn exit_text(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status_text(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".into(),
            }
        }
    }

    /// Ends the process and reaps it: with `quit`, the line `quit` is sent, standard
    /// input closed and the bot given [`QUIT_GRACE`] to exit before it is killed;
    /// without, it is killed at once.
    pub fn close(mut self, quit: Option<&str>) {
        if let Some(line) = quit {
            self.send(line);
        }
        self.stdin = None;
        if quit.is_some() {
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A readable exit status.
fn status_text(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => "exited".into(),
    }
}
