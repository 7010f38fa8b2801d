//! External bots: any program that speaks the bot protocol (docs/bot-protocol.md) on
//! its standard input and output plays as a strategy of any game.
//!
//! The pieces:
//! - [`ExternalBot`]: one `--bot exec:...` of a run: its command, the hello it is sent,
//!   and a pool of running processes ([`process::Process`]), one per worker thread
//!   that has played a match with it, reused across matches.
//! - [`ExternalBot::ask`]: what a game's strategy adapter calls for a decision (the
//!   game's `protocol.rs` turns its view and legal actions into JSON and the answer back
//!   into an action). Rules never call it; the engine asks the strategy, as for any bot.
//! - [`ExternalMatch`]: wraps a game so that each match tells its external bots
//!   `match_start` (seat and seed) and `match_end`, and turns a bot's fault into the
//!   match record's report ([`fault::Fault`] in [`IllegalChoice`]), which fails the run.
//!
//! A match runs on one thread from start to end, so the process playing it is kept in a
//! thread-local slot for the match's duration. After a fault the bot is broken: its
//! later matches are not played (the run fails on the first report anyway).

pub mod channel;
pub mod check;
pub mod fault;
pub mod process;

pub use fault::Fault;

use crate::games::TracedGame;
use crate::output::quote::clip;
use crate::rng::MatchSeeds;
use crate::runner::{Ending, IllegalChoice, MatchGame, MatchRecord, MetricDef, RateSet};
use crate::settings::Settings;
use crate::trace::TraceSink;
use channel::{Channel, InProcess, PeerRef};
use process::{Process, ReadError};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The protocol version cardsim speaks.
pub const PROTOCOL: u64 = 1;

/// The decision number of a fault report ([`IllegalChoice::index`]) for a fault in the
/// hello or at the start of a match, before any decision.
pub const HELLO: u64 = u64::MAX;

/// Default of `--bot-timeout`, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// How to run an external bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// Program and arguments.
    pub command: Vec<String>,
    /// Longest wait for one line from the bot, in milliseconds (`--bot-timeout`).
    pub timeout_ms: u64,
    /// A file the bot's standard error is appended to (a bot file's `stderr`); `None`
    /// passes it through to cardsim's.
    pub stderr: Option<std::path::PathBuf>,
    /// A file that gets every line exchanged with the bot (`cardsim bot-check --log`):
    /// `> ` before cardsim's lines, `< ` before the bot's.
    pub log: Option<std::path::PathBuf>,
    /// An in-process bot to talk to instead of starting `command` (which then only
    /// names it).
    pub peer: Option<PeerRef>,
}

impl ExternalSpec {
    /// Parses the part after `exec:` (`PATH[,ARG...]`), or says what is wrong.
    pub fn parse(text: &str) -> Result<ExternalSpec, String> {
        let command: Vec<String> = text.split(',').map(str::to_string).collect();
        if command[0].is_empty() {
            return Err("exec: needs a program, e.g. exec:examples/bots/spit_greedy.py".into());
        }
        Ok(ExternalSpec { command, timeout_ms: DEFAULT_TIMEOUT_MS, stderr: None, log: None, peer: None })
    }
}

/// Checks and converts `--bot-timeout SECONDS` to milliseconds (0.001 to 3600 s).
pub fn timeout_ms(seconds: f64) -> Result<u64, String> {
    if seconds.is_finite() && (0.001..=3600.0).contains(&seconds) {
        Ok((seconds * 1000.0).round() as u64)
    } else {
        Err(format!("--bot-timeout {seconds}: must be from 0.001 to 3600 seconds"))
    }
}

/// The decisions a game can ask an external bot, and which of them a bot may leave to
/// the built-in default (docs/bot-protocol.md section 5).
#[derive(Clone, Copy, Debug)]
pub struct Decisions {
    /// Every decision name, `move` first.
    pub all: &'static [&'static str],
    /// The optional ones.
    pub optional: &'static [&'static str],
}

/// What the bot answered to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The action with this index.
    Index(usize),
    /// Stay idle (real-time moves only).
    Idle,
    /// The bot is at fault: the adapter must stop the match (real-time moves: an action
    /// that is never legal, which the engine's check turns into a stop; other
    /// decisions: any legal answer, the next move stops).
    Stop,
}

