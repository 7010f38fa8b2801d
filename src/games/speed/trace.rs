//! Turns Speed's engine and match events into trace events (docs/speed.md lists the
//! kinds and their fields). The trace sees everything, hands and drawn cards included.

use super::game::{DealEndReason, SpeedEvent};
use super::rules::SpeedAction;
use super::state::SpeedState;
use crate::cards::{Card, CardSet};
use crate::realtime::{EngineEvent, EngineObserver, Micros};
use crate::trace::{TraceEvent, TraceSink};
use serde_json::{json, Map, Value};

/// Writes every event of a Speed match to a sink.
pub struct SpeedTracer<'a> {
    sink: &'a mut dyn TraceSink,
    /// Hands after the previous event, to name the card a draw brought in.
    hands: [CardSet; 2],
    /// Re-formings of the side piles seen so far this deal.
    recycles: u16,
    /// Centre tops after the previous event, to name the cards a flip turned.
    tops: [Option<Card>; 2],
}

impl<'a> SpeedTracer<'a> {
    /// A tracer writing to `sink`.
    pub fn new(sink: &'a mut dyn TraceSink) -> Self {
        SpeedTracer { sink, hands: [CardSet::EMPTY; 2], recycles: 0, tops: [None; 2] }
    }

    fn emit(&mut self, time: Micros, seat: Option<usize>, kind: &'static str, detail: Value, text: String, s: &SpeedState) {
        let mut map = match detail {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        map.insert("pile_tops".into(), json!([name(s.centre[0].top), name(s.centre[1].top)]));
        map.insert("pile_sizes".into(), json!([s.centre[0].len(), s.centre[1].len()]));
        map.insert("side_sizes".into(), json!([s.side[0].len(), s.side[1].len()]));
        let suffix = format!("  | centre {} {}  side {}/{}", top_text(s, 0), top_text(s, 1), s.side[0].len(), s.side[1].len());
        self.sink.event(TraceEvent { time: Some(time as f64 / 1e6), seat, kind, detail: map, text: text + &suffix });
        self.hands = [s.players[0].hand, s.players[1].hand];
        self.tops = [s.centre[0].top, s.centre[1].top];
    }
}

fn name(c: Option<Card>) -> Value {
    c.map_or(Value::Null, |c| Value::from(c.name()))
}

fn top_text(s: &SpeedState, j: usize) -> String {
    match s.centre[j].top {
        Some(c) => format!("{}({})", c.name(), s.centre[j].len()),
        None => "??".into(),
    }
}

fn hand_text(s: &SpeedState, p: usize) -> String {
    let me = &s.players[p];
    let cards: Vec<String> = me.hand.iter().map(Card::name).collect();
    format!("P{p} hand [{}] stock {}", cards.join(" "), me.stock.len())
}

/// The action's kind, its fields and a short text; `card` is the card moved, if known.
pub(super) fn describe(a: SpeedAction, card: Option<Card>) -> (&'static str, Value, String) {
    match a {
        SpeedAction::Play { card, pile } => ("play", json!({"action": "play", "card": card.name(), "pile": pile}), format!("{} to pile {pile}", card.name())),
        SpeedAction::Draw => ("draw", json!({"action": "draw", "card": name(card)}), format!("draws {}", card.map_or("a card".into(), |c| c.name()))),
    }
}

impl EngineObserver<SpeedState, SpeedAction> for SpeedTracer<'_> {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<SpeedAction>, s: &SpeedState) {
        match ev {
            EngineEvent::Start { player, action, lands, options } => {
                let (kind, mut d, text) = describe(action, None);
                d["lands"] = json!(lands as f64 / 1e6);
                d["options"] = json!(options);
                let text = format!("starts {kind}: {text}, lands at {:.3}s ({options} options)", lands as f64 / 1e6);
                self.emit(t, Some(player), "start", d, text, s);
            }
            EngineEvent::Landed { player, action } => {
                let drawn = CardSet(s.players[player].hand.0 & !self.hands[player].0).iter().next();
                let (kind, d, text) = describe(action, drawn);
                self.emit(t, Some(player), kind, d, format!("{text}  {}", hand_text(s, player)), s);
            }
            EngineEvent::Rejected { player, action } => {
                let (_, d, text) = describe(action, None);
                self.emit(t, Some(player), "reject", d, format!("too late: {text} no longer fits"), s);
            }
            EngineEvent::Returned { player, action } => {
                let (_, d, text) = describe(action, None);
                self.emit(t, Some(player), "return", d, format!("card back in hand: {text}"), s);
            }
            EngineEvent::Aborted { player, action, back } => {
                let (_, mut d, text) = describe(action, None);
                d["back"] = json!(back as f64 / 1e6);
                self.emit(t, Some(player), "abort", d, format!("calls off {text}"), s);
            }
            EngineEvent::Cancelled { player, action } => {
                let (_, d, text) = describe(action, None);
                self.emit(t, Some(player), "cancel", d, format!("called off: {text}"), s);
            }
            EngineEvent::Stalled => self.emit(t, None, "stall", json!({}), "no play, hands full or stocks empty".into(), s),
            EngineEvent::Synchronised => {
                let recycled = s.recycles != self.recycles;
                self.recycles = s.recycles;
                // A side card always differs from the top it covers (the top is never
                // re-formed into a side pile), so a changed top is a turned card.
                let turned: [Option<Card>; 2] = std::array::from_fn(|j| s.centre[j].top.filter(|&c| self.tops[j] != Some(c)));
                let d = json!({"recycled": recycled, "recycles": s.recycles, "turned": [name(turned[0]), name(turned[1])]});
                let shown = |j: usize| turned[j].map_or("nothing".into(), |c| c.name());
                let text = format!("{}flip! {} / {}", if recycled { "side piles re-formed from the centre; " } else { "" }, shown(0), shown(1));
                self.emit(t, None, "flip", d, text, s);
            }
            EngineEvent::LivenessViolation { player } => {
                self.emit(t, Some(player), "liveness_violation", json!({}), "idle with a progress action (SPIT-RT-9)".into(), s)
            }
        }
    }
}

