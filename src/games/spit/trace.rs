//! Turns Spit's engine and match events into trace events (docs/trace-format.md).

use super::config::SpitConfig;
use super::game::{RoundEndReason, SpitEvent};
use super::rules::SpitAction;
use super::state::SpitState;
use crate::cards::{Card, CardSet};
use crate::realtime::{EngineEvent, EngineObserver, Micros};
use crate::trace::{TraceEvent, TraceSink};
use serde_json::{json, Map, Value};

/// Writes every event of a Spit match to a sink.
pub struct SpitTracer<'a> {
    sink: &'a mut dyn TraceSink,
    cfg: SpitConfig,
    /// The state after the previous event, to name the cards a spit revealed.
    prev: SpitState,
}

impl<'a> SpitTracer<'a> {
    /// A tracer writing to `sink`.
    pub fn new(sink: &'a mut dyn TraceSink, cfg: SpitConfig) -> Self {
        SpitTracer { sink, cfg, prev: SpitState::EMPTY }
    }

    fn emit(&mut self, time: Micros, seat: Option<usize>, kind: &'static str, detail: Value, text: String, s: &SpitState) {
        let mut map = match detail {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        map.insert("pile_tops".into(), json!([top_name(s, 0), top_name(s, 1)]));
        map.insert("pile_sizes".into(), json!([s.piles[0].len(), s.piles[1].len()]));
        let tops = format!("  | piles {} {}", top_text(s, 0), top_text(s, 1));
        self.sink.event(TraceEvent { time: Some(time as f64 / 1e6), seat, kind, detail: map, text: text + &tops });
        self.prev = *s;
    }

    /// Player `p`'s stockpiles as dealt: per slot the face-down count and the face-up
    /// card, and the spit cards.
    fn layout_json(&self, s: &SpitState, p: usize) -> Value {
        let me = &s.players[p];
        let slots: Vec<Value> = me.slots[..self.cfg.slots as usize].iter().map(|x| json!({"down": x.down, "up": name(x.up)})).collect();
        json!({"seat": p, "slots": slots, "spit": me.spit})
    }

    /// The spit cards laid at a synchronised spit, in the order they were laid (a later
    /// card on the same pile covers the earlier one): found by comparing with the state
    /// before it.
    fn spits(&self, s: &SpitState) -> Vec<Value> {
        let mut laid: Vec<(usize, usize, Card)> = Vec::new();
        for p in 0..2 {
            if let Some(c) = CardSet(self.prev.players[p].hidden.0 & !s.players[p].hidden.0).iter().next() {
                let pile = (0..2).find(|&j| s.piles[j].cards.contains(c)).expect("a spit card lands on a spit pile");
                laid.push((p, pile, c));
            }
        }
        // Two cards on one pile: the one on top was laid last.
        if laid.len() == 2 && laid[0].1 == laid[1].1 && s.piles[laid[0].1].top == Some(laid[0].2) {
            laid.swap(0, 1);
        }
        laid.iter().map(|&(p, pile, c)| json!({"seat": p, "pile": pile, "card": c.name()})).collect()
    }

    fn layout(&self, s: &SpitState, p: usize) -> String {
        let me = &s.players[p];
        let slots: Vec<String> = me.slots[..self.cfg.slots as usize]
            .iter()
            .map(|x| match x.up {
                Some(c) => format!("{}+{}", x.down, c.name()),
                None if x.down > 0 => format!("{}+?", x.down - 1),
                None => "-".into(),
            })
            .collect();
        format!("[{}] spit {}", slots.join(" "), me.spit)
    }
}

fn name(c: Option<Card>) -> Value {
    c.map_or(Value::Null, |c| Value::from(c.name()))
}

fn top_name(s: &SpitState, j: usize) -> Value {
    if s.active[j] { name(s.piles[j].top) } else { Value::Null }
}

fn top_text(s: &SpitState, j: usize) -> String {
    match (s.active[j], s.piles[j].top) {
        (true, Some(c)) => format!("{}({})", c.name(), s.piles[j].len()),
        _ => "--".into(),
    }
}

/// The action's kind, its card and its fields.
pub(super) fn describe(a: SpitAction, card: Option<Card>) -> (&'static str, Value, String) {
    let c = card.map_or("?".to_string(), |c| c.name());
    match a {
        SpitAction::Play { slot, pile } => ("play", json!({"action": "play", "slot": slot, "pile": pile, "card": name(card)}), format!("{c} from slot {slot} to pile {pile}")),
        SpitAction::Flip { slot } => ("flip", json!({"action": "flip", "slot": slot, "card": name(card)}), format!("slot {slot} turns up {c}")),
        SpitAction::Fill { from, to } => ("fill", json!({"action": "fill", "from": from, "to": to, "card": name(card)}), format!("{c} from slot {from} to empty slot {to}")),
    }
}

impl EngineObserver<SpitState, SpitAction> for SpitTracer<'_> {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<SpitAction>, s: &SpitState) {
        let placed = |p: usize, a: SpitAction| match a {
            SpitAction::Play { pile, .. } => s.piles[pile as usize].top,
            SpitAction::Flip { slot } => s.players[p].slots[slot as usize].up,
            SpitAction::Fill { to, .. } => s.players[p].slots[to as usize].up,
        };
        let source = |p: usize, a: SpitAction| match a {
            SpitAction::Play { slot, .. } | SpitAction::Fill { from: slot, .. } => s.players[p].slots[slot as usize].up,
            SpitAction::Flip { .. } => None,
        };
        match ev {
            EngineEvent::Start { player, action, lands, options } => {
                let (kind, mut d, text) = describe(action, s.players[player].flying);
                d["lands"] = json!(lands as f64 / 1e6);
                d["options"] = json!(options);
                let text = format!("starts {kind}: {text}, lands at {:.3}s ({options} options)", lands as f64 / 1e6);
                self.emit(t, Some(player), "start", d, text, s);
            }
            EngineEvent::Landed { player, action } => {
                let (kind, d, text) = describe(action, placed(player, action));
                let text = format!("{text}  {}", self.layout(s, player));
                self.emit(t, Some(player), kind, d, text, s);
            }
            EngineEvent::Rejected { player, action } => {
                let (_, d, text) = describe(action, s.players[player].flying);
                self.emit(t, Some(player), "reject", d, format!("too late: {text} no longer fits"), s);
            }
            EngineEvent::Returned { player, action } => {
                let (_, d, text) = describe(action, source(player, action));
                self.emit(t, Some(player), "return", d, format!("card back: {text}"), s);
            }
            EngineEvent::Aborted { player, action, back } => {
                let (_, mut d, text) = describe(action, s.players[player].flying);
                d["back"] = json!(back as f64 / 1e6);
                self.emit(t, Some(player), "abort", d, format!("calls off {text}"), s);
            }
            EngineEvent::Cancelled { player, action } => {
                let (_, d, text) = describe(action, source(player, action));
                self.emit(t, Some(player), "cancel", d, format!("called off: {text}"), s);
            }
            EngineEvent::Stalled => self.emit(t, None, "stall", json!({}), "no progress possible".into(), s),
            EngineEvent::Synchronised => {
                let spits = self.spits(s);
                let laid: Vec<String> = spits.iter().map(|x| format!("P{} {} on pile {}", x["seat"], x["card"].as_str().unwrap_or("?"), x["pile"])).collect();
                let d = json!({"spit_cards": [s.players[0].spit, s.players[1].spit], "spits": spits});
                let text = format!("spit! {}; spit cards left {} / {}", laid.join(", "), s.players[0].spit, s.players[1].spit);
                self.emit(t, None, "spit", d, text, s);
            }
            EngineEvent::LivenessViolation { player } => {
                self.emit(t, Some(player), "liveness_violation", json!({}), "idle with a progress action (SPIT-RT-9)".into(), s)
            }
        }
    }
}