/// Decisions asked of external bots by this process, for `cardsim bench`.
static ASKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Decisions asked of every external bot so far (all threads).
pub fn decisions_asked() -> u64 {
    ASKED.load(Ordering::Relaxed)
}

/// Counter that gives every external bot of the process its own id.
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// One external bot of a run.
pub struct ExternalBot {
    id: usize,
    spec: ExternalSpec,
    game: &'static str,
    decisions: Decisions,
    /// The hello line cardsim sends.
    hello: String,
    /// Idle processes, ready for a match.
    pool: Mutex<Vec<Conn>>,
    /// Set at the first fault: later matches are not played.
    broken: AtomicBool,
    /// The exchange log, if asked for.
    log: Option<Mutex<std::fs::File>>,
}

/// A started process (or in-process peer) and what its hello said.
struct Conn {
    process: Box<dyn Channel>,
    /// Bit `i` set: the bot answers optional decision `decisions.all[i]` itself.
    plays: u32,
}

/// The process playing a match for one bot on this thread.
struct Active {
    bot: usize,
    conn: Option<Conn>,
    seat: usize,
    /// Decisions asked in this match so far.
    n: u64,
    fault: Option<(Fault, String)>,
}

thread_local! {
    static ACTIVE: RefCell<Vec<Active>> = const { RefCell::new(Vec::new()) };
}

