//! Event logs of single matches (`cardsim trace`), as text for people or JSON Lines
//! for programs. The schema is documented in `docs/trace-format.md`.

use serde_json::{Map, Value};
use std::io::Write;

/// One logged event of a match.
#[derive(Clone, Debug)]
pub struct TraceEvent {
    /// Simulated time in seconds (real-time games), `None` for turn-based ones.
    pub time: Option<f64>,
    /// Seat of the acting player, if one acts.
    pub seat: Option<usize>,
    /// Event kind, e.g. `play`, `reject`, `spit`, `slap`, `round_end`.
    pub kind: &'static str,
    /// Event-specific fields.
    pub detail: Map<String, Value>,
    /// One readable line describing the event.
    pub text: String,
}

/// Receives the events of a traced match.
pub trait TraceSink {
    /// Called once per event, in order.
    fn event(&mut self, ev: TraceEvent);
}

/// Output format of `cardsim trace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// Readable lines.
    Text,
    /// One JSON object per line.
    Jsonl,
}

/// Writes events to a stream in the chosen format.
pub struct StreamSink<'a> {
    out: &'a mut dyn Write,
    format: TraceFormat,
    /// The first write error, reported after the match.
    pub error: Option<std::io::Error>,
}

impl<'a> StreamSink<'a> {
    /// A sink writing to `out`.
    pub fn new(out: &'a mut dyn Write, format: TraceFormat) -> Self {
        StreamSink { out, format, error: None }
    }
}

impl TraceSink for StreamSink<'_> {
    fn event(&mut self, ev: TraceEvent) {
        if self.error.is_some() {
            return;
        }
        let res = match self.format {
            TraceFormat::Text => {
                let time = ev.time.map_or(String::new(), |t| format!("{t:>9.3}s "));
                let seat = ev.seat.map_or("   ".to_string(), |s| format!("P{s} "));
                writeln!(self.out, "{time}{seat}{:<10} {}", ev.kind, ev.text)
            }
            TraceFormat::Jsonl => {
                let mut obj = Map::new();
                if let Some(t) = ev.time {
                    obj.insert("t".into(), Value::from((t * 1e6).round() / 1e6));
                }
                obj.insert("seat".into(), ev.seat.map_or(Value::Null, Value::from));
                obj.insert("event".into(), Value::from(ev.kind));
                obj.extend(ev.detail);
                writeln!(self.out, "{}", Value::Object(obj))
            }
        };
        if let Err(e) = res {
            self.error = Some(e);
        }
    }
}

/// Collects events in memory (tests and tools).
#[derive(Default)]
pub struct VecSink(pub Vec<TraceEvent>);

impl TraceSink for VecSink {
    fn event(&mut self, ev: TraceEvent) {
        self.0.push(ev);
    }
}