impl crate::realtime::MatchObserver<SpitState, SpitAction, SpitEvent> for SpitTracer<'_> {
    fn on_match_event(&mut self, t: Micros, ev: SpitEvent, s: &SpitState) {
        match ev {
            SpitEvent::Deal { round, holdings, fresh } => {
                let d = json!({"round": round, "holdings": holdings, "fresh": fresh, "layouts": [self.layout_json(s, 0), self.layout_json(s, 1)]});
                let text = format!("round {round}: holdings {} / {}{}  P0 {}  P1 {}", holdings[0], holdings[1], if fresh { " (fresh deal)" } else { "" }, self.layout(s, 0), self.layout(s, 1));
                self.emit(t, None, "deal", d, text, s);
            }
            SpitEvent::Opening => self.emit(t, None, "opening", json!({}), "spit! opening flip".into(), s),
            SpitEvent::RoundEnd { reason } => {
                let (r, who) = match reason {
                    RoundEndReason::WentOut(p) => ("went_out", Some(p)),
                    RoundEndReason::NoSpitCards => ("no_spit_cards", None),
                    RoundEndReason::SinglePileDeadlock => ("single_pile_deadlock", None),
                };
                self.emit(t, who, "round_end", json!({"reason": r}), format!("round over: {r}"), s);
            }
            SpitEvent::Slap { player, pile } => {
                self.emit(t, Some(player), "slap", json!({"pile": pile}), format!("slaps pile {pile} ({} cards)", s.piles[pile].len()), s)
            }
            SpitEvent::GiveAway { player, pile } => {
                self.emit(t, Some(player), "give_away", json!({"pile": pile}), format!("gives pile {pile} away"), s)
            }
            SpitEvent::Collected { holdings, took } => {
                let d = json!({"holdings": holdings, "took": took});
                let pile = |p: usize| took[p].map_or(format!("P{p} took none"), |j| format!("P{p} took pile {j}"));
                self.emit(t, None, "collect", d, format!("new holdings {} / {} ({}, {})", holdings[0], holdings[1], pile(0), pile(1)), s);
            }
            SpitEvent::Scores { points } => self.emit(t, None, "scores", json!({"points": points}), format!("points {} / {}", points[0], points[1]), s),
            SpitEvent::MatchEnd { winner, capped } => {
                let text = match (winner, capped) {
                    (_, true) => "match capped".to_string(),
                    (Some(w), _) => format!("P{w} wins"),
                    (None, _) => "no winner".to_string(),
                };
                self.emit(t, winner, "match_end", json!({"winner": winner, "capped": capped}), text, s);
            }
        }
    }
}