impl ExternalBot {
    /// The bot `label` of `spec` at a table of `players` under `settings`, for `game`
    /// with its `decisions`. Nothing is started yet.
    pub fn new(label: &str, spec: &ExternalSpec, game: &'static str, players: usize, settings: &Settings, decisions: Decisions) -> Result<Arc<ExternalBot>, String> {
        let log = match &spec.log {
            None => None,
            Some(path) => Some(Mutex::new(
                std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("--log {}: cannot write: {e}", crate::output::clip_path(path)))?,
            )),
        };
        let flags: Map<String, Value> = settings.all().map(|(k, v)| (k.to_string(), Value::from(v))).collect();
        let hello = json!({"type": "hello", "protocol": PROTOCOL, "game": game, "players": players, "flags": flags, "label": label, "decisions": decisions.all, "optional": decisions.optional});
        Ok(Arc::new(ExternalBot {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            spec: spec.clone(),
            game,
            decisions,
            hello: hello.to_string(),
            pool: Mutex::new(Vec::new()),
            broken: AtomicBool::new(false),
            log,
        }))
    }

    /// Appends a line to the exchange log, if there is one.
    fn note(&self, dir: &str, line: &str) {
        if let Some(log) = &self.log {
            use std::io::Write;
            let _ = writeln!(log.lock().expect("log"), "{dir} {line}");
        }
    }

    /// Sends a line to `p` (and logs it); false if the bot's input is closed.
    fn send(&self, p: &mut dyn Channel, line: &str) -> bool {
        self.note(">", line);
        p.send(line)
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.spec.timeout_ms)
    }

    /// Reads one line, or the fault (with its line) that happened instead.
    fn read_line(&self, p: &mut dyn Channel) -> Result<String, (Fault, String)> {
        let line = p.read(self.timeout());
        match &line {
            Ok(l) => self.note("<", l),
            Err(e) => self.note("!", &format!("{e:?}")),
        }
        line.map_err(|e| match e {
            ReadError::TimedOut => (Fault::TimedOut { ms: self.spec.timeout_ms }, String::new()),
            ReadError::Exited(how) => (Fault::Exited, how),
            ReadError::TooLong(start) => (Fault::TooLong, start),
            ReadError::Raised(text) => (Fault::Raised, text),
        })
    }

    /// Starts a process (or connects to the in-process peer) and exchanges the hellos.
    fn connect(&self) -> Result<Conn, (Fault, String)> {
        let mut process: Box<dyn Channel> = match &self.spec.peer {
            Some(peer) => Box::new(InProcess::new(peer.0.connect().map_err(|e| (Fault::CannotStart, e))?, peer.0.timed())),
            None => Box::new(Process::start(&self.spec.command, self.spec.stderr.as_deref()).map_err(|e| (Fault::CannotStart, format!("{}: {e}", self.spec.command[0])))?),
        };
        if !self.send(&mut *process, &self.hello) {
            let fault = self.read_line(&mut *process).err().unwrap_or((Fault::Exited, String::new()));
            process.close(None);
            return Err(fault);
        }
        let answer = self.read_line(&mut *process).and_then(|line| self.check_hello(&line).map_err(|f| (f, line)));
        match answer {
            Ok(plays) => Ok(Conn { process, plays }),
            Err(fault) => {
                process.close(None);
                Err(fault)
            }
        }
    }

    /// Checks a hello answer; returns its `plays` as bits over `decisions.all`.
    fn check_hello(&self, line: &str) -> Result<u32, Fault> {
        let v: Value = serde_json::from_str(line).map_err(|_| Fault::NotJson)?;
        let obj = v.as_object().ok_or(Fault::NotJson)?;
        if obj.get("type").and_then(Value::as_str) != Some("hello") || !obj.get("name").is_some_and(Value::is_string) || !obj.get("version").is_some_and(Value::is_string) {
            return Err(Fault::BadHello);
        }
        match obj.get("protocol").and_then(Value::as_u64) {
            Some(PROTOCOL) => {}
            Some(_) => return Err(Fault::WrongVersion),
            None => return Err(Fault::BadHello),
        }
        if let Some(games) = obj.get("games") {
            let games = games.as_array().ok_or(Fault::BadHello)?;
            if !games.iter().any(|g| g.as_str() == Some(self.game)) {
                return Err(Fault::DoesNotPlay);
            }
        }
        let mut bits = 0;
        match obj.get("plays") {
            None | Some(Value::Null) => {}
            Some(Value::Array(names)) => {
                for name in names {
                    let name = name.as_str().filter(|n| self.decisions.optional.contains(n)).ok_or(Fault::UnknownDecision)?;
                    bits |= 1 << self.decisions.all.iter().position(|d| *d == name).expect("an optional decision is a decision");
                }
            }
            Some(_) => return Err(Fault::BadHello),
        }
        Ok(bits)
    }

    /// Runs `f` on this thread's active entry of this bot (a strategy of a bot is asked
    /// only inside a match that [`ExternalMatch`] started).
    fn with_active<T>(&self, f: impl FnOnce(&mut Active) -> T) -> T {
        ACTIVE.with(|a| {
            let mut a = a.borrow_mut();
            let entry = a.iter_mut().find(|e| e.bot == self.id).expect("an external bot is asked only inside a match (ExternalMatch)");
            f(entry)
        })
    }

    /// True if the bot answers optional decision `decision` itself (false once it is at
    /// fault: the built-in default then answers, and the next move stops the match).
    pub fn plays(&self, decision: &str) -> bool {
        let i = self.decisions.all.iter().position(|d| *d == decision).expect("a decision of the game");
        self.with_active(|e| e.fault.is_none() && e.conn.as_ref().is_some_and(|c| c.plays >> i & 1 == 1))
    }

    /// Asks decision `decision` on `view` with the legal `actions` (each an object with
    /// its fields and `text`; the index is added here, in order). `idle_ok`: the answer
    /// may be `null` (stay idle).
    pub fn ask(&self, decision: &'static str, view: Value, mut actions: Vec<Value>, idle_ok: bool) -> Answer {
        self.with_active(|e| {
            if e.fault.is_some() {
                return Answer::Stop;
            }
            let n = e.n;
            e.n += 1;
            ASKED.fetch_add(1, Ordering::Relaxed);
            for (i, a) in actions.iter_mut().enumerate() {
                if let Value::Object(m) = a {
                    m.insert("index".into(), json!(i));
                }
            }
            let offered = actions.len();
            let msg = json!({"type": "decide", "decision": decision, "n": n, "view": view, "actions": actions}).to_string();
            let conn = e.conn.as_mut().expect("a match without a fault has a process");
            let answer = if self.send(&mut *conn.process, &msg) { self.read_line(&mut *conn.process) } else { Err((Fault::Exited, String::new())) };
            let answer = answer.and_then(|line| parse_answer(&line, offered, idle_ok).map_err(|f| (f, line)));
            match answer {
                Ok(a) => a,
                Err(fault) => {
                    e.fault = Some(fault);
                    Answer::Stop
                }
            }
        })
    }

    /// A move of a real-time game: the action of `legal` the bot picks (each written by
    /// `action`), `None` to stay idle, or `stop` (never legal) after a fault, which the
    /// engine's legality check turns into the end of the match.
    pub fn choose_move<A: Copy>(&self, view: Value, legal: &[A], action: impl Fn(A) -> Value, stop: A) -> Option<A> {
        match self.ask("move", view, legal.iter().map(|&a| action(a)).collect(), true) {
            Answer::Index(i) => Some(legal[i]),
            Answer::Idle => None,
            Answer::Stop => Some(stop),
        }
    }

    /// Starts this bot's part of a match in `seat` with `seed`: a process from the pool
    /// (or a new one) becomes this thread's active one and is told `match_start`.
    fn begin(&self, seat: usize, seed: u64) {
        let pooled = self.pool.lock().expect("pool").pop();
        let (conn, mut fault) = match pooled.map_or_else(|| self.connect(), Ok) {
            Ok(c) => (Some(c), None),
            Err(f) => (None, Some(f)),
        };
        let mut conn = conn;
        if let Some(c) = conn.as_mut() {
            if !self.send(&mut *c.process, &json!({"type": "match_start", "seat": seat, "seed": seed}).to_string()) {
                fault = Some((Fault::Exited, String::new()));
            }
        }
        ACTIVE.with(|a| a.borrow_mut().push(Active { bot: self.id, conn, seat, n: 0, fault }));
    }

    /// True if this bot's part of the match on this thread is at fault.
    fn faulted(&self) -> bool {
        self.with_active(|e| e.fault.is_some())
    }

    /// Ends this bot's part of the match: tells it `match_end` and returns its process
    /// to the pool, or, after a fault, stops the process, marks the bot broken and
    /// returns the report.
    fn end(&self, rec: &MatchRecord, seats: usize, points: bool) -> Option<IllegalChoice> {
        let e = ACTIVE.with(|a| {
            let mut a = a.borrow_mut();
            let i = a.iter().position(|e| e.bot == self.id).expect("begun");
            a.swap_remove(i)
        });
        match e.fault {
            None => {
                let mut conn = e.conn.expect("a match without a fault has a process");
                let ending = match rec.ending {
                    Ending::Finished => "finished",
                    Ending::Capped => "capped",
                    Ending::Cycled => "cycled",
                };
                let mut msg = json!({"type": "match_end", "seat": e.seat, "ending": ending, "winner": rec.winner, "won": rec.won(e.seat)});
                if points {
                    msg["points"] = json!(rec.points[..seats]);
                }
                if self.send(&mut *conn.process, &msg.to_string()) {
                    self.pool.lock().expect("pool").push(conn);
                } else {
                    conn.process.close(None);
                }
                None
            }
            Some((fault, line)) => {
                if let Some(c) = e.conn {
                    c.process.close(None);
                }
                self.broken.store(true, Ordering::SeqCst);
                // A fault before the first decision happened in the hello or at match_start.
                let index = if e.n == 0 { HELLO } else { e.n - 1 };
                let mut report = IllegalChoice::new(e.seat, index, clip(&line));
                report.fault = Some(fault);
                Some(report)
            }
        }
    }
}

