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

use super::config::Rules;
use super::pile::Pile;
use super::ranks::{parse_rank, rank_name, Rank, Ranks, TEN, THREE};
use super::rules::{clear_cause, is_legal_play};
use super::view::{SeatInfo, View};
use super::entry::MAX_SEATS;
use serde_json::{Map, Value};

const FIELDS: [&str; 10] = ["players", "hand", "face_up", "face_down", "pile", "run3", "obligation", "draw_pile", "bonus", "rules"];

fn int(obj: &Map<String, Value>, key: &str, default: Option<u64>, min: u64, max: u64) -> Result<u64, String> {
    match obj.get(key) {
        None => default.ok_or_else(|| format!("{key}: missing (required field)")),
        Some(v) => v
            .as_u64()
            .filter(|x| (min..=max).contains(x))
            .ok_or_else(|| format!("{key}: expected a whole number from {min} to {max}, got {v}")),
    }
}

fn boolean(obj: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match obj.get(key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or_else(|| format!("{key}: expected true or false, got {v}")),
    }
}

fn rank(v: &Value, at: &str) -> Result<Rank, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    parse_rank(&text).ok_or_else(|| format!("{at}: {v} is not a rank (\"2\"..\"10\", \"J\", \"Q\", \"K\", \"A\")"))
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

/// Parses and validates a position into the acting player's view (his face-up cards
/// already taken into an empty hand, LOPTI-FU-1).
pub fn parse_position(text: &str) -> Result<View, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("position: invalid JSON: {e}"))?;
    let obj = value.as_object().ok_or("position: expected a JSON object")?;
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("{k}: unknown field; known fields: {}", FIELDS.join(", ")));
    }
    let players = int(obj, "players", None, 2, MAX_SEATS as u64)?;
    let rules = rules(obj.get("rules"))?;
    let mut hand = cards(obj.get("hand"), "hand")?;
    let mut face_up = cards(obj.get("face_up"), "face_up")?;
    let face_down = int(obj, "face_down", None, 0, 3)? as u8;
    let pile = pile(obj.get("pile"), &rules)?;
    let run3 = int(obj, "run3", Some(0), 0, 3)? as u8;
    let obligated = boolean(obj, "obligation")?;
    let max_draw = 52 - 9 * players;
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
    let mut seats = [SeatInfo::default(); MAX_SEATS];
    seats[0] = SeatInfo { hand: hand.len() as u8, known: Ranks::EMPTY, face_up, face_down, out: false, picked_up: false };
    let mut out_of_round = Ranks::EMPTY;
    out_of_round.add(THREE, run3);
    Ok(View {
        seat: 0,
        players: players as u8,
        current: 0,
        setup: false,
        swapped: 0,
        hand,
        face_up,
        face_down,
        pile,
        run3,
        obligated,
        bonus,
        draw_owed: false,
        draw_pile,
        out_of_round,
        seats,
        rules,
    })
}

/// The legal action lines of a position, in the order the `random` bot numbers them.
pub fn legal_lines(text: &str) -> Result<Vec<String>, String> {
    Ok(parse_position(text)?.legal_actions().iter().map(|a| a.to_string()).collect())
}