impl crate::realtime::MatchObserver<SpeedState, SpeedAction, SpeedEvent> for SpeedTracer<'_> {
    fn on_match_event(&mut self, t: Micros, ev: SpeedEvent, s: &SpeedState) {
        match ev {
            SpeedEvent::Deal { deal } => {
                self.recycles = 0;
                let d = json!({"deal": deal, "stocks": [s.players[0].stock.len(), s.players[1].stock.len()]});
                self.emit(t, None, "deal", d, format!("deal {deal}: stocks {} / {}", s.players[0].stock.len(), s.players[1].stock.len()), s);
            }
            SpeedEvent::Hands => {
                let hand = |p: usize| Value::from(s.players[p].hand.iter().map(|c| c.name()).collect::<Vec<_>>());
                let d = json!({"hands": [hand(0), hand(1)], "stocks": [s.players[0].stock.len(), s.players[1].stock.len()]});
                self.emit(t, None, "hands", d, format!("{}  {}", hand_text(s, 0), hand_text(s, 1)), s);
            }
            SpeedEvent::Opening => {
                let d = json!({"middle": [name(s.centre[0].top), name(s.centre[1].top)]});
                let text = format!("middle cards turned up: {} / {}", top_text(s, 0), top_text(s, 1));
                self.emit(t, None, "opening", d, text, s);
            }
            SpeedEvent::DealEnd { reason, winner, scored } => {
                let r = match reason {
                    DealEndReason::WentOut(_) => "went_out",
                    DealEndReason::NothingToRecycle => "nothing_to_recycle",
                    DealEndReason::Deadlock => "deadlock",
                };
                let left = [s.players[0].count(), s.players[1].count()];
                let d = json!({"reason": r, "winner": winner, "scored": scored, "cards_left": left});
                let text = format!("deal over: {r}, winner {}, scores {scored}; cards left {} / {}", winner.map_or("none (draw)".into(), |w| format!("P{w}")), left[0], left[1]);
                // The event belongs to the deal's winner whenever there is one (the player
                // who went out, or the one with fewer cards after a stall).
                self.emit(t, winner, "deal_end", d, text, s);
            }
            SpeedEvent::MatchEnd { winner, capped, points } => {
                let text = match (winner, capped) {
                    (_, true) => "match capped".to_string(),
                    (Some(w), _) => format!("P{w} wins, points {} / {}", points[0], points[1]),
                    (None, _) => "draw".to_string(),
                };
                self.emit(t, winner, "match_end", json!({"winner": winner, "capped": capped, "points": points}), text, s);
            }
        }
    }
}
