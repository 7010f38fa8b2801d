//! `cardsim legal lopti --position FILE|-`: the acting player's view as JSON in, his
//! legal actions out, one per line. Impossible positions are rejected with an error
//! naming the field.
//!
//! ```json
//! {"players": 3, "hand": ["9","9","K"], "face_up": ["4","J","A"], "face_down": 3,
//!  "pile": [["9"], ["Q","Q"]], "run3": 0, "obligation": false, "draw_pile": 10,
//!  "bonus": false, "rules": {"seven_on_seven": "equal_more"}}
//! ```
//! `players`, `hand`, `face_up`, `face_down` and `pile` are required; `run3` (0),
//! `obligation` (false), `draw_pile` (0), `bonus` (false) and `rules` (defaults) are optional.
//!
//! Limits: `players` 2 to 5; at most four cards of a rank in `hand`, `face_up` and the
//! pile together (so a pile has at most 44 plays: no 3s or 10s stay in it); `face_down`
//! 0 to 3; `run3` 0 to 3; `draw_pile` at most what the deal leaves. A key given twice
//! (at any depth) is an error naming it, and values quoted in errors are clipped to 60
//! characters.

use super::config::Rules;
use super::pile::{Pile, MAX_PLAYS};
use super::ranks::{parse_rank, rank_name, Rank, Ranks, TEN, THREE};
use super::rules::{clear_cause, is_legal_play};
use super::state::{Phase, Player, State, TurnState};
use super::entry::MAX_SEATS;
use crate::output::quote::clip;
use crate::rng::{rng_from, ChanceKey};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

const FIELDS: [&str; 10] = ["players", "hand", "face_up", "face_down", "pile", "run3", "obligation", "draw_pile", "bonus", "rules"];

fn int(obj: &Map<String, Value>, key: &str, default: Option<u64>, min: u64, max: u64) -> Result<u64, String> {
    match obj.get(key) {
        None => default.ok_or_else(|| format!("{key}: missing (required field)")),
        Some(v) => v
            .as_u64()
            .filter(|x| (min..=max).contains(x))
            .ok_or_else(|| format!("{key}: expected a whole number from {min} to {max}, got {}", clip(&v.to_string()))),
    }
}

fn boolean(obj: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match obj.get(key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or_else(|| format!("{key}: expected true or false, got {}", clip(&v.to_string()))),
    }
}

fn rank(v: &Value, at: &str) -> Result<Rank, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    parse_rank(&text).ok_or_else(|| format!("{at}: {} is not a rank (\"2\"..\"10\", \"J\", \"Q\", \"K\", \"A\")", clip(&v.to_string())))
}

fn cards(v: Option<&Value>, at: &str) -> Result<Ranks, String> {
    let items = v.ok_or_else(|| format!("{at}: missing (required field)"))?.as_array().ok_or_else(|| format!("{at}: expected an array of ranks"))?;
    let mut set = Ranks::EMPTY;
    for (i, item) in items.iter().enumerate() {
        let r = rank(item, &format!("{at}[{i}]"))?;
        if set.count(r) == 4 {
            return Err(format!("{at}: more than four {}s", rank_name(r)));
        }
        set.add(r, 1);
    }
    Ok(set)
}

fn rules(v: Option<&Value>) -> Result<Rules, String> {
    let mut rules = Rules::default();
    let Some(v) = v else { return Ok(rules) };
    let obj = v.as_object().ok_or("rules: expected an object such as {\"seven_on_seven\": \"free\"}")?;
    for (key, value) in obj {
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            other => other.to_string(),
        };
        rules.set(key, &text)?;
    }
    Ok(rules)
}