impl Drop for ExternalBot {
    /// Sends `quit` to every pooled process and reaps it.
    fn drop(&mut self) {
        let conns = std::mem::take(&mut *self.pool.lock().unwrap_or_else(|e| e.into_inner()));
        let quit = json!({"type": "quit"}).to_string();
        for _ in &conns {
            self.note(">", &quit);
        }
        // Close them side by side: each may take up to the grace period.
        std::thread::scope(|s| {
            for c in conns {
                let quit = &quit;
                s.spawn(move || c.process.close(Some(quit)));
            }
        });
    }
}

/// Parses an answer line against `offered` actions.
fn parse_answer(line: &str, offered: usize, idle_ok: bool) -> Result<Answer, Fault> {
    let v: Value = serde_json::from_str(line).map_err(|_| Fault::NotJson)?;
    let index = v.as_object().ok_or(Fault::NotJson)?.get("index").ok_or(Fault::NoIndex)?;
    match index {
        Value::Null if idle_ok => Ok(Answer::Idle),
        Value::Null => Err(Fault::IdleNotAllowed),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(i), _) if (i as usize) < offered => Ok(Answer::Index(i as usize)),
            (Some(_), _) | (None, Some(_)) => Err(Fault::OutOfRange { offered: offered as u32 }),
            _ => Err(Fault::NoIndex),
        },
        _ => Err(Fault::NoIndex),
    }
}

