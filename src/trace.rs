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

/// Which events of a match `cardsim trace` prints (`--deal`, `--seat`).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct TraceFilter {
    /// Only the events of the match's deal K (counted from 0): from its `deal` event to
    /// the next one (a Nerts match plays deals until a team reaches the target, a Spit
    /// match rounds, a Speed or Lopti match one). The `match_start` and `match_end`
    /// events are always printed.
    #[arg(long = "deal", value_name = "K")]
    pub deal: Option<u64>,
    /// Only the events of seat S and those of the table (events with no seat, and the
    /// ends of deals, rounds and the match).
    #[arg(long = "seat", value_name = "S")]
    pub seat: Option<usize>,
}

/// What a [`FilterSink`] counts as a unit of a trace and which events belong to the
/// whole table: a match's deals, or a Lopti session's rounds.
#[derive(Clone, Copy, Debug)]
pub struct TraceScope {
    /// The event that starts a unit (`--deal K` keeps the K-th unit, from 0).
    pub unit: &'static str,
    /// Events printed whatever the unit (the trace's start and end).
    pub always: &'static [&'static str],
    /// Events kept by `--seat` even when a seat is named in them (a deal's caller, a
    /// round's winner).
    pub table: &'static [&'static str],
}

/// The scope of a match trace (`cardsim trace`): its deals.
pub const MATCH_SCOPE: TraceScope =
    TraceScope { unit: "deal", always: &["match_start", "match_end"], table: &["match_start", "deal", "deal_end", "round_end", "match_end"] };

/// A sink passing on the events a [`TraceFilter`] keeps.
pub struct FilterSink<'a> {
    inner: &'a mut dyn TraceSink,
    filter: TraceFilter,
    scope: TraceScope,
    /// Units (deals, or rounds) started so far.
    pub deals: u64,
}

impl<'a> FilterSink<'a> {
    /// A sink keeping the events of `filter` of a match trace, passing them to `inner`.
    pub fn new(inner: &'a mut dyn TraceSink, filter: TraceFilter) -> Self {
        FilterSink::scoped(inner, filter, MATCH_SCOPE)
    }
    /// The same for a trace whose units and table events `scope` names.
    pub fn scoped(inner: &'a mut dyn TraceSink, filter: TraceFilter, scope: TraceScope) -> Self {
        FilterSink { inner, filter, scope, deals: 0 }
    }
}

impl TraceSink for FilterSink<'_> {
    fn event(&mut self, ev: TraceEvent) {
        if ev.kind == self.scope.unit {
            self.deals += 1;
        }
        let in_deal = match self.filter.deal {
            None => true,
            Some(k) => self.scope.always.contains(&ev.kind) || self.deals == k + 1,
        };
        let in_seat = match (self.filter.seat, ev.seat) {
            (Some(want), Some(seat)) => seat == want || self.scope.table.contains(&ev.kind),
            _ => true,
        };
        if in_deal && in_seat {
            self.inner.event(ev);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: &'static str, seat: Option<usize>) -> TraceEvent {
        TraceEvent { time: None, seat, kind, detail: Map::new(), text: String::new() }
    }

    /// A match of two deals: start, deal 0 (seat 0 plays, seat 1 plays, seat 1 ends it),
    /// deal 1 (seat 0 plays, a stall), end.
    fn events() -> Vec<TraceEvent> {
        vec![
            ev("match_start", None),
            ev("deal", None),
            ev("play", Some(0)),
            ev("play", Some(1)),
            ev("deal_end", Some(1)),
            ev("deal", None),
            ev("play", Some(0)),
            ev("stall", None),
            ev("match_end", None),
        ]
    }

    fn kept(filter: TraceFilter) -> (Vec<(&'static str, Option<usize>)>, u64) {
        let mut out = VecSink::default();
        let mut sink = FilterSink::new(&mut out, filter);
        for e in events() {
            sink.event(e);
        }
        let deals = sink.deals;
        (out.0.iter().map(|e| (e.kind, e.seat)).collect(), deals)
    }

    #[test]
    fn deal_keeps_that_deal_and_the_match_ends() {
        let (k, deals) = kept(TraceFilter { deal: Some(1), seat: None });
        assert_eq!(k, [("match_start", None), ("deal", None), ("play", Some(0)), ("stall", None), ("match_end", None)]);
        assert_eq!(deals, 2);
        let (k, _) = kept(TraceFilter { deal: Some(0), seat: None });
        assert_eq!(k, [("match_start", None), ("deal", None), ("play", Some(0)), ("play", Some(1)), ("deal_end", Some(1)), ("match_end", None)]);
        let (k, _) = kept(TraceFilter { deal: Some(2), seat: None });
        assert_eq!(k, [("match_start", None), ("match_end", None)]);
    }

    #[test]
    fn seat_keeps_its_events_and_the_tables() {
        let (k, _) = kept(TraceFilter { deal: None, seat: Some(0) });
        assert_eq!(k, [("match_start", None), ("deal", None), ("play", Some(0)), ("deal_end", Some(1)), ("deal", None), ("play", Some(0)), ("stall", None), ("match_end", None)]);
        let (k, _) = kept(TraceFilter { deal: Some(0), seat: Some(1) });
        assert_eq!(k, [("match_start", None), ("deal", None), ("play", Some(1)), ("deal_end", Some(1)), ("match_end", None)]);
        assert_eq!(kept(TraceFilter::default()).0.len(), events().len(), "no filter keeps everything");
    }
}