/// Reads the plays bottom to top, checking each was a legal play on the pile below it
/// that did not clear (a resolved pile holds no 3 or 10 and no four of a kind, LOPTI-INV-4).
fn pile(v: Option<&Value>, rules: &Rules) -> Result<Pile, String> {
    let plays = v.ok_or("pile: missing (required field; [] for an empty table)")?.as_array().ok_or("pile: expected an array of plays, e.g. [[\"9\"], [\"Q\",\"Q\"]]")?;
    if plays.len() > MAX_PLAYS {
        return Err(format!("pile: {} plays, but a pile holds at most {MAX_PLAYS} (44 cards without 3s and 10s)", plays.len()));
    }
    let mut pile = Pile::default();
    for (i, play) in plays.iter().enumerate() {
        let at = format!("pile[{i}]");
        let set = cards(Some(play), &at)?;
        let mut ranks = set.ranks();
        let r = ranks.next().ok_or_else(|| format!("{at}: a play has at least one card"))?;
        if ranks.next().is_some() {
            return Err(format!("{at}: a play is cards of one rank, got {set}"));
        }
        if r == THREE || r == TEN {
            return Err(format!("{at}: a {} never stays in the pile (LOPTI-INV-4)", rank_name(r)));
        }
        let n = set.len() as u8;
        if pile.cards().count(r) + n > 4 {
            return Err(format!("{at}: more than four {}s in the pile", rank_name(r)));
        }
        if !is_legal_play(&pile, false, r, n, rules) {
            return Err(format!("{at}: {set} cannot be played on {pile:?}"));
        }
        if clear_cause(&pile, 0, r, n).is_some() {
            return Err(format!("{at}: {set} on {pile:?} completes four and would have cleared (LOPTI-INV-4)"));
        }
        pile.push(r, n);
    }
    Ok(pile)
}

/// Parses and validates a position into a state whose seat 0 is the acting player, on
/// turn (his face-up cards already taken into an empty hand, LOPTI-FU-1); its view
/// (`.view(0)`) shows the position. The other seats hold nothing, and the face-down cards
/// and the draw pile are arbitrary cards the position does not show.
pub fn parse_position(text: &str) -> Result<State, String> {
    let value = strict_json(text)?;
    let obj = value.as_object().ok_or("position: expected a JSON object")?;
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("{}: unknown field; known fields: {}", clip(k), FIELDS.join(", ")));
    }
    let players_at_table = int(obj, "players", None, 2, MAX_SEATS as u64)?;
    let rules = rules(obj.get("rules"))?;
    let mut hand = cards(obj.get("hand"), "hand")?;
    let mut face_up = cards(obj.get("face_up"), "face_up")?;
    let face_down = int(obj, "face_down", None, 0, 3)? as u8;
    let pile = pile(obj.get("pile"), &rules)?;
    let run3 = int(obj, "run3", Some(0), 0, 3)? as u8;
    let obligated = boolean(obj, "obligation")?;
    let max_draw = 52 - 9 * players_at_table;
    let draw_pile = int(obj, "draw_pile", Some(0), 0, max_draw)? as u8;
    let bonus = boolean(obj, "bonus")?;

    if !matches!(face_up.len(), 0 | 3) {
        return Err(format!("face_up: a player has 3 face-up cards or none (LOPTI-INV-7), got {}", face_up.len()));
    }
    if !face_up.is_empty() && face_down != 3 {
        return Err("face_down: must be 3 while the face-up cards are on the table (LOPTI-INV-7)".into());
    }
    if hand.is_empty() && face_up.is_empty() && face_down == 0 {
        return Err("hand: the acting player holds no cards at all, so he is out (LOPTI-INV-9)".into());
    }
    let mut seen = hand;
    seen.add_all(face_up);
    seen.add_all(pile.cards());
    if let Some(r) = (0..13).find(|&r| seen.count(r) > 4) {
        return Err(format!("hand: with face_up and pile, more than four {}s", rank_name(r)));
    }
    if seen.count(THREE) + run3 > 4 {
        return Err(format!("run3: {run3} discarded 3s but {} more 3s in hand, face_up and pile", seen.count(THREE)));
    }
    if obligated && pile.is_empty() {
        return Err("obligation: 3s on an empty table create no obligation (LOPTI-3-6)".into());
    }
    if obligated && run3 == 0 {
        return Err("obligation: an obligation comes from 3s just played, so run3 must be at least 1 (LOPTI-INV-6)".into());
    }
    if !obligated && run3 > 0 && !pile.is_empty() {
        return Err("obligation: must be true when run3 > 0 and the pile is not empty (the next player must answer the 3s, LOPTI-3-3)".into());
    }
    if bonus && (!pile.is_empty() || run3 > 0) {
        return Err("bonus: a bonus play follows a clear, so the pile must be empty and run3 0 (LOPTI-BONUS-1)".into());
    }
    if seen.len() + face_down as u32 + draw_pile as u32 + run3 as u32 > 52 {
        return Err("draw_pile: more than 52 cards in the position".into());
    }
    if hand.is_empty() {
        std::mem::swap(&mut hand, &mut face_up);
    }
    let mut out = Ranks::EMPTY;
    out.add(THREE, run3);
    // The hidden cards: any of the cards the position does not show (legality depends
    // only on how many there are).
    let mut unseen = Ranks::DECK;
    unseen.remove_all(seen);
    unseen.remove_all(out);
    let mut deal = rng_from(0);
    let mut players = [Player::default(); MAX_SEATS];
    players[0] = Player { hand, face_up, face_down: unseen.take_random_n(face_down as u32, &mut deal), known: Ranks::EMPTY };
    let draw = unseen.take_random_n(draw_pile as u32, &mut deal);
    let start = State::at_start(rules, players_at_table as u8, players, draw, ChanceKey(0), 0);
    Ok(State { pile, out, run3, obligation: obligated.then_some(0), turn: TurnState { first: !bonus, bonus, draw_owed: false }, phase: Phase::Play, ..start })
}