/// The start of the one-line report of a bot's fault `fault` in `c`: `bot 'LABEL' (seat S)
/// WHAT at its start (hello)` or `... at its decision K of the match`.
pub fn fault_words(label: &str, c: &IllegalChoice, fault: Fault) -> String {
    let at = if c.index == HELLO { "at its start (hello)".to_string() } else { format!("at its decision {} of the match", c.index) };
    format!("bot '{label}' (seat {}) {} {at}", c.seat, fault.describe())
}

/// The offending line of a fault report as the report quotes it: `'LINE'`, or `(none)`.
pub fn fault_line(c: &IllegalChoice) -> String {
    if c.action.is_empty() { "(none)".to_string() } else { format!("'{}'", c.action) }
}

/// The external bots of a table, by bot index (`None` for built-in strategies).
pub type Externals = Vec<Option<Arc<ExternalBot>>>;

/// The external bots among `specs` (labels and commands), for `game` at a table under
/// `settings` that asks `decisions`.
pub fn externals(specs: &[crate::bot::BotSpec], game: &'static str, settings: &Settings, decisions: Decisions) -> Result<Externals, String> {
    specs.iter().map(|b| b.external.as_ref().map(|e| ExternalBot::new(&b.label, e, game, specs.len(), settings, decisions)).transpose()).collect()
}

/// `game` as is when no bot is external, else wrapped in an [`ExternalMatch`].
pub fn wrap(game: Box<dyn TracedGame>, externals: Externals) -> Box<dyn TracedGame> {
    if externals.iter().all(Option::is_none) { game } else { Box::new(ExternalMatch { inner: game, externals }) }
}

/// A game with external bots: every match starts and ends their processes' matches.
pub struct ExternalMatch {
    inner: Box<dyn TracedGame>,
    externals: Externals,
}

impl ExternalMatch {
    /// Plays one match with `play`, between `match_start` and `match_end` for every
    /// external bot seated ([`around`]).
    fn around(&self, seat_bots: &[usize], seeds: &MatchSeeds, play: impl FnOnce() -> MatchRecord) -> MatchRecord {
        let seated: Vec<(usize, &ExternalBot)> = seat_bots.iter().enumerate().filter_map(|(s, &b)| self.externals[b].as_deref().map(|x| (s, x))).collect();
        around(&seated, seat_bots.len(), self.inner.end_points(), seeds, play)
    }
}

/// Plays one match with `play`, between `match_start` and `match_end` for every
/// external bot of `seated` (its seat, the bot) at a table of `seats` (`points`: the
/// record carries points for `match_end`, [`MatchGame::end_points`]). A fault stops
/// the match (capped, no winner) and its report is the record's `illegal`, overriding
/// the engine's stop report. A match with a bot that an earlier match broke is not
/// played (capped, no report: that match's report fails the run).
pub fn around(seated: &[(usize, &ExternalBot)], seats: usize, points: bool, seeds: &MatchSeeds, play: impl FnOnce() -> MatchRecord) -> MatchRecord {
    if seated.iter().any(|(_, x)| x.broken.load(Ordering::SeqCst)) {
        return MatchRecord { ending: Ending::Capped, ..MatchRecord::default() };
    }
    for &(seat, x) in seated {
        x.begin(seat, seeds.bot_seed(seat));
    }
    let mut rec = if seated.iter().any(|(_, x)| x.faulted()) { MatchRecord { ending: Ending::Capped, ..MatchRecord::default() } } else { play() };
    let mut report = None;
    for &(_, x) in seated {
        if let Some(r) = x.end(&rec, seats, points) {
            report.get_or_insert(r);
        }
    }
    if report.is_some() {
        rec.illegal = report;
        rec.ending = Ending::Capped;
        rec.winner = None;
    }
    rec
}

impl MatchGame for ExternalMatch {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn seats(&self) -> usize {
        self.inner.seats()
    }
    fn metrics(&self) -> &'static [MetricDef] {
        self.inner.metrics()
    }
    fn reports_points(&self) -> bool {
        self.inner.reports_points()
    }
    fn end_points(&self) -> bool {
        self.inner.end_points()
    }
    fn rates(&self) -> Option<&'static RateSet> {
        self.inner.rates()
    }
    fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
        self.around(seat_bots, seeds, || self.inner.play(seat_bots, seeds))
    }
}

impl TracedGame for ExternalMatch {
    fn trace(&self, seat_bots: &[usize], seeds: &MatchSeeds, sink: &mut dyn TraceSink) -> MatchRecord {
        self.around(seat_bots, seeds, || self.inner.trace(seat_bots, seeds, sink))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}
