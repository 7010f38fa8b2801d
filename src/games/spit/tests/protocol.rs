//! The bot protocol's Spit view shows what the player sees and nothing hidden: which
//! cards lie face-down (his own or the opponent's) never changes it, a face-up card does.

use super::kit::position;
use crate::cards::CardSet;
use crate::games::spit::config::SpitConfig;
use crate::games::spit::protocol::view_json;
use crate::games::spit::view::SpitView;

#[test]
fn the_view_sent_to_a_bot_holds_no_hidden_card() {
    let cfg = SpitConfig::default();
    let s = position([&["2/Ac", "Kd", "1/?"], &["3/2h", "-"]], [5, 6], [Some("9s"), Some("4d")]);
    let seen = |s: &crate::games::spit::state::SpitState, p: usize| view_json(&SpitView::new(s, p, &cfg)).to_string();
    for p in 0..2 {
        // Exchange the hidden cards of the two players: same counts, other cards.
        let mut other = s;
        let (a, b) = (s.players[0].hidden, s.players[1].hidden);
        let all = CardSet(a.0 | b.0);
        // Player 0 gets the highest of them (the kit deals him the lowest).
        let mut first = CardSet::EMPTY;
        for c in all.iter().collect::<Vec<_>>().into_iter().rev().take(a.len() as usize) {
            first.insert(c);
        }
        other.players[0].hidden = first;
        other.players[1].hidden = CardSet(all.0 & !first.0);
        assert_ne!((other.players[0].hidden, other.players[1].hidden), (a, b), "the test moves hidden cards");
        assert_eq!(seen(&other, p), seen(&s, p), "seat {p}: hidden cards are not in the view");
        // A face-up card is.
        let mut shown = s;
        shown.players[1 - p].slots[0].up = None;
        assert_ne!(seen(&shown, p), seen(&s, p), "seat {p}: the opponent's face-up cards are in the view");
    }
    let v: serde_json::Value = serde_json::from_str(&seen(&s, 0)).unwrap();
    assert_eq!(v["mine"]["tops"], serde_json::json!(["Ac", "Kd", null, null, null]));
    assert_eq!(v["mine"]["face_down"], serde_json::json!([2, 0, 1, 0, 0]));
    assert_eq!(v["theirs"]["tops"][0], "2h");
    assert_eq!((&v["piles"][0]["top"], &v["piles"][1]["top"]), (&serde_json::json!("9s"), &serde_json::json!("4d")));
}