/// The legal action lines of a position, in the order the `random` bot numbers them.
pub fn legal_lines(text: &str) -> Result<Vec<String>, String> {
    Ok(parse_position(text)?.view(0).legal_actions().iter().map(|a| a.to_string()).collect())
}

/// Parses JSON text like `serde_json::from_str::<Value>`, but a key given twice in an
/// object (which serde_json would silently resolve to the last) is an error naming
/// the key by its path, e.g. `rules.seven_on_seven`.
pub fn strict_json(text: &str) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict { path: String::new() }.deserialize(&mut de).and_then(|v| de.end().map(|_| v));
    value.map_err(|e| match e.classify() {
        serde_json::error::Category::Data => format!("position: {e}"),
        _ => format!("position: invalid JSON: {e}"),
    })
}

/// A JSON value at `path` (empty at the top), checked for duplicate keys.
struct Strict {
    path: String,
}

impl Strict {
    fn at_key(&self, key: &str) -> Strict {
        let key = clip(key);
        Strict { path: if self.path.is_empty() { key } else { format!("{}.{key}", self.path) } }
    }
}

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(Strict { path: format!("{}[{}]", self.path, items.len()) })? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let inner = self.at_key(&key);
            if obj.contains_key(&key) {
                return Err(de::Error::custom(format_args!("{}: key given twice", inner.path)));
            }
            let v = map.next_value_seed(inner)?;
            obj.insert(key, v);
        }
        Ok(Value::Object(obj))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_named_by_their_path() {
        let e = strict_json(r#"{"players": 2, "players": 3}"#).unwrap_err();
        assert!(e.starts_with("position: players: key given twice"), "{e}");
        let e = strict_json(r#"{"rules": {"seven_on_seven": "free", "seven_on_seven": "equal_more"}}"#).unwrap_err();
        assert!(e.contains("rules.seven_on_seven: key given twice"), "{e}");
        let e = strict_json(r#"{"pile": [{"a": 1, "a": 1}]}"#).unwrap_err();
        assert!(e.contains("pile[0].a: key given twice"), "{e}");
        assert_eq!(strict_json(r#"{"a": [1, -2, 2.5, null, true, "x"], "b": {"c": {}}}"#).unwrap(),
            serde_json::json!({"a": [1, -2, 2.5, null, true, "x"], "b": {"c": {}}}));
        assert!(strict_json("{} x").unwrap_err().contains("invalid JSON"), "trailing characters");
    }

    #[test]
    fn a_pile_beyond_the_limits_is_an_error_not_a_panic() {
        let plays = [r#"["2"]"#, r#"["4"]"#].repeat(23).join(", ");
        let e = parse_position(&format!(r#"{{"players": 2, "hand": ["K"], "face_up": [], "face_down": 0, "pile": [{plays}]}}"#)).unwrap_err();
        assert!(e.starts_with("pile: 46 plays"), "{e}");
        let plays = [r#"["2"]"#, r#"["4"]"#].repeat(5).join(", ");
        let e = parse_position(&format!(r#"{{"players": 2, "hand": ["K"], "face_up": [], "face_down": 0, "pile": [{plays}]}}"#)).unwrap_err();
        assert_eq!(e, "pile[8]: more than four 2s in the pile");
    }

    #[test]
    fn huge_values_are_clipped_in_errors() {
        let huge = "x".repeat(1_000_000);
        for json in [format!(r#"{{"players": "{huge}"}}"#), format!(r#"{{"{huge}": 1}}"#), format!(r#"{{"players": 2, "hand": ["{huge}"]}}"#)] {
            let e = parse_position(&json).unwrap_err();
            assert!(e.len() < 300 && e.contains('…'), "{} bytes: {e:.100}", e.len());
        }
    }
}
