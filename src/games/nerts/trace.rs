//! Turns Nerts' engine and match events into trace events (docs/nerts.md lists the
//! kinds and their fields). The `deal` event carries every layout as dealt (Nerts pile
//! bottom to top, work piles, stock top first), so a program can replay the match from
//! the trace alone with the actions and their landing times.

use super::game::NertsEvent;
use super::rules::{DealEnd, NertsAction, Source};
use super::state::{value_name, Layout, NertsState, WorkPile, NONE};
use crate::realtime::{EngineEvent, EngineObserver, MatchObserver, Micros};
use crate::trace::{TraceEvent, TraceSink};
use serde_json::{json, Map, Value};

/// Writes every event of a Nerts match to a sink.
pub struct NertsTracer<'a> {
    sink: &'a mut dyn TraceSink,
    /// Each layout's waste size at the last event: a stock flip turned the cards above it.
    waste_len: Vec<u8>,
}

impl<'a> NertsTracer<'a> {
    /// A tracer writing to `sink`.
    pub fn new(sink: &'a mut dyn TraceSink) -> Self {
        NertsTracer { sink, waste_len: Vec::new() }
    }

    /// The cards a stock flip of `player` just turned, bottom first (the last is the
    /// new waste top).
    fn turned(&self, player: usize, s: &NertsState) -> Vec<String> {
        let d = s.layout_of[player] as usize;
        let waste = s.layouts()[d].waste();
        let before = self.waste_len.get(d).map_or(0, |&n| n as usize).min(waste.len());
        names(&waste[before..])
    }

    fn emit(&mut self, time: Micros, seat: Option<usize>, kind: &'static str, detail: Value, text: String, s: &NertsState) {
        let mut map = match detail {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let nerts: Vec<u8> = s.layouts().iter().map(|l| l.nerts_len).collect();
        map.insert("nerts_left".into(), json!(nerts));
        map.insert("foundation_cards".into(), json!(s.found.cards()));
        let suffix = format!("  | nerts {nerts:?} found {}", s.found.cards());
        self.sink.event(TraceEvent { time: Some(time as f64 / 1e6), seat, kind, detail: map, text: text + &suffix });
        self.waste_len.clear();
        self.waste_len.extend(s.layouts().iter().map(|l| l.waste().len() as u8));
    }
}

fn names(cards: &[u8]) -> Vec<String> {
    cards.iter().map(|&v| value_name(v)).collect()
}

/// The names of a work pile's cards, base first.
fn pile_names(w: &WorkPile) -> Vec<String> {
    w.iter().map(value_name).collect()
}

fn source(from: Source) -> Value {
    match from {
        Source::Nerts => json!("nerts"),
        Source::Waste => json!("waste"),
        Source::Work { pile, depth } => json!({"work": pile, "depth": depth}),
    }
}

fn source_text(from: Source) -> String {
    match from {
        Source::Nerts => "Nerts top".into(),
        Source::Waste => "waste top".into(),
        Source::Work { pile, depth } => format!("work {pile} from depth {depth}"),
    }
}

fn decl_name(v: u8) -> Value {
    if v == NONE { Value::Null } else { json!(value_name(v)) }
}

/// The action's kind (NERTS-RT-3), its fields and a short text.
pub(super) fn describe(a: NertsAction) -> (&'static str, Value, String) {
    match a {
        NertsAction::ToFoundation { from, card } => {
            ("to_foundation", json!({"action": "to_foundation", "from": source(from), "card": card.name()}), format!("{} ({}) to a foundation", card.name(), source_text(from)))
        }
        NertsAction::Build { from, to, decl } => (
            if matches!(from, Source::Work { .. }) { "stack_move" } else { "to_work" },
            json!({"action": "build", "from": source(from), "to": to, "joker": decl_name(decl.joker), "cover": if decl.cover == NONE { Value::Null } else { json!(decl.cover) }}),
            format!("{} onto work {to}", source_text(from)),
        ),
        NertsAction::Fill { from, to } => ("fill_empty", json!({"action": "fill", "from": source(from), "to": to}), format!("{} into empty slot {to}", source_text(from))),
        NertsAction::SlipUnder { from, pile, decl } => {
            ("slip_under", json!({"action": "slip_under", "from": source(from), "pile": pile, "joker": decl_name(decl.joker)}), format!("{} under work {pile}", source_text(from)))
        }
        NertsAction::FlipNerts => ("flip_n", json!({"action": "flip_n"}), "turns the next Nerts card".into()),
        NertsAction::FlipStock => ("flip3", json!({"action": "flip3"}), "turns a packet of the stock".into()),
        NertsAction::Recycle => ("recycle", json!({"action": "recycle"}), "turns the waste over".into()),
        NertsAction::Rotate => ("rotate", json!({"action": "rotate"}), "stock top to the bottom".into()),
        NertsAction::CallNerts => ("call", json!({"action": "call"}), "Nerts!".into()),
    }
}

fn layout_json(l: &Layout) -> Value {
    json!({
        "nerts": names(&l.nerts[..l.nerts_len as usize]),
        "work": l.work.iter().map(pile_names).collect::<Vec<_>>(),
        "stock": names(l.stock()),
        "waste": names(l.waste()),
    })
}

fn layout_text(s: &NertsState, d: usize) -> String {
    let l = &s.layouts[d];
    let work: Vec<String> = l.work.iter().map(|w| pile_names(w).join(" ")).collect();
    format!("layout {d} (seats {:?}): nerts top {} ({} cards) work [{}] stock {}", s.seats_of(d).collect::<Vec<_>>(), l.nerts_top().map_or("-".into(), value_name), l.nerts_len, work.join(" | "), l.stock_len())
}

impl EngineObserver<NertsState, NertsAction> for NertsTracer<'_> {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<NertsAction>, s: &NertsState) {
        match ev {
            EngineEvent::Start { player, action, lands, options } => {
                let (kind, mut d, text) = describe(action);
                d["lands"] = json!(lands as f64 / 1e6);
                d["options"] = json!(options);
                let text = format!("starts {kind}: {text}, lands at {:.3}s ({options} options)", lands as f64 / 1e6);
                self.emit(t, Some(player), "start", d, text, s);
            }
            EngineEvent::Landed { player, action } => {
                let (kind, mut d, mut text) = describe(action);
                if action == NertsAction::FlipStock {
                    let turned = self.turned(player, s);
                    text = format!("turns {} from the stock: {} (the last on top)", turned.len(), turned.join(" "));
                    d["turned"] = json!(turned);
                }
                self.emit(t, Some(player), kind, d, text, s);
            }
            EngineEvent::Rejected { player, action } => {
                let (_, d, text) = describe(action);
                self.emit(t, Some(player), "reject", d, format!("too late: {text}"), s);
            }
            EngineEvent::Returned { player, action } => {
                let (_, d, text) = describe(action);
                self.emit(t, Some(player), "return", d, format!("back in place: {text}"), s);
            }
            EngineEvent::Aborted { player, action, back } => {
                let (_, mut d, text) = describe(action);
                d["back"] = json!(back as f64 / 1e6);
                self.emit(t, Some(player), "abort", d, format!("calls off {text}"), s);
            }
            EngineEvent::Cancelled { player, action } => {
                let (_, d, text) = describe(action);
                self.emit(t, Some(player), "cancel", d, format!("called off: {text}"), s);
            }
            EngineEvent::Stalled => self.emit(t, None, "stall", json!({}), "everyone is stuck or the deal is over".into(), s),
            EngineEvent::Synchronised => {
                let stocks: Vec<Vec<String>> = s.layouts().iter().map(|l| names(l.stock())).collect();
                self.emit(t, None, "reset", json!({"resets": s.resets, "stocks": stocks}), format!("global reset {}: every stock re-formed", s.resets), s)
            }
            EngineEvent::LivenessViolation { player } => self.emit(t, Some(player), "liveness_violation", json!({}), "idle with a progress action".into(), s),
        }
    }
}

