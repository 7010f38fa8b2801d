//! `cardsim trace lopti`: turns engine events into trace lines (text and JSON Lines,
//! documented in `docs/lopti.md`).

use super::events::{Event, Observer};
use super::pile::Pile;
use super::ranks::{rank_name, Ranks};
use super::state::State;
use crate::runner::Ending;
use crate::trace::{TraceEvent, TraceSink};
use serde_json::{json, Map, Value};

/// Forwards every event of a game to a trace sink.
pub struct TraceObserver<'a> {
    sink: &'a mut dyn TraceSink,
}

impl<'a> TraceObserver<'a> {
    /// An observer writing to `sink`.
    pub fn new(sink: &'a mut dyn TraceSink) -> Self {
        TraceObserver { sink }
    }
}

fn names(r: Ranks) -> Value {
    json!(r.names())
}

/// The pile as in a position query: plays bottom to top, e.g. `[["9"], ["Q","Q"]]`.
pub(super) fn pile_json(pile: &Pile) -> Value {
    pile.plays().map(|(r, n)| vec![rank_name(r); n as usize]).collect()
}

fn cards_text(rank: u8, count: u8) -> String {
    format!("[{}]", vec![rank_name(rank); count as usize].join(" "))
}

/// The `ending` field of the `end` event.
fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Finished => "finished",
        Ending::Capped => "capped",
        Ending::Cycled => "cycled",
    }
}

/// The trace form of an event: (seat, kind, detail, text).
fn describe(state: &State, ev: Event) -> (Option<usize>, &'static str, Value, String) {
    match ev {
        Event::Deal { seat, hand, face_up, face_down } => (
            Some(seat as usize),
            "deal",
            json!({"hand": names(hand), "face_up": names(face_up), "face_down": names(face_down), "draw_pile": state.draw.len()}),
            format!("hand {hand} face-up {face_up} face-down {face_down} (draw pile {})", state.draw.len()),
        ),
        Event::Swap { seat, hand, face_up } => (
            Some(seat as usize),
            "swap",
            json!({"hand_card": rank_name(hand), "face_up_card": rank_name(face_up)}),
            format!("swaps hand {} for face-up {}", rank_name(hand), rank_name(face_up)),
        ),
        Event::TurnStart { seat, turn } => {
            let p = &state.players[seat as usize];
            (
                Some(seat as usize),
                "turn",
                json!({"turn": turn, "pile": pile_json(&state.pile), "run3": state.run3,
                       "obligation": state.obligation == Some(seat), "hand": names(p.hand),
                       "face_up": names(p.face_up), "face_down": p.face_down.len(), "draw_pile": state.draw.len()}),
                format!(
                    "turn {turn}: pile {:?} run3 {}{} | hand {} face-up {} face-down {} | draw pile {}",
                    state.pile,
                    state.run3,
                    if state.obligation == Some(seat) { " OBLIGED" } else { "" },
                    p.hand,
                    p.face_up,
                    p.face_down.len(),
                    state.draw.len()
                ),
            )
        }
        Event::Takeover { seat, cards } => {
            (Some(seat as usize), "takeover", json!({"cards": names(cards)}), format!("takes face-up {cards} into the hand"))
        }
        Event::Reveal { seat, rank, legal } => (
            Some(seat as usize),
            "reveal",
            json!({"rank": rank_name(rank), "legal": legal}),
            format!("reveals a face-down {} ({})", rank_name(rank), if legal { "legal" } else { "illegal" }),
        ),
        Event::Play { seat, rank, count, blind, bonus } => (
            Some(seat as usize),
            "play",
            json!({"rank": rank_name(rank), "count": count, "blind": blind, "bonus": bonus}),
            format!("{}plays {}{}", if bonus { "bonus: " } else { "" }, cards_text(rank, count), if blind { " face-down" } else { "" }),
        ),
        Event::Obligation { from, to, run3 } => (
            Some(from as usize),
            "obligation",
            json!({"to": to, "run3": run3}),
            format!("P{to} must play a 3 or take the pile (run3 {run3})"),
        ),
        Event::Clear { seat, cause, cards } => (
            Some(seat as usize),
            "clear",
            json!({"cause": cause.name(), "cards": names(cards)}),
            format!("clears {cards} by {}", cause.name()),
        ),
        Event::Bonus { seat } => (Some(seat as usize), "bonus", json!({}), "earns a bonus play".to_string()),
        Event::Pass { seat } => (Some(seat as usize), "pass", json!({}), "declines the bonus play".to_string()),
        Event::Draw { seat, rank, by_rule: false } => {
            (Some(seat as usize), "draw", json!({"rank": rank_name(rank), "draw_pile": state.draw.len()}), format!("draws {}", rank_name(rank)))
        }
        Event::Draw { seat, rank, by_rule: true } => (
            Some(seat as usize),
            "draw",
            json!({"rank": rank_name(rank), "draw_pile": state.draw.len(), "by_rule": true}),
            format!("draws {} (special rule)", rank_name(rank)),
        ),
        Event::Give { from, to, rank } => (
            Some(from as usize),
            "give",
            json!({"to": to, "rank": rank_name(rank)}),
            format!("gives {} to P{to} (special rule)", rank_name(rank)),
        ),
        Event::RuleFires { rule, when, event, actor } => (
            actor.map(|a| a as usize),
            "rule",
            json!({"rule": rule, "when": when.name(), "on": event.name()}),
            format!("special rule {rule} fires ({} {})", when.name(), event.name()),
        ),
        Event::HookDepthLimit { event } => (
            None,
            "hook_limit",
            json!({"on": event.name()}),
            format!("hooks on {} skipped: the hook chain reached lopti.hook_depth", event.name()),
        ),
        Event::Pickup { seat, cards, reason } => (
            Some(seat as usize),
            "pickup",
            json!({"cards": names(cards), "reason": reason.name()}),
            format!("takes the pile {cards} ({})", reason.name()),
        ),
        Event::Out { seat, place } => (Some(seat as usize), "out", json!({"place": place}), format!("is out in place {place}")),
        Event::End { winner, capped, cycled, turns, repeat_of } => (
            None,
            "end",
            json!({"winner": winner, "capped": capped, "cycled": cycled, "turns": turns, "pickups": state.counters.pickups,
                   "clears": state.counters.clears, "finish": state.finish[..state.finished as usize],
                   "ending": ending_name(state.ending()), "repeat_of": repeat_of}),
            match (capped, cycled, winner) {
                (_, true, _) => format!(
                    "cycled at turn {turns}: its position repeats the start of turn {}, so the bots would repeat it forever",
                    repeat_of.unwrap_or(0)
                ),
                (true, _, _) => format!("capped after {turns} turns"),
                (_, _, Some(w)) => format!("P{w} wins after {turns} turns"),
                (_, _, None) => format!("no winner after {turns} turns"),
            },
        ),
    }
}

/// The trace line of an engine event (also used by the session trace).
pub fn trace_event(state: &State, ev: Event) -> TraceEvent {
    let (seat, kind, detail, text) = describe(state, ev);
    let detail = match detail {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    TraceEvent { time: None, seat, kind, detail, text }
}

impl Observer for TraceObserver<'_> {
    fn event(&mut self, state: &State, ev: Event) {
        self.sink.event(trace_event(state, ev));
    }
}