impl MatchObserver<NertsState, NertsAction, NertsEvent> for NertsTracer<'_> {
    fn on_match_event(&mut self, t: Micros, ev: NertsEvent, s: &NertsState) {
        match ev {
            NertsEvent::Deal { deal } => {
                let layouts: Vec<Value> = s.layouts().iter().map(layout_json).collect();
                let seats: Vec<u8> = s.layout_of[..s.players as usize].to_vec();
                let teams: Vec<u8> = s.team_of[..s.n_layouts as usize].to_vec();
                let totals = &s.totals[..s.teams as usize];
                let d = json!({"deal": deal, "layouts": layouts, "layout_of_seat": seats, "team_of_layout": teams, "totals": totals});
                let mut text = format!("deal {deal}: totals {totals:?}");
                for l in 0..s.n_layouts as usize {
                    text += &format!("\n    {}", layout_text(s, l));
                }
                self.emit(t, None, "deal", d, text, s);
            }
            NertsEvent::DealEnd { end, scores } => {
                let teams = s.teams as usize;
                let (reason, caller) = match end {
                    Some(DealEnd::Called(p)) => ("called", Some(p)),
                    Some(DealEnd::StuckAfterReset) => ("stuck_after_reset", None),
                    Some(DealEnd::ResetLimit) => ("reset_limit", None),
                    None => ("capped", None),
                };
                let d = json!({"reason": reason, "caller": caller, "scores": &scores[..teams], "resets": s.resets});
                self.emit(t, caller, "deal_end", d, format!("deal over: {reason}; scores {:?}", &scores[..teams]), s);
            }
            NertsEvent::MatchEnd { winner, capped, totals } => {
                let teams = s.teams as usize;
                // Without teams each seat is its own team, numbered as the seat.
                let with_teams = teams < s.players as usize;
                let text = match (winner, capped) {
                    (_, true) => "match capped".to_string(),
                    (Some(w), _) if with_teams => {
                        let seats: Vec<usize> = (0..s.players as usize).filter(|&p| s.team_of[s.layout_of[p] as usize] as usize == w).collect();
                        format!("team {w} (seats {seats:?}) wins, team totals {:?}", &totals[..teams])
                    }
                    (Some(w), _) => format!("P{w} wins, totals {:?}", &totals[..teams]),
                    (None, _) => "no winner".to_string(),
                };
                self.emit(t, None, "match_end", json!({"winner_team": winner, "capped": capped, "totals": &totals[..teams]}), text, s);
            }
        }
    }
}
